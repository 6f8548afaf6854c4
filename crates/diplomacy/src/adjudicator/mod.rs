//! The adjudicator: a pure function from a board, the house rules and the orders to the outcome
//! of every order and the next board.
//!
//! Movement follows the decision model of DATC chapter 5: every order has one yes/no decision
//! (does the move succeed, is the support given, does the convoying fleet stay), resolved by
//! recursion with guesses, and cycles with no or two consistent resolutions are settled by the
//! backup rule: circular movement succeeds, and convoy paradoxes follow the Szykman rule
//! (WM D.VI(6), Maharajiad B.VII(6)).

mod adjustment;
mod convoy;
mod movement;
mod retreat;

use crate::map::{Location, Map, Power, Province, ProvinceSet, Unit, UnitType};
use crate::order::Order;
use crate::phase::{Phase, PhaseKind, Season};
use crate::rules::Rules;

/// A unit dislodged in the movement phase, waiting to retreat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dislodged {
    pub unit: Unit,
    /// The province the dislodging unit came from.
    pub attacker_from: Province,
    /// The attacker came by convoy, so the retreat to its origin is open (WM D.VI(1), DATC 4.A.5).
    pub by_convoy: bool,
}

/// The state of a game at the start of a phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub phase: Phase,
    pub units: Vec<Unit>,
    /// Owner of each supply centre, indexed by province.
    pub owners: Vec<Option<Power>>,
    pub dislodged: Vec<Dislodged>,
    /// Provinces left empty by a standoff in the movement phase just played.
    pub contested: Vec<Province>,
    /// The power each supply centre is a home centre of now, indexed by province: the map's at
    /// first; under Maharajiad B.I(3) a centre can become another power's.
    pub homes: Vec<Option<Power>>,
    /// For each province holding a unit, the phase from whose start that same unit has stood
    /// there (Maharajiad B.I(3): "a specific unit ... for an entire game calendar year").
    pub held_since: Vec<Option<Phase>>,
}

impl Board {
    /// The opening position of a variant.
    pub fn initial(map: &Map) -> Board {
        let mut owners = vec![None; map.province_count()];
        for p in map.all_provinces() {
            owners[p.0 as usize] = map.info(p).home;
        }
        let phase = Phase::new(Season::Spring, map.start_year, PhaseKind::Movement);
        let mut held_since = vec![None; map.province_count()];
        for u in &map.starting_units {
            held_since[u.location.province.0 as usize] = Some(phase);
        }
        Board {
            phase,
            units: map.starting_units.clone(),
            homes: owners.clone(),
            owners,
            dislodged: Vec::new(),
            contested: Vec::new(),
            held_since,
        }
    }

    pub fn empty(map: &Map, phase: Phase) -> Board {
        Board {
            phase,
            units: Vec::new(),
            owners: vec![None; map.province_count()],
            dislodged: Vec::new(),
            contested: Vec::new(),
            homes: map.all_provinces().map(|p| map.info(p).home).collect(),
            held_since: vec![None; map.province_count()],
        }
    }

    /// The power `p` is a home centre of now.
    pub fn home(&self, p: Province) -> Option<Power> {
        self.homes.get(p.0 as usize).copied().flatten()
    }

    /// The home centres of `power` now.
    pub fn home_centers(&self, power: Power) -> impl Iterator<Item = Province> + '_ {
        self.homes
            .iter()
            .enumerate()
            .filter(move |(_, h)| **h == Some(power))
            .map(|(i, _)| Province(i as u8))
    }

    pub fn unit_at(&self, p: Province) -> Option<&Unit> {
        self.units.iter().find(|u| u.location.province == p)
    }

    pub fn owner(&self, p: Province) -> Option<Power> {
        self.owners.get(p.0 as usize).copied().flatten()
    }

    pub fn center_count(&self, power: Power) -> usize {
        self.owners.iter().filter(|o| **o == Some(power)).count()
    }

    pub fn unit_count(&self, power: Power) -> usize {
        self.units.iter().filter(|u| u.power == power).count()
    }
}

/// The outcome of one order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Succeeds,
    Fails,
    Invalid,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Succeeds => "succeeds",
            Outcome::Fails => "fails",
            Outcome::Invalid => "invalid",
        }
    }
}

