//! The bodies of notices, alerts and answers of several lines that the engine and the kinds of
//! game send: one template each, `templates/common/` for what every kind sends and
//! `templates/<kind>/` for one kind's own. The caller passes the values, already formatted
//! where they need formatting; each body is the template's text exactly (no tidying), so what
//! was sent before the templates is what is sent now, byte for byte.

use crate::outgoing::render::{RenderError, render_text};
use serde::Serialize;

/// The notice templates, embedded (added to the one template environment of [`super::render`]).
pub(crate) const TEMPLATES: &[(&str, &str)] = &[
    (
        "common/message-set-aside.txt",
        include_str!("../../templates/common/message-set-aside.txt"),
    ),
    (
        "common/team-nmr.txt",
        include_str!("../../templates/common/team-nmr.txt"),
    ),
    (
        "common/extension-request.txt",
        include_str!("../../templates/common/extension-request.txt"),
    ),
    (
        "common/command-mail-refused.txt",
        include_str!("../../templates/common/command-mail-refused.txt"),
    ),
    (
        "common/tick-failed.txt",
        include_str!("../../templates/common/tick-failed.txt"),
    ),
    (
        "diplomacy/replace-nmr.txt",
        include_str!("../../templates/diplomacy/replace-nmr.txt"),
    ),
    (
        "common/weekly-blocked.txt",
        include_str!("../../templates/common/weekly-blocked.txt"),
    ),
    (
        "common/answer-limit.txt",
        include_str!("../../templates/common/answer-limit.txt"),
    ),
    (
        "diplomacy/preview-heading.txt",
        include_str!("../../templates/diplomacy/preview-heading.txt"),
    ),
    (
        "diplomacy/preview-heading-held.txt",
        include_str!("../../templates/diplomacy/preview-heading-held.txt"),
    ),
    (
        "common/hourly-alert.txt",
        include_str!("../../templates/common/hourly-alert.txt"),
    ),
    (
        "diplomacy/board-corrected.txt",
        include_str!("../../templates/diplomacy/board-corrected.txt"),
    ),
    (
        "diplomacy/game-ended.txt",
        include_str!("../../templates/diplomacy/game-ended.txt"),
    ),
    (
        "common/holiday-declared.txt",
        include_str!("../../templates/common/holiday-declared.txt"),
    ),
    (
        "common/game-paused.txt",
        include_str!("../../templates/common/game-paused.txt"),
    ),
    (
        "common/rolled-back.txt",
        include_str!("../../templates/common/rolled-back.txt"),
    ),
    (
        "common/extension-refused.txt",
        include_str!("../../templates/common/extension-refused.txt"),
    ),
    (
        "diplomacy/draw-declared.txt",
        include_str!("../../templates/diplomacy/draw-declared.txt"),
    ),
    (
        "diplomacy/proposal-refused.txt",
        include_str!("../../templates/diplomacy/proposal-refused.txt"),
    ),
];

/// A message that could not be handled and was set aside (poisoned), for the masters.
#[derive(Serialize)]
pub struct MessageSetAside<'a> {
    pub mailbox: &'a str,
    pub uv: u32,
    pub uid: u32,
    pub mid: &'a str,
    pub from: &'a str,
    pub subject: &'a str,
    pub sha: &'a str,
    pub error: &'a str,
}

pub fn message_set_aside(v: &MessageSetAside<'_>) -> Result<String, RenderError> {
    render_text("common/message-set-aside.txt", v)
}

/// A tournament player's NMR, for the team-mates (WM B.8(a), (c), (d)).
#[derive(Serialize)]
pub struct TeamNmr<'a> {
    pub tid: &'a str,
    pub game: &'a str,
    pub power: &'a str,
    /// The player's address.
    pub who: &'a str,
    pub phase: &'a str,
    pub captain: &'a str,
    /// The directors' addresses, comma-separated.
    pub directors: &'a str,
    /// Round one: the captain is the default replacement (WM B.8(c)).
    pub first_round: bool,
}

pub fn team_nmr(v: &TeamNmr<'_>) -> Result<String, RenderError> {
    render_text("common/team-nmr.txt", v)
}

/// A request for an extension beyond the guaranteed one, for the masters (WM D.VII(5)).
#[derive(Serialize)]
pub struct ExtensionRequest<'a> {
    pub power: &'a str,
    pub days: u32,
    pub phase: &'a str,
    pub game: &'a str,
}

pub fn extension_request(v: &ExtensionRequest<'_>) -> Result<String, RenderError> {
    render_text("common/extension-request.txt", v)
}

/// A refused command mail, for the masters.
#[derive(Serialize)]
pub struct CommandMailRefused<'a> {
    /// "game" or "tournament".
    pub noun: &'a str,
    pub id: &'a str,
    pub from: &'a str,
    pub subject: &'a str,
    pub mid: &'a str,
    pub why: &'a str,
}

pub fn command_mail_refused(v: &CommandMailRefused<'_>) -> Result<String, RenderError> {
    render_text("common/command-mail-refused.txt", v)
}

