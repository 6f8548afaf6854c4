//! ACWC Qualification (who proceeds) and ACWC Candidates: "The three players that scored most
//! points in the Swiss, will proceed to the Candidates. In case of a tie, the sum of all
//! opponents' seeds is used as tiebreaker"; "A round-robin tournament between the four
//! candidates is played. [...] The Candidate with most points will face arimakat in the Final
//! as Challenger. In case of a tie, the sub-scores per match get added up and used as
//! tiebreaker"; Disqualification and withdrawals: "if a player withdraws or gets disqualified
//! from the Candidates, all of their games will be disregarded."
//!
//! Decisions where the rules are silent, each documented where it is made:
//! - "opponents' seeds" are the opponents' seeding ratings (ACWC Format: "Your seeding rating
//!   (which is referred to in some following sections)"), not seed numbers: the ratings carry
//!   what the seed numbers are derived from, they are what the Swiss's own ranking uses ("the
//!   average of their opponents' seeding ratings"), and a higher sum is plainly the stronger
//!   opposition. They are taken doubled (a seeding rating is the average of two whole ratings,
//!   so it may end in .5), as the Swiss module keeps them. The sum is as written, not the
//!   average; a bye has no opponent and adds nothing (as in the Swiss's ranking);
//! - still tied after that sum: the higher own seeding rating (the Swiss ranking's next
//!   criterion), then the account name (an arbitrary but fixed order, flagged in
//!   [`CandidatesField::cut_by_name`] for the TD, who has the final call);
//! - a Swiss player who withdrew or was disqualified never proceeds: the next one does;
//! - the Candidates' Berger numbers (which decide the pairings) are the field's order: the
//!   fixed qualifier (the previous runner-up) 1, then the Swiss's three in their final order;
//! - the first-named player of a Berger pairing is the one the table names first (White in
//!   chess's tables); in a 10-game match that is who opens (White in the first game);
//! - still tied after the sub-scores: the match points scored against each other among those
//!   still tied (a mini-league), then the lower Berger number, flagged in
//!   [`CandidatesOutcome::challenger_by`];
//! - a player's withdrawal or disqualification drops every match of theirs, played or not
//!   (forfeits included), from the standings; the round robin is complete when every match
//!   between the remaining players is recorded;
//! - a recorded result stands: recording the same match again is refused.

use crate::Player;
use crate::matches::{MatchOutcome, ScoreError, Stage};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// ACWC Qualification: "The three players that scored most points in the Swiss".
pub const SWISS_QUALIFIERS: usize = 3;

/// ACWC Qualification: one player's line at the end of the Swiss, as plain values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissLine {
    pub player: Player,
    /// Match points, in half points (a won match 2).
    pub points_halves: u16,
    /// Every opponent's seeding rating, doubled (byes have no opponent and are not listed).
    pub opponents_seeding_x2: Vec<u32>,
    /// The player's own seeding rating, doubled.
    pub seeding_x2: u32,
    /// ACWC Disqualification and withdrawals: withdrew from, or was disqualified in, the
    /// Qualification.
    pub out: bool,
}

impl SwissLine {
    /// ACWC Qualification: "the sum of all opponents' seeds", doubled.
    pub fn opponents_seeds_x2(&self) -> u64 {
        self.opponents_seeding_x2
            .iter()
            .map(|&r| u64::from(r))
            .sum()
    }
}

/// ACWC Qualification: the Swiss's final order for advancement: points, the sum of the
/// opponents' seeding ratings, the own seeding rating, the account name.
pub fn swiss_advancement_order(lines: &[SwissLine]) -> Vec<&SwissLine> {
    let mut order: Vec<&SwissLine> = lines.iter().collect();
    order.sort_by(|a, b| {
        b.points_halves
            .cmp(&a.points_halves)
            .then(b.opponents_seeds_x2().cmp(&a.opponents_seeds_x2()))
            .then(b.seeding_x2.cmp(&a.seeding_x2))
            .then(a.player.cmp(&b.player))
    });
    order
}

/// ACWC Format, Qualification: the Candidates' four, in Berger order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CandidatesField {
    /// The fixed qualifier, then the Swiss's three in order.
    pub players: [Player; 4],
    /// The third qualifier and the next player were equal on everything but their names.
    pub cut_by_name: bool,
}

