//! The Nomic by mail (issue 25): Suber's initial rule set as the 2019 game edited it, played
//! with no officer. Its pure rules are `crates/nomic`; this folder is the thin layer over the
//! store and the mail:
//!
//! - [`admin`]: a game made from its preset, its players seated on their days (Nomic 201), and
//!   started (the rule set enacted, rule 201's allocation written in, the start mails);
//! - [`mail`]: a player's mail, proven, read into its lines, each handed to its file:
//!   [`propose`] (`Rule-change:`, Nomic 107, 109, 202), [`vote`] (`Vote: Yes|No`, Nomic 113,
//!   201), [`order`] (Points of Order, Nomic 214), [`record`] (`RULES`, `HISTORY`, `POINTS`,
//!   Nomic 212);
//! - [`tick`]: votes completed at the end of their day (Nomic 113, 204, 206), the points
//!   (203, 205, 207, 209, 210), the rule set changed, and the Points of Order's clocks (214);
//! - [`commands`]: the GM's commands of the Nomic (`ADD PLAYER`, `CONFIRM PROPOSAL`);
//! - [`house`]: what the shared steps ask of a Nomic game.

pub mod admin;
pub mod commands;
pub mod house;
pub mod mail;
mod order;
mod propose;
mod proven;
mod record;
mod tick;
mod vote;

pub use house::NomicHouse;
pub use tick::Tick;

use crate::ballot::VoterId;
use crate::engine::{EngineError, Result};
use crate::nomic::circuit::{Seat, Seats};
use crate::nomic::house::HouseRules;
use crate::time::Ts;
use store::{Conn, GameRow};

pub(crate) mod store {
    pub use crate::store::nomic::*;
    pub use crate::store::*;
}

/// The game's house rules, as stored in its row.
pub fn rules_of(g: &GameRow) -> Result<HouseRules> {
    Ok(serde_json::from_str(&g.rules)?)
}

/// Nomic 201: the players and their days, as seated.
pub async fn seats_of(c: &mut Conn, game: &str) -> Result<Seats> {
    let rows = store::seats(c, game).await?;
    Seats::new(rows.into_iter().map(|r| Seat {
        player: VoterId::new(r.player),
        day: r.day.weekday(),
    }))
    .map_err(|e| EngineError::Refused(format!("game {game}: {e}")))
}

/// Nomic 101: when the game began; an error for a game that has not.
pub async fn started_at(c: &mut Conn, game: &str) -> Result<Ts> {
    store::nomic_game(c, game)
        .await?
        .and_then(|n| n.started_at)
        .ok_or_else(|| EngineError::Refused(format!("game {game} has not begun (Nomic 101)")))
}

/// Nomic 204: when rule 204 was last changed by a proposal (amended, transmuted or
/// renumbered), if it was: from then on its new text decides.
pub(crate) fn amended_204(rules: &crate::ruleset::RuleSet) -> Option<Ts> {
    use crate::ruleset::Change;
    rules
        .revisions()
        .iter()
        .rev()
        .filter(|r| r.proposal.is_some())
        .filter(|r| match &r.change {
            Change::Amend { number, .. } | Change::Transmute { number, .. } => *number == 204,
            Change::Renumber { from, .. } => *from == 204,
            Change::Repeal { number } => *number == 204,
            Change::Enact { .. } => false,
        })
        .map(|r| r.at)
        .next()
}

/// Nomic 110: the rules' cross-references as they stand: the initial file's `linksto`, each
/// renumbering the rule set has seen applied in order (a link follows its rule).
pub(crate) fn links_now(rules: &crate::ruleset::RuleSet) -> crate::nomic::rules::Links {
    use crate::ruleset::Change;
    let mut links = crate::nomic::rules::read_links(crate::nomic::house::INITIAL_RULES_2019)
        .unwrap_or_default();
    for r in rules.revisions() {
        if let Change::Renumber { from, to } = r.change {
            links.renumber(from, to);
        }
    }
    links
}
