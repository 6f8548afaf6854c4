//! Reading a message: raw RFC 5322 bytes, as received, to clean text and the headers that matter.
//!
//! MIME, transfer encodings, charsets and HTML are mail-parser's job. Here we choose the text,
//! drop what the player did not write for this message (quoted mail, forwarded mail, signatures,
//! "Sent from my phone"), name the attachments, and recognise automatic mail that must never be
//! answered (RFC 3834).

use mail_parser::{Address, HeaderValue, MessageParser, MimeHeaders};
use std::fmt;

/// Mail larger than this is refused with an explanation (issue: "a 5 MB body gets a clear error").
pub const MAX_MESSAGE_BYTES: usize = 5 * 1024 * 1024;

/// Why a message could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MessageError {
    TooLarge { bytes: usize, limit: usize },
    Unparseable,
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::TooLarge { bytes, limit } => write!(
                f,
                "the message is too large to read ({:.1} MB; the limit is {} MB): send the orders as plain text without attachments",
                *bytes as f64 / 1_048_576.0,
                limit / 1_048_576
            ),
            MessageError::Unparseable => write!(f, "the message could not be read as e-mail"),
        }
    }
}

impl std::error::Error for MessageError {}

/// Mail that is automatic and must not be answered (RFC 3834).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutoKind {
    AutoReplied,
    Bounce,
    List,
}

impl AutoKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AutoKind::AutoReplied => "auto-replied",
            AutoKind::Bounce => "bounce",
            AutoKind::List => "list",
        }
    }
}

/// A line of the body that was kept, with its number in the decoded text (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyLine {
    pub number: usize,
    pub text: String,
}

/// A message, read.
#[derive(Debug, Clone, Default)]
pub struct ReadMessage {
    pub message_id: Option<String>,
    pub in_reply_to: Option<String>,
    pub from_address: Option<String>,
    pub from_name: Option<String>,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub subject: String,
    /// `Date:` as written, if any.
    pub date: Option<String>,
    pub auto: Option<AutoKind>,
    /// `Authentication-Results` header values, as received.
    pub authentication_results: Vec<String>,
    /// The lines the player wrote for this message.
    pub lines: Vec<BodyLine>,
    /// How many lines were dropped as quoted or forwarded mail, or signature.
    pub dropped_lines: usize,
    /// Names of attachments (never read).
    pub attachments: Vec<String>,
    /// The body came from HTML.
    pub from_html: bool,
}

fn addresses(a: Option<&Address>) -> Vec<String> {
    a.map(|a| {
        a.iter()
            .filter_map(|x| x.address().map(|s| s.to_ascii_lowercase()))
            .collect()
    })
    .unwrap_or_default()
}

fn header_text(v: &HeaderValue) -> Option<String> {
    match v {
        HeaderValue::Text(t) => Some(t.to_string()),
        HeaderValue::TextList(l) => Some(l.join(", ")),
        HeaderValue::Address(a) => a.first().and_then(|x| x.address()).map(str::to_string),
        HeaderValue::ContentType(c) => Some(match c.subtype() {
            Some(s) => format!("{}/{}", c.ctype(), s),
            None => c.ctype().to_string(),
        }),
        _ => None,
    }
}

/// Read a raw message. Never panics on its input.
pub fn read_message(raw: &[u8]) -> Result<ReadMessage, MessageError> {
    if raw.len() > MAX_MESSAGE_BYTES {
        return Err(MessageError::TooLarge {
            bytes: raw.len(),
            limit: MAX_MESSAGE_BYTES,
        });
    }
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or(MessageError::Unparseable)?;
    let mut out = ReadMessage {
        message_id: msg.message_id().map(str::to_string),
        in_reply_to: msg.in_reply_to().as_text().map(str::to_string),
        subject: msg.subject().unwrap_or("").trim().to_string(),
        date: msg.header_raw("Date").map(|s| s.trim().to_string()),
        to: addresses(msg.to()),
        cc: addresses(msg.cc()),
        ..ReadMessage::default()
    };
    if let Some(first) = msg.from().and_then(|a| a.first()) {
        out.from_address = first.address().map(|s| s.to_ascii_lowercase());
        out.from_name = first.name().map(str::to_string);
    }
    for h in msg.headers() {
        if h.name().eq_ignore_ascii_case("Authentication-Results")
            && let Some(t) = header_text(h.value())
        {
            out.authentication_results.push(t);
        }
    }
    out.auto = detect_auto(&msg);

    let text_part = msg.text_body.first().copied();
    let html_only = text_part.is_none() && !msg.html_body.is_empty();
    let body = msg.body_text(0).map(|c| c.into_owned()).unwrap_or_default();
    out.from_html = html_only
        || text_part
            .and_then(|i| msg.part(i))
            .is_some_and(|p| p.is_text_html());
    for (i, part) in msg.attachments().enumerate() {
        let name = part
            .attachment_name()
            .map(str::to_string)
            .or_else(|| {
                part.content_type().map(|c| match c.subtype() {
                    Some(s) => format!("{}/{}", c.ctype(), s),
                    None => c.ctype().to_string(),
                })
            })
            .unwrap_or_else(|| format!("attachment {}", i + 1));
        out.attachments.push(name);
    }
    let (lines, dropped) = clean_body(&body);
    out.lines = lines;
    out.dropped_lines = dropped;
    Ok(out)
}

