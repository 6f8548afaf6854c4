//! `chancery serve`: one task per concern, as in mini-redis. Two mailbox readers (the GM box and
//! the confirmation box: IDLE, polling as the fallback, reconnection with backoff), the outbox
//! sender, and the scheduler. A shutdown signal stops them all between two units of work; since
//! every unit of work is one transaction, stopping (or being killed) at any point loses nothing.

use crate::config::Config;
use crate::engine::{self, Env};

mod mailbox;
mod outbox;
mod pictures;
mod scheduler;
mod web;
use crate::store;
use crate::store::Pool;
use crate::time::Ts;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{Notify, watch};

use mailbox::mailbox_task;
use outbox::outbox_task;
use scheduler::scheduler_task;

/// The clock, injected so that tests can run a game's days in seconds.
pub trait Clock: Send + Sync {
    fn now(&self) -> Ts;

    /// A time the mail server gave (IMAP INTERNALDATE, Unix seconds) on this clock. The system
    /// clock takes it as it is; a test or demo clock maps it to its own time.
    fn game_time(&self, unix: i64) -> Ts {
        unix
    }
}

pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Ts {
        chrono::Utc::now().timestamp()
    }
}

/// Game time that runs `factor` times faster than real time, from `game_start` on: for the
/// demo and for trying a game out (`serve --clock-speed`). Deadlines, reminders and arrival
/// times all follow it.
pub struct FastClock {
    real_start: std::time::Instant,
    /// The same moment in Unix seconds, to map the mail server's arrival times.
    real_start_unix: i64,
    game_start: Ts,
    factor: i64,
}

impl FastClock {
    /// A clock `factor` times faster than real time, reading `game_start` now.
    pub fn new(game_start: Ts, factor: u32) -> FastClock {
        FastClock {
            real_start: std::time::Instant::now(),
            real_start_unix: chrono::Utc::now().timestamp(),
            game_start,
            factor: i64::from(factor.max(1)),
        }
    }
}

impl Clock for FastClock {
    fn now(&self) -> Ts {
        let ms = i64::try_from(self.real_start.elapsed().as_millis()).unwrap_or(i64::MAX / 2);
        self.game_start
            .saturating_add(ms.saturating_mul(self.factor) / 1000)
    }

    /// Arrival times have whole-second resolution: at high speeds, coarse in game time.
    fn game_time(&self, unix: i64) -> Ts {
        self.game_start
            .saturating_add((unix - self.real_start_unix).saturating_mul(self.factor))
    }
}

/// The mailboxes Chancery reads.
pub const MAILBOXES: [&str; 2] = ["gm", "confirm"];

/// What a mailbox reader last did, in memory (the store keeps the same for `chancery status`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Live {
    /// Game time at the start of the last poll that read everything there was.
    read_from: Option<Ts>,
    /// Real time of the last successful poll (for the silent-mailbox alert).
    ok_at: Option<Instant>,
}

/// Everything the tasks share.
pub struct Shared {
    pub pool: Pool,
    pub env: Env,
    pub clock: Arc<dyn Clock>,
    /// Wakes the outbox sender when mail was enqueued.
    pub outbox_ready: Notify,
    /// Wakes the scheduler when a deadline may have moved.
    pub schedule_changed: Notify,
    /// Wakes the mailbox readers to poll at once (a deadline waits on them).
    pub poll_now: Notify,
    pub poll: Duration,
    /// Seconds after a deadline that a poll must start for the deadline to be processed.
    pub grace: Ts,
    /// `archive_grace_seconds`: how long a send cut short waits for its archive copy.
    pub archive_grace: Ts,
    live: std::sync::Mutex<HashMap<&'static str, Live>>,
    started: Instant,
    /// The SMTP relay, for an alert the store cannot take (it is full, or gone): sent at once,
    /// not through the outbox (issue 29). None in tests that send no mail.
    relay: Option<crate::transport::ServerConfig>,
    /// The keys of the alerts sent that way by this process: each once.
    sent_directly: std::sync::Mutex<std::collections::HashSet<String>>,
}

impl Shared {
    fn live(&self, mailbox: &'static str) -> Live {
        self.live
            .lock()
            .map(|l| l.get(mailbox).copied().unwrap_or_default())
            .unwrap_or_default()
    }

