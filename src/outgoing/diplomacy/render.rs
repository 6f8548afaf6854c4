//! Diplomacy's own mails, rendered through the shared template engine
//! (`Templates` of `src/outgoing/render.rs`) in Diplomacy's environment (`TEMPLATES` in `mod.rs`):
//! the acknowledgement of an order mail, the start mail, the results of an adjudication, the
//! GM's digest, the reminder and the impersonation report; their views, and the phases in words.
//!
//! Secrecy is structural: grey press is a [`GreyPress`], which has no author field at all; press
//! to some powers only is put in the results of its recipients only ([`Reader`]); votes have no
//! place in [`ResultsView`] but the optional outcome sentence (WM D.IX(2)).

use crate::adjudicator::{Board, OrderResult, RetreatOptions};
use crate::map::Map;
use crate::orderset::{MailRead, Note, OrderLine, PressOut, PressStatus, RequestOut, VoteOut};
use crate::outgoing::render::{RenderError, Rendered, TemplateList, one_line};
use crate::outgoing::time::{Zone, duration_text, time_ctx};
use crate::phase::{Phase, PhaseKind, Season};
use crate::time::Ts;
use minijinja::value::Serde;
use minijinja::{Value, context};
use serde::Serialize;

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------

/// One line of an order mail and its verdict.
#[derive(Serialize, Clone, Debug, Default)]
pub struct LineView {
    pub line: usize,
    pub text: String,
    /// The canonical order it was read as.
    pub understood: Option<String>,
    /// `ok`, `warning`, `error` or `replaced`.
    pub status: String,
    pub message: Option<String>,
}

impl From<&OrderLine> for LineView {
    fn from(l: &OrderLine) -> LineView {
        LineView {
            line: l.line,
            text: l.text.clone(),
            understood: l.order.clone(),
            status: l.status.to_string(),
            message: l.message.clone(),
        }
    }
}

/// One unit of the standing order set. `order: None` is a unit with no order: it holds in a
/// movement phase, and is disbanded in a retreat phase.
#[derive(Serialize, Clone, Debug, Default)]
pub struct StandingOrder {
    /// `A PAR`, `F STP/SC`; for adjustment orders, what the order is about (`PAR`, or "").
    pub unit: String,
    /// The canonical order, as it will be adjudicated.
    pub order: Option<String>,
}

/// A press block as the reader understood it, for the acknowledgement to its author.
#[derive(Serialize, Clone, Debug, Default)]
pub struct PressAck {
    pub line: usize,
    /// Power names, or `ALL`.
    pub to: Vec<String>,
    pub grey: bool,
    pub body: String,
    pub accepted: bool,
    /// Why it was refused, or a warning.
    pub message: Option<String>,
}

impl From<&PressOut> for PressAck {
    fn from(p: &PressOut) -> PressAck {
        PressAck {
            line: p.line,
            to: p.to.clone(),
            grey: p.grey,
            body: p.body.clone(),
            accepted: p.status == PressStatus::Accepted,
            message: p.message.clone(),
        }
    }
}

#[derive(Serialize, Clone, Debug, Default)]
pub struct VoteAck {
    pub line: usize,
    pub proposal: String,
    /// `yes`, `no` or `abstain`.
    pub vote: String,
}

impl From<&VoteOut> for VoteAck {
    fn from(v: &VoteOut) -> VoteAck {
        VoteAck {
            line: v.line,
            proposal: v.proposal.clone(),
            vote: v.vote.to_string(),
        }
    }
}

/// A line on the regulations (Agora BT8: a proposal, a withdrawal, the sender's own vote) and
/// what became of it: acknowledged to its sender alone.
#[derive(Serialize, Clone, Debug, Default)]
pub struct RegulationAck {
    pub line: usize,
    /// The line as understood, or as written if it was not.
    pub text: String,
    pub outcome: String,
}

/// A request (extension, unavailability) and what became of it.
#[derive(Serialize, Clone, Debug, Default)]
pub struct RequestAck {
    pub line: usize,
    /// What was asked, in words ("an extension of 2 days").
    pub request: String,
    /// What became of it ("granted: the deadline is now …", "refused: …").
    pub outcome: String,
}

