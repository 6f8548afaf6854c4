//! The ledger: one row per message read (by mailbox position and by content), the raw mail
//! for as long as it is kept, receipts, poisoned messages, silent drops and answer counts.

use super::*;

/// Answers to an address: the kinds are [`MailKind::answers_the_sender`]'s (a unit test keeps
/// the list the same; a whole literal, so that tests/store.rs can explain it).
const ANSWERS_TO: &str =
    "SELECT count(*) AS n FROM outbox WHERE to_address = $1 AND created_at >= $2
     AND kind IN ('ack', 'rejection', 'receipt', 'notice', 'query-reply', 'command-reply')";

/// Answers to an address, rejections for failed authentication to it, and answers about a
/// game ([`MailKind::answers_about_a_game`]).
///
/// Each count stops at its limit (`{to_address}`, `{auth_rejections}`, `{in_game}`, written
/// into the text by [`answers_since_sql`]): a bound LIMIT would make SQLite prepare the
/// statement again on every run (it plans with a bound LIMIT's value), which cost more than
/// the counting it saves.
const ANSWERS_SINCE: &str = "SELECT
       (SELECT count(*) FROM (SELECT 1 FROM outbox WHERE to_address = $1 AND created_at >= $3
          AND kind IN ('ack', 'rejection', 'receipt', 'notice', 'query-reply', 'command-reply')
          LIMIT {to_address}) AS sub) AS to_address,
       (SELECT count(*) FROM (SELECT 1 FROM outbox WHERE to_address = $1 AND created_at >= $3
          AND kind IN ('auth-rejection', 'report') LIMIT {auth_rejections}) AS sub) AS auth_rejections,
       (SELECT count(*) FROM (SELECT 1 FROM outbox WHERE game_id = $2 AND created_at >= $3
          AND kind IN ('ack', 'rejection', 'auth-rejection', 'receipt', 'notice', 'report', 'query-reply', 'command-reply')
          LIMIT {in_game}) AS sub) AS in_game";

/// [`ANSWERS_SINCE`] with its limits written in: integers, so the text is safe, and the same
/// for every answer of a server (SQLite's prepared statement is kept for it).
pub(super) fn answers_since_sql(at_most: AnswerCounts) -> String {
    ANSWERS_SINCE
        .replace("{to_address}", &at_most.to_address.max(0).to_string())
        .replace(
            "{auth_rejections}",
            &at_most.auth_rejections.max(0).to_string(),
        )
        .replace("{in_game}", &at_most.in_game.max(0).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sql_lists_of_answers_are_the_enums() {
        let to = MailKind::sql_list(MailKind::answers_the_sender);
        let unproven = MailKind::sql_list(MailKind::unproven_sender);
        let game = MailKind::sql_list(MailKind::answers_about_a_game);
        assert!(ANSWERS_TO.contains(&format!("kind IN ({to})")));
        assert!(ANSWERS_SINCE.contains(&format!("kind IN ({to})\n          LIMIT {{to_address}}")));
        assert!(ANSWERS_SINCE.contains(&format!("kind IN ({unproven}) LIMIT {{auth_rejections}}")));
        assert!(ANSWERS_SINCE.contains(&format!("kind IN ({game})\n          LIMIT {{in_game}}")));
        let sql = answers_since_sql(AnswerCounts {
            to_address: 30,
            auth_rejections: 3,
            in_game: -1,
        });
        assert!(sql.contains("LIMIT 30) AS sub) AS to_address"), "{sql}");
        assert!(sql.contains("LIMIT 3) AS sub) AS auth_rejections"), "{sql}");
        assert!(sql.contains("LIMIT 0) AS sub) AS in_game"), "{sql}");
    }
}

/// A received message, where it was found and what it is: the key of its ledger row.
#[derive(Clone, Copy, Debug)]
pub struct Seen<'a> {
    pub mailbox: &'a str,
    pub uidvalidity: u32,
    pub uid: u32,
    /// The SHA-256 of the raw bytes.
    pub sha256: &'a str,
    /// The SHA-256 of its content without the header fields each delivery adds.
    pub content_sha256: &'a str,
}

/// Take message `m` for this transaction, where several Chancery instances read the same
/// mailbox (issue 28): false when another instance's transaction has it now (it answers it;
/// this one leaves it, and looks again after its poll). A message is one claim whatever its
/// UID, as [`processed`] looks at its content too. With `wait`, the other instance's claim is
/// waited for and this one then has it (a caller that holds no other claim: no two waits can
/// close a circle). SQLite: always true (one writer at a time; its write lock is the claim).
/// PostgreSQL: a transaction-level advisory lock, let go at the commit or when the instance
/// dies (its connection closes), so no claim outlives its holder.
pub async fn claim_message(c: &mut Conn, m: &Seen<'_>, wait: bool) -> Result<bool> {
    claim(c, &message_claim(m), wait).await
}

