//! The SQL dialects: everything of the store that differs between SQLite and PostgreSQL. The
//! rest of `src/store` writes SQL that both read the same way; what is not the same is named
//! here, once, with its two texts (`sqlite::` and `postgres::`), so that a second database is
//! this file and a second `migrations/` folder, not a hunt through every query.
//!
//! The store talks to either through sqlx's `Any` driver: the configuration's `database` (a
//! file, or `postgres://...`) picks one at start ([`Database`]), and a statement that differs
//! asks its connection which it speaks ([`Dialect`]). A fragment is a macro that expands to a
//! string literal, and a statement that uses one is written inside [`sql!`]
//! (`sql!(c, concat!("SELECT ... FROM ", json_values!(1), " j ..."))`): each database gets a
//! whole `&'static str` (SQLite caches its plan by its text), and `tests/store.rs` explains
//! each statement with SQLite's fragments. `scripts/check-purity` fails when one of SQLite's
//! own words is written anywhere else in `src/store`.
//!
//! Portable, and used as such elsewhere: `ON CONFLICT ... DO NOTHING` and `DO UPDATE` (with the
//! table named before a column the update reads: PostgreSQL finds a bare name ambiguous), not
//! `INSERT OR IGNORE` or `OR REPLACE`; `RETURNING`; `UPDATE ... FROM`; `count(*) FILTER`;
//! `VALUES` lists (whose columns both name `column1`, `column2`...); `octet_length`; `->>` on
//! a JSON array element (text in PostgreSQL: a number is read with `json_int!`); a subquery in
//! FROM named (PostgreSQL 15 needs it); a `sum` cast to `BIGINT` (PostgreSQL's is `NUMERIC`,
//! which `Any` cannot read); `$N` placeholders (a list bound value by value is a
//! [`Statement`]). Yes-or-no columns are integers 0 and 1 on both (`weekly = 0` reads the same),
//! read through [`Flag`] and bound as one; `min`/`max` of two values are written as `CASE`
//! (PostgreSQL's `LEAST` ignores a NULL where SQLite's `min` returns it).

use super::Result;
use sqlx::Executor;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use std::path::Path;
use std::str::FromStr;

/// The database sqlx talks to: sqlx's `Any`, so that the configuration's `database` picks
/// SQLite or PostgreSQL at run time (issue 28), one store for both.
pub type Db = sqlx::Any;
/// A connection, or an open transaction through `&mut *tx`: what every store function takes,
/// so that the engine can compose them inside one transaction.
pub type Conn = sqlx::AnyConnection;
/// The connections of a running server.
pub type Pool = sqlx::AnyPool;

/// Where the store is: a SQLite file, or a PostgreSQL server by its URL (the configuration's
/// `database`: a path, or `postgres://...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file (created if missing).
    File(std::path::PathBuf),
    /// A PostgreSQL database: `postgres://user:password@host:port/name`.
    Postgres(String),
}

impl Database {
    /// The configuration's `database`, a path relative to `base` unless it is a PostgreSQL URL.
    pub fn at(base: &Path, database: &Path) -> Database {
        let text = database.to_string_lossy();
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Database::Postgres(text.into_owned())
        } else {
            Database::File(base.join(database))
        }
    }
}

impl std::fmt::Display for Database {
    /// What the log may say of it: the file, or the server without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::File(p) => write!(f, "{}", p.display()),
            Database::Postgres(url) => match url.rsplit_once('@') {
                Some((_, host)) => write!(f, "postgres://…@{host}"),
                None => write!(f, "{url}"),
            },
        }
    }
}

/// Which SQL a connection speaks, for the few statements that are not the same on both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// The dialect of connection `c`.
    pub fn of(c: &Conn) -> Dialect {
        match c.backend_name() {
            "PostgreSQL" => Dialect::Postgres,
            _ => Dialect::Sqlite,
        }
    }

    /// The dialect of the pool's connections.
    pub fn of_pool(pool: &Pool) -> Dialect {
        match pool.connect_options().database_url.scheme() {
            "postgres" | "postgresql" => Dialect::Postgres,
            _ => Dialect::Sqlite,
        }
    }

    /// How a transaction that will write begins: SQLite takes the write lock at once
    /// (IMMEDIATE), so two writers never both read and then fail to upgrade (SQLITE_BUSY
    /// mid-transaction). PostgreSQL: a plain `BEGIN`; its row locks do the rest.
    pub fn begin_write(self) -> &'static str {
        match self {
            Dialect::Sqlite => "BEGIN IMMEDIATE",
            Dialect::Postgres => "BEGIN",
        }
    }
}

