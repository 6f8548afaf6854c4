//! The outbox: every mail Chancery sends is a row here first, committed with its cause.

use super::*;

/// What a mail is. Stored as its kebab-case name; the answer limits count by it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MailKind {
    /// The acknowledgement of an order mail.
    Ack,
    /// A mail refused, with why.
    Rejection,
    /// A mail refused because its sender did not prove who it was: counted apart from the
    /// player's own answers (a forger must not use them up), and it never quotes the mail.
    AuthRejection,
    /// The confirmation box's receipt (WM D.VII(7)).
    Receipt,
    /// "Too many mails": the one notice a sender gets over the hourly limit.
    Notice,
    /// A report to the masters caused by a mail (an impersonation attempt, WM D.X(6)).
    Report,
    /// The answer to a player's query (STATUS, HISTORY, SUMMARY).
    QueryReply,
    /// The answer to a master's or director's command mail.
    CommandReply,
    /// An alert to the masters.
    Alert,
    /// A master's command told to the players (a new deadline, a pause, a rollback...).
    Announcement,
    /// The start mail (or a replacement's welcome) with the player's secret.
    Start,
    Results,
    Digest,
    Reminder,
    /// The results as if adjudicated now, to the masters only.
    Preview,
    /// A tournament's standings.
    Standings,
    #[default]
    Other,
}

