//! The sections of a body: orders, the "Final" marker, press, votes, requests, the secret, and
//! the end marker. The syntax is documented in `docs/mail-syntax.md`.
//!
//! The powers a body names (press recipients, the power black press is printed as, a heading's
//! `ORDERS FRANCE`) are the game's: its kind answers which word names which ([`Powers`]).

#![deny(clippy::string_slice)]

use crate::message::BodyLine;
use serde::Serialize;
use std::fmt;

/// What the sections need of a game's seats: the power a word of the mail names. A kind of
/// game answers it from its own map (Diplomacy's `Map`).
pub trait Powers {
    /// A power, as the kind types it.
    type Power: Copy + PartialEq + fmt::Debug;
    /// The power `name` names (its name or adjective, whatever the case), if any.
    fn power_by_name(&self, name: &str) -> Option<Self::Power>;
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Press<P> {
    pub line: usize,
    /// Recipients; empty means everybody.
    pub to: Vec<P>,
    pub grey: bool,
    /// Dark grey press (`DARK GREY PRESS TO ALL SIGNED The Kaiser`): the name the author chose;
    /// printed with the anonymous press, never with the author (WM D.X(1)).
    pub signature: Option<String>,
    /// Black press (`BLACK PRESS TO ALL AS ENGLAND`): printed as if this power wrote it
    /// (Maharajiad B.XI(1)).
    pub as_power: Option<P>,
    pub body: String,
    /// The block had no ENDPRESS and ran to the end of the message.
    pub unterminated: bool,
}

/// A vote's ballot, written `yes`, `no` or `abstain` (`chancery parse`'s JSON, the store).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Ballot {
    Yes,
    No,
    Abstain,
}

impl Ballot {
    pub fn as_str(self) -> &'static str {
        match self {
            Ballot::Yes => "yes",
            Ballot::No => "no",
            Ballot::Abstain => "abstain",
        }
    }
}

impl fmt::Display for Ballot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vote {
    pub line: usize,
    /// The proposal, upper case, words separated by one space (`DRAW`, `CONCEDE FRANCE`).
    pub proposal: String,
    pub ballot: Ballot,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestKind {
    Extension {
        days: u32,
    },
    /// `EXTEND HOLIDAY`: a holiday extension the TD declared (WM D.VII(5)); never charged.
    HolidayExtension,
    /// An `ABBREVIATIONS` block (lines `abbreviation = province`, then `ENDABBREVIATIONS`): the
    /// player's own list (WM D.III(1)), as written.
    Abbreviations(String),
    /// A `CONDITIONAL` block (retreat, build or disband orders, first choice first, then
    /// `ENDCONDITIONAL`), sent with movement orders for the phase that follows (WM D.II(5)).
    Conditional(String),
    /// `UNAVAILABLE WEEKLY FRIDAY 17:00 TO MONDAY 09:00 [zone]` (WM D.VII(2)): every week, in the
    /// player's zone unless one is named; weekdays 0 = Monday, times in minutes. `None`: the
    /// weekly period is withdrawn (`UNAVAILABLE WEEKLY NONE`).
    Weekly(Option<WeeklyPeriod>),
    /// Dates as written (`YYYY-MM-DD` with an optional ` HH:MM`), GMT.
    Unavailable {
        from: String,
        to: String,
    },
}

/// A weekly unavailable period, as written (local time of `zone`, or of the player).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeeklyPeriod {
    pub from_day: u8,
    pub from_minute: u16,
    pub to_day: u8,
    pub to_minute: u16,
    /// An IANA zone as written (`America/New_York`), checked by the engine.
    pub zone: Option<String>,
}

/// `MON`..`SUN` and their full names: 0 = Monday.
fn weekday(w: &str) -> Option<u8> {
    const DAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
    let w = w.to_ascii_lowercase();
    DAYS.iter()
        .position(|d| w.starts_with(d) && w.len() <= 9)
        .and_then(|i| u8::try_from(i).ok())
}

/// `17:00` as minutes after midnight.
fn clock(w: &str) -> Option<u16> {
    let (h, m) = w.split_once(':')?;
    let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60 && w.len() == 5).then_some(h * 60 + m)
}

