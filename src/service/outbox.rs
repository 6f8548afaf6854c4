//! The outbox task: sends what the engine enqueued, once, with the archive as the witness.

use super::{Shared, alert, pause, stopping};
use crate::policy::Ts;
use crate::store;
use crate::transport::ServerConfig;
use crate::transport::imap::Mailbox;
use crate::transport::smtp::{FailureKind, OutMail, SendError, Sender};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

fn backoff_secs(attempts: i64) -> Ts {
    // 5 s, 10 s, 20 s … capped at an hour.
    (5_i64 << attempts.clamp(0, 10)).min(3600)
}

pub(super) async fn outbox_task(
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
                tracing::warn!("smtp: {e}");
                if pause(&mut shutdown, Duration::from_secs(5)).await {
                    return;
                }
            }
        }
    };
    while !stopping(&shutdown) {
        if let Err(e) = send_due(&shared, &sender, archive.as_ref(), &shutdown).await {
            tracing::warn!("outbox: {e}");
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
                    tracing::info!(
                        "outbox {} to {}: found in the archive, already sent",
                        row.kind,
                        row.to_address
                    );
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
                None => tracing::info!(
                    "outbox {} to {}: an earlier attempt was cut short and no archive is configured; sending again",
                    row.kind,
                    row.to_address
                ),
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
            extra_headers: vec![("X-Chancery-Kind".into(), row.kind.as_str().into())],
        };
        match sender.send(&mail).await {
            Ok(report) => {
                if let Some(e) = report.archive_error {
                    tracing::warn!("outbox {} to {}: sent, but {e}", row.kind, row.to_address);
                    let day = now.div_euclid(crate::policy::DAY);
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
                tracing::warn!(
                    "outbox {} to {}: permanent failure: {message}",
                    row.kind, row.to_address
                );
                store::mark_failed(&mut c, row.id, now, &message).await
            }
            Err(SendError {
                kind: FailureKind::Uncertain,
                message,
            }) => {
                // It may have gone: keep it marked as sending, so that the archive is asked
                // before any retry.
                tracing::warn!(
                    "outbox {} to {}: outcome unknown ({message}); the archive decides",
                    row.kind, row.to_address
                );
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