/// A transaction that will write, on a connection of `pool`: every transaction of a message, a
/// tick or a command begins so ([`Dialect::begin_write`]).
pub async fn begin_write(pool: &Pool) -> Result<sqlx::Transaction<'static, Db>> {
    let begin = Dialect::of_pool(pool).begin_write();
    match pool.begin_with(begin).await {
        Err(sqlx::Error::InvalidSavePointStatement) => {
            close_stuck_connections(pool).await;
            Ok(pool.begin_with(begin).await?)
        }
        begun => Ok(begun?),
    }
}

/// Close the idle connections that can never begin a transaction again. When a disk fills up,
/// SQLite rolls a transaction back by itself (`SQLITE_FULL`); sqlx still counts it open, its
/// own `ROLLBACK` then fails, and every later `BEGIN` on that connection is refused as a nested
/// one (issue 29: after a full disk was freed, every message failed so, and would have been
/// set aside). Found only when a `BEGIN` is refused, so it costs nothing otherwise; a connection
/// busy now is found the next time.
async fn close_stuck_connections(pool: &Pool) {
    let mut looked_at = Vec::new();
    while let Some(mut c) = pool.try_acquire() {
        let sane = match sqlx::Connection::begin_with(&mut *c, "BEGIN").await {
            Ok(tx) => tx.rollback().await.is_ok(),
            Err(_) => false,
        };
        if !sane {
            tracing::warn!("store: a connection left in a transaction it cannot end is closed");
            c.close_on_drop();
        }
        looked_at.push(c);
    }
}

/// [`begin_write`] on a connection already held.
pub async fn begin_write_on(c: &mut Conn) -> Result<sqlx::Transaction<'_, Db>> {
    let begin = Dialect::of(c).begin_write();
    Ok(sqlx::Connection::begin_with(c, begin).await?)
}

/// Make `c` a connection for the outbox's marks only: a commit is a WAL write, not an fsync
/// (SQLite's `synchronous = NORMAL`: durable across a crash of the process, not of the OS; a
/// mark lost with the OS is settled by the archive, src/service/outbox.rs). PostgreSQL: its
/// `synchronous_commit = off` on that session, the same promise.
pub async fn marks_only(c: &mut Conn) -> Result<()> {
    let sql = match Dialect::of(c) {
        Dialect::Sqlite => "PRAGMA synchronous = NORMAL",
        Dialect::Postgres => "SET synchronous_commit = off",
    };
    sqlx::query(sql).execute(&mut *c).await?;
    Ok(())
}
/// Write what the log holds into the database and empty the log (SQLite's WAL checkpoint;
/// PostgreSQL's `CHECKPOINT`). The bench calls it after filling a store, so that the run it
/// times does not pay for the filling's writes.
pub async fn checkpoint(c: &mut Conn) -> Result<()> {
    let sql = match Dialect::of(c) {
        Dialect::Sqlite => "PRAGMA wal_checkpoint(TRUNCATE)",
        Dialect::Postgres => "CHECKPOINT",
    };
    sqlx::query(sql).execute(&mut *c).await?;
    Ok(())
}

/// A row as read (`sqlx::FromRow<'_, DbRow>`).
pub type DbRow = sqlx::any::AnyRow;

/// Rows a multi-row statement takes at once: SQLite allows 32,766 parameters in one statement
/// (PostgreSQL 65,535), so a thousand rows of up to 32 columns each.
pub const ROWS_A_STATEMENT: usize = 1000;

/// SQLite's URL for the file at `path`, created if missing: the characters a URL gives a
/// meaning to are escaped, so any file name reaches SQLite as it is.
fn sqlite_url(path: &Path) -> String {
    let mut url = String::from("sqlite://");
    for ch in path.to_string_lossy().chars() {
        match ch {
            '%' | '?' | '#' => url.push_str(&format!("%{:02X}", ch as u32)),
            _ => url.push(ch),
        }
    }
    url.push_str("?mode=rwc");
    url
}

