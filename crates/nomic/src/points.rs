//! Points: Nomic 203 (the proposer of an adopted rule-change), 205 (who voted against it, once
//! majority rules), 207 (the proposer of a defeated one), 201 ("All players begin with zero
//! points") and 210 ("The winner is the first player to achieve 200 (positive) points").
//!
//! Every number here is the game's ([`Settings`]): the constants are the 2019 Initial Set's,
//! which the `nomic2019` preset holds, and an adopted `set` changes the game's from then on.

use crate::settings::Settings;
use chancery_office::ballot::{Counts, VoterId};
use std::collections::BTreeMap;
use std::fmt;

/// Nomic 207: "the player who proposed it loses 10 points".
pub const DEFEAT_PENALTY_207: i64 = 10;
/// Nomic 205: "the players who vote against winning proposals shall receive 10 points each".
pub const DISSENT_BONUS_205: i64 = 10;
/// Nomic 210: "the first player to achieve 200 (positive) points".
pub const WINNING_SCORE_210: i64 = 200;

/// Nomic 203: the most an adopted proposal can gain, `max(10, R - 290)` with the game's floor
/// and offset (10 and 290 in the Initial Set); never below 0 (a floor and offset only a stored
/// row could make negative give nothing rather than take points away).
pub fn top_203(s: &Settings, highest_rule: u32) -> u32 {
    let top = i128::from(highest_rule)
        .saturating_sub(i128::from(s.points_offset))
        .max(i128::from(s.points_floor))
        .max(0);
    u32::try_from(top).unwrap_or(u32::MAX)
}

/// Nomic 203: the points the proposer of an adopted rule-change gains,
/// `floor(max(floor, R - offset) * Y / V)` (floor 10 and offset 290 in the Initial Set), R the
/// highest-numbered existing rule, Y the votes for, V the votes cast; 0 when no vote was cast
/// (no V to divide by) or Y exceeds V (no such count).
pub fn points_203(s: &Settings, highest_rule: u32, yes: u32, cast: u32) -> u32 {
    if cast == 0 || yes > cast {
        return 0;
    }
    let top = u64::from(top_203(s, highest_rule));
    let points = top * u64::from(yes) / u64::from(cast);
    u32::try_from(points).unwrap_or(u32::MAX)
}

/// Nomic 203's R: "the highest numbered existing rule", counted once the adopted change took
/// effect (Nomic 206: at the completion of the vote, the moment the points are added).
pub fn highest_rule<'a>(numbers: impl IntoIterator<Item = &'a u32>) -> u32 {
    numbers.into_iter().copied().max().unwrap_or(0)
}

/// Which rule a change of points comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointsRule {
    /// Nomic 203: the proposer of an adopted rule-change.
    Adopted203,
    /// Nomic 205: a player who voted against an adopted rule-change, once majority rules.
    Against205,
    /// Nomic 207: the proposer of a defeated rule-change.
    Defeated207,
}

impl fmt::Display for PointsRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PointsRule::Adopted203 => "the proposal was adopted (Nomic 203)",
            PointsRule::Against205 => "voted against an adopted proposal (Nomic 205)",
            PointsRule::Defeated207 => "the proposal was defeated (Nomic 207)",
        })
    }
}

/// One player's change of points (Nomic 209 has it announced: "150 (+4)").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Award {
    pub player: VoterId,
    pub points: i64,
    pub rule: PointsRule,
}

/// How a completed vote ended, as the points need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completed<'a> {
    pub proposer: &'a VoterId,
    pub adopted: bool,
    pub counts: Counts,
    /// Nomic 203's R, after the change took effect.
    pub highest_rule: u32,
    /// The players whose counted vote was `Vote: No` (public in the Nomic: votes are posted in
    /// the voting thread, Nomic 113).
    pub against: &'a [VoterId],
    /// Nomic 205: "If and when rule-changes can be adopted without unanimity".
    pub without_unanimity: bool,
}

