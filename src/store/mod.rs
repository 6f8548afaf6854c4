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
    Directory { path: String, error: std::io::Error },
    #[error("a game named '{0}' already exists")]
    GameExists(String),
    #[error("{power} already has a player in {game} (a player is changed by REPLACE)")]
    PowerTaken { game: String, power: String },
    #[error("{address} already has a part in {game}")]
    MemberExists { game: String, address: String },
    #[error("store: a server key: {0}")]
    Random(String),
}

mod games;
mod keys;
mod ledger;
mod mailboxes;
mod members;
mod outbox;
mod phases;
mod tick;
mod tournaments;

pub use games::*;
pub use keys::*;
pub use ledger::*;
pub use mailboxes::*;
pub use members::*;
pub use outbox::*;
pub use phases::*;
pub use tick::*;
pub use tournaments::*;

pub type Result<T> = std::result::Result<T, StoreError>;

/// One command of a mail, inside the mail's transaction, undone alone when it is refused: a
/// director's ROUND refused on its third board leaves no first two behind, as the console's
/// own transaction would not (SQLite savepoints; [`keep_command`] or [`undo_command`] ends it).
pub async fn begin_command(c: &mut SqliteConnection) -> Result<()> {
    sqlx::query("SAVEPOINT command").execute(&mut *c).await?;
    Ok(())
}

/// The command since [`begin_command`] stands.
pub async fn keep_command(c: &mut SqliteConnection) -> Result<()> {
    sqlx::query("RELEASE command").execute(&mut *c).await?;
    Ok(())
}

/// Everything the command wrote since [`begin_command`] is undone; the mail's transaction goes
/// on.
pub async fn undo_command(c: &mut SqliteConnection) -> Result<()> {
    sqlx::query("ROLLBACK TO command").execute(&mut *c).await?;
    sqlx::query("RELEASE command").execute(&mut *c).await?;
    Ok(())
}

/// Open (creating if needed) the database file, in WAL mode, and apply the migrations.
pub async fn open(path: &Path) -> Result<SqlitePool> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|error| StoreError::Directory {
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
