//! What one map shows: the board at the start of a phase, the orders given in it and what
//! became of each, the units it dislodged, built or disbanded. Made from an adjudication just
//! run (the results mail) or from the stored JSON of a past phase (`HISTORY`, the game's page):
//! one scene, one drawing, for every reader.

use chancery_diplomacy::adjudicator::{Adjudication, Board, Dislodged, Outcome, Reason};
use chancery_diplomacy::json::{self, NextOutput, PhaseInput};
use chancery_diplomacy::map::{Map, Power, Unit};
use chancery_diplomacy::order::{Order, parse_order};
use chancery_diplomacy::phase::{Phase, PhaseKind, Season};
use serde::Deserialize;
use std::collections::BTreeMap;

/// One order and what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    pub power: Power,
    pub order: Order,
    pub outcome: Outcome,
    pub reason: Option<Reason>,
}

/// Everything one map of one phase shows.
#[derive(Clone, Debug)]
pub struct Scene<'m> {
    pub map: &'m Map,
    /// "Spring 1901, movement".
    pub title: String,
    /// The units at the start of the phase.
    pub units: Vec<Unit>,
    /// The owner of each supply centre at the start of the phase, by province.
    pub owners: Vec<Option<Power>>,
    /// The orders, each with its outcome (none: the position only).
    pub orders: Vec<Drawn>,
    /// The units this phase dislodged (a movement phase), drawn beside their province.
    pub dislodged: Vec<Dislodged>,
    /// The units waiting to retreat at the start of the phase (a retreat phase).
    pub retreating: Vec<Dislodged>,
    /// Units built in this phase.
    pub built: Vec<Unit>,
    /// Units removed without an order (no retreat, civil disorder).
    pub disbanded: Vec<Unit>,
}

/// A phase's results as stored (the `adjudicate` output, docs/adjudicate.md), read back.
#[derive(Clone, Debug, Deserialize)]
pub struct Results {
    pub orders: Vec<ResultLine>,
    #[serde(default)]
    pub disbanded: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub built: BTreeMap<String, Vec<String>>,
    pub next: NextOutput,
}

/// One order of stored results.
#[derive(Clone, Debug, Deserialize)]
pub struct ResultLine {
    pub power: String,
    pub order: String,
    pub result: String,
    #[serde(default)]
    pub reason: Option<String>,
}

/// A stored phase the scene cannot be made of.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    #[error("the phase: {0}")]
    Phase(#[from] json::InputError),
    #[error("the order '{order}' cannot be read: {reason}")]
    Order { order: String, reason: String },
}

