//! A match's start time negotiated by mail (ACWC "Match negotiations"; the pure rules are
//! `chancery_acwc::negotiation`, the round's week `chancery_acwc::week`): a player's `OFFER`,
//! `ACCEPT` or `CHOOSE` line, the TD's `ASSIGN` and `FINDING`, each checked against the
//! match's stored events and its round's week, kept (`acwc_match_events`, the times a JSON
//! list), and told to both players and the masters with where the negotiation now stands: the
//! offers so far, the agreed time (kept in `acwc_matches.agreed_at`), or who is at fault and
//! who decides. The tick ([`super::tick`]) sends the reminders and tells the turns the clock
//! brings (Wednesday's deadline, the weekend, a choice not made in time).
//!
//! Every time is written in UTC (`2019-10-10 18:00 UTC`: "players must communicate their times
//! in UTC"), with the reader's own zone beside it when they gave one.
//!
//! Decisions:
//! - the negotiation is of the sender's undecided match of the current round; once a result of
//!   the match is reported, its time is no longer negotiated (and no reminder is sent);
//! - an arbiter's finding keeps the player at fault in the event's `by` (none: no one);
//! - the arbiter's `ASSIGN` may name any time after the command: the TD "will make the final
//!   call", so the offers' spacing does not bind it;
//! - each step's mails are seeded by the match and the number of its events, a reminder's by
//!   its moment and reason, a turn's by its kind and the moment it began: a step told twice is
//!   one mail (the outbox refuses a second Message-ID).

use super::store::{self, Conn, GameRow, MatchEventKind, MatchEventRow, MatchRow};
use crate::acwc::Player;
use crate::acwc::mail::Line;
use crate::acwc::negotiation::{
    self, CHOICE_NOTICE, Event, How, NegotiationState, Pairing, Reminder, ReminderWhy, WhyArbiter,
    latest_start,
};
use crate::acwc::week::{Week, round_week};
use crate::config::Env;
use crate::engine::Result;
use crate::outgoing::acwc::compose;
use crate::outgoing::acwc::render::NegotiationView;
use crate::outgoing::time::Zone;
use crate::time::{Ts, format_gmt};

/// One match's negotiation: its pairing, its round's week and its stored events.
pub struct Negotiation {
    pub m: MatchRow,
    pub p: Pairing,
    pub week: Week,
    pub events: Vec<Event>,
    /// A result of the match was reported: the time needs no negotiation.
    pub played: bool,
}

impl Negotiation {
    /// From the match's stored mails and its round's publication.
    pub fn of(m: &MatchRow, p: &Pairing, published: Ts, rows: &[MatchEventRow]) -> Negotiation {
        Negotiation {
            m: m.clone(),
            p: p.clone(),
            week: round_week(published),
            events: rows.iter().filter_map(event_of).collect(),
            played: rows
                .iter()
                .any(|r| super::matches::result_event(r).is_some()),
        }
    }

    pub fn state(&self, now: Ts) -> NegotiationState {
        negotiation::state(&self.p, &self.events, &self.week, now)
    }
}

/// When the round of match `m` was published (its row in `acwc_rounds`).
pub(super) async fn published(c: &mut Conn, game: &str, m: &MatchRow) -> Result<Option<Ts>> {
    Ok(store::rounds(c, game)
        .await?
        .into_iter()
        .find(|r| r.stage == m.stage && r.round == m.round)
        .map(|r| r.published_at))
}

/// A stored mail about a match as the negotiation replays it (its events only).
pub(super) fn event_of(e: &MatchEventRow) -> Option<Event> {
    let by = e.by.clone().map(Player);
    let time = e.times.first().copied();
    Some(match e.event {
        MatchEventKind::Offer => Event::Offer {
            by: by?,
            at: e.at,
            times: e.times.clone(),
        },
        MatchEventKind::Accept => Event::Accept {
            by: by?,
            at: e.at,
            time: time?,
        },
        MatchEventKind::Choose => Event::Choose {
            by: by?,
            at: e.at,
            time: time?,
        },
        MatchEventKind::Assign => Event::Assign {
            at: e.at,
            time: time?,
        },
        MatchEventKind::Finding => Event::Finding {
            at: e.at,
            at_fault: by,
        },
        _ => return None,
    })
}