    fn set_live(&self, mailbox: &'static str, f: impl FnOnce(&mut Live)) {
        if let Ok(mut l) = self.live.lock() {
            f(l.entry(mailbox).or_default());
        }
    }

    /// Every mailbox has been read through this time (game clock): the oldest start of the
    /// latest successful poll, less the grace. `None` until every mailbox has been read once.
    pub fn read_through(&self) -> Option<Ts> {
        MAILBOXES
            .iter()
            .map(|m| self.live(m).read_from)
            .try_fold(Ts::MAX, |acc, t| t.map(|t| acc.min(t)))
            .map(|t| t - self.grace)
    }
}

/// Which tasks run. Tests that drive the clock themselves turn the scheduler off and call
/// `games::tick` at the moments they choose.
#[derive(Clone, Copy, Debug)]
pub struct Tasks {
    pub scheduler: bool,
}

impl Default for Tasks {
    fn default() -> Tasks {
        Tasks { scheduler: true }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error(transparent)]
    Engine(#[from] engine::EngineError),
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    /// The web pages' address cannot be listened on.
    #[error("web pages: cannot listen on {listen}: {error}")]
    Listen {
        listen: String,
        error: std::io::Error,
    },
}

/// Run until `shutdown` turns true.
pub async fn serve(
    cfg: Config,
    base: &Path,
    clock: Arc<dyn Clock>,
    shutdown: watch::Receiver<bool>,
) -> Result<(), ServeError> {
    serve_with(cfg, base, clock, shutdown, Tasks::default()).await
}

pub async fn serve_with(
    cfg: Config,
    base: &Path,
    clock: Arc<dyn Clock>,
    mut shutdown: watch::Receiver<bool>,
    which: Tasks,
) -> Result<(), ServeError> {
    crate::transport::init_crypto();
    let db = store::Database::at(base, &cfg.database);
    let pool = store::open_database(&db).await?;
    let env = engine::env(&pool, &cfg, clock.now()).await?;
    let shared = Arc::new(Shared {
        pool,
        env,
        clock,
        outbox_ready: Notify::new(),
        schedule_changed: Notify::new(),
        poll_now: Notify::new(),
        poll: Duration::from_secs(cfg.poll_seconds.max(1)),
        grace: cfg.deadline_grace_seconds.max(0),
        archive_grace: cfg.archive_grace_seconds.max(0),
        live: std::sync::Mutex::new(HashMap::new()),
        started: Instant::now(),
        relay: Some(cfg.smtp.to_server_config(base)?),
        sent_directly: Default::default(),
    });
    let gm = cfg.gm_mailbox.to_server_config(base)?;
    let confirm = cfg.confirm_mailbox.to_server_config(base)?;
    let smtp = cfg.smtp.to_server_config(base)?;
    let archive = cfg
        .archive_mailbox
        .as_ref()
        .map(|a| a.to_server_config(base))
        .transpose()?;
    // Listening before any task starts: an address taken stops the start, not a task later.
    let web = match &cfg.web {
        Some(w) => Some(
            tokio::net::TcpListener::bind(&w.listen)
                .await
                .map_err(|error| ServeError::Listen {
                    listen: w.listen.clone(),
                    error,
                })?,
        ),
        None => None,
    };
    if let Some(w) = &cfg.web {
        tracing::info!("serving the games' pages on {}", w.listen);
    }
    tracing::info!("serving; database {db}");
    // Every task is supervised: one that dies anyway (a panic outside its own isolation) is
    // restarted with backoff and the masters are told; a dead scheduler would otherwise
    // stop every deadline while mail is still acknowledged.
    let mut tasks = Vec::new();
    let watches = [
        ("gm", gm, cfg.gm_mailbox.watch()),
        ("confirm", confirm, cfg.confirm_mailbox.watch()),
    ];
    for (name, cfg, watch) in watches {
        let (s, stop) = (shared.clone(), shutdown.clone());
        tasks.push(tokio::spawn(supervise(
            shared.clone(),
            Task::Mailbox(name),
            FIRST_BACKOFF,
            shutdown.clone(),
            move || mailbox_task(s.clone(), name, cfg.clone(), watch, stop.clone()),
        )));
    }
    let (s, stop) = (shared.clone(), shutdown.clone());
    let connections = cfg.smtp_connections.max(1);
    tasks.push(tokio::spawn(supervise(
        shared.clone(),
        Task::Outbox,
        FIRST_BACKOFF,
        shutdown.clone(),
        move || {
            outbox_task(
                s.clone(),
                smtp.clone(),
                archive.clone(),
                connections,
                stop.clone(),
            )
        },
    )));
    if let Some(listener) = web {
        tasks.push(tokio::spawn(web::web_task(
            shared.clone(),
            listener,
            shutdown.clone(),
        )));
    }
    if which.scheduler {
        let (s, stop) = (shared.clone(), shutdown.clone());
        tasks.push(tokio::spawn(supervise(
            shared.clone(),
            Task::Scheduler,
            FIRST_BACKOFF,
            shutdown.clone(),
            move || scheduler_task(s.clone(), stop.clone()),
        )));
    }
    let _ = shutdown.wait_for(|s| *s).await;
    for t in tasks {
        let _ = t.await;
    }
    shared.pool.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// The server's long-running tasks, as the masters' alerts name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Task {
    /// The reader of the named mailbox.
    Mailbox(&'static str),
    Outbox,
    Scheduler,
}

impl std::fmt::Display for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Task::Mailbox(name) => write!(f, "the {name} mailbox reader"),
            Task::Outbox => f.write_str("the outbox sender"),
            Task::Scheduler => f.write_str("the scheduler (deadlines, reminders, digests)"),
        }
    }
}

