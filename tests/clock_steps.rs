//! The clock stepped back and forward (issue 29, campaign 2), through the engine on a real
//! database: the clock is passed in, so a step is a tick at an earlier or a much later time.
//! No deadline is run twice, none is skipped, and a deadline is never run early.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};
use chancery::store::Pool;
use sqlx::Row;

/// (phase, deadline, adjudicated) of every phase of `game`, in order.
async fn phases(pool: &Pool, game: &str) -> Vec<(String, Ts, bool)> {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query(
        "SELECT phase, deadline, adjudicated_at FROM phases WHERE game_id = $1 ORDER BY seq",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await
    .expect("phases")
    .iter()
    .map(|r| {
        let done: Option<Ts> = r.get("adjudicated_at");
        (r.get("phase"), r.get("deadline"), done.is_some())
    })
    .collect()
}

/// Results mails to players, per phase named in their subject.
async fn results(pool: &Pool) -> Vec<String> {
    outbox(pool)
        .await
        .into_iter()
        .filter(|o| o.0 == "results" && o.1.starts_with("player"))
        .map(|o| o.2)
        .collect()
}

#[tokio::test]
async fn a_clock_stepped_back_and_forward_runs_no_deadline_twice_skips_none_and_none_early() {
    let pool = setup("clock-steps", &["c1", "c2"]).await;
    let spring = phases(&pool, "c1").await;
    assert_eq!(spring.len(), 1);
    let d1 = spring[0].1;
    // An hour early: nothing runs.
    assert_eq!(
        games::tick(&pool, &env(), d1 - HOUR).await.expect("tick"),
        0
    );
    // The deadline: both games, once.
    assert_eq!(games::tick(&pool, &env(), d1 + 60).await.expect("tick"), 2);
    assert_eq!(results(&pool).await.len(), 14);
    let after_spring = phases(&pool, "c1").await;
    // The clock steps back over the deadline, then returns: nothing runs again, nothing moves.
    for t in [d1 - DAY, d1 - 1, d1, d1 + 60, d1 + 120] {
        assert_eq!(
            games::tick(&pool, &env(), t).await.expect("tick"),
            0,
            "at {t}"
        );
    }
    assert_eq!(phases(&pool, "c1").await, after_spring);
    assert_eq!(results(&pool).await.len(), 14);
    // The clock steps forward a month: each game's next deadline runs once per tick, in order,
    // and every phase gets its results; none is skipped.
    let fall = after_spring.last().expect("fall").clone();
    assert!(!fall.2 && fall.1 > d1);
    let later = d1 + 30 * DAY;
    let mut runs = 0;
    loop {
        let n = games::tick(&pool, &env(), later).await.expect("tick");
        if n == 0 {
            break;
        }
        runs += n;
        assert!(runs < 40, "ticks stop once the deadlines are ahead");
    }
    for g in ["c1", "c2"] {
        let ps = phases(&pool, g).await;
        let (done, open): (Vec<_>, Vec<_>) = ps.iter().partition(|p| p.2);
        assert!(done.len() >= 2, "{g}: {ps:?}");
        assert_eq!(open.len(), 1, "{g}: one phase open: {ps:?}");
        // The open phase's deadline is after the stepped clock: opened at the step, never run
        // early, never already over.
        assert!(open[0].1 > later, "{g}: {ps:?}");
        // The phases follow each other, each once.
        let names: Vec<&str> = ps.iter().map(|p| p.0.as_str()).collect();
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(names, unique, "{g}: a phase twice");
    }
    // Every phase run sent its results to the seven players, once.
    let mut run = 0;
    for g in ["c1", "c2"] {
        run += phases(&pool, g).await.iter().filter(|p| p.2).count();
    }
    assert_eq!(results(&pool).await.len(), 7 * run);
    // Back again, a week: nothing runs, nothing moves.
    let before = (phases(&pool, "c1").await, phases(&pool, "c2").await);
    assert_eq!(
        games::tick(&pool, &env(), later - 7 * DAY)
            .await
            .expect("tick"),
        0
    );
    assert_eq!(
        before,
        (phases(&pool, "c1").await, phases(&pool, "c2").await)
    );
}
