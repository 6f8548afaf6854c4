//! `chancery serve`: one task per concern, as in mini-redis. Two mailbox readers (the GM box and
//! the confirmation box: IDLE, polling as the fallback, reconnection with backoff), the outbox
//! sender, and the scheduler. A shutdown signal stops them all between two units of work; since
//! every unit of work is one transaction, stopping (or being killed) at any point loses nothing.

use crate::config::Config;
use crate::engine::{self, Env, Incoming, Processed};
use crate::game::Ts;
use crate::store;
use crate::transport::ServerConfig;
use crate::transport::imap::{Fetched, Mailbox};
use crate::transport::smtp::{FailureKind, OutMail, SendError, Sender};
use sqlx::SqlitePool;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{Notify, watch};

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

fn log(msg: &str) {
    eprintln!(
        "{} chancery: {msg}",
        chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ")
    );
}

/// The mailboxes Chancery reads.
pub const MAILBOXES: [&str; 2] = ["gm", "confirm"];

/// What a mailbox reader last did, in memory (the store keeps the same for `chancery status`).
#[derive(Clone, Copy, Debug, Default)]
struct Live {
    /// Game time at the start of the last poll that read everything there was.
    read_from: Option<Ts>,
    /// Real time of the last successful poll (for the silent-mailbox alert).
    ok_at: Option<Instant>,
}