fn row_of(e: &Event) -> MatchEventRow {
    let (event, by, times) = match e {
        Event::Offer { by, times, .. } => (MatchEventKind::Offer, Some(by), times.clone()),
        Event::Accept { by, time, .. } => (MatchEventKind::Accept, Some(by), vec![*time]),
        Event::Choose { by, time, .. } => (MatchEventKind::Choose, Some(by), vec![*time]),
        Event::Assign { time, .. } => (MatchEventKind::Assign, None, vec![*time]),
        Event::Finding { at_fault, .. } => (MatchEventKind::Finding, at_fault.as_ref(), vec![]),
    };
    MatchEventRow {
        event,
        by: by.map(ToString::to_string),
        at: e.at(),
        times,
        score_a: None,
        score_b: None,
        note: None,
    }
}

/// A player's negotiation line as an event, or None for a line of another kind.
pub(super) fn event_of_line(me: &Player, line: &Line, at: Ts) -> Option<Event> {
    let by = me.clone();
    Some(match line {
        Line::Offer(times) => Event::Offer {
            by,
            at,
            times: times.clone(),
        },
        Line::Accept(time) => Event::Accept {
            by,
            at,
            time: *time,
        },
        Line::Choose(time) => Event::Choose {
            by,
            at,
            time: *time,
        },
        _ => return None,
    })
}

/// A negotiation event on match `m` checked, kept and told to both players and the masters;
/// the refusal's reason, or the step's headline.
pub(super) async fn record(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    m: &MatchRow,
    p: &Pairing,
    event: Event,
    now: Ts,
) -> Result<std::result::Result<String, String>> {
    let Some(published) = published(c, &g.id, m).await? else {
        return Ok(Err(format!(
            "round {} has no week to negotiate in",
            m.round
        )));
    };
    let rows = store::match_events(c, &g.id, m).await?;
    let mut n = Negotiation::of(m, p, published, &rows);
    if n.played {
        return Ok(Err(
            "a result of this match is reported already: its time is no longer negotiated"
                .to_string(),
        ));
    }
    if let Err(why) = negotiation::check(&n.p, &n.events, &n.week, &event) {
        return Ok(Err(why.to_string()));
    }
    store::add_match_event(c, &g.id, m, &row_of(&event)).await?;
    n.events.push(event.clone());
    let st = n.state(now);
    if let NegotiationState::Agreed { time, .. } = &st {
        store::set_agreed(c, &g.id, m, *time).await?;
    }
    if let Some(due) = negotiation::next_due(&n.p, &n.events, &n.week, now) {
        store::need_clock_by(c, &g.id, due).await?;
    }
    let seed = format!("{}|{}|{}", m.round, m.board, n.events.len());
    let headline = tell(c, env, g, &n, &st, Step::Event(&event), &seed, now).await?;
    Ok(Ok(headline))
}

/// What a negotiation mail tells before where it stands.
#[derive(Clone, Copy)]
pub(super) enum Step<'a> {
    /// A mail's or the arbiter's event: to both players and the masters.
    Event(&'a Event),
    /// A reminder: to its player alone.
    Reminder(&'a Reminder),
    /// A turn the clock brought (the Wednesday deadline, the weekend, a lapsed choice): to
    /// both players and the masters.
    Turn,
}

/// `2019-10-10 18:00 UTC`, with the reader's zone beside it (`(20:00 CEST, Europe/Paris)`).
fn when(t: Ts, z: &Zone) -> String {
    let utc = format_gmt(t).replace(" GMT", " UTC");
    match z.local(t) {
        Ok(Some(local)) => format!("{utc} ({local})"),
        _ => utc,
    }
}

/// A heading and its times, one a line, indented (the template does not wrap them, so each can
/// be copied whole into an `ACCEPT` line).
fn listed(head: String, ts: impl IntoIterator<Item = Ts>, z: &Zone) -> Vec<String> {
    std::iter::once(head)
        .chain(ts.into_iter().map(|t| format!("  {}", when(t, z))))
        .collect()
}

fn names(ps: &[Player]) -> String {
    ps.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" and ")
}

fn step_lines(step: Step<'_>, z: &Zone) -> Vec<String> {
    match step {
        Step::Event(Event::Offer { by, times, .. }) => {
            listed(format!("{by} offers:"), times.iter().copied(), z)
        }
        Step::Event(Event::Accept { by, time, .. }) => {
            vec![format!("{by} accepts {}.", when(*time, z))]
        }
        Step::Event(Event::Choose { by, time, .. }) => {
            vec![format!("{by} chooses {}.", when(*time, z))]
        }
        Step::Event(Event::Assign { time, .. }) => {
            vec![format!("The match arbiter assigns {}.", when(*time, z))]
        }
        Step::Event(Event::Finding { at_fault, .. }) => vec![match at_fault {
            Some(p) => format!("The match arbiter finds {p} at fault."),
            None => "The match arbiter finds no player at fault.".to_string(),
        }],
        Step::Reminder(r) => vec![format!("A reminder to {}: {}.", r.to, r.why)],
        Step::Turn => Vec::new(),
    }
}

