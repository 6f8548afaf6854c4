//! The Agora Birthday Tournament's regulations (BT0-BT25) as a versioned rule set, and the
//! contestants' lines that change them by proposal and private vote (Agora BT8).
//!
//! The rulebook is embedded (`rulebooks/agora-bt-2020.txt`) and read into numbered rules, each
//! with its paragraphs; BT0-BT5 are immutable (BT5: "Sections numbered 0 through 5 CANNOT be
//! amended except according to the procedures established by Section 2"), the rest mutable.
//! The history of changes is the office's `ruleset` (revisions, the rules as of any moment).
//!
//! A contestant's mail to the game may carry these lines (one each, case as written for the
//! text; a quoted text may run over several lines, a blank line between paragraphs):
//!
//! ```text
//! PROPOSE ENACT BT26 "text"        a new regulation under a number no regulation holds
//! PROPOSE AMEND BT17 "new text"    new text for a regulation (not BT0-BT5: BT5)
//! PROPOSE REPEAL BT10              a regulation repealed (not BT0-BT5: BT5)
//! PROPOSE SET negotiation_hours 18 a setting of the game ([`SETTABLE`]), carried out
//! PROPOSE TEXT "free text"         enacted as text only; the Gamemaster carries it out
//! WITHDRAW PROPOSAL 3              by its proposer (BT8)
//! VOTE 3 FOR | VOTE 3 AGAINST      privately, by any contestant but the proposer (BT8);
//!                                  a later ballot replaces the earlier one
//! VOTE 3 WITHDRAW                  one's vote withdrawn (BT8: "non-withdrawn votes")
//! ```

use crate::rules::{Regulations, Rules};
use chancery_intake::message::BodyLine;
use chancery_office::ruleset::{Change, Mutability, Rule};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The Agora Birthday Tournament 2020's rulebook, as published (4 Jul 2020).
pub const AGORA_BT_2020: &str = include_str!("../rulebooks/agora-bt-2020.txt");

/// Agora BT5: "Sections numbered 0 through 5 CANNOT be amended except according to the
/// procedures established by Section 2": the last immutable regulation.
pub const LAST_IMMUTABLE: u32 = 5;

/// The settings of the game an Agora proposal may change (`PROPOSE SET`), each through
/// [`Rules::set`]: the BT15 timetable (its hours, and the turn lengths when the game is not on
/// the UTC timetable), team orders (BT7), the victor's notice (BT3) and the years before the
/// Gamemaster may declare a draw (BT9). Anything else (the adjudicator's options, the proof of
/// a sender) is the Gamemaster's, not the contestants'.
pub const SETTABLE: &[&str] = &[
    "negotiation_hours",
    "ordering_hours",
    "resolution_hours",
    "movement_days",
    "retreat_days",
    "adjustment_days",
    "team_orders",
    "winner_notice_hours",
    "gm_draw_years",
];

/// The longest text a proposal may carry, in characters.
pub const MAX_TEXT_CHARS: usize = 5_000;

/// The most lines a quoted text may run over.
const MAX_TEXT_LINES: usize = 80;

/// A regulation's name: `BT8`.
pub fn label(number: u32) -> String {
    format!("BT{number}")
}

/// The regulations `r` stands for, as numbered rules (BT0-BT5 immutable: Agora BT5).
pub fn initial(r: Regulations) -> Result<Vec<Rule>, String> {
    match r {
        Regulations::AgoraBt2020 => read_rulebook(AGORA_BT_2020),
    }
}

