//! Typed orders, and the canonical notation used by `chancery adjudicate` and the DATC files.
//!
//! An order keeps what was written (unit type, nationality, coast), even when it is wrong, so that
//! the house-rule policies (WM D.IV, Maharajiad B.V) can decide what a wrong designation means.
//! The forgiving reader for player mail lives elsewhere; this notation is strict and canonical:
//! `A PAR - BUR`, `A LON - BEL VIA CONVOY`, `A LON - BEL VIA NTH`, `F NTH C A LON - BEL`,
//! `A MUN S A BER - SIL`, `A MUN S F KIE`, `F LON H`, `F BRE R PIC`, `F BRE D`, `BUILD A PAR`,
//! `BUILD F STP/NC`, `REMOVE F KIE`, `WAIVE`.

use crate::map::{Coast, Map, Power, Province, UnitType};
use std::fmt;

/// A unit as an order names it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct UnitRef {
    /// `None` when the writer left the type out.
    pub unit_type: Option<UnitType>,
    pub province: Province,
    /// The coast as written, which may be wrong or missing.
    pub coast: Option<Coast>,
    /// A nationality adjective, as written (`F Bla S Russian A Sev-Rum`).
    pub nationality: Option<Power>,
}

impl UnitRef {
    pub fn new(unit_type: Option<UnitType>, province: Province) -> UnitRef {
        UnitRef {
            unit_type,
            province,
            coast: None,
            nationality: None,
        }
    }
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Order {
    Hold {
        unit: UnitRef,
    },
    Move {
        unit: UnitRef,
        dest: Province,
        dest_coast: Option<Coast>,
        /// "via convoy" was written (or a route was given).
        via_convoy: bool,
        /// An explicit convoy route: the sea provinces, in order (WM D.VI(3)).
        route: Vec<Province>,
    },
    SupportHold {
        unit: UnitRef,
        target: UnitRef,
    },
    SupportMove {
        unit: UnitRef,
        target: UnitRef,
        dest: Province,
        dest_coast: Option<Coast>,
    },
    Convoy {
        unit: UnitRef,
        army: UnitRef,
        dest: Province,
    },
    Retreat {
        unit: UnitRef,
        dest: Province,
        dest_coast: Option<Coast>,
    },
    /// Disband in a retreat phase.
    Disband {
        unit: UnitRef,
    },
    Build {
        unit_type: Option<UnitType>,
        province: Province,
        coast: Option<Coast>,
    },
    /// Remove (disband) in an adjustment phase.
    Remove {
        unit: UnitRef,
    },
    Waive,
}

impl Order {
    /// The unit the order is for, if any.
    pub fn unit(&self) -> Option<&UnitRef> {
        match self {
            Order::Hold { unit }
            | Order::Move { unit, .. }
            | Order::SupportHold { unit, .. }
            | Order::SupportMove { unit, .. }
            | Order::Convoy { unit, .. }
            | Order::Retreat { unit, .. }
            | Order::Disband { unit }
            | Order::Remove { unit } => Some(unit),
            Order::Build { .. } | Order::Waive => None,
        }
    }

    /// The province the order is about (the ordered unit's, or the build site).
    pub fn province(&self) -> Option<Province> {
        match self {
            Order::Build { province, .. } => Some(*province),
            o => o.unit().map(|u| u.province),
        }
    }

    pub fn is_adjustment(&self) -> bool {
        matches!(
            self,
            Order::Build { .. } | Order::Remove { .. } | Order::Waive
        )
    }

    /// Canonical notation, upper case, no nationality, `/` for coasts.
    pub fn display<'a>(&'a self, map: &'a Map) -> OrderDisplay<'a> {
        OrderDisplay { order: self, map }
    }
}

pub struct OrderDisplay<'a> {
    order: &'a Order,
    map: &'a Map,
}

