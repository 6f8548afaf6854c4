//! The store: SQLite (WAL) through sqlx, with the schema in `migrations/`.
//!
//! Functions take a `&mut Conn` so that the engine can compose them inside one transaction: a
//! message's effects, its outgoing mail and its ledger row commit together, or not at all.
//!
//! The files here are what every kind of game shares; a kind's own tables and queries are in
//! its folder (`diplomacy/`), and what only SQLite understands is in `dialect.rs`. A kind's
//! folder is not re-exported here: its callers name the folder before the query, so that
//! `scripts/check-purity` sees every place outside the kind that reaches it.

use crate::time::Ts;
use dialect::{Db, DbRow};
use sqlx::Row;
use std::path::Path;

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
    Directory { path: String, error: std::io::Error },
    #[error("a game named '{0}' already exists")]
    GameExists(String),
    #[error("{power} already has a player in {game} (a player is changed by REPLACE)")]
    PowerTaken { game: String, power: String },
    #[error("{address} already has a part in {game}")]
    MemberExists { game: String, address: String },
    #[error("store: a server key: {0}")]
    Random(String),
    /// Rows that do not read back as what was written (edited by hand?): the office's
    /// proposals and rule revisions are checked as they are read.
    #[error("store: {0}")]
    Inconsistent(String),
}

pub mod acwc;
mod ballots;
mod batch;
mod copy;
pub mod dialect;
pub mod diplomacy;
mod entries;
mod games;
mod keys;
mod kind;
mod ledger;
mod mailboxes;
mod members;
pub mod nomic;
mod outbox;
mod phases;
mod pictures;
mod rulesets;

pub use ballots::*;
pub use batch::*;
pub use copy::{Copied, copy_store};
pub use dialect::{
    Conn, Database, Dialect, Pool, begin_write, begin_write_on, checkpoint, marks_only,
};
pub use entries::*;
pub use games::*;
pub use keys::*;
pub use kind::*;
pub use ledger::*;
pub use mailboxes::*;
pub use members::*;
pub use outbox::*;
pub use phases::*;
pub use pictures::*;
pub use rulesets::*;

pub type Result<T> = std::result::Result<T, StoreError>;

/// A part of a transaction that can be undone alone (SQLite savepoints): [`savepoint`] starts it,
/// [`keep_savepoint`] or [`undo_savepoint`] ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Savepoint {
    /// One message of a batch committed together (`games::process_batch`): a message that
    /// fails leaves nothing behind, and the messages before it still commit.
    Message,
    /// One command of a mail, inside the mail's transaction: a director's ROUND refused on its
    /// third board leaves no first two behind, as the console's own transaction would not.
    Command,
}

impl Savepoint {
    /// Its statements: start, keep, undo, and keep then start the next (whole literals, as
    /// every statement of the store).
    fn sql(self) -> [&'static str; 4] {
        match self {
            Savepoint::Message => [
                "SAVEPOINT message",
                "RELEASE message",
                "ROLLBACK TO message",
                "RELEASE message; SAVEPOINT message",
            ],
            Savepoint::Command => [
                "SAVEPOINT command",
                "RELEASE command",
                "ROLLBACK TO command",
                "RELEASE command; SAVEPOINT command",
            ],
        }
    }
}

/// Start `part` inside the open transaction.
pub async fn savepoint(c: &mut Conn, part: Savepoint) -> Result<()> {
    sqlx::query(part.sql()[0]).execute(&mut *c).await?;
    Ok(())
}

/// What `part` wrote since [`savepoint`] stands.
pub async fn keep_savepoint(c: &mut Conn, part: Savepoint) -> Result<()> {
    sqlx::query(part.sql()[1]).execute(&mut *c).await?;
    Ok(())
}

/// [`keep_savepoint`] and start the next `part`, in one round trip to the database (a batch
/// does this between two messages).
pub async fn renew_savepoint(c: &mut Conn, part: Savepoint) -> Result<()> {
    match Dialect::of(c) {
        Dialect::Sqlite => {
            sqlx::query(part.sql()[3]).execute(&mut *c).await?;
        }
        // A prepared statement of PostgreSQL's holds one command; a simple query (no parameters,
        // nothing to prepare) holds both, and is one round trip, not two.
        Dialect::Postgres => {
            sqlx::raw_sql(part.sql()[3]).execute(&mut *c).await?;
        }
    }
    Ok(())
}

/// Everything `part` wrote since [`savepoint`] is undone (savepoints opened inside it too); the
/// transaction goes on.
pub async fn undo_savepoint(c: &mut Conn, part: Savepoint) -> Result<()> {
    let [_, release, rollback, _] = part.sql();
    sqlx::query(rollback).execute(&mut *c).await?;
    sqlx::query(release).execute(&mut *c).await?;
    Ok(())
}

/// Open the store where the configuration says (a SQLite file or a PostgreSQL database), and
/// apply the migrations.
pub async fn open_database(db: &Database) -> Result<Pool> {
    match db {
        Database::File(path) => open(path).await,
        Database::Postgres(url) => {
            let pool = dialect::connect_postgres(url).await?;
            dialect::migrate(&pool).await?;
            Ok(pool)
        }
    }
}

/// Open (creating if needed) the database file, in WAL mode, and apply the migrations.
pub async fn open(path: &Path) -> Result<Pool> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|error| StoreError::Directory {
            path: dir.display().to_string(),
            error,
        })?;
    }
    let pool = dialect::connect(path).await?;
    dialect::migrate(&pool).await?;
    Ok(pool)
}
