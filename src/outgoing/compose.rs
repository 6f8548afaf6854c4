//! From the engine's decisions to outgoing mail: fill the views, render the templates, and
//! address and thread the result. Message-IDs are derived from what caused the mail, so the same
//! cause always gives the same Message-ID (a retry is recognisably the same mail).

use crate::adjudicator::{Adjudication, Board};
use crate::config::Env;
use crate::map::{Map, Power};
use crate::message::ReadMessage;
use crate::orderset::MailRead;
use crate::outgoing::render::{self, Reader, Rendered};
use crate::store::StandingOrder;
use crate::store::{GameRow, MailKind, NewMail, PlayerRow, PressRow};
use crate::time::Ts;
use std::collections::HashMap;

/// `Tuesday 24 November 2026, 20:00 GMT`.
pub fn gmt(ts: Ts) -> String {
    render::gmt_human(ts).unwrap_or_else(|_| format!("{ts} (unix time)"))
}

/// `2026-12-01` or `2026-12-01 18:00`, GMT.
pub fn parse_gmt(s: &str) -> Option<Ts> {
    let s = s.trim();
    let (date, time) = s.split_once(' ').unwrap_or((s, "00:00"));
    let d = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").ok()?;
    let t = chrono::NaiveTime::parse_from_str(time, "%H:%M").ok()?;
    Some(d.and_time(t).and_utc().timestamp())
}

fn id(env: &Env, kind: MailKind, seed: &str) -> String {
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

fn rendered(
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
fn reply(
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
    }
}

/// A mail about game `g` that answers nothing (results, reminders, digests, announcements):
/// its Message-ID is fixed by `seed`, so the same cause gives the same mail.
fn game_mail(
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
        message_id: id(env, kind, &format!("{seed}|rollback{}", g.rollbacks)),
        from: from.to_string(),
        to: to.to_string(),
        subject: r.subject,
        body: r.body,
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-generated",
        game: Some(g.id.clone()),
    }
}

/// An answer from a game's GM address to a mail about that game (ack, command reply, query
/// reply): threaded to it, its Message-ID seeded by the mail's content and `kind`.
fn game_answer(
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
fn seed_of(key: &str, extra: &str) -> String {
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
    }
}

/// An alert to the masters: something needs a person (a mail set aside, a mailbox silent, a
/// deadline waiting, a mail that could not be composed). `key` fixes the Message-ID, so the
/// same alert goes once.
/// The Message-ID of the alert with `key` to `to`.
pub fn alert_id(env: &Env, key: &str, to: &str) -> String {
    id(env, MailKind::Alert, &format!("{key}|{to}"))
}

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
    }
}

/// Who a start mail is for.
pub struct StartReader<'a> {
    pub address: &'a str,
    pub tz: &'a str,
    /// The power played; empty for masters and observers.
    pub power: &'a str,
    /// `player`, `GM`, `TD` or `observer`.
    pub role: &'a str,
    /// The reader's own secret; empty for observers.
    pub secret: &'a str,
    /// Set when the reader replaces a player mid-game.
    pub takeover: Option<render::TakeoverView>,
    /// The reader joins a game under way (an observer added mid-game).
    pub joined: bool,
}