fn write_unit(f: &mut fmt::Formatter<'_>, map: &Map, u: &UnitRef) -> fmt::Result {
    if let Some(t) = u.unit_type {
        write!(f, "{} ", t.letter())?;
    }
    write_place(f, map, u.province, u.coast)
}

fn write_place(
    f: &mut fmt::Formatter<'_>,
    map: &Map,
    p: Province,
    c: Option<Coast>,
) -> fmt::Result {
    write!(f, "{}", map.info(p).code)?;
    if let Some(c) = c {
        write!(f, "/{}", c.code())?;
    }
    Ok(())
}

impl fmt::Display for OrderDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let map = self.map;
        match self.order {
            Order::Hold { unit } => {
                write_unit(f, map, unit)?;
                write!(f, " H")
            }
            Order::Move {
                unit,
                dest,
                dest_coast,
                via_convoy,
                route,
            } => {
                write_unit(f, map, unit)?;
                write!(f, " - ")?;
                write_place(f, map, *dest, *dest_coast)?;
                if !route.is_empty() {
                    write!(f, " VIA")?;
                    for p in route {
                        write!(f, " {}", map.info(*p).code)?;
                    }
                } else if *via_convoy {
                    write!(f, " VIA CONVOY")?;
                }
                Ok(())
            }
            Order::SupportHold { unit, target } => {
                write_unit(f, map, unit)?;
                write!(f, " S ")?;
                write_unit(f, map, target)
            }
            Order::SupportMove {
                unit,
                target,
                dest,
                dest_coast,
            } => {
                write_unit(f, map, unit)?;
                write!(f, " S ")?;
                write_unit(f, map, target)?;
                write!(f, " - ")?;
                write_place(f, map, *dest, *dest_coast)
            }
            Order::Convoy { unit, army, dest } => {
                write_unit(f, map, unit)?;
                write!(f, " C ")?;
                write_unit(f, map, army)?;
                write!(f, " - {}", map.info(*dest).code)
            }
            Order::Retreat {
                unit,
                dest,
                dest_coast,
            } => {
                write_unit(f, map, unit)?;
                write!(f, " R ")?;
                write_place(f, map, *dest, *dest_coast)
            }
            Order::Disband { unit } => {
                write_unit(f, map, unit)?;
                write!(f, " D")
            }
            Order::Build {
                unit_type,
                province,
                coast,
            } => {
                write!(f, "BUILD ")?;
                if let Some(t) = unit_type {
                    write!(f, "{} ", t.letter())?;
                }
                write_place(f, map, *province, *coast)
            }
            Order::Remove { unit } => {
                write!(f, "REMOVE ")?;
                write_unit(f, map, unit)
            }
            Order::Waive => write!(f, "WAIVE"),
        }
    }
}

/// Why a line of notation could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotationError {
    pub text: String,
    pub message: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read order '{}': {}", self.text, self.message)
    }
}

impl std::error::Error for NotationError {}

/// Split notation into upper-case tokens; `-`, `->` and parentheses become separate tokens,
/// and a parenthesised or slashed coast stays attached to its province.
fn tokenize(text: &str) -> Vec<String> {
    let mut s = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '-' => {
                if chars.peek() == Some(&'>') {
                    chars.next();
                }
                s.push_str(" - ");
            }
            '(' => s.push('/'),
            ')' => s.push(' '),
            ',' | ';' | ':' => s.push(' '),
            c => s.push(c),
        }
    }
    let mut out: Vec<String> = Vec::new();
    for t in s.split_whitespace() {
        let t = t.to_uppercase();
        // "SPA /NC" or "SPA / NC" after the parenthesis rewrite.
        if let Some(rest) = t.strip_prefix('/')
            && let Some(last) = out.last_mut()
        {
            last.push('/');
            last.push_str(rest);
            continue;
        }
        out.push(t);
    }
    // "SPA/ NC"
    let mut merged: Vec<String> = Vec::with_capacity(out.len());
    for t in out {
        if let Some(last) = merged.last_mut()
            && last.ends_with('/')
        {
            last.push_str(&t);
            continue;
        }
        merged.push(t);
    }
    merged
}

