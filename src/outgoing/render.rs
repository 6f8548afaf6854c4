//! What every mail shares, rendered from the minijinja templates in `templates/` (embedded in
//! the binary) as pure functions from a view to a subject and a body: the template engine (its
//! syntax and filters, `Templates`), and the mails every kind of game sends (receipts,
//! rejections, query and command replies, announcements). A kind's own mails are rendered in its
//! folder (`src/outgoing/<kind>/render.rs`) through the same engine, in an environment of its
//! own (the common templates and its own).
//!
//! The views are plain data filled by the engine. Times are unix seconds ([`Ts`]), formatted by
//! [`crate::outgoing::time`]: GMT is canonical, and a reader's own time zone is added in
//! brackets. Nothing here panics: a time out of range or a template error is a [`RenderError`].
//!
//! Each template of a whole mail renders all of it: a first line `Subject: …`, a blank line, the
//! body.

use crate::outgoing::time::{TimeCtx, Zone, time_ctx};
use crate::time::Ts;
use minijinja::syntax::SyntaxConfig;
use minijinja::value::Serde;
use minijinja::{Environment, UndefinedBehavior, Value, context};
use serde::Serialize;
use std::fmt;
use std::sync::OnceLock;

/// A rendered mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// One line, whitespace collapsed (safe to put in a header).
    pub subject: String,
    /// Plain text, `\n` line ends, ending with one newline.
    pub body: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// A time outside the range chrono can format.
    Time(Ts),
    /// A template failed to load or render: a bug in a template, or a view the template did not
    /// expect.
    Template(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Time(t) => write!(f, "time {t} is out of range"),
            RenderError::Template(e) => write!(f, "template error: {e}"),
        }
    }
}

impl std::error::Error for RenderError {}

impl From<minijinja::Error> for RenderError {
    fn from(e: minijinja::Error) -> RenderError {
        let mut msg = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            msg.push_str(": ");
            msg.push_str(&s.to_string());
            source = s.source();
        }
        RenderError::Template(msg)
    }
}

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------
/// The confirmation mailbox's automatic receipt (WM D.VII(7), Maharajiad B.VIII(7)).
#[derive(Serialize, Clone, Debug, Default)]
pub struct ReceiptView {
    /// The confirmation mailbox's own address.
    pub mailbox: String,
    /// The game the subject names, if any.
    pub game: Option<String>,
    pub received_at: Ts,
    pub message_id: Option<String>,
    pub from: String,
    pub subject: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    /// The GM's address for the game ("" when the game is not known).
    pub gm_address: String,
    /// The GM's address is where the game's policy needs it.
    pub gm_addressed: bool,
    /// The policy needs the GM in "To" (Maharajiad B.III(2), B.VIII(7)); otherwise "To" or "CC"
    /// (WM D.II(2), D.VII(7)).
    pub gm_in_to_only: bool,
    /// The canonical orders understood in the message, in order.
    pub orders: Vec<String>,
    /// SHA-256 of the raw message, lower-case hex.
    pub sha256: String,
    /// Size of the raw message in bytes.
    pub size: u64,
}

/// Why a mail changed nothing.
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RejectReason {
    /// The GM's address is not in To/CC as the game needs (`game::check_addressing`).
    Address {
        detail: String,
    },
    /// The subject does not match; `expected` is the subject to use (`game::check_subject`).
    Subject {
        expected: String,
        detail: String,
    },
    /// The sender is not a registered player.
    UnknownSender {
        detail: String,
    },
    /// The sender could not be authenticated (`game::authenticate`).
    Unauthenticated {
        detail: String,
    },
    /// Orders after the deadline, refused (WM D.VII(3), Maharajiad B.VIII(3) Alternative).
    Late {
        deadline: Ts,
    },
    /// The message could not be read.
    Unreadable {
        detail: String,
    },
    /// The message is larger than the limit.
    Oversized {
        size: u64,
        limit: u64,
    },
    Other {
        detail: String,
    },
}

/// A mail that changes nothing.
#[derive(Serialize, Clone, Debug, Default)]
pub struct RejectionView {
    pub game: Option<String>,
    pub power: Option<String>,
    pub from: String,
    pub subject: String,
    pub message_id: Option<String>,
    pub received_at: Ts,
    pub reasons: Vec<RejectReason>,
    /// The current deadline, to resend before.
    pub deadline: Option<Ts>,
    /// The player's time zone, if the sender is a known player.
    pub tz: String,
}