impl MailKind {
    /// Every kind, for the status report.
    pub const ALL: [MailKind; 17] = [
        MailKind::Ack,
        MailKind::Rejection,
        MailKind::AuthRejection,
        MailKind::Receipt,
        MailKind::Notice,
        MailKind::Report,
        MailKind::QueryReply,
        MailKind::CommandReply,
        MailKind::Alert,
        MailKind::Announcement,
        MailKind::Start,
        MailKind::Results,
        MailKind::Digest,
        MailKind::Reminder,
        MailKind::Preview,
        MailKind::Standings,
        MailKind::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MailKind::Ack => "ack",
            MailKind::Rejection => "rejection",
            MailKind::AuthRejection => "auth-rejection",
            MailKind::Receipt => "receipt",
            MailKind::Notice => "notice",
            MailKind::Report => "report",
            MailKind::QueryReply => "query-reply",
            MailKind::CommandReply => "command-reply",
            MailKind::Alert => "alert",
            MailKind::Announcement => "announcement",
            MailKind::Start => "start",
            MailKind::Results => "results",
            MailKind::Digest => "digest",
            MailKind::Reminder => "reminder",
            MailKind::Preview => "preview",
            MailKind::Standings => "standings",
            MailKind::Other => "other",
        }
    }

    /// Sent in answer to a received mail, counted against the address's hourly limit
    /// (docs/deploying.md). What a mail whose sender failed to prove itself causes has a
    /// budget of its own ([`MailKind::unproven_sender`]).
    pub fn answers_the_sender(self) -> bool {
        matches!(
            self,
            MailKind::Ack
                | MailKind::Rejection
                | MailKind::Receipt
                | MailKind::Notice
                | MailKind::QueryReply
                | MailKind::CommandReply
        )
    }

    /// Caused by a mail whose sender failed authentication: the rejection to the registered
    /// player and the impersonation report to the masters (WM D.X(6)). Counted apart, so that a
    /// forger cannot use up the answers the player and the masters need (issue 21.10).
    pub fn unproven_sender(self) -> bool {
        matches!(self, MailKind::AuthRejection | MailKind::Report)
    }

    /// Counted against the game's hourly limit: what a mail about the game makes it send.
    pub fn answers_about_a_game(self) -> bool {
        self.answers_the_sender() || self.unproven_sender()
    }

    /// The SQL list of the kinds `pick` selects (`'ack', 'rejection'`): made of our own names.
    pub fn sql_list(pick: fn(MailKind) -> bool) -> String {
        MailKind::ALL
            .iter()
            .filter(|k| pick(**k))
            .map(|k| format!("'{}'", k.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl std::fmt::Display for MailKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    pub id: i64,
    pub kind: MailKind,
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
    /// The picture its HTML part shows (`outbox_pictures`), if it has one.
    pub picture_id: Option<i64>,
}

/// A mail to send, as the engine writes it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NewMail {
    pub kind: MailKind,
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
    /// The key of a picture kept (`keep_picture`) that the mail shows inline in an HTML part
    /// beside its text: a phase's map. None: the mail is plain text.
    pub picture: Option<String>,
}

/// Enqueue one mail. Whether it was enqueued: false when a mail with its Message-ID is already
/// there (then the duplicate is logged and counted, see [`enqueue_many`]).
pub async fn enqueue(c: &mut Conn, m: &NewMail, now: Ts) -> Result<bool> {
    Ok(enqueue_many(c, std::slice::from_ref(m), now).await? == 1)
}

/// Enqueue several mails in one statement a chunk (a deadline's results: one query, not one a
/// player). Returns how many were enqueued. A mail whose Message-ID is already there is not
/// enqueued again: Message-IDs name their cause, so that is the same mail caused twice (a
/// coalesced alert, a notice already sent this hour). It is never silent: each one is logged
/// and counted in `outbox_duplicates` (shown by `chancery status`).
pub async fn enqueue_many(c: &mut Conn, mails: &[NewMail], now: Ts) -> Result<usize> {
    let mut enqueued = 0;
    // 12 parameters a row; SQLite allows 32,766 in one statement.
    for chunk in mails.chunks(500) {
        let inserted = insert_chunk(c, chunk, now).await?;
        enqueued += inserted.len();
        if inserted.len() < chunk.len() {
            // Each Message-ID inserted stands for its first mail in the chunk; every other
            // mail is a duplicate (of a row already there, or of an earlier one in the chunk).
            let mut fresh: std::collections::HashSet<&str> =
                inserted.iter().map(String::as_str).collect();
            for m in chunk {
                if !fresh.remove(m.message_id.as_str()) {
                    count_duplicate(c, m, now).await?;
                }
            }
        }
    }
    Ok(enqueued)
}

/// The columns an enqueued mail fills: [`bind_mail`]'s values, then the picture.
const OUTBOX_INSERT: &str = "INSERT INTO outbox (kind, message_id, from_address, to_address, subject, body, in_reply_to, refs, auto_submitted, created_at, next_attempt_at, game_id, picture_id) ";

/// Mail `m`'s values for [`OUTBOX_INSERT`]'s columns up to `game_id`, bound in order onto `q`
/// (a statement's row, or a query): one list for every way a mail is inserted. The picture
/// follows, looked up by its key in the statement's own way.
macro_rules! bind_mail {
    ($q:expr, $m:expr, $now:expr) => {
        $q.bind($m.kind)
            .bind(&$m.message_id)
            .bind(&$m.from)
            .bind(&$m.to)
            .bind(&$m.subject)
            .bind(&$m.body)
            .bind($m.in_reply_to.as_deref())
            .bind($m.refs.join(" "))
            .bind($m.auto_submitted)
            .bind($now)
            .bind($now)
            .bind($m.game.as_deref())
    };
}

/// The limits an answer is enqueued within by [`enqueue_within`]: the counts of
/// [`answers_since`] since `since` that must each stay under its limit.
#[derive(Clone, Copy, Debug)]
pub struct Within<'a> {
    pub since: Ts,
    /// The limits; a count whose limit is None is not looked at.
    pub limits: WithinLimits,
    /// The game whose answers are counted (`in_game`).
    pub game: Option<&'a str>,
}

/// Which of [`AnswerCounts`]' counts an answer must stay under, and their limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WithinLimits {
    pub to_address: Option<i64>,
    pub auth_rejections: Option<i64>,
    pub in_game: Option<i64>,
}

/// Enqueue `m` if the answers counted as [`answers_since`] counts them are under the limits
/// `within` names, in one statement (the counts and the insert: one round trip where an answer
/// took two, issue 28). False when a count is at its limit, or a mail with its Message-ID is
/// already there: the caller counts again to say which (an answer refused costs a round trip
/// more; one sent, one fewer).
pub async fn enqueue_within(
    c: &mut Conn,
    m: &NewMail,
    now: Ts,
    within: &Within<'_>,
) -> Result<bool> {
    let at = within.limits;
    // The counts stop at their limits (as [`answers_since`] counts them); one not looked at is
    // counted up to nothing.
    let counts = super::ledger::answers_since_sql(AnswerCounts {
        to_address: at.to_address.unwrap_or(0),
        auth_rejections: at.auth_rejections.unwrap_or(0),
        in_game: at.in_game.unwrap_or(0),
    });
    let mut under = vec!["1 = 1".to_string()];
    for (name, limit) in [
        ("to_address", at.to_address),
        ("auth_rejections", at.auth_rejections),
        ("in_game", at.in_game),
    ] {
        if let Some(limit) = limit {
            under.push(format!("counts.{name} < {}", limit.max(0)));
        }
    }
    // The integers written in keep one text (and one prepared statement) for a server's limits.
    let sql = format!(
        "{OUTBOX_INSERT}SELECT $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
                (SELECT id FROM outbox_pictures WHERE key = $16)
         FROM ({counts}) AS counts WHERE {}
         ON CONFLICT (message_id) DO NOTHING RETURNING message_id",
        under.join(" AND ")
    );
    let counted = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(&m.to)
        .bind(within.game)
        .bind(within.since);
    let row = bind_mail!(counted, m, now)
        .bind(m.picture.as_deref())
        .fetch_optional(&mut *c)
        .await?;
    Ok(row.is_some())
}