struct Cursor<'a> {
    toks: &'a [String],
    pos: usize,
    map: &'a Map,
    text: &'a str,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.pos).map(String::as_str)
    }
    fn next(&mut self) -> Option<&'a str> {
        let t = self.peek();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }
    fn eat(&mut self, words: &[&str]) -> bool {
        match self.peek() {
            Some(t) if words.contains(&t) => {
                self.pos += 1;
                true
            }
            _ => false,
        }
    }
    fn err(&self, message: impl Into<String>) -> NotationError {
        NotationError {
            text: self.text.to_string(),
            message: message.into(),
        }
    }
    fn unit_type(&mut self) -> Option<UnitType> {
        if self.eat(&["A", "ARMY"]) {
            Some(UnitType::Army)
        } else if self.eat(&["F", "FLEET"]) {
            Some(UnitType::Fleet)
        } else {
            None
        }
    }
    fn place(&mut self) -> Result<(Province, Option<Coast>), NotationError> {
        let t = self
            .next()
            .ok_or_else(|| self.err("a province is missing"))?;
        let (p, c) = self
            .map
            .parse_location(t)
            .ok_or_else(|| self.err(format!("'{t}' is not a province (or coast) of this map")))?;
        // "SPA NC" with the coast as its own word.
        if c.is_none()
            && !self.map.info(p).coasts.is_empty()
            && let Some(next) = self.peek()
            && matches!(next, "NC" | "SC" | "EC" | "WC")
        {
            self.pos += 1;
            return Ok((p, Coast::from_code(next)));
        }
        Ok((p, c))
    }
    fn unit(&mut self) -> Result<UnitRef, NotationError> {
        let nationality = match self.peek() {
            Some(t) if t.len() > 1 && self.map.power_by_name(t).is_some() => {
                self.pos += 1;
                self.map.power_by_name(t)
            }
            _ => None,
        };
        let unit_type = self.unit_type();
        let (province, coast) = self.place()?;
        Ok(UnitRef {
            unit_type,
            province,
            coast,
            nationality,
        })
    }
    fn done(&self) -> Result<(), NotationError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(self.err(format!("unexpected '{t}' at the end"))),
        }
    }
}

