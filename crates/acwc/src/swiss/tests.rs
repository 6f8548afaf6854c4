use super::*;
use crate::seeding::Seeding;

fn p(s: &str) -> Player {
    Player::new(s)
}

/// A standing by hand: `opps` are (name, seeding rating doubled).
fn st(
    name: &str,
    seed: u32,
    rating2: u32,
    halves: u32,
    opps: &[(&str, u32)],
    bye: bool,
) -> Standing {
    Standing {
        player: p(name),
        seed,
        rating: SeedingRating::from_doubled(rating2),
        score: Score(halves),
        opponents: opps
            .iter()
            .map(|&(o, r)| Opponent {
                player: p(o),
                seed: 0,
                rating: SeedingRating::from_doubled(r),
            })
            .collect(),
        had_bye: bye,
    }
}

fn names(v: &[Standing]) -> Vec<&str> {
    v.iter().map(|s| s.player.as_str()).collect()
}

fn ranked(v: &[Standing]) -> Vec<Standing> {
    let mut v = v.to_vec();
    v.sort_by(rank_cmp);
    v
}

fn field(n: usize) -> Vec<Entrant> {
    (1..=n)
        .map(|i| Entrant {
            player: p(&format!("p{i}")),
            seeding: Seeding {
                cutoff: 2000 - 10 * i as u32,
                peak: 2100 - 10 * i as u32,
            },
        })
        .collect()
}

fn m(a: &str, b: &str, o: Outcome) -> Match {
    Match {
        first: p(a),
        second: p(b),
        outcome: Some(o),
    }
}

fn pair_names(ps: &Pairings) -> Vec<(&str, &str)> {
    ps.pairs
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect()
}

#[test]
fn acwc_qualification_rounds_at_least_5_then_log2_rounded_up() {
    for (n, r) in [
        (0, 5),
        (5, 5),
        (20, 5),
        (32, 5),
        (33, 6),
        (64, 6),
        (65, 7),
        (128, 7),
        (129, 8),
    ] {
        assert_eq!(rounds(n), r, "{n} players");
    }
}

#[test]
fn acwc_pairing_ranked_by_score_then_opponents_average_then_own_rating() {
    let v = [
        st("low_score", 1, 4400, 0, &[("x", 4000)], false),
        // Equal averages (2001 = 6003/3 = 4002/2 ... doubled): own rating decides.
        st(
            "three",
            4,
            3000,
            4,
            &[("x", 4000), ("y", 4002), ("z", 4004)],
            false,
        ),
        st("two", 3, 3002, 4, &[("x", 4002), ("y", 4002)], false),
        st(
            "strong_opps",
            5,
            2000,
            4,
            &[("x", 4100), ("y", 4100)],
            false,
        ),
    ];
    assert_eq!(
        names(&ranked(&v)),
        ["strong_opps", "two", "three", "low_score"]
    );
}

#[test]
fn acwc_pairing_the_seed_order_breaks_the_last_ties() {
    let v = [
        st("b", 2, 4000, 2, &[("x", 4000)], false),
        st("a", 1, 4000, 2, &[("y", 4000)], false),
    ];
    assert_eq!(names(&ranked(&v)), ["a", "b"]);
}

#[test]
fn acwc_pairing_a_bye_only_record_averages_zero() {
    let bye_only = st("bye_only", 1, 4400, 2, &[], true);
    assert_eq!(bye_only.average(), OpponentAverage::default());
    assert_eq!(bye_only.average().to_string(), "0 (no opponent)");
    let v = [bye_only, st("won", 2, 2000, 2, &[("weak", 1000)], false)];
    assert_eq!(names(&ranked(&v)), ["won", "bye_only"]);
}

#[test]
fn acwc_pairing_the_bye_does_not_count_in_the_average() {
    // A bye then a win over a 2000: the average is 2000, not 1000.
    let s = st("a", 1, 4000, 4, &[("x", 4000)], true);
    assert_eq!(
        s.average(),
        OpponentAverage {
            doubled_sum: 4000,
            count: 1
        }
    );
    let v = [s, st("b", 2, 4000, 4, &[("y", 3998), ("z", 3998)], false)];
    assert_eq!(names(&ranked(&v)), ["a", "b"]);
}

