//! ACWC Match negotiations: "Each player is responsible to offer at least 3 separate times for
//! the match, by Wednesday at the latest, unless an offer has been accepted before that number
//! is reached. The 3 offered times should be no closer than 3 hours to each other and no more
//! than 2 on a single date. If 3 offers are not made in time the player at fault must accept a
//! time chosen by the opponent. If both players fail to make 3 offers by the deadline then a
//! match arbiter will assign a time. A player should respond to an offer by accepting or making
//! a different offer, preferably within 24 hours. If both players make 3 offers but no agreement
//! is made before the weekend then a match arbiter will determine if fault lies with a
//! particular player. If a player is at fault then their opponent will decide the match time,
//! if no player is at fault the match arbiter will assign a match time."
//!
//! One pairing's negotiation, event-sourced: the log of [`Event`]s (each checked by [`check`]
//! before it is appended) and the week ([`Week`]) give the state at any moment ([`state`]),
//! the reminders ([`reminders_due`]) and the next moment anything changes ([`next_due`]).
//! Every time is UTC ("players must communicate their times in UTC"); showing it in each
//! player's own zone is the server's job.
//!
//! Decisions where the rules are silent:
//! - the spacing rules ("no closer than 3 hours to each other and no more than 2 on a single
//!   date") hold among all of one player's offered times in the negotiation, not only the
//!   first three: a later offer may not sit within 3 hours of an earlier one of the same
//!   player's, nor be a third on a UTC date; the opponent's times do not count;
//! - an offered time must be after the mail offering it, and no later than
//!   [`latest_start`]: the deadline (Sunday 23:59:59) less [`MATCH_ROOM`] (3 hours), room for a
//!   10-game 2+5 match, a break and the 10-minute grace;
//! - an offer counts towards the three when the server received it by Wednesday 23:59:59;
//!   offers before the pairing was published are refused ("as soon as their next pairing is
//!   known");
//! - once a time is agreed, chosen or assigned, offers and acceptances are refused; only the
//!   arbiter may still assign (the TD "will make the final call");
//! - a player at fault may neither offer nor accept: they "must accept a time chosen by the
//!   opponent". The chooser may choose any time from [`CHOICE_NOTICE`] (12 hours) after the
//!   choice up to [`latest_start`], and must choose by [`latest_start`] less that notice; a
//!   choice not made by then goes to the arbiter;
//! - while the arbiter has still to act (both at fault, or no agreement by the weekend), the
//!   players may still settle it by accepting an offered time: the arbiter then has nothing to
//!   assign;
//! - after the weekend without agreement (both made 3 offers), the arbiter's finding of fault
//!   ([`Event::Finding`]) names one player or none, and is given the facts ([`Facts`]): every
//!   message, each player's offers by Wednesday, and who replied later than 24 hours;
//! - reminders: a player who has not answered an offer is reminded 24 hours after it
//!   ("preferably within 24 hours"); a player who still owes offers is reminded 24 and 48
//!   hours after the pairing and at Wednesday 00:00 (each one that falls before the Wednesday
//!   deadline); at the deadline the TD is told through the state (the arbiter assigns, or the
//!   opponent chooses).

use crate::week::{Week, date};
use crate::{Player, Ts};
use chancery_office::time::{DAY, HOUR, format_gmt};
use std::fmt;

/// ACWC Match negotiations: "at least 3 separate times".
pub const MIN_OFFERS: usize = 3;
/// ACWC Match negotiations: "no closer than 3 hours to each other".
pub const MIN_GAP: Ts = 3 * HOUR;
/// ACWC Match negotiations: "no more than 2 on a single date" (UTC).
pub const MAX_PER_DATE: usize = 2;
/// ACWC Match negotiations: "preferably within 24 hours": the reminder's delay.
pub const REPLY_WITHIN: Ts = 24 * HOUR;
/// ACWC Timeline ("completed by Sunday 23:59:59 UTC"): the room a match start leaves before
/// the deadline (module docs).
pub const MATCH_ROOM: Ts = 3 * HOUR;
/// ACWC Match negotiations ("a time chosen by the opponent"): the least notice a chosen time
/// gives the player at fault (module docs).
pub const CHOICE_NOTICE: Ts = 12 * HOUR;

/// The two players of one pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub a: Player,
    pub b: Player,
}

impl Pairing {
    /// The other player of the pairing, or None for someone not in it.
    pub fn opponent(&self, p: &Player) -> Option<&Player> {
        if p == &self.a {
            Some(&self.b)
        } else if p == &self.b {
            Some(&self.a)
        } else {
            None
        }
    }

    fn both(&self) -> [&Player; 2] {
        [&self.a, &self.b]
    }
}

/// ACWC Match negotiations: the latest start a time may have in the round of `week`
/// ([`MATCH_ROOM`] before the end of the deadline).
pub fn latest_start(week: &Week) -> Ts {
    week.deadline.saturating_add(1).saturating_sub(MATCH_ROOM)
}

/// ACWC Match negotiations: what happens in a negotiation, every `at` the receiving server's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A mail offering one or more start times.
    Offer { by: Player, at: Ts, times: Vec<Ts> },
    /// Accepting one of the opponent's offered times.
    Accept { by: Player, at: Ts, time: Ts },
    /// The opponent of the player at fault chooses the time ("must accept a time chosen by the
    /// opponent").
    Choose { by: Player, at: Ts, time: Ts },
    /// The match arbiter (the TD) assigns the time.
    Assign { at: Ts, time: Ts },
    /// The match arbiter's finding after no agreement by the weekend: the player at fault, or
    /// none.
    Finding { at: Ts, at_fault: Option<Player> },
}

impl Event {
    /// When the server received it.
    pub fn at(&self) -> Ts {
        match self {
            Event::Offer { at, .. }
            | Event::Accept { at, .. }
            | Event::Choose { at, .. }
            | Event::Assign { at, .. }
            | Event::Finding { at, .. } => *at,
        }
    }
}

