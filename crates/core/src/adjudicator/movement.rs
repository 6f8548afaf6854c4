//! Movement phases.
//!
//! Three steps: each order is checked for legality on the board and compiled (an illegal order
//! leaves its unit holding, able to receive hold support: WM D.III(4), DATC 4.E.1); the orders are
//! matched (supports and convoys against what their units really do, convoy intent per DATC 4.A.3);
//! then every decision is resolved with the guess algorithm of DATC 5.F.

use super::convoy;
use super::{
    Adjudication, Board, Dislodged, OrderResult, Outcome, Reason, check_designation,
    check_nationality, unit_index,
};
use crate::map::{Coast, Location, Map, Power, Province, ProvinceSet, Unit, UnitType};
use crate::order::{Order, UnitRef};
use crate::rules::{
    ConvoyIntent, ConvoyLegality, ConvoyRoutes, MultipleOrders, Rules, WrongMoveCoast,
};

/// What a unit does, once its order is legal and compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Hold,
    Move {
        dest: Province,
        /// The location the unit ends on (a fleet's coast is settled at compile time).
        to: Location,
        convoy: Intent,
        /// Explicit convoy route (only when the rules honour routes).
        route: Vec<Province>,
    },
    SupportHold {
        target: usize,
    },
    SupportMove {
        target: usize,
        dest: Province,
        coast: Option<Coast>,
    },
    Convoy {
        army: usize,
        dest: Province,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Intent {
    Land,
    Convoy,
    /// Adjacent, and a convoy is possible: by convoy only if the army's own power orders a fleet to
    /// convoy it (DATC 4.A.3, WM D.VI(2)).
    OwnFleetDecides,
}

const NONE: usize = usize::MAX;

struct Resolver<'a> {
    map: &'a Map,
    units: &'a [Unit],
    unit_at: Vec<Option<usize>>,
    kind: Vec<Kind>,
    /// Support and convoy orders that match what their target does.
    valid: Vec<bool>,
    /// Is this unit's move by convoy (after intent is settled)?
    by_convoy: Vec<bool>,
    /// The move has no possible convoy at all (no matching convoy orders).
    no_route: Vec<bool>,
    /// A river convoy that a fleet attacked (Maharajiad B.I(2)): it carries nothing.
    disrupted: Vec<bool>,
    /// Convoyed moves caught in a paradox (Szykman rule).
    paradox: Vec<bool>,
    /// Head-to-head opponent, or NONE.
    h2h: Vec<usize>,
    /// Moves into each province.
    moves_to: Vec<Vec<usize>>,
    /// Valid supports for each unit's order (hold or move).
    supports: Vec<Vec<usize>>,
    /// Valid convoy fleets for each convoyed army.
    convoys: Vec<Vec<usize>>,
    res: Vec<bool>,
    resolved: Vec<bool>,
    visited: Vec<bool>,
    cycle: Vec<usize>,
    guess_based: bool,
    recursion_hits: i32,
}

/// What an input order became.
enum Compiled {
    Ok(usize, Kind),
    Bad(Reason, Option<String>),
}

