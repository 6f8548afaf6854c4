//! WINNERS (Agora BT3): the judge announces one or several winners, with notice.

use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce;
use crate::engine::office::Done;
use crate::games::diplomacy::store::{self, GameRow};
use crate::games::diplomacy::{map_of, rules_of};
use crate::outgoing::diplomacy::notices;
use crate::store::Conn;
use crate::time::{HOUR, Ts, format_gmt};

/// WINNERS FRANCE GERMANY (Agora BT3): "If the judge believes that more than one person is
/// deserving of the win, e CAN announce them all as winners." The seats named are announced to
/// every player and observer now, with the notice of `winner_notice_hours` (BT3: "with 2 days
/// notice"; unset: none), and the tick concludes the contest when it has passed (the game
/// finished, its final mail sent). Refused for a seat the map does not have, or when a draw or
/// winners are announced already.
pub async fn winners(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    seats: &[String],
    now: Ts,
) -> Result<Done> {
    let (rules, map) = (rules_of(g)?, map_of(g)?);
    if let Some(unknown) = seats.iter().find(|s| map.power_by_name(s).is_none()) {
        return Ok(Done::refused(format!(
            "{unknown} is not a power of this game's map"
        )));
    }
    if let Some(at) = g.declared_end_at {
        return Ok(Done::refused(format!(
            "the game's end is announced already, for {}",
            format_gmt(at)
        )));
    }
    let mut seats = seats.to_vec();
    seats.dedup();
    let hours = rules.winner_notice_hours.unwrap_or(0);
    let at = now + Ts::from(hours) * HOUR;
    store::declare_winners(c, &g.id, &serde_json::to_string(&seats)?, at).await?;
    let names = seats.join(" and ");
    let text = notices::winners_announced(&notices::WinnersAnnounced {
        winners: &names,
        several: seats.len() > 1,
        majority: false,
        hours,
        at: &format_gmt(at),
    })?;
    announce(
        c,
        env,
        g,
        &format!("{}|winners", g.id),
        "the Judge announces the winners",
        &text,
        None,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "{names} announced as winners; the tournament is concluded at {}; every player was told",
        format_gmt(at)
    )))
}
