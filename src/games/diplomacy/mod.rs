//! Diplomacy's server part: its mail (orders, press, votes, abbreviations, the confirmation
//! box's copies), its tick step (adjudicating at the deadline) and its own commands, over what
//! every kind shares (`crate::engine`). Its pure part is the `chancery_diplomacy` crate (maps,
//! orders, the adjudicator, the house rules).
//!
//! Its mail: `orders.rs` handles an order mail once the engine's router has found its running
//! game (the seat, the reading, replays, timeliness, the standing set, press and votes, the
//! requests, the acknowledgement); `press.rs` caps and stores press; `abbreviations.rs` a
//! player's own list (WM D.III(1)); `reading.rs` reads a mail for a power and digests it;
//! `receipt.rs` reads a confirmation-box copy. Its own commands: `commands/`, one file each.
//!
//! What the shared steps ask of a Diplomacy game (its house rules on time, proof and addressing,
//! SET, its phases and powers, the start mail, a seat handed over, the SUMMARY) is answered by
//! its house, `house.rs` (`summary.rs`: the SUMMARY). `admin.rs` creates a game, registers its
//! players and starts it; `tournament/` runs tournaments of boards (the directors' desk in
//! `tournament/td_mail.rs`).
//!
//! The tick step ([`Tick`]) is a pipeline: `tick.rs` decides a game at the clock (early,
//! waiting, reminded, adjudicated) and writes a batch's decisions; `adjudicate.rs` adjudicates
//! a phase (the orders that stand and the conditional ones, an NMR hold, the votes, the game's
//! end, the results mailed); `votes.rs` counts the votes; `ended.rs` tells a game's end;
//! `reminders.rs` sends the reminders and the masters' digest; `conditional.rs` reads the
//! conditional orders (WM D.II(5)); `nmr.rs` holds results for an NMR and sends the replacement
//! notices (WM D.VII(6)); `clock.rs` says when a game next needs the clock; `one_set.rs` resolves
//! the retreats and adjustments that follow a movement phase at once from its conditional
//! orders (Agora BT15, BT22, BT23); `preview.rs` answers
//! a master's PREVIEW; `turn.rs` holds what they share (a
//! game's `Turn` as read, the tick's `Decision`).

use crate::adjudicator::Board;
use crate::engine::{EngineError, Env, Result, masters_of};
use crate::json;
use crate::map::{Map, Power};
use crate::order::Order;
use crate::outgoing::diplomacy::compose;
use crate::phase::{Phase, PhaseKind};
use crate::policy;
use crate::rules::Rules;
use crate::time::Ts;
use std::collections::HashMap;
use store::{GameFacts, GameRow, NewMail, StandingOrder};

/// The store as Diplomacy's code reads it: what every kind of game shares (`crate::store`) and
/// Diplomacy's own tables (`crate::store::diplomacy`) under one path, `store::`. The shared
/// store no longer re-exports Diplomacy's, so that shared code reaches them only by naming
/// them, which `scripts/check-purity` forbids outside Diplomacy's folders; within them, which
/// of the two a query is makes no difference.
pub(crate) mod store {
    pub use crate::store::diplomacy::*;
    pub use crate::store::*;
}

pub mod abbreviations;
mod adjudicate;
pub mod admin;
pub mod assistants;
mod clock;
pub mod commands;
mod conditional;
mod ended;
pub mod entry;
pub mod house;
pub(crate) mod maps;
mod nmr;
mod one_set;
pub mod orders;
pub mod press;
mod preview;
pub mod reading;
pub mod receipt;
pub mod regulations;
mod reminders;
mod summary;
mod tick;
pub mod tournament;
mod turn;
mod votes;

pub use house::DiplomacyHouse;
pub use preview::preview;
pub use tick::Tick;

/// A game's house rules, as stored.
pub fn rules_of(game: &GameRow) -> Result<Rules> {
    Ok(serde_json::from_str(&game.rules)?)
}

/// A game's map.
pub fn map_of(game: &GameRow) -> Result<&'static Map> {
    Map::variant(&game.variant).ok_or_else(|| EngineError::UnknownVariant {
        game: game.id.clone(),
        variant: game.variant.clone(),
    })
}

/// Read a stored board (the `adjudicate` input shape).
pub fn board_from_json(map: &Map, text: &str, phase: &str) -> Result<Board> {
    let mut input: json::PhaseInput = serde_json::from_str(text)?;
    // The stored board does not name its variant; the game does.
    input.variant = map.name.clone();
    input.phase = phase.to_string();
    input.orders.clear();
    json::prepare(&input)
        .map(|p| p.board)
        .map_err(|e| EngineError::StoredBoard(e.to_string()))
}

/// A stored phase this kind cannot read is the engine's error like any other stored data's.
impl From<crate::phase::PhaseError> for EngineError {
    fn from(e: crate::phase::PhaseError) -> EngineError {
        EngineError::StoredPhase(e.to_string())
    }
}

/// A mail, or if it could not be composed, the masters' alert instead.
fn or_alert(env: &Env, f: &GameFacts, composed: compose::Composed, key: &str) -> Vec<NewMail> {
    match composed {
        Ok(m) => vec![m],
        Err(e) => crate::engine::compose_failed_mails(env, Some(&f.game), &f.masters, &e, key),
    }
}

/// The orders that stand for `power`, if it has any: an NMR is judged by the orders, not by
/// the mail (a mail with only press, a vote or FINAL leaves the power without orders).
fn orders_of<'a>(f: &'a GameFacts, power: &str) -> Option<&'a store::StandingRow> {
    f.standing
        .iter()
        .find(|s| s.power == power && !s.orders.is_empty())
}

/// Powers that have something to order in this phase.
pub fn powers_with_orders_due(map: &Map, board: &Board) -> Vec<Power> {
    map.all_powers()
        .filter(|p| match board.phase.kind {
            PhaseKind::Movement => board.units.iter().any(|u| u.power == *p),
            PhaseKind::Retreat => board.dislodged.iter().any(|d| d.unit.power == *p),
            PhaseKind::Adjustment => board.center_count(*p) != board.unit_count(*p),
        })
        .collect()
}