/// Insert the mails whose Message-IDs are new; the Message-IDs inserted.
async fn insert_chunk(c: &mut Conn, chunk: &[NewMail], now: Ts) -> Result<Vec<String>> {
    let mut q = crate::store::dialect::Statement::new(c, OUTBOX_INSERT);
    q.values(chunk, |b, m| {
        bind_mail!(b, m, now)
            .push("(SELECT id FROM outbox_pictures WHERE key = ")
            .bind_unseparated(m.picture.as_deref())
            .push_unseparated(")");
    });
    q.push(" ON CONFLICT (message_id) DO NOTHING RETURNING message_id");
    let rows = q.query()?.fetch_all(&mut *c).await?;
    rows.iter().map(|r| Ok(r.try_get("message_id")?)).collect()
}

/// A mail not enqueued because its Message-ID is already there: logged, and counted.
async fn count_duplicate(c: &mut Conn, m: &NewMail, now: Ts) -> Result<()> {
    tracing::info!(
        kind = m.kind.as_str(),
        to = m.to.as_str(),
        message_id = m.message_id.as_str(),
        "outbox: the same mail was caused again; not sent twice"
    );
    sqlx::query(
        "INSERT INTO outbox_duplicates (message_id, kind, count, first_at, last_at)
         VALUES ($1, $2, 1, $3, $3)
         ON CONFLICT (message_id) DO UPDATE SET count = outbox_duplicates.count + 1, last_at = excluded.last_at",
    )
    .bind(&m.message_id)
    .bind(m.kind)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Mails of `kind` to `address` since `since`.
pub async fn mails_to(c: &mut Conn, address: &str, kind: MailKind, since: Ts) -> Result<i64> {
    let row = sqlx::query(
        "SELECT count(*) AS n FROM outbox WHERE to_address = $1 AND created_at >= $2 AND kind = $3",
    )
    .bind(address)
    .bind(since)
    .bind(kind)
    .fetch_one(&mut *c)
    .await?;
    Ok(row.try_get("n")?)
}

/// How many times the mail with this Message-ID was caused again and not sent.
pub async fn duplicates_of(c: &mut Conn, message_id: &str) -> Result<i64> {
    let row = sqlx::query("SELECT count FROM outbox_duplicates WHERE message_id = $1")
        .bind(message_id)
        .fetch_optional(&mut *c)
        .await?;
    Ok(row.map(|r| r.try_get("count")).transpose()?.unwrap_or(0))
}

/// Mails caused again and not sent, by kind, since `since` (for `chancery status`).
pub async fn duplicate_counts(c: &mut Conn, since: Ts) -> Result<Vec<(MailKind, i64)>> {
    let rows = sqlx::query(
        "SELECT kind, CAST(sum(count) AS BIGINT) AS n FROM outbox_duplicates WHERE last_at >= $1
         GROUP BY kind ORDER BY kind",
    )
    .bind(since)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("kind")?, r.try_get("n")?)))
        .collect()
}

/// Mail due to be sent: confirmation receipts first (they promise "within seconds", WM D.VII(7),
/// and must not wait behind a burst of acknowledgements or results), then oldest first.
pub async fn due_outbox(c: &mut Conn, now: Ts, limit: i64) -> Result<Vec<OutboxRow>> {
    // Two reads in index order (`outbox_receipts_due`, then `outbox_due`), not one sort of
    // every pending row: a deadline storm leaves tens of thousands, and each sender's claim
    // reads this.
    let mut rows = sqlx::query(
        "SELECT * FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND kind = 'receipt'
           AND next_attempt_at <= $1
         ORDER BY next_attempt_at LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&mut *c)
    .await?;
    let rest = limit - rows.len() as i64;
    if rest > 0 {
        let others = sqlx::query(
            "SELECT * FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL
               AND next_attempt_at <= $1 AND kind <> 'receipt'
             ORDER BY next_attempt_at, id LIMIT $2",
        )
        .bind(now)
        .bind(rest)
        .fetch_all(&mut *c)
        .await?;
        rows.extend(others);
    }
    rows.iter().map(outbox_row).collect()
}