impl RequestAck {
    pub fn new(r: &RequestOut, outcome: impl Into<String>) -> RequestAck {
        let (line, request) = match r {
            RequestOut::Extension { line, days } => (
                *line,
                format!(
                    "an extension of {days} day{}",
                    if *days == 1 { "" } else { "s" }
                ),
            ),
            RequestOut::Unavailable { line, from, to } => {
                (*line, format!("unavailable from {from} to {to} (GMT)"))
            }
            RequestOut::HolidayExtension { line } => (*line, "a holiday extension".to_string()),
            RequestOut::Conditional { line, entries, .. } => (
                *line,
                format!(
                    "conditional retreat and adjustment orders, {entries} line(s) (WM D.II(5))"
                ),
            ),
            RequestOut::Abbreviations { line, entries, .. } => (
                *line,
                format!("your abbreviations list of {entries} line(s) (WM D.III(1))"),
            ),
            RequestOut::Weekly { line, text, .. } => {
                (*line, format!("unavailable {text} (WM D.VII(2))"))
            }
        };
        RequestAck {
            line,
            request,
            outcome: outcome.into(),
        }
    }
}

/// A line not read as an order, or a malformed press, vote or request line.
#[derive(Serialize, Clone, Debug, Default)]
pub struct NoteView {
    pub line: usize,
    pub text: String,
    pub why: String,
}

impl From<&Note> for NoteView {
    fn from(n: &Note) -> NoteView {
        NoteView {
            line: n.line,
            text: n.text.clone(),
            why: n.why.clone(),
        }
    }
}

/// The reply to an accepted order mail.
#[derive(Serialize, Clone, Debug, Default)]
pub struct AckView {
    pub game: String,
    pub power: String,
    /// `S1901M`.
    pub phase: String,
    /// The subject of the player's mail.
    pub subject: String,
    pub message_id: Option<String>,
    pub received_at: Ts,
    /// Every order line with its verdict.
    pub lines: Vec<LineView>,
    /// The whole standing order set, exactly as it will be adjudicated: one entry per unit.
    pub standing: Vec<StandingOrder>,
    /// Sentences about the standing set ("1 build not ordered will be waived").
    pub standing_notes: Vec<String>,
    /// The set is marked Final (WM D.II(1), Maharajiad B.III(1)).
    pub is_final: bool,
    pub deadline: Ts,
    /// The player's IANA time zone ("Europe/Paris"); "" or unknown: GMT only.
    pub tz: String,
    /// The mail arrived after the deadline (and was accepted: orders until adjudication).
    pub late: bool,
    pub press: Vec<PressAck>,
    /// The player's own votes: acknowledged to the voter only.
    pub votes: Vec<VoteAck>,
    pub requests: Vec<RequestAck>,
    /// The lines on the regulations (Agora BT8), each with what became of it.
    pub regulations: Vec<RegulationAck>,
    /// The assistants the mail announced (Agora BT7), each with what became of it.
    pub assistants: Vec<RegulationAck>,
    /// Who sent the orders, when an announced assistant did (Agora BT7, team orders).
    pub submitted_by: Option<String>,
    /// Lines that were not read as orders.
    pub ignored: Vec<NoteView>,
    /// Malformed press, vote or request lines.
    pub errors: Vec<NoteView>,
    /// Attachments, never read.
    pub attachments: Vec<String>,
    /// Quoted, forwarded or signature lines dropped.
    pub dropped_lines: usize,
    /// The adjustment phase is called Monsoon in this game (Maharajiad B.I(5)).
    pub monsoon: bool,
}

impl AckView {
    /// Fill what the reader understood from the mail: the lines, Final, press, votes, ignored
    /// and malformed lines, attachments. Requests are filled with the outcome "received";
    /// replace them with [`RequestAck::new`] once the engine has decided.
    pub fn set_read(&mut self, read: &MailRead) {
        self.subject = read.subject.clone();
        self.message_id = read.message_id.clone();
        self.lines = read.orders.iter().map(LineView::from).collect();
        self.is_final = read.final_;
        self.press = read.press.iter().map(PressAck::from).collect();
        self.votes = read.votes.iter().map(VoteAck::from).collect();
        self.requests = read
            .requests
            .iter()
            .map(|r| RequestAck::new(r, "received"))
            .collect();
        self.ignored = read.ignored.iter().map(NoteView::from).collect();
        self.errors = read.errors.iter().map(NoteView::from).collect();
        self.attachments = read.attachments.clone();
        self.dropped_lines = read.dropped_lines;
    }
}

