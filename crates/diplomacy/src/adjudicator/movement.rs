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
use crate::phase::Phase;
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

/// "No unit": the end of a list, or no head-to-head opponent.
const NONE: usize = usize::MAX;

/// What the resolver knows about one unit's order. The lists of moves into a province, of the
/// supports of an order and of the convoys of an army are threaded through these slots (each
/// unit moves to one province, supports one order, convoys one army), so that building and
/// walking them allocates nothing.
#[derive(Clone, Copy)]
struct Slot {
    /// A support or convoy order that matches what its target does.
    valid: bool,
    /// The move goes by convoy (once intent is settled).
    by_convoy: bool,
    /// The convoyed move has no possible route (no matching convoy orders, or the route written
    /// is not carried by them).
    no_route: bool,
    /// A river convoy that a fleet attacked (Maharajiad B.I(2)): it carries nothing.
    disrupted: bool,
    /// A convoyed move caught in a paradox (Szykman rule).
    paradox: bool,
    /// The order's decision (DATC 5): the move succeeds, the support is given, the convoying
    /// fleet stays; for a hold, always true.
    res: bool,
    resolved: bool,
    visited: bool,
    /// Head-to-head opponent, or NONE.
    h2h: usize,
    /// The next unit (by index) moving into the same province, or NONE.
    next_mover: usize,
    /// The first valid support of this unit's order, or NONE.
    first_support: usize,
    /// The next valid support of the order this unit supports, or NONE.
    next_support: usize,
    /// For a convoyed army, the first fleet validly convoying it, or NONE.
    first_convoy: usize,
    /// For a convoying fleet, the next fleet convoying the same army, or NONE.
    next_convoy: usize,
    /// The move succeeded: the unit is elsewhere on the next board.
    moved: bool,
    /// The unit whose move dislodged this one, or NONE.
    dislodger: usize,
    /// The order's outcome, and why it failed.
    outcome: Outcome,
    reason: Option<Reason>,
}

impl Slot {
    const EMPTY: Slot = Slot {
        valid: false,
        by_convoy: false,
        no_route: false,
        disrupted: false,
        paradox: false,
        res: false,
        resolved: false,
        visited: false,
        h2h: NONE,
        next_mover: NONE,
        first_support: NONE,
        next_support: NONE,
        first_convoy: NONE,
        next_convoy: NONE,
        moved: false,
        dislodger: NONE,
        outcome: Outcome::Succeeds,
        reason: None,
    };
}

/// The kinds of order, for passes over the units of one kind at a time: a branch on each unit's
/// kind in a pass over all units goes wrong about every other unit, the kinds being mixed.
#[derive(Clone, Copy)]
enum Group {
    Hold,
    Move,
    SupportHold,
    SupportMove,
    Convoy,
}

const GROUPS: usize = 5;

impl Kind {
    fn group(&self) -> Group {
        match self {
            Kind::Hold => Group::Hold,
            Kind::Move { .. } => Group::Move,
            Kind::SupportHold { .. } => Group::SupportHold,
            Kind::SupportMove { .. } => Group::SupportMove,
            Kind::Convoy { .. } => Group::Convoy,
        }
    }
}

struct Resolver<'a> {
    map: &'a Map,
    units: &'a [Unit],
    unit_at: Vec<Option<usize>>,
    kind: Vec<Kind>,
    slot: Vec<Slot>,
    /// The units grouped by the kind of their order, each group in unit order; group `g` is
    /// `by_group[group_start[g]..group_start[g + 1]]`.
    by_group: Vec<usize>,
    group_start: [usize; GROUPS + 1],
    /// The first unit (by index) moving into each province, or NONE.
    first_mover: Vec<usize>,
    /// The provinces someone moves into.
    move_dests: ProvinceSet,
    cycle: Vec<usize>,
    guess_based: bool,
    recursion_hits: i32,
}

/// What an input order became.
enum Compiled {
    Ok(usize, Kind),
    Bad(Reason, Option<String>),
}

/// An input order that names one of the ordering power's units: (unit, input index, its
/// compiled kind, or None if it is illegal).
type Candidate = (usize, usize, Option<Kind>);