/// An outbox row as read.
fn outbox_row(r: &DbRow) -> Result<OutboxRow> {
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
        picture_id: r.try_get("picture_id")?,
    })
}

/// Take outbox rows `ids` for this connection's sender (several instances share the outbox,
/// issue 28): the ids taken. SQLite: every one (one instance a file; its senders share a claim
/// in memory). PostgreSQL: a session advisory lock on each row that no other connection holds,
/// kept until [`let_outbox_rows_go`] or until the connection closes, so a dead instance's rows
/// are free at once.
pub async fn take_outbox_rows(c: &mut Conn, ids: &[i64]) -> Result<Vec<i64>> {
    match Dialect::of(c) {
        Dialect::Sqlite => Ok(ids.to_vec()),
        Dialect::Postgres => Ok(sqlx::query_scalar(
            "SELECT CAST(value AS BIGINT) FROM jsonb_array_elements_text($1::jsonb)
             WHERE pg_try_advisory_lock(hashtextextended('outbox|' || value, 0))",
        )
        .bind(serde_json::to_string(ids)?)
        .fetch_all(&mut *c)
        .await?),
    }
}

/// The rows of `ids` still to be sent by `now`, read again once taken: a row another instance
/// finished between the claim's read and its lock is left out (its sending mark would
/// otherwise look like a send cut short, and the mail go twice).
pub async fn outbox_rows_still_due(c: &mut Conn, ids: &[i64], now: Ts) -> Result<Vec<OutboxRow>> {
    let rows = sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT o.* FROM ",
            json_values!(1),
            " j JOIN outbox o ON o.id = CAST(j.value AS BIGINT)
             WHERE o.sent_at IS NULL AND o.failed_at IS NULL AND o.next_attempt_at <= $2
             ORDER BY o.id",
        )
    ))
    .bind(serde_json::to_string(ids)?)
    .bind(now)
    .fetch_all(&mut *c)
    .await?;
    rows.iter().map(outbox_row).collect()
}

/// Let go of every row [`take_outbox_rows`] took on this connection.
pub async fn let_outbox_rows_go(c: &mut Conn) -> Result<()> {
    if Dialect::of(c) == Dialect::Postgres {
        sqlx::query("SELECT pg_advisory_unlock_all()")
            .execute(&mut *c)
            .await?;
    }
    Ok(())
}

pub async fn next_outbox_attempt(c: &mut Conn) -> Result<Option<Ts>> {
    let row = sqlx::query(
        "SELECT min(next_attempt_at) AS t FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL",
    )
    .fetch_one(&mut *c)
    .await?;
    Ok(row.try_get("t")?)
}

