//! The forgiving order reader: one line a player wrote, to a typed [`Order`] and a verdict.
//!
//! It accepts every common notation (`A Par - Bur`, `Army Paris -> Burgundy`, `A Paris moves to
//! Burgundy`, `F London supports A Wales to Belgium`, `F Mid - Spain south coast`), full names,
//! codes, aliases and the player's own abbreviations (WM D.III(1)), ignoring case and
//! punctuation. A word that is no province is corrected by edit distance only when exactly one
//! province is that close; otherwise the error names the candidates. An exact spelling of another
//! province always means that province (Maharajiad B.IV(2)).
//!
//! What the player wrote (unit type, nationality, coast) is kept in the order; the house-rule
//! policies then decide whether a wrong designation is accepted with a warning or invalidates the
//! order (WM D.IV, Maharajiad B.V). The verdict says exactly what was understood.

#![deny(clippy::string_slice)]

use crate::adjudicator::Board;
use crate::map::{Coast, Location, Map, Power, Province, UnitType, normalize_name};
use crate::order::{Order, UnitRef};
use crate::phase::PhaseKind;
use crate::rules::{Designation, Rules};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ok,
    Warning,
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warning => "warning",
            Status::Error => "error",
        }
    }
}

/// What the reader made of one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub status: Status,
    pub order: Option<Order>,
    /// For a warning or an error: what, exactly.
    pub message: Option<String>,
    /// The line does not look like an order at all (chatter such as "Hi GM,").
    pub not_an_order: bool,
}

impl Verdict {
    fn error(message: impl Into<String>) -> Verdict {
        Verdict {
            status: Status::Error,
            order: None,
            message: Some(message.into()),
            not_an_order: false,
        }
    }
}

/// What the reader needs to know besides the line.
pub struct ReadContext<'a> {
    pub map: &'a Map,
    pub rules: &'a Rules,
    pub power: Power,
    pub phase: PhaseKind,
    /// The board, when known: the ordered units are checked against it.
    pub board: Option<&'a Board>,
    /// The player's registered abbreviations, normalised, to provinces (WM D.III(1)).
    pub abbreviations: &'a HashMap<String, Province>,
}

/// Read a personal abbreviation list: lines `abbreviation = province`.
pub fn parse_abbreviations(map: &Map, text: &str) -> Result<HashMap<String, Province>, String> {
    let mut out = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let Some((abbr, prov)) = line.split_once('=') else {
            return Err(format!(
                "abbreviations line {}: write 'abbreviation = province'",
                i + 1
            ));
        };
        let Some(p) = map.province_by_name(prov.trim()) else {
            return Err(format!(
                "abbreviations line {}: '{}' is not a province",
                i + 1,
                prov.trim()
            ));
        };
        out.insert(normalize_name(abbr), p);
    }
    Ok(out)
}

/// Words that are part of the order grammar, never of a province name.
const KEYWORDS: &[&str] = &[
    "a", "f", "army", "fleet", "h", "hold", "holds", "stand", "stands", "s", "support", "supports",
    "c", "convoy", "convoys", "to", "m", "move", "moves", "via", "by", "r", "retreat", "retreats",
    "d", "disband", "disbands", "build", "builds", "b", "remove", "removes", "waive", "waives",
    "and", "in", "the", "attack", "attacks", "-", "/", "(", ")", "coast", "nc", "sc", "ec", "wc",
];

#[derive(Clone, Debug)]
struct Place {
    province: Province,
    coast: Option<Coast>,
}

struct Cursor<'a> {
    words: Vec<String>,
    /// The words as written, for messages.
    written: Vec<String>,
    pos: usize,
    ctx: &'a ReadContext<'a>,
    corrections: Vec<(String, String)>,
}

fn tokenize(text: &str) -> Vec<String> {
    let mut s = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '-' | '–' | '—' | '−' | '→' | '⇒' | '>' => {
                // "->", "=>", "-->" are one arrow.
                while matches!(chars.peek(), Some('-' | '>')) {
                    chars.next();
                }
                s.push_str(" - ");
            }
            '=' if chars.peek() == Some(&'>') => {
                chars.next();
                s.push_str(" - ");
            }
            '/' | '(' | ')' => {
                s.push(' ');
                s.push(c);
                s.push(' ');
            }
            '.' | ',' | ';' | ':' | '!' | '?' | '"' | '\'' | '‘' | '’' | '“' | '”' | '*' | '•'
            | '[' | ']' => s.push(' '),
            c => s.push(c),
        }
    }
    s.split_whitespace().map(str::to_string).collect()
}

