//! BROADCAST <message>: the GM's own words to every player and observer.

use super::{Done, change_key};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce_with;
use crate::store::Conn;
use crate::store::GameRow;
use crate::time::Ts;

pub async fn broadcast(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    message: &str,
    now: Ts,
) -> Result<Done> {
    let text = format!("A message from the GM of game {}:", g.id);
    let what = format!("broadcast|{}", crate::outgoing::ids::short_hash(message));
    let key = change_key(g, &what, now);
    let headline = "a message from the GM";
    announce_with(c, env, g, &key, headline, &text, message, None, now).await?;
    Ok(Done::ok("sent to every player and observer"))
}