pub async fn mark_sending(c: &mut Conn, id: i64, now: Ts) -> Result<()> {
    sqlx::query("UPDATE outbox SET sending_since = $1, attempts = attempts + 1 WHERE id = $2")
        .bind(now)
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Mark several rows as being sent, in one statement: the outbox marks a run of mails before
/// it sends them one after the other (src/service/outbox.rs).
pub async fn mark_sending_all(c: &mut Conn, ids: &[i64], now: Ts) -> Result<()> {
    update_all(
        c,
        ids,
        ("sending_since = ", now),
        ", attempts = attempts + 1",
    )
    .await
}

/// Rows `ids`, all sent at `now`: one statement for a run's mails (issue 28), where each
/// mail's own mark was a round trip to the database.
pub async fn mark_sent_all(c: &mut Conn, ids: &[i64], now: Ts) -> Result<()> {
    update_all(
        c,
        ids,
        ("sent_at = ", now),
        ", sending_since = NULL, last_error = NULL",
    )
    .await
}

/// `UPDATE outbox SET {column = }now{rest} WHERE id IN (ids)`, in as few statements as the
/// database's limit on parameters allows.
async fn update_all(
    c: &mut Conn,
    ids: &[i64],
    (column, now): (&str, Ts),
    rest: &str,
) -> Result<()> {
    for ids in ids.chunks(dialect::ROWS_A_STATEMENT) {
        let mut q = crate::store::dialect::Statement::new(c, "UPDATE outbox SET ");
        q.push(column).bind(now).push(rest).push(" WHERE id IN (");
        for (k, id) in ids.iter().enumerate() {
            if k > 0 {
                q.push(", ");
            }
            q.bind(*id);
        }
        q.push(")");
        q.query()?.execute(&mut *c).await?;
    }
    Ok(())
}

/// Take back the marks of rows that were never attempted (the outbox stopped before their
/// turn): as if they had not been claimed.
pub async fn unmark_sending(c: &mut Conn, id: i64) -> Result<()> {
    sqlx::query("UPDATE outbox SET sending_since = NULL, attempts = attempts - 1 WHERE id = $1")
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn mark_sent(c: &mut Conn, id: i64, now: Ts) -> Result<()> {
    mark_sent_all(c, &[id], now).await
}

/// Try again at `next`, after an attempt that finished with a transient error.
pub async fn mark_retry(c: &mut Conn, id: i64, next: Ts, error: &str) -> Result<()> {
    sqlx::query("UPDATE outbox SET next_attempt_at = $1, sending_since = NULL, last_error = $2 WHERE id = $3")
        .bind(next)
        .bind(error)
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Every mail waiting out its backoff after a failed attempt, due again at `now`: the relay
/// takes mail again, so nothing held by its outage waits longer (issue 29). How many.
pub async fn outbox_due_again(c: &mut Conn, now: Ts) -> Result<u64> {
    Ok(sqlx::query(
        "UPDATE outbox SET next_attempt_at = $1 WHERE sent_at IS NULL AND failed_at IS NULL
         AND next_attempt_at > $1 AND sending_since IS NULL AND last_error IS NOT NULL",
    )
    .bind(now)
    .execute(&mut *c)
    .await?
    .rows_affected())
}

/// Look again at `next`, keeping `sending_since`: an attempt cut short stays marked until the
/// archive says whether it got through.
pub async fn postpone(c: &mut Conn, id: i64, next: Ts) -> Result<()> {
    sqlx::query("UPDATE outbox SET next_attempt_at = $1 WHERE id = $2")
        .bind(next)
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn mark_failed(c: &mut Conn, id: i64, now: Ts, error: &str) -> Result<()> {
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
/// Whether any mail is still to send: one step down the due rows' index (`outbox_due`), however
/// large the outbox, where [`outbox_counts`] reads every row (a bench polling it every 100 ms
/// during a 10,000-game storm read the 160 MB table each time).
pub async fn outbox_has_pending(c: &mut Conn) -> Result<bool> {
    let pending: dialect::Flag = sqlx::query_scalar(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT EXISTS (SELECT 1 FROM outbox ",
            indexed_by!("outbox_due"),
            "
                        WHERE sent_at IS NULL AND failed_at IS NULL)",
        )
    ))
    .fetch_one(&mut *c)
    .await?;
    Ok(pending.into())
}

pub async fn outbox_counts(c: &mut Conn) -> Result<(i64, i64, i64)> {
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

/// The results mails sent to `address` in a game, oldest first: (subject, body). At most
/// `limit`, the latest ones; not those whose body is past the retention.
pub async fn results_sent_to(
    c: &mut Conn,
    game: &str,
    address: &str,
    limit: i64,
) -> Result<Vec<(String, String)>> {
    let rows = sqlx::query(
        "SELECT subject, body FROM (
             SELECT id, subject, body FROM outbox
             WHERE game_id = $1 AND to_address = $2 AND kind = 'results'
               AND superseded_at IS NULL AND body <> ''
             ORDER BY id DESC LIMIT $3) AS sub
         ORDER BY id",
    )
    .bind(game)
    .bind(address.to_ascii_lowercase())
    .bind(limit)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("subject")?, r.try_get("body")?)))
        .collect()
}

crate::store::dialect::text_type!(MailKind { Ack = "ack", Rejection = "rejection", AuthRejection = "auth-rejection", Receipt = "receipt", Notice = "notice", Report = "report", QueryReply = "query-reply", CommandReply = "command-reply", Alert = "alert", Announcement = "announcement", Start = "start", Results = "results", Digest = "digest", Reminder = "reminder", Preview = "preview", Standings = "standings", Other = "other" });