#[test]
fn acwc_pairing_averages_are_exact_fractions() {
    let a = |doubled_sum, count| OpponentAverage { doubled_sum, count };
    assert_eq!(a(12903, 3).to_string(), "6451.5/3 = 2150.5");
    assert_eq!(a(12904, 3).to_string(), "6452/3 ~ 2150.67");
    assert_eq!(a(4301, 1).to_string(), "2150.5");
    assert_eq!(a(8000, 2), a(4000, 1));
    assert!(a(12004, 3) > a(8002, 2)); // 2000.67 > 2000.5
}

#[test]
fn acwc_pairing_the_bye_goes_to_the_lowest_ranked_without_one() {
    let v = [
        st("a", 1, 4000, 4, &[("x", 4000)], false),
        st("b", 2, 3900, 2, &[("y", 4000)], false),
        st("c", 3, 3800, 2, &[], true),
    ];
    let ps = pair(2, &v).expect("pairs");
    assert_eq!(ps.bye, Some(p("b")));
    assert_eq!(pair_names(&ps), [("a", "c")]);
    assert_eq!(
        ps.transcript.bye,
        ByeLine::Lowest {
            player: Ranked {
                player: p("b"),
                rank: 2
            },
            passed: vec![Ranked {
                player: p("c"),
                rank: 3
            }],
        }
    );
}

#[test]
fn acwc_pairing_when_everyone_had_a_bye_the_lowest_ranked_has_it() {
    let v = [
        st("a", 1, 4000, 2, &[], true),
        st("b", 2, 3900, 2, &[], true),
        st("c", 3, 3800, 2, &[], true),
    ];
    let ps = pair(4, &v).expect("pairs");
    assert_eq!(ps.bye, Some(p("c")));
    assert!(matches!(ps.transcript.bye, ByeLine::EveryoneHadOne { .. }));
}

#[test]
fn acwc_pairing_literal_monrad_on_a_hand_example() {
    // Round 1 is the seed order: 1-2, 3-4, 5-6; the higher seeds win.
    let f = field(6);
    let r1 = pair_next(&f, &[], &[]).expect("round 1");
    assert_eq!(pair_names(&r1), [("p1", "p2"), ("p3", "p4"), ("p5", "p6")]);
    let history = [Round {
        matches: vec![
            m("p1", "p2", Outcome::FirstWon),
            m("p3", "p4", Outcome::FirstWon),
            m("p5", "p6", Outcome::FirstWon),
        ],
        ..Round::default()
    }];
    // Ranking: the winners by their opponents' average (p2 > p4 > p6), then the losers.
    // p1 with p3; p5 with p2 (the closest not met); p4 with p6.
    let r2 = pair_next(&f, &history, &[]).expect("round 2");
    assert_eq!(pair_names(&r2), [("p1", "p3"), ("p5", "p2"), ("p4", "p6")]);
    assert!(!r2.fallback_used);
    assert_eq!(r2.rematches, 0);
    let lines = r2.transcript.lines();
    assert!(
        lines.contains(&"1. p1: 1; 2030; 2040; seed 1".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"2. p5 (rank 3) v p2 (rank 4)".to_string()),
        "{lines:?}"
    );
}

#[test]
fn acwc_pairing_a_step_names_the_closer_players_already_met() {
    let v = [
        st("a", 1, 4000, 4, &[("b", 3900)], false),
        st("b", 2, 3900, 3, &[("a", 4000)], false),
        st("c", 3, 3800, 1, &[("d", 3700)], false),
        st("d", 4, 3700, 0, &[("c", 3800)], false),
    ];
    let ps = pair(2, &v).expect("pairs");
    assert_eq!(pair_names(&ps), [("a", "c"), ("b", "d")]);
    let lines = ps.transcript.lines();
    assert!(
        lines.contains(&"1. a (rank 1) v c (rank 3): b (rank 2) already met".to_string()),
        "{lines:?}"
    );
}

