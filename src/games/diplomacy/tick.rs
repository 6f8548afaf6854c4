//! Diplomacy's tick step: at the clock, each game is adjudicated (its deadline passed and its
//! mail read through it, or early: WM D.VII(2), D.II(5)), left waiting for unread mail, reminded
//! a day before its deadline, or left alone; a batch's decisions are written in a few
//! statements. The batching and isolation around it are the engine's (`engine::tick`).

use super::rules_of;
use super::turn::{Decision, Turn};
use super::*;
use crate::engine::{Outcome, TickStep};
use crate::store::{Conn, Pool};

/// Diplomacy's [`TickStep`].
pub struct Tick;

/// A decision, and when the game next needs the clock after it (`games.due_at`; None: never).
pub struct Decided {
    decision: Decision,
    due: Option<Ts>,
}

impl TickStep for Tick {
    type Facts = GameFacts;
    type Decision = Decided;
    const KIND: store::Kind = store::Kind::Diplomacy;

    async fn read(&self, c: &mut Conn, games: &[String], now: Ts) -> Result<Vec<GameFacts>> {
        // The digest counts the silent drops of the last day.
        Ok(store::tick_facts(c, games, now - crate::time::DAY).await?)
    }

    fn names<'f>(&self, f: &'f GameFacts) -> (&'f str, &'f str) {
        (&f.game.id, &f.phase.phase)
    }

    fn decide(&self, env: &Env, f: &GameFacts, now: Ts, read_through: Ts) -> Result<Decided> {
        decide(env, f, now, read_through)
    }

    fn outcome(&self, f: &GameFacts, d: &Decided) -> Outcome {
        match d.decision {
            Decision::Adjudicated { .. } => Outcome::Adjudicated,
            Decision::Waiting => Outcome::Waiting {
                deadline: f.phase.deadline,
            },
            Decision::Idle | Decision::Remind(_) | Decision::Hold { .. } => Outcome::Quiet,
        }
    }

    async fn write(
        &self,
        c: &mut Conn,
        env: &Env,
        decided: Vec<(GameFacts, Decided)>,
        now: Ts,
    ) -> Result<()> {
        let mut writes = Writes::default();
        for (f, d) in decided {
            writes.add(&f, d);
        }
        writes.write(c, env, now).await
    }

    async fn after_batches(&self, pool: &Pool, env: &Env, now: Ts) -> Result<()> {
        nmr::replacement_notices(pool, env, now).await
    }
}

/// Decide what the tick does for one game, and when it next needs the clock.
fn decide(env: &Env, f: &GameFacts, now: Ts, read_through: Ts) -> Result<Decided> {
    let rules = rules_of(&f.game)?;
    // Results held for an NMR wait for their time, or for the replacement's orders (WM
    // D.VII(6)(b)).
    let decision = if concluded(f, now) {
        // Agora BT3: the notice of the winners announced has passed.
        ended::declared_winners(&Turn::read(env, f, &rules, now)?)?
    } else if f.phase.held_until.is_some_and(|t| t > now) {
        Decision::Idle
    } else {
        decide_turn(&Turn::read(env, f, &rules, now)?, read_through)?
    };
    let due = clock::due_after(f, &rules, &decision)?;
    Ok(Decided { decision, due })
}

/// Agora BT3: winners were announced and the notice has passed.
fn concluded(f: &GameFacts, now: Ts) -> bool {
    f.game.declared_winners.is_some() && f.game.declared_end_at.is_some_and(|at| at <= now)
}

/// Adjudicate a phase whose deadline has passed and whose mail has been read through it, or
/// that may go early; else wait for the mail, remind the day before, or do nothing.
fn decide_turn(t: &Turn<'_>, read_through: Ts) -> Result<Decision> {
    let deadline = t.f.phase.deadline;
    let passed = deadline <= t.now;
    let due = passed && deadline <= read_through;
    if due || (!passed && may_go_early(t)) {
        adjudicate::phase(t)
    } else if passed {
        Ok(Decision::Waiting)
    } else if deadline - t.now <= reminders::DIGEST_BEFORE && t.f.phase.reminded_at.is_none() {
        Ok(Decision::Remind(reminders::remind(t)))
    } else {
        Ok(Decision::Idle)
    }
}

