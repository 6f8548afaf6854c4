//! Adjustment phases: builds, removals, waives and civil disorder.

use super::{Adjudication, Board, OrderResult, Outcome, Reason, advance};
use crate::map::{Location, Map, Power, Province, ProvinceSet, Unit, UnitType};
use crate::order::Order;
use crate::rules::{CivilDisorder, DuplicateBuilds, ExcessAdjustments, Rules, UntypedBuild};
use std::collections::VecDeque;

fn invalid(results: &mut [OrderResult], k: usize, note: impl Into<String>) {
    results[k].outcome = Outcome::Invalid;
    results[k].reason = Some(Reason::Illegal);
    results[k].note = Some(note.into());
}

fn fail(results: &mut [OrderResult], k: usize, reason: Reason, note: impl Into<String>) {
    results[k].outcome = Outcome::Fails;
    results[k].reason = Some(reason);
    results[k].note = Some(note.into());
}

pub(super) fn adjudicate(
    map: &Map,
    rules: &Rules,
    board: &Board,
    orders: &[(Power, Order)],
) -> Adjudication {
    let mut results: Vec<OrderResult> = super::blank_results(orders, Outcome::Succeeds, None);
    let mut next = board.clone();
    let mut built: Vec<Unit> = Vec::new();
    let mut removed: Vec<Unit> = Vec::new();
    let mut disbanded: Vec<Unit> = Vec::new();

    for (k, (_, order)) in orders.iter().enumerate() {
        if !order.is_adjustment() && !matches!(order, Order::Disband { .. }) {
            invalid(
                &mut results,
                k,
                "only build, remove and waive orders are given in an adjustment phase",
            );
            results[k].reason = Some(Reason::WrongPhase);
        }
    }

    for power in map.all_powers() {
        let centers = board.center_count(power);
        let units = board.unit_count(power);
        let mine: Vec<usize> = orders
            .iter()
            .enumerate()
            .filter(|(k, (p, _))| *p == power && results[*k].reason.is_none())
            .map(|(k, _)| k)
            .collect();
        if centers > units {
            let due = centers - units;
            build_phase(
                map,
                rules,
                board,
                power,
                due,
                &mine,
                orders,
                &mut results,
                &mut built,
            );
        } else {
            let due = units - centers;
            removal_phase(
                map,
                rules,
                board,
                power,
                due,
                &mine,
                orders,
                &mut results,
                &mut removed,
                &mut disbanded,
            );
        }
    }

    next.units
        .retain(|u| !removed.contains(u) && !disbanded.contains(u));
    next.units.extend(built.iter().copied());
    // Units gone leave their provinces; a built unit stands from the next phase on.
    for u in removed.iter().chain(&disbanded) {
        next.held_since[u.location.province.0 as usize] = None;
    }
    for u in &built {
        next.held_since[u.location.province.0 as usize] = Some(board.phase.successor());
    }
    advance(map, &mut next, board.phase);
    Adjudication {
        phase: board.phase,
        results,
        disbanded,
        built,
        retreats: Vec::new(),
        next,
    }
}

/// A legal build's unit, or why it is not one.
fn build_unit(
    map: &Map,
    rules: &Rules,
    board: &Board,
    power: Power,
    order: &Order,
) -> Result<Option<Unit>, String> {
    let Order::Build {
        unit_type,
        province,
        coast,
    } = order
    else {
        return Ok(None);
    };
    let info = map.info(*province);
    if board.home(*province) != Some(power) {
        return Err(format!("{} is not a home centre of this power", info.code));
    }
    if board.owner(*province) != Some(power) {
        return Err(format!("{} is not owned by this power now", info.code));
    }
    if board.unit_at(*province).is_some() {
        return Err(format!("{} is occupied", info.code));
    }
    let inland = !map.is_coastal(*province);
    let unit_type = match unit_type {
        Some(t) => *t,
        None if inland => UnitType::Army,
        // WM D.V(1), DATC 4.C.3 (c): a legal coast makes it a fleet.
        None if rules.untyped_build == UntypedBuild::ArmyInlandFleetOnCoast
            && coast.is_some_and(|c| info.coasts.contains(&c)) =>
        {
            UnitType::Fleet
        }
        None => {
            return Err(format!(
                "{} can hold an army or a fleet: say which (WM D.V(1))",
                info.code
            ));
        }
    };
    let location = match unit_type {
        // DATC 4.B.6: an irrelevant coast on an army is ignored.
        UnitType::Army => Location::new(*province),
        UnitType::Fleet => {
            if inland {
                // WM D.V(5), Maharajiad B.VI(5), DATC 4.C.4.
                return Err(format!(
                    "a fleet cannot be built in {}, which is inland",
                    info.code
                ));
            }
            if info.coasts.is_empty() {
                Location::new(*province)
            } else {
                match coast {
                    Some(c) if info.coasts.contains(c) => Location::with_coast(*province, *c),
                    // DATC 4.B.7.
                    _ => {
                        let names: Vec<String> = info
                            .coasts
                            .iter()
                            .map(|c| format!("{}/{}", info.code, c.code()))
                            .collect();
                        return Err(format!(
                            "a fleet in {} needs a coast: write {}",
                            info.code,
                            names.join(" or ")
                        ));
                    }
                }
            }
        }
    };
    Ok(Some(Unit {
        power,
        unit_type,
        location,
    }))
}