/// Read a rulebook in the ACORN's layout: `Regulation BTn/r`, a title line, the indented
/// paragraphs, a line of dashes. Each paragraph's lines are joined with single spaces.
pub fn read_rulebook(text: &str) -> Result<Vec<Rule>, String> {
    let mut rules: BTreeMap<u32, Rule> = BTreeMap::new();
    let mut current: Option<(u32, Vec<String>, Vec<String>)> = None;
    let mut title_due = false;
    let finish = |cur: Option<(u32, Vec<String>, Vec<String>)>,
                  rules: &mut BTreeMap<u32, Rule>|
     -> Result<(), String> {
        let Some((number, mut paragraphs, open)) = cur else {
            return Ok(());
        };
        if !open.is_empty() {
            paragraphs.push(open.join(" "));
        }
        if paragraphs.is_empty() {
            return Err(format!("regulation {} has no text", label(number)));
        }
        let mutability = if number <= LAST_IMMUTABLE {
            Mutability::Immutable
        } else {
            Mutability::Mutable
        };
        let rule = Rule {
            number,
            text: paragraphs,
            mutability,
        };
        match rules.insert(number, rule) {
            Some(_) => Err(format!("two regulations are numbered {}", label(number))),
            None => Ok(()),
        }
    };
    for line in text.lines() {
        let t = line.trim();
        if let Some(n) = regulation_heading(t) {
            finish(current.take(), &mut rules)?;
            current = Some((n?, Vec::new(), Vec::new()));
            title_due = true;
            continue;
        }
        let Some((_, paragraphs, open)) = current.as_mut() else {
            continue;
        };
        if title_due {
            // "Birthday Tournament 8": the regulation's name, not its text.
            title_due = t.is_empty();
            continue;
        }
        if t.starts_with("-----") || t.starts_with("=====") {
            let cur = current.take();
            finish(cur, &mut rules)?;
        } else if t.is_empty() {
            if !open.is_empty() {
                paragraphs.push(open.join(" "));
                open.clear();
            }
        } else {
            open.push(t.to_string());
        }
    }
    finish(current, &mut rules)?;
    if rules.is_empty() {
        return Err("no regulation in the rulebook".into());
    }
    Ok(rules.into_values().collect())
}

/// `Regulation BT8/0`: Some(its number), or Some(error) for a heading that does not read.
fn regulation_heading(t: &str) -> Option<Result<u32, String>> {
    let rest = t.strip_prefix("Regulation BT")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some(
        digits
            .parse()
            .map_err(|_| format!("\"{t}\" names no regulation")),
    )
}

/// A regulation as a mail shows it: its name, then its paragraphs.
pub fn show(rule: &Rule) -> String {
    let mut out = format!("Regulation {}\n", label(rule.number));
    for p in &rule.text {
        out.push('\n');
        out.push_str(p);
        out.push('\n');
    }
    out
}

/// What a proposal would do (Agora BT8: "a Proposal to change these regulations").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Motion {
    /// A new regulation under a number no regulation holds.
    Enact { number: u32, text: Vec<String> },
    /// New text for a mutable regulation.
    Amend { number: u32, text: Vec<String> },
    /// A mutable regulation repealed.
    Repeal { number: u32 },
    /// A setting of the game ([`SETTABLE`]), carried out on its house rules; recorded as a
    /// new regulation stating it.
    Set { option: String, value: String },
    /// Free text, enacted as a new regulation and never executed: the Gamemaster carries it
    /// out and confirms it (`CONFIRM PROPOSAL`).
    Text { text: Vec<String> },
}

impl Motion {
    /// The motion as written back: `AMEND BT17 "..."`.
    pub fn describe(&self) -> String {
        let quoted = |text: &[String]| format!("\"{}\"", text.join(" / "));
        match self {
            Motion::Enact { number, text } => format!("ENACT {} {}", label(*number), quoted(text)),
            Motion::Amend { number, text } => format!("AMEND {} {}", label(*number), quoted(text)),
            Motion::Repeal { number } => format!("REPEAL {}", label(*number)),
            Motion::Set { option, value } => format!("SET {option} {value}"),
            Motion::Text { text } => format!("TEXT {}", quoted(text)),
        }
    }

