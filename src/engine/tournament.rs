//! Tournaments (issue 14; WM 2004 B and C, Maharajiad I A): created, signed up, run round by
//! round (each board a game of the round's preset and final year), scored after every finished
//! game, and the standings mailed to the directors and, once released, to every player. The
//! console (`chancery tournament ...`) and the directors' command mails (`td_mail.rs`) both come
//! here.

use super::*;
use crate::assignment::{Seat, seat};
use crate::outgoing::notices;
use crate::standings::{self, End, Entrant, GameResult, Position, Rulebook, Standings, Stint};
use crate::store::{BoardRow, DirectorRow, EndKind, EntrantRow, TournamentRow};
use crate::td_commands::TdCommand;

/// What a new tournament needs.
pub struct NewTournament<'a> {
    pub id: &'a str,
    /// `wm2004` or `maharajiad`.
    pub rulebook: &'a str,
    /// The house rules of its games; None: the rulebook's own preset.
    pub preset: Option<&'a str>,
    /// None: the rulebook's map (standard; maharajah for the Maharajiad).
    pub variant: Option<&'a str>,
    pub gm_address: &'a str,
    pub confirm_address: &'a str,
    /// The published seed of the dice and the seating; None: the tournament's id.
    pub seed: Option<&'a str>,
    /// Single house-rule options set in every game (deadlines and the like).
    pub options: &'a [(String, String)],
}

fn refused(why: impl Into<String>) -> EngineError {
    EngineError::Refused(why.into())
}

fn map_of_tournament(t: &TournamentRow) -> Result<&'static Map> {
    Map::variant(&t.variant).ok_or_else(|| EngineError::UnknownVariant {
        game: t.id.clone(),
        variant: t.variant.clone(),
    })
}

/// Create a tournament: its rulebook, the preset and options of its games, the seed.
pub async fn create(pool: &SqlitePool, n: &NewTournament<'_>, now: Ts) -> Result<TournamentRow> {
    let rulebook: Rulebook = n.rulebook.parse().map_err(|e| refused(format!("{e}")))?;
    // Each rulebook's preset is named as the rulebook.
    let preset = n.preset.unwrap_or(rulebook.name());
    let variant = n.variant.unwrap_or(rulebook.variant());
    let mut rules = Rules::preset(preset).map_err(|e| refused(e.to_string()))?;
    for (o, v) in n.options {
        rules = rules.set(o, v).map_err(|e| refused(e.to_string()))?;
    }
    if Map::variant(variant).is_none() {
        return Err(refused(format!("unknown variant '{variant}'")));
    }
    let id = n.id.trim();
    if id.is_empty()
        || id.len() > 32
        || !id.chars().all(|c| c.is_ascii_alphanumeric())
        || !id.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return Err(refused(
            "a tournament id is a letter then letters and digits, at most 32 (it is written in subjects)",
        ));
    }
    let mut c = pool.acquire().await?;
    if store::game(&mut c, id).await?.is_some() {
        return Err(refused(format!("'{id}' is already a game's name")));
    }
    let t = TournamentRow {
        id: id.to_ascii_lowercase(),
        rulebook,
        preset: preset.to_string(),
        variant: variant.to_string(),
        gm_address: n.gm_address.to_string(),
        confirm_address: n.confirm_address.to_string(),
        seed: n.seed.unwrap_or(id).to_string(),
        options: serde_json::to_string(n.options)?,
        released: false,
    };
    store::create_tournament(&mut c, &t, now).await?;
    store::tournament(&mut c, id)
        .await?
        .ok_or_else(|| refused("the tournament just created is gone"))
}

/// The tournament of this id, or why not.
pub async fn get(c: &mut SqliteConnection, id: &str) -> Result<TournamentRow> {
    store::tournament(c, id)
        .await?
        .ok_or_else(|| refused(format!("no tournament '{id}'")))
}

