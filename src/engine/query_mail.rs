//! A player's or observer's query (subject `<game> STATUS`, `<game> HISTORY [phase]`,
//! `<game> SUMMARY`): answered at the asker's registered address with what the game has
//! published, never anyone's orders before adjudication. `<game> MAP OFF` and `MAP ON` set
//! whether the asker's results mails show the map; a change needs the asker's proof (the
//! secret, or DKIM where the house rules take it).

use super::house::{House, Proof};
use super::office::status::{StatusFor, status_text};
use super::receive::{Ctx, Recipient, Tag, answer, drop_mail};
use super::{Processed, Result};
use crate::config::Env;
use crate::message::ReadMessage;
use crate::outgoing::compose;
use crate::outgoing::notices;
use crate::store::Conn;
use crate::store::{self, GameRow};

/// What a query asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Query {
    Status,
    /// The results of past phases mailed again: one phase, or the latest ones.
    History(Option<String>),
    /// The game's course, in its kind's terms (Diplomacy: centre counts per power per year,
    /// eliminations, replacements).
    Summary,
    /// Who submitted orders for the asker's own seat this turn, and when (Agora BT7: with
    /// team orders, the contestant's assistants may send them).
    Submitted,
    /// MAP ON (true) or MAP OFF: whether the asker's results mails show the map.
    Maps(bool),
}

/// The most results mails a HISTORY answer carries.
const HISTORY_MAX: i64 = 8;

/// Is this a query's subject for game `game`: `<game> STATUS|HISTORY [phase]|SUMMARY`?
/// `is_phase`: whether a word names a phase of the game's kind.
pub(super) fn query_of(
    subject: &str,
    game: &str,
    is_phase: impl FnOnce(&str) -> bool,
) -> Option<Query> {
    let words: Vec<&str> = subject
        .split_whitespace()
        .map(|w| w.trim_matches(|ch: char| !ch.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .skip_while(|w| {
            matches!(
                w.to_ascii_lowercase().as_str(),
                "re" | "fwd" | "fw" | "aw" | "tr"
            )
        })
        .collect();
    if !words.first().is_some_and(|w| w.eq_ignore_ascii_case(game)) {
        return None;
    }
    let verb = words.get(1)?.to_ascii_uppercase();
    let arg = words.get(2).map(|a| a.to_ascii_uppercase());
    match (verb.as_str(), arg, words.len()) {
        ("STATUS", None, 2) => Some(Query::Status),
        ("SUMMARY", None, 2) => Some(Query::Summary),
        ("SUBMITTED", None, 2) => Some(Query::Submitted),
        ("HISTORY", None, 2) => Some(Query::History(None)),
        ("HISTORY", Some(p), 3) if is_phase(&p) => Some(Query::History(Some(p))),
        ("MAP", Some(on), 3) if on == "ON" => Some(Query::Maps(true)),
        ("MAP", Some(off), 3) if off == "OFF" => Some(Query::Maps(false)),
        _ => None,
    }
}

/// A query to game `g`, answered in the words of its `house`.
pub(super) async fn query_mail(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
    house: &dyn House,
    q: &Query,
) -> Result<(Processed, Tag)> {
    let tag = Tag::of(g);
    let from = msg.from_address.clone().unwrap_or_default();
    let players = store::players(c, &g.id).await?;
    let members = store::members(c, &g.id).await?;
    let Some(secret) = asker_secret(&players, &members, &from) else {
        // Only the game's own people are answered (at their registered address); anyone else
        // gets nothing, so a forged sender cannot have game mail sent to a third party.
        let why = "a query from an address with no part in the game";
        drop_mail(c, ctx, Some(&from), Some(&g.id), why).await?;
        return Ok((Processed::Dropped, tag));
    };
    let proven = proven(env, house, msg, &from, secret);
    if !proven && answered_this_hour(c, env, ctx, &from).await? {
        // Issue 21.2: From can be forged, and the answer goes to the registered address; a
        // query that does not prove its sender is answered at most once an hour.
        let why = "a query without proof of its sender: already answered this hour";
        drop_mail(c, ctx, Some(&from), Some(&g.id), why).await?;
        return Ok((Processed::Dropped, tag));
    }
    let (what, mut body) = match q {
        Query::Status => {
            let text = status(c, g, house, &players, &members, &from).await?;
            let page = page_line(c, env, g, house, ctx.now).await?;
            ("STATUS".to_string(), format!("{text}\n{page}"))
        }
        Query::Summary => ("SUMMARY".to_string(), house.summary(c, g).await?),
        Query::History(phase) => history(c, g, &from, phase.as_deref()).await?,
        Query::Submitted => {
            let text = submitted(c, g, house, &players, &from).await?;
            ("SUBMITTED".to_string(), text)
        }
        Query::Maps(on) => maps(c, g, house, &from, *on, proven, ctx.now).await?,
    };
    if !proven {
        body.push_str(&notices::unproven_query()?);
    }
    let mut mail = compose::query_reply(env, g, &from, msg, ctx.key, &what, &body);
    if let Query::History(Some(phase)) = q {
        // HISTORY <phase> shows that phase's map, unless the asker said MAP OFF.
        let off = store::maps_off(c, &g.id).await?;
        if !off.iter().any(|a| a.eq_ignore_ascii_case(&from))
            && let Ok(m) = &mut mail
        {
            m.picture = house.map_key(g, phase);
        }
    }
    answer(c, env, ctx, mail, Recipient::Registered, Some(g)).await?;
    Ok((Processed::Accepted, tag))
}

/// The registered secret of the asker: a player's, or a master's or observer's.
fn asker_secret<'a>(
    players: &'a [store::PlayerRow],
    members: &'a [store::MemberRow],
    from: &str,
) -> Option<&'a str> {
    players
        .iter()
        .find(|p| p.address.eq_ignore_ascii_case(from))
        .map(|p| p.secret.as_str())
        .or_else(|| {
            members
                .iter()
                .find(|m| m.address.eq_ignore_ascii_case(from))
                .map(|m| m.secret.as_str())
        })
}