/// Everything the tasks share.
pub struct Shared {
    pub pool: SqlitePool,
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
    live: std::sync::Mutex<HashMap<&'static str, Live>>,
    started: Instant,
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
/// `engine::tick` at the moments they choose.
#[derive(Clone, Copy, Debug)]
pub struct Tasks {
    pub scheduler: bool,
}

impl Default for Tasks {
    fn default() -> Tasks {
        Tasks { scheduler: true }
    }
}

/// Run until `shutdown` turns true.
pub async fn serve(
    cfg: Config,
    base: &Path,
    clock: Arc<dyn Clock>,
    shutdown: watch::Receiver<bool>,
) -> Result<(), String> {
    serve_with(cfg, base, clock, shutdown, Tasks::default()).await
}

pub async fn serve_with(
    cfg: Config,
    base: &Path,
    clock: Arc<dyn Clock>,
    mut shutdown: watch::Receiver<bool>,
    which: Tasks,
) -> Result<(), String> {
    crate::transport::init_crypto();
    let db = base.join(&cfg.database);
    let pool = store::open(&db).await.map_err(|e| e.to_string())?;
    let shared = Arc::new(Shared {
        pool,
        env: cfg.env(),
        clock,
        outbox_ready: Notify::new(),
        schedule_changed: Notify::new(),
        poll_now: Notify::new(),
        poll: Duration::from_secs(cfg.poll_seconds.max(1)),
        grace: cfg.deadline_grace_seconds.max(0),
        live: std::sync::Mutex::new(HashMap::new()),
        started: Instant::now(),
    });
    let gm = cfg.gm_mailbox.to_server_config(base)?;
    let confirm = cfg.confirm_mailbox.to_server_config(base)?;
    let smtp = cfg.smtp.to_server_config(base)?;
    let archive = cfg
        .archive_mailbox
        .as_ref()
        .map(|a| a.to_server_config(base))
        .transpose()?;
    log(&format!("serving; database {}", db.display()));
    let mut tasks = vec![
        tokio::spawn(supervise_mailbox(
            shared.clone(),
            "gm",
            gm,
            shutdown.clone(),
        )),
        tokio::spawn(supervise_mailbox(
            shared.clone(),
            "confirm",
            confirm,
            shutdown.clone(),
        )),
        tokio::spawn(outbox_task(shared.clone(), smtp, archive, shutdown.clone())),
    ];
    if which.scheduler {
        tasks.push(tokio::spawn(scheduler_task(
            shared.clone(),
            shutdown.clone(),
        )));
    }
    let _ = shutdown.wait_for(|s| *s).await;
    for t in tasks {
        let _ = t.await;
    }
    shared.pool.close().await;
    log("stopped");
    Ok(())
}

fn stopping(s: &watch::Receiver<bool>) -> bool {
    *s.borrow()
}

/// Sleep, but wake at once on shutdown. Returns true if shutting down.
async fn pause(s: &mut watch::Receiver<bool>, d: Duration) -> bool {
    let woke = tokio::select! {
        _ = tokio::time::sleep(d) => false,
        _ = s.wait_for(|v| *v) => true,
    };
    woke || stopping(s)
}

/// Alert the masters about no game in particular; failing to is logged, never fatal.
async fn alert(shared: &Shared, key: &str, subject: &str, body: &str) {
    let now = shared.clock.now();
    let done: Result<(), store::StoreError> = async {
        let mut tx = shared.pool.begin_with("BEGIN IMMEDIATE").await?;
        engine::alert_masters(&mut tx, &shared.env, None, key, subject, body, now).await?;
        tx.commit().await?;
        Ok(())
    }
    .await;
    match done {
        Ok(()) => shared.outbox_ready.notify_one(),
        Err(e) => log(&format!("cannot alert the masters ({subject}): {e}")),
    }
}

/// Keep a mailbox reader running: a reader task that dies anyway (a panic outside the
/// per-message isolation) is restarted with backoff, and the masters are told.
async fn supervise_mailbox(
    shared: Arc<Shared>,
    name: &'static str,
    cfg: ServerConfig,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut backoff = Duration::from_secs(1);
    loop {
        let task = tokio::spawn(mailbox_task(
            shared.clone(),
            name,
            cfg.clone(),
            shutdown.clone(),
        ));
        match task.await {
            Ok(()) => return,
            Err(e) => {
                let why = if e.is_panic() {
                    engine::panic_text(e.into_panic().as_ref())
                } else {
                    "cancelled".to_string()
                };
                log(&format!(
                    "{name} mailbox task died ({why}); restarting in {backoff:?}"
                ));
                let hour = shared.clock.now().div_euclid(3600);
                alert(
                    &shared,
                    &format!("mailbox-died|{name}|{hour}"),
                    &format!("the {name} mailbox reader died and was restarted"),
                    &format!(
                        "The reader of the {name} mailbox stopped on an unexpected error and was\n\
                         restarted (in {backoff:?}). Error: {why}\n"
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

/// Per connection-independent state of one mailbox reader.
#[derive(Default)]
struct Reader {
    /// Failed attempts per UID: an error is retried (it may be the database), a panic is not.
    attempts: HashMap<u32, u32>,
    /// UIDs the server listed but returned no body for, with failed fetches: retried on every
    /// poll, alerted after a few.
    missing: BTreeMap<u32, u32>,
}

/// Handling a message fails this many times (errors, not panics) before it is set aside.
const MAX_ATTEMPTS: u32 = 3;
/// Messages fetched per IMAP round: the backlog is never read into memory in one go.
const FETCH_BATCH: usize = 50;

async fn mailbox_task(
    shared: Arc<Shared>,
    name: &'static str,
    cfg: ServerConfig,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut backoff = Duration::from_millis(500);
    let mut reader = Reader::default();
    while !stopping(&shutdown) {
        match run_mailbox(&shared, name, &cfg, &mut shutdown, &mut reader).await {
            Ok(()) => break,
            Err(e) => {
                log(&format!("{name} mailbox: {e}; reconnecting in {backoff:?}"));
                if let Ok(mut c) = shared.pool.acquire().await {
                    let _ = store::poll_failed(&mut c, name, &e, shared.clock.now()).await;
                }
                if pause(&mut shutdown, backoff).await {
                    break;
                }
                backoff = (backoff * 2).min(Duration::from_secs(60));
            }
        }
    }
}

/// One connection's life: catch up by UID in batches, then wait for new mail (IDLE, or a nudge
/// from the scheduler) and repeat.
async fn run_mailbox(
    shared: &Shared,
    name: &'static str,
    cfg: &ServerConfig,
    shutdown: &mut watch::Receiver<bool>,
    reader: &mut Reader,
) -> Result<(), String> {
    let mut mb = Mailbox::connect(cfg, "INBOX")
        .await
        .map_err(|e| e.to_string())?;
    let uidvalidity = mb.uidvalidity();
    log(&format!(
        "{name} mailbox connected (uidvalidity {uidvalidity}, {})",
        if mb.uses_idle() { "IDLE" } else { "polling" }
    ));
    // Mail left without our flag below the high-water mark (a crash between commit and flag,
    // a body the server did not return): found again here; the ledger makes that harmless.
    for uid in mb.unflagged_uids().await.map_err(|e| e.to_string())? {
        reader.missing.entry(uid).or_insert(0);
    }
    loop {
        let started = shared.clock.now();
        let mut last = {
            let mut c = shared.pool.acquire().await.map_err(|e| e.to_string())?;
            store::last_uid(&mut c, name, uidvalidity)
                .await
                .map_err(|e| e.to_string())?
        };
        loop {
            let batch = mb
                .fetch_after(last, FETCH_BATCH)
                .await
                .map_err(|e| e.to_string())?;
            let mut marks = Marks::default();
            for f in batch.messages {
                if stopping(shutdown) {
                    return marks.flush(&mut mb).await;
                }
                last = last.max(f.uid);
                reader.missing.remove(&f.uid);
                handle(shared, name, uidvalidity, f, reader, &mut marks).await?;
            }
            marks.flush(&mut mb).await?;
            for uid in batch.missing {
                reader.missing.entry(uid).or_insert(0);
                last = last.max(uid);
            }
            if !batch.more {
                break;
            }
        }
        retry_missing(shared, name, uidvalidity, &mut mb, reader).await?;
        // Everything that had arrived when this poll started has been read.
        let finished = shared.clock.now();
        shared.set_live(name, |l| {
            l.read_from = Some(started);
            l.ok_at = Some(Instant::now());
        });
        {
            let mut c = shared.pool.acquire().await.map_err(|e| e.to_string())?;
            store::poll_ok(&mut c, name, started, finished, last)
                .await
                .map_err(|e| e.to_string())?;
        }
        shared.schedule_changed.notify_one();
        if stopping(shutdown) {
            mb.logout().await;
            return Ok(());
        }
        let waited = tokio::select! {
            w = mb.wait_or(shared.poll, &shared.poll_now) => Some(w.map(|_| ())),
            _ = shutdown.wait_for(|v| *v) => None,
        };
        match waited {
            None => return Ok(()),
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(e.to_string()),
        }
    }
}

/// Fetch again the messages the server listed without a body; alert the masters once when one
/// keeps failing. They are never skipped: the high-water mark may pass them, this list does not.
async fn retry_missing(
    shared: &Shared,
    name: &'static str,
    uidvalidity: u32,
    mb: &mut Mailbox,
    reader: &mut Reader,
) -> Result<(), String> {
    let uids: Vec<u32> = reader.missing.keys().copied().collect();
    for uid in uids {
        let batch = mb
            .fetch_after(uid.saturating_sub(1), 1)
            .await
            .map_err(|e| e.to_string())?;
        match batch.messages.into_iter().find(|f| f.uid == uid) {
            Some(f) => {
                reader.missing.remove(&uid);
                let mut marks = Marks::default();
                handle(shared, name, uidvalidity, f, reader, &mut marks).await?;
                marks.flush(mb).await?;
            }
            None if batch.missing.contains(&uid) => {
                let n = reader.missing.entry(uid).or_insert(0);
                *n += 1;
                if *n == MAX_ATTEMPTS {
                    alert(
                        shared,
                        &format!("no-body|{name}|{uidvalidity}|{uid}"),
                        &format!("a message in the {name} mailbox cannot be fetched"),
                        &format!(
                            "The mail server lists UID {uid} in the {name} mailbox (UIDVALIDITY\n\
                             {uidvalidity}) but returned no content for it {MAX_ATTEMPTS} times.\n\
                             Chancery keeps trying on every poll; check the mail server.\n"
                        ),
                    )
                    .await;
                }
            }
            // Gone (expunged), or already handled: nothing left to fetch.
            None => {
                reader.missing.remove(&uid);
            }
        }
    }
    Ok(())
}

/// Handle one fetched message in isolation: read it off the async workers, process it in its
/// own task, and set it aside (poisoned, alerted) if that panics or keeps failing. Only the
/// store being unusable stops the reader (it then reconnects and tries again).
async fn handle(
    shared: &Shared,
    name: &'static str,
    uidvalidity: u32,
    f: Fetched,
    reader: &mut Reader,
    marks: &mut Marks,
) -> Result<(), String> {
    let uid = f.uid;
    let raw = Arc::new(f.raw);
    let arrived = f.internal_date.map(|d| shared.clock.game_time(d));
    let now = shared.clock.now();
    let outcome = {
        let raw2 = raw.clone();
        let read = tokio::task::spawn_blocking(move || engine::read(&raw2)).await;
        match read {
            Err(e) => Err((true, join_text(e))),
            Ok(reading) => {
                use futures::FutureExt;
                let inc = Incoming {
                    mailbox: name,
                    uidvalidity,
                    uid,
                    raw: &raw,
                    arrived,
                };
                // A panic in the engine is caught here: this message is set aside, the mailbox
                // goes on (the transaction it had open rolls back as it is dropped).
                let run = engine::process_message(&shared.pool, &shared.env, &inc, &reading, now);
                match std::panic::AssertUnwindSafe(run).catch_unwind().await {
                    Err(panic) => Err((
                        true,
                        format!("panic: {}", engine::panic_text(panic.as_ref())),
                    )),
                    Ok(Err(e)) => Err((false, e.to_string())),
                    Ok(Ok(p)) => Ok(p),
                }
            }
        }
    };
    let processed = match outcome {
        Ok(p) => {
            reader.attempts.remove(&uid);
            if p != Processed::AlreadyDone {
                log(&format!("{name} uid {uid}: {p:?}"));
            }
            p
        }
        Err((panicked, error)) => {
            let n = reader.attempts.entry(uid).or_insert(0);
            *n += 1;
            if !panicked && *n < MAX_ATTEMPTS {
                // Possibly the database (locked, full): reconnect and try this UID again.
                return Err(format!(
                    "uid {uid}: {error} (attempt {n} of {MAX_ATTEMPTS})"
                ));
            }
            log(&format!("{name} uid {uid}: set aside: {error}"));
            let inc = Incoming {
                mailbox: name,
                uidvalidity,
                uid,
                raw: &raw,
                arrived,
            };
            engine::poison_message(&shared.pool, &shared.env, &inc, &error, now)
                .await
                .map_err(|e| format!("uid {uid}: cannot set it aside: {e}"))?;
            reader.attempts.remove(&uid);
            Processed::Dropped
        }
    };
    shared.outbox_ready.notify_one();
    shared.schedule_changed.notify_one();
    if processed.leave_unread() {
        marks.unread.push(uid);
    } else {
        marks.seen.push(uid);
    }
    Ok(())
}

/// The messages handled since the last flag update: flagged a batch at a time (one IMAP round
/// trip, not one a message). A crash before the flags are set only means these are read again
/// at the next start, which the ledger makes harmless.
#[derive(Default)]
struct Marks {
    seen: Vec<u32>,
    unread: Vec<u32>,
}

impl Marks {
    async fn flush(&mut self, mb: &mut Mailbox) -> Result<(), String> {
        mb.mark_processed_many(&self.seen, true)
            .await
            .map_err(|e| e.to_string())?;
        self.seen.clear();
        mb.mark_processed_many(&self.unread, false)
            .await
            .map_err(|e| e.to_string())?;
        self.unread.clear();
        Ok(())
    }
}

fn join_text(e: tokio::task::JoinError) -> String {
    if e.is_panic() {
        format!("panic: {}", engine::panic_text(e.into_panic().as_ref()))
    } else {
        "the task was cancelled".to_string()
    }
}

fn backoff_secs(attempts: i64) -> Ts {
    // 5 s, 10 s, 20 s … capped at an hour.
    (5_i64 << attempts.clamp(0, 10)).min(3600)
}

async fn outbox_task(
    shared: Arc<Shared>,
    cfg: ServerConfig,
    archive: Option<ServerConfig>,
    mut shutdown: watch::Receiver<bool>,
) {
    let sender = loop {
        let made = Sender::new(&cfg).and_then(|s| match &archive {
            Some(a) => s.with_bcc(&a.username),
            None => Ok(s),
        });
        match made {
            Ok(s) => break s,
            Err(e) => {
                log(&format!("smtp: {e}"));
                if pause(&mut shutdown, Duration::from_secs(5)).await {
                    return;
                }
            }
        }
    };
    while !stopping(&shutdown) {
        if let Err(e) = send_due(&shared, &sender, archive.as_ref(), &shutdown).await {
            log(&format!("outbox: {e}"));
        }
        let wait = {
            let next = match shared.pool.acquire().await {
                Ok(mut c) => store::next_outbox_attempt(&mut c).await.ok().flatten(),
                Err(_) => None,
            };
            let now = shared.clock.now();
            match next {
                Some(t) if t <= now => Duration::from_millis(10),
                Some(t) => Duration::from_secs(u64::try_from(t - now).unwrap_or(1).min(5)),
                None => Duration::from_secs(5),
            }
        };
        tokio::select! {
            _ = shared.outbox_ready.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = shutdown.wait_for(|v| *v) => break,
        }
    }
}

/// Was a mail whose send was cut short (by a crash) accepted after all? Its copy in the archive
/// says so. `None`: cannot tell now (no archive configured, or the archive is unreachable).
async fn already_sent(archive: Option<&ServerConfig>, message_id: &str) -> Option<bool> {
    let cfg = archive?;
    let mut mb = Mailbox::connect(cfg, "INBOX").await.ok()?;
    let found = mb.has_message_id(message_id).await.ok();
    mb.logout().await;
    found
}

async fn send_due(
    shared: &Shared,
    sender: &Sender,
    archive: Option<&ServerConfig>,
    shutdown: &watch::Receiver<bool>,
) -> Result<(), String> {
    let mut c = shared.pool.acquire().await.map_err(|e| e.to_string())?;
    let due = store::due_outbox(&mut c, shared.clock.now(), 10)
        .await
        .map_err(|e| e.to_string())?;
    // With an archive, the whole batch is marked as sending in one transaction and marked sent
    // in another: a crash in between leaves rows marked, and the archive says which went. This
    // keeps the outbox from taking the store's write lock twice a mail while mail is read.
    let batched = archive.is_some();
    if batched {
        let fresh: Vec<i64> = due
            .iter()
            .filter(|r| r.sending_since.is_none())
            .map(|r| r.id)
            .collect();
        store::mark_sending_many(&shared.pool, &fresh, shared.clock.now())
            .await
            .map_err(|e| e.to_string())?;
    }
    let mut sent: Vec<i64> = Vec::new();
    for row in due {
        if stopping(shutdown) {
            break;
        }
        let now = shared.clock.now();
        if row.sending_since.is_some() {
            // The last attempt was cut short: never send twice if the first got through.
            match already_sent(archive, &row.message_id).await {
                Some(true) => {
                    log(&format!(
                        "outbox {} to {}: found in the archive, already sent",
                        row.kind, row.to_address
                    ));
                    store::mark_sent(&mut c, row.id, now)
                        .await
                        .map_err(|e| e.to_string())?;
                    continue;
                }
                Some(false) => {}
                None if archive.is_some() => {
                    // The archive cannot be asked now: wait rather than risk a duplicate.
                    store::postpone(&mut c, row.id, now + 10)
                        .await
                        .map_err(|e| e.to_string())?;
                    continue;
                }
                None => log(&format!(
                    "outbox {} to {}: an earlier attempt was cut short and no archive is configured; sending again",
                    row.kind, row.to_address
                )),
            }
        }
        if !batched || row.sending_since.is_some() {
            store::mark_sending(&mut c, row.id, now)
                .await
                .map_err(|e| e.to_string())?;
        }
        let mail = OutMail {
            from: row.from_address.clone(),
            to: vec![row.to_address.clone()],
            subject: row.subject.clone(),
            body: row.body.clone(),
            message_id: row.message_id.clone(),
            in_reply_to: row.in_reply_to.clone(),
            references: row.refs.split_whitespace().map(str::to_string).collect(),
            auto_submitted: if row.auto_submitted == "auto-replied" {
                "auto-replied"
            } else {
                "auto-generated"
            },
            extra_headers: vec![("X-Chancery-Kind".into(), row.kind.clone())],
        };
        match sender.send(&mail).await {
            Ok(report) => {
                if let Some(e) = report.archive_error {
                    log(&format!("outbox {} to {}: sent, but {e}", row.kind, row.to_address));
                    let day = now.div_euclid(crate::game::DAY);
                    alert(
                        shared,
                        &format!("archive-refused|{day}"),
                        "the archive mailbox refuses copies",
                        &format!(
                            "Mail is being sent, but the archive mailbox refused its copy:\n{e}\n\n\
                             Without the archive, a send cut short by a crash cannot be checked, and\n\
                             the mail may go twice. Check the archive mailbox.\n"
                        ),
                    )
                    .await;
                }
                if batched {
                    sent.push(row.id);
                    Ok(())
                } else {
                    store::mark_sent(&mut c, row.id, shared.clock.now()).await
                }
            }
            Err(SendError {
                kind: FailureKind::Permanent,
                message,
            }) => {
                log(&format!(
                    "outbox {} to {}: permanent failure: {message}",
                    row.kind, row.to_address
                ));
                store::mark_failed(&mut c, row.id, now, &message).await
            }
            Err(SendError {
                kind: FailureKind::Uncertain,
                message,
            }) => {
                // It may have gone: keep it marked as sending, so that the archive is asked
                // before any retry.
                log(&format!(
                    "outbox {} to {}: outcome unknown ({message}); the archive decides",
                    row.kind, row.to_address
                ));
                store::postpone(&mut c, row.id, now + backoff_secs(row.attempts)).await
            }
            Err(e) => {
                let next = now + backoff_secs(row.attempts);
                store::mark_retry(&mut c, row.id, next, &e.message).await
            }
        }
        .map_err(|e| e.to_string())?;
    }
    drop(c);
    store::mark_sent_many(&shared.pool, &sent, shared.clock.now())
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// How long a mailbox may go without a successful poll before the masters are told.
fn silent_after(poll: Duration) -> Duration {
    (poll * 3).max(Duration::from_secs(3))
}

async fn scheduler_task(shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
    // Deadlines seen waiting for a mailbox, since when (real time): alerted once each.
    let mut waiting_since: HashMap<(String, Ts), Instant> = HashMap::new();
    let mut silent_alerted: HashMap<&'static str, bool> = HashMap::new();
    let mut last_purge: Option<Instant> = None;
    while !stopping(&shutdown) {
        let now = shared.clock.now();
        // Nothing is adjudicated before every mailbox has been read once past its deadline.
        let read_through = shared.read_through().unwrap_or(Ts::MIN);
        let mut waiting = false;
        match engine::tick_with(&shared.pool, &shared.env, now, read_through).await {
            Ok(r) => {
                if r.adjudicated > 0 {
                    log(&format!("adjudicated {} phase(s)", r.adjudicated));
                }
                for (game, error) in &r.failed {
                    log(&format!("scheduler: game {game}: {error}"));
                }
                if r.adjudicated > 0 || !r.failed.is_empty() {
                    shared.outbox_ready.notify_one();
                }
                waiting = !r.waiting.is_empty();
                if waiting {
                    // Ask the readers to poll now rather than at their next interval.
                    shared.poll_now.notify_waiters();
                }
                waiting_since.retain(|k, _| r.waiting.contains(k));
                for key in &r.waiting {
                    let since = *waiting_since
                        .entry(key.clone())
                        .or_insert_with(Instant::now);
                    if since.elapsed() >= silent_after(shared.poll) {
                        deadline_waits(&shared, &key.0, key.1).await;
                    }
                }
            }
            Err(e) => log(&format!("scheduler: {e}")),
        }
        for name in MAILBOXES {
            let quiet_for = shared
                .live(name)
                .ok_at
                .map_or(shared.started.elapsed(), |t| t.elapsed());
            let silent = quiet_for >= silent_after(shared.poll);
            let told = silent_alerted.entry(name).or_insert(false);
            if silent && !*told {
                *told = true;
                let since = shared.clock.now().div_euclid(60);
                alert(
                    &shared,
                    &format!("silent|{name}|{since}"),
                    &format!(
                        "the {name} mailbox has not been read for {}s",
                        quiet_for.as_secs()
                    ),
                    &format!(
                        "Chancery has not completed a poll of the {name} mailbox for {} seconds\n\
                         (polling every {} seconds). Deadlines wait until it is read again.\n\
                         `chancery status` shows the last error.\n",
                        quiet_for.as_secs(),
                        shared.poll.as_secs()
                    ),
                )
                .await;
            } else if !silent {
                *told = false;
            }
        }
        if last_purge.is_none_or(|t| t.elapsed() >= Duration::from_secs(3600)) {
            last_purge = Some(Instant::now());
            purge(&shared).await;
        }
        // Sleep until the next deadline (or a poll interval), unless something changes.
        let wait = if waiting {
            Duration::from_millis(500)
        } else {
            match shared.pool.acquire().await {
                Ok(mut c) => match store::next_deadline(&mut c).await {
                    Ok(Some(t)) if t > now => {
                        Duration::from_secs(u64::try_from(t - now).unwrap_or(1))
                    }
                    Ok(Some(_)) => Duration::from_secs(1),
                    _ => shared.poll,
                },
                Err(_) => shared.poll,
            }
            .min(shared.poll)
            .min(Duration::from_secs(5))
        };
        tokio::select! {
            _ = shared.schedule_changed.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = shutdown.wait_for(|v| *v) => break,
        }
    }
}

/// A deadline that has passed and cannot be processed because a mailbox is not being read:
/// the masters are told once; it is never adjudicated with orders unread.
async fn deadline_waits(shared: &Shared, game: &str, deadline: Ts) {
    let behind: Vec<String> = MAILBOXES
        .iter()
        .filter(|m| {
            shared
                .live(m)
                .read_from
                .is_none_or(|t| t - shared.grace < deadline)
        })
        .map(|m| m.to_string())
        .collect();
    alert(
        shared,
        &format!("deadline-waits|{game}|{deadline}"),
        &format!("{game}: the deadline waits for unread mail"),
        &format!(
            "The deadline of game {game} ({}) has passed, but the {} mailbox(es) have not been\n\
             read since it. Nothing is adjudicated with orders possibly unread: the game waits\n\
             until the mail server can be read again. `chancery status` shows the last error.\n",
            crate::mails::gmt(deadline),
            behind.join(" and ")
        ),
    )
    .await;
}

/// Keep raw mail only as long as configured; the ledger rows stay.
async fn purge(shared: &Shared) {
    let now = shared.clock.now();
    let before = now - shared.env.limits.raw_retention_days.max(1) * crate::game::DAY;
    match shared.pool.acquire().await {
        Ok(mut c) => match store::purge_raw(&mut c, before, now).await {
            Ok(0) => {}
            Ok(n) => log(&format!(
                "purged the raw text of {n} message(s) older than the retention"
            )),
            Err(e) => log(&format!("purge: {e}")),
        },
        Err(e) => log(&format!("purge: {e}")),
    }
}
