//! A whole order mail, read: every line gets a verdict, and the set-level house rules apply
//! (several orders for one unit, unknown lines, the press policy). This is what the reply to the
//! player reports, and what `chancery parse` prints (contract in `docs/parse.md`).

#![deny(clippy::string_slice)]

use crate::map::{Map, Power, Province};
use crate::order::Order;
use crate::reader::{ReadContext, Status, read_line};
use crate::rules::{MultipleOrders, PressPolicy, UnknownLines};
use chancery_intake::message::{AutoKind, ReadMessage, read_message};
use chancery_intake::sections::{self, Ballot, Powers, RequestKind, split};
use serde::Serialize;
use std::fmt;

const DAY_NAMES: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The sections name powers with Diplomacy's map: a power's name or adjective.
impl Powers for Map {
    type Power = Power;
    fn power_by_name(&self, name: &str) -> Option<Power> {
        Map::power_by_name(self, name)
    }
}

/// A closed set of verdicts, each written as one word: in `chancery parse`'s JSON (docs/parse.md)
/// and in the replies. It compares equal to its word, for callers that hold the word (the
/// corpus's expectations).
macro_rules! verdict_words {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident => $word:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vdoc])* #[serde(rename = $word)] $variant,)+
        }

        impl $name {
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, word: &&str) -> bool {
                self.as_str() == *word
            }
        }
    };
}

verdict_words! {
    /// What became of an order line.
    LineStatus {
        /// Read, and used.
        Ok => "ok",
        /// Read with a warning (a typo corrected, a wrong designation accepted), and used.
        Warning => "warning",
        /// Not used: unreadable, illegal, or ordered ambiguously.
        Error => "error",
        /// Another order for the same unit is used instead (WM D.III(5), Maharajiad B.IV(6)).
        Replaced => "replaced",
    }
}

verdict_words! {
    /// What became of a piece of press.
    PressStatus {
        /// To be published.
        Accepted => "accepted",
        /// Not published; the message says why.
        Refused => "refused",
    }
}

