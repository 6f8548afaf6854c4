//! The `chancery score` contract for a whole round (docs/score.md): the tournament's rulebook,
//! its seed and entrants, and the finished games in; the standings out, as the directors' mail
//! shows them. Each game is read and checked as the one-game contract reads it
//! ([`scoring::contract::read_game`]).

use super::*;
use crate::scoring::contract::{EndIn, GameFields, StintIn, map_of, read_game};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RoundIn {
    /// `wm2004` or `maharajiad`.
    pub rulebook: Rulebook,
    /// Absent: the rulebook's map.
    #[serde(default)]
    pub variant: Option<String>,
    /// The published seed of the dice.
    pub seed: String,
    /// The round whose standings are wanted (1-based).
    pub round: u8,
    /// Every entrant with their team; absent: each game's first players, without teams.
    #[serde(default)]
    pub entrants: Vec<EntrantIn>,
    /// Every finished game so far, of this round and the earlier ones.
    pub games: Vec<BoardIn>,
    /// Entrants who declined the next round (WM C.10, Maharajiad A.21).
    #[serde(default)]
    pub declined: Vec<String>,
    /// How many advance from each round; absent or null: the rulebook's number.
    #[serde(default)]
    pub advance: Vec<Option<usize>>,
    /// WM B.4: `team_round` or `semi_final`; absent: B.4's rule from the teams entered
    /// (fewer than 42: the semi-final), or a team round when no entrant has a team.
    #[serde(default)]
    pub round_two: Option<RoundTwo>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EntrantIn {
    pub name: String,
    #[serde(default)]
    pub team: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct BoardIn {
    pub round: u8,
    pub board: u32,
    pub start_year: u16,
    /// Absent or null: played until the victory criterion (Maharajiad A.10's second round).
    #[serde(default)]
    pub final_year: Option<u16>,
    /// The last phase played (`F1909M`).
    pub ended_after: String,
    /// `played`, `stalemate`, `solo`, `conceded_solo` or `vote`.
    pub end: EndIn,
    #[serde(default)]
    pub winner: Option<String>,
    /// The powers of a draw accepted by vote; survivors left out are presumed eliminated
    /// (WM D.IX(4)). Absent: every survivor.
    #[serde(default)]
    pub draw: Option<Vec<String>>,
    pub centres: BTreeMap<String, u32>,
    #[serde(default)]
    pub history: BTreeMap<u16, BTreeMap<String, u32>>,
    /// Who played each power from which phase, in order (the first from the start).
    pub players: BTreeMap<String, Vec<StintIn>>,
}

/// The standings of a round given as JSON, as JSON; or why the input is wrong.
pub fn standings_json(text: &str) -> Result<String, String> {
    let r: RoundIn = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut out = standings_of(&r)?;
    // Shown to three decimals, as the single-game contract (a shared bonus may be a third).
    let shown = |x: &mut f64| *x = (*x * 1000.0).round() / 1000.0;
    for p in &mut out.players {
        for x in [
            &mut p.score,
            &mut p.game_score,
            &mut p.credits,
            &mut p.bonus,
        ] {
            shown(x);
        }
    }
    for t in &mut out.teams {
        shown(&mut t.score);
        shown(&mut t.credits);
    }
    for b in &mut out.best_country {
        shown(&mut b.score);
    }
    serde_json::to_string_pretty(&out).map_err(|e| e.to_string())
}

/// One board read and checked, or why not (naming the board).
fn board_of(rulebook: Rulebook, map: &Map, g: &BoardIn) -> Result<GameResult, String> {
    // Maharajiad A.10: "The six first round games will be played until Fall 1910".
    if rulebook == Rulebook::Maharajiad && g.round == 1 && g.final_year.is_none() {
        return Err(format!(
            "board {}: a first-round game has a final year (Maharajiad A.10: 1510)",
            g.board
        ));
    }
    let game = read_game(
        rulebook,
        map,
        &GameFields {
            start_year: g.start_year,
            final_year: g.final_year,
            ended_after: &g.ended_after,
            end: g.end,
            winner: g.winner.as_deref(),
            draw: g.draw.as_deref(),
            centres: &g.centres,
            history: &g.history,
            players: &g.players,
        },
    )
    .map_err(|e| format!("board {}: {e}", g.board))?;
    Ok(GameResult {
        round: g.round,
        board: g.board,
        start_year: game.start_year,
        final_year: game.final_year,
        ended_after: game.ended_after,
        end: game.end,
        centres: game.centres,
        history: game.history,
        positions: game
            .positions
            .into_iter()
            .map(|(power, stints)| Position { power, stints })
            .collect(),
    })
}

pub fn standings_of(r: &RoundIn) -> Result<Standings, String> {
    let map = map_of(r.rulebook, r.variant.as_deref())?;
    let games = r
        .games
        .iter()
        .map(|g| board_of(r.rulebook, map, g))
        .collect::<Result<Vec<_>, String>>()?;
    let entrants: Vec<Entrant> = if r.entrants.is_empty() {
        let names: BTreeSet<String> = games
            .iter()
            .flat_map(|g| g.positions.iter().filter_map(|p| p.stints.first()))
            .map(|s| s.player.clone())
            .collect();
        names
            .into_iter()
            .map(|name| Entrant { name, team: None })
            .collect()
    } else {
        r.entrants
            .iter()
            .map(|e| Entrant {
                name: e.name.clone(),
                team: e.team.clone(),
            })
            .collect()
    };
    let teams: BTreeSet<&str> = entrants.iter().filter_map(|e| e.team.as_deref()).collect();
    let round_two = match (r.rulebook, r.round_two) {
        (Rulebook::Maharajiad, Some(_)) => {
            return Err("round_two is WM B.4's; the Maharajiad has two rounds (A.9)".into());
        }
        (_, Some(given)) => given,
        // B.4 decides from the teams entered; without teams there is no team competition
        // to leave, and the rounds are B.1's four.
        (_, None) if teams.is_empty() => RoundTwo::TeamRound,
        (_, None) => RoundTwo::by_b4(teams.len()),
    };
    let t = TournamentIn {
        rulebook: r.rulebook,
        map,
        seed: r.seed.clone(),
        entrants,
        games,
        declined: r.declined.clone(),
        advance: r.advance.clone(),
        round_two,
    };
    Ok(standings(&t, r.round))
}
