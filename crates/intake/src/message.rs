//! Reading a message: raw RFC 5322 bytes, as received, to clean text and the headers that matter.
//!
//! MIME, transfer encodings, charsets and HTML are mail-parser's job. Here we choose the text,
//! drop what the player did not write for this message (quoted mail, forwarded mail, signatures,
//! "Sent from my phone"), name the attachments, and recognise automatic mail that must never be
//! answered (RFC 3834).

#![deny(clippy::string_slice)]

use mail_parser::{Address, MessageParser, MimeHeaders};
use std::fmt;

/// At most this many non-blank body lines are read; a longer mail is answered "too long".
pub const MAX_BODY_LINES: usize = 2000;
/// At most this many attachment names are kept (and echoed).
pub const MAX_ATTACHMENT_NAMES: usize = 20;

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

/// Mail that is automatic and must not be answered (RFC 3834). Serialized as its word
/// (`chancery parse`'s `auto`: docs/parse.md), the same as [`AutoKind::as_str`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
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
    /// `Date:` read, in seconds since the epoch, when it can be (a replayed copy keeps the date
    /// it was written: issue 21, point 8).
    pub dated: Option<i64>,
    pub auto: Option<AutoKind>,
    /// `Authentication-Results` header values, as received.
    pub authentication_results: Vec<String>,
    /// The lines the player wrote for this message.
    pub lines: Vec<BodyLine>,
    /// How many lines were dropped as quoted or forwarded mail, or signature.
    pub dropped_lines: usize,
    /// Names of attachments (never read), at most [`MAX_ATTACHMENT_NAMES`].
    pub attachments: Vec<String>,
    /// How many attachments there were.
    pub attachments_total: usize,
    /// The body had more than [`MAX_BODY_LINES`] non-blank lines (this many): only the first
    /// ones were read, and the answer says so.
    pub too_long: Option<usize>,
    /// The body came from HTML.
    pub from_html: bool,
}

/// The sender of a message too large or broken to parse: the address in its `From:` header,
/// found by scanning the header block as text.
pub fn sender_of_raw(raw: &[u8]) -> Option<String> {
    read_head(raw).from_address
}

/// What is known of a message from its header block alone. [`read_head`] reads it from any
/// bytes, so that a mail too large or too broken to read can still be classified (automatic
/// mail is never answered) and answered with its own Subject and Message-ID.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessageHead {
    pub message_id: Option<String>,
    pub in_reply_to: Option<String>,
    pub from_address: Option<String>,
    pub subject: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub auto: Option<AutoKind>,
    /// `Authentication-Results` header values, topmost first.
    pub authentication_results: Vec<String>,
}

/// The header block is read up to this many bytes.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Read the header block of any bytes: bounded (the first [`MAX_HEAD_BYTES`]), linear, and never
/// panics. Folded lines are unfolded; encoded words and addresses are mail-parser's job, on the
/// header block alone.
/// Header fields that each delivery adds or rewrites (trace fields, RFC 5321 §4.4, and what
/// the receiving servers record): the same message delivered in two SMTP transactions differs
/// only in these.
const TRACE_FIELDS: &[&str] = &[
    "received",
    "return-path",
    "delivered-to",
    "x-original-to",
    "authentication-results",
    "received-spf",
    "arc-seal",
    "arc-message-signature",
    "arc-authentication-results",
];

