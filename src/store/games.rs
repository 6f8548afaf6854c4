//! Games and their players, for every kind of game: the game rows, registrations,
//! replacements, extensions, holidays, unavailable periods, late orders, wrong-secret counts.
//! What only Diplomacy's players choose or are counted by is `diplomacy/players.rs`.

use super::*;
use crate::time::{WEEK, Window};

/// Where a game is in its life (the `status` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// Created; players are being registered.
    Forming,
    /// Started: deadlines run.
    Active,
    /// Over: nothing is adjudicated or reminded.
    Finished,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Forming => "forming",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
        }
    }
}

impl std::fmt::Display for GameStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct GameRow {
    pub id: String,
    /// Which kind of game it is: the entry points of `src/games` choose by it.
    pub kind: Kind,
    pub variant: String,
    /// JSON: the full house-rules struct.
    pub rules: String,
    pub gm_address: String,
    pub confirm_address: String,
    pub status: GameStatus,
    /// Agora BT9: when a draw the GM declared takes effect (the first deadline at or after it).
    pub declared_end_at: Option<Ts>,
    /// Agora BT3: the seats announced as winners (a JSON list), the contest concluded at
    /// `declared_end_at`. None: no winner announced.
    pub declared_winners: Option<String>,
    /// How many times the game was rolled back (WM D.VIII(1)): mail derived from the game's
    /// course names it in its Message-ID.
    pub rollbacks: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PlayerRow {
    pub power: String,
    pub address: String,
    pub name: String,
    pub tz: String,
    pub secret: String,
    pub extension_days_used: i64,
}

pub async fn create_game(
    c: &mut Conn,
    id: &str,
    variant: &str,
    rules_json: &str,
    gm: &str,
    confirm: &str,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO games (id, variant, rules, gm_address, confirm_address, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
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

pub async fn game(c: &mut Conn, id: &str) -> Result<Option<GameRow>> {
    Ok(
        sqlx::query_as("SELECT * FROM games WHERE lower(id) = lower($1)")
            .bind(id)
            .fetch_optional(&mut *c)
            .await?,
    )
}

/// What [`take_game`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Taken {
    /// No game of that name.
    Absent,
    /// The game exists, and another transaction holds it (another instance's mail, or a tick):
    /// its id.
    Held(String),
    /// The game, taken for this transaction, as the last transaction to hold it left it.
    Game(GameRow),
}

/// Game `id` (any case), taken for this transaction's message (issue 28): on PostgreSQL its
/// row is locked until the commit (`FOR NO KEY UPDATE`), so a message and a tick
/// ([`claim_due`]'s `FOR UPDATE`), or two instances' messages, never handle one game at once,
/// and the row read is the newest committed (a locking read in READ COMMITTED follows the
/// row's updates). `wait`: wait for the holder to finish rather than report [`Taken::Held`].
/// SQLite's write lock holds every game at once: a plain read.
pub async fn take_game(c: &mut Conn, id: &str, wait: bool) -> Result<Taken> {
    let sql = match (Dialect::of(c), wait) {
        (Dialect::Sqlite, _) => "SELECT * FROM games WHERE lower(id) = lower($1)",
        (Dialect::Postgres, true) => {
            "SELECT * FROM games WHERE lower(id) = lower($1) FOR NO KEY UPDATE"
        }
        (Dialect::Postgres, false) => {
            "SELECT * FROM games WHERE lower(id) = lower($1) FOR NO KEY UPDATE SKIP LOCKED"
        }
    };
    let row: Option<GameRow> = sqlx::query_as(sql).bind(id).fetch_optional(&mut *c).await?;
    Ok(match row {
        Some(g) => Taken::Game(g),
        // Skipped or absent: only a second read tells (a mail naming no game, or a held one).
        None if !wait && Dialect::of(c) == Dialect::Postgres => match game(c, id).await? {
            Some(g) => Taken::Held(g.id),
            None => Taken::Absent,
        },
        None => Taken::Absent,
    })
}

/// [`take_game`], waiting for its holder: what the console and the server's own steps that
/// change one game (a start, a master's command) use, so that they too never write a game a
/// mail or a tick is handling.
pub async fn take_game_waiting(c: &mut Conn, id: &str) -> Result<Option<GameRow>> {
    Ok(match take_game(c, id, true).await? {
        Taken::Game(g) => Some(g),
        Taken::Absent | Taken::Held(_) => None,
    })
}

pub async fn games_with_status(c: &mut Conn, status: GameStatus) -> Result<Vec<GameRow>> {
    Ok(
        sqlx::query_as("SELECT * FROM games WHERE status = $1 ORDER BY id")
            .bind(status)
            .fetch_all(&mut *c)
            .await?,
    )
}

/// The active games an address plays in, or has a part in as a master or observer.
pub async fn active_games_of(c: &mut Conn, address: &str) -> Result<Vec<GameRow>> {
    Ok(sqlx::query_as(
        "SELECT g.* FROM games g WHERE g.status = 'active' AND g.id IN (
             SELECT game_id FROM players WHERE address = $1
             UNION SELECT game_id FROM members WHERE address = $1)
         ORDER BY g.id",
    )
    .bind(address.to_ascii_lowercase())
    .fetch_all(&mut *c)
    .await?)
}

/// Whether a replacement is for the rest of the game or until the player returns (WM D.X); the
/// `replacements.kind` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tenure {
    Permanent,
    Temporary,
}

