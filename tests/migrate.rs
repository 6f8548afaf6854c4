//! `chancery migrate --from sqlite:FILE --to postgres://...` (issue 28): a server's SQLite
//! store, with games under way, moved into an empty PostgreSQL database. Every table arrives
//! whole, and the server goes on there: a mail is answered and a deadline adjudicated on
//! PostgreSQL, with new rows numbered after the copied ones. A database that is not empty is
//! refused.
//!
//! The PostgreSQL server is the suite's (`CHANCERY_TEST_POSTGRES`) or a private cluster this
//! test starts with `scripts/postgres`.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;

use chancery::engine::Processed;
use chancery::policy::DAY;
use chancery::store::{self, Pool};
use fixtures::database::{self, Cluster};
use fixtures::{T0, deliver, raw};
use sqlx::Row;
use std::process::Command;

/// France's orders, as France's player writes them.
fn orders(uid: u32, body: &str) -> Vec<u8> {
    raw(
        "player3@example.test",
        "gm@example.test",
        "wm1 FRANCE S1901M",
        &format!("Message-ID: <m{uid}@players.example.test>\r\n"),
        &format!("SECRET s3\n{body}\n"),
    )
}

/// Each table's rows, as `store`'s database counts them.
async fn counts(pool: &Pool, tables: &[String]) -> Vec<(String, i64)> {
    let mut c = pool.acquire().await.expect("conn");
    let mut out = Vec::new();
    for t in tables {
        let n: i64 = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT count(*) FROM {t}")))
            .fetch_one(&mut *c)
            .await
            .expect("count")
            .get(0);
        out.push((t.clone(), n));
    }
    out
}

fn migrate(from: &std::path::Path, to: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chancery"))
        .args(["migrate", "--from"])
        .arg(format!("sqlite:{}", from.display()))
        .args(["--to", to])
        .output()
        .expect("chancery migrate")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_store_moves_to_postgresql_whole_and_the_games_go_on_there() {
    let (server, _cluster) = Cluster::for_test();
    let dir = std::env::temp_dir().join(format!("chancery-migrate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("chancery.sqlite");
    // The SQLite server's life so far: two games, France's orders revised, Spring
    // adjudicated.
    let sqlite =
        fixtures::setup_on(store::open(&file).await.expect("sqlite"), &["wm1", "wm2"]).await;
    assert_eq!(
        deliver(&sqlite, "gm", 1, &orders(1, "A Par - Bur"), Some(T0), T0).await,
        Processed::Accepted
    );
    assert_eq!(
        deliver(
            &sqlite,
            "gm",
            2,
            &orders(2, "A Par - Pic"),
            Some(T0 + 60),
            T0 + 60
        )
        .await,
        Processed::Accepted
    );
    let adjudicated = chancery::games::tick(&sqlite, &fixtures::env(), T0 + 3 * DAY + 60)
        .await
        .expect("tick");
    assert_eq!(adjudicated, 2, "both games' Spring 1901");
    sqlite.close().await;

    // The empty PostgreSQL database, and the move.
    let key = dir.join("target");
    let pg = database::open_on(&server, &key).await;
    let url = database::url_on(&server, &key);
    let out = migrate(&file, &url);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("copied "), "{said}");

    // Every table whole.
    let tables: Vec<String> = {
        let mut c = pg.acquire().await.expect("conn");
        sqlx::query_scalar(
            "SELECT tablename::text FROM pg_tables
             WHERE schemaname = current_schema() AND tablename <> '_sqlx_migrations'
             ORDER BY tablename",
        )
        .fetch_all(&mut *c)
        .await
        .expect("tables")
    };
    assert!(tables.len() > 40, "{tables:?}");
    let sqlite = store::open(&file).await.expect("sqlite again");
    let before = counts(&sqlite, &tables).await;
    let after = counts(&pg, &tables).await;
    assert_eq!(before, after);
    for table in [
        "games",
        "players",
        "phases",
        "messages",
        "ledger",
        "submissions",
        "standing_orders",
        "outbox",
    ] {
        assert!(
            after.iter().any(|(t, n)| t == table && *n > 0),
            "a real store was copied: {after:?}"
        );
    }
    // The same phases and standing orders, value for value.
    for pool in [&sqlite, &pg] {
        let mut c = pool.acquire().await.expect("conn");
        let phases: Vec<(String, String, i64)> =
            sqlx::query_as("SELECT game_id, phase, deadline FROM phases ORDER BY game_id, seq")
                .fetch_all(&mut *c)
                .await
                .expect("phases");
        assert_eq!(phases.len(), 4, "{phases:?}");
        assert_eq!(phases[1].1, "F1901M");
    }

    // The server goes on on PostgreSQL: a mail answered, the next deadline adjudicated, and
    // the new rows numbered after the copied ones.
    let max_outbox = |pool: Pool| async move {
        let mut c = pool.acquire().await.expect("conn");
        let id: i64 = sqlx::query("SELECT max(id) FROM outbox")
            .fetch_one(&mut *c)
            .await
            .expect("max")
            .get(0);
        id
    };
    let last = max_outbox(pg.clone()).await;
    let fall = raw(
        "player3@example.test",
        "gm@example.test",
        "wm1 FRANCE F1901M",
        "Message-ID: <m3@players.example.test>\r\n",
        "SECRET s3\nA Bur - Mar\n",
    );
    let now = T0 + 3 * DAY + 120;
    assert_eq!(
        deliver(&pg, "gm", 3, &fall, Some(now), now).await,
        Processed::Accepted
    );
    // The same mail again (its UID seen on SQLite) is no new mail.
    assert_eq!(
        deliver(&pg, "gm", 1, &orders(1, "A Par - Bur"), Some(now), now).await,
        Processed::AlreadyDone
    );
    assert!(max_outbox(pg.clone()).await > last);
    let adjudicated = chancery::games::tick(&pg, &fixtures::env(), T0 + 7 * DAY)
        .await
        .expect("tick on PostgreSQL");
    assert_eq!(adjudicated, 2, "both games' Fall 1901");

    // A database that is not empty is refused, and left as it was.
    let again = migrate(&file, &url);
    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("not empty"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
