//! Issue 12 over the real mail stack (Dovecot + Postfix on loopback) and a real SQLite file: a
//! wm2004 game plays two turns with an extension (WM D.VII(5)), an unavailable period that moves
//! the deadline (D.VII(2)) and an NMR whose contact window runs out (D.VII(6)(a)), and every mail
//! each person gets is checked. The clock is injected and the test ticks the scheduler itself.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use chancery::engine::{self, admin};
use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};
use chancery::service::Clock;
use chancery::store::{self, Role};
use chancery::transport::smtp::Sender;
use fixtures::{POWERS, T0, game_with, player};
use mailstack::{Stack, TestClock, inbox, send, wait_for};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

const TD: &str = "td@example.test";

async fn deadline(pool: &chancery::store::Pool) -> Ts {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, "wm7")
        .await
        .expect("phase")
        .expect("open")
        .deadline
}

/// The subjects in a mailbox, sorted, each without the game's name.
async fn subjects(stack: &Stack, who: &str) -> Vec<String> {
    let mut s: Vec<String> = inbox(stack, who).await.into_iter().map(|m| m.0).collect();
    s.sort();
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_turns_with_an_extension_an_unavailable_period_and_an_nmr_by_mail() {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let (pool, secrets) = game_with(
        "deadlines-by-mail",
        "wm7",
        "wm2004",
        &[("no_nmr_phases".into(), "[]".into())],
    )
    .await;
    admin::add_member(&pool, "wm7", Role::Td, TD, "UTC", T0)
        .await
        .expect("td");
    games::start_game(&pool, "wm7", T0).await.expect("start");
    let db = std::env::temp_dir()
        .join(format!("chancery-deadlines-by-mail-{}", std::process::id()))
        .join("chancery.sqlite");
    let cfg = stack.chancery_config(&db);
    let clock = Arc::new(TestClock(AtomicI64::new(T0 + HOUR)));
    let (stop, server_task) = mailstack::serve_by_hand(&cfg, &stack.dir, clock.clone());
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let env = engine::env(&pool, &cfg, T0).await.expect("env");
    let first = deadline(&pool).await;

    // Spring: France asks for its guaranteed extension; England declares a period that covers
    // the new deadline; everyone but Germany orders.
    let order = |i: usize, extra: &str| {
        format!(
            "SECRET {}\n{}\n{extra}\n",
            secrets[i],
            match i {
                0 => "A Vie H",
                1 => "F Lon H",
                2 => "A Par - Bur",
                4 => "A Ven H",
                5 => "A Mos H",
                _ => "A Con H",
            }
        )
    };
    send(
        &sender,
        &player(2),
        "wm7 FRANCE S1901M",
        &order(2, "EXTEND 1 DAY"),
        "s-fr",
    )
    .await;
    wait_for(&stack, &player(2), "S1901M FRANCE: orders received", 1).await;
    let extended = deadline(&pool).await;
    assert_eq!(extended, first + DAY);
    let (from, to) = (
        (extended - 10 * HOUR) / 60 * 60,
        (extended + 10 * HOUR) / 60 * 60,
    );
    let day = |t: Ts| chancery::time::format_gmt(t).replace(" GMT", "");
    send(
        &sender,
        &player(1),
        "wm7 ENGLAND S1901M",
        &order(1, &format!("UNAVAILABLE {} TO {}", day(from), day(to))),
        "s-en",
    )
    .await;
    wait_for(&stack, &player(1), "S1901M ENGLAND: orders received", 1).await;
    let spring = deadline(&pool).await;
    assert_eq!(spring, to, "moved out of England's period");
    for i in [0, 4, 5, 6] {
        let subject = format!("wm7 {} S1901M", POWERS[i]);
        send(
            &sender,
            &player(i),
            &subject,
            &order(i, ""),
            &format!("s-{i}"),
        )
        .await;
    }
    for i in [0, 4, 5, 6] {
        let ack = format!("S1901M {}: orders received", POWERS[i]);
        wait_for(&stack, &player(i), &ack, 1).await;
    }
    clock.0.store(spring + 60, Ordering::SeqCst);
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        1
    );
    for i in 0..7 {
        wait_for(&stack, &player(i), "wm7 S1901M results", 1).await;
    }

    // Fall: Germany, who NMRed, never makes contact; the others order at once (orders: a mail
    // without any would be an NMR too).
    for i in [0, 1, 2, 4, 5, 6] {
        let subject = format!("wm7 {} F1901M", POWERS[i]);
        let body = order(i, "").replace("A Par - Bur", "A Bur H");
        send(&sender, &player(i), &subject, &body, &format!("f-{i}")).await;
    }
    for i in [0, 1, 2, 4, 5, 6] {
        let ack = format!("F1901M {}: orders received", POWERS[i]);
        wait_for(&stack, &player(i), &ack, 1).await;
    }
    let rules = chancery::rules::Rules::preset("wm2004").expect("wm");
    let due = chancery::policy::nmr_contact_deadline(&rules, spring + 60).expect("window");
    // Germany's contact window outlasts the fall deadline: the tick that closes the window
    // adjudicates the fall too (Germany NMRs again), and nothing after it.
    let fall = deadline(&pool).await;
    assert!(
        fall < due,
        "the fall deadline {fall} is inside the window ending {due}"
    );
    clock.0.store(due + 60, Ordering::SeqCst);
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        1
    );
    let notice = wait_for(&stack, TD, "replace GERMANY", 1).await;
    assert!(
        notice[0].1.contains("REPLACE GERMANY <address>"),
        "{}",
        notice[0].1
    );
    for i in 0..7 {
        wait_for(&stack, &player(i), "wm7 F1901M results", 1).await;
    }
    assert!(
        deadline(&pool).await > due + 60,
        "spring 1902 is not yet due"
    );

    // Every mail each person got.
    let announcement = "wm7: the deadline has moved";
    for (i, power) in POWERS.iter().enumerate() {
        let mut want: Vec<String> = vec![
            announcement.to_string(),
            announcement.to_string(),
            "wm7 S1901M results".to_string(),
            "wm7 F1901M results".to_string(),
        ];
        if i != 3 {
            want.push(format!("wm7 S1901M {power}: orders received, preliminary"));
            want.push(format!("wm7 F1901M {power}: orders received, preliminary"));
        }
        want.sort();
        let got = subjects(&stack, &player(i)).await;
        // A reminder may come the day before a deadline if the tick fell in it: Germany's only.
        let got: Vec<String> = got
            .into_iter()
            .filter(|s| !(i == 3 && s.contains("reminder")))
            .collect();
        assert_eq!(got, want, "{power}");
    }
    let td = subjects(&stack, TD).await;
    assert!(
        td.iter().any(|s| s.contains("replace GERMANY")),
        "the TD's notice: {td:?}"
    );
    assert!(
        !td.iter()
            .any(|s| s.contains("replace FRANCE") || s.contains("replace ITALY")),
        "{td:?}"
    );
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}