/// Why an order did not succeed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The move met equal or greater strength.
    Bounce,
    /// The support was cut.
    Cut,
    /// The unit was dislodged.
    Dislodged,
    /// The convoyed move had no route of convoying fleets.
    NoConvoy,
    /// A river convoy attacked by a fleet (Maharajiad B.I(2)).
    Disrupted,
    /// A support or convoy that does not match what the other unit did.
    Void,
    /// The order is impossible on this board; the unit holds.
    Illegal,
    /// Another order for the same unit was used (WM D.III(5)).
    Superseded,
    /// The unit had several orders and holds (Maharajiad B.IV(6)).
    Ambiguous,
    /// The order names a unit the power does not have there.
    NoUnit,
    /// The order is for another power's unit.
    NotOwnUnit,
    /// The order does not belong in this kind of phase.
    WrongPhase,
    /// More builds or removals than the position allows.
    Excess,
    /// A convoyed move in a convoy paradox (Szykman rule, WM D.VI(6)).
    Paradox,
    /// Two retreats to one province.
    RetreatBounce,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Bounce => "bounce",
            Reason::Cut => "cut",
            Reason::Dislodged => "dislodged",
            Reason::NoConvoy => "no convoy",
            Reason::Disrupted => "disrupted",
            Reason::Void => "void",
            Reason::Illegal => "illegal",
            Reason::Superseded => "superseded",
            Reason::Ambiguous => "ambiguous",
            Reason::NoUnit => "no unit",
            Reason::NotOwnUnit => "not own unit",
            Reason::WrongPhase => "wrong phase",
            Reason::Excess => "excess",
            Reason::Paradox => "paradox",
            Reason::RetreatBounce => "bounce",
        }
    }
}

/// One order with its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderResult {
    pub power: Power,
    pub order: Order,
    pub outcome: Outcome,
    pub reason: Option<Reason>,
    /// A human explanation where the reason alone is not enough ("Spa is ambiguous: …").
    pub note: Option<String>,
}

/// A dislodged unit, and where it may go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatOptions {
    pub dislodged: Dislodged,
    pub retreats: Vec<Location>,
}

/// Everything an adjudication produces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    pub phase: Phase,
    /// One entry per input order, in input order.
    pub results: Vec<OrderResult>,
    /// Units disbanded without an order: failed or missing retreats, civil-disorder removals.
    pub disbanded: Vec<Unit>,
    /// Units built.
    pub built: Vec<Unit>,
    /// The dislodged units of this movement phase with their retreat options.
    pub retreats: Vec<RetreatOptions>,
    /// The board of the next phase that has something to do.
    pub next: Board,
}

/// One result per input order, all with the same starting verdict, to be filled in.
fn blank_results(
    orders: &[(Power, Order)],
    outcome: Outcome,
    reason: Option<Reason>,
) -> Vec<OrderResult> {
    orders
        .iter()
        .map(|(power, order)| OrderResult {
            power: *power,
            order: order.clone(),
            outcome,
            reason,
            note: None,
        })
        .collect()
}

/// Adjudicate one phase. `orders` are in the order they were written; the power is the one that
/// issued each order.
pub fn adjudicate(
    map: &Map,
    rules: &Rules,
    board: &Board,
    orders: &[(Power, Order)],
) -> Adjudication {
    let mut adj = match board.phase.kind {
        PhaseKind::Movement => movement::adjudicate(map, rules, board, orders),
        PhaseKind::Retreat => retreat::adjudicate(map, rules, board, orders),
        PhaseKind::Adjustment => adjustment::adjudicate(map, rules, board, orders),
    };
    skip_idle_phases(map, &mut adj);
    // Maharajiad B.I(3): once a game year is over, a centre held by the same unit since its
    // Spring becomes a home centre of that unit's power.
    let next = adj.next.phase;
    if map.additional_home_centres
        && next.season == Season::Spring
        && next.kind == PhaseKind::Movement
        && next.year > board.phase.year
    {
        convert_home_centres(map, &mut adj.next, next.year - 1);
    }
    adj
}

/// Maharajiad B.I(3): "If a power leaves a specific unit on a Supply Center (whether owned by
/// that power or not) for an entire game calendar year (consecutive Spring, Fall and Winter
/// turns), then that Supply Center becomes a new Home Supply Center for that power." A centre is
/// a home centre of one power at a time: the conversion takes it from the power it was home to.
fn convert_home_centres(map: &Map, board: &mut Board, year: u16) {
    let spring = Phase::new(Season::Spring, year, PhaseKind::Movement);
    for u in &board.units {
        let p = u.location.province;
        let since = board.held_since.get(p.0 as usize).copied().flatten();
        if map.info(p).supply_center
            && since.is_some_and(|s| s <= spring)
            && let Some(h) = board.homes.get_mut(p.0 as usize)
        {
            *h = Some(u.power);
        }
    }
}

/// Legal retreats of every dislodged unit on a retreat-phase board.
pub fn retreat_options(map: &Map, board: &Board) -> Vec<RetreatOptions> {
    retreat::options(map, board)
}

/// Supply centres change hands when the Fall turn is over (before the adjustments). Only
/// supply centres have owners.
fn update_ownership(map: &Map, board: &mut Board) {
    for u in &board.units {
        let p = u.location.province;
        if map.info(p).supply_center
            && let Some(o) = board.owners.get_mut(p.0 as usize)
        {
            *o = Some(u.power);
        }
    }
}

