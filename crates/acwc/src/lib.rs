//! The Antichess World Championship's office by mail (issue 26), pure: the 2019 rules
//! (`../shared/rules/antichess-world-championship-2019-rules.html.tera`) as functions. The games
//! are played elsewhere (on Lichess); this is the office that ran by hand in forum posts:
//! entries and seeding, the Swiss pairings (Monrad as written) with a transcript anyone can
//! check by hand and a checker, the matches and their scores, the Candidates' round robin, the
//! Final with its Armageddon, the week's timetable and the match-time negotiation. Nothing here
//! reads a clock or a file: every moment is passed in ([`Ts`], UTC).
//!
//! The ACWC office is a kind of game of its own: it builds on the office (`chancery-office`) and
//! never on another kind's crate.

pub mod candidates;
pub mod checker;
pub mod conduct;
pub mod crosstable;
pub mod exhaustive;
pub mod final_match;
pub mod house;
pub mod mail;
pub mod matches;
pub mod negotiation;
pub mod seeding;
pub mod swiss;
pub mod week;

pub use chancery_office::Ts;

use serde::{Deserialize, Serialize};
use std::fmt;

/// An entrant, by their Lichess account name as the TD approved it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Player(pub String);

impl Player {
    pub fn new(name: impl Into<String>) -> Player {
        Player(name.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
