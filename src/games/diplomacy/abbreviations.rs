//! A player's own abbreviations (WM D.III(1)): "a player may submit an individual list of
//! preferred abbreviations with the GM provided that he does it at the outset of the game (or if
//! he is a replacement not later than he submits his first set of orders) ... the GM may veto
//! some or all of the abbreviations on this list prior to the deadline for the first turn. Once
//! any additional abbreviations list is agreed ... it will be made public to all players". The
//! server reads that player's orders with the list.

use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce_with;
use crate::games::diplomacy::store::{self, GameRow, PhaseRow, PlayerRow};
use crate::map::{Map, Province};
use crate::outgoing::diplomacy::notices;
use crate::store::Conn;
use crate::time::Ts;
use std::collections::{BTreeMap, HashMap};

/// A power's registered list, ready for the reader (abbreviation → province).
pub async fn stored(
    c: &mut Conn,
    g: &GameRow,
    map: &Map,
    power: &str,
) -> Result<HashMap<String, Province>> {
    parse(map, store::abbreviations(c, &g.id, power).await?.as_deref())
}

/// A list as stored (None: no list), ready for the reader.
pub fn parse(map: &Map, stored: Option<&str>) -> Result<HashMap<String, Province>> {
    let Some(json) = stored else {
        return Ok(HashMap::new());
    };
    let list: BTreeMap<String, String> = serde_json::from_str(json)?;
    Ok(list
        .into_iter()
        .filter_map(|(abbr, code)| Some((abbr, map.province_by_name(&code)?)))
        .collect())
}

/// The list as stored and as shown: abbreviation → province code, in order.
pub fn codes(map: &Map, list: &HashMap<String, Province>) -> BTreeMap<String, String> {
    list.iter()
        .map(|(a, p)| (a.clone(), map.info(*p).code.clone()))
        .collect()
}

pub fn shown(list: &BTreeMap<String, String>) -> String {
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
pub async fn register(
    c: &mut Conn,
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
    let text = notices::abbreviations_declared(&notices::AbbreviationsDeclared {
        power: &player.power,
        outset,
    })?;
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
