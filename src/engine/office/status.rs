//! STATUS: the phase, the deadline and who has orders in (never what they are). The same text
//! answers a player's or observer's `<game> STATUS` query (`query_mail.rs`), cut to what they
//! may see.

use super::{Done, Situation};
use crate::engine::Result;
use crate::engine::house::House;
use crate::store::Conn;
use crate::store::{self, GameRow, PhaseRow};
use crate::time::Ts;
use crate::{commands::format_duration, time::format_gmt};

/// STATUS, for the masters.
pub async fn status(c: &mut Conn, g: &GameRow, house: &dyn House, s: &Situation) -> Result<Done> {
    let to = StatusFor::Masters;
    Ok(Done::ok(
        status_text(c, g, house, s.current.as_ref(), s.paused, to).await?,
    ))
}

/// Who a STATUS is for: per-power facts (who has orders in, who used extension days) go to
/// the masters only (issue 21.3: the docs promise an extension "without saying who asked");
/// a player hears of their own power only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusFor<'a> {
    Masters,
    /// A player (their power) or an observer (none).
    Reader(Option<&'a str>),
}

/// The phase, the deadline and who has orders in (never what they are).
pub async fn status_text(
    c: &mut Conn,
    g: &GameRow,
    house: &dyn House,
    current: Option<&PhaseRow>,
    paused: Option<Ts>,
    to: StatusFor<'_>,
) -> Result<String> {
    let Some(p) = current else {
        return Ok(format!("game {} is {}; no open phase", g.id, g.status));
    };
    let orders_in = house.orders_in(c, g, p).await?;
    let players = store::players(c, &g.id).await?;
    let state = |power: &str| {
        orders_in
            .iter()
            .find(|(seat, _)| seat == power)
            .map_or("none", |(_, state)| state.as_str())
    };
    let when = clock_text(p, paused, to);
    let own = match to {
        StatusFor::Masters => None,
        StatusFor::Reader(None) => return Ok(format!("{} {}, {when}", g.id, p.phase)),
        StatusFor::Reader(Some(power)) => Some(power),
    };
    if let Some(power) = own {
        return Ok(format!(
            "{} {}, {when}; your orders ({power}): {}",
            g.id,
            p.phase,
            state(power)
        ));
    }
    let parts: Vec<String> = players
        .iter()
        .map(|pl| format!("{} {}", pl.power, state(&pl.power)))
        .collect();
    // WM D.VII(5): the days of extension each position has used (the allowance is per game).
    let used: Vec<String> = players
        .iter()
        .filter(|pl| pl.extension_days_used > 0)
        .map(|pl| format!("{} {}d", pl.power, pl.extension_days_used))
        .collect();
    Ok(format!(
        "{} {}, {when}; orders: {}; extension days used: {}",
        g.id,
        p.phase,
        parts.join(", "),
        if used.is_empty() {
            "none".to_string()
        } else {
            used.join(", ")
        }
    ))
}

/// Where the clock stands: paused, held for an NMR (the masters are told what they may do), or
/// the deadline.
fn clock_text(p: &PhaseRow, paused: Option<Ts>, to: StatusFor<'_>) -> String {
    match paused {
        Some(left) => format!("paused, {} left", format_duration(left)),
        None if p.held_until.is_some() && to == StatusFor::Masters => format!(
            "deadline {}, results held for an NMR: only a replacement you name may send orders \
             (WM D.VII(6)(b))",
            format_gmt(p.deadline)
        ),
        None if p.held_until.is_some() => format!(
            "deadline {}, passed; the results are held (WM D.VII(6)(b))",
            format_gmt(p.deadline)
        ),
        None => format!("deadline {}", format_gmt(p.deadline)),
    }
}
