//! Issue 23: several kinds of game behind one seam. The scheduler asks only which games need the
//! clock (`games.kind`, `games.due_at`, an index lookup); a game's kind says when it next needs
//! it, and any write to what that depends on asks the kind to look again at once. The store
//! never reads a kind's own data (its phases' names, its house rules) to decide it.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::games;
use chancery::policy::{DAY, Ts};
use chancery::store::Pool;
use chancery::store::{self, Kind};
use sqlx::Row;

async fn due_at(pool: &Pool, game: &str) -> Option<Ts> {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query_scalar("SELECT due_at FROM games WHERE id = $1")
        .bind(game)
        .fetch_one(&mut *c)
        .await
        .expect("due_at")
}

async fn candidates(pool: &Pool, now: Ts) -> Vec<String> {
    let mut c = pool.acquire().await.expect("conn");
    store::tick_candidates(&mut c, Kind::Diplomacy, now)
        .await
        .expect("candidates")
}

async fn open_phase(pool: &Pool, game: &str) -> store::PhaseRow {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, game)
        .await
        .expect("q")
        .expect("open")
}

#[tokio::test]
async fn a_game_needs_the_clock_when_its_kind_says_so_and_at_once_when_an_input_changes() {
    let pool = setup("due", &["wm1"]).await;
    let deadline = open_phase(&pool, "wm1").await.deadline;
    // Started: the kind looks at once, then says when the game next needs the clock (the
    // reminders, a day before the deadline).
    assert_eq!(due_at(&pool, "wm1").await, Some(store::AT_ONCE));
    assert_eq!(games::tick(&pool, &env(), T0 + 60).await.expect("tick"), 0);
    assert_eq!(due_at(&pool, "wm1").await, Some(deadline - DAY));
    assert!(candidates(&pool, deadline - DAY - 1).await.is_empty());
    assert_eq!(candidates(&pool, deadline - DAY).await, vec!["wm1"]);

    // A new deadline: looked at once, then the day before it again.
    let moved = deadline + DAY;
    let mut c = pool.acquire().await.expect("conn");
    store::set_deadline(&mut c, "wm1", 1, moved)
        .await
        .expect("deadline");
    drop(c);
    assert_eq!(candidates(&pool, T0 + 120).await, vec!["wm1"]);
    games::tick(&pool, &env(), T0 + 120).await.expect("tick");
    assert_eq!(due_at(&pool, "wm1").await, Some(moved - DAY));

    // Paused: no clock at all; resumed: looked at once.
    let mut c = pool.acquire().await.expect("conn");
    assert!(store::pause(&mut c, "wm1", DAY).await.expect("pause"));
    assert_eq!(due_at(&pool, "wm1").await, None);
    assert!(candidates(&pool, moved + 10 * DAY).await.is_empty());
    store::resume(&mut c, "wm1").await.expect("resume");
    drop(c);
    assert_eq!(due_at(&pool, "wm1").await, Some(store::AT_ONCE));
    games::tick(&pool, &env(), T0 + 180).await.expect("tick");
    assert_eq!(due_at(&pool, "wm1").await, Some(moved - DAY));

    // Orders marked final may let the phase go early (WM D.VII(2)): looked at every tick.
    let mut c = pool.acquire().await.expect("conn");
    store::diplomacy::set_standing_orders(&mut c, "wm1", "S1901M", "FRANCE", &[], true, T0 + 200)
        .await
        .expect("final");
    drop(c);
    assert_eq!(due_at(&pool, "wm1").await, Some(store::AT_ONCE));
    games::tick(&pool, &env(), T0 + 240).await.expect("tick");
    assert_eq!(due_at(&pool, "wm1").await, Some(store::AT_ONCE));

    // Reminded the day before: next at the deadline; adjudicated: the next phase's reminders.
    let mut c = pool.acquire().await.expect("conn");
    store::diplomacy::set_standing_orders(&mut c, "wm1", "S1901M", "FRANCE", &[], false, T0 + 300)
        .await
        .expect("not final");
    drop(c);
    games::tick(&pool, &env(), moved - DAY).await.expect("tick");
    assert_eq!(due_at(&pool, "wm1").await, Some(moved));
    assert_eq!(games::tick(&pool, &env(), moved).await.expect("tick"), 1);
    let next = open_phase(&pool, "wm1").await;
    assert_eq!(next.phase, "F1901M");
    assert_eq!(due_at(&pool, "wm1").await, Some(next.deadline - DAY));
}

