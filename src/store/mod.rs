//! The store: SQLite (WAL) through sqlx, with the schema in `migrations/`.
//!
//! Functions take a `&mut SqliteConnection` so that the engine can compose them inside one
//! transaction: a message's effects, its outgoing mail and its ledger row commit together, or
//! not at all.

use crate::policy::Ts;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{Row, SqlitePool};
use std::path::Path;
use std::time::Duration;

/// What can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("store: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("store: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("store: bad JSON in the store: {0}")]
    Json(#[from] serde_json::Error),
    #[error("store: cannot create {path}: {error}")]
    Directory {
        path: String,
        error: std::io::Error,
    },
    #[error("a game named '{0}' already exists")]
    GameExists(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// Open (creating if needed) the database file, in WAL mode, and apply the migrations.
pub async fn open(path: &Path) -> Result<SqlitePool> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|error| StoreError::Directory {
                path: dir.display().to_string(),
                error,
            })?;
    }
    let opts = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        // FULL: a committed ledger row survives power loss, not only a crash.
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(10));
    let pool = SqlitePoolOptions::new()
        .max_connections(4)
        .connect_with(opts)
        .await?;
    sqlx::migrate!("./migrations").run(&pool).await?;
    Ok(pool)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub rules: String,
    pub gm_address: String,
    pub confirm_address: String,
    pub status: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub power: String,
    pub address: String,
    pub name: String,
    pub tz: String,
    pub secret: String,
    pub extension_days_used: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseRow {
    pub game_id: String,
    pub seq: i64,
    pub phase: String,
    pub board: String,
    pub started_at: Ts,
    pub deadline: Ts,
    pub adjudication_started_at: Option<Ts>,
    pub adjudicated_at: Option<Ts>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingRow {
    pub power: String,
    pub orders: String,
    pub final_: bool,
    pub updated_at: Ts,
}

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

pub async fn create_game(
    c: &mut SqliteConnection,
    id: &str,
    variant: &str,
    rules_json: &str,
    gm: &str,
    confirm: &str,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO games (id, variant, rules, gm_address, confirm_address, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(variant)
    .bind(rules_json)
    .bind(gm.to_ascii_lowercase())
    .bind(confirm.to_ascii_lowercase())
    .bind(now)
    .execute(&mut *c)
    .await
    .map_err(|e| match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            StoreError::GameExists(id.to_string())
        }
        e => e.into(),
    })?;
    Ok(())
}

fn game_from(r: &sqlx::sqlite::SqliteRow) -> Result<GameRow> {
    Ok(GameRow {
        id: r.try_get("id")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        gm_address: r.try_get("gm_address")?,
        confirm_address: r.try_get("confirm_address")?,
        status: r.try_get("status")?,
    })
}

pub async fn game(c: &mut SqliteConnection, id: &str) -> Result<Option<GameRow>> {
    let row = sqlx::query("SELECT * FROM games WHERE lower(id) = lower($1)")
        .bind(id)
        .fetch_optional(&mut *c)
        .await?;
    row.as_ref().map(game_from).transpose()
}

pub async fn games_with_status(c: &mut SqliteConnection, status: &str) -> Result<Vec<GameRow>> {
    let rows = sqlx::query("SELECT * FROM games WHERE status = $1 ORDER BY id")
        .bind(status)
        .fetch_all(&mut *c)
        .await?;
    rows.iter().map(game_from).collect()
}