/// A game's tick failed, for the masters.
#[derive(Serialize)]
pub struct TickFailed<'a> {
    pub game: &'a str,
    pub phase: &'a str,
    pub error: &'a str,
}

pub fn tick_failed(v: &TickFailed<'_>) -> Result<String, RenderError> {
    render_text("common/tick-failed.txt", v)
}

/// A power to replace, who NMRed and made no contact, for the masters (WM D.VII(6)(a), B.8).
#[derive(Serialize)]
pub struct ReplaceNmr<'a> {
    pub game: &'a str,
    pub power: &'a str,
    pub phase: &'a str,
    pub hours: i64,
    pub published: &'a str,
    pub due: &'a str,
}

pub fn replace_nmr(v: &ReplaceNmr<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/replace-nmr.txt", v)
}

/// The players' unavailable periods cover a whole week, for the masters (WM D.VII(2)).
#[derive(Serialize)]
pub struct WeeklyBlocked<'a> {
    pub game: &'a str,
    pub power: &'a str,
}

pub fn weekly_blocked(v: &WeeklyBlocked<'_>) -> Result<String, RenderError> {
    render_text("common/weekly-blocked.txt", v)
}

/// A game's answers held back for the rest of the hour, for the masters.
#[derive(Serialize)]
pub struct AnswerLimit<'a> {
    pub limit: i64,
    pub game: &'a str,
}

pub fn answer_limit(v: &AnswerLimit<'_>) -> Result<String, RenderError> {
    render_text("common/answer-limit.txt", v)
}

/// The first paragraph of a preview (no newline at its end).
#[derive(Serialize)]
pub struct PreviewHeading<'a> {
    pub phase: &'a str,
}

pub fn preview_heading(v: &PreviewHeading<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/preview-heading.txt", v)
}

/// The first paragraph of a preview whose results the tick would hold for an NMR (WM D.VII(6)(b)); no newline at its end.
#[derive(Serialize)]
pub struct PreviewHeadingHeld<'a> {
    pub phase: &'a str,
    pub missing: &'a str,
}

pub fn preview_heading_held(v: &PreviewHeadingHeld<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/preview-heading-held.txt", v)
}

/// An alert sent at most once an hour: its body, and how many of its kind the hour before
/// held back.
#[derive(Serialize)]
pub struct HourlyAlert<'a> {
    pub body: &'a str,
    pub before: i64,
}

pub fn hourly_alert(v: &HourlyAlert<'_>) -> Result<String, RenderError> {
    render_text("common/hourly-alert.txt", v)
}

/// The GM corrected the board of a phase, for everyone (no newline at its end).
#[derive(Serialize)]
pub struct BoardCorrected<'a> {
    pub phase: &'a str,
    pub told: &'a str,
}

pub fn board_corrected(v: &BoardCorrected<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/board-corrected.txt", v)
}

/// The end of a game: the final supply centre counts (one line a power, already aligned) and
/// their history (no newline at its end).
#[derive(Serialize)]
pub struct GameEnded<'a> {
    pub counts: &'a [String],
    pub history: &'a str,
}

pub fn game_ended(v: &GameEnded<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/game-ended.txt", v)
}

/// A holiday declared eligible for an extension charged to nobody, for everyone (WM D.VII(5)); one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct HolidayDeclared<'a> {
    pub name: &'a str,
    pub from: &'a str,
    pub to: &'a str,
}

pub fn holiday_declared(v: &HolidayDeclared<'_>) -> Result<String, RenderError> {
    render_text("common/holiday-declared.txt", v)
}

/// The GM paused the game, for everyone; one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct GamePaused<'a> {
    pub phase: &'a str,
    pub left: &'a str,
}

pub fn game_paused(v: &GamePaused<'_>) -> Result<String, RenderError> {
    render_text("common/game-paused.txt", v)
}

/// The game rolled back to a phase, for everyone (WM D.VIII(1)); one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct RolledBack<'a> {
    pub phase: &'a str,
}

pub fn rolled_back(v: &RolledBack<'_>) -> Result<String, RenderError> {
    render_text("common/rolled-back.txt", v)
}

/// A request for an extension refused, for its player (WM D.VII(5)); one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct ExtensionRefused<'a> {
    pub days: u32,
    pub phase: &'a str,
}

pub fn extension_refused(v: &ExtensionRefused<'_>) -> Result<String, RenderError> {
    render_text("common/extension-refused.txt", v)
}

/// The GM declares a draw with two days' notice, for everyone (Agora BT9); one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct DrawDeclared<'a> {
    pub years: u16,
    pub at: &'a str,
}

pub fn draw_declared(v: &DrawDeclared<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/draw-declared.txt", v)
}

/// A proposal refused as repetitive, for everyone (Maharajiad X(2)); one paragraph, no newline at its end.
#[derive(Serialize)]
pub struct ProposalRefused<'a> {
    pub proposal: &'a str,
}

pub fn proposal_refused(v: &ProposalRefused<'_>) -> Result<String, RenderError> {
    render_text("diplomacy/proposal-refused.txt", v)
}