    /// Whether it may be proposed against the regulations as they stand and the game's house
    /// rules; why not, naming the clause.
    pub fn check(&self, rules: &Rules, current: &BTreeMap<u32, Rule>) -> Result<(), String> {
        let exists = |n: u32| {
            if current.contains_key(&n) {
                Ok(())
            } else {
                Err(format!("there is no regulation {}", label(n)))
            }
        };
        let mutable = |n: u32| {
            if n <= LAST_IMMUTABLE
                || current
                    .get(&n)
                    .is_some_and(|r| r.mutability == Mutability::Immutable)
            {
                Err(format!(
                    "{} cannot be changed by a proposal (Agora BT5: \"Sections numbered 0 \
                     through 5 CANNOT be amended except according to the procedures \
                     established by Section 2\")",
                    label(n)
                ))
            } else {
                exists(n)
            }
        };
        match self {
            Motion::Enact { number, .. } if current.contains_key(number) => Err(format!(
                "{} exists already: propose AMEND {} instead",
                label(*number),
                label(*number)
            )),
            Motion::Enact { number, .. } if *number <= LAST_IMMUTABLE => mutable(*number),
            Motion::Enact { .. } | Motion::Text { .. } => Ok(()),
            Motion::Amend { number, .. } | Motion::Repeal { number } => mutable(*number),
            Motion::Set { option, value } => settable(rules, option, value).map(|_| ()),
        }
    }

    /// The changes that enact it as proposal `proposal`, against the regulations as they
    /// stand: a SET and a free text are a new regulation under the next number free.
    pub fn changes(&self, proposal: u32, current: &BTreeMap<u32, Rule>) -> Vec<Change> {
        let next = current
            .keys()
            .next_back()
            .map_or(0, |n| n.saturating_add(1));
        match self {
            Motion::Enact { number, text } => vec![Change::Enact {
                number: *number,
                text: text.clone(),
                mutability: Mutability::Mutable,
            }],
            Motion::Amend { number, text } => vec![Change::Amend {
                number: *number,
                text: text.clone(),
            }],
            Motion::Repeal { number } => vec![Change::Repeal { number: *number }],
            Motion::Set { option, value } => vec![Change::Enact {
                number: next,
                text: vec![format!(
                    "The game's setting {option} is {value} (Proposal {proposal}, carried out \
                     on the game's house rules)."
                )],
                mutability: Mutability::Mutable,
            }],
            Motion::Text { text } => vec![Change::Enact {
                number: next,
                text: text.clone(),
                mutability: Mutability::Mutable,
            }],
        }
    }
}

/// The house rules with `option` set to `value`, if a proposal may set it (Agora BT8 and
/// [`SETTABLE`]).
pub fn settable(rules: &Rules, option: &str, value: &str) -> Result<Rules, String> {
    if !SETTABLE.contains(&option) {
        return Err(format!(
            "{option} is not a setting a proposal may change (these are: {})",
            SETTABLE.join(", ")
        ));
    }
    rules.set(option, value).map_err(|e| e.to_string())
}

/// Agora BT8: a proposal short of a majority after a vote stays open. Votes may change or be
/// withdrawn until it is enacted ("non-withdrawn votes"), so votes against never defeat it: it
/// is enacted once more than half of the `contestants` vote for it, withdrawn by its proposer,
/// or, if the tournament is concluded first, it lapses unenacted ([`lapsed`]). What a voter's
/// acknowledgement says of it (no count: the counts are published only on enactment).
pub fn stays_open(number: u32, contestants: u32) -> String {
    format!(
        "Proposal {number} stays open: it is enacted once more than half of the {contestants} \
         Contestants vote for it; votes may be changed or withdrawn until then, so votes \
         against never defeat it, and it lapses if the tournament is concluded first (Agora \
         BT8)"
    )
}

/// Agora BT8, BT3: what is published of a proposal still open when the tournament is
/// concluded, or one that can no longer pass: it fails, not enacted. No count is given: BT8
/// publishes the numbers for and against only with an enactment, and a count all one way
/// would reveal every voter's vote ("The Judge SHALL NOT reveal the votes of specific
/// Contestants").
pub fn lapsed(number: u32, what: &str, proposer: &str, concluded: bool) -> String {
    let why = if concluded {
        "the tournament is concluded (Agora BT3) before it had votes in favour from more than \
         half the Contestants"
    } else {
        "too few Contestants may vote on it for its votes in favour ever to exceed half the \
         Contestants"
    };
    format!(
        "Proposal {number} ({what}), submitted by {proposer}, lapses, not enacted: {why} (Agora \
         BT8). The regulations stand unchanged; as it was not enacted, no count of its votes \
         is published."
    )
}

