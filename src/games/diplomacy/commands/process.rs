//! PROCESS: the open phase is adjudicated now (its deadline set to now), as soon as every
//! mailbox has been read up to now.

use crate::engine::Result;
use crate::engine::office::{Done, Situation};
use crate::store::Conn;
use crate::store::{self, GameRow};
use crate::time::Ts;

pub async fn process(c: &mut Conn, g: &GameRow, s: &Situation, now: Ts) -> Result<Done> {
    let Some(p) = &s.current else {
        return Ok(Done::refused("the game has no open phase"));
    };
    if s.paused.is_some() {
        return Ok(Done::refused("the game is paused: RESUME it first"));
    }
    store::set_deadline(c, &g.id, p.seq, now).await?;
    Ok(Done::ok(format!(
        "{} is adjudicated as soon as every mailbox has been read up to now",
        p.phase
    )))
}
