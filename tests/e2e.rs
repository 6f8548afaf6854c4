//! The whole loop over the real mail stack (Dovecot + Postfix on loopback) and a real SQLite
//! file: seven scripted players play 1901 (Spring, Fall, the adjustments) by e-mail, with one
//! revised order set, one NMR and one late order set. The clock is injected; the test decides
//! when deadlines pass and calls the scheduler's tick itself, so every step is deterministic.
//! Beside it, on PostgreSQL: a sender waits for an outbox row another instance is sending.

#[path = "common/database.rs"]
#[allow(dead_code)]
mod database;
#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use chancery::dev::localstack::POWERS;
use chancery::engine;
use chancery::games;
use chancery::policy::{DAY, Ts};
use chancery::rules::Rules;
use chancery::service::Clock;
use chancery::store::{self, PlayerRow};
use chancery::transport::smtp::{OutMail, Sender};
use mailstack::{Stack, TestClock, inbox, wait_for};
use sqlx::Row;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

const T0: Ts = 1_795_000_000;

fn player(i: usize) -> String {
    format!("player{}@example.test", i + 1)
}

async fn send_orders(sender: &Sender, i: usize, phase: &str, lines: &[&str], tag: &str) {
    let power = POWERS[i];
    let mut body = format!("SECRET s{}\n", i + 1);
    for l in lines {
        body.push_str(l);
        body.push('\n');
    }
    body.push_str("FINAL\n");
    let mail = OutMail {
        from: player(i),
        to: vec!["gm@example.test".into(), "confirm@example.test".into()],
        subject: format!("wm1 {power} {phase}"),
        body,
        message_id: format!("{}-{phase}-{tag}@player.example.test", power.to_lowercase()),
        in_reply_to: None,
        references: Vec::new(),
        auto_submitted: "no",
        extra_headers: Vec::new(),
        html: None,
    };
    sender.send(&mail).await.expect("player sends orders");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_1901_by_mail() {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");

    // The GM's setup: a game under the default rules, seven players, started at T0.
    // The default rules, with the subject format spelled out as the GM states it.
    let rules = Rules {
        subject_format: "{game} {power} {phase}".into(),
        ..Rules::default()
    };
    {
        let pool = database::open(&db).await;
        let mut c = pool.acquire().await.expect("conn");
        store::create_game(
            &mut c,
            "wm1",
            "standard",
            &serde_json::to_string(&rules).expect("rules"),
            "gm@example.test",
            "confirm@example.test",
            T0,
        )
        .await
        .expect("game");
        for (i, power) in POWERS.iter().enumerate() {
            store::add_player(
                &mut c,
                "wm1",
                &PlayerRow {
                    power: power.to_string(),
                    address: player(i),
                    name: format!("Player {}", i + 1),
                    tz: [
                        "Europe/Vienna",
                        "Europe/London",
                        "Europe/Paris",
                        "Europe/Berlin",
                        "Europe/Rome",
                        "Europe/Moscow",
                        "Europe/Istanbul",
                    ][i]
                        .into(),
                    secret: format!("s{}", i + 1),
                    extension_days_used: 0,
                },
            )
            .await
            .expect("player");
        }
        drop(c);
        let deadline = games::start_game(&pool, "wm1", T0).await.expect("start");
        assert_eq!(deadline, T0 + 3 * DAY, "movement turns last 3 days");
        pool.close().await;
    }

    let mut cfg = stack.chancery_config(&db);
    cfg.database = database::configured(&db);
    // The GM box as a deployment watches it by default: by IDLE.
    cfg.gm_mailbox.poll_ms = None;
    let clock = Arc::new(TestClock(AtomicI64::new(T0 + 3600)));
    let (stop, server_task) = mailstack::serve_by_hand(&cfg, &dir, clock.clone());
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let pool = database::open(&db).await;
    let env = engine::env(&pool, &cfg, T0).await.expect("env");

    // Spring 1901. France revises its orders; Italy sends nothing (NMR); Turkey is late.
    let spring: [&[&str]; 7] = [
        &["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
        &["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
        &["A Par - Pic", "F Bre - Mao", "A Mar - Spa"],
        &["F Kie - Den", "A Ber - Kie", "A Mun - Ruh"],
        &[],
        &[
            "F StP/sc - Bot",
            "A Mos - Ukr",
            "A War - Gal",
            "F Sev - Bla",
        ],
        &["F Ank - Bla", "A Con - Bul", "A Smy - Arm"],
    ];
    for i in [0, 1, 2, 3, 5] {
        send_orders(&sender, i, "S1901M", spring[i], "1").await;
    }
    for i in [0, 1, 2, 3, 5] {
        wait_for(&stack, &player(i), "S1901M", 2).await; // receipt + acknowledgement
    }
    // The revision: the whole set is replaced (WM D.III(3)).
    send_orders(
        &sender,
        2,
        "S1901M",
        &[
            "Army Paris -> Burgundy",
            "A Mar S A Par - Bur",
            "F Brest - Mid-Atlantic",
        ],
        "2",
    )
    .await;
    wait_for(&stack, &player(2), "S1901M", 4).await;
    {
        let mut c = pool.acquire().await.expect("conn");
        let standing = store::diplomacy::standing_orders(&mut c, "wm1", "S1901M")
            .await
            .expect("standing");
        let france = standing
            .iter()
            .find(|s| s.power == "FRANCE")
            .expect("france");
        assert!(
            france.orders.iter().any(|o| o.order == "A PAR - BUR")
                && !france.orders.iter().any(|o| o.order == "A PAR - PIC"),
            "{:?}",
            france.orders
        );
        assert_eq!(standing.len(), 5, "Italy and Turkey have no orders yet");
    }
    // A day before the deadline the GM gets a digest, and the players with no orders a reminder;
    // ticking again sends nothing twice.
    clock.0.store(T0 + 3 * DAY - 12 * 3600, Ordering::SeqCst);
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        0
    );
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        0
    );
    let digest = wait_for(&stack, "gm@example.test", "deadline digest", 1).await;
    assert!(
        digest[0].0.contains("5 in") && digest[0].0.contains("2 missing"),
        "{}",
        digest[0].0
    );
    for i in [4, 6] {
        wait_for(&stack, &player(i), "no orders yet", 1).await;
    }
    for i in [0, 1, 2, 3, 5] {
        let got = inbox(&stack, &player(i)).await;
        assert!(
            !got.iter().any(|(s, _)| s.contains("no orders yet")),
            "{} has orders in",
            player(i)
        );
    }
    // The deadline passes; Turkey's orders arrive after it and are refused (WM D.VII(3)).
    clock.0.store(T0 + 3 * DAY + 60, Ordering::SeqCst);
    send_orders(&sender, 6, "S1901M", spring[6], "late").await;
    // Turkey now has the reminder, the confirmation mailbox's receipt and the refusal, in
    // whichever order the two servers deliver the last two.
    let late = wait_for(&stack, &player(6), "S1901M", 3).await;
    assert!(
        late.iter().any(|(_, b)| b.contains("after the deadline")),
        "the late set is refused with the reason: {late:?}"
    );
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        1
    );
    for i in 0..7 {
        let r = wait_for(&stack, &player(i), "results", 1).await;
        assert!(
            r[0].1.contains("Army Paris -> Burgundy"),
            "orders as written (WM D.VIII(4)): {}",
            r[0].1
        );
    }
    wait_for(&stack, "gm@example.test", "results", 1).await;

    // Fall 1901: everyone orders, all Final; the scheduler may go early only after 24 hours.
    let t_spring = clock.now();
    clock.0.store(t_spring + 3600, Ordering::SeqCst);
    let fall: [&[&str]; 7] = [
        &["A Ser - Gre", "F Alb S A Ser - Gre", "A Gal H"],
        &["F Nwg - Nwy", "F Nth H", "A Yor H"],
        &["A Bur - Bel", "F Mao - Por", "A Mar - Spa"],
        &["F Den H", "A Kie - Hol", "A Ruh S A Kie - Hol"],
        &["F Nap - Ion", "A Rom - Apu", "A Ven H"],
        &[
            "F Bot - Swe",
            "A Ukr - Rum",
            "A War H",
            "F Bla S A Ukr - Rum",
        ],
        &["F Ank H", "A Con - Bul", "A Smy H"],
    ];
    for (i, orders) in fall.iter().enumerate() {
        send_orders(&sender, i, "F1901M", orders, "1").await;
    }
    for i in 0..7 {
        wait_for(&stack, &player(i), "F1901M", 2).await;
    }
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        0,
        "24 hours must pass (WM D.VII(2))"
    );
    clock.0.store(t_spring + DAY + 60, Ordering::SeqCst);
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        1,
        "all Final: early adjudication"
    );
    for i in 0..7 {
        wait_for(&stack, &player(i), "results", 2).await;
    }

    // Winter 1901: France builds; the others with builds due waive by saying nothing.
    let t_fall = clock.now();
    {
        let mut c = pool.acquire().await.expect("conn");
        let cur = store::current_phase(&mut c, "wm1")
            .await
            .expect("q")
            .expect("current");
        assert_eq!(cur.phase, "W1901A");
    }
    send_orders(
        &sender,
        2,
        "W1901A",
        &["Build A Par", "Build F Bre", "Build A Mar"],
        "1",
    )
    .await;
    wait_for(&stack, &player(2), "W1901A", 2).await;
    clock.0.store(t_fall + DAY + 60, Ordering::SeqCst);
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        1
    );
    for i in 0..7 {
        wait_for(&stack, &player(i), "results", 3).await;
    }

    // The board after 1901, and the books.
    let mut c = pool.acquire().await.expect("conn");
    let cur = store::current_phase(&mut c, "wm1")
        .await
        .expect("q")
        .expect("current");
    assert_eq!(cur.phase, "S1902M");
    let board = chancery::games::diplomacy::board_from_json(
        chancery::map::Map::standard(),
        &cur.board,
        &cur.phase,
    )
    .expect("board");
    let map = chancery::map::Map::standard();
    let france = map.power_by_name("FRANCE").expect("france");
    assert_eq!(
        board.center_count(france),
        6,
        "France took Belgium, Portugal and Spain"
    );
    assert_eq!(board.unit_count(france), 6, "and built three units");
    // Nothing processed twice, nothing sent twice.
    let messages: i64 = sqlx::query("SELECT count(*) FROM messages")
        .fetch_one(&mut *c)
        .await
        .expect("q")
        .get(0);
    let ledger: i64 = sqlx::query("SELECT count(*) FROM ledger")
        .fetch_one(&mut *c)
        .await
        .expect("q")
        .get(0);
    assert_eq!(messages, ledger);
    let dup: i64 = sqlx::query("SELECT count(*) FROM (SELECT message_id FROM outbox GROUP BY message_id HAVING count(*) > 1) AS sub")
        .fetch_one(&mut *c)
        .await
        .expect("q")
        .get(0);
    assert_eq!(dup, 0);
    let digests: i64 = sqlx::query("SELECT count(*) FROM outbox WHERE kind = 'digest'")
        .fetch_one(&mut *c)
        .await
        .expect("q")
        .get(0);
    assert_eq!(
        digests, 1,
        "one digest: the other phases went early or had no day to wait"
    );
    for i in 0..7 {
        let results: Vec<(String, String)> = inbox(&stack, &player(i))
            .await
            .into_iter()
            .filter(|(s, _)| s.contains("results"))
            .collect();
        assert_eq!(
            results.len(),
            3,
            "{}: one results mail per phase",
            player(i)
        );
    }
    drop(c);
    let _ = stop.send(true);
    server_task.await.expect("join").expect("serve");
}

