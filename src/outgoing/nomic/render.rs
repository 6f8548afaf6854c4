//! The Nomic's views and their renderings. A view holds values and lists of one-line texts; the
//! templates (`templates/nomic/`) lay them out. Times are shown in UK time (Nomic 106).

use crate::outgoing::render::{RenderError, Rendered, TemplateList};
use crate::outgoing::time::{TimeCtx, Zone, time_ctx};
use crate::time::Ts;
use minijinja::value::Serde;
use minijinja::{Value, context};
use serde::Serialize;

/// The Nomic's whole mails, each beginning with its `Subject:` line.
pub(crate) const TEMPLATES: TemplateList = &[
    (
        "nomic/start.txt",
        include_str!("../../../templates/nomic/start.txt"),
    ),
    (
        "nomic/proposal.txt",
        include_str!("../../../templates/nomic/proposal.txt"),
    ),
    (
        "nomic/vote.txt",
        include_str!("../../../templates/nomic/vote.txt"),
    ),
    (
        "nomic/result.txt",
        include_str!("../../../templates/nomic/result.txt"),
    ),
    (
        "nomic/point-of-order.txt",
        include_str!("../../../templates/nomic/point-of-order.txt"),
    ),
    (
        "nomic/record.txt",
        include_str!("../../../templates/nomic/record.txt"),
    ),
    (
        "nomic/observer.txt",
        include_str!("../../../templates/nomic/observer.txt"),
    ),
    (
        "nomic/refused.txt",
        include_str!("../../../templates/nomic/refused.txt"),
    ),
];

/// Nomic 106: "All times specified in rules in UK time."
const UK: &str = "Europe/London";

fn uk(ts: Ts) -> Result<TimeCtx, RenderError> {
    time_ctx(ts, &Zone::new(UK))
}

fn render(name: &str, ctx: Value) -> Result<Rendered, RenderError> {
    super::TEMPLATES.render(name, ctx)
}

/// A player and their allocated day (Nomic 201).
#[derive(Clone, Debug, Serialize)]
pub struct SeatLine {
    pub player: String,
    pub day: String,
}

/// The start mail: a player's seat, day and secret, and everyone's days.
#[derive(Clone, Debug, Serialize)]
pub struct StartView {
    pub game: String,
    pub player: String,
    pub day: String,
    pub secret: String,
    pub seats: Vec<SeatLine>,
    pub started_at: Ts,
    pub rules: usize,
    pub winning_score: i64,
}

pub fn start(v: &StartView) -> Result<Rendered, RenderError> {
    render(
        "nomic/start.txt",
        context! { v => Serde(v), started => Serde(uk(v.started_at)?) },
    )
}

/// An observer's first mail: what they will be sent, and how to stop it.
#[derive(Clone, Debug, Serialize)]
pub struct ObserverView {
    pub game: String,
    pub address: String,
    pub gm_address: String,
    /// Added to the game under way (else at its start).
    pub joined: bool,
}

pub fn observer(v: &ObserverView) -> Result<Rendered, RenderError> {
    render("nomic/observer.txt", context! { v => Serde(v) })
}

/// A proper proposal put to the vote (Nomic 107, 109, 113).
#[derive(Clone, Debug, Serialize)]
pub struct ProposalView {
    pub game: String,
    pub number: u32,
    pub proposer: String,
    /// The rule-change as its proposer wrote it, a line a paragraph.
    pub written: Vec<String>,
    /// What it does to the rule set once adopted, in words, a line each.
    pub effect: Vec<String>,
    /// The threshold, in words, with its rule.
    pub threshold: String,
    pub made_at: Ts,
    pub closes_at: Ts,
}

pub fn proposal(v: &ProposalView) -> Result<Rendered, RenderError> {
    render(
        "nomic/proposal.txt",
        context! {
            v => Serde(v),
            made => Serde(uk(v.made_at)?),
            closes => Serde(uk(v.closes_at)?),
        },
    )
}

/// A vote taken (Nomic 113): the voter's own acknowledgement.
#[derive(Clone, Debug, Serialize)]
pub struct VoteView {
    pub game: String,
    pub number: u32,
    pub choice: String,
    pub cast_at: Ts,
    pub closes_at: Ts,
}

pub fn vote(v: &VoteView) -> Result<Rendered, RenderError> {
    render(
        "nomic/vote.txt",
        context! {
            v => Serde(v),
            cast => Serde(uk(v.cast_at)?),
            closes => Serde(uk(v.closes_at)?),
        },
    )
}

/// A vote mail that did not count, and why.
#[derive(Clone, Debug, Serialize)]
pub struct NotCounted {
    pub voter: String,
    pub choice: String,
    pub at: String,
    pub why: String,
}

/// One line of a diff: `-` a paragraph gone, `+` one new, ` ` one kept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiffLine {
    pub mark: char,
    pub text: String,
}

