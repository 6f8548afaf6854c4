//! AMEND BTn "text" (Agora BT2): the Gamemaster amends the regulations of a game run under
//! them: a revision of no proposal, noted as the master's, and published with the new text.
//! BT5 lets BT0-BT5 be amended "according to the procedures established by Section 2", so
//! this is the one way they change.

use crate::config::Env;
use crate::engine::Result;
use crate::engine::office::{Actor, Done};
use crate::games::diplomacy::regulations;
use crate::games::diplomacy::rules_of;
use crate::games::diplomacy::store::GameRow;
use crate::store::Conn;
use crate::time::Ts;

/// AMEND: `rule` as written (`BT17`), `text` its new text (one paragraph).
pub async fn amend(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    rule: &str,
    text: &str,
    now: Ts,
) -> Result<Done> {
    if rules_of(g)?.regulations.is_none() {
        return Ok(Done::refused(
            "this game is run under no regulations (the regulations option, Agora BT2)",
        ));
    }
    let digits = rule.strip_prefix("BT").unwrap_or(rule);
    let Ok(number) = digits.parse::<u32>() else {
        return Ok(Done::refused(format!(
            "\"{rule}\" names no regulation: write AMEND BT17 \"new text\""
        )));
    };
    let text = vec![text.to_string()];
    regulations::amend_by_gm(c, env, g, actor.who, number, text, now).await
}