/// The parts of a raw message that make its content: every byte but the header fields that
/// each delivery adds ([`TRACE_FIELDS`], with their continuation lines). One pass over the
/// header block; the body is one slice. Hashing the parts in order identifies a message across
/// redeliveries (issue 21.13).
pub fn content_parts(raw: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    let mut at = 0;
    // Whether the current field (and its continuation lines) is a trace field.
    let mut skipping = false;
    while at < raw.len() {
        let end = raw[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(raw.len(), |i| at + i + 1);
        let line = &raw[at..end];
        if line == b"\r\n" || line == b"\n" {
            // The empty line: the rest is the body.
            parts.push(&raw[at..]);
            return parts;
        }
        let continuation = line.first().is_some_and(|b| *b == b' ' || *b == b'\t');
        if !continuation {
            skipping = is_trace_field(line);
        }
        if !skipping {
            parts.push(line);
        }
        at = end;
    }
    parts
}

fn is_trace_field(line: &[u8]) -> bool {
    let Some(colon) = line.iter().position(|&b| b == b':') else {
        return false;
    };
    let name = line[..colon].trim_ascii();
    TRACE_FIELDS
        .iter()
        .any(|t| name.eq_ignore_ascii_case(t.as_bytes()))
}

pub fn read_head(raw: &[u8]) -> MessageHead {
    let head = raw.get(..raw.len().min(MAX_HEAD_BYTES)).unwrap_or(raw);
    // The header block ends at the first empty line (CRLF or LF).
    let end = head
        .windows(2)
        .position(|w| w == b"\n\n")
        .map(|i| i + 2)
        .into_iter()
        .chain(
            head.windows(4)
                .position(|w| w == b"\r\n\r\n")
                .map(|i| i + 4),
        )
        .min()
        .unwrap_or(head.len());
    let block = head.get(..end).unwrap_or(head);
    let mut with_body = block.to_vec();
    with_body.extend_from_slice(b"\r\n\r\n");
    let Some(msg) = MessageParser::default().parse_headers(&with_body[..]) else {
        return MessageHead::default();
    };
    let mut out = MessageHead {
        message_id: msg.message_id().map(str::to_string),
        in_reply_to: msg.in_reply_to().as_text().map(str::to_string),
        subject: msg.subject().unwrap_or("").trim().to_string(),
        to: addresses(msg.to()),
        cc: addresses(msg.cc()),
        authentication_results: authentication_results(&msg),
        auto: detect_auto(&msg),
        ..MessageHead::default()
    };
    out.from_address = msg
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(|s| s.to_ascii_lowercase())
        .filter(|a| a.contains('@') && !a.contains(char::is_whitespace));
    out
}

/// `Authentication-Results` values in header order: the topmost (added last, by our own
/// receiving server) first.
fn authentication_results(msg: &mail_parser::Message) -> Vec<String> {
    msg.headers()
        .iter()
        .filter(|h| h.name().eq_ignore_ascii_case("Authentication-Results"))
        .filter_map(|h| {
            let raw = msg
                .raw_message
                .get(h.offset_start() as usize..h.offset_end() as usize)?;
            let text = String::from_utf8_lossy(raw);
            // Unfold: a header value may span lines.
            Some(
                text.split(['\r', '\n'])
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })
        .collect()
}

fn addresses(a: Option<&Address>) -> Vec<String> {
    a.map(|a| {
        a.iter()
            .filter_map(|x| x.address().map(|s| s.to_ascii_lowercase()))
            .collect()
    })
    .unwrap_or_default()
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
        dated: msg
            .date()
            .filter(|d| d.is_valid())
            .map(|d| d.to_timestamp()),
        to: addresses(msg.to()),
        cc: addresses(msg.cc()),
        ..ReadMessage::default()
    };
    if let Some(first) = msg.from().and_then(|a| a.first()) {
        out.from_address = first.address().map(|s| s.to_ascii_lowercase());
        out.from_name = first.name().map(str::to_string);
    }
    out.authentication_results = authentication_results(&msg);
    out.auto = detect_auto(&msg);

    let text_part = msg.text_body.first().copied();
    let html_only = text_part.is_none() && !msg.html_body.is_empty();
    let text_is_html = text_part
        .and_then(|i| msg.part(i))
        .is_some_and(|p| p.is_text_html());
    let body = if html_only || text_is_html {
        msg.body_html(0)
            .map(|h| html_to_text(&h))
            .unwrap_or_default()
    } else {
        msg.body_text(0).map(|c| c.into_owned()).unwrap_or_default()
    };
    out.from_html = html_only || text_is_html;
    for (i, part) in msg.attachments().enumerate() {
        out.attachments_total += 1;
        if out.attachments.len() >= MAX_ATTACHMENT_NAMES {
            continue;
        }
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
    let cleaned = clean_body(&body);
    out.lines = cleaned.lines;
    out.dropped_lines = cleaned.dropped;
    out.too_long = cleaned.too_long;
    Ok(out)
}

fn detect_auto(msg: &mail_parser::Message) -> Option<AutoKind> {
    let raw = |name: &str| msg.header_raw(name).map(|s| s.trim().to_ascii_lowercase());
    let from = msg
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_ascii_lowercase();
    let local = from.split('@').next().unwrap_or("");
    // Delivery reports first: they often also say Auto-Submitted.
    if msg.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    }) || matches!(local, "mailer-daemon" | "postmaster")
    {
        return Some(AutoKind::Bounce);
    }
    if ["List-Id", "List-Unsubscribe", "List-Post"]
        .iter()
        .any(|h| msg.header_raw(*h).is_some())
        || raw("Precedence").is_some_and(|p| p == "list")
    {
        return Some(AutoKind::List);
    }
    // RFC 3834's Auto-Submitted, and the autoresponders' own markers. Not `Precedence: bulk`
    // or `X-Auto-Response-Suppress`: Outlook and mailing tools put them on mail people write,
    // and treating them as machine mail silently lost real orders.
    if raw("Auto-Submitted").is_some_and(|v| !v.starts_with("no"))
        || ["X-Autoreply", "X-Autorespond"]
            .iter()
            .any(|h| msg.header_raw(*h).is_some())
        || local.starts_with("noreply")
        || local.starts_with("no-reply")
        || local.starts_with("donotreply")
    {
        return Some(AutoKind::AutoReplied);
    }
    // A null sender with no other sign is a bounce.
    if raw("Return-Path").is_some_and(|r| r == "<>") {
        return Some(AutoKind::Bounce);
    }
    None
}

