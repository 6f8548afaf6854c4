//! A tournament director's command mail (subject `<tournament> TD`): from one of its directors
//! only, authenticated as a master is (secret and/or DKIM, as the tournament's preset says);
//! each command done in the message's transaction and answered line by line.

use super::*;
use crate::outgoing::render::CommandReplyLine;
use crate::store::TournamentRow;
use crate::td_commands::read_td_commands;

/// The tournament a subject names for its directors: `<tournament> TD ...` (after any `Re:`).
pub(super) async fn tournament_of(
    c: &mut SqliteConnection,
    subject: &str,
) -> Result<Option<TournamentRow>> {
    let (Some(id), Some(td)) = super::gm_mail::command_head(subject) else {
        return Ok(None);
    };
    if !td.eq_ignore_ascii_case("td") || id.len() > 32 {
        return Ok(None);
    }
    Ok(store::tournament(c, id).await?)
}

pub(super) async fn command_mail(
    c: &mut SqliteConnection,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    t: &TournamentRow,
) -> Result<(Processed, Tag)> {
    let now = ctx.now;
    let from = msg.from_address.clone().unwrap_or_default();
    let rules = Rules::preset(&t.preset).map_err(|e| EngineError::Refused(e.to_string()))?;
    let read = read_td_commands(&msg.lines);
    let directors = store::directors(c, &t.id).await?;
    let director = directors
        .iter()
        .find(|d| d.address.eq_ignore_ascii_case(&from));
    let refusal = match &director {
        None => Some(format!(
            "commands for tournament {} are accepted only from its directors; {from} is not one",
            t.id
        )),
        Some(d) => acceptance::authenticate(
            &rules,
            &from,
            &d.address,
            read.secret.as_deref(),
            &d.secret,
            &msg.authentication_results,
            &env.authserv_id,
        )
        .err(),
    };
    let tag = Tag::default();
    if let Some(why) = refusal {
        // Nothing is done; the directors hear of it (a forger is worth knowing about), and the
        // sender is answered only if a director (no backscatter).
        let body = format!(
            "A command mail for tournament {id} was refused; nothing in it was done.\n\n\
             From:        {from}\n\
             Subject:     {subject}\n\
             Message-ID:  {mid}\n\
             Why:         {why}\n",
            id = t.id,
            subject = compose::echo_subject(&msg.subject),
            mid = msg.message_id.as_deref().unwrap_or("(none)"),
        );
        let to: Vec<String> = directors.iter().map(|d| d.address.clone()).collect();
        let alerts = hourly_alerts(
            c,
            env,
            None,
            &to,
            AlertKind::DirectorCommandRefused,
            &t.id,
            &format!("{}: a director's command mail was refused", t.id),
            &body,
            now,
        )
        .await?;
        store::enqueue_many(c, &alerts, now).await?;
        if let Some(d) = director {
            let line = CommandReplyLine {
                text: "(the whole mail)".into(),
                ok: false,
                answer: why,
            };
            let mail = compose::td_reply(env, t, &d.address, msg, ctx.key, vec![line]);
            answer(c, env, ctx, mail, Recipient::Registered, None).await?;
        }
        return Ok((Processed::Rejected, tag));
    }
    let mut lines = Vec::new();
    for l in &read.lines {
        let (ok, answer) = match &l.read {
            // All or nothing, as at the console: a refused command leaves nothing it wrote
            // (a ROUND refused on board k keeps none of boards 1..k-1, nor their start mails).
            Ok(cmd) => {
                store::savepoint(c, store::Savepoint::Command).await?;
                match tournament::execute(c, env, t, cmd, ctx.key, now).await {
                    Ok(done) => {
                        store::keep_savepoint(c, store::Savepoint::Command).await?;
                        (true, done)
                    }
                    Err(EngineError::Refused(why)) => {
                        store::undo_savepoint(c, store::Savepoint::Command).await?;
                        (false, why)
                    }
                    Err(e) => return Err(e),
                }
            }
            Err(e) => (false, e.clone()),
        };
        lines.push(CommandReplyLine {
            text: l.text.clone(),
            ok,
            answer,
        });
    }
    let mail = compose::td_reply(env, t, &from, msg, ctx.key, lines);
    answer(c, env, ctx, mail, Recipient::Registered, None).await?;
    Ok((Processed::Accepted, tag))
}
