//! A tournament's round seated and started: who plays (round one: every entrant not a
//! reserve; later: who advanced, declines replaced), the seating under WM B.6 from the published
//! seed, one game per board with the round's final year (B.3), its players, the directors as
//! its TD masters, started in the caller's transaction.

use super::standings::standings_input;
use super::{map_of_tournament, refused};
use crate::assignment::{Seat, seat};
use crate::config::Env;
use crate::engine::{EngineError, Result};
use crate::games::diplomacy::admin;
use crate::games::diplomacy::store::{self, BoardRow, EntrantRow, TournamentRow};
use crate::map::Map;
use crate::standings::{self, GameResult, Rulebook};
use crate::store::Conn;
use crate::time::Ts;
use std::collections::HashMap;

/// WM B.3: the final year of each round (the team rounds to Fall 1909, the semi-final 1912, the
/// final 1915); Maharajiad A.10: the first round to Fall 1510, the second until a victory.
fn final_year(rulebook: Rulebook, round: i64) -> Option<u16> {
    match (rulebook, round) {
        (Rulebook::Wm2004, 1 | 2) => Some(1909),
        (Rulebook::Wm2004, 3) => Some(1912),
        (Rulebook::Wm2004, _) => Some(1915),
        (Rulebook::Maharajiad, 1) => Some(1510),
        (Rulebook::Maharajiad, _) => None,
    }
}

/// The rounds a rulebook has (WM B.1: four; Maharajiad A.9: two).
fn rounds_of(rulebook: Rulebook) -> i64 {
    match rulebook {
        Rulebook::Wm2004 => 4,
        Rulebook::Maharajiad => 2,
    }
}

/// The seating seed of a round: from the published seed, so anyone can redo the draw.
fn seating_seed(seed: &str, round: i64) -> u64 {
    crate::scoring::fnv1a(format!("{seed}|seating|{round}").bytes())
}

/// Swaps the seating search may try: enough for round two of a world final (WM B.6).
const SEATING_ROUNDS: u64 = 2_000_000;

/// A round just made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundMade {
    pub round: i64,
    /// (board, game id)
    pub boards: Vec<(i64, String)>,
    /// WM B.6 constraints the seating could not meet, in words with the clause.
    pub unmet: Vec<String>,
}

/// Seat and start the next round, in the caller's transaction: who plays (round one: every
/// entrant not a reserve; later: who advanced, declines replaced), the seating under WM B.6
/// from the published seed, one game per board with the round's final year (B.3), its players,
/// the directors as its TD masters, started (and everyone mailed, with `tell`).
pub async fn start_round(
    c: &mut Conn,
    tell: Option<&Env>,
    t: &TournamentRow,
    now: Ts,
) -> Result<RoundMade> {
    let map = map_of_tournament(t)?;
    let boards = store::boards(c, &t.id).await?;
    let round = next_round(c, t, &boards).await?;
    let entrants = store::entrants(c, &t.id).await?;
    // The earlier rounds' games (all over, checked above): who advances, and whom each met.
    let input = if round == 1 {
        None
    } else {
        Some(standings_input(c, t, &entrants, &boards).await?)
    };
    let who: Vec<&EntrantRow> = match &input {
        None => entrants.iter().filter(|e| !e.reserve).collect(),
        Some(input) => standings::standings(input, (round - 1) as u8)
            .advancing
            .iter()
            .filter_map(|a| entrants.iter().find(|e| &e.address == a))
            .collect(),
    };
    let earlier: &[GameResult] = input.as_ref().map_or(&[], |i| &i.games);
    check_boards_fill(t.rulebook, round, &who, map.powers.len())?;
    let seats = seats_of(map, round, &who, earlier);
    let seed = seating_seed(&t.seed, round);
    let seating = seat(&seats, map.powers.len(), seed, SEATING_ROUNDS).map_err(refused)?;
    let mut options: Vec<(String, String)> = serde_json::from_str(&t.options)?;
    options.push((
        "final_year".into(),
        final_year(t.rulebook, round).map_or("null".into(), |y| y.to_string()),
    ));
    let directors = store::directors(c, &t.id).await?;
    let mut made = Vec::new();
    for (i, board) in seating.boards.iter().enumerate() {
        let number = i as i64 + 1;
        let players: Vec<&EntrantRow> = board.iter().map(|&p| who[p]).collect();
        let new = NewBoard {
            round,
            number,
            players: &players,
            options: &options,
            directors: &directors,
        };
        made.push((number, make_board(c, tell, t, map, &new, now).await?));
    }
    // What the seating could not meet, with the players' addresses and the powers' names.
    let unmet = crate::assignment::describe_with(
        &seats,
        &seating.boards,
        map.powers.len(),
        |a| who[a].address.clone(),
        |k| map.powers[k].name.clone(),
    );
    Ok(RoundMade {
        round,
        boards: made,
        unmet,
    })
}

/// The number of the round to make next, or why none can be: every round is made, or the
/// last one is still playing.
async fn next_round(c: &mut Conn, t: &TournamentRow, boards: &[BoardRow]) -> Result<i64> {
    let rulebook = t.rulebook;
    let round = boards.iter().map(|b| b.round).max().unwrap_or(0) + 1;
    if round > rounds_of(rulebook) {
        return Err(refused(format!(
            "the tournament has {} rounds, all made",
            rounds_of(rulebook)
        )));
    }
    let mut playing = Vec::new();
    for b in boards.iter().filter(|b| b.round == round - 1) {
        let g = store::game(c, &b.game_id).await?;
        if g.is_none_or(|g| g.status != store::GameStatus::Finished) {
            playing.push(b.game_id.clone());
        }
    }
    if !playing.is_empty() {
        return Err(refused(format!(
            "round {} is not over: {} still playing",
            round - 1,
            playing.join(", ")
        )));
    }
    Ok(round)
}