/// Levenshtein distance with adjacent transpositions (optimal string alignment), on characters.
fn distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(a, b)
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<&str> {
        self.words.get(self.pos).map(String::as_str)
    }
    fn peek_at(&self, k: usize) -> Option<&str> {
        self.words.get(self.pos + k).map(String::as_str)
    }
    fn eat(&mut self, options: &[&str]) -> bool {
        match self.peek() {
            Some(w) if options.contains(&w) => {
                self.pos += 1;
                true
            }
            _ => false,
        }
    }
    fn at_end(&self) -> bool {
        self.pos >= self.words.len()
    }
    fn map(&self) -> &Map {
        self.ctx.map
    }

    fn unit_type(&mut self) -> Option<UnitType> {
        if self.eat(&["a", "army"]) {
            Some(UnitType::Army)
        } else if self.eat(&["f", "fleet"]) {
            Some(UnitType::Fleet)
        } else {
            None
        }
    }

    fn nationality(&mut self) -> Option<Power> {
        let w = self.peek()?;
        let p = self
            .map()
            .powers
            .iter()
            .position(|p| p.adjective.eq_ignore_ascii_case(w))?;
        self.pos += 1;
        Some(Power(p as u8))
    }

    /// A coast after a province: `/sc`, `(sc)`, `sc`, `south coast`, `(south coast)`.
    fn coast(&mut self, province: Province) -> Option<Coast> {
        let has_coasts = !self.map().info(province).coasts.is_empty();
        let start = self.pos;
        let open = self.eat(&["/", "("]);
        let word = self.peek().map(str::to_string);
        let parsed = word.as_deref().and_then(|w| match w {
            "nc" | "sc" | "ec" | "wc" => Coast::from_code(w),
            "north" | "south" | "east" | "west" | "n" | "s" | "e" | "w" => {
                let next = self.peek_at(1);
                let followed_by_coast = next == Some("coast");
                let ends = matches!(next, None | Some("-") | Some(")"));
                if followed_by_coast || (open && ends) || (has_coasts && ends && w.len() > 1) {
                    Coast::from_code(w)
                } else {
                    None
                }
            }
            _ => None,
        });
        match parsed {
            Some(c) => {
                self.pos += 1;
                self.eat(&["coast"]);
                if open {
                    self.eat(&[")"]);
                }
                Some(c)
            }
            None => {
                self.pos = start;
                None
            }
        }
    }

    fn named(&self, p: Province) -> String {
        named(self.map(), p)
    }

    fn lookup(&self, joined: &str) -> Option<Province> {
        self.ctx
            .abbreviations
            .get(joined)
            .copied()
            .or_else(|| self.map().province_by_name(joined))
    }

    /// A province (with its coast), matching the longest phrase; a typo is corrected only when
    /// one province alone is that close.
    fn place(&mut self) -> Result<Place, String> {
        let Some(first) = self.peek() else {
            return Err("a province is missing at the end".into());
        };
        if KEYWORDS.contains(&first) && self.lookup(first).is_none() {
            return Err(format!("a province is missing before '{first}'"));
        }
        let max = (self.words.len() - self.pos).min(5);
        // A phrase of `n` words, normalised; names may hold "of" and an inner hyphen
        // ("Mid-Atlantic Ocean"), but never other grammar words.
        let phrase = |c: &Cursor, n: usize| -> Option<String> {
            let ws = &c.words[c.pos..c.pos + n];
            if ws.last().is_some_and(|w| w == "-") {
                return None;
            }
            if ws[1..]
                .iter()
                .any(|w| KEYWORDS.contains(&w.as_str()) && w != "the" && w != "-")
            {
                return None;
            }
            Some(normalize_name(&ws.join(" ")))
        };
        for n in (1..=max).rev() {
            let window = &self.words[self.pos..self.pos + n];
            // A name may span a hyphen ("Mid-Atlantic") only when what follows the hyphen is no
            // province by itself; otherwise the hyphen is a move ("A Swe - Den" is not Sweden).
            let hyphen_is_a_move = window.iter().position(|w| w == "-").is_some_and(|h| {
                let after = normalize_name(&window[h + 1..].join(" "));
                !after.is_empty() && self.lookup(&after).is_some()
            });
            if !hyphen_is_a_move
                && let Some(j) = phrase(self, n)
                && let Some(p) = self.lookup(&j)
            {
                self.pos += n;
                let coast = self.coast(p);
                return Ok(Place { province: p, coast });
            }
        }
        // Fuzzy: longest phrase first.
        for n in (1..=max.min(3)).rev() {
            if self.words[self.pos..self.pos + n].iter().any(|w| w == "-") {
                continue;
            }
            let Some(j) = phrase(self, n) else { continue };
            let written = self.written[self.pos..self.pos + n].join(" ");
            let len = j.chars().count();
            if len == 3 && n == 1 {
                // A three-letter word is a code; one wrong letter can name another province
                // (WM D.III(1): "A. Mun - Ber / A. Mun - Bur"), so it is never corrected.
                let mut near: Vec<Province> = self
                    .map()
                    .province_names()
                    .filter(|(name, _)| name.chars().count() == 3 && distance(&j, name) == 1)
                    .map(|(_, p)| p)
                    .collect();
                near.sort();
                near.dedup();
                if near.is_empty() {
                    continue;
                }
                let names: Vec<String> = near.iter().map(|p| self.named(*p)).collect();
                return Err(format!(
                    "'{written}' is not a province; did you mean {}?",
                    names.join(" or ")
                ));
            }
            if len < 4 {
                continue;
            }
            let limit = if len <= 5 { 1 } else { 2 };
            let mut best: Vec<(usize, Province)> = Vec::new();
            for (name, p) in self.map().province_names() {
                let name_len = name.chars().count();
                // The distance is at least the difference in length: skip names that cannot be
                // close without computing it (found by fuzzing: long words were slow).
                if name_len < 4 || name_len.abs_diff(len) > limit {
                    continue;
                }
                let d = distance(&j, name);
                if d <= limit {
                    best.push((d, p));
                }
            }
            let Some(min) = best.iter().map(|(d, _)| *d).min() else {
                continue;
            };
            let mut candidates: Vec<Province> = best
                .iter()
                .filter(|(d, _)| *d == min)
                .map(|(_, p)| *p)
                .collect();
            candidates.sort();
            candidates.dedup();
            if candidates.len() == 1 {
                let p = candidates[0];
                self.pos += n;
                let coast = self.coast(p);
                let name = self.map().info(p).name.clone();
                self.corrections.push((written, name));
                return Ok(Place { province: p, coast });
            }
            let names: Vec<String> = candidates.iter().map(|p| self.named(*p)).collect();
            return Err(format!(
                "'{written}' is not a province; it could be {}",
                names.join(" or ")
            ));
        }
        Err(format!("'{first}' is not a province of this map"))
    }

    fn unit(&mut self) -> Result<UnitRef, String> {
        let nationality = self.nationality();
        let unit_type = self.unit_type();
        let p = self.place()?;
        Ok(UnitRef {
            unit_type,
            province: p.province,
            coast: p.coast,
            nationality,
        })
    }
}