/// The wait before a dead task's first restart; it doubles with each death, to a minute.
const FIRST_BACKOFF: Duration = Duration::from_secs(1);

/// Keep a task running until shutdown: `start` makes a fresh run of it. A run that ends by
/// itself (on shutdown) ends the supervision; a run that dies (a panic outside the task's own
/// isolation) is restarted after `backoff`, doubled each time up to a minute, and the masters
/// are told (once an hour per task: a task dying in a loop is one alert, not thousands).
pub(super) async fn supervise<F, Fut>(
    shared: Arc<Shared>,
    task: Task,
    mut backoff: Duration,
    mut shutdown: watch::Receiver<bool>,
    start: F,
) where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    loop {
        match tokio::spawn(start()).await {
            Ok(()) => return,
            Err(e) => {
                let why = if e.is_panic() {
                    engine::panic_text(e.into_panic().as_ref())
                } else {
                    "cancelled".to_string()
                };
                tracing::error!("{task} died ({why}); restarting in {backoff:?}");
                let hour = shared.clock.now().div_euclid(3600);
                let key = match task {
                    Task::Mailbox(name) => format!("mailbox-died|{name}|{hour}"),
                    Task::Outbox => format!("task-died|outbox|{hour}"),
                    Task::Scheduler => format!("task-died|scheduler|{hour}"),
                };
                alert(
                    &shared,
                    &key,
                    &format!("{task} died and was restarted"),
                    &format!(
                        "One of Chancery's tasks, {task}, stopped on an unexpected error and\n\
                         is restarted in {backoff:?}. Error: {why}\n"
                    ),
                )
                .await;
                if pause(&mut shutdown, backoff).await {
                    return;
                }
                backoff = (backoff * 2).min(Duration::from_secs(60));
            }
        }
    }
}

pub(super) fn stopping(s: &watch::Receiver<bool>) -> bool {
    *s.borrow()
}

/// Sleep, but wake at once on shutdown. Returns true if shutting down.
pub(super) async fn pause(s: &mut watch::Receiver<bool>, d: Duration) -> bool {
    let woke = tokio::select! {
        _ = tokio::time::sleep(d) => false,
        _ = s.wait_for(|v| *v) => true,
    };
    woke || stopping(s)
}

/// Alert the masters about no game in particular; failing to is logged, never fatal.
pub(super) async fn alert(shared: &Shared, key: &str, subject: &str, body: &str) {
    let now = shared.clock.now();
    let done: Result<(), engine::EngineError> = async {
        let mut tx = crate::store::begin_write(&shared.pool).await?;
        engine::alert_masters(&mut tx, &shared.env, None, key, subject, body, now).await?;
        tx.commit().await?;
        Ok(())
    }
    .await;
    match done {
        Ok(()) => shared.outbox_ready.notify_one(),
        Err(e) => {
            tracing::warn!(
                "cannot store the alert to the masters ({subject}): {e}; sending it directly"
            );
            alert_directly(shared, key, subject, body).await;
        }
    }
}