impl From<Status> for LineStatus {
    fn from(s: Status) -> LineStatus {
        match s {
            Status::Ok => LineStatus::Ok,
            Status::Warning => LineStatus::Warning,
            Status::Error => LineStatus::Error,
        }
    }
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct OrderLine {
    pub line: usize,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    /// `ok`, `warning`, `error`, or `replaced` (another order for the same unit is used).
    pub status: LineStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip)]
    pub typed: Option<Order>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct PressOut {
    pub line: usize,
    pub to: Vec<String>,
    pub grey: bool,
    /// Dark grey press: the name it is signed with (WM D.X(1)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Black press: the power it is printed as from (Maharajiad B.XI(1)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_power: Option<String>,
    pub body: String,
    /// `accepted` or `refused`.
    pub status: PressStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct VoteOut {
    pub line: usize,
    pub proposal: String,
    /// `yes`, `no` or `abstain`.
    pub vote: Ballot,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RequestOut {
    Extension {
        line: usize,
        days: u32,
    },
    Unavailable {
        line: usize,
        from: String,
        to: String,
    },
    HolidayExtension {
        line: usize,
    },
    /// The player's own abbreviations list (WM D.III(1)), as written.
    Abbreviations {
        line: usize,
        /// How many lines it has.
        entries: usize,
        #[serde(skip)]
        text: String,
    },
    /// Conditional retreat and adjustment orders for the phase that follows (WM D.II(5)).
    Conditional {
        line: usize,
        /// How many lines it has.
        entries: usize,
        #[serde(skip)]
        text: String,
    },
    /// A weekly unavailable period (WM D.VII(2)), or its withdrawal.
    Weekly {
        line: usize,
        #[serde(skip)]
        period: Option<sections::WeeklyPeriod>,
        text: String,
    },
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub line: usize,
    pub text: String,
    pub why: String,
}

#[derive(Serialize, Debug, Clone, Default, PartialEq, Eq)]
pub struct MailRead {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    pub subject: String,
    /// Automatic mail (`auto-replied`, `bounce`, `list`): never answered, never read for orders.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto: Option<AutoKind>,
    /// The message could not be read at all; the reply says why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub orders: Vec<OrderLine>,
    #[serde(rename = "final")]
    pub final_: bool,
    pub press: Vec<PressOut>,
    pub votes: Vec<VoteOut>,
    pub requests: Vec<RequestOut>,
    /// Lines that were not read as orders, and why.
    pub ignored: Vec<Note>,
    /// Malformed press, vote or request lines.
    pub errors: Vec<Note>,
    /// Attachments, named but never read.
    pub attachments: Vec<String>,
    /// Agora BT8: the proposal, withdrawal and vote lines of a game run under regulations
    /// (`crate::regulations`). Never serialized: a vote goes to the Judge alone.
    #[serde(skip)]
    pub regulations: Vec<crate::regulations::ActionLine>,
    /// Agora BT7: the assistants the contestant announces (`ASSISTANT` lines), in a game run
    /// under regulations (`crate::assistants`).
    #[serde(skip)]
    pub assistants: Vec<crate::assistants::AssistantLine>,
    /// Quoted, forwarded or signature lines that were dropped.
    pub dropped_lines: usize,
    /// Whether a secret line was present (the secret itself is never echoed).
    pub secret_given: bool,
    #[serde(skip)]
    pub secret: Option<String>,
}

impl MailRead {
    /// The orders to adjudicate: the understood ones, after the several-orders policy.
    pub fn understood(&self) -> Vec<Order> {
        self.orders.iter().filter_map(|l| l.typed.clone()).collect()
    }
}

/// Orders read from one mail, at most (counting each order of a line that holds several).
pub const MAX_ORDER_LINES: usize = 300;

/// Read a raw message for a power.
pub fn read_mail(ctx: &ReadContext, raw: &[u8]) -> MailRead {
    match read_message(raw) {
        Ok(msg) => read_body(ctx, &msg),
        Err(e) => MailRead {
            error: Some(e.to_string()),
            ..MailRead::default()
        },
    }
}

fn unit_key(order: &Order) -> Option<Province> {
    match order {
        Order::Build { .. } | Order::Waive => None,
        o => o.unit().map(|u| u.province),
    }
}

/// Read a message already parsed.
pub fn read_body(ctx: &ReadContext, msg: &ReadMessage) -> MailRead {
    let map: &Map = ctx.map;
    let mut out = MailRead {
        message_id: msg.message_id.clone(),
        from: msg.from_address.clone(),
        subject: msg.subject.clone(),
        auto: msg.auto,
        attachments: msg.attachments.clone(),
        dropped_lines: msg.dropped_lines,
        ..MailRead::default()
    };
    if msg.attachments_total > msg.attachments.len() {
        out.attachments.push(format!(
            "... and {} more",
            msg.attachments_total - msg.attachments.len()
        ));
    }
    if msg.auto.is_some() {
        return out;
    }
    if let Some(n) = msg.too_long {
        out.errors.push(Note {
            line: 0,
            text: String::new(),
            why: format!(
                "this mail is too long ({n} lines of text): only the first {} were read",
                chancery_intake::message::MAX_BODY_LINES
            ),
        });
    }
    // Agora BT8: a game run under regulations reads its proposal and vote lines first; the
    // rest is the order mail as usual.
    let s = if ctx.rules.regulations.is_some() {
        let reg = crate::regulations::split(&msg.lines);
        out.regulations = reg.actions;
        let helped = crate::assistants::split(&reg.rest);
        out.assistants = helped.announced;
        split(map, &helped.rest)
    } else {
        split(map, &msg.lines)
    };
    out.final_ = s.final_;
    // The secret from the body, else from the subject (docs/mail-syntax.md).
    out.secret = s
        .secret
        .clone()
        .or_else(|| sections::secret_in_subject(&msg.subject));
    out.secret_given = out.secret.is_some();
    // Orders read so far: a line may hold several (`A Par - Bur, F Bre - Mao`).
    let mut read = 0;
    for l in &s.orders {
        // A mail has at most a few dozen orders; past the cap, lines are listed, not read, so a
        // hostile mail cannot cost minutes of CPU.
        if read >= MAX_ORDER_LINES {
            out.ignored.push(Note {
                line: l.number,
                text: l.text.chars().take(80).collect(),
                why: format!("more than {MAX_ORDER_LINES} lines of orders: the rest is not read"),
            });
            continue;
        }
        for part in read_line(ctx, &l.text) {
            read += 1;
            let v = part.verdict;
            if v.not_an_order {
                match ctx.rules.unknown_lines {
                    UnknownLines::Ignore => out.ignored.push(Note {
                        line: l.number,
                        text: part.text,
                        why: "not an order".into(),
                    }),
                    UnknownLines::Error => out.orders.push(OrderLine {
                        line: l.number,
                        text: part.text,
                        order: None,
                        status: LineStatus::Error,
                        message: Some("not an order: this line could not be read".into()),
                        typed: None,
                    }),
                }
                continue;
            }
            out.orders.push(OrderLine {
                line: l.number,
                text: part.text,
                order: v.order.as_ref().map(|o| o.display(map).to_string()),
                status: v.status.into(),
                message: v.message,
                typed: if v.status == Status::Error {
                    None
                } else {
                    v.order
                },
            });
        }
    }
    apply_multiple_orders(ctx, &mut out.orders);
    for p in s.press {
        let colour = match (&p.signature, p.as_power) {
            (Some(_), _) => Colour::DarkGrey,
            (None, Some(_)) => Colour::Black,
            (None, None) if p.grey => Colour::Grey,
            (None, None) => Colour::White,
        };
        let (status, message) = press_verdict(ctx, colour, !p.to.is_empty());
        let mut message = message;
        if p.unterminated && status == PressStatus::Accepted {
            message = Some(
                "no ENDPRESS line: the press ends at the next SECRET line, order heading or end of the message"
                    .into(),
            );
        }
        out.press.push(PressOut {
            line: p.line,
            to: if p.to.is_empty() {
                vec!["ALL".to_string()]
            } else {
                p.to.iter()
                    .map(|x| map.power_name(*x).to_string())
                    .collect()
            },
            grey: p.grey,
            signature: p.signature,
            as_power: p.as_power.map(|x| map.power_name(x).to_string()),
            body: p.body,
            status,
            message,
        });
    }
    // Each vote is on a proposal in its one spelling (a draw is a set of powers; a house-rule
    // proposal names an option and a value it can take: WM IX(4), IX(5)); a vote on anything
    // else is refused here, with the reason, and never stored or published.
    for v in s.votes {
        match crate::votes::read_proposal(map, ctx.rules, &v.proposal) {
            Ok(p) => out.votes.push(VoteOut {
                line: v.line,
                proposal: p.canonical(map),
                vote: v.ballot,
            }),
            Err(why) => out.errors.push(Note {
                line: v.line,
                text: format!("VOTE {} {}", v.proposal, v.ballot.as_str().to_uppercase()),
                why: format!("this vote is not counted: {why}"),
            }),
        }
    }
    out.requests = s
        .requests
        .into_iter()
        .map(|r| match r.kind {
            RequestKind::Extension { days } => RequestOut::Extension { line: r.line, days },
            RequestKind::HolidayExtension => RequestOut::HolidayExtension { line: r.line },
            RequestKind::Conditional(text) => RequestOut::Conditional {
                line: r.line,
                entries: text.lines().filter(|l| !l.trim().is_empty()).count(),
                text,
            },
            RequestKind::Abbreviations(text) => RequestOut::Abbreviations {
                line: r.line,
                entries: text.lines().filter(|l| !l.trim().is_empty()).count(),
                text,
            },
            RequestKind::Weekly(period) => RequestOut::Weekly {
                line: r.line,
                text: match &period {
                    Some(p) => format!(
                        "every week from {} {:02}:{:02} to {} {:02}:{:02}{}",
                        DAY_NAMES[usize::from(p.from_day % 7)],
                        p.from_minute / 60,
                        p.from_minute % 60,
                        DAY_NAMES[usize::from(p.to_day % 7)],
                        p.to_minute / 60,
                        p.to_minute % 60,
                        p.zone
                            .as_deref()
                            .map(|z| format!(" {z}"))
                            .unwrap_or_default()
                    ),
                    None => "no weekly period any more".to_string(),
                },
                period,
            },
            RequestKind::Unavailable { from, to } => RequestOut::Unavailable {
                line: r.line,
                from,
                to,
            },
        })
        .collect();
    out.ignored.extend(s.ignored.into_iter().map(|i| Note {
        line: i.line,
        text: i.text,
        why: i.why,
    }));
    out.ignored.sort_by_key(|n| n.line);
    out.errors.extend(s.errors.into_iter().map(|e| Note {
        line: e.line,
        text: e.text,
        why: e.message,
    }));
    // The secret given in the body, and one written in the subject: neither is echoed.
    let mut secrets: Vec<String> = out.secret.iter().cloned().collect();
    secrets.extend(sections::secret_in_subject(&msg.subject));
    for secret in secrets {
        redact_all(&mut out, &secret);
    }
    out
}

/// Replace every occurrence of `secret` in `text` (ignoring case) with `[secret]`. Compares
/// character by character, lower-cased, so it holds whatever lower-casing does to byte lengths;
/// time is linear in the text for a given secret.
pub fn redact_secret(text: &str, secret: &str) -> String {
    let secret: Vec<char> = secret.trim().chars().flat_map(char::to_lowercase).collect();
    if secret.is_empty() {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let matches_at = |i: usize| -> Option<usize> {
        let mut k = 0;
        let mut j = i;
        while k < secret.len() {
            for lc in chars.get(j)?.to_lowercase() {
                if secret.get(k) != Some(&lc) {
                    return None;
                }
                k += 1;
            }
            j += 1;
        }
        Some(j)
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(c) = chars.get(i) {
        match matches_at(i) {
            Some(end) => {
                out.push_str("[secret]");
                i = end;
            }
            None => {
                out.push(*c);
                i += 1;
            }
        }
    }
    out
}

/// The secret never leaves in anything echoed or published: every text of the read mail.
fn redact_all(out: &mut MailRead, secret: &str) {
    let r = |s: &mut String| *s = redact_secret(s, secret);
    let ro = |s: &mut Option<String>| {
        if let Some(s) = s.as_mut() {
            *s = redact_secret(s, secret);
        }
    };
    r(&mut out.subject);
    // The lines as written are masked; the canonical order is not: it is made of the map's own
    // codes, and masking a secret that happens to spell one ("bur") would turn a well-read
    // `A PAR - BUR` into `A PAR - [secret]` in the echo.
    for o in &mut out.orders {
        r(&mut o.text);
        ro(&mut o.message);
    }
    for p in &mut out.press {
        r(&mut p.body);
        ro(&mut p.message);
    }
    for v in &mut out.votes {
        r(&mut v.proposal);
    }
    for n in out.ignored.iter_mut().chain(out.errors.iter_mut()) {
        r(&mut n.text);
        r(&mut n.why);
    }
}

/// The kinds of press the rulebooks name (WM D.X(1); Maharajiad B.XI(1)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
    White,
    Grey,
    DarkGrey,
    Black,
}

fn press_verdict(
    ctx: &ReadContext,
    colour: Colour,
    partial: bool,
) -> (PressStatus, Option<String>) {
    let grey = colour != Colour::White;
    match ctx.rules.press {
        PressPolicy::None => (
            PressStatus::Refused,
            Some("this game publishes no press (Maharajiad B.XI(1) Alternative D)".into()),
        ),
        PressPolicy::WhiteOnly if grey => (
            PressStatus::Refused,
            Some("this game accepts white press only (WM D.X(1) Alternative B)".into()),
        ),
        _ if colour == Colour::DarkGrey && !ctx.rules.dark_grey_press => (
            PressStatus::Refused,
            Some("this game does not accept dark grey press (WM D.X(1) Alternative A; Maharajiad B.XI(1))".into()),
        ),
        _ if colour == Colour::Black && !ctx.rules.black_press => (
            PressStatus::Refused,
            Some("this game does not accept black press, attributed to another power (WM D.X(1))".into()),
        ),
        _ if partial && !ctx.rules.partial_press => (
            PressStatus::Refused,
            Some("this game accepts press to all powers only".into()),
        ),
        _ => (PressStatus::Accepted, None),
    }
}

/// WM D.III(5): the last order for a unit is used. Maharajiad B.IV(6): a unit ordered twice,
/// differently, holds; identical duplicates count as one.
fn apply_multiple_orders(ctx: &ReadContext, lines: &mut [OrderLine]) {
    let n = lines.len();
    for i in 0..n {
        let Some(key) = lines[i].typed.as_ref().and_then(unit_key) else {
            continue;
        };
        let same: Vec<usize> = (0..n)
            .filter(|j| lines[*j].typed.as_ref().and_then(unit_key) == Some(key))
            .collect();
        if same.len() < 2 || same[0] != i {
            continue;
        }
        let code = ctx.map.info(key).code.clone();
        let first = lines[same[0]].typed.clone();
        let identical = same.iter().all(|j| lines[*j].typed == first);
        match ctx.rules.multiple_orders {
            MultipleOrders::LastWins => {
                let Some(&last) = same.last() else { continue };
                for &j in &same[..same.len() - 1] {
                    lines[j].status = LineStatus::Replaced;
                    lines[j].message = Some(format!(
                        "replaced by the order for {code} on line {} (WM D.III(5))",
                        lines[last].line
                    ));
                    lines[j].typed = None;
                }
            }
            MultipleOrders::Hold if identical => {
                for &j in &same[1..] {
                    lines[j].status = LineStatus::Replaced;
                    lines[j].message =
                        Some(format!("the same order as line {}", lines[same[0]].line));
                    lines[j].typed = None;
                }
            }
            MultipleOrders::Hold => {
                let nums: Vec<String> = same.iter().map(|j| lines[*j].line.to_string()).collect();
                for &j in &same {
                    lines[j].status = LineStatus::Error;
                    lines[j].message = Some(format!(
                        "the unit in {code} has different orders on lines {}: it is ordered ambiguously and holds (Maharajiad B.IV(6))",
                        nums.join(", ")
                    ));
                    lines[j].typed = None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adjudicator::Board;
    use crate::phase::PhaseKind;
    use crate::rules::Rules;
    use std::collections::HashMap;

    fn read(raw: &str) -> MailRead {
        let map = Map::standard();
        let rules = Rules::default();
        let board = Board::initial(map);
        let abbreviations = HashMap::new();
        let ctx = ReadContext {
            map,
            rules: &rules,
            power: map.power_by_name("GERMANY").expect("power"),
            phase: PhaseKind::Movement,
            board: Some(&board),
            abbreviations: &abbreviations,
        };
        read_body(&ctx, &read_message(raw.as_bytes()).expect("mail"))
    }

    #[test]
    fn redaction_replaces_every_occurrence_ignoring_case() {
        assert_eq!(
            redact_secret("my KOVALI-tesumo is kovali-tesumo", "kovali-tesumo"),
            "my [secret] is [secret]"
        );
        assert_eq!(redact_secret("nothing here", "abc"), "nothing here");
        assert_eq!(redact_secret("x", ""), "x");
        // Lower-casing that changes byte lengths (the Turkish dotted İ) changes nothing.
        assert_eq!(redact_secret("İstanbul abc", "abc"), "İstanbul [secret]");
        assert_eq!(
            redact_secret("İstanbul: OPEN sesame", "open sesame"),
            "İstanbul: [secret]"
        );
        assert_eq!(redact_secret("xİx", "i̇"), "x[secret]x");
    }

    #[test]
    fn the_secret_is_never_echoed_or_published() {
        // Issue 9, point 8: a press block without ENDPRESS published the secret and the orders;
        // a multi-word secret was echoed under "lines not read".
        let r = read(
            "From: p@x.test\nSubject: wm1 GERMANY S1901M\n\nPRESS TO ALL\nHello, my secret is open sesame? no.\nSECRET open sesame\nF Kie - Den\nthe open sesame again\n",
        );
        assert_eq!(r.secret.as_deref(), Some("open sesame"));
        assert_eq!(r.understood().len(), 1);
        let echoed = serde_json::to_string(&r).expect("json");
        assert!(!echoed.to_lowercase().contains("open sesame"), "{echoed}");
        assert_eq!(r.press.len(), 1);
        assert!(!r.press[0].body.contains("Kie"), "{}", r.press[0].body);
        // In the subject: read, and redacted from the echoed subject.
        let r =
            read("From: p@x.test\nSubject: wm1 GERMANY S1901M SECRET zebu-kala\n\nF Kie - Den\n");
        assert_eq!(r.secret.as_deref(), Some("zebu-kala"));
        assert!(!r.subject.contains("zebu-kala"), "{}", r.subject);
    }

    #[test]
    fn the_secret_is_redacted_from_messages_reasons_and_votes_too() {
        // Found in review: a secret written on an order line, as a press recipient or in a vote
        // came back in the verdict's message, the error's reason or the proposal.
        let r = read(
            "From: p@x.test\nSubject: wm1 GERMANY S1901M SECRET other-one\n\nSECRET zorblax\nA Mun - Ruh zorblax\nPRESS TO ZORBLAX\nhi\nENDPRESS\nVOTE CONCEDE ZORBLAX YES\nother-one\n",
        );
        let echoed = serde_json::to_string(&r).expect("json").to_lowercase();
        assert!(!echoed.contains("zorblax"), "{echoed}");
        assert!(!echoed.contains("other-one"), "{echoed}");
        assert!(echoed.contains("[secret]"), "{echoed}");
    }

    #[test]
    fn wm_ix_a_vote_is_on_a_proposal_in_its_one_spelling_or_refused() {
        // Issue 21, point 9: proposals were kept as written, so spellings of one draw were
        // counted apart, DIAS never, and VOTE RULE <any text> was published to everyone.
        let r = read(
            "From: p@x.test\nSubject: wm1 GERMANY S1901M\n\nVOTE DRAW GERMANY, FRANCE YES\nVOTE DIAS NO\nVOTE RULE SUBMISSIONS MERGE_PER_UNIT YES\nVOTE RULE PRESS VISIT SPAM.EXAMPLE YES\nVOTE PIZZA YES\n",
        );
        let votes: Vec<(&str, &str)> = r
            .votes
            .iter()
            .map(|v| (v.proposal.as_str(), v.vote.as_str()))
            .collect();
        assert_eq!(
            votes,
            vec![
                ("DRAW FRANCE GERMANY", "yes"),
                ("DRAW", "no"),
                ("RULE submissions merge_per_unit", "yes"),
            ]
        );
        assert_eq!(r.errors.len(), 2, "{:?}", r.errors);
        assert!(r.errors[0].why.contains("not counted"), "{:?}", r.errors);
        assert!(r.errors[1].why.contains("is no proposal"), "{:?}", r.errors);
    }

    #[test]
    fn a_secret_is_masked_in_the_lines_quoted_never_in_the_canonical_orders() {
        // Issue 21: the GM-chosen secret "bur" turned the echo of A Mun - Bur into
        // "A MUN - [secret]".
        let r = read("From: p@x.test\nSubject: wm1 GERMANY S1901M\n\nSECRET bur\nA Mun - Bur\n");
        let o = &r.orders[0];
        assert_eq!(o.order.as_deref(), Some("A MUN - BUR"));
        assert_eq!(o.text, "A Mun - [secret]");
    }

    #[test]
    fn press_to_unknown_recipients_is_refused_never_published_to_all() {
        let r = read(
            "From: p@x.test\nSubject: s\n\nPRESS TO NARNIA, FRANCE\nSecret plans\nENDPRESS\nF Kie - Den\n",
        );
        assert!(r.press.is_empty(), "{:?}", r.press);
        assert_eq!(r.errors.len(), 1);
        assert!(r.errors[0].why.contains("narnia"), "{}", r.errors[0].why);
        assert_eq!(r.understood().len(), 1);
    }

    #[test]
    fn outlook_mail_with_bulk_and_suppress_headers_is_read() {
        // Issue 9, point 7: Outlook and mailing tools put these on mail people write; it was
        // dropped as automatic, and its orders lost.
        let r = read(
            "From: p@x.test\nSubject: wm1 GERMANY S1901M\nX-Auto-Response-Suppress: All\nPrecedence: bulk\nX-MS-Exchange-Organization-AuthAs: Internal\n\nF Kie - Den\nA Ber - Kie\n",
        );
        assert_eq!(r.auto, None);
        assert_eq!(r.understood().len(), 2);
    }

    #[test]
    fn automatic_mail_is_written_as_its_word_in_the_parse_output() {
        // `auto` is typed (AutoKind); `chancery parse` still writes the words of docs/parse.md.
        let r = read(
            "From: p@x.test\nSubject: Out of office\nAuto-Submitted: auto-replied\n\nF Kie - Den\n",
        );
        assert_eq!(r.auto, Some(AutoKind::AutoReplied));
        assert!(r.orders.is_empty());
        let json = serde_json::to_value(&r).expect("json");
        assert_eq!(json["auto"], "auto-replied");
        for kind in [AutoKind::AutoReplied, AutoKind::Bounce, AutoKind::List] {
            assert_eq!(serde_json::to_value(kind).expect("json"), kind.as_str());
        }
    }

    #[test]
    fn a_line_with_several_orders_gives_one_entry_each() {
        // Issue 10, point 5: lists, several orders a line, headings that say final.
        let r = read(
            "From: p@x.test\nSubject: wm1 GERMANY S1901M\n\nOrders (final):\n1) F Kie - Den, A Ber => Kie; A Mun - Xyzzy\n\u{2022} A Mun - Ruh\n",
        );
        assert!(r.final_);
        let got: Vec<(usize, &str, &str)> = r
            .orders
            .iter()
            .map(|l| (l.line, l.text.as_str(), l.status.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (2, "F Kie - Den", "ok"),
                (2, "A Ber => Kie", "ok"),
                (2, "A Mun - Xyzzy", "error"),
                (3, "\u{2022} A Mun - Ruh", "ok"),
            ]
        );
        assert_eq!(r.understood().len(), 3);
        assert!(r.ignored.is_empty(), "{:?}", r.ignored);
    }

    #[test]
    fn a_long_mail_says_how_much_was_read() {
        let body: String = (0..2100).map(|i| format!("chatter {i}\n")).collect();
        let r = read(&format!(
            "From: p@x.test\nSubject: s\n\nF Kie - Den\n{body}"
        ));
        assert!(
            r.errors
                .iter()
                .any(|e| e.why.contains("too long (2101 lines")),
            "{:?}",
            r.errors
        );
        assert_eq!(r.understood().len(), 1);
    }
}