/// "Gascony (GAS)": what messages call a province.
fn named(map: &Map, p: Province) -> String {
    let i = map.info(p);
    format!("{} ({})", i.name, i.code)
}

/// Does this line start like an order? Used to tell chatter from a broken order.
fn looks_like_order(ctx: &ReadContext, words: &[String]) -> bool {
    let Some(first) = words.first() else {
        return false;
    };
    let first = first.as_str();
    if matches!(
        first,
        "a" | "f" | "army" | "fleet" | "build" | "remove" | "disband" | "waive"
    ) {
        return true;
    }
    if ctx
        .map
        .powers
        .iter()
        .any(|p| p.adjective.eq_ignore_ascii_case(first))
    {
        return true;
    }
    if ctx.map.province_by_name(first).is_some() || ctx.abbreviations.contains_key(first) {
        return true;
    }
    // "Burgandy - Mun": a near-province followed by order grammar.
    words.iter().skip(1).take(3).any(|w| {
        matches!(
            w.as_str(),
            "-" | "s" | "supports" | "c" | "convoys" | "h" | "holds" | "to" | "r" | "d"
        )
    })
}

/// No order is this long; a longer line is refused before it is read.
pub const MAX_ORDER_LINE: usize = 200;

/// Bullets players put before an order: `- A Par - Bur`, `* F Bre - Mao`, `• A Mar H`.
const BULLETS: &[char] = &[
    '-', '*', '•', '·', '◦', '‣', '▪', '▫', '▸', '►', '●', '○', '■', '□', '➢', '–', '—', '+',
];

/// Roman numerals of a list (`i)`, `iv)`, `(ix)`); single letters are letters already.
const ROMAN: &[&str] = &["ii", "iii", "iv", "vi", "vii", "viii", "ix", "xi", "xii"];

/// What follows one list marker at the start of `s`, or `None` when `s` does not start with one.
/// A marker is a bullet; a number followed by `.`, `)` or `:` (`1.`, `2)`, `3:`), or in
/// parentheses or brackets (`(4)`, `[5]`), or after `#` (`#6`); or a letter or roman numeral
/// followed by `)` or in parentheses (`a)`, `(b)`, `iv)`). A letter followed by a dot or a space
/// is no marker: `A. Mun - Ber` and `A Par - Bur` are armies (WM D.III(1)).
fn after_list_marker(s: &str) -> Option<&str> {
    let mut it = s.chars();
    let first = it.next()?;
    if BULLETS.contains(&first) {
        return Some(it.as_str());
    }
    let (label_start, close) = match first {
        '(' => (it.as_str(), Some(')')),
        '[' => (it.as_str(), Some(']')),
        '#' => (it.as_str(), None),
        _ => (s, None),
    };
    let mut label = String::new();
    let mut rest = label_start.chars();
    loop {
        let mut ahead = rest.clone();
        match ahead.next() {
            Some(c) if c.is_ascii_alphanumeric() && label.len() < 5 => {
                label.push(c.to_ascii_lowercase());
                rest = ahead;
            }
            _ => break,
        }
    }
    let number = (1..=3).contains(&label.len()) && label.chars().all(|c| c.is_ascii_digit());
    let letters = label.len() == 1 && label.chars().all(|c| c.is_ascii_alphabetic())
        || ROMAN.contains(&label.as_str());
    if !number && !letters {
        return None;
    }
    let after_label = rest.as_str();
    let mut after = rest;
    let next = after.next();
    match (first, close) {
        (_, Some(close)) => (next == Some(close)).then_some(after.as_str()),
        ('#', None) => number.then_some(after_label),
        _ => match next {
            Some(')') => Some(after.as_str()),
            Some('.' | ':') if number => Some(after.as_str()),
            _ => None,
        },
    }
}

/// The line without its list markers (`1)`, `(a)`, `•`, …, possibly several: `- 1) A Par - Bur`)
/// and without parentheses around the whole order.
pub fn strip_list_marker(line: &str) -> &str {
    let mut rest = line.trim();
    for _ in 0..4 {
        match after_list_marker(rest) {
            Some(after) => rest = after.trim_start(),
            None => break,
        }
    }
    if let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')'))
        && !inner.contains(['(', ')'])
    {
        rest = inner.trim();
    }
    rest
}

/// The words of an order line, as written and lower-cased, without list markers.
fn order_words(line: &str) -> (Vec<String>, Vec<String>) {
    let mut written = tokenize(strip_list_marker(line));
    // What is left of a marker after tokenizing: "1 A Par - Bur", "- - A Par - Bur".
    while let Some(w) = written.first() {
        if w == "-" || w.chars().all(|c| c.is_ascii_digit()) {
            written.remove(0);
        } else {
            break;
        }
    }
    let words = written.iter().map(|w| w.to_lowercase()).collect();
    (written, words)
}

/// A line holds this many orders at most (a power has at most 18 units on the standard map,
/// 34 on any); past it, the line is read whole.
pub const MAX_ORDERS_ON_A_LINE: usize = 34;

/// One order of a line, with the text it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinePart {
    /// The part of the line this order was read from (the whole line, trimmed, when it holds one).
    pub text: String,
    pub verdict: Verdict,
}