/// `WEEKLY FRIDAY 17:00 TO MONDAY 09:00 [zone]` or `WEEKLY NONE`, from the original words after
/// UNAVAILABLE.
fn weekly(words: &[&str]) -> Option<Option<WeeklyPeriod>> {
    match words {
        [none] if none.eq_ignore_ascii_case("none") || none.eq_ignore_ascii_case("off") => {
            Some(None)
        }
        [d1, t1, to, d2, t2, zone @ ..]
            if zone.len() <= 1
                && ["to", "until", "-"].contains(&to.to_ascii_lowercase().as_str()) =>
        {
            Some(Some(WeeklyPeriod {
                from_day: weekday(d1)?,
                from_minute: clock(t1)?,
                to_day: weekday(d2)?,
                to_minute: clock(t2)?,
                zone: zone.first().map(|z| z.to_string()),
            }))
        }
        _ => None,
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub line: usize,
    pub kind: RequestKind,
}

/// A line that is not part of the order set, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ignored {
    pub line: usize,
    pub text: String,
    pub why: String,
}

/// A directive line that was recognised but malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionError {
    pub line: usize,
    pub text: String,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sections<P> {
    /// Candidate order lines, for the order reader.
    pub orders: Vec<BodyLine>,
    pub final_: bool,
    pub press: Vec<Press<P>>,
    pub votes: Vec<Vote>,
    pub requests: Vec<Request>,
    pub secret: Option<String>,
    pub ignored: Vec<Ignored>,
    pub errors: Vec<SectionError>,
}

// By hand: a derived Default would ask the kind's power type for a default it need not have.
impl<P> Default for Sections<P> {
    fn default() -> Self {
        Sections {
            orders: Vec::new(),
            final_: false,
            press: Vec::new(),
            votes: Vec::new(),
            requests: Vec::new(),
            secret: None,
            ignored: Vec::new(),
            errors: Vec::new(),
        }
    }
}

