//! The mailbox readers: one task a mailbox, supervised; each message handled in isolation.

use super::{Shared, alert, pause, stopping};
use crate::engine::{self, Failure, Incoming, Processed, Queued, Reading};
use crate::games;
use crate::store;
use crate::store::StoreError;
use crate::time::Ts;
use crate::transport::imap::{Fetched, Mailbox, Watch};
use crate::transport::{ServerConfig, TransportError};
use std::collections::HashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Per connection-independent state of one mailbox reader.
#[derive(Default)]
struct Reader {
    /// Failed attempts per UID: an error is retried (it may be the database), a panic is not.
    attempts: HashMap<u32, u32>,
    /// UIDs the server listed but returned no body for, with failed fetches: retried on every
    /// poll, alerted after a few.
    missing: BTreeMap<u32, u32>,
    /// UIDs another instance had when this one looked (issue 28): that instance answers them in
    /// its own pass; they are looked at again at the end of this pass, their claims waited for,
    /// and found done (or done here, if that instance died).
    claimed: BTreeSet<u32>,
    /// Their games, whose later mail waits with them (kept across a reconnection, until they
    /// have been looked at again).
    passed_over: std::sync::Arc<engine::PassedOver>,
}

/// Handling a message fails this many times (errors, not panics) before it is set aside.
const MAX_ATTEMPTS: u32 = 3;
/// Messages fetched per IMAP round: the backlog is never read into memory in one go.
const FETCH_BATCH: usize = 50;
/// Messages committed together: one write to disk for the group instead of one a message
/// (issue 22), each message still all or nothing in it (`games::process_batch`). Small enough
/// that the store's write lock is not held for long against the other mailbox and the outbox.
const COMMIT_GROUP: usize = 25;

