//! An entrant's mail to a running championship (ACWC "Match rules": "After a match, either
//! player must post the results"): proven (secret or DKIM), its lines read
//! (`chancery_acwc::mail`): `OFFER`, `ACCEPT` and `CHOOSE` negotiate the match's time
//! ([`super::negotiate`]), `RESULT <mine>-<theirs>` reports the sender's match of the current
//! round, `CONFIRM` or `DISPUTE` answers the opponent's report. The result stands once
//! confirmed (or reported the same by both), or unanswered for 48 hours (the tick), or ruled by
//! the TD (`RULING`); a dispute goes to the TD. Every step is told to both players and the
//! masters; once every match of the round is decided, the next round is published.

use super::house::AcwcHouse;
use super::matches::{open_match, pairing, read_score, result_event};
use super::store::{self, Conn, GameRow, MatchEventKind, MatchEventRow, MatchRow};
use crate::acwc::Player;
use crate::acwc::conduct::{ResultEvent, ResultState, Score, Settled, check_result, result_state};
use crate::acwc::mail::{Line, read};
use crate::acwc::negotiation::Pairing;
use crate::config::Env;
use crate::engine::receive::{Ctx, Recipient, Tag, answer};
use crate::engine::seat;
use crate::engine::{Processed, Result};
use crate::message::ReadMessage;
use crate::outgoing::acwc::compose;
use crate::outgoing::acwc::render::ResultView;
use crate::outgoing::compose::rejection;
use crate::time::Ts;

/// A mail to a running championship.
pub async fn player_mail(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
) -> Result<(Processed, Tag)> {
    let mut tag = Tag::of(g);
    let house = AcwcHouse::of(g)?;
    let stranger = format!("this address plays in no match of {}", g.id);
    let Some((player, body)) = seat::proven_player(c, env, ctx, msg, g, &house, stranger).await?
    else {
        return Ok((Processed::Rejected, tag));
    };
    tag.power = Some(player.power.clone());
    let verdict = result_lines(c, env, g, &player.power, &body, ctx.arrived).await?;
    match verdict {
        Ok(()) => Ok((Processed::Accepted, tag)),
        Err(why) => {
            let to = &player.address;
            let mail = rejection(env, &g.gm_address, to, msg, ctx.key, &[why], ctx.now);
            answer(c, env, ctx, mail, Recipient::Registered, Some(g)).await?;
            Ok((Processed::Rejected, tag))
        }
    }
}

/// The mail's one result line (the first), done or refused with why.
async fn result_lines(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    player: &str,
    body: &str,
    at: Ts,
) -> Result<std::result::Result<(), String>> {
    let read = read(body);
    let Some((_, line)) = read.lines.into_iter().next() else {
        return Ok(Err(
            "this mail has no line the office reads: offer match times with OFFER <YYYY-MM-DD \
             HH:MM>, <...> in UTC, accept one with ACCEPT <time> (ACWC Match negotiations); after \
             a match write RESULT and your score first (RESULT 6.5-3.5); answer your opponent's \
             report with CONFIRM or DISPUTE (ACWC Match rules)"
                .to_string(),
        ));
    };
    if let Line::Bid(seconds) = line {
        return super::stages::bid(c, env, g, player, seconds, at).await;
    }
    if let Line::Withdraw(account) = &line {
        if !account.eq_ignore_ascii_case(player) {
            return Ok(Err(format!(
                "WITHDRAW names your own account, {player} (ACWC Disqualification and \
                 withdrawals)"
            )));
        }
        let who = super::departures::Leaving {
            account: player.to_string(),
            disqualified: None,
        };
        return Ok(super::departures::depart(c, env, g, &who, at)
            .await?
            .map(|_| ()));
    }
    let Some(m) = open_match(c, g, player).await? else {
        return Ok(Err(format!(
            "{player} has no undecided match in the current round of {}",
            g.id
        )));
    };
    let Some(p) = pairing(&m) else {
        return Ok(Err("a bye has no result to report".to_string()));
    };
    let me = Player(player.to_string());
    if let Some(event) = super::negotiate::event_of_line(&me, &line, at) {
        let done = super::negotiate::record(c, env, g, &m, &p, event, at).await?;
        return Ok(done.map(|_| ()));
    }
    if matches!(line, Line::NoShow | Line::Claim | Line::Reschedule) {
        return super::forfeits::no_show_line(c, env, g, (&m, &p), &me, &line, at).await;
    }
    let event = match line {
        Line::Result(text) => {
            let s = match read_score(c, g, &m, &text).await? {
                Ok(s) => s,
                Err(why) => return Ok(Err(why)),
            };
            let (mine, theirs) = (u32::from(s.first), u32::from(s.second));
            let score = if p.a == me {
                Score { a: mine, b: theirs }
            } else {
                Score { a: theirs, b: mine }
            };
            ResultEvent::Report { by: me, at, score }
        }
        Line::Confirm => ResultEvent::Confirm { by: me, at },
        Line::Dispute => ResultEvent::Dispute { by: me, at },
        _ => {
            return Ok(Err(
                "entries are closed: the championship has started".to_string()
            ));
        }
    };
    record(c, env, g, &m, &p, event, at).await
}