/// How a time was settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum How {
    /// ACWC Match negotiations: a player accepted the opponent's offer.
    Accepted { by: Player },
    /// ACWC Match negotiations: the opponent of the player at fault chose it.
    Chosen { by: Player },
    /// ACWC Match negotiations: the match arbiter assigned it.
    Assigned,
}

/// One offered time and the moment it was offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offered {
    pub at: Ts,
    pub time: Ts,
}

/// ACWC Match negotiations: one player's offered times, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offers {
    pub player: Player,
    pub times: Vec<Offered>,
}

impl Offers {
    /// How many times were offered by `t` (inclusive): those count towards the three.
    pub fn count_by(&self, t: Ts) -> usize {
        self.times.iter().filter(|o| o.at <= t).count()
    }
}

/// Why a reminder is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReminderWhy {
    /// ACWC Match negotiations: an offer made at `offer_at` is unanswered after 24 hours.
    Reply { offer_at: Ts },
    /// ACWC Match negotiations: the player has offered `offered` of the 3 times due by Wednesday.
    Offers { offered: usize },
}

impl fmt::Display for ReminderWhy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReminderWhy::Reply { offer_at } => write!(
                f,
                "your opponent's offer of {} is unanswered: please accept one of the times or offer others, preferably within 24 hours (ACWC Match negotiations)",
                format_gmt(*offer_at)
            ),
            ReminderWhy::Offers { offered } => write!(
                f,
                "you have offered {offered} of the at least 3 times due by Wednesday 23:59:59 UTC; a player who has not offered 3 in time must accept the opponent's choice (ACWC Match negotiations)"
            ),
        }
    }
}

/// A reminder to one player, due at `at`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reminder {
    pub to: Player,
    pub at: Ts,
    pub why: ReminderWhy,
}

/// ACWC Match negotiations ("preferably within 24 hours"): `by` answered the offer made at
/// `offer_at` late, at `answered_at`, or had not answered it at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LateReply {
    pub by: Player,
    pub offer_at: Ts,
    pub answered_at: Option<Ts>,
}

/// ACWC Match negotiations: what the match arbiter is given to "determine if fault lies with a
/// particular player": every accepted message, each player's offers, and the late replies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    pub events: Vec<Event>,
    pub offers: Vec<Offers>,
    /// Each player's number of offered times by Wednesday 23:59:59.
    pub by_wednesday: Vec<(Player, usize)>,
    pub late: Vec<LateReply>,
}

/// Why the match arbiter assigns the time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhyArbiter {
    /// ACWC Match negotiations: "both players fail to make 3 offers by the deadline".
    BothAtFault,
    /// ACWC Match negotiations: "both players make 3 offers but no agreement is made before the
    /// weekend": the arbiter is to find fault first ([`Event::Finding`]).
    NoAgreementByWeekend,
    /// ACWC Match negotiations: "if no player is at fault the match arbiter will assign".
    NoOneAtFault,
    /// The chooser did not choose in time (module docs).
    ChoiceLapsed { chooser: Player },
}

impl fmt::Display for WhyArbiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WhyArbiter::BothAtFault => f.write_str(
                "neither player offered 3 times by Wednesday: the match arbiter assigns a time (ACWC Match negotiations)",
            ),
            WhyArbiter::NoAgreementByWeekend => f.write_str(
                "both players offered 3 times but did not agree before the weekend: the match arbiter determines whether fault lies with one of them (ACWC Match negotiations)",
            ),
            WhyArbiter::NoOneAtFault => f.write_str(
                "the match arbiter found no player at fault and assigns a time (ACWC Match negotiations)",
            ),
            WhyArbiter::ChoiceLapsed { chooser } => write!(
                f,
                "{chooser} did not choose a time in time: the match arbiter assigns one (ACWC Match negotiations)"
            ),
        }
    }
}

/// ACWC Match negotiations: where a pairing's negotiation stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NegotiationState {
    /// The start time is settled.
    Agreed { time: Ts, how: How },
    /// Negotiating: the offers so far, who still owes offers (fewer than 3 by Wednesday), and
    /// the next reminder.
    Open {
        offers: Vec<Offers>,
        owing: Vec<Player>,
        next_reminder: Option<Reminder>,
    },
    /// "the player at fault must accept a time chosen by the opponent": `chooser` chooses by
    /// `choose_by`.
    OpponentChooses {
        chooser: Player,
        at_fault: Player,
        choose_by: Ts,
    },
    /// The match arbiter assigns the time (after finding fault, for
    /// [`WhyArbiter::NoAgreementByWeekend`]); Chancery tells them who is at fault and the facts.
    ArbiterAssigns {
        at_fault: Vec<Player>,
        why: WhyArbiter,
        facts: Facts,
    },
}

/// Why an event is refused; the refusal mail gives the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OfferRefused {
    /// Someone not in the pairing.
    NotInPairing { player: Player },
    /// Received before the log's last event (the server's order is the log's).
    OutOfOrder { at: Ts, last: Ts },
    /// ACWC Match negotiations: "as soon as their next pairing is known", not before.
    BeforePairing { published: Ts },
    /// The time is already settled.
    Settled { time: Ts },
    /// ACWC Match negotiations: "the player at fault must accept a time chosen by the
    /// opponent".
    AtFault { chooser: Player },
    /// The opponent of the player at fault chooses; they do not offer.
    ChooserChooses,
    /// The match arbiter is to assign the time.
    ForTheArbiter,
    /// A mail offering no time.
    NoTimes,
    /// A time not after the mail.
    InThePast { time: Ts },
    /// ACWC Timeline: a start leaving no room before Sunday 23:59:59.
    AfterLatestStart { time: Ts, latest: Ts },
    /// ACWC Match negotiations: "no closer than 3 hours to each other".
    TooClose { time: Ts, other: Ts },
    /// ACWC Match negotiations: "no more than 2 on a single date".
    ThirdOnADate { time: Ts },
    /// Accepting a time the opponent did not offer.
    NotOffered { time: Ts },
    /// A choice while no player is at fault.
    NoChoiceDue,
    /// A choice by the player at fault or someone else.
    NotTheChooser { chooser: Player },
    /// A chosen time giving less than [`CHOICE_NOTICE`].
    TooSoon { time: Ts, earliest: Ts },
    /// An arbiter's finding while none is due.
    NoFindingDue,
}