/// A house-rule policy in plain words, with its clause.
#[derive(Serialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct PolicyView {
    pub clause: String,
    pub text: String,
}

/// An option chosen for this game that differs from its preset.
#[derive(Serialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangedOption {
    pub option: String,
    pub value: String,
    pub clause: String,
}

/// The start mail: to each player (with the power), master and observer.
#[derive(Serialize, Clone, Debug, Default)]
pub struct StartView {
    pub game: String,
    pub variant: String,
    pub preset: String,
    /// Empty for masters and observers.
    pub power: String,
    /// `player`, `GM`, `TD` or `observer`.
    pub role: String,
    pub phase: String,
    pub deadline: Ts,
    pub tz: String,
    /// The reader's own secret (players and masters), never anyone else's.
    pub secret: String,
    pub gm_address: String,
    pub confirm_address: String,
    pub subject_example: String,
    pub policies: Vec<PolicyView>,
    pub changed: Vec<ChangedOption>,
    /// Set when the reader takes over a power mid-game (WM B.8).
    pub takeover: Option<TakeoverView>,
    /// The reader's own address (an observer's stop line names it).
    pub address: String,
    /// The reader joins a game under way (an observer added mid-game): no "has started".
    pub joined: bool,
}

/// What a replacement player takes over: the position and the orders standing for it.
#[derive(Serialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct TakeoverView {
    /// `permanent` or `temporary`.
    pub kind: String,
    pub units: Vec<String>,
    pub centres: Vec<String>,
    /// The orders that stand for the power now, as they will be adjudicated.
    pub standing: Vec<String>,
}

/// One order in the results: as written (WM D.VIII(4), Maharajiad B.IX(4)), as read, outcome.
#[derive(Serialize, Clone, Debug, Default)]
pub struct ResultOrder {
    /// The order line exactly as the player wrote it.
    pub written: String,
    /// The canonical order; `None` when the line could not be read.
    pub order: Option<String>,
    /// `succeeds`, `fails`, `invalid` (or the engine's word for an unread line).
    pub outcome: String,
    pub reason: Option<String>,
    pub note: Option<String>,
}

impl ResultOrder {
    pub fn from_result(map: &Map, r: &OrderResult, written: impl Into<String>) -> ResultOrder {
        ResultOrder {
            written: written.into(),
            order: Some(r.order.display(map).to_string()),
            outcome: r.outcome.as_str().to_string(),
            reason: r.reason.map(|x| x.as_str().to_string()),
            note: r.note.clone(),
        }
    }
}

/// One power's part of the results.
#[derive(Serialize, Clone, Debug, Default)]
pub struct PowerResult {
    pub power: String,
    /// No orders were received (NMR).
    pub nmr: bool,
    pub orders: Vec<ResultOrder>,
    /// Units that got no order (`A MUN`): they hold (movement) or are disbanded (retreats).
    pub unordered: Vec<String>,
    /// Units removed without an order: civil disorder, no retreat possible.
    pub disbanded: Vec<String>,
}

/// A dislodged unit and its legal retreats.
#[derive(Serialize, Clone, Debug, Default)]
pub struct RetreatView {
    pub power: String,
    pub unit: String,
    /// The province the attack came from.
    pub attacker_from: String,
    /// Where the unit may retreat; empty: it is disbanded.
    pub retreats: Vec<String>,
}

impl RetreatView {
    pub fn from_options(map: &Map, r: &RetreatOptions) -> RetreatView {
        let u = &r.dislodged.unit;
        RetreatView {
            power: map.power_name(u.power).to_string(),
            unit: map.unit_name(u.unit_type, u.location),
            attacker_from: map.info(r.dislodged.attacker_from).code.clone(),
            retreats: r.retreats.iter().map(|l| map.location_name(*l)).collect(),
        }
    }
}

/// Supply centres of one power, and the builds (positive) or removals (negative) due.
#[derive(Serialize, Clone, Debug, Default)]
pub struct CentreView {
    pub power: String,
    pub centres: Vec<String>,
    pub units: usize,
    pub adjustment: i64,
}

