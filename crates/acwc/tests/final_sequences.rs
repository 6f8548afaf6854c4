//! ACWC Final, issue 26's acceptance: "The Final's state machine tested over every win/draw/loss
//! sequence up to 14 games and random sequences to Armageddon."
//!
//! The expected states come from an oracle written here from the rule's text, apart from
//! `final_match::verdict`: the checkpoints (12, 14, ..., 22: two points ahead; 24, 26, 28, 30:
//! any lead; 30 and level: Armageddon), and for [`EarlyEnd::AsSoonAsCertain`] a search of every
//! continuation ("certain" = every continuation ends in that player's win).

use chancery_acwc::Player;
use chancery_acwc::final_match::{
    ARMAGEDDON_BLACK_SECONDS, ArmageddonState, BidState, EarlyEnd, Final, FinalState, Finalist,
    PlayRefused, TimeControl,
};
use chancery_acwc::matches::GameResult;
use proptest::prelude::*;

const HOLDER: &str = "arimakat";
const CHALLENGER: &str = "Challenger";

fn new_final(early: EarlyEnd, seeds: (u32, u32)) -> Final {
    Final::new(
        Finalist {
            player: Player::new(HOLDER),
            seeding_x2: seeds.0,
        },
        Finalist {
            player: Player::new(CHALLENGER),
            seeding_x2: seeds.1,
        },
        early,
    )
    .expect("two finalists")
}

fn delta(g: GameResult) -> i32 {
    match g {
        GameResult::Win => 1,
        GameResult::Draw => 0,
        GameResult::Loss => -1,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Next,
    /// The first-named (true) or the second-named (false).
    Won(bool),
    Armageddon,
}

/// The rule as written, judged only at the blocks' ends.
fn rule(n: u16, lead: i32) -> Expect {
    let even = n.is_multiple_of(2);
    // Twelve to 22: two points ahead; from 24: any lead.
    let two_ahead = (12..=22).contains(&n) && lead.abs() >= 2;
    let any_lead = n >= 24 && lead != 0;
    if even && (two_ahead || any_lead) {
        Expect::Won(lead > 0)
    } else if n == 30 && lead == 0 {
        Expect::Armageddon
    } else {
        Expect::Next
    }
}

/// Whether one player wins in every continuation from (n, lead): a table over n 0..=30 and lead
/// -30..=30, filled backwards.
struct Certain {
    table: Vec<Vec<Option<bool>>>,
}

impl Certain {
    fn new() -> Certain {
        let mut table = vec![vec![None; 61]; 31];
        for n in (0..=30u16).rev() {
            for lead in -30..=30i32 {
                let v = match rule(n, lead) {
                    Expect::Won(x) => Some(x),
                    Expect::Armageddon => None,
                    Expect::Next if n == 30 => None,
                    Expect::Next => {
                        let kids: Vec<Option<bool>> = [-1, 0, 1]
                            .iter()
                            .map(|d| {
                                let l = (lead + d).clamp(-30, 30);
                                table[usize::from(n + 1)][(l + 30) as usize]
                            })
                            .collect();
                        if kids.iter().all(|k| *k == kids[0]) {
                            kids[0]
                        } else {
                            None
                        }
                    }
                };
                table[usize::from(n)][(lead + 30) as usize] = v;
            }
        }
        Certain { table }
    }

    fn expect(&self, early: EarlyEnd, n: u16, lead: i32) -> Expect {
        match early {
            EarlyEnd::AtBlockEnd => rule(n, lead),
            EarlyEnd::AsSoonAsCertain => match self.table[usize::from(n)][(lead + 30) as usize] {
                Some(x) => Expect::Won(x),
                None => rule(n, lead),
            },
        }
    }
}

/// The state's agreement with the oracle after `n` games with `lead`.
fn check(f: &Final, expect: Expect, n: u16) {
    let state = f.state();
    match expect {
        Expect::Won(first) => {
            let winner = Player::new(if first { HOLDER } else { CHALLENGER });
            assert_eq!(
                state,
                FinalState::Won {
                    winner,
                    after_games: n
                },
                "{:?}",
                f.games()
            );
        }
        Expect::Next => {
            let control = if n < 24 {
                TimeControl::Blitz2Plus5
            } else {
                TimeControl::Blitz2Plus0
            };
            assert_eq!(
                state,
                FinalState::NextGame {
                    number: n + 1,
                    control
                },
                "{:?}",
                f.games()
            );
        }
        Expect::Armageddon => assert!(
            matches!(
                state,
                FinalState::Armageddon(ArmageddonState::Bidding { .. })
            ),
            "{:?}: {state:?}",
            f.games()
        ),
    }
    assert_eq!(usize::from(n), f.games().len());
}

struct Walk<'a> {
    certain: &'a Certain,
    early: EarlyEnd,
    depth: u16,
    nodes: u64,
    won: u64,
}