impl fmt::Display for OfferRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = |t: &Ts| format_gmt(*t);
        match self {
            OfferRefused::NotInPairing { player } => {
                write!(f, "{player} is not a player of this pairing")
            }
            OfferRefused::OutOfOrder { at, last } => write!(
                f,
                "received at {} but the negotiation already has a message of {}",
                g(at),
                g(last)
            ),
            OfferRefused::BeforePairing { published } => write!(
                f,
                "negotiation begins when the pairing is known, at {} (ACWC Match negotiations)",
                g(published)
            ),
            OfferRefused::Settled { time } => {
                write!(f, "the match time is already settled: {}", g(time))
            }
            OfferRefused::AtFault { chooser } => write!(
                f,
                "you did not offer 3 times by Wednesday, so you must accept the time {chooser} chooses (ACWC Match negotiations)"
            ),
            OfferRefused::ChooserChooses => f.write_str(
                "your opponent did not offer 3 times in time: choose the match time instead of offering (ACWC Match negotiations)",
            ),
            OfferRefused::ForTheArbiter => f.write_str(
                "the match arbiter assigns the time now; you may still accept one of your opponent's offered times (ACWC Match negotiations)",
            ),
            OfferRefused::NoTimes => f.write_str("the mail offers no time"),
            OfferRefused::InThePast { time } => {
                write!(f, "{} is not in the future", g(time))
            }
            OfferRefused::AfterLatestStart { time, latest } => write!(
                f,
                "{} is too late: the match must be completed by Sunday 23:59:59 UTC, so it must start by {} (ACWC Timeline)",
                g(time),
                g(latest)
            ),
            OfferRefused::TooClose { time, other } => write!(
                f,
                "{} is closer than 3 hours to your offer of {} (ACWC Match negotiations)",
                g(time),
                g(other)
            ),
            OfferRefused::ThirdOnADate { time } => {
                let (y, m, d) = date(*time);
                write!(
                    f,
                    "{} would be a third offer on {y:04}-{m:02}-{d:02}: no more than 2 on a single date (ACWC Match negotiations)",
                    g(time)
                )
            }
            OfferRefused::NotOffered { time } => write!(
                f,
                "your opponent did not offer {}: accept one of their times or make an offer (ACWC Match negotiations)",
                g(time)
            ),
            OfferRefused::NoChoiceDue => f.write_str(
                "no player is at fault, so no one chooses the time alone (ACWC Match negotiations)",
            ),
            OfferRefused::NotTheChooser { chooser } => write!(
                f,
                "{chooser} chooses the time, as the opponent of the player at fault (ACWC Match negotiations)"
            ),
            OfferRefused::TooSoon { time, earliest } => write!(
                f,
                "{} gives too little notice: choose a time from {} (ACWC Match negotiations)",
                g(time),
                g(earliest)
            ),
            OfferRefused::NoFindingDue => f.write_str(
                "the arbiter finds fault only when both players offered 3 times and did not agree before the weekend (ACWC Match negotiations)",
            ),
        }
    }
}

impl std::error::Error for OfferRefused {}

// ---------------------------------------------------------------------------------------------
// Replaying the log
// ---------------------------------------------------------------------------------------------

/// The events of `events` that [`check`] accepts, in order: a log holding a refused event (it
/// should not) is read as if it had not been appended.
fn replay<'a>(pairing: &Pairing, events: &'a [Event], week: &Week) -> Vec<&'a Event> {
    let mut valid: Vec<&Event> = Vec::new();
    for e in events {
        if check_after(pairing, &valid, week, e).is_ok() {
            valid.push(e);
        }
    }
    valid
}

fn offers_of(player: &Player, valid: &[&Event]) -> Offers {
    let times = valid
        .iter()
        .filter_map(|e| match e {
            Event::Offer { by, at, times } if by == player => Some((*at, times)),
            _ => None,
        })
        .flat_map(|(at, times)| times.iter().map(move |&time| Offered { at, time }))
        .collect();
    Offers {
        player: player.clone(),
        times,
    }
}

fn settled(valid: &[&Event]) -> Option<(Ts, How)> {
    let mut agreed = None;
    for e in valid {
        match e {
            Event::Accept { by, time, .. } => {
                agreed = agreed.or(Some((*time, How::Accepted { by: by.clone() })))
            }
            Event::Choose { by, time, .. } => {
                agreed = agreed.or(Some((*time, How::Chosen { by: by.clone() })))
            }
            Event::Assign { time, .. } => agreed = Some((*time, How::Assigned)),
            Event::Offer { .. } | Event::Finding { .. } => {}
        }
    }
    agreed
}

/// The state at `now` of the valid events `valid` (those after `now` are left out).
fn settle(pairing: &Pairing, valid: &[&Event], week: &Week, now: Ts) -> NegotiationState {
    let upto = valid.iter().take_while(|e| e.at() <= now).count();
    let log = &valid[..upto];
    if let Some((time, how)) = settled(log) {
        return NegotiationState::Agreed { time, how };
    }
    let offers: Vec<Offers> = pairing.both().iter().map(|p| offers_of(p, log)).collect();
    let short = |t: Ts| -> Vec<Player> {
        offers
            .iter()
            .filter(|o| o.count_by(t) < MIN_OFFERS)
            .map(|o| o.player.clone())
            .collect()
    };
    let open = |owing: Vec<Player>| NegotiationState::Open {
        next_reminder: schedule(pairing, log, week)
            .into_iter()
            .find(|r| r.at > now),
        offers: offers.clone(),
        owing,
    };
    if week.by_wednesday(now) {
        return open(short(now));
    }
    let at_fault = short(week.offers_by);
    let arbiter = |at_fault: Vec<Player>, why| NegotiationState::ArbiterAssigns {
        at_fault,
        why,
        facts: facts(pairing, valid, week, now),
    };
    match at_fault.as_slice() {
        [_, _, ..] => arbiter(at_fault, WhyArbiter::BothAtFault),
        [p] => chooses(pairing, p, week, now, arbiter),
        [] if !week.weekend_begun(now) => open(Vec::new()),
        [] => match finding(log) {
            None => arbiter(Vec::new(), WhyArbiter::NoAgreementByWeekend),
            Some(None) => arbiter(Vec::new(), WhyArbiter::NoOneAtFault),
            Some(Some(p)) => chooses(pairing, p, week, now, arbiter),
        },
    }
}