pub(super) fn adjudicate(
    map: &Map,
    rules: &Rules,
    board: &Board,
    orders: &[(Power, Order)],
) -> Adjudication {
    let units = &board.units;
    let unit_at = unit_index(map, units);
    let n = units.len();
    let fleets_at_sea = {
        let mut s = ProvinceSet::default();
        for u in units {
            if u.unit_type == UnitType::Fleet && map.is_convoy_space(u.location.province) {
                s.insert(u.location.province);
            }
        }
        s
    };
    let seas = convoy::convoy_seas(
        map,
        fleets_at_sea,
        rules.convoy_legality == ConvoyLegality::Geography,
    );
    let ctx = Ctx {
        map,
        rules,
        units,
        unit_at: &unit_at,
        seas,
    };

    let mut results: Vec<OrderResult> = super::blank_results(orders, Outcome::Invalid, None);

    // Candidate orders per unit, in input order: (input index, compiled kind or None if illegal).
    // One flat list (unit, input index, kind), grouped by unit below: no allocation per unit.
    let mut candidates: Vec<(usize, usize, Option<Kind>)> = Vec::with_capacity(orders.len());
    for (k, (power, order)) in orders.iter().enumerate() {
        match ctx.compile(*power, order) {
            Compiled::Ok(u, kind) => candidates.push((u, k, Some(kind))),
            Compiled::Bad(reason, note) => {
                results[k].outcome = Outcome::Invalid;
                results[k].reason = Some(reason);
                results[k].note = note;
                // An illegal order for one's own unit still counts as "an order" for WM D.III(5).
                if let Some(u) = order.province().and_then(|p| unit_at[p.0 as usize])
                    && units[u].power == *power
                    && !matches!(reason, Reason::WrongPhase)
                {
                    candidates.push((u, k, None));
                }
            }
        }
    }

    // One order per unit, per the multiple-orders policy.
    let mut kind = vec![Kind::Hold; n];
    // Input orders that share the unit's chosen order (identical duplicates count as one).
    // For each input order, the unit whose outcome it shares (NONE if it has its own).
    let mut chosen: Vec<usize> = vec![NONE; orders.len()];
    // Stable: each unit's candidates stay in input order.
    candidates.sort_by_key(|c| c.0);
    for cands in candidates.chunk_by(|a, b| a.0 == b.0) {
        let u = cands[0].0;
        match rules.multiple_orders {
            MultipleOrders::LastWins => {
                // WM D.III(5): the last order, reading top to bottom.
                if let Some((_, last_k, last)) = cands.last() {
                    for (_, k, c) in &cands[..cands.len() - 1] {
                        if c.is_some() {
                            results[*k].reason = Some(Reason::Superseded);
                            results[*k].note = Some("a later order for this unit is used".into());
                        }
                    }
                    if let Some(kd) = last {
                        kind[u] = kd.clone();
                        chosen[*last_k] = u;
                    }
                }
            }
            MultipleOrders::Hold => {
                // DATC 4.D.3 (c), Maharajiad B.IV(6): illegal orders are ignored first; two
                // different legal orders leave the unit holding.
                let legal = || cands.iter().filter(|(_, _, c)| c.is_some());
                let Some((_, _, Some(first))) = legal().next() else {
                    continue;
                };
                if legal().all(|(_, _, c)| c.as_ref() == Some(first)) {
                    kind[u] = first.clone();
                    for (_, k, _) in legal() {
                        chosen[*k] = u;
                    }
                } else {
                    for (_, k, _) in legal() {
                        results[*k].reason = Some(Reason::Ambiguous);
                        results[*k].note =
                            Some("the unit has several different orders and holds".into());
                    }
                }
            }
        }
    }

    let mut r = Resolver {
        map,
        units,
        unit_at: unit_at.clone(),
        kind,
        valid: vec![false; n],
        by_convoy: vec![false; n],
        no_route: vec![false; n],
        disrupted: vec![false; n],
        paradox: vec![false; n],
        h2h: vec![NONE; n],
        moves_to: vec![Vec::new(); map.province_count()],
        supports: vec![Vec::new(); n],
        convoys: vec![Vec::new(); n],
        res: vec![false; n],
        resolved: vec![false; n],
        visited: vec![false; n],
        cycle: Vec::with_capacity(16),
        guess_based: false,
        recursion_hits: 0,
    };
    r.match_orders(rules);
    for i in 0..n {
        r.resolve(i);
    }
    r.finish(board, &chosen, &mut results)
}

struct Ctx<'a> {
    map: &'a Map,
    rules: &'a Rules,
    units: &'a [Unit],
    unit_at: &'a [Option<usize>],
    seas: ProvinceSet,
}

fn illegal(note: impl Into<String>) -> Compiled {
    Compiled::Bad(Reason::Illegal, Some(note.into()))
}

