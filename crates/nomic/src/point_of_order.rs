//! Nomic 214's Points of Order as a pure state machine, event-sourced: the server stores the
//! raising of a point ([`Raised`]) and each later message about it ([`Event`]: a Judgement, a
//! Dispute, an opinion), and asks this module what the point's [`State`] is at a moment
//! ([`state`]), whether a new message is allowed ([`check`]) and when the clock next changes
//! the state by itself ([`next_due`]). The periods are the game's ([`Settings`]:
//! `dispute_minutes`, `opinion_minutes`, `max_open_points_of_order`).
//!
//! The rule, step by step:
//! - "The player whose allocated day preceded the current day is to be the Judge": the seat (in
//!   the order of Nomic 201, Monday first) whose day comes last strictly before the UK weekday
//!   the point was raised on, cyclically: on a Monday, Friday's player; on a Saturday or a
//!   Sunday, the last seat before that day (Friday's). The raiser may be the Judge (the rule does
//!   not exclude it), the player whose allocated day it is never is ("no player is to be Judge
//!   during his or her own turn").
//! - "If the Judge has not invoked Judgement by the end of the day, they forfeit their position
//!   ... to the player preceding them in the order of days, excluding the player who's
//!   allocated day it is": a Judge who has pronounced no Judgement by the end of the UK day they
//!   became Judge on (Nomic 106) forfeits at that moment to the seat before theirs, cyclically,
//!   skipping the player whose day begins at that moment; the new Judge has until the end of
//!   that UK day. "The same applies for the new Judge."
//! - After a Judgement, the other players may dispute it for `dispute_minutes` (60); with no
//!   dispute, the Judgement is invoked when that period ends. The first dispute counts; a later
//!   one is refused ([`PoRefused::AlreadyDisputed`]).
//! - After a dispute, the players other than the Judge give their opinion for
//!   `opinion_minutes` (60), each once (the first counts). The first agreement invokes the
//!   Judgement at once ("a single player other than the Judge agrees"); otherwise, when the
//!   period ends, the Judge is overruled.
//! - Overruled, the Judge is replaced by the seat preceding theirs in the order of Nomic 201,
//!   skipping the player whose day it is at that moment, who must judge again, by the end of
//!   that UK day (the forfeit above applies to them).
//!
//! Decisions where Nomic 214 is silent:
//! - the periods are half-open: a message at exactly the period's end is too late, and the
//!   Judgement is invoked (or the Judge overruled) at that moment;
//! - a dispute with no opinion at all overrules: the disputer's dispute stands as a
//!   disagreement, so "all the other players who expressed an opinion ... unanimously
//!   disagreed";
//! - the disputer may give an opinion too, and may even agree (and so invoke the Judgement);
//!   the raiser may dispute;
//! - when no other player may take a Judge's place (a game of one seat, or every other seat is
//!   excluded), the point stays with its Judge, who becomes Judge again until the end of the
//!   next UK day (a [`Step::BecameJudge`] of the same player);
//! - a Judge is never the player whose day it is at the moment they are chosen; a Judge whose
//!   own day begins while they are judging keeps the point (the rule forbids the choice, and
//!   the forfeit at the end of the day chooses again);
//! - Nomic 201 voids every message of the voting thread posted on a Saturday or Sunday, and
//!   Nomic 214's messages are posted there: a Point of Order, Judgement, Dispute or opinion
//!   posted on a weekend (UK time) is refused ([`PoRefused::Weekend`]). The forfeits still fall
//!   at the end of each day, weekend days included (Nomic 214 has no exception), so a point
//!   unjudged on Friday passes from Judge to Judge over the weekend;
//! - the rules know no end to forfeits; a replay makes at most [`MAX_HANDOVERS`] changes by
//!   the clock between two messages (ten thousand days of forfeits), so it always answers;
//! - messages are taken in the order of their times (the order given for equal times); a
//!   message before the point was raised, or refused, changes nothing;
//! - "one Judge settles all questions arising from the game until the next turn is begun", the
//!   precedence over Nomic 206 and the delay of the actions under dispute are the server's: this
//!   module decides one point at a time.

use crate::Ts;
use crate::circuit::Seats;
use crate::settings::Settings;
use crate::uk_time::{Weekday, end_of_uk_day, uk_weekday};
use chancery_office::ballot::VoterId;
use std::fmt;

/// Nomic 214: a Point of Order, as raised ("Point of Order:" followed by a description of the
/// statement to be judged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raised {
    /// The point's number, for reference ("This must reference the original Point of Order").
    pub number: u32,
    pub by: VoterId,
    pub at: Ts,
    pub question: String,
    /// The proposal the question names, if any ([`concerns_in`]): Nomic 214 delays a proposal
    /// involved in a dispute until the Judgement is invoked.
    pub concerns: Option<u32>,
}

impl Raised {
    /// Nomic 214: a point raised, the proposal it concerns read from its question.
    pub fn new(number: u32, by: VoterId, at: Ts, question: &str) -> Raised {
        Raised {
            number,
            by,
            at,
            question: question.trim().to_string(),
            concerns: concerns_in(question),
        }
    }
}

/// Nomic 109, 214: the first proposal number (301 or more, Nomic 109) a question names, as
/// `proposal 305`, `305` or `#305`; none if it names none.
pub fn concerns_in(question: &str) -> Option<u32> {
    question
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty() && w.len() <= 9)
        .filter_map(|w| w.parse::<u32>().ok())
        .find(|&n| n >= 301)
}

