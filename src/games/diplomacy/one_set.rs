//! One set of orders a turn (Agora BT15, BT22, BT23; `Rules::one_order_set`): "Each set of
//! orders should specify what eir units will do and how they will retreat and disband if
//! necessary. When appropriate, orders should also contain conditionals for the creation and
//! destruction of units." The retreat phase and, after a Fall turn, the adjustment phase that
//! follow a movement phase get no deadline of their own: they are resolved in the same tick,
//! each from the conditional orders sent with the movement orders (WM D.II(5)'s reading, first
//! possible choice first: `crate::conditional`). What no conditional order covers follows the
//! adjudicator's defaults: a dislodged unit with no usable retreat order disbands (BT22),
//! builds not given are waived, and removals not given follow the civil-disorder rule (BT23,
//! BT24: `civil_disorder`).

use super::conditional;
use super::turn::Turn;
use super::*;
use crate::adjudicator::{Adjudication, adjudicate};
use crate::json::PhaseOutput;

/// A retreat or adjustment phase resolved at once after the movement phase before it.
pub(super) struct Resolved {
    /// Its board, as the phase before left it.
    pub board: Board,
    pub adj: Adjudication,
    pub out: PhaseOutput,
    /// Each power's orders as the results show them (all conditional).
    pub written: Written,
}

/// Each power's orders as the results show them.
type Written = HashMap<String, Vec<StandingOrder>>;

/// At most a retreat phase and an adjustment phase follow a movement phase; the bound only
/// guards the loop against a board that never comes back to a movement phase.
const MOST: usize = 2;

/// Agora BT15: the phases that follow `adj` (a movement phase's adjudication), each resolved
/// from the conditional orders sent with the movement orders, until the next movement phase.
pub(super) fn resolve_following(t: &Turn<'_>, adj: &Adjudication) -> Vec<Resolved> {
    let mut chain: Vec<Resolved> = Vec::new();
    let mut board = adj.next.clone();
    while board.phase.kind != PhaseKind::Movement && chain.len() < MOST {
        let turn = t.on_board(board);
        let (given, written) = conditional_orders(&turn);
        let adj = adjudicate(turn.map, turn.rules, &turn.board, &given);
        let out = json::render(turn.map, turn.rules, &adj);
        board = adj.next.clone();
        chain.push(Resolved {
            board: turn.board,
            adj,
            out,
            written,
        });
    }
    chain
}

/// The orders each power due in `t`'s phase gave in its conditional block (none: the
/// adjudicator's defaults, BT22, BT23), and how the results show them.
fn conditional_orders(t: &Turn<'_>) -> (Vec<(Power, Order)>, Written) {
    let mut given = Vec::new();
    let mut written = HashMap::new();
    for c in &t.f.conditional {
        let Some(pw) = t.map.power_by_name(&c.power) else {
            continue;
        };
        if !t.due.contains(&pw) {
            continue;
        }
        let chosen = conditional::orders(t, pw, &c.lines);
        let shown: Vec<StandingOrder> = chosen
            .iter()
            .map(|order| {
                let canonical = order.display(t.map).to_string();
                StandingOrder {
                    written: format!("{canonical} (conditional)"),
                    order: canonical,
                }
            })
            .collect();
        given.extend(chosen.into_iter().map(|order| (pw, order)));
        written.insert(c.power.clone(), shown);
    }
    (given, written)
}

/// What the results of a phase resolved at once say of it.
pub(super) fn note(phase: Phase) -> String {
    format!(
        "One set of orders a turn (Agora BT15): this phase ({phase}) had no deadline of its own \
         and was resolved at once from the conditional orders sent with the movement orders; a \
         dislodged unit with no usable retreat order is disbanded (BT22), builds not given are \
         waived and removals not given follow the civil disorder rule (BT23, BT24)."
    )
}