impl Walk<'_> {
    /// Every continuation of `f` (n games, `lead`) up to `depth` games, sharing prefixes.
    fn dfs(&mut self, f: Final, n: u16, lead: i32) {
        if n == self.depth {
            return;
        }
        let mut f = Some(f);
        for (i, g) in GameResult::ALL.into_iter().enumerate() {
            let mut child = if i == 2 {
                f.take().expect("the last child takes the parent")
            } else {
                f.clone().expect("the parent is kept for the next children")
            };
            child.play(g).expect("an undecided match takes a game");
            let (n2, lead2) = (n + 1, lead + delta(g));
            self.nodes += 1;
            let expect = self.certain.expect(self.early, n2, lead2);
            if self.early == EarlyEnd::AtBlockEnd {
                // The rule as written: never judged before 12 or after an odd number.
                assert!(
                    !matches!(expect, Expect::Won(_)) || (n2 >= 12 && n2.is_multiple_of(2)),
                    "{:?}",
                    child.games()
                );
            }
            check(&child, expect, n2);
            if let Expect::Won(_) = expect {
                self.won += 1;
                assert!(matches!(child.play(g), Err(PlayRefused::Won(_))));
                continue;
            }
            self.dfs(child, n2, lead2);
        }
    }
}

fn every_sequence(early: EarlyEnd) -> (u64, u64) {
    let certain = Certain::new();
    let mut w = Walk {
        certain: &certain,
        early,
        depth: 14,
        nodes: 0,
        won: 0,
    };
    w.dfs(new_final(early, (0, 0)), 0, 0);
    eprintln!(
        "{early:?}: {} games played over every prefix, {} wins",
        w.nodes, w.won
    );
    (w.nodes, w.won)
}

#[test]
fn acwc_final_every_sequence_up_to_14_games_judged_at_the_blocks_ends() {
    let (nodes, won) = every_sequence(EarlyEnd::AtBlockEnd);
    // Every prefix up to 12 games is played (3 + 9 + ... + 3^12); the 12-game sequences within
    // a point go on to 13 and 14 (by 3 and 9 each), those two ahead end at 12; after 14 games
    // those within a point are undecided again.
    let mut by_lead = vec![0u64; 29]; // lead -14..=14
    by_lead[14] = 1;
    let mut within_one_at_12 = 0;
    for n in 1..=14 {
        let mut next = vec![0u64; 29];
        for (i, &k) in by_lead.iter().enumerate() {
            for d in [-1i64, 0, 1] {
                let j = (i as i64 + d).clamp(0, 28) as usize;
                next[j] += k;
            }
        }
        by_lead = next;
        if n == 12 {
            within_one_at_12 = by_lead[13] + by_lead[14] + by_lead[15];
            // Those two ahead stop here.
            by_lead = (0..29)
                .map(|i| {
                    if (13..=15).contains(&i) {
                        by_lead[i]
                    } else {
                        0
                    }
                })
                .collect();
        }
    }
    let before_12: u64 = (1..=12).map(|k| 3u64.pow(k)).sum();
    assert_eq!(nodes, before_12 + 12 * within_one_at_12);
    let two_ahead_at_14 = by_lead
        .iter()
        .enumerate()
        .filter(|(i, _)| (*i as i64 - 14).abs() >= 2);
    let two_ahead_at_14: u64 = two_ahead_at_14.map(|(_, k)| k).sum();
    assert_eq!(won, 3u64.pow(12) - within_one_at_12 + two_ahead_at_14);
}

#[test]
fn acwc_final_every_sequence_up_to_14_games_ended_as_soon_as_certain() {
    let (nodes, won) = every_sequence(EarlyEnd::AsSoonAsCertain);
    assert!(nodes > 3u64.pow(11), "{nodes}");
    assert!(won > 0);
}

#[test]
fn acwc_final_the_oracle_agrees_as_soon_as_certain_only_ends_early() {
    // Where the match ends as soon as certain, the rule as written gives the same winner at
    // the block's end, whatever is played in between.
    let c = Certain::new();
    for n in 0..=30u16 {
        for lead in -(i32::from(n))..=i32::from(n) {
            if let Expect::Won(x) = c.expect(EarlyEnd::AsSoonAsCertain, n, lead) {
                let end = if n < 12 { 12 } else { n + n % 2 };
                let worst = lead - i32::from(end - n) * if x { 1 } else { -1 };
                assert_eq!(rule(end, worst), Expect::Won(x), "n {n} lead {lead}");
            }
        }
    }
}