/// Nomic 214: a message about a Point of Order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// "Judgement:" followed by the Judge's decision.
    Judgement { by: VoterId, at: Ts, text: String },
    /// "Dispute:" followed by a reference to the Judgement.
    Dispute { by: VoterId, at: Ts },
    /// "I agree with Judgement..." (`agree`) or "I disagree with Judgement...".
    Opinion { by: VoterId, at: Ts, agree: bool },
}

impl Event {
    pub fn by(&self) -> &VoterId {
        match self {
            Event::Judgement { by, .. } | Event::Dispute { by, .. } | Event::Opinion { by, .. } => {
                by
            }
        }
    }

    pub fn at(&self) -> Ts {
        match self {
            Event::Judgement { at, .. } | Event::Dispute { at, .. } | Event::Opinion { at, .. } => {
                *at
            }
        }
    }
}

/// Nomic 214: where a Point of Order stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// The Judge has until `until` (the end of the UK day) to pronounce.
    AwaitingJudgement { judge: VoterId, until: Ts },
    /// Pronounced at `at`; the other players may dispute it until `dispute_until`.
    Judged {
        judge: VoterId,
        at: Ts,
        text: String,
        dispute_until: Ts,
    },
    /// Disputed; the players other than the Judge give their opinion until `opinions_until`.
    Disputed {
        judge: VoterId,
        text: String,
        disputed_by: VoterId,
        opinions_until: Ts,
        /// The opinions counted so far (each player's first): all disagreements, or the
        /// Judgement would be invoked.
        opinions: Vec<(VoterId, bool)>,
    },
    /// "This process is called invoking Judgment": the decision came into effect at `at`.
    Invoked {
        judge: VoterId,
        at: Ts,
        text: String,
    },
}

/// Nomic 214: what happened to a Point of Order, for the server to tell the players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `judge` is the Judge from `at`, and must pronounce before `until`.
    BecameJudge { judge: VoterId, at: Ts, until: Ts },
    /// `judge` pronounced a Judgement.
    Judged { judge: VoterId, at: Ts },
    /// `by` disputed the Judgement.
    Disputed { by: VoterId, at: Ts },
    /// `judge` had not pronounced by the end of the day and forfeits.
    Forfeited { judge: VoterId, at: Ts },
    /// `judge`'s Judgement was overruled.
    Overruled { judge: VoterId, at: Ts },
    /// `judge`'s Judgement was invoked.
    Invoked { judge: VoterId, at: Ts },
}

/// Why a message about a Point of Order is refused (and changes nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoRefused {
    /// Nomic 214: only the Judge pronounces.
    NotTheJudge { judge: VoterId },
    /// Nomic 214: the Judge has pronounced; the Judgement may be disputed.
    AlreadyJudged,
    /// Nomic 214: there is no Judgement yet.
    NoJudgementToDispute,
    /// Nomic 214: the period for disputes after the Judgement is over.
    DisputeWindowOver { minutes: u32 },
    /// Nomic 214: the Judgement is disputed already.
    AlreadyDisputed,
    /// Nomic 214: "any of the other players may dispute the decision".
    JudgeMayNotDispute,
    /// Nomic 214: "Players other than the Judge" give their opinion.
    JudgeMayNotGiveOpinion,
    /// Nomic 214: opinions follow a dispute.
    NoDisputeForOpinion,
    /// Nomic 214: the period for opinions after the dispute is over.
    OpinionWindowOver { minutes: u32 },
    /// Nomic 214: the Judgement was invoked.
    AlreadySettled,
    /// Nomic 214: each player gives one opinion.
    AlreadyGaveOpinion,
    /// Nomic 214: "No player may have more than three active points of order at any one time."
    TooManyOpen { max: u32 },
    /// Nomic 214: "A point of order may not be raised against a proposed rule-change for which
    /// voting has been completed but the rule-change has not yet come into effect."
    AgainstPendingProposal { number: u32 },
    /// Nomic 201: a message of the voting thread on a Saturday or Sunday is void.
    Weekend { day: Weekday },
    /// A message from before the point was raised.
    BeforeRaised,
}

impl fmt::Display for PoRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoRefused::NotTheJudge { judge } => write!(
                f,
                "only the Judge of this Point of Order, {judge}, may pronounce Judgement on it (Nomic 214)"
            ),
            PoRefused::AlreadyJudged => f.write_str(
                "the Judge has already pronounced Judgement on this Point of Order; it may now be disputed (Nomic 214)",
            ),
            PoRefused::NoJudgementToDispute => f.write_str(
                "there is no Judgement on this Point of Order to dispute yet (Nomic 214)",
            ),
            PoRefused::DisputeWindowOver { minutes } => write!(
                f,
                "a Judgement may be disputed only within {minutes} minutes of its pronouncement, and they are over (Nomic 214)"
            ),
            PoRefused::AlreadyDisputed => f.write_str(
                "this Judgement is disputed already; say \"I agree with Judgement\" or \"I disagree with Judgement\" instead (Nomic 214)",
            ),
            PoRefused::JudgeMayNotDispute => f.write_str(
                "the Judge may not dispute their own Judgement: only the other players may (Nomic 214)",
            ),
            PoRefused::JudgeMayNotGiveOpinion => f.write_str(
                "the Judge may not agree or disagree with their own Judgement: only the other players may (Nomic 214)",
            ),
            PoRefused::NoDisputeForOpinion => f.write_str(
                "this Judgement is not disputed, so there is nothing to agree or disagree with (Nomic 214)",
            ),
            PoRefused::OpinionWindowOver { minutes } => write!(
                f,
                "opinions on a disputed Judgement are given within {minutes} minutes of the dispute, and they are over (Nomic 214)"
            ),
            PoRefused::AlreadySettled => f.write_str(
                "the Judgement on this Point of Order has been invoked: it is settled (Nomic 214)",
            ),
            PoRefused::AlreadyGaveOpinion => f.write_str(
                "you have given your opinion on this Judgement already; the first counts (Nomic 214)",
            ),
            PoRefused::TooManyOpen { max } => write!(
                f,
                "no player may have more than {max} active Points of Order at any one time (Nomic 214)"
            ),
            PoRefused::AgainstPendingProposal { number } => write!(
                f,
                "the vote on proposal {number} is complete and it has not yet come into effect: no Point of Order may be raised against it (Nomic 214)"
            ),
            PoRefused::Weekend { day } => write!(
                f,
                "messages on a Saturday or Sunday are void, and it is {day} (Nomic 201, 214)"
            ),
            PoRefused::BeforeRaised => {
                f.write_str("that message is older than the Point of Order (Nomic 214)")
            }
        }
    }
}

