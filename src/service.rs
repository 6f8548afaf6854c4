//! `chancery serve`: one task per concern, as in mini-redis. Two mailbox readers (the GM box and
//! the confirmation box: IDLE, polling as the fallback, reconnection with backoff), the outbox
//! sender, and the scheduler. A shutdown signal stops them all between two units of work; since
//! every unit of work is one transaction, stopping (or being killed) at any point loses nothing.

use crate::config::Config;
use crate::engine::{self, Env, Processed};
use crate::game::Ts;
use crate::store;
use crate::transport::imap::{Mailbox, Wait};
use crate::transport::smtp::{OutMail, Sender};
use crate::transport::{ServerConfig, TransportError};
use sqlx::SqlitePool;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, watch};

/// The clock, injected so that tests can run a game's days in seconds.
pub trait Clock: Send + Sync {
    fn now(&self) -> Ts;
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

/// Everything the tasks share.
pub struct Shared {
    pub pool: SqlitePool,
    pub env: Env,
    pub clock: Arc<dyn Clock>,
    /// Wakes the outbox sender when mail was enqueued.
    pub outbox_ready: Notify,
    /// Wakes the scheduler when a deadline may have moved.
    pub schedule_changed: Notify,
    pub poll: Duration,
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
        env: Env {
            authserv_id: cfg.authserv_id.clone(),
            message_id_domain: cfg.message_id_domain.clone(),
        },
        clock,
        outbox_ready: Notify::new(),
        schedule_changed: Notify::new(),
        poll: Duration::from_secs(cfg.poll_seconds.max(1)),
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
        tokio::spawn(mailbox_task(shared.clone(), "gm", gm, shutdown.clone())),
        tokio::spawn(mailbox_task(
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

async fn mailbox_task(
    shared: Arc<Shared>,
    name: &'static str,
    cfg: ServerConfig,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut backoff = Duration::from_millis(500);
    while !stopping(&shutdown) {
        match run_mailbox(&shared, name, &cfg, &mut shutdown).await {
            Ok(()) => break,
            Err(e) => {
                log(&format!("{name} mailbox: {e}; reconnecting in {backoff:?}"));
                if pause(&mut shutdown, backoff).await {
                    break;
                }
                backoff = (backoff * 2).min(Duration::from_secs(60));
            }
        }
    }
}

/// One connection's life: catch up by UID, then wait for new mail (IDLE) and repeat.
async fn run_mailbox(
    shared: &Shared,
    name: &'static str,
    cfg: &ServerConfig,
    shutdown: &mut watch::Receiver<bool>,
) -> Result<(), String> {
    let mut mb = Mailbox::connect(cfg, "INBOX")
        .await
        .map_err(|e| e.to_string())?;
    let uidvalidity = mb.uidvalidity();
    log(&format!(
        "{name} mailbox connected (uidvalidity {uidvalidity}, {})",
        if mb.uses_idle() { "IDLE" } else { "polling" }
    ));
    loop {
        let last = {
            let mut c = shared.pool.acquire().await.map_err(|e| e.to_string())?;
            store::last_uid(&mut c, name, uidvalidity)
                .await
                .map_err(|e| e.to_string())?
        };
        // Also fetch from 0 once per connection: a message committed but not yet flagged, or a
        // lower UID that failed before, is found again; the ledger makes that harmless.
        let fetched = mb.fetch_after(last).await.map_err(|e| e.to_string())?;
        for f in fetched {
            if stopping(shutdown) {
                return Ok(());
            }
            let now = shared.clock.now();
            let outcome = engine::process_message(
                &shared.pool,
                &shared.env,
                name,
                uidvalidity,
                f.uid,
                &f.raw,
                now,
            )
            .await
            .map_err(|e| e.to_string())?;
            if outcome != Processed::AlreadyDone {
                log(&format!("{name} uid {}: {outcome:?}", f.uid));
            }
            shared.outbox_ready.notify_one();
            shared.schedule_changed.notify_one();
            mb.mark_processed(f.uid).await.map_err(|e| e.to_string())?;
        }
        if stopping(shutdown) {
            mb.logout().await;
            return Ok(());
        }
        let waited = tokio::select! {
            w = mb.wait(shared.poll) => Some(w),
            _ = shutdown.wait_for(|v| *v) => None,
        };
        match waited {
            None => return Ok(()),
            Some(Ok(Wait::NewMail | Wait::Timeout)) => {}
            Some(Err(e)) => return Err(e.to_string()),
        }
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
        store::mark_sending(&mut c, row.id, now)
            .await
            .map_err(|e| e.to_string())?;
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
            Ok(()) => store::mark_sent(&mut c, row.id, shared.clock.now()).await,
            Err(TransportError {
                permanent: true,
                message,
            }) => {
                log(&format!(
                    "outbox {} to {}: permanent failure: {message}",
                    row.kind, row.to_address
                ));
                store::mark_failed(&mut c, row.id, now, &message).await
            }
            Err(e) => {
                let next = now + backoff_secs(row.attempts);
                store::mark_retry(&mut c, row.id, next, &e.message).await
            }
        }
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

async fn scheduler_task(shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
    while !stopping(&shutdown) {
        let now = shared.clock.now();
        match engine::tick(&shared.pool, &shared.env, now).await {
            Ok(n) if n > 0 => {
                log(&format!("adjudicated {n} phase(s)"));
                shared.outbox_ready.notify_one();
            }
            Ok(_) => {}
            Err(e) => log(&format!("scheduler: {e}")),
        }
        // Sleep until the next deadline (or a poll interval), unless something changes.
        let wait = match shared.pool.acquire().await {
            Ok(mut c) => match store::next_deadline(&mut c).await {
                Ok(Some(t)) if t > now => Duration::from_secs(u64::try_from(t - now).unwrap_or(1)),
                Ok(Some(_)) => Duration::from_secs(1),
                _ => shared.poll,
            },
            Err(_) => shared.poll,
        }
        .min(shared.poll)
        .min(Duration::from_secs(5));
        tokio::select! {
            _ = shared.schedule_changed.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = shutdown.wait_for(|v| *v) => break,
        }
    }
}
