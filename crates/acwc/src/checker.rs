//! The checker (issue 26: "`chancery` can check a whole tournament's pairings from its
//! results"): each round's pairing recomputed from the entrants' seedings and the results before
//! it ("Pairing details", with this crate's documented fallbacks, [`crate::swiss`]), and every
//! difference from the pairing that was used reported. Each round is recomputed from the
//! results as they were played, so one wrong round does not hide or multiply the differences
//! of the next.
//!
//! The input, as JSON ([`Tournament`]; the CLI reads it):
//!
//! ```json
//! {
//!   "entrants": [
//!     {"player": "arimakat", "cutoff": 2450, "peak": 2500},
//!     {"player": "Ogul1", "cutoff": 2300, "peak": 2380},
//!     {"player": "alice", "cutoff": 2101, "peak": 2250},
//!     {"player": "bob", "cutoff": 2050, "peak": 2100},
//!     {"player": "carol", "cutoff": 1900, "peak": 2000}
//!   ],
//!   "fixed": {"final": "arimakat", "candidates": ["Ogul1"]},
//!   "rounds": [
//!     {"bye": "carol",
//!      "matches": [{"first": "alice", "second": "bob", "outcome": "first_won"}]},
//!     {"withdrawn": ["bob"],
//!      "matches": [{"first": "alice", "second": "carol"}]}
//!   ]
//! }
//! ```
//!
//! - `entrants`: every entrant with their two Lichess ratings (`cutoff`: at the cut-off moment;
//!   `peak`: the year's highest), fixed qualifiers included or not;
//! - `fixed` (optional): the fixed qualifiers, left out of the Swiss;
//! - `rounds`, in order: `withdrawn` (optional) the players withdrawn or disqualified since the
//!   previous round was paired; `bye` (optional) the player who had the bye; `matches` each
//!   pairing as used, with its `outcome` (`first_won`, `tie`, `second_won`). Every round but the
//!   last needs all its outcomes (the next round's ranking depends on them); the last may have
//!   none yet.
//!
//! Decisions where the rules are silent: a pair is the same whichever player is named first (a
//! 10-game match has no first player); players are named exactly as entered.

use crate::Player;
use crate::seeding::{Entrant, FixedQualifiers, SeedingError, swiss_field};
use crate::swiss::{Ledger, Pairings, Round, SwissError, rounds};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// A whole Swiss as played: the checker's input.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    pub entrants: Vec<Entrant>,
    #[serde(default)]
    pub fixed: FixedQualifiers,
    #[serde(default)]
    pub rounds: Vec<Round>,
}

/// One place of a round's pairing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Slot {
    Bye(Player),
    /// The higher-ranked first where the checker computed it; as used otherwise.
    Pair(Player, Player),
}

impl Slot {
    fn names(&self, p: &Player) -> bool {
        match self {
            Slot::Bye(b) => b == p,
            Slot::Pair(a, b) => a == p || b == p,
        }
    }

    fn first(&self) -> &Player {
        match self {
            Slot::Bye(p) | Slot::Pair(p, _) => p,
        }
    }
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Slot::Bye(p) => write!(f, "{p} has the bye"),
            Slot::Pair(a, b) => write!(f, "{a} v {b}"),
        }
    }
}

/// One difference between the pairing the rules give and the one used: `expected` missing from
/// the round as used (with the used place of its first player, if any), or `found` used where
/// the rules give nothing like it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discrepancy {
    pub round: u32,
    pub expected: Option<Slot>,
    pub found: Option<Slot>,
}

impl fmt::Display for Discrepancy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round {}: ", self.round)?;
        match (&self.expected, &self.found) {
            (Some(e), Some(x)) => write!(f, "expected {e}, found {x}"),
            (Some(e), None) => write!(f, "expected {e}, not found"),
            (None, Some(x)) => write!(f, "found {x}, not expected"),
            (None, None) => f.write_str("no difference"),
        }
    }
}

/// The checker's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// "Qualification": the number of rounds the Swiss has ([`rounds`]); a tournament with
    /// more is reported here, its extra rounds checked all the same.
    pub rounds_due: u32,
    /// Each round's pairing as the rules give it, with its transcript.
    pub expected: Vec<Pairings>,
    pub discrepancies: Vec<Discrepancy>,
}

impl Report {
    pub fn agrees(&self) -> bool {
        self.discrepancies.is_empty()
    }
}

