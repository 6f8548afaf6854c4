//! The Nomic's mails, one function each, over the shared compose (addressing, threading,
//! Message-IDs). A mail to every reader of the game is a results mail (the shared `HISTORY`
//! mails them again); an answer to one player's mail is threaded to it.

use super::render::{
    self, ObserverView, OrderView, ProposalView, RecordView, RefusedView, ResultView, StartView,
    VoteView,
};
use crate::config::Env;
use crate::message::ReadMessage;
use crate::outgoing::compose::{Composed, game_answer, game_mail, rendered, seed_of};
use crate::store::{GameRow, MailKind};

/// The start mail: the player's day and secret (Nomic 201).
pub fn start(env: &Env, g: &GameRow, to: &str, v: &StartView) -> Composed {
    let facts = format!("{}: {} plays on {}", g.id, v.player, v.day);
    let r = rendered(render::start(v), MailKind::Start, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Start,
        &format!("nomic-start|{to}"),
        &g.gm_address,
        to,
        r,
    ))
}

/// A proper proposal put to the vote, to one reader (Nomic 107, 109, 113).
pub fn proposal(env: &Env, g: &GameRow, to: &str, v: &ProposalView) -> Composed {
    let facts = format!("{}: Proposal {} by {}", g.id, v.number, v.proposer);
    let r = rendered(render::proposal(v), MailKind::Results, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Results,
        &format!("proposal|{}|{to}", v.number),
        &g.gm_address,
        to,
        r,
    ))
}

/// A vote counted: the voter's acknowledgement, threaded to the vote (Nomic 113).
pub fn vote(
    env: &Env,
    g: &GameRow,
    to: &str,
    msg: &ReadMessage,
    key: &str,
    v: &VoteView,
) -> Composed {
    let facts = format!("{}: a vote on Proposal {} counted", g.id, v.number);
    let r = rendered(render::vote(v), MailKind::Ack, to, &facts)?;
    Ok(game_answer(env, g, MailKind::Ack, to, msg, key, r))
}

/// A vote's result, to one reader (Nomic 113, 203-207, 209).
pub fn result(env: &Env, g: &GameRow, to: &str, v: &ResultView) -> Composed {
    let facts = format!(
        "{}: Proposal {} {}",
        g.id,
        v.number,
        if v.adopted { "adopted" } else { "defeated" }
    );
    let r = rendered(render::result(v), MailKind::Results, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Results,
        &format!("result|{}|{to}", v.number),
        &g.gm_address,
        to,
        r,
    ))
}

/// A step of a Point of Order's course, to one reader (Nomic 214); `step` names it.
pub fn point_of_order(env: &Env, g: &GameRow, to: &str, step: usize, v: &OrderView) -> Composed {
    let facts = format!("{}: Point of Order PO{}: {}", g.id, v.number, v.headline);
    let r = rendered(render::point_of_order(v), MailKind::Results, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Results,
        &format!("order|{}|{step}|{to}", v.number),
        &g.gm_address,
        to,
        r,
    ))
}

/// The answer to `RULES`, `HISTORY` or `POINTS` (Nomic 212), threaded to the asking mail.
pub fn record(
    env: &Env,
    g: &GameRow,
    to: &str,
    msg: &ReadMessage,
    key: &str,
    v: &RecordView,
) -> Composed {
    let facts = format!("{}: {}", g.id, v.title);
    let r = rendered(render::record(v), MailKind::QueryReply, to, &facts)?;
    let mut m = game_answer(env, g, MailKind::QueryReply, to, msg, key, r);
    // One mail may ask for several: each answer is a mail of its own.
    m.message_id = crate::outgoing::compose::id(
        env,
        MailKind::QueryReply,
        &format!("{key}|record|{}", v.title),
    );
    Ok(m)
}

/// The lines of a player's mail not used, and why, threaded to it.
pub fn refused(
    env: &Env,
    g: &GameRow,
    to: &str,
    msg: &ReadMessage,
    key: &str,
    v: &RefusedView,
) -> Composed {
    let facts = v.reasons.join("\n");
    let r = rendered(render::refused(v), MailKind::Rejection, to, &facts)?;
    let mut m = game_answer(env, g, MailKind::Rejection, to, msg, key, r);
    m.message_id = crate::outgoing::compose::id(
        env,
        MailKind::Rejection,
        &seed_of(key, &format!("nomic-refused|{to}")),
    );
    Ok(m)
}

/// An observer's first mail, at the start or when added under way (`joined`).
pub fn observer(env: &Env, g: &GameRow, to: &str, joined: bool) -> Composed {
    let v = ObserverView {
        game: g.id.clone(),
        address: to.to_string(),
        gm_address: g.gm_address.clone(),
        joined,
    };
    let facts = format!("{}: {to} observes the game", g.id);
    let r = rendered(render::observer(&v), MailKind::Start, to, &facts)?;
    Ok(game_mail(
        env,
        g,
        MailKind::Start,
        &format!("nomic-observer|{to}"),
        &g.gm_address,
        to,
        r,
    ))
}
