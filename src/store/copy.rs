//! A whole store copied from SQLite into an empty PostgreSQL database (`chancery migrate`,
//! issue 28): every table, row for row, in one transaction on the PostgreSQL side, the tables
//! in the order their foreign keys need, and each identity column's sequence moved past the
//! ids copied, so that the server goes on there as it left off.
//!
//! The schema is the same on both (`scripts/check-schemas`); the columns are PostgreSQL's, so
//! a column that PostgreSQL alone has (`entrants.sign_up`, what SQLite's `insertion_order!`
//! names) fills itself as the rows arrive in SQLite's insertion order.

use super::*;
use dialect::{Dialect, Statement};
use futures::TryStreamExt;
use std::collections::{BTreeMap, BTreeSet};

/// What was copied: each table and its rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Copied {
    pub tables: Vec<(String, u64)>,
}

/// A column as PostgreSQL declares it: how a value of it is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ColumnType {
    Integer,
    Real,
    Text,
    Bytes,
}

/// One table of the target: its columns to fill (not those it fills itself) and their types.
struct Table {
    name: String,
    columns: Vec<(String, ColumnType)>,
    /// Its identity column filled from the source, if any: its sequence is moved past.
    identity: Option<String>,
}

/// Copy everything in `from` (SQLite) into `to` (an empty PostgreSQL database with the same
/// schema version). Nothing is written unless all of it is.
pub async fn copy_store(from: &Pool, to: &Pool) -> Result<Copied> {
    let (mut src, mut dst) = (from.acquire().await?, to.acquire().await?);
    if Dialect::of(&src) != Dialect::Sqlite || Dialect::of(&dst) != Dialect::Postgres {
        return Err(StoreError::Inconsistent(
            "a store is copied from SQLite into PostgreSQL".into(),
        ));
    }
    same_version(&mut src, &mut dst).await?;
    let tables = tables_in_key_order(&mut dst).await?;
    let mut tx = crate::store::begin_write_on(&mut dst).await?;
    for t in &tables {
        let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM {}",
            t.name
        )))
        .fetch_one(&mut *tx)
        .await?;
        if n > 0 {
            return Err(StoreError::Inconsistent(format!(
                "the PostgreSQL database is not empty: {} has {n} rows",
                t.name
            )));
        }
    }
    let mut copied = Copied::default();
    for t in &tables {
        let n = copy_table(&mut src, &mut tx, t).await?;
        if let Some(id) = &t.identity {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT setval(pg_get_serial_sequence('{0}', '{id}'), coalesce(max({id}), 0) + 1, false) FROM {0}",
                t.name
            )))
            .execute(&mut *tx)
            .await?;
        }
        copied.tables.push((t.name.clone(), n));
    }
    tx.commit().await?;
    Ok(copied)
}

/// Both stores at the same migration: a copy between two schema versions would lose columns.
async fn same_version(src: &mut Conn, dst: &mut Conn) -> Result<()> {
    let version = "SELECT count(*) FROM _sqlx_migrations WHERE success";
    let a: i64 = sqlx::query_scalar(version).fetch_one(&mut *src).await?;
    let b: i64 = sqlx::query_scalar(version).fetch_one(&mut *dst).await?;
    // PostgreSQL's first migration is SQLite's first 37 at once.
    const FOLDED: i64 = 36;
    if a != b + FOLDED {
        return Err(StoreError::Inconsistent(format!(
            "the stores are at different schema versions ({a} SQLite migrations, {b} PostgreSQL): \
             run this version of chancery on both first"
        )));
    }
    Ok(())
}

/// The target's tables, each after the tables its foreign keys name.
async fn tables_in_key_order(c: &mut Conn) -> Result<Vec<Table>> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT tablename::text FROM pg_tables
         WHERE schemaname = current_schema() AND tablename <> '_sqlx_migrations'
         ORDER BY tablename",
    )
    .fetch_all(&mut *c)
    .await?;
    let keys: Vec<(String, String)> = sqlx::query_as(
        "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint
         WHERE contype = 'f' AND conrelid <> confrelid",
    )
    .fetch_all(&mut *c)
    .await?;
    let mut needs: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (table, target) in keys {
        needs.entry(table).or_default().insert(target);
    }
    let mut order: Vec<String> = Vec::new();
    let mut left: BTreeSet<String> = names.into_iter().collect();
    while !left.is_empty() {
        let ready: Vec<String> = left
            .iter()
            .filter(|t| {
                needs
                    .get(*t)
                    .is_none_or(|n| n.iter().all(|d| order.contains(d) || !left.contains(d)))
            })
            .cloned()
            .collect();
        if ready.is_empty() {
            return Err(StoreError::Inconsistent(format!(
                "the tables' foreign keys go round in a circle: {left:?}"
            )));
        }
        for t in ready {
            left.remove(&t);
            order.push(t);
        }
    }
    let mut tables = Vec::with_capacity(order.len());
    for name in order {
        tables.push(table(c, name).await?);
    }
    Ok(tables)
}

