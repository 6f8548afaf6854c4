//! ROLLBACK <phase> and CONSENT ROLLBACK <phase> (WM D.VIII(1)): by the TD, or by a GM with the
//! TD's consent, the game goes back to a phase already adjudicated; its orders are open again
//! with a new deadline, the phases after it are undone, and every player is told.

use super::{Actor, Done};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce;
use crate::engine::extension::game_windows;
use crate::engine::house::House;
use crate::outgoing::notices;
use crate::store::Conn;
use crate::store::{self, Consent, GameRow, Role};
use crate::time::Ts;
use crate::time::format_gmt;

/// CONSENT ROLLBACK: the TD lets the GM roll the game back to `phase`, once.
pub async fn consent(
    c: &mut Conn,
    g: &GameRow,
    actor: Actor<'_>,
    phase: &str,
    now: Ts,
) -> Result<Done> {
    if actor.role != Some(Role::Td) {
        return Ok(Done::refused(
            "only the TD consents to a rollback (WM D.VIII(1))",
        ));
    }
    store::consent(c, &g.id, Consent::Rollback { phase }, actor.who, now).await?;
    Ok(Done::ok(format!(
        "the GM may now roll {} back to {phase} (once)",
        g.id
    )))
}

/// ROLLBACK. `phase`: as the intake read it, a phase of the game's kind; the store finds it.
pub async fn rollback(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    actor: Actor<'_>,
    phase: &str,
    now: Ts,
) -> Result<Done> {
    let Some(p) = store::phase_named(c, &g.id, phase).await? else {
        return Ok(Done::refused(format!("game {} has no phase {phase}", g.id)));
    };
    if p.adjudicated_at.is_none() {
        return Ok(Done::refused(format!(
            "{phase} has not been adjudicated: there is nothing to roll back"
        )));
    }
    let consent = match by_whom(c, g, actor, phase, now).await? {
        Ok(consent) => consent,
        Err(refused) => return Ok(refused),
    };
    let wins = game_windows(c, g, now).await?;
    let deadline = house.turn_deadline(&p, now, &wins)?;
    house.roll_back(c, g, &p, deadline, now).await?;
    let text = notices::rolled_back(&notices::RolledBack { phase })?;
    announce(
        c,
        env,
        g,
        &format!("{}|rollback|{phase}|{now}", g.id),
        &format!("rolled back to {phase}"),
        &text,
        Some(deadline),
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "rolled back to {phase} {consent}; new deadline {}; every player was told",
        format_gmt(deadline)
    )))
}

/// Who may roll back: the TD, or the GM with the TD's consent, which is then used up. How the
/// answer says it, or the refusal.
async fn by_whom(
    c: &mut Conn,
    g: &GameRow,
    actor: Actor<'_>,
    phase: &str,
    now: Ts,
) -> Result<std::result::Result<String, Done>> {
    if actor.role == Some(Role::Td) {
        return Ok(Ok(format!("by the TD ({})", actor.who)));
    }
    Ok(
        match store::use_consent(c, &g.id, Consent::Rollback { phase }, now).await? {
            Some(td) => Ok(format!("with the TD's consent ({td})")),
            None => Err(Done::refused(format!(
                "a rollback needs the TD's consent (WM D.VIII(1)): the TD sends \
                 CONSENT ROLLBACK {phase} first"
            ))),
        },
    )
}