pub(super) fn adjudicate(
    map: &Map,
    rules: &Rules,
    board: &Board,
    orders: &[(Power, Order)],
) -> Adjudication {
    let units = &board.units;
    let unit_at = unit_index(map, units);
    let ctx = Ctx {
        map,
        rules,
        units,
        unit_at: &unit_at,
        seas: convoy_seas(map, rules, units),
    };
    let mut results: Vec<OrderResult> = super::blank_results(orders, Outcome::Invalid, None);
    let candidates = ctx.compile_all(orders, &mut results);
    let (kind, chosen) = choose_orders(rules, units.len(), candidates, &mut results);
    let mut r = Resolver::new(map, units, unit_at, kind);
    r.match_orders(rules);
    for i in 0..units.len() {
        r.resolve(i);
    }
    r.finish(board, &chosen, &mut results)
}

/// The seas (and river provinces) that may carry a convoy under the convoy legality policy.
fn convoy_seas(map: &Map, rules: &Rules, units: &[Unit]) -> ProvinceSet {
    let mut fleets_at_sea = ProvinceSet::default();
    for u in units {
        if u.unit_type == UnitType::Fleet && map.is_convoy_space(u.location.province) {
            fleets_at_sea.insert(u.location.province);
        }
    }
    convoy::convoy_seas(
        map,
        fleets_at_sea,
        rules.convoy_legality == ConvoyLegality::Geography,
    )
}