/// The key of message `m`'s claim: its content, so that the same mail under two UIDs is one.
fn message_claim(m: &Seen<'_>) -> String {
    format!("message|{}|{}", m.mailbox, m.content_sha256)
}

/// What a message of a batch is to the transaction that admits it ([`admit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Not handled before, and this transaction's now.
    New,
    /// Another Chancery instance holds it ([`claim_message`]).
    Claimed,
    /// Handled before ([`processed`]).
    Done,
}

/// [`claim_message`] and then [`processed`] for every message of a batch at once: one claim
/// statement and one read of the ledger for the batch, where each message alone took two
/// round trips to the database (issue 28). With `wait`, each claim is waited for in turn
/// instead (messages looked at again after another instance had them). The claims come first,
/// so that the read sees whatever their last holder committed. In the batch's order.
pub async fn admit(c: &mut Conn, batch: &[Seen<'_>], wait: bool) -> Result<Vec<Admission>> {
    let claimed = if wait {
        for m in batch {
            claim(c, &message_claim(m), true).await?;
        }
        batch.iter().map(message_claim).collect()
    } else {
        try_claims(c, batch).await?
    };
    let handled = handled_of(c, batch).await?;
    Ok(batch
        .iter()
        .map(|m| {
            if !claimed.contains(&message_claim(m)) {
                Admission::Claimed
            } else if handled.iter().any(|h| h.is(m)) {
                Admission::Done
            } else {
                Admission::New
            }
        })
        .collect())
}

/// The claims of `batch` this transaction holds now, each tried once (PostgreSQL's advisory
/// locks; SQLite's write lock is every claim at once).
async fn try_claims(c: &mut Conn, batch: &[Seen<'_>]) -> Result<std::collections::HashSet<String>> {
    let keys: Vec<String> = batch.iter().map(message_claim).collect();
    if Dialect::of(c) == Dialect::Sqlite {
        return Ok(keys.into_iter().collect());
    }
    let rows: Vec<(String, bool)> = sqlx::query_as(
        "SELECT j.value, pg_try_advisory_xact_lock(hashtextextended(j.value, 0))
         FROM jsonb_array_elements_text($1::jsonb) j",
    )
    .bind(serde_json::to_string(&keys)?)
    .fetch_all(&mut *c)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(key, taken)| taken.then_some(key))
        .collect())
}

/// A ledger row's keys, as [`processed`] matches a message against them.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LedgerKey {
    mailbox: String,
    uidvalidity: i64,
    uid: i64,
    sha256: Option<String>,
    content_sha256: Option<String>,
}

impl LedgerKey {
    /// The keys message `m`'s ledger row will have.
    pub fn of(m: &Seen<'_>) -> LedgerKey {
        LedgerKey {
            mailbox: m.mailbox.to_string(),
            uidvalidity: i64::from(m.uidvalidity),
            uid: i64::from(m.uid),
            sha256: Some(m.sha256.to_string()),
            content_sha256: Some(m.content_sha256.to_string()),
        }
    }

    /// Whether this row is message `m`'s, as [`processed`] decides.
    pub fn is(&self, m: &Seen<'_>) -> bool {
        self.mailbox == m.mailbox
            && ((self.uidvalidity == i64::from(m.uidvalidity) && self.uid == i64::from(m.uid))
                || self.sha256.as_deref() == Some(m.sha256)
                || self.content_sha256.as_deref() == Some(m.content_sha256))
    }
}

