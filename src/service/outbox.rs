//! The outbox task: sends what the engine enqueued, once, with the archive as the witness.
//!
//! Several senders work side by side (`smtp_connections`, 4 by default), each on its own SMTP
//! connection: the relay does its own work for every mail (a queue file, an fsync), and one
//! connection waits for that a mail at a time. Each sender claims a batch of due rows (a row is
//! only ever held by one sender: the claim is made under a lock and the rows in flight are
//! known), so a slow or failing mail holds up its own sender alone, and the others go on.
//!
//! A run of rows ([`RUN`]) is marked as being sent right before its attempts, and their outcomes
//! recorded together right after, on the sender's own connection to the store with
//! `synchronous = NORMAL`: a commit there is a write to the WAL, not an fsync, and survives a
//! crash of the process (not of the machine, where the archive still decides). So after a
//! crash only the mails of the runs being sent are in doubt, at most a run a connection, and the
//! archive is asked about them; the relay may not have delivered its copy yet, so a mail not
//! found there waits (`archive_grace_seconds`) before it is sent again.

use super::pictures::{Gallery, Picture, Pictures};
use super::{Shared, alert, pause, stopping};
use crate::outgoing::html;
use crate::store::Conn;
use crate::store::{self, OutboxRow};
use crate::time::Ts;
use crate::transport::ServerConfig;
use crate::transport::imap::Mailbox;
use crate::transport::smtp::{
    FailureKind, HtmlPart, InlinePicture, OutMail, SendError, SendReport, Sender,
};
use sqlx::Connection;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, watch};

/// Rows a sender claims at a time: one claim (a read of the due rows) for many mails, small
/// enough that the others find work while it sends.
const CLAIM: i64 = 50;

fn backoff_secs(attempts: i64) -> Ts {
    // 5 s, 10 s, 20 s … capped at an hour.
    (5_i64 << attempts.clamp(0, 10)).min(3600)
}

/// Why a sender could not claim, mark or record a batch (the store): logged, and the sender
/// goes on with the next claim.
#[derive(Debug, thiserror::Error)]
enum OutboxError {
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error(transparent)]
    Connection(#[from] sqlx::Error),
}

/// What the senders share: which rows are in flight, and the lock under which rows are claimed.
struct Claims {
    inflight: Mutex<HashSet<i64>>,
    claiming: tokio::sync::Mutex<()>,
    /// Wakes the other senders when a claim found more due than it took.
    more: Notify,
    /// The pictures the mails show, drawn once and kept while their mails go.
    gallery: Gallery,
    /// Whether the relay takes mail, as the senders last saw it.
    relay: Mutex<Relay>,
}

/// How long the relay must have taken no mail before the masters are told, once it is back.
const OUTAGE_TOLD_AFTER: Ts = 60;

/// The relay as this instance's senders see it (issue 29): since when every send has failed
/// before its mail was handed over (or with the outcome unknown), how many, and why last.
#[derive(Default)]
struct Relay {
    down_since: Option<Ts>,
    failures: u64,
    last_error: String,
}

impl Relay {
    fn failed(&mut self, now: Ts, why: &str) {
        self.down_since.get_or_insert(now);
        self.failures += 1;
        self.last_error = why.to_string();
    }

    /// A mail went: the outage this ends, if there was one.
    fn took(&mut self) -> Option<Relay> {
        self.down_since.is_some().then(|| std::mem::take(self))
    }
}

/// The relay takes mail again after refusing it: every mail held meanwhile is due at once (not
/// at the end of its backoff, which grows to an hour), and after an outage of a minute or more
/// the masters are told, once.
async fn relay_back(shared: &Shared, outage: Relay, now: Ts) {
    let held = match shared.pool.acquire().await {
        Ok(mut c) => store::outbox_due_again(&mut c, now)
            .await
            .unwrap_or_else(|e| {
                tracing::warn!("outbox: {e}");
                0
            }),
        Err(e) => {
            tracing::warn!("outbox: {e}");
            0
        }
    };
    let Some(since) = outage.down_since else {
        return;
    };
    tracing::info!(
        "outbox: the relay takes mail again after {} s ({} failed attempts); {held} mails due now",
        now - since,
        outage.failures
    );
    if now - since < OUTAGE_TOLD_AFTER {
        return;
    }
    alert(
        shared,
        &format!("relay-back|{}", now.div_euclid(600)),
        "mail could not be sent for a while",
        &format!(
            "The SMTP relay took no mail from {} to {} ({} attempts failed;\n\
             the last: {}).\n\n\
             Nothing was lost: every mail held meanwhile, results included, is being\n\
             sent now, in order.\n",
            crate::time::format_gmt(since),
            crate::time::format_gmt(now),
            outage.failures,
            outage.last_error
        ),
    )
    .await;
}