/// Add a tournament director: they command the tournament by mail (subject `<id> TD`) with the
/// secret returned, and are a TD master of every game it starts.
pub async fn add_director(
    pool: &SqlitePool,
    id: &str,
    address: &str,
    tz: &str,
) -> Result<DirectorRow> {
    let mut c = pool.acquire().await?;
    let t = get(&mut c, id).await?;
    if tz != "UTC" && tz.parse::<chrono_tz::Tz>().is_err() {
        return Err(refused(format!("unknown time zone '{tz}'")));
    }
    let d = DirectorRow {
        address: address.to_ascii_lowercase(),
        tz: tz.to_string(),
        // A refusal: the director's line is answered (and undone), not the whole mail failed.
        secret: secret::generate().map_err(|e| refused(e.to_string()))?,
    };
    store::add_director(&mut c, &t.id, &d).await?;
    Ok(d)
}

/// Sign a player up (WM B.2: teams and captains; B.5: the power the team gives in round one;
/// reserves), checked against the tournament's map and the teams so far.
pub async fn add_entrant(
    c: &mut SqliteConnection,
    t: &TournamentRow,
    e: &EntrantRow,
) -> Result<()> {
    let map = map_of_tournament(t)?;
    let power = match &e.power {
        Some(p) => Some(
            map.power_by_name(p)
                .map(|p| map.power_name(p).to_string())
                .ok_or_else(|| refused(format!("unknown power '{p}'")))?,
        ),
        None => None,
    };
    if e.tz != "UTC" && e.tz.parse::<chrono_tz::Tz>().is_err() {
        return Err(refused(format!("unknown time zone '{}'", e.tz)));
    }
    if !store::boards(c, &t.id).await?.is_empty() && !e.reserve {
        return Err(refused(
            "the first round has started: only reserves can sign up now (WM B.2, B.8(d))",
        ));
    }
    if let Some(team) = &e.team {
        let mates: Vec<EntrantRow> = store::entrants(c, &t.id)
            .await?
            .into_iter()
            .filter(|x| x.team.as_deref() == Some(team.as_str()) && !x.reserve)
            .collect();
        if !e.reserve && mates.len() >= map.powers.len() {
            return Err(refused(format!(
                "team {team} already has {} players (WM B.2: teams of {})",
                mates.len(),
                map.powers.len()
            )));
        }
        if let Some(p) = &power
            && mates.iter().any(|m| m.power.as_deref() == Some(p.as_str()))
        {
            return Err(refused(format!(
                "a player of team {team} already plays {p} (WM B.6(a))"
            )));
        }
        if e.captain && mates.iter().any(|m| m.captain) {
            return Err(refused(format!("team {team} already has a captain")));
        }
    }
    let row = EntrantRow { power, ..e.clone() };
    store::add_entrant(c, &t.id, &row).await?;
    Ok(())
}

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
    c: &mut SqliteConnection,
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
async fn next_round(
    c: &mut SqliteConnection,
    t: &TournamentRow,
    boards: &[BoardRow],
) -> Result<i64> {
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
    c: &mut SqliteConnection,
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
    admin::start_in(c, tell, &game, now).await?;
    Ok(game)
}

/// Who played each power of a game, in order: from the replacements recorded (WM B.7-B.8) and
/// the players now. The first stint of each power is its initial player, from the start.
async fn stints_of(
    c: &mut SqliteConnection,
    game: &str,
    map: &Map,
    players: &[store::PlayerRow],
) -> Result<(Vec<(Power, Vec<Stint>)>, Phase)> {
    let start = crate::adjudicator::Board::initial(map).phase;
    let replacements = store::replacements(c, game).await?;
    let mut out = Vec::new();
    for p in map.all_powers() {
        let name = map.power_name(p);
        let reps: Vec<&store::ReplacementRow> =
            replacements.iter().filter(|r| r.power == name).collect();
        let initial = match reps.first() {
            Some(r) => r.old_address.to_ascii_lowercase(),
            None => players
                .iter()
                .find(|x| x.power == name)
                .map(|x| x.address.to_ascii_lowercase())
                .unwrap_or_default(),
        };
        let mut stints = vec![Stint {
            player: initial.clone(),
            from: start,
            permanent: true,
        }];
        for r in reps {
            let who = r.new_address.to_ascii_lowercase();
            stints.push(Stint {
                permanent: r.kind == "permanent" || who == initial,
                player: who,
                from: r.phase.parse()?,
            });
        }
        out.push((p, stints));
    }
    Ok((out, start))
}

