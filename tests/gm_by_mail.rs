//! A game run to its end by mail, over the real mail stack (Dovecot + Postfix on loopback) and a
//! real SQLite file (issue 11): the TD moves the deadline, pauses and resumes the game and
//! replaces a player by command mail; a draw vote fails (the results say only that), then a
//! draw passes and ends the game with the final mail. Every mail the players receive is scanned
//! for vote tallies and voters. Two more games end by their final year and by Maharajiad X(1)
//! (with a vote to continue that fails, scanned the same way), and two games share one server
//! with one player in both. The clock is injected and the test ticks the scheduler itself.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use chancery::engine::{self, admin};
use chancery::games;
use chancery::policy::{DAY, Ts};
use chancery::service::Clock;
use chancery::store::{self, Role};
use chancery::transport::smtp::Sender;
use fixtures::{POWERS, T0, player, setup_at};
use mailstack::{Stack, TestClock, inbox, send, wait_for};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

const TD: &str = "td@example.test";

async fn deadline(pool: &chancery::store::Pool) -> Ts {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, "wm1")
        .await
        .expect("phase")
        .expect("open")
        .deadline
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_run_to_its_end_by_mail() {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    let td_secret = {
        let pool = setup_at(&db, &["wm1"]).await;
        let td = admin::add_member(&pool, "wm1", Role::Td, TD, "UTC", T0)
            .await
            .expect("td");
        pool.close().await;
        td.secret
    };
    let cfg = stack.chancery_config(&db);
    let clock = Arc::new(TestClock(AtomicI64::new(T0 + 3600)));
    let (stop, server_task) = mailstack::serve_by_hand(&cfg, &dir, clock.clone());
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let pool = store::open(&db).await.expect("db");
    let env = engine::env(&pool, &cfg, T0).await.expect("env");
    let command = |body: &str| format!("SECRET {td_secret}\n{body}\n");

    // The TD moves the deadline by a day; every player is told.
    let before = deadline(&pool).await;
    send(&sender, TD, "wm1 GM", &command("EXTEND 1d"), "c1").await;
    let reply = wait_for(&stack, TD, "wm1 GM", 1).await;
    assert!(
        reply[0].1.contains("OK: the deadline of S1901M is now"),
        "{}",
        reply[0].1
    );
    assert_eq!(deadline(&pool).await, before + DAY);
    for i in 0..7 {
        wait_for(&stack, &player(i), "the deadline has moved", 1).await;
    }
    // A pause and a resume: the time left is kept.
    send(&sender, TD, "wm1 GM", &command("PAUSE"), "c2").await;
    wait_for(&stack, TD, "wm1 GM", 2).await;
    send(&sender, TD, "wm1 GM", &command("RESUME"), "c3").await;
    let replies = wait_for(&stack, TD, "wm1 GM", 3).await;
    assert!(
        replies.iter().any(|(_, b)| b.contains("OK: resumed")),
        "{replies:?}"
    );
    assert_eq!(deadline(&pool).await, before + DAY);
    // Italy's player is replaced (the catch-all box plays on as Italy).
    send(
        &sender,
        TD,
        "wm1 GM",
        &command("REPLACE ITALY catchall@example.test"),
        "c4",
    )
    .await;
    let welcome = wait_for(&stack, "catchall@example.test", "you play ITALY", 1).await;
    assert!(welcome[0].1.contains("YOUR SECRET:"), "{}", welcome[0].1);
    wait_for(&stack, &player(4), "you no longer play ITALY", 1).await;
    let italy_secret = {
        let mut c = pool.acquire().await.expect("conn");
        store::players(&mut c, "wm1")
            .await
            .expect("players")
            .into_iter()
            .find(|p| p.power == "ITALY")
            .expect("italy")
            .secret
    };
    let address = |i: usize| {
        if i == 4 {
            "catchall@example.test".to_string()
        } else {
            player(i)
        }
    };
    let secret = |i: usize| {
        if i == 4 {
            italy_secret.clone()
        } else {
            format!("s{}", i + 1)
        }
    };

    // Spring: a draw is proposed; Germany votes no. The results say only that it failed.
    for (i, power) in POWERS.iter().enumerate() {
        let ballot = if i == 3 { "NO" } else { "YES" };
        let body = format!("SECRET {}\nVOTE DRAW {ballot}\n", secret(i));
        let subject = format!("wm1 {power} S1901M");
        send(&sender, &address(i), &subject, &body, &format!("v1-{i}")).await;
    }
    for i in 0..7 {
        wait_for(&stack, &address(i), "S1901M", 1).await;
    }
    let spring = deadline(&pool).await;
    clock.0.store(spring + 60, Ordering::SeqCst);
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        1
    );
    for i in 0..7 {
        let r = wait_for(&stack, &address(i), "results", 1).await;
        assert!(
            r[0].1
                .contains("The proposal of a draw of all survivors failed"),
            "{}",
            r[0].1
        );
    }
    // Fall: everyone votes for the draw; it passes and ends the game instead of the results.
    for (i, power) in POWERS.iter().enumerate() {
        let body = format!("SECRET {}\nVOTE DRAW YES\n", secret(i));
        let subject = format!("wm1 {power} F1901M");
        send(&sender, &address(i), &subject, &body, &format!("v2-{i}")).await;
    }
    for i in 0..7 {
        wait_for(&stack, &address(i), "F1901M", 1).await;
    }
    let fall = deadline(&pool).await;
    clock.0.store(fall + 60, Ordering::SeqCst);
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        1
    );
    for i in 0..7 {
        let end = wait_for(&stack, &address(i), "the game has ended", 1).await;
        assert!(end[0].1.contains("has passed"), "{}", end[0].1);
        assert!(
            end[0].1.contains("Final supply centre counts"),
            "{}",
            end[0].1
        );
    }
    wait_for(&stack, TD, "the game has ended", 1).await;
    {
        let mut c = pool.acquire().await.expect("conn");
        let g = store::game(&mut c, "wm1").await.expect("q").expect("game");
        assert_eq!(g.status, store::GameStatus::Finished);
    }
    // Secrecy (WM IX(2)): no mail any player or the TD received tells how anyone voted or how
    // many did. (A player's own acknowledgement repeats only that player's own vote.)
    for who in (0..7).map(address).chain(std::iter::once(TD.to_string())) {
        for (subject, body) in inbox(&stack, &who).await {
            if subject.contains("S1901M")
                || subject.contains("F1901M") && !subject.contains("results")
            {
                continue; // the player's own receipt and acknowledgement
            }
            let text = format!("{subject}\n{body}").to_lowercase();
            for leak in [
                "voted",
                "6 to 1",
                "6 votes",
                "germany vote",
                "tally:",
                "votes for",
            ] {
                assert!(!text.contains(leak), "{who}: {leak} in {subject}: {body}");
            }
        }
    }
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_on_one_server_with_one_player_in_both() {
    // Issue 11, point 6: each mail reaches its own game; a mail naming no game, from a player
    // of both, is answered with the games to choose from.
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    setup_at(&db, &["wm1", "wm2"]).await.close().await;
    let cfg = stack.chancery_config(&db);
    let clock = Arc::new(TestClock(AtomicI64::new(T0 + 3600)));
    let (stop, server_task) = mailstack::serve_by_hand(&cfg, &dir, clock);
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let france = player(2);
    send(
        &sender,
        &france,
        "wm1 FRANCE S1901M",
        "SECRET s3\nA Par - Bur\n",
        "g1",
    )
    .await;
    send(
        &sender,
        &france,
        "WM2 France S1901M",
        "SECRET s3\nA Par - Pic\n",
        "g2",
    )
    .await;
    send(&sender, &france, "orders", "SECRET s3\nA Par - Gas\n", "g3").await;
    let answers = wait_for(&stack, &france, "", 3).await;
    assert!(
        answers
            .iter()
            .any(|(_, b)| b.contains("you play in several games (wm1, wm2)")),
        "{answers:?}"
    );
    let pool = store::open(&db).await.expect("db");
    let mut c = pool.acquire().await.expect("conn");
    for (game, order) in [("wm1", "A PAR - BUR"), ("wm2", "A PAR - PIC")] {
        let standing = store::diplomacy::standing_orders(&mut c, game, "S1901M")
            .await
            .expect("standing");
        assert_eq!(standing.len(), 1, "{game}");
        assert_eq!(standing[0].orders[0].order, order, "{game}");
    }
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_end_by_their_final_year_and_by_maharajiad_x_1_over_the_mail_stack() {
    // Issue 11, acceptance: one game ends by its final year (WM B(3)), another by three (here
    // one, to keep it short) years with no centre changing owner (Maharajiad X(1)), on one
    // server; a vote to continue fails without a tally, and no mail tells how anyone voted.
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    {
        let pool = setup_at(&db, &["fy", "mj"]).await;
        let env = fixtures::env();
        for (game, option, value) in [("fy", "final_year", "1901"), ("mj", "stalemate_years", "1")]
        {
            let set = chancery::commands::GmCommand::Set {
                option: option.into(),
                value: value.into(),
            };
            let done = games::console_command(&pool, &env, game, &set, T0 + 1)
                .await
                .expect("set");
            assert!(done.ok, "{done:?}");
        }
        pool.close().await;
    }
    let cfg = stack.chancery_config(&db);
    let clock = Arc::new(TestClock(AtomicI64::new(T0 + 3600)));
    let (stop, server_task) = mailstack::serve_by_hand(&cfg, &dir, clock.clone());
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let pool = store::open(&db).await.expect("db");
    let env = engine::env(&pool, &cfg, T0).await.expect("env");
    let phase_deadline = |game: &'static str| {
        let pool = pool.clone();
        async move {
            let mut c = pool.acquire().await.expect("conn");
            store::current_phase(&mut c, game)
                .await
                .expect("phase")
                .map(|p| p.deadline)
        }
    };
    // France orders by mail in the final-year game; everyone else holds (no orders).
    send(
        &sender,
        &player(2),
        "fy FRANCE S1901M",
        "SECRET s3\nA Par - Bur\n",
        "fy1",
    )
    .await;
    wait_for(&stack, &player(2), "fy S1901M FRANCE: orders received", 1).await;
    let mut ticks = 0;
    // 1901 in both games, then 1902 in the Maharajiad one; every unit holds there.
    while let Some(at) = phase_deadline("mj").await {
        ticks += 1;
        assert!(ticks <= 6, "the Maharajiad game never ended");
        let phase = {
            let mut c = pool.acquire().await.expect("conn");
            store::current_phase(&mut c, "mj")
                .await
                .expect("q")
                .expect("open")
                .phase
        };
        if phase == "F1902M" {
            // Every player but Germany votes to go on: the vote fails, and the game ends.
            for (i, power) in POWERS.iter().enumerate() {
                let ballot = if i == 3 { "NO" } else { "YES" };
                let body = format!("SECRET s{}\nVOTE CONTINUE {ballot}\n", i + 1);
                let subject = format!("mj {power} F1902M");
                send(&sender, &player(i), &subject, &body, &format!("mj-{i}")).await;
            }
            for (i, power) in POWERS.iter().enumerate() {
                let ack = format!("mj F1902M {power}: orders received");
                wait_for(&stack, &player(i), &ack, 1).await;
            }
        }
        clock.0.store(at + 60, Ordering::SeqCst);
        games::tick(&pool, &env, clock.now()).await.expect("tick");
    }
    let mut c = pool.acquire().await.expect("conn");
    for game in ["fy", "mj"] {
        let g = store::game(&mut c, game).await.expect("q").expect("game");
        assert_eq!(g.status, store::GameStatus::Finished, "{game}");
    }
    drop(c);
    for i in 0..7 {
        let fy = wait_for(&stack, &player(i), "fy F1901M results", 1).await;
        let text = fy[0].1.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains("The final year of the game (1901) has been played")
                && text.contains("Supply centres at the end of each year"),
            "{text}"
        );
        let mj = wait_for(&stack, &player(i), "mj F1902M results", 1).await;
        let mj: Vec<String> = mj
            .iter()
            .map(|m| m.1.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        assert!(
            mj.iter().any(|t| t.contains("(Maharajiad X(1))")
                && t.contains("The proposal of continuing the game failed")),
            "{mj:?}"
        );
    }
    // Secrecy: no mail anyone received tells how anyone voted or how many did. (A player's
    // own acknowledgement repeats only that player's own vote.)
    for who in (0..7).map(player) {
        for (subject, body) in inbox(&stack, &who).await {
            if subject.contains("orders received") {
                continue;
            }
            let text = format!("{subject}\n{body}").to_lowercase();
            for leak in [
                "voted",
                "6 to 1",
                "6 votes",
                "germany vote",
                "tally:",
                "votes for",
            ] {
                assert!(!text.contains(leak), "{who}: {leak} in {subject}: {body}");
            }
        }
    }
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}
