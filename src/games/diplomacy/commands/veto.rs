//! VETO ABBREVIATIONS <power> [abbreviation ...] (WM D.III(1)): "the GM may veto some or all of
//! the abbreviations on this list prior to the deadline for the first turn".

use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce_with;
use crate::engine::office::Done;
use crate::games::diplomacy::abbreviations::{codes, shown, stored};
use crate::games::diplomacy::map_of;
use crate::games::diplomacy::store::{self, GameRow, PhaseRow};
use crate::outgoing::diplomacy::notices;
use crate::store::Conn;
use crate::time::Ts;

/// VETO ABBREVIATIONS <power> [abbreviation ...]: the GM strikes entries (all if none are
/// named) before the first deadline; every player is told.
pub async fn veto(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    current: Option<&PhaseRow>,
    power: &str,
    entries: &[String],
    now: Ts,
) -> Result<Done> {
    let map = map_of(g)?;
    let Some(pw) = map.power_by_name(power) else {
        return Ok(Done::refused(format!(
            "there is no power {power} in this game"
        )));
    };
    let name = map.power_name(pw).to_string();
    let Some(p) = current else {
        return Ok(Done::refused("the game has no open phase"));
    };
    if p.seq != 1 || p.deadline <= now {
        return Ok(Done::refused(
            "abbreviations may be vetoed only before the first deadline (WM D.III(1))",
        ));
    }
    let mut list = codes(map, &stored(c, g, map, &name).await?);
    if list.is_empty() {
        return Ok(Done::refused(format!("{name} has no abbreviations list")));
    }
    let struck: Vec<String> = if entries.is_empty() {
        std::mem::take(&mut list).into_keys().collect()
    } else {
        let wanted: Vec<String> = entries
            .iter()
            .map(|e| crate::map::normalize_name(e))
            .collect();
        let gone: Vec<String> = list
            .keys()
            .filter(|k| wanted.contains(k))
            .cloned()
            .collect();
        list.retain(|k, _| !wanted.contains(k));
        gone
    };
    if struck.is_empty() {
        return Ok(Done::refused(format!("none of those is on {name}'s list")));
    }
    store::set_abbreviations(c, &g.id, &name, &serde_json::to_string(&list)?, now).await?;
    let text = notices::abbreviations_vetoed(&notices::AbbreviationsVetoed {
        count: struck.len(),
        name: &name,
        struck: &struck.join(", "),
    })?;
    announce_with(
        c,
        env,
        g,
        &format!("{}|abbreviations-veto|{name}|{now}", g.id),
        &format!("{name}'s abbreviations"),
        &text,
        &shown(&list),
        None,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "vetoed {}: {}; every player was told",
        struck.len(),
        struck.join(", ")
    )))
}