/// What the tick's candidate list asked until issue 23, word for word: the migration's
/// backfill must pick the same games at every time.
const OLD_CANDIDATES: &str = "SELECT p.game_id FROM phases p JOIN games g ON g.id = p.game_id
     WHERE g.status = 'active' AND g.paused_remaining IS NULL AND p.adjudicated_at IS NULL
       AND (coalesce(p.held_until, p.deadline) <= $1
            OR (p.deadline <= $2 AND p.reminded_at IS NULL)
            OR EXISTS (SELECT 1 FROM standing_orders s
                       WHERE s.game_id = p.game_id AND s.phase = p.phase AND s.final)
            OR (p.phase NOT LIKE '%M' AND json_extract(g.rules, '$.conditional_early') = 1
                AND EXISTS (SELECT 1 FROM conditional_orders o
                            WHERE o.game_id = p.game_id
                              AND o.phase = CASE WHEN p.phase LIKE '%R'
                                                 THEN substr(p.phase, 1, length(p.phase) - 1) || 'M'
                                                 ELSE 'F' || substr(p.phase, 2, length(p.phase) - 2) || 'M'
                                            END)))
     ORDER BY p.game_id";

#[tokio::test]
async fn the_migration_gives_running_servers_the_clock_the_old_candidate_list_read() {
    let dir = std::env::temp_dir().join(format!("chancery-kinds-backfill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    sqlx::any::install_default_drivers();
    let url = format!("sqlite://{}?mode=rwc", dir.join("old.sqlite").display());
    let pool = sqlx::AnyPool::connect(&url).await.expect("open");
    // The schema before issue 23.
    let all = sqlx::migrate!("./migrations");
    let mut before = sqlx::migrate!("./migrations");
    before.migrations = before
        .migrations
        .iter()
        .filter(|m| m.version < 25)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    before.run(&pool).await.expect("migrations to 24");
    let d = T0 + 3 * DAY;
    // (game, status, paused, phase, deadline, reminded, held_until, final, early, conditional)
    type Case<'a> = (
        &'a str,
        &'a str,
        bool,
        &'a str,
        Ts,
        bool,
        Option<Ts>,
        bool,
        bool,
        Option<&'a str>,
    );
    let cases: [Case; 12] = [
        (
            "a", "active", false, "S1901M", d, false, None, false, false, None,
        ),
        (
            "b", "active", false, "S1901M", d, true, None, false, false, None,
        ),
        (
            "c",
            "active",
            false,
            "F1901M",
            d,
            true,
            Some(d + DAY),
            false,
            false,
            None,
        ),
        (
            "d", "active", false, "S1901M", d, true, None, true, false, None,
        ),
        (
            "e",
            "active",
            false,
            "S1901R",
            d,
            true,
            None,
            false,
            true,
            Some("S1901M"),
        ),
        (
            "f",
            "active",
            false,
            "S1901R",
            d,
            true,
            None,
            false,
            false,
            Some("S1901M"),
        ),
        (
            "g",
            "active",
            false,
            "W1901A",
            d,
            false,
            None,
            false,
            true,
            Some("F1901M"),
        ),
        (
            "h",
            "active",
            false,
            "W1901A",
            d,
            true,
            None,
            false,
            true,
            Some("S1901M"),
        ),
        (
            "i", "active", true, "S1901M", d, false, None, true, false, None,
        ),
        (
            "j", "finished", false, "S1901M", d, false, None, false, false, None,
        ),
        (
            "k", "forming", false, "S1901M", d, false, None, false, false, None,
        ),
        (
            "l",
            "active",
            false,
            "F1901M",
            d,
            false,
            Some(d + 2 * DAY),
            false,
            false,
            None,
        ),
    ];
    for (id, status, paused, phase, deadline, reminded, held, final_, early, cond) in cases {
        sqlx::query(
            "INSERT INTO games (id, variant, rules, gm_address, confirm_address, status,
                                paused_remaining, created_at)
             VALUES ($1, 'standard', $2, 'gm@x', 'c@x', $3, $4, 0)",
        )
        .bind(id)
        .bind(format!(r#"{{"conditional_early": {early}}}"#))
        .bind(status)
        .bind(paused.then_some(DAY))
        .execute(&pool)
        .await
        .expect("game");
        // A phase adjudicated before the open one: only the open one counts.
        for (seq, name, open) in [(1, "S1900M", false), (2, phase, true)] {
            sqlx::query(
                "INSERT INTO phases (game_id, seq, phase, board, started_at, deadline,
                                     adjudicated_at, reminded_at, held_until)
                 VALUES ($1, $2, $3, '{}', 0, $4, $5, $6, $7)",
            )
            .bind(id)
            .bind(seq)
            .bind(name)
            .bind(deadline)
            .bind((!open).then_some(T0))
            .bind((open && reminded).then_some(T0))
            .bind(held.filter(|_| open))
            .execute(&pool)
            .await
            .expect("phase");
        }
        sqlx::query(
            "INSERT INTO standing_orders (game_id, phase, power, orders, final, updated_at)
             VALUES ($1, $2, 'FRANCE', '[]', $3, 0)",
        )
        .bind(id)
        .bind(phase)
        .bind(final_)
        .execute(&pool)
        .await
        .expect("orders");
        if let Some(source) = cond {
            sqlx::query(
                "INSERT INTO conditional_orders (game_id, power, phase, lines, at)
                 VALUES ($1, 'FRANCE', $2, 'A Par - Bur', 0)",
            )
            .bind(id)
            .bind(source)
            .execute(&pool)
            .await
            .expect("conditional");
        }
    }
    all.run(&pool).await.expect("migration 25");
    for now in [
        T0,
        d - DAY - 1,
        d - DAY,
        d - 1,
        d,
        d + DAY - 1,
        d + DAY,
        d + 2 * DAY - 1,
        d + 2 * DAY,
    ] {
        let old: Vec<String> = sqlx::query(OLD_CANDIDATES)
            .bind(now)
            .bind(now + DAY)
            .fetch_all(&pool)
            .await
            .expect("old")
            .iter()
            .map(|r| r.get(0))
            .collect();
        let mut c = pool.acquire().await.expect("conn");
        let new = store::tick_candidates(&mut c, Kind::Diplomacy, now)
            .await
            .expect("new");
        assert_eq!(new, old, "at {now}");
    }
}

#[tokio::test]
async fn an_end_the_store_does_not_know_is_an_error_not_a_game_played_out() {
    let pool = setup("unknown-end", &["wm1"]).await;
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query(
        r#"UPDATE games SET status = 'finished', ended = '{"end": "forfeit", "winner": null,
           "after": "F1901M", "centres": {}}' WHERE id = 'wm1'"#,
    )
    .execute(&mut *c)
    .await
    .expect("ended");
    let e = store::diplomacy::game_ended(&mut c, "wm1")
        .await
        .expect_err("an unknown end");
    assert!(e.to_string().contains("forfeit"), "{e}");
    // Each end the tick writes reads back as itself.
    for end in ["played", "solo", "conceded_solo", "vote"] {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            r#"UPDATE games SET ended = '{{"end": "{end}", "winner": null, "after": "F1901M",
               "centres": {{}}}}' WHERE id = 'wm1'"#
        )))
        .execute(&mut *c)
        .await
        .expect("ended");
        let read = store::diplomacy::game_ended(&mut c, "wm1")
            .await
            .expect("read")
            .expect("ended");
        assert_eq!(read.end.name(), end);
    }
}

#[test]
fn no_statement_of_the_store_reads_a_kinds_own_data() {
    // The store asks `kind` and `due_at`; what a Diplomacy phase is called or what its house
    // rules say is the kind's to read, in Rust.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    let mut dirs = vec![dir];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/store") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                // A kind's folder (src/store/diplomacy/) is held to it too.
                dirs.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read");
            for kinds_own in ["LIKE '%", "json_extract(", "'$."] {
                assert!(
                    !text.contains(kinds_own),
                    "{} reads a kind's own data: {kinds_own}",
                    path.display()
                );
            }
        }
    }
}