/// Each SQLite connection's settings, as it opens: WAL, a commit that survives power loss
/// (FULL: a committed ledger row survives power loss, not only a crash), foreign keys, and a
/// batch of messages keeping each message's undo copy (its savepoint's) in memory, not in a
/// temporary file written for every page a message changes (issue 22).
const SQLITE_SETTINGS: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
     PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY; PRAGMA busy_timeout = 10000;";

/// The connections to the database file at `path` (created if missing): WAL, and a commit that
/// survives power loss.
pub(super) async fn connect(path: &Path) -> Result<Pool> {
    sqlx::any::install_default_drivers();
    let opts = AnyConnectOptions::from_str(&sqlite_url(path))?;
    let pool = AnyPoolOptions::new()
        .max_connections(4)
        .after_connect(|c, _| {
            Box::pin(async move {
                c.execute(SQLITE_SETTINGS).await?;
                Ok(())
            })
        })
        .connect_with(opts)
        .await?;
    Ok(pool)
}

/// The connections to a PostgreSQL database: durability and the temporary store are the
/// server's settings there, not the connection's. More connections than SQLite's: PostgreSQL
/// writes side by side where SQLite takes one writer at a time.
pub(super) async fn connect_postgres(url: &str) -> Result<Pool> {
    sqlx::any::install_default_drivers();
    let opts = AnyConnectOptions::from_str(url)?;
    let pool = AnyPoolOptions::new()
        .max_connections(8)
        .connect_with(opts)
        .await?;
    Ok(pool)
}

/// A new, empty database `name` on the PostgreSQL server at `server`
/// (`postgres://user:password@host:port`, whose role may create databases, with any options
/// after a `?`, such as `?host=/run/postgresql` for its Unix socket), dropped first if it
/// exists: the bench's stores. Its URL.
pub async fn make_postgres_database(server: &str, name: &str) -> Result<String> {
    use sqlx::Connection;
    let (mut admin, server, options) = postgres_admin(server, name).await?;
    drop_database(&mut admin, name).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await?;
    admin.close().await?;
    Ok(format!("{server}/{name}{options}"))
}

/// Drop database `name` on the PostgreSQL server at `server` if it exists (its connections
/// closed): the bench's stores, once it is done with them.
pub async fn drop_postgres_database(server: &str, name: &str) -> Result<()> {
    use sqlx::Connection;
    let (mut admin, _, _) = postgres_admin(server, name).await?;
    drop_database(&mut admin, name).await?;
    admin.close().await?;
    Ok(())
}

/// A connection to the server's `postgres` database, to make or drop database `name` (checked
/// to be a plain name: it is spliced into the statement); the server's URL without options,
/// and its options (`?...`, or empty).
async fn postgres_admin(
    server: &str,
    name: &str,
) -> Result<(sqlx::postgres::PgConnection, String, String)> {
    use sqlx::Connection;
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(super::StoreError::Inconsistent(format!(
            "{name:?} is no plain database name"
        )));
    }
    let (server, options) = server.split_once('?').unwrap_or((server, ""));
    let server = server.trim_end_matches('/');
    let options = if options.is_empty() {
        String::new()
    } else {
        format!("?{options}")
    };
    let admin =
        sqlx::postgres::PgConnection::connect(&format!("{server}/postgres{options}")).await?;
    Ok((admin, server.to_string(), options))
}

async fn drop_database(admin: &mut sqlx::postgres::PgConnection, name: &str) -> Result<()> {
    // Looked up first: `DROP DATABASE IF EXISTS` of a missing one logs a notice.
    let exists: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(name)
            .fetch_one(&mut *admin)
            .await?;
    if exists {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE {name} WITH (FORCE)"
        )))
        .execute(&mut *admin)
        .await?;
    }
    Ok(())
}

/// Bring the schema up to date: `migrations/` is SQLite's DDL, `migrations/postgres/`
/// PostgreSQL's (the same schema, checked by `scripts/check-schemas`).
pub(super) async fn migrate(pool: &Pool) -> Result<()> {
    match Dialect::of_pool(pool) {
        Dialect::Sqlite => sqlx::migrate!("./migrations").run(pool).await?,
        Dialect::Postgres => sqlx::migrate!("./migrations/postgres").run(pool).await?,
    }
    Ok(())
}

