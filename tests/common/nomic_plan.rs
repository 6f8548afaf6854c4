//! A Nomic's plan as the tests play it, with no server in it: the five players and their days
//! (Nomic 201), twenty proposals over four weeks across the end of BST, and the tests' own model
//! of the rule numbers and the points (Nomic 203, 205, 207), shared by the engine-level and the
//! by-mail game.

use chancery::policy::{DAY, HOUR, Ts};
use chancery::time::{Weekday, days_from_civil};
use std::collections::{BTreeMap, BTreeSet};

/// The players, in the order of Nomic 201 (Monday first), with their days.
pub const PLAYERS: [(&str, Weekday); 5] = [
    ("Chris B", Weekday::Monday),
    ("Dave M", Weekday::Tuesday),
    ("Ben P", Weekday::Wednesday),
    ("Alex T", Weekday::Thursday),
    ("Alex W", Weekday::Friday),
];

pub fn secret(i: usize) -> String {
    format!("nomic-secret-{}", i + 1)
}

/// A moment in UTC.
pub fn utc(y: i64, m: i64, d: i64, h: i64, min: i64) -> Ts {
    days_from_civil(y, m, d) * DAY + h * HOUR + min * 60
}

/// A mail's text on one line, its wrapping and quote marks undone.
pub fn flat(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "|")
        .collect::<Vec<_>>()
        .join(" ")
}

/// One day's proposal: who proposes (by index), the rule-change line, and each player's vote
/// (`Y`, `N`, `-` none).
pub struct Planned {
    pub day: (i64, i64, i64),
    pub by: usize,
    pub change: &'static str,
    pub votes: &'static str,
}

/// Four weeks from Monday 12 October 2026 (BST; it ends on Sunday 25 October).
pub fn plan() -> Vec<Planned> {
    let p = |day, by, change, votes| Planned {
        day,
        by,
        change,
        votes,
    };
    vec![
        // Week 1: unanimity of the votes cast (Nomic 204).
        p(
            (2026, 10, 12),
            0,
            r#"enact 301 "Players should be courteous.""#,
            "YYYYY",
        ),
        p(
            (2026, 10, 13),
            1,
            r#"amend 206 "An adopted rule-change takes full effect when its vote completes.""#,
            "YYYYY",
        ),
        p((2026, 10, 14), 2, "transmute 109", "YYYYN"),
        p((2026, 10, 15), 3, "repeal 215", "YYYYY"),
        p(
            (2026, 10, 16),
            4,
            r#"enact 305 "The Judge shall be polite.""#,
            "YY-YY",
        ),
        // Week 2: the second complete circuit, still unanimity.
        p(
            (2026, 10, 19),
            0,
            r#"enact 306 "Votes are public.""#,
            "YYYYY",
        ),
        p(
            (2026, 10, 20),
            1,
            "The GM shall publish a weekly digest of the points.",
            "YYYYY",
        ),
        p(
            (2026, 10, 21),
            2,
            r#"enact 308 "Proposals are numbered.""#,
            "Y-Y-Y",
        ),
        p((2026, 10, 22), 3, r#"enact 309 "Rule 309.""#, "YYYYN"),
        p((2026, 10, 23), 4, r#"enact 310 "Rule 310.""#, "YYYYY"),
        // Week 3: after the second complete circuit, a simple majority; GMT from the 25th.
        p((2026, 10, 26), 0, r#"enact 311 "Rule 311.""#, "YYNNY"),
        p((2026, 10, 27), 1, r#"enact 312 "Rule 312.""#, "YYYYY"),
        p((2026, 10, 28), 2, r#"enact 313 "Rule 313.""#, "NNYYN"),
        p((2026, 10, 29), 3, "set dissent-bonus 5", "YYYYY"),
        p((2026, 10, 30), 4, r#"enact 315 "Rule 315.""#, "YYYNY"),
        // Week 4: a renumbering lifts the highest rule (Nomic 203's R) to 490.
        p((2026, 11, 2), 0, r#"enact 316 "Rule 316.""#, "YYYYY"),
        p((2026, 11, 3), 1, r#"enact 317 "Rule 317.""#, "YYYYY"),
        p((2026, 11, 4), 2, "renumber 317 490", "YNYYY"),
        p((2026, 11, 5), 3, r#"enact 319 "Rule 319.""#, "NNNYN"),
        p((2026, 11, 6), 4, r#"enact 320 "Rule 320.""#, "YYYYY"),
    ]
}

/// The test's own reading of the rules: the rule numbers (for Nomic 203's R) and the points.
pub struct Model {
    pub rules: BTreeSet<u32>,
    pub points: BTreeMap<String, i64>,
    pub dissent_bonus: i64,
}

impl Model {
    pub fn new() -> Model {
        Model {
            rules: (101..=118).chain(201..=215).collect(),
            points: PLAYERS.iter().map(|(n, _)| (n.to_string(), 0)).collect(),
            dissent_bonus: 10,
        }
    }

    /// Nomic 103, 109, 110: what an adopted change does to the numbers.
    pub fn adopt(&mut self, change: &str, number: u32) {
        let words: Vec<&str> = change.split_whitespace().collect();
        let n = |i: usize| words[i].parse::<u32>().expect("a number");
        match words[0] {
            "enact" => {
                self.rules.insert(number);
            }
            "amend" | "transmute" => {
                self.rules.remove(&n(1));
                self.rules.insert(number);
            }
            "repeal" => {
                self.rules.remove(&n(1));
            }
            "renumber" => {
                self.rules.remove(&n(1));
                self.rules.insert(n(2));
            }
            "set" => self.dissent_bonus = i64::from(n(2)),
            _ => {}
        }
    }

    /// Nomic 203, 205, 207 for one completed vote.
    pub fn score(&mut self, by: usize, adopted: bool, votes: &str, majority: bool) {
        let proposer = PLAYERS[by].0.to_string();
        if !adopted {
            *self.points.get_mut(&proposer).expect("player") -= 10;
            return;
        }
        let yes = votes.chars().filter(|c| *c == 'Y').count() as i64;
        let cast = votes.chars().filter(|c| *c != '-').count() as i64;
        let r = i64::from(*self.rules.iter().max().expect("rules"));
        *self.points.get_mut(&proposer).expect("player") += (r - 290).max(10) * yes / cast;
        if majority {
            for (i, v) in votes.chars().enumerate() {
                if v == 'N' {
                    *self.points.get_mut(PLAYERS[i].0).expect("player") += self.dissent_bonus;
                }
            }
        }
    }
}