/// HTML to text, keeping the line structure a player sees: block elements and `<br>` end lines,
/// table cells are separated by spaces, and `<blockquote>` content is marked as quoted (`> `) so
/// that it is dropped like any quote.
pub fn html_to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    let mut quote_depth = 0usize;
    let mut at_line_start = true;
    let mut skip_until: Option<&'static str> = None;
    let mut rest = html;
    let newline = |out: &mut String, at_line_start: &mut bool| {
        out.push('\n');
        *at_line_start = true;
    };
    while !rest.is_empty() {
        if let Some(end) = skip_until {
            match find_ci(rest, end) {
                Some(i) => {
                    rest = tail_from(rest, i + end.len());
                    skip_until = None;
                }
                None => break,
            }
            continue;
        }
        if rest.starts_with("<!--") {
            rest = match rest.find("-->") {
                Some(i) => tail_from(rest, i + 3),
                None => "",
            };
            continue;
        }
        if let Some(tail) = rest.strip_prefix('<') {
            let Some(close) = tail.find('>') else {
                break;
            };
            let tag = tail.get(..close).unwrap_or("");
            rest = tail_from(tail, close + 1);
            let closing = tag.starts_with('/');
            let name: String = tag
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase();
            match name.as_str() {
                "style" | "script" | "head" | "title" if !closing => {
                    skip_until = Some(match name.as_str() {
                        "style" => "</style>",
                        "script" => "</script>",
                        "head" => "</head>",
                        _ => "</title>",
                    });
                }
                "br" => newline(&mut out, &mut at_line_start),
                "blockquote" => {
                    if closing {
                        quote_depth = quote_depth.saturating_sub(1);
                    } else {
                        quote_depth += 1;
                    }
                    if !at_line_start {
                        newline(&mut out, &mut at_line_start);
                    }
                }
                "p" | "div" | "tr" | "li" | "ul" | "ol" | "table" | "h1" | "h2" | "h3" | "h4"
                | "h5" | "h6" | "pre" | "hr" | "section" | "article" | "header" | "footer"
                    if !at_line_start =>
                {
                    newline(&mut out, &mut at_line_start)
                }
                "td" | "th" if !closing => out.push(' '),
                _ => {}
            }
            continue;
        }
        let next = rest.find('<').unwrap_or(rest.len());
        let (text, after) = rest.split_at_checked(next).unwrap_or((rest, ""));
        rest = after;
        // HTML collapses source whitespace.
        let decoded = decode_entities(text);
        let mut pending_space = false;
        for c in decoded.chars() {
            if c == '\n' || c == '\r' || c == '\t' || c == ' ' {
                pending_space = true;
                continue;
            }
            if at_line_start {
                for _ in 0..quote_depth {
                    out.push_str("> ");
                }
                at_line_start = false;
                pending_space = false;
            }
            if pending_space {
                out.push(' ');
                pending_space = false;
            }
            out.push(if c == '\u{a0}' { ' ' } else { c });
        }
        if pending_space && !at_line_start {
            out.push(' ');
        }
    }
    out
}