/// A closed set of names stored as TEXT: each variant's name in the store, written once here,
/// and the enum's `Type`, `Encode` and `Decode` for the store's database (sqlx's derive gives
/// each database driver its own, and `Any` none). `text_type!(Role { Gm = "gm", Td = "td" })`.
#[doc(hidden)]
#[macro_export]
macro_rules! __store_dialect_text_type {
    ($t:ident { $($v:ident = $name:literal),+ $(,)? }) => {
        impl sqlx::Type<sqlx::Any> for $t {
            fn type_info() -> sqlx::any::AnyTypeInfo {
                <&str as sqlx::Type<sqlx::Any>>::type_info()
            }
            fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
                <&str as sqlx::Type<sqlx::Any>>::compatible(ty)
            }
        }
        impl<'q> sqlx::Encode<'q, sqlx::Any> for $t {
            fn encode_by_ref(
                &self,
                buf: &mut <sqlx::Any as sqlx::Database>::ArgumentBuffer,
            ) -> std::result::Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                let name: &'static str = match self {
                    $($t::$v => $name,)+
                };
                <&str as sqlx::Encode<'q, sqlx::Any>>::encode(name, buf)
            }
        }
        impl<'r> sqlx::Decode<'r, sqlx::Any> for $t {
            fn decode(
                value: <sqlx::Any as sqlx::Database>::ValueRef<'r>,
            ) -> std::result::Result<Self, sqlx::error::BoxDynError> {
                let name = <&str as sqlx::Decode<'r, sqlx::Any>>::decode(value)?;
                match name {
                    $($name => Ok($t::$v),)+
                    other => Err(format!(
                        "{other:?} is no {} (the store holds a name it does not know)",
                        stringify!($t)
                    )
                    .into()),
                }
            }
        }
    };
}
pub use crate::__store_dialect_text_type as text_type;

/// A statement whose text is not the same on both databases: `sql!(c, concat!("SELECT ... FROM
/// ", json_values!(1), " j ..."))` is the text for `c`'s database, each fragment (written
/// without a path) SQLite's or PostgreSQL's. Both texts are `&'static str`s made at compile
/// time: SQLite caches its plan by the text, and `tests/store.rs` explains each statement with
/// SQLite's fragments.
#[doc(hidden)]
#[macro_export]
macro_rules! __store_dialect_sql {
    ($c:expr, $($sql:tt)+) => {
        match $crate::store::Dialect::of($c) {
            $crate::store::Dialect::Sqlite => {
                #[allow(unused_imports)]
                use $crate::store::dialect::sqlite::{
                    empty_blob, indexed_by, insertion_order, json_int, json_rows, json_values,
                    skip_locked,
                };
                $($sql)+
            }
            $crate::store::Dialect::Postgres => {
                #[allow(unused_imports)]
                use $crate::store::dialect::postgres::{
                    empty_blob, indexed_by, insertion_order, json_int, json_rows, json_values,
                    skip_locked,
                };
                $($sql)+
            }
        }
    };
}
pub use crate::__store_dialect_sql as sql;