fn words(s: &str) -> Vec<String> {
    // A colon ends a word ("PRESS TO: FRANCE") but stays inside a time ("18:00").
    s.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .map(|w| w.trim_matches(':'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect()
}

/// A date, optionally followed by a time: `2026-12-01` or `2026-12-01 18:00`.
fn date_at(ws: &[String], i: usize) -> Option<(String, usize)> {
    let d = ws.get(i)?;
    let ok = d.len() == 10
        && d.chars().enumerate().all(|(k, c)| {
            if k == 4 || k == 7 {
                c == '-'
            } else {
                c.is_ascii_digit()
            }
        });
    if !ok {
        return None;
    }
    if let Some(t) = ws.get(i + 1)
        && t.len() == 5
        && t.as_bytes()[2] == b':'
        && t.chars().filter(|c| *c != ':').all(|c| c.is_ascii_digit())
    {
        return Some((format!("{d} {t}"), 2));
    }
    Some((d.clone(), 1))
}

fn recipients<M: Powers>(map: &M, ws: &[String]) -> Result<Vec<M::Power>, String> {
    let mut out = Vec::new();
    for w in ws
        .iter()
        .filter(|w| !matches!(w.as_str(), "and" | "&" | "to"))
    {
        if w == "all" || w == "everybody" || w == "everyone" {
            return Ok(Vec::new());
        }
        match map.power_by_name(w) {
            Some(p) => {
                if !out.contains(&p) {
                    out.push(p)
                }
            }
            None => return Err(format!("'{w}' is not a power of this game")),
        }
    }
    if out.is_empty() {
        return Err("say who the press is for: PRESS TO ALL, or PRESS TO FRANCE, ENGLAND".into());
    }
    Ok(out)
}

fn ballot(w: &str) -> Option<Ballot> {
    match w {
        "yes" | "y" | "aye" | "for" => Some(Ballot::Yes),
        "no" | "n" | "nay" | "against" => Some(Ballot::No),
        "abstain" | "abstains" | "abs" => Some(Ballot::Abstain),
        _ => None,
    }
}

/// Words an order heading may hold besides `orders` and `final`: `My orders:`, `Here are my
/// orders for Spring 1901:`, `Draft orders:`. Any other word (`not`, `matter`, a province) makes
/// the line prose.
const HEADING_WORDS: &[&str] = &[
    "my",
    "our",
    "here",
    "are",
    "is",
    "the",
    "these",
    "new",
    "updated",
    "revised",
    "corrected",
    "draft",
    "preliminary",
    "provisional",
    "for",
    "this",
    "turn",
    "phase",
    "season",
    "spring",
    "summer",
    "fall",
    "autumn",
    "winter",
    "movement",
    "movements",
    "retreat",
    "retreats",
    "adjustment",
    "adjustments",
    "build",
    "builds",
];

/// Is this line an order heading, and does it mark the set final? `ORDERS`, `ORDERS FRANCE`,
/// `ORDERS FINAL`, `FINAL ORDERS:`, `Orders (final):`, `My orders:`, `Orders for Spring 1901:`:
/// the word `orders`, and only words from [`HEADING_WORDS`], power names, and words with a digit
/// (a year, a phase code `S1901M`, a game name `wm1`) besides; brackets, colons, dashes and `*`
/// (Markdown bold) are ignored. `Some(true)` when the heading says `final`. A line that says
/// `not final`, or anything else, is no heading.
pub fn order_heading<M: Powers>(map: &M, text: &str) -> Option<bool> {
    let ws: Vec<String> = text
        .split(|c: char| {
            c.is_whitespace()
                || matches!(c, '(' | ')' | '[' | ']' | ':' | ',' | ';' | '*' | '_')
                || matches!(c, '-' | '–' | '—' | '.' | '!')
        })
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if ws.len() > 12 || !ws.iter().any(|w| w == "orders") {
        return None;
    }
    let known = |w: &String| {
        w == "orders"
            || w == "final"
            || HEADING_WORDS.contains(&w.as_str())
            || map.power_by_name(w).is_some()
            || w.chars().any(|c| c.is_ascii_digit())
    };
    ws.iter()
        .all(known)
        .then(|| ws.iter().any(|w| w == "final"))
}

/// Does this line end a press block that has no ENDPRESS? A `SECRET` line, an order heading
/// ([`order_heading`]: `ORDERS`, `FINAL ORDERS:`, `Orders (final):`, `My orders:`), `FINAL`, or
/// the end marker. (A prose line such as "Orders matter!" is no heading.)
fn ends_press<M: Powers>(map: &M, text: &str, ws: &[String]) -> bool {
    let first = ws.first().map(String::as_str).unwrap_or("");
    let second = ws.get(1).map(String::as_str);
    match first {
        "secret" | "password" => true,
        "signoff" | "endorders" => ws.len() == 1,
        "end" => ws.len() == 1 || (ws.len() == 2 && second == Some("orders")),
        "final" if ws.len() == 1 => true,
        _ => order_heading(map, text).is_some(),
    }
}

/// The secret on a `SECRET ...` line: everything after the keyword, spaces collapsed.
fn secret_of(text: &str) -> String {
    text.split_whitespace()
        .skip(1)
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches(':')
        .trim()
        .to_string()
}

/// The secret given in a subject (`wm1 FRANCE S1901M SECRET kovali-tesumo`): the word after
/// `SECRET`, if any. docs/mail-syntax.md documents it.
pub fn secret_in_subject(subject: &str) -> Option<String> {
    let mut it = subject.split_whitespace();
    while let Some(w) = it.next() {
        let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
        if bare.eq_ignore_ascii_case("secret") || bare.eq_ignore_ascii_case("password") {
            return it
                .next()
                .map(|s| {
                    s.trim_matches(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                        .to_string()
                })
                .filter(|s| !s.is_empty());
        }
    }
    None
}

/// The request an `ABBREVIATIONS` or `CONDITIONAL` block makes.
fn block_request(keyword: &str, line: usize, text: String) -> Request {
    let kind = if keyword == "conditional" {
        RequestKind::Conditional(text)
    } else {
        RequestKind::Abbreviations(text)
    };
    Request { line, kind }
}

/// Split the body into its sections, the powers it names read with `map`.
pub fn split<M: Powers>(map: &M, lines: &[BodyLine]) -> Sections<M::Power> {
    let mut s = Sections::default();
    let mut press: Option<Press<M::Power>> = None;
    // A block being gathered (ABBREVIATIONS or CONDITIONAL): its keyword, its first line's
    // number, and its lines.
    let mut block: Option<(&'static str, usize, String)> = None;
    let mut ended_at: Option<usize> = None;
    for (idx, line) in lines.iter().enumerate() {
        let text = line.text.trim();
        let ws = words(text);
        let first = ws.first().map(String::as_str).unwrap_or("");
        if let Some((keyword, start, list)) = block.as_mut() {
            let end = (first.strip_prefix("end") == Some(*keyword) && ws.len() == 1)
                || (first == "end" && ws.get(1).is_some_and(|w| w == keyword));
            if end || ends_press(map, text, &ws) {
                s.requests
                    .push(block_request(keyword, *start, std::mem::take(list)));
                block = None;
                if end {
                    continue;
                }
            } else {
                // Bounded: a list longer than any map is no list.
                if list.len() < 20_000 {
                    list.push_str(text);
                    list.push('\n');
                }
                continue;
            }
        }
        if press.is_none() && ws.len() == 1 {
            let keyword = match first {
                "abbreviations" | "abbreviation" => Some("abbreviations"),
                "conditional" | "conditionals" => Some("conditional"),
                _ => None,
            };
            if let Some(k) = keyword {
                block = Some((k, line.number, String::new()));
                continue;
            }
        }
        if let Some(p) = press.as_mut() {
            let w2 = ws.get(1).map(String::as_str);
            let endpress = (first == "endpress" && ws.len() == 1)
                || (first == "end" && w2 == Some("press") && ws.len() == 2);
            // Press also ends where the mail plainly goes on with something else: the secret
            // (never published), an order heading, or the end marker. Without this, a missing
            // ENDPRESS published the secret and the orders.
            if endpress || ends_press(map, text, &ws) {
                if let Some(mut done) = press.take() {
                    done.body = done.body.trim_end().to_string();
                    done.unterminated = !endpress;
                    s.press.push(done);
                }
                if endpress {
                    continue;
                }
            } else {
                p.body.push_str(line.text.trim_end());
                p.body.push('\n');
                continue;
            }
        }
        if text.is_empty() {
            continue;
        }
        // An order heading: `ORDERS`, `FINAL ORDERS:`, `Orders (final):`, `My orders:`.
        if let Some(final_) = order_heading(map, text) {
            s.final_ |= final_;
            continue;
        }
        // A heading with the orders after its colon: `FINAL ORDERS: A Par - Bur, F Bre - Mao`.
        if let Some((head, rest)) = text.split_once(':')
            && !rest.trim().is_empty()
            && let Some(final_) = order_heading(map, head)
        {
            s.final_ |= final_;
            s.orders.push(BodyLine {
                number: line.number,
                text: rest.trim().to_string(),
            });
            continue;
        }
        match first {
            "signoff" | "endorders" if ws.len() == 1 => {
                ended_at = Some(idx);
                break;
            }
            "end" if ws.len() == 1 || (ws.len() == 2 && ws[1] == "orders") => {
                ended_at = Some(idx);
                break;
            }
            "final" if ws.len() == 1 => s.final_ = true,
            "press" | "grey" | "gray" | "broadcast" | "white" | "dark" | "black" => {
                let black = first == "black";
                let grey = !black && ws.iter().any(|w| w == "grey" || w == "gray");
                // Dark grey press is signed; black press is attributed to a power. What
                // follows SIGNED (as written) or AS is not a recipient.
                let cut = ws
                    .iter()
                    .position(|w| w == "signed" || (black && w == "as"));
                let signature = match cut {
                    Some(k) if ws[k] == "signed" => {
                        let words: Vec<&str> = text.split_whitespace().skip(k + 1).collect();
                        Some(words.join(" ").chars().take(80).collect::<String>())
                            .filter(|s| !s.is_empty())
                    }
                    _ => None,
                };
                let as_power = match cut {
                    Some(k) if black => ws.get(k + 1).and_then(|w| map.power_by_name(w)),
                    _ => None,
                };
                let head = &ws[..cut.unwrap_or(ws.len())];
                let rest: Vec<String> = head
                    .iter()
                    .skip_while(|w| *w != "to")
                    .skip(1)
                    .filter(|w| !matches!(w.as_str(), "grey" | "gray" | "white"))
                    .cloned()
                    .collect();
                let bad_colour = if first == "dark" && (signature.is_none() || !grey) {
                    Some("write DARK GREY PRESS TO <powers or ALL> SIGNED <a name>")
                } else if black && as_power.is_none() {
                    Some("write BLACK PRESS TO <powers or ALL> AS <power>")
                } else {
                    None
                };
                let is_header = first == "broadcast"
                    || ws.iter().any(|w| w == "press") && ws.iter().any(|w| w == "to");
                if !is_header {
                    s.orders.push(line.clone());
                    continue;
                }
                let to = if first == "broadcast" {
                    Ok(Vec::new())
                } else if let Some(e) = bad_colour {
                    Err(e.to_string())
                } else {
                    recipients(map, &rest)
                };
                match to {
                    Ok(to) => {
                        press = Some(Press {
                            line: line.number,
                            to,
                            grey,
                            signature,
                            as_power,
                            body: String::new(),
                            unterminated: false,
                        })
                    }
                    Err(message) => {
                        s.errors.push(SectionError {
                            line: line.number,
                            text: text.to_string(),
                            message,
                        });
                        // Swallow the block so that press is never read as orders.
                        press = Some(Press {
                            line: 0,
                            to: Vec::new(),
                            grey,
                            signature: None,
                            as_power: None,
                            body: String::new(),
                            unterminated: false,
                        });
                    }
                }
            }
            "vote" => {
                let rest = &ws[1..];
                match rest.split_last() {
                    Some((last, proposal)) if !proposal.is_empty() && ballot(last).is_some() => {
                        s.votes.push(Vote {
                            line: line.number,
                            proposal: proposal.join(" ").to_uppercase(),
                            ballot: ballot(last).unwrap_or(Ballot::Abstain),
                        });
                    }
                    _ => s.errors.push(SectionError {
                        line: line.number,
                        text: text.to_string(),
                        message:
                            "write VOTE, the proposal, then YES, NO or ABSTAIN (VOTE DRAW YES)"
                                .into(),
                    }),
                }
            }
            "extend" | "extension" | "request" | "holiday"
                if ws.iter().any(|w| w.starts_with("exten"))
                    && ws.iter().any(|w| w.starts_with("holiday")) =>
            {
                s.requests.push(Request {
                    line: line.number,
                    kind: RequestKind::HolidayExtension,
                })
            }
            "extend" | "extension" | "request" if ws.iter().any(|w| w.starts_with("exten")) => {
                match ws.iter().find_map(|w| w.parse::<u32>().ok()) {
                    Some(days) if (1..=30).contains(&days) => s.requests.push(Request {
                        line: line.number,
                        kind: RequestKind::Extension { days },
                    }),
                    _ => s.errors.push(SectionError {
                        line: line.number,
                        text: text.to_string(),
                        message: "write the number of days, 1 to 30: EXTEND 2 DAYS".into(),
                    }),
                }
            }
            "unavailable" | "away" if ws.get(1).is_some_and(|w| w == "weekly") => {
                let original: Vec<&str> = text.split_whitespace().skip(2).collect();
                match weekly(&original) {
                    Some(period) => s.requests.push(Request {
                        line: line.number,
                        kind: RequestKind::Weekly(period),
                    }),
                    None => s.errors.push(SectionError {
                        line: line.number,
                        text: text.to_string(),
                        message: "write UNAVAILABLE WEEKLY FRIDAY 17:00 TO MONDAY 09:00, then a zone such as America/New_York if not your own (or UNAVAILABLE WEEKLY NONE)".into(),
                    }),
                }
            }
            "unavailable" | "away" => {
                let from = date_at(&ws, 1);
                let parsed = from.and_then(|(f, used)| {
                    let k = 1 + used;
                    let k = if ws
                        .get(k)
                        .is_some_and(|w| w == "to" || w == "until" || w == "-")
                    {
                        k + 1
                    } else {
                        k
                    };
                    date_at(&ws, k).map(|(t, _)| (f, t))
                });
                match parsed {
                    Some((from, to)) if from <= to => s.requests.push(Request {
                        line: line.number,
                        kind: RequestKind::Unavailable { from, to },
                    }),
                    _ => s.errors.push(SectionError {
                        line: line.number,
                        text: text.to_string(),
                        message: "write UNAVAILABLE 2026-12-01 TO 2026-12-05 (dates in GMT, the first not after the second)".into(),
                    }),
                }
            }
            "secret" | "password" => {
                // Keep the case as written: secrets are compared exactly. The rest of the line
                // is the secret, so that a line beginning SECRET is never read (and echoed) as
                // anything else.
                let raw = secret_of(text);
                if raw.is_empty() {
                    s.errors.push(SectionError {
                        line: line.number,
                        text: first.to_uppercase(),
                        message: "write SECRET and your secret on one line".into(),
                    });
                } else {
                    s.secret = Some(raw);
                }
            }
            _ => s.orders.push(line.clone()),
        }
    }
    if let Some((keyword, start, list)) = block.take() {
        s.requests.push(block_request(keyword, start, list));
    }
    if let Some(mut p) = press.take() {
        p.unterminated = true;
        p.body = p.body.trim_end().to_string();
        s.press.push(p);
    }
    s.press.retain(|p| p.line != 0);
    if let Some(end) = ended_at {
        for l in &lines[end + 1..] {
            if !l.text.trim().is_empty() {
                s.ignored.push(Ignored {
                    line: l.number,
                    text: l.text.trim().to_string(),
                    why: "after the end marker".into(),
                });
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for the standard map (Diplomacy's, which this crate does not know): its seven
    /// powers by name and adjective, all the sections ask of a map.
    struct Map;

    const POWERS: [(&str, &str); 7] = [
        ("Austria", "Austrian"),
        ("England", "English"),
        ("France", "French"),
        ("Germany", "German"),
        ("Italy", "Italian"),
        ("Russia", "Russian"),
        ("Turkey", "Turkish"),
    ];

    impl Map {
        fn standard() -> &'static Map {
            &Map
        }
    }

    impl Powers for Map {
        type Power = usize;
        fn power_by_name(&self, name: &str) -> Option<usize> {
            POWERS
                .iter()
                .position(|(n, a)| n.eq_ignore_ascii_case(name) || a.eq_ignore_ascii_case(name))
        }
    }

    fn body(text: &str) -> Vec<BodyLine> {
        text.lines()
            .enumerate()
            .map(|(i, t)| BodyLine {
                number: i + 1,
                text: t.to_string(),
            })
            .collect()
    }

    #[test]
    fn sections_are_recognised() {
        let map = Map::standard();
        let s = split(
            map,
            &body(
                "ORDERS\nA Par - Bur\nFINAL\nPRESS TO FRANCE, ENGLAND\nHello\nA Mar - Spa\nENDPRESS\nGREY PRESS TO ALL\nBoo\nEND PRESS\nVOTE DRAW YES\nEXTEND 2 DAYS\nUNAVAILABLE 2026-12-01 TO 2026-12-05\nSECRET Xy7\nSIGNOFF\nA Bre - Pic",
            ),
        );
        assert_eq!(s.orders.len(), 1);
        assert_eq!(s.orders[0].text, "A Par - Bur");
        assert!(s.final_);
        assert_eq!(s.press.len(), 2);
        assert_eq!(s.press[0].to.len(), 2);
        assert_eq!(s.press[0].body, "Hello\nA Mar - Spa");
        assert!(s.press[1].grey && s.press[1].to.is_empty());
        assert_eq!(s.votes[0].proposal, "DRAW");
        assert_eq!(s.votes[0].ballot, Ballot::Yes);
        assert_eq!(s.requests[0].kind, RequestKind::Extension { days: 2 });
        for line in [
            "EXTEND HOLIDAY",
            "holiday extension",
            "Request holiday extension",
        ] {
            let h = split(map, &body(line));
            assert_eq!(h.requests.len(), 1, "{line}");
            assert_eq!(h.requests[0].kind, RequestKind::HolidayExtension, "{line}");
        }
        assert_eq!(
            s.requests[1].kind,
            RequestKind::Unavailable {
                from: "2026-12-01".into(),
                to: "2026-12-05".into()
            }
        );
        assert_eq!(s.secret.as_deref(), Some("Xy7"));
        assert_eq!(s.ignored.len(), 1);
        assert_eq!(s.ignored[0].line, 16);
    }

    #[test]
    fn press_without_endpress_stops_at_the_secret_and_the_orders() {
        // Issue 9, point 8: a press block without ENDPRESS swallowed the secret and the orders.
        let map = Map::standard();
        let s = split(
            map,
            &body("PRESS TO ALL\nGreetings.\n\nSECRET kovali-tesumo\nF Kie - Den\nA Ber - Kie"),
        );
        assert_eq!(s.press.len(), 1);
        assert_eq!(s.press[0].body, "Greetings.");
        assert!(s.press[0].unterminated);
        assert_eq!(s.secret.as_deref(), Some("kovali-tesumo"));
        assert_eq!(s.orders.len(), 2);
        for heading in [
            "ORDERS",
            "FINAL ORDERS:",
            "Orders final",
            "FINAL",
            "SIGNOFF",
        ] {
            let s = split(
                map,
                &body(&format!("PRESS TO ALL\nHi\n{heading}\nF Kie - Den")),
            );
            assert_eq!(s.press[0].body, "Hi", "{heading}");
            assert!(!s.press[0].body.contains("Kie"), "{heading}");
        }
    }

    #[test]
    fn order_headings_with_a_colon() {
        // Issue 10, point 5: headings as players write them; they say whether the set is final.
        let map = Map::standard();
        for (heading, final_) in [
            ("FINAL ORDERS:", true),
            ("Final orders", true),
            ("Orders (final):", true),
            ("ORDERS (FINAL)", true),
            ("Orders - final:", true),
            ("**FINAL ORDERS:**", true),
            ("My final orders for Spring 1901:", true),
            ("Here are my orders (final):", true),
            ("My orders:", false),
            ("Orders:", false),
            ("ORDERS FRANCE", false),
            ("Orders for France, S1901M:", false),
            ("Orders for Spring 1901:", false),
            ("ORDERS wm1 FRANCE S1901M", false),
            ("Here are my orders:", false),
            ("Draft orders:", false),
            ("Orders (preliminary):", false),
            ("New orders:", false),
        ] {
            let s = split(map, &body(&format!("Hi GM,\n{heading}\nA Par - Bur")));
            assert_eq!(s.final_, final_, "{heading}");
            let texts: Vec<&str> = s.orders.iter().map(|l| l.text.as_str()).collect();
            assert_eq!(texts, ["Hi GM,", "A Par - Bur"], "{heading}");
            // An order heading also ends a press block that has no ENDPRESS.
            let s = split(
                map,
                &body(&format!("PRESS TO ALL\nHi\n{heading}\nF Kie - Den")),
            );
            assert_eq!(s.press[0].body, "Hi", "{heading}");
        }
        // Prose that mentions orders, or says they are not final, is no heading.
        for prose in [
            "Orders matter!",
            "Orders (not final):",
            "My orders are not final yet:",
            "I will send my final orders tomorrow:",
            "Orders for Paris:",
        ] {
            let s = split(map, &body(&format!("{prose}\nA Par - Bur")));
            assert!(!s.final_, "{prose}");
            assert_eq!(s.orders.len(), 2, "{prose}");
        }
        // Orders may follow the heading on its own line.
        let s = split(map, &body("FINAL ORDERS: A Par - Bur, F Bre - Mao"));
        assert!(s.final_);
        assert_eq!(s.orders.len(), 1);
        assert_eq!(s.orders[0].text, "A Par - Bur, F Bre - Mao");
        assert_eq!(s.orders[0].number, 1);
        let s = split(map, &body("My orders: A Par - Bur"));
        assert!(!s.final_);
        assert_eq!(s.orders[0].text, "A Par - Bur");
    }

    #[test]
    fn a_secret_of_several_words_is_a_secret_never_an_order_line() {
        let map = Map::standard();
        let s = split(map, &body("SECRET my two words\nA Par - Bur"));
        assert_eq!(s.secret.as_deref(), Some("my two words"));
        assert_eq!(s.orders.len(), 1);
        assert!(s.ignored.is_empty() && s.errors.is_empty());
        let s = split(map, &body("SECRET\nA Par - Bur"));
        assert_eq!(s.errors.len(), 1);
        assert_eq!(s.errors[0].text, "SECRET");
    }

    #[test]
    fn the_secret_may_be_given_in_the_subject() {
        assert_eq!(
            secret_in_subject("wm1 FRANCE S1901M SECRET kovali-tesumo").as_deref(),
            Some("kovali-tesumo")
        );
        assert_eq!(
            secret_in_subject("Re: wm1 FRANCE (secret: abc)").as_deref(),
            Some("abc")
        );
        assert_eq!(secret_in_subject("wm1 FRANCE S1901M"), None);
        assert_eq!(secret_in_subject("my secret"), None);
    }

    #[test]
    fn malformed_directives_are_errors() {
        let map = Map::standard();
        let s = split(
            map,
            &body("VOTE DRAW MAYBE\nEXTEND LOTS\nPRESS TO NARNIA\nsome stuff\nENDPRESS"),
        );
        assert_eq!(s.errors.len(), 3);
        assert!(
            s.orders.is_empty(),
            "press to an unknown power is swallowed, not read as orders"
        );
    }
}