/// Whether 30 games level can still be reached from (n, lead), a table filled backwards.
fn armageddon_reachable(c: &Certain, early: EarlyEnd) -> Vec<Vec<bool>> {
    let mut t = vec![vec![false; 61]; 31];
    for n in (0..=30u16).rev() {
        for lead in -30..=30i32 {
            t[usize::from(n)][(lead + 30) as usize] = match c.expect(early, n, lead) {
                Expect::Armageddon => true,
                Expect::Won(_) => false,
                Expect::Next => {
                    n < 30
                        && [-1, 0, 1].iter().any(|d| {
                            let l = (lead + d).clamp(-30, 30);
                            t[usize::from(n + 1)][(l + 30) as usize]
                        })
                }
            };
        }
    }
    t
}

/// A game that keeps 30 games level reachable, the `pick`th of those that do.
fn towards_armageddon(reach: &[Vec<bool>], n: u16, lead: i32, pick: u8) -> GameResult {
    let ok: Vec<GameResult> = GameResult::ALL
        .into_iter()
        .filter(|&g| reach[usize::from(n + 1)][(lead + delta(g) + 30) as usize])
        .collect();
    ok[usize::from(pick) % ok.len()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn acwc_final_random_sequences_to_armageddon_the_bids_decide_white_and_a_draw_is_blacks(
        picks in proptest::collection::vec(any::<u8>(), 30),
        block_end in any::<bool>(),
        seeds in (0u32..3, 0u32..3),
        bids in (1u16..=180, 1u16..=180),
        equal_bids in any::<bool>(),
        holder_bids_first in any::<bool>(),
        last in 0usize..3,
    ) {
        let early = if block_end { EarlyEnd::AtBlockEnd } else { EarlyEnd::AsSoonAsCertain };
        let c = Certain::new();
        let reach = armageddon_reachable(&c, early);
        prop_assert!(reach[0][30]);
        let seeds = (4000 + seeds.0, 4000 + seeds.1);
        let mut f = new_final(early, seeds);
        let mut lead = 0;
        for (i, &pick) in picks.iter().enumerate() {
            let n = u16::try_from(i).unwrap();
            let g = towards_armageddon(&reach, n, lead, pick);
            f.play(g).unwrap();
            lead += delta(g);
            check(&f, c.expect(early, n + 1, lead), n + 1);
        }
        prop_assert_eq!(lead, 0);
        let (hb, cb) = if equal_bids { (bids.0, bids.0) } else { bids };
        let (holder, challenger) = (Player::new(HOLDER), Player::new(CHALLENGER));
        let order = if holder_bids_first {
            [(&holder, hb), (&challenger, cb)]
        } else {
            [(&challenger, cb), (&holder, hb)]
        };
        prop_assert!(f.reveal().is_err());
        let first_bid = f.bid(order[0].0, order[0].1);
        prop_assert!(matches!(first_bid, Ok(BidState::Waiting { .. })), "{:?}", first_bid);
        prop_assert!(f.reveal().is_err(), "not before both are in");
        prop_assert_eq!(f.bid(order[1].0, order[1].1), Ok(BidState::BothIn));
        let g = f.reveal().unwrap();
        let expected_white = if hb < cb || (hb == cb && seeds.0 >= seeds.1) {
            &holder
        } else {
            &challenger
        };
        prop_assert_eq!(&g.white, expected_white);
        prop_assert_eq!(g.white_seconds, hb.min(cb));
        prop_assert_eq!(g.black_seconds, ARMAGEDDON_BLACK_SECONDS);
        let result = GameResult::ALL[last];
        let white_is_holder = g.white == holder;
        let winner = match (result, white_is_holder) {
            (GameResult::Win, true) | (GameResult::Loss, false) => g.white.clone(),
            _ => g.black.clone(), // Black's win, or a draw: Black's draw odds.
        };
        prop_assert_eq!(
            f.play(result),
            Ok(FinalState::Won { winner: winner.clone(), after_games: 31 })
        );
        prop_assert_eq!(f.play(result), Err(PlayRefused::Won(winner)));
    }

    #[test]
    fn acwc_final_random_sequences_agree_with_the_rule_to_the_end(
        games in proptest::collection::vec(0usize..3, 0..40),
        block_end in any::<bool>(),
    ) {
        let early = if block_end { EarlyEnd::AtBlockEnd } else { EarlyEnd::AsSoonAsCertain };
        let c = Certain::new();
        let mut f = new_final(early, (0, 0));
        let mut lead = 0;
        for (i, &k) in games.iter().enumerate() {
            let n = u16::try_from(i).unwrap();
            let g = GameResult::ALL[k];
            let before = c.expect(early, n, lead);
            match before {
                Expect::Next => {
                    f.play(g).unwrap();
                    lead += delta(g);
                    check(&f, c.expect(early, n + 1, lead), n + 1);
                }
                Expect::Won(_) => {
                    prop_assert!(matches!(f.play(g), Err(PlayRefused::Won(_))));
                    break;
                }
                Expect::Armageddon => {
                    prop_assert_eq!(f.play(g), Err(PlayRefused::BidsNotRevealed));
                    break;
                }
            }
        }
    }
}
