//! The ACWC office's mails, one function each, over the shared compose. A mail to every reader
//! (pairings, results, the Swiss's end) is a results mail (the shared `HISTORY` mails them
//! again); an answer to one entrant's mail is threaded to it.

use super::render::{
    self, EntryView, NegotiationView, ObserverView, PairingsView, ResultView, StartView,
    SwissDoneView,
};
use crate::config::Env;
use crate::message::ReadMessage;
use crate::outgoing::compose::{Composed, game_answer, game_mail, rendered};
use crate::store::{GameRow, MailKind};

/// An entry received, answered to the entrant's mail.
pub fn entry(
    env: &Env,
    g: &GameRow,
    to: &str,
    msg: &ReadMessage,
    key: &str,
    v: &EntryView,
) -> Composed {
    let facts = format!("{}: entry of {}", g.id, v.account);
    let r = rendered(render::entry(v), MailKind::Ack, to, &facts)?;
    Ok(game_answer(env, g, MailKind::Ack, to, msg, key, r))
}

/// An entry approved: the entrant's secret.
pub fn start(env: &Env, g: &GameRow, to: &str, v: &StartView) -> Composed {
    let facts = format!("{}: {} approved", g.id, v.account);
    let r = rendered(render::start(v), MailKind::Start, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Start,
        &format!("acwc-start|{to}"),
        &g.gm_address,
        to,
        r,
    ))
}

/// A round's pairings, to one reader; `seed` names the round.
pub fn pairings(env: &Env, g: &GameRow, to: &str, seed: &str, v: &PairingsView) -> Composed {
    let facts = format!("{}: {} pairings", g.id, v.title);
    let r = rendered(render::pairings(v), MailKind::Results, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Results,
        &format!("pairings|{seed}|{to}"),
        &g.gm_address,
        to,
        r,
    ))
}

/// A match's result, to one reader; `seed` names the match and the step.
pub fn result(env: &Env, g: &GameRow, to: &str, seed: &str, v: &ResultView) -> Composed {
    let facts = format!("{}: {} v {}: {}", g.id, v.a, v.b, v.headline);
    let r = rendered(render::result(v), MailKind::Results, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Results,
        &format!("result|{seed}|{to}"),
        &g.gm_address,
        to,
        r,
    ))
}

/// A reminder about a match's result, or its deadline passed, to one reader; `seed` names the
/// match, the nudge and its moment.
pub fn reminder(env: &Env, g: &GameRow, to: &str, seed: &str, v: &ResultView) -> Composed {
    let facts = format!("{}: {} v {}: {}", g.id, v.a, v.b, v.headline);
    let r = rendered(render::result(v), MailKind::Reminder, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Reminder,
        &format!("reminder|{seed}|{to}"),
        &g.gm_address,
        to,
        r,
    ))
}

/// A match's time negotiated, to one reader: a step or a turn (a results mail), or a reminder
/// (`reminder`); `seed` names the match and the step (or the reminder's moment), so a step
/// told twice is one mail.
pub fn negotiation(
    env: &Env,
    g: &GameRow,
    to: &str,
    seed: &str,
    reminder: bool,
    v: &NegotiationView,
) -> Composed {
    let kind = if reminder {
        MailKind::Reminder
    } else {
        MailKind::Results
    };
    let facts = format!("{}: {} v {}: match time, {}", g.id, v.a, v.b, v.headline);
    let r = rendered(render::negotiation(v), kind, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        kind,
        &format!("negotiation|{seed}|{to}"),
        &g.gm_address,
        to,
        r,
    ))
}

/// The Swiss's end, to one reader.
pub fn swiss_done(env: &Env, g: &GameRow, to: &str, v: &SwissDoneView) -> Composed {
    let facts = format!("{}: the Swiss is over", g.id);
    let r = rendered(render::swiss_done(v), MailKind::Results, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Results,
        &format!("swiss-done|{to}"),
        &g.gm_address,
        to,
        r,
    ))
}

/// An observer's first mail.
pub fn observer(env: &Env, g: &GameRow, to: &str) -> Composed {
    let v = ObserverView {
        game: g.id.clone(),
        address: to.to_string(),
        gm_address: g.gm_address.clone(),
    };
    let facts = format!("{}: {to} observes", g.id);
    let r = rendered(render::observer(&v), MailKind::Start, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Start,
        &format!("acwc-observer|{to}"),
        &g.gm_address,
        to,
        r,
    ))
}