/// Why a mailbox reader's connection stops: it reconnects with backoff, and the failed poll is
/// recorded (`chancery status`) with these words.
#[derive(Debug, thiserror::Error)]
enum ReaderError {
    #[error(transparent)]
    Mail(#[from] TransportError),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The store could not be reached at all (no connection).
    #[error(transparent)]
    Connection(#[from] sqlx::Error),
    /// The blocking task that reads a batch did not finish.
    #[error("{0}")]
    Reading(String),
    /// A message's handling failed, and is tried again after reconnecting (it may be the
    /// store: locked, full).
    #[error("uid {uid}: {error} (attempt {attempt} of {MAX_ATTEMPTS})")]
    Retry {
        uid: u32,
        error: String,
        attempt: u32,
    },
    /// The store takes no writes: the message is tried again once it does, its attempts
    /// uncounted.
    #[error("uid {uid}: the store cannot be written ({error}); tried again, not counted")]
    StoreFault { uid: u32, error: String },
    /// A message that keeps failing could not even be set aside.
    #[error("uid {uid}: cannot set it aside: {error}")]
    SetAside {
        uid: u32,
        #[source]
        error: engine::EngineError,
    },
}

/// The mailbox being read: what every step of the reading needs.
#[derive(Clone, Copy)]
struct Source<'a> {
    shared: &'a Shared,
    name: &'static str,
    uidvalidity: u32,
    /// Looking again at messages another instance had (issue 28): wait for its claim to end
    /// rather than pass over them again.
    wait_for_claims: bool,
    /// The games whose mail this pass has passed over (None when looking again).
    passed_over: Option<&'a engine::PassedOver>,
}

pub(super) async fn mailbox_task(
    shared: Arc<Shared>,
    name: &'static str,
    cfg: ServerConfig,
    how: Watch,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut backoff = Duration::from_millis(500);
    let mut reader = Reader::default();
    while !stopping(&shutdown) {
        match run_mailbox(&shared, name, (&cfg, how), &mut shutdown, &mut reader).await {
            Ok(()) => break,
            Err(e) => {
                tracing::warn!("{name} mailbox: {e}; reconnecting in {backoff:?}");
                if let Err(fault) = record_failure(&shared, name, &e.to_string()).await {
                    store_fault(&shared, &fault).await;
                }
                if pause(&mut shutdown, backoff).await {
                    break;
                }
                backoff = (backoff * 2).min(Duration::from_secs(60));
            }
        }
    }
}

/// Record a failed poll (`chancery status`): the store's own error if it cannot take even that.
async fn record_failure(shared: &Shared, name: &str, error: &str) -> Result<(), String> {
    let mut c = shared.pool.acquire().await.map_err(|e| e.to_string())?;
    store::poll_failed(&mut c, name, error, shared.clock.now())
        .await
        .map_err(|e| e.to_string())
}

/// The store takes no writes (a full disk, a database gone): mail stays in the mailboxes,
/// unanswered and uncounted, until it does; the masters are told, directly if the store cannot
/// hold the alert (issue 29), once an hour at most.
async fn store_fault(shared: &Shared, error: &str) {
    let hour = shared.clock.now().div_euclid(crate::time::HOUR);
    alert(
        shared,
        &format!("store-fault|{hour}"),
        "the store cannot be written",
        &format!(
            "Chancery cannot write its store: {error}\n\n\
             Mail is left in the mailboxes, unanswered, and is read again as soon as the\n\
             store can be written; nothing is lost, and no message is set aside for it.\n\
             Deadlines wait meanwhile. Free the disk (or repair the database).\n"
        ),
    )
    .await;
}

/// One connection's life: catch up by UID in batches, then wait for new mail (IDLE, or a nudge
/// from the scheduler) and repeat.
async fn run_mailbox(
    shared: &Shared,
    name: &'static str,
    (cfg, how): (&ServerConfig, Watch),
    shutdown: &mut watch::Receiver<bool>,
    reader: &mut Reader,
) -> Result<(), ReaderError> {
    // Held for this connection's life: let go when it ends, for another instance to take.
    let Some(_lease) = stand_by(shared, name, shutdown).await? else {
        return Ok(());
    };
    let mut mb = Mailbox::connect(cfg, "INBOX").await?;
    mb.watch(how);
    // The intake's limit: a larger mail is refused unread, so only its header is fetched.
    mb.set_max_message_bytes(crate::message::MAX_MESSAGE_BYTES);
    let uidvalidity = mb.uidvalidity();
    tracing::info!(
        "{name} mailbox connected (uidvalidity {uidvalidity}, {})",
        if mb.uses_idle() {
            "IDLE".to_string()
        } else {
            format!("polling every {:?}", mb.poll_interval())
        }
    );
    // Mail left without our flag below the high-water mark (a crash between commit and flag,
    // a body the server did not return): found again here; the ledger makes that harmless.
    for uid in mb.unflagged_uids().await? {
        reader.missing.entry(uid).or_insert(0);
    }
    loop {
        let started = shared.clock.now();
        let last = {
            let mut c = shared.pool.acquire().await?;
            store::last_uid(&mut c, name, uidvalidity).await?
        };
        let passed_over = reader.passed_over.clone();
        let src = Source {
            shared,
            name,
            uidvalidity,
            wait_for_claims: false,
            passed_over: Some(&passed_over),
        };
        if !catch_up(src, &mut mb, shutdown, reader, last).await? {
            return Ok(());
        }
        // What another instance had is looked at again with the missing, its claim waited for,
        // unless that instance has answered it by now (mostly so: one read finds those).
        let claimed = std::mem::take(&mut reader.claimed);
        if let (Some(&lo), Some(&hi)) = (claimed.first(), claimed.last()) {
            let mut c = shared.pool.acquire().await?;
            let done = store::handled_uids(&mut c, name, uidvalidity, (lo, hi)).await?;
            for uid in claimed.difference(&done) {
                reader.missing.entry(*uid).or_insert(0);
            }
        }
        retry_missing(src, &mut mb, reader).await?;
        passed_over.clear();
        // Everything that had arrived when this poll started has been read.
        let finished = shared.clock.now();
        shared.set_live(name, |l| {
            l.read_from = Some(started);
            l.ok_at = Some(Instant::now());
        });
        {
            let mut c = shared.pool.acquire().await?;
            store::poll_ok(&mut c, name, started, finished, last).await?;
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
            Some(Err(e)) => return Err(e.into()),
        }
    }
}

/// How often an instance standing by looks whether it may read a mailbox.
const STAND_BY_POLL: Duration = Duration::from_secs(1);

/// The reading of a mailbox by this instance (see [`store::take_mailbox_lease`]): the
/// connection that holds it (never read: dropping it lets go), none on SQLite.
struct Lease {
    _holder: Option<store::Conn>,
}

/// Wait until this instance may read mailbox `name`: at once with one instance; with several on
/// one PostgreSQL database, when no other reads it. Meanwhile the mailbox counts as read as far
/// as the instance reading it has read it (the scheduler runs deadlines on that). None when
/// stopping.
async fn stand_by(
    shared: &Shared,
    name: &'static str,
    shutdown: &mut watch::Receiver<bool>,
) -> Result<Option<Lease>, ReaderError> {
    if store::Dialect::of_pool(&shared.pool) == store::Dialect::Sqlite {
        return Ok(Some(Lease { _holder: None }));
    }
    let mut lease = shared.pool.acquire().await?.detach();
    let mut seen = None;
    loop {
        if store::take_mailbox_lease(&mut lease, name).await? {
            if seen.is_some() {
                tracing::info!("{name} mailbox: this instance reads it now");
            }
            return Ok(Some(Lease {
                _holder: Some(lease),
            }));
        }
        let read_from = store::read_from(&mut lease, name).await?;
        if seen.is_none() {
            tracing::info!("{name} mailbox: another instance reads it; this one stands by");
        }
        if seen != Some(read_from) {
            seen = Some(read_from);
            shared.set_live(name, |l| {
                l.read_from = read_from;
                l.ok_at = Some(Instant::now());
            });
        }
        if pause(shutdown, STAND_BY_POLL).await {
            return Ok(None);
        }
    }
}

/// Read everything above UID `last`, a batch at a time. While one batch is processed, the
/// previous one is flagged and the next one fetched and read: the mail server and the reading
/// work beside the engine, whose transactions are the only steps taken one after another.
/// Returns false when stopping.
async fn catch_up(
    src: Source<'_>,
    mb: &mut Mailbox,
    shutdown: &watch::Receiver<bool>,
    reader: &mut Reader,
    mut last: u32,
) -> Result<bool, ReaderError> {
    let mut batch = fetch_and_read(src, mb, last).await?;
    // The flags of the batch processed last, set while the next one is processed.
    let mut flags = Marks::default();
    loop {
        if stopping(shutdown) {
            flags.flush(mb).await?;
            return Ok(false);
        }
        for r in &batch.read {
            last = last.max(r.uid);
            reader.missing.remove(&r.uid);
        }
        // Listed without a body: retried after this poll; the high-water mark passes them.
        for uid in &batch.missing {
            reader.missing.entry(*uid).or_insert(0);
            last = last.max(*uid);
        }
        let mut marks = Marks::default();
        let processing = process_read(src, &batch.read, reader, &mut marks);
        let more = batch.more;
        let beside = async {
            flags.flush(mb).await?;
            if !more {
                return Ok(None);
            }
            fetch_and_read(src, mb, last).await.map(Some)
        };
        let (processed, next) = tokio::join!(processing, beside);
        processed?;
        flags = marks;
        match next? {
            Some(next) => batch = next,
            None => {
                flags.flush(mb).await?;
                return Ok(true);
            }
        }
    }
}

/// A batch of messages fetched and read.
struct ReadBatch {
    read: Vec<Read>,
    /// UIDs listed without a body (see [`crate::transport::imap::Batch::missing`]).
    missing: Vec<u32>,
    /// More messages wait above this batch.
    more: bool,
}

async fn fetch_and_read(
    src: Source<'_>,
    mb: &mut Mailbox,
    last: u32,
) -> Result<ReadBatch, ReaderError> {
    let batch = mb.fetch_after(last, FETCH_BATCH).await?;
    Ok(ReadBatch {
        read: read_all(src, batch.messages).await?,
        missing: batch.missing,
        more: batch.more,
    })
}

/// Fetch again the messages the server listed without a body; alert the masters once when one
/// keeps failing. They are never skipped: the high-water mark may pass them, this list does not.
async fn retry_missing(
    src: Source<'_>,
    mb: &mut Mailbox,
    reader: &mut Reader,
) -> Result<(), ReaderError> {
    let Source {
        shared,
        name,
        uidvalidity,
        ..
    } = src;
    // Each was passed over while another instance had it: by now that instance has committed
    // it or is about to (or died, and its claim went with its connection).
    let src = Source {
        wait_for_claims: true,
        passed_over: None,
        ..src
    };
    let uids: Vec<u32> = reader.missing.keys().copied().collect();
    for uid in uids {
        let batch = mb.fetch_after(uid.saturating_sub(1), 1).await?;
        match batch.messages.into_iter().find(|f| f.uid == uid) {
            Some(f) => {
                reader.missing.remove(&uid);
                let mut marks = Marks::default();
                handle(src, vec![f], reader, &mut marks).await?;
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

/// A fetched message, read (or not: reading it panicked), with the span its handling is logged
/// in.
struct Read {
    uid: u32,
    raw: Vec<u8>,
    /// When the server received it, in game time.
    arrived: Option<Ts>,
    reading: Result<Reading, Failure>,
    span: tracing::Span,
}

impl Read {
    fn incoming<'a>(&'a self, src: Source<'a>) -> Incoming<'a> {
        Incoming {
            mailbox: src.name,
            uidvalidity: src.uidvalidity,
            uid: self.uid,
            raw: &self.raw,
            arrived: self.arrived,
            wait_for_claim: src.wait_for_claims,
            passed_over: src.passed_over,
        }
    }
}

/// Handle fetched messages in order, each in isolation: read off the async workers, processed
/// in groups committed together, and set aside (poisoned, alerted) if reading or processing it
/// panics or keeps failing. Only the store being unusable stops the reader (it then reconnects
/// and tries again).
async fn handle(
    src: Source<'_>,
    fetched: Vec<Fetched>,
    reader: &mut Reader,
    marks: &mut Marks,
) -> Result<(), ReaderError> {
    let read = read_all(src, fetched).await?;
    process_read(src, &read, reader, marks).await
}

/// Process read messages in order, in groups committed together.
async fn process_read(
    src: Source<'_>,
    read: &[Read],
    reader: &mut Reader,
    marks: &mut Marks,
) -> Result<(), ReaderError> {
    for group in read.chunks(COMMIT_GROUP) {
        handle_group(src, group, reader, marks).await?;
    }
    Ok(())
}

/// Read every message in one blocking task (reading is CPU work), each under its own
/// `catch_unwind`: a message whose reading panics is set aside alone.
async fn read_all(src: Source<'_>, fetched: Vec<Fetched>) -> Result<Vec<Read>, ReaderError> {
    let (name, clock) = (src.name, src.shared.clock.clone());
    let read = tokio::task::spawn_blocking(move || {
        fetched
            .into_iter()
            .map(|f| {
                // The engine fills in the game and the power once it knows them.
                let span = tracing::info_span!(
                    "message",
                    mailbox = name,
                    uid = f.uid,
                    game = tracing::field::Empty,
                    power = tracing::field::Empty
                );
                let (raw, oversized) = (&f.raw, f.oversized);
                let reading = std::panic::catch_unwind(|| engine::read_fetched(raw, oversized))
                    .map_err(|panic| {
                        Failure::Panic(format!("panic: {}", engine::panic_text(panic.as_ref())))
                    });
                Read {
                    uid: f.uid,
                    arrived: f.internal_date.map(|d| clock.game_time(d)),
                    raw: f.raw,
                    reading,
                    span,
                }
            })
            .collect()
    })
    .await;
    read.map_err(|e| ReaderError::Reading(join_text(e)))
}

/// Process a group of read messages in order, committed together: a message that could not be
/// read, or whose processing panics, is set aside alone; one whose processing fails is tried
/// again alone; the messages after it go on in a new batch.
async fn handle_group(
    src: Source<'_>,
    group: &[Read],
    reader: &mut Reader,
    marks: &mut Marks,
) -> Result<(), ReaderError> {
    let now = src.shared.clock.now();
    let mut rest = group;
    while let Some(first) = rest.first() {
        let settled = match &first.reading {
            Err(failure) => {
                settle(src, first, Err(failure.clone()), reader, marks).await?;
                1
            }
            Ok(_) => commit_run(src, rest, now, reader, marks).await?,
        };
        // Once a run committed together, not once a message: a wake is a read of the due rows
        // by each sender it reaches, and a whole tick of the scheduler. A run whose settling
        // failed wakes them with the next run (the outbox also looks every second).
        src.shared.outbox_ready.notify_one();
        src.shared.schedule_changed.notify_one();
        rest = &rest[settled..];
    }
    Ok(())
}

/// Commit the messages at the start of `rest` that were read, together, and settle them; the
/// first that fails stops the batch and is settled alone. Returns how many of `rest` were
/// settled (at least one: the first message of `rest` was read).
async fn commit_run(
    src: Source<'_>,
    rest: &[Read],
    now: Ts,
    reader: &mut Reader,
    marks: &mut Marks,
) -> Result<usize, ReaderError> {
    let queued: Vec<Queued<'_>> = rest
        .iter()
        .map_while(|r| {
            Some(Queued {
                inc: r.incoming(src),
                reading: r.reading.as_ref().ok()?,
                span: r.span.clone(),
            })
        })
        .collect();
    let run = match games::process_batch(&src.shared.pool, &src.shared.env, &queued, now).await {
        Ok(run) => run,
        Err(e) => {
            // Nothing of the batch was committed: each message alone, with its own isolation.
            let n = queued.len();
            tracing::warn!("{n} messages could not be committed together ({e}); each goes alone");
            for r in &rest[..n] {
                handle_alone(src, r, now, reader, marks).await?;
            }
            return Ok(n);
        }
    };
    let done = run.done.len();
    for (r, outcome) in rest.iter().zip(run.done) {
        settle(src, r, Ok(outcome), reader, marks).await?;
    }
    let (Some(failed), Some(r)) = (run.failed, rest.get(done)) else {
        return Ok(done);
    };
    match failed {
        // Set aside at once, as the panic of a message processed alone is.
        Failure::Panic(_) => settle(src, r, Err(failed), reader, marks).await?,
        // Counted and retried as a message alone (it may be the store).
        Failure::Error(_) => handle_alone(src, r, now, reader, marks).await?,
    }
    Ok(done + 1)
}

/// Process one read message in its own transaction, a panic caught.
async fn handle_alone(
    src: Source<'_>,
    r: &Read,
    now: Ts,
    reader: &mut Reader,
    marks: &mut Marks,
) -> Result<(), ReaderError> {
    use futures::FutureExt;
    use tracing::Instrument;
    let outcome = match &r.reading {
        Err(failure) => Err(failure.clone()),
        Ok(reading) => {
            let inc = r.incoming(src);
            // A panic in the engine is caught here: this message is set aside, the mailbox
            // goes on (the transaction it had open rolls back as it is dropped).
            let run = games::process_message(&src.shared.pool, &src.shared.env, &inc, reading, now)
                .instrument(r.span.clone());
            match std::panic::AssertUnwindSafe(run).catch_unwind().await {
                Err(panic) => Err(Failure::Panic(format!(
                    "panic: {}",
                    engine::panic_text(panic.as_ref())
                ))),
                Ok(Err(e)) => Err(Failure::Error(e.to_string())),
                Ok(Ok(p)) => Ok(p),
            }
        }
    };
    settle(src, r, outcome, reader, marks).await
}

/// What became of a message, settled: logged, its failures counted (an error is retried by
/// reconnecting, until it has failed too often; a panic is not retried) and set aside, the
/// outbox and the scheduler woken, and its flag noted.
async fn settle(
    src: Source<'_>,
    r: &Read,
    outcome: Result<Processed, Failure>,
    reader: &mut Reader,
    marks: &mut Marks,
) -> Result<(), ReaderError> {
    use tracing::Instrument;
    let shared = src.shared;
    let uid = r.uid;
    let processed = match outcome {
        // Another instance has it (issue 28): not flagged here; looked at again at the end of
        // this pass, when it is done there (or, if that instance died, done here).
        Ok(Processed::Claimed) => {
            reader.claimed.insert(uid);
            return Ok(());
        }
        Ok(p) => {
            reader.attempts.remove(&uid);
            if p != Processed::AlreadyDone {
                r.span
                    .in_scope(|| tracing::info!(outcome = ?p, "processed"));
            }
            p
        }
        Err(failure) => {
            // The store refusing writes is no fault of the message: not counted against it,
            // or a full disk would set good mail aside (issue 29).
            if let Failure::Error(e) = &failure
                && let Err(fault) =
                    record_failure(shared, src.name, &format!("uid {uid}: {e}")).await
            {
                return Err(ReaderError::StoreFault { uid, error: fault });
            }
            let n = reader.attempts.entry(uid).or_insert(0);
            *n += 1;
            let error = match failure {
                // Possibly the database (locked, full): reconnect and try this UID again.
                Failure::Error(e) if *n < MAX_ATTEMPTS => {
                    return Err(ReaderError::Retry {
                        uid,
                        error: e,
                        attempt: *n,
                    });
                }
                Failure::Error(e) | Failure::Panic(e) => e,
            };
            r.span.in_scope(|| tracing::warn!(%error, "set aside"));
            let inc = r.incoming(src);
            engine::poison_message(&shared.pool, &shared.env, &inc, &error, shared.clock.now())
                .instrument(r.span.clone())
                .await
                .map_err(|error| ReaderError::SetAside { uid, error })?;
            reader.attempts.remove(&uid);
            Processed::Dropped
        }
    };
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
    async fn flush(&mut self, mb: &mut Mailbox) -> Result<(), ReaderError> {
        mb.mark_processed_many(&self.seen, true).await?;
        self.seen.clear();
        mb.mark_processed_many(&self.unread, false).await?;
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