pub(super) async fn outbox_task(
    shared: Arc<Shared>,
    cfg: ServerConfig,
    archive: Option<ServerConfig>,
    connections: usize,
    mut shutdown: watch::Receiver<bool>,
) {
    let senders = loop {
        match senders(&cfg, archive.as_ref(), connections) {
            Ok(s) => break s,
            Err(e) => {
                tracing::warn!("smtp: {e}");
                if pause(&mut shutdown, Duration::from_secs(5)).await {
                    return;
                }
            }
        }
    };
    let claims = Claims {
        inflight: Mutex::new(HashSet::new()),
        claiming: tokio::sync::Mutex::new(()),
        more: Notify::new(),
        gallery: Gallery::default(),
        relay: Mutex::new(Relay::default()),
    };
    let workers = senders.iter().map(|sender| {
        let shutdown = shutdown.clone();
        sender_loop(&shared, sender, archive.as_ref(), &claims, shutdown)
    });
    futures::future::join_all(workers).await;
}

fn senders(
    cfg: &ServerConfig,
    archive: Option<&ServerConfig>,
    n: usize,
) -> Result<Vec<Sender>, crate::transport::TransportError> {
    (0..n.max(1))
        .map(|_| {
            Sender::new(cfg).and_then(|s| match archive {
                Some(a) => s.with_bcc(&a.username),
                None => Ok(s),
            })
        })
        .collect()
}

/// One sender: claim, send, record; wait when nothing is due.
async fn sender_loop(
    shared: &Shared,
    sender: &Sender,
    archive: Option<&ServerConfig>,
    claims: &Claims,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut marks = None;
    while !stopping(&shutdown) {
        if marks.is_none() {
            marks = match marks_connection(shared).await {
                Ok(c) => Some(c),
                Err(e) => {
                    tracing::warn!("outbox: {e}");
                    if pause(&mut shutdown, Duration::from_secs(1)).await {
                        break;
                    }
                    continue;
                }
            };
        }
        let Some(c) = marks.as_mut() else { continue };
        let sent = match claim_and_send(shared, c, sender, archive, claims, &shutdown).await {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!("outbox: {e}");
                // A fresh connection next time: whatever this one took is let go with it.
                marks = None;
                0
            }
        };
        if sent > 0 {
            continue;
        }
        let wait = next_wait(shared).await;
        tokio::select! {
            _ = shared.outbox_ready.notified() => {}
            _ = claims.more.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = shutdown.wait_for(|v| *v) => break,
        }
    }
}

/// The sender's own connection to the store, for its marks: `synchronous = NORMAL`, so that a
/// mark is a WAL write and not an fsync (see the module's comment). Taken out of the pool, so
/// that no other work runs with that setting.
async fn marks_connection(shared: &Shared) -> Result<Conn, OutboxError> {
    let mut c = shared.pool.acquire().await?.detach();
    store::marks_only(&mut c).await?;
    Ok(c)
}

/// The longest the sender sleeps with nothing due. Mail this process queues wakes it at once;
/// mail queued by another process (the CLI's commands, another instance on the same database)
/// goes out within this.
const IDLE_LOOK: Duration = Duration::from_secs(1);

/// How long to sleep when nothing was due: until the next row's attempt, at most [`IDLE_LOOK`].
async fn next_wait(shared: &Shared) -> Duration {
    let next = match shared.pool.acquire().await {
        Ok(mut c) => store::next_outbox_attempt(&mut c).await.ok().flatten(),
        Err(_) => None,
    };
    let now = shared.clock.now();
    match next {
        Some(t) if t <= now => Duration::from_millis(50),
        Some(t) => Duration::from_secs(u64::try_from(t - now).unwrap_or(1)).min(IDLE_LOOK),
        None => IDLE_LOOK,
    }
}