/// Ownership on a board, per power in map order, and the unowned centres (codes sorted). The adjustment is
/// filled only on an adjustment-phase board: removals are units minus centres, builds are
/// limited by the vacant owned home centres.
pub fn centre_views(map: &Map, board: &Board) -> (Vec<CentreView>, Vec<String>) {
    let views = map
        .all_powers()
        .map(|power| {
            let centres: Vec<String> = map
                .supply_centers()
                .filter(|p| board.owner(*p) == Some(power))
                .map(|p| map.info(p).code.clone())
                .collect();
            let mut centres = centres;
            centres.sort();
            let units = board.unit_count(power);
            let adjustment = if board.phase.kind != PhaseKind::Adjustment {
                0
            } else if centres.len() > units {
                let free = board
                    .home_centers(power)
                    .filter(|p| board.owner(*p) == Some(power) && board.unit_at(*p).is_none())
                    .count();
                (centres.len() - units).min(free) as i64
            } else {
                centres.len() as i64 - units as i64
            };
            CentreView {
                power: map.power_name(power).to_string(),
                centres,
                units,
                adjustment,
            }
        })
        .collect();
    let mut unowned: Vec<String> = map
        .supply_centers()
        .filter(|p| board.owner(*p).is_none())
        .map(|p| map.info(p).code.clone())
        .collect();
    unowned.sort();
    (views, unowned)
}

/// White press: the author is published.
#[derive(Serialize, Clone, Debug, Default)]
pub struct WhitePress {
    pub author: String,
    /// The recipient powers; empty or `ALL`: everyone.
    pub to: Vec<String>,
    pub body: String,
}

/// Grey press. There is deliberately no author field: the author is never revealed (WM
/// D.X(2), Maharajiad B.XI(2)). Grey press comes in the game's keyed order
/// ([`crate::outgoing::compose::keyed_order`]), never in the order of receipt nor by author.
#[derive(Serialize, Clone, Debug, Default)]
pub struct GreyPress {
    /// The recipient powers; empty or `ALL`: everyone.
    pub to: Vec<String>,
    pub body: String,
    /// Dark grey press: the name its author signed it with, printed as unofficial (WM D.X(1)).
    pub signature: Option<String>,
}

/// The adjudication results, the same for every reader but for local times and partial press.
#[derive(Serialize, Clone, Debug, Default)]
pub struct ResultsView {
    /// The judge name in the `::` header (njudge's judge code).
    pub judge: String,
    pub game: String,
    /// `Standard`.
    pub variant: String,
    /// The phase adjudicated, `S1901M`.
    pub phase: String,
    /// The next phase with something to do; `None`: the game is over.
    pub next_phase: Option<String>,
    /// The next deadline.
    pub deadline: Option<Ts>,
    pub powers: Vec<PowerResult>,
    pub retreats: Vec<RetreatView>,
    /// Ownership; empty: the section is left out.
    pub centres: Vec<CentreView>,
    pub unowned_centres: Vec<String>,
    pub white_press: Vec<WhitePress>,
    pub grey_press: Vec<GreyPress>,
    /// WM D.X(1): white press is published with the orders of its author. Otherwise all press
    /// is in its own section (Maharajiad B.XI(1)).
    pub white_press_with_orders: bool,
    /// How the game ended (a solo, the final year played), or the outcome of a vote if the
    /// engine publishes one ("The draw proposal failed."). Never who voted how (WM D.IX(2),
    /// Maharajiad B.X(2)).
    pub vote_result: Option<String>,
    /// When the game ends: the supply centres per power at the end of each year, as a table.
    pub centre_history: Option<String>,
    /// The adjustment phase is called Monsoon in this game (Maharajiad B.I(5)).
    pub monsoon: bool,
}

/// Who a results mail is rendered for: press to some powers only goes to those powers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader<'a> {
    /// A player: press to all, and press addressed to this power (or, for white press, written
    /// by it).
    Power(&'a str),
    /// An observer or the public archive: press to all only.
    Observer,
    /// The GM's copy: all press, with its recipients.
    Gm,
}

/// One power's state at the deadline, for the GM.
#[derive(Serialize, Clone, Debug, Default)]
pub struct DigestPower {
    pub power: String,
    /// The player's address.
    pub player: String,
    pub orders_in: bool,
    pub is_final: bool,
    /// Orders in the standing set.
    pub order_count: usize,
    pub last_submission: Option<Ts>,
    /// Extension days used so far in the game.
    pub extension_days_used: u32,
    /// Mails for this power that gave a wrong secret (counted, never a lockout).
    pub wrong_secrets: i64,
}

/// Mail read and deliberately not answered since the last digest, by reason.
#[derive(Serialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct DropCount {
    pub reason: String,
    pub count: i64,
}

