//! The database a test runs on: a SQLite file, or, when `CHANCERY_TEST_POSTGRES` names a
//! PostgreSQL server (`postgres://user:password@host:port`, as `scripts/postgres env` prints
//! it), a fresh database of its own on that server (issue 28: the store and engine tests run
//! on both). `scripts/test` runs the PostgreSQL suite on a private cluster (`scripts/postgres`).

use chancery::store::{self, Database, Pool};
use std::collections::HashSet;
use std::path::Path;
use std::sync::Mutex;

/// The databases this test process has made: a second `open` of the same path opens it again
/// (as a SQLite file is reopened), it does not make it anew.
static MADE: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// The PostgreSQL server the tests run on, if any.
pub fn postgres() -> Option<String> {
    std::env::var("CHANCERY_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('/').to_string())
}

/// A database's name for the SQLite path a test would have used: its own for each path and
/// process, within PostgreSQL's 63 characters.
fn name_for(path: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut h);
    format!("t_{}_{:016x}", std::process::id(), h.finish())
}

/// The store a test would have kept at `path`: that SQLite file, or its own PostgreSQL
/// database, made empty the first time this process opens it.
pub async fn open(path: &Path) -> Pool {
    match postgres() {
        None => store::open(path).await.expect("open the SQLite store"),
        Some(server) => {
            let name = name_for(path);
            let first = MADE
                .lock()
                .expect("made")
                .get_or_insert_with(HashSet::new)
                .insert(name.clone());
            if first {
                make_database(&server, &name).await;
            }
            store::open_database(&Database::Postgres(format!("{server}/{name}")))
                .await
                .expect("open the PostgreSQL store")
        }
    }
}

/// Database `name` on `server`, made anew.
async fn make_database(server: &str, name: &str) {
    use sqlx::Connection;
    let mut admin = sqlx::postgres::PgConnection::connect(&format!("{server}/postgres"))
        .await
        .expect("the PostgreSQL server");
    for sql in [
        format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        format!("CREATE DATABASE {name}"),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut admin)
            .await
            .expect("make the test database");
    }
}

/// What a test's configuration names as its `database`: the SQLite path, or the URL of the
/// PostgreSQL database [`open`] made for that path.
pub fn configured(path: &Path) -> std::path::PathBuf {
    match postgres() {
        None => path.to_path_buf(),
        Some(server) => format!("{server}/{}", name_for(path)).into(),
    }
}