/// Nomic 203, 205, 207: the points a completed vote gives, the proposer first, by the game's
/// numbers as they stand at the completion of the vote.
pub fn awards(c: &Completed<'_>, s: &Settings) -> Vec<Award> {
    if !c.adopted {
        return vec![Award {
            player: c.proposer.clone(),
            points: s.defeat_penalty.saturating_neg(),
            rule: PointsRule::Defeated207,
        }];
    }
    let gained = points_203(s, c.highest_rule, c.counts.yes, c.counts.cast());
    let mut out = vec![Award {
        player: c.proposer.clone(),
        points: i64::from(gained),
        rule: PointsRule::Adopted203,
    }];
    if c.without_unanimity {
        out.extend(c.against.iter().map(|p| Award {
            player: p.clone(),
            points: s.dissent_bonus,
            rule: PointsRule::Against205,
        }));
    }
    out
}

/// Who won (Nomic 210).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Win {
    /// The first to reach 200 points.
    One(VoterId),
    /// Several reached 200 points at one moment (one vote's awards): Nomic 210 names no one, and
    /// the Judge decides (Nomic 214, 215).
    Together(Vec<VoterId>),
}

/// Every player's points (Nomic 201: "All players begin with zero points") and the winner once
/// there is one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scores {
    points: BTreeMap<VoterId, i64>,
    winner: Option<Win>,
}

