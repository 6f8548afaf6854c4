//! The ledger: one row per message read (by mailbox position and by content), the raw mail
//! for as long as it is kept, receipts, poisoned messages, silent drops and answer counts.

use super::*;

/// Has this message been handled (processed or set aside)? By its position in the mailbox, or
/// by its content: the same bytes seen again under another UID (a redelivery, a new
/// UIDVALIDITY) are the same message. A Message-ID alone decides nothing: any sender can reuse
/// one.
pub async fn processed(
    c: &mut SqliteConnection,
    mailbox: &str,
    uidvalidity: u32,
    uid: u32,
    sha256: &str,
) -> Result<bool> {
    // Two indexed lookups: an OR across them would scan the ledger.
    let row = sqlx::query(
        "SELECT 1 FROM ledger WHERE mailbox = $1 AND uidvalidity = $2 AND uid = $3
         UNION ALL SELECT 1 FROM ledger WHERE mailbox = $1 AND sha256 = $4 LIMIT 1",
    )
    .bind(mailbox)
    .bind(i64::from(uidvalidity))
    .bind(i64::from(uid))
    .bind(sha256)
    .fetch_optional(&mut *c)
    .await?;
    Ok(row.is_some())
}

/// The highest UID processed in a mailbox for this UIDVALIDITY.
pub async fn last_uid(c: &mut SqliteConnection, mailbox: &str, uidvalidity: u32) -> Result<u32> {
    let row =
        sqlx::query("SELECT max(uid) AS u FROM ledger WHERE mailbox = $1 AND uidvalidity = $2")
            .bind(mailbox)
            .bind(i64::from(uidvalidity))
            .fetch_one(&mut *c)
            .await?;
    let u: Option<i64> = row.try_get("u")?;
    Ok(u.and_then(|u| u32::try_from(u).ok()).unwrap_or(0))
}

/// Record a received message and its ledger row. Call inside the transaction holding the
/// message's effects.
#[allow(clippy::too_many_arguments)]
pub async fn record_message(
    c: &mut SqliteConnection,
    mailbox: &str,
    uidvalidity: u32,
    uid: u32,
    message_id: Option<&str>,
    raw: &[u8],
    sha256: &str,
    received_at: Ts,
    internal_date: Option<Ts>,
    from: Option<&str>,
    subject: &str,
    game: Option<&str>,
    power: Option<&str>,
    phase: Option<&str>,
    outcome: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO messages (mailbox, uidvalidity, uid, message_id, sha256, raw, received_at, from_address, subject, game_id, power, phase, outcome, internal_date)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(mailbox)
    .bind(i64::from(uidvalidity))
    .bind(i64::from(uid))
    .bind(message_id)
    .bind(sha256)
    .bind(raw)
    .bind(received_at)
    .bind(from)
    .bind(subject)
    .bind(game)
    .bind(power)
    .bind(phase)
    .bind(outcome)
    .bind(internal_date)
    .execute(&mut *c)
    .await?;
    ledger_row(
        c,
        mailbox,
        uidvalidity,
        uid,
        message_id,
        sha256,
        received_at,
        None,
    )
    .await
}

#[allow(clippy::too_many_arguments)]
pub(super) async fn ledger_row(
    c: &mut SqliteConnection,
    mailbox: &str,
    uidvalidity: u32,
    uid: u32,
    message_id: Option<&str>,
    sha256: &str,
    now: Ts,
    poisoned: Option<&str>,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO ledger (mailbox, uidvalidity, uid, message_id, processed_at, sha256, status, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(mailbox)
    .bind(i64::from(uidvalidity))
    .bind(i64::from(uid))
    .bind(message_id)
    .bind(now)
    .bind(sha256)
    .bind(if poisoned.is_some() { "poisoned" } else { "done" })
    .bind(poisoned)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Set a message aside: handling it failed (a panic, or an error that retrying did not cure).
/// The raw bytes are kept so the incident can be replayed; the ledger row says why, and the
/// mailbox goes on to the next UID.
#[allow(clippy::too_many_arguments)]
pub async fn record_poisoned(
    c: &mut SqliteConnection,
    mailbox: &str,
    uidvalidity: u32,
    uid: u32,
    message_id: Option<&str>,
    raw: &[u8],
    sha256: &str,
    now: Ts,
    internal_date: Option<Ts>,
    error: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO messages (mailbox, uidvalidity, uid, message_id, sha256, raw, received_at, outcome, internal_date)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'poisoned', $8)
         ON CONFLICT (mailbox, uidvalidity, uid) DO NOTHING",
    )
    .bind(mailbox)
    .bind(i64::from(uidvalidity))
    .bind(i64::from(uid))
    .bind(message_id)
    .bind(sha256)
    .bind(raw)
    .bind(now)
    .bind(internal_date)
    .execute(&mut *c)
    .await?;
    ledger_row(
        c,
        mailbox,
        uidvalidity,
        uid,
        message_id,
        sha256,
        now,
        Some(error),
    )
    .await
}

/// A poisoned message: (mailbox, uid, message id, error, when).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoisonedRow {
    pub mailbox: String,
    pub uid: i64,
    pub message_id: Option<String>,
    pub error: String,
    pub at: Ts,
}