fn detect_auto(msg: &mail_parser::Message) -> Option<AutoKind> {
    let raw = |name: &str| msg.header_raw(name).map(|s| s.trim().to_ascii_lowercase());
    if let Some(v) = raw("Auto-Submitted")
        && v != "no"
    {
        return Some(AutoKind::AutoReplied);
    }
    if let Some(ct) = msg.content_type()
        && ct.ctype().eq_ignore_ascii_case("multipart")
        && ct
            .subtype()
            .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    {
        return Some(AutoKind::Bounce);
    }
    if raw("Return-Path").is_some_and(|r| r == "<>") {
        return Some(AutoKind::Bounce);
    }
    let from = msg
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_ascii_lowercase();
    let local = from.split('@').next().unwrap_or("");
    if matches!(local, "mailer-daemon" | "postmaster") {
        return Some(AutoKind::Bounce);
    }
    if ["List-Id", "List-Unsubscribe", "List-Post"]
        .iter()
        .any(|h| msg.header_raw(*h).is_some())
        || raw("Precedence").is_some_and(|p| matches!(p.as_str(), "bulk" | "junk" | "list"))
    {
        return Some(AutoKind::List);
    }
    if ["X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress"]
        .iter()
        .any(|h| msg.header_raw(*h).is_some())
        || local.starts_with("noreply")
        || local.starts_with("no-reply")
        || local.starts_with("donotreply")
    {
        return Some(AutoKind::AutoReplied);
    }
    None
}

fn is_reply_header(line: &str) -> bool {
    let t = line.trim();
    let l = t.to_lowercase();
    (l.starts_with("on ") && (l.ends_with("wrote:") || l.ends_with("wrote :")))
        || (l.starts_with("le ") && l.ends_with("a écrit :"))
        || (l.starts_with("le ") && l.ends_with("a écrit:"))
        || (l.starts_with("am ") && l.ends_with("schrieb:"))
        || (l.starts_with("el ") && l.ends_with("escribió:"))
        || (l.starts_with("il ") && l.ends_with("ha scritto:"))
}

/// Where the player's own text ends: quoted or forwarded mail, or a signature.
fn is_cut(line: &str, next: Option<&str>) -> bool {
    let t = line.trim();
    let l = t.to_lowercase();
    if line.trim_end_matches(['\r']) == "-- " || t == "--" {
        return true;
    }
    if is_reply_header(t) {
        return true;
    }
    // "On Sat, 22 Nov 2026 at 10:14, GM <gm@example.test>" wrapped before "wrote:".
    if l.starts_with("on ")
        && next.is_some_and(|n| {
            let n = n.trim().to_lowercase();
            n == "wrote:" || n.ends_with(" wrote:")
        })
    {
        return true;
    }
    let dashes = |s: &str| {
        s.trim_matches(|c| c == '-' || c == ' ' || c == '_')
            .to_lowercase()
    };
    if t.starts_with("---") || t.starts_with("___") {
        let inner = dashes(t);
        if inner.contains("original message")
            || inner.contains("forwarded message")
            || inner.contains("message d'origine")
            || inner.contains("ursprüngliche nachricht")
        {
            return true;
        }
        // Outlook's rule line above a "From:" header block.
        if inner.is_empty()
            && t.len() >= 10
            && next.is_some_and(|n| n.trim().to_lowercase().starts_with("from:"))
        {
            return true;
        }
    }
    if l == "begin forwarded message:" {
        return true;
    }
    // Outlook's header block without a rule: "From: … " followed by "Sent: …" or "Date: …".
    if l.starts_with("from:")
        && next.is_some_and(|n| {
            let n = n.trim().to_lowercase();
            n.starts_with("sent:") || n.starts_with("date:")
        })
    {
        return true;
    }
    l.starts_with("sent from my ")
        || l.starts_with("sent from outlook")
        || l.starts_with("get outlook for ")
        || l.starts_with("sent from samsung")
        || l.starts_with("sent from yahoo mail")
        || l.starts_with("sent with proton mail")
        || l.starts_with("envoyé de mon ")
        || l.starts_with("von meinem ")
}