#[allow(clippy::too_many_arguments)]
fn build_phase(
    map: &Map,
    rules: &Rules,
    board: &Board,
    power: Power,
    due: usize,
    mine: &[usize],
    orders: &[(Power, Order)],
    results: &mut [OrderResult],
    built: &mut Vec<Unit>,
) {
    // Legal builds and waives, in written order: (input index, unit or None for a waive).
    let mut legal: Vec<(usize, Option<Unit>)> = Vec::new();
    for &k in mine {
        match &orders[k].1 {
            Order::Waive => legal.push((k, None)),
            o @ Order::Build { .. } => match build_unit(map, rules, board, power, o) {
                Ok(u) => legal.push((k, u)),
                Err(note) => invalid(results, k, note),
            },
            _ => invalid(results, k, "this power has builds, not removals, to make"),
        }
    }

    // Several builds in one centre.
    let mut keep: Vec<(usize, Option<Unit>)> = Vec::new();
    let sites: Vec<Option<Province>> = legal
        .iter()
        .map(|(_, u)| u.map(|u| u.location.province))
        .collect();
    for (idx, (k, u)) in legal.iter().enumerate() {
        let Some(site) = sites[idx] else {
            keep.push((*k, *u));
            continue;
        };
        let same: Vec<usize> = (0..legal.len())
            .filter(|j| sites[*j] == Some(site))
            .collect();
        if same.len() == 1 {
            keep.push((*k, *u));
            continue;
        }
        let winner = match rules.duplicate_builds {
            // DATC 4.D.5 (b).
            DuplicateBuilds::First => Some(same[0]),
            // WM D.V(3): the first reading from the bottom up.
            DuplicateBuilds::BottomUp => same.last().copied(),
            // Maharajiad B.VI(3): identical orders count as one; different types build nothing.
            DuplicateBuilds::NoneIfDifferent => {
                let first = legal[same[0]].1.map(|u| u.unit_type);
                if same
                    .iter()
                    .all(|j| legal[*j].1.map(|u| u.unit_type) == first)
                {
                    Some(same[0])
                } else {
                    None
                }
            }
        };
        if winner == Some(idx) {
            keep.push((*k, *u));
        } else {
            fail(
                results,
                *k,
                Reason::Excess,
                format!("another build in {} is used", map.info(site).code),
            );
        }
    }

    let n = keep.len();
    let accepted: Vec<bool> = match rules.excess_adjustments {
        ExcessAdjustments::FirstOrders => (0..n).map(|i| i < due).collect(),
        ExcessAdjustments::BottomUp => (0..n).map(|i| i + due >= n).collect(),
        ExcessAdjustments::RefuseAll => vec![n <= due; n],
    };
    for (i, (k, u)) in keep.into_iter().enumerate() {
        if accepted[i] {
            if let Some(u) = u {
                built.push(u);
            }
        } else {
            fail(
                results,
                k,
                Reason::Excess,
                format!("only {due} build(s) are due"),
            );
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn removal_phase(
    map: &Map,
    rules: &Rules,
    board: &Board,
    power: Power,
    due: usize,
    mine: &[usize],
    orders: &[(Power, Order)],
    results: &mut [OrderResult],
    removed: &mut Vec<Unit>,
    disbanded: &mut Vec<Unit>,
) {
    let mut legal: Vec<(usize, Unit)> = Vec::new();
    for &k in mine {
        match &orders[k].1 {
            Order::Remove { unit } | Order::Disband { unit } => {
                if due == 0 {
                    invalid(results, k, "this power has no removals to make");
                    continue;
                }
                match board.unit_at(unit.province) {
                    Some(u) if u.power == power => {
                        if super::check_designation(rules, unit.unit_type, u).is_err() {
                            invalid(results, k, "the unit is not of the type written");
                        } else if legal.iter().any(|(_, l)| l == u) {
                            fail(results, k, Reason::Excess, "this unit is already removed");
                        } else {
                            legal.push((k, *u));
                        }
                    }
                    Some(_) => invalid(results, k, "that unit belongs to another power"),
                    None => invalid(
                        results,
                        k,
                        format!("there is no unit in {}", map.info(unit.province).code),
                    ),
                }
            }
            Order::Waive => invalid(results, k, "there is nothing to waive: no builds are due"),
            _ => invalid(results, k, "this power has no builds to make"),
        }
    }
    let n = legal.len();
    let accepted: Vec<bool> = match rules.excess_adjustments {
        ExcessAdjustments::FirstOrders => (0..n).map(|i| i < due).collect(),
        ExcessAdjustments::BottomUp => (0..n).map(|i| i + due >= n).collect(),
        // Maharajiad B.VI(2): too many disbands are set aside; civil disorder decides.
        ExcessAdjustments::RefuseAll => vec![n <= due; n],
    };
    for (i, (k, u)) in legal.into_iter().enumerate() {
        if accepted[i] {
            removed.push(u);
        } else {
            fail(
                results,
                k,
                Reason::Excess,
                format!("only {due} removal(s) are due"),
            );
        }
    }
    let missing = due.saturating_sub(removed.iter().filter(|u| u.power == power).count());
    if missing > 0 {
        let candidates: Vec<Unit> = board
            .units
            .iter()
            .filter(|u| u.power == power && !removed.contains(u))
            .copied()
            .collect();
        for u in civil_disorder_order(map, rules, board, power, &candidates)
            .into_iter()
            .take(missing)
        {
            disbanded.push(u);
        }
    }
}

/// Units in the order civil disorder removes them.
pub fn civil_disorder_order(
    map: &Map,
    rules: &Rules,
    board: &Board,
    power: Power,
    units: &[Unit],
) -> Vec<Unit> {
    let mut targets = ProvinceSet::default();
    match rules.civil_disorder {
        CivilDisorder::NearestOwnedCenter => {
            for p in map.supply_centers() {
                if board.owner(p) == Some(power) {
                    targets.insert(p);
                }
            }
        }
        _ => {
            for p in board.home_centers(power) {
                targets.insert(p);
            }
        }
    }
    let mut scored: Vec<(u32, Unit)> = units
        .iter()
        .map(|u| {
            let fleet_moves_only = matches!(
                rules.civil_disorder,
                CivilDisorder::HomeCenterWm | CivilDisorder::HomeCenterSeasCount
            ) && u.unit_type == UnitType::Fleet;
            let d = if fleet_moves_only {
                fleet_distance(map, u.location, targets)
            } else {
                any_distance(map, u.location.province, targets)
            };
            (d, *u)
        })
        .collect();
    // Farthest first; fleets before armies; then the English province name.
    scored.sort_by(|(da, a), (db, b)| {
        db.cmp(da)
            .then_with(|| (a.unit_type == UnitType::Army).cmp(&(b.unit_type == UnitType::Army)))
            .then_with(|| {
                map.info(a.location.province)
                    .name
                    .to_lowercase()
                    .cmp(&map.info(b.location.province).name.to_lowercase())
            })
    });
    scored.into_iter().map(|(_, u)| u).collect()
}

/// Moves to the nearest target when a unit may cross land and sea alike.
fn any_distance(map: &Map, from: Province, targets: ProvinceSet) -> u32 {
    let mut seen = ProvinceSet::default();
    let mut queue = VecDeque::new();
    seen.insert(from);
    queue.push_back((from, 0u32));
    while let Some((p, d)) = queue.pop_front() {
        if targets.contains(p) {
            return d;
        }
        let army = map.army_neighbours(p);
        let fleet = map.fleet_province_neighbours(p);
        for q in army.iter().chain(fleet.iter()) {
            if !seen.contains(q) {
                seen.insert(q);
                queue.push_back((q, d + 1));
            }
        }
    }
    u32::MAX
}

/// Legal fleet moves to the nearest target (WM D.V(4)).
fn fleet_distance(map: &Map, from: Location, targets: ProvinceSet) -> u32 {
    let mut seen: Vec<Location> = vec![from];
    let mut queue = VecDeque::new();
    queue.push_back((from, 0u32));
    while let Some((l, d)) = queue.pop_front() {
        if targets.contains(l.province) {
            return d;
        }
        for n in map.fleet_neighbours(l) {
            if !seen.contains(n) {
                seen.push(*n);
                queue.push_back((*n, d + 1));
            }
        }
    }
    u32::MAX
}
