//! Points: Nomic 203 (the proposer of an adopted rule-change), 205 (who voted against it, once
//! majority rules), 207 (the proposer of a defeated one), 201 ("All players begin with zero
//! points") and 210 ("The winner is the first player to achieve 200 (positive) points").

use chancery_office::ballot::{Counts, VoterId};
use std::collections::BTreeMap;
use std::fmt;

/// Nomic 207: "the player who proposed it loses 10 points".
pub const DEFEAT_PENALTY_207: i64 = 10;
/// Nomic 205: "the players who vote against winning proposals shall receive 10 points each".
pub const DISSENT_BONUS_205: i64 = 10;
/// Nomic 210: "the first player to achieve 200 (positive) points".
pub const WINNING_SCORE_210: i64 = 200;

/// Nomic 203: the points the proposer of an adopted rule-change gains,
/// `floor(max(10, R - 290) * Y / V)`, R the highest-numbered existing rule, Y the votes for, V
/// the votes cast; 0 when no vote was cast (no V to divide by) or Y exceeds V (no such count).
pub fn points_203(highest_rule: u32, yes: u32, cast: u32) -> u32 {
    if cast == 0 || yes > cast {
        return 0;
    }
    let top = u64::from(highest_rule.saturating_sub(290).max(10));
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

/// Nomic 203, 205, 207: the points a completed vote gives, the proposer first.
pub fn awards(c: &Completed<'_>) -> Vec<Award> {
    if !c.adopted {
        return vec![Award {
            player: c.proposer.clone(),
            points: -DEFEAT_PENALTY_207,
            rule: PointsRule::Defeated207,
        }];
    }
    let gained = points_203(c.highest_rule, c.counts.yes, c.counts.cast());
    let mut out = vec![Award {
        player: c.proposer.clone(),
        points: i64::from(gained),
        rule: PointsRule::Adopted203,
    }];
    if c.without_unanimity {
        out.extend(c.against.iter().map(|p| Award {
            player: p.clone(),
            points: DISSENT_BONUS_205,
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
    /// (or players) reach 200. Once there is a winner it stays.
    pub fn apply(&mut self, awards: &[Award]) -> Option<&Win> {
        for a in awards {
            let p = self.points.entry(a.player.clone()).or_insert(0);
            *p = p.saturating_add(a.points);
        }
        if self.winner.is_none() {
            let reached: Vec<VoterId> = self
                .points
                .iter()
                .filter(|(_, p)| **p >= WINNING_SCORE_210)
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

    #[test]
    fn nomic_203_the_proposer_gains_floor_max_10_r_minus_290_times_y_over_v() {
        // The Initial Set's highest rule is 215: max(10, -75) = 10.
        assert_eq!(points_203(215, 5, 5), 10);
        assert_eq!(points_203(215, 2, 3), 6); // floor(20/3)
        // Proposal 301 amended a rule, which took its number: R = 301, max(10, 11) = 11.
        assert_eq!(points_203(301, 4, 5), 8); // floor(44/5)
        assert_eq!(points_203(320, 3, 4), 22); // floor(30*3/4)
        assert_eq!(points_203(301, 0, 0), 0);
        assert_eq!(points_203(301, 5, 4), 0, "no such count");
        assert_eq!(points_203(u32::MAX, u32::MAX, u32::MAX), u32::MAX - 290);
        assert_eq!(highest_rule(&[101, 215, 203]), 215);
        assert_eq!(highest_rule(&[]), 0);
    }

    #[test]
    fn nomic_207_a_defeated_proposal_costs_its_proposer_10() {
        let ben = v("Ben P");
        let got = awards(&Completed {
            proposer: &ben,
            adopted: false,
            counts: Counts { yes: 2, no: 3 },
            highest_rule: 215,
            against: &[v("Dave M")],
            without_unanimity: true,
        });
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
            awards(&c),
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
        assert_eq!(awards(&c).len(), 1);
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
        assert_eq!(s.apply(&[give(&a, 195)]), None);
        assert_eq!(s.apply(&[give(&b, 199)]), None);
        assert_eq!(s.apply(&[give(&a, 5)]), Some(&Win::One(a.clone())));
        // The winner stays the first.
        assert_eq!(s.apply(&[give(&b, 50)]), Some(&Win::One(a.clone())));
        let mut t = Scores::new([&a, &b]);
        assert_eq!(
            t.apply(&[give(&a, 200), give(&b, 210)]),
            Some(&Win::Together(vec![a.clone(), b.clone()]))
        );
        // Points may fall below zero (Nomic 207).
        let mut u = Scores::new([&a]);
        u.apply(&[Award {
            player: a.clone(),
            points: -10,
            rule: PointsRule::Defeated207,
        }]);
        assert_eq!(u.of(&a), -10);
        assert_eq!(
            PointsRule::Defeated207.to_string(),
            "the proposal was defeated (Nomic 207)"
        );
    }

    proptest! {
        /// Nomic 203: never more than max(10, R - 290), never negative, monotone in Y, all of it
        /// when every vote cast is yes.
        #[test]
        fn nomic_203_points_are_bounded_and_monotone(r in 0u32..100_000, cast in 0u32..1000, y in 0u32..1000) {
            let top = r.saturating_sub(290).max(10);
            let y = y.min(cast);
            let p = points_203(r, y, cast);
            prop_assert!(p <= top);
            if y < cast {
                prop_assert!(points_203(r, y + 1, cast) >= p);
            }
            if cast > 0 {
                prop_assert_eq!(points_203(r, cast, cast), top);
                prop_assert_eq!(points_203(r, 0, cast), 0);
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