/// SQLite's fragments.
pub mod sqlite {
    /// The rows of a JSON array of values bound as parameter `$n` (a batch's game ids), each
    /// row's `value` one of them: a batch's list is one parameter, so a statement has the same
    /// text whatever the batch's size and every lookup uses an index. SQLite: the
    /// table-valued `json_each`.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __sqlite_json_values {
        ($n:literal) => {
            concat!("json_each($", $n, ")")
        };
    }
    pub use crate::__sqlite_json_values as json_values;

    /// The rows of a JSON array of arrays bound as parameter `$n` (a batch's (game, phase)
    /// pairs), each row's `value` one of them, its fields read as `value ->> 0` (text) or
    /// `json_int!(0)` (a number). SQLite: `json_each`.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __sqlite_json_rows {
        ($n:literal) => {
            concat!("json_each($", $n, ")")
        };
    }
    pub use crate::__sqlite_json_rows as json_rows;

    /// Field `k` of a `json_rows!` row that is a number, to compare with an integer column.
    /// SQLite: `value ->> k` is the number itself.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __sqlite_json_int {
        ($k:literal) => {
            concat!("value ->> ", $k)
        };
    }
    pub use crate::__sqlite_json_int as json_int;

    /// The order in which a table's rows were inserted, for a table that keeps no column of
    /// its own for it (`entrants`: the order of sign-up). SQLite: the implicit `rowid`, which
    /// grows with each insert.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __sqlite_insertion_order {
        () => {
            "rowid"
        };
    }
    pub use crate::__sqlite_insertion_order as insertion_order;

    /// After a table's name: the index the statement must read, where SQLite's planner would
    /// choose a worse one (`outbox_due`: one step down the due rows, never the whole outbox).
    /// SQLite: `INDEXED BY`, which fails the statement if the index cannot serve it.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __sqlite_indexed_by {
        ($index:literal) => {
            concat!("INDEXED BY ", $index)
        };
    }
    pub use crate::__sqlite_indexed_by as indexed_by;

    /// An empty blob (the raw bytes of a message, purged). SQLite: the blob literal `X''`.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __sqlite_empty_blob {
        () => {
            "X''"
        };
    }
    pub use crate::__sqlite_empty_blob as empty_blob;

    /// At a SELECT's end: the rows it reads taken for this transaction, those another
    /// transaction holds left out (several instances, issue 28). SQLite: nothing (one writer at
    /// a time holds the whole database).
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __sqlite_skip_locked {
        ($table:literal) => {
            ""
        };
    }
    pub use crate::__sqlite_skip_locked as skip_locked;
}

/// PostgreSQL's fragments, each the counterpart of SQLite's of the same name.
pub mod postgres {
    /// `jsonb_array_elements_text`: its rows' column is `value` too, a text.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __postgres_json_values {
        ($n:literal) => {
            concat!("jsonb_array_elements_text($", $n, "::jsonb)")
        };
    }
    pub use crate::__postgres_json_values as json_values;

    /// `jsonb_array_elements`: a row's `value` is a `jsonb`, and `->>` gives a text.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __postgres_json_rows {
        ($n:literal) => {
            concat!("jsonb_array_elements($", $n, "::jsonb)")
        };
    }
    pub use crate::__postgres_json_rows as json_rows;

    /// `->>` gives a text: cast to the integer it holds.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __postgres_json_int {
        ($k:literal) => {
            concat!("(value ->> ", $k, ")::bigint")
        };
    }
    pub use crate::__postgres_json_int as json_int;

    /// PostgreSQL has no `rowid`: its schema gives `entrants` an identity column of its own,
    /// `sign_up` (migrations/postgres/).
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __postgres_insertion_order {
        () => {
            "sign_up"
        };
    }
    pub use crate::__postgres_insertion_order as insertion_order;

    /// PostgreSQL has no index hints: nothing (its planner uses a partial index whose
    /// condition the query implies).
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __postgres_indexed_by {
        ($index:literal) => {
            ""
        };
    }
    pub use crate::__postgres_indexed_by as indexed_by;

    /// `'\x'::bytea` (PostgreSQL's `X''` is a bit string).
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __postgres_empty_blob {
        () => {
            "'\\x'::bytea"
        };
    }
    pub use crate::__postgres_empty_blob as empty_blob;

    /// `FOR UPDATE OF t SKIP LOCKED`: the rows are locked until the commit, and rows another
    /// transaction has locked are skipped, not waited for.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __postgres_skip_locked {
        ($table:literal) => {
            concat!(" FOR UPDATE OF ", $table, " SKIP LOCKED")
        };
    }
    pub use crate::__postgres_skip_locked as skip_locked;
}

/// A statement put together from parts and bound values (a multi-row `VALUES` list, an `IN`
/// list), with each database's own placeholders: SQLite's `?` (a named one, `$N`, costs SQLite
/// a scan of every name for each value bound: a thousand-row insert's thirteen thousand values
/// took a seventh of a deadline storm), PostgreSQL's `$1`, `$2`... (sqlx's `QueryBuilder`
/// writes `?` for `Any` whatever the database).
pub struct Statement {
    dialect: Dialect,
    sql: String,
    args: sqlx::any::AnyArguments,
    bound: usize,
    failed: Option<String>,
}