pub async fn set_game_status(c: &mut SqliteConnection, id: &str, status: &str) -> Result<()> {
    sqlx::query("UPDATE games SET status = $1 WHERE id = $2")
        .bind(status)
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn add_player(c: &mut SqliteConnection, game: &str, p: &PlayerRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO players (game_id, power, address, name, tz, secret) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (game_id, power) DO UPDATE SET address = excluded.address, name = excluded.name,
         tz = excluded.tz, secret = excluded.secret",
    )
    .bind(game)
    .bind(&p.power)
    .bind(p.address.to_ascii_lowercase())
    .bind(&p.name)
    .bind(&p.tz)
    .bind(&p.secret)
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn players(c: &mut SqliteConnection, game: &str) -> Result<Vec<PlayerRow>> {
    let rows = sqlx::query("SELECT * FROM players WHERE game_id = $1 ORDER BY power")
        .bind(game)
        .fetch_all(&mut *c)
        .await?;
    rows.iter()
        .map(|r| {
            Ok(PlayerRow {
                power: r.try_get("power")?,
                address: r.try_get("address")?,
                name: r.try_get("name")?,
                tz: r.try_get("tz")?,
                secret: r.try_get("secret")?,
                extension_days_used: r.try_get("extension_days_used")?,
            })
        })
        .collect()
}

pub async fn add_extension_days(
    c: &mut SqliteConnection,
    game: &str,
    power: &str,
    days: i64,
) -> Result<()> {
    sqlx::query("UPDATE players SET extension_days_used = extension_days_used + $1 WHERE game_id = $2 AND power = $3")
        .bind(days)
        .bind(game)
        .bind(power)
        .execute(&mut *c)
        .await?;
    Ok(())
}

fn phase_from(r: &sqlx::sqlite::SqliteRow) -> Result<PhaseRow> {
    Ok(PhaseRow {
        game_id: r.try_get("game_id")?,
        seq: r.try_get("seq")?,
        phase: r.try_get("phase")?,
        board: r.try_get("board")?,
        started_at: r.try_get("started_at")?,
        deadline: r.try_get("deadline")?,
        adjudication_started_at: r.try_get("adjudication_started_at")?,
        adjudicated_at: r.try_get("adjudicated_at")?,
    })
}

/// The phase being played: the last one, if not yet adjudicated.
pub async fn current_phase(c: &mut SqliteConnection, game: &str) -> Result<Option<PhaseRow>> {
    let row = sqlx::query(
        "SELECT * FROM phases WHERE game_id = $1 AND adjudicated_at IS NULL ORDER BY seq DESC LIMIT 1",
    )
    .bind(game)
    .fetch_optional(&mut *c)
    .await?;
    row.as_ref().map(phase_from).transpose()
}

pub async fn last_adjudicated_at(c: &mut SqliteConnection, game: &str) -> Result<Option<Ts>> {
    let row = sqlx::query("SELECT max(adjudicated_at) AS t FROM phases WHERE game_id = $1")
        .bind(game)
        .fetch_one(&mut *c)
        .await?;
    Ok(row.try_get("t")?)
}

pub async fn insert_phase(
    c: &mut SqliteConnection,
    game: &str,
    phase: &str,
    board_json: &str,
    started_at: Ts,
    deadline: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO phases (game_id, seq, phase, board, started_at, deadline)
         VALUES ($1, (SELECT coalesce(max(seq), 0) + 1 FROM phases WHERE game_id = $1), $2, $3, $4, $5)",
    )
    .bind(game)
    .bind(phase)
    .bind(board_json)
    .bind(started_at)
    .bind(deadline)
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn set_deadline(
    c: &mut SqliteConnection,
    game: &str,
    seq: i64,
    deadline: Ts,
) -> Result<()> {
    sqlx::query("UPDATE phases SET deadline = $1 WHERE game_id = $2 AND seq = $3")
        .bind(deadline)
        .bind(game)
        .bind(seq)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn mark_adjudicated(
    c: &mut SqliteConnection,
    game: &str,
    seq: i64,
    now: Ts,
    results_json: &str,
) -> Result<()> {
    sqlx::query(
        "UPDATE phases SET adjudication_started_at = coalesce(adjudication_started_at, $1), adjudicated_at = $1, results = $2
         WHERE game_id = $3 AND seq = $4",
    )
    .bind(now)
    .bind(results_json)
    .bind(game)
    .bind(seq)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Current phases whose deadline has passed, across all active games.
pub async fn due_phases(c: &mut SqliteConnection, now: Ts) -> Result<Vec<PhaseRow>> {
    let rows = sqlx::query(
        "SELECT p.* FROM phases p JOIN games g ON g.id = p.game_id
         WHERE g.status = 'active' AND p.adjudicated_at IS NULL AND p.deadline <= $1
         ORDER BY p.deadline, p.game_id",
    )
    .bind(now)
    .fetch_all(&mut *c)
    .await?;
    rows.iter().map(phase_from).collect()
}

/// All current, unadjudicated phases of active games (for early adjudication checks).
pub async fn open_phases(c: &mut SqliteConnection) -> Result<Vec<PhaseRow>> {
    let rows = sqlx::query(
        "SELECT p.* FROM phases p JOIN games g ON g.id = p.game_id
         WHERE g.status = 'active' AND p.adjudicated_at IS NULL ORDER BY p.game_id",
    )
    .fetch_all(&mut *c)
    .await?;
    rows.iter().map(phase_from).collect()
}

pub async fn next_deadline(c: &mut SqliteConnection) -> Result<Option<Ts>> {
    let row = sqlx::query(
        "SELECT min(p.deadline) AS t FROM phases p JOIN games g ON g.id = p.game_id
         WHERE g.status = 'active' AND p.adjudicated_at IS NULL",
    )
    .fetch_one(&mut *c)
    .await?;
    Ok(row.try_get("t")?)
}

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
async fn ledger_row(
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

#[allow(clippy::too_many_arguments)]
pub async fn insert_submission(
    c: &mut SqliteConnection,
    game: &str,
    phase: &str,
    power: &str,
    message_id: Option<&str>,
    submitted_at: Ts,
    final_: bool,
    late: bool,
    read_json: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO submissions (game_id, phase, power, message_id, submitted_at, final, late, read)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(game)
    .bind(phase)
    .bind(power)
    .bind(message_id)
    .bind(submitted_at)
    .bind(final_)
    .bind(late)
    .bind(read_json)
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn set_standing_orders(
    c: &mut SqliteConnection,
    game: &str,
    phase: &str,
    power: &str,
    orders_json: &str,
    final_: bool,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO standing_orders (game_id, phase, power, orders, final, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (game_id, phase, power) DO UPDATE SET orders = excluded.orders, final = excluded.final, updated_at = excluded.updated_at",
    )
    .bind(game)
    .bind(phase)
    .bind(power)
    .bind(orders_json)
    .bind(final_)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn standing_orders(
    c: &mut SqliteConnection,
    game: &str,
    phase: &str,
) -> Result<Vec<StandingRow>> {
    let rows = sqlx::query(
        "SELECT * FROM standing_orders WHERE game_id = $1 AND phase = $2 ORDER BY power",
    )
    .bind(game)
    .bind(phase)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(StandingRow {
                power: r.try_get("power")?,
                orders: r.try_get("orders")?,
                final_: r.try_get("final")?,
                updated_at: r.try_get("updated_at")?,
            })
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
pub async fn insert_press(
    c: &mut SqliteConnection,
    game: &str,
    phase: &str,
    author: &str,
    recipients_json: &str,
    grey: bool,
    body: &str,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO press (game_id, phase, author, recipients, grey, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game)
    .bind(phase)
    .bind(author)
    .bind(recipients_json)
    .bind(grey)
    .bind(body)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Press of a phase: (author, recipients JSON, grey, body). The author of grey press must never
/// leave the engine.
pub async fn press(
    c: &mut SqliteConnection,
    game: &str,
    phase: &str,
) -> Result<Vec<(String, String, bool, String)>> {
    let rows = sqlx::query("SELECT author, recipients, grey, body FROM press WHERE game_id = $1 AND phase = $2 ORDER BY id")
        .bind(game)
        .bind(phase)
        .fetch_all(&mut *c)
        .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("author")?,
                r.try_get("recipients")?,
                r.try_get("grey")?,
                r.try_get("body")?,
            ))
        })
        .collect()
}

pub async fn cast_vote(
    c: &mut SqliteConnection,
    game: &str,
    phase: &str,
    power: &str,
    proposal: &str,
    ballot: &str,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO votes (game_id, phase, power, proposal, ballot, cast_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (game_id, power, proposal) DO UPDATE SET ballot = excluded.ballot, phase = excluded.phase, cast_at = excluded.cast_at",
    )
    .bind(game)
    .bind(phase)
    .bind(power)
    .bind(proposal)
    .bind(ballot)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn add_unavailable(
    c: &mut SqliteConnection,
    game: &str,
    power: &str,
    from: Ts,
    to: Ts,
) -> Result<()> {
    sqlx::query("INSERT INTO unavailable (game_id, power, from_ts, to_ts) VALUES ($1, $2, $3, $4)")
        .bind(game)
        .bind(power)
        .bind(from)
        .bind(to)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn unavailable(c: &mut SqliteConnection, game: &str) -> Result<Vec<(Ts, Ts)>> {
    let rows = sqlx::query("SELECT from_ts, to_ts FROM unavailable WHERE game_id = $1")
        .bind(game)
        .fetch_all(&mut *c)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("from_ts")?, r.try_get("to_ts")?)))
        .collect()
}

pub async fn enqueue(c: &mut SqliteConnection, m: &NewMail, now: Ts) -> Result<()> {
    sqlx::query(
        "INSERT INTO outbox (kind, message_id, from_address, to_address, subject, body, in_reply_to, refs, auto_submitted, created_at, next_attempt_at, game_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11)
         ON CONFLICT (message_id) DO NOTHING",
    )
    .bind(m.kind)
    .bind(&m.message_id)
    .bind(&m.from)
    .bind(&m.to)
    .bind(&m.subject)
    .bind(&m.body)
    .bind(m.in_reply_to.as_deref())
    .bind(m.refs.join(" "))
    .bind(m.auto_submitted)
    .bind(now)
    .bind(m.game.as_deref())
    .execute(&mut *c)
    .await?;
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

/// What a mailbox reader last did, for `chancery status` and the silent-mailbox alert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailboxState {
    pub mailbox: String,
    pub last_poll_started: Option<Ts>,
    pub last_poll_ok: Option<Ts>,
    pub last_uid: Option<i64>,
    pub last_error: Option<String>,
    pub last_error_at: Option<Ts>,
    pub polls: i64,
}

/// A poll of `mailbox` that started at `started` read everything up to `last_uid`.
pub async fn poll_ok(
    c: &mut SqliteConnection,
    mailbox: &str,
    started: Ts,
    finished: Ts,
    last_uid: u32,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO mailbox_state (mailbox, last_poll_started, last_poll_ok, last_uid, polls) VALUES ($1, $2, $3, $4, 1)
         ON CONFLICT (mailbox) DO UPDATE SET last_poll_started = excluded.last_poll_started,
         last_poll_ok = excluded.last_poll_ok, last_uid = max(coalesce(last_uid, 0), excluded.last_uid),
         polls = polls + 1",
    )
    .bind(mailbox)
    .bind(started)
    .bind(finished)
    .bind(i64::from(last_uid))
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn poll_failed(
    c: &mut SqliteConnection,
    mailbox: &str,
    error: &str,
    at: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO mailbox_state (mailbox, last_error, last_error_at) VALUES ($1, $2, $3)
         ON CONFLICT (mailbox) DO UPDATE SET last_error = excluded.last_error, last_error_at = excluded.last_error_at",
    )
    .bind(mailbox)
    .bind(error)
    .bind(at)
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn mailbox_states(c: &mut SqliteConnection) -> Result<Vec<MailboxState>> {
    let rows = sqlx::query("SELECT * FROM mailbox_state ORDER BY mailbox")
        .fetch_all(&mut *c)
        .await?;
    rows.iter()
        .map(|r| {
            Ok(MailboxState {
                mailbox: r.try_get("mailbox")?,
                last_poll_started: r.try_get("last_poll_started")?,
                last_poll_ok: r.try_get("last_poll_ok")?,
                last_uid: r.try_get("last_uid")?,
                last_error: r.try_get("last_error")?,
                last_error_at: r.try_get("last_error_at")?,
                polls: r.try_get("polls")?,
            })
        })
        .collect()
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

/// Silent drops since `since`, by reason: those about `game`, and those about no game at all.
pub async fn drop_counts(
    c: &mut SqliteConnection,
    game: &str,
    since: Ts,
) -> Result<Vec<(String, i64)>> {
    let rows = sqlx::query(
        "SELECT reason, count(*) AS n FROM drops WHERE at >= $1 AND (game_id = $2 OR game_id IS NULL)
         GROUP BY reason ORDER BY reason",
    )
    .bind(since)
    .bind(game)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("reason")?, r.try_get("n")?)))
        .collect()
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

/// Is `address` a registered player of any game that is not finished?
pub async fn is_registered(c: &mut SqliteConnection, address: &str) -> Result<bool> {
    let row = sqlx::query(
        "SELECT 1 FROM players p JOIN games g ON g.id = p.game_id
         WHERE p.address = lower($1) AND g.status != 'finished' LIMIT 1",
    )
    .bind(address)
    .fetch_optional(&mut *c)
    .await?;
    Ok(row.is_some())
}

/// Count a wrong secret given for a power.
pub async fn add_wrong_secret(c: &mut SqliteConnection, game: &str, power: &str) -> Result<()> {
    sqlx::query(
        "UPDATE players SET wrong_secrets = wrong_secrets + 1 WHERE game_id = $1 AND power = $2",
    )
    .bind(game)
    .bind(power)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Wrong secrets given so far, by power.
pub async fn wrong_secrets(c: &mut SqliteConnection, game: &str) -> Result<Vec<(String, i64)>> {
    let rows = sqlx::query(
        "SELECT power, wrong_secrets FROM players WHERE game_id = $1 AND wrong_secrets > 0 ORDER BY power",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("power")?, r.try_get("wrong_secrets")?)))
        .collect()
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

/// One order as it stands: canonical, and as the player wrote it (WM D.VIII(4)).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct StandingOrder {
    pub order: String,
    pub written: String,
}