/// One rule changed: a heading (`Rule 203 amended, now rule 305`) and the diff of its text.
#[derive(Clone, Debug, Serialize)]
pub struct RuleDiff {
    pub heading: String,
    pub lines: Vec<DiffLine>,
}

/// A player's points after a change (Nomic 209: "their new total followed by the change in
/// parenthesis").
#[derive(Clone, Debug, Serialize)]
pub struct PointsLine {
    pub player: String,
    pub total: i64,
    /// The change, if this vote changed it.
    pub change: Option<i64>,
    /// Why, in words with its rule.
    pub why: String,
}

/// A vote completed (Nomic 113, 204, 206): the tally naming the voters (public in the Nomic),
/// what changed in the rule set, and the points.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    pub game: String,
    pub number: u32,
    pub proposer: String,
    pub adopted: bool,
    pub written: Vec<String>,
    pub threshold: String,
    pub yes: Vec<String>,
    pub no: Vec<String>,
    pub not_counted: Vec<NotCounted>,
    pub silent: Vec<String>,
    pub changes: Vec<RuleDiff>,
    /// What else the adoption did or awaits, a line each (a setting changed, the GM to confirm
    /// a free text, an effect that could not be made).
    pub notes: Vec<String>,
    pub points: Vec<PointsLine>,
    pub winner: Option<String>,
    pub completed_at: Ts,
}

pub fn result(v: &ResultView) -> Result<Rendered, RenderError> {
    render(
        "nomic/result.txt",
        context! {
            v => Serde(v),
            completed => Serde(uk(v.completed_at)?),
        },
    )
}

/// A step of a Point of Order's course (Nomic 214).
#[derive(Clone, Debug, Serialize)]
pub struct OrderView {
    pub game: String,
    pub number: i64,
    /// `raised`, `Judgement pronounced`, `disputed`, `overruled`, `invoked`...
    pub headline: String,
    pub raised_by: String,
    pub question: String,
    /// What happened, a line each.
    pub lines: Vec<String>,
    /// The judge who must now pronounce, and by when.
    pub judge: Option<String>,
    pub until: Option<Ts>,
}

pub fn point_of_order(v: &OrderView) -> Result<Rendered, RenderError> {
    let until = v.until.map(uk).transpose()?;
    render(
        "nomic/point-of-order.txt",
        context! { v => Serde(v), until => Serde(until) },
    )
}

/// One section of the record or of the rules.
#[derive(Clone, Debug, Serialize)]
pub struct RecordSection {
    pub heading: String,
    pub lines: Vec<String>,
}

/// The answer to `RULES`, `HISTORY` or `POINTS` (Nomic 212).
#[derive(Clone, Debug, Serialize)]
pub struct RecordView {
    pub game: String,
    pub title: String,
    pub sections: Vec<RecordSection>,
}

pub fn record(v: &RecordView) -> Result<Rendered, RenderError> {
    render("nomic/record.txt", context! { v => Serde(v) })
}

/// The lines of a player's mail that were not used, and why (the lines used are answered
/// each in a mail of its own).
#[derive(Clone, Debug, Serialize)]
pub struct RefusedView {
    pub game: String,
    /// The mail's subject, as it may be echoed.
    pub subject: String,
    pub message_id: Option<String>,
    pub received_at: Ts,
    /// How many of its lines were used.
    pub done: usize,
    /// Each line not used, with why.
    pub reasons: Vec<String>,
}

pub fn refused(v: &RefusedView) -> Result<Rendered, RenderError> {
    render(
        "nomic/refused.txt",
        context! {
            v => Serde(v),
            received => Serde(uk(v.received_at)?),
        },
    )
}

/// The diff of a rule's text, paragraph by paragraph: the longest common run kept, what was
/// only in the old text marked `-` (first), what is only in the new `+` (a rule has a few paragraphs:
/// the table is small).
pub fn diff(old: &[String], new: &[String]) -> Vec<DiffLine> {
    let (n, m) = (old.len(), new.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let line = |mark: char, text: &String| DiffLine {
        mark,
        text: text.clone(),
    };
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n || j < m {
        if i < n && j < m && old[i] == new[j] {
            out.push(line(' ', &old[i]));
            (i, j) = (i + 1, j + 1);
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(line('-', &old[i]));
            i += 1;
        } else {
            out.push(line('+', &new[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn nomic_diff_marks_what_went_and_what_came() {
        let got = diff(&strings(&["a", "b", "c"]), &strings(&["a", "B", "c", "d"]));
        let marks: String = got.iter().map(|l| l.mark).collect();
        let texts: Vec<&str> = got.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(marks, " -+ +");
        assert_eq!(texts, ["a", "b", "B", "c", "d"]);
    }
}