/// Before its deadline, a phase goes early when everyone due has Final orders and the minimum
/// gap is respected (WM D.VII(2)), or (`conditional_early`, WM D.II(5)) when every power due
/// has Final orders or usable conditional ones; never inside a declared unavailable period.
fn may_go_early(t: &Turn<'_>) -> bool {
    let unavailable = &t.f.unavailable;
    let all_final = !t.due.is_empty()
        && t.due
            .iter()
            .all(|pw| orders_of(t.f, t.map.power_name(*pw)).is_some_and(|s| s.final_));
    policy::may_adjudicate_early(t.rules, t.now, t.f.last_adjudicated, all_final, unavailable)
        || (t.rules.conditional_early
            && !unavailable.iter().any(|w| w.contains(t.now))
            && conditional::suffice(t))
}

/// What a batch writes, gathered so that it is written in a few statements.
#[derive(Default)]
struct Writes {
    adjudicated: Vec<store::Adjudicated>,
    reminded: Vec<(String, i64)>,
    held: Vec<(String, i64, Ts)>,
    mails: Vec<NewMail>,
    /// The maps the mails show, kept before the mails that name them.
    maps: Vec<(String, super::maps::PhaseMap)>,
    /// When each game next needs the clock.
    due: Vec<(String, Option<Ts>)>,
    /// The games adjudicated that are run under regulations: their settings enacted after
    /// the ordering period hold from now on (Agora BT15).
    regulated: Vec<String>,
}

impl Writes {
    fn add(&mut self, f: &GameFacts, d: Decided) {
        self.due.push((f.game.id.clone(), d.due));
        match d.decision {
            Decision::Idle | Decision::Waiting => {}
            Decision::Remind(mails) => {
                self.reminded.push((f.game.id.clone(), f.phase.seq));
                self.mails.extend(mails);
            }
            Decision::Hold { mails, until, .. } => {
                self.held.push((f.game.id.clone(), f.phase.seq, until));
                self.mails.extend(mails);
            }
            Decision::Adjudicated {
                record,
                mails,
                maps,
            } => {
                if rules_of(&f.game).is_ok_and(|r| r.regulations.is_some()) {
                    self.regulated.push(f.game.id.clone());
                }
                self.adjudicated.push(*record);
                self.mails.extend(mails);
                self.maps
                    .extend(maps.into_iter().map(|m| (f.game.id.clone(), m)));
            }
        }
    }

    async fn write(&self, c: &mut Conn, env: &Env, now: Ts) -> Result<()> {
        let batch: Vec<&str> = self.due.iter().map(|(g, _)| g.as_str()).collect();
        // Agora BT8: the proposals a vote brought over their threshold, enacted on the hour.
        super::regulations::enact_due(c, env, &batch, now).await?;
        store::record_adjudications(c, &self.adjudicated, now).await?;
        super::regulations::apply_pending(c, env, &self.regulated, now).await?;
        // A tournament's board that ended sends its standings, in this same transaction.
        let ended: Vec<&str> = self
            .adjudicated
            .iter()
            .filter(|a| matches!(a.next, store::Next::Finished { .. }))
            .map(|a| a.game.as_str())
            .collect();
        // Agora BT3, BT8: a proposal still open when the tournament is concluded lapses.
        super::regulations::lapse_open(c, env, &ended, now).await?;
        super::tournament::after_games_ended(c, env, &ended, now).await?;
        let reminded: Vec<(&str, i64)> = self
            .reminded
            .iter()
            .map(|(g, s)| (g.as_str(), *s))
            .collect();
        store::mark_reminded(c, &reminded, now).await?;
        let held: Vec<(&str, i64, Ts)> = self
            .held
            .iter()
            .map(|(g, s, u)| (g.as_str(), *s, *u))
            .collect();
        store::hold_results(c, &held).await?;
        for (game, map) in &self.maps {
            store::keep_picture(c, &map.key, game, &map.phase, &map.alt, now).await?;
        }
        store::enqueue_many(c, &self.mails, now).await?;
        // Last: what was written above (a passed house-rule proposal) may have asked for the
        // clock at once; the decision knows better.
        // A proposal still to be counted (Agora BT8) needs the clock too.
        let checks = store::next_checks(c, &serde_json::to_string(&batch)?).await?;
        let due: Vec<(&str, Option<Ts>)> = self
            .due
            .iter()
            .map(|(g, d)| {
                let check = checks.get(g).copied();
                let at = match (*d, check) {
                    (Some(d), Some(c)) => Some(d.min(c)),
                    (d, c) => d.or(c),
                };
                (g.as_str(), at)
            })
            .collect();
        store::set_due(c, &due).await?;
        Ok(())
    }
}
