//! The Tournament Director's commands of a championship, by mail (`<id> GM`) or at the
//! console: `APPROVE <account>` seats an entrant (ACWC "Player eligibility": the TD checks the
//! account on Lichess), `RULING <account> <their score>-<opponent's score>` decides the
//! account's match of the current round (ACWC "Organization": the TD makes the final call),
//! `STATUS` where the Swiss stands. The office's commands about a phase's deadline are refused:
//! a round keeps its week (ACWC "Timeline").

use super::store::{self, Conn, GameRow};
use crate::acwc::Player;
use crate::acwc::conduct::{ResultEvent, Score};
use crate::commands::GmCommand;
use crate::config::Env;
use crate::engine::Result;
use crate::engine::office::Done;
use crate::time::Ts;

/// Whether a championship takes master's command `cmd`.
pub fn takes(cmd: &GmCommand) -> bool {
    matches!(
        cmd,
        GmCommand::Status
            | GmCommand::ObserverAdd(_)
            | GmCommand::ObserverRemove(_)
            | GmCommand::Broadcast(_)
            | GmCommand::Approve(_)
            | GmCommand::Ruling { .. }
    )
}

/// `APPROVE <account>`.
pub async fn approve(c: &mut Conn, env: &Env, g: &GameRow, account: &str, now: Ts) -> Result<Done> {
    if g.status != store::GameStatus::Forming {
        return Ok(Done::refused(format!(
            "{} has started: entries are closed",
            g.id
        )));
    }
    Ok(
        match super::admin::approve(c, Some(env), g, account, now).await? {
            Ok(p) => Done::ok(format!("{} is approved; their secret is mailed", p.power)),
            Err(why) => Done::refused(why),
        },
    )
}

/// `RULING <account> <score>`: the account's score first.
pub async fn ruling(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    account: &str,
    score: &str,
    now: Ts,
) -> Result<Done> {
    let Some(m) = super::mail::open_match(c, g, account).await? else {
        return Ok(Done::refused(format!(
            "{account} has no undecided match in the current round"
        )));
    };
    let Some(p) = super::mail::pairing(&m) else {
        return Ok(Done::refused("a bye has no result".to_string()));
    };
    let s = match super::mail::read_score(c, g, &m, score).await? {
        Ok(s) => s,
        Err(why) => return Ok(Done::refused(why)),
    };
    let (mine, theirs) = (u32::from(s.first), u32::from(s.second));
    let score = if p.a == Player(m.a.clone()) && m.a.eq_ignore_ascii_case(account) {
        Score { a: mine, b: theirs }
    } else {
        Score { a: theirs, b: mine }
    };
    let event = ResultEvent::Ruling { at: now, score };
    Ok(
        match super::mail::record(c, env, g, &m, &p, event, now).await? {
            Ok(()) => Done::ok(format!("{} v {}: {score}, ruled", p.a, p.b)),
            Err(why) => Done::refused(why),
        },
    )
}

/// `STATUS`.
pub async fn status(c: &mut Conn, g: &GameRow) -> Result<Done> {
    Ok(Done::ok(super::rounds::summary(c, g).await?))
}
