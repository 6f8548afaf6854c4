//! A Nomic player's mail body read into typed items: the messages the rules name, as a player
//! writes them by mail instead of in the game's threads.
//!
//! - `Rule-change: ...` (Nomic 107, [`grammar::read_rule_change_line`]);
//! - `Vote: Yes` / `Vote: No` (Nomic 113, [`votes::read_vote`]);
//! - `Point of Order: <question>` (Nomic 214);
//! - `Judgement: PO3 <decision>` (Nomic 214: "This must reference the original Point of
//!   Order"); a point is referred to as `PO3`, `PO 3`, `#3` or `point of order 3`;
//! - `Dispute: PO3` (Nomic 214: "followed by a reference to the Judgement");
//! - `I agree with Judgement PO3`, `I agree with Judgement on PO3`, `I disagree with Judgement
//!   PO3` (Nomic 214);
//! - a bare `RULES`, `HISTORY` or `POINTS`: the player asks for the rules in effect, the
//!   game's history, or the points (Nomic 209 has every total announced).
//!
//! The words are read in any case, and Nomic 214's other spelling, `Judgment`, too.
//!
//! Decisions where the rules are silent (they know threads, not mails):
//! - the reading is bounded: the first [`MAX_BYTES`] of the body and of those its first
//!   [`MAX_LINES`] lines; quoted lines (`>`) and a reply's `On ... wrote:` line are skipped; a
//!   signature line (`-- `) ends the reading;
//! - a free-text rule-change, a Point of Order's question and a Judgement's decision go on over
//!   the following lines (a mail client wraps long lines) up to a blank line, a quoted line, a
//!   signature, a greeting or a line that is itself one of the items above;
//! - a Judgement without a reference to a point, a Point of Order without a question and a
//!   Judgement without a decision are not read as items: they are among the unread lines, for
//!   the player to be told;
//! - greetings and sign-offs (`Hi all,`, `Thanks`, `Cheers, Ben`: a short line whose first word
//!   is one of [`GREETINGS`]) are neither items nor unread.

use crate::grammar::{self, RuleChange};
use crate::votes;
use chancery_office::ballot::Choice;

/// The most of a body read, in bytes.
pub const MAX_BYTES: usize = 64 * 1024;
/// The most lines of a body read.
pub const MAX_LINES: usize = 200;
/// The first words of a greeting or sign-off line (of at most five words).
pub const GREETINGS: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "dear",
    "greetings",
    "thanks",
    "thank",
    "cheers",
    "regards",
    "best",
    "yours",
];

/// One thing a player's mail says (Nomic 107, 113, 209, 214).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// Nomic 107: a proposed rule-change.
    RuleChange(RuleChange),
    /// Nomic 113: a vote.
    Vote(Choice),
    /// Nomic 214: "Point of Order:" followed by a description of the statement to be judged.
    PointOfOrder { question: String },
    /// Nomic 214: "Judgement:" followed by the decision, referring to the point.
    Judgement { point: u32, text: String },
    /// Nomic 214: "Dispute:" followed by a reference to the Judgement.
    Dispute { point: u32 },
    /// Nomic 214: "I agree with Judgement..." or "I disagree with Judgement...".
    Opinion { point: u32, agree: bool },
    /// The rules in effect, asked for.
    Rules,
    /// The game's history, asked for.
    History,
    /// Nomic 209: the points, asked for.
    Points,
}

/// A mail body read: its items and the lines that are none of them, each with its line
/// number (from 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NomicMail {
    pub items: Vec<(usize, Item)>,
    /// Lines that are no item and not blank, quoted or a greeting.
    pub unread: Vec<(usize, String)>,
}

/// `s` without `prefix` at its start, in any ASCII case.
fn strip_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| s.get(prefix.len()..))
        .flatten()
}

/// `s` after its first word, if that word is one of `words` (in any case).
fn eat_word<'a>(s: &'a str, words: &[&str]) -> Option<&'a str> {
    let s = s.trim_start();
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    let (word, rest) = s.split_at(end);
    words
        .iter()
        .any(|w| w.eq_ignore_ascii_case(word))
        .then_some(rest)
}