/// The start mail of a game to one reader: the power, the first deadline, the secret, how to
/// send orders, and the house rules in plain words with their clauses (WM D.I(1)(b)).
pub fn start(
    env: &Env,
    g: &GameRow,
    rules: &crate::rules::Rules,
    phase: &str,
    deadline: Ts,
    reader: &StartReader<'_>,
) -> Composed {
    let v = render::StartView {
        game: g.id.clone(),
        variant: capitalise(&g.variant),
        preset: rules.name.clone(),
        power: reader.power.to_string(),
        role: reader.role.to_string(),
        phase: phase.to_string(),
        deadline,
        tz: reader.tz.to_string(),
        secret: reader.secret.to_string(),
        gm_address: g.gm_address.clone(),
        confirm_address: g.confirm_address.clone(),
        subject_example: rules
            .subject_format
            .replace("{game}", &g.id)
            .replace("{power}", reader.power)
            .replace("{phase}", phase),
        policies: rules
            .policies()
            .into_iter()
            .map(|(clause, text)| render::PolicyView {
                clause: clause.to_string(),
                // The subject format, as this reader writes it.
                text: text
                    .replace("{game}", &g.id)
                    .replace(
                        "{power}",
                        if reader.power.is_empty() {
                            "<power>"
                        } else {
                            reader.power
                        },
                    )
                    .replace("{phase}", "<phase>"),
            })
            .collect(),
        changed: rules
            .changed_from_preset()
            .into_iter()
            .map(|(option, value, clause)| render::ChangedOption {
                option: option.to_string(),
                value,
                clause: clause.to_string(),
            })
            .collect(),
        takeover: reader.takeover.clone(),
        address: reader.address.to_string(),
        joined: reader.joined,
    };
    let r = rendered(
        render::start(&v),
        MailKind::Start,
        reader.address,
        &format!(
            "{} has started; {} {}; first deadline {}",
            g.id,
            reader.role,
            reader.power,
            gmt(deadline)
        ),
    )?;
    Ok(game_mail(
        env,
        g,
        MailKind::Start,
        &match &reader.takeover {
            // The new secret is part of the cause: a player replaced, replaced back and so on
            // in one phase gets each welcome (issue 21.5). The seed is keyed, so the id does
            // not reveal the secret.
            Some(_) => format!(
                "{}|takeover|{phase}|{}|{}",
                g.id, reader.address, reader.secret
            ),
            // An observer added mid-game (again after a removal, perhaps): one a phase.
            None if reader.joined => format!("{}|joined|{phase}|{}", g.id, reader.address),
            None => format!("{}|start|{}", g.id, reader.address),
        },
        &g.gm_address,
        reader.address,
        r,
    ))
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
fn command_reply_rendered(
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

/// The answer to a tournament director's command mail: each line, done or refused, and why.
pub fn td_reply(
    env: &Env,
    t: &crate::store::TournamentRow,
    to: &str,
    msg: &ReadMessage,
    key: &str,
    lines: Vec<render::CommandReplyLine>,
) -> Composed {
    let r = command_reply_rendered(&t.id, to, lines, render::td_reply)?;
    Ok(reply(
        env,
        MailKind::CommandReply,
        &t.gm_address,
        to,
        Some(msg),
        r,
        "auto-replied",
        &seed_of(key, "td-reply"),
    ))
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

/// Whether the game calls its adjustment phase Monsoon (Maharajiad B.I(5)).
fn monsoon(g: &GameRow) -> bool {
    serde_json::from_str::<crate::rules::Rules>(&g.rules).is_ok_and(|r| r.monsoon)
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

#[allow(clippy::too_many_arguments)]
pub fn impersonation(
    env: &Env,
    to: &str,
    game: &str,
    phase: &str,
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

/// What an acknowledgement of an order mail says: the mail as read, the set that now stands,
/// the position it is for and the deadline.
pub struct Ack<'a> {
    pub game: &'a GameRow,
    pub map: &'a Map,
    pub player: &'a PlayerRow,
    pub msg: &'a ReadMessage,
    /// The received mail's content digest: seeds the acknowledgement's Message-ID, so that a
    /// redelivery's answer is the same mail.
    pub key: &'a str,
    pub read: &'a MailRead,
    /// The order set that now stands for the power, and whether it is final.
    pub standing: &'a [StandingOrder],
    pub final_: bool,
    pub board: &'a Board,
    pub power: Power,
    pub phase: &'a str,
    pub deadline: Ts,
    pub late: bool,
    /// What became of each request of the mail, in its order.
    pub request_notes: &'a [String],
    /// When the mail arrived.
    pub received_at: Ts,
}

pub fn acknowledgement(env: &Env, a: &Ack<'_>) -> Composed {
    let (g, player) = (a.game, a.player);
    let mut v = render::AckView {
        monsoon: monsoon(g),
        game: g.id.clone(),
        power: player.power.clone(),
        phase: a.phase.to_string(),
        received_at: a.received_at,
        deadline: a.deadline,
        tz: player.tz.clone(),
        late: a.late,
        ..Default::default()
    };
    v.set_read(a.read);
    v.subject = echo_subject(&v.subject);
    v.is_final = a.final_;
    v.requests = a
        .read
        .requests
        .iter()
        .zip(a.request_notes.iter())
        .map(|(r, note)| render::RequestAck::new(r, note.clone()))
        .collect();
    v.standing = standing_rows(a.map, a.board, a.power, a.standing);
    let facts = format!(
        "{} {} {}: {} order(s) stand; deadline {}",
        g.id,
        player.power,
        a.phase,
        a.standing.len(),
        gmt(a.deadline)
    );
    let r = rendered(
        render::acknowledgement(&v),
        MailKind::Ack,
        &player.address,
        &facts,
    )?;
    Ok(game_answer(
        env,
        g,
        MailKind::Ack,
        &player.address,
        a.msg,
        a.key,
        r,
    ))
}

/// The whole set as it will be adjudicated: every unit of `power`, ordered or not (in an
/// adjustment phase, the orders themselves).
fn standing_rows(
    map: &Map,
    board: &Board,
    power: Power,
    standing: &[StandingOrder],
) -> Vec<render::StandingOrder> {
    let mut rows: Vec<render::StandingOrder> = Vec::new();
    let ordered = |unit_prov: &str| {
        standing.iter().find(|s| {
            s.order
                .split_whitespace()
                .nth(1)
                .is_some_and(|p| p.starts_with(unit_prov))
        })
    };
    let units: Vec<String> = match board.phase.kind {
        crate::phase::PhaseKind::Retreat => board
            .dislodged
            .iter()
            .filter(|d| d.unit.power == power)
            .map(|d| map.unit_name(d.unit.unit_type, d.unit.location))
            .collect(),
        _ => board
            .units
            .iter()
            .filter(|u| u.power == power)
            .map(|u| map.unit_name(u.unit_type, u.location))
            .collect(),
    };
    if board.phase.kind == crate::phase::PhaseKind::Adjustment {
        for s in standing {
            rows.push(render::StandingOrder {
                unit: String::new(),
                order: Some(s.order.clone()),
            });
        }
    } else {
        for u in &units {
            let prov = u
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .split('/')
                .next()
                .unwrap_or("");
            rows.push(render::StandingOrder {
                unit: u.clone(),
                order: ordered(prov).map(|s| s.order.clone()),
            });
        }
    }
    rows
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

/// What an adjudication says, for everyone: built once a phase, rendered for each reader by
/// [`results`].
#[allow(clippy::too_many_arguments)]
pub fn results_view(
    g: &GameRow,
    map: &Map,
    adj: &Adjudication,
    before: &Board,
    written: &HashMap<String, Vec<StandingOrder>>,
    missing: &[String],
    press: &[PressRow],
    press_key: &[u8],
    told: Option<String>,
    next_deadline: Option<Ts>,
) -> render::ResultsView {
    let mut powers: Vec<render::PowerResult> = Vec::new();
    for p in map.all_powers() {
        let name = map.power_name(p).to_string();
        let mine = written.get(&name);
        let orders: Vec<render::ResultOrder> = adj
            .results
            .iter()
            .filter(|r| r.power == p)
            .map(|r| {
                let canon = r.order.display(map).to_string();
                let as_written = mine
                    .and_then(|w| w.iter().find(|s| s.order == canon))
                    .map(|s| s.written.clone())
                    .unwrap_or_else(|| canon.clone());
                render::ResultOrder::from_result(map, r, as_written)
            })
            .collect();
        let ordered: Vec<String> = adj
            .results
            .iter()
            .filter(|r| r.power == p)
            .filter_map(|r| r.order.unit().map(|u| map.info(u.province).code.clone()))
            .collect();
        // Units that had no order: they held (WM D.III(4)).
        let unordered: Vec<String> = if adj.phase.kind == crate::phase::PhaseKind::Movement {
            before
                .units
                .iter()
                .filter(|u| u.power == p)
                .filter(|u| !ordered.contains(&map.info(u.location.province).code))
                .map(|u| map.unit_name(u.unit_type, u.location))
                .collect()
        } else {
            Vec::new()
        };
        let disbanded: Vec<String> = adj
            .disbanded
            .iter()
            .filter(|u| u.power == p)
            .map(|u| map.unit_name(u.unit_type, u.location))
            .collect();
        if orders.is_empty()
            && unordered.is_empty()
            && disbanded.is_empty()
            && !missing.contains(&name)
        {
            continue;
        }
        powers.push(render::PowerResult {
            power: name.clone(),
            nmr: missing.contains(&name),
            orders,
            unordered,
            disbanded,
        });
    }
    let retreats = adj
        .retreats
        .iter()
        .map(|r| render::RetreatView::from_options(map, r))
        .collect();
    let (centres, unowned) = render::centre_views(map, &adj.next);
    let mut white = Vec::new();
    let mut grey = Vec::new();
    // Never in the order it came (WM D.X(2); Maharajiad B.XI(2)): black or grey press sent in
    // one mail with its author's white press would sit right beside it. A secret key orders
    // the phase's press; every reader gets the same order, none can work it out.
    let context = format!("press|{}|{}", g.id, adj.phase);
    for p in keyed_order(press_key, &context, press.len())
        .into_iter()
        .filter_map(|i| press.get(i))
    {
        // Press whose recipients cannot be read is never published (to all, as it once was).
        let Ok(to) = serde_json::from_str::<Vec<String>>(&p.recipients) else {
            continue;
        };
        if let Some(shown) = &p.attributed {
            // Black press (Maharajiad B.XI(1)): printed exactly as white press of the power
            // named; the real author stays here.
            white.push(render::WhitePress {
                author: shown.clone(),
                to,
                body: p.body.clone(),
            });
        } else if p.grey {
            // The author stays here: grey and dark grey press leave the engine without it.
            grey.push(render::GreyPress {
                to,
                body: p.body.clone(),
                signature: p.signature.clone(),
            });
        } else {
            white.push(render::WhitePress {
                author: p.author.clone(),
                to,
                body: p.body.clone(),
            });
        }
    }
    render::ResultsView {
        monsoon: monsoon(g),
        judge: "CHAN".into(),
        game: g.id.clone(),
        variant: capitalise(&g.variant),
        phase: adj.phase.to_string(),
        // No next deadline: the game is over.
        next_phase: next_deadline.map(|_| adj.next.phase.to_string()),
        deadline: next_deadline,
        powers,
        retreats,
        centres,
        unowned_centres: unowned,
        white_press: white,
        grey_press: grey,
        // Set by the caller from the rules (WM D.X(1); Maharajiad B.XI(1)).
        white_press_with_orders: false,
        vote_result: told,
        centre_history: None,
    }
}

/// Who a results mail goes to, and what press they may see.
pub struct ResultsReader<'a> {
    pub address: &'a str,
    pub tz: &'a str,
    pub reader: Reader<'a>,
}

/// The results mail of each reader, in their order.
pub fn results(
    env: &Env,
    g: &GameRow,
    v: &render::ResultsView,
    readers: &[ResultsReader<'_>],
) -> Vec<Composed> {
    let who: Vec<(Reader<'_>, &str)> = readers.iter().map(|r| (r.reader, r.tz)).collect();
    let facts = format!("{} {} has been adjudicated.", g.id, v.phase);
    render::results_for(v, &who)
        .into_iter()
        .zip(readers)
        .map(|(r, reader)| {
            let r = rendered(r, MailKind::Results, reader.address, &facts)?;
            Ok(game_mail(
                env,
                g,
                MailKind::Results,
                &format!("{}|{}|{}", g.id, v.phase, reader.address),
                &g.gm_address,
                reader.address,
                r,
            ))
        })
        .collect()
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `until`: when the masters are reminded if the results are still held.
pub fn nmr_hold(
    env: &Env,
    to: &str,
    g: &GameRow,
    phase: &str,
    missing: &[String],
    until: Ts,
    now: Ts,
) -> NewMail {
    let example = missing.first().map_or("<power>", String::as_str);
    let body = format!(
        "{game} {phase}: no orders from {who} at the deadline.\n\n\
         No NMR is allowed in this phase (WM D.VII(6)(b)): the results are held back and the\n\
         player(s) must be replaced at once. The phase stays closed at its deadline: no player\n\
         may send or change orders, except the replacement you name now, with a command mail\n\
         (subject \"{game} GM\"):\n\n    REPLACE {example} <address>\n\n\
         The replacement is sent the position and a new secret. The results go out as soon as\n\
         every power has orders. PREVIEW shows what they would be. If they are still held at\n\
         {next}, you will be reminded.\n",
        game = g.id,
        who = missing.join(", "),
        next = gmt(until),
    );
    NewMail {
        kind: MailKind::Alert,
        message_id: id(
            env,
            MailKind::Alert,
            &format!("nmr|{}|{phase}|{now}|{to}", g.id),
        ),
        from: env.alert_from.clone(),
        to: to.to_string(),
        subject: format!(
            "{} {phase}: results held, NMR by {}",
            g.id,
            missing.join(", ")
        ),
        body,
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-generated",
        game: Some(g.id.clone()),
    }
}

/// The GM's deadline digest (one per phase: the Message-ID is fixed by game and phase).
#[allow(clippy::too_many_arguments)]
pub fn digest(
    env: &Env,
    to: &str,
    g: &GameRow,
    phase: &str,
    deadline: Ts,
    powers: Vec<render::DigestPower>,
    extension_days_allowed: u32,
    drops: Vec<render::DropCount>,
    now: Ts,
) -> Composed {
    let v = render::DigestView {
        monsoon: monsoon(g),
        drops,
        game: g.id.clone(),
        phase: phase.to_string(),
        deadline,
        generated_at: now,
        tz: "UTC".into(),
        extension_days_allowed,
        powers,
    };
    let r = rendered(
        render::digest(&v),
        MailKind::Digest,
        to,
        &format!("{} {phase}: deadline {}", g.id, gmt(deadline)),
    )?;
    Ok(game_mail(
        env,
        g,
        MailKind::Digest,
        &format!("{}|{phase}|{to}", g.id),
        &env.alert_from,
        to,
        r,
    ))
}

/// A reminder to a player with no orders in (one per player and phase).
pub fn reminder(
    env: &Env,
    g: &GameRow,
    rules: &crate::rules::Rules,
    p: &PlayerRow,
    phase: &str,
    deadline: Ts,
    now: Ts,
) -> Composed {
    let v = render::ReminderView {
        monsoon: rules.monsoon,
        game: g.id.clone(),
        power: p.power.clone(),
        phase: phase.to_string(),
        deadline,
        sent_at: now,
        tz: p.tz.clone(),
        expected_subject: rules
            .subject_format
            .replace("{game}", &g.id)
            .replace("{power}", &p.power)
            .replace("{phase}", phase),
        gm_address: g.gm_address.clone(),
        gm_in_to_only: rules.gm_address == crate::rules::GmAddress::To,
    };
    let r = rendered(
        render::reminder(&v),
        MailKind::Reminder,
        &p.address,
        &format!(
            "{} {phase}: no orders yet for {}; the deadline is {}.",
            g.id,
            p.power,
            gmt(deadline)
        ),
    )?;
    Ok(game_mail(
        env,
        g,
        MailKind::Reminder,
        &format!("{}|{phase}|{}", g.id, p.power),
        &g.gm_address,
        &p.address,
        r,
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