impl Ctx<'_> {
    fn at(&self, p: Province) -> Option<usize> {
        self.unit_at.get(p.0 as usize).copied().flatten()
    }

    fn code(&self, p: Province) -> &str {
        &self.map.info(p).code
    }

    /// The unit an order names, checked against the ordering power and designation policies.
    fn ordered_unit(&self, power: Power, unit: &UnitRef) -> Result<usize, Compiled> {
        let Some(u) = self.at(unit.province) else {
            return Err(Compiled::Bad(
                Reason::NoUnit,
                Some(format!("there is no unit in {}", self.code(unit.province))),
            ));
        };
        if self.units[u].power != power {
            return Err(Compiled::Bad(
                Reason::NotOwnUnit,
                Some(format!(
                    "the unit in {} belongs to {}",
                    self.code(unit.province),
                    self.map.power_name(self.units[u].power)
                )),
            ));
        }
        check_designation(self.rules, unit.unit_type, &self.units[u]).map_err(|r| {
            Compiled::Bad(
                r,
                Some(format!(
                    "the unit in {} is not of the type written",
                    self.code(unit.province)
                )),
            )
        })?;
        Ok(u)
    }

    /// The other unit a support or convoy names.
    fn target_unit(&self, target: &UnitRef) -> Result<usize, Compiled> {
        let Some(t) = self.at(target.province) else {
            return Err(illegal(format!(
                "there is no unit in {}",
                self.code(target.province)
            )));
        };
        let tu = &self.units[t];
        if check_designation(self.rules, target.unit_type, tu).is_err() {
            return Err(illegal(format!(
                "the unit in {} is not of the type written",
                self.code(target.province)
            )));
        }
        if check_nationality(self.rules, target.nationality, tu).is_err() {
            return Err(illegal(format!(
                "the unit in {} is not of the nationality written",
                self.code(target.province)
            )));
        }
        Ok(t)
    }

    fn army_can_reach(&self, from: Province, to: Province, without: Option<Province>) -> bool {
        if self.map.army_adjacent(from, to) {
            return true;
        }
        let mut seas = self.seas;
        if let Some(w) = without
            && seas.contains(w)
        {
            let mut s = ProvinceSet::default();
            for p in seas.iter().filter(|p| *p != w) {
                s.insert(p);
            }
            seas = s;
        }
        convoy::route_exists(self.map, from, to, seas)
    }

    fn compile(&self, power: Power, order: &Order) -> Compiled {
        if !matches!(
            order,
            Order::Hold { .. }
                | Order::Move { .. }
                | Order::SupportHold { .. }
                | Order::SupportMove { .. }
                | Order::Convoy { .. }
        ) {
            return Compiled::Bad(
                Reason::WrongPhase,
                Some(
                    "only hold, move, support and convoy orders are given in a movement phase"
                        .into(),
                ),
            );
        }
        let Some(unit_ref) = order.unit() else {
            return illegal("no unit");
        };
        let u = match self.ordered_unit(power, unit_ref) {
            Ok(u) => u,
            Err(c) => return c,
        };
        let unit = &self.units[u];
        let here = unit.location.province;
        match order {
            Order::Hold { .. } => Compiled::Ok(u, Kind::Hold),
            Order::Move {
                dest,
                dest_coast,
                via_convoy,
                route,
                ..
            } => self.compile_move(u, *dest, *dest_coast, *via_convoy, route),
            Order::SupportHold { target, .. } => {
                let t = match self.target_unit(target) {
                    Ok(t) => t,
                    Err(c) => return c,
                };
                if t == u {
                    return illegal("a unit cannot support itself");
                }
                if !self
                    .map
                    .unit_reaches(unit.unit_type, unit.location, target.province)
                {
                    return illegal(format!(
                        "{} cannot reach {}, so it cannot support there",
                        self.code(here),
                        self.code(target.province)
                    ));
                }
                Compiled::Ok(u, Kind::SupportHold { target: t })
            }
            Order::SupportMove {
                target,
                dest,
                dest_coast,
                ..
            } => {
                let t = match self.target_unit(target) {
                    Ok(t) => t,
                    Err(c) => return c,
                };
                if t == u {
                    return illegal("a unit cannot support its own move");
                }
                if *dest == here {
                    // DATC 6.D.34: support into one's own province.
                    return illegal("a unit cannot support a move into its own province");
                }
                if *dest == target.province {
                    return illegal("a unit cannot move to the province it is in");
                }
                if !self.map.unit_reaches(unit.unit_type, unit.location, *dest) {
                    return illegal(format!(
                        "{} cannot reach {}, so it cannot support a move there",
                        self.code(here),
                        self.code(*dest)
                    ));
                }
                let tu = &self.units[t];
                let possible = match tu.unit_type {
                    // DATC 6.D.31: the supporting fleet may not be the one the convoy needs.
                    UnitType::Army => {
                        self.map.is_land(*dest)
                            && self.army_can_reach(tu.location.province, *dest, Some(here))
                    }
                    UnitType::Fleet => match dest_coast {
                        Some(c) if !self.map.info(*dest).coasts.is_empty() => self
                            .map
                            .fleet_adjacent(tu.location, Location::with_coast(*dest, *c)),
                        _ => self.map.fleet_reaches_province(tu.location, *dest),
                    },
                };
                if !possible {
                    return illegal(format!(
                        "the unit in {} cannot move to {}",
                        self.code(target.province),
                        self.code(*dest)
                    ));
                }
                let coast = match tu.unit_type {
                    UnitType::Fleet if !self.map.info(*dest).coasts.is_empty() => *dest_coast,
                    _ => None,
                };
                Compiled::Ok(
                    u,
                    Kind::SupportMove {
                        target: t,
                        dest: *dest,
                        coast,
                    },
                )
            }
            Order::Convoy { army, dest, .. } => {
                if unit.unit_type != UnitType::Fleet || !self.map.is_convoy_space(here) {
                    // DATC 6.F.1: no convoys from coastal provinces (but from a river province:
                    // Maharajiad B.I(2)).
                    return illegal("only a fleet at sea (or on a river) can convoy");
                }
                let t = match self.target_unit(army) {
                    Ok(t) => t,
                    Err(c) => return c,
                };
                if self.units[t].unit_type != UnitType::Army {
                    return illegal("only armies can be convoyed");
                }
                let from = army.province;
                if !convoy::on_some_route(self.map, from, *dest, here, self.seas) {
                    // DATC 4.E.1, 6.G.19: a convoy no route could use is illegal.
                    return illegal(format!(
                        "{} is on no convoy route from {} to {}",
                        self.code(here),
                        self.code(from),
                        self.code(*dest)
                    ));
                }
                Compiled::Ok(
                    u,
                    Kind::Convoy {
                        army: t,
                        dest: *dest,
                    },
                )
            }
            _ => illegal("not a movement order"),
        }
    }

    fn compile_move(
        &self,
        u: usize,
        dest: Province,
        dest_coast: Option<Coast>,
        via_convoy: bool,
        route: &[Province],
    ) -> Compiled {
        let unit = &self.units[u];
        let here = unit.location.province;
        if dest == here {
            return illegal("a unit cannot move to the province it is in");
        }
        match unit.unit_type {
            UnitType::Army => {
                if !self.map.is_land(dest) {
                    return illegal(format!("an army cannot move to {}, a sea", self.code(dest)));
                }
                let adjacent = self.map.army_adjacent(here, dest);
                // An adjacent move that does not ask for a convoy needs no route check: it is
                // legal by land, and it can only go by convoy if an own fleet's convoy order
                // matches, which is legal only if a route exists (on_some_route).
                let convoy_possible = if adjacent && !via_convoy {
                    true
                } else {
                    convoy::route_exists(self.map, here, dest, self.seas)
                };
                let honour_route =
                    self.rules.convoy_routes == ConvoyRoutes::Honoured && !route.is_empty();
                if honour_route && !convoy::route_is_chain(self.map, here, dest, route, self.seas) {
                    return illegal(format!(
                        "the route written is not a chain of fleets at sea from {} to {}",
                        self.code(here),
                        self.code(dest)
                    ));
                }
                if !adjacent && !convoy_possible {
                    return illegal(format!(
                        "{} is not next to {}, and no fleets could convoy it there",
                        self.code(here),
                        self.code(dest)
                    ));
                }
                if via_convoy && !convoy_possible {
                    return illegal(format!(
                        "no fleets could convoy {} to {}",
                        self.code(here),
                        self.code(dest)
                    ));
                }
                let convoy = if via_convoy || !adjacent {
                    Intent::Convoy
                } else if convoy_possible {
                    Intent::OwnFleetDecides
                } else {
                    Intent::Land
                };
                Compiled::Ok(
                    u,
                    Kind::Move {
                        dest,
                        to: Location::new(dest),
                        convoy,
                        route: if honour_route {
                            route.to_vec()
                        } else {
                            Vec::new()
                        },
                    },
                )
            }
            UnitType::Fleet => {
                if via_convoy {
                    return illegal("only armies can be convoyed");
                }
                let coasts = &self.map.info(dest).coasts;
                let to = if coasts.is_empty() {
                    // DATC 4.B.6: an irrelevant coast is ignored.
                    Location::new(dest)
                } else {
                    let reachable: Vec<Coast> = coasts
                        .iter()
                        .copied()
                        .filter(|c| {
                            self.map
                                .fleet_adjacent(unit.location, Location::with_coast(dest, *c))
                        })
                        .collect();
                    let choice = match (dest_coast, reachable.as_slice()) {
                        (_, []) => None,
                        (Some(c), r) if r.contains(&c) => Some(c),
                        (Some(c), [only]) => match self.rules.wrong_move_coast {
                            // WM D.IV(3)(b): an inaccurate coast never invalidates the move.
                            WrongMoveCoast::Corrected => Some(*only),
                            WrongMoveCoast::Illegal => {
                                return illegal(format!(
                                    "{} cannot reach {}/{}",
                                    self.code(here),
                                    self.code(dest),
                                    c.code()
                                ));
                            }
                        },
                        // DATC 4.B.2: the only possible coast.
                        (None, [only]) => Some(*only),
                        (_, many) => {
                            // DATC 4.B.1, WM D.IV(3)(b): the ambiguous cases.
                            let names: Vec<String> = many
                                .iter()
                                .map(|c| format!("{}/{}", self.code(dest), c.code()))
                                .collect();
                            return illegal(format!(
                                "'{}' is ambiguous for a fleet from {}: write {}",
                                self.code(dest),
                                self.map.info(here).name,
                                names.join(" or ")
                            ));
                        }
                    };
                    match choice {
                        Some(c) => Location::with_coast(dest, c),
                        None => {
                            return illegal(format!(
                                "a fleet in {} cannot reach {}",
                                self.code(here),
                                self.code(dest)
                            ));
                        }
                    }
                };
                if !self.map.fleet_adjacent(unit.location, to) {
                    return illegal(format!(
                        "a fleet in {} cannot reach {}",
                        self.code(here),
                        self.code(dest)
                    ));
                }
                Compiled::Ok(
                    u,
                    Kind::Move {
                        dest,
                        to,
                        convoy: Intent::Land,
                        route: Vec::new(),
                    },
                )
            }
        }
    }
}

