//! The ACWC office's tick step: a result reported and unanswered for 48 hours stands (ACWC
//! "Match rules", `chancery_acwc::conduct`), its match is decided and, once every match of the
//! round is, the next round is published (ACWC "Timeline"). The match-time negotiations
//! (ACWC "Match negotiations", [`super::negotiate`]): the reminders due since the last tick are
//! sent, and a turn the clock brought (Wednesday's deadline passed with a player short of 3
//! offers, the weekend without agreement, a choice not made in time) is told to both players
//! and the masters with who is at fault. Unresponsive players are reminded of a result due,
//! and a match undecided at its round's deadline is told to the TD ([`super::reminders`]).
//! Championships are few: the facts are read one
//! championship at a time.
//!
//! Told once: the championship keeps the moment through which its negotiations were told
//! (`acwc_championships.negotiation_told_through`), and each tick tells only what fell after
//! it; each reminder's and turn's Message-ID also names its moment, so one told twice (a tick
//! run again after a failed write) is refused by the outbox.

use super::mail::settle;
use super::matches::{pairing, result_event};
use super::negotiate::{self, Negotiation, Step};
use super::reminders::{self, Nudge};
use super::store::{self, Conn, GameRow, Kind, MatchRow, StageRow};
use crate::acwc::conduct::{ResultEvent, ResultState, result_state};
use crate::acwc::negotiation::{Pairing, Reminder, next_due};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::tick::{Outcome, TickStep, active_games};
use crate::store::Pool;
use crate::time::Ts;

/// The ACWC office's tick step (`games::tick_with` runs it).
pub struct Tick;

/// An undecided match of the current round, with its result's events.
pub struct Open {
    m: MatchRow,
    p: Pairing,
    events: Vec<ResultEvent>,
    /// Its round's deadline (none in the Final: "as the finalists arrange").
    deadline: Option<Ts>,
}

/// What one championship's tick needs.
pub struct Facts {
    g: GameRow,
    open: Vec<Open>,
    /// The undecided matches' negotiations.
    negotiations: Vec<Negotiation>,
    /// Through when the negotiations were told.
    told: Option<Ts>,
}

/// What the tick decided: the matches whose result now stands, the negotiations' reminders
/// and turns, and when to look again.
pub struct Decision {
    stands: Vec<usize>,
    /// Unresponsive players reminded, an overdue match told to the TD.
    nudges: Vec<(usize, Nudge)>,
    reminders: Vec<(usize, Reminder)>,
    turns: Vec<usize>,
    due: Option<Ts>,
}

impl TickStep for Tick {
    type Facts = Facts;
    type Decision = Decision;
    const KIND: Kind = Kind::Acwc;

    async fn read(&self, c: &mut Conn, games: &[String], _now: Ts) -> Result<Vec<Facts>> {
        let mut out = Vec::new();
        for g in active_games(c, games).await? {
            let mut open = Vec::new();
            let mut negotiations = Vec::new();
            let rounds = store::rounds(c, &g.id).await?;
            for m in store::all_matches(c, &g.id).await? {
                let Some(p) = pairing(&m).filter(|_| m.decided_at.is_none()) else {
                    continue;
                };
                let rows = store::match_events(c, &g.id, &m).await?;
                let round = rounds
                    .iter()
                    .find(|r| r.stage == m.stage && r.round == m.round);
                // ACWC "Match negotiations": the Swiss's matches are negotiated by mail.
                if let Some(r) = round.filter(|_| m.stage == StageRow::Swiss) {
                    negotiations.push(Negotiation::of(&m, &p, r.published_at, &rows));
                }
                let deadline = round.and_then(|r| r.deadline);
                let events = rows.iter().filter_map(result_event).collect();
                open.push(Open {
                    m,
                    p,
                    events,
                    deadline,
                });
            }
            let told = store::negotiation_told_through(c, &g.id).await?;
            out.push(Facts {
                g,
                open,
                negotiations,
                told,
            });
        }
        Ok(out)
    }

    fn names<'f>(&self, f: &'f Facts) -> (&'f str, &'f str) {
        (&f.g.id, "")
    }

    fn decide(&self, _env: &Env, f: &Facts, now: Ts, _read_through: Ts) -> Result<Decision> {
        let mut stands = Vec::new();
        let mut due: Option<Ts> = None;
        let mut nudges = Vec::new();
        let told = f.told.unwrap_or(Ts::MIN);
        for (k, o) in f.open.iter().enumerate() {
            match result_state(&o.p, &o.events, now) {
                ResultState::Final { .. } => stands.push(k),
                ResultState::Reported { stands_at, .. } => {
                    due = Some(due.map_or(stands_at, |d| d.min(stands_at)));
                }
                _ => {}
            }
            let (now_due, next) = reminders::due(&o.m, &o.p, &o.events, o.deadline, told, now);
            nudges.extend(now_due.into_iter().map(|n| (k, n)));
            if let Some(next) = next {
                due = Some(due.map_or(next, |d| d.min(next)));
            }
        }
        let (mut reminders, mut turns) = (Vec::new(), Vec::new());
        for (k, n) in f.negotiations.iter().enumerate() {
            let (due_now, turned) = negotiate::due(n, f.told.unwrap_or(Ts::MIN), now);
            reminders.extend(due_now.into_iter().map(|r| (k, r)));
            if turned {
                turns.push(k);
            }
            if let Some(next) = next_due(&n.p, &n.events, &n.week, now).filter(|_| !n.played) {
                due = Some(due.map_or(next, |d| d.min(next)));
            }
        }
        Ok(Decision {
            stands,
            nudges,
            reminders,
            turns,
            due,
        })
    }

    fn outcome(&self, _f: &Facts, d: &Decision) -> Outcome {
        if d.stands.is_empty() {
            Outcome::Quiet
        } else {
            Outcome::Adjudicated
        }
    }

    async fn write(
        &self,
        c: &mut Conn,
        env: &Env,
        decided: Vec<(Facts, Decision)>,
        now: Ts,
    ) -> Result<()> {
        for (f, d) in decided {
            store::set_due(c, &[(f.g.id.as_str(), d.due)]).await?;
            store::set_negotiation_told_through(c, &f.g.id, now).await?;
            for (k, r) in &d.reminders {
                let n = &f.negotiations[*k];
                let st = n.state(now);
                let seed = negotiate::reminder_seed(&n.m, r);
                negotiate::tell(c, env, &f.g, n, &st, Step::Reminder(r), &seed, now).await?;
            }
            for k in d.turns {
                let n = &f.negotiations[k];
                let st = n.state(now);
                let seed = negotiate::turn_seed(&n.m, &st, &n.week);
                negotiate::tell(c, env, &f.g, n, &st, Step::Turn, &seed, now).await?;
            }
            for (k, n) in &d.nudges {
                let o = &f.open[*k];
                reminders::tell(c, env, &f.g, (&o.m, &o.p), n, now).await?;
            }
            for k in d.stands {
                let o = &f.open[k];
                settle(c, env, &f.g, &o.m, &o.p, &o.events, now).await?;
            }
        }
        Ok(())
    }

    async fn after_batches(&self, _pool: &Pool, _env: &Env, _now: Ts) -> Result<()> {
        Ok(())
    }
}