/// Does this part of a line plainly start an order? Stricter than [`looks_like_order`]: a bare
/// province (`Paris, Burgundy and Munich are mine`) is prose, so a part must begin with a unit
/// type, a nationality, `Build`, `Remove`, `Disband` or `Waive`, or have order words after its
/// first word.
fn part_is_order_like(ctx: &ReadContext, part: &str) -> bool {
    let (_, words) = order_words(part);
    let Some(first) = words.first() else {
        return false;
    };
    if !looks_like_order(ctx, &words) {
        return false;
    }
    let strong = matches!(
        first.as_str(),
        "a" | "f" | "army" | "fleet" | "build" | "remove" | "disband" | "waive"
    ) || ctx
        .map
        .powers
        .iter()
        .any(|p| p.adjective.eq_ignore_ascii_case(first));
    strong
        || words.iter().skip(1).take(3).any(|w| {
            matches!(
                w.as_str(),
                "-" | "s"
                    | "supports"
                    | "c"
                    | "convoys"
                    | "h"
                    | "holds"
                    | "to"
                    | "moves"
                    | "r"
                    | "d"
            )
        })
}

/// The orders of a line that holds several, separated by `,` or `;` (`A Par → Bur, F Bre - MAO;
/// A Mar S A Par - Bur`), each part with a leading `and` dropped; `None` unless every part
/// plainly starts an order, so that a sentence with commas stays one line of prose.
fn split_orders<'l>(ctx: &ReadContext, line: &'l str) -> Option<Vec<&'l str>> {
    if line.chars().count() > MAX_ORDER_LINE * 4 || !line.contains([',', ';']) {
        return None;
    }
    let parts: Vec<&str> = strip_list_marker(line)
        .split([',', ';'])
        .map(|p| {
            let p = p.trim();
            match p.split_once(char::is_whitespace) {
                Some((and, rest)) if and.eq_ignore_ascii_case("and") => rest.trim_start(),
                _ => p,
            }
        })
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 2 || parts.len() > MAX_ORDERS_ON_A_LINE {
        return None;
    }
    parts
        .iter()
        .all(|p| part_is_order_like(ctx, p))
        .then_some(parts)
}

/// Read one line, which may hold several orders separated by `,` or `;`. A line that reads as
/// one order is one order (`A Lon - Nwy via Nth, Nwg` is one route); otherwise, when every part
/// between the separators plainly starts an order, each part is read on its own; otherwise the
/// line is read whole (a sentence with commas is prose, or one broken order).
pub fn read_line(ctx: &ReadContext, line: &str) -> Vec<LinePart> {
    let whole = read_order(ctx, line);
    if whole.status == Status::Error
        && let Some(parts) = split_orders(ctx, line)
    {
        return parts
            .into_iter()
            .map(|p| LinePart {
                text: p.to_string(),
                verdict: read_order(ctx, p),
            })
            .collect();
    }
    vec![LinePart {
        text: line.trim().to_string(),
        verdict: whole,
    }]
}

/// Read one line as an order.
pub fn read_order(ctx: &ReadContext, line: &str) -> Verdict {
    if line.chars().count() > MAX_ORDER_LINE {
        return Verdict {
            status: Status::Error,
            order: None,
            message: Some(format!(
                "the line is longer than {MAX_ORDER_LINE} characters: no order is that long"
            )),
            not_an_order: true,
        };
    }
    let (written, words) = order_words(line);
    if words.is_empty() {
        return Verdict {
            status: Status::Error,
            order: None,
            message: Some("the line is empty".into()),
            not_an_order: true,
        };
    }
    if !looks_like_order(ctx, &words) {
        return Verdict {
            status: Status::Error,
            order: None,
            message: Some("not an order".into()),
            not_an_order: true,
        };
    }
    let mut c = Cursor {
        words,
        written,
        pos: 0,
        ctx,
        corrections: Vec::new(),
    };
    let order = match parse(&mut c) {
        Ok(o) => o,
        Err(e) => return Verdict::error(e),
    };
    if !c.at_end() {
        let rest = c.written[c.pos..].join(" ");
        return Verdict::error(format!("could not read '{rest}' at the end of the order"));
    }
    let order = match ctx.phase {
        PhaseKind::Retreat => match order {
            Order::Move {
                unit,
                dest,
                dest_coast,
                via_convoy: false,
                ..
            } => Order::Retreat {
                unit,
                dest,
                dest_coast,
            },
            o => o,
        },
        PhaseKind::Adjustment => match order {
            Order::Disband { unit } => Order::Remove { unit },
            o => o,
        },
        PhaseKind::Movement => order,
    };
    let mut warnings: Vec<String> = c
        .corrections
        .iter()
        .map(|(w, n)| format!("'{w}' read as {n}"))
        .collect();
    if let Err(e) = phase_fits(ctx, &order) {
        return Verdict::error(e);
    }
    let order = match check(ctx, order, &mut warnings) {
        Ok(o) => o,
        Err(e) => return Verdict::error(e),
    };
    Verdict {
        status: if warnings.is_empty() {
            Status::Ok
        } else {
            Status::Warning
        },
        order: Some(order),
        message: if warnings.is_empty() {
            None
        } else {
            Some(warnings.join("; "))
        },
        not_an_order: false,
    }
}