/// The answer to a player's or observer's query (STATUS, HISTORY, SUMMARY).
#[derive(Serialize, Clone, Debug, Default)]
pub struct QueryReplyView {
    pub game: String,
    /// `STATUS`, `HISTORY S1901M`, `SUMMARY`.
    pub what: String,
    /// Preformatted text.
    pub body: String,
}

/// One command of a master's command mail, and its answer.
#[derive(Serialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandReplyLine {
    pub text: String,
    pub ok: bool,
    pub answer: String,
}

/// To a master: what each line of a command mail did.
#[derive(Serialize, Clone, Debug, Default)]
pub struct CommandReplyView {
    pub game: String,
    pub lines: Vec<CommandReplyLine>,
    pub done: i64,
    pub refused: i64,
}

/// To every player (and observer): a master changed something about the game.
#[derive(Serialize, Clone, Debug, Default)]
pub struct AnnouncementView {
    pub game: String,
    /// One line, for the subject.
    pub headline: String,
    pub text: String,
    /// A master's own words, quoted as written (a broadcast); empty if none.
    pub message: String,
    /// The deadline now, shown in GMT and the reader's zone.
    pub deadline: Option<Ts>,
    pub tz: String,
}

// ---------------------------------------------------------------------------------------------
// Small text helpers and filters
// ---------------------------------------------------------------------------------------------

/// Whitespace and control characters collapsed to single spaces.
pub(crate) fn one_line(s: &str) -> String {
    s.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Greedy word wrap at `width` columns, breaking at spaces only; continuation lines start with
/// `indent`. Runs of spaces inside a line are kept (aligned labels); line breaks in the text
/// become spaces; words longer than a line are not broken.
pub fn wrap_text(s: &str, width: usize, indent: &str) -> String {
    let flat = s.replace("\r\n", " ").replace(['\n', '\r', '\t'], " ");
    // Leading spaces stay on the first line, before its first word, however long that is.
    let text = flat.trim_start();
    let lead = &flat[..flat.len() - text.len()];
    let options = textwrap::Options::new(width)
        .initial_indent(lead)
        .subsequent_indent(indent)
        .break_words(false)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit);
    textwrap::fill(text.trim_end(), options)
}

fn wrap_filter(s: String, width: Option<usize>, indent: Option<String>) -> String {
    wrap_text(&s, width.unwrap_or(76), &indent.unwrap_or_default())
}