impl<'m> Scene<'m> {
    /// The position alone (no orders yet): the opening map, the current phase's page.
    pub fn position(map: &'m Map, board: &Board) -> Scene<'m> {
        Scene {
            map,
            title: title(board),
            units: board.units.clone(),
            owners: board.owners.clone(),
            orders: Vec::new(),
            dislodged: Vec::new(),
            retreating: board.dislodged.clone(),
            built: Vec::new(),
            disbanded: Vec::new(),
        }
    }

    /// A phase just adjudicated: `before` is the board it was played on.
    pub fn adjudicated(map: &'m Map, before: &Board, adj: &Adjudication) -> Scene<'m> {
        let mut scene = Scene::position(map, before);
        scene.orders = adj
            .results
            .iter()
            .map(|r| Drawn {
                power: r.power,
                order: r.order.clone(),
                outcome: r.outcome,
                reason: r.reason,
            })
            .collect();
        if before.phase.kind == PhaseKind::Movement {
            scene.dislodged = adj.next.dislodged.clone();
        }
        scene.built = adj.built.clone();
        scene.disbanded = adj.disbanded.clone();
        scene
    }

    /// A phase given as the `chancery adjudicate` input (docs/adjudicate.md), adjudicated: its
    /// orders with their outcomes (`chancery render`).
    pub fn played(input: &PhaseInput) -> Result<Scene<'static>, SceneError> {
        let p = json::prepare(input)?;
        let adj = chancery_diplomacy::adjudicator::adjudicate(p.map, &p.rules, &p.board, &p.orders);
        Ok(Scene::adjudicated(p.map, &p.board, &adj))
    }

    /// A phase as the store keeps it: the board it was played on (the `adjudicate` input,
    /// without orders) and its results (the output), if it has been adjudicated.
    pub fn stored(
        input: &PhaseInput,
        results: Option<&Results>,
    ) -> Result<Scene<'static>, SceneError> {
        let prepared = json::prepare(input)?;
        let map = prepared.map;
        let mut scene = Scene::position(map, &prepared.board);
        let Some(out) = results else {
            return Ok(scene);
        };
        for o in &out.orders {
            let order = parse_order(map, &o.order).map_err(|e| SceneError::Order {
                order: o.order.clone(),
                reason: e.to_string(),
            })?;
            scene.orders.push(Drawn {
                power: map
                    .power_by_name(&o.power)
                    .ok_or_else(|| SceneError::Order {
                        order: o.order.clone(),
                        reason: format!("no power {}", o.power),
                    })?,
                order,
                outcome: outcome(&o.result),
                reason: o.reason.as_deref().and_then(reason),
            });
        }
        // The next board, read as an input, gives the dislodged units with their attackers.
        let next = json::prepare(&PhaseInput {
            variant: input.variant.clone(),
            rules: None,
            phase: out.next.phase.clone(),
            units: out.next.units.clone(),
            centers: Some(out.next.centers.clone()),
            dislodged: out.next.dislodged.clone(),
            contested: out.next.contested.clone(),
            homes: out.next.homes.clone(),
            held_since: out.next.held_since.clone(),
            orders: Default::default(),
        })?;
        if prepared.board.phase.kind == PhaseKind::Movement {
            scene.dislodged = next.board.dislodged;
        }
        let units = |list: &BTreeMap<String, Vec<String>>| {
            let mut all = Vec::new();
            for (power, names) in list {
                let Some(pw) = map.power_by_name(power) else {
                    continue;
                };
                all.extend(
                    names
                        .iter()
                        .filter_map(|n| json::parse_unit(map, pw, n).ok()),
                );
            }
            all
        };
        scene.built = units(&out.built);
        scene.disbanded = units(&out.disbanded);
        Ok(scene)
    }
}

/// "Spring 1901, movement".
fn title(board: &Board) -> String {
    Scene::title_of(board.phase)
}

impl Scene<'_> {
    /// A phase in words: "Spring 1901, movement".
    pub fn title_of(p: Phase) -> String {
        let season = match p.season {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
        };
        let kind = match p.kind {
            PhaseKind::Movement => "movement",
            PhaseKind::Retreat => "retreats",
            PhaseKind::Adjustment => "adjustments",
        };
        format!("{season} {}, {kind}", p.year)
    }
}

/// The stored word for an outcome (`Outcome::as_str`).
fn outcome(word: &str) -> Outcome {
    match word {
        "succeeds" => Outcome::Succeeds,
        "fails" => Outcome::Fails,
        _ => Outcome::Invalid,
    }
}

/// The stored word for a reason (`Reason::as_str`); "bounce" is read as a movement bounce,
/// which draws as a retreat bounce does.
fn reason(word: &str) -> Option<Reason> {
    Some(match word {
        "bounce" => Reason::Bounce,
        "cut" => Reason::Cut,
        "dislodged" => Reason::Dislodged,
        "no convoy" => Reason::NoConvoy,
        "disrupted" => Reason::Disrupted,
        "void" => Reason::Void,
        "illegal" => Reason::Illegal,
        "superseded" => Reason::Superseded,
        "ambiguous" => Reason::Ambiguous,
        "no unit" => Reason::NoUnit,
        "not own unit" => Reason::NotOwnUnit,
        "wrong phase" => Reason::WrongPhase,
        "excess" => Reason::Excess,
        "paradox" => Reason::Paradox,
        _ => return None,
    })
}
