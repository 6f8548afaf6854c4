//! Corrections of a published adjudication (WM D.VIII(1)-(3); Maharajiad IX(1)-(3)). Pure: a
//! correction is read against the variant's map and applied to the board the players now give
//! orders for. Only that board is corrected: an error not pointed out before the next
//! adjudication stands (WM D.VIII(1)), and a turn that must be played again is a ROLLBACK.

use crate::adjudicator::Board;
use crate::json::parse_unit;
use crate::map::{Location, Map, Power, Province, Unit};

/// One correction, as the GM writes it after `CORRECT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Correction {
    /// `MOVE A PAR BUR`: the unit in the first space should stand in the second (WM D.VIII(1)).
    /// If that space is taken, the unit goes off the board (WM D.VIII(2)).
    Move { from: Province, to: Location },
    /// `PLACE FRANCE A PAR`: a unit missing from the board (WM D.VIII(1)).
    Place(Unit),
    /// `REMOVE A PAR`: a unit that should not be there (WM D.VIII(1)).
    Remove(Province),
    /// `OWNER BEL FRANCE`, `OWNER BEL NONE`: a centre's owner (WM D.VIII(1)).
    Owner {
        centre: Province,
        owner: Option<Power>,
    },
    /// `EXTRA A PAR`: a unit too many that has stood through more than one adjudication (the
    /// "Flying Dutchman", WM D.VIII(3)): it stays, and the power's unit count is put right by
    /// the next build/disband phase, which counts units against centres.
    Extra(Province),
}

/// What a correction did, in words for the players.
pub type Told = String;

/// The grammar, for replies.
pub const SYNTAX: &str = "write CORRECT MOVE <unit> <space>, CORRECT PLACE <power> <unit>, \
     CORRECT REMOVE <unit>, CORRECT OWNER <centre> <power|NONE> or CORRECT EXTRA <unit>";