pub async fn poisoned(c: &mut SqliteConnection) -> Result<Vec<PoisonedRow>> {
    let rows = sqlx::query(
        "SELECT mailbox, uid, message_id, error, processed_at FROM ledger WHERE status = 'poisoned' ORDER BY processed_at",
    )
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(PoisonedRow {
                mailbox: r.try_get("mailbox")?,
                uid: r.try_get("uid")?,
                message_id: r.try_get("message_id")?,
                error: r.try_get::<Option<String>, _>("error")?.unwrap_or_default(),
                at: r.try_get("processed_at")?,
            })
        })
        .collect()
}

pub async fn record_confirmation(
    c: &mut SqliteConnection,
    message_id: &str,
    received_at: Ts,
    from: Option<&str>,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO confirmations (message_id, received_at, from_address) VALUES ($1, $2, $3)
         ON CONFLICT (message_id) DO UPDATE SET received_at = min(received_at, excluded.received_at)",
    )
    .bind(message_id)
    .bind(received_at)
    .bind(from)
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn confirmation_time(c: &mut SqliteConnection, message_id: &str) -> Result<Option<Ts>> {
    let row = sqlx::query("SELECT received_at FROM confirmations WHERE message_id = $1")
        .bind(message_id)
        .fetch_optional(&mut *c)
        .await?;
    Ok(row.map(|r| r.try_get("received_at")).transpose()?)
}

/// Record a mail that was read and deliberately not answered.
#[allow(clippy::too_many_arguments)]
pub async fn record_drop(
    c: &mut SqliteConnection,
    mailbox: &str,
    uid: u32,
    from: Option<&str>,
    game: Option<&str>,
    reason: &str,
    at: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO drops (mailbox, uid, from_address, game_id, reason, at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(mailbox)
    .bind(i64::from(uid))
    .bind(from)
    .bind(game)
    .bind(reason)
    .bind(at)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Answers and impersonation reports (not results, digests or alerts) mailed to `address`
/// since `since`.
pub async fn answers_to(c: &mut SqliteConnection, address: &str, since: Ts) -> Result<i64> {
    let row = sqlx::query(
        "SELECT count(*) AS n FROM outbox WHERE to_address = $1 AND created_at >= $2
         AND kind IN ('ack', 'rejection', 'receipt', 'notice', 'report')",
    )
    .bind(address)
    .bind(since)
    .fetch_one(&mut *c)
    .await?;
    Ok(row.try_get("n")?)
}

/// Answers mailed since `since`: to `address` (as [`answers_to`] counts), and about `game`
/// (one query: this runs for every answer).
pub async fn answers_since(
    c: &mut SqliteConnection,
    address: &str,
    game: Option<&str>,
    since: Ts,
) -> Result<(i64, i64)> {
    let row = sqlx::query(
        "SELECT
           (SELECT count(*) FROM outbox WHERE to_address = $1 AND created_at >= $3
              AND kind IN ('ack', 'rejection', 'receipt', 'notice', 'report')) AS to_address,
           (SELECT count(*) FROM outbox WHERE game_id = $2 AND created_at >= $3
              AND kind IN ('ack', 'rejection', 'receipt', 'notice')) AS in_game",
    )
    .bind(address)
    .bind(game)
    .bind(since)
    .fetch_one(&mut *c)
    .await?;
    Ok((row.try_get("to_address")?, row.try_get("in_game")?))
}

/// Empty the raw bytes of messages received before `before`; their ledger rows and metadata
/// stay. Returns how many were purged.
pub async fn purge_raw(c: &mut SqliteConnection, before: Ts, now: Ts) -> Result<u64> {
    let r = sqlx::query(
        "UPDATE messages SET raw = X'', raw_purged_at = $1 WHERE received_at < $2 AND raw_purged_at IS NULL",
    )
    .bind(now)
    .bind(before)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected())
}

/// What one purge emptied, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Purged {
    pub raw_mail: u64,
    pub press: u64,
    pub submissions: u64,
    pub outbox_bodies: u64,
}

/// Empty the bodies of press written before `before`, once its phase is over (press of a
/// phase still open is yet to be published); the rows stay.
pub async fn purge_press(c: &mut SqliteConnection, before: Ts) -> Result<u64> {
    let r = sqlx::query(
        "UPDATE press SET body = '' WHERE created_at < $1 AND body <> ''
           AND NOT EXISTS (SELECT 1 FROM phases p
                           WHERE p.game_id = press.game_id AND p.phase = press.phase
                             AND p.adjudicated_at IS NULL)",
    )
    .bind(before)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected())
}

/// Empty what the reader understood of each submission made before `before` (its lines as
/// written, press included); when and whether it came stay.
pub async fn purge_submissions(c: &mut SqliteConnection, before: Ts) -> Result<u64> {
    let r = sqlx::query("UPDATE submissions SET read = '' WHERE submitted_at < $1 AND read <> ''")
        .bind(before)
        .execute(&mut *c)
        .await?;
    Ok(r.rows_affected())
}

/// Empty the bodies of outgoing mail made before `before` that is done with (sent, or given
/// up): start mails carry secrets, results carry press. Mail still to send is never touched;
/// the rows (Message-IDs, recipients, subjects) stay.
pub async fn purge_outbox_bodies(c: &mut SqliteConnection, before: Ts) -> Result<u64> {
    let r = sqlx::query(
        "UPDATE outbox SET body = '' WHERE created_at < $1 AND body <> ''
           AND (sent_at IS NOT NULL OR failed_at IS NOT NULL)",
    )
    .bind(before)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected())
}