/// Why a Candidates field cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// ACWC Qualification: fewer than three Swiss players who may proceed.
    TooFewQualifiers { found: usize },
    /// ACWC Format: the fixed qualifier "automatically proceeds to the Candidates" and does
    /// not play the Swiss.
    FixedQualifierInSwiss(Player),
    /// One player listed twice.
    Twice(Player),
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldError::TooFewQualifiers { found } => write!(
                f,
                "the Swiss has {found} players who may proceed, not 3 (ACWC Qualification)"
            ),
            FieldError::FixedQualifierInSwiss(p) => write!(
                f,
                "{p} proceeds to the Candidates automatically and is not in the Swiss (ACWC Format)"
            ),
            FieldError::Twice(p) => write!(f, "{p} is listed twice (ACWC Candidates)"),
        }
    }
}

impl std::error::Error for FieldError {}

/// ACWC Qualification, Format: the Candidates' field, the fixed qualifier (a setting: Ogul1 in
/// 2019, the previous runner-up) first, then the Swiss's three.
pub fn candidates_field(
    lines: &[SwissLine],
    fixed_qualifier: &Player,
) -> Result<CandidatesField, FieldError> {
    let mut seen = BTreeSet::new();
    for l in lines {
        if &l.player == fixed_qualifier {
            return Err(FieldError::FixedQualifierInSwiss(l.player.clone()));
        }
        if !seen.insert(&l.player) {
            return Err(FieldError::Twice(l.player.clone()));
        }
    }
    let order: Vec<&SwissLine> = swiss_advancement_order(lines)
        .into_iter()
        .filter(|l| !l.out)
        .collect();
    let [a, b, c] = match order.get(..SWISS_QUALIFIERS) {
        Some(&[a, b, c]) => [a, b, c],
        _ => {
            return Err(FieldError::TooFewQualifiers { found: order.len() });
        }
    };
    let cut_by_name = order.get(SWISS_QUALIFIERS).is_some_and(|next| {
        (
            next.points_halves,
            next.opponents_seeds_x2(),
            next.seeding_x2,
        ) == (c.points_halves, c.opponents_seeds_x2(), c.seeding_x2)
    });
    Ok(CandidatesField {
        players: [
            fixed_qualifier.clone(),
            a.player.clone(),
            b.player.clone(),
            c.player.clone(),
        ],
        cut_by_name,
    })
}

/// ACWC Candidates: the Berger table for four players, by Berger number (1 to 4), the
/// first-named first: round 1 1-4 2-3, round 2 4-3 1-2, round 3 2-4 3-1.
pub const BERGER_4: [[(u8, u8); 2]; 3] = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]];

/// ACWC Candidates: one match of the round robin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// 1 to 3 ("one week per round-robin round (so 3 weeks total)").
    pub round: u8,
    pub first: Player,
    pub second: Player,
}

/// ACWC Candidates: one player's standing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub player: Player,
    pub berger_number: u8,
    /// Matches counted (those against withdrawn players are not).
    pub played: u8,
    /// Match points, in half points.
    pub points_halves: u16,
    /// "the sub-scores per match get added up": game points, in half points.
    pub sub_scores_halves: u16,
}

/// ACWC Candidates: what separated the Challenger from the runner-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieBreak {
    /// "The Candidate with most points".
    Points,
    /// "the sub-scores per match get added up".
    SubScores,
    /// Decided: the match points among those still tied.
    HeadToHead,
    /// Decided: the lower Berger number, the last resort.
    BergerNumber,
}

/// ACWC Candidates, Final: who goes on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CandidatesOutcome {
    /// "will face arimakat in the Final as Challenger".
    pub challenger: Player,
    /// ACWC Disqualification and withdrawals (Finals): the substitute; `None` with a single
    /// remaining player.
    pub runner_up: Option<Player>,
    pub challenger_by: TieBreak,
}

