//! HOLIDAY <from> TO <to> <name> and HOLIDAY EXTENSION (WM D.VII(5)): the TD declares a holiday
//! eligible for extensions that are never charged; the GM (as any player) may take it when a
//! deadline falls in it.

use super::{Actor, Done, Situation};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce;
use crate::engine::extension::{game_windows, take_holiday};
use crate::engine::house::House;
use crate::outgoing::notices;
use crate::store::Conn;
use crate::store::{self, GameRow, Role, Via};
use crate::time::Ts;
use crate::time::format_gmt;

/// HOLIDAY: only the TD declares one (at the console the operator stands for the TD); every
/// player is told how to take it.
pub async fn declare(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    holiday: store::Holiday,
    now: Ts,
) -> Result<Done> {
    if actor.role != Some(Role::Td) && actor.via != Via::Console {
        return Ok(Done::refused(
            "only the TD declares holidays eligible for extensions (WM D.VII(5))",
        ));
    }
    let name = holiday.name.clone();
    let (from, to) = (holiday.from_ts, holiday.to_ts);
    if !store::declare_holiday(c, &g.id, &holiday).await? {
        return Ok(Done::refused(format!("{name} is declared already")));
    }
    let text = notices::holiday_declared(&notices::HolidayDeclared {
        name: &name,
        from: &format_gmt(from),
        to: &format_gmt(to),
    })?;
    let key = format!("{}|holiday|{name}", g.id);
    announce(c, env, g, &key, "a holiday extension", &text, None, now).await?;
    Ok(Done::ok(format!(
        "{name} is a holiday for extensions; every player was told"
    )))
}

/// HOLIDAY EXTENSION: the GM takes the extension of a holiday that falls in this turn (not
/// charged to anyone).
pub async fn take(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    s: &Situation,
    now: Ts,
) -> Result<Done> {
    let Some(p) = s.current.as_ref() else {
        return Ok(Done::refused("the game has no open phase"));
    };
    let wins = game_windows(c, g, now).await?;
    Ok(
        match take_holiday(c, env, g, house, p, ("GM", ""), &wins, now).await? {
            Ok(deadline) => Done::ok(format!(
                "holiday extension taken (not charged): the deadline is now {}; every \
                 player was told",
                format_gmt(deadline)
            )),
            Err(why) => Done::refused(why.to_string()),
        },
    )
}