/// The facts of one finished board, for scoring.
async fn game_result(
    c: &mut SqliteConnection,
    map: &Map,
    b: &BoardRow,
) -> Result<Option<GameResult>> {
    let Some(g) = store::game(c, &b.game_id)
        .await?
        .filter(|g| g.status == store::GameStatus::Finished)
    else {
        return Ok(None);
    };
    let Some(ended) = store::game_ended(c, &g.id).await? else {
        return Ok(None);
    };
    let rules = rules_of(&g)?;
    let power = |name: &str| {
        map.power_by_name(name)
            .ok_or_else(|| EngineError::StoredBoard(format!("unknown power '{name}'")))
    };
    let after: Phase = ended.after.parse()?;
    let winner = ended.winner.as_deref().map(power).transpose()?;
    let end = match (ended.end, winner) {
        (EndKind::Solo, Some(w)) => End::Solo(w),
        (EndKind::ConcededSolo, Some(w)) => End::ConcededSolo(w),
        // The draw's powers are not recorded: every survivor is in it (WM D.IX(4) aside).
        (EndKind::Vote, _) => End::Vote {
            excluded: Vec::new(),
        },
        // A game that stopped before its final year (or without one) without a solo or a vote
        // was stopped by Maharajiad B.X(1): three years without a centre changing owner.
        _ if rules.final_year.is_none_or(|y| after.year < y) => End::Stalemate,
        _ => End::Played,
    };
    let mut centres = Vec::new();
    for (name, n) in &ended.centres {
        centres.push((power(name)?, *n));
    }
    let history = store::year_ends(c, &g.id)
        .await?
        .into_iter()
        .map(|end| {
            let counts = map
                .all_powers()
                .map(|p| {
                    let name = map.power_name(p);
                    let n = end
                        .owners
                        .iter()
                        .filter(|o| o.owner.as_deref() == Some(name))
                        .count() as u32;
                    (p, n)
                })
                .collect();
            (end.year, counts)
        })
        .collect();
    let players = store::players(c, &g.id).await?;
    let (stints, start) = stints_of(c, &g.id, map, &players).await?;
    Ok(Some(GameResult {
        round: b.round as u8,
        board: b.board as u32,
        start_year: start.year,
        // Maharajiad A.10: the second round has none (played until the victory criterion).
        final_year: rules.final_year,
        ended_after: after,
        end,
        centres,
        history,
        positions: stints
            .into_iter()
            .map(|(power, stints)| Position { power, stints })
            .collect(),
    }))
}

/// What the standings are computed from: the `entrants` and their declines (as the caller read
/// them), and each of `boards` that has finished, read from the store.
pub async fn standings_input(
    c: &mut SqliteConnection,
    t: &TournamentRow,
    entrants: &[EntrantRow],
    boards: &[BoardRow],
) -> Result<standings::TournamentIn<'static>> {
    let map = map_of_tournament(t)?;
    let mut games = Vec::new();
    for b in boards {
        if let Some(r) = game_result(c, map, b).await? {
            games.push(r);
        }
    }
    Ok(standings::TournamentIn {
        rulebook: t.rulebook,
        map,
        seed: t.seed.clone(),
        entrants: entrants
            .iter()
            .map(|e| Entrant {
                name: e.address.clone(),
                team: e.team.clone(),
            })
            .collect(),
        games,
        declined: entrants
            .iter()
            .filter(|e| e.declined)
            .map(|e| e.address.clone())
            .collect(),
        advance: Vec::new(),
        // The rounds are made as B.1's four, whatever the number of teams.
        round_two: standings::RoundTwo::TeamRound,
    })
}