/// `s` from byte `i` on; empty if `i` is past the end or inside a character. Every index used
/// here comes from a search for ASCII, so it is a character boundary; this keeps that a fact the
/// compiler checks rather than a promise (`clippy::string_slice` is denied in the reader).
fn tail_from(s: &str, i: usize) -> &str {
    s.get(i..).unwrap_or("")
}

fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    (0..h.len().saturating_sub(n.len() - 1)).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// Character references (`&amp;`, `&#233;`, every HTML5 name) as text.
fn decode_entities(s: &str) -> String {
    html_escape::decode_html_entities(s).into_owned()
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

/// The body, cleaned: the lines the player wrote for this message.
struct Cleaned {
    lines: Vec<BodyLine>,
    dropped: usize,
    too_long: Option<usize>,
}

/// Keep the lines the player wrote; count the rest. Linear in the body, and memory bounded by
/// what is kept: only non-blank lines decide anything, looked at through a window of the next
/// two (a body of blank lines once cost quadratic time here, then memory 65 times its size).
/// Blank lines are kept at most one in a row; every kept line keeps its number. At most
/// [`MAX_BODY_LINES`] non-blank lines are kept.
fn clean_body(body: &str) -> Cleaned {
    let total = body.lines().count();
    let mut non_blank_lines = body
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let mut window: std::collections::VecDeque<(usize, &str)> = Default::default();
    let mut kept = Vec::new();
    let mut dropped = 0;
    let mut non_blank = 0usize;
    let mut skip_next_wrote = false;
    let mut last_seen: Option<usize> = None;
    loop {
        while window.len() < 3 {
            match non_blank_lines.next() {
                Some(l) => window.push_back(l),
                None => break,
            }
        }
        let Some((i, line)) = window.pop_front() else {
            break;
        };
        let next = window.front().map(|l| l.1);
        let after_next = window.get(1).map(|l| l.1);
        let gap_before = last_seen.is_some_and(|p| i > p + 1);
        last_seen = Some(i);
        if std::mem::take(&mut skip_next_wrote) && line.trim().to_lowercase().ends_with("wrote:") {
            dropped += 1;
            continue;
        }
        // An attribution line followed by '>' lines is a bottom-posted (or interleaved) quote:
        // drop the attribution and the quoted lines, and read on.
        let attribution = is_reply_header(line)
            || (line.trim().to_lowercase().starts_with("on ")
                && next.is_some_and(|n| n.trim().to_lowercase().ends_with("wrote:")));
        if attribution {
            let wrapped = !is_reply_header(line);
            let after = if wrapped { after_next } else { next };
            if after.is_some_and(|l| l.trim_start().starts_with('>')) {
                dropped += 1;
                skip_next_wrote = wrapped;
                continue;
            }
        }
        if is_cut(line, next) {
            dropped += total - i;
            break;
        }
        if line.trim_start().starts_with('>') {
            dropped += 1;
            continue;
        }
        non_blank += 1;
        if non_blank > MAX_BODY_LINES {
            continue;
        }
        if gap_before && !kept.is_empty() {
            kept.push(BodyLine {
                number: i,
                text: String::new(),
            });
        }
        kept.push(BodyLine {
            number: i + 1,
            text: line
                .trim_end_matches(['\r', ' ', '\t', '\u{a0}'])
                .to_string(),
        });
    }
    Cleaned {
        lines: kept,
        dropped,
        too_long: (non_blank > MAX_BODY_LINES).then_some(non_blank),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(raw: &str) -> Vec<u8> {
        content_parts(raw.as_bytes()).concat()
    }

    /// Issue 21.13: the same message delivered in two SMTP transactions differs only in the
    /// fields each delivery adds; its content is the same.
    #[test]
    fn trace_fields_are_not_content() {
        let mail = "From: a@x.test\r\nSubject: wm1 FRANCE S1901M\r\nMessage-ID: <1@x.test>\r\n\r\nA PAR H\r\nReceived: in the body stays\r\n";
        let first = format!(
            "Return-Path: <a@x.test>\r\nDelivered-To: gm@example.test\r\nReceived: from mx by gm;\r\n\tThu, 19 Nov 2026 10:00:00 +0000\r\nAuthentication-Results: mx.example.test; dkim=pass\r\n{mail}"
        );
        let second = format!(
            "Return-Path: <a@x.test>\r\nDelivered-To: gm@example.test\r\nReceived: from mx by gm;\r\n\tThu, 19 Nov 2026 10:05:00 +0000\r\nReceived: from elsewhere\r\nX-Original-To: gm@example.test\r\n{mail}"
        );
        assert_eq!(content(&first), content(mail).as_slice());
        assert_eq!(content(&first), content(&second));
        assert!(String::from_utf8_lossy(&content(&first)).contains("Received: in the body stays"));
        // Anything else in the header is content: another Subject is another message.
        let other = mail.replace("S1901M", "F1901M");
        assert_ne!(content(&first), content(&other));
    }

    #[test]
    fn content_parts_take_any_bytes() {
        for raw in [
            &b""[..],
            b"\n",
            b"Received",
            b"Received: x\n \xff\xfe",
            b"\r\n\r\nbody",
        ] {
            let _ = content_parts(raw).concat();
        }
        assert_eq!(
            content_parts(b"A: b\nbody-less").concat(),
            b"A: b\nbody-less"
        );
    }

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
        // People's mail: Outlook and mailing tools set these (issue 9, point 7).
        assert_eq!(auto("Precedence: bulk\nFrom: a@x.test\n\nx"), None);
        assert_eq!(
            auto("X-Auto-Response-Suppress: All\nPrecedence: junk\nFrom: a@x.test\n\nx"),
            None
        );
        assert_eq!(
            auto("Precedence: list\nFrom: a@x.test\n\nx"),
            Some(AutoKind::List)
        );
        // RFC 3834 asks auto-responders for a null sender: that is not a bounce.
        assert_eq!(
            auto("Return-Path: <>\nAuto-Submitted: auto-replied\nFrom: a@x.test\n\nx"),
            Some(AutoKind::AutoReplied)
        );
        assert_eq!(
            auto("Return-Path: <>\nFrom: a@x.test\n\nx"),
            Some(AutoKind::Bounce)
        );
        assert_eq!(auto("From: a@x.test\n\nx"), None);
    }

    #[test]
    fn html_entities_next_to_multibyte_text() {
        // Found by fuzzing (fuzz/regressions/read_mail): an entity scan cut a character in two.
        assert_eq!(html_to_text("a &ééééééééé; b"), "a &ééééééééé; b");
        assert_eq!(html_to_text("&amp;é&#233;&#xe9;&nbsp;x"), "&ééé x");
        assert_eq!(
            html_to_text("<p>A Par &gt; Bur</p><p>F Bre</p>"),
            "A Par > Bur\nF Bre\n"
        );
        assert_eq!(
            html_to_text("<div>mine</div><blockquote>A Mar - Spa</blockquote>"),
            "mine\n> A Mar - Spa\n"
        );
    }

    #[test]
    fn sender_of_an_unreadable_message() {
        assert_eq!(
            sender_of_raw(b"Subject: x\r\nFrom: Jean <Player3@Example.test>\r\n\r\nbody"),
            Some("player3@example.test".into())
        );
        assert_eq!(sender_of_raw(b"From: nobody\n\nx"), None);
        assert_eq!(sender_of_raw(b""), None);
    }

    #[test]
    fn an_8bit_header_before_from_in_an_oversized_mail() {
        // Issue 9, point 1: sender_of_raw sliced l[..5] by bytes, and "Cc: éva" has its fifth
        // byte inside the "é": one such mail killed the GM mailbox task.
        let mut raw = "Cc: éva <x@example.test>\r\nFrom: Jean <Player3@Example.test>\r\nSubject: wm1 FRANCE\r\nMessage-ID: <m1@p.test>\r\nAuto-Submitted: no\r\n\r\n"
            .as_bytes()
            .to_vec();
        raw.resize(MAX_MESSAGE_BYTES + 100, b'x');
        assert_eq!(sender_of_raw(&raw), Some("player3@example.test".into()));
        assert!(read_message(&raw).is_err());
        let head = read_head(&raw);
        assert_eq!(head.from_address.as_deref(), Some("player3@example.test"));
        assert_eq!(head.subject, "wm1 FRANCE");
        assert_eq!(head.message_id.as_deref(), Some("m1@p.test"));
        assert_eq!(head.cc, vec!["x@example.test".to_string()]);
        assert_eq!(head.auto, None);
        // Every prefix of a header with multibyte characters: never a panic.
        let text = "Cc: éva ñ 日本 <x@e.test>\nFrom: é <a@b.test>\n\nbody";
        for i in 0..text.len() {
            let _ = read_head(&text.as_bytes()[..i]);
            let _ = sender_of_raw(&text.as_bytes()[..i]);
        }
    }

    #[test]
    fn the_head_of_an_automatic_or_broken_mail() {
        let head = read_head(b"From: MAILER-DAEMON@x.test\r\nSubject: Undelivered\r\n\r\n");
        assert_eq!(head.auto, Some(AutoKind::Bounce));
        let head = read_head(b"Auto-Submitted: auto-replied\nFrom: a@x.test\n\n");
        assert_eq!(head.auto, Some(AutoKind::AutoReplied));
        assert_eq!(read_head(b"\xff\xfe\x00garbage"), MessageHead::default());
        // Authentication-Results in header order, topmost first, unfolded.
        let head = read_head(
            b"Authentication-Results: mx.example.test;\r\n dkim=pass header.d=a.test\r\nAuthentication-Results: forged; spf=pass\r\nFrom: a@a.test\r\n\r\n",
        );
        assert_eq!(
            head.authentication_results,
            vec![
                "mx.example.test; dkim=pass header.d=a.test".to_string(),
                "forged; spf=pass".to_string()
            ]
        );
    }

    #[test]
    fn blank_lines_cost_linear_time_and_long_bodies_are_capped() {
        // Issue 9, point 2: 200,000 blank lines between two orders (the cleaning was quadratic;
        // speed is measured in benches/read_mail.rs, this checks what is read).
        let body = format!("A Par - Bur\n{}A Mar - Spa\n", "\n".repeat(200_000));
        let m = read_message(format!("From: a@x.test\n\n{body}").as_bytes()).expect("ok");
        let kept: Vec<&str> = m
            .lines
            .iter()
            .map(|l| l.text.as_str())
            .filter(|t| !t.is_empty())
            .collect();
        assert_eq!(kept, vec!["A Par - Bur", "A Mar - Spa"]);
        assert_eq!(m.lines.last().map(|l| l.number), Some(200_002));
        assert_eq!(m.too_long, None);
        // Blank lines are kept one in a row: memory follows what is kept, not the body.
        assert_eq!(m.lines.len(), 3);
        let long: String = (0..MAX_BODY_LINES + 500)
            .map(|i| format!("line {i}\n\n"))
            .collect();
        let m = read_message(format!("From: a@x.test\n\n{long}").as_bytes()).expect("ok");
        assert_eq!(m.too_long, Some(MAX_BODY_LINES + 500));
        let kept = m.lines.iter().filter(|l| !l.text.is_empty()).count();
        assert_eq!(kept, MAX_BODY_LINES);
        assert_eq!(m.lines.last().map(|l| l.text.as_str()), Some("line 1999"));
    }

    #[test]
    fn attachment_names_are_capped() {
        // Issue 9, point 10: an acknowledgement echoed 20,000 attachment names.
        let mut raw = String::from(
            "From: a@x.test\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nA Par - Bur\r\n",
        );
        for i in 0..500 {
            raw.push_str(&format!(
                "--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"f{i}.bin\"\r\n\r\nxx\r\n"
            ));
        }
        raw.push_str("--b--\r\n");
        let m = read_message(raw.as_bytes()).expect("ok");
        assert_eq!(m.attachments_total, 500);
        assert_eq!(m.attachments.len(), MAX_ATTACHMENT_NAMES);
        assert_eq!(m.attachments[0], "f0.bin");
    }

    #[test]
    fn oversized_mail_is_refused_with_a_reason() {
        let big = vec![b'a'; MAX_MESSAGE_BYTES + 1];
        let e = read_message(&big).expect_err("too large");
        assert!(e.to_string().contains("too large"));
    }
}