/// The ledger rows of any message of `batch`, by position or by content, in one read (each
/// lookup indexed, as in [`processed`]: an `IN` list, which SQLite probes an index with for
/// each value, where a join would have it scan the mailbox's rows).
async fn handled_of(c: &mut Conn, batch: &[Seen<'_>]) -> Result<Vec<LedgerKey>> {
    let mut rows = Vec::new();
    let places: std::collections::BTreeSet<(&str, u32)> =
        batch.iter().map(|m| (m.mailbox, m.uidvalidity)).collect();
    for (mailbox, uidvalidity) in places {
        let of_place = batch
            .iter()
            .filter(|m| (m.mailbox, m.uidvalidity) == (mailbox, uidvalidity));
        let (mut uids, mut shas, mut contents) = (Vec::new(), Vec::new(), Vec::new());
        for m in of_place {
            uids.push(m.uid);
            shas.push(m.sha256);
            contents.push(m.content_sha256);
        }
        let found: Vec<LedgerKey> = sqlx::query_as(crate::store::dialect::sql!(
            c,
            concat!(
                "SELECT mailbox, uidvalidity, uid, sha256, content_sha256 FROM ledger
                 WHERE mailbox = $1 AND uidvalidity = $2
                   AND uid IN (SELECT CAST(value AS BIGINT) FROM ",
                json_values!(3),
                ")
                 UNION ALL
                 SELECT mailbox, uidvalidity, uid, sha256, content_sha256 FROM ledger
                 WHERE mailbox = $1 AND sha256 IN (SELECT value FROM ",
                json_values!(4),
                ")
                 UNION ALL
                 SELECT mailbox, uidvalidity, uid, sha256, content_sha256 FROM ledger
                 WHERE mailbox = $1 AND content_sha256 IN (SELECT value FROM ",
                json_values!(5),
                ")",
            )
        ))
        .bind(mailbox)
        .bind(i64::from(uidvalidity))
        .bind(serde_json::to_string(&uids)?)
        .bind(serde_json::to_string(&shas)?)
        .bind(serde_json::to_string(&contents)?)
        .fetch_all(&mut *c)
        .await?;
        rows.extend(found);
    }
    Ok(rows)
}

/// A transaction-level claim on `key` (PostgreSQL's advisory lock; SQLite's write lock is every
/// claim at once).
async fn claim(c: &mut Conn, key: &str, wait: bool) -> Result<bool> {
    if Dialect::of(c) == Dialect::Sqlite {
        return Ok(true);
    }
    if wait {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(key)
            .execute(&mut *c)
            .await?;
        return Ok(true);
    }
    Ok(
        sqlx::query_scalar("SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(key)
            .fetch_one(&mut *c)
            .await?,
    )
}

/// Has this message been handled (processed or set aside)? By its position in the mailbox, or
/// by its content: the same bytes seen again under another UID (a redelivery, a new
/// UIDVALIDITY), or the same message delivered again in another SMTP transaction (the same
/// content with other trace headers, issue 21.13), are the same message. A Message-ID alone
/// decides nothing: any sender can reuse one.
pub async fn processed(c: &mut Conn, m: &Seen<'_>) -> Result<bool> {
    let found = handled_of(c, std::slice::from_ref(m)).await?;
    Ok(found.iter().any(|h| h.is(m)))
}

/// The UIDs from `lo` to `hi` that have a ledger row in a mailbox for this UIDVALIDITY: one
/// read for a whole pass's messages that another instance had (issue 28), rather than a fetch
/// of each from the mail server to find it done.
pub async fn handled_uids(
    c: &mut Conn,
    mailbox: &str,
    uidvalidity: u32,
    (lo, hi): (u32, u32),
) -> Result<std::collections::BTreeSet<u32>> {
    let rows = sqlx::query(
        "SELECT uid FROM ledger WHERE mailbox = $1 AND uidvalidity = $2 AND uid BETWEEN $3 AND $4",
    )
    .bind(mailbox)
    .bind(i64::from(uidvalidity))
    .bind(i64::from(lo))
    .bind(i64::from(hi))
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok(u32::try_from(r.try_get::<i64, _>("uid")?).unwrap_or(0)))
        .collect()
}

/// The highest UID processed in a mailbox for this UIDVALIDITY.
pub async fn last_uid(c: &mut Conn, mailbox: &str, uidvalidity: u32) -> Result<u32> {
    let row =
        sqlx::query("SELECT max(uid) AS u FROM ledger WHERE mailbox = $1 AND uidvalidity = $2")
            .bind(mailbox)
            .bind(i64::from(uidvalidity))
            .fetch_one(&mut *c)
            .await?;
    let u: Option<i64> = row.try_get("u")?;
    Ok(u.and_then(|u| u32::try_from(u).ok()).unwrap_or(0))
}

/// A received message as the store keeps it: its `messages` row (the raw mail, for replays,
/// and what became of it) and its ledger row.
#[derive(Clone, Debug)]
pub struct MessageRecord<'a> {
    pub seen: Seen<'a>,
    pub message_id: Option<&'a str>,
    pub raw: &'a [u8],
    pub received_at: Ts,
    /// When the mail server received it.
    pub internal_date: Option<Ts>,
    pub from: Option<&'a str>,
    pub subject: String,
    /// The game, power and phase it was about.
    pub game: Option<String>,
    pub power: Option<String>,
    pub phase: Option<String>,
    pub outcome: &'static str,
}

/// Record a received message and its ledger row. Call inside the transaction holding the
/// message's effects.
pub async fn record_message(c: &mut Conn, m: &MessageRecord<'_>) -> Result<()> {
    record_messages(c, std::slice::from_ref(m)).await
}

/// [`record_message`] for many messages, in two statements (issue 28: a batch's messages are
/// recorded together as it ends, where each took two round trips to the database).
pub async fn record_messages(c: &mut Conn, records: &[MessageRecord<'_>]) -> Result<()> {
    for chunk in records.chunks(dialect::ROWS_A_STATEMENT) {
        let mut q = dialect::Statement::new(
            c,
            "INSERT INTO messages (mailbox, uidvalidity, uid, message_id, sha256, raw, received_at, \
             from_address, subject, game_id, power, phase, outcome, internal_date) ",
        );
        q.values(chunk, |b, m| {
            b.bind(m.seen.mailbox)
                .bind(i64::from(m.seen.uidvalidity))
                .bind(i64::from(m.seen.uid))
                .bind(m.message_id)
                .bind(m.seen.sha256)
                .bind(m.raw)
                .bind(m.received_at)
                .bind(m.from)
                .bind(&m.subject)
                .bind(&m.game)
                .bind(&m.power)
                .bind(&m.phase)
                .bind(m.outcome)
                .bind(m.internal_date);
        });
        q.query()?.execute(&mut *c).await?;
        let rows: Vec<LedgerRow<'_>> = chunk
            .iter()
            .map(|m| LedgerRow {
                seen: m.seen,
                message_id: m.message_id,
                at: m.received_at,
                poisoned: None,
            })
            .collect();
        ledger_rows(c, &rows).await?;
    }
    Ok(())
}

/// A ledger row to write: the message, its Message-ID, when it was handled, and why it was
/// set aside if it was.
struct LedgerRow<'a> {
    seen: Seen<'a>,
    message_id: Option<&'a str>,
    at: Ts,
    poisoned: Option<&'a str>,
}

/// Write ledger rows, as few statements as the database's limit on parameters allows.
async fn ledger_rows(c: &mut Conn, rows: &[LedgerRow<'_>]) -> Result<()> {
    for chunk in rows.chunks(dialect::ROWS_A_STATEMENT) {
        let mut q = dialect::Statement::new(
            c,
            "INSERT INTO ledger (mailbox, uidvalidity, uid, message_id, processed_at, sha256, \
             status, error, content_sha256) ",
        );
        q.values(chunk, |b, r| {
            b.bind(r.seen.mailbox)
                .bind(i64::from(r.seen.uidvalidity))
                .bind(i64::from(r.seen.uid))
                .bind(r.message_id)
                .bind(r.at)
                .bind(r.seen.sha256)
                .bind(if r.poisoned.is_some() {
                    "poisoned"
                } else {
                    "done"
                })
                .bind(r.poisoned)
                .bind(r.seen.content_sha256);
        });
        q.query()?.execute(&mut *c).await?;
    }
    Ok(())
}

/// Set a message aside: handling it failed (a panic, or an error that retrying did not cure).
/// The raw bytes are kept so the incident can be replayed; the ledger row says why, and the
/// mailbox goes on to the next UID.
#[allow(clippy::too_many_arguments)]
pub async fn record_poisoned(
    c: &mut Conn,
    m: &Seen<'_>,
    message_id: Option<&str>,
    raw: &[u8],
    now: Ts,
    internal_date: Option<Ts>,
    error: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO messages (mailbox, uidvalidity, uid, message_id, sha256, raw, received_at, outcome, internal_date)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'poisoned', $8)
         ON CONFLICT (mailbox, uidvalidity, uid) DO NOTHING",
    )
    .bind(m.mailbox)
    .bind(i64::from(m.uidvalidity))
    .bind(i64::from(m.uid))
    .bind(message_id)
    .bind(m.sha256)
    .bind(raw)
    .bind(now)
    .bind(internal_date)
    .execute(&mut *c)
    .await?;
    let row = LedgerRow {
        seen: *m,
        message_id,
        at: now,
        poisoned: Some(error),
    };
    ledger_rows(c, &[row]).await
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

pub async fn poisoned(c: &mut Conn) -> Result<Vec<PoisonedRow>> {
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

/// What a copy at the confirmation box vouches for (WM D.VII(1), D.VII(7)): a mail with this
/// Message-ID, from this sender, in this game, saying what `read_digest` digests.
pub struct Confirmation<'a> {
    pub message_id: &'a str,
    pub from: &'a str,
    pub game: &'a str,
    pub read_digest: &'a str,
}

/// Record a copy at the confirmation box; the earliest arrival of the same copy stands.
pub async fn record_confirmation(
    c: &mut Conn,
    k: &Confirmation<'_>,
    received_at: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO confirmations (message_id, from_address, game_id, read_digest, received_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (message_id, from_address, game_id, read_digest)
         DO UPDATE SET received_at = CASE WHEN excluded.received_at < confirmations.received_at
                                          THEN excluded.received_at
                                          ELSE confirmations.received_at END",
    )
    .bind(k.message_id)
    .bind(k.from)
    .bind(k.game)
    .bind(k.read_digest)
    .bind(received_at)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// When the confirmation box received this very copy, if it did: the same Message-ID, sender,
/// game and content. A copy with only the Message-ID in common vouches for nothing.
pub async fn confirmation_time(c: &mut Conn, k: &Confirmation<'_>) -> Result<Option<Ts>> {
    let row = sqlx::query(
        "SELECT received_at FROM confirmations WHERE message_id = $1 AND from_address = $2
         AND game_id = $3 AND read_digest = $4",
    )
    .bind(k.message_id)
    .bind(k.from)
    .bind(k.game)
    .bind(k.read_digest)
    .fetch_optional(&mut *c)
    .await?;
    Ok(row.map(|r| r.try_get("received_at")).transpose()?)
}

/// Record a mail that was read and deliberately not answered.
#[allow(clippy::too_many_arguments)]
pub async fn record_drop(
    c: &mut Conn,
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

/// Every mail sent in answer to a mail (acknowledgements, rejections, receipts, query and
/// command replies, notices, reports: [`MailKind::answers_the_sender`]) to `address` since
/// `since`. Rejections for failed authentication are not among them: they have their own
/// budget ([`answers_since`]).
pub async fn answers_to(c: &mut Conn, address: &str, since: Ts) -> Result<i64> {
    let row = sqlx::query(ANSWERS_TO)
        .bind(address)
        .bind(since)
        .fetch_one(&mut *c)
        .await?;
    Ok(row.try_get("n")?)
}

/// Answers mailed since `since`, as the limits count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnswerCounts {
    /// To the address, as [`answers_to`] counts.
    pub to_address: i64,
    /// What mail that failed authentication caused to the address (rejections, impersonation
    /// reports): a forger's mail must not use up the player's or the masters' own answers
    /// (issue 21.10), so these are counted apart.
    pub auth_rejections: i64,
    /// About the game, every answer kind (`MailKind::answers_about_a_game`).
    pub in_game: i64,
}

/// Answers mailed since `since` to `address` and about `game` (one query: this runs for every
/// answer), each counted up to its number in `at_most` (the limit it is compared with): the
/// count of a flood's answers stops at the limit, so that every answer costs the same however
/// much mail came before it (issue 22: counting a game's 2,000 answers of the hour was a
/// quarter of the time an order mail took).
pub async fn answers_since(
    c: &mut Conn,
    address: &str,
    game: Option<&str>,
    since: Ts,
    at_most: AnswerCounts,
) -> Result<AnswerCounts> {
    let row = sqlx::query(sqlx::AssertSqlSafe(answers_since_sql(at_most)))
        .bind(address)
        .bind(game)
        .bind(since)
        .fetch_one(&mut *c)
        .await?;
    Ok(AnswerCounts {
        to_address: row.try_get("to_address")?,
        auth_rejections: row.try_get("auth_rejections")?,
        in_game: row.try_get("in_game")?,
    })
}

/// Empty the raw bytes of messages received before `before`; their ledger rows and metadata
/// stay. Returns how many were purged.
pub async fn purge_raw(c: &mut Conn, before: Ts, now: Ts) -> Result<u64> {
    let r = sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "UPDATE messages SET raw = ",
            empty_blob!(),
            ", raw_purged_at = $1 WHERE received_at < $2 AND raw_purged_at IS NULL",
        )
    ))
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
    /// Pictures (a phase's map) no mail names any more (`outbox_pictures`).
    pub pictures: u64,
    /// Ballots on proposals long decided (`office_ballots`).
    pub ballots: u64,
}

/// Empty the bodies of outgoing mail made before `before` that is done with (sent, or given
/// up): start mails carry secrets, results carry press. Mail still to send is never touched;
/// the rows (Message-IDs, recipients, subjects) stay.
pub async fn purge_outbox_bodies(c: &mut Conn, before: Ts) -> Result<u64> {
    let r = sqlx::query(
        "UPDATE outbox SET body = '' WHERE created_at < $1 AND body <> ''
           AND (sent_at IS NOT NULL OR failed_at IS NOT NULL)",
    )
    .bind(before)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected())
}
