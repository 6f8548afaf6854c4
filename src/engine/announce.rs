//! Telling every player and observer of a game of a change (a deadline moved, a house rule
//! changed, a correction), each in their own zone: what the office commands, the players'
//! requests and the kinds' own commands all use.

use super::Result;
use super::receive::{compose_failed_mails, masters_for};
use crate::config::Env;
use crate::outgoing::compose;
use crate::store::Conn;
use crate::store::{self, GameRow, MemberRow, Role};
use crate::time::Ts;

/// Tell every player and observer of a change, each in their own zone. `key` names the change:
/// each reader gets one mail for it.
#[allow(clippy::too_many_arguments)]
pub async fn announce(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    key: &str,
    headline: &str,
    text: &str,
    deadline: Option<Ts>,
    now: Ts,
) -> Result<()> {
    announce_with(c, env, g, key, headline, text, "", deadline, now).await
}

/// [`announce`], with a master's own words quoted after the text.
#[allow(clippy::too_many_arguments)]
pub async fn announce_with(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    key: &str,
    headline: &str,
    text: &str,
    message: &str,
    deadline: Option<Ts>,
    now: Ts,
) -> Result<()> {
    let players = store::players(c, &g.id).await?;
    let observers: Vec<MemberRow> = store::members(c, &g.id)
        .await?
        .into_iter()
        .filter(|m| m.role == Role::Observer)
        .collect();
    let readers = players
        .iter()
        .map(|p| (p.address.as_str(), p.tz.as_str()))
        .chain(
            observers
                .iter()
                .map(|m| (m.address.as_str(), m.tz.as_str())),
        );
    // What the announcement says is part of its cause: two announcements in one second (a
    // command mail with DEADLINE then EXTEND, or PAUSE, RESUME, EXTEND 1d, EXTEND 2d) are
    // different mails, and each must reach every player (WM D.VII(4)(b), issue 21.5).
    let key = format!(
        "{key}|{}",
        crate::outgoing::ids::short_hash(&format!("{headline}|{text}|{message}|{deadline:?}"))
    );
    let key = key.as_str();
    let mut mails = Vec::new();
    for (to, tz) in readers {
        match compose::announcement(env, g, to, tz, key, headline, text, message, deadline) {
            Ok(m) => mails.push(m),
            Err(e) => {
                let masters = masters_for(c, env, Some(g)).await?;
                mails.extend(compose_failed_mails(env, Some(g), &masters, &e, key));
            }
        }
    }
    store::enqueue_many(c, &mails, now).await?;
    Ok(())
}

/// Everyone who reads a game's public mail: its players, then its masters and observers, each
/// address once (a kind whose every mail goes to all: the Nomic's voting and points threads,
/// the ACWC office's pairings).
pub async fn readers(c: &mut Conn, game: &str) -> Result<Vec<String>> {
    let mut out: Vec<String> = store::players(c, game)
        .await?
        .into_iter()
        .map(|p| p.address)
        .collect();
    for m in store::members(c, game).await? {
        if !out.iter().any(|a| a.eq_ignore_ascii_case(&m.address)) {
            out.push(m.address);
        }
    }
    Ok(out)
}

/// A mail composed for each reader ([`readers`]) and queued; one that cannot be composed
/// alerts the masters instead.
pub async fn tell_each(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    now: Ts,
    compose: impl Fn(&str) -> compose::Composed,
) -> Result<()> {
    let mut mails = Vec::new();
    for to in readers(c, &g.id).await? {
        match compose(&to) {
            Ok(m) => mails.push(m),
            Err(e) => super::compose_failed(c, env, Some(g), &e, now).await?,
        }
    }
    store::enqueue_many(c, &mails, now).await?;
    Ok(())
}
