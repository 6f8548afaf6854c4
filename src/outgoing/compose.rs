//! From the engine's decisions to outgoing mail, for every kind of game: fill the views, render
//! the templates, and address and thread the result (the outbox's mail shape, threading
//! headers, Auto-Submitted). Message-IDs are derived from what caused the mail, so the same
//! cause always gives the same Message-ID (a retry is recognisably the same mail). A kind's own
//! mails are composed in its folder (`src/outgoing/<kind>/compose.rs`) with the helpers here.

use crate::config::Env;
use crate::message::ReadMessage;
use crate::outgoing::render::{self, Rendered};
use crate::outgoing::time::gmt;
use crate::store::{GameRow, MailKind, NewMail, PlayerRow};
use crate::time::Ts;

pub(crate) fn id(env: &Env, kind: MailKind, seed: &str) -> String {
    crate::outgoing::ids::new_message_id(env, kind.as_str(), seed)
}

/// A mail that could not be composed (a template failed). It is never sent half-made: the
/// engine alerts the masters with the facts instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComposeError {
    pub kind: MailKind,
    pub to: String,
    pub error: String,
    /// What the mail would have said, plainly.
    pub facts: String,
}

pub type Composed = Result<NewMail, ComposeError>;

pub(crate) fn rendered(
    r: Result<Rendered, render::RenderError>,
    kind: MailKind,
    to: &str,
    facts: &str,
) -> Result<Rendered, ComposeError> {
    r.map_err(|e| ComposeError {
        kind,
        to: to.to_string(),
        error: e.to_string(),
        facts: facts.to_string(),
    })
}

/// Echoed subjects are cut to this many characters: a subject is the sender's to write, and an
/// answer must not carry a megabyte of it back out.
pub const SUBJECT_ECHO_CHARS: usize = 200;

/// A subject as it may be echoed: one line, at most [`SUBJECT_ECHO_CHARS`] characters, and the
/// word after any `SECRET` replaced (the secret may be given in the subject; it is never
/// echoed).
pub fn echo_subject(subject: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut hide_next = false;
    for w in subject.split_whitespace() {
        if hide_next {
            out.push("[secret]");
            hide_next = false;
            continue;
        }
        let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
        hide_next = bare.eq_ignore_ascii_case("secret");
        out.push(w);
    }
    let line = out.join(" ");
    if line.chars().count() <= SUBJECT_ECHO_CHARS {
        line
    } else {
        let mut cut: String = line.chars().take(SUBJECT_ECHO_CHARS).collect();
        cut.push('…');
        cut
    }
}