/// Where the negotiation stands, in words, with the facts the arbiter is given.
fn state_lines(st: &NegotiationState, week: &Week, z: &Zone) -> Vec<String> {
    let mut out = Vec::new();
    match st {
        NegotiationState::Agreed { time, how } => {
            let how = match how {
                How::Accepted { by } => format!("accepted by {by}"),
                How::Chosen { by } => {
                    format!("chosen by {by}, the opponent of the player at fault")
                }
                How::Assigned => "assigned by the match arbiter".to_string(),
            };
            out.push(format!(
                "The match time is settled: {} ({how}).",
                when(*time, z)
            ));
        }
        NegotiationState::Open { offers, owing, .. } => {
            for o in offers {
                if o.times.is_empty() {
                    out.push(format!("{} has offered no time yet.", o.player));
                } else {
                    let head = format!("{} has offered:", o.player);
                    out.extend(listed(head, o.times.iter().map(|t| t.time), z));
                }
            }
            if owing.is_empty() {
                out.push(format!(
                    "Agree before the weekend ({}): otherwise the match arbiter determines \
                     whether fault lies with one of you.",
                    when(week.weekend, z)
                ));
            } else {
                out.push(format!(
                    "Still to offer at least 3 times by Wednesday 23:59:59 UTC ({}): {}; a \
                     player who has not must accept the time the opponent chooses.",
                    when(week.offers_by, z),
                    names(owing)
                ));
            }
        }
        NegotiationState::OpponentChooses {
            chooser,
            at_fault,
            choose_by,
        } => out.push(format!(
            "{at_fault} did not offer 3 times by Wednesday and is at fault: they must accept \
             the time {chooser} chooses. {chooser}: write CHOOSE <YYYY-MM-DD HH:MM>, at least 12 \
             hours ahead and no later than {}, by {}; otherwise the match arbiter assigns one.",
            when(latest_start(week), z),
            when(*choose_by, z)
        )),
        NegotiationState::ArbiterAssigns {
            at_fault,
            why,
            facts,
        } => {
            out.push(format!("{why}."));
            if !at_fault.is_empty() {
                out.push(format!("At fault: {}.", names(at_fault)));
            }
            let by_wed: Vec<String> = facts
                .by_wednesday
                .iter()
                .map(|(p, n)| format!("{p} {n}"))
                .collect();
            out.push(format!(
                "Times offered by Wednesday 23:59:59 UTC: {}.",
                by_wed.join(", ")
            ));
            for l in &facts.late {
                out.push(match l.answered_at {
                    Some(t) => format!(
                        "{} answered the offer of {} late, at {}.",
                        l.by,
                        when(l.offer_at, z),
                        when(t, z)
                    ),
                    None => format!(
                        "{} has not answered the offer of {}.",
                        l.by,
                        when(l.offer_at, z)
                    ),
                });
            }
            out.push(match why {
                WhyArbiter::NoAgreementByWeekend => {
                    "The match arbiter finds with FINDING <account of the match> <account at \
                     fault, or NONE>; until then the players may still ACCEPT one of the other's \
                     offered times."
                        .to_string()
                }
                _ => "The match arbiter assigns the time with ASSIGN <account> <YYYY-MM-DD \
                      HH:MM>; until then the players may still ACCEPT one of the other's offered \
                      times."
                    .to_string(),
            });
        }
    }
    out
}

fn headline(step: Step<'_>, st: &NegotiationState) -> String {
    match (step, st) {
        (_, NegotiationState::Agreed { time, .. }) => {
            format!("agreed {}", format_gmt(*time).replace(" GMT", " UTC"))
        }
        (Step::Event(Event::Offer { by, times, .. }), NegotiationState::Open { .. }) => {
            let n = times.len();
            format!("{by} offers {n} time{}", if n == 1 { "" } else { "s" })
        }
        (Step::Reminder(r), _) => format!("a reminder to {}", r.to),
        (_, NegotiationState::Open { .. }) => "open".to_string(),
        (_, NegotiationState::OpponentChooses { chooser, .. }) => format!("{chooser} chooses"),
        (_, NegotiationState::ArbiterAssigns { .. }) => "for the match arbiter".to_string(),
    }
}

