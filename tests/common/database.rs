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
        Some(server) => open_on(&server, path).await,
    }
}

/// The PostgreSQL database on `server` that stands for `path`, made empty the first time this
/// process opens it.
pub async fn open_on(server: &str, path: &Path) -> Pool {
    let name = name_for(path);
    let first = MADE
        .lock()
        .expect("made")
        .get_or_insert_with(HashSet::new)
        .insert(name.clone());
    if first {
        store::dialect::make_postgres_database(server, &name)
            .await
            .expect("make the test database");
    }
    store::open_database(&Database::Postgres(url_on(server, path)))
        .await
        .expect("open the PostgreSQL store")
}

/// The URL of the database [`open_on`] makes on `server` for `path`.
pub fn url_on(server: &str, path: &Path) -> String {
    format!("{server}/{}", name_for(path))
}

/// A private PostgreSQL cluster (`scripts/postgres`) for a test that needs PostgreSQL whatever
/// database the suite runs on (several instances on one database); stopped when dropped.
pub struct Cluster {
    dir: std::path::PathBuf,
    /// `postgres://chancery:secret@127.0.0.1:PORT`.
    pub server: String,
}

impl Cluster {
    /// The suite's server (`CHANCERY_TEST_POSTGRES`), or a cluster of this test's own.
    pub fn for_test() -> (String, Option<Cluster>) {
        match postgres() {
            Some(server) => (server, None),
            None => {
                let c = Cluster::start();
                (c.server.clone(), Some(c))
            }
        }
    }

    fn start() -> Cluster {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let dir = std::env::temp_dir().join(format!("chpg-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let ok = std::process::Command::new(root.join("scripts/postgres"))
            .arg("start")
            .arg(&dir)
            .env("POSTGRES_PORT", port.to_string())
            .stdout(std::process::Stdio::null())
            .status()
            .expect("scripts/postgres");
        assert!(ok.success(), "scripts/postgres start {}", dir.display());
        Cluster {
            dir,
            server: format!("postgres://chancery:secret@127.0.0.1:{port}"),
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let _ = std::process::Command::new(root.join("scripts/postgres"))
            .arg("stop")
            .arg(&self.dir)
            .stdout(std::process::Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What a test's configuration names as its `database`: the SQLite path, or the URL of the
/// PostgreSQL database [`open`] made for that path.
pub fn configured(path: &Path) -> std::path::PathBuf {
    match postgres() {
        None => path.to_path_buf(),
        Some(server) => url_on(&server, path).into(),
    }
}