fn finding<'a>(log: &[&'a Event]) -> Option<Option<&'a Player>> {
    log.iter().rev().find_map(|e| match e {
        Event::Finding { at_fault, .. } => Some(at_fault.as_ref()),
        _ => None,
    })
}

/// The opponent of `at_fault` chooses, until [`latest_start`] less [`CHOICE_NOTICE`]; then the
/// arbiter assigns.
fn chooses(
    pairing: &Pairing,
    at_fault: &Player,
    week: &Week,
    now: Ts,
    arbiter: impl Fn(Vec<Player>, WhyArbiter) -> NegotiationState,
) -> NegotiationState {
    let chooser = pairing
        .opponent(at_fault)
        .cloned()
        .unwrap_or_else(|| at_fault.clone());
    let choose_by = latest_start(week).saturating_sub(CHOICE_NOTICE);
    if now > choose_by {
        return arbiter(vec![at_fault.clone()], WhyArbiter::ChoiceLapsed { chooser });
    }
    NegotiationState::OpponentChooses {
        chooser,
        at_fault: at_fault.clone(),
        choose_by,
    }
}

/// Each player's first unanswered offer from the opponent, walked through the log: the late
/// replies, and the pending offers (to, since) at the end.
fn replies(pairing: &Pairing, valid: &[&Event]) -> (Vec<LateReply>, Vec<(Player, Ts)>) {
    let mut late = Vec::new();
    let mut pending: Vec<(Player, Ts)> = Vec::new();
    for e in valid {
        let by = match e {
            Event::Offer { by, .. } | Event::Accept { by, .. } => by,
            _ => continue,
        };
        if let Some(i) = pending.iter().position(|(p, _)| p == by) {
            let (_, since) = pending.remove(i);
            if e.at() > since.saturating_add(REPLY_WITHIN) {
                late.push(LateReply {
                    by: by.clone(),
                    offer_at: since,
                    answered_at: Some(e.at()),
                });
            }
        }
        if let (Event::Offer { at, .. }, Some(opp)) = (e, pairing.opponent(by))
            && !pending.iter().any(|(p, _)| p == opp)
        {
            pending.push((opp.clone(), *at));
        }
    }
    (late, pending)
}

fn facts(pairing: &Pairing, valid: &[&Event], week: &Week, now: Ts) -> Facts {
    let upto = valid.iter().take_while(|e| e.at() <= now).count();
    let log = &valid[..upto];
    let (mut late, pending) = replies(pairing, log);
    late.extend(
        pending
            .into_iter()
            .filter(|(_, since)| now > since.saturating_add(REPLY_WITHIN))
            .map(|(by, since)| LateReply {
                by,
                offer_at: since,
                answered_at: None,
            }),
    );
    let offers: Vec<Offers> = pairing.both().iter().map(|p| offers_of(p, log)).collect();
    Facts {
        events: log.iter().map(|e| (*e).clone()).collect(),
        by_wednesday: offers
            .iter()
            .map(|o| (o.player.clone(), o.count_by(week.offers_by)))
            .collect(),
        offers,
        late,
    }
}

/// Every reminder the log calls for, past and future, in order (module docs), each sent only
/// if the negotiation is still open at its moment.
fn schedule(pairing: &Pairing, valid: &[&Event], week: &Week) -> Vec<Reminder> {
    let mut out = Vec::new();
    let wednesday = week.offers_by.saturating_add(1).saturating_sub(DAY);
    let mut moments = vec![
        week.published.saturating_add(DAY),
        week.published.saturating_add(2 * DAY),
        wednesday,
    ];
    moments.sort_unstable();
    moments.dedup();
    for m in moments {
        if m <= week.published || m > week.offers_by || !is_open(pairing, valid, week, m) {
            continue;
        }
        let log: Vec<&Event> = valid.iter().copied().filter(|e| e.at() <= m).collect();
        for p in pairing.both() {
            let offered = offers_of(p, &log).times.len();
            if offered < MIN_OFFERS {
                out.push(Reminder {
                    to: p.clone(),
                    at: m,
                    why: ReminderWhy::Offers { offered },
                });
            }
        }
    }
    out.extend(reply_reminders(pairing, valid, week));
    out.sort_by_key(|r| r.at);
    out
}

fn reply_reminders(pairing: &Pairing, valid: &[&Event], week: &Week) -> Vec<Reminder> {
    let (late, pending) = replies(pairing, valid);
    late.into_iter()
        .map(|l| (l.by, l.offer_at))
        .chain(pending)
        .map(|(to, offer_at)| Reminder {
            to,
            at: offer_at.saturating_add(REPLY_WITHIN),
            why: ReminderWhy::Reply { offer_at },
        })
        .filter(|r| is_open(pairing, valid, week, r.at))
        .collect()
}

fn is_open(pairing: &Pairing, valid: &[&Event], week: &Week, t: Ts) -> bool {
    let upto = valid.iter().take_while(|e| e.at() <= t).count();
    let log = &valid[..upto];
    if settled(log).is_some() {
        return false;
    }
    if week.by_wednesday(t) {
        return true;
    }
    let all_offered = pairing
        .both()
        .iter()
        .all(|p| offers_of(p, log).count_by(week.offers_by) >= MIN_OFFERS);
    all_offered && !week.weekend_begun(t)
}

// ---------------------------------------------------------------------------------------------
// Checking a new event
// ---------------------------------------------------------------------------------------------

/// ACWC Match negotiations: may `new` be appended to the negotiation's log `events` of the
/// round of `week`? The refusal says why.
pub fn check(
    pairing: &Pairing,
    events: &[Event],
    week: &Week,
    new: &Event,
) -> Result<(), OfferRefused> {
    let valid = replay(pairing, events, week);
    check_after(pairing, &valid, week, new)
}

