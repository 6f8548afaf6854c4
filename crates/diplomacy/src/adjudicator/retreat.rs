//! Retreat phases: where dislodged units may go, and what happens when they try.

use super::{Adjudication, Board, OrderResult, Outcome, Reason, RetreatOptions, advance};
use crate::map::{Coast, Location, Map, Power, Province, UnitType};
use crate::order::Order;
use crate::rules::{MultipleOrders, Rules};

/// Legal retreats of every dislodged unit on the board: an adjacent place that is empty after the
/// movement, was not left empty by a standoff, and is not where the attacker came from unless it
/// came by convoy (WM D.VI(1), Maharajiad B.VII(1), DATC 4.A.5).
pub(super) fn options(map: &Map, board: &Board) -> Vec<RetreatOptions> {
    let occupied = super::occupied(&board.units);
    board
        .dislodged
        .iter()
        .map(|d| {
            let open = |p: Province| {
                !occupied.contains(p)
                    && !board.contested.contains(&p)
                    && (p != d.attacker_from || d.by_convoy)
            };
            let here = d.unit.location;
            let retreats: Vec<Location> = match d.unit.unit_type {
                UnitType::Army => map
                    .army_neighbours(here.province)
                    .iter()
                    .filter(|p| open(*p))
                    .map(Location::new)
                    .collect(),
                UnitType::Fleet => map
                    .fleet_neighbours(here)
                    .iter()
                    .copied()
                    .filter(|l| open(l.province))
                    .collect(),
            };
            RetreatOptions {
                dislodged: d.clone(),
                retreats,
            }
        })
        .collect()
}

