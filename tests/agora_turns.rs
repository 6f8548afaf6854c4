//! The Agora Birthday Tournament's turns (issue 24, points 4-6), through the engine on a real
//! SQLite file with the tick driven by an injected clock: BT15's daily UTC timetable, one set of
//! orders a turn with its conditional retreats and builds (BT15, BT22, BT23), and the end of
//! the contest (BT3, BT16).

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};
use chancery::rules::Rules;
use chancery::store;
use chancery::timetable::midnight_at_or_after;
use sqlx::SqlitePool;

const GAME: &str = "ag";

/// A running agora2020 game `ag` started at [`T0`] (a Sunday, 08:26 UTC); the secrets.
async fn agora(name: &str) -> (SqlitePool, Vec<String>) {
    let (pool, secrets) = game_with(name, GAME, "agora2020", &[]).await;
    games::start_game(&pool, GAME, T0).await.expect("start");
    (pool, secrets)
}

async fn current(pool: &SqlitePool) -> store::PhaseRow {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, GAME)
        .await
        .expect("q")
        .expect("open")
}

/// Player `i` mails `body` for `phase` at `at`; the acknowledgement's text, on one line.
async fn mail(
    pool: &SqlitePool,
    secrets: &[String],
    i: usize,
    uid: u32,
    phase: &str,
    body: &str,
    at: Ts,
) -> String {
    let power = POWERS[i];
    let m = raw(
        &player(i),
        "gm@example.test",
        &format!("{GAME} {power} {phase}"),
        &format!("Message-ID: <a{uid}@x.test>\r\n"),
        &format!("SECRET {}\n{body}\n", secrets[i]),
    );
    deliver(pool, "gm", uid, &m, Some(at), at).await;
    outbox(pool)
        .await
        .into_iter()
        .rev()
        .find(|o| o.0 == "ack" && o.1 == player(i))
        .map(|o| o.3.split_whitespace().collect::<Vec<_>>().join(" "))
        .expect("ack")
}

async fn tick(pool: &SqlitePool, at: Ts) -> usize {
    games::tick(pool, &env(), at).await.expect("tick")
}

/// The results mail player 1 (Austria) had for `phase`.
async fn results(pool: &SqlitePool, phase: &str) -> Option<String> {
    outbox(pool)
        .await
        .into_iter()
        .find(|o| o.0 == "results" && o.1 == player(0) && o.2.contains(phase))
        .map(|o| o.3)
}

async fn units_of(pool: &SqlitePool, power: &str) -> Vec<String> {
    let p = current(pool).await;
    let map = chancery::map::Map::standard();
    let board = chancery::games::diplomacy::board_from_json(map, &p.board, &p.phase)
        .expect("board");
    let pw = map.power_by_name(power).expect("power");
    let mut units: Vec<String> = board
        .units
        .iter()
        .filter(|u| u.power == pw)
        .map(|u| map.unit_name(u.unit_type, u.location))
        .collect();
    units.sort();
    units
}

#[tokio::test]
async fn agora_bt15_turns_follow_the_daily_utc_timetable() {
    let (pool, secrets) = agora("agora-timetable").await;
    // Started mid-day: the first turn begins at the next 00:00 UTC, orders due at 12:00 UTC
    // the day after.
    let begins = midnight_at_or_after(T0);
    let spring = current(&pool).await;
    assert_eq!(spring.deadline, begins + DAY + 12 * HOUR);
    // Orders may be sent, and changed, from the start; no extension moves the fixed times.
    let ack = mail(&pool, &secrets, 2, 1, "S1901M", "A Par - Bur", T0 + HOUR).await;
    assert!(ack.contains("A PAR - BUR"), "{ack}");
    let ack = mail(&pool, &secrets, 2, 2, "S1901M", "EXTEND 1 DAY", T0 + 2 * HOUR).await;
    assert!(
        ack.contains("fixed daily UTC timetable (Agora BT15)"),
        "{ack}"
    );
    assert_eq!(current(&pool).await.deadline, spring.deadline);
    // Everyone's orders final: no early adjudication on the timetable.
    for i in 0..7 {
        mail(&pool, &secrets, i, 10 + i as u32, "S1901M", "FINAL", T0 + 3 * HOUR).await;
    }
    tick(&pool, T0 + 4 * HOUR).await;
    tick(&pool, spring.deadline - 60).await;
    assert_eq!(current(&pool).await.phase, "S1901M");
    // At the deadline: adjudicated, and the next turn begins at 24:00 UTC that day.
    assert_eq!(tick(&pool, spring.deadline + 5 * 60).await, 1);
    let fall = current(&pool).await;
    assert_eq!(fall.phase, "F1901M");
    assert_eq!(fall.deadline, begins + 2 * DAY + DAY + 12 * HOUR);
    assert!(results(&pool, "S1901M").await.is_some());
    // A proposal changes the hours mid-game: the next turn follows the new hours.
    let mut c = pool.acquire().await.expect("conn");
    let mut rules: Rules =
        serde_json::from_str(&store::game(&mut c, GAME).await.expect("q").expect("g").rules)
            .expect("rules");
    rules.negotiation_hours = 48;
    rules.ordering_hours = 24;
    rules.resolution_hours = 24;
    store::set_rules(&mut c, GAME, &serde_json::to_string(&rules).expect("json"))
        .await
        .expect("set");
    drop(c);
    assert_eq!(current(&pool).await.deadline, fall.deadline);
    assert_eq!(tick(&pool, fall.deadline).await, 1);
    let next = current(&pool).await;
    // The Fall deadline was 12:00; 24 hours on is 12:00 the next day, so the turn begins at
    // the midnight after, and orders are due 72 hours later.
    let next_begins = fall.deadline - 12 * HOUR + 2 * DAY;
    assert_eq!(next.deadline, next_begins + 3 * DAY);
}