/// An alert the store could not take, sent straight to the relay (issue 29: a full disk must
/// still reach the masters): once per key in this process, never retried (the mailbox readers
/// raise it again while the fault lasts, and the key stops a second copy). The store's own
/// alerts are kept for what the store can still hold.
async fn alert_directly(shared: &Shared, key: &str, subject: &str, body: &str) {
    let Some(relay) = &shared.relay else {
        return;
    };
    if let Ok(mut sent) = shared.sent_directly.lock()
        && !sent.insert(key.to_string())
    {
        return;
    }
    let env = &shared.env;
    let to = if env.masters.is_empty() {
        vec![env.alert_from.clone()]
    } else {
        env.masters.clone()
    };
    let mail = crate::transport::smtp::OutMail {
        from: env.alert_from.clone(),
        to,
        subject: format!("Chancery: {subject}"),
        body: body.to_string(),
        message_id: crate::outgoing::ids::new_message_id(env, "alert", key),
        in_reply_to: None,
        references: Vec::new(),
        auto_submitted: "auto-generated",
        extra_headers: Vec::new(),
        html: None,
    };
    let sent = match crate::transport::smtp::Sender::new(relay) {
        Ok(sender) => sender.send(&mail).await.map(|_| ()).map_err(|e| e.message),
        Err(e) => Err(e.to_string()),
    };
    if let Err(e) = sent {
        tracing::warn!("cannot alert the masters directly ({subject}): {e}");
        if let Ok(mut sent) = shared.sent_directly.lock() {
            sent.remove(key);
        }
    }
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    #[test]
    fn a_fast_clock_runs_game_time_faster_from_its_start() {
        let c = FastClock::new(1_000_000, 7200);
        let now = c.now();
        assert!((1_000_000..1_000_000 + 7200).contains(&now), "{now}");
        // Two real seconds after its start, as the mail server dates them: four game hours.
        assert_eq!(c.game_time(c.real_start_unix + 2), 1_000_000 + 2 * 7200);
        assert_eq!(
            FastClock::new(5, 0).factor,
            1,
            "never slower than real time"
        );
    }
}

#[cfg(test)]
mod supervise_tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn a_task_that_dies_is_restarted_and_the_masters_are_told() {
        // Issue 21: the scheduler ran unsupervised; one panic outside a game's isolation
        // stopped every deadline for good, silently. Every task now runs under `supervise`.
        let dir = std::env::temp_dir().join(format!("chancery-supervise-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let pool = store::open(&dir.join("chancery.sqlite"))
            .await
            .expect("open");
        let shared = Arc::new(Shared {
            pool: pool.clone(),
            env: Env {
                masters: vec!["td@example.test".into()],
                alert_from: "gm@example.test".into(),
                message_id_domain: "chancery.example.test".into(),
                ..Env::default()
            },
            clock: Arc::new(SystemClock),
            outbox_ready: Notify::new(),
            schedule_changed: Notify::new(),
            poll_now: Notify::new(),
            poll: Duration::from_secs(1),
            grace: 5,
            archive_grace: 60,
            live: std::sync::Mutex::new(HashMap::new()),
            started: Instant::now(),
            relay: None,
            sent_directly: Default::default(),
        });
        let runs = Arc::new(AtomicUsize::new(0));
        let counted = runs.clone();
        let (_stop, shutdown) = watch::channel(false);
        // The first run dies; the second ends as a task does on shutdown.
        supervise(
            shared,
            Task::Scheduler,
            Duration::ZERO,
            shutdown,
            move || {
                let runs = counted.clone();
                async move {
                    if runs.fetch_add(1, Ordering::SeqCst) == 0 {
                        panic!("a bug outside the per-game isolation");
                    }
                }
            },
        )
        .await;
        assert_eq!(runs.load(Ordering::SeqCst), 2, "restarted once");
        let mut c = pool.acquire().await.expect("conn");
        let alerts = store::due_outbox(&mut c, Ts::MAX, 10)
            .await
            .expect("outbox");
        let alert = alerts
            .iter()
            .find(|m| m.kind == store::MailKind::Alert && m.to_address == "td@example.test")
            .expect("the masters are told");
        assert!(
            alert.subject.contains("the scheduler") && alert.subject.contains("restarted"),
            "{}",
            alert.subject
        );
        assert!(
            alert.body.contains("a bug outside the per-game isolation"),
            "{}",
            alert.body
        );
    }
}
