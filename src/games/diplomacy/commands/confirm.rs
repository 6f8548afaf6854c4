//! CONFIRM PROPOSAL n <what was done> (Agora BT8): the Gamemaster confirms that an enacted
//! proposal of free text was carried out, and how; until then it is an open item, listed in
//! the SUMMARY. Everyone is told.

use crate::config::Env;
use crate::engine::Result;
use crate::engine::office::{Actor, Done};
use crate::games::diplomacy::regulations;
use crate::games::diplomacy::rules_of;
use crate::games::diplomacy::store::GameRow;
use crate::store::Conn;
use crate::time::Ts;

pub async fn confirm(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    number: u32,
    done: &str,
    now: Ts,
) -> Result<Done> {
    if rules_of(g)?.regulations.is_none() {
        return Ok(Done::refused(
            "this game is run under no regulations: it has no proposals to confirm (Agora BT8)",
        ));
    }
    regulations::confirm(c, env, g, actor.who, number, done, now).await
}
