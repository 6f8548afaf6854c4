//! The SQL dialect: everything of the store that is SQLite's own. The rest of `src/store`
//! writes SQL that PostgreSQL reads the same way; what SQLite alone understands is named here,
//! once, with what PostgreSQL will need instead (issue 28), so that a second database is this
//! file and a second `migrations/` folder, not a hunt through every query.
//!
//! A fragment is a macro that expands to a string literal, so that a statement stays one
//! `&'static str` (`concat!("SELECT ... FROM ", dialect::json_values!(1), " j ...")`): SQLite
//! caches its plan by its text, and `tests/store.rs` explains each statement with the fragments
//! expanded. `scripts/check-purity` fails when one of SQLite's own words is written anywhere
//! else in `src/store`.
//!
//! Portable already, and used as such elsewhere: `ON CONFLICT ... DO NOTHING` and `DO UPDATE`
//! (not `INSERT OR IGNORE` or `OR REPLACE`), `RETURNING`, `UPDATE ... FROM`, `count(*) FILTER`,
//! `VALUES` lists (whose columns both name `column1`, `column2`...), `octet_length`, `->>` on a
//! JSON array element (text in PostgreSQL: compared with an integer column it will need a cast).
//! Still to look at for PostgreSQL beyond the words here: booleans are stored as 0 and 1
//! (`weekly = 0`, the partial index `unavailable_dated`), `renew_savepoint` sends two statements
//! in one (PostgreSQL's prepared statements take one: two round trips, or a raw query), and
//! `min`/`max` of two values are written as `CASE` (PostgreSQL's `LEAST` ignores a NULL where
//! SQLite's `min` returns it).

use super::Result;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use std::path::Path;
use std::time::Duration;

/// The database sqlx talks to (`sqlx::QueryBuilder::<Db>`).
pub type Db = sqlx::Sqlite;
/// A connection, or an open transaction through `&mut *tx`: what every store function takes,
/// so that the engine can compose them inside one transaction.
pub type Conn = sqlx::SqliteConnection;
/// The connections of a running server.
pub type Pool = sqlx::SqlitePool;

/// How a transaction that will write begins: SQLite takes the write lock at once (IMMEDIATE),
/// so two writers never both read and then fail to upgrade (SQLITE_BUSY mid-transaction). Every
/// transaction of a message, a tick or a command begins so (`pool.begin_with(store::BEGIN_WRITE)`).
/// PostgreSQL: a plain `BEGIN`; its row locks do the rest.
pub const BEGIN_WRITE: &str = "BEGIN IMMEDIATE";

/// Make `c` a connection for the outbox's marks only: a commit is a WAL write, not an fsync
/// (SQLite's `synchronous = NORMAL`: durable across a crash of the process, not of the OS; a
/// mark lost with the OS is settled by the archive, src/service/outbox.rs). PostgreSQL: `SET
/// synchronous_commit = off` on that session.
pub async fn marks_only(c: &mut Conn) -> Result<()> {
    sqlx::query("PRAGMA synchronous = NORMAL")
        .execute(&mut *c)
        .await?;
    Ok(())
}
/// Write what the log holds into the database file and empty the log (SQLite's WAL
/// checkpoint). The bench calls it after filling a store, so that the run it times does not
/// pay for the filling's writes. PostgreSQL: `CHECKPOINT`.
pub async fn checkpoint(c: &mut Conn) -> Result<()> {
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// A row as read (`sqlx::FromRow<'_, DbRow>`).
pub type DbRow = sqlx::sqlite::SqliteRow;

/// Rows a multi-row statement takes at once: SQLite allows 32,766 parameters in one statement
/// (PostgreSQL 65,535), so a thousand rows of up to 32 columns each.
pub const ROWS_A_STATEMENT: usize = 1000;

/// The connections to the database file at `path` (created if missing): WAL, and a commit that
/// survives power loss. PostgreSQL: a connection URL; durability and the temporary store are
/// the server's settings there, not the connection's.
pub(super) async fn connect(path: &Path) -> Result<Pool> {
    let opts = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        // FULL: a committed ledger row survives power loss, not only a crash.
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        // A batch of messages keeps each message's undo copy (its savepoint's) in memory, not
        // in a temporary file written for every page a message changes (issue 22).
        .pragma("temp_store", "memory")
        .busy_timeout(Duration::from_secs(10));
    let pool = SqlitePoolOptions::new()
        .max_connections(4)
        .connect_with(opts)
        .await?;
    Ok(pool)
}

/// Bring the schema up to date: `migrations/` is SQLite's DDL (PostgreSQL will have its own
/// folder of the same migrations).
pub(super) async fn migrate(pool: &Pool) -> Result<()> {
    sqlx::migrate!("./migrations").run(pool).await?;
    Ok(())
}

/// The rows of a JSON array of values bound as parameter `$n` (a batch's game ids), each row's
/// `value` one of them: a batch's list is one parameter, so a statement has the same text
/// whatever the batch's size and every lookup uses an index. SQLite: the table-valued
/// `json_each`. PostgreSQL: `jsonb_array_elements_text($n::jsonb)` (its rows' column is
/// `value` too).
#[doc(hidden)]
#[macro_export]
macro_rules! __store_dialect_json_values {
    ($n:literal) => {
        concat!("json_each($", $n, ")")
    };
}
pub use crate::__store_dialect_json_values as json_values;

/// The rows of a JSON array of arrays bound as parameter `$n` (a batch's (game, phase) pairs),
/// each row's `value` one of them, its fields read as `value ->> 0`, `value ->> 1`... SQLite:
/// `json_each`. PostgreSQL: `jsonb_array_elements($n::jsonb)` (a row's `value` is `jsonb`, and
/// `->>` gives text: a field compared with an integer column needs a cast).
#[doc(hidden)]
#[macro_export]
macro_rules! __store_dialect_json_rows {
    ($n:literal) => {
        concat!("json_each($", $n, ")")
    };
}
pub use crate::__store_dialect_json_rows as json_rows;

/// The order in which a table's rows were inserted, for a table that keeps no column of its
/// own for it (`entrants`: the order of sign-up). SQLite: the implicit `rowid`, which grows
/// with each insert. PostgreSQL has none: its migration will add an identity column to the
/// table, and this fragment will name it.
#[doc(hidden)]
#[macro_export]
macro_rules! __store_dialect_insertion_order {
    () => {
        "rowid"
    };
}
pub use crate::__store_dialect_insertion_order as insertion_order;

/// After a table's name: the index the statement must read, where SQLite's planner would choose
/// a worse one (`outbox_due`: one step down the due rows, never the whole outbox). SQLite:
/// `INDEXED BY`, which fails the statement if the index cannot serve it. PostgreSQL has no
/// index hints: nothing (its planner uses a partial index whose condition the query implies).
#[doc(hidden)]
#[macro_export]
macro_rules! __store_dialect_indexed_by {
    ($index:literal) => {
        concat!("INDEXED BY ", $index)
    };
}
pub use crate::__store_dialect_indexed_by as indexed_by;

/// An empty blob (the raw bytes of a message, purged). SQLite: the blob literal `X''`.
/// PostgreSQL: `'\x'::bytea` (its `X''` is a bit string).
#[doc(hidden)]
#[macro_export]
macro_rules! __store_dialect_empty_blob {
    () => {
        "X''"
    };
}
pub use crate::__store_dialect_empty_blob as empty_blob;
