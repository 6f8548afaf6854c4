//! Agora BT7: the assistants a contestant announces (`ASSISTANT <address> <assistance>` lines
//! of its order mail, read by `chancery_diplomacy::assistants`): checked, stored
//! (`store::add_assistant`) and published to every player, master and observer ("publicly
//! announce the identities of any such non-Contestants and what assistance they will
//! provide"). With `team_orders`, an announced assistant may send its contestant's orders
//! (`orders.rs`).

use super::commands::contestants::tell;
use crate::assistants::Announced;
use crate::config::Env;
use crate::engine::Result;
use crate::engine::receive::masters_for;
use crate::games::diplomacy::store::{self, GameRow, PlayerRow};
use crate::store::Conn;
use crate::time::Ts;

/// Announce `a` as an assistant of `contestant`'s power: stored and published. What the
/// acknowledgement says, or why it is refused: the address is a contestant's (BT7: assistants
/// are non-Contestants), a master's (BT0: the Gamemaster is the Judge), or announced by
/// another contestant already (one assistant, one power: its orders go to one power only).
pub async fn announce(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    contestant: &PlayerRow,
    a: &Announced,
    now: Ts,
) -> Result<std::result::Result<String, String>> {
    let players = store::players(c, &g.id).await?;
    if players
        .iter()
        .any(|p| p.address.eq_ignore_ascii_case(&a.address))
    {
        return Ok(Err(format!(
            "{} is a contestant: the assistance BT7 speaks of is that of non-Contestants",
            a.address
        )));
    }
    let members = store::members(c, &g.id).await?;
    let masters = masters_for(c, env, Some(g)).await?;
    if masters
        .iter()
        .chain(std::iter::once(&g.gm_address))
        .any(|m| m.eq_ignore_ascii_case(&a.address))
    {
        return Ok(Err(format!(
            "{} is a master of the game, its Judge (Agora BT0), and assists no contestant",
            a.address
        )));
    }
    let known = store::assistants(c, &g.id).await?;
    if let Some(other) = known
        .iter()
        .find(|x| x.address == a.address && x.power != contestant.power)
    {
        return Ok(Err(format!(
            "{} assists {} already (one contestant's assistant at a time)",
            a.address, other.power
        )));
    }
    store::add_assistant(c, &g.id, &contestant.power, &a.address, &a.help, now).await?;
    let text = format!(
        "{power} announces (Agora BT7) that {who} assists it: {help}.",
        power = contestant.power,
        who = a.address,
        help = a.help,
    );
    let mut readers: Vec<String> = players.iter().map(|p| p.address.clone()).collect();
    readers.extend(members.iter().map(|m| m.address.clone()));
    readers.extend(masters);
    let key = format!("assistant|{}|{}|{now}", contestant.power, a.address);
    tell(
        c,
        env,
        g,
        &readers,
        &key,
        "an assistant announced",
        &text,
        now,
    )
    .await?;
    Ok(Ok(format!(
        "{} announced as your assistant ({}), published to every player and master (Agora BT7)",
        a.address, a.help
    )))
}