/// Claim a batch, send it, record it, and let the batch go. How many rows it handled: none
/// when every row claimed was another instance's to send (issue 28), so that the sender waits
/// for that instance rather than read the same rows again at once (two instances' senders
/// read the outbox ten times as often as one's, and the ingestion beside them lost a quarter
/// of its rate).
async fn claim_and_send(
    shared: &Shared,
    marks: &mut Conn,
    sender: &Sender,
    archive: Option<&ServerConfig>,
    claims: &Claims,
    shutdown: &watch::Receiver<bool>,
) -> Result<usize, OutboxError> {
    let rows = claim(shared, claims).await?;
    if rows.is_empty() {
        return Ok(0);
    }
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let result = match take_from_other_instances(shared, marks, rows).await {
        Ok(rows) => {
            let taken = rows.len();
            send_batch(shared, marks, sender, archive, claims, rows, shutdown)
                .await
                .map(|()| taken)
        }
        Err(e) => Err(e),
    };
    if let Ok(mut inflight) = claims.inflight.lock() {
        for id in &ids {
            inflight.remove(id);
        }
    }
    // A row not let go stays taken while this connection lives: an error here drops it.
    store::let_outbox_rows_go(marks).await?;
    result
}

/// The claimed rows that no other Chancery instance on the database has taken, taken on this
/// sender's own connection and read again (issue 28). One instance (SQLite, or PostgreSQL
/// with one server): all of them, as claimed.
async fn take_from_other_instances(
    shared: &Shared,
    marks: &mut Conn,
    rows: Vec<OutboxRow>,
) -> Result<Vec<OutboxRow>, OutboxError> {
    if store::Dialect::of(marks) == store::Dialect::Sqlite {
        return Ok(rows);
    }
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let taken = store::take_outbox_rows(marks, &ids).await?;
    let mut fresh = store::outbox_rows_still_due(marks, &taken, shared.clock.now()).await?;
    // In the claim's order: receipts first.
    fresh.sort_by_key(|r| ids.iter().position(|id| *id == r.id));
    Ok(fresh)
}

/// Take up to [`CLAIM`] due rows that no other sender holds (in memory: nothing is marked until
/// a row's own attempt).
async fn claim(shared: &Shared, claims: &Claims) -> Result<Vec<OutboxRow>, OutboxError> {
    let _one_at_a_time = claims.claiming.lock().await;
    // What other senders hold as the read starts. A row one of them finishes while the read
    // runs leaves `inflight` before this claim looks, but the read may have seen it still marked
    // as being sent: taken, it would look cut short by a crash, be settled against the archive
    // and, with the archive's copy not yet delivered, sent a second time. So a row held at the
    // start is skipped even if it is no longer held; the next claim sees it as it is.
    let held_at_start = claims
        .inflight
        .lock()
        .map(|s| s.clone())
        .unwrap_or_default();
    let held = held_at_start.len() as i64;
    let mut c = shared.pool.acquire().await?;
    let due = store::due_outbox(&mut c, shared.clock.now(), CLAIM + held + 1).await?;
    drop(c);
    let (rows, more) = match claims.inflight.lock() {
        Ok(mut inflight) => take_unheld(due, |r| r.id, &held_at_start, &mut inflight),
        Err(_) => (Vec::new(), false),
    };
    if more {
        claims.more.notify_waiters();
    }
    Ok(rows)
}