/// One row of [`Statement::values`]: its values separated by commas.
pub struct Row<'s> {
    s: &'s mut Statement,
    first: bool,
}

impl Row<'_> {
    /// The row's next value.
    pub fn bind<'q, T>(&mut self, value: T) -> &mut Self
    where
        T: sqlx::Encode<'q, sqlx::Any> + sqlx::Type<sqlx::Any> + 'q,
    {
        self.sep();
        self.s.bind(value);
        self
    }

    /// The row's next value as written (a sub-select around a bound value, say).
    pub fn push(&mut self, sql: &str) -> &mut Self {
        self.sep();
        self.s.push(sql);
        self
    }

    /// A value bound right after what came before, with no comma (inside a `push`'s text).
    pub fn bind_unseparated<'q, T>(&mut self, value: T) -> &mut Self
    where
        T: sqlx::Encode<'q, sqlx::Any> + sqlx::Type<sqlx::Any> + 'q,
    {
        self.s.bind(value);
        self
    }

    /// Text right after what came before, with no comma.
    pub fn push_unseparated(&mut self, sql: &str) -> &mut Self {
        self.s.push(sql);
        self
    }

    fn sep(&mut self) {
        if !self.first {
            self.s.push(", ");
        }
        self.first = false;
    }
}

impl Statement {
    /// A statement for connection `c` that starts with `sql`.
    pub fn new(c: &Conn, sql: &str) -> Statement {
        Statement {
            dialect: Dialect::of(c),
            sql: sql.to_string(),
            args: sqlx::any::AnyArguments::default(),
            bound: 0,
            failed: None,
        }
    }

    /// Text as it is.
    pub fn push(&mut self, sql: &str) -> &mut Self {
        self.sql.push_str(sql);
        self
    }

    /// A value bound, its placeholder written.
    pub fn bind<'q, T>(&mut self, value: T) -> &mut Self
    where
        T: sqlx::Encode<'q, sqlx::Any> + sqlx::Type<sqlx::Any> + 'q,
    {
        use sqlx::Arguments;
        self.bound += 1;
        match self.dialect {
            Dialect::Sqlite => self.sql.push('?'),
            Dialect::Postgres => {
                self.sql.push('$');
                self.sql.push_str(&self.bound.to_string());
            }
        }
        // An `Any` argument is a plain value (a number, a text, bytes): adding one fails only
        // where its encoding fails, as a JSON value's may; that shows when the statement runs.
        if let Err(e) = self.args.add(value) {
            self.failed = Some(e.to_string());
        }
        self
    }

    /// `VALUES (...), (...)`: each item's values bound by `row`, separated by commas.
    pub fn values<I>(&mut self, items: I, mut row: impl FnMut(&mut Row<'_>, I::Item)) -> &mut Self
    where
        I: IntoIterator,
    {
        self.sql.push_str("VALUES ");
        for (k, item) in items.into_iter().enumerate() {
            if k > 0 {
                self.sql.push_str(", ");
            }
            self.sql.push('(');
            let mut r = Row {
                s: self,
                first: true,
            };
            row(&mut r, item);
            self.sql.push(')');
        }
        self
    }

    /// The statement, to execute or fetch with.
    pub fn query(&mut self) -> Result<sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments>> {
        if let Some(e) = self.failed.take() {
            return Err(super::StoreError::Inconsistent(format!(
                "a value to bind: {e}"
            )));
        }
        let args = std::mem::take(&mut self.args);
        Ok(sqlx::query_with(
            sqlx::AssertSqlSafe(std::mem::take(&mut self.sql)),
            args,
        ))
    }
}

/// A value stored as JSON text (`sqlx::types::Json`'s part, for the store's database: `Any`
/// takes no `Json` of sqlx's own). Read back, a `Vec` field of a row takes it through
/// `#[sqlx(try_from = "Json<Vec<T>>")]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<T> sqlx::Type<sqlx::Any> for Json<T> {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <&str as sqlx::Type<sqlx::Any>>::type_info()
    }
    fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
        <&str as sqlx::Type<sqlx::Any>>::compatible(ty)
    }
}

