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

/// Agora BT15, BT22, BT23: what the acknowledgement of a turn's one order set says its
/// conditional orders (`lines`, as kept) lack: units that may be dislodged with no retreat or
/// disband, and, in a Fall turn, no builds or removals at all. Empty when nothing is missing.
pub(super) fn gaps_notes(
    map: &Map,
    rules: &Rules,
    board: &Board,
    power: Power,
    lines: &str,
) -> Vec<String> {
    let none = HashMap::new();
    let mut candidates = Vec::new();
    for phase in [PhaseKind::Retreat, PhaseKind::Adjustment] {
        let ctx = ReadContext {
            map,
            rules,
            power,
            phase,
            board: None,
            abbreviations: &none,
        };
        candidates.extend(
            lines
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| crate::reader::read_order(&ctx, l))
                .filter(|v| v.status != crate::reader::Status::Error)
                .filter_map(|v| v.order),
        );
    }
    let gaps = crate::conditional::gaps(map, board, power, &candidates);
    let mut notes = Vec::new();
    if !gaps.may_be_dislodged.is_empty() {
        let units: Vec<String> = gaps
            .may_be_dislodged
            .iter()
            .map(|u| format!("{} {}", u.unit_type.letter(), map.location_name(u.location)))
            .collect();
        notes.push(format!(
            "No retreat or disband is given for your units in {} should they be dislodged: a \
             dislodged unit with no retreat order is disbanded (Agora BT22). Give them between \
             CONDITIONAL and ENDCONDITIONAL, first choice first (Agora BT15).",
            units.join(", ")
        ));
    }
    if gaps.no_adjustments {
        notes.push(
            "No builds or removals are given for the end of this Fall turn: should your centres \
             change, missing builds are waived and missing removals are chosen as civil \
             disorder's are (Agora BT23, BT24). Give them between CONDITIONAL and \
             ENDCONDITIONAL (Agora BT15)."
                .to_string(),
        );
    }
    notes
}