impl std::error::Error for PoRefused {}

/// Nomic 214: may a player with `open_by_raiser` active (raised, not invoked) Points of Order
/// raise another? At most the game's `max_open_points_of_order` (3).
pub fn check_raise(open_by_raiser: usize, s: &Settings) -> Result<(), PoRefused> {
    let max = s.max_open_points_of_order;
    if open_by_raiser >= usize::try_from(max).unwrap_or(usize::MAX) {
        Err(PoRefused::TooManyOpen { max })
    } else {
        Ok(())
    }
}

/// Nomic 214: a point that concerns a proposal whose vote is complete and which has not yet
/// come into effect (`pending`) may not be raised.
pub fn check_raise_against_pending(
    concerns: Option<u32>,
    pending: &[u32],
) -> Result<(), PoRefused> {
    match concerns {
        Some(number) if pending.contains(&number) => {
            Err(PoRefused::AgainstPendingProposal { number })
        }
        _ => Ok(()),
    }
}

/// Nomic 201, 214: a Point of Order (or any message about one) posted at `at` is void on a
/// Saturday or Sunday, UK time.
pub fn check_day(at: Ts) -> Result<(), PoRefused> {
    let day = uk_weekday(at);
    if day.is_weekend() {
        Err(PoRefused::Weekend { day })
    } else {
        Ok(())
    }
}

/// The weekday `back` days before `day`.
fn days_before(day: Weekday, back: i64) -> Weekday {
    // Weekday::of_days(d) has index (d + 3) mod 7.
    Weekday::of_days(day.index() - back - 3)
}

/// The first seat strictly before `day`, going back cyclically up to six days, whose player is
/// neither `skip` (the player whose day it is) nor `not` (the Judge being replaced).
fn seat_before(
    seats: &Seats,
    day: Weekday,
    skip: Option<&VoterId>,
    not: Option<&VoterId>,
) -> Option<VoterId> {
    (1..7)
        .filter_map(|back| seats.player_on(days_before(day, back)))
        .find(|p| Some(*p) != skip && Some(*p) != not)
        .cloned()
}

/// Nomic 214: "The player whose allocated day preceded the current day is to be the Judge", for
/// a point raised at `at`: the last seat before that UK weekday, cyclically, never the player
/// whose day it is; in a game of one seat, its player. None only for no seat at all.
pub fn judge_when_raised(seats: &Seats, at: Ts) -> Option<VoterId> {
    let today = uk_weekday(at);
    seat_before(seats, today, seats.player_on(today), None)
        .or_else(|| seats.seats().first().map(|s| s.player.clone()))
}

/// Nomic 214: who takes the place of `judge` (forfeited or overruled) at `at`: the player
/// preceding them in the order of days, excluding the player whose day it is; none if no one
/// else may.
pub fn successor(seats: &Seats, judge: &VoterId, at: Ts) -> Option<VoterId> {
    let today = uk_weekday(at);
    let day = seats.day_of(judge)?;
    seat_before(seats, day, seats.player_on(today), Some(judge))
}

/// The most changes one replay makes by the clock alone between two messages: a point left
/// unjudged for ten thousand days (27 years) stops being handed on there (decision: the rules
/// know no end to forfeits, the server needs its answer).
pub const MAX_HANDOVERS: usize = 10_000;

/// The replay: the state and what happened.
struct Replay<'a> {
    seats: &'a Seats,
    s: &'a Settings,
    state: State,
    steps: Vec<Step>,
}

/// `at` plus `minutes`, saturating.
fn after(at: Ts, minutes: u32) -> Ts {
    at.saturating_add(i64::from(minutes).saturating_mul(60))
}

