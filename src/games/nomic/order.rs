//! Points of Order by mail (Nomic 214): `Point of Order:` raises one (at most three active a
//! player; none against a proposal voted on but not yet in effect), `Judgement: PO1 ...` is the
//! Judge's, `Dispute: PO1` and `I agree|disagree with Judgement PO1` the other players'. The
//! course is `nomic::point_of_order`'s, replayed from the stored mails; every step is told to
//! every player, here as a mail makes it and by the tick as the clock does (a forfeit at the
//! end of the day, a Judgement invoked when the hour for disputes passes, a Judge overruled).

use super::proven::{PlayerMail, Verdict};
use super::store::{self, Conn, GameRow, OrderEventKind, OrderEventRow, PointOfOrderRow};
use crate::ballot::VoterId;
use crate::config::Env;
use crate::engine::Result;
use crate::nomic::circuit::Seats;
use crate::nomic::point_of_order::{
    self, Event, Raised, State, Step, check_raise, check_raise_against_pending, concerns_in,
};
use crate::nomic::settings::Settings;
use crate::outgoing::nomic::compose;
use crate::outgoing::nomic::render::{OrderView, RecordSection, RecordView};
use crate::outgoing::time::{deadline_text, gmt};
use crate::time::Ts;

/// A stored point as the pure rules read it.
pub(super) fn raised(p: &PointOfOrderRow) -> Raised {
    Raised {
        number: u32::try_from(p.number).unwrap_or(0),
        by: VoterId::new(p.raised_by.clone()),
        at: p.raised_at,
        question: p.question.clone(),
        concerns: p.concerns.and_then(|n| u32::try_from(n).ok()),
    }
}

/// A stored mail about a point as the pure rules read it.
pub(super) fn event(e: &OrderEventRow) -> Event {
    let by = VoterId::new(e.by.clone());
    match e.event {
        OrderEventKind::Judgement => Event::Judgement {
            by,
            at: e.at,
            text: e.text.clone(),
        },
        OrderEventKind::Dispute => Event::Dispute { by, at: e.at },
        OrderEventKind::Agree | OrderEventKind::Disagree => Event::Opinion {
            by,
            at: e.at,
            agree: e.event == OrderEventKind::Agree,
        },
    }
}

/// Point `number`'s stored mails, as the pure rules read them.
fn events_of(all: &[OrderEventRow], number: i64) -> Vec<Event> {
    all.iter()
        .filter(|e| e.number == number)
        .map(event)
        .collect()
}

/// `Point of Order:` from the mail's player.
pub(super) async fn raise(c: &mut Conn, m: &PlayerMail<'_>, question: &str) -> Result<Verdict> {
    let (g, at) = (m.g, m.at);
    let house = super::rules_of(g)?;
    let seats = super::seats_of(c, &g.id).await?;
    if let Err(why) = point_of_order::check_day(at) {
        return Ok(Err(why.to_string()));
    }
    let events = store::order_events(c, &g.id).await?;
    let active = store::points_of_order(c, &g.id, true)
        .await?
        .iter()
        .filter(|p| p.raised_by == m.player.power)
        .filter(|p| {
            let evs = events_of(&events, p.number);
            point_of_order::is_active(&raised(p), &evs, &seats, &house.settings, at)
        })
        .count();
    if let Err(why) = check_raise(active, &house.settings) {
        return Ok(Err(why.to_string()));
    }
    // A proposal whose vote is complete but which has not yet come into effect (it waits for
    // its Judgements) takes no new Point of Order.
    let pending: Vec<u32> = store::open_rule_changes(c, &g.id)
        .await?
        .iter()
        .filter(|p| p.closes_at.is_some_and(|t| t <= at))
        .filter_map(|p| u32::try_from(p.number).ok())
        .collect();
    let concerns = concerns_in(question);
    if let Err(why) = check_raise_against_pending(concerns, &pending) {
        return Ok(Err(why.to_string()));
    }
    let number = store::raise_point(
        c,
        &g.id,
        &m.player.power,
        at,
        question.trim(),
        concerns.map(i64::from),
    )
    .await?;
    let p = store::points_of_order(c, &g.id, true)
        .await?
        .into_iter()
        .find(|p| p.number == number);
    if let Some(p) = p {
        advance(c, m.env, g, &p, &[], &seats, &house.settings, at).await?;
    }
    Ok(Ok(()))
}