/// Why a Candidates result or withdrawal is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// ACWC Candidates: these two do not meet (or are one player).
    NotPaired(Player, Player),
    /// Not one of the four.
    NotACandidate(Player),
    /// Decided: a recorded result stands.
    AlreadyRecorded(Player, Player),
    /// ACWC Disqualification and withdrawals: this player's games are disregarded.
    Withdrawn(Player),
    /// ACWC Candidates: not a 10-game score.
    Score(ScoreError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::NotPaired(a, b) => {
                write!(f, "{a} and {b} are not paired in the Candidates")
            }
            RecordError::NotACandidate(p) => write!(f, "{p} is not in the Candidates"),
            RecordError::AlreadyRecorded(a, b) => {
                write!(f, "the match {a} - {b} is already recorded")
            }
            RecordError::Withdrawn(p) => write!(
                f,
                "{p} is out of the Candidates: all of their games are disregarded (ACWC Disqualification and withdrawals)"
            ),
            RecordError::Score(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RecordError {}

/// ACWC Candidates: the four-player round robin, its results and withdrawals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidates {
    field: [Player; 4],
    /// By (round, board), 0-based, as the Berger table's first-named sees it.
    results: BTreeMap<(u8, u8), MatchOutcome>,
    out: BTreeSet<Player>,
}

impl Candidates {
    /// ACWC Candidates: the field in Berger order ([`candidates_field`]'s, or the TD's).
    pub fn new(field: [Player; 4]) -> Result<Candidates, FieldError> {
        for (i, p) in field.iter().enumerate() {
            if field[..i].contains(p) {
                return Err(FieldError::Twice(p.clone()));
            }
        }
        Ok(Candidates {
            field,
            results: BTreeMap::new(),
            out: BTreeSet::new(),
        })
    }

    pub fn field(&self) -> &[Player; 4] {
        &self.field
    }

    fn player(&self, berger: u8) -> &Player {
        &self.field[usize::from(berger.clamp(1, 4) - 1)]
    }

    /// ACWC Candidates: the six matches by the Berger table, round by round.
    pub fn pairings(&self) -> Vec<Pairing> {
        (1..=3u8)
            .flat_map(|r| {
                BERGER_4[usize::from(r - 1)].map(|(a, b)| Pairing {
                    round: r,
                    first: self.player(a).clone(),
                    second: self.player(b).clone(),
                })
            })
            .collect()
    }

    /// The (round, board) of the match between `a` and `b`, and whether `a` is second-named.
    fn find(&self, a: &Player, b: &Player) -> Option<((u8, u8), bool)> {
        let na = self.berger_number(a)?;
        let nb = self.berger_number(b)?;
        (0..3u8)
            .flat_map(|r| (0..2u8).map(move |k| (r, k)))
            .find_map(|(r, k)| match BERGER_4[usize::from(r)][usize::from(k)] {
                (x, y) if (x, y) == (na, nb) => Some(((r, k), false)),
                (x, y) if (y, x) == (na, nb) => Some(((r, k), true)),
                _ => None,
            })
    }

    /// ACWC Candidates: a player's Berger number (1 to 4).
    pub fn berger_number(&self, p: &Player) -> Option<u8> {
        self.field
            .iter()
            .position(|f| f == p)
            .and_then(|i| u8::try_from(i + 1).ok())
    }

    fn check_in(&self, p: &Player) -> Result<(), RecordError> {
        if self.berger_number(p).is_none() {
            return Err(RecordError::NotACandidate(p.clone()));
        }
        if self.out.contains(p) {
            return Err(RecordError::Withdrawn(p.clone()));
        }
        Ok(())
    }

    /// ACWC Candidates, Match rules: a match's outcome, `a`'s first (in either order of the
    /// pairing); a played match must be ten games.
    pub fn record(
        &mut self,
        a: &Player,
        b: &Player,
        outcome: MatchOutcome,
    ) -> Result<(), RecordError> {
        self.check_in(a)?;
        self.check_in(b)?;
        let (key, swapped) = self
            .find(a, b)
            .ok_or_else(|| RecordError::NotPaired(a.clone(), b.clone()))?;
        if let MatchOutcome::Played(s) = outcome {
            s.check(Stage::Candidates).map_err(RecordError::Score)?;
        }
        if self.results.contains_key(&key) {
            return Err(RecordError::AlreadyRecorded(a.clone(), b.clone()));
        }
        let outcome = if swapped { outcome.reversed() } else { outcome };
        self.results.insert(key, outcome);
        Ok(())
    }

    /// ACWC Disqualification and withdrawals: a player withdraws or is disqualified; "all of
    /// their games will be disregarded".
    pub fn withdraw(&mut self, p: &Player) -> Result<(), RecordError> {
        self.check_in(p)?;
        self.out.insert(p.clone());
        Ok(())
    }

    pub fn is_out(&self, p: &Player) -> bool {
        self.out.contains(p)
    }

    /// Every counted match: both players remain and the result is recorded.
    fn counted(&self) -> impl Iterator<Item = (&Player, &Player, MatchOutcome)> + '_ {
        self.results.iter().filter_map(|(&(r, k), &o)| {
            let (a, b) = BERGER_4[usize::from(r)][usize::from(k)];
            let (a, b) = (self.player(a), self.player(b));
            (!self.out.contains(a) && !self.out.contains(b)).then_some((a, b, o))
        })
    }

    /// ACWC Candidates: the matches left to play between the remaining players.
    pub fn pending(&self) -> Vec<Pairing> {
        self.pairings()
            .into_iter()
            .filter(|p| !self.out.contains(&p.first) && !self.out.contains(&p.second))
            .filter(|p| {
                self.find(&p.first, &p.second)
                    .is_some_and(|(key, _)| !self.results.contains_key(&key))
            })
            .collect()
    }

    /// ACWC Candidates: every match between the remaining players is recorded.
    pub fn is_complete(&self) -> bool {
        self.pending().is_empty()
    }

    /// Match points scored by `p` against the players of `among` (counted matches only).
    fn points_among(&self, p: &Player, among: &[&Player]) -> u16 {
        self.counted()
            .filter_map(|(a, b, o)| {
                let (x, y) = o.result(Stage::Candidates)?.points_halves();
                if a == p && among.contains(&b) {
                    Some(x)
                } else if b == p && among.contains(&a) {
                    Some(y)
                } else {
                    None
                }
            })
            .sum()
    }

    /// ACWC Candidates: the remaining players' standings: points, then the sum of the
    /// sub-scores, then (decided) the match points among those still tied, then the Berger
    /// number.
    pub fn standings(&self) -> Vec<Standing> {
        let mut rows: Vec<Standing> = self
            .field
            .iter()
            .filter(|p| !self.out.contains(*p))
            .map(|p| self.standing_of(p))
            .collect();
        rows.sort_by(|a, b| {
            b.points_halves
                .cmp(&a.points_halves)
                .then(b.sub_scores_halves.cmp(&a.sub_scores_halves))
        });
        let key = |s: &Standing| (s.points_halves, s.sub_scores_halves);
        let mut i = 0;
        while i < rows.len() {
            let j = i + rows[i..]
                .iter()
                .take_while(|s| key(s) == key(&rows[i]))
                .count();
            let group: Vec<Player> = rows[i..j].iter().map(|s| s.player.clone()).collect();
            let among: Vec<&Player> = group.iter().collect();
            rows[i..j].sort_by_key(|s| {
                (
                    std::cmp::Reverse(self.points_among(&s.player, &among)),
                    s.berger_number,
                )
            });
            i = j;
        }
        rows
    }

    fn standing_of(&self, p: &Player) -> Standing {
        let mut s = Standing {
            player: p.clone(),
            berger_number: self.berger_number(p).unwrap_or(0),
            played: 0,
            points_halves: 0,
            sub_scores_halves: 0,
        };
        for (a, b, o) in self.counted() {
            let (points, subs) = match o.result(Stage::Candidates) {
                Some(r) => (r.points_halves(), o.sub_scores()),
                None => continue,
            };
            let (pt, sub) = if a == p {
                (points.0, subs.first)
            } else if b == p {
                (points.1, subs.second)
            } else {
                continue;
            };
            s.played += 1;
            s.points_halves = s.points_halves.saturating_add(pt);
            s.sub_scores_halves = s.sub_scores_halves.saturating_add(sub);
        }
        s
    }

    /// ACWC Candidates: the Challenger and the runner-up, once the round robin is complete.
    pub fn outcome(&self) -> Option<CandidatesOutcome> {
        if !self.is_complete() {
            return None;
        }
        let rows = self.standings();
        let first = rows.first()?;
        let challenger_by = match rows.get(1) {
            None => TieBreak::Points,
            Some(second) => self.separated_by(first, second),
        };
        Some(CandidatesOutcome {
            challenger: first.player.clone(),
            runner_up: rows.get(1).map(|s| s.player.clone()),
            challenger_by,
        })
    }

    fn separated_by(&self, first: &Standing, second: &Standing) -> TieBreak {
        if first.points_halves != second.points_halves {
            return TieBreak::Points;
        }
        if first.sub_scores_halves != second.sub_scores_halves {
            return TieBreak::SubScores;
        }
        let tied: Vec<&Player> = self
            .standings()
            .into_iter()
            .filter(|s| {
                (s.points_halves, s.sub_scores_halves)
                    == (first.points_halves, first.sub_scores_halves)
            })
            .map(|s| self.player(s.berger_number))
            .collect();
        if self.points_among(&first.player, &tied) != self.points_among(&second.player, &tied) {
            TieBreak::HeadToHead
        } else {
            TieBreak::BergerNumber
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::{MatchScore, Side};

    fn p(s: &str) -> Player {
        Player::new(s)
    }

    fn line(name: &str, points: u16, opps: &[u32], own: u32) -> SwissLine {
        SwissLine {
            player: p(name),
            points_halves: points,
            opponents_seeding_x2: opps.to_vec(),
            seeding_x2: own,
            out: false,
        }
    }

    fn played(first: u16, second: u16) -> MatchOutcome {
        MatchOutcome::Played(MatchScore { first, second })
    }

    fn four() -> Candidates {
        Candidates::new([p("Ogul1"), p("A"), p("B"), p("C")]).unwrap()
    }

    #[test]
    fn acwc_qualification_the_three_with_most_points_proceed_ties_by_opponents_seeds() {
        let lines = vec![
            line("low", 6, &[3000, 3000], 4000),
            line("top", 10, &[3000, 3000], 3000),
            line("tieweak", 8, &[3000, 3100], 4400),
            line("tiestrong", 8, &[3000, 3200], 3000),
            line("third", 8, &[3100, 3100], 3000),
        ];
        let f = candidates_field(&lines, &p("Ogul1")).unwrap();
        // tiestrong (6200) and third (6200) beat tieweak (6100); then own seeding, then name.
        assert_eq!(
            f.players,
            [p("Ogul1"), p("top"), p("third"), p("tiestrong")]
        );
        // third and tiestrong differ only by name, but the cut (against tieweak) is by seeds.
        assert!(!f.cut_by_name);
    }

    #[test]
    fn acwc_qualification_a_tie_at_the_cut_goes_to_the_stronger_opposition() {
        let lines = vec![
            line("top", 10, &[1], 1),
            line("second", 9, &[1], 1),
            line("weak", 8, &[3000, 3000], 4800),
            line("strong", 8, &[3000, 3002], 2000),
        ];
        let f = candidates_field(&lines, &p("Ogul1")).unwrap();
        assert_eq!(f.players[3], p("strong"));
        assert!(!f.cut_by_name);
        // Equal opposition: the own seeding rating.
        let lines = vec![
            line("top", 10, &[1], 1),
            line("second", 9, &[1], 1),
            line("a", 8, &[3000], 2000),
            line("b", 8, &[3000], 2001),
        ];
        let f = candidates_field(&lines, &p("Ogul1")).unwrap();
        assert_eq!(f.players[3], p("b"));
        assert!(!f.cut_by_name);
        // Equal in everything: the name, flagged.
        let lines = vec![
            line("top", 10, &[1], 1),
            line("second", 9, &[1], 1),
            line("zed", 8, &[3000], 2000),
            line("amy", 8, &[3000], 2000),
        ];
        let f = candidates_field(&lines, &p("Ogul1")).unwrap();
        assert_eq!(f.players[3], p("amy"));
        assert!(f.cut_by_name);
    }

    #[test]
    fn acwc_disqualification_and_withdrawals_a_withdrawn_swiss_player_never_proceeds() {
        let mut lines = vec![
            line("top", 10, &[1], 1),
            line("second", 9, &[1], 1),
            line("third", 8, &[1], 1),
            line("fourth", 7, &[1], 1),
        ];
        lines[0].out = true;
        let f = candidates_field(&lines, &p("Ogul1")).unwrap();
        assert_eq!(
            f.players,
            [p("Ogul1"), p("second"), p("third"), p("fourth")]
        );
        lines[1].out = true;
        assert_eq!(
            candidates_field(&lines, &p("Ogul1")),
            Err(FieldError::TooFewQualifiers { found: 2 })
        );
        lines.push(line("Ogul1", 0, &[], 1));
        assert_eq!(
            candidates_field(&lines, &p("Ogul1")),
            Err(FieldError::FixedQualifierInSwiss(p("Ogul1")))
        );
    }

    #[test]
    fn acwc_candidates_the_berger_table_pairs_everyone_once() {
        let c = four();
        let pairs = c.pairings();
        assert_eq!(pairs.len(), 6);
        let names: Vec<(u8, &str, &str)> = pairs
            .iter()
            .map(|x| (x.round, x.first.as_str(), x.second.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![
                (1, "Ogul1", "C"),
                (1, "A", "B"),
                (2, "C", "B"),
                (2, "Ogul1", "A"),
                (3, "A", "C"),
                (3, "B", "Ogul1"),
            ]
        );
        for (i, a) in c.field().iter().enumerate() {
            for b in &c.field()[i + 1..] {
                let n = pairs
                    .iter()
                    .filter(|x| (&x.first, &x.second) == (a, b) || (&x.first, &x.second) == (b, a))
                    .count();
                assert_eq!(n, 1, "{a} - {b}");
            }
            // Each plays once a round.
            for r in 1..=3 {
                let n = pairs
                    .iter()
                    .filter(|x| x.round == r && (&x.first == a || &x.second == a))
                    .count();
                assert_eq!(n, 1);
            }
        }
        assert_eq!(
            Candidates::new([p("A"), p("B"), p("A"), p("C")]),
            Err(FieldError::Twice(p("A")))
        );
    }

    #[test]
    fn acwc_candidates_most_points_then_sub_scores() {
        let mut c = four();
        // Ogul1 and A each win two matches and lose one; Ogul1 by more games.
        c.record(&p("Ogul1"), &p("C"), played(16, 4)).unwrap();
        c.record(&p("A"), &p("B"), played(11, 9)).unwrap();
        c.record(&p("C"), &p("B"), played(10, 10)).unwrap();
        c.record(&p("A"), &p("Ogul1"), played(11, 9)).unwrap(); // either order
        c.record(&p("A"), &p("C"), played(11, 9)).unwrap();
        assert_eq!(c.outcome(), None, "one match left");
        assert_eq!(c.pending().len(), 1);
        c.record(&p("B"), &p("Ogul1"), played(9, 11)).unwrap();
        let s = c.standings();
        assert_eq!(s[0].player, p("A"), "3 wins");
        assert_eq!((s[0].points_halves, s[0].sub_scores_halves), (6, 33));
        assert_eq!(s[1].player, p("Ogul1"));
        assert_eq!((s[1].points_halves, s[1].sub_scores_halves), (4, 36));
        assert_eq!(
            c.outcome(),
            Some(CandidatesOutcome {
                challenger: p("A"),
                runner_up: Some(p("Ogul1")),
                challenger_by: TieBreak::Points
            })
        );
    }

    #[test]
    fn acwc_candidates_a_tie_on_points_goes_to_the_sub_scores() {
        let mut c = four();
        c.record(&p("Ogul1"), &p("C"), played(16, 4)).unwrap();
        c.record(&p("A"), &p("B"), played(11, 9)).unwrap();
        c.record(&p("C"), &p("B"), played(10, 10)).unwrap();
        c.record(&p("Ogul1"), &p("A"), played(9, 11)).unwrap();
        c.record(&p("A"), &p("C"), played(9, 11)).unwrap();
        c.record(&p("B"), &p("Ogul1"), played(9, 11)).unwrap();
        // Ogul1 4 (16+9+11 = 36), A 4 (11+11+9 = 31).
        let o = c.outcome().unwrap();
        assert_eq!(o.challenger, p("Ogul1"));
        assert_eq!(o.runner_up, Some(p("A")));
        assert_eq!(o.challenger_by, TieBreak::SubScores);
    }

    #[test]
    fn acwc_candidates_still_tied_head_to_head_then_berger_number() {
        let mut c = four();
        // Every match 5-5: all tied; no head-to-head: Berger number.
        for x in c.pairings() {
            c.record(&x.first, &x.second, played(10, 10)).unwrap();
        }
        let o = c.outcome().unwrap();
        assert_eq!(o.challenger, p("Ogul1"));
        assert_eq!(o.challenger_by, TieBreak::BergerNumber);
        // Two tied on points and sub-scores, one beat the other.
        let mut c = four();
        c.record(&p("A"), &p("B"), played(9, 11)).unwrap(); // B beats A
        c.record(&p("Ogul1"), &p("C"), played(10, 10)).unwrap();
        c.record(&p("C"), &p("B"), played(11, 9)).unwrap(); // C beats B
        c.record(&p("Ogul1"), &p("A"), played(9, 11)).unwrap(); // A beats Ogul1
        c.record(&p("A"), &p("C"), played(11, 9)).unwrap(); // A beats C
        c.record(&p("B"), &p("Ogul1"), played(11, 9)).unwrap(); // B beats Ogul1
        // A: 4 points, 31 halves; B: 4 points, 31 halves; B beat A.
        let o = c.outcome().unwrap();
        assert_eq!(
            (o.challenger, o.runner_up, o.challenger_by),
            (p("B"), Some(p("A")), TieBreak::HeadToHead)
        );
    }

    #[test]
    fn acwc_disqualification_and_withdrawals_a_withdrawn_candidates_games_are_disregarded() {
        let mut c = four();
        c.record(&p("Ogul1"), &p("C"), played(0, 20)).unwrap();
        c.record(&p("A"), &p("B"), played(11, 9)).unwrap();
        c.record(&p("C"), &p("B"), played(20, 0)).unwrap();
        c.withdraw(&p("C")).unwrap();
        assert_eq!(
            c.record(&p("A"), &p("C"), played(11, 9)),
            Err(RecordError::Withdrawn(p("C")))
        );
        let s = c.standings();
        assert_eq!(s.len(), 3);
        assert!(s.iter().all(|x| x.player != p("C")));
        let ogul = s.iter().find(|x| x.player == p("Ogul1")).unwrap();
        assert_eq!(
            (ogul.played, ogul.points_halves),
            (0, 0),
            "the loss to C is gone"
        );
        assert_eq!(c.pending().len(), 2, "Ogul1-A and B-Ogul1");
        c.record(&p("Ogul1"), &p("A"), played(10, 10)).unwrap();
        c.record(
            &p("Ogul1"),
            &p("B"),
            MatchOutcome::Forfeit {
                winner: Side::First,
            },
        )
        .unwrap();
        let o = c.outcome().unwrap();
        // Ogul1: 1.5 points; A: 1.5 points; Ogul1's forfeit counts 10-0: 30 halves to A's 21.
        assert_eq!(o.challenger, p("Ogul1"));
        assert_eq!(o.challenger_by, TieBreak::SubScores);
        assert_eq!(o.runner_up, Some(p("A")));
    }

    #[test]
    fn acwc_candidates_a_result_is_refused_when_it_cannot_be() {
        let mut c = four();
        assert_eq!(
            c.record(&p("A"), &p("A"), played(10, 10)),
            Err(RecordError::NotPaired(p("A"), p("A")))
        );
        assert_eq!(
            c.record(&p("A"), &p("Z"), played(10, 10)),
            Err(RecordError::NotACandidate(p("Z")))
        );
        assert!(matches!(
            c.record(&p("A"), &p("B"), played(11, 5)),
            Err(RecordError::Score(ScoreError::CandidatesStoppedEarly(_)))
        ));
        c.record(&p("A"), &p("B"), played(11, 9)).unwrap();
        assert_eq!(
            c.record(&p("B"), &p("A"), played(9, 11)),
            Err(RecordError::AlreadyRecorded(p("B"), p("A")))
        );
        c.withdraw(&p("A")).unwrap();
        assert_eq!(c.withdraw(&p("A")), Err(RecordError::Withdrawn(p("A"))));
    }
}
