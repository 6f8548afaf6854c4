//! The scheduler: deadlines, reminders and digests, once every mailbox is read past them.

use super::MAILBOXES;
use super::{Shared, alert, stopping};
use crate::engine;
use crate::store;
use crate::time::Ts;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How long a mailbox may go without a successful poll before the masters are told.
fn silent_after(poll: Duration) -> Duration {
    (poll * 3).max(Duration::from_secs(3))
}

pub(super) async fn scheduler_task(shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
    // Deadlines seen waiting for a mailbox, since when (real time): alerted once each.
    let mut waiting_since: HashMap<(String, Ts), Instant> = HashMap::new();
    let mut silent_alerted: HashMap<&'static str, bool> = HashMap::new();
    let mut last_purge: Option<Instant> = None;
    while !stopping(&shutdown) {
        let now = shared.clock.now();
        // Nothing is adjudicated before every mailbox has been read once past its deadline.
        let read_through = shared.read_through().unwrap_or(Ts::MIN);
        let mut waiting = false;
        match crate::games::tick_with(&shared.pool, &shared.env, now, read_through).await {
            Ok(r) => {
                if r.adjudicated > 0 {
                    tracing::info!("adjudicated {} phase(s)", r.adjudicated);
                }
                for (game, error) in &r.failed {
                    tracing::warn!("scheduler: game {game}: {error}");
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
            Err(e) => tracing::warn!("scheduler: {e}"),
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
                Ok(mut c) => match store::next_due(&mut c).await {
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
            crate::outgoing::time::gmt(deadline),
            behind.join(" and ")
        ),
    )
    .await;
}

/// Keep what people wrote only as long as configured (raw mail, press, submissions, outgoing
/// mail's bodies); the rows that say what happened stay.
pub(super) async fn purge(shared: &Shared) {
    let now = shared.clock.now();
    match engine::purge_expired(&shared.pool, &shared.env.limits, now).await {
        Ok(p) if p == store::Purged::default() => {}
        Ok(p) => tracing::info!(
            raw_mail = p.raw_mail,
            press = p.press,
            submissions = p.submissions,
            outbox_bodies = p.outbox_bodies,
            pictures = p.pictures,
            "purged what is older than the retention"
        ),
        Err(e) => tracing::warn!("purge: {e}"),
    }
}