/// The open point `number`, with its stored mails; or why there is none.
async fn open_point(
    c: &mut Conn,
    g: &GameRow,
    number: u32,
) -> Result<std::result::Result<(PointOfOrderRow, Vec<OrderEventRow>), String>> {
    let all = store::points_of_order(c, &g.id, false).await?;
    let Some(p) = all.into_iter().find(|p| p.number == i64::from(number)) else {
        return Ok(Err(format!(
            "there is no Point of Order PO{number} (Nomic 214)"
        )));
    };
    let events = store::order_events(c, &g.id)
        .await?
        .into_iter()
        .filter(|e| e.number == p.number)
        .collect();
    Ok(Ok((p, events)))
}

/// A mail about point `number`: checked against its course (Nomic 214), kept, and told.
async fn about_point(
    c: &mut Conn,
    m: &PlayerMail<'_>,
    number: u32,
    kind: OrderEventKind,
    text: &str,
) -> Result<Verdict> {
    let g = m.g;
    let (p, rows) = match open_point(c, g, number).await? {
        Ok(found) => found,
        Err(why) => return Ok(Err(why)),
    };
    let house = super::rules_of(g)?;
    let seats = super::seats_of(c, &g.id).await?;
    let row = OrderEventRow {
        number: p.number,
        event: kind,
        by: m.player.power.clone(),
        at: m.at,
        text: text.trim().to_string(),
    };
    let events: Vec<Event> = rows.iter().map(event).collect();
    if let Err(why) =
        point_of_order::check(&raised(&p), &events, &seats, &house.settings, &event(&row))
    {
        return Ok(Err(why.to_string()));
    }
    store::add_order_event(c, &g.id, &row).await?;
    let mut all = rows;
    all.push(row);
    let told = advance(c, m.env, g, &p, &all, &seats, &house.settings, m.at).await?;
    if !told {
        // An opinion that settles nothing yet is the sender's alone to be told of.
        let v = RecordView {
            game: g.id.clone(),
            title: format!("your opinion on PO{number}"),
            sections: vec![RecordSection {
                heading: format!("Point of Order PO{number} (Nomic 214)"),
                lines: vec![format!(
                    "Your \"{}\" is counted; the hour for opinions runs from the dispute.",
                    if kind == OrderEventKind::Agree {
                        "I agree with Judgement"
                    } else {
                        "I disagree with Judgement"
                    }
                )],
            }],
        };
        let mail = compose::record(m.env, g, &m.player.address, m.msg, m.ctx.key, &v);
        m.answer(c, mail).await?;
    }
    Ok(Ok(()))
}

/// `Judgement: POn ...`.
pub(super) async fn judgement(
    c: &mut Conn,
    m: &PlayerMail<'_>,
    point: u32,
    text: &str,
) -> Result<Verdict> {
    about_point(c, m, point, OrderEventKind::Judgement, text).await
}

/// `Dispute: POn`.
pub(super) async fn dispute(c: &mut Conn, m: &PlayerMail<'_>, point: u32) -> Result<Verdict> {
    about_point(c, m, point, OrderEventKind::Dispute, "").await
}

/// `I agree with Judgement POn` / `I disagree with Judgement POn`.
pub(super) async fn opinion(
    c: &mut Conn,
    m: &PlayerMail<'_>,
    point: u32,
    agree: bool,
) -> Result<Verdict> {
    let kind = if agree {
        OrderEventKind::Agree
    } else {
        OrderEventKind::Disagree
    };
    about_point(c, m, point, kind, "").await
}

/// A moment in UK time beside GMT (Nomic 106).
fn uk(at: Ts) -> String {
    deadline_text(at, "Europe/London").unwrap_or_else(|_| gmt(at))
}

/// A step in words.
fn step_line(s: &Step) -> String {
    match s {
        Step::BecameJudge { judge, at, .. } => {
            format!("{}: {judge} is the Judge (Nomic 214).", uk(*at))
        }
        Step::Judged { judge, at } => format!(
            "{}: {judge} pronounced the Judgement. Any other player may dispute it within the \
             hour (\"Dispute: PO<n>\").",
            uk(*at)
        ),
        Step::Disputed { by, at } => format!(
            "{}: {by} disputed the Judgement. The players other than the Judge have an hour to \
             write \"I agree with Judgement PO<n>\" or \"I disagree with Judgement PO<n>\".",
            uk(*at)
        ),
        Step::Forfeited { judge, at } => format!(
            "{}: {judge} did not pronounce by the end of the day and forfeits the position of \
             Judge on this point.",
            uk(*at)
        ),
        Step::Overruled { judge, at } => format!(
            "{}: {judge}'s Judgement is overruled: every player who gave an opinion disagreed.",
            uk(*at)
        ),
        Step::Invoked { judge, at } => format!(
            "{}: {judge}'s Judgement is invoked: it comes into effect.",
            uk(*at)
        ),
    }
}