impl Replay<'_> {
    /// A new Judge (or the same one again, when no one else may) at `at`, until the end of
    /// that UK day.
    fn hand_over(&mut self, judge: &VoterId, at: Ts) {
        let next = successor(self.seats, judge, at).unwrap_or_else(|| judge.clone());
        let until = end_of_uk_day(at);
        self.steps.push(Step::BecameJudge {
            judge: next.clone(),
            at,
            until,
        });
        self.state = State::AwaitingJudgement { judge: next, until };
    }

    /// Nomic 214: the changes the clock alone makes up to `t` (inclusive): forfeits, an
    /// undisputed Judgement invoked, a disputed one overruled. At most [`MAX_HANDOVERS`] at a
    /// time, so a moment far in the future cannot keep the replay running.
    fn advance(&mut self, t: Ts) {
        for _ in 0..MAX_HANDOVERS {
            match self.state.clone() {
                State::AwaitingJudgement { judge, until } if until <= t => {
                    if end_of_uk_day(until) <= until {
                        return; // the end of time: no later day to hand the point on to
                    }
                    if successor(self.seats, &judge, until).is_some() {
                        self.steps.push(Step::Forfeited {
                            judge: judge.clone(),
                            at: until,
                        });
                    }
                    self.hand_over(&judge, until);
                }
                State::Judged {
                    judge,
                    text,
                    dispute_until,
                    ..
                } if dispute_until <= t => {
                    self.invoke(judge, dispute_until, text);
                }
                State::Disputed {
                    judge,
                    opinions_until,
                    ..
                } if opinions_until <= t => {
                    self.steps.push(Step::Overruled {
                        judge: judge.clone(),
                        at: opinions_until,
                    });
                    self.hand_over(&judge, opinions_until);
                }
                _ => return,
            }
        }
    }

    fn invoke(&mut self, judge: VoterId, at: Ts, text: String) {
        self.steps.push(Step::Invoked {
            judge: judge.clone(),
            at,
        });
        self.state = State::Invoked { judge, at, text };
    }

    /// Nomic 214: a period that ended before the message (checked before the clock moves on,
    /// so the refusal names the period rather than what followed it).
    fn window_over(&self, ev: &Event) -> Option<PoRefused> {
        match (&self.state, ev) {
            (State::Judged { dispute_until, .. }, Event::Dispute { at, .. })
                if at >= dispute_until =>
            {
                Some(PoRefused::DisputeWindowOver {
                    minutes: self.s.dispute_minutes,
                })
            }
            (State::Disputed { opinions_until, .. }, Event::Opinion { at, .. })
                if at >= opinions_until =>
            {
                Some(PoRefused::OpinionWindowOver {
                    minutes: self.s.opinion_minutes,
                })
            }
            _ => None,
        }
    }

    /// Nomic 214: is `ev` allowed in the state as it stands at its moment?
    fn allowed(&self, ev: &Event) -> Result<(), PoRefused> {
        let by = ev.by();
        match (&self.state, ev) {
            (State::Invoked { .. }, _) => Err(PoRefused::AlreadySettled),
            (State::AwaitingJudgement { judge, .. }, Event::Judgement { .. }) => {
                if by == judge {
                    Ok(())
                } else {
                    Err(PoRefused::NotTheJudge {
                        judge: judge.clone(),
                    })
                }
            }
            (State::AwaitingJudgement { .. }, Event::Dispute { .. }) => {
                Err(PoRefused::NoJudgementToDispute)
            }
            (State::AwaitingJudgement { .. } | State::Judged { .. }, Event::Opinion { .. }) => {
                Err(PoRefused::NoDisputeForOpinion)
            }
            (State::Judged { .. } | State::Disputed { .. }, Event::Judgement { .. }) => {
                Err(PoRefused::AlreadyJudged)
            }
            (State::Judged { judge, .. }, Event::Dispute { .. }) if by == judge => {
                Err(PoRefused::JudgeMayNotDispute)
            }
            (State::Judged { .. }, Event::Dispute { .. }) => Ok(()),
            (State::Disputed { .. }, Event::Dispute { .. }) => Err(PoRefused::AlreadyDisputed),
            (State::Disputed { judge, .. }, Event::Opinion { .. }) if by == judge => {
                Err(PoRefused::JudgeMayNotGiveOpinion)
            }
            (State::Disputed { opinions, .. }, Event::Opinion { .. }) => {
                if opinions.iter().any(|(p, _)| p == by) {
                    Err(PoRefused::AlreadyGaveOpinion)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Nomic 214: an allowed message's effect.
    fn apply(&mut self, ev: &Event) {
        match (self.state.clone(), ev) {
            (State::AwaitingJudgement { judge, .. }, Event::Judgement { at, text, .. }) => {
                self.steps.push(Step::Judged {
                    judge: judge.clone(),
                    at: *at,
                });
                self.state = State::Judged {
                    judge,
                    at: *at,
                    text: text.clone(),
                    dispute_until: after(*at, self.s.dispute_minutes),
                };
            }
            (State::Judged { judge, text, .. }, Event::Dispute { by, at }) => {
                self.steps.push(Step::Disputed {
                    by: by.clone(),
                    at: *at,
                });
                self.state = State::Disputed {
                    judge,
                    text,
                    disputed_by: by.clone(),
                    opinions_until: after(*at, self.s.opinion_minutes),
                    opinions: Vec::new(),
                };
            }
            (
                State::Disputed { judge, text, .. },
                Event::Opinion {
                    at, agree: true, ..
                },
            ) => {
                self.invoke(judge, *at, text);
            }
            (State::Disputed { .. }, Event::Opinion { by, agree, .. }) => {
                if let State::Disputed { opinions, .. } = &mut self.state {
                    opinions.push((by.clone(), *agree));
                }
            }
            _ => {}
        }
    }

    /// One message, at its moment: refused (nothing changes but the clock) or applied.
    fn message(&mut self, ev: &Event) -> Result<(), PoRefused> {
        let over = self.window_over(ev);
        self.advance(ev.at());
        if let Some(refused) = over {
            return Err(refused);
        }
        check_day(ev.at())?;
        self.allowed(ev)?;
        self.apply(ev);
        Ok(())
    }
}

/// The point's replay from its raising through the messages up to `upto` (inclusive), in time
/// order; the clock not yet moved past the last message.
fn replay<'a>(
    p: &Raised,
    events: &[Event],
    seats: &'a Seats,
    s: &'a Settings,
    upto: Ts,
) -> Replay<'a> {
    let judge = judge_when_raised(seats, p.at).unwrap_or_else(|| p.by.clone());
    let until = end_of_uk_day(p.at);
    let mut r = Replay {
        seats,
        s,
        state: State::AwaitingJudgement {
            judge: judge.clone(),
            until,
        },
        steps: vec![Step::BecameJudge {
            judge,
            at: p.at,
            until,
        }],
    };
    let mut ordered: Vec<&Event> = events
        .iter()
        .filter(|e| e.at() >= p.at && e.at() <= upto)
        .collect();
    ordered.sort_by_key(|e| e.at());
    for ev in ordered {
        // A refused message changes nothing; `check` tells its sender why.
        let _ = r.message(ev);
    }
    r
}

/// Nomic 214: the point's state at `now` and what happened to it, replaying the messages in
/// time order (those after `now`, and those refused, ignored).
pub fn state(
    p: &Raised,
    events: &[Event],
    seats: &Seats,
    s: &Settings,
    now: Ts,
) -> (State, Vec<Step>) {
    let mut r = replay(p, events, seats, s, now);
    r.advance(now);
    (r.state, r.steps)
}

/// Nomic 201, 214: is `new` allowed after `events` (those up to its moment)? Why not, if not.
pub fn check(
    p: &Raised,
    events: &[Event],
    seats: &Seats,
    s: &Settings,
    new: &Event,
) -> Result<(), PoRefused> {
    if new.at() < p.at {
        return Err(PoRefused::BeforeRaised);
    }
    let mut r = replay(p, events, seats, s, new.at());
    r.message(new)
}

/// Nomic 214: the next moment after `now` the point's state changes by the clock alone (a
/// forfeit, the end of the period for disputes or for opinions); none once invoked.
pub fn next_due(p: &Raised, events: &[Event], seats: &Seats, s: &Settings, now: Ts) -> Option<Ts> {
    match state(p, events, seats, s, now).0 {
        State::AwaitingJudgement { until, .. } => Some(until),
        State::Judged { dispute_until, .. } => Some(dispute_until),
        State::Disputed { opinions_until, .. } => Some(opinions_until),
        State::Invoked { .. } => None,
    }
}

/// Nomic 214: is the point active (raised and not yet invoked) at `now`? For
/// [`check_raise`]'s count.
pub fn is_active(p: &Raised, events: &[Event], seats: &Seats, s: &Settings, now: Ts) -> bool {
    !matches!(state(p, events, seats, s, now).0, State::Invoked { .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::Seat;
    use crate::circuit::tests::{gmt, seats_2019};
    use crate::grammar::Parameter;

    const S: Settings = Settings::nomic2019();

    fn v(s: &str) -> VoterId {
        VoterId::new(s)
    }

    /// Point 1, raised by Chris B at `at`.
    fn raised(at: &str) -> Raised {
        Raised::new(1, v("Chris B"), gmt(at), "Was proposal 305 proper?")
    }

    fn judgement(by: &str, at: &str) -> Event {
        Event::Judgement {
            by: v(by),
            at: gmt(at),
            text: "It was.".into(),
        }
    }

    fn dispute(by: &str, at: &str) -> Event {
        Event::Dispute {
            by: v(by),
            at: gmt(at),
        }
    }

    fn opinion(by: &str, at: &str, agree: bool) -> Event {
        Event::Opinion {
            by: v(by),
            at: gmt(at),
            agree,
        }
    }

    fn state_at(p: &Raised, events: &[Event], now: &str) -> State {
        state(p, events, &seats_2019(), &S, gmt(now)).0
    }

    // 2019-02-11 is a Monday: Chris B's day; 12 Dave M's, 13 Ben P's, 14 Alex T's, 15 Alex W's.

    #[test]
    fn nomic_214_the_judge_is_the_player_whose_day_preceded_the_current_day() {
        let seats = seats_2019();
        let judge = |at| judge_when_raised(&seats, gmt(at));
        assert_eq!(judge("2019-02-13 10:00"), Some(v("Dave M")), "Wednesday");
        assert_eq!(judge("2019-02-12 10:00"), Some(v("Chris B")), "Tuesday");
        assert_eq!(
            judge("2019-02-11 10:00"),
            Some(v("Alex W")),
            "Monday: Friday's"
        );
        assert_eq!(judge("2019-02-16 10:00"), Some(v("Alex W")), "Saturday");
        assert_eq!(judge("2019-02-17 10:00"), Some(v("Alex W")), "Sunday");
        // The raiser may be the Judge.
        let p = Raised::new(1, v("Dave M"), gmt("2019-02-13 10:00"), "x");
        assert_eq!(
            state(&p, &[], &seats, &S, p.at).0,
            State::AwaitingJudgement {
                judge: v("Dave M"),
                until: gmt("2019-02-14 00:00")
            }
        );
        // One seat only: its player judges, even on their own day.
        let one = Seats::new([Seat {
            player: v("Solo"),
            day: Weekday::Monday,
        }])
        .expect("a seat");
        assert_eq!(
            judge_when_raised(&one, gmt("2019-02-11 10:00")),
            Some(v("Solo"))
        );
    }

    #[test]
    fn nomic_214_a_judgement_not_disputed_is_invoked_after_60_minutes() {
        let p = raised("2019-02-13 10:00");
        let events = [judgement("Dave M", "2019-02-13 11:00")];
        assert_eq!(
            state_at(&p, &events, "2019-02-13 11:59"),
            State::Judged {
                judge: v("Dave M"),
                at: gmt("2019-02-13 11:00"),
                text: "It was.".into(),
                dispute_until: gmt("2019-02-13 12:00")
            }
        );
        let (st, steps) = state(&p, &events, &seats_2019(), &S, gmt("2019-02-13 12:00"));
        assert_eq!(
            st,
            State::Invoked {
                judge: v("Dave M"),
                at: gmt("2019-02-13 12:00"),
                text: "It was.".into()
            }
        );
        assert_eq!(
            steps,
            vec![
                Step::BecameJudge {
                    judge: v("Dave M"),
                    at: gmt("2019-02-13 10:00"),
                    until: gmt("2019-02-14 00:00")
                },
                Step::Judged {
                    judge: v("Dave M"),
                    at: gmt("2019-02-13 11:00")
                },
                Step::Invoked {
                    judge: v("Dave M"),
                    at: gmt("2019-02-13 12:00")
                },
            ]
        );
        assert_eq!(p.concerns, Some(305));
    }

    #[test]
    fn nomic_214_dispute_minutes_set_to_30_invoke_after_30() {
        let p = raised("2019-02-13 10:00");
        let events = [judgement("Dave M", "2019-02-13 11:00")];
        let mut s = S;
        s.set(Parameter::DisputeMinutes, 30).expect("ok");
        let seats = seats_2019();
        assert!(matches!(
            state(&p, &events, &seats, &s, gmt("2019-02-13 11:30")).0,
            State::Invoked { at, .. } if at == gmt("2019-02-13 11:30")
        ));
        assert!(matches!(
            state(&p, &events, &seats, &S, gmt("2019-02-13 11:30")).0,
            State::Judged { .. }
        ));
        // A dispute at 11:45 is too late under 30 minutes, in time under 60.
        let late = dispute("Ben P", "2019-02-13 11:45");
        assert_eq!(
            check(&p, &events, &seats, &s, &late),
            Err(PoRefused::DisputeWindowOver { minutes: 30 })
        );
        assert_eq!(check(&p, &events, &seats, &S, &late), Ok(()));
    }

    #[test]
    fn nomic_214_a_dispute_with_one_agreement_invokes_at_that_moment() {
        let p = raised("2019-02-13 10:00");
        let events = [
            judgement("Dave M", "2019-02-13 11:00"),
            dispute("Chris B", "2019-02-13 11:30"),
            opinion("Ben P", "2019-02-13 11:40", false),
            opinion("Alex T", "2019-02-13 12:00", true),
        ];
        assert_eq!(
            state_at(&p, &events, "2019-02-13 11:50"),
            State::Disputed {
                judge: v("Dave M"),
                text: "It was.".into(),
                disputed_by: v("Chris B"),
                opinions_until: gmt("2019-02-13 12:30"),
                opinions: vec![(v("Ben P"), false)]
            }
        );
        assert_eq!(
            state_at(&p, &events, "2019-02-13 12:00"),
            State::Invoked {
                judge: v("Dave M"),
                at: gmt("2019-02-13 12:00"),
                text: "It was.".into()
            }
        );
    }

    #[test]
    fn nomic_214_only_disagreements_overrule_and_pass_to_the_player_before_skipping_todays() {
        // Seats Monday A, Tuesday B, Wednesday C; raised on Wednesday: the Judge is B.
        let seat = |p: &str, day| Seat { player: v(p), day };
        let seats = Seats::new([
            seat("A", Weekday::Monday),
            seat("B", Weekday::Tuesday),
            seat("C", Weekday::Wednesday),
        ])
        .expect("seats");
        let p = Raised::new(1, v("C"), gmt("2019-02-13 09:00"), "x");
        let events = [
            judgement("B", "2019-02-13 09:10"),
            dispute("C", "2019-02-13 09:20"),
            opinion("A", "2019-02-13 09:30", false),
            // Overruled at 10:20: A (Monday's), the player before B, judges.
            judgement("A", "2019-02-13 10:30"),
            dispute("B", "2019-02-13 10:40"),
            // No opinion: the dispute stands, A is overruled at 11:40. Before A is C, whose
            // day it is: skipped, B judges again.
        ];
        let (st, steps) = state(&p, &events, &seats, &S, gmt("2019-02-13 11:40"));
        assert_eq!(
            st,
            State::AwaitingJudgement {
                judge: v("B"),
                until: gmt("2019-02-14 00:00")
            }
        );
        assert!(steps.contains(&Step::Overruled {
            judge: v("B"),
            at: gmt("2019-02-13 10:20")
        }));
        assert!(steps.contains(&Step::BecameJudge {
            judge: v("A"),
            at: gmt("2019-02-13 10:20"),
            until: gmt("2019-02-14 00:00")
        }));
        assert_eq!(
            steps.last(),
            Some(&Step::BecameJudge {
                judge: v("B"),
                at: gmt("2019-02-13 11:40"),
                until: gmt("2019-02-14 00:00")
            })
        );
        // With the 2019 seats, an overruled Dave M passes to Chris B.
        let p = raised("2019-02-13 10:00");
        let events = [
            judgement("Dave M", "2019-02-13 11:00"),
            dispute("Ben P", "2019-02-13 11:10"),
            opinion("Alex W", "2019-02-13 11:20", false),
        ];
        assert_eq!(
            state_at(&p, &events, "2019-02-13 12:10"),
            State::AwaitingJudgement {
                judge: v("Chris B"),
                until: gmt("2019-02-14 00:00")
            }
        );
    }

    #[test]
    fn nomic_214_opinion_minutes_set_to_90_keep_the_dispute_open_longer() {
        let p = raised("2019-02-13 10:00");
        let events = [
            judgement("Dave M", "2019-02-13 11:00"),
            dispute("Ben P", "2019-02-13 11:10"),
            opinion("Alex W", "2019-02-13 12:20", true),
        ];
        let mut s = S;
        s.set(Parameter::OpinionMinutes, 90).expect("ok");
        let seats = seats_2019();
        assert!(matches!(
            state(&p, &events, &seats, &s, gmt("2019-02-13 12:30")).0,
            State::Invoked { .. }
        ));
        // Under 60 minutes the agreement came too late: overruled at 12:10.
        assert!(matches!(
            state(&p, &events, &seats, &S, gmt("2019-02-13 12:30")).0,
            State::AwaitingJudgement { judge, .. } if judge == v("Chris B")
        ));
        assert_eq!(
            check(&p, &events[..2], &seats, &S, &events[2]),
            Err(PoRefused::OpinionWindowOver { minutes: 60 })
        );
    }

    #[test]
    fn nomic_214_a_judge_who_has_not_pronounced_by_the_end_of_the_day_forfeits() {
        // Raised on Tuesday: Chris B judges until Wednesday 00:00.
        let p = raised("2019-02-12 10:00");
        assert_eq!(
            state_at(&p, &[], "2019-02-12 23:59"),
            State::AwaitingJudgement {
                judge: v("Chris B"),
                until: gmt("2019-02-13 00:00")
            }
        );
        // Then Alex W (before Monday, cyclically) until Thursday 00:00.
        assert_eq!(
            state_at(&p, &[], "2019-02-13 00:00"),
            State::AwaitingJudgement {
                judge: v("Alex W"),
                until: gmt("2019-02-14 00:00")
            }
        );
        // At Thursday 00:00 the player before Alex W is Alex T, whose day it is: Ben P.
        let (st, steps) = state(&p, &[], &seats_2019(), &S, gmt("2019-02-14 00:00"));
        assert_eq!(
            st,
            State::AwaitingJudgement {
                judge: v("Ben P"),
                until: gmt("2019-02-15 00:00")
            }
        );
        assert_eq!(
            steps[1..],
            [
                Step::Forfeited {
                    judge: v("Chris B"),
                    at: gmt("2019-02-13 00:00")
                },
                Step::BecameJudge {
                    judge: v("Alex W"),
                    at: gmt("2019-02-13 00:00"),
                    until: gmt("2019-02-14 00:00")
                },
                Step::Forfeited {
                    judge: v("Alex W"),
                    at: gmt("2019-02-14 00:00")
                },
                Step::BecameJudge {
                    judge: v("Ben P"),
                    at: gmt("2019-02-14 00:00"),
                    until: gmt("2019-02-15 00:00")
                },
            ]
        );
        // The forfeited Judge's late Judgement is refused; the new Judge's is taken.
        let seats = seats_2019();
        let late = judgement("Chris B", "2019-02-13 09:00");
        assert_eq!(
            check(&p, &[], &seats, &S, &late),
            Err(PoRefused::NotTheJudge { judge: v("Alex W") })
        );
        assert_eq!(
            check(
                &p,
                &[],
                &seats,
                &S,
                &judgement("Alex W", "2019-02-13 09:00")
            ),
            Ok(())
        );
    }

    #[test]
    fn nomic_214_a_fourth_open_point_is_refused() {
        assert_eq!(check_raise(2, &S), Ok(()));
        assert_eq!(check_raise(3, &S), Err(PoRefused::TooManyOpen { max: 3 }));
        assert!(
            check_raise(3, &S)
                .is_err_and(|e| e.to_string().contains("more than 3 active Points of Order"))
        );
        let mut s = S;
        s.set(Parameter::MaxOpenPointsOfOrder, 4).expect("ok");
        assert_eq!(check_raise(3, &s), Ok(()));
        // Active: raised and not invoked.
        let p = raised("2019-02-13 10:00");
        let events = [judgement("Dave M", "2019-02-13 11:00")];
        let seats = seats_2019();
        assert!(is_active(&p, &events, &seats, &S, gmt("2019-02-13 11:59")));
        assert!(!is_active(&p, &events, &seats, &S, gmt("2019-02-13 12:00")));
    }

    #[test]
    fn nomic_214_no_point_against_a_proposal_voted_on_but_not_yet_in_effect() {
        assert_eq!(concerns_in("Was proposal 305 proper?"), Some(305));
        assert_eq!(
            concerns_in("Does 7pm in rule 202 bind 312 and 313?"),
            Some(312)
        );
        assert_eq!(concerns_in("Is #307 legal?"), Some(307));
        assert_eq!(concerns_in("Rule 214 says 10 points"), None);
        assert_eq!(concerns_in("99999999999999 digits"), None);
        assert_eq!(
            check_raise_against_pending(Some(305), &[304, 305]),
            Err(PoRefused::AgainstPendingProposal { number: 305 })
        );
        assert_eq!(check_raise_against_pending(Some(306), &[305]), Ok(()));
        assert_eq!(check_raise_against_pending(None, &[305]), Ok(()));
    }

    #[test]
    fn nomic_214_the_judge_cannot_dispute_or_give_an_opinion() {
        let p = raised("2019-02-13 10:00");
        let seats = seats_2019();
        let judged = [judgement("Dave M", "2019-02-13 11:00")];
        assert_eq!(
            check(
                &p,
                &judged,
                &seats,
                &S,
                &dispute("Dave M", "2019-02-13 11:10")
            ),
            Err(PoRefused::JudgeMayNotDispute)
        );
        let disputed = [
            judgement("Dave M", "2019-02-13 11:00"),
            dispute("Ben P", "2019-02-13 11:10"),
        ];
        assert_eq!(
            check(
                &p,
                &disputed,
                &seats,
                &S,
                &opinion("Dave M", "2019-02-13 11:20", true)
            ),
            Err(PoRefused::JudgeMayNotGiveOpinion)
        );
        // The judge's own agreement, had it been posted, changes nothing.
        let mut with = disputed.to_vec();
        with.push(opinion("Dave M", "2019-02-13 11:20", true));
        assert!(matches!(
            state_at(&p, &with, "2019-02-13 11:30"),
            State::Disputed { .. }
        ));
    }

    #[test]
    fn nomic_214_the_other_refusals() {
        let p = raised("2019-02-13 10:00");
        let seats = seats_2019();
        let c = |events: &[Event], new: Event| check(&p, events, &seats, &S, &new);
        assert_eq!(
            c(&[], judgement("Ben P", "2019-02-13 10:30")),
            Err(PoRefused::NotTheJudge { judge: v("Dave M") })
        );
        assert_eq!(
            c(&[], dispute("Ben P", "2019-02-13 10:30")),
            Err(PoRefused::NoJudgementToDispute)
        );
        assert_eq!(
            c(&[], opinion("Ben P", "2019-02-13 10:30", true)),
            Err(PoRefused::NoDisputeForOpinion)
        );
        let judged = [judgement("Dave M", "2019-02-13 11:00")];
        assert_eq!(
            c(&judged, judgement("Dave M", "2019-02-13 11:05")),
            Err(PoRefused::AlreadyJudged)
        );
        assert_eq!(
            c(&judged, dispute("Ben P", "2019-02-13 12:00")),
            Err(PoRefused::DisputeWindowOver { minutes: 60 })
        );
        assert_eq!(
            c(&judged, opinion("Ben P", "2019-02-13 12:30", true)),
            Err(PoRefused::AlreadySettled)
        );
        let disputed = [
            judgement("Dave M", "2019-02-13 11:00"),
            dispute("Ben P", "2019-02-13 11:10"),
            opinion("Alex W", "2019-02-13 11:20", false),
        ];
        assert_eq!(
            c(&disputed, dispute("Alex T", "2019-02-13 11:25")),
            Err(PoRefused::AlreadyDisputed)
        );
        assert_eq!(
            c(&disputed, opinion("Alex W", "2019-02-13 11:30", true)),
            Err(PoRefused::AlreadyGaveOpinion)
        );
        // The disputer may agree after all.
        assert_eq!(
            c(&disputed, opinion("Ben P", "2019-02-13 11:30", true)),
            Ok(())
        );
        assert_eq!(
            c(&[], judgement("Dave M", "2019-02-13 09:00")),
            Err(PoRefused::BeforeRaised)
        );
        // Nomic 201: a message on a Saturday is void.
        let friday = raised("2019-02-15 10:00");
        assert_eq!(
            check(
                &friday,
                &[],
                &seats,
                &S,
                &judgement("Alex T", "2019-02-15 23:30")
            ),
            Ok(())
        );
        assert_eq!(
            check(
                &friday,
                &[judgement("Alex T", "2019-02-15 23:30")],
                &seats,
                &S,
                &dispute("Ben P", "2019-02-16 00:10")
            ),
            Err(PoRefused::Weekend {
                day: Weekday::Saturday
            })
        );
        assert_eq!(check_day(gmt("2019-02-15 12:00")), Ok(()));
        for refused in [
            PoRefused::AlreadySettled,
            PoRefused::OpinionWindowOver { minutes: 60 },
            PoRefused::Weekend {
                day: Weekday::Sunday,
            },
        ] {
            assert!(refused.to_string().contains("214)"), "{refused}");
        }
    }

    #[test]
    fn nomic_214_events_after_now_are_ignored() {
        let p = raised("2019-02-13 10:00");
        let events = [
            judgement("Dave M", "2019-02-13 11:00"),
            dispute("Ben P", "2019-02-13 11:10"),
        ];
        assert_eq!(
            state_at(&p, &events, "2019-02-13 10:59"),
            State::AwaitingJudgement {
                judge: v("Dave M"),
                until: gmt("2019-02-14 00:00")
            }
        );
        assert!(matches!(
            state_at(&p, &events, "2019-02-13 11:05"),
            State::Judged { .. }
        ));
        // Given out of order, they are taken in time order.
        let reversed = [events[1].clone(), events[0].clone()];
        assert!(matches!(
            state_at(&p, &reversed, "2019-02-13 11:15"),
            State::Disputed { .. }
        ));
    }

    #[test]
    fn nomic_214_next_due_is_the_next_change_by_the_clock() {
        let p = raised("2019-02-13 10:00");
        let seats = seats_2019();
        let due = |events: &[Event], now| next_due(&p, events, &seats, &S, gmt(now));
        assert_eq!(due(&[], "2019-02-13 10:00"), Some(gmt("2019-02-14 00:00")));
        assert_eq!(due(&[], "2019-02-14 00:00"), Some(gmt("2019-02-15 00:00")));
        let events = [
            judgement("Dave M", "2019-02-13 11:00"),
            dispute("Ben P", "2019-02-13 11:10"),
        ];
        assert_eq!(
            due(&events, "2019-02-13 11:05"),
            Some(gmt("2019-02-13 12:00"))
        );
        assert_eq!(
            due(&events, "2019-02-13 11:10"),
            Some(gmt("2019-02-13 12:10"))
        );
        // Overruled at 12:10: Chris B until the end of the day.
        assert_eq!(
            due(&events, "2019-02-13 12:10"),
            Some(gmt("2019-02-14 00:00"))
        );
        let invoked = [judgement("Dave M", "2019-02-13 11:00")];
        assert_eq!(due(&invoked, "2019-02-13 12:00"), None);
        // Any moment, no panic and an answer.
        for now in [i64::MIN, -1, 0, i64::MAX] {
            let _ = state(&p, &events, &seats, &S, now);
        }
    }
}