impl Correction {
    /// Read the words after `CORRECT`.
    pub fn parse(map: &Map, text: &str) -> Result<Correction, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((verb, rest)) = words.split_first() else {
            return Err(SYNTAX.into());
        };
        let space = |w: &str| -> Result<Province, String> {
            map.parse_location(w)
                .map(|(p, _)| p)
                .ok_or_else(|| format!("'{w}' is not a space of this map"))
        };
        // A unit may be written with or without its type: `A PAR` or `PAR`.
        let unit_space = |ws: &[&str]| -> Result<Province, String> {
            match ws {
                [ty, w] if matches!(ty.to_ascii_uppercase().as_str(), "A" | "F") => space(w),
                [w] => space(w),
                _ => Err(SYNTAX.into()),
            }
        };
        match verb.to_ascii_uppercase().as_str() {
            "MOVE" => {
                let rest: Vec<&str> = rest
                    .iter()
                    .copied()
                    .filter(|w| !matches!(w.to_ascii_uppercase().as_str(), "TO" | "-" | "->"))
                    .collect();
                let Some((to, from)) = rest.split_last() else {
                    return Err(SYNTAX.into());
                };
                let (p, coast) = map
                    .parse_location(to)
                    .ok_or_else(|| format!("'{to}' is not a space of this map"))?;
                Ok(Correction::Move {
                    from: unit_space(from)?,
                    to: Location { province: p, coast },
                })
            }
            "PLACE" | "ADD" => match rest {
                [power, unit @ ..] if !unit.is_empty() => {
                    let pw = map
                        .power_by_name(power)
                        .ok_or_else(|| format!("'{power}' is not a power of this game"))?;
                    parse_unit(map, pw, &unit.join(" "))
                        .map(Correction::Place)
                        .map_err(|e| e.0)
                }
                _ => Err(SYNTAX.into()),
            },
            "REMOVE" | "DELETE" => unit_space(rest).map(Correction::Remove),
            "EXTRA" | "DUTCHMAN" => unit_space(rest).map(Correction::Extra),
            "OWNER" => match rest {
                [centre, owner] => {
                    let c = space(centre)?;
                    if !map.info(c).supply_center {
                        return Err(format!("{} is not a supply centre", map.info(c).code));
                    }
                    let owner = match owner.to_ascii_uppercase().as_str() {
                        "NONE" | "NOBODY" | "NEUTRAL" => None,
                        _ => Some(
                            map.power_by_name(owner)
                                .ok_or_else(|| format!("'{owner}' is not a power of this game"))?,
                        ),
                    };
                    Ok(Correction::Owner { centre: c, owner })
                }
                _ => Err(SYNTAX.into()),
            },
            _ => Err(SYNTAX.into()),
        }
    }

    /// Apply the correction to `board`: the corrected board and what was done, in words; or why
    /// it cannot be done (the board unchanged).
    pub fn apply(&self, map: &Map, board: &Board) -> Result<(Board, Told), String> {
        let mut b = board.clone();
        let named = |u: &Unit| {
            format!(
                "{} {}",
                map.power_name(u.power),
                map.unit_name(u.unit_type, u.location)
            )
        };
        let unit_in = |p: Province| {
            board
                .unit_at(p)
                .copied()
                .ok_or_else(|| format!("there is no unit in {}", map.info(p).code))
        };
        match *self {
            Correction::Move { from, to } => {
                let u = unit_in(from)?;
                if to.province == from {
                    return Err("the unit is already there".into());
                }
                if !map.can_occupy(u.unit_type, to) {
                    return Err(format!(
                        "{} cannot stand in {}{}",
                        named(&u),
                        map.location_name(to),
                        if !map.info(to.province).coasts.is_empty() && to.coast.is_none() {
                            " (name the coast)"
                        } else {
                            ""
                        }
                    ));
                }
                b.units.retain(|x| x.location.province != from);
                if let Some(other) = board.unit_at(to.province) {
                    // WM D.VIII(2): the unit erroneously present goes where it should have been
                    // if that space is vacant, and otherwise off the board.
                    return Ok((
                        b,
                        format!(
                            "{} should have stood in {}, which {} holds: it is taken off the \
                             board (WM D.VIII(2)).",
                            named(&u),
                            map.location_name(to),
                            named(other)
                        ),
                    ));
                }
                let moved = Unit { location: to, ..u };
                b.units.push(moved);
                Ok((
                    b,
                    format!(
                        "{} is moved to {}, where it should have been (WM D.VIII(1)).",
                        named(&u),
                        map.location_name(to)
                    ),
                ))
            }
            Correction::Place(u) => {
                if let Some(other) = board.unit_at(u.location.province) {
                    return Err(format!(
                        "{} holds that space: MOVE or REMOVE it first (WM D.VIII(2))",
                        named(other)
                    ));
                }
                b.units.push(u);
                Ok((
                    b,
                    format!(
                        "{} is placed on the board, where it should have been (WM D.VIII(1)).",
                        named(&u)
                    ),
                ))
            }
            Correction::Remove(p) => {
                let u = unit_in(p)?;
                b.units.retain(|x| x.location.province != p);
                Ok((
                    b,
                    format!(
                        "{} is taken off the board: it should not have been there (WM D.VIII(1)).",
                        named(&u)
                    ),
                ))
            }
            Correction::Extra(p) => {
                let u = unit_in(p)?;
                Ok((
                    b,
                    format!(
                        "{} is a unit too many that has stood through more than one \
                         adjudication: it stays, and {}'s units are matched to its centres at \
                         the next build/disband phase (WM D.VIII(3)).",
                        named(&u),
                        map.power_name(u.power)
                    ),
                ))
            }
            Correction::Owner { centre, owner } => {
                if board.owner(centre) == owner {
                    return Err("the centre already has that owner".into());
                }
                let Some(slot) = b.owners.get_mut(usize::from(centre.0)) else {
                    return Err("that centre is not on this board".into());
                };
                *slot = owner;
                Ok((
                    b,
                    format!(
                        "{} is owned by {} (WM D.VIII(1)).",
                        map.info(centre).code,
                        owner.map_or("nobody", |p| map.power_name(p))
                    ),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> &'static Map {
        Map::variant("standard").expect("standard")
    }

    fn apply(board: &Board, text: &str) -> Result<(Board, Told), String> {
        Correction::parse(map(), text)?.apply(map(), board)
    }

    fn at(board: &Board, code: &str) -> Option<String> {
        let (p, _) = map().parse_location(code)?;
        board.unit_at(p).map(|u| {
            format!(
                "{} {}",
                map().power_name(u.power),
                map().unit_name(u.unit_type, u.location)
            )
        })
    }

    #[test]
    fn wm_d_viii_1_a_unit_moved_to_where_it_should_have_been() {
        let b = Board::initial(map());
        let (c, told) = apply(&b, "MOVE A PAR BUR").expect("moved");
        assert_eq!(at(&c, "PAR"), None);
        assert_eq!(at(&c, "BUR").as_deref(), Some("FRANCE A BUR"));
        assert!(told.contains("WM D.VIII(1)"), "{told}");
        assert_eq!(c.units.len(), b.units.len());
        // Also written without the type, with TO.
        let (c2, _) = apply(&b, "move par to bur").expect("moved");
        assert_eq!(c2, c);
    }

    #[test]
    fn wm_d_viii_2_an_erroneous_unit_whose_space_is_taken_goes_off_the_board() {
        let b = Board::initial(map());
        // The army in Paris should have been in Marseilles, which France's own army holds.
        let (c, told) = apply(&b, "MOVE A PAR MAR").expect("done");
        assert_eq!(at(&c, "PAR"), None);
        assert_eq!(at(&c, "MAR").as_deref(), Some("FRANCE A MAR"));
        assert_eq!(c.units.len(), b.units.len() - 1);
        assert!(told.contains("off the board (WM D.VIII(2))"), "{told}");
        // Placing a unit in a taken space is refused: the GM says which one is wrong first.
        let e = apply(&b, "PLACE GERMANY A PAR").expect_err("taken");
        assert!(e.contains("D.VIII(2)"), "{e}");
    }

    #[test]
    fn wm_d_viii_3_the_flying_dutchman_stays_until_the_adjustments() {
        let b = Board::initial(map());
        let (c, told) = apply(&b, "EXTRA F BRE").expect("noted");
        assert_eq!(c, b, "the board is not changed now");
        assert!(told.contains("WM D.VIII(3)"), "{told}");
        assert!(apply(&b, "EXTRA A BUR").is_err(), "no unit there");
    }

    #[test]
    fn wm_d_viii_1_units_placed_and_removed_and_owners_changed() {
        let b = Board::initial(map());
        let (c, _) = apply(&b, "PLACE GERMANY A BUR").expect("placed");
        assert_eq!(at(&c, "BUR").as_deref(), Some("GERMANY A BUR"));
        let (c, _) = apply(&c, "REMOVE A BUR").expect("removed");
        assert_eq!(c, b);
        let bel = map().parse_location("BEL").expect("bel").0;
        let (c, told) = apply(&b, "OWNER BEL FRANCE").expect("owner");
        assert_eq!(c.owner(bel), map().power_by_name("FRANCE"));
        assert!(told.contains("BEL is owned by FRANCE"), "{told}");
        let (c, _) = apply(&c, "OWNER BEL NONE").expect("owner");
        assert_eq!(c, b);
    }

    #[test]
    fn impossible_corrections_are_refused_with_the_reason() {
        let b = Board::initial(map());
        for (text, why) in [
            ("MOVE A BUR PAR", "no unit in BUR"),
            ("MOVE A PAR NTH", "cannot stand"),
            ("MOVE F STP MOS", "cannot stand"),
            ("MOVE F BRE SPA", "name the coast"),
            ("PLACE FRANCE F BUR", "cannot stand"),
            ("PLACE NARNIA A BUR", "not a power"),
            ("OWNER BUR FRANCE", "not a supply centre"),
            ("OWNER PAR FRANCE", "already"),
            ("TELEPORT A PAR", "CORRECT MOVE"),
            ("", "CORRECT MOVE"),
        ] {
            let e = apply(&b, text).expect_err(text);
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