impl Scores {
    /// Nomic 201: every player at zero.
    pub fn new<'a>(players: impl IntoIterator<Item = &'a VoterId>) -> Scores {
        Scores {
            points: players.into_iter().map(|p| (p.clone(), 0)).collect(),
            winner: None,
        }
    }

    pub fn of(&self, player: &VoterId) -> i64 {
        self.points.get(player).copied().unwrap_or(0)
    }

    pub fn winner(&self) -> Option<&Win> {
        self.winner.as_ref()
    }

    /// One vote's awards, added together; Nomic 210: the winner, if this made the first player
    /// (or players) reach `winning_score` (200 in the Initial Set, the game's
    /// [`Settings::winning_score`] since). Once there is a winner it stays.
    pub fn apply(&mut self, awards: &[Award], winning_score: i64) -> Option<&Win> {
        for a in awards {
            let p = self.points.entry(a.player.clone()).or_insert(0);
            *p = p.saturating_add(a.points);
        }
        if self.winner.is_none() {
            let reached: Vec<VoterId> = self
                .points
                .iter()
                .filter(|(_, p)| **p >= winning_score)
                .map(|(v, _)| v.clone())
                .collect();
            self.winner = match reached.len() {
                0 => None,
                1 => reached.into_iter().next().map(Win::One),
                _ => Some(Win::Together(reached)),
            };
        }
        self.winner.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(s: &str) -> VoterId {
        VoterId::new(s)
    }

    const S: Settings = Settings::nomic2019();

    /// Nomic 203 with the 2019 numbers.
    fn p203(r: u32, y: u32, cast: u32) -> u32 {
        points_203(&S, r, y, cast)
    }

    #[test]
    fn nomic_203_the_proposer_gains_floor_max_10_r_minus_290_times_y_over_v() {
        // The Initial Set's highest rule is 215: max(10, -75) = 10.
        assert_eq!(p203(215, 5, 5), 10);
        assert_eq!(p203(215, 2, 3), 6); // floor(20/3)
        // Proposal 301 amended a rule, which took its number: R = 301, max(10, 11) = 11.
        assert_eq!(p203(301, 4, 5), 8); // floor(44/5)
        assert_eq!(p203(320, 3, 4), 22); // floor(30*3/4)
        assert_eq!(p203(301, 0, 0), 0);
        assert_eq!(p203(301, 5, 4), 0, "no such count");
        assert_eq!(p203(u32::MAX, u32::MAX, u32::MAX), u32::MAX - 290);
        assert_eq!(highest_rule(&[101, 215, 203]), 215);
        assert_eq!(highest_rule(&[]), 0);
    }

    #[test]
    fn nomic_207_a_defeated_proposal_costs_its_proposer_10() {
        let ben = v("Ben P");
        let got = awards(
            &Completed {
                proposer: &ben,
                adopted: false,
                counts: Counts { yes: 2, no: 3 },
                highest_rule: 215,
                against: &[v("Dave M")],
                without_unanimity: true,
            },
            &S,
        );
        assert_eq!(
            got,
            vec![Award {
                player: ben,
                points: -10,
                rule: PointsRule::Defeated207
            }]
        );
    }

    #[test]
    fn nomic_203_205_once_majority_rules_those_against_an_adopted_proposal_gain_10() {
        let ben = v("Ben P");
        let against = [v("Dave M")];
        let mut c = Completed {
            proposer: &ben,
            adopted: true,
            counts: Counts { yes: 3, no: 1 },
            highest_rule: 310,
            against: &against,
            without_unanimity: true,
        };
        assert_eq!(
            awards(&c, &S),
            vec![
                Award {
                    player: ben.clone(),
                    points: 15, // floor(20*3/4)
                    rule: PointsRule::Adopted203
                },
                Award {
                    player: v("Dave M"),
                    points: 10,
                    rule: PointsRule::Against205
                }
            ]
        );
        // Under unanimity nobody voted against an adopted proposal; were they listed, rule 205
        // would still not apply.
        c.without_unanimity = false;
        assert_eq!(awards(&c, &S).len(), 1);
    }

    #[test]
    fn nomic_201_210_the_first_to_200_wins() {
        let (a, b) = (v("A"), v("B"));
        let mut s = Scores::new([&a, &b]);
        assert_eq!(s.of(&a), 0, "Nomic 201: zero points at first");
        let give = |p: &VoterId, n| Award {
            player: p.clone(),
            points: n,
            rule: PointsRule::Adopted203,
        };
        assert_eq!(s.apply(&[give(&a, 195)], WINNING_SCORE_210), None);
        assert_eq!(s.apply(&[give(&b, 199)], WINNING_SCORE_210), None);
        assert_eq!(
            s.apply(&[give(&a, 5)], WINNING_SCORE_210),
            Some(&Win::One(a.clone()))
        );
        // The winner stays the first.
        assert_eq!(
            s.apply(&[give(&b, 50)], WINNING_SCORE_210),
            Some(&Win::One(a.clone()))
        );
        let mut t = Scores::new([&a, &b]);
        assert_eq!(
            t.apply(&[give(&a, 200), give(&b, 210)], WINNING_SCORE_210),
            Some(&Win::Together(vec![a.clone(), b.clone()]))
        );
        // Points may fall below zero (Nomic 207).
        let mut u = Scores::new([&a]);
        u.apply(
            &[Award {
                player: a.clone(),
                points: -10,
                rule: PointsRule::Defeated207,
            }],
            WINNING_SCORE_210,
        );
        assert_eq!(u.of(&a), -10);
        assert_eq!(
            PointsRule::Defeated207.to_string(),
            "the proposal was defeated (Nomic 207)"
        );
    }

    #[test]
    fn nomic_210_a_winning_score_set_to_50_wins_at_50() {
        let mut settings = S;
        settings
            .set(crate::grammar::Parameter::WinningScore, 50)
            .expect("a score");
        let a = v("A");
        let give = |n| Award {
            player: a.clone(),
            points: n,
            rule: PointsRule::Adopted203,
        };
        let mut s = Scores::new([&a]);
        assert_eq!(s.apply(&[give(49)], settings.winning_score), None);
        assert_eq!(
            s.apply(&[give(1)], settings.winning_score),
            Some(&Win::One(a.clone()))
        );
        // By the 2019 number, 50 points win nothing.
        let mut t = Scores::new([&a]);
        assert_eq!(t.apply(&[give(50)], S.winning_score), None);
    }

    #[test]
    fn nomic_205_207_a_changed_penalty_and_bonus_are_what_the_players_get() {
        let mut settings = S;
        settings
            .set(crate::grammar::Parameter::DefeatPenalty, 25)
            .expect("ok");
        settings
            .set(crate::grammar::Parameter::DissentBonus, 3)
            .expect("ok");
        let ben = v("Ben P");
        let against = [v("Dave M")];
        let mut c = Completed {
            proposer: &ben,
            adopted: false,
            counts: Counts { yes: 3, no: 1 },
            highest_rule: 215,
            against: &against,
            without_unanimity: true,
        };
        assert_eq!(
            awards(&c, &settings).first().map(|a| a.points),
            Some(-25),
            "Nomic 207 as set"
        );
        c.adopted = true;
        assert_eq!(
            awards(&c, &settings).get(1).map(|a| a.points),
            Some(3),
            "Nomic 205 as set"
        );
    }

    #[test]
    fn nomic_203_a_changed_floor_and_offset_change_the_proposers_points() {
        let mut settings = S;
        settings
            .set(crate::grammar::Parameter::PointsFloor, 20)
            .expect("ok");
        // R = 215: max(20, -75) = 20 instead of 10.
        assert_eq!(points_203(&settings, 215, 5, 5), 20);
        assert_eq!(p203(215, 5, 5), 10);
        settings
            .set(crate::grammar::Parameter::PointsOffset, 200)
            .expect("ok");
        // R = 301: max(20, 101) = 101 instead of max(10, 11) = 11.
        assert_eq!(points_203(&settings, 301, 1, 2), 50);
        assert_eq!(p203(301, 1, 2), 5);
        // A floor and offset only a stored row could hold give nothing, never less.
        let mut odd = S;
        odd.points_floor = -50;
        odd.points_offset = i64::MAX;
        assert_eq!(top_203(&odd, 400), 0);
        assert_eq!(points_203(&odd, 400, 1, 1), 0);
    }

    proptest! {
        /// Nomic 203 with any floor and offset: `floor(max(floor, R - offset) * Y / V)`, never
        /// more than the max, monotone in Y.
        #[test]
        fn nomic_203_points_follow_any_floor_and_offset(
            floor in 0i64..10_000,
            offset in 0i64..200_000,
            r in 0u32..100_000,
            cast in 1u32..1000,
            y in 0u32..1000,
        ) {
            let settings = Settings { points_floor: floor, points_offset: offset, ..S };
            let top = (i64::from(r) - offset).max(floor);
            let y = y.min(cast);
            let p = points_203(&settings, r, y, cast);
            prop_assert_eq!(i64::from(top_203(&settings, r)), top);
            prop_assert_eq!(i64::from(p), top * i64::from(y) / i64::from(cast));
            prop_assert!(i64::from(p) <= top);
            if y < cast {
                prop_assert!(points_203(&settings, r, y + 1, cast) >= p);
            }
        }

        /// Nomic 203: never more than max(10, R - 290), never negative, monotone in Y, all of it
        /// when every vote cast is yes.
        #[test]
        fn nomic_203_points_are_bounded_and_monotone(r in 0u32..100_000, cast in 0u32..1000, y in 0u32..1000) {
            let top = r.saturating_sub(290).max(10);
            let y = y.min(cast);
            let p = p203(r, y, cast);
            prop_assert!(p <= top);
            if y < cast {
                prop_assert!(p203(r, y + 1, cast) >= p);
            }
            if cast > 0 {
                prop_assert_eq!(p203(r, cast, cast), top);
                prop_assert_eq!(p203(r, 0, cast), 0);
                // Floor: the exact share, less under one point.
                let exact = u64::from(top) * u64::from(y);
                prop_assert!(u64::from(p) * u64::from(cast) <= exact);
                prop_assert!(exact < (u64::from(p) + 1) * u64::from(cast));
            } else {
                prop_assert_eq!(p, 0);
            }
        }
    }
}