/// A threading id fit to echo: the sender's own Message-ID, when it is a plausible one. One
/// with spaces, brackets or control characters is dropped (the answer goes unthreaded).
fn thread_id(id: Option<&String>) -> Option<String> {
    let bare = id?.trim().trim_start_matches('<').trim_end_matches('>');
    (!bare.is_empty()
        && bare.len() <= 250
        && bare.contains('@')
        && bare
            .chars()
            .all(|c| c.is_ascii_graphic() && c != '<' && c != '>'))
    .then(|| bare.to_string())
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn reply(
    env: &Env,
    kind: MailKind,
    from: &str,
    to: &str,
    msg: Option<&ReadMessage>,
    r: Rendered,
    auto: &'static str,
    seed: &str,
) -> NewMail {
    let in_reply_to = thread_id(msg.and_then(|m| m.message_id.as_ref()));
    NewMail {
        kind,
        message_id: id(env, kind, seed),
        from: from.to_string(),
        to: to.to_string(),
        subject: r.subject,
        body: r.body,
        refs: in_reply_to.iter().cloned().collect(),
        in_reply_to,
        auto_submitted: auto,
        game: None,
        picture: None,
    }
}

/// A mail about game `g` that answers nothing (results, reminders, digests, announcements):
/// its Message-ID is fixed by `seed`, so the same cause gives the same mail.
pub(crate) fn game_mail(
    env: &Env,
    g: &GameRow,
    kind: MailKind,
    seed: &str,
    from: &str,
    to: &str,
    r: Rendered,
) -> NewMail {
    NewMail {
        kind,
        // The rollback count: after WM D.VIII(1) the same phase is adjudicated again, and its
        // results (reminders, digests, the game's end) are new mails for the same seed.
        message_id: crate::outgoing::ids::game_message_id(
            env,
            kind.as_str(),
            &g.id,
            &format!("{seed}|rollback{}", g.rollbacks),
        ),
        from: from.to_string(),
        to: to.to_string(),
        subject: r.subject,
        body: r.body,
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-generated",
        game: Some(g.id.clone()),
        picture: None,
    }
}

/// An answer from a game's GM address to a mail about that game (ack, command reply, query
/// reply): threaded to it, its Message-ID seeded by the mail's content and `kind`.
pub(crate) fn game_answer(
    env: &Env,
    g: &GameRow,
    kind: MailKind,
    to: &str,
    msg: &ReadMessage,
    key: &str,
    r: Rendered,
) -> NewMail {
    let mut m = reply(
        env,
        kind,
        &g.gm_address,
        to,
        Some(msg),
        r,
        "auto-replied",
        &seed_of(key, kind.as_str()),
    );
    m.game = Some(g.id.clone());
    m
}

/// The seed of an answer's Message-ID: the received message's content digest (`key`), so each
/// distinct mail gets its own answer even when it has no Message-ID, or reuses one.
pub(crate) fn seed_of(key: &str, extra: &str) -> String {
    format!("{key}|{extra}")
}

/// The answer to a mail that could not be read at all (too large, not e-mail). What is known
/// of it comes from its header block alone.
pub fn unreadable(
    env: &Env,
    gm: &str,
    to: &str,
    head: &crate::message::MessageHead,
    key: &str,
    why: &str,
    now: Ts,
) -> Composed {
    let v = render::RejectionView {
        from: to.to_string(),
        subject: echo_subject(&head.subject),
        message_id: thread_id(head.message_id.as_ref()),
        received_at: now,
        reasons: vec![render::RejectReason::Unreadable {
            detail: why.to_string(),
        }],
        tz: "UTC".into(),
        ..Default::default()
    };
    let r = rendered(render::rejection(&v), MailKind::Rejection, to, why)?;
    let mut m = reply(
        env,
        MailKind::Rejection,
        gm,
        to,
        None,
        r,
        "auto-replied",
        &seed_of(key, &format!("unreadable|{to}")),
    );
    m.in_reply_to = thread_id(head.message_id.as_ref());
    m.refs = m.in_reply_to.iter().cloned().collect();
    Ok(m)
}

/// "Too many mails": the one answer a sender gets once over the hourly limit. Its Message-ID
/// is fixed by address and hour, so it goes once per window whatever the flood.
pub fn too_many(env: &Env, gm: &str, to: &str, limit: i64, now: Ts) -> NewMail {
    let hour = now.div_euclid(3600);
    NewMail {
        kind: MailKind::Notice,
        message_id: id(env, MailKind::Notice, &format!("too-many|{to}|{hour}")),
        from: gm.to_string(),
        to: to.to_string(),
        subject: "Too many mails: answers paused for an hour".into(),
        body: format!(
            "More than {limit} mails from {to} were answered in the last hour.\n\n\
             Further mail from this address is still read and stored, and orders in it still\n\
             count, but it is not answered until the hour has passed. Send one complete order\n\
             set per mail; the GM has been told if this looks wrong.\n"
        ),
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-replied",
        game: None,
        picture: None,
    }
}

/// The answer, at the registered player's own address, to a mail that named the player's power
/// and did not prove it came from the player (WM D.X(6)). It quotes nothing of that mail (its
/// subject, body and Message-ID were written by whoever sent it, perhaps a forger) and is not
/// threaded to it; it is counted apart from the player's own answers (issue 21.10).
pub fn auth_rejection(
    env: &Env,
    g: &GameRow,
    power: &str,
    to: &str,
    key: &str,
    why: &str,
    arrived: Ts,
) -> NewMail {
    NewMail {
        kind: MailKind::AuthRejection,
        message_id: id(env, MailKind::AuthRejection, &seed_of(key, to)),
        from: g.gm_address.clone(),
        to: to.to_string(),
        subject: format!("{} {power}: a mail for your power was NOT accepted", g.id),
        body: format!(
            "A mail for {power} in game {game} reached the GM at {at} and was NOT accepted:\n\
             its sender did not prove that it was you.\n\n\
             Why: {why}\n\n\
             Nothing in it was used: your standing orders, press, votes and requests are\n\
             unchanged. Its subject and text are not repeated here, since anyone may have\n\
             written them.\n\n\
             If it was you, send it again with your secret (a line SECRET <your secret>), or\n\
             from your registered address as the house rules require. If it was not you, the\n\
             GM has been told.\n",
            game = g.id,
            at = gmt(arrived),
        ),
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-replied",
        game: Some(g.id.clone()),
        picture: None,
    }
}

/// The Message-ID of the alert with `key` to `to`.
pub fn alert_id(env: &Env, key: &str, to: &str) -> String {
    id(env, MailKind::Alert, &format!("{key}|{to}"))
}

/// An alert to the masters: something needs a person (a mail set aside, a mailbox silent, a
/// deadline waiting, a mail that could not be composed). `key` fixes the Message-ID, so the
/// same alert goes once.
pub fn alert(env: &Env, to: &str, key: &str, subject: &str, body: &str) -> NewMail {
    NewMail {
        kind: MailKind::Alert,
        message_id: alert_id(env, key, to),
        from: env.alert_from.clone(),
        to: to.to_string(),
        subject: format!("Chancery alert: {subject}"),
        body: body.to_string(),
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-generated",
        game: None,
        picture: None,
    }
}

/// A tournament's mail to one reader (the standings to a director or, once released, to every
/// player; a team's NMR notice): the text as the engine wrote it. `key` names the cause (a game
/// that ended, a director's request, an NMR), so each reader gets one mail per cause.
pub fn tournament_mail(
    env: &Env,
    kind: MailKind,
    from: &str,
    to: &str,
    key: &str,
    subject: &str,
    text: &str,
) -> NewMail {
    NewMail {
        kind,
        message_id: id(env, kind, &format!("{key}|{subject}|{to}")),
        from: from.to_string(),
        to: to.to_string(),
        subject: subject.to_string(),
        body: text.to_string(),
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-generated",
        game: None,
        picture: None,
    }
}

/// The answer to a player's or observer's query (STATUS, HISTORY, SUMMARY).
pub fn query_reply(
    env: &Env,
    g: &GameRow,
    to: &str,
    msg: &ReadMessage,
    key: &str,
    what: &str,
    body: &str,
) -> Composed {
    let v = render::QueryReplyView {
        game: g.id.clone(),
        what: what.to_string(),
        body: body.to_string(),
    };
    let r = rendered(
        render::query_reply(&v),
        MailKind::QueryReply,
        to,
        &format!("{} {what}", g.id),
    )?;
    Ok(game_answer(env, g, MailKind::QueryReply, to, msg, key, r))
}

/// The answer to a master's command mail: each line and what it did.
pub fn command_reply(
    env: &Env,
    g: &GameRow,
    to: &str,
    msg: &ReadMessage,
    key: &str,
    lines: Vec<render::CommandReplyLine>,
) -> Composed {
    let r = command_reply_rendered(&g.id, to, lines, render::command_reply)?;
    Ok(game_answer(env, g, MailKind::CommandReply, to, msg, key, r))
}

/// A command reply (a game's or a tournament's, `name`), counted and rendered by `template`.
pub(crate) fn command_reply_rendered(
    name: &str,
    to: &str,
    lines: Vec<render::CommandReplyLine>,
    template: fn(&render::CommandReplyView) -> Result<Rendered, render::RenderError>,
) -> Result<Rendered, ComposeError> {
    let done = lines.iter().filter(|l| l.ok).count() as i64;
    let v = render::CommandReplyView {
        game: name.to_string(),
        refused: lines.len() as i64 - done,
        done,
        lines,
    };
    rendered(
        template(&v),
        MailKind::CommandReply,
        to,
        &format!("{name}: {} command(s) done, {} refused", v.done, v.refused),
    )
}

/// An announcement of a master's change (deadline, pause, house rule...) to one reader.
/// `key` names the change, so that each reader gets it once.
#[allow(clippy::too_many_arguments)]
pub fn announcement(
    env: &Env,
    g: &GameRow,
    to: &str,
    tz: &str,
    key: &str,
    headline: &str,
    text: &str,
    message: &str,
    deadline: Option<Ts>,
) -> Composed {
    let v = render::AnnouncementView {
        game: g.id.clone(),
        headline: headline.to_string(),
        text: text.to_string(),
        message: message.to_string(),
        deadline,
        tz: tz.to_string(),
    };
    let r = rendered(
        render::announcement(&v),
        MailKind::Announcement,
        to,
        &format!("{}: {headline}. {text}", g.id),
    )?;
    Ok(game_mail(
        env,
        g,
        MailKind::Announcement,
        &format!("{key}|{to}"),
        &g.gm_address,
        to,
        r,
    ))
}

#[allow(clippy::too_many_arguments)]
pub fn receipt(
    env: &Env,
    confirm: &str,
    gm: &str,
    to: &str,
    msg: &ReadMessage,
    sha256: &str,
    arrived: Ts,
    size: u64,
    orders: &[String],
    addressing: Option<String>,
    gm_in_to_only: bool,
) -> Composed {
    let v = render::ReceiptView {
        mailbox: confirm.to_string(),
        game: None,
        received_at: arrived,
        message_id: msg.message_id.clone(),
        from: to.to_string(),
        subject: echo_subject(&msg.subject),
        to: msg.to.clone(),
        cc: msg.cc.clone(),
        gm_address: gm.to_string(),
        gm_addressed: addressing.is_none(),
        gm_in_to_only,
        orders: orders.to_vec(),
        sha256: sha256.to_string(),
        size,
    };
    let facts = format!(
        "Received {} GMT, Message-ID {}.{}",
        gmt(arrived),
        msg.message_id.as_deref().unwrap_or("(none)"),
        addressing.map(|a| format!("\n{a}")).unwrap_or_default()
    );
    let r = rendered(render::receipt(&v), MailKind::Receipt, to, &facts)?;
    Ok(reply(
        env,
        MailKind::Receipt,
        confirm,
        to,
        Some(msg),
        r,
        "auto-replied",
        &seed_of(sha256, "receipt"),
    ))
}

pub fn rejection(
    env: &Env,
    gm: &str,
    to: &str,
    msg: &ReadMessage,
    key: &str,
    reasons: &[String],
    now: Ts,
) -> Composed {
    let v = render::RejectionView {
        from: msg.from_address.clone().unwrap_or_default(),
        subject: echo_subject(&msg.subject),
        message_id: msg.message_id.clone(),
        received_at: now,
        reasons: reasons
            .iter()
            .map(|d| render::RejectReason::Other { detail: d.clone() })
            .collect(),
        tz: "UTC".into(),
        ..Default::default()
    };
    let r = rendered(
        render::rejection(&v),
        MailKind::Rejection,
        to,
        &reasons.join("\n"),
    )?;
    Ok(reply(
        env,
        MailKind::Rejection,
        gm,
        to,
        Some(msg),
        r,
        "auto-replied",
        &seed_of(key, &format!("rejection|{to}")),
    ))
}

/// A keyed order of `n` items: the indices `0..n` sorted by SHA-256 of the key, the context
/// and the index. The same key and context give the same order; without the key it cannot be
/// predicted or inverted. `key` is a secret (a game's press key today; a server-wide secret
/// can be passed the same way); `context` keeps the orders of two phases unrelated.
pub fn keyed_order(key: &[u8], context: &str, n: usize) -> Vec<usize> {
    use sha2::{Digest, Sha256};
    let mut ranked: Vec<([u8; 32], usize)> = (0..n)
        .map(|i| {
            let mut h = Sha256::new();
            // Lengths first: no two (key, context) pairs hash the same bytes.
            h.update((key.len() as u64).to_be_bytes());
            h.update(key);
            h.update((context.len() as u64).to_be_bytes());
            h.update(context.as_bytes());
            h.update((i as u64).to_be_bytes());
            (h.finalize().into(), i)
        })
        .collect();
    ranked.sort_unstable();
    ranked.into_iter().map(|(_, i)| i).collect()
}

#[allow(clippy::too_many_arguments)]
pub fn impersonation(
    env: &Env,
    to: &str,
    game: &str,
    phase: &str,
    phase_title: &str,
    registered: &PlayerRow,
    sender_power: Option<String>,
    msg: &ReadMessage,
    key: &str,
    why: &str,
    now: Ts,
) -> Composed {
    let v = render::ImpersonationView {
        game: game.to_string(),
        phase: phase.to_string(),
        phase_title: phase_title.to_string(),
        claimed_power: registered.power.clone(),
        sender_power,
        player_name: registered.name.clone(),
        why: why.to_string(),
        from: msg.from_address.clone().unwrap_or_default(),
        subject: echo_subject(&msg.subject),
        message_id: msg.message_id.clone(),
        received_at: now,
        authentication_results: msg.authentication_results.clone(),
        registered_address: registered.address.clone(),
        ..Default::default()
    };
    let r = rendered(
        render::impersonation_report(&v),
        MailKind::Report,
        to,
        &format!(
            "{game}: possible impersonation of {}: {why}",
            registered.power
        ),
    )?;
    Ok(reply(
        env,
        MailKind::Report,
        &env.alert_from,
        to,
        Some(msg),
        r,
        "auto-generated",
        &seed_of(key, &format!("impersonation|{to}")),
    ))
}

#[cfg(test)]
mod tests {
    use super::keyed_order;

    #[test]
    fn wm_d_x_2_the_keyed_order_is_a_permutation_fixed_by_its_key_and_context() {
        let a = keyed_order(b"key one", "press|S1901M", 12);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..12).collect::<Vec<_>>(), "every item once");
        assert_eq!(
            a,
            keyed_order(b"key one", "press|S1901M", 12),
            "reproducible"
        );
        assert_ne!(a, (0..12).collect::<Vec<_>>(), "not the order of arrival");
        assert_ne!(
            a,
            keyed_order(b"key two", "press|S1901M", 12),
            "another key"
        );
        assert_ne!(
            a,
            keyed_order(b"key one", "press|F1901M", 12),
            "another phase"
        );
        assert!(keyed_order(b"", "", 0).is_empty());
    }
}