impl Tenure {
    pub fn of(permanent: bool) -> Tenure {
        if permanent {
            Tenure::Permanent
        } else {
            Tenure::Temporary
        }
    }

    /// The word the answers and the welcome use.
    pub fn as_str(self) -> &'static str {
        match self {
            Tenure::Permanent => "permanent",
            Tenure::Temporary => "temporary",
        }
    }
}

impl std::fmt::Display for Tenure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One replacement of a player (WM B.8).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ReplacementRow {
    pub power: String,
    pub phase: String,
    pub at: Ts,
    pub old_address: String,
    pub new_address: String,
    pub kind: Tenure,
}

/// Give a power a new player from `phase` on: a new address and secret (the position's
/// extension days stay with it), and a record of who played it when.
#[allow(clippy::too_many_arguments)]
pub async fn replace_player(
    c: &mut Conn,
    game: &str,
    power: &str,
    phase: &str,
    address: &str,
    secret: &str,
    tenure: Tenure,
    now: Ts,
) -> Result<()> {
    let old: String = sqlx::query("SELECT address FROM players WHERE game_id = $1 AND power = $2")
        .bind(game)
        .bind(power)
        .fetch_one(&mut *c)
        .await?
        .try_get("address")?;
    sqlx::query(
        "UPDATE players SET address = $1, name = '', tz = 'UTC', secret = $2, wrong_secrets = 0
         WHERE game_id = $3 AND power = $4",
    )
    .bind(address.to_ascii_lowercase())
    .bind(secret)
    .bind(game)
    .bind(power)
    .execute(&mut *c)
    .await?;
    sqlx::query(
        "INSERT INTO replacements (game_id, power, phase, at, old_address, new_address, kind)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game)
    .bind(power)
    .bind(phase)
    .bind(now)
    .bind(old)
    .bind(address.to_ascii_lowercase())
    .bind(tenure)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// A game's replacements, oldest first.
pub async fn replacements(c: &mut Conn, game: &str) -> Result<Vec<ReplacementRow>> {
    Ok(
        sqlx::query_as("SELECT * FROM replacements WHERE game_id = $1 ORDER BY id")
            .bind(game)
            .fetch_all(&mut *c)
            .await?,
    )
}

/// Replace a game's house rules (JSON, the full struct).
pub async fn set_rules(c: &mut Conn, id: &str, rules_json: &str) -> Result<()> {
    sqlx::query("UPDATE games SET rules = $1 WHERE id = $2")
        .bind(rules_json)
        .bind(id)
        .execute(&mut *c)
        .await?;
    // A house rule may let a phase go early (`conditional_early`).
    clock_changed(c, id).await
}

/// A game that starts (or runs again) needs the clock at once; one that does not run, never.
pub async fn set_game_status(c: &mut Conn, id: &str, status: GameStatus) -> Result<()> {
    sqlx::query("UPDATE games SET status = $1, due_at = NULL WHERE id = $2")
        .bind(status)
        .bind(id)
        .execute(&mut *c)
        .await?;
    clock_changed(c, id).await
}

/// Register a player for a power that has none. A power that has a player is refused
/// ([`StoreError::PowerTaken`]): a player is changed by a replacement, never overwritten.
pub async fn add_player(c: &mut Conn, game: &str, p: &PlayerRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO players (game_id, power, address, name, tz, secret) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(game)
    .bind(&p.power)
    .bind(p.address.to_ascii_lowercase())
    .bind(&p.name)
    .bind(&p.tz)
    .bind(&p.secret)
    .execute(&mut *c)
    .await
    .map_err(|e| match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::PowerTaken {
            game: game.to_string(),
            power: p.power.clone(),
        },
        e => e.into(),
    })?;
    Ok(())
}

pub async fn players(c: &mut Conn, game: &str) -> Result<Vec<PlayerRow>> {
    Ok(
        sqlx::query_as("SELECT * FROM players WHERE game_id = $1 ORDER BY power")
            .bind(game)
            .fetch_all(&mut *c)
            .await?,
    )
}

pub async fn add_extension_days(c: &mut Conn, game: &str, power: &str, days: i64) -> Result<()> {
    sqlx::query("UPDATE players SET extension_days_used = extension_days_used + $1 WHERE game_id = $2 AND power = $3")
        .bind(days)
        .bind(game)
        .bind(power)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Which extension a position was granted (WM D.VII(5)); the `extensions.kind` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtensionKind {
    /// The guaranteed one, granted on the player's request.
    Guaranteed,
    /// One beyond it, granted by the GM.
    Discretionary,
    /// The holiday extension the GM takes, never charged.
    Holiday,
}

/// An extension granted to a position (WM D.VII(5)): the days are charged to it.
#[allow(clippy::too_many_arguments)]
pub async fn record_extension(
    c: &mut Conn,
    game: &str,
    (power, address): (&str, &str),
    phase: &str,
    days: i64,
    kind: ExtensionKind,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO extensions (game_id, power, phase, days, kind, at, address) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game)
    .bind(power)
    .bind(phase)
    .bind(days)
    .bind(kind)
    .bind(now)
    .bind(address)
    .execute(&mut *c)
    .await?;
    // A holiday extension is never charged (WM D.VII(5)).
    if kind == ExtensionKind::Holiday {
        return Ok(());
    }
    add_extension_days(c, game, power, days).await
}

/// How many extensions a position has been granted in a game.
pub async fn extensions_granted(c: &mut Conn, game: &str, power: &str) -> Result<u32> {
    let n: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM extensions WHERE game_id = $1 AND power = $2 AND kind != 'holiday'",
    )
    .bind(game)
    .bind(power)
    .fetch_one(&mut *c)
    .await?;
    Ok(u32::try_from(n).unwrap_or(u32::MAX))
}