/// The first [`CLAIM`] of `due` that no sender holds now or held when the read began, each now
/// held; and whether more were left.
fn take_unheld<T>(
    due: Vec<T>,
    id: impl Fn(&T) -> i64,
    held_at_start: &HashSet<i64>,
    inflight: &mut HashSet<i64>,
) -> (Vec<T>, bool) {
    let mut rows = Vec::new();
    for row in due {
        let key = id(&row);
        if inflight.contains(&key) || held_at_start.contains(&key) {
            continue;
        }
        if rows.len() as i64 == CLAIM {
            return (rows, true);
        }
        inflight.insert(key);
        rows.push(row);
    }
    (rows, false)
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

/// What became of a row.
#[derive(Debug)]
enum Outcome {
    Sent,
    /// Refused for good.
    Failed(String),
    /// Certainly not sent: try again at the time given.
    Retry(Ts, String),
    /// Perhaps sent (or cannot be checked now): keep the mark, look again at the time given.
    Postpone(Ts),
}

/// Mails a sender marks as being sent in one write, then sends one after the other, then
/// records in one write: two writes to the store a run instead of two a mail (on 4 connections
/// the marks were a third of the time a mail took, issue 22). After a crash the whole run is in
/// doubt and the archive settles each of its mails; one never attempted is not found there and
/// goes after `archive_grace_seconds`.
const RUN: usize = 10;

/// Send a claimed batch on this sender's connection: first the mails an earlier attempt left in
/// doubt, one at a time, then the others in runs.
async fn send_batch(
    shared: &Shared,
    marks: &mut Conn,
    sender: &Sender,
    archive: Option<&ServerConfig>,
    claims: &Claims,
    rows: Vec<OutboxRow>,
    shutdown: &watch::Receiver<bool>,
) -> Result<(), OutboxError> {
    let (in_doubt, fresh): (Vec<OutboxRow>, Vec<OutboxRow>) =
        rows.into_iter().partition(|r| r.sending_since.is_some());
    for row in in_doubt {
        if stopping(shutdown) {
            return Ok(());
        }
        let outcome = send_row(shared, marks, sender, archive, claims, &row).await?;
        record(marks, shared.clock.now(), row.id, &outcome).await?;
    }
    for run in fresh.chunks(RUN) {
        if stopping(shutdown) {
            break;
        }
        let pictures = Pictures::of(marks, &claims.gallery, run).await?;
        send_run(shared, (marks, claims), sender, run, &pictures, shutdown).await?;
    }
    Ok(())
}

/// One run of mails no attempt has touched: all marked, sent in turn, all recorded in one
/// transaction (a mail the shutdown kept from its turn loses its mark there).
async fn send_run(
    shared: &Shared,
    (marks, claims): (&mut Conn, &Claims),
    sender: &Sender,
    run: &[OutboxRow],
    pictures: &Pictures,
    shutdown: &watch::Receiver<bool>,
) -> Result<(), OutboxError> {
    let ids: Vec<i64> = run.iter().map(|r| r.id).collect();
    store::mark_sending_all(marks, &ids, shared.clock.now()).await?;
    let mut outcomes = Vec::with_capacity(run.len());
    for row in run {
        if stopping(shutdown) {
            break;
        }
        let now = shared.clock.now();
        let mail = out_mail(row, pictures.get(row.picture_id));
        let result = sender.send(&mail).await;
        outcomes.push(outcome(shared, claims, row, result, now).await);
    }
    let now = shared.clock.now();
    let mut tx = marks.begin().await?;
    // The mails that went, as most do, in one statement; each other outcome in its own.
    let sent: Vec<i64> = run
        .iter()
        .zip(&outcomes)
        .filter(|(_, outcome)| matches!(outcome, Outcome::Sent))
        .map(|(row, _)| row.id)
        .collect();
    store::mark_sent_all(&mut tx, &sent, now).await?;
    for (row, outcome) in run.iter().zip(&outcomes) {
        if !matches!(outcome, Outcome::Sent) {
            record(&mut tx, now, row.id, outcome).await?;
        }
    }
    for row in &run[outcomes.len()..] {
        store::unmark_sending(&mut tx, row.id).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// One row: settled against the archive if an earlier attempt was cut short, else sent.
async fn send_row(
    shared: &Shared,
    marks: &mut Conn,
    sender: &Sender,
    archive: Option<&ServerConfig>,
    claims: &Claims,
    row: &OutboxRow,
) -> Result<Outcome, OutboxError> {
    let now = shared.clock.now();
    if let Some(since) = row.sending_since {
        // The last attempt was cut short: never send twice if the first got through.
        match already_sent(archive, &row.message_id).await {
            Some(true) => {
                tracing::info!(
                    "outbox {} to {}: found in the archive, already sent",
                    row.kind,
                    row.to_address
                );
                return Ok(Outcome::Sent);
            }
            // Not there yet: the relay may still be delivering its copy
            // (`archive_grace_seconds`, 60 by default).
            Some(false) if now - since < shared.archive_grace => {
                return Ok(Outcome::Postpone(now + 10));
            }
            Some(false) => {}
            // The archive cannot be asked now: wait rather than risk a duplicate.
            None if archive.is_some() => return Ok(Outcome::Postpone(now + 10)),
            None => tracing::info!(
                "outbox {} to {}: an earlier attempt was cut short and no archive is configured; sending again",
                row.kind,
                row.to_address
            ),
        }
    }
    // Marked right before the attempt: from here until its outcome is recorded, a crash leaves
    // this mail in doubt, and the archive decides.
    let pictures = Pictures::of(marks, &claims.gallery, std::slice::from_ref(row)).await?;
    store::mark_sending(marks, row.id, now).await?;
    let result = sender
        .send(&out_mail(row, pictures.get(row.picture_id)))
        .await;
    Ok(outcome(shared, claims, row, result, now).await)
}

fn out_mail(row: &OutboxRow, picture: Option<&Picture>) -> OutMail {
    OutMail {
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
        extra_headers: vec![("X-Chancery-Kind".into(), row.kind.as_str().into())],
        html: picture.and_then(|p| html_part(row, p)),
    }
}

/// The HTML alternative of a mail that shows a picture: the picture, then the text. A mail
/// whose HTML cannot be made goes as text alone (logged): the text is the mail.
fn html_part(row: &OutboxRow, picture: &Picture) -> Option<HtmlPart> {
    let width = picture.width;
    match html::mail_with_picture(
        &row.subject,
        &row.body,
        &picture.alt,
        html::MAP_CONTENT_ID,
        width,
    ) {
        Ok(html) => Some(HtmlPart {
            html,
            pictures: vec![InlinePicture {
                content_id: html::MAP_CONTENT_ID.to_string(),
                png: picture.encoded.clone(),
            }],
        }),
        Err(e) => {
            tracing::warn!(
                "outbox {} to {}: no HTML part: {e}",
                row.kind,
                row.to_address
            );
            None
        }
    }
}

/// What a send's result means for its row (and the alert when the archive refused its copy).
async fn outcome(
    shared: &Shared,
    claims: &Claims,
    row: &OutboxRow,
    result: Result<SendReport, SendError>,
    now: Ts,
) -> Outcome {
    let back = match &result {
        Ok(_) => claims.relay.lock().ok().and_then(|mut r| r.took()),
        Err(e) if e.kind != FailureKind::Permanent => {
            if let Ok(mut r) = claims.relay.lock() {
                r.failed(now, &e.message);
            }
            None
        }
        Err(_) => None,
    };
    if let Some(outage) = back {
        relay_back(shared, outage, now).await;
    }
    match result {
        Ok(report) => {
            if let Some(e) = report.archive_error {
                archive_refused(shared, row, &e, now).await;
            }
            Outcome::Sent
        }
        Err(SendError {
            kind: FailureKind::Permanent,
            message,
        }) => {
            tracing::warn!(
                "outbox {} to {}: permanent failure: {message}",
                row.kind,
                row.to_address
            );
            Outcome::Failed(message)
        }
        Err(SendError {
            kind: FailureKind::Uncertain,
            message,
        }) => {
            // It may have gone: keep it marked as sending, so that the archive is asked
            // before any retry.
            tracing::warn!(
                "outbox {} to {}: outcome unknown ({message}); the archive decides",
                row.kind,
                row.to_address
            );
            Outcome::Postpone(now + backoff_secs(row.attempts))
        }
        Err(e) => Outcome::Retry(now + backoff_secs(row.attempts), e.message),
    }
}

async fn archive_refused(shared: &Shared, row: &OutboxRow, e: &str, now: Ts) {
    tracing::warn!("outbox {} to {}: sent, but {e}", row.kind, row.to_address);
    let day = now.div_euclid(crate::time::DAY);
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

/// Record a row's outcome on the sender's own connection (a WAL write, see the module).
async fn record(c: &mut Conn, now: Ts, id: i64, outcome: &Outcome) -> Result<(), OutboxError> {
    match outcome {
        Outcome::Sent => store::mark_sent(c, id, now).await,
        Outcome::Failed(why) => store::mark_failed(c, id, now, why).await,
        Outcome::Retry(next, why) => store::mark_retry(c, id, *next, why).await,
        Outcome::Postpone(next) => store::postpone(c, id, *next).await,
    }
    .map_err(OutboxError::from)
}

#[cfg(test)]
mod tests {
    use super::{CLAIM, take_unheld};
    use std::collections::HashSet;

    /// Issue 22: a row another sender finished between this claim's read and its look at what is
    /// held was read while still marked as being sent; taking it would treat it as cut short.
    #[test]
    fn a_row_held_when_the_read_began_is_not_taken_even_if_released_since() {
        let held_at_start: HashSet<i64> = [2, 3].into();
        // Sender A finished row 2 meanwhile; row 3 is still held.
        let mut inflight: HashSet<i64> = [3].into();
        let (taken, more) = take_unheld(vec![1, 2, 3, 4], |r| *r, &held_at_start, &mut inflight);
        assert_eq!(taken, vec![1, 4]);
        assert!(!more);
        assert_eq!(inflight, [1, 3, 4].into());
    }

    #[test]
    fn a_claim_takes_at_most_claim_rows_and_says_more_are_left() {
        let due: Vec<i64> = (0..CLAIM + 5).collect();
        let mut inflight = HashSet::new();
        let (taken, more) = take_unheld(due, |r| *r, &HashSet::new(), &mut inflight);
        assert_eq!(taken.len() as i64, CLAIM);
        assert!(more);
        assert_eq!(inflight.len() as i64, CLAIM);
    }
}