/// A table's columns as PostgreSQL declares them, those it fills itself left out.
async fn table(c: &mut Conn, name: String) -> Result<Table> {
    let rows: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT column_name::text, data_type::text, is_identity::text,
                coalesce(identity_generation::text, '')
         FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
    )
    .bind(&name)
    .fetch_all(&mut *c)
    .await?;
    let mut columns = Vec::new();
    let mut identity = None;
    for (column, data_type, is_identity, generation) in rows {
        if generation == "ALWAYS" {
            continue;
        }
        if is_identity == "YES" {
            identity = Some(column.clone());
        }
        let ty = match data_type.as_str() {
            "bigint" | "integer" | "smallint" => ColumnType::Integer,
            "double precision" | "real" => ColumnType::Real,
            "bytea" => ColumnType::Bytes,
            _ => ColumnType::Text,
        };
        columns.push((column, ty));
    }
    Ok(Table {
        name,
        columns,
        identity,
    })
}

/// Rows of `t` a statement carries: PostgreSQL takes at most 65,535 parameters.
fn rows_a_statement(t: &Table) -> usize {
    (60_000 / t.columns.len().max(1)).min(dialect::ROWS_A_STATEMENT)
}

/// Copy table `t`, a statement of rows at a time: how many rows.
async fn copy_table(src: &mut Conn, dst: &mut Conn, t: &Table) -> Result<u64> {
    let names: Vec<&str> = t.columns.iter().map(|(c, _)| c.as_str()).collect();
    let list = names.join(", ");
    // SQLite's insertion order, where it matters: the order of sign-up that PostgreSQL's
    // `sign_up` numbers as the rows arrive.
    let read = if t.name == "entrants" {
        format!(
            "SELECT {list} FROM {} ORDER BY {}",
            t.name,
            dialect::sqlite::insertion_order!()
        )
    } else {
        format!("SELECT {list} FROM {}", t.name)
    };
    let insert = format!("INSERT INTO {} ({list}) ", t.name);
    let per = rows_a_statement(t);
    let mut rows = sqlx::query(sqlx::AssertSqlSafe(read)).fetch(&mut *src);
    let mut chunk: Vec<DbRow> = Vec::with_capacity(per);
    let mut n = 0u64;
    while let Some(row) = rows.try_next().await? {
        chunk.push(row);
        if chunk.len() == per {
            n += insert_rows(dst, &insert, t, &chunk).await?;
            chunk.clear();
        }
    }
    if !chunk.is_empty() {
        n += insert_rows(dst, &insert, t, &chunk).await?;
    }
    Ok(n)
}

/// One multi-row INSERT of `rows` into `t`.
async fn insert_rows(dst: &mut Conn, insert: &str, t: &Table, rows: &[DbRow]) -> Result<u64> {
    let mut q = Statement::new(dst, insert);
    let mut bad = None;
    q.values(rows, |b, row| {
        for (i, (column, ty)) in t.columns.iter().enumerate() {
            if let Err(e) = bind_value(b, row, i, *ty) {
                bad.get_or_insert(format!("{}.{column}: {e}", t.name));
            }
        }
    });
    if let Some(e) = bad {
        return Err(StoreError::Inconsistent(format!(
            "a value PostgreSQL cannot take: {e}"
        )));
    }
    Ok(q.query()?.execute(&mut *dst).await?.rows_affected())
}

/// Column `i` of `row` bound as the target column's type (a NULL typed too: PostgreSQL checks
/// a NULL's type against its column).
fn bind_value(
    b: &mut dialect::Row<'_>,
    row: &DbRow,
    i: usize,
    ty: ColumnType,
) -> std::result::Result<(), sqlx::Error> {
    match ty {
        ColumnType::Integer => {
            b.bind(row.try_get::<Option<i64>, _>(i)?);
        }
        ColumnType::Real => {
            b.bind(row.try_get::<Option<f64>, _>(i)?);
        }
        ColumnType::Text => {
            b.bind(row.try_get::<Option<String>, _>(i)?);
        }
        ColumnType::Bytes => {
            b.bind(row.try_get::<Option<Vec<u8>>, _>(i)?);
        }
    }
    Ok(())
}