/// The point's course at `now` from its stored mails: the steps not yet told are mailed to
/// every reader in one mail, the point settled once its Judgement is invoked, and the clock
/// asked for when its state next changes by time alone. Whether there was a step to tell.
#[allow(clippy::too_many_arguments)]
pub(super) async fn advance(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    p: &PointOfOrderRow,
    rows: &[OrderEventRow],
    seats: &Seats,
    settings: &Settings,
    now: Ts,
) -> Result<bool> {
    let r = raised(p);
    let events: Vec<Event> = rows
        .iter()
        .filter(|e| e.number == p.number)
        .map(event)
        .collect();
    let (state, steps) = point_of_order::state(&r, &events, seats, settings, now);
    let told = usize::try_from(p.told).unwrap_or(0);
    let settled = match &state {
        State::Invoked { at, .. } => Some(*at),
        _ => None,
    };
    let fresh_steps = steps.len() > told;
    if fresh_steps {
        let fresh = &steps[told..];
        let (judge, until) = match &state {
            State::AwaitingJudgement { judge, until } => (Some(judge.to_string()), Some(*until)),
            _ => (None, None),
        };
        let has = |f: fn(&Step) -> bool| fresh.iter().any(f);
        let headline = if matches!(state, State::Invoked { .. }) {
            "Judgement invoked"
        } else if has(|s| matches!(s, Step::Overruled { .. })) {
            "Judge overruled"
        } else if has(|s| matches!(s, Step::Forfeited { .. })) {
            "Judge forfeited"
        } else if has(|s| matches!(s, Step::Disputed { .. })) {
            "Judgement disputed"
        } else if has(|s| matches!(s, Step::Judged { .. })) {
            "Judgement pronounced"
        } else if told == 0 {
            "raised"
        } else {
            "a new Judge"
        }
        .to_string();
        let mut lines: Vec<String> = fresh.iter().map(step_line).collect();
        if let State::Judged { text, .. } | State::Invoked { text, .. } = &state {
            lines.push(format!("The Judgement: {text}"));
        }
        if let Some(n) = p.concerns {
            lines.push(format!(
                "It concerns Proposal {n}: if adopted while awaiting Judgement, it takes \
                 effect only once the Judgement is invoked (Nomic 214)."
            ));
        }
        let v = OrderView {
            game: g.id.clone(),
            number: p.number,
            headline,
            raised_by: p.raised_by.clone(),
            question: p.question.clone(),
            lines,
            judge,
            until,
        };
        let step = steps.len();
        crate::engine::announce::tell_each(c, env, g, now, |to| {
            compose::point_of_order(env, g, to, step, &v)
        })
        .await?;
    }
    // Written only when something was told or the point settled: the tick looks at every
    // open point each time the game is due.
    if fresh_steps || (settled.is_some() && p.settled_at.is_none()) {
        let told = i64::try_from(steps.len()).unwrap_or(i64::MAX);
        store::point_told(c, &g.id, p.number, told, settled).await?;
    }
    if let Some(next) = point_of_order::next_due(&r, &events, seats, settings, now) {
        store::need_clock_by(c, &g.id, next).await?;
    }
    Ok(fresh_steps)
}

/// The proposals that wait for a Point of Order not yet invoked at `now` (Nomic 214: "if
/// approved whilst still awaiting Judgement, the rule is not taken into effect until all the
/// related Judgements are invoked"), and when the last related one was invoked for the others.
pub(super) fn waiting(
    points: &[(PointOfOrderRow, Vec<OrderEventRow>)],
    seats: &Seats,
    settings: &Settings,
    now: Ts,
) -> Vec<(u32, Option<Ts>)> {
    points
        .iter()
        .filter_map(|(p, rows)| {
            let n = u32::try_from(p.concerns?).ok()?;
            let events: Vec<Event> = rows.iter().map(event).collect();
            let invoked = match point_of_order::state(&raised(p), &events, seats, settings, now).0 {
                State::Invoked { at, .. } => Some(at),
                _ => None,
            };
            Some((n, invoked))
        })
        .collect()
}
