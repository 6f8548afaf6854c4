//! CORRECT <correction> (WM D.VIII(1)-(3)): the GM puts right the board of the open phase after
//! an error in the published adjudication.

use crate::config::Env;
use crate::correction::Correction;
use crate::engine::Result;
use crate::engine::announce::announce;
use crate::engine::office::Done;
use crate::games::diplomacy::store::{self, GameRow, PhaseRow};
use crate::games::diplomacy::{board_from_json, map_of};
use crate::json;
use crate::outgoing::diplomacy::notices;
use crate::store::Conn;
use crate::time::Ts;

/// CORRECT: the GM puts right the board the players now give orders for (WM D.VIII(1)); a unit
/// whose right space is taken goes off the board (D.VIII(2)); an extra unit that has stood
/// through more than one adjudication stays until the next adjustments (D.VIII(3)). Every
/// player is told.
pub async fn correct(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    current: Option<&PhaseRow>,
    text: &str,
    now: Ts,
) -> Result<Done> {
    let Some(p) = current else {
        return Ok(Done::refused("the game has no open phase"));
    };
    let map = map_of(g)?;
    let correction = match Correction::parse(map, text) {
        Ok(x) => x,
        Err(why) => return Ok(Done::refused(why)),
    };
    let board = board_from_json(map, &p.board, &p.phase)?;
    let (fixed, told) = match correction.apply(map, &board) {
        Ok(x) => x,
        Err(why) => return Ok(Done::refused(why)),
    };
    if fixed != board {
        let json = serde_json::to_string(&json::board_output(map, &fixed))?;
        store::set_board(c, &g.id, p.seq, &json).await?;
    }
    let text = notices::board_corrected(&notices::BoardCorrected {
        phase: &p.phase,
        told: &told,
    })?;
    announce(
        c,
        env,
        g,
        &format!(
            "{}|correct|{}|{now}",
            g.id,
            crate::outgoing::ids::short_hash(&text)
        ),
        "a correction of the adjudication",
        &text,
        Some(p.deadline),
        now,
    )
    .await?;
    Ok(Done::ok(format!("{told} Every player was told.")))
}
