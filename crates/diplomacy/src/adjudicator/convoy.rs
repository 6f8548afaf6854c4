//! Convoy routes as geography: which chains of seas could carry an army.
//!
//! These answer the *legality* questions (WM D.III(4): "possible with the aid of other units on the
//! board"; DATC 4.E.1 and 6.G.19). Whether a route actually works in a given turn is decided by the
//! resolver, from the convoy orders and the fleets that stay.

use crate::map::{Map, Province, ProvinceSet};

/// Seas (and river provinces: Maharajiad B.I(2)) that may carry a convoy: the ones holding a
/// fleet, or every one.
pub(super) fn convoy_seas(map: &Map, fleets_at_sea: ProvinceSet, any_sea: bool) -> ProvinceSet {
    if !any_sea {
        return fleets_at_sea;
    }
    let mut s = ProvinceSet::default();
    for p in map.all_provinces() {
        if map.is_convoy_space(p) {
            s.insert(p);
        }
    }
    s
}

/// Seas of `seas` reachable by a chain of seas starting next to `from`: a breadth-first search,
/// a whole frontier at a time, in set operations (no allocation).
fn reach(map: &Map, from: Province, seas: ProvinceSet) -> ProvinceSet {
    let mut seen = map.fleet_province_neighbours(from).intersection(seas);
    let mut frontier = seen;
    while !frontier.is_empty() {
        let mut next = ProvinceSet::default();
        for p in frontier.iter() {
            next = next.union(map.fleet_province_neighbours(p));
        }
        frontier = next.intersection(seas).difference(seen);
        seen = seen.union(frontier);
    }
    seen
}

/// Could an army at `from` be convoyed to `to` through `seas`?
pub(super) fn route_exists(map: &Map, from: Province, to: Province, seas: ProvinceSet) -> bool {
    if from == to || !map.is_coastal(from) || !map.is_coastal(to) {
        return false;
    }
    let r = reach(map, from, seas);
    map.fleet_province_neighbours(to)
        .iter()
        .any(|s| r.contains(s))
}

/// Is the sea `fleet` *necessary* for some route from `from` to `to` through `seas`? It must lie
/// on a route with no shortcut (an induced path: no fleet on it borders a later one except the
/// next, only the first borders the origin, only the last the destination). A fleet that only
/// lengthens a route that works without it is on no such route, and its convoy order is illegal
/// (DATC 4.E.1 and 6.G.19).
pub(super) fn on_some_route(
    map: &Map,
    from: Province,
    to: Province,
    fleet: Province,
    seas: ProvinceSet,
) -> bool {
    if from == to || !map.is_coastal(from) || !map.is_coastal(to) || !seas.contains(fleet) {
        return false;
    }
    if !(reach(map, from, seas).contains(fleet) && reach(map, to, seas).contains(fleet)) {
        return false;
    }
    let mut path: Vec<Province> = Vec::with_capacity(8);
    for first in map.fleet_province_neighbours(from).iter() {
        if seas.contains(first) {
            path.push(first);
            if induced_route_through(map, from, to, fleet, seas, &mut path) {
                return true;
            }
            path.pop();
        }
    }
    false
}

fn induced_route_through(
    map: &Map,
    from: Province,
    to: Province,
    fleet: Province,
    seas: ProvinceSet,
    path: &mut Vec<Province>,
) -> bool {
    let Some(&last) = path.last() else {
        return false;
    };
    if map.fleet_province_neighbours(last).contains(to) {
        return path.contains(&fleet);
    }
    let before = &path[..path.len() - 1];
    // The next seas are chosen before recursing (the path changes below).
    let mut next = ProvinceSet::default();
    for s in map.fleet_province_neighbours(last).iter() {
        if seas.contains(s)
            && !path.contains(&s)
            && !map.fleet_province_neighbours(s).contains(from)
            && !before
                .iter()
                .any(|b| map.fleet_province_neighbours(*b).contains(s))
        {
            next.insert(s);
        }
    }
    for s in next.iter() {
        path.push(s);
        if induced_route_through(map, from, to, fleet, seas, path) {
            return true;
        }
        path.pop();
    }
    false
}

/// Is `route` a chain of seas in `seas` leading from `from` to `to`?
pub(super) fn route_is_chain(
    map: &Map,
    from: Province,
    to: Province,
    route: &[Province],
    seas: ProvinceSet,
) -> bool {
    let (Some(first), Some(last)) = (route.first(), route.last()) else {
        return false;
    };
    route.iter().all(|p| seas.contains(*p))
        && map.fleet_province_neighbours(from).contains(*first)
        && map.fleet_province_neighbours(*last).contains(to)
        && route
            .windows(2)
            .all(|w| map.fleet_province_neighbours(w[0]).contains(w[1]))
}