/// The standings of the latest round, with how many of its games are over, and the names to
/// show.
pub struct Table {
    pub standings: Standings,
    pub finished: usize,
    pub games: usize,
    /// For the directors and the console: an entrant's name, else their address.
    pub names: HashMap<String, String>,
    /// For every player (released standings): an entrant's name, else "player N" by sign-up
    /// order; never an address.
    pub public_names: HashMap<String, String>,
}

/// The standings now: the latest round's (round one before any is made).
pub async fn table(c: &mut SqliteConnection, t: &TournamentRow) -> Result<Table> {
    table_of(c, t, None).await
}

/// The standings after `round` (None: the latest), from the games finished so far.
pub async fn table_of(
    c: &mut SqliteConnection,
    t: &TournamentRow,
    round: Option<i64>,
) -> Result<Table> {
    let entrants = store::entrants(c, &t.id).await?;
    let boards = store::boards(c, &t.id).await?;
    let input = standings_input(c, t, &entrants, &boards).await?;
    let latest = boards.iter().map(|b| b.round).max().unwrap_or(1);
    let round = match round {
        None => latest,
        Some(r) if (1..=latest).contains(&r) => r,
        Some(r) => {
            return Err(refused(format!(
                "round {r} has not been made (rounds 1 to {latest})"
            )));
        }
    };
    let games = boards.iter().filter(|b| b.round == round).count();
    let finished = input
        .games
        .iter()
        .filter(|g| i64::from(g.round) == round)
        .count();
    let standings = standings::standings(&input, round as u8);
    let signed_up = store::entrants_in_sign_up_order(c, &t.id).await?;
    let public_names = public_names(&entrants, &signed_up, &standings);
    let names = entrants
        .into_iter()
        .map(|e| {
            let shown = if e.name.is_empty() {
                e.address.clone()
            } else {
                e.name.clone()
            };
            (e.address, shown)
        })
        .collect();
    Ok(Table {
        standings,
        finished,
        games,
        names,
        public_names,
    })
}

/// The names every player may read: an entrant's own, else "player N" (N their place in the
/// sign-up order); anyone else the standings name (a replacement who is no entrant) "player N"
/// after them, in the order they appear. Players' addresses are theirs to give, not the TD's.
fn public_names(
    entrants: &[EntrantRow],
    signed_up: &[String],
    s: &Standings,
) -> HashMap<String, String> {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut number = 0;
    let mut next = |names: &mut HashMap<String, String>, address: &str| {
        if names.contains_key(address) {
            return;
        }
        number += 1;
        let named = entrants
            .iter()
            .find(|e| e.address == address)
            .map(|e| e.name.trim())
            .filter(|n| !n.is_empty());
        let shown = named.map_or_else(|| format!("player {number}"), str::to_string);
        names.insert(address.to_string(), shown);
    };
    for a in signed_up {
        next(&mut names, a);
    }
    let shown = s
        .players
        .iter()
        .map(|p| &p.player)
        .chain(s.best_country.iter().map(|b| &b.player))
        .chain(&s.advancing)
        .chain(&s.winner);
    for a in shown {
        next(&mut names, a);
    }
    names
}

/// Mail the standings now to the directors, and to every entrant too if `everyone` (the TD
/// released them). `key` names the cause, so each reader gets one mail per cause.
pub async fn mail_standings(
    c: &mut SqliteConnection,
    env: &Env,
    t: &TournamentRow,
    everyone: bool,
    key: &str,
    now: Ts,
) -> Result<usize> {
    let table = table(c, t).await?;
    let text = crate::outgoing::diplomacy::standings::standings_table(
        &t.id,
        &table.standings,
        table.finished,
        table.games,
        // Released, every player reads it: names, never addresses.
        if everyone {
            &table.public_names
        } else {
            &table.names
        },
    );
    let mut to: Vec<String> = store::directors(c, &t.id)
        .await?
        .into_iter()
        .map(|d| d.address)
        .collect();
    if everyone {
        // Every entrant (the table's keys are their addresses).
        to.extend(table.names.keys().cloned());
    }
    to.sort();
    to.dedup();
    let subject = format!(
        "{} standings: round {}, {} of {} games over",
        t.id, table.standings.round, table.finished, table.games
    );
    let mails: Vec<store::NewMail> = to
        .iter()
        .map(|a| {
            compose::tournament_mail(
                env,
                store::MailKind::Standings,
                &t.gm_address,
                a,
                key,
                &subject,
                &text,
            )
        })
        .collect();
    store::enqueue_many(c, &mails, now).await?;
    Ok(mails.len())
}

