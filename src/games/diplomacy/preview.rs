//! PREVIEW (a master's command): what adjudicating the game now would publish, as the GM's copy
//! of the results, to each master; nothing is written but those mails.

use super::rules_of;
use super::turn::{Decision, Turn};
use super::*;
use crate::outgoing::diplomacy::notices;
use crate::store::Conn;

/// Why there is nothing to preview.
#[derive(Debug, thiserror::Error)]
pub enum NoPreview {
    #[error("the game is not running (not started, paused or over)")]
    NotRunning,
    #[error("the results could not be composed")]
    NotComposed,
}

/// PREVIEW of game `g`: the mails to each master (kind `preview`), or why there is nothing to
/// preview.
pub async fn preview(
    c: &mut Conn,
    env: &Env,
    g: &store::GameRow,
    now: Ts,
) -> Result<std::result::Result<Vec<NewMail>, NoPreview>> {
    let facts = store::tick_facts(c, std::slice::from_ref(&g.id), now - crate::time::DAY).await?;
    let Some(f) = facts.first() else {
        return Ok(Err(NoPreview::NotRunning));
    };
    let rules = rules_of(&f.game)?;
    let t = Turn::read(env, f, &rules, now)?;
    let (held, mails) = as_if_now(&t)?;
    // The GM's copy sees all press; it goes to each master, marked as a preview.
    let Some(gm_copy) = mails.into_iter().find(|m| m.to == f.game.gm_address) else {
        return Ok(Err(NoPreview::NotComposed));
    };
    let (subject, head) = heading(&f.phase.phase, &gm_copy.subject, held.as_deref())?;
    Ok(Ok(masters_of(env, Some(&f.game), &f.masters)
        .iter()
        .map(|to| NewMail {
            kind: store::MailKind::Preview,
            message_id: crate::outgoing::ids::game_message_id(
                env,
                "preview",
                &f.game.id,
                &format!("{}|{}|{now}|{to}", f.game.id, f.phase.phase),
            ),
            to: to.clone(),
            subject: subject.clone(),
            body: format!("{head}\n\n{}", gm_copy.body),
            from: env.alert_from.clone(),
            ..gm_copy.clone()
        })
        .collect()))
}

/// What the tick would do: publish the results, or hold them for an NMR (WM D.VII(6)(b)). A
/// hold is exactly when the GM wants to see them, so the preview then shows the hold (the
/// powers without orders) and the results the tick would give without it (the NMR's units
/// holding).
fn as_if_now(t: &Turn<'_>) -> Result<(Option<Vec<String>>, Vec<NewMail>)> {
    Ok(match adjudicate::phase(t)? {
        Decision::Adjudicated { mails, .. } => (None, mails),
        Decision::Hold { missing, .. } => {
            let unheld = Rules {
                no_nmr_phases: Vec::new(),
                ..t.rules.clone()
            };
            match adjudicate::phase(&t.with_rules(&unheld))? {
                Decision::Adjudicated { mails, .. } => (Some(missing), mails),
                _ => (Some(missing), Vec::new()),
            }
        }
        _ => (None, Vec::new()),
    })
}

/// The preview's subject and its first paragraph.
fn heading(phase: &str, subject: &str, held: Option<&[String]>) -> Result<(String, String)> {
    Ok(match held {
        None => (
            format!("PREVIEW, nothing changed: {subject}"),
            notices::preview_heading(&notices::PreviewHeading { phase })?,
        ),
        Some(missing) => (
            format!(
                "PREVIEW, results held (NMR by {}), nothing changed: {subject}",
                missing.join(", "),
            ),
            notices::preview_heading_held(&notices::PreviewHeadingHeld {
                phase,
                missing: &missing.join(", "),
            })?,
        ),
    })
}