impl<'q, T: serde::Serialize> sqlx::Encode<'q, sqlx::Any> for Json<T> {
    fn encode_by_ref(
        &self,
        buf: &mut <sqlx::Any as sqlx::Database>::ArgumentBuffer,
    ) -> std::result::Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
        let text = serde_json::to_string(&self.0)?;
        <String as sqlx::Encode<'q, sqlx::Any>>::encode(text, buf)
    }
}

impl<'r, T: serde::de::DeserializeOwned> sqlx::Decode<'r, sqlx::Any> for Json<T> {
    fn decode(
        value: <sqlx::Any as sqlx::Database>::ValueRef<'r>,
    ) -> std::result::Result<Self, sqlx::error::BoxDynError> {
        let text = <&str as sqlx::Decode<'r, sqlx::Any>>::decode(value)?;
        Ok(Json(serde_json::from_str(text)?))
    }
}

impl<T> From<Json<Vec<T>>> for Vec<T> {
    fn from(j: Json<Vec<T>>) -> Self {
        j.0
    }
}

/// A yes-or-no column as stored: SQLite keeps it as 0 or 1, and so does the PostgreSQL schema
/// (a `BIGINT`, so that a statement's `weekly = 0` reads the same on both); sqlx's `Any` reads
/// a `bool` only from a boolean, and binds a `bool` as one (which PostgreSQL will not put in a
/// `BIGINT`). A `bool` field of a row takes it through `#[sqlx(try_from = "Flag")]`; a `bool`
/// is bound as `Flag(b)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag(pub bool);

/// [`Flag`] where the column may be NULL: `#[sqlx(try_from = "MaybeFlag")]` on an
/// `Option<bool>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaybeFlag(pub Option<bool>);

/// What a flag's value is, whatever the database returned it as.
fn flag_of(value: &sqlx::any::AnyValueRef<'_>) -> std::result::Result<Option<bool>, String> {
    use sqlx::{Value, ValueRef};
    if value.is_null() {
        return Ok(None);
    }
    let v = ValueRef::to_owned(value);
    if let Ok(b) = v.try_decode::<bool>() {
        return Ok(Some(b));
    }
    match v.try_decode::<i64>() {
        Ok(i) => Ok(Some(i != 0)),
        Err(e) => Err(format!(
            "a yes-or-no column holds neither 0, 1 nor a boolean: {e}"
        )),
    }
}

fn is_flag(ty: &sqlx::any::AnyTypeInfo) -> bool {
    <bool as sqlx::Type<sqlx::Any>>::compatible(ty)
        || <i64 as sqlx::Type<sqlx::Any>>::compatible(ty)
}

impl sqlx::Type<sqlx::Any> for Flag {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <i64 as sqlx::Type<sqlx::Any>>::type_info()
    }
    fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
        is_flag(ty)
    }
}

impl sqlx::Type<sqlx::Any> for MaybeFlag {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <i64 as sqlx::Type<sqlx::Any>>::type_info()
    }
    fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
        is_flag(ty)
    }
}

impl<'r> sqlx::Decode<'r, sqlx::Any> for Flag {
    fn decode(
        value: <sqlx::Any as sqlx::Database>::ValueRef<'r>,
    ) -> std::result::Result<Self, sqlx::error::BoxDynError> {
        match flag_of(&value)? {
            Some(b) => Ok(Flag(b)),
            None => Err("a yes-or-no column is NULL".into()),
        }
    }
}

impl<'r> sqlx::Decode<'r, sqlx::Any> for MaybeFlag {
    fn decode(
        value: <sqlx::Any as sqlx::Database>::ValueRef<'r>,
    ) -> std::result::Result<Self, sqlx::error::BoxDynError> {
        Ok(MaybeFlag(flag_of(&value)?))
    }
}

impl<'q> sqlx::Encode<'q, sqlx::Any> for Flag {
    fn encode_by_ref(
        &self,
        buf: &mut <sqlx::Any as sqlx::Database>::ArgumentBuffer,
    ) -> std::result::Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
        <i64 as sqlx::Encode<'q, sqlx::Any>>::encode(i64::from(self.0), buf)
    }
}

impl From<Flag> for bool {
    fn from(f: Flag) -> Self {
        f.0
    }
}

impl From<MaybeFlag> for Option<bool> {
    fn from(f: MaybeFlag) -> Self {
        f.0
    }
}