/// Does any power have an adjustment to make on this board?
pub fn adjustments_due(map: &Map, board: &Board) -> bool {
    map.all_powers().any(|power| {
        let centers = board.center_count(power);
        let units = board.unit_count(power);
        if units > centers {
            return true;
        }
        centers > units
            && board
                .home_centers(power)
                .any(|p| board.owner(p) == Some(power) && board.unit_at(p).is_none())
    })
}

/// Move `next` forward past phases in which nobody has anything to order: a retreat phase with no
/// dislodged unit that can retreat, and an adjustment phase with no builds or removals due.
/// Ownership is updated once the Fall turn is over.
fn skip_idle_phases(map: &Map, adj: &mut Adjudication) {
    loop {
        let next = &mut adj.next;
        match (next.phase.season, next.phase.kind) {
            (_, PhaseKind::Retreat) => {
                let retreats: Vec<RetreatOptions> = retreat::options(map, next);
                if retreats.iter().any(|r| !r.retreats.is_empty()) {
                    return;
                }
                // Units with nowhere to go are disbanded without a phase.
                for r in retreats {
                    adj.disbanded.push(r.dislodged.unit);
                }
                next.dislodged.clear();
                next.contested.clear();
                next.phase = next.phase.successor();
            }
            (Season::Winter, PhaseKind::Adjustment) => {
                if adjustments_due(map, next) {
                    return;
                }
                next.phase = next.phase.successor();
            }
            _ => return,
        }
        if next.phase.season == Season::Winter {
            update_ownership(map, next);
        }
    }
}

/// Set `next.phase` to the calendar successor of `phase`, updating ownership when entering Winter.
fn advance(map: &Map, next: &mut Board, phase: Phase) {
    next.phase = phase.successor();
    if next.phase.season == Season::Winter {
        update_ownership(map, next);
    }
}

/// A unit's index on the board by province, for O(1) lookups in the resolver.
fn unit_index(map: &Map, units: &[Unit]) -> Vec<Option<usize>> {
    let mut at = vec![None; map.province_count()];
    for (i, u) in units.iter().enumerate() {
        at[u.location.province.0 as usize] = Some(i);
    }
    at
}

/// Provinces occupied by units.
fn occupied(units: &[Unit]) -> ProvinceSet {
    let mut s = ProvinceSet::default();
    for u in units {
        s.insert(u.location.province);
    }
    s
}

/// Does the unit written in an order match the real one, under the designation policies?
/// `Err` is the reason the order is invalid.
fn check_designation(
    rules: &Rules,
    written_type: Option<UnitType>,
    actual: &Unit,
) -> Result<(), Reason> {
    use crate::rules::Designation;
    match (written_type, rules.unit_type_designation) {
        (Some(t), Designation::Invalidate) if t != actual.unit_type => Err(Reason::Illegal),
        _ => Ok(()),
    }
}

fn check_nationality(rules: &Rules, written: Option<Power>, actual: &Unit) -> Result<(), Reason> {
    use crate::rules::Designation;
    match (written, rules.nationality_designation) {
        (Some(p), Designation::Invalidate) if p != actual.power => Err(Reason::Illegal),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_supply_centres_change_hands() {
        let map = Map::standard();
        let mut b = Board::initial(map);
        b.phase = "F1901M".parse().expect("phase");
        let orders: Vec<(Power, Order)> = [
            ("ENGLAND", "F LON - NTH"),
            ("ENGLAND", "A LVP - YOR"),
            ("FRANCE", "A PAR - BUR"),
            ("GERMANY", "F KIE - DEN"),
        ]
        .iter()
        .map(|(p, o)| {
            (
                map.power_by_name(p).expect("power"),
                crate::order::parse_order(map, o).expect("order"),
            )
        })
        .collect();
        let adj = adjudicate(map, &Rules::default(), &b, &orders);
        let next = &adj.next;
        let owner = |c: &str| next.owner(map.province_by_code(c).expect("province"));
        assert_eq!(next.phase.to_string(), "W1901A");
        assert_eq!(owner("NTH"), None, "a sea has no owner");
        assert_eq!(
            owner("YOR"),
            None,
            "a province without a centre has no owner"
        );
        assert_eq!(owner("BUR"), None);
        assert_eq!(owner("DEN"), map.power_by_name("GERMANY"));
        assert_eq!(
            owner("LON"),
            map.power_by_name("ENGLAND"),
            "an emptied centre stays owned"
        );
        assert_eq!(
            next.center_count(map.power_by_name("GERMANY").expect("g")),
            4
        );
        assert_eq!(
            next.center_count(map.power_by_name("ENGLAND").expect("e")),
            3
        );
    }

    #[test]
    fn initial_board_needs_no_adjustment() {
        let map = Map::standard();
        let b = Board::initial(map);
        assert!(!adjustments_due(map, &b));
        assert_eq!(b.units.len(), 22);
        assert_eq!(b.owners.iter().filter(|o| o.is_some()).count(), 22);
    }
}