/// The GM's digest at a deadline.
#[derive(Serialize, Clone, Debug, Default)]
pub struct DigestView {
    pub game: String,
    pub phase: String,
    pub deadline: Ts,
    pub generated_at: Ts,
    /// The GM's time zone.
    pub tz: String,
    /// Extension days each player may use in the game (0: not shown).
    pub extension_days_allowed: u32,
    pub powers: Vec<DigestPower>,
    /// Silent drops (strangers, automatic mail, rate limits, ...) over the last day.
    pub drops: Vec<DropCount>,
    /// What waits for the masters (Agora BT8: enacted free texts to confirm).
    pub open_items: Vec<String>,
    /// The adjustment phase is called Monsoon in this game (Maharajiad B.I(5)).
    pub monsoon: bool,
}

/// To a player with no orders in yet.
#[derive(Serialize, Clone, Debug, Default)]
pub struct ReminderView {
    pub game: String,
    pub power: String,
    pub phase: String,
    pub deadline: Ts,
    pub sent_at: Ts,
    pub tz: String,
    /// The subject to use, filled in (`wm2026a FRANCE S1901M`).
    pub expected_subject: String,
    pub gm_address: String,
    /// The GM's address must be in "To" (Maharajiad B.III(2)); otherwise "To" or "CC".
    pub gm_in_to_only: bool,
    /// The adjustment phase is called Monsoon in this game (Maharajiad B.I(5)).
    pub monsoon: bool,
}

// ---------------------------------------------------------------------------------------------
// Phases in words
// ---------------------------------------------------------------------------------------------

/// `Spring 1901 movement`; the code itself when it is not a phase. `monsoon`: the adjustment
/// phase is called Monsoon (Maharajiad B.I(5)).
pub fn phase_title(code: &str, monsoon: bool) -> String {
    match code.parse::<Phase>() {
        Ok(p) => {
            let season = match p.season {
                Season::Spring => "Spring",
                Season::Fall => "Fall",
                Season::Winter if monsoon => "Monsoon",
                Season::Winter => "Winter",
            };
            let kind = match p.kind {
                PhaseKind::Movement => "movement",
                PhaseKind::Retreat => "retreats",
                PhaseKind::Adjustment => "adjustments",
            };
            format!("{season} {} {kind}", p.year)
        }
        Err(_) => code.to_string(),
    }
}

/// What a unit with no order does in this phase.
fn no_order_text(code: &str) -> &'static str {
    match code.parse::<Phase>().map(|p| p.kind) {
        Ok(PhaseKind::Retreat) => "disbanded (no order)",
        Ok(PhaseKind::Adjustment) => "no order",
        _ => "holds (no order)",
    }
}

// ---------------------------------------------------------------------------------------------
// Templates and the mails
// ---------------------------------------------------------------------------------------------

/// Diplomacy's whole mails (`templates/diplomacy/`), embedded. The common templates it renders
/// (the acknowledgement, the digest, the impersonation report) are the shared layer's.
pub(crate) const TEMPLATES: TemplateList = &[
    (
        "diplomacy/start.txt",
        include_str!("../../../templates/diplomacy/start.txt"),
    ),
    (
        "diplomacy/results.txt",
        include_str!("../../../templates/diplomacy/results.txt"),
    ),
    (
        "diplomacy/reminder.txt",
        include_str!("../../../templates/diplomacy/reminder.txt"),
    ),
];

fn render(name: &str, ctx: Value) -> Result<Rendered, RenderError> {
    super::TEMPLATES.render(name, ctx)
}

