//! DEADLINE <time> and EXTEND <duration>: the GM moves the open phase's deadline; every player
//! is told (WM D.VII(4)(b)).

use super::{Done, Situation, change_key};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce;
use crate::engine::house::House;
use crate::outgoing::notices;
use crate::store::Conn;
use crate::store::{self, GameRow};
use crate::time::Ts;
use crate::{commands::format_duration, time::format_gmt};

/// How the deadline moves.
#[derive(Clone, Copy, Debug)]
pub enum Move {
    /// DEADLINE: to this time.
    To(Ts),
    /// EXTEND: later by this long.
    By(Ts),
}

pub async fn move_deadline(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    s: &Situation,
    how: Move,
    now: Ts,
) -> Result<Done> {
    let Some(p) = &s.current else {
        return Ok(Done::refused("the game has no open phase"));
    };
    if s.paused.is_some() {
        return Ok(Done::refused("the game is paused: RESUME it first"));
    }
    let new = match how {
        Move::By(by) => p.deadline.saturating_add(by),
        Move::To(t) => t,
    };
    if new <= now {
        return Ok(Done::refused(format!(
            "{} has already passed (use PROCESS to adjudicate now)",
            format_gmt(new)
        )));
    }
    if let Some(why) = house.deadline_too_soon(p, new)? {
        return Ok(Done::refused(why));
    }
    store::set_deadline(c, &g.id, p.seq, new).await?;
    let text = match how {
        Move::By(by) => notices::deadline_extended(&notices::DeadlineExtended {
            phase: &p.phase,
            by: &format_duration(by),
        })?,
        Move::To(_) => notices::deadline_moved(&notices::DeadlineMoved { phase: &p.phase })?,
    };
    let key = change_key(g, "deadline", now);
    announce(
        c,
        env,
        g,
        &key,
        "the deadline has moved",
        &text,
        Some(new),
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "the deadline of {} is now {} (was {}); every player was told",
        p.phase,
        format_gmt(new),
        format_gmt(p.deadline)
    )))
}
