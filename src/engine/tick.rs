//! The tick's shared part, the same for every kind of game: which games need the clock (an
//! index lookup on `games.due_at`), batches of them one transaction each, each game decided in
//! isolation (an error or a panic sets that one game aside), a batch that cannot be read or
//! written run again one game per transaction, and the masters alerted of a game whose tick
//! fails. What a game's tick decides is its kind's: a [`TickStep`] (`src/games/<kind>/`), which
//! `src/games/mod.rs` hands to [`run`].

use super::*;
use crate::outgoing::notices;
use crate::store::Kind;
use std::future::Future;

/// What one tick did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    pub adjudicated: usize,
    /// Games whose deadline has passed but whose mailboxes have not yet been read through it:
    /// (game, deadline). Nothing is adjudicated with orders still unread.
    pub waiting: Vec<(String, Ts)>,
    /// Games whose tick failed (an error or a panic), with why. The other games went on, and
    /// the masters were alerted once per phase.
    pub failed: Vec<(String, String)>,
}

impl TickReport {
    /// Add another kind's report to this one.
    pub fn add(&mut self, other: TickReport) {
        self.adjudicated += other.adjudicated;
        self.waiting.extend(other.waiting);
        self.failed.extend(other.failed);
    }

    /// How many games were adjudicated; a game that failed is an error (tests and tools that
    /// drive the clock themselves see it).
    pub fn adjudicated_or_failure(self) -> Result<usize> {
        match self.failed.first() {
            Some((g, e)) => Err(EngineError::Refused(format!("game {g}: {e}"))),
            None => Ok(self.adjudicated),
        }
    }
}

/// What a kind's step decided for one game, as far as the shared loop reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing to report (nothing due, or reminders sent, or results held).
    Quiet,
    /// The deadline has passed, but a mailbox has not been read through it yet.
    Waiting { deadline: Ts },
    /// The game's turn was adjudicated (or the game ended).
    Adjudicated,
}

/// One kind's part of the tick: reading a batch's facts, deciding each game by pure code, and
/// writing the batch's decisions (when each game next needs the clock included, in
/// `games.due_at`). Implemented in `src/games/<kind>/`; the engine never names a kind's types.
pub trait TickStep: Sync {
    /// Everything the step needs to decide about one game.
    type Facts: Send;
    /// What the step decided for one game.
    type Decision: Send;

    /// The kind of game this step ticks.
    const KIND: Kind;

    /// The facts of each of `games` that still needs the clock, read in the batch's
    /// transaction (another tick, or a mail, may have got there first).
    fn read(
        &self,
        c: &mut Conn,
        games: &[String],
        now: Ts,
    ) -> impl Future<Output = Result<Vec<Self::Facts>>> + Send;

    /// The game the facts are about, and where it stands (its phase), for the tick's span.
    fn names<'f>(&self, f: &'f Self::Facts) -> (&'f str, &'f str);

    /// Decide what the tick does for one game. Pure: from the facts and the clock.
    fn decide(
        &self,
        env: &Env,
        f: &Self::Facts,
        now: Ts,
        read_through: Ts,
    ) -> Result<Self::Decision>;

    /// What the shared loop reports of a decision.
    fn outcome(&self, f: &Self::Facts, d: &Self::Decision) -> Outcome;

    /// Write the batch's decisions in a few statements, and when each of these games next
    /// needs the clock.
    fn write(
        &self,
        c: &mut Conn,
        env: &Env,
        decided: Vec<(Self::Facts, Self::Decision)>,
        now: Ts,
    ) -> impl Future<Output = Result<()>> + Send;

    /// What the kind does once a tick, after the batches (its own transactions).
    fn after_batches(
        &self,
        pool: &Pool,
        env: &Env,
        now: Ts,
    ) -> impl Future<Output = Result<()>> + Send;
}

/// Games per transaction in a tick: enough to share an fsync and the statements, few enough
/// that the write lock is held for tens of milliseconds, not seconds (mail is read meanwhile).
const TICK_BATCH: usize = 64;

/// Tick every game of `step`'s kind that needs the clock by `now`, whose mail has been read
/// through `read_through` (every mailbox had a successful poll that started at or after it).
///
/// Games go in batches, one transaction each: the batch's facts are read in a few statements,
/// each game is decided by pure code (a game whose decision fails, even by panicking, is set
/// aside alone), and what was decided is written in a few statements. If the batch cannot be
/// read or written, its games are run again one transaction each, so that one game's bad data
/// never stops the others.
pub async fn run<S: TickStep>(
    pool: &Pool,
    env: &Env,
    step: &S,
    now: Ts,
    read_through: Ts,
) -> Result<TickReport> {
    // One connection for the whole tick, so its page cache stays warm (a connection that another
    // one wrote behind must re-read its pages).
    let mut conn = pool.acquire().await?;
    let games = store::tick_candidates(&mut conn, S::KIND, now).await?;
    let mut report = TickReport::default();
    for batch in games.chunks(TICK_BATCH) {
        run_isolated(&mut conn, env, step, batch, now, read_through, &mut report).await;
    }
    drop(conn);
    if let Err(e) = step.after_batches(pool, env, now).await {
        tracing::warn!(error = %e, kind = ?S::KIND, "after the tick's batches");
    }
    for (game, error) in &report.failed {
        alert_tick_failure(pool, env, game, error, now).await;
    }
    Ok(report)
}

