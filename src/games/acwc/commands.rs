//! The Tournament Director's commands of a championship, by mail (`<id> GM`) or at the
//! console: `APPROVE <account>` seats an entrant (ACWC "Player eligibility": the TD checks the
//! account on Lichess), `RULING <account> <their score>-<opponent's score>` decides the
//! account's match of the current round (ACWC "Organization": the TD makes the final call),
//! `ASSIGN <account> <YYYY-MM-DD HH:MM>` assigns the start time of the account's match and
//! `FINDING <account of the match> <account at fault|NONE>` finds fault after no agreement by
//! the weekend (ACWC "Match negotiations": "a match arbiter will assign a time", "determine if
//! fault lies with a particular player"), `FORFEIT <account> <NOSHOW|RESCHEDULING|LEFT|REMATCH>`
//! forfeits the account's match (ACWC "Match rules"; two forfeits disqualify),
//! `WITHDRAW <account>` and `DISQUALIFY <account> <ENGINE|BOOSTER|ACCUSATION|OTHER>` (ACWC
//! "Disqualification and withdrawals", "Reporting cheats"), `STATUS` where the championship
//! stands, with the standings. The office's
//! commands about a phase's deadline are refused: a round keeps its week (ACWC "Timeline").

use super::store::DisqualifiedRow;
use super::store::{self, Conn, GameRow, MatchRow};
use crate::acwc::Player;
use crate::acwc::conduct::ForfeitWhy;
use crate::acwc::conduct::{ResultEvent, Score};
use crate::acwc::negotiation::{Event, Pairing};
use crate::commands::{DisqualifyReason, ForfeitReason, GmCommand};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::office::Done;
use crate::time::{Ts, format_gmt};

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
            | GmCommand::Assign { .. }
            | GmCommand::Finding { .. }
            | GmCommand::Forfeit { .. }
            | GmCommand::Withdraw(_)
            | GmCommand::Disqualify { .. }
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
    let Some(m) = super::matches::open_match(c, g, account).await? else {
        return Ok(Done::refused(format!(
            "{account} has no undecided match in the current round"
        )));
    };
    let Some(p) = super::matches::pairing(&m) else {
        return Ok(Done::refused("a bye has no result".to_string()));
    };
    let s = match super::matches::read_score(c, g, &m, score).await? {
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

/// The account's undecided match of the current round (the account in any case).
async fn current_match(c: &mut Conn, g: &GameRow, account: &str) -> Result<Option<MatchRow>> {
    super::matches::open_match(c, g, account).await
}

/// The account's match and its pairing, or why there is none.
async fn negotiated(
    c: &mut Conn,
    g: &GameRow,
    account: &str,
) -> Result<std::result::Result<(MatchRow, Pairing), Done>> {
    let Some(m) = current_match(c, g, account).await? else {
        return Ok(Err(Done::refused(format!(
            "{account} has no undecided match in the current round"
        ))));
    };
    Ok(match super::matches::pairing(&m) {
        Some(p) => Ok((m, p)),
        None => Err(Done::refused("a bye has no match time".to_string())),
    })
}

/// `ASSIGN <account> <time>`: the match arbiter assigns the start time (UTC).
pub async fn assign(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    account: &str,
    time: Ts,
    now: Ts,
) -> Result<Done> {
    let (m, p) = match negotiated(c, g, account).await? {
        Ok(x) => x,
        Err(done) => return Ok(done),
    };
    if time <= now {
        return Ok(Done::refused(format!(
            "{} is not in the future",
            format_gmt(time)
        )));
    }
    let event = Event::Assign { at: now, time };
    Ok(
        match super::negotiate::record(c, env, g, &m, &p, event, now).await? {
            Ok(headline) => Done::ok(format!("{} v {}: {headline}", p.a, p.b)),
            Err(why) => Done::refused(why),
        },
    )
}

/// `FINDING <account> <at fault|NONE>`: the match arbiter's finding of fault.
pub async fn finding(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    account: &str,
    at_fault: Option<&str>,
    now: Ts,
) -> Result<Done> {
    let (m, p) = match negotiated(c, g, account).await? {
        Ok(x) => x,
        Err(done) => return Ok(done),
    };
    let at_fault = at_fault.map(|f| {
        [&p.a, &p.b]
            .into_iter()
            .find(|x| x.as_str().eq_ignore_ascii_case(f))
            .cloned()
            .unwrap_or_else(|| Player::new(f))
    });
    let event = Event::Finding { at: now, at_fault };
    Ok(
        match super::negotiate::record(c, env, g, &m, &p, event, now).await? {
            Ok(headline) => Done::ok(format!("{} v {}: {headline}", p.a, p.b)),
            Err(why) => Done::refused(why),
        },
    )
}

/// `STATUS`.
pub async fn status(c: &mut Conn, g: &GameRow) -> Result<Done> {
    Ok(Done::ok(super::rounds::summary(c, g).await?))
}

/// `FORFEIT <account> <why>`.
pub async fn forfeit(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    account: &str,
    why: ForfeitReason,
    now: Ts,
) -> Result<Done> {
    let why = match why {
        ForfeitReason::NoShow => ForfeitWhy::NoShow,
        ForfeitReason::Rescheduling => ForfeitWhy::ReschedulingFailed,
        ForfeitReason::Left => ForfeitWhy::LeftTheMatch,
        ForfeitReason::Rematch => ForfeitWhy::NoRematch,
    };
    Ok(
        match super::forfeits::forfeit_by_td(c, env, g, account, why, now).await? {
            Ok(answer) => Done::ok(answer),
            Err(why) => Done::refused(why),
        },
    )
}

/// `WITHDRAW <account>` (no reason) or `DISQUALIFY <account> <why>`.
pub async fn depart(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    account: &str,
    why: Option<DisqualifyReason>,
    now: Ts,
) -> Result<Done> {
    let disqualified = why.map(|w| match w {
        DisqualifyReason::Engine => DisqualifiedRow::Engine,
        DisqualifyReason::Booster => DisqualifiedRow::Booster,
        DisqualifyReason::Accusation => DisqualifiedRow::PublicAccusation,
        DisqualifyReason::Other => DisqualifiedRow::Other,
    });
    let who = super::departures::Leaving {
        account: account.to_string(),
        disqualified,
    };
    Ok(
        match super::departures::depart(c, env, g, &who, now).await? {
            Ok(answer) => Done::ok(answer),
            Err(why) => Done::refused(why),
        },
    )
}
