//! DECLARE DRAW (Agora BT9): the GM declares a draw after three game years without a supply
//! centre changing owner, with two days' notice.

use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce;
use crate::engine::office::Done;
use crate::games::diplomacy::rules_of;
use crate::games::diplomacy::store::{self, GameRow};
use crate::outgoing::diplomacy::notices;
use crate::store::Conn;
use crate::time::Ts;
use crate::time::format_gmt;
use crate::votes;

/// DECLARE DRAW (Agora BT9): "If in the past three game-years, no province has changed
/// ownership, the Gamemaster CAN declare the game a draw, with 2 days notice". The game ends in
/// a draw of every player remaining at its first deadline two days or more from now, instead
/// of that adjudication; every player is told now.
pub async fn declare_draw(c: &mut Conn, env: &Env, g: &GameRow, now: Ts) -> Result<Done> {
    let rules = rules_of(g)?;
    let Some(years) = rules.gm_draw_years else {
        return Ok(Done::refused(
            "this game's rules do not let the GM declare a draw (Agora BT9: the gm_draw_years \
             option); the players may vote one (VOTE DRAW YES)",
        ));
    };
    if let Some(at) = g.declared_end_at {
        return Ok(Done::refused(format!(
            "a draw is declared already: the game ends at its first deadline at or after {}",
            format_gmt(at)
        )));
    }
    let ends = store::year_ends(c, &g.id).await?;
    let owners: Vec<&[store::CentreOwner]> = ends.iter().map(|e| e.owners.as_slice()).collect();
    if !votes::stalemate(&owners, years) {
        return Ok(Done::refused(format!(
            "a supply centre has changed owner in the past {years} game years, or fewer have \
             been played: the GM may not declare a draw yet (Agora BT9)"
        )));
    }
    let at = now + crate::rules::GM_DRAW_NOTICE_HOURS * 3600;
    store::declare_end(c, &g.id, at).await?;
    let text = notices::draw_declared(&notices::DrawDeclared {
        years,
        at: &format_gmt(at),
    })?;
    announce(
        c,
        env,
        g,
        &format!("{}|declared-draw", g.id),
        "the GM declares a draw",
        &text,
        None,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "the game ends in a draw at its first deadline at or after {}; every player was told",
        format_gmt(at)
    )))
}
