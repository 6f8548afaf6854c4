//! A WM 2004 tournament's standings (issue 14): round one of 35 boards (245 players in 35 teams,
//! credits and every tie-break), then round two of 17 boards on top of it (the C.8 aggregate).
//! The directors' mail computes them after every finished game. `cargo bench -p chancery-diplomacy
//! --bench standings`.

use chancery_diplomacy::map::Map;
use chancery_diplomacy::phase::Phase;
use chancery_diplomacy::standings::{
    End, Entrant, GameResult, Position, RoundTwo, Rulebook, Stint, TournamentIn, standings,
};
use criterion::{Criterion, criterion_group, criterion_main};

/// A finished board: centres drawn from the board's number (some ties, some eliminations), the
/// years 1901-1909 filled in, one player per power.
fn board(map: &Map, round: u8, board: u32, players: &[String]) -> GameResult {
    let powers: Vec<_> = map.all_powers().collect();
    let centres: Vec<(_, u32)> = powers
        .iter()
        .enumerate()
        .map(|(k, p)| (*p, ((board as usize * 7 + k * 5) % 11) as u32))
        .collect();
    let history = (1901..=1909)
        .map(|y| {
            let row = centres
                .iter()
                .map(|(p, c)| (*p, (c + (y as u32 % 3)).saturating_sub(1)))
                .collect();
            (y, row)
        })
        .collect();
    let start: Phase = "S1901M".parse().expect("phase");
    GameResult {
        round,
        board,
        start_year: 1901,
        final_year: Some(1909),
        ended_after: "F1909M".parse().expect("phase"),
        end: End::Played,
        centres,
        history,
        positions: powers
            .iter()
            .zip(players)
            .map(|(p, who)| Position {
                power: *p,
                stints: vec![Stint {
                    player: who.clone(),
                    from: start,
                    permanent: true,
                }],
            })
            .collect(),
    }
}

fn tournament(map: &'static Map) -> TournamentIn<'static> {
    let entrants: Vec<Entrant> = (0..245)
        .map(|i| Entrant {
            name: format!("p{i:03}@example.test"),
            team: Some(format!("team{:02}", i / 7)),
        })
        .collect();
    // Round one: each board one player of each of seven teams.
    let mut games: Vec<GameResult> = (0..35)
        .map(|b| {
            let players: Vec<String> = (0..7)
                .map(|k| entrants[((b + k * 5) % 35) * 7 + k].name.clone())
                .collect();
            board(map, 1, b as u32 + 1, &players)
        })
        .collect();
    // Round two: 119 of them on 17 boards.
    for b in 0..17 {
        let players: Vec<String> = (0..7)
            .map(|k| entrants[(b * 7 + k) * 2 % 245].name.clone())
            .collect();
        games.push(board(map, 2, b as u32 + 1, &players));
    }
    TournamentIn {
        rulebook: Rulebook::Wm2004,
        map,
        seed: "bench".into(),
        entrants,
        games,
        declined: Vec::new(),
        advance: Vec::new(),
        round_two: RoundTwo::TeamRound,
    }
}

fn bench(c: &mut Criterion) {
    let map = Map::standard();
    let t = tournament(map);
    c.bench_function("wm round one of 35 boards", |b| b.iter(|| standings(&t, 1)));
    c.bench_function("wm round two of 17 boards after round one", |b| {
        b.iter(|| standings(&t, 2))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
