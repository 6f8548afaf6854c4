//! A player's own abbreviations (WM D.III(1)): "a player may submit an individual list of
//! preferred abbreviations with the GM provided that he does it at the outset of the game (or if
//! he is a replacement not later than he submits his first set of orders) ... the GM may veto
//! some or all of the abbreviations on this list prior to the deadline for the first turn. Once
//! any additional abbreviations list is agreed ... it will be made public to all players". The
//! server reads that player's orders with the list.

use super::command::{Done, announce_with};
use super::*;
use crate::map::Province;
use crate::store::PlayerRow;

/// A power's registered list, ready for the reader (abbreviation → province).
pub(super) async fn stored(
    c: &mut SqliteConnection,
    g: &GameRow,
    map: &Map,
    power: &str,
) -> Result<HashMap<String, Province>> {
    let Some(json) = store::abbreviations(c, &g.id, power).await? else {
        return Ok(HashMap::new());
    };
    let list: std::collections::BTreeMap<String, String> = serde_json::from_str(&json)?;
    Ok(list
        .into_iter()
        .filter_map(|(abbr, code)| Some((abbr, map.province_by_name(&code)?)))
        .collect())
}

/// The list as stored and as shown: abbreviation → province code, in order.
fn codes(
    map: &Map,
    list: &HashMap<String, Province>,
) -> std::collections::BTreeMap<String, String> {
    list.iter()
        .map(|(a, p)| (a.clone(), map.info(*p).code.clone()))
        .collect()
}

fn shown(list: &std::collections::BTreeMap<String, String>) -> String {
    if list.is_empty() {
        return "(none)".into();
    }
    list.iter()
        .map(|(a, c)| format!("{a} = {c}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Register the list a player sent: what the acknowledgement says, and the list to read this
/// mail's orders with when it was registered.
#[allow(clippy::too_many_arguments)]
pub(super) async fn register(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    map: &'static Map,
    phase: &PhaseRow,
    player: &PlayerRow,
    text: &str,
    now: Ts,
) -> Result<(String, Option<HashMap<String, Province>>)> {
    let outset = phase.seq == 1;
    let replacement = !outset
        && store::replacement_without_orders(c, &g.id, &player.power, &player.address).await?;
    if !outset && !replacement {
        return Ok((
            "refused: a list is registered at the outset of the game, or by a replacement with \
             the first orders (WM D.III(1))"
                .into(),
            None,
        ));
    }
    let list = match crate::reader::parse_abbreviations(map, text) {
        Ok(l) => l,
        Err(e) => return Ok((format!("refused: {e}"), None)),
    };
    let table = codes(map, &list);
    store::set_abbreviations(
        c,
        &g.id,
        &player.power,
        &serde_json::to_string(&table)?,
        now,
    )
    .await?;
    let text = format!(
        "{}'s own abbreviations list (WM D.III(1)){}; their orders are read with it:",
        player.power,
        if outset {
            "; the GM may veto entries before the first deadline"
        } else {
            ""
        }
    );
    announce_with(
        c,
        env,
        g,
        &format!(
            "{}|abbreviations|{}|{}",
            g.id,
            player.power,
            crate::outgoing::ids::short_hash(&shown(&table))
        ),
        &format!("{}'s abbreviations", player.power),
        &text,
        &shown(&table),
        None,
        now,
    )
    .await?;
    Ok((
        format!(
            "registered ({} entries), and this mail's orders were read with it; every player \
             was told",
            table.len()
        ),
        Some(list),
    ))
}

/// VETO ABBREVIATIONS <power> [abbreviation ...]: the GM strikes entries (all if none are
/// named) before the first deadline; every player is told.
pub(super) async fn veto(
    c: &mut SqliteConnection,
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
    let text = format!(
        "The GM has vetoed {} of {name}'s abbreviations (WM D.III(1)): {}. The list now reads:",
        struck.len(),
        struck.join(", ")
    );
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