/// A ballot on a proposal (Agora BT8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteChoice {
    For,
    Against,
    /// The voter's ballot withdrawn: BT8 counts "non-withdrawn votes".
    Withdraw,
}

impl fmt::Display for VoteChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VoteChoice::For => "FOR",
            VoteChoice::Against => "AGAINST",
            VoteChoice::Withdraw => "WITHDRAW",
        })
    }
}

/// One line of a contestant's mail on the regulations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `PROPOSE ...` (Agora BT8: "any Contestant CAN submit a Proposal ... by announcement").
    Propose(Motion),
    /// `WITHDRAW PROPOSAL n` (BT8: "Any Contestant CAN withdraw any Proposal e has submitted").
    Withdraw(u32),
    /// `VOTE n FOR|AGAINST|WITHDRAW` (BT8: "privately send a vote to the Judge").
    Vote { proposal: u32, choice: VoteChoice },
}

impl Action {
    /// The line as understood, for the acknowledgement.
    pub fn describe(&self) -> String {
        match self {
            Action::Propose(m) => format!("PROPOSE {}", m.describe()),
            Action::Withdraw(n) => format!("WITHDRAW PROPOSAL {n}"),
            Action::Vote { proposal, choice } => format!("VOTE {proposal} {choice}"),
        }
    }
}

/// A line (or a quoted text over several) read as a regulation line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionLine {
    /// The number of its first line.
    pub line: usize,
    /// Its first line, as written (at most 200 characters).
    pub text: String,
    pub read: Result<Action, String>,
}

/// A body split: the regulation lines, and every other line for the order reader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    pub actions: Vec<ActionLine>,
    pub rest: Vec<BodyLine>,
}

/// Whether a line is one of ours: `PROPOSE ...`, `WITHDRAW PROPOSAL ...`, `VOTE <number> ...`
/// (a VOTE on a named proposal, `VOTE DRAW YES`, is Diplomacy's own, WM IX).
fn is_ours(words: &[String]) -> bool {
    match words {
        [first, ..] if first == "PROPOSE" => true,
        [first, second, ..] if first == "WITHDRAW" => second.starts_with("PROPOSAL"),
        [first, second, ..] if first == "VOTE" => {
            second.chars().all(|c| c.is_ascii_digit() || c == '#') && second != "#"
        }
        _ => false,
    }
}

/// Split a body's lines into regulation lines and the rest. A quoted text runs until its
/// closing quote, over several lines if need be; one that never closes is an error on its
/// first line, and the lines after it are read as usual.
pub fn split(lines: &[BodyLine]) -> Split {
    let mut out = Split::default();
    let mut i = 0;
    while i < lines.len() {
        let l = &lines[i];
        let words: Vec<String> = l
            .text
            .split_whitespace()
            .take(2)
            .map(str::to_ascii_uppercase)
            .collect();
        if !is_ours(&words) {
            out.rest.push(l.clone());
            i += 1;
            continue;
        }
        let (whole, used) = gather(&lines[i..]);
        out.actions.push(ActionLine {
            line: l.number,
            text: l.text.trim().chars().take(200).collect(),
            read: whole.and_then(|t| read_action(&t)),
        });
        i += used;
    }
    out
}

/// The line and, if it opens a quote it does not close, the lines until the closing one: the
/// text, and how many lines it took.
fn gather(lines: &[BodyLine]) -> (Result<String, String>, usize) {
    let quotes = |s: &str| s.chars().filter(|c| is_quote(*c)).count();
    let first = lines[0].text.trim().to_string();
    if quotes(&first) != 1 {
        return (Ok(first), 1);
    }
    let mut text = first;
    for (k, l) in lines.iter().enumerate().skip(1).take(MAX_TEXT_LINES) {
        text.push('\n');
        text.push_str(l.text.trim());
        if quotes(&l.text) > 0 {
            return (Ok(text), k + 1);
        }
    }
    (
        Err("the quoted text has no closing quote (\"); nothing was proposed".into()),
        1,
    )
}

