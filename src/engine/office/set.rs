//! SET <option> <value>: the GM changes a house rule of the game. Before the start the GM sets
//! the game up freely; once it runs, the rulebook's limits hold (the game's kind says which).
//! Every player is told, with the rule's clause.

use super::{Done, change_key};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce;
use crate::engine::house::House;
use crate::outgoing::notices;
use crate::store::Conn;
use crate::store::{self, GameRow};
use crate::time::Ts;

pub async fn set(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    option: &str,
    value: &str,
    now: Ts,
) -> Result<Done> {
    let running = g.status == store::GameStatus::Active;
    let changed = match house.set(option, value, running)? {
        Ok(changed) => changed,
        Err(why) => return Ok(Done::refused(why.to_string())),
    };
    let (shown, clause) = (changed.shown.as_str(), changed.clause);
    store::set_rules(c, &g.id, &changed.stored).await?;
    let text = notices::rule_changed(&notices::RuleChanged {
        option,
        shown,
        clause,
    })?;
    let key = change_key(g, &format!("set|{option}"), now);
    announce(
        c,
        env,
        g,
        &key,
        "a house rule has changed",
        &text,
        None,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "{option} = {shown} ({clause}); every player was told"
    )))
}
