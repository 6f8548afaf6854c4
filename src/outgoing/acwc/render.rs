//! The ACWC office's views and their renderings (`templates/acwc/`): values and lists of
//! one-line texts; times in UTC.

use crate::outgoing::render::{RenderError, Rendered, TemplateList};
use crate::outgoing::time::{Zone, time_ctx};
use crate::time::Ts;
use minijinja::value::Serde;
use minijinja::{Value, context};
use serde::Serialize;

pub(crate) const TEMPLATES: TemplateList = &[
    (
        "acwc/entry.txt",
        include_str!("../../../templates/acwc/entry.txt"),
    ),
    (
        "acwc/start.txt",
        include_str!("../../../templates/acwc/start.txt"),
    ),
    (
        "acwc/pairings.txt",
        include_str!("../../../templates/acwc/pairings.txt"),
    ),
    (
        "acwc/result.txt",
        include_str!("../../../templates/acwc/result.txt"),
    ),
    (
        "acwc/negotiation.txt",
        include_str!("../../../templates/acwc/negotiation.txt"),
    ),
    (
        "acwc/swiss-done.txt",
        include_str!("../../../templates/acwc/swiss-done.txt"),
    ),
    (
        "acwc/observer.txt",
        include_str!("../../../templates/acwc/observer.txt"),
    ),
];

fn render(name: &str, ctx: Value) -> Result<Rendered, RenderError> {
    super::TEMPLATES.render(name, ctx)
}

/// An entry received (ACWC "Player eligibility").
#[derive(Clone, Debug, Serialize)]
pub struct EntryView {
    pub game: String,
    pub account: String,
    pub cutoff: u32,
    pub peak: u32,
    /// The seeding rating, as written (`2175.5`).
    pub seeding: String,
}

pub fn entry(v: &EntryView) -> Result<Rendered, RenderError> {
    render("acwc/entry.txt", context! { v => Serde(v) })
}

/// An entry approved: the entrant's secret.
#[derive(Clone, Debug, Serialize)]
pub struct StartView {
    pub game: String,
    pub account: String,
    pub seeding: String,
    pub secret: String,
}

pub fn start(v: &StartView) -> Result<Rendered, RenderError> {
    render("acwc/start.txt", context! { v => Serde(v) })
}

/// A round's pairings with the transcript (ACWC "Pairing details").
#[derive(Clone, Debug, Serialize)]
pub struct PairingsView {
    pub game: String,
    /// `Swiss round 2`.
    pub title: String,
    /// `alice (1) v erin (2)`, a line each.
    pub pairs: Vec<String>,
    pub bye: Option<String>,
    pub transcript: Vec<String>,
    pub deadline: Ts,
    /// ACWC "Pairing details": the standings and crosstable after the rounds before this one
    /// (none before the first).
    pub standings: Vec<String>,
}

pub fn pairings(v: &PairingsView) -> Result<Rendered, RenderError> {
    let deadline = time_ctx(v.deadline, &Zone::new("UTC"))?;
    render(
        "acwc/pairings.txt",
        context! { v => Serde(v), deadline => Serde(deadline) },
    )
}

/// A match's result reported, confirmed, disputed or decided.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    pub game: String,
    pub title: String,
    pub a: String,
    pub b: String,
    /// `reported 6½–3½`, `decided 6½–3½`, `disputed`.
    pub headline: String,
    pub lines: Vec<String>,
}

pub fn result(v: &ResultView) -> Result<Rendered, RenderError> {
    render("acwc/result.txt", context! { v => Serde(v) })
}

/// A match's time negotiated (ACWC "Match negotiations"): a step, a reminder or a turn, and
/// where it stands; times in UTC, with the reader's own zone beside them.
#[derive(Clone, Debug, Serialize)]
pub struct NegotiationView {
    pub game: String,
    pub title: String,
    pub a: String,
    pub b: String,
    /// `alice offers 3 times`, `agreed 2019-10-10 18:00 UTC`, `reminder`.
    pub headline: String,
    pub lines: Vec<String>,
}

pub fn negotiation(v: &NegotiationView) -> Result<Rendered, RenderError> {
    render("acwc/negotiation.txt", context! { v => Serde(v) })
}

/// The Swiss's end: the final ranking and who proceeds to the Candidates.
#[derive(Clone, Debug, Serialize)]
pub struct SwissDoneView {
    pub game: String,
    pub rounds: u32,
    pub ranking: Vec<String>,
    pub candidates: Vec<String>,
}

pub fn swiss_done(v: &SwissDoneView) -> Result<Rendered, RenderError> {
    render("acwc/swiss-done.txt", context! { v => Serde(v) })
}

/// An observer's first mail.
#[derive(Clone, Debug, Serialize)]
pub struct ObserverView {
    pub game: String,
    pub address: String,
    pub gm_address: String,
}

pub fn observer(v: &ObserverView) -> Result<Rendered, RenderError> {
    render("acwc/observer.txt", context! { v => Serde(v) })
}
