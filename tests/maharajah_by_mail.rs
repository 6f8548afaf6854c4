//! Issue 13 over the real mail stack (Dovecot + Postfix on loopback) and a real SQLite file: a
//! Maharajah game under the Maharajiad preset, played by mail from 1501 to the Winter of 1503:
//! a river convoy on the Indus (Maharajiad B.I(2)), a river convoy disrupted by a fleet attack
//! that fails, and Kashmir, held by one Delhian army through 1502, made a home centre of Delhi
//! (B.I(3)) and used for a build. The clock is injected and the test ticks the scheduler.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use chancery::engine;
use chancery::games;
use chancery::games::diplomacy::admin;
use chancery::policy::{HOUR, Ts};
use chancery::service::Clock;
use chancery::store;
use chancery::transport::smtp::Sender;
use fixtures::{T0, player};
use mailstack::{Stack, TestClock, send, wait_for};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

const POWERS: [&str; 7] = [
    "BAHMANA",
    "DELHI",
    "GONDWANA",
    "MUGHALISTAN",
    "PERSIA",
    "RAJPUTANA",
    "VIJAYANAGAR",
];

async fn current(pool: &chancery::store::Pool) -> (String, Ts, String) {
    let mut c = pool.acquire().await.expect("conn");
    let p = store::current_phase(&mut c, "mj1")
        .await
        .expect("phase")
        .expect("open");
    (p.phase, p.deadline, p.board)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_maharajah_years_by_mail_with_river_convoys_and_a_new_home_centre() {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    let pool = store::open(&db).await.expect("db");
    admin::create_game(
        &pool,
        &admin::NewGame {
            id: "mj1",
            preset: "maharajiad",
            variant: "maharajah",
            gm_address: "gm@example.test",
            confirm_address: "confirm@example.test",
            // NMRs allowed from the start, so that only the powers of the story need write.
            options: &[("no_nmr_phases".into(), "[]".into())],
        },
        T0,
    )
    .await
    .expect("create");
    let mut secrets = Vec::new();
    for (i, power) in POWERS.iter().enumerate() {
        let p = admin::add_player(
            &pool,
            &admin::NewPlayer {
                game: "mj1",
                power,
                address: &player(i),
                name: "",
                tz: "Asia/Kolkata",
                secret: None,
            },
        )
        .await
        .expect("player");
        secrets.push(p.secret);
    }
    games::start_game(&pool, "mj1", T0).await.expect("start");
    let cfg = stack.chancery_config(&db);
    let clock = Arc::new(TestClock(AtomicI64::new(T0 + HOUR)));
    let (stop, server_task) = mailstack::serve_by_hand(&cfg, &dir, clock.clone());
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let env = engine::env(&pool, &cfg, T0).await.expect("env");
    let index = |power: &str| POWERS.iter().position(|p| *p == power).expect(power);
    let mut sent = 0;
    // One phase: the powers' orders by mail, their acknowledgements, then the deadline.
    let mut phase = |expected: &'static str, orders: Vec<(&'static str, &'static str)>| {
        let pool = pool.clone();
        let clock = clock.clone();
        let sender = &sender;
        let stack = &stack;
        let env = env.clone();
        let secrets = secrets.clone();
        sent += 1;
        let round = sent;
        async move {
            let (name, deadline, _) = current(&pool).await;
            assert_eq!(name, expected);
            for (power, body) in &orders {
                let i = index(power);
                let text = format!("SECRET {}\n{body}\n", secrets[i]);
                let subject = format!("mj1 {power} {name}");
                send(
                    sender,
                    &player(i),
                    &subject,
                    &text,
                    &format!("r{round}-{power}"),
                )
                .await;
            }
            for (power, _) in &orders {
                let ack = format!("mj1 {name} {power}: orders received");
                wait_for(stack, &player(index(power)), &ack, 1).await;
            }
            clock.0.store(deadline + 60, Ordering::SeqCst);
            assert_eq!(
                games::tick(&pool, &env, clock.now()).await.expect("tick"),
                1
            );
            let results = wait_for(
                stack,
                &player(index("RAJPUTANA")),
                &format!("mj1 {name} results"),
                1,
            )
            .await;
            results[0]
                .1
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        }
    };

    // 1501. Delhi marches into Kashmir; Rajputana's army leaves Multan for Lahore and its
    // fleet goes up the Indus; Persia's fleet makes for the river's mouth.
    phase(
        "S1501M",
        vec![
            ("DELHI", "A Agra - Kashmir"),
            ("RAJPUTANA", "A Mul - Lah\nF Jsl - Bik"),
            ("PERSIA", "F Hor - Sin"),
        ],
    )
    .await;
    phase(
        "F1501M",
        vec![("RAJPUTANA", "F Bik - Mul"), ("PERSIA", "F Sin - Pes")],
    )
    .await;
    let (name, _, _) = current(&pool).await;
    if name == "W1501A" {
        // Builds are due to some: nobody sends any.
        phase("W1501A", vec![]).await;
    }
    // 1502. A river convoy: the fleet in Multan carries the army from Lahore to Bikaner.
    let spring = phase(
        "S1502M",
        vec![("RAJPUTANA", "A Lah - Bik\nF Mul C A Lah - Bik")],
    )
    .await;
    assert!(spring.contains("A LAH - BIK"), "{spring}");
    let (_, _, board) = current(&pool).await;
    assert!(board.contains("\"A BIK\""), "the army was carried: {board}");
    // A river convoy disrupted: Persia's fleet attacks the convoying fleet and bounces, and
    // still the convoy fails (B.I(2)).
    let fall = phase(
        "F1502M",
        vec![
            ("RAJPUTANA", "A Bik - Lah\nF Mul C A Bik - Lah"),
            ("PERSIA", "F Pes - Mul"),
        ],
    )
    .await;
    assert!(fall.contains("disrupted"), "{fall}");
    let (name, _, board) = current(&pool).await;
    assert!(board.contains("\"A BIK\""), "the army stayed: {board}");
    if name == "W1502A" {
        phase("W1502A", vec![]).await;
    }
    // Kashmir, held by the same Delhian army since the Spring of 1501, is Delhi's home now.
    let (_, _, board) = current(&pool).await;
    let next: serde_json::Value = serde_json::from_str(&board).expect("board");
    let delhi: Vec<&str> = next["homes"]["DELHI"]
        .as_array()
        .expect("homes")
        .iter()
        .filter_map(|h| h.as_str())
        .collect();
    assert!(delhi.contains(&"KMR"), "{next}");
    // 1503. The army leaves Kashmir; in the Winter Delhi builds there.
    phase("S1503M", vec![("DELHI", "A Kmr - Lah")]).await;
    phase("F1503M", vec![]).await;
    let winter = phase("W1503A", vec![("DELHI", "Build A Kmr")]).await;
    assert!(winter.contains("BUILD A KMR"), "{winter}");
    let (_, _, board) = current(&pool).await;
    let next: serde_json::Value = serde_json::from_str(&board).expect("board");
    let units: Vec<&str> = next["units"]["DELHI"]
        .as_array()
        .expect("units")
        .iter()
        .filter_map(|u| u.as_str())
        .collect();
    assert!(units.contains(&"A KMR"), "{next}");
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}