fn check_after(
    pairing: &Pairing,
    valid: &[&Event],
    week: &Week,
    new: &Event,
) -> Result<(), OfferRefused> {
    let at = new.at();
    if let Some(last) = valid.last().map(|e| e.at()).filter(|&last| at < last) {
        return Err(OfferRefused::OutOfOrder { at, last });
    }
    let state = settle(pairing, valid, week, at);
    match new {
        Event::Offer { by, at, times } => {
            member(pairing, by)?;
            may_offer(&state, by)?;
            check_times(&offers_of(by, valid), *at, times, week)
        }
        Event::Accept { by, at, time } => {
            let opp = member(pairing, by)?;
            may_accept(&state, by)?;
            if !offers_of(opp, valid).times.iter().any(|o| o.time == *time) {
                return Err(OfferRefused::NotOffered { time: *time });
            }
            future(*at, *time)
        }
        Event::Choose { by, at, time } => {
            member(pairing, by)?;
            check_choice(&state, by, *at, *time, week)
        }
        Event::Assign { .. } => Ok(()),
        Event::Finding { at_fault, .. } => {
            if let Some(p) = at_fault {
                member(pairing, p)?;
            }
            match state {
                NegotiationState::ArbiterAssigns {
                    why: WhyArbiter::NoAgreementByWeekend,
                    ..
                } => Ok(()),
                _ => Err(OfferRefused::NoFindingDue),
            }
        }
    }
}

fn member<'a>(pairing: &'a Pairing, p: &Player) -> Result<&'a Player, OfferRefused> {
    pairing
        .opponent(p)
        .ok_or_else(|| OfferRefused::NotInPairing { player: p.clone() })
}

fn future(at: Ts, time: Ts) -> Result<(), OfferRefused> {
    if time <= at {
        return Err(OfferRefused::InThePast { time });
    }
    Ok(())
}

fn may_offer(state: &NegotiationState, by: &Player) -> Result<(), OfferRefused> {
    match state {
        NegotiationState::Open { .. } => Ok(()),
        NegotiationState::Agreed { time, .. } => Err(OfferRefused::Settled { time: *time }),
        NegotiationState::OpponentChooses { chooser, .. } if chooser == by => {
            Err(OfferRefused::ChooserChooses)
        }
        NegotiationState::OpponentChooses { chooser, .. } => Err(OfferRefused::AtFault {
            chooser: chooser.clone(),
        }),
        NegotiationState::ArbiterAssigns { .. } => Err(OfferRefused::ForTheArbiter),
    }
}

fn may_accept(state: &NegotiationState, by: &Player) -> Result<(), OfferRefused> {
    match state {
        NegotiationState::Agreed { time, .. } => Err(OfferRefused::Settled { time: *time }),
        NegotiationState::OpponentChooses {
            chooser, at_fault, ..
        } if at_fault == by => Err(OfferRefused::AtFault {
            chooser: chooser.clone(),
        }),
        _ => Ok(()),
    }
}

/// ACWC Match negotiations: the times of one offer against the player's earlier ones and each
/// other: in the future, by the latest start, 3 hours apart, at most 2 on a UTC date.
fn check_times(earlier: &Offers, at: Ts, times: &[Ts], week: &Week) -> Result<(), OfferRefused> {
    if week.published > at {
        return Err(OfferRefused::BeforePairing {
            published: week.published,
        });
    }
    if times.is_empty() {
        return Err(OfferRefused::NoTimes);
    }
    let latest = latest_start(week);
    let mut mine: Vec<Ts> = earlier.times.iter().map(|o| o.time).collect();
    for &time in times {
        future(at, time)?;
        if time > latest {
            return Err(OfferRefused::AfterLatestStart { time, latest });
        }
        if let Some(&other) = mine.iter().find(|&&o| (o - time).abs() < MIN_GAP) {
            return Err(OfferRefused::TooClose { time, other });
        }
        let day = time.div_euclid(DAY);
        if mine.iter().filter(|o| o.div_euclid(DAY) == day).count() >= MAX_PER_DATE {
            return Err(OfferRefused::ThirdOnADate { time });
        }
        mine.push(time);
    }
    Ok(())
}

fn check_choice(
    state: &NegotiationState,
    by: &Player,
    at: Ts,
    time: Ts,
    week: &Week,
) -> Result<(), OfferRefused> {
    match state {
        NegotiationState::OpponentChooses { chooser, .. } if chooser != by => {
            Err(OfferRefused::NotTheChooser {
                chooser: chooser.clone(),
            })
        }
        NegotiationState::OpponentChooses { .. } => {
            let earliest = at.saturating_add(CHOICE_NOTICE);
            let latest = latest_start(week);
            if time < earliest {
                Err(OfferRefused::TooSoon { time, earliest })
            } else if time > latest {
                Err(OfferRefused::AfterLatestStart { time, latest })
            } else {
                Ok(())
            }
        }
        NegotiationState::Agreed { time, .. } => Err(OfferRefused::Settled { time: *time }),
        _ => Err(OfferRefused::NoChoiceDue),
    }
}

// ---------------------------------------------------------------------------------------------
// The public readings
// ---------------------------------------------------------------------------------------------

/// ACWC Match negotiations: where the negotiation of `pairing` stands at `now`, from its log.
pub fn state(pairing: &Pairing, events: &[Event], week: &Week, now: Ts) -> NegotiationState {
    let valid = replay(pairing, events, week);
    settle(pairing, &valid, week, now)
}

/// ACWC Match negotiations ("preferably within 24 hours"; unresponsive players): the reminders
/// falling in `(from, to]`, for a server that last looked at `from`.
pub fn reminders_due(
    pairing: &Pairing,
    events: &[Event],
    week: &Week,
    from: Ts,
    to: Ts,
) -> Vec<Reminder> {
    let valid = replay(pairing, events, week);
    schedule(pairing, &valid, week)
        .into_iter()
        .filter(|r| from < r.at && r.at <= to)
        .collect()
}

