//! Reading a Diplomacy mail for a power: which power and phase it is for, its body read against
//! the phase's board (with the player's own abbreviations), and a digest of what it says. The
//! order mail and the confirmation box's copy read alike, so that the two copies of one mail
//! can be matched.

use super::map_of;
use crate::adjudicator::Board;
use crate::engine::Result;
use crate::map::{Map, Power, Province};
use crate::message::ReadMessage;
use crate::orderset::{MailRead, read_body};
use crate::reader::ReadContext;
use crate::rules::Rules;
use crate::store::Conn;
use crate::store::{self, GameRow, PhaseRow, PlayerRow};
use std::collections::HashMap;

/// Whom a message is for: the power (named in the subject, else the sender's), the current
/// phase, and the game's players as they were read to find the power.
pub struct Addressed {
    pub power: Power,
    pub phase: PhaseRow,
    pub players: Vec<PlayerRow>,
}

/// The power a message is for (named in the subject, else the sender's), and the current phase.
pub async fn power_and_phase(
    c: &mut Conn,
    g: &GameRow,
    msg: &ReadMessage,
    from: &str,
) -> Result<Option<Addressed>> {
    let Some((power, players)) = addressed_power(c, g, msg, from).await? else {
        return Ok(None);
    };
    let Some(phase) = store::current_phase(c, &g.id).await? else {
        return Ok(None);
    };
    Ok(Some(Addressed {
        power,
        phase,
        players,
    }))
}

/// The power a message is for: named in the subject, else the sender's (with the game's
/// players, read to find it). None if neither names one.
pub async fn addressed_power(
    c: &mut Conn,
    g: &GameRow,
    msg: &ReadMessage,
    from: &str,
) -> Result<Option<(Power, Vec<PlayerRow>)>> {
    let map = map_of(g)?;
    let players = store::players(c, &g.id).await?;
    let named = msg
        .subject
        .split_whitespace()
        .find_map(|w| map.power_by_name(w.trim_matches(|ch: char| !ch.is_alphanumeric())));
    let power = named.or_else(|| {
        players
            .iter()
            .find(|p| p.address == from)
            .and_then(|p| map.power_by_name(&p.power))
    });
    Ok(power.map(|power| (power, players)))
}

/// Read a mail's body for `power` against `board` (the stored board of the phase, read once a
/// mail: the acknowledgement shows it too).
pub fn read_with(
    map: &'static Map,
    rules: &Rules,
    power: Power,
    board: &Board,
    msg: &ReadMessage,
    abbreviations: &HashMap<String, Province>,
) -> MailRead {
    let ctx = ReadContext {
        map,
        rules,
        power,
        phase: board.phase.kind,
        board: Some(board),
        abbreviations,
    };
    read_body(&ctx, msg)
}

/// A digest of what a mail says, read for one power: its orders (canonical), the Final
/// marker, its votes and its press, but not what became of them (the press cap depends on the
/// press before it). The GM's copy and the confirmation box's copy of one mail digest alike.
pub fn read_digest(map: &Map, read: &MailRead) -> Result<String> {
    let orders: Vec<String> = read
        .understood()
        .iter()
        .map(|o| o.display(map).to_string())
        .collect();
    let votes: Vec<(&str, &str)> = read
        .votes
        .iter()
        .map(|v| (v.proposal.as_str(), v.vote.as_str()))
        .collect();
    let press: Vec<_> = read
        .press
        .iter()
        .map(|p| (&p.to, p.grey, &p.signature, &p.as_power, &p.body))
        .collect();
    let said = serde_json::to_string(&(orders, read.final_, votes, press))?;
    Ok(crate::outgoing::ids::sha256_hex(said.as_bytes()))
}