/// Spring 1901: France takes Spain, its army goes to Burgundy; Germany moves to Ruhr and
/// Munich. Fall: Germany dislodges the army in Burgundy while France takes Portugal; France's
/// Fall orders carry `conditional` (none: no block). Every Fall deadline passed.
async fn fall_with(name: &str, conditional: &str) -> SqlitePool {
    let (pool, secrets) = agora(name).await;
    mail(&pool, &secrets, 2, 1, "S1901M", "A Mar - Spa\nF Bre - Mao\nA Par - Bur", T0).await;
    mail(&pool, &secrets, 3, 2, "S1901M", "A Mun - Ruh\nA Ber - Mun", T0).await;
    let spring = current(&pool).await.deadline;
    assert_eq!(tick(&pool, spring).await, 1);
    mail(&pool, &secrets, 3, 3, "F1901M", "A Ruh - Bur\nA Mun S A Ruh - Bur", spring + HOUR)
        .await;
    let orders = format!("F Mao - Por\nA Spa H\nA Bur H\n{conditional}");
    let ack = mail(&pool, &secrets, 2, 4, "F1901M", &orders, spring + HOUR).await;
    if !conditional.is_empty() {
        assert!(ack.contains("Agora BT15"), "{ack}");
    }
    let fall = current(&pool).await.deadline;
    assert_eq!(tick(&pool, fall).await, 1);
    pool
}

#[tokio::test]
async fn agora_bt15_bt23_one_order_set_resolves_the_retreat_and_builds_with_the_fall_turn() {
    let pool = fall_with(
        "agora-one-set",
        "CONDITIONAL\nA Bur - Mar\nBuild A Mar\nBuild F Bre\nBuild A Par\nENDCONDITIONAL",
    )
    .await;
    // No retreat or adjustment phase waits for a deadline of its own: Spring 1902 is open.
    let next = current(&pool).await;
    assert_eq!(next.phase, "S1902M");
    // The army retreated to Marseilles; Marseilles then taken, the next two builds were used.
    assert_eq!(
        units_of(&pool, "FRANCE").await,
        vec!["A MAR", "A PAR", "A SPA", "F BRE", "F POR"]
    );
    // Each phase resolved has its own results mail and its own row.
    let retreat = results(&pool, "F1901R").await.expect("retreat results");
    assert!(retreat.contains("(conditional)"), "{retreat}");
    assert!(retreat.contains("Agora BT15"), "{retreat}");
    let winter = results(&pool, "W1901A").await.expect("winter results");
    assert!(winter.contains("BUILD F BRE (conditional)"), "{winter}");
    let mut c = pool.acquire().await.expect("conn");
    let phases: Vec<(String, bool)> =
        sqlx::query_as("SELECT phase, adjudicated_at IS NOT NULL FROM phases WHERE game_id = ? ORDER BY seq")
            .bind(GAME)
            .fetch_all(&mut *c)
            .await
            .expect("phases");
    assert_eq!(
        phases,
        vec![
            ("S1901M".to_string(), true),
            ("F1901M".to_string(), true),
            ("F1901R".to_string(), true),
            ("W1901A".to_string(), true),
            ("S1902M".to_string(), false),
        ]
    );
}

#[tokio::test]
async fn agora_bt22_bt23_without_conditionals_the_unit_disbands_and_builds_are_waived() {
    let pool = fall_with("agora-one-set-none", "").await;
    assert_eq!(current(&pool).await.phase, "S1902M");
    // BT22: no retreat order, the dislodged army disbands; the two builds are waived.
    assert_eq!(units_of(&pool, "FRANCE").await, vec!["A SPA", "F POR"]);
}