/// One order per unit, per the multiple-orders policy. Returns each unit's order (Hold if it has
/// none) and, for each input order, the unit whose outcome it shares (NONE if it has its own:
/// identical duplicates count as one).
fn choose_orders(
    rules: &Rules,
    n: usize,
    mut candidates: Vec<Candidate>,
    results: &mut [OrderResult],
) -> (Vec<Kind>, Vec<usize>) {
    let mut kind = vec![Kind::Hold; n];
    let mut chosen: Vec<usize> = vec![NONE; results.len()];
    // Each unit's candidates, in input order: a list threaded through `next` (candidates are in
    // input order; taking them last to first and putting each at the head keeps that order).
    let mut first = vec![NONE; n];
    let mut next = vec![NONE; candidates.len()];
    for (c, cand) in candidates.iter().enumerate().rev() {
        next[c] = first[cand.0];
        first[cand.0] = c;
    }
    let of_unit = |head: usize| {
        std::iter::successors((head != NONE).then_some(head), |&c| {
            (next[c] != NONE).then_some(next[c])
        })
    };
    for (u, &head) in first.iter().enumerate() {
        if head == NONE {
            continue;
        }
        match rules.multiple_orders {
            MultipleOrders::LastWins => {
                // WM D.III(5): the last order, reading top to bottom.
                let mut last = head;
                for c in of_unit(head) {
                    last = c;
                }
                for c in of_unit(head).filter(|&c| c != last) {
                    let (_, k, kd) = &candidates[c];
                    if kd.is_some() {
                        results[*k].reason = Some(Reason::Superseded);
                        results[*k].note = Some("a later order for this unit is used".into());
                    }
                }
                let (_, k, kd) = &mut candidates[last];
                if let Some(kd) = kd.take() {
                    kind[u] = kd;
                    chosen[*k] = u;
                }
            }
            MultipleOrders::Hold => {
                // DATC 4.D.3 (c), Maharajiad B.IV(6): illegal orders are ignored first; two
                // different legal orders leave the unit holding.
                let mut legal = of_unit(head).filter(|&c| candidates[c].2.is_some());
                let Some(first_legal) = legal.next() else {
                    continue;
                };
                let same = legal.all(|c| candidates[c].2 == candidates[first_legal].2);
                for c in of_unit(head).filter(|&c| candidates[c].2.is_some()) {
                    let k = candidates[c].1;
                    if same {
                        chosen[k] = u;
                    } else {
                        results[k].reason = Some(Reason::Ambiguous);
                        results[k].note =
                            Some("the unit has several different orders and holds".into());
                    }
                }
                if same && let Some(kd) = candidates[first_legal].2.take() {
                    kind[u] = kd;
                }
            }
        }
    }
    (kind, chosen)
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
    /// Compile every input order. An illegal one gets its verdict in `results` and, if it is for
    /// one of the power's own units, still stands as a candidate (WM D.III(5): it counts as "an
    /// order"). Returns the candidates in input order.
    fn compile_all(
        &self,
        orders: &[(Power, Order)],
        results: &mut [OrderResult],
    ) -> Vec<Candidate> {
        let mut candidates: Vec<Candidate> = Vec::with_capacity(orders.len());
        for (k, (power, order)) in orders.iter().enumerate() {
            match self.compile(*power, order) {
                Compiled::Ok(u, kind) => candidates.push((u, k, Some(kind))),
                Compiled::Bad(reason, note) => {
                    results[k].outcome = Outcome::Invalid;
                    results[k].reason = Some(reason);
                    results[k].note = note;
                    if let Some(u) = order.province().and_then(|p| self.at(p))
                        && self.units[u].power == *power
                        && !matches!(reason, Reason::WrongPhase)
                    {
                        candidates.push((u, k, None));
                    }
                }
            }
        }
        candidates
    }

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
        match order {
            Order::Hold { .. } => Compiled::Ok(u, Kind::Hold),
            Order::Move {
                dest,
                dest_coast,
                via_convoy,
                route,
                ..
            } => self.compile_move(u, *dest, *dest_coast, *via_convoy, route),
            Order::SupportHold { target, .. } => self.compile_support_hold(u, target),
            Order::SupportMove {
                target,
                dest,
                dest_coast,
                ..
            } => self.compile_support_move(u, target, *dest, *dest_coast),
            Order::Convoy { army, dest, .. } => self.compile_convoy(u, army, *dest),
            _ => illegal("not a movement order"),
        }
    }

    fn compile_support_hold(&self, u: usize, target: &UnitRef) -> Compiled {
        let unit = &self.units[u];
        let here = unit.location.province;
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

    fn compile_support_move(
        &self,
        u: usize,
        target: &UnitRef,
        dest: Province,
        dest_coast: Option<Coast>,
    ) -> Compiled {
        let unit = &self.units[u];
        let here = unit.location.province;
        let t = match self.target_unit(target) {
            Ok(t) => t,
            Err(c) => return c,
        };
        if t == u {
            return illegal("a unit cannot support its own move");
        }
        if dest == here {
            // DATC 6.D.34: support into one's own province.
            return illegal("a unit cannot support a move into its own province");
        }
        if dest == target.province {
            return illegal("a unit cannot move to the province it is in");
        }
        if !self.map.unit_reaches(unit.unit_type, unit.location, dest) {
            return illegal(format!(
                "{} cannot reach {}, so it cannot support a move there",
                self.code(here),
                self.code(dest)
            ));
        }
        let tu = &self.units[t];
        let possible = match tu.unit_type {
            // DATC 6.D.31: the supporting fleet may not be the one the convoy needs.
            UnitType::Army => {
                self.map.is_land(dest)
                    && self.army_can_reach(tu.location.province, dest, Some(here))
            }
            UnitType::Fleet => match dest_coast {
                Some(c) if !self.map.info(dest).coasts.is_empty() => self
                    .map
                    .fleet_adjacent(tu.location, Location::with_coast(dest, c)),
                _ => self.map.fleet_reaches_province(tu.location, dest),
            },
        };
        if !possible {
            return illegal(format!(
                "the unit in {} cannot move to {}",
                self.code(target.province),
                self.code(dest)
            ));
        }
        let coast = match tu.unit_type {
            UnitType::Fleet if !self.map.info(dest).coasts.is_empty() => dest_coast,
            _ => None,
        };
        Compiled::Ok(
            u,
            Kind::SupportMove {
                target: t,
                dest,
                coast,
            },
        )
    }

    fn compile_convoy(&self, u: usize, army: &UnitRef, dest: Province) -> Compiled {
        let unit = &self.units[u];
        let here = unit.location.province;
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
        if !convoy::on_some_route(self.map, from, dest, here, self.seas) {
            // DATC 4.E.1, 6.G.19: a convoy no route could use is illegal.
            return illegal(format!(
                "{} is on no convoy route from {} to {}",
                self.code(here),
                self.code(from),
                self.code(dest)
            ));
        }
        Compiled::Ok(u, Kind::Convoy { army: t, dest })
    }

    fn compile_move(
        &self,
        u: usize,
        dest: Province,
        dest_coast: Option<Coast>,
        via_convoy: bool,
        route: &[Province],
    ) -> Compiled {
        if dest == self.units[u].location.province {
            return illegal("a unit cannot move to the province it is in");
        }
        match self.units[u].unit_type {
            UnitType::Army => self.compile_army_move(u, dest, via_convoy, route),
            UnitType::Fleet => self.compile_fleet_move(u, dest, dest_coast, via_convoy),
        }
    }

    fn compile_army_move(
        &self,
        u: usize,
        dest: Province,
        via_convoy: bool,
        route: &[Province],
    ) -> Compiled {
        let here = self.units[u].location.province;
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
        let honour_route = self.rules.convoy_routes == ConvoyRoutes::Honoured && !route.is_empty();
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

    fn compile_fleet_move(
        &self,
        u: usize,
        dest: Province,
        dest_coast: Option<Coast>,
        via_convoy: bool,
    ) -> Compiled {
        let unit = &self.units[u];
        let here = unit.location.province;
        if via_convoy {
            return illegal("only armies can be convoyed");
        }
        let to = match self.fleet_destination(u, dest, dest_coast) {
            Ok(to) => to,
            Err(c) => return c,
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

    /// Where a fleet's move into `dest` ends: the province, or the coast written, corrected or
    /// implied (DATC 4.B); `Err` if none fits.
    fn fleet_destination(
        &self,
        u: usize,
        dest: Province,
        dest_coast: Option<Coast>,
    ) -> Result<Location, Compiled> {
        let unit = &self.units[u];
        let here = unit.location.province;
        let coasts = &self.map.info(dest).coasts;
        Ok(if coasts.is_empty() {
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
                        return Err(illegal(format!(
                            "{} cannot reach {}/{}",
                            self.code(here),
                            self.code(dest),
                            c.code()
                        )));
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
                    return Err(illegal(format!(
                        "'{}' is ambiguous for a fleet from {}: write {}",
                        self.code(dest),
                        self.map.info(here).name,
                        names.join(" or ")
                    )));
                }
            };
            match choice {
                Some(c) => Location::with_coast(dest, c),
                None => {
                    return Err(illegal(format!(
                        "a fleet in {} cannot reach {}",
                        self.code(here),
                        self.code(dest)
                    )));
                }
            }
        })
    }
}

impl<'a> Resolver<'a> {
    fn new(map: &'a Map, units: &'a [Unit], unit_at: Vec<Option<usize>>, kind: Vec<Kind>) -> Self {
        // A counting sort of the units by group (stable, so each group stays in unit order).
        let mut group_start = [0; GROUPS + 1];
        for k in &kind {
            group_start[k.group() as usize + 1] += 1;
        }
        for g in 0..GROUPS {
            group_start[g + 1] += group_start[g];
        }
        let mut fill = group_start;
        let mut by_group = vec![0; kind.len()];
        for (i, k) in kind.iter().enumerate() {
            let g = k.group() as usize;
            by_group[fill[g]] = i;
            fill[g] += 1;
        }
        Resolver {
            map,
            units,
            unit_at,
            slot: vec![Slot::EMPTY; kind.len()],
            kind,
            by_group,
            group_start,
            first_mover: vec![NONE; map.province_count()],
            move_dests: ProvinceSet::default(),
            cycle: Vec::new(),
            guess_based: false,
            recursion_hits: 0,
        }
    }
}

/// Walks one of the lists threaded through the slots: `next` gives the following unit.
struct Chain {
    at: usize,
}

impl Chain {
    /// The current unit, and a step to the next one; None at the end.
    fn next(&mut self, slot: &[Slot], next: fn(&Slot) -> usize) -> Option<usize> {
        let here = self.at;
        if here == NONE {
            return None;
        }
        self.at = next(&slot[here]);
        Some(here)
    }
}

impl Resolver<'_> {
    /// The positions in `by_group` of the units whose orders are of group `g`.
    fn group(&self, g: Group) -> std::ops::Range<usize> {
        self.group_start[g as usize]..self.group_start[g as usize + 1]
    }

    fn origin(&self, i: usize) -> Province {
        self.units[i].location.province
    }

    fn move_dest(&self, i: usize) -> Option<Province> {
        match &self.kind[i] {
            Kind::Move { dest, .. } => Some(*dest),
            _ => None,
        }
    }

    /// The units moving into `p`, in unit order. The lists are fixed once the orders are matched,
    /// so a walk may resolve decisions between steps.
    fn movers(&self, p: Province) -> Chain {
        Chain {
            at: self.first_mover.get(p.0 as usize).copied().unwrap_or(NONE),
        }
    }

    fn next_mover(&self, c: &mut Chain) -> Option<usize> {
        c.next(&self.slot, |s| s.next_mover)
    }

    fn next_support(&self, c: &mut Chain) -> Option<usize> {
        c.next(&self.slot, |s| s.next_support)
    }

    fn next_convoy(&self, c: &mut Chain) -> Option<usize> {
        c.next(&self.slot, |s| s.next_convoy)
    }

    /// Is `fleet` one of the fleets validly convoying `army`?
    fn convoys_army(&self, fleet: usize, army: usize) -> bool {
        let mut c = Chain {
            at: self.slot[army].first_convoy,
        };
        while let Some(f) = self.next_convoy(&mut c) {
            if f == fleet {
                return true;
            }
        }
        false
    }

    /// The `idx`-th province of the convoy route written in unit `i`'s move, if any.
    fn route_step(&self, i: usize, idx: usize) -> Option<Province> {
        match &self.kind[i] {
            Kind::Move { route, .. } => route.get(idx).copied(),
            _ => None,
        }
    }

    /// Settle convoy intent, then which supports and convoys match, and head-to-head pairs.
    fn match_orders(&mut self, rules: &Rules) {
        self.settle_convoy_intent(rules);
        self.link_orders();
        self.settle_routes_and_head_to_heads();
    }

    /// Does each move go by convoy? DATC 4.A.3, WM D.VI(2): by convoy if it says so (or cannot go
    /// by land); an adjacent move that does not say so goes by convoy only if a fleet of the
    /// army's own power is ordered to convoy it there (unless only explicit convoys count).
    fn settle_convoy_intent(&mut self, rules: &Rules) {
        for at in self.group(Group::Move) {
            let i = self.by_group[at];
            if let Kind::Move { convoy, .. } = self.kind[i] {
                self.slot[i].by_convoy = convoy == Intent::Convoy;
            }
        }
        if rules.convoy_intent != ConvoyIntent::ExplicitOrOwnFleet {
            return;
        }
        for at in self.group(Group::Convoy) {
            let f = self.by_group[at];
            let Kind::Convoy { army, dest } = self.kind[f] else {
                continue;
            };
            if let Kind::Move {
                dest: d,
                convoy: Intent::OwnFleetDecides,
                ..
            } = self.kind[army]
                && d == dest
                && self.units[f].power == self.units[army].power
            {
                self.slot[army].by_convoy = true;
            }
        }
    }

    /// Thread the lists: moves into each province, the valid supports of each order, the valid
    /// convoys of each army. Each group's units are taken last to first and put at the head of
    /// their list, so every list runs in unit order. (A list holds one group only: the supports
    /// of a unit that moves are all move supports, of one that stays all hold supports.)
    fn link_orders(&mut self) {
        for at in self.group(Group::Move).rev() {
            let i = self.by_group[at];
            let Kind::Move { dest, .. } = self.kind[i] else {
                continue;
            };
            if let Some(head) = self.first_mover.get_mut(dest.0 as usize) {
                self.slot[i].next_mover = *head;
                *head = i;
                self.move_dests.insert(dest);
            }
        }
        for at in self.group(Group::SupportHold).rev() {
            let i = self.by_group[at];
            if let Kind::SupportHold { target } = self.kind[i]
                && !matches!(self.kind[target], Kind::Move { .. })
            {
                self.link_support(i, target);
            }
        }
        for at in self.group(Group::SupportMove).rev() {
            let i = self.by_group[at];
            if let Kind::SupportMove {
                target,
                dest,
                coast,
            } = self.kind[i]
                && let Kind::Move { dest: d, to, .. } = self.kind[target]
                && d == dest
                && (coast.is_none() || coast == to.coast)
            {
                self.link_support(i, target);
            }
        }
        for at in self.group(Group::Convoy).rev() {
            let i = self.by_group[at];
            let Kind::Convoy { army, dest } = self.kind[i] else {
                continue;
            };
            if self.move_dest(army) == Some(dest) && self.slot[army].by_convoy {
                self.slot[i].valid = true;
                if self.river_convoy_disrupted(i, dest) {
                    self.slot[i].disrupted = true;
                } else {
                    self.slot[i].next_convoy = self.slot[army].first_convoy;
                    self.slot[army].first_convoy = i;
                }
            }
        }
    }

    fn link_support(&mut self, supporter: usize, target: usize) {
        self.slot[supporter].valid = true;
        self.slot[supporter].next_support = self.slot[target].first_support;
        self.slot[target].first_support = supporter;
    }

    /// A convoyed move with no convoy to carry it has no route; a move by land straight at a unit
    /// moving back by land is a head-to-head battle.
    fn settle_routes_and_head_to_heads(&mut self) {
        for at in self.group(Group::Move) {
            let i = self.by_group[at];
            let (dest, route_len) = match &self.kind[i] {
                Kind::Move { dest, route, .. } => (*dest, route.len()),
                _ => continue,
            };
            if self.slot[i].by_convoy {
                self.slot[i].no_route = if route_len == 0 {
                    self.slot[i].first_convoy == NONE
                } else {
                    // WM D.VI(3): the route written must be carried by convoying fleets.
                    !(0..route_len).all(|idx| {
                        self.route_step(i, idx).is_some_and(|p| {
                            self.unit_at[p.0 as usize].is_some_and(|f| self.convoys_army(f, i))
                        })
                    })
                };
                continue;
            }
            if let Some(j) = self.unit_at[dest.0 as usize]
                && !self.slot[j].by_convoy
                && self.move_dest(j) == Some(self.origin(i))
            {
                self.slot[i].h2h = j;
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
        if self.slot[i].resolved {
            return self.slot[i].res;
        }
        if self.cycle.contains(&i) {
            self.guess_based = true;
            return self.slot[i].res;
        }
        if self.slot[i].visited {
            self.cycle.push(i);
            self.guess_based = true;
            self.recursion_hits += 1;
            return self.slot[i].res;
        }
        self.slot[i].visited = true;
        let old_len = self.cycle.len();
        let old_guess_based = self.guess_based;
        self.guess_based = false;
        let old_hits = self.recursion_hits;
        self.slot[i].res = false;
        let first = self.adjudicate(i);
        if !self.guess_based {
            self.guess_based = old_guess_based;
            self.settle(i, first);
            return first;
        }
        if self.cycle.contains(&i) {
            self.recursion_hits -= 1;
        }
        if self.recursion_hits == old_hits {
            // This order is the ancestor of the whole cycle: try the other guess.
            self.cycle.truncate(old_len);
            self.slot[i].res = true;
            let second = self.adjudicate(i);
            if first == second {
                self.cycle.truncate(old_len);
                self.guess_based = old_guess_based;
                self.settle(i, first);
                return first;
            }
            let cycle = self.cycle[old_len..].to_vec();
            self.backup_rule(&cycle);
            self.cycle.truncate(old_len);
            self.guess_based = old_guess_based;
            self.slot[i].visited = false;
            return self.resolve(i);
        }
        if !self.cycle.contains(&i) {
            self.cycle.push(i);
        }
        self.slot[i].res = first;
        self.slot[i].visited = false;
        first
    }

    fn settle(&mut self, i: usize, res: bool) {
        self.slot[i].res = res;
        self.slot[i].resolved = true;
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
                    self.settle(x, true);
                }
            }
            return;
        }
        for c in convoys {
            self.settle(c, false);
            if let Kind::Convoy { army, .. } = self.kind[c] {
                self.slot[army].paradox = true;
            }
        }
    }

    fn adjudicate(&mut self, i: usize) -> bool {
        match self.kind[i] {
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
                let mut attackers = self.movers(self.origin(i));
                while let Some(k) = self.next_mover(&mut attackers) {
                    let succeeds = if self.slot[k].resolved {
                        self.slot[k].res
                    } else {
                        self.adjudicate(k)
                    };
                    if succeeds {
                        return false;
                    }
                }
                true
            }
            Kind::Hold => true,
        }
    }

    fn adjudicate_move(&mut self, i: usize, dest: Province) -> bool {
        if !self.path(i) {
            return false;
        }
        let attack = self.attack_strength(i);
        let j = self.slot[i].h2h;
        if j != NONE {
            if attack <= self.defend_strength(j) {
                return false;
            }
        } else if attack <= self.hold_strength(dest) {
            return false;
        }
        let mut rivals = self.movers(dest);
        while let Some(k) = self.next_mover(&mut rivals) {
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
        let mut attackers = self.movers(here);
        while let Some(k) = self.next_mover(&mut attackers) {
            if self.units[k].power != power && self.origin(k) != into && self.path(k) {
                return false;
            }
        }
        let mut attackers = self.movers(here);
        while let Some(k) = self.next_mover(&mut attackers) {
            if self.origin(k) == into && self.resolve(k) {
                return false;
            }
        }
        true
    }

    /// Can the moving unit get there: by land always (legality checked that), by convoy if a
    /// chain of convoying fleets that are not dislodged connects.
    fn path(&mut self, i: usize) -> bool {
        if !self.slot[i].by_convoy {
            return true;
        }
        if self.slot[i].no_route {
            return false;
        }
        let Some(dest) = self.move_dest(i) else {
            return false;
        };
        if self.route_step(i, 0).is_some() {
            // WM D.VI(4): a specified route is disrupted if any fleet on it is dislodged.
            let mut idx = 0;
            while let Some(p) = self.route_step(i, idx) {
                let Some(f) = self.unit_at[p.0 as usize] else {
                    return false;
                };
                if !self.resolve(f) {
                    return false;
                }
                idx += 1;
            }
            return true;
        }
        self.any_convoy_route(i, dest)
    }

    /// Any route (DATC 4.A.1 b): breadth-first over the fleets convoying army `i` that stay,
    /// taking them in unit order, round after round, until no new fleet joins the chain.
    fn any_convoy_route(&mut self, i: usize, dest: Province) -> bool {
        let from = self.origin(i);
        // The seas of the fleets tried (each fleet has its own province) and of those that stay.
        let mut tried = ProvinceSet::default();
        let mut reached = ProvinceSet::default();
        let mut progress = true;
        while progress {
            progress = false;
            let mut fleets = Chain {
                at: self.slot[i].first_convoy,
            };
            while let Some(f) = self.next_convoy(&mut fleets) {
                let sea = self.origin(f);
                if tried.contains(sea) {
                    continue;
                }
                let touches = self.map.fleet_province_neighbours(sea).contains(from)
                    || reached
                        .iter()
                        .any(|p| self.map.fleet_province_neighbours(p).contains(sea));
                if !touches {
                    continue;
                }
                tried.insert(sea);
                if self.resolve(f) {
                    if self.map.fleet_province_neighbours(sea).contains(dest) {
                        return true;
                    }
                    reached.insert(sea);
                    progress = true;
                }
            }
        }
        false
    }

    fn support_count(&mut self, i: usize, excluding: Option<Power>) -> u32 {
        let mut n = 0;
        let mut supports = Chain {
            at: self.slot[i].first_support,
        };
        while let Some(s) = self.next_support(&mut supports) {
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
                matches!(self.kind[j], Kind::Move { .. })
                    && self.slot[i].h2h != j
                    && self.resolve(j)
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
        let j = self.slot[i].h2h;
        if j != NONE && self.resolve(j) {
            return 0;
        }
        1 + self.support_count(i, None)
    }

    /// Outcomes, dislodgements and the next board.
    fn finish(
        mut self,
        board: &Board,
        chosen: &[usize],
        results: &mut Vec<OrderResult>,
    ) -> Adjudication {
        self.find_dislodgements();
        self.settle_outcomes();
        for (k, &u) in chosen.iter().enumerate() {
            if u != NONE {
                (results[k].outcome, results[k].reason) =
                    (self.slot[u].outcome, self.slot[u].reason);
            }
        }
        let (units, held_since, gone) = self.next_units(board);
        let contested = self.standoffs(&units);
        let next = Board {
            phase: board.phase.successor(),
            units,
            owners: board.owners.clone(),
            dislodged: gone,
            contested,
            homes: board.homes.clone(),
            held_since,
        };
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

    /// Marks the moves that succeeded, and dislodges the unit in each one's destination unless
    /// it moved away.
    fn find_dislodgements(&mut self) {
        // Moves in unit order, so that (were two to succeed into one province) the last one
        // counts, as the walk of the province's movers would have it.
        for at in self.group(Group::Move) {
            let k = self.by_group[at];
            let Kind::Move { dest, .. } = self.kind[k] else {
                continue;
            };
            if !self.slot[k].res {
                continue;
            }
            self.slot[k].moved = true;
            if let Some(i) = self.unit_at[dest.0 as usize]
                && !(matches!(self.kind[i], Kind::Move { .. }) && self.slot[i].res)
            {
                self.slot[i].dislodger = k;
            }
        }
    }

    /// Each unit's outcome, and why it failed. Every decision is settled by now (the guess
    /// algorithm settles each order it is asked about, and every order was asked), so the
    /// passes may go group by group.
    fn settle_outcomes(&mut self) {
        debug_assert!(self.slot.iter().all(|s| s.resolved));
        for at in self.group(Group::Hold) {
            let i = self.by_group[at];
            if self.slot[i].dislodger != NONE {
                self.fail(i, Reason::Dislodged);
            }
        }
        for at in self.group(Group::Move) {
            let i = self.by_group[at];
            let s = self.slot[i];
            if s.res {
                continue;
            }
            let why = if s.paradox {
                Reason::Paradox
            } else if s.by_convoy && !self.path(i) {
                Reason::NoConvoy
            } else {
                Reason::Bounce
            };
            self.fail(i, why);
        }
        for g in [Group::SupportHold, Group::SupportMove, Group::Convoy] {
            for at in self.group(g) {
                let i = self.by_group[at];
                let s = self.slot[i];
                let dislodged = s.dislodger != NONE;
                let why = if !s.valid {
                    Reason::Void
                } else if s.disrupted && !dislodged {
                    Reason::Disrupted
                } else if dislodged {
                    Reason::Dislodged
                } else if !s.res {
                    Reason::Cut
                } else {
                    continue;
                };
                self.fail(i, why);
            }
        }
    }

    fn fail(&mut self, i: usize, why: Reason) {
        self.slot[i].outcome = Outcome::Fails;
        self.slot[i].reason = Some(why);
    }

    /// The units on the next board (movers in their new place), each province's `held_since`
    /// (Maharajiad B.I(3)), and the dislodged units, which leave the board.
    fn next_units(&self, board: &Board) -> (Vec<Unit>, Vec<Option<Phase>>, Vec<Dislodged>) {
        let mut units: Vec<Unit> = Vec::with_capacity(self.units.len());
        let mut held_since: Vec<Option<Phase>> = vec![None; board.held_since.len()];
        let mut gone: Vec<Dislodged> = Vec::new();
        for (i, (unit, s)) in self.units.iter().zip(&self.slot).enumerate() {
            if s.dislodger != NONE {
                gone.push(Dislodged {
                    unit: *unit,
                    attacker_from: self.origin(s.dislodger),
                    by_convoy: self.slot[s.dislodger].by_convoy,
                });
                continue;
            }
            let mut u = *unit;
            let from = u.location.province.0 as usize;
            if s.moved
                && let Kind::Move { to, .. } = self.kind[i]
            {
                u.location = to;
                // A unit that moves in stands there from the next phase on (B.I(3)).
                held_since[to.province.0 as usize] = Some(board.phase.successor());
            } else {
                held_since[from] = board.held_since.get(from).copied().flatten();
            }
            units.push(u);
        }
        (units, held_since, gone)
    }

    /// Provinces left empty by a standoff: an unoccupied province that a move with some strength
    /// to prevent others failed to enter.
    fn standoffs(&mut self, units: &[Unit]) -> Vec<Province> {
        let occupied = super::occupied(units);
        let mut contested = Vec::new();
        for p in self.move_dests.difference(occupied).iter() {
            let mut standoff = false;
            let mut movers = self.movers(p);
            while let Some(k) = self.next_mover(&mut movers) {
                if !self.slot[k].res && self.prevent_strength(k) > 0 {
                    standoff = true;
                }
            }
            if standoff {
                contested.push(p);
            }
        }
        contested
    }
}