fn is_quote(c: char) -> bool {
    matches!(c, '"' | '\u{201c}' | '\u{201d}')
}

/// A regulation's number as written: `BT26`, `bt26`, `26`.
fn regulation_number(word: &str) -> Option<u32> {
    let w = word.to_ascii_uppercase();
    let digits = w.strip_prefix("BT").unwrap_or(&w);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// A proposal's number as written: `3`, `#3`.
fn proposal_number(word: &str) -> Option<u32> {
    let digits = word.trim_start_matches('#');
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The words before a quoted text, and the text in paragraphs (None: no quote).
fn quoted(text: &str) -> Result<(Vec<String>, Option<Vec<String>>), String> {
    let Some(open) = text.find(is_quote) else {
        return Ok((text.split_whitespace().map(String::from).collect(), None));
    };
    let (head, tail) = text.split_at(open);
    let mut chars = tail.chars();
    chars.next();
    let inner: String = chars.as_str().to_string();
    let Some(close) = inner.rfind(is_quote) else {
        return Err("the quoted text has no closing quote (\")".into());
    };
    let (body, after) = inner.split_at(close);
    if after.chars().skip(1).any(|c| !c.is_whitespace()) {
        return Err("nothing may follow the closing quote".into());
    }
    let mut paragraphs = Vec::new();
    let mut open_par: Vec<&str> = Vec::new();
    for l in body.lines() {
        if l.trim().is_empty() {
            if !open_par.is_empty() {
                paragraphs.push(open_par.join(" "));
                open_par.clear();
            }
        } else {
            open_par.extend(l.split_whitespace());
        }
    }
    if !open_par.is_empty() {
        paragraphs.push(open_par.join(" "));
    }
    if paragraphs.is_empty() {
        return Err("the quoted text is empty".into());
    }
    if body.chars().count() > MAX_TEXT_CHARS {
        return Err(format!(
            "a proposal's text may be at most {MAX_TEXT_CHARS} characters"
        ));
    }
    Ok((
        head.split_whitespace().map(String::from).collect(),
        Some(paragraphs),
    ))
}

const PROPOSE_SYNTAX: &str = "write PROPOSE ENACT BT26 \"text\", PROPOSE AMEND BT17 \"new text\", \
     PROPOSE REPEAL BT10, PROPOSE SET <setting> <value> or PROPOSE TEXT \"text\"";

/// Read one regulation line (its quoted text gathered).
pub fn read_action(text: &str) -> Result<Action, String> {
    let (head, body) = quoted(text)?;
    let upper: Vec<String> = head.iter().map(|w| w.to_ascii_uppercase()).collect();
    let words: Vec<&str> = upper.iter().map(String::as_str).collect();
    match (words.as_slice(), body) {
        (["PROPOSE", rest @ ..], body) => read_motion(rest, &head, body).map(Action::Propose),
        (["WITHDRAW", "PROPOSAL", n], None) => proposal_number(n)
            .map(Action::Withdraw)
            .ok_or_else(|| "write WITHDRAW PROPOSAL <number>".into()),
        (["VOTE", n, choice], None) => {
            let choice = match *choice {
                "FOR" | "YES" => VoteChoice::For,
                "AGAINST" | "NO" => VoteChoice::Against,
                "WITHDRAW" => VoteChoice::Withdraw,
                _ => return Err(VOTE_SYNTAX.into()),
            };
            let proposal = proposal_number(n).ok_or_else(|| VOTE_SYNTAX.to_string())?;
            Ok(Action::Vote { proposal, choice })
        }
        (["VOTE", ..], _) => Err(VOTE_SYNTAX.into()),
        _ => Err("write WITHDRAW PROPOSAL <number>".into()),
    }
}

const VOTE_SYNTAX: &str = "write VOTE <proposal number> FOR, AGAINST or WITHDRAW";

/// `ENACT BT26 "..."` and the rest, after PROPOSE (`head`: the words as written, for SET's
/// value).
fn read_motion(
    words: &[&str],
    head: &[String],
    body: Option<Vec<String>>,
) -> Result<Motion, String> {
    match (words, body) {
        (["ENACT", n], Some(text)) => regulation_number(n)
            .map(|number| Motion::Enact { number, text })
            .ok_or_else(|| PROPOSE_SYNTAX.into()),
        (["AMEND", n], Some(text)) => regulation_number(n)
            .map(|number| Motion::Amend { number, text })
            .ok_or_else(|| PROPOSE_SYNTAX.into()),
        (["REPEAL", n], None) => regulation_number(n)
            .map(|number| Motion::Repeal { number })
            .ok_or_else(|| PROPOSE_SYNTAX.into()),
        (["SET", _, _, ..], None) => Ok(Motion::Set {
            option: head[2].trim_end_matches(['=', ':']).to_ascii_lowercase(),
            value: head[3..]
                .join(" ")
                .trim_start_matches(['=', ':'])
                .trim()
                .to_string(),
        }),
        (["TEXT"], Some(text)) => Ok(Motion::Text { text }),
        _ => Err(PROPOSE_SYNTAX.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agora_bt8_a_proposal_short_of_a_majority_stays_open_and_lapses_without_counts() {
        let open = stays_open(3, 7);
        assert!(open.contains("Proposal 3 stays open"), "{open}");
        assert!(
            open.contains("more than half of the 7 Contestants"),
            "{open}"
        );
        assert!(
            open.contains("lapses if the tournament is concluded"),
            "{open}"
        );
        let gone = lapsed(3, "repeal BT10", "FRANCE", true);
        assert!(gone.starts_with("Proposal 3 (repeal BT10), submitted by FRANCE, lapses"));
        assert!(
            gone.contains("tournament is concluded (Agora BT3)"),
            "{gone}"
        );
        assert!(!gone.contains("in favour and"), "no count: {gone}");
        assert!(lapsed(1, "x", "ITALY", false).contains("too few Contestants may vote"));
    }

    fn lines(text: &str) -> Vec<BodyLine> {
        text.lines()
            .enumerate()
            .map(|(i, t)| BodyLine {
                number: i + 1,
                text: t.to_string(),
            })
            .collect()
    }

    #[test]
    fn agora_bt5_the_rulebook_reads_as_bt0_to_bt25_with_bt0_to_bt5_immutable() {
        let rules = initial(Regulations::AgoraBt2020).expect("the rulebook reads");
        let numbers: Vec<u32> = rules.iter().map(|r| r.number).collect();
        assert_eq!(numbers, (0..=25).collect::<Vec<u32>>());
        for r in &rules {
            let immutable = r.mutability == Mutability::Immutable;
            assert_eq!(immutable, r.number <= 5, "{}", label(r.number));
        }
        // Agora BT8: one paragraph, its lines joined.
        let bt8 = &rules[8].text;
        assert_eq!(bt8.len(), 1);
        assert!(bt8[0].starts_with("At any time, any Contestant CAN submit a Proposal"));
        assert!(bt8[0].contains("greater than half the number of Contestants"));
        assert!(bt8[0].ends_with("the votes of specific Contestants."));
        // The title is not the text.
        assert!(!rules[0].text[0].contains("Birthday Tournament 0"));
        assert!(show(&rules[11]).contains("There are two types of units: Armies and Fleets."));
    }

    #[test]
    fn agora_bt8_proposal_lines_are_read_in_their_one_grammar() {
        let read = |t: &str| read_action(t);
        assert_eq!(
            read("propose enact bt26 \"Contestants SHALL be polite.\""),
            Ok(Action::Propose(Motion::Enact {
                number: 26,
                text: vec!["Contestants SHALL be polite.".into()]
            }))
        );
        assert_eq!(
            read("PROPOSE AMEND BT17 “Fleets fly.”"),
            Ok(Action::Propose(Motion::Amend {
                number: 17,
                text: vec!["Fleets fly.".into()]
            }))
        );
        assert_eq!(
            read("PROPOSE REPEAL 10"),
            Ok(Action::Propose(Motion::Repeal { number: 10 }))
        );
        assert_eq!(
            read("PROPOSE SET negotiation_hours 18"),
            Ok(Action::Propose(Motion::Set {
                option: "negotiation_hours".into(),
                value: "18".into()
            }))
        );
        assert_eq!(
            read("PROPOSE TEXT \"The Judge SHALL award a badge.\""),
            Ok(Action::Propose(Motion::Text {
                text: vec!["The Judge SHALL award a badge.".into()]
            }))
        );
        assert_eq!(read("WITHDRAW PROPOSAL #3"), Ok(Action::Withdraw(3)));
        assert_eq!(
            read("VOTE 3 for"),
            Ok(Action::Vote {
                proposal: 3,
                choice: VoteChoice::For
            })
        );
        assert_eq!(
            read("VOTE 3 AGAINST"),
            Ok(Action::Vote {
                proposal: 3,
                choice: VoteChoice::Against
            })
        );
        assert_eq!(
            read("VOTE 3 WITHDRAW"),
            Ok(Action::Vote {
                proposal: 3,
                choice: VoteChoice::Withdraw
            })
        );
        for bad in [
            "PROPOSE",
            "PROPOSE ENACT BT26",
            "PROPOSE ENACT X \"t\"",
            "PROPOSE REPEAL BT10 \"why\"",
            "PROPOSE TEXT \"\"",
            "PROPOSE TEXT \"a\" and more",
            "VOTE 3 MAYBE",
            "WITHDRAW PROPOSAL three",
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn agora_bt8_a_quoted_text_runs_over_lines_and_the_rest_is_left_to_the_orders() {
        let s = split(&lines(
            "A Par - Bur\nPROPOSE AMEND BT17 \"There are four orders.\n\nA second paragraph.\"\nVOTE DRAW YES\nvote 2 for\nPROPOSE TEXT \"never closed\nF Bre - Mao",
        ));
        let rest: Vec<&str> = s.rest.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(rest, vec!["A Par - Bur", "VOTE DRAW YES", "F Bre - Mao"]);
        assert_eq!(s.actions.len(), 3);
        assert_eq!(
            s.actions[0].read,
            Ok(Action::Propose(Motion::Amend {
                number: 17,
                text: vec![
                    "There are four orders.".into(),
                    "A second paragraph.".into()
                ]
            }))
        );
        assert_eq!(s.actions[1].line, 6);
        assert!(s.actions[2].read.is_err(), "an unclosed quote");
    }

    #[test]
    fn agora_bt5_a_proposal_to_amend_or_repeal_bt0_to_bt5_is_refused_with_the_clause() {
        let rules = Rules::preset("agora2020").expect("preset");
        let current: BTreeMap<u32, Rule> = initial(Regulations::AgoraBt2020)
            .expect("reads")
            .into_iter()
            .map(|r| (r.number, r))
            .collect();
        for m in [
            Motion::Amend {
                number: 5,
                text: vec!["x".into()],
            },
            Motion::Repeal { number: 0 },
        ] {
            let e = m.check(&rules, &current).expect_err("refused");
            assert!(e.contains("Agora BT5"), "{e}");
        }
        assert!(
            Motion::Repeal { number: 10 }
                .check(&rules, &current)
                .is_ok()
        );
        assert!(
            Motion::Enact {
                number: 17,
                text: vec!["x".into()]
            }
            .check(&rules, &current)
            .is_err()
        );
        assert!(
            Motion::Repeal { number: 99 }
                .check(&rules, &current)
                .is_err()
        );
        // Agora BT8: only the listed settings, with a value they take.
        let set = |o: &str, v: &str| {
            Motion::Set {
                option: o.into(),
                value: v.into(),
            }
            .check(&rules, &current)
        };
        assert!(set("negotiation_hours", "18").is_ok());
        assert!(set("team_orders", "true").is_ok());
        assert!(set("negotiation_hours", "soon").is_err());
        assert!(set("civil_disorder", "hold").is_err());
        // A SET and a free text are recorded as the next regulation.
        let changes = Motion::Text {
            text: vec!["t".into()],
        }
        .changes(4, &current);
        assert!(matches!(changes[0], Change::Enact { number: 26, .. }));
    }
}