/// After games finished (the tick's transaction): each tournament with a board among them sends
/// its standings once to its directors, and to every player if released. (A round's boards
/// often end at one deadline: one mail for them all, the standings computed once.)
pub async fn after_games_ended(
    c: &mut SqliteConnection,
    env: &Env,
    games: &[&str],
    now: Ts,
) -> Result<()> {
    let mut ended: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for game in games {
        if let Some((tid, _round)) = store::tournament_of_game(c, game).await? {
            ended.entry(tid).or_default().push(game);
        }
    }
    for (tid, games) in ended {
        let t = get(c, &tid).await?;
        // A board rolled back (WM D.VIII(1)) and ended again is a new cause: its rollback count
        // is in the key.
        let mut causes = Vec::with_capacity(games.len());
        for game in &games {
            let rollbacks = store::game(c, game).await?.map_or(0, |g| g.rollbacks);
            causes.push(format!("{game}#{rollbacks}"));
        }
        let key = format!("ended|{}", causes.join(","));
        mail_standings(c, env, &t, t.released, &key, now).await?;
    }
    Ok(())
}

/// WM B.8(b): "In the event of an NMR the GM will notify the TD who will send an email to both
/// the Team Captain and Team Members." When the contact window of an NMR on a WM tournament's
/// board has closed (D.VII(6)(a)), the player's team-mates, captain first, are told, so that
/// the captain can choose the replacement (B.8(a); in round one the captain is the default
/// replacement, B.8(c)). Returns how many were told.
pub async fn tell_team_of_nmr(
    c: &mut SqliteConnection,
    env: &Env,
    game: &str,
    power: &str,
    phase: &str,
    now: Ts,
) -> Result<usize> {
    let Some((tid, round)) = store::tournament_of_game(c, game).await? else {
        return Ok(0);
    };
    let t = get(c, &tid).await?;
    if t.rulebook != Rulebook::Wm2004 {
        return Ok(0);
    }
    let Some(player) = store::players(c, game)
        .await?
        .into_iter()
        .find(|p| p.power == power)
    else {
        return Ok(0);
    };
    let entrants = store::entrants(c, &t.id).await?;
    let Some(team) = entrants
        .iter()
        .find(|e| e.address.eq_ignore_ascii_case(&player.address))
        .and_then(|e| e.team.clone())
    else {
        return Ok(0);
    };
    let mut mates: Vec<&EntrantRow> = entrants
        .iter()
        .filter(|e| {
            e.team.as_deref() == Some(team.as_str())
                && !e.address.eq_ignore_ascii_case(&player.address)
        })
        .collect();
    mates.sort_by_key(|e| !e.captain);
    let captain = mates
        .iter()
        .find(|e| e.captain)
        .map_or("your captain".to_string(), |e| e.address.clone());
    let directors: Vec<String> = store::directors(c, &t.id)
        .await?
        .into_iter()
        .map(|d| d.address)
        .collect();
    let text = notices::team_nmr(&notices::TeamNmr {
        tid: &t.id,
        game,
        power,
        who: &player.address,
        phase,
        captain: &captain,
        directors: &directors.join(", "),
        first_round: round == 1,
    })?;
    let subject = format!("{game}: {power} NMRed in {phase}; your team chooses a replacement");
    let key = format!("team-nmr|{game}|{power}|{phase}");
    let mails: Vec<store::NewMail> = mates
        .iter()
        .map(|e| {
            compose::tournament_mail(
                env,
                store::MailKind::Notice,
                &t.gm_address,
                &e.address,
                &key,
                &subject,
                &text,
            )
        })
        .collect();
    store::enqueue_many(c, &mails, now).await?;
    Ok(mails.len())
}