/// Why a tournament cannot be checked at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// Not the JSON of the module's docs.
    Json(String),
    Seeding(SeedingError),
    Swiss(SwissError),
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Json(e) => write!(f, "not a tournament: {e}"),
            CheckError::Seeding(e) => e.fmt(f),
            CheckError::Swiss(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CheckError {}

/// The differences between the pairing the rules give (`expected`) and the round as used.
fn compare(round: u32, expected: &Pairings, used: &Round) -> Vec<Discrepancy> {
    let want: Vec<Slot> = expected
        .bye
        .iter()
        .cloned()
        .map(Slot::Bye)
        .chain(
            expected
                .pairs
                .iter()
                .map(|(a, b)| Slot::Pair(a.clone(), b.clone())),
        )
        .collect();
    let found: Vec<Slot> = used
        .bye
        .iter()
        .cloned()
        .map(Slot::Bye)
        .chain(
            used.matches
                .iter()
                .map(|m| Slot::Pair(m.first.clone(), m.second.clone())),
        )
        .collect();
    fn key(s: &Slot) -> (&Player, Option<&Player>) {
        match s {
            Slot::Bye(p) => (p, None),
            Slot::Pair(a, b) if a <= b => (a, Some(b)),
            Slot::Pair(a, b) => (b, Some(a)),
        }
    }
    let want_keys: BTreeSet<_> = want.iter().map(key).collect();
    let found_keys: BTreeSet<_> = found.iter().map(key).collect();
    let mut out = Vec::new();
    let mut shown = vec![false; found.len()];
    for e in want.iter().filter(|e| !found_keys.contains(&key(e))) {
        let at = found.iter().position(|f| f.names(e.first()));
        if let Some(i) = at {
            shown[i] = true;
        }
        out.push(Discrepancy {
            round,
            expected: Some(e.clone()),
            found: at.map(|i| found[i].clone()),
        });
    }
    for (i, f) in found.iter().enumerate() {
        if !shown[i] && !want_keys.contains(&key(f)) {
            out.push(Discrepancy {
                round,
                expected: None,
                found: Some(f.clone()),
            });
        }
    }
    out
}

/// The checker: every round of `t` recomputed from the seedings and the results before it, and
/// compared with the round as used.
pub fn check(t: &Tournament) -> Result<Report, CheckError> {
    let field = swiss_field(&t.entrants, &t.fixed).map_err(CheckError::Seeding)?;
    let mut expected = Vec::with_capacity(t.rounds.len());
    let mut discrepancies = Vec::new();
    let mut ledger = Ledger::new(&field);
    for (k, used) in t.rounds.iter().enumerate() {
        let ps = ledger
            .pair_next(&used.withdrawn)
            .map_err(CheckError::Swiss)?;
        discrepancies.extend(compare(ps.round, &ps, used));
        expected.push(ps);
        // The last round's results are not needed (and may not be in yet).
        if k + 1 < t.rounds.len() {
            ledger.record(used).map_err(CheckError::Swiss)?;
        }
    }
    Ok(Report {
        rounds_due: rounds(field.len()),
        expected,
        discrepancies,
    })
}

/// "Pairing details": the pairing of the round after every round given (their results all
/// in), `withdrawn` the players withdrawn or disqualified since: what `chancery acwc pair`
/// prints, with its transcript.
pub fn next_round(t: &Tournament, withdrawn: &[Player]) -> Result<Pairings, CheckError> {
    let field = swiss_field(&t.entrants, &t.fixed).map_err(CheckError::Seeding)?;
    let mut ledger = Ledger::new(&field);
    for used in &t.rounds {
        ledger.record(used).map_err(CheckError::Swiss)?;
    }
    ledger.pair_next(withdrawn).map_err(CheckError::Swiss)
}

/// The checker on the JSON of the module's docs.
pub fn check_json(text: &str) -> Result<Report, CheckError> {
    let t: Tournament = serde_json::from_str(text).map_err(|e| CheckError::Json(e.to_string()))?;
    check(&t)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"{
      "entrants": [
        {"player": "arimakat", "cutoff": 2450, "peak": 2500},
        {"player": "Ogul1", "cutoff": 2300, "peak": 2380},
        {"player": "alice", "cutoff": 2101, "peak": 2250},
        {"player": "bob", "cutoff": 2050, "peak": 2100},
        {"player": "carol", "cutoff": 1900, "peak": 2000}
      ],
      "fixed": {"final": "arimakat", "candidates": ["Ogul1"]},
      "rounds": [
        {"bye": "carol",
         "matches": [{"first": "alice", "second": "bob", "outcome": "first_won"}]},
        {"withdrawn": ["bob"],
         "matches": [{"first": "alice", "second": "carol"}]}
      ]
    }"#;

    fn p(s: &str) -> Player {
        Player::new(s)
    }

    #[test]
    fn acwc_checker_the_documented_example_agrees() {
        let r = check_json(EXAMPLE).expect("a tournament");
        assert!(r.agrees(), "{:?}", r.discrepancies);
        assert_eq!(r.rounds_due, 5);
        assert_eq!(r.expected.len(), 2);
    }

    #[test]
    fn acwc_checker_reports_a_wrong_bye_and_a_wrong_pair() {
        let mut t: Tournament = serde_json::from_str(EXAMPLE).expect("json");
        t.rounds[0].bye = Some(p("alice"));
        t.rounds[0].matches[0].first = p("carol");
        let r = check(&t).expect("checked");
        assert_eq!(
            r.discrepancies,
            vec![
                Discrepancy {
                    round: 1,
                    expected: Some(Slot::Bye(p("carol"))),
                    found: Some(Slot::Pair(p("carol"), p("bob"))),
                },
                Discrepancy {
                    round: 1,
                    expected: Some(Slot::Pair(p("alice"), p("bob"))),
                    found: Some(Slot::Bye(p("alice"))),
                },
            ]
        );
        assert_eq!(
            r.discrepancies[0].to_string(),
            "round 1: expected carol has the bye, found carol v bob"
        );
    }

    #[test]
    fn acwc_checker_a_pair_named_the_other_way_round_is_the_same() {
        let mut t: Tournament = serde_json::from_str(EXAMPLE).expect("json");
        t.rounds[1].matches[0] = crate::swiss::Match {
            first: p("carol"),
            second: p("alice"),
            outcome: None,
        };
        assert!(check(&t).expect("checked").agrees());
    }

    #[test]
    fn acwc_checker_refuses_what_is_not_a_tournament() {
        assert!(matches!(check_json("{"), Err(CheckError::Json(_))));
        let mut t: Tournament = serde_json::from_str(EXAMPLE).expect("json");
        t.rounds[0].matches[0].outcome = None;
        assert!(matches!(
            check(&t),
            Err(CheckError::Swiss(SwissError::MissingResult {
                round: 1,
                ..
            }))
        ));
    }
}
