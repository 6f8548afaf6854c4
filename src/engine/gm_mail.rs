//! A master's command mail (subject `<game> GM`): from one of the game's masters only, who is
//! authenticated as a player is (secret and/or DKIM, WM D.X(6)); each command line is done in
//! the message's transaction and answered line by line. The one exception: an observer's own
//! `OBSERVER REMOVE <their address>`, which stops the game's mail to them.

use super::command::{Actor, execute};
use super::*;
use crate::commands::read_commands;
use crate::outgoing::render::CommandReplyLine;

/// The first two words of a subject after any `Re:` or `Fwd:`, punctuation trimmed: a command
/// mail's `<game> GM` or a director's `<tournament> TD`.
pub(super) fn command_head(subject: &str) -> (Option<&str>, Option<&str>) {
    let mut words = subject
        .split_whitespace()
        .map(|w| w.trim_matches(|ch: char| !ch.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .skip_while(|w| {
            matches!(
                w.to_ascii_lowercase().as_str(),
                "re" | "fwd" | "fw" | "aw" | "tr"
            )
        });
    (words.next(), words.next())
}

/// Is this the subject of a command mail for game `game`: `<game> GM ...` (after any `Re:`)?
pub(super) fn is_command_subject(subject: &str, game: &str) -> bool {
    match command_head(subject) {
        (Some(g), Some(gm)) => g.eq_ignore_ascii_case(game) && gm.eq_ignore_ascii_case("gm"),
        _ => false,
    }
}

pub(super) async fn command_mail(
    c: &mut SqliteConnection,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
) -> Result<(Processed, Tag)> {
    let now = ctx.now;
    let tag = Tag {
        game: Some(g.id.clone()),
        ..Tag::default()
    };
    let from = msg.from_address.clone().unwrap_or_default();
    let rules = rules_of(g)?;
    let read = read_commands(&msg.lines);
    let members = store::members(c, &g.id).await?;
    let master = members
        .iter()
        .find(|m| m.role.is_master() && m.address.eq_ignore_ascii_case(&from))
        .cloned();
    // An observer the GM added never asked for the game's mail: their own mail saying
    // `OBSERVER REMOVE <their address>`, and nothing else, stops it, without a secret (they
    // were never given one; a forger can only stop mail its owner can stop alike).
    let observer_leaving = master.is_none()
        && members
            .iter()
            .any(|m| m.role == store::Role::Observer && m.address.eq_ignore_ascii_case(&from))
        && !read.lines.is_empty()
        && read.lines.iter().all(|l| {
            matches!(&l.read, Ok(crate::commands::GmCommand::ObserverRemove(a))
                if a.eq_ignore_ascii_case(&from))
        });
    let refusal = match &master {
        None if observer_leaving => None,
        None => Some(format!(
            "commands for game {} are accepted only from its masters; {from} is not one",
            g.id
        )),
        Some(m) => acceptance::authenticate(
            &rules,
            &from,
            &m.address,
            read.secret.as_deref(),
            &m.secret,
            &msg.authentication_results,
            &env.authserv_id,
        )
        .err(),
    };
    if let Some(why) = refusal {
        // Nothing is done. The masters are told (a command from a stranger or a forger is
        // worth knowing about); the sender is answered only at a registered address.
        let body = format!(
            "A command mail for game {game} was refused; nothing in it was done.\n\n\
             From:        {from}\n\
             Subject:     {subject}\n\
             Message-ID:  {mid}\n\
             Why:         {why}\n\
             Commands:    {n} line(s), not shown\n",
            game = g.id,
            subject = crate::outgoing::compose::echo_subject(&msg.subject),
            mid = msg.message_id.as_deref().unwrap_or("(none)"),
            n = read.lines.len(),
        );
        alert_masters_hourly(
            c,
            env,
            Some(g),
            AlertKind::CommandRefused,
            &format!("{}: a command mail was refused", g.id),
            &body,
            now,
        )
        .await?;
        if let Some(m) = &master {
            let line = CommandReplyLine {
                text: "(the whole mail)".into(),
                ok: false,
                answer: why,
            };
            let mail = compose::command_reply(env, g, &m.address, msg, ctx.key, vec![line]);
            answer(c, env, ctx, mail, Recipient::Registered, Some(g)).await?;
        }
        return Ok((Processed::Rejected, tag));
    }
    let actor = Actor {
        who: &from,
        via: "mail",
        role: master.as_ref().map(|m| m.role),
    };
    let mut lines = Vec::new();
    for l in &read.lines {
        let (ok, answer) = match &l.read {
            Ok(cmd) => {
                // Each command sees the game as the ones before it left it.
                let current = store::game(c, &g.id).await?.unwrap_or_else(|| g.clone());
                let done = execute(c, env, &current, actor, cmd, now).await?;
                (done.ok, done.answer)
            }
            Err(e) => (false, e.clone()),
        };
        lines.push(CommandReplyLine {
            text: l.text.clone(),
            ok,
            answer,
        });
    }
    let mail = compose::command_reply(env, g, &from, msg, ctx.key, lines);
    answer(c, env, ctx, mail, Recipient::Registered, Some(g)).await?;
    Ok((Processed::Accepted, tag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_subjects() {
        assert!(is_command_subject("wm1 GM", "wm1"));
        assert!(is_command_subject("Re: WM1 gm: deadline", "wm1"));
        assert!(!is_command_subject("wm1 FRANCE S1901M", "wm1"));
        assert!(!is_command_subject("GM wm1", "wm1"));
    }
}
