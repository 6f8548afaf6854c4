//! The GM's commands of a Nomic, by mail (`<game> GM`) or at the console: `ADD PLAYER` seats a
//! player on their day (Nomic 201), `CONFIRM PROPOSAL n <what was done>` records how an
//! adopted free text was carried out (Nomic 107: its effect is never executed by the
//! software), `STATUS` gives the points and the open proposals. The office's commands that a
//! Nomic has no use for (deadlines, extensions, rollbacks: Nomic 212, nothing is undone) are
//! refused by `games::execute`.

use super::admin::{self, NewSeat};
use super::store::{self, Conn, GameRow};
use crate::commands::GmCommand;
use crate::config::Env;
use crate::engine::office::Done;
use crate::engine::{EngineError, Result};
use crate::time::{Ts, Weekday};

/// Whether a Nomic takes master's command `cmd`: its own, and the office's that do not speak of
/// turns (SET of a parameter, observers, BROADCAST, STATUS). Deadlines, extensions, pauses,
/// rollbacks and holidays are refused: a Nomic's days are UK days (Nomic 106, 113) and nothing
/// is undone (Nomic 212).
pub fn takes(cmd: &GmCommand) -> bool {
    matches!(
        cmd,
        GmCommand::Status
            | GmCommand::Set { .. }
            | GmCommand::ObserverAdd(_)
            | GmCommand::ObserverRemove(_)
            | GmCommand::Broadcast(_)
            | GmCommand::AddPlayer { .. }
            | GmCommand::ConfirmProposal { .. }
    )
}

/// `ADD PLAYER <address> <weekday> <name>`.
pub async fn add_player(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    address: &str,
    day: Weekday,
    name: &str,
    now: Ts,
) -> Result<Done> {
    let seat = NewSeat {
        name,
        address,
        day,
        tz: "Europe/London",
        secret: None,
    };
    match admin::add_player(c, Some(env), g, &seat, now).await {
        Ok(p) => Ok(Done::ok(format!(
            "{} plays {} on {day} (Nomic 201){}",
            p.address,
            p.power,
            if g.status == store::GameStatus::Active {
                "; their start mail is sent"
            } else {
                "; start mails go out when the game starts"
            }
        ))),
        Err(EngineError::Refused(why)) => Ok(Done::refused(why)),
        Err(EngineError::Store(store::StoreError::PowerTaken { power, .. })) => {
            Ok(Done::refused(format!("{power} plays already")))
        }
        Err(e) => Err(e),
    }
}

/// `CONFIRM PROPOSAL n <what was done>`: an adopted free text carried out by the GM.
pub async fn confirm(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    by: &str,
    number: u32,
    done: &str,
    now: Ts,
) -> Result<Done> {
    let passed = store::passed_rule_changes(c, &g.id).await?;
    let Some(p) = passed.iter().find(|p| p.number == i64::from(number)) else {
        return Ok(Done::refused(format!(
            "Proposal {number} has not been adopted: only an adopted proposal is confirmed"
        )));
    };
    if p.applied_at.is_some() || p.confirmed_at.is_some() {
        return Ok(Done::refused(format!(
            "Proposal {number} took effect already: there is nothing to confirm"
        )));
    }
    if !store::confirm_proposal(c, p.id, by, done, now).await? {
        return Ok(Done::refused(format!(
            "Proposal {number} is confirmed already"
        )));
    }
    crate::engine::announce::announce(
        c,
        env,
        g,
        &format!("nomic-confirm|{number}"),
        &format!("Proposal {number} carried out"),
        &format!("The GM carried out adopted Proposal {number} (Nomic 107): {done}"),
        None,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "Proposal {number} is confirmed as carried out; every player is told"
    )))
}

/// `STATUS`: the points and the open proposals.
pub async fn status(c: &mut Conn, g: &GameRow) -> Result<Done> {
    Ok(Done::ok(super::record::summary(c, g).await?))
}
