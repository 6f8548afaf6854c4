//! Conditional retreat and adjustment orders (WM D.II(5)), sent with the movement orders for the
//! phase that follows: read against that phase's board when it comes.

use super::turn::Turn;
use super::*;
use crate::reader::ReadContext;

/// WM D.II(5): the orders a power's conditional block gives in this phase, each line read
/// against the phase's board, the first possible choice first ("Rule D.III(5) will not be
/// applied for conditional orders").
pub(super) fn orders(t: &Turn<'_>, power: Power, lines: &str) -> Vec<Order> {
    let none = HashMap::new();
    let ctx = ReadContext {
        map: t.map,
        rules: t.rules,
        power,
        phase: t.board.phase.kind,
        board: Some(&t.board),
        abbreviations: &none,
    };
    let candidates: Vec<Order> = lines
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let v = crate::reader::read_order(&ctx, l);
            if v.status == crate::reader::Status::Error {
                None
            } else {
                v.order
            }
        })
        .collect();
    crate::conditional::choose(t.map, &t.board, power, &candidates)
}

/// Whether every power due in this retreat or adjustment phase has Final orders or usable
/// conditional ones, so that it may be adjudicated at once (`conditional_early`, WM D.II(5)).
pub(super) fn suffice(t: &Turn<'_>) -> bool {
    t.board.phase.kind != PhaseKind::Movement
        && !t.due.is_empty()
        && t.due.iter().all(|pw| {
            let name = t.map.power_name(*pw);
            orders_of(t.f, name).is_some_and(|s| s.final_)
                || (orders_of(t.f, name).is_none()
                    && t.f
                        .conditional
                        .iter()
                        .any(|c| c.power == name && !orders(t, *pw, &c.lines).is_empty()))
        })
}