/// How often the outbox table has been read (its scans, any index), as PostgreSQL's statistics
/// say once every connection that read it has closed.
async fn outbox_reads(pool: &store::Pool) -> i64 {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query_scalar(
        "SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_user_tables
         WHERE relname = 'outbox'",
    )
    .fetch_one(&mut *c)
    .await
    .expect("statistics")
}

#[tokio::test]
async fn a_mail_another_instance_is_sending_is_waited_for_not_read_again_at_once() {
    // Issue 28: a sender whose claimed rows were all another instance's to send counted them as
    // handled and claimed again at once, reading the same rows in a loop until that instance had
    // sent them: two instances read the outbox six times as often as one, and ingested a
    // quarter slower. Such a sender now waits (50 ms, or a wake). PostgreSQL only: one SQLite
    // file has one instance, whose senders share their claims in memory.
    if database::postgres().is_none() {
        return;
    }
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("held-outbox.sqlite");
    let pool = database::open(&db).await;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO outbox (kind, message_id, from_address, to_address, subject, body,
                             auto_submitted, created_at, next_attempt_at)
         VALUES ('ack', 'held@chancery.example.test', 'gm@example.test',
                 'player1@example.test', 'held', 'held', 'auto-replied', $1, $1)
         RETURNING id",
    )
    .bind(T0)
    .fetch_one(&pool)
    .await
    .expect("a row");
    // Another instance's sender has taken it (as `store::take_outbox_rows` takes a row).
    let mut other = pool.acquire().await.expect("conn").detach();
    sqlx::query("SELECT pg_advisory_lock(hashtextextended('outbox|' || $1, 0))")
        .bind(id.to_string())
        .execute(&mut other)
        .await
        .expect("taken");
    let before = outbox_reads(&pool).await;
    let mut cfg = stack.chancery_config(&db);
    cfg.database = database::configured(&db);
    let clock = Arc::new(TestClock(AtomicI64::new(T0 + 60)));
    let (stop, server) = mailstack::serve_by_hand(&cfg, &dir, clock);
    let window = std::time::Duration::from_secs(3);
    tokio::time::sleep(window).await;
    stop.send(true).expect("stop");
    server.await.expect("joined").expect("served");
    // Its connections closed: their statistics are in.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let reads = outbox_reads(&pool).await - before;
    // Waiting 50 ms between looks, each of the senders reads the table a few times every 50 ms:
    // a few hundred reads in the window. Reading again at once made it thousands.
    let senders = cfg.smtp_connections.max(1) as i64;
    let bound = senders * 6 * (window.as_millis() as i64 / 50);
    assert!(
        reads < bound,
        "{reads} reads of the outbox in {window:?} (at most {bound})"
    );
    // Nothing was sent: the row is the other instance's.
    let sent: Option<i64> = sqlx::query_scalar("SELECT sent_at FROM outbox WHERE id = $1")
        .bind(id)
        .fetch_one(&pool)
        .await
        .expect("row");
    assert_eq!(sent, None);
    drop(other);
}