/// Whether the players fill whole boards of `powers`; in WM round one, whether every player is
/// on a team and the teams are of seven (WM B.2).
fn check_boards_fill(
    rulebook: Rulebook,
    round: i64,
    who: &[&EntrantRow],
    powers: usize,
) -> Result<()> {
    if round == 1 && rulebook == Rulebook::Wm2004 {
        let mut teams: std::collections::BTreeMap<&str, usize> = Default::default();
        for e in who {
            let team = e
                .team
                .as_deref()
                .ok_or_else(|| refused(format!("{} is on no team (WM B.2)", e.address)))?;
            *teams.entry(team).or_default() += 1;
        }
        if let Some((team, n)) = teams.iter().find(|(_, n)| **n != powers) {
            return Err(refused(format!(
                "team {team} has {n} players, not {powers} (WM B.2)"
            )));
        }
    }
    if who.is_empty() || !who.len().is_multiple_of(powers) {
        return Err(refused(format!(
            "{} players do not fill boards of {powers}",
            who.len()
        )));
    }
    Ok(())
}

/// The seats: each player's team (their own if none: B.6(b) then means nothing), the power
/// fixed in round one (B.5), and what they played and whom they met before (B.6 c, d).
fn seats_of(map: &Map, round: i64, who: &[&EntrantRow], earlier: &[GameResult]) -> Vec<Seat> {
    let history = history_of(who, earlier);
    let mut team_index: Vec<String> = Vec::new();
    who.iter()
        .map(|e| {
            let team_name = e
                .team
                .clone()
                .unwrap_or_else(|| format!("\u{0}{}", e.address));
            let team = match team_index.iter().position(|x| *x == team_name) {
                Some(i) => i,
                None => {
                    team_index.push(team_name);
                    team_index.len() - 1
                }
            };
            let power = if round == 1 {
                e.power
                    .as_deref()
                    .and_then(|p| map.power_by_name(p))
                    .map(|p| p.0 as usize)
            } else {
                None
            };
            let (played, met) = history.get(e.address.as_str()).cloned().unwrap_or_default();
            Seat {
                team,
                power,
                played,
                met: met
                    .iter()
                    .filter_map(|m| who.iter().position(|w| &w.address == m))
                    .collect(),
            }
        })
        .collect()
}

/// What each player played before and whom they met (WM B.6 c, d): the powers and the other
/// players of their earlier boards.
fn history_of<'a>(
    who: &[&'a EntrantRow],
    earlier: &[GameResult],
) -> HashMap<&'a str, (Vec<usize>, Vec<String>)> {
    let mut history: HashMap<&str, (Vec<usize>, Vec<String>)> = HashMap::new();
    for g in earlier {
        let at_board: Vec<&str> = g
            .positions
            .iter()
            .map(|p| p.stints[0].player.as_str())
            .collect();
        for p in &g.positions {
            if let Some(e) = who.iter().find(|e| e.address == p.stints[0].player) {
                let h = history.entry(e.address.as_str()).or_default();
                h.0.push(p.power.0 as usize);
                h.1.extend(
                    at_board
                        .iter()
                        .filter(|a| **a != e.address)
                        .map(|a| a.to_string()),
                );
            }
        }
    }
    history
}

/// One board of a round to make: its players in the powers' order, and what every board of
/// the round shares.
struct NewBoard<'a> {
    round: i64,
    number: i64,
    players: &'a [&'a EntrantRow],
    /// The game's options: the tournament's, with the round's final year.
    options: &'a [(String, String)],
    directors: &'a [store::DirectorRow],
}

/// Make a board's game: created, its players and the directors as its TD masters, recorded as
/// the board, started. Its id.
async fn make_board(
    c: &mut Conn,
    tell: Option<&Env>,
    t: &TournamentRow,
    map: &Map,
    b: &NewBoard<'_>,
    now: Ts,
) -> Result<String> {
    let game = format!("{}r{}b{}", t.id, b.round, b.number);
    let new = admin::NewGame {
        id: &game,
        preset: &t.preset,
        variant: &t.variant,
        gm_address: &t.gm_address,
        confirm_address: &t.confirm_address,
        options: b.options,
    };
    admin::create_game_in(c, &new, now)
        .await
        .map_err(|e| refused(e.to_string()))?;
    for (k, e) in b.players.iter().enumerate() {
        let player = admin::NewPlayer {
            game: &game,
            power: &map.powers[k].name,
            address: &e.address,
            name: &e.name,
            tz: &e.tz,
            secret: None,
        };
        admin::add_player_in(c, &player)
            .await
            .map_err(|e| refused(e.to_string()))?;
    }
    for d in b.directors {
        let m = store::MemberRow {
            role: store::Role::Td,
            address: d.address.clone(),
            name: String::new(),
            tz: d.tz.clone(),
            secret: d.secret.clone(),
        };
        store::add_member(c, &game, &m, now).await?;
    }
    store::add_board(c, &t.id, b.round, b.number, &game).await?;
    let g = store::game(c, &game)
        .await?
        .ok_or_else(|| EngineError::NoGame(game.clone()))?;
    admin::start_in(c, tell, &g, now).await?;
    Ok(game)
}
