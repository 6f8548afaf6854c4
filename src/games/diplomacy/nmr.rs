//! No orders received (WM D.VII(6)): in the phases where no NMR is allowed the results are held
//! while the GM replaces the player (b); a player who NMRed and has not contacted the GM within
//! the window is to be replaced (a, B.8).

use super::turn::{Decision, Turn};
use super::*;
use crate::engine::alert_masters;
use crate::outgoing::diplomacy::notices;
use crate::store::Pool;

/// While an NMR holds the results (WM D.VII(6)(b)), the masters are reminded this often.
pub const HOLD_REMINDER: Ts = crate::time::DAY;

/// WM D.VII(6)(b): no results while an NMR stands in these phases; the GM replaces the
/// player. The deadline stays as published, so the phase stays closed to all but the
/// replacement; the masters are reminded daily, not every minute.
pub(super) fn hold(t: &Turn<'_>, missing: Vec<String>) -> Decision {
    let g = &t.f.game;
    let until = t.now + HOLD_REMINDER;
    let mails = masters_of(t.env, Some(g), &t.f.masters)
        .iter()
        .map(|to| compose::nmr_hold(t.env, to, g, &t.f.phase.phase, &missing, until, t.now))
        .collect();
    Decision::Hold {
        mails,
        until,
        missing,
    }
}

/// WM D.VII(6)(a): each NMR of a game that goes on opens a contact window, if the rules have
/// one.
pub(super) fn windows(t: &Turn<'_>, missing: &[String]) -> Vec<store::NmrWindow> {
    let Some(due_at) = policy::nmr_contact_deadline(t.rules, t.now) else {
        return Vec::new();
    };
    missing
        .iter()
        .map(|p| store::NmrWindow {
            power: p.clone(),
            phase: t.f.phase.phase.clone(),
            due_at,
            address: t
                .f
                .players
                .iter()
                .find(|x| x.power == *p)
                .map_or_else(String::new, |x| x.address.clone()),
        })
        .collect()
}

/// WM D.VII(6)(a): a player who NMRed and has not contacted the GM within the window is to be
/// replaced (WM B.8): the masters get a replacement notice, once per NMR.
pub(super) async fn replacement_notices(pool: &Pool, env: &Env, now: Ts) -> Result<()> {
    let mut tx = crate::store::begin_write(pool).await?;
    for n in store::nmrs_due(&mut tx, now, 500).await? {
        let g = store::game(&mut tx, &n.game_id).await?;
        if g.as_ref()
            .is_some_and(|g| g.status == store::GameStatus::Active)
        {
            let body = notices::replace_nmr(&notices::ReplaceNmr {
                game: &n.game_id,
                power: &n.power,
                phase: &n.phase,
                hours: (n.due_at - n.published_at) / crate::time::HOUR,
                published: &crate::outgoing::time::gmt(n.published_at),
                due: &crate::outgoing::time::gmt(n.due_at),
            })?;
            alert_masters(
                &mut tx,
                env,
                g.as_ref(),
                &format!("replace|{}|{}|{}", n.game_id, n.power, n.phase),
                &format!(
                    "{} {}: replace {}, who NMRed and has not made contact",
                    n.game_id, n.phase, n.power
                ),
                &body,
                now,
            )
            .await?;
            // WM B.8(b): a tournament board's NMR goes to the player's team too.
            super::tournament::tell_team_of_nmr(&mut tx, env, &n.game_id, &n.power, &n.phase, now)
                .await?;
        }
        store::nmr_notified(&mut tx, &n, now).await?;
    }
    tx.commit().await?;
    Ok(())
}