/// Every line of a block prefixed (press bodies: `  | `), trailing blank lines dropped, so that
/// nothing in a player's text can start a line of its own (a forged `::` line or heading).
fn quote_filter(s: String, prefix: Option<String>) -> String {
    let prefix = prefix.unwrap_or_else(|| "  | ".to_string());
    let lines: Vec<&str> = s.trim_end().lines().collect();
    lines
        .iter()
        .map(|l| format!("{prefix}{}", l.trim_end()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A time after a label: `Deadline: <full>` when it fits in 76 columns, else the GMT time on
/// the label's line and the local time in brackets under it.
fn at_filter(t: Value, label: String) -> Result<String, minijinja::Error> {
    let get = |k: &str| -> Result<Option<String>, minijinja::Error> {
        let v = t.get_attr(k)?;
        Ok((!v.is_none() && !v.is_undefined()).then(|| v.to_string()))
    };
    let full = get("full")?.unwrap_or_default();
    let width = label.chars().count();
    if width + full.chars().count() <= 76 {
        return Ok(format!("{label}{full}"));
    }
    let indent = " ".repeat(width);
    Ok(match (get("gmt")?, get("local")?) {
        (Some(gmt), Some(local)) => format!("{label}{gmt}\n{indent}({local})"),
        _ => wrap_text(&format!("{label}{full}"), 76, &indent),
    })
}

fn pad_filter(s: String, width: usize) -> String {
    let n = s.chars().count();
    if n >= width {
        s
    } else {
        format!("{s}{}", " ".repeat(width - n))
    }
}

fn oneline_filter(s: String) -> String {
    one_line(&s)
}

fn plural_filter(n: i64, word: String) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

/// The whole mails every kind of game sends (`templates/common/`), embedded. A kind's own are
/// listed in its folder (`src/outgoing/<kind>/`).
const TEMPLATES: TemplateList = &[
    (
        "common/query-reply.txt",
        include_str!("../../templates/common/query-reply.txt"),
    ),
    (
        "common/td-reply.txt",
        include_str!("../../templates/common/td-reply.txt"),
    ),
    (
        "common/command-reply.txt",
        include_str!("../../templates/common/command-reply.txt"),
    ),
    (
        "common/announcement.txt",
        include_str!("../../templates/common/announcement.txt"),
    ),
    (
        "common/receipt.txt",
        include_str!("../../templates/common/receipt.txt"),
    ),
    (
        "common/acknowledgement.txt",
        include_str!("../../templates/common/acknowledgement.txt"),
    ),
    (
        "common/rejection.txt",
        include_str!("../../templates/common/rejection.txt"),
    ),
    (
        "common/impersonation.txt",
        include_str!("../../templates/common/impersonation.txt"),
    ),
    (
        "common/digest.txt",
        include_str!("../../templates/common/digest.txt"),
    ),
];

/// Embedded templates: each a name (its path under `templates/`) and its text.
pub(crate) type TemplateList = &'static [(&'static str, &'static str)];

/// What every kind of game renders: the common whole mails and the common notices. Every
/// environment has these.
const COMMON: &[TemplateList] = &[TEMPLATES, crate::outgoing::notices::TEMPLATES];

/// One environment of the template engine: the syntax and filters every mail uses, the common
/// templates and a kind's own (`own`). Built once, on first use; a template that does not build
/// fails every mail that uses it, each with why. The shared layer renders through `SHARED`
/// (the common templates alone); each kind of game through its own, declared in its folder, so
/// that nothing shared lists a kind's templates.
pub(crate) struct Templates {
    own: &'static [TemplateList],
    env: OnceLock<Result<Environment<'static>, RenderError>>,
}

impl Templates {
    pub(crate) const fn new(own: &'static [TemplateList]) -> Templates {
        Templates {
            own,
            env: OnceLock::new(),
        }
    }

    /// Every template of the environment builds (a test of each environment).
    #[cfg(test)]
    pub(crate) fn check(&self) -> Result<(), RenderError> {
        self.env().map(|_| ())
    }

    fn env(&self) -> Result<&Environment<'static>, RenderError> {
        self.env
            .get_or_init(|| build_env(self.own))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// A whole mail rendered from `name`: its `Subject:` line and its tidied body.
    pub(crate) fn render(&self, name: &str, ctx: Value) -> Result<Rendered, RenderError> {
        let out = self.env()?.get_template(name)?.render(ctx)?;
        split_mail(name, &out)
    }

    /// A body of plain text rendered from `name` as it stands, with the fields of `v` as its
    /// variables: no `Subject:` line and no tidying, so the text is exactly the template's.
    pub(crate) fn render_text<T: Serialize>(
        &self,
        name: &str,
        v: &T,
    ) -> Result<String, RenderError> {
        Ok(self
            .env()?
            .get_template(name)?
            .render(Value::from(Serde(v)))?)
    }
}

/// The common templates alone: what the shared layer renders.
static SHARED: Templates = Templates::new(&[]);

fn build_env(own: &[TemplateList]) -> Result<Environment<'static>, RenderError> {
    let mut env = Environment::new();
    let syntax = SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .keep_trailing_newline(true)
        .build()?;
    env.set_syntax(syntax);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    // Plain text: never HTML-escape, whatever a template is called.
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    env.add_filter("wrap", wrap_filter);
    env.add_filter("quote", quote_filter);
    env.add_filter("pad", pad_filter);
    env.add_filter("at", at_filter);
    env.add_filter("oneline", oneline_filter);
    env.add_filter("plural", plural_filter);
    for (name, source) in COMMON.iter().chain(own).copied().flatten() {
        env.add_template(name, source)?;
    }
    Ok(env)
}

fn render(name: &str, ctx: Value) -> Result<Rendered, RenderError> {
    SHARED.render(name, ctx)
}

/// A body of plain text from one of the shared templates (see `Templates::render_text`).
pub(crate) fn render_text<T: Serialize>(name: &str, v: &T) -> Result<String, RenderError> {
    SHARED.render_text(name, v)
}

/// `Subject: …`, a blank line, the body. The body is tidied: trailing spaces cut, runs of blank
/// lines made one, one final newline.
fn split_mail(name: &str, out: &str) -> Result<Rendered, RenderError> {
    let (first, rest) = out.split_once('\n').unwrap_or((out, ""));
    let subject = first.strip_prefix("Subject:").ok_or_else(|| {
        RenderError::Template(format!("{name}: the first line is not a Subject: line"))
    })?;
    let mut body = String::new();
    let mut blank = true; // drops leading blank lines
    for line in rest.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            if !blank {
                body.push('\n');
            }
            blank = true;
        } else {
            body.push_str(line);
            body.push('\n');
            blank = false;
        }
    }
    while body.ends_with("\n\n") {
        body.pop();
    }
    Ok(Rendered {
        subject: one_line(subject),
        body,
    })
}