/// A number at the start of `s` (after spaces and an optional `#`), not followed by a letter
/// or digit, and what follows it.
fn number_at(s: &str) -> Option<(u32, &str)> {
    let s = s.trim_start();
    let s = s.strip_prefix('#').unwrap_or(s).trim_start();
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (digits, rest) = s.split_at(end);
    if digits.is_empty() || digits.len() > 9 || rest.starts_with(char::is_alphanumeric) {
        return None;
    }
    Some((digits.parse().ok()?, rest))
}

/// Nomic 214: a reference to a Point of Order (`PO3`, `PO 3`, `#3`, `point of order 3`) at the
/// start of `s`, after an optional `the`, `Judgement`/`Judgment` and `on`; and what follows.
fn point_ref(s: &str) -> Option<(u32, &str)> {
    let mut s = s.trim_start();
    for words in [&["the"][..], &["judgement", "judgment"], &["on", "of"]] {
        s = eat_word(s, words).unwrap_or(s);
    }
    let s = s.trim_start();
    if let Some(r) = eat_word(s, &["point"])
        .and_then(|r| eat_word(r, &["of"]))
        .and_then(|r| eat_word(r, &["order"]))
    {
        return number_at(r);
    }
    if let Some(r) = strip_ci(s, "po") {
        return number_at(r);
    }
    s.strip_prefix('#').and_then(number_at)
}

/// The text after `Head:` when the words before the colon are one of `heads` (spaces between
/// words as they come).
fn after_head<'a>(line: &'a str, heads: &[&str]) -> Option<&'a str> {
    let (head, rest) = line.split_once(':')?;
    let head: Vec<&str> = head.split_whitespace().collect();
    let head = head.join(" ");
    heads
        .iter()
        .any(|h| h.eq_ignore_ascii_case(&head))
        .then_some(rest)
}

/// Nomic 214: `I agree with Judgement PO3` or `I disagree with Judgement on PO3`.
fn opinion(line: &str) -> Option<Item> {
    let rest = eat_word(line, &["i"])?;
    let agree = eat_word(rest, &["agree"]).map(|r| (true, r));
    let (agree, rest) = agree.or_else(|| eat_word(rest, &["disagree"]).map(|r| (false, r)))?;
    let rest = eat_word(rest, &["with"])?;
    let rest = eat_word(rest, &["judgement", "judgment"])?;
    let (point, _) = point_ref(rest)?;
    Some(Item::Opinion { point, agree })
}

/// One line read as an item, if it is one (its text perhaps to be continued).
fn read_line(line: &str) -> Option<Item> {
    let line = line.trim();
    if let Some(change) = grammar::read_rule_change_line(line) {
        return Some(Item::RuleChange(change));
    }
    if let Some(choice) = votes::read_vote(line) {
        return Some(Item::Vote(choice));
    }
    if let Some(q) = after_head(line, &["point of order"]) {
        return Some(Item::PointOfOrder {
            question: q.trim().to_string(),
        });
    }
    if let Some(rest) = after_head(line, &["judgement", "judgment"]) {
        let (point, text) = point_ref(rest)?;
        let text = text
            .trim_start_matches([':', '-', ',', '.', ' ', '\t'])
            .trim();
        return Some(Item::Judgement {
            point,
            text: text.to_string(),
        });
    }
    if let Some(rest) = after_head(line, &["dispute"]) {
        let (point, _) = point_ref(rest)?;
        return Some(Item::Dispute { point });
    }
    if let Some(item) = opinion(line) {
        return Some(item);
    }
    match line.to_ascii_uppercase().as_str() {
        "RULES" => Some(Item::Rules),
        "HISTORY" => Some(Item::History),
        "POINTS" => Some(Item::Points),
        _ => None,
    }
}

/// A signature line: `-- ` (or `--`, its trailing space lost).
fn is_signature(line: &str) -> bool {
    line.trim_end() == "--"
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// A reply's `On Mon, 11 Feb 2019, Ben wrote:` line.
fn is_attribution(line: &str) -> bool {
    let t = line.trim();
    t.len() > 6
        && t.get(t.len() - 6..)
            .is_some_and(|w| w.eq_ignore_ascii_case("wrote:"))
}

/// `Hi all,`, `Thanks`, `Cheers, Ben`: a short line opening with a greeting word.
fn is_greeting(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words
        .first()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()));
    words.len() <= 5 && first.is_some_and(|f| GREETINGS.iter().any(|g| g.eq_ignore_ascii_case(f)))
}