/// A result event checked against the match's course, kept, told, and the match decided if it
/// now is.
pub(super) async fn record(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    m: &MatchRow,
    p: &Pairing,
    event: ResultEvent,
    at: Ts,
) -> Result<std::result::Result<(), String>> {
    let rows = store::match_events(c, &g.id, m).await?;
    let events: Vec<ResultEvent> = rows.iter().filter_map(result_event).collect();
    if let Err(why) = check_result(p, &events, &event) {
        return Ok(Err(why.to_string()));
    }
    let row = match &event {
        ResultEvent::Report { by, score, .. } => {
            event_row(MatchEventKind::Report, Some(by), at, Some(*score))
        }
        ResultEvent::Confirm { by, .. } => event_row(MatchEventKind::Confirm, Some(by), at, None),
        ResultEvent::Dispute { by, .. } => event_row(MatchEventKind::Dispute, Some(by), at, None),
        ResultEvent::Ruling { score, .. } => {
            event_row(MatchEventKind::Ruling, None, at, Some(*score))
        }
    };
    store::add_match_event(c, &g.id, m, &row).await?;
    let mut all = events;
    all.push(event);
    settle(c, env, g, m, p, &all, at).await?;
    Ok(Ok(()))
}

fn event_row(
    event: MatchEventKind,
    by: Option<&Player>,
    at: Ts,
    score: Option<Score>,
) -> MatchEventRow {
    MatchEventRow {
        event,
        by: by.map(ToString::to_string),
        at,
        times: Vec::new(),
        score_a: score.map(|s| i64::from(s.a)),
        score_b: score.map(|s| i64::from(s.b)),
        note: None,
    }
}

/// Where the match's result stands at `now`, told to everyone; decided if final, and the next
/// round published once every match is.
pub(super) async fn settle(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    m: &MatchRow,
    p: &Pairing,
    events: &[ResultEvent],
    now: Ts,
) -> Result<()> {
    let state = result_state(p, events, now);
    let (headline, lines) = match &state {
        ResultState::Awaiting => return Ok(()),
        ResultState::Reported {
            by,
            score,
            stands_at,
            ..
        } => {
            store::need_clock_by(c, &g.id, *stands_at).await?;
            (
                format!("reported {score}"),
                vec![format!(
                    "{by} reports {} {score} {} ({} first). {} answers CONFIRM or DISPUTE; \
                 unanswered, the report stands after 48 hours (ACWC Match rules).",
                    p.a,
                    p.b,
                    p.a,
                    p.opponent(by).map_or_else(String::new, ToString::to_string)
                )],
            )
        }
        ResultState::Final { score, how } => {
            let how = match how {
                Settled::Confirmed { by } => format!("confirmed by {by}"),
                Settled::Unanswered => "unanswered for 48 hours, the report stands".to_string(),
                Settled::Ruled => "ruled by the Tournament Director".to_string(),
            };
            store::decide_match(c, &g.id, m, (i64::from(score.a), i64::from(score.b)), now).await?;
            (
                format!("decided {score}"),
                vec![format!("{} {score} {}: {how}.", p.a, p.b)],
            )
        }
        ResultState::Disputed { .. } => (
            "disputed".to_string(),
            vec![
                "The result is disputed: the Tournament Director decides (ACWC Organization) \
                 with RULING <account> <their score>-<opponent's score>."
                    .to_string(),
            ],
        ),
    };
    let v = ResultView {
        game: g.id.clone(),
        title: super::matches::title(m),
        a: p.a.to_string(),
        b: p.b.to_string(),
        headline: headline.clone(),
        lines,
    };
    let seed = format!(
        "{:?}|{}|{}|{headline}|{}",
        m.stage,
        m.round,
        m.board,
        events.len()
    );
    // Each step goes to the match's players and the masters; the results are public (ACWC
    // "Match rules": posted in the pairings' forum post), and everyone reads them in the next
    // round's pairings and standings.
    super::matches::tell_match(c, env, g, [&p.a, &p.b], None, now, |to| {
        compose::result(env, g, to, &seed, &v)
    })
    .await?;
    if matches!(state, ResultState::Final { .. }) {
        super::rounds::advance(c, env, g, now).await?;
    }
    Ok(())
}
