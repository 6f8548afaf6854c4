//! PAUSE and RESUME: the GM stops the clock, keeping the time that was left before the
//! deadline, and starts it again with that time; every player is told.

use super::{Done, Situation, change_key};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce;
use crate::outgoing::notices;
use crate::store::Conn;
use crate::store::{self, GameRow};
use crate::time::Ts;
use crate::{commands::format_duration, time::format_gmt};

/// PAUSE.
pub async fn pause(c: &mut Conn, env: &Env, g: &GameRow, s: &Situation, now: Ts) -> Result<Done> {
    let Some(p) = &s.current else {
        return Ok(Done::refused("the game has no open phase"));
    };
    let left = (p.deadline - now).max(0);
    if !store::pause(c, &g.id, left).await? {
        return Ok(Done::refused("the game is already paused"));
    }
    let text = notices::game_paused(&notices::GamePaused {
        phase: &p.phase,
        left: &format_duration(left),
    })?;
    let key = change_key(g, "pause", now);
    announce(c, env, g, &key, "the game is paused", &text, None, now).await?;
    Ok(Done::ok(format!(
        "paused with {} left before the deadline; every player was told",
        format_duration(left)
    )))
}

/// RESUME.
pub async fn resume(c: &mut Conn, env: &Env, g: &GameRow, s: &Situation, now: Ts) -> Result<Done> {
    let Some(p) = &s.current else {
        return Ok(Done::refused("the game has no open phase"));
    };
    let Some(left) = store::resume(c, &g.id).await? else {
        return Ok(Done::refused("the game is not paused"));
    };
    let new = now + left;
    store::set_deadline(c, &g.id, p.seq, new).await?;
    let text = notices::game_resumed(&notices::GameResumed {
        phase: &p.phase,
        left: &format_duration(left),
    })?;
    let key = change_key(g, "resume", now);
    announce(c, env, g, &key, "the game resumes", &text, Some(new), now).await?;
    Ok(Done::ok(format!(
        "resumed; the deadline is {}; every player was told",
        format_gmt(new)
    )))
}