/// An item whose text may go on over the following lines, and that text.
fn continued_text(item: &mut Item) -> Option<&mut String> {
    match item {
        Item::RuleChange(RuleChange::FreeText(t))
        | Item::PointOfOrder { question: t }
        | Item::Judgement { text: t, .. } => Some(t),
        _ => None,
    }
}

/// An item with nothing to say: a Point of Order without a question or a Judgement without a
/// decision.
fn is_empty(item: &Item) -> bool {
    match item {
        Item::PointOfOrder { question: t } | Item::Judgement { text: t, .. } => t.is_empty(),
        _ => false,
    }
}

/// The body's first [`MAX_BYTES`] (cut at a character's boundary).
fn bounded(body: &str) -> &str {
    let mut end = body.len().min(MAX_BYTES);
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    body.get(..end).unwrap_or("")
}

/// Nomic 107, 113, 209, 214: a player's mail body read (bounded: [`MAX_BYTES`], [`MAX_LINES`]).
pub fn read_mail(body: &str) -> NomicMail {
    let lines: Vec<&str> = bounded(body).lines().take(MAX_LINES).collect();
    let mut mail = NomicMail::default();
    let mut i = 0;
    while let Some(&line) = lines.get(i) {
        let number = i + 1;
        i += 1;
        if is_signature(line) {
            break;
        }
        let t = line.trim();
        if t.is_empty() || is_quoted(t) || is_attribution(t) || is_greeting(t) {
            continue;
        }
        let Some(mut item) = read_line(t) else {
            mail.unread.push((number, t.to_string()));
            continue;
        };
        if let Some(text) = continued_text(&mut item) {
            while let Some(&next) = lines.get(i) {
                let n = next.trim();
                let stops = n.is_empty() || is_signature(next) || is_quoted(n) || is_greeting(n);
                if stops || read_line(n).is_some() {
                    break;
                }
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(n);
                i += 1;
            }
        }
        if is_empty(&item) {
            mail.unread.push((number, t.to_string()));
        } else {
            mail.items.push((number, item));
        }
    }
    mail
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Parameter;

    fn items(body: &str) -> Vec<Item> {
        read_mail(body).items.into_iter().map(|(_, i)| i).collect()
    }

    #[test]
    fn nomic_107_113_a_rule_change_and_a_vote_with_their_line_numbers() {
        let mail = read_mail("Hi all,\n\nRule-change: set winning-score 150\nVote: Yes\n");
        assert_eq!(
            mail.items,
            vec![
                (
                    3,
                    Item::RuleChange(RuleChange::Set {
                        parameter: Parameter::WinningScore,
                        value: 150
                    })
                ),
                (4, Item::Vote(Choice::Yes)),
            ]
        );
        assert!(mail.unread.is_empty());
    }

    #[test]
    fn nomic_107_a_free_text_rule_change_goes_on_to_the_blank_line() {
        let body = "Rule-change: Every player\nwho has a hat\nmay wear it.\n\nSee you.\n";
        let mail = read_mail(body);
        assert_eq!(
            mail.items,
            vec![(
                1,
                Item::RuleChange(RuleChange::FreeText(
                    "Every player\nwho has a hat\nmay wear it.".into()
                ))
            )]
        );
        assert_eq!(mail.unread, vec![(5, "See you.".to_string())]);
        // Its text may begin on the next line; an item's line ends it.
        assert_eq!(
            items("Rule-change:\nHats for all.\nVote: No"),
            vec![
                Item::RuleChange(RuleChange::FreeText("Hats for all.".into())),
                Item::Vote(Choice::No)
            ]
        );
        // A structured change does not swallow the next line.
        let mail = read_mail("Rule-change: repeal 215\nbecause it is odd\n");
        assert_eq!(mail.unread, vec![(2, "because it is odd".to_string())]);
    }

    #[test]
    fn nomic_214_a_point_of_order() {
        assert_eq!(
            items("point of ORDER: Was proposal 305 proper?"),
            vec![Item::PointOfOrder {
                question: "Was proposal 305 proper?".into()
            }]
        );
        assert_eq!(
            items("Point of Order: Is a vote\non Saturday void?\n"),
            vec![Item::PointOfOrder {
                question: "Is a vote\non Saturday void?".into()
            }]
        );
        let mail = read_mail("Point of Order:\n");
        assert!(mail.items.is_empty());
        assert_eq!(mail.unread, vec![(1, "Point of Order:".to_string())]);
    }

    #[test]
    fn nomic_214_a_judgement_refers_to_its_point() {
        let j = |point, text: &str| Item::Judgement {
            point,
            text: text.into(),
        };
        assert_eq!(
            items("Judgement: PO3 It was proper."),
            vec![j(3, "It was proper.")]
        );
        assert_eq!(items("JUDGEMENT: po 3: It was."), vec![j(3, "It was.")]);
        assert_eq!(items("Judgment: #12 No."), vec![j(12, "No.")]);
        assert_eq!(
            items("Judgement: point of order 4 - Yes,\nit was.\n\nBen"),
            vec![j(4, "Yes,\nit was.")]
        );
        // Without a reference, or without a decision, it is unread.
        for bad in [
            "Judgement: It was proper.",
            "Judgement: PO3",
            "Judgement: POINTS 3",
        ] {
            let mail = read_mail(bad);
            assert!(mail.items.is_empty(), "{bad}");
            assert_eq!(mail.unread, vec![(1, bad.to_string())]);
        }
    }

    #[test]
    fn nomic_214_a_dispute_and_opinions() {
        assert_eq!(items("Dispute: PO3"), vec![Item::Dispute { point: 3 }]);
        assert_eq!(
            items("dispute: Judgement on #7, it is wrong"),
            vec![Item::Dispute { point: 7 }]
        );
        assert_eq!(
            items("I agree with Judgement PO3"),
            vec![Item::Opinion {
                point: 3,
                agree: true
            }]
        );
        assert_eq!(
            items("i agree with judgment on PO 3."),
            vec![Item::Opinion {
                point: 3,
                agree: true
            }]
        );
        assert_eq!(
            items("I disagree with Judgement point of order 5"),
            vec![Item::Opinion {
                point: 5,
                agree: false
            }]
        );
        let mail = read_mail("Dispute: the lot\nI agree with Judgement\n");
        assert!(mail.items.is_empty());
        assert_eq!(mail.unread.len(), 2);
    }

    #[test]
    fn nomic_209_rules_history_and_points_on_a_bare_line() {
        assert_eq!(
            items("RULES\nhistory\n  Points  \n"),
            vec![Item::Rules, Item::History, Item::Points]
        );
        assert_eq!(
            read_mail("RULES please").unread,
            vec![(1, "RULES please".to_string())]
        );
    }

    #[test]
    fn nomic_214_quotes_greetings_and_the_signature_are_skipped() {
        let body = "Hello Ben,\n\
                    > Vote: No\n\
                    On Mon, 11 Feb 2019, Ben P wrote:\n\
                    Vote: Yes\n\
                    Something else entirely\n\
                    Thanks,\n\
                    -- \n\
                    Chris\n\
                    Vote: No\n";
        let mail = read_mail(body);
        assert_eq!(mail.items, vec![(4, Item::Vote(Choice::Yes))]);
        assert!(is_greeting("Cheers, Ben") && is_greeting("Best regards,"));
        assert!(!is_greeting("All players get a hat"));
        assert!(!is_greeting("Thanks to rule 203 the proposer gains points"));
        assert_eq!(
            mail.unread,
            vec![(5, "Something else entirely".to_string())]
        );
    }

    #[test]
    fn nomic_214_a_huge_body_is_read_within_its_bounds() {
        let line = "Vote: Yes and some words to make the line long enough\n";
        let body = line.repeat(1024 * 1024 / line.len() + 1);
        assert!(body.len() >= 1024 * 1024);
        let mail = read_mail(&body);
        assert!(mail.unread.len() <= MAX_LINES);
        // One long line with a multi-byte character astride the cut.
        let mut long = "é".repeat(MAX_BYTES);
        long.push_str("\nVote: Yes");
        let mail = read_mail(&long);
        assert!(mail.items.is_empty());
        assert_eq!(mail.unread.len(), 1);
        // Lines past the 200th are not read.
        let many = "\n".repeat(MAX_LINES) + "Vote: Yes";
        assert!(read_mail(&many).items.is_empty());
    }
}