fn parse(c: &mut Cursor) -> Result<Order, String> {
    if c.eat(&["waive", "waives"]) {
        // "Waive", "waive 1", "waive build".
        while c.eat(&["1", "one", "build", "builds"]) {}
        return Ok(Order::Waive);
    }
    if c.eat(&["build", "builds", "b"]) {
        let unit_type = c.unit_type();
        c.eat(&["in", "at"]);
        let p = c.place()?;
        return Ok(Order::Build {
            unit_type,
            province: p.province,
            coast: p.coast,
        });
    }
    if c.eat(&["remove", "removes", "disband", "disbands", "destroy"]) {
        let unit = c.unit()?;
        return Ok(Order::Remove { unit });
    }
    let unit = c.unit()?;
    if c.at_end() || c.eat(&["h", "hold", "holds", "stand", "stands"]) {
        return Ok(Order::Hold { unit });
    }
    if c.eat(&["b", "build", "builds"]) {
        return Ok(Order::Build {
            unit_type: unit.unit_type,
            province: unit.province,
            coast: unit.coast,
        });
    }
    if c.eat(&["d", "disband", "disbands"]) {
        return Ok(Order::Disband { unit });
    }
    if c.eat(&["r", "retreat", "retreats"]) {
        c.eat(&["-", "to"]);
        let p = c.place()?;
        return Ok(Order::Retreat {
            unit,
            dest: p.province,
            dest_coast: p.coast,
        });
    }
    if c.eat(&["s", "support", "supports"]) {
        let target = c.unit()?;
        if c.eat(&["-", "to", "m", "attack", "attacks", "into"])
            || (c.eat(&["move", "moves"]) && {
                c.eat(&["to", "-", "into"]);
                true
            })
        {
            c.eat(&["to", "-"]);
            let p = c.place()?;
            return Ok(Order::SupportMove {
                unit,
                target,
                dest: p.province,
                dest_coast: p.coast,
            });
        }
        c.eat(&["h", "hold", "holds", "in", "place"]);
        return Ok(Order::SupportHold { unit, target });
    }
    if c.eat(&["c", "convoy", "convoys"]) {
        let army = c.unit()?;
        if !(c.eat(&["-", "to", "m"]) || c.eat(&["move", "moves"])) {
            return Err("a convoy needs the army's destination: F NTH C A LON - BEL".into());
        }
        c.eat(&["to", "-"]);
        let p = c.place()?;
        return Ok(Order::Convoy {
            unit,
            army,
            dest: p.province,
        });
    }
    let moved = c.eat(&["-", "to", "m", "attack", "attacks", "into"])
        || (c.eat(&["move", "moves", "goes", "go"]) && {
            c.eat(&["to", "-", "into"]);
            true
        });
    if !moved {
        let w = c.peek().unwrap_or("").to_string();
        return Err(format!(
            "'{w}' is not an order: after the unit write '-', S, C, H, R or D"
        ));
    }
    c.eat(&["to"]);
    let mut dest = c.place()?;
    let mut route: Vec<Province> = Vec::new();
    while c.eat(&["-"]) {
        route.push(dest.province);
        dest = c.place()?;
    }
    let mut via_convoy = !route.is_empty();
    if c.eat(&["via", "by"]) {
        if c.eat(&["convoy", "c"]) {
            via_convoy = true;
        } else {
            if !route.is_empty() {
                return Err("the convoy route is given twice".into());
            }
            while !c.at_end() {
                c.eat(&["and", "-"]);
                if c.at_end() {
                    break;
                }
                route.push(c.place()?.province);
            }
            if route.is_empty() {
                return Err("'via' needs 'convoy' or the seas of the route".into());
            }
            via_convoy = true;
        }
    }
    Ok(Order::Move {
        unit,
        dest: dest.province,
        dest_coast: dest.coast,
        via_convoy,
        route,
    })
}

fn phase_fits(ctx: &ReadContext, order: &Order) -> Result<(), String> {
    let ok = match ctx.phase {
        PhaseKind::Movement => matches!(
            order,
            Order::Hold { .. }
                | Order::Move { .. }
                | Order::SupportHold { .. }
                | Order::SupportMove { .. }
                | Order::Convoy { .. }
        ),
        PhaseKind::Retreat => matches!(order, Order::Retreat { .. } | Order::Disband { .. }),
        PhaseKind::Adjustment => {
            matches!(
                order,
                Order::Build { .. } | Order::Remove { .. } | Order::Waive
            )
        }
    };
    if ok {
        return Ok(());
    }
    Err(match ctx.phase {
        PhaseKind::Movement => {
            "this is a movement phase: hold, move, support or convoy orders only".into()
        }
        PhaseKind::Retreat => {
            "this is a retreat phase: retreat (R) or disband (D) orders only".into()
        }
        PhaseKind::Adjustment => {
            "this is an adjustment phase: build, remove or waive orders only".into()
        }
    })
}