/// One director's command, in the caller's transaction; what was done, or why not (Refused).
/// A refused command changes nothing: it is checked before it writes.
pub async fn execute(
    c: &mut SqliteConnection,
    env: &Env,
    t: &TournamentRow,
    cmd: &TdCommand,
    key: &str,
    now: Ts,
) -> Result<String> {
    // Each command sees the tournament as the ones before it left it.
    let t = get(c, &t.id).await?;
    match cmd {
        TdCommand::Entrant {
            address,
            team,
            captain,
            power,
            reserve,
            name,
        } => {
            let e = EntrantRow {
                address: address.clone(),
                name: name.clone(),
                tz: "UTC".into(),
                team: team.clone(),
                captain: *captain,
                power: power.clone(),
                reserve: *reserve,
                declined: false,
            };
            add_entrant(c, &t, &e).await?;
            Ok(format!("{address} signed up"))
        }
        TdCommand::Round => Ok(round_made(&start_round(c, Some(env), &t, now).await?)),
        TdCommand::Standings => {
            let n = mail_standings(c, env, &t, false, &format!("asked|{key}"), now).await?;
            Ok(format!("the standings were mailed to the {n} director(s)"))
        }
        TdCommand::Release => {
            store::set_released(c, &t.id).await?;
            let n = mail_standings(c, env, &t, true, &format!("released|{key}"), now).await?;
            Ok(format!(
                "the standings were mailed to {n} reader(s); from now on every player gets them after each game"
            ))
        }
        TdCommand::Decline(address) => {
            if store::set_declined(c, &t.id, address).await? {
                Ok(format!(
                    "{address} declines the next round; the next placed player takes the place (WM C.10, Maharajiad A.21)"
                ))
            } else {
                Err(EngineError::Refused(format!("{address} is not an entrant")))
            }
        }
        TdCommand::Status => status(c, &t).await,
    }
}

/// What ROUND answers: the boards made, and the first few constraints the seating could not
/// meet (a reply is not a dump).
fn round_made(made: &RoundMade) -> String {
    let games: Vec<&str> = made.boards.iter().map(|(_, g)| g.as_str()).collect();
    let mut said = format!(
        "round {} made: {} board(s), {}; every player was sent a start mail",
        made.round,
        games.len(),
        games.join(", ")
    );
    if !made.unmet.is_empty() {
        let shown: Vec<&str> = made.unmet.iter().take(3).map(String::as_str).collect();
        said.push_str(&format!(
            ". The seating could not meet {} constraint(s): {}{}",
            made.unmet.len(),
            shown.join("; "),
            if made.unmet.len() > 3 { "; ..." } else { "" }
        ));
    }
    said
}

/// STATUS: the rounds, their boards and which games are still playing.
async fn status(c: &mut SqliteConnection, t: &TournamentRow) -> Result<String> {
    let boards = store::boards(c, &t.id).await?;
    let entrants = store::entrants(c, &t.id).await?.len();
    let mut said = format!(
        "tournament {} ({}), {entrants} entrant(s), {} board(s) made",
        t.id,
        t.rulebook,
        boards.len()
    );
    for b in &boards {
        let status = store::game(c, &b.game_id)
            .await?
            .map_or("missing".to_string(), |g| g.status.to_string());
        said.push_str(&format!(
            "; round {} board {}: {} {status}",
            b.round, b.board, b.game_id
        ));
    }
    Ok(said)
}

/// A director's command at the console, in one transaction: what was done, or why not.
pub async fn console(
    pool: &SqlitePool,
    env: &Env,
    id: &str,
    cmd: &TdCommand,
    now: Ts,
) -> Result<String> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let t = get(&mut tx, id).await?;
    let done = execute(&mut tx, env, &t, cmd, &format!("console|{now}"), now).await?;
    tx.commit().await?;
    Ok(done)
}