/// Whether `from` had its allowance of answers to unproven queries this hour.
async fn answered_this_hour(c: &mut Conn, env: &Env, ctx: &Ctx<'_>, from: &str) -> Result<bool> {
    let since = ctx.now - crate::time::HOUR;
    let sent = store::mails_to(c, from, store::MailKind::QueryReply, since).await?;
    Ok(sent >= env.limits.unauthenticated_queries_per_hour)
}

/// STATUS: the masters' view to a master (as by command mail), a player's own to a player, the
/// phase and deadline only to an observer.
async fn status(
    c: &mut Conn,
    g: &GameRow,
    house: &dyn House,
    players: &[store::PlayerRow],
    members: &[store::MemberRow],
    from: &str,
) -> Result<String> {
    let current = store::current_phase(c, &g.id).await?;
    let paused = store::paused_remaining(c, &g.id).await?;
    let power = players
        .iter()
        .find(|p| p.address.eq_ignore_ascii_case(from))
        .map(|p| p.power.as_str());
    let master = members
        .iter()
        .any(|m| m.role.is_master() && m.address.eq_ignore_ascii_case(from));
    let to = if master {
        StatusFor::Masters
    } else {
        StatusFor::Reader(power)
    };
    status_text(c, g, house, current.as_ref(), paused, to).await
}

/// SUBMITTED (Agora BT7): who sent orders for the asker's own seat in the current turn, and
/// when; a seat's player alone is answered about it, never about another's.
async fn submitted(
    c: &mut Conn,
    g: &GameRow,
    house: &dyn House,
    players: &[store::PlayerRow],
    from: &str,
) -> Result<String> {
    let Some(seat) = players
        .iter()
        .find(|p| p.address.eq_ignore_ascii_case(from))
        .map(|p| p.power.clone())
    else {
        return Ok(
            "SUBMITTED tells a contestant who sent orders for their own power this \
                   turn: this address plays no power in the game.\n"
                .to_string(),
        );
    };
    let Some(phase) = store::current_phase(c, &g.id).await? else {
        return Ok("The game has no open turn.\n".to_string());
    };
    let sent = house.submitters(c, g, &phase, &seat).await?;
    let title = house.phase_title(&phase.phase);
    if sent.is_empty() {
        return Ok(format!(
            "No orders have been accepted for {seat} in {title} yet.\n"
        ));
    }
    let mut text = format!("Orders accepted for {seat} in {title} (Agora BT7), oldest first:\n\n");
    for (who, at) in &sent {
        let who = if who.is_empty() {
            "(not recorded)"
        } else {
            who
        };
        text.push_str(&format!("  {}  {who}\n", crate::time::format_gmt(*at)));
    }
    Ok(text)
}