/// Read one order in canonical notation.
pub fn parse_order(map: &Map, text: &str) -> Result<Order, NotationError> {
    let toks = tokenize(text);
    let mut c = Cursor {
        toks: &toks,
        pos: 0,
        map,
        text,
    };
    if c.peek().is_none() {
        return Err(c.err("the order is empty"));
    }
    if c.eat(&["WAIVE"]) {
        c.done()?;
        return Ok(Order::Waive);
    }
    if c.eat(&["BUILD", "B"]) {
        let unit_type = c.unit_type();
        let (province, coast) = c.place()?;
        c.done()?;
        return Ok(Order::Build {
            unit_type,
            province,
            coast,
        });
    }
    if c.eat(&["REMOVE", "DISBAND"]) {
        let unit = c.unit()?;
        c.done()?;
        return Ok(Order::Remove { unit });
    }
    let unit = c.unit()?;
    let verb = match c.next() {
        None => return Ok(Order::Hold { unit }),
        Some(v) => v,
    };
    let order = match verb {
        "H" | "HOLD" | "HOLDS" => Order::Hold { unit },
        "D" | "DISBAND" | "DISBANDS" => Order::Disband { unit },
        "BUILD" | "B" => Order::Build {
            unit_type: unit.unit_type,
            province: unit.province,
            coast: unit.coast,
        },
        "REMOVE" => Order::Remove { unit },
        "R" | "RETREAT" | "RETREATS" => {
            c.eat(&["-", "TO"]);
            let (dest, dest_coast) = c.place()?;
            Order::Retreat {
                unit,
                dest,
                dest_coast,
            }
        }
        "-" | "TO" | "M" | "MOVE" | "MOVES" => {
            c.eat(&["TO"]);
            let (mut dest, mut dest_coast) = c.place()?;
            let mut route = Vec::new();
            // "A LON - NTH - BEL": every place but the last is on the route.
            while c.eat(&["-"]) {
                route.push(dest);
                let (d, dc) = c.place()?;
                dest = d;
                dest_coast = dc;
            }
            let mut via_convoy = !route.is_empty();
            if c.eat(&["VIA", "BY"]) {
                if c.eat(&["CONVOY"]) {
                    via_convoy = true;
                } else {
                    if !route.is_empty() {
                        return Err(c.err("a route is given twice"));
                    }
                    while c.peek().is_some() {
                        let (p, _) = c.place()?;
                        route.push(p);
                    }
                    if route.is_empty() {
                        return Err(c.err("'VIA' needs CONVOY or a route of sea provinces"));
                    }
                    via_convoy = true;
                }
            }
            Order::Move {
                unit,
                dest,
                dest_coast,
                via_convoy,
                route,
            }
        }
        "S" | "SUPPORT" | "SUPPORTS" => {
            let target = c.unit()?;
            if c.eat(&["-", "TO"]) {
                let (dest, dest_coast) = c.place()?;
                Order::SupportMove {
                    unit,
                    target,
                    dest,
                    dest_coast,
                }
            } else {
                c.eat(&["H", "HOLD", "HOLDS"]);
                Order::SupportHold { unit, target }
            }
        }
        "C" | "CONVOY" | "CONVOYS" => {
            let army = c.unit()?;
            if !c.eat(&["-", "TO"]) {
                return Err(c.err("a convoy needs the army's destination: F NTH C A LON - BEL"));
            }
            let (dest, _) = c.place()?;
            Order::Convoy { unit, army, dest }
        }
        v => return Err(c.err(format!("'{v}' is not an order verb"))),
    };
    c.done()?;
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(s: &str) -> String {
        let map = Map::standard();
        match parse_order(map, s) {
            Ok(o) => o.display(map).to_string(),
            Err(e) => format!("ERR {}", e.message),
        }
    }

    #[test]
    fn canonical_round_trips() {
        for s in [
            "A PAR - BUR",
            "A LON - BEL VIA CONVOY",
            "A LON - BEL VIA NTH",
            "F NTH C A LON - BEL",
            "A MUN S A BER - SIL",
            "A MUN S F KIE",
            "F LON H",
            "F BRE R PIC",
            "F BRE D",
            "BUILD A PAR",
            "BUILD F STP/NC",
            "REMOVE F KIE",
            "WAIVE",
            "F STP/SC - BOT",
        ] {
            assert_eq!(round(s), s);
        }
    }

    #[test]
    fn variants_of_notation() {
        assert_eq!(round("f stp(sc) -> bot"), "F STP/SC - BOT");
        assert_eq!(round("F MAO - SPA NC"), "F MAO - SPA/NC");
        assert_eq!(round("A LON-NTH-BEL"), "A LON - BEL VIA NTH");
        assert_eq!(round("F BLA S RUSSIAN A SEV - RUM"), "F BLA S A SEV - RUM");
        assert_eq!(round("A MUN S A BER H"), "A MUN S A BER");
        assert_eq!(round("A PAR"), "A PAR H");
        assert_eq!(round("PAR - BUR"), "PAR - BUR");
    }

    #[test]
    fn errors_are_specific() {
        assert!(round("A XYZ - BUR").contains("'XYZ' is not a province"));
        assert!(round("A PAR X BUR").contains("'X' is not an order verb"));
        assert!(round("F NTH C A LON").contains("destination"));
        assert!(round("").contains("empty"));
        assert!(round("A PAR - BUR BUR").contains("unexpected"));
    }
}