pub(super) fn adjudicate(
    map: &Map,
    rules: &Rules,
    board: &Board,
    orders: &[(Power, Order)],
) -> Adjudication {
    let opts = options(map, board);
    let n = opts.len();
    let mut results: Vec<OrderResult> =
        super::blank_results(orders, Outcome::Invalid, Some(Reason::Illegal));
    // Per dislodged unit, its orders in written order: (input index, what it asks). An illegal
    // order for one's own unit is kept too: under WM D.III(5) it still replaces earlier ones.
    let mut choice: Vec<Vec<(usize, Ask)>> = vec![Vec::new(); n];
    for (k, (power, order)) in orders.iter().enumerate() {
        let (unit, dest, dest_coast) = match order {
            Order::Retreat {
                unit,
                dest,
                dest_coast,
            } => (unit, Some(*dest), *dest_coast),
            Order::Move {
                unit,
                dest,
                dest_coast,
                via_convoy: false,
                ..
            } => (unit, Some(*dest), *dest_coast),
            Order::Disband { unit } | Order::Remove { unit } => (unit, None, None),
            _ => {
                results[k].reason = Some(Reason::WrongPhase);
                results[k].note =
                    Some("only retreat and disband orders are given in a retreat phase".into());
                continue;
            }
        };
        let Some(idx) = opts
            .iter()
            .position(|o| o.dislodged.unit.location.province == unit.province)
        else {
            results[k].reason = Some(Reason::NoUnit);
            results[k].note = Some(format!(
                "no dislodged unit in {}",
                map.info(unit.province).code
            ));
            continue;
        };
        let o = &opts[idx];
        if o.dislodged.unit.power != *power {
            results[k].reason = Some(Reason::NotOwnUnit);
            results[k].note = Some("that dislodged unit belongs to another power".into());
            continue;
        }
        if super::check_designation(rules, unit.unit_type, &o.dislodged.unit).is_err() {
            results[k].note = Some("the unit is not of the type written".into());
            choice[idx].push((k, Ask::Illegal));
            continue;
        }
        let Some(dest) = dest else {
            choice[idx].push((k, Ask::Disband));
            continue;
        };
        match pick_retreat(map, &o.retreats, dest, dest_coast) {
            Ok(loc) => choice[idx].push((k, Ask::Retreat(loc))),
            Err(note) => {
                results[k].note = Some(note);
                choice[idx].push((k, Ask::Illegal));
            }
        }
    }

    // One order per unit, as in movement phases.
    let mut decided: Vec<Option<(Vec<usize>, Option<Location>)>> = vec![None; n];
    for (idx, cands) in choice.iter().enumerate() {
        match rules.multiple_orders {
            MultipleOrders::LastWins => {
                // WM D.III(5): the last order is used; if it is illegal, the unit has no
                // retreat and is disbanded.
                if let Some((k, ask)) = cands.last() {
                    for (j, a) in &cands[..cands.len() - 1] {
                        if *a != Ask::Illegal {
                            results[*j].reason = Some(Reason::Superseded);
                            results[*j].note = Some("a later order for this unit is used".into());
                        }
                    }
                    decided[idx] = match ask {
                        Ask::Retreat(l) => Some((vec![*k], Some(*l))),
                        Ask::Disband => Some((vec![*k], None)),
                        Ask::Illegal => None,
                    };
                }
            }
            MultipleOrders::Hold => {
                // DATC 4.D.3, Maharajiad B.IV(6): illegal orders are ignored; two different
                // legal ones leave the unit without a retreat.
                let legal: Vec<&(usize, Ask)> =
                    cands.iter().filter(|(_, a)| *a != Ask::Illegal).collect();
                if let Some((_, first)) = legal.first() {
                    if legal.iter().all(|(_, a)| a == first) {
                        let dest = match first {
                            Ask::Retreat(l) => Some(*l),
                            _ => None,
                        };
                        decided[idx] = Some((legal.iter().map(|(k, _)| *k).collect(), dest));
                    } else {
                        for (j, _) in legal {
                            results[*j].reason = Some(Reason::Ambiguous);
                        }
                    }
                }
            }
        }
    }

    let mut next = board.clone();
    next.dislodged.clear();
    next.contested.clear();
    let mut disbanded = Vec::new();
    for (idx, o) in opts.iter().enumerate() {
        let unit = o.dislodged.unit;
        match &decided[idx] {
            Some((ks, Some(dest))) => {
                // Two retreats to one province both fail.
                let clash = decided.iter().enumerate().any(|(j, d)| {
                    j != idx && matches!(d, Some((_, Some(l))) if l.province == dest.province)
                });
                let (outcome, reason) = if clash {
                    disbanded.push(unit);
                    (Outcome::Fails, Some(Reason::RetreatBounce))
                } else {
                    let mut moved = unit;
                    moved.location = *dest;
                    next.units.push(moved);
                    next.held_since[dest.province.0 as usize] = Some(board.phase.successor());
                    (Outcome::Succeeds, None)
                };
                for &k in ks {
                    results[k].outcome = outcome;
                    results[k].reason = reason;
                }
            }
            Some((ks, None)) => {
                disbanded.push(unit);
                for &k in ks {
                    results[k].outcome = Outcome::Succeeds;
                    results[k].reason = None;
                }
            }
            None => disbanded.push(unit),
        }
    }
    advance(map, &mut next, board.phase);
    Adjudication {
        phase: board.phase,
        results,
        disbanded,
        built: Vec::new(),
        retreats: Vec::new(),
        next,
    }
}

/// What a retreat-phase order asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    Retreat(Location),
    Disband,
    Illegal,
}

/// The retreat location an order asks for, if it is one of the legal ones.
fn pick_retreat(
    map: &Map,
    legal: &[Location],
    dest: Province,
    coast: Option<Coast>,
) -> Result<Location, String> {
    let matches: Vec<Location> = legal
        .iter()
        .copied()
        .filter(|l| l.province == dest)
        .collect();
    let code = &map.info(dest).code;
    match matches.as_slice() {
        [] => Err(format!("the unit cannot retreat to {code}")),
        [only] => match (coast, only.coast) {
            (Some(c), Some(oc)) if c != oc => {
                Err(format!("the unit cannot retreat to {code}/{}", c.code()))
            }
            _ => Ok(*only),
        },
        many => match coast {
            Some(c) => many
                .iter()
                .copied()
                .find(|l| l.coast == Some(c))
                .ok_or_else(|| format!("the unit cannot retreat to {code}/{}", c.code())),
            None => Err(format!("'{code}' is ambiguous: name the coast")),
        },
    }
}