/// An extension asked beyond the guaranteed ones, waiting for the GM (one per position).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ExtensionRequest {
    pub power: String,
    pub phase: String,
    pub days: i64,
    pub asked_at: Ts,
}

pub async fn ask_extension(c: &mut Conn, game: &str, r: &ExtensionRequest) -> Result<()> {
    sqlx::query(
        "INSERT INTO extension_requests (game_id, power, phase, days, asked_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (game_id, power)
         DO UPDATE SET phase = excluded.phase, days = excluded.days, asked_at = excluded.asked_at",
    )
    .bind(game)
    .bind(&r.power)
    .bind(&r.phase)
    .bind(r.days)
    .bind(r.asked_at)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Take a position's waiting request (it is answered now, either way).
pub async fn take_extension_request(
    c: &mut Conn,
    game: &str,
    power: &str,
) -> Result<Option<ExtensionRequest>> {
    Ok(sqlx::query_as(
        "DELETE FROM extension_requests WHERE game_id = $1 AND power = $2
         RETURNING power, phase, days, asked_at",
    )
    .bind(game)
    .bind(power)
    .fetch_optional(&mut *c)
    .await?)
}

/// Orders that came after the deadline, refused or accepted (the reliability record).
#[allow(clippy::too_many_arguments)]
pub async fn record_late(
    c: &mut Conn,
    game: &str,
    power: &str,
    address: &str,
    phase: &str,
    accepted: bool,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO late_orders (game_id, power, address, phase, at, accepted) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(game)
    .bind(power)
    .bind(address)
    .bind(phase)
    .bind(now)
    .bind(dialect::Flag(accepted))
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// A holiday the TD declared eligible for an extension (WM D.VII(5)).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Holiday {
    pub name: String,
    pub from_ts: Ts,
    pub to_ts: Ts,
    pub taken_at: Option<Ts>,
}

/// Declare a holiday; false if the game has one of that name already.
pub async fn declare_holiday(c: &mut Conn, game: &str, h: &Holiday) -> Result<bool> {
    let done = sqlx::query(
        "INSERT INTO holidays (game_id, name, from_ts, to_ts) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING",
    )
    .bind(game)
    .bind(&h.name)
    .bind(h.from_ts)
    .bind(h.to_ts)
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The first holiday not yet taken that overlaps `from..to` (the turn), if any; it is marked
/// taken.
pub async fn take_holiday(
    c: &mut Conn,
    game: &str,
    from: Ts,
    to: Ts,
    now: Ts,
) -> Result<Option<Holiday>> {
    Ok(sqlx::query_as(
        "UPDATE holidays SET taken_at = $4
         WHERE game_id = $1 AND name = (SELECT name FROM holidays
                        WHERE game_id = $1 AND taken_at IS NULL AND from_ts < $3 AND to_ts > $2
                        ORDER BY from_ts LIMIT 1)
         RETURNING name, from_ts, to_ts, taken_at",
    )
    .bind(game)
    .bind(from)
    .bind(to)
    .bind(now)
    .fetch_optional(&mut *c)
    .await?)
}

/// An unavailable period of a game (WM D.VII(2)).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct UnavailableRow {
    pub power: String,
    pub from_ts: Ts,
    pub to_ts: Ts,
    /// An occurrence of the player's weekly period.
    #[sqlx(try_from = "crate::store::dialect::Flag")]
    pub weekly: bool,
}

/// Withdraw a player's weekly unavailable period: its occurrences not yet begun are deleted
/// (one already begun stands: it was declared with notice, and a deadline may have moved out
/// of it).
pub async fn withdraw_weekly(c: &mut Conn, game: &str, power: &str, now: Ts) -> Result<()> {
    sqlx::query(
        "DELETE FROM unavailable WHERE game_id = $1 AND power = $2 AND from_ts > $3 AND weekly = 1",
    )
    .bind(game)
    .bind(power)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The occurrences of a player's weekly unavailable period, (from, to).
pub async fn add_weekly(
    c: &mut Conn,
    game: &str,
    power: &str,
    occurrences: &[(Ts, Ts)],
) -> Result<()> {
    for chunk in occurrences.chunks(500) {
        let mut q = crate::store::dialect::Statement::new(
            c,
            "INSERT INTO unavailable (game_id, power, from_ts, to_ts, weekly) ",
        );
        q.values(chunk, |b, (from, to)| {
            b.bind(game).bind(power).bind(*from).bind(*to).bind(1);
        });
        q.query()?.execute(&mut *c).await?;
    }
    Ok(())
}

/// A player's periods that start after `since` (WM D.VII(2): a weekly period leaves the weeks
/// of these alone). Bounded: the dated ones to come (a limit) and those begun since.
pub async fn unavailable_since(
    c: &mut Conn,
    game: &str,
    power: &str,
    since: Ts,
) -> Result<Vec<(Ts, Ts)>> {
    let rows = sqlx::query(
        "SELECT from_ts, to_ts FROM unavailable WHERE game_id = $1 AND power = $2 AND from_ts > $3",
    )
    .bind(game)
    .bind(power)
    .bind(since)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("from_ts")?, r.try_get("to_ts")?)))
        .collect()
}