/// ACWC Match negotiations: the next moment after `now` at which something is due: a reminder,
/// the end of Wednesday, the weekend, or the end of the chooser's time; None when settled or
/// waiting on the arbiter.
pub fn next_due(pairing: &Pairing, events: &[Event], week: &Week, now: Ts) -> Option<Ts> {
    match state(pairing, events, week, now) {
        NegotiationState::Open { next_reminder, .. } => [
            next_reminder.map(|r| r.at),
            Some(week.offers_by.saturating_add(1)).filter(|&t| t > now),
            Some(week.weekend).filter(|&t| t > now),
        ]
        .into_iter()
        .flatten()
        .min(),
        NegotiationState::OpponentChooses { choose_by, .. } => Some(choose_by.saturating_add(1)),
        NegotiationState::Agreed { .. } | NegotiationState::ArbiterAssigns { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::week::round_week;
    use chancery_office::time::parse_gmt;

    fn t(s: &str) -> Ts {
        parse_gmt(s).unwrap_or(0)
    }
    fn a() -> Player {
        Player::new("Alice")
    }
    fn b() -> Player {
        Player::new("Bob")
    }
    fn pairing() -> Pairing {
        Pairing { a: a(), b: b() }
    }
    /// Published Monday 2019-10-07 09:00: offers by Wednesday 2019-10-09 23:59:59, the weekend
    /// from Saturday 2019-10-12, the deadline Sunday 2019-10-13 23:59:59.
    fn week() -> Week {
        round_week(t("2019-10-07 09:00"))
    }
    fn offer(by: Player, at: &str, times: &[&str]) -> Event {
        Event::Offer {
            by,
            at: t(at),
            times: times.iter().map(|s| t(s)).collect(),
        }
    }
    fn three(by: Player, at: &str) -> Event {
        offer(
            by,
            at,
            &["2019-10-10 10:00", "2019-10-11 10:00", "2019-10-12 10:00"],
        )
    }

    #[test]
    fn acwc_match_negotiations_no_more_than_2_offers_on_a_single_date() {
        let (p, w) = (pairing(), week());
        let mail = offer(
            a(),
            "2019-10-07 10:00",
            &["2019-10-10 08:00", "2019-10-10 14:00", "2019-10-10 20:00"],
        );
        assert_eq!(
            check(&p, &[], &w, &mail),
            Err(OfferRefused::ThirdOnADate {
                time: t("2019-10-10 20:00")
            })
        );
        // Across mails: the player's earlier offers count.
        let first = offer(
            a(),
            "2019-10-07 10:00",
            &["2019-10-10 08:00", "2019-10-10 14:00"],
        );
        assert_eq!(check(&p, &[], &w, &first), Ok(()));
        let later = offer(a(), "2019-10-07 11:00", &["2019-10-10 20:00"]);
        let refused =
            check(&p, std::slice::from_ref(&first), &w, &later).expect_err("third on the 10th");
        assert!(
            refused
                .to_string()
                .contains("no more than 2 on a single date")
        );
        // The opponent's times do not count against Bob.
        let bob = offer(b(), "2019-10-07 11:00", &["2019-10-10 20:00"]);
        assert_eq!(check(&p, &[first], &w, &bob), Ok(()));
    }

    #[test]
    fn acwc_match_negotiations_offers_closer_than_3_hours_are_refused() {
        let (p, w) = (pairing(), week());
        let mail = offer(
            a(),
            "2019-10-07 10:00",
            &["2019-10-10 10:00", "2019-10-10 12:00"],
        );
        assert_eq!(
            check(&p, &[], &w, &mail),
            Err(OfferRefused::TooClose {
                time: t("2019-10-10 12:00"),
                other: t("2019-10-10 10:00"),
            })
        );
        // Across midnight too, and exactly 3 hours is allowed.
        let late = offer(
            a(),
            "2019-10-07 10:00",
            &["2019-10-10 23:00", "2019-10-11 01:00"],
        );
        assert!(matches!(
            check(&p, &[], &w, &late),
            Err(OfferRefused::TooClose { .. })
        ));
        let ok = offer(
            a(),
            "2019-10-07 10:00",
            &["2019-10-10 10:00", "2019-10-10 13:00"],
        );
        assert_eq!(check(&p, &[], &w, &ok), Ok(()));
    }

    #[test]
    fn acwc_match_negotiations_times_in_the_past_after_the_latest_start_or_before_the_pairing() {
        let (p, w) = (pairing(), week());
        let past = offer(a(), "2019-10-07 10:00", &["2019-10-07 09:30"]);
        assert!(matches!(
            check(&p, &[], &w, &past),
            Err(OfferRefused::InThePast { .. })
        ));
        // The latest start is Sunday 21:00 UTC.
        assert_eq!(latest_start(&w), t("2019-10-13 21:00"));
        let ok = offer(a(), "2019-10-07 10:00", &["2019-10-13 21:00"]);
        assert_eq!(check(&p, &[], &w, &ok), Ok(()));
        let late = offer(a(), "2019-10-07 10:00", &["2019-10-13 21:30"]);
        assert_eq!(
            check(&p, &[], &w, &late),
            Err(OfferRefused::AfterLatestStart {
                time: t("2019-10-13 21:30"),
                latest: t("2019-10-13 21:00"),
            })
        );
        let early = offer(a(), "2019-10-07 08:00", &["2019-10-10 10:00"]);
        assert!(matches!(
            check(&p, &[], &w, &early),
            Err(OfferRefused::BeforePairing { .. })
        ));
        let stranger = offer(
            Player::new("Carol"),
            "2019-10-07 10:00",
            &["2019-10-10 10:00"],
        );
        assert!(matches!(
            check(&p, &[], &w, &stranger),
            Err(OfferRefused::NotInPairing { .. })
        ));
    }

    #[test]
    fn acwc_match_negotiations_accepting_a_time_the_opponent_did_not_offer_is_refused() {
        let (p, w) = (pairing(), week());
        let log = vec![three(a(), "2019-10-07 10:00")];
        let not_offered = Event::Accept {
            by: b(),
            at: t("2019-10-07 12:00"),
            time: t("2019-10-10 11:00"),
        };
        assert_eq!(
            check(&p, &log, &w, &not_offered),
            Err(OfferRefused::NotOffered {
                time: t("2019-10-10 11:00")
            })
        );
        // Accepting one's own offer is not accepting the opponent's.
        let own = Event::Accept {
            by: a(),
            at: t("2019-10-07 12:00"),
            time: t("2019-10-10 10:00"),
        };
        assert!(matches!(
            check(&p, &log, &w, &own),
            Err(OfferRefused::NotOffered { .. })
        ));
        let accept = Event::Accept {
            by: b(),
            at: t("2019-10-07 12:00"),
            time: t("2019-10-11 10:00"),
        };
        assert_eq!(check(&p, &log, &w, &accept), Ok(()));
        let log = [log, vec![accept]].concat();
        // Agreed before Bob made 3 offers: no one is at fault, even after Wednesday.
        assert_eq!(
            state(&p, &log, &w, t("2019-10-10 00:00")),
            NegotiationState::Agreed {
                time: t("2019-10-11 10:00"),
                how: How::Accepted { by: b() }
            }
        );
        let more = offer(a(), "2019-10-07 13:00", &["2019-10-12 18:00"]);
        assert_eq!(
            check(&p, &log, &w, &more),
            Err(OfferRefused::Settled {
                time: t("2019-10-11 10:00")
            })
        );
        assert_eq!(next_due(&p, &log, &w, t("2019-10-07 13:00")), None);
    }

    #[test]
    fn acwc_match_negotiations_a_player_short_of_3_offers_by_wednesday_must_accept_the_opponents_choice()
     {
        let (p, w) = (pairing(), week());
        let log = vec![
            three(a(), "2019-10-07 10:00"),
            offer(
                b(),
                "2019-10-08 10:00",
                &["2019-10-10 18:00", "2019-10-11 18:00"],
            ),
        ];
        // Wednesday: Bob still owes offers.
        match state(&p, &log, &w, t("2019-10-09 12:00")) {
            NegotiationState::Open { owing, .. } => assert_eq!(owing, vec![b()]),
            other => panic!("open expected, got {other:?}"),
        }
        assert_eq!(
            next_due(&p, &log, &w, t("2019-10-09 12:00")),
            Some(t("2019-10-10 00:00"))
        );
        let thursday = t("2019-10-10 00:00");
        assert_eq!(
            state(&p, &log, &w, thursday),
            NegotiationState::OpponentChooses {
                chooser: a(),
                at_fault: b(),
                choose_by: t("2019-10-13 09:00"),
            }
        );
        // Bob may no longer offer or accept; Alice chooses, with 12 hours' notice.
        let bob_offers = offer(b(), "2019-10-10 08:00", &["2019-10-12 18:00"]);
        assert_eq!(
            check(&p, &log, &w, &bob_offers),
            Err(OfferRefused::AtFault { chooser: a() })
        );
        let bob_accepts = Event::Accept {
            by: b(),
            at: t("2019-10-10 08:00"),
            time: t("2019-10-12 10:00"),
        };
        assert!(matches!(
            check(&p, &log, &w, &bob_accepts),
            Err(OfferRefused::AtFault { .. })
        ));
        let bob_chooses = Event::Choose {
            by: b(),
            at: t("2019-10-10 08:00"),
            time: t("2019-10-12 15:00"),
        };
        assert!(matches!(
            check(&p, &log, &w, &bob_chooses),
            Err(OfferRefused::NotTheChooser { .. })
        ));
        let too_soon = Event::Choose {
            by: a(),
            at: t("2019-10-10 08:00"),
            time: t("2019-10-10 15:00"),
        };
        assert!(matches!(
            check(&p, &log, &w, &too_soon),
            Err(OfferRefused::TooSoon { .. })
        ));
        let choice = Event::Choose {
            by: a(),
            at: t("2019-10-10 08:00"),
            time: t("2019-10-12 15:00"),
        };
        assert_eq!(check(&p, &log, &w, &choice), Ok(()));
        let log = [log, vec![choice]].concat();
        assert_eq!(
            state(&p, &log, &w, t("2019-10-10 09:00")),
            NegotiationState::Agreed {
                time: t("2019-10-12 15:00"),
                how: How::Chosen { by: a() }
            }
        );
    }

    #[test]
    fn acwc_match_negotiations_a_choice_not_made_in_time_goes_to_the_arbiter() {
        let (p, w) = (pairing(), week());
        let log = vec![three(a(), "2019-10-07 10:00")];
        assert_eq!(
            next_due(&p, &log, &w, t("2019-10-10 00:00")),
            Some(t("2019-10-13 09:00") + 1)
        );
        match state(&p, &log, &w, t("2019-10-13 10:00")) {
            NegotiationState::ArbiterAssigns { at_fault, why, .. } => {
                assert_eq!(at_fault, vec![b()]);
                assert_eq!(why, WhyArbiter::ChoiceLapsed { chooser: a() });
            }
            other => panic!("the arbiter expected, got {other:?}"),
        }
    }

    #[test]
    fn acwc_match_negotiations_both_short_of_3_offers_the_arbiter_assigns() {
        let (p, w) = (pairing(), week());
        let log = vec![offer(a(), "2019-10-07 10:00", &["2019-10-10 18:00"])];
        match state(&p, &log, &w, t("2019-10-10 00:00")) {
            NegotiationState::ArbiterAssigns {
                at_fault,
                why,
                facts,
                ..
            } => {
                assert_eq!(at_fault, vec![a(), b()]);
                assert_eq!(why, WhyArbiter::BothAtFault);
                assert_eq!(facts.by_wednesday, vec![(a(), 1), (b(), 0)]);
            }
            other => panic!("the arbiter expected, got {other:?}"),
        }
        assert_eq!(next_due(&p, &log, &w, t("2019-10-10 00:00")), None);
        let offers = offer(b(), "2019-10-10 01:00", &["2019-10-12 18:00"]);
        assert_eq!(
            check(&p, &log, &w, &offers),
            Err(OfferRefused::ForTheArbiter)
        );
        let assign = Event::Assign {
            at: t("2019-10-10 09:00"),
            time: t("2019-10-12 17:00"),
        };
        assert_eq!(check(&p, &log, &w, &assign), Ok(()));
        let log = [log, vec![assign]].concat();
        assert_eq!(
            state(&p, &log, &w, t("2019-10-10 09:00")),
            NegotiationState::Agreed {
                time: t("2019-10-12 17:00"),
                how: How::Assigned
            }
        );
    }

    #[test]
    fn acwc_match_negotiations_no_agreement_by_the_weekend_the_arbiter_finds_fault_with_the_facts()
    {
        let (p, w) = (pairing(), week());
        let log = vec![
            three(a(), "2019-10-07 10:00"),
            // Bob answers 30 hours later: late.
            offer(
                b(),
                "2019-10-08 16:00",
                &["2019-10-10 19:00", "2019-10-11 19:00", "2019-10-12 19:00"],
            ),
            offer(a(), "2019-10-09 10:00", &["2019-10-13 14:00"]),
        ];
        // Friday: both offered 3, still open.
        assert!(matches!(
            state(&p, &log, &w, t("2019-10-11 12:00")),
            NegotiationState::Open { .. }
        ));
        assert_eq!(
            next_due(&p, &log, &w, t("2019-10-11 12:00")),
            Some(t("2019-10-12 00:00"))
        );
        let weekend = t("2019-10-12 00:00");
        let facts = match state(&p, &log, &w, weekend) {
            NegotiationState::ArbiterAssigns {
                at_fault,
                why: WhyArbiter::NoAgreementByWeekend,
                facts,
            } => {
                assert!(at_fault.is_empty());
                facts
            }
            other => panic!("the arbiter expected, got {other:?}"),
        };
        assert_eq!(facts.events, log);
        assert_eq!(facts.by_wednesday, vec![(a(), 4), (b(), 3)]);
        assert_eq!(
            facts.late,
            vec![
                LateReply {
                    by: b(),
                    offer_at: t("2019-10-07 10:00"),
                    answered_at: Some(t("2019-10-08 16:00")),
                },
                LateReply {
                    by: b(),
                    offer_at: t("2019-10-09 10:00"),
                    answered_at: None,
                },
            ]
        );
        // The arbiter finds Bob at fault: Alice chooses.
        let finding = Event::Finding {
            at: t("2019-10-12 09:00"),
            at_fault: Some(b()),
        };
        assert_eq!(check(&p, &log, &w, &finding), Ok(()));
        let with = [log.clone(), vec![finding]].concat();
        assert!(matches!(
            state(&p, &with, &w, t("2019-10-12 09:00")),
            NegotiationState::OpponentChooses { chooser, .. } if chooser == a()
        ));
        // No finding before the weekend; none at fault: the arbiter assigns.
        let early = Event::Finding {
            at: t("2019-10-11 09:00"),
            at_fault: None,
        };
        assert_eq!(check(&p, &log, &w, &early), Err(OfferRefused::NoFindingDue));
        let none = Event::Finding {
            at: t("2019-10-12 09:00"),
            at_fault: None,
        };
        let with = [log, vec![none]].concat();
        assert!(matches!(
            state(&p, &with, &w, t("2019-10-12 10:00")),
            NegotiationState::ArbiterAssigns {
                why: WhyArbiter::NoOneAtFault,
                ..
            }
        ));
    }

    #[test]
    fn acwc_match_negotiations_unanswered_offers_and_missing_offers_are_reminded() {
        let (p, w) = (pairing(), week());
        let log = vec![three(a(), "2019-10-07 10:00")];
        let due = reminders_due(&p, &log, &w, w.published, t("2019-10-10 00:00"));
        let got: Vec<(Player, Ts, ReminderWhy)> =
            due.into_iter().map(|r| (r.to, r.at, r.why)).collect();
        assert_eq!(
            got,
            vec![
                (
                    b(),
                    t("2019-10-08 09:00"),
                    ReminderWhy::Offers { offered: 0 }
                ),
                (
                    b(),
                    t("2019-10-08 10:00"),
                    ReminderWhy::Reply {
                        offer_at: t("2019-10-07 10:00")
                    }
                ),
                (
                    b(),
                    t("2019-10-09 00:00"),
                    ReminderWhy::Offers { offered: 0 }
                ),
                (
                    b(),
                    t("2019-10-09 09:00"),
                    ReminderWhy::Offers { offered: 0 }
                ),
            ]
        );
        assert_eq!(
            next_due(&p, &log, &w, t("2019-10-07 10:00")),
            Some(t("2019-10-08 09:00"))
        );
        match state(&p, &log, &w, t("2019-10-08 09:30")) {
            NegotiationState::Open { next_reminder, .. } => assert_eq!(
                next_reminder.map(|r| (r.to, r.at)),
                Some((b(), t("2019-10-08 10:00")))
            ),
            other => panic!("open expected, got {other:?}"),
        }
        // Answered in time: no reply reminder.
        let answered = [
            log,
            vec![offer(b(), "2019-10-07 20:00", &["2019-10-10 19:00"])],
        ]
        .concat();
        let due = reminders_due(&p, &answered, &w, w.published, t("2019-10-10 00:00"));
        assert!(
            due.iter()
                .all(|r| !matches!(r.why, ReminderWhy::Reply { .. }) || r.to == a())
        );
    }

    #[test]
    fn acwc_match_negotiations_refusals_say_why_in_english() {
        let r = OfferRefused::TooClose {
            time: t("2019-10-10 12:00"),
            other: t("2019-10-10 10:00"),
        };
        assert_eq!(
            r.to_string(),
            "2019-10-10 12:00 GMT is closer than 3 hours to your offer of 2019-10-10 10:00 GMT (ACWC Match negotiations)"
        );
        let r = OfferRefused::ThirdOnADate {
            time: t("2019-10-10 20:00"),
        };
        assert!(r.to_string().contains("on 2019-10-10"));
    }
}
