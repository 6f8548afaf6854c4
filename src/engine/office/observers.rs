//! OBSERVER ADD <address> and OBSERVER REMOVE <address>: the masters add or remove an observer,
//! who is sent the game's public mail. One added to a game under way is sent a first mail
//! saying how to stop it, since they did not ask for it.

use super::Done;
use crate::config::Env;
use crate::engine::house::House;
use crate::engine::{Result, admin, secret};
use crate::store::Conn;
use crate::store::{self, GameRow, MemberRow, Role, StoreError};
use crate::time::Ts;

/// OBSERVER ADD.
pub async fn add(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    address: &str,
    now: Ts,
) -> Result<Done> {
    let m = MemberRow {
        role: Role::Observer,
        address: address.to_string(),
        name: String::new(),
        tz: "UTC".into(),
        secret: secret::generate()?,
    };
    match store::add_member(c, &g.id, &m, now).await {
        Ok(()) => {
            // They did not ask for the mails to come: the first one says how to stop.
            let told = if admin::welcome_observer(c, env, g, house, address, &m.tz, now).await? {
                "they were sent a first mail saying how to stop being sent the game's mail"
            } else {
                "their start mail will say how to stop being sent the game's mail"
            };
            Ok(Done::ok(format!("{address} observes {}; {told}", g.id)))
        }
        Err(StoreError::MemberExists { .. }) => Ok(Done::refused(format!(
            "{address} already has a part in {}",
            g.id
        ))),
        Err(e) => Err(e.into()),
    }
}

/// OBSERVER REMOVE (also an observer's own mail, without a secret: `gm_mail.rs`).
pub async fn remove(c: &mut Conn, g: &GameRow, address: &str) -> Result<Done> {
    if store::remove_member(c, &g.id, address, Role::Observer).await? {
        Ok(Done::ok(format!("{address} no longer observes {}", g.id)))
    } else {
        Ok(Done::refused(format!(
            "{address} is no observer of {}",
            g.id
        )))
    }
}