// ---------------------------------------------------------------------------------------------
// The mails
// ---------------------------------------------------------------------------------------------

/// The confirmation mailbox's receipt (WM D.VII(7)).
pub fn receipt(v: &ReceiptView) -> Result<Rendered, RenderError> {
    let received = time_ctx(v.received_at, &Zone::new(""))?;
    render(
        "common/receipt.txt",
        context! { v => Serde(v), received => Serde(&received) },
    )
}

/// Which reason a rejection gives: the word its template compares (`r.kind == "late"`).
#[derive(Serialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum ReasonKind {
    Address,
    Subject,
    UnknownSender,
    Unauthenticated,
    Late,
    Unreadable,
    Oversized,
    Other,
}

#[derive(Serialize)]
struct ReasonCtx {
    kind: ReasonKind,
    detail: String,
    expected: Option<String>,
    deadline: Option<TimeCtx>,
    size: u64,
    limit: u64,
}

/// A mail that changes nothing, with the reasons.
pub fn rejection(v: &RejectionView) -> Result<Rendered, RenderError> {
    let zone = Zone::new(&v.tz);
    let received = time_ctx(v.received_at, &zone)?;
    let mut reasons = Vec::new();
    for r in &v.reasons {
        let mut c = ReasonCtx {
            kind: ReasonKind::Other,
            detail: String::new(),
            expected: None,
            deadline: None,
            size: 0,
            limit: 0,
        };
        match r {
            RejectReason::Address { detail } => {
                c.kind = ReasonKind::Address;
                c.detail = detail.clone();
            }
            RejectReason::Subject { expected, detail } => {
                c.kind = ReasonKind::Subject;
                c.expected = Some(one_line(expected));
                c.detail = detail.clone();
            }
            RejectReason::UnknownSender { detail } => {
                c.kind = ReasonKind::UnknownSender;
                c.detail = detail.clone();
            }
            RejectReason::Unauthenticated { detail } => {
                c.kind = ReasonKind::Unauthenticated;
                c.detail = detail.clone();
            }
            RejectReason::Late { deadline } => {
                c.kind = ReasonKind::Late;
                c.deadline = Some(time_ctx(*deadline, &zone)?);
            }
            RejectReason::Unreadable { detail } => {
                c.kind = ReasonKind::Unreadable;
                c.detail = detail.clone();
            }
            RejectReason::Oversized { size, limit } => {
                c.kind = ReasonKind::Oversized;
                c.size = *size;
                c.limit = *limit;
            }
            RejectReason::Other { detail } => c.detail = detail.clone(),
        }
        reasons.push(c);
    }
    let deadline = v.deadline.map(|d| time_ctx(d, &zone)).transpose()?;
    render(
        "common/rejection.txt",
        context! {
            v => Serde(v),
            received => Serde(&received),
            reasons => Serde(&reasons),
            deadline => Serde(&deadline),
            tz_note => zone.note.clone(),
        },
    )
}

/// A query's answer.
pub fn query_reply(v: &QueryReplyView) -> Result<Rendered, RenderError> {
    render("common/query-reply.txt", context! { v => Serde(v) })
}