#[test]
fn acwc_pairing_a_dead_end_uses_the_documented_fallback() {
    // c and d met: the literal process pairs a-b and is left with c and d.
    let v = [
        st("a", 1, 4000, 6, &[], false),
        st("b", 2, 3900, 4, &[], false),
        st("c", 3, 3800, 2, &[("d", 3700)], false),
        st("d", 4, 3700, 0, &[("c", 3800)], false),
    ];
    let ps = pair(2, &v).expect("pairs");
    assert!(ps.fallback_used);
    assert_eq!(ps.transcript.method, Method::RematchFree);
    assert_eq!(pair_names(&ps), [("a", "c"), ("b", "d")]);
    assert_eq!(ps.rematches, 0);
    let lines = ps.transcript.lines();
    for want in [
        "1. a (rank 1) v b (rank 2)",
        "Dead end: c (rank 3) has met every unpaired player:",
        "1. a (rank 1) v c (rank 3): b (rank 2) would leave a rematch",
        "2. b (rank 2) v d (rank 4)",
    ] {
        assert!(lines.contains(&want.to_string()), "{want}: {lines:?}");
    }
}

#[test]
fn acwc_pairing_without_a_rematch_free_pairing_the_fewest_rematches() {
    // a has met everyone.
    let v = [
        st(
            "a",
            1,
            4000,
            6,
            &[("b", 3900), ("c", 3800), ("d", 3700)],
            false,
        ),
        st("b", 2, 3900, 4, &[("a", 4000)], false),
        st("c", 3, 3800, 2, &[("a", 4000)], false),
        st("d", 4, 3700, 0, &[("a", 4000)], false),
    ];
    let ps = pair(4, &v).expect("pairs");
    assert_eq!(ps.transcript.method, Method::FewestRematches);
    assert_eq!(pair_names(&ps), [("a", "b"), ("c", "d")]);
    assert_eq!(ps.rematches, 1);
    assert!(
        ps.transcript
            .lines()
            .contains(&"1. a (rank 1) v b (rank 2) (a rematch)".to_string())
    );
}

#[test]
fn acwc_withdrawals_are_not_included_in_later_pairings() {
    let f = field(5);
    let history = [Round {
        bye: Some(p("p5")),
        matches: vec![
            m("p1", "p2", Outcome::Tie),
            m("p3", "p4", Outcome::SecondWon),
        ],
        ..Round::default()
    }];
    let ps = pair_next(&f, &history, &[p("p1")]).expect("round 2");
    assert_eq!(ps.bye, None);
    assert!(ps.pairs.iter().all(|(a, b)| a != &p("p1") && b != &p("p1")));
    // p5 (bye, a win, averages 0) ranks below p4 (a win over p3).
    assert_eq!(pair_names(&ps), [("p4", "p5"), ("p2", "p3")]);
    let again = [
        history[0].clone(),
        Round {
            withdrawn: vec![p("p1")],
            matches: vec![m("p1", "p5", Outcome::Tie)],
            ..Round::default()
        },
    ];
    assert_eq!(
        standings(&f, &again, &[]),
        Err(SwissError::Withdrawn {
            round: 2,
            player: p("p1")
        })
    );
}

#[test]
fn acwc_pairing_a_history_naming_others_is_refused() {
    let f = field(4);
    let bad = |r: Round| standings(&f, &[r], &[]).unwrap_err();
    let unknown = Round {
        matches: vec![m("p1", "zz", Outcome::Tie)],
        ..Round::default()
    };
    assert!(matches!(bad(unknown), SwissError::UnknownPlayer { .. }));
    let twice = Round {
        matches: vec![m("p1", "p2", Outcome::Tie), m("p1", "p3", Outcome::Tie)],
        ..Round::default()
    };
    assert!(matches!(bad(twice), SwissError::Twice { .. }));
    let unplayed = Round {
        matches: vec![Match {
            first: p("p1"),
            second: p("p2"),
            outcome: None,
        }],
        ..Round::default()
    };
    assert!(matches!(bad(unplayed), SwissError::MissingResult { .. }));
    let dup = [st("a", 1, 1, 0, &[], false), st("a", 2, 1, 0, &[], false)];
    assert_eq!(pair(1, &dup), Err(SwissError::DuplicateStanding(p("a"))));
}