/// Keep the lines the player wrote; count the rest.
fn clean_body(body: &str) -> (Vec<BodyLine>, usize) {
    let all: Vec<&str> = body.lines().collect();
    let mut kept = Vec::new();
    let mut dropped = 0;
    for (i, line) in all.iter().enumerate() {
        let next = all[i + 1..].iter().find(|l| !l.trim().is_empty()).copied();
        if is_cut(line, next) {
            dropped += all.len() - i;
            break;
        }
        if line.trim_start().starts_with('>') {
            dropped += 1;
            continue;
        }
        kept.push(BodyLine {
            number: i + 1,
            text: line
                .trim_end_matches(['\r', ' ', '\t', '\u{a0}'])
                .to_string(),
        });
    }
    (kept, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(raw: &str) -> Vec<String> {
        read_message(raw.as_bytes())
            .expect("readable")
            .lines
            .into_iter()
            .map(|l| l.text)
            .filter(|t| !t.trim().is_empty())
            .collect()
    }

    #[test]
    fn quoted_mail_and_signatures_are_dropped() {
        let raw = "From: a@x.test\r\nSubject: s\r\n\r\nA Par - Bur\r\n> F Bre - Mao\r\nOn Sat, 22 Nov 2026 at 10:14, GM <gm@example.test> wrote:\r\n> A Mar H\r\n";
        assert_eq!(texts(raw), vec!["A Par - Bur"]);
        let raw = "From: a@x.test\n\nA Par - Bur\n-- \nA Mar - Spa\n";
        assert_eq!(texts(raw), vec!["A Par - Bur"]);
        let raw =
            "From: a@x.test\n\nA Par - Bur\n\n-----Original Message-----\nFrom: GM\nA Mar - Spa\n";
        assert_eq!(texts(raw), vec!["A Par - Bur"]);
        let raw = "From: a@x.test\n\nA Par - Bur\nSent from my iPhone\n";
        assert_eq!(texts(raw), vec!["A Par - Bur"]);
        let raw = "From: a@x.test\n\nA Par - Bur\nOn Sat, 22 Nov 2026 at 10:14, GM <gm@example.test>\nwrote:\n> x\n";
        assert_eq!(texts(raw), vec!["A Par - Bur"]);
    }

    #[test]
    fn line_numbers_follow_the_decoded_body() {
        let m = read_message(b"From: a@x.test\n\nhello\n\nA Par - Bur\n").expect("ok");
        assert_eq!(m.lines[2].number, 3);
        assert_eq!(m.lines[2].text, "A Par - Bur");
    }

    #[test]
    fn automatic_mail_is_recognised() {
        let auto = |raw: &str| read_message(raw.as_bytes()).expect("ok").auto;
        assert_eq!(
            auto("Auto-Submitted: auto-replied\nFrom: a@x.test\n\nx"),
            Some(AutoKind::AutoReplied)
        );
        assert_eq!(auto("Auto-Submitted: no\nFrom: a@x.test\n\nx"), None);
        assert_eq!(
            auto("From: MAILER-DAEMON@x.test\n\nx"),
            Some(AutoKind::Bounce)
        );
        assert_eq!(
            auto("List-Id: <dip.x.test>\nFrom: a@x.test\n\nx"),
            Some(AutoKind::List)
        );
        assert_eq!(
            auto("Precedence: bulk\nFrom: a@x.test\n\nx"),
            Some(AutoKind::List)
        );
        assert_eq!(auto("From: a@x.test\n\nx"), None);
    }

    #[test]
    fn oversized_mail_is_refused_with_a_reason() {
        let big = vec![b'a'; MAX_MESSAGE_BYTES + 1];
        let e = read_message(&big).expect_err("too large");
        assert!(e.to_string().contains("too large"));
    }
}
