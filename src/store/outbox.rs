//! The outbox: every mail Chancery sends is a row here first, committed with its cause.

use super::*;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    pub id: i64,
    pub kind: String,
    pub message_id: String,
    pub from_address: String,
    pub to_address: String,
    pub subject: String,
    pub body: String,
    pub in_reply_to: Option<String>,
    pub refs: String,
    pub auto_submitted: String,
    pub attempts: i64,
    /// Set when a send began and did not finish (a crash in between).
    pub sending_since: Option<Ts>,
}

/// A mail to send, as the engine writes it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NewMail {
    pub kind: &'static str,
    pub message_id: String,
    pub from: String,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub in_reply_to: Option<String>,
    pub refs: Vec<String>,
    pub auto_submitted: &'static str,
    /// The game the mail is about, if any (answer limits count per game).
    pub game: Option<String>,
}

pub async fn enqueue(c: &mut SqliteConnection, m: &NewMail, now: Ts) -> Result<()> {
    enqueue_many(c, std::slice::from_ref(m), now).await
}

/// Enqueue several mails in one statement (a deadline's results: one query, not one a player).
/// A mail whose Message-ID is already there is skipped, as in [`enqueue`].
pub async fn enqueue_many(c: &mut SqliteConnection, mails: &[NewMail], now: Ts) -> Result<()> {
    // 11 parameters a row; SQLite allows 32,766 in one statement.
    for chunk in mails.chunks(500) {
        let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "INSERT INTO outbox (kind, message_id, from_address, to_address, subject, body, in_reply_to, refs, auto_submitted, created_at, next_attempt_at, game_id) ",
        );
        q.push_values(chunk, |mut b, m| {
            b.push_bind(m.kind)
                .push_bind(&m.message_id)
                .push_bind(&m.from)
                .push_bind(&m.to)
                .push_bind(&m.subject)
                .push_bind(&m.body)
                .push_bind(m.in_reply_to.as_deref())
                .push_bind(m.refs.join(" "))
                .push_bind(m.auto_submitted)
                .push_bind(now)
                .push_bind(now)
                .push_bind(m.game.as_deref());
        });
        q.push(" ON CONFLICT (message_id) DO NOTHING");
        q.build().execute(&mut *c).await?;
    }
    Ok(())
}

/// Mail due to be sent: confirmation receipts first (they promise "within seconds", WM D.VII(7),
/// and must not wait behind a burst of acknowledgements or results), then oldest first.
pub async fn due_outbox(c: &mut SqliteConnection, now: Ts, limit: i64) -> Result<Vec<OutboxRow>> {
    let rows = sqlx::query(
        "SELECT * FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1
         ORDER BY CASE kind WHEN 'receipt' THEN 0 ELSE 1 END, next_attempt_at, id LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(OutboxRow {
                id: r.try_get("id")?,
                kind: r.try_get("kind")?,
                message_id: r.try_get("message_id")?,
                from_address: r.try_get("from_address")?,
                to_address: r.try_get("to_address")?,
                subject: r.try_get("subject")?,
                body: r.try_get("body")?,
                in_reply_to: r.try_get("in_reply_to")?,
                refs: r.try_get("refs")?,
                auto_submitted: r.try_get("auto_submitted")?,
                attempts: r.try_get("attempts")?,
                sending_since: r.try_get("sending_since")?,
            })
        })
        .collect()
}

pub async fn next_outbox_attempt(c: &mut SqliteConnection) -> Result<Option<Ts>> {
    let row = sqlx::query(
        "SELECT min(next_attempt_at) AS t FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL",
    )
    .fetch_one(&mut *c)
    .await?;
    Ok(row.try_get("t")?)
}

pub async fn mark_sending(c: &mut SqliteConnection, id: i64, now: Ts) -> Result<()> {
    sqlx::query("UPDATE outbox SET sending_since = $1, attempts = attempts + 1 WHERE id = $2")
        .bind(now)
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Mark several rows as being sent, in one transaction (one fsync, not one a row). Safe
/// because the archive decides, for any row still marked after a crash, whether it went.
pub async fn mark_sending_many(pool: &sqlx::SqlitePool, ids: &[i64], now: Ts) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    for id in ids {
        mark_sending(&mut tx, *id, now).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Mark several rows as sent, in one transaction.
pub async fn mark_sent_many(pool: &sqlx::SqlitePool, ids: &[i64], now: Ts) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    for id in ids {
        mark_sent(&mut tx, *id, now).await?;
    }
    tx.commit().await?;
    Ok(())
}

pub async fn mark_sent(c: &mut SqliteConnection, id: i64, now: Ts) -> Result<()> {
    sqlx::query(
        "UPDATE outbox SET sent_at = $1, sending_since = NULL, last_error = NULL WHERE id = $2",
    )
    .bind(now)
    .bind(id)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Try again at `next`, after an attempt that finished with a transient error.
pub async fn mark_retry(c: &mut SqliteConnection, id: i64, next: Ts, error: &str) -> Result<()> {
    sqlx::query("UPDATE outbox SET next_attempt_at = $1, sending_since = NULL, last_error = $2 WHERE id = $3")
        .bind(next)
        .bind(error)
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Look again at `next`, keeping `sending_since`: an attempt cut short stays marked until the
/// archive says whether it got through.
pub async fn postpone(c: &mut SqliteConnection, id: i64, next: Ts) -> Result<()> {
    sqlx::query("UPDATE outbox SET next_attempt_at = $1 WHERE id = $2")
        .bind(next)
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn mark_failed(c: &mut SqliteConnection, id: i64, now: Ts, error: &str) -> Result<()> {
    sqlx::query(
        "UPDATE outbox SET failed_at = $1, sending_since = NULL, last_error = $2 WHERE id = $3",
    )
    .bind(now)
    .bind(error)
    .bind(id)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Counts of outgoing mail by state, for status reports and tests.
pub async fn outbox_counts(c: &mut SqliteConnection) -> Result<(i64, i64, i64)> {
    let row = sqlx::query(
        "SELECT count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL) AS pending,
                count(*) FILTER (WHERE sent_at IS NOT NULL) AS sent,
                count(*) FILTER (WHERE failed_at IS NOT NULL) AS failed FROM outbox",
    )
    .fetch_one(&mut *c)
    .await?;
    Ok((
        row.try_get("pending")?,
        row.try_get("sent")?,
        row.try_get("failed")?,
    ))
}