/// The reply to an accepted order mail.
pub fn acknowledgement(v: &AckView) -> Result<Rendered, RenderError> {
    let zone = Zone::new(&v.tz);
    let received = time_ctx(v.received_at, &zone)?;
    let deadline = time_ctx(v.deadline, &zone)?;
    let count = |status: &str| v.lines.iter().filter(|l| l.status == status).count();
    let counts = [
        (count("ok"), "understood", "understood"),
        (count("warning"), "warning", "warnings"),
        (count("error"), "error", "errors"),
        (count("replaced"), "replaced", "replaced"),
    ]
    .iter()
    .filter(|(n, ..)| *n > 0)
    .map(|(n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
    .collect::<Vec<_>>()
    .join(", ");
    render(
        "common/acknowledgement.txt",
        context! {
            v => Serde(v),
            received => Serde(&received),
            deadline => Serde(&deadline),
            tz_note => zone.note.clone(),
            phase_title => phase_title(&v.phase, v.monsoon),
            no_order => no_order_text(&v.phase),
            counts => counts,
            orders_count => v.standing.iter().filter(|s| s.order.is_some()).count(),
        },
    )
}

/// The start mail of a game, for one reader.
pub fn start(v: &StartView) -> Result<Rendered, RenderError> {
    let zone = Zone::new(&v.tz);
    let deadline = time_ctx(v.deadline, &zone)?;
    render(
        "diplomacy/start.txt",
        context! {
            v => Serde(v),
            deadline => Serde(&deadline),
            tz_note => zone.note.clone(),
        },
    )
}

#[derive(Serialize)]
struct PressCtx {
    /// `None` for grey press.
    author: Option<String>,
    /// Dark grey press: its signature.
    signature: Option<String>,
    /// `ALL`, or the recipients.
    to: String,
    partial: bool,
    body: String,
}

#[derive(Serialize)]
struct PowerCtx<'a> {
    p: &'a PowerResult,
    press: Vec<PressCtx>,
}

#[derive(Serialize)]
struct CentreCtx<'a> {
    c: &'a CentreView,
    adjustment: String,
}

fn to_all(to: &[String]) -> bool {
    to.is_empty() || to.iter().any(|t| t.trim().eq_ignore_ascii_case("ALL"))
}

/// May this reader see press sent to `to` (written by `author`, for white press)?
fn press_visible(reader: Reader<'_>, to: &[String], author: Option<&str>) -> bool {
    if to_all(to) {
        return true;
    }
    match reader {
        Reader::Gm => true,
        Reader::Observer => false,
        Reader::Power(me) => {
            let me = me.trim();
            to.iter().any(|t| t.trim().eq_ignore_ascii_case(me))
                || author.is_some_and(|a| a.trim().eq_ignore_ascii_case(me))
        }
    }
}

fn press_ctx(author: Option<&str>, to: &[String], body: &str) -> PressCtx {
    let partial = !to_all(to);
    PressCtx {
        author: author.map(one_line),
        signature: None,
        to: if partial {
            to.iter()
                .map(|t| one_line(t))
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            "ALL".to_string()
        },
        partial,
        body: body.to_string(),
    }
}

/// The results of an adjudication, for one reader: local times in `reader_tz`, and only the
/// press this reader may see.
pub fn results(
    v: &ResultsView,
    reader: Reader<'_>,
    reader_tz: &str,
) -> Result<Rendered, RenderError> {
    let zone = Zone::new(reader_tz);
    let deadline = v.deadline.map(|d| time_ctx(d, &zone)).transpose()?;
    let white: Vec<&WhitePress> = v
        .white_press
        .iter()
        .filter(|p| press_visible(reader, &p.to, Some(&p.author)))
        .collect();
    let grey: Vec<PressCtx> = v
        .grey_press
        .iter()
        .filter(|p| press_visible(reader, &p.to, None))
        .map(|p| PressCtx {
            signature: p.signature.as_deref().map(one_line),
            ..press_ctx(None, &p.to, &p.body)
        })
        .collect();
    let powers: Vec<PowerCtx> = v
        .powers
        .iter()
        .map(|p| PowerCtx {
            p,
            press: if v.white_press_with_orders {
                white
                    .iter()
                    .filter(|w| w.author.trim().eq_ignore_ascii_case(p.power.trim()))
                    .map(|w| press_ctx(Some(&w.author), &w.to, &w.body))
                    .collect()
            } else {
                Vec::new()
            },
        })
        .collect();
    // White press whose author has no section of its own is never dropped.
    let own_section = |w: &&&WhitePress| {
        v.white_press_with_orders
            && v.powers
                .iter()
                .any(|p| w.author.trim().eq_ignore_ascii_case(p.power.trim()))
    };
    let white_separate: Vec<PressCtx> = white
        .iter()
        .filter(|w| !own_section(w))
        .map(|w| press_ctx(Some(&w.author), &w.to, &w.body))
        .collect();
    let centres: Vec<CentreCtx> = v
        .centres
        .iter()
        .map(|c| CentreCtx {
            c,
            adjustment: match c.adjustment {
                0 => String::new(),
                n if n > 0 => format!("builds {n}"),
                n => format!("removes {}", n.unsigned_abs()),
            },
        })
        .collect();
    render(
        "diplomacy/results.txt",
        context! {
            v => Serde(v),
            deadline => Serde(&deadline),
            tz_note => zone.note.clone(),
            phase_title => phase_title(&v.phase, v.monsoon),
            next_title => v.next_phase.as_deref().map(|n| phase_title(n, v.monsoon)),
            no_order => no_order_text(&v.phase),
            powers => Serde(&powers),
            centres => Serde(&centres),
            white_press => Serde(&white_separate),
            grey_press => Serde(&grey),
            nmr => v.powers.iter().filter(|p| p.nmr).map(|p| p.power.clone()).collect::<Vec<_>>(),
        },
    )
}