/// Run a batch; if it cannot be read or written, each of its games alone.
async fn run_isolated<S: TickStep>(
    conn: &mut Conn,
    env: &Env,
    step: &S,
    batch: &[String],
    now: Ts,
    read_through: Ts,
    report: &mut TickReport,
) {
    match run_batch(conn, env, step, batch, now, read_through).await {
        Ok(r) => report.add(r),
        Err(e) if batch.len() == 1 => report.failed.push((batch[0].clone(), e.to_string())),
        Err(_) => {
            for one in batch.chunks(1) {
                match run_batch(conn, env, step, one, now, read_through).await {
                    Ok(r) => report.add(r),
                    Err(e) => report.failed.push((one[0].clone(), e.to_string())),
                }
            }
        }
    }
}

/// Read, decide and write a batch of games in one transaction.
async fn run_batch<S: TickStep>(
    conn: &mut Conn,
    env: &Env,
    step: &S,
    games: &[String],
    now: Ts,
    read_through: Ts,
) -> Result<TickReport> {
    let mut tx = crate::store::begin_write_on(conn).await?;
    // Another instance may have ticked some of them since they were listed, or tick them now.
    let claimed = store::claim_due(&mut tx, games, now).await?;
    let games = claimed.as_slice();
    let facts = step.read(&mut tx, games, now).await?;
    // A game the kind no longer finds running (over, paused, no open phase) needs no clock.
    let stopped: Vec<(&str, Option<Ts>)> = games
        .iter()
        .filter(|g| !facts.iter().any(|f| step.names(f).0 == g.as_str()))
        .map(|g| (g.as_str(), None))
        .collect();
    store::set_due(&mut tx, &stopped).await?;
    let (decided, report) = decide_each(env, step, facts, now, read_through);
    step.write(&mut tx, env, decided, now).await?;
    tx.commit().await?;
    Ok(report)
}

/// Decide each game alone: a decision that fails, even by panicking, sets only that game
/// aside (nothing is written for it, and it is tried again on the next tick).
#[allow(clippy::type_complexity)]
fn decide_each<S: TickStep>(
    env: &Env,
    step: &S,
    facts: Vec<S::Facts>,
    now: Ts,
    read_through: Ts,
) -> (Vec<(S::Facts, S::Decision)>, TickReport) {
    let mut report = TickReport::default();
    let mut decided = Vec::with_capacity(facts.len());
    for f in facts {
        let (game, phase) = step.names(&f);
        let span = tracing::info_span!("tick", game = %game, phase = %phase);
        let result = span.in_scope(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                step.decide(env, &f, now, read_through)
            }))
        });
        let error = match result {
            Ok(Ok(d)) => {
                match step.outcome(&f, &d) {
                    Outcome::Adjudicated => report.adjudicated += 1,
                    Outcome::Waiting { deadline } => {
                        report.waiting.push((game.to_string(), deadline))
                    }
                    Outcome::Quiet => {}
                }
                decided.push((f, d));
                continue;
            }
            Ok(Err(e)) => e.to_string(),
            Err(panic) => format!("panic: {}", panic_text(panic.as_ref())),
        };
        report.failed.push((game.to_string(), error));
    }
    (decided, report)
}

pub use super::panic::panic_text;

/// The running games among `ids` (a kind's tick step reads only those): a game gone or not
/// active is left out.
pub async fn active_games(c: &mut Conn, ids: &[String]) -> Result<Vec<store::GameRow>> {
    let mut out = Vec::new();
    for id in ids {
        if let Some(g) = store::game(c, id).await?
            && g.status == store::GameStatus::Active
        {
            out.push(g);
        }
    }
    Ok(out)
}

/// Tell the masters, once per phase, that a game's tick failed. Failing to tell them is only
/// logged: the tick of the other games must go on.
async fn alert_tick_failure(pool: &Pool, env: &Env, game: &str, error: &str, now: Ts) {
    let told: Result<()> = async {
        let mut tx = crate::store::begin_write(pool).await?;
        let g = store::game(&mut tx, game).await?;
        let (phase, seq) = match store::current_phase(&mut tx, game).await? {
            Some(p) => (p.phase, p.seq),
            None => (String::new(), 0),
        };
        let body = notices::tick_failed(&notices::TickFailed {
            game,
            phase: &phase,
            error,
        })?;
        alert_masters(
            &mut tx,
            env,
            g.as_ref(),
            &format!("tick-failed|{game}|{seq}"),
            &format!("{game} {phase}: the deadline could not be processed"),
            &body,
            now,
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }
    .await;
    if let Err(e) = told {
        tracing::error!(game = %game, "cannot alert the masters: {e}");
    }
}
