//! A tournament run by its director's mail over the real mail stack (Dovecot + Postfix on
//! loopback) and a real SQLite file (issue 14): the TD signs up two teams of seven and makes
//! round one by one command mail; the two boards start and every player is mailed; all vote a
//! draw with their orders; both games end at the deadline, and the standings mail reaches the
//! TD. The clock is injected and the test ticks the scheduler itself.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use chancery::engine;
use chancery::games;
use chancery::games::diplomacy::tournament;
use chancery::map::Map;
use chancery::service::Clock;
use chancery::store;
use chancery::transport::smtp::Sender;
use fixtures::{POWERS, T0, player};
use mailstack::{Stack, TestClock, send, wait_for};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

const TD: &str = "td@example.test";

/// Team B's players live outside the stack's domain: their mail lands in the catch-all box.
fn team_b(k: usize) -> String {
    format!("b{}@teamb.example.org", k + 1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_made_by_the_directors_mail_ends_with_the_standings_mail() {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    let td_secret = {
        let pool = store::open(&db).await.expect("db");
        tournament::create(
            &pool,
            &tournament::NewTournament {
                id: "wm04",
                rulebook: "wm2004",
                preset: None,
                variant: None,
                gm_address: "gm@example.test",
                confirm_address: "confirm@example.test",
                seed: Some("wm04 round seed, published 2026-11-01"),
                options: &[],
            },
            T0,
        )
        .await
        .expect("tournament");
        let d = tournament::add_director(&pool, "wm04", TD, "UTC")
            .await
            .expect("director");
        pool.close().await;
        d.secret
    };
    let cfg = stack.chancery_config(&db);
    let clock = Arc::new(TestClock(AtomicI64::new(T0 + 3600)));
    let (stop, server_task) = mailstack::serve_by_hand(&cfg, &dir, clock.clone());
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let pool = store::open(&db).await.expect("db");
    let env = engine::env(&pool, &cfg, T0).await.expect("env");

    // One command mail: fourteen entrants in two teams (WM B.2), each given a power by the
    // team (B.5), then the round.
    let mut body = format!("SECRET {td_secret}\n");
    for (k, power) in POWERS.iter().enumerate() {
        body.push_str(&format!(
            "ENTRANT {} TEAM Lions POWER {power}{}\n",
            player(k),
            if k == 0 { " CAPTAIN" } else { "" }
        ));
        body.push_str(&format!(
            "ENTRANT {} TEAM Tigers POWER {power}\n",
            team_b(k)
        ));
    }
    body.push_str("ROUND\n");
    send(&sender, TD, "wm04 TD", &body, "td1").await;
    let reply = wait_for(&stack, TD, "wm04 TD", 1).await;
    assert!(
        reply[0]
            .1
            .contains("OK: round 1 made: 2 board(s), wm04r1b1, wm04r1b2"),
        "{}",
        reply[0].1
    );
    assert!(!reply[0].1.contains("REFUSED"), "{}", reply[0].1);
    for k in 0..7 {
        wait_for(&stack, &player(k), "has started", 1).await;
    }
    wait_for(&stack, "catchall", "has started", 7).await;

    // Everyone holds and votes a draw in Spring 1901.
    let map = Map::standard();
    let mut n = 0;
    for game in ["wm04r1b1", "wm04r1b2"] {
        let players = {
            let mut c = pool.acquire().await.expect("conn");
            store::players(&mut c, game).await.expect("players")
        };
        for p in players {
            let power = map.power_by_name(&p.power).expect("power");
            let holds: Vec<String> = map
                .starting_units
                .iter()
                .filter(|u| u.power == power)
                .map(|u| {
                    format!(
                        "{} {} H",
                        u.unit_type.letter(),
                        map.info(u.location.province).code
                    )
                })
                .collect();
            let body = format!("SECRET {}\nVOTE DRAW YES\n{}\n", p.secret, holds.join("\n"));
            n += 1;
            send(
                &sender,
                &p.address,
                &format!("{game} {} S1901M", p.power),
                &body,
                &format!("v{n}"),
            )
            .await;
        }
    }
    for k in 0..7 {
        wait_for(&stack, &player(k), "orders received", 1).await;
    }
    wait_for(&stack, "catchall", "orders received", 7).await;

    // The deadline passes: both games end by the vote; the TD gets the standings.
    let deadline = {
        let mut c = pool.acquire().await.expect("conn");
        store::current_phase(&mut c, "wm04r1b1")
            .await
            .expect("phase")
            .expect("open")
            .deadline
    };
    clock.0.store(deadline + 60, Ordering::SeqCst);
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        2
    );
    let standings = wait_for(&stack, TD, "wm04 standings: round 1, 2 of 2 games over", 1).await;
    let text = &standings[0].1;
    // A draw applies the counts to the remaining years (WM C.5): each player has the opening
    // centres and the tied places share their bonuses (C.3).
    assert!(text.contains("Players"), "{text}");
    assert!(text.contains("Teams"), "{text}");
    assert!(text.contains("Lions") && text.contains("Tigers"), "{text}");
    assert!(text.contains("Best country"), "{text}");
    for game in ["wm04r1b1", "wm04r1b2"] {
        let mut c = pool.acquire().await.expect("conn");
        let g = store::game(&mut c, game).await.expect("q").expect("game");
        assert_eq!(g.status, store::GameStatus::Finished);
        let ended = store::diplomacy::game_ended(&mut c, game)
            .await
            .expect("q")
            .expect("ended");
        assert_eq!(ended.end, "vote");
    }
    // The players see nothing until the TD releases the standings.
    assert!(
        mailstack::inbox(&stack, &player(0))
            .await
            .iter()
            .all(|(s, _)| !s.contains("standings")),
        "standings go to the players only once released"
    );
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}