/// The step and where the negotiation stands told (a reminder to its player, anything else to
/// both players and the masters), each in their own zone; the headline.
#[allow(clippy::too_many_arguments)]
pub(super) async fn tell(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    n: &Negotiation,
    st: &NegotiationState,
    step: Step<'_>,
    seed: &str,
    now: Ts,
) -> Result<String> {
    let only = match step {
        Step::Reminder(r) => Some(&r.to),
        _ => None,
    };
    let to = super::matches::match_readers(c, g, [&n.p.a, &n.p.b], only).await?;
    let head = headline(step, st);
    let mut mails = Vec::new();
    for (addr, tz) in &to {
        let z = Zone::new(tz);
        let mut lines = step_lines(step, &z);
        lines.extend(state_lines(st, &n.week, &z));
        let v = NegotiationView {
            game: g.id.clone(),
            title: format!("Swiss round {}", n.m.round),
            a: n.p.a.to_string(),
            b: n.p.b.to_string(),
            headline: head.clone(),
            lines,
        };
        let reminder = matches!(step, Step::Reminder(_));
        match compose::negotiation(env, g, addr, seed, reminder, &v) {
            Ok(mail) => mails.push(mail),
            Err(e) => crate::engine::compose_failed(c, env, Some(g), &e, now).await?,
        }
    }
    store::enqueue_many(c, &mails, now).await?;
    Ok(head)
}

/// What the clock brings a negotiation between `from` (exclusive) and `now`: the reminders due
/// (the latest of each player's and reason's, while it is still open at `now`), and whether it
/// took a turn (to the opponent's choice or the arbiter). Pure.
pub(super) fn due(n: &Negotiation, from: Ts, now: Ts) -> (Vec<Reminder>, bool) {
    if n.played {
        return (Vec::new(), false);
    }
    let from = from.max(n.week.published);
    let after = n.state(now);
    let mut reminders: Vec<Reminder> = Vec::new();
    if matches!(after, NegotiationState::Open { .. }) {
        for r in negotiation::reminders_due(&n.p, &n.events, &n.week, from, now) {
            let same = |x: &Reminder| {
                x.to == r.to
                    && matches!(
                        (x.why, r.why),
                        (ReminderWhy::Reply { .. }, ReminderWhy::Reply { .. })
                            | (ReminderWhy::Offers { .. }, ReminderWhy::Offers { .. })
                    )
            };
            reminders.retain(|x| !same(x));
            reminders.push(r);
        }
    }
    // A turn is the clock's: the state changes at one of the week's moments (an event's
    // change was told with the event), and the state now is the one it turned to.
    let kind = std::mem::discriminant::<NegotiationState>;
    let choice_end = latest_start(&n.week)
        .saturating_sub(CHOICE_NOTICE)
        .saturating_add(1);
    let turned = matches!(
        after,
        NegotiationState::OpponentChooses { .. } | NegotiationState::ArbiterAssigns { .. }
    ) && [
        n.week.offers_by.saturating_add(1),
        n.week.weekend,
        choice_end,
    ]
    .into_iter()
    .filter(|&b| from < b && b <= now)
    .any(|b| {
        let at = n.state(b);
        kind(&n.state(b - 1)) != kind(&at) && kind(&at) == kind(&after)
    });
    (reminders, turned)
}

/// A reminder's seed: the match, the player, the moment and the reason.
pub(super) fn reminder_seed(m: &MatchRow, r: &Reminder) -> String {
    let why = match r.why {
        ReminderWhy::Reply { offer_at } => format!("reply{offer_at}"),
        ReminderWhy::Offers { offered } => format!("offers{offered}"),
    };
    format!("{}|{}|remind|{}|{}|{why}", m.round, m.board, r.to, r.at)
}

/// A turn's seed: the match, the state's kind and the moment the turn was told.
pub(super) fn turn_seed(m: &MatchRow, st: &NegotiationState, week: &Week) -> String {
    let kind = match st {
        NegotiationState::OpponentChooses { chooser, .. } => format!("chooses-{chooser}"),
        NegotiationState::ArbiterAssigns { why, .. } => match why {
            WhyArbiter::BothAtFault => "both".to_string(),
            WhyArbiter::NoAgreementByWeekend => "weekend".to_string(),
            WhyArbiter::NoOneAtFault => "none".to_string(),
            WhyArbiter::ChoiceLapsed { .. } => "lapsed".to_string(),
        },
        _ => "other".to_string(),
    };
    format!("{}|{}|turn|{kind}|{}", m.round, m.board, week.monday)
}
