//! The unit tests' fixtures, shared by every rulebook's tests: games, boards and tournaments
//! built from a few numbers, and lookups in the standings.

use super::*;
use crate::phase::{PhaseKind, Season};

pub(super) const WM_POWERS: [&str; 7] = [
    "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
];
pub(super) const MH_POWERS: [&str; 7] = [
    "BAHMANA",
    "DELHI",
    "GONDWANA",
    "MUGHALISTAN",
    "PERSIA",
    "RAJPUTANA",
    "VIJAYANAGAR",
];

pub(super) fn wm_map() -> &'static Map {
    Map::variant("standard").expect("standard map")
}

pub(super) fn mh_map() -> &'static Map {
    Map::variant("maharajah").expect("maharajah map")
}

pub(super) fn ph(s: &str) -> Phase {
    s.parse().expect("phase")
}

pub(super) fn power(map: &Map, name: &str) -> Power {
    map.power_by_name(name).expect("power")
}

/// One seat of a game: (power, player, centres at the end).
pub(super) type SeatSpec = (String, String, u32);

pub(super) fn seat(power: &str, player: &str, centres: u32) -> SeatSpec {
    (power.to_string(), player.to_string(), centres)
}

/// A board of seven: each power's player named by the power's initial and `tag` ("A1" is
/// Austria on a board tagged 1), with the centres in map order.
pub(super) fn board7(powers: [&str; 7], tag: &str, centres: [u32; 7]) -> Vec<SeatSpec> {
    powers
        .iter()
        .zip(centres)
        .map(|(p, c)| seat(p, &format!("{}{tag}", &p[..1]), c))
        .collect()
}

/// A game played out from `years.0` to `years.1`, each power held by one player from the
/// start; the final counts are also those at the end of the year before.
pub(super) fn game(
    map: &Map,
    round: u8,
    board: u32,
    years: (u16, u16),
    seats: &[SeatSpec],
) -> GameResult {
    let (start, last) = years;
    let counts: Vec<(Power, u32)> = seats.iter().map(|s| (power(map, &s.0), s.2)).collect();
    GameResult {
        round,
        board,
        start_year: start,
        final_year: Some(last),
        ended_after: Phase::new(Season::Fall, last, PhaseKind::Movement),
        end: End::Played,
        centres: counts.clone(),
        history: vec![(last - 1, counts.clone()), (last, counts)],
        positions: seats
            .iter()
            .map(|s| Position {
                power: power(map, &s.0),
                stints: vec![Stint {
                    player: s.1.clone(),
                    from: Phase::new(Season::Spring, start, PhaseKind::Movement),
                    permanent: true,
                }],
            })
            .collect(),
    }
}

/// A WM game: rounds one and two to 1909 (B.3), the semi-final to 1912, the final to 1915.
pub(super) fn wm_game(round: u8, board: u32, seats: &[SeatSpec]) -> GameResult {
    let last = match round {
        3 => 1912,
        4 => 1915,
        _ => 1909,
    };
    game(wm_map(), round, board, (1901, last), seats)
}

/// A Maharajiad game, 1501 to 1510 (A.10).
pub(super) fn mh_game(round: u8, board: u32, seats: &[SeatSpec]) -> GameResult {
    game(mh_map(), round, board, (1501, 1510), seats)
}

/// Sets a power's centres at the end of `year` (the row copied from the final counts if
/// the game has none for that year yet).
pub(super) fn set_year(map: &Map, g: &mut GameResult, year: u16, power_name: &str, centres: u32) {
    if !g.history.iter().any(|h| h.0 == year) {
        g.history.push((year, g.centres.clone()));
        g.history.sort_by_key(|h| h.0);
    }
    let p = power(map, power_name);
    for (y, row) in g.history.iter_mut() {
        if *y == year {
            for (q, c) in row.iter_mut() {
                if *q == p {
                    *c = centres;
                }
            }
        }
    }
}

/// Replaces who played a power: (player, first phase, permanent).
pub(super) fn set_stints(
    map: &Map,
    g: &mut GameResult,
    power_name: &str,
    stints: &[(&str, &str, bool)],
) {
    let p = power(map, power_name);
    for pos in g.positions.iter_mut().filter(|pos| pos.power == p) {
        pos.stints = stints
            .iter()
            .map(|(player, from, permanent)| Stint {
                player: player.to_string(),
                from: ph(from),
                permanent: *permanent,
            })
            .collect();
    }
}

/// A tournament of these games: every player of them an entrant (by name), on the team
/// `teams` gives (player, team), with the seed "t".
pub(super) fn tournament(
    rulebook: Rulebook,
    games: Vec<GameResult>,
    teams: &[(&str, &str)],
) -> TournamentIn<'static> {
    let mut names: BTreeSet<String> = games
        .iter()
        .flat_map(|g| g.positions.iter().flat_map(|p| p.stints.iter()))
        .map(|s| s.player.clone())
        .collect();
    names.extend(teams.iter().map(|t| t.0.to_string()));
    let entrants = names
        .into_iter()
        .map(|name| Entrant {
            team: teams.iter().find(|t| t.0 == name).map(|t| t.1.to_string()),
            name,
        })
        .collect();
    TournamentIn {
        rulebook,
        map: match rulebook {
            Rulebook::Wm2004 => wm_map(),
            Rulebook::Maharajiad => mh_map(),
        },
        seed: "t".to_string(),
        entrants,
        games,
        declined: Vec::new(),
        advance: Vec::new(),
        round_two: RoundTwo::TeamRound,
    }
}

pub(super) fn row<'s>(s: &'s Standings, player: &str) -> &'s PlayerPlace {
    s.players
        .iter()
        .find(|p| p.player == player)
        .unwrap_or_else(|| panic!("{player} not listed: {:?}", names(s)))
}

pub(super) fn names(s: &Standings) -> Vec<&str> {
    s.players.iter().map(|p| p.player.as_str()).collect()
}

/// The index of a player in the list.
pub(super) fn at(s: &Standings, player: &str) -> usize {
    s.players
        .iter()
        .position(|p| p.player == player)
        .unwrap_or_else(|| panic!("{player} not listed"))
}

pub(super) fn team<'s>(s: &'s Standings, name: &str) -> &'s TeamPlace {
    s.teams
        .iter()
        .find(|t| t.team == name)
        .unwrap_or_else(|| panic!("team {name} not listed"))
}

pub(super) fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Round one of 14 players, seven advance; round two on one board.
pub(super) fn wm_two_rounds() -> TournamentIn<'static> {
    // Round one: A2 43, A1 42, E2 25, E1 24, F2 15, F1 14, G1 8 advance.
    let b1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
    let b2 = wm_game(1, 2, &board7(WM_POWERS, "2", [11, 9, 7, 3, 2, 1, 1]));
    // Round two: 42, 25, 14, 8, 5, 3, 0.
    let r2 = wm_game(
        2,
        1,
        &[
            seat("AUSTRIA", "A2", 10),
            seat("ENGLAND", "A1", 9),
            seat("FRANCE", "E2", 6),
            seat("GERMANY", "F1", 4),
            seat("ITALY", "F2", 3),
            seat("RUSSIA", "E1", 2),
            seat("TURKEY", "G1", 0),
        ],
    );
    let mut t = tournament(Rulebook::Wm2004, vec![b1, b2, r2], &[]);
    t.advance = vec![Some(7), Some(3)];
    t
}