/// A master's command reply.
pub fn command_reply(v: &CommandReplyView) -> Result<Rendered, RenderError> {
    render("common/command-reply.txt", context! { v => Serde(v) })
}

/// The answer to a tournament director's command mail.
pub fn td_reply(v: &CommandReplyView) -> Result<Rendered, RenderError> {
    render("common/td-reply.txt", context! { v => Serde(v) })
}

/// An announcement to a player or observer.
pub fn announcement(v: &AnnouncementView) -> Result<Rendered, RenderError> {
    let zone = Zone::new(&v.tz);
    let deadline = v.deadline.map(|d| time_ctx(d, &zone)).transpose()?;
    render(
        "common/announcement.txt",
        context! {
            v => Serde(v),
            deadline => Serde(&deadline),
            tz_note => zone.note.clone(),
        },
    )
}
/// To the GM: a mail that claimed to be from a player and failed authentication (WM D.X(6),
/// Maharajiad B.XI(7)).
#[derive(Serialize, Clone, Debug, Default)]
pub struct ImpersonationView {
    pub game: String,
    pub phase: String,
    /// The phase in the kind's own words (`House::phase_title`), as the report names it.
    pub phase_title: String,
    /// The power the mail claimed to be from (by its subject).
    pub claimed_power: String,
    /// That power's registered address.
    pub registered_address: String,
    /// That power's player, by name (may be empty).
    pub player_name: String,
    /// The sending address belongs to this power of the game, if any.
    pub sender_power: Option<String>,
    /// Why the mail is suspect (the authentication failure).
    pub why: String,
    pub from: String,
    pub return_path: Option<String>,
    pub reply_to: Option<String>,
    pub subject: String,
    pub message_id: Option<String>,
    pub received_at: Ts,
    /// A summary of the `Received:` headers, newest first.
    pub received: Vec<String>,
    pub authentication_results: Vec<String>,
}

/// To the GM: a suspected impersonation (WM D.X(6)).
pub fn impersonation_report(v: &ImpersonationView) -> Result<Rendered, RenderError> {
    let received = time_ctx(v.received_at, &Zone::new(""))?;
    render(
        "common/impersonation.txt",
        context! {
            v => Serde(v),
            received => Serde(&received),
            phase_title => &v.phase_title,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_templates_load() {
        assert_eq!(SHARED.check(), Ok(()));
    }

    #[test]
    fn a_rejections_reason_reaches_its_template_as_the_word_it_compares() {
        // templates/common/rejection.txt compares `r.kind` with these words.
        let words = [
            (ReasonKind::Address, "address"),
            (ReasonKind::Subject, "subject"),
            (ReasonKind::UnknownSender, "unknown_sender"),
            (ReasonKind::Unauthenticated, "unauthenticated"),
            (ReasonKind::Late, "late"),
            (ReasonKind::Unreadable, "unreadable"),
            (ReasonKind::Oversized, "oversized"),
            (ReasonKind::Other, "other"),
        ];
        for (kind, word) in words {
            let shown = minijinja::Environment::new()
                .render_str("{{ k }}", context! { k => Serde(kind) })
                .expect("render");
            assert_eq!(shown, word);
        }
    }

    #[test]
    fn wrap_keeps_indent_and_width() {
        let s = wrap_text(
            "  - one two three four five six seven eight nine ten",
            20,
            "    ",
        );
        assert_eq!(
            s,
            "  - one two three\n    four five six\n    seven eight nine\n    ten"
        );
        assert!(s.lines().all(|l| l.chars().count() <= 20));
        assert_eq!(
            wrap_text("To:   a@b c@d", 10, "      "),
            "To:   a@b\n      c@d"
        );
        assert_eq!(wrap_text("one\ntwo  ", 76, ""), "one two");
        assert_eq!(wrap_text("", 76, "  "), "");
    }

    #[test]
    fn split_mail_tidies() {
        let r =
            split_mail("t", "Subject:  a \r\n\n\nb\n\n\nline  \n\n\n\nend\n\n\n").expect("mail");
        assert_eq!(r.subject, "a");
        assert_eq!(r.body, "b\n\nline\n\nend\n");
        assert!(split_mail("t", "no subject\n").is_err());
    }
}
