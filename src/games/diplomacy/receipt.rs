//! A Diplomacy mail's copy sent to the confirmation box (WM D.VII(7)): read as the GM's copy
//! will be, so that the two can be matched (`engine::receipt` keeps the time and answers).

use super::abbreviations;
use super::reading::{Addressed, power_and_phase, read_digest, read_with};
use super::{board_from_json, map_of, rules_of};
use crate::engine::Result;
use crate::engine::receipt::CopyRead;
use crate::message::ReadMessage;
use crate::phase::Phase;
use crate::store::Conn;
use crate::store::{self, GameRow, PhaseRow};

/// The copy read for the power it is for: its orders as the receipt shows them, and its
/// digest. None if it names no power of the game (or the game has no open phase).
pub async fn read_copy(
    c: &mut Conn,
    g: &GameRow,
    msg: &ReadMessage,
    from: &str,
) -> Result<Option<CopyRead>> {
    let Some(Addressed {
        power,
        phase: current,
        ..
    }) = power_and_phase(c, g, msg, from).await?
    else {
        return Ok(None);
    };
    // Read against the phase the subject names, when the game has it: a receipt read late (an
    // outage) must not read the orders against a later board.
    let phase_row = match subject_phase(c, g, &msg.subject).await? {
        Some(p) => p,
        None => current,
    };
    let (rules, map) = (rules_of(g)?, map_of(g)?);
    let own = abbreviations::stored(c, g, map, map.power_name(power)).await?;
    let board = board_from_json(map, &phase_row.board, &phase_row.phase)?;
    let read = read_with(map, &rules, power, &board, msg, &own);
    Ok(Some(CopyRead {
        shown: read
            .understood()
            .iter()
            .map(|o| o.display(map).to_string())
            .collect(),
        digest: read_digest(map, &read)?,
    }))
}

/// The phase of game `g` the subject names (`S1901M`), if the game has played or plays it.
async fn subject_phase(c: &mut Conn, g: &GameRow, subject: &str) -> Result<Option<PhaseRow>> {
    let named = subject
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|ch: char| !ch.is_alphanumeric())
                .to_ascii_uppercase()
        })
        .find(|w| w.parse::<Phase>().is_ok());
    match named {
        Some(p) => Ok(store::phase_named(c, &g.id, &p).await?),
        None => Ok(None),
    }
}