/// Checks that need only the map: a build in a home centre that can hold the unit, and a fleet
/// move to a province with two coasts from where both can be reached.
fn static_check(ctx: &ReadContext, order: &mut Order) -> Result<(), String> {
    let map = ctx.map;
    match order {
        Order::Build {
            unit_type,
            province,
            ..
        } => {
            let info = map.info(*province);
            // The homes of now when the board is known (Maharajiad B.I(3)), else the map's.
            let home = ctx.board.map_or(info.home, |b| b.home(*province));
            if home != Some(ctx.power) {
                return Err(format!(
                    "{} is not a home centre of {}: builds go in your own home centres",
                    named(map, *province),
                    map.power_name(ctx.power)
                ));
            }
            if *unit_type == Some(UnitType::Fleet) && !map.is_coastal(*province) {
                return Err(format!(
                    "a fleet cannot be built in {}, which is inland (WM D.V(5))",
                    named(map, *province)
                ));
            }
        }
        Order::Move {
            unit,
            dest,
            dest_coast,
            ..
        } => {
            let fleet = unit.unit_type == Some(UnitType::Fleet) || map.is_sea(unit.province);
            let here_coasts = !map.info(unit.province).coasts.is_empty();
            if fleet && (!here_coasts || unit.coast.is_some()) {
                let from = Location {
                    province: unit.province,
                    coast: if here_coasts { unit.coast } else { None },
                };
                settle_coast(map, from, *dest, dest_coast)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// A fleet's missing coast: filled in when one coast is reachable, an error naming both when two
/// are (DATC 4.B.1–4.B.2; WM D.IV(3)(b)'s ambiguous cases).
fn settle_coast(
    map: &Map,
    from: Location,
    dest: Province,
    dest_coast: &mut Option<Coast>,
) -> Result<(), String> {
    if map.info(dest).coasts.is_empty() || dest_coast.is_some() {
        return Ok(());
    }
    let reachable: Vec<Coast> = map
        .info(dest)
        .coasts
        .iter()
        .copied()
        .filter(|c| map.fleet_adjacent(from, Location::with_coast(dest, *c)))
        .collect();
    match reachable.as_slice() {
        [only] => {
            *dest_coast = Some(*only);
            Ok(())
        }
        [_, _, ..] => {
            let code = &map.info(dest).code;
            let opts: Vec<String> = reachable
                .iter()
                .map(|c| format!("{code}/{}", c.code()))
                .collect();
            Err(format!(
                "'{code}' is ambiguous for a fleet from {}: write {}",
                map.info(from.province).name,
                opts.join(" or ")
            ))
        }
        [] => Ok(()),
    }
}

/// Check the order against the board, under the designation policies, and settle a missing
/// coast when only one is possible.
fn check(ctx: &ReadContext, mut order: Order, warnings: &mut Vec<String>) -> Result<Order, String> {
    static_check(ctx, &mut order)?;
    let Some(board) = ctx.board else {
        return Ok(order);
    };
    let map = ctx.map;
    let code = |p: Province| map.info(p).code.clone();
    let name = |p: Province| named(map, p);
    let type_word = |t: UnitType| {
        if t == UnitType::Army {
            "an army"
        } else {
            "a fleet"
        }
    };
    let designation = |written: Option<UnitType>,
                       actual: UnitType,
                       p: Province,
                       warnings: &mut Vec<String>|
     -> Result<(), String> {
        match written {
            Some(t) if t != actual => match ctx.rules.unit_type_designation {
                Designation::Accept => {
                    warnings.push(format!(
                        "the unit in {} is {}, not {}: read as {} {} (WM D.IV(1))",
                        name(p),
                        type_word(actual),
                        type_word(t),
                        actual.letter(),
                        code(p)
                    ));
                    Ok(())
                }
                Designation::Invalidate => Err(format!(
                    "the unit in {} is {}, not {}: a wrong unit type invalidates the order (Maharajiad B.V(2))",
                    name(p),
                    type_word(actual),
                    type_word(t)
                )),
            },
            _ => Ok(()),
        }
    };
    // The ordered unit.
    let own_unit = match &order {
        Order::Build { province, .. } => {
            if board.owner(*province) != Some(ctx.power) {
                return Err(format!("{} is not yours now", name(*province)));
            }
            if board.unit_at(*province).is_some() {
                return Err(format!("{} is occupied", name(*province)));
            }
            None
        }
        Order::Waive => None,
        Order::Retreat { unit, .. } | Order::Disband { unit } => {
            match board
                .dislodged
                .iter()
                .find(|d| d.unit.location.province == unit.province)
            {
                Some(d) if d.unit.power == ctx.power => Some((unit.unit_type, d.unit)),
                _ => {
                    return Err(format!(
                        "you have no dislodged unit in {}",
                        name(unit.province)
                    ));
                }
            }
        }
        o => {
            let unit = o.unit().copied();
            match unit.and_then(|u| board.unit_at(u.province).map(|x| (u, *x))) {
                Some((u, x)) if x.power == ctx.power => Some((u.unit_type, x)),
                Some((u, x)) => {
                    return Err(format!(
                        "the unit in {} is {}'s, not yours",
                        name(u.province),
                        map.power_name(x.power)
                    ));
                }
                None => {
                    return Err(format!(
                        "you have no unit in {}",
                        unit.map(|u| name(u.province)).unwrap_or_default()
                    ));
                }
            }
        }
    };
    if let Some((written, actual)) = own_unit {
        designation(
            written,
            actual.unit_type,
            actual.location.province,
            warnings,
        )?;
    }
    // The other unit of a support or convoy.
    if let Order::SupportHold { target, .. }
    | Order::SupportMove { target, .. }
    | Order::Convoy { army: target, .. } = &order
    {
        if let Some(t) = board.unit_at(target.province) {
            designation(target.unit_type, t.unit_type, target.province, warnings)?;
            if let Some(nat) = target.nationality
                && nat != t.power
            {
                let adj = &map.powers[t.power.0 as usize].adjective;
                match ctx.rules.nationality_designation {
                    Designation::Accept => warnings.push(format!(
                        "the unit in {} is {adj}: the nationality written is ignored (WM D.IV(2))",
                        name(target.province)
                    )),
                    Designation::Invalidate => {
                        return Err(format!(
                            "the unit in {} is {adj}: a wrong nationality invalidates the order (Maharajiad B.V(4))",
                            name(target.province)
                        ));
                    }
                }
            }
        } else {
            warnings.push(format!("there is no unit in {}", name(target.province)));
        }
    }
    // A fleet move to a province with coasts, from where the fleet really is.
    if let (
        Order::Move {
            dest, dest_coast, ..
        }
        | Order::Retreat {
            dest, dest_coast, ..
        },
        Some((_, actual)),
    ) = (&mut order, own_unit)
        && actual.unit_type == UnitType::Fleet
    {
        settle_coast(map, actual.location, *dest, dest_coast)?;
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str, power: &str, phase: PhaseKind, rules: &Rules) -> Verdict {
        let map = Map::standard();
        let board = Board::initial(map);
        let abbreviations = HashMap::new();
        let ctx = ReadContext {
            map,
            rules,
            power: map.power_by_name(power).expect("power"),
            phase,
            board: Some(&board),
            abbreviations: &abbreviations,
        };
        read_order(&ctx, line)
    }

    fn canon(line: &str, power: &str) -> String {
        let v = read(line, power, PhaseKind::Movement, &Rules::default());
        match v.order {
            Some(o) => o.display(Map::standard()).to_string(),
            None => format!("ERR {}", v.message.unwrap_or_default()),
        }
    }

    #[test]
    fn notations() {
        assert_eq!(canon("A Par - Bur", "FRANCE"), "A PAR - BUR");
        assert_eq!(canon("Army Paris -> Burgundy", "FRANCE"), "A PAR - BUR");
        assert_eq!(canon("A Paris moves to Burgundy", "FRANCE"), "A PAR - BUR");
        assert_eq!(canon("a par to bur", "FRANCE"), "A PAR - BUR");
        assert_eq!(canon("A Par – Bur", "FRANCE"), "A PAR - BUR");
        assert_eq!(
            canon("F Brest - Mid-Atlantic Ocean", "FRANCE"),
            "F BRE - MAO"
        );
        assert_eq!(canon("F Brest - Mid Atlantic", "FRANCE"), "F BRE - MAO");
        // Found by the property tests: a move dash between two codes is not a hyphenated name.
        assert_eq!(
            canon("F Lon S A Swe - Den", "ENGLAND"),
            "F LON S A SWE - DEN"
        );
        assert_eq!(
            canon("A Mar S A Par - Bur", "FRANCE"),
            "A MAR S A PAR - BUR"
        );
        assert_eq!(
            canon("A Marseilles supports A Paris to Burgundy", "FRANCE"),
            "A MAR S A PAR - BUR"
        );
        assert_eq!(canon("A Mar S A Par", "FRANCE"), "A MAR S A PAR");
        assert_eq!(canon("F Bre H", "FRANCE"), "F BRE H");
        assert_eq!(canon("F Brest holds", "FRANCE"), "F BRE H");
        assert_eq!(canon("1. A Par - Bur", "FRANCE"), "A PAR - BUR");
        assert_eq!(canon("F StP/sc - Bot", "RUSSIA"), "F STP/SC - BOT");
        assert_eq!(
            canon("F St. Petersburg (south coast) - Gulf of Bothnia", "RUSSIA"),
            "F STP/SC - BOT"
        );
        assert_eq!(
            canon("F Sev S Russian A Mos - Ukr", "RUSSIA"),
            "F SEV S A MOS - UKR"
        );
        assert_eq!(canon("F Lon - Eng", "ENGLAND"), "F LON - ENG");
        assert_eq!(
            canon("A Lvp - Edi via convoy", "ENGLAND"),
            "A LVP - EDI VIA CONVOY"
        );
    }

    #[test]
    fn list_markers_are_not_part_of_the_order() {
        // Issue 10, point 5: numbered, lettered and bulleted lists.
        for line in [
            "1) A Par - Bur",
            "2. A Par - Bur",
            "(3) A Par - Bur",
            "[4] A Par - Bur",
            "5: A Par - Bur",
            "#6 A Par - Bur",
            "12) A Par - Bur",
            "1)A Par-Bur",
            "a) A Par - Bur",
            "B) A Par - Bur",
            "(c) A Par - Bur",
            "iv) A Par - Bur",
            "(ii) A Par - Bur",
            "- A Par - Bur",
            "-A Par - Bur",
            "* A Par - Bur",
            "• A Par - Bur",
            "◦ A Par - Bur",
            "▪ A Par - Bur",
            "– A Par – Bur",
            "- 1) A Par - Bur",
            "  •  a) A Par - Bur",
        ] {
            assert_eq!(canon(line, "FRANCE"), "A PAR - BUR", "{line}");
        }
        // The army letter is never a marker: a letter is one only with a parenthesis.
        assert_eq!(canon("A. Par - Bur", "FRANCE"), "A PAR - BUR");
        assert_eq!(canon("a Par - Bur", "FRANCE"), "A PAR - BUR");
        assert_eq!(canon("F. Bre - Mao", "FRANCE"), "F BRE - MAO");
        assert_eq!(canon("a) Par - Bur", "FRANCE"), "PAR - BUR");
        assert_eq!(canon("f) F Bre H", "FRANCE"), "F BRE H");
        // A parenthesis that is no marker is left to the reader.
        assert_eq!(canon("(A Par - Bur)", "FRANCE"), "A PAR - BUR");
    }

    fn parts(line: &str, power: &str) -> Vec<String> {
        let map = Map::standard();
        let board = Board::initial(map);
        let abbreviations = HashMap::new();
        let rules = Rules::default();
        let ctx = ReadContext {
            map,
            rules: &rules,
            power: map.power_by_name(power).expect("power"),
            phase: PhaseKind::Movement,
            board: Some(&board),
            abbreviations: &abbreviations,
        };
        read_line(&ctx, line)
            .into_iter()
            .map(|p| match (p.verdict.order, p.verdict.not_an_order) {
                (Some(o), _) if p.verdict.status != Status::Error => {
                    format!("{} = {}", p.text, o.display(map))
                }
                (_, true) => format!("{} = PROSE", p.text),
                _ => format!("{} = ERR {}", p.text, p.verdict.message.unwrap_or_default()),
            })
            .collect()
    }

    #[test]
    fn several_orders_on_one_line() {
        // Issue 10, point 5: `,` or `;` between orders, any arrow.
        assert_eq!(
            parts("A Par → Bur, F Bre - MAO; A Mar S A Par - Bur", "FRANCE"),
            [
                "A Par → Bur = A PAR - BUR",
                "F Bre - MAO = F BRE - MAO",
                "A Mar S A Par - Bur = A MAR S A PAR - BUR"
            ]
        );
        assert_eq!(
            parts("A Par ⇒ Bur; F Bre => Mao", "FRANCE"),
            ["A Par ⇒ Bur = A PAR - BUR", "F Bre => Mao = F BRE - MAO"]
        );
        assert_eq!(
            parts("1) A Par-Bur, F Bre-Mao, and A Mar H.", "FRANCE"),
            [
                "A Par-Bur = A PAR - BUR",
                "F Bre-Mao = F BRE - MAO",
                "A Mar H. = A MAR H"
            ]
        );
        assert_eq!(
            parts("a) A Par - Bur; b) Mar - Spa", "FRANCE"),
            ["A Par - Bur = A PAR - BUR", "b) Mar - Spa = MAR - SPA"]
        );
        // A broken part is an error of its own; the others are read.
        assert_eq!(
            parts("A Par - Bur, F Bre - Xyzzy", "FRANCE"),
            [
                "A Par - Bur = A PAR - BUR",
                "F Bre - Xyzzy = ERR 'xyzzy' is not a province of this map"
            ]
        );
        // One order with a comma in it stays one order.
        assert_eq!(
            parts("A Lvp - Nwy via Nth, Nwg", "ENGLAND"),
            ["A Lvp - Nwy via Nth, Nwg = A LVP - NWY VIA NTH NWG"]
        );
        assert_eq!(
            parts("A Par - Bur,", "FRANCE"),
            ["A Par - Bur, = A PAR - BUR"]
        );
        // Prose with commas is prose, or one error, never orders.
        assert_eq!(
            parts("Hi GM, here are my orders", "FRANCE"),
            ["Hi GM, here are my orders = PROSE"]
        );
        for prose in [
            "Well, A Par - Bur it is",
            "Paris, Burgundy and Munich are mine",
        ] {
            let v = parts(prose, "FRANCE");
            assert_eq!(v.len(), 1, "{v:?}");
            assert!(v[0].contains("ERR"), "{v:?}");
        }
    }

    #[test]
    fn typos() {
        let v = read(
            "A Par - Burgandy",
            "FRANCE",
            PhaseKind::Movement,
            &Rules::default(),
        );
        assert_eq!(v.status, Status::Warning);
        assert!(
            v.message
                .unwrap_or_default()
                .contains("'Burgandy' read as Burgundy")
        );
        let v = read(
            "A Par - Xyzzy",
            "FRANCE",
            PhaseKind::Movement,
            &Rules::default(),
        );
        assert_eq!(v.status, Status::Error);
    }

    #[test]
    fn coasts() {
        let map = Map::standard();
        let mut board = Board::initial(map);
        let france = map.power_by_name("FRANCE").expect("france");
        board.units.push(crate::map::Unit {
            power: france,
            unit_type: UnitType::Fleet,
            location: Location::new(map.province_by_code("MAO").expect("mao")),
        });
        board.units.push(crate::map::Unit {
            power: france,
            unit_type: UnitType::Fleet,
            location: Location::new(map.province_by_code("GAS").expect("gas")),
        });
        let abbreviations = HashMap::new();
        let rules = Rules::default();
        let ctx = ReadContext {
            map,
            rules: &rules,
            power: france,
            phase: PhaseKind::Movement,
            board: Some(&board),
            abbreviations: &abbreviations,
        };
        let got = |line: &str| {
            let v = read_order(&ctx, line);
            v.order
                .map(|o| o.display(map).to_string())
                .unwrap_or_else(|| format!("ERR {}", v.message.unwrap_or_default()))
        };
        assert_eq!(
            got("F Mid - Spa"),
            "ERR 'SPA' is ambiguous for a fleet from Mid-Atlantic Ocean: write SPA/NC or SPA/SC"
        );
        assert_eq!(got("F Mid - Spa/sc"), "F MAO - SPA/SC");
        assert_eq!(got("F Mid - Spa(sc)"), "F MAO - SPA/SC");
        assert_eq!(got("F Mid - spa sc"), "F MAO - SPA/SC");
        assert_eq!(got("F Mid - Spain south coast"), "F MAO - SPA/SC");
        assert_eq!(got("F MAO - Spain (north coast)"), "F MAO - SPA/NC");
        // Only one coast reachable: it is filled in.
        assert_eq!(got("F Gas - Spa"), "F GAS - SPA/NC");
    }

    #[test]
    fn chatter_is_not_an_order() {
        let v = read(
            "Hi GM, here are my orders",
            "FRANCE",
            PhaseKind::Movement,
            &Rules::default(),
        );
        assert!(v.not_an_order);
        let v = read("Thanks!", "FRANCE", PhaseKind::Movement, &Rules::default());
        assert!(v.not_an_order);
    }

    #[test]
    fn distance_counts_transpositions() {
        assert_eq!(distance("burgundy", "burgandy"), 1);
        assert_eq!(distance("munich", "munihc"), 1);
        assert_eq!(distance("abc", "abc"), 0);
        assert_eq!(distance("", "abc"), 3);
    }
}