/// HISTORY [phase]: the results mails sent to this address again, of one phase or the latest
/// ones. What was asked, and the answer.
async fn history(
    c: &mut Conn,
    g: &GameRow,
    from: &str,
    phase: Option<&str>,
) -> Result<(String, String)> {
    let sent = store::results_sent_to(c, &g.id, from, 1000).await?;
    let chosen: Vec<&(String, String)> = match phase {
        Some(p) => sent.iter().filter(|(s, _)| s.contains(p)).collect(),
        None => sent.iter().rev().take(HISTORY_MAX as usize).rev().collect(),
    };
    let what = match phase {
        Some(p) => format!("HISTORY {p}"),
        None => "HISTORY".to_string(),
    };
    let body = if chosen.is_empty() {
        "No results mailed to this address for that are on hand: none yet, or only \
         older ones than the server keeps.\n"
            .to_string()
    } else {
        chosen
            .iter()
            .map(|(s, b)| format!("==== {s}\n\n{b}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    Ok((what, body))
}

/// The game's read-only page, when the server serves the pages and the game's kind draws one
/// (its link made the first time it is asked for).
async fn page_line(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    now: crate::time::Ts,
) -> Result<String> {
    let Some(web) = env.web.as_ref().filter(|_| house.draws_maps()) else {
        return Ok(String::new());
    };
    let token = store::page_token(c, &g.id, now).await?;
    Ok(format!(
        "\nThe game's page (the map, the history with its maps, press to all): {}\n",
        web.link(&token)
    ))
}

/// MAP ON or MAP OFF: changed when the asker proved who it is, else only said how. What was
/// asked, and the answer.
async fn maps(
    c: &mut Conn,
    g: &GameRow,
    house: &dyn House,
    from: &str,
    on: bool,
    proven: bool,
    now: crate::time::Ts,
) -> Result<(String, String)> {
    let what = if on { "MAP ON" } else { "MAP OFF" }.to_string();
    let body = if !house.draws_maps() {
        "This game's mails have no map: nothing to turn on or off.\n".to_string()
    } else if !proven {
        format!(
            "Nothing changed: {what} changes your mail, so it needs your secret on a SECRET \
             line (as your orders do).\n"
        )
    } else {
        store::set_maps(c, &g.id, from, on, now).await?;
        if on {
            "MAP ON: from the next phase on, your results mails show the map of the phase \
             (in their HTML part), beside the same text. MAP OFF stops it.\n"
        } else {
            "MAP OFF: from the next phase on, your results mails are text alone, without the \
             map. MAP ON brings it back.\n"
        }
        .to_string()
    };
    Ok((what, body))
}

/// Did the asker prove who it is: its secret on a `SECRET` line, or a DKIM pass where the
/// game's house rules take one (as for orders, WM D.X(6))?
fn proven(env: &Env, house: &dyn House, msg: &ReadMessage, from: &str, secret: &str) -> bool {
    let given = msg
        .lines
        .iter()
        .find_map(|l| match crate::commands::line_kind(&l.text) {
            crate::commands::LineKind::Secret(s) => Some(s),
            _ => None,
        });
    house
        .authenticate(&Proof {
            from,
            registered: from,
            secret_given: given.as_deref(),
            secret,
            auth_results: &msg.authentication_results,
            authserv_id: &env.authserv_id,
        })
        .is_ok()
}