/// The results of one phase for several readers, in their order. Readers who see the same
/// press in the same time zone get the same text, so each distinct mail is rendered once: at a
/// deadline most players get the same mail.
pub fn results_for(
    v: &ResultsView,
    readers: &[(Reader<'_>, &str)],
) -> Vec<Result<Rendered, RenderError>> {
    let mut done: std::collections::HashMap<(&str, Vec<bool>), Result<Rendered, RenderError>> =
        std::collections::HashMap::new();
    readers
        .iter()
        .map(|&(reader, tz)| {
            let sees: Vec<bool> = v
                .white_press
                .iter()
                .map(|p| press_visible(reader, &p.to, Some(&p.author)))
                .chain(
                    v.grey_press
                        .iter()
                        .map(|p| press_visible(reader, &p.to, None)),
                )
                .collect();
            done.entry((tz, sees))
                .or_insert_with(|| results(v, reader, tz))
                .clone()
        })
        .collect()
}

#[derive(Serialize)]
struct DigestRow<'a> {
    p: &'a DigestPower,
    last: Option<String>,
}

/// The GM's digest at a deadline.
pub fn digest(v: &DigestView) -> Result<Rendered, RenderError> {
    let zone = Zone::new(&v.tz);
    let deadline = time_ctx(v.deadline, &zone)?;
    let generated = time_ctx(v.generated_at, &zone)?;
    let mut rows = Vec::new();
    for p in &v.powers {
        let last = match p.last_submission {
            Some(t) => Some(time_ctx(t, &zone)?.short),
            None => None,
        };
        rows.push(DigestRow { p, last });
    }
    let n_in = v.powers.iter().filter(|p| p.orders_in).count();
    let n_final = v
        .powers
        .iter()
        .filter(|p| p.orders_in && p.is_final)
        .count();
    let missing: Vec<String> = v
        .powers
        .iter()
        .filter(|p| !p.orders_in)
        .map(|p| p.power.clone())
        .collect();
    render(
        "common/digest.txt",
        context! {
            v => Serde(v),
            deadline => Serde(&deadline),
            generated => Serde(&generated),
            tz_note => zone.note.clone(),
            phase_title => phase_title(&v.phase, v.monsoon),
            rows => Serde(&rows),
            n_in => n_in,
            n_final => n_final,
            missing => missing,
            left => duration_text(v.deadline - v.generated_at),
            passed => v.generated_at >= v.deadline,
        },
    )
}

/// To a player whose orders are not in yet.
pub fn reminder(v: &ReminderView) -> Result<Rendered, RenderError> {
    let zone = Zone::new(&v.tz);
    let deadline = time_ctx(v.deadline, &zone)?;
    render(
        "diplomacy/reminder.txt",
        context! {
            v => Serde(v),
            deadline => Serde(&deadline),
            tz_note => zone.note.clone(),
            phase_title => phase_title(&v.phase, v.monsoon),
            left => duration_text(v.deadline - v.sent_at),
            passed => v.sent_at >= v.deadline,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_titles() {
        assert_eq!(phase_title("S1901M", false), "Spring 1901 movement");
        assert_eq!(phase_title("F1902R", false), "Fall 1902 retreats");
        assert_eq!(phase_title("W1901A", false), "Winter 1901 adjustments");
        assert_eq!(phase_title("nonsense", false), "nonsense");
        // Maharajiad B.I(5).
        assert_eq!(phase_title("W1501A", true), "Monsoon 1501 adjustments");
        assert_eq!(no_order_text("F1901R"), "disbanded (no order)");
        assert_eq!(no_order_text("S1901M"), "holds (no order)");
    }
}
