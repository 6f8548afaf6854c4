//! The SUMMARY a player or observer asks of a Diplomacy game (subject `<game> SUMMARY`, which
//! the engine's query answers): the supply centres per power at the end of each year,
//! eliminations and replacements.

use super::board_from_json;
use crate::engine::Result;
use crate::games::diplomacy::store::{self, GameRow};
use crate::map::Map;
use crate::phase::{Phase, PhaseKind};
use crate::store::Conn;

/// Supply centres per power at the end of each year, eliminations and replacements.
pub(super) async fn summary(c: &mut Conn, g: &GameRow, map: &Map) -> Result<String> {
    let boards = store::phase_boards(c, &g.id).await?;
    // Ownership changes only with a Fall turn: every board from a year's Spring to its Fall
    // shows the owners at the end of the year before, and its Winter board those of the year.
    let first_year = boards
        .first()
        .and_then(|(p, _)| p.parse::<Phase>().ok())
        .map_or(0, |p| p.year);
    let mut ends: Vec<store::YearEnd> = Vec::new();
    for (phase, json) in &boards {
        let p: Phase = phase.parse()?;
        let year = if p.kind == PhaseKind::Adjustment {
            p.year
        } else {
            p.year.saturating_sub(1)
        };
        // The opening boards show the year before the game.
        if year < first_year || ends.last().is_some_and(|e| e.year == year) {
            continue;
        }
        let board = board_from_json(map, json, phase)?;
        let owners = map
            .supply_centers()
            .map(|sc| store::CentreOwner {
                centre: map.info(sc).code.clone(),
                owner: board.owner(sc).map(|pw| map.power_name(pw).to_string()),
            })
            .collect();
        ends.push(store::YearEnd { year, owners });
    }
    let mut out = crate::outgoing::diplomacy::centres::centre_history(map, &ends, None);
    if let Some(last) = ends.last() {
        let gone: Vec<&str> = map
            .all_powers()
            .map(|p| map.power_name(p))
            .filter(|name| {
                !last
                    .owners
                    .iter()
                    .any(|o| o.owner.as_deref() == Some(*name))
            })
            .collect();
        if !gone.is_empty() {
            out.push_str(&format!("\nWithout centres: {}\n", gone.join(", ")));
        }
    }
    // Agora BT8: the open proposals and the changes to the regulations.
    let rules = super::rules_of(g)?;
    let regulations = super::regulations::summary(c, g, &rules).await?;
    let replaced = store::replacements(c, &g.id).await?;
    if !replaced.is_empty() {
        out.push_str("\nReplacements:\n");
        for r in replaced {
            out.push_str(&format!("  {} from {} ({})\n", r.power, r.phase, r.kind));
        }
    }
    out.push_str(&regulations);
    Ok(out)
}