pub async fn add_unavailable(
    c: &mut Conn,
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

/// A game's unavailable periods that end after `after`: those that can still hold a deadline
/// back or an adjudication (by `unavailable_by_end`; the ones over are never read again).
pub async fn unavailable_after(c: &mut Conn, game: &str, after: Ts) -> Result<Vec<UnavailableRow>> {
    Ok(sqlx::query_as(
        "SELECT power, from_ts, to_ts, weekly FROM unavailable WHERE game_id = $1 AND to_ts > $2",
    )
    .bind(game)
    .bind(after)
    .fetch_all(&mut *c)
    .await?)
}

/// When `power`'s player was last replaced in `phase` (WM B.8; D.VII(6)(b): a replacement
/// named after the deadline may send the orders of a held phase).
pub async fn replaced_at(c: &mut Conn, game: &str, power: &str, phase: &str) -> Result<Option<Ts>> {
    let row = sqlx::query(
        "SELECT max(at) AS at FROM replacements WHERE game_id = $1 AND power = $2 AND phase = $3",
    )
    .bind(game)
    .bind(power)
    .bind(phase)
    .fetch_one(&mut *c)
    .await?;
    Ok(row.try_get("at")?)
}

/// Is `address` a registered player, master or observer of any game that is not finished?
pub async fn is_registered(c: &mut Conn, address: &str) -> Result<bool> {
    let row = sqlx::query(
        "SELECT 1 FROM players p JOIN games g ON g.id = p.game_id
         WHERE p.address = lower($1) AND g.status != 'finished'
         UNION ALL
         SELECT 1 FROM members m JOIN games g ON g.id = m.game_id
         WHERE m.address = lower($1) AND g.status != 'finished' LIMIT 1",
    )
    .bind(address)
    .fetch_optional(&mut *c)
    .await?;
    Ok(row.is_some())
}

/// Count a wrong secret given for a power.
pub async fn add_wrong_secret(c: &mut Conn, game: &str, power: &str) -> Result<()> {
    sqlx::query(
        "UPDATE players SET wrong_secrets = wrong_secrets + 1 WHERE game_id = $1 AND power = $2",
    )
    .bind(game)
    .bind(power)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// What the store found of a player's own periods around a new one (the house rules judge
/// it: `House::unavailable_window`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwnPeriods {
    /// The player's period (dated or an occurrence of the weekly one) that starts nearest the
    /// new one within a week either side, and whether it is weekly.
    pub nearest: Option<(Window, bool)>,
    /// The player's dated periods not yet over.
    pub ahead: u32,
}

/// What a player's periods say of a new dated one starting at `from` (WM D.VII(2): one a
/// week), in one statement by index: the player's period that starts nearest it within a week
/// either side (by `unavailable_by_start`), and the dated ones not over at `now` (by
/// `unavailable_dated`).
pub async fn unavailable_near(
    c: &mut Conn,
    game: &str,
    power: &str,
    from: Ts,
    now: Ts,
) -> Result<OwnPeriods> {
    let row = sqlx::query(
        "SELECT ahead, n.from_ts, n.to_ts, n.weekly
         FROM (SELECT count(*) AS ahead FROM unavailable
               WHERE game_id = $1 AND power = $2 AND weekly = 0 AND to_ts > $3) AS sub
         LEFT JOIN unavailable n
           ON n.game_id = $1 AND n.power = $2 AND n.from_ts > $4 AND n.from_ts < $5
         ORDER BY abs(n.from_ts - $6) LIMIT 1",
    )
    .bind(game)
    .bind(power)
    .bind(now)
    .bind(from - WEEK)
    .bind(from + WEEK)
    .bind(from)
    .fetch_one(&mut *c)
    .await?;
    let nearest = match (
        row.try_get::<Option<Ts>, _>("from_ts")?,
        row.try_get::<Option<Ts>, _>("to_ts")?,
    ) {
        (Some(from), Some(to)) => Some((
            Window { from, to },
            Option::<bool>::from(row.try_get::<dialect::MaybeFlag, _>("weekly")?).unwrap_or(false),
        )),
        _ => None,
    };
    let ahead: i64 = row.try_get("ahead")?;
    Ok(OwnPeriods {
        nearest,
        ahead: u32::try_from(ahead).unwrap_or(u32::MAX),
    })
}

/// A seat's unavailable periods, one-off and weekly (WM D.VII(2)), forgotten when another
/// player takes the seat over: the new player declared none of them.
pub async fn forget_unavailable(c: &mut Conn, game: &str, seat: &str) -> Result<()> {
    sqlx::query("DELETE FROM unavailable WHERE game_id = $1 AND power = $2")
        .bind(game)
        .bind(seat)
        .execute(&mut *c)
        .await?;
    Ok(())
}

crate::store::dialect::text_type!(GameStatus { Forming = "forming", Active = "active", Finished = "finished" });

crate::store::dialect::text_type!(Tenure { Permanent = "permanent", Temporary = "temporary" });

crate::store::dialect::text_type!(ExtensionKind { Guaranteed = "guaranteed", Discretionary = "discretionary", Holiday = "holiday" });
