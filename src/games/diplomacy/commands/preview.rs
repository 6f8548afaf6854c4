//! PREVIEW: the results of the open phase as if adjudicated now, mailed to the masters only
//! (the GM's copy); nothing changes.

use crate::config::Env;
use crate::engine::Result;
use crate::engine::office::Done;
use crate::games::diplomacy::preview as results_now;
use crate::store::Conn;
use crate::store::{self, GameRow};
use crate::time::Ts;

pub async fn preview(c: &mut Conn, env: &Env, g: &GameRow, now: Ts) -> Result<Done> {
    Ok(match results_now(c, env, g, now).await? {
        Ok(mails) => {
            store::enqueue_many(c, &mails, now).await?;
            let to: Vec<&str> = mails.iter().map(|m| m.to.as_str()).collect();
            Done::ok(format!(
                "the results as if adjudicated now were mailed to the masters ({}); nothing changed",
                to.join(", ")
            ))
        }
        Err(why) => Done::refused(why.to_string()),
    })
}
