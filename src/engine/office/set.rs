//! SET <option> <value>: the GM changes a house rule of the game. Before the start the GM sets
//! the game up freely; once it runs, the rulebook's limits hold. Every player is told, with the
//! rule's clause.

use super::{Done, change_key};
use crate::config::Env;
use crate::engine::announce::announce;
use crate::engine::{Result, rules_of};
use crate::outgoing::notices;
use crate::rules::Rules;
use crate::store::{self, GameRow};
use crate::time::Ts;
use sqlx::SqliteConnection;

pub async fn set(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    option: &str,
    value: &str,
    now: Ts,
) -> Result<Done> {
    let rules = rules_of(g)?;
    let new = match rules.set(option, value) {
        Ok(r) => r,
        Err(e) => return Ok(Done::refused(e.to_string())),
    };
    if g.status == store::GameStatus::Active
        && let Some(why) = rules.forbidden_change(&new)
    {
        return Ok(Done::refused(why));
    }
    let shown = new
        .options()
        .into_iter()
        .find(|o| o.0 == option)
        .map_or_else(|| value.to_string(), |o| o.1);
    store::set_rules(c, &g.id, &serde_json::to_string(&new)?).await?;
    let clause = Rules::clause(option).unwrap_or("");
    let text = notices::rule_changed(&notices::RuleChanged {
        option,
        shown: &shown,
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