impl Resolver<'_> {
    fn origin(&self, i: usize) -> Province {
        self.units[i].location.province
    }

    fn move_dest(&self, i: usize) -> Option<Province> {
        match &self.kind[i] {
            Kind::Move { dest, .. } => Some(*dest),
            _ => None,
        }
    }

    /// Settle convoy intent, then which supports and convoys match, and head-to-head pairs.
    fn match_orders(&mut self, rules: &Rules) {
        let n = self.units.len();
        for i in 0..n {
            let Kind::Move { dest, convoy, .. } = &self.kind[i] else {
                continue;
            };
            self.by_convoy[i] = match convoy {
                Intent::Land => false,
                Intent::Convoy => true,
                Intent::OwnFleetDecides => match rules.convoy_intent {
                    ConvoyIntent::ExplicitOnly => false,
                    ConvoyIntent::ExplicitOrOwnFleet => (0..n).any(|f| {
                        self.units[f].power == self.units[i].power
                            && self.kind[f]
                                == Kind::Convoy {
                                    army: i,
                                    dest: *dest,
                                }
                    }),
                },
            };
        }
        for i in 0..n {
            match self.kind[i].clone() {
                Kind::Move { dest, .. } => self.moves_to[dest.0 as usize].push(i),
                Kind::SupportHold { target } => {
                    if !matches!(self.kind[target], Kind::Move { .. }) {
                        self.valid[i] = true;
                        self.supports[target].push(i);
                    }
                }
                Kind::SupportMove {
                    target,
                    dest,
                    coast,
                } => {
                    if let Kind::Move { dest: d, to, .. } = &self.kind[target]
                        && *d == dest
                        && (coast.is_none() || coast == to.coast)
                    {
                        self.valid[i] = true;
                        self.supports[target].push(i);
                    }
                }
                Kind::Convoy { army, dest } => {
                    if self.move_dest(army) == Some(dest) && self.by_convoy[army] {
                        self.valid[i] = true;
                        if self.river_convoy_disrupted(i, dest) {
                            self.disrupted[i] = true;
                        } else {
                            self.convoys[army].push(i);
                        }
                    }
                }
                Kind::Hold => {}
            }
        }
        for i in 0..n {
            let Kind::Move { dest, route, .. } = &self.kind[i] else {
                continue;
            };
            if self.by_convoy[i] {
                let fleets = &self.convoys[i];
                self.no_route[i] = if route.is_empty() {
                    fleets.is_empty()
                } else {
                    // WM D.VI(3): the route written must be carried by convoying fleets.
                    !route
                        .iter()
                        .all(|p| self.unit_at[p.0 as usize].is_some_and(|f| fleets.contains(&f)))
                };
                continue;
            }
            if let Some(j) = self.unit_at[dest.0 as usize]
                && !self.by_convoy[j]
                && self.move_dest(j) == Some(self.origin(i))
            {
                self.h2h[i] = j;
            }
        }
    }

    /// Maharajiad B.I(2): "If a fleet attacks a convoying fleet in a river province, the river
    /// convoy is disrupted whether or not the attack is successful, except that a fleet located
    /// in the destination province of a river convoy which attacks one of the fleets convoying an
    /// army to the destination province must dislodge the convoying fleet for a river convoy to
    /// be disrupted. An attacking army must dislodge the convoying fleet". The first case needs
    /// no resolution (any legal fleet attack will do); the others are the ordinary rule, a
    /// dislodged convoying fleet carrying nothing.
    fn river_convoy_disrupted(&self, convoy: usize, dest: Province) -> bool {
        let here = self.origin(convoy);
        self.map.info(here).river
            && (0..self.units.len()).any(|j| {
                j != convoy
                    && self.units[j].unit_type == UnitType::Fleet
                    && self.origin(j) != dest
                    && matches!(self.kind[j], Kind::Move { dest: d, .. } if d == here)
            })
    }

    /// DATC 5.F, the guess algorithm in its final form (with `guess_based` and `recursion_hits`,
    /// so that cycles that are not clean single cycles, as in Pandin's paradox, are retreated to
    /// the ancestor of the whole cycle before the second guess).
    fn resolve(&mut self, i: usize) -> bool {
        if self.resolved[i] {
            return self.res[i];
        }
        if self.cycle.contains(&i) {
            self.guess_based = true;
            return self.res[i];
        }
        if self.visited[i] {
            self.cycle.push(i);
            self.guess_based = true;
            self.recursion_hits += 1;
            return self.res[i];
        }
        self.visited[i] = true;
        let old_len = self.cycle.len();
        let old_guess_based = self.guess_based;
        self.guess_based = false;
        let old_hits = self.recursion_hits;
        self.res[i] = false;
        let first = self.adjudicate(i);
        if !self.guess_based {
            self.guess_based = old_guess_based;
            self.res[i] = first;
            self.resolved[i] = true;
            return first;
        }
        if self.cycle.contains(&i) {
            self.recursion_hits -= 1;
        }
        if self.recursion_hits == old_hits {
            // This order is the ancestor of the whole cycle: try the other guess.
            self.cycle.truncate(old_len);
            self.res[i] = true;
            let second = self.adjudicate(i);
            if first == second {
                self.cycle.truncate(old_len);
                self.guess_based = old_guess_based;
                self.res[i] = first;
                self.resolved[i] = true;
                return first;
            }
            let cycle = self.cycle[old_len..].to_vec();
            self.backup_rule(&cycle);
            self.cycle.truncate(old_len);
            self.guess_based = old_guess_based;
            self.visited[i] = false;
            return self.resolve(i);
        }
        if !self.cycle.contains(&i) {
            self.cycle.push(i);
        }
        self.res[i] = first;
        self.visited[i] = false;
        first
    }

    /// No or two consistent resolutions (DATC 5.B): with a convoying fleet in the cycle it is a
    /// convoy paradox, and by the Szykman rule (WM D.VI(6), Maharajiad B.VII(6)) those convoys
    /// fail, so the convoyed armies fail and have no effect on their destination. Otherwise it is
    /// circular movement, and every move in it succeeds.
    fn backup_rule(&mut self, cycle: &[usize]) {
        let convoys: Vec<usize> = cycle
            .iter()
            .copied()
            .filter(|x| matches!(self.kind[*x], Kind::Convoy { .. }))
            .collect();
        if convoys.is_empty() {
            for &x in cycle {
                if matches!(self.kind[x], Kind::Move { .. }) {
                    self.res[x] = true;
                    self.resolved[x] = true;
                }
            }
            return;
        }
        for c in convoys {
            self.res[c] = false;
            self.resolved[c] = true;
            if let Kind::Convoy { army, .. } = self.kind[c] {
                self.paradox[army] = true;
            }
        }
    }

    fn adjudicate(&mut self, i: usize) -> bool {
        match self.kind[i].clone() {
            Kind::Move { dest, .. } => self.adjudicate_move(i, dest),
            Kind::SupportHold { target } => {
                let t = self.origin(target);
                self.adjudicate_support(i, t)
            }
            Kind::SupportMove { dest, .. } => self.adjudicate_support(i, dest),
            // DATC 5.D: a convoy asks the attacking moves directly (adjudicate, not resolve), so
            // that the moves are not drawn into the cycle and every cycle stays a clean single
            // one: in Pandin's paradox only the convoy and the support are in it.
            Kind::Convoy { .. } => {
                let here = self.origin(i);
                let attackers = self.moves_to[here.0 as usize].clone();
                !attackers.into_iter().any(|k| {
                    if self.resolved[k] {
                        self.res[k]
                    } else {
                        self.adjudicate(k)
                    }
                })
            }
            Kind::Hold => true,
        }
    }

    fn adjudicate_move(&mut self, i: usize, dest: Province) -> bool {
        if !self.path(i) {
            return false;
        }
        let attack = self.attack_strength(i);
        let j = self.h2h[i];
        if j != NONE {
            if attack <= self.defend_strength(j) {
                return false;
            }
        } else if attack <= self.hold_strength(dest) {
            return false;
        }
        for idx in 0..self.moves_to[dest.0 as usize].len() {
            let k = self.moves_to[dest.0 as usize][idx];
            if k != i && attack <= self.prevent_strength(k) {
                return false;
            }
        }
        true
    }

    /// Is the support given? Cut by an attack from anywhere but the province it is directed at,
    /// by another power, with a working route; or by dislodgement.
    fn adjudicate_support(&mut self, i: usize, into: Province) -> bool {
        let here = self.origin(i);
        let power = self.units[i].power;
        let d = here.0 as usize;
        for idx in 0..self.moves_to[d].len() {
            let k = self.moves_to[d][idx];
            if self.units[k].power != power && self.origin(k) != into && self.path(k) {
                return false;
            }
        }
        for idx in 0..self.moves_to[d].len() {
            let k = self.moves_to[d][idx];
            if self.origin(k) == into && self.resolve(k) {
                return false;
            }
        }
        true
    }

    /// Can the moving unit get there: by land always (legality checked that), by convoy if a
    /// chain of convoying fleets that are not dislodged connects.
    fn path(&mut self, i: usize) -> bool {
        if !self.by_convoy[i] {
            return true;
        }
        if self.no_route[i] {
            return false;
        }
        let Kind::Move { dest, route, .. } = self.kind[i].clone() else {
            return false;
        };
        if !route.is_empty() {
            // WM D.VI(4): a specified route is disrupted if any fleet on it is dislodged.
            for p in route {
                let Some(f) = self.unit_at[p.0 as usize] else {
                    return false;
                };
                if !self.resolve(f) {
                    return false;
                }
            }
            return true;
        }
        // Any route (DATC 4.A.1 b): breadth-first over convoying fleets that stay.
        let from = self.origin(i);
        let fleets = self.convoys[i].clone();
        let mut reached = ProvinceSet::default();
        let mut frontier: Vec<Province> = Vec::with_capacity(fleets.len());
        let mut tried = vec![false; fleets.len()];
        let mut progress = true;
        while progress {
            progress = false;
            for (idx, &f) in fleets.iter().enumerate() {
                if tried[idx] {
                    continue;
                }
                let sea = self.origin(f);
                let touches = self.map.fleet_province_neighbours(sea).contains(from)
                    || frontier
                        .iter()
                        .any(|p| self.map.fleet_province_neighbours(*p).contains(sea));
                if !touches {
                    continue;
                }
                tried[idx] = true;
                if self.resolve(f) {
                    if self.map.fleet_province_neighbours(sea).contains(dest) {
                        return true;
                    }
                    reached.insert(sea);
                    frontier.push(sea);
                    progress = true;
                }
            }
        }
        false
    }

    fn support_count(&mut self, i: usize, excluding: Option<Power>) -> u32 {
        let mut n = 0;
        for idx in 0..self.supports[i].len() {
            let s = self.supports[i][idx];
            if Some(self.units[s].power) == excluding {
                continue;
            }
            if self.resolve(s) {
                n += 1;
            }
        }
        n
    }

    fn hold_strength(&mut self, p: Province) -> u32 {
        let Some(u) = self.unit_at[p.0 as usize] else {
            return 0;
        };
        if matches!(self.kind[u], Kind::Move { .. }) {
            if self.resolve(u) { 0 } else { 1 }
        } else {
            1 + self.support_count(u, None)
        }
    }

    fn attack_strength(&mut self, i: usize) -> u32 {
        if !self.path(i) {
            return 0;
        }
        let Some(dest) = self.move_dest(i) else {
            return 0;
        };
        let occupant = self.unit_at[dest.0 as usize];
        let leaves = match occupant {
            None => true,
            Some(j) => {
                matches!(self.kind[j], Kind::Move { .. }) && self.h2h[i] != j && self.resolve(j)
            }
        };
        match occupant {
            Some(j) if !leaves => {
                let their = self.units[j].power;
                if their == self.units[i].power {
                    // A power may never dislodge its own unit.
                    0
                } else {
                    1 + self.support_count(i, Some(their))
                }
            }
            _ => 1 + self.support_count(i, None),
        }
    }

    fn defend_strength(&mut self, i: usize) -> u32 {
        1 + self.support_count(i, None)
    }

    fn prevent_strength(&mut self, i: usize) -> u32 {
        if !self.path(i) {
            return 0;
        }
        let j = self.h2h[i];
        if j != NONE && self.resolve(j) {
            return 0;
        }
        1 + self.support_count(i, None)
    }

    /// Outcomes, dislodgements and the next board.
    // Several per-unit arrays are read side by side; an index loop says that most plainly.
    #[allow(clippy::needless_range_loop)]
    fn finish(
        mut self,
        board: &Board,
        chosen: &[usize],
        results: &mut Vec<OrderResult>,
    ) -> Adjudication {
        let n = self.units.len();
        let mut dislodged: Vec<Option<Dislodged>> = vec![None; n];
        for i in 0..n {
            let moved = matches!(self.kind[i], Kind::Move { .. }) && self.res[i];
            if moved {
                continue;
            }
            let here = self.origin(i);
            for &k in &self.moves_to[here.0 as usize] {
                if self.res[k] {
                    dislodged[i] = Some(Dislodged {
                        unit: self.units[i],
                        attacker_from: self.origin(k),
                        by_convoy: self.by_convoy[k],
                    });
                }
            }
        }
        let mut outcomes: Vec<(Outcome, Option<Reason>)> = Vec::with_capacity(n);
        for i in 0..n {
            let (outcome, reason) = match &self.kind[i] {
                Kind::Hold => {
                    if dislodged[i].is_some() {
                        (Outcome::Fails, Some(Reason::Dislodged))
                    } else {
                        (Outcome::Succeeds, None)
                    }
                }
                Kind::Move { .. } => {
                    if self.res[i] {
                        (Outcome::Succeeds, None)
                    } else if self.paradox[i] {
                        (Outcome::Fails, Some(Reason::Paradox))
                    } else if self.by_convoy[i] && !self.path(i) {
                        (Outcome::Fails, Some(Reason::NoConvoy))
                    } else {
                        (Outcome::Fails, Some(Reason::Bounce))
                    }
                }
                Kind::SupportHold { .. } | Kind::SupportMove { .. } | Kind::Convoy { .. } => {
                    if !self.valid[i] {
                        (Outcome::Fails, Some(Reason::Void))
                    } else if self.disrupted[i] && dislodged[i].is_none() {
                        (Outcome::Fails, Some(Reason::Disrupted))
                    } else if dislodged[i].is_some() {
                        (Outcome::Fails, Some(Reason::Dislodged))
                    } else if self.res[i] {
                        (Outcome::Succeeds, None)
                    } else {
                        (Outcome::Fails, Some(Reason::Cut))
                    }
                }
            };
            outcomes.push((outcome, reason));
        }
        for (k, &u) in chosen.iter().enumerate() {
            if u != NONE {
                (results[k].outcome, results[k].reason) = outcomes[u];
            }
        }

        // The next board.
        let mut units: Vec<Unit> = Vec::with_capacity(n);
        let mut held_since: Vec<Option<crate::phase::Phase>> = vec![None; board.held_since.len()];
        let mut gone: Vec<Dislodged> = Vec::new();
        for i in 0..n {
            if let Some(d) = dislodged[i].take() {
                gone.push(d);
                continue;
            }
            let mut u = self.units[i];
            let from = u.location.province.0 as usize;
            if let Kind::Move { to, .. } = &self.kind[i]
                && self.res[i]
            {
                u.location = *to;
                // A unit that moves in stands there from the next phase on (B.I(3)).
                held_since[to.province.0 as usize] = Some(board.phase.successor());
            } else {
                held_since[from] = board.held_since.get(from).copied().flatten();
            }
            units.push(u);
        }
        let occupied = super::occupied(&units);
        let mut contested = Vec::new();
        for p in self.map.all_provinces() {
            if occupied.contains(p) {
                continue;
            }
            let movers = self.moves_to[p.0 as usize].clone();
            let mut standoff = false;
            for k in movers {
                if !self.res[k] && self.prevent_strength(k) > 0 {
                    standoff = true;
                }
            }
            if standoff {
                contested.push(p);
            }
        }
        let mut next = Board {
            phase: board.phase,
            units,
            owners: board.owners.clone(),
            dislodged: gone,
            contested,
            homes: board.homes.clone(),
            held_since,
        };
        next.phase = board.phase.successor();
        let retreats = super::retreat::options(self.map, &next);
        Adjudication {
            phase: board.phase,
            results: std::mem::take(results),
            disbanded: Vec::new(),
            built: Vec::new(),
            retreats,
            next,
        }
    }
}
