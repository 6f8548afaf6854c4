//! Crash safety over the real stack: the `chancery serve` process is killed (SIGKILL) twice
//! while it processes a stream of 56 order mails, and restarted. Nothing is lost (every mail is
//! processed, every player gets one receipt and one acknowledgement per mail, the standing orders
//! are the last ones sent) and nothing happens twice (no message processed twice, no mail sent
//! twice: a send cut short is checked against the archive copy before it is retried).

#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;
#[path = "common/serve.rs"]
mod serve;

use chancery::store;
use chancery::transport::smtp::{OutMail, Sender};
use mailstack::Stack;
use serve::{count, received_once, spawn, wait_until};
use std::path::Path;
use std::time::Duration;

/// The server's configuration for `stack`, in `dir`: four SMTP connections side by side, and a
/// send cut short and not in the archive sent again after 10 s, not a minute (the archive is on
/// the relay's host).
fn config_file(stack: &Stack, dir: &Path) -> std::path::PathBuf {
    serve::config_file(
        stack,
        dir,
        "database = \"chancery.sqlite\"\npoll_seconds = 2\nsmtp_connections = 4\narchive_grace_seconds = 10\n",
        "",
    )
}

const POWERS: [&str; 7] = [
    "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
];
const REVISIONS: usize = 8;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_while_four_connections_send_nothing_lost_nothing_twice() {
    // Issue 22: the outbox sends on several connections at once, each with a batch marked as
    // being sent; a kill in the middle leaves batches half sent, and the archive must say,
    // row by row, which went.
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    let log = dir.join("serve.log");
    let cfg = config_file(&stack, &dir);
    const MAILS: usize = 600;
    let pool = store::open(&db).await.expect("db");
    {
        let now = chrono::Utc::now().timestamp();
        let mails: Vec<store::NewMail> = (0..MAILS)
            .map(|i| store::NewMail {
                kind: store::MailKind::Results,
                message_id: format!("storm.{i}@chancery.example.test"),
                from: "gm@example.test".into(),
                to: format!("player{}@example.test", i % 7 + 1),
                subject: format!("storm {i}"),
                body: format!("Results {i}.\n{}", "x".repeat(2000)),
                auto_submitted: "auto-generated",
                ..Default::default()
            })
            .collect();
        let mut c = pool.acquire().await.expect("conn");
        store::enqueue_many(&mut c, &mails, now)
            .await
            .expect("enqueue");
    }
    let mut child = spawn(&cfg, &log);
    for at in [100, 300] {
        wait_until(
            &pool,
            "SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL",
            at,
            Duration::from_secs(120),
        )
        .await;
        child.0.kill().expect("SIGKILL");
        let _ = child.0.wait();
        child = spawn(&cfg, &log);
    }
    wait_until(
        &pool,
        "SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL",
        MAILS as i64,
        Duration::from_secs(180),
    )
    .await;
    drop(child);
    let mut total = 0;
    for i in 0..7 {
        let user = format!("player{}@example.test", i + 1);
        let seen = received_once(&stack, &user).await;
        assert_eq!(seen.len(), MAILS / 7 + usize::from(i < MAILS % 7), "{user}");
        total += seen.len();
    }
    assert_eq!(total, MAILS, "every mail arrived");
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(
        log_text.matches("serving; database").count(),
        3,
        "{log_text}"
    );
}

async fn wait_until_at(pool: &chancery::store::Pool, at_least: i64, limit: Duration) {
    wait_until(pool, "SELECT count(*) FROM ledger", at_least, limit).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_twice_nothing_lost_nothing_twice() {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    let log = dir.join("serve.log");
    let cfg = config_file(&stack, &dir);

    let pool = store::open(&db).await.expect("db");
    serve::seven_player_game(&pool, "wm1", chrono::Utc::now().timestamp()).await;

    let mut child = spawn(&cfg, &log);
    // The mails: four revisions for each power.
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let board = chancery::adjudicator::Board::initial(chancery::map::Map::standard());
    let map = chancery::map::Map::standard();
    let total = POWERS.len() * REVISIONS;
    for r in 0..REVISIONS {
        // A player's revisions are seconds apart, as people write them: the relay may deliver
        // two mails accepted in the same instant in either order, and only the Date (to the
        // second) says which is newer (issue 21.8).
        if r > 0 {
            tokio::time::sleep(Duration::from_millis(1100)).await;
        }
        for (i, p) in POWERS.iter().enumerate() {
            let power = map.power_by_name(p).expect("power");
            let mut body = format!("SECRET s{}\n", i + 1);
            for u in board.units.iter().filter(|u| u.power == power) {
                let unit = map.unit_name(u.unit_type, u.location);
                // Earlier revisions support (a support order the reader accepts as written); the
                // last one holds, so the standing set shows which revision won.
                if r + 1 == REVISIONS {
                    body.push_str(&format!("{unit} H\n"));
                } else {
                    body.push_str(&format!("{unit} S {unit}\n"));
                }
            }
            body.push_str(&format!("PRESS TO ALL\nrevision {r}\nENDPRESS\n"));
            let mail = OutMail {
                from: format!("player{}@example.test", i + 1),
                to: vec!["gm@example.test".into(), "confirm@example.test".into()],
                subject: format!("wm1 {p} S1901M"),
                body,
                message_id: format!("{}-{r}@players.example.test", p.to_lowercase()),
                in_reply_to: None,
                references: Vec::new(),
                auto_submitted: "no",
                extra_headers: Vec::new(),
                html: None,
            };
            sender.send(&mail).await.expect("send");
        }
    }

    // Kill it while it works, twice (each time once it has made progress since its start), and
    // restart it each time.
    for _ in 0..2 {
        let base = count(&pool, "SELECT count(*) FROM ledger").await;
        wait_until_at(
            &pool,
            (base + 4).min(2 * total as i64 - 1),
            Duration::from_secs(60),
        )
        .await;
        child.0.kill().expect("SIGKILL"); // std's kill is SIGKILL on Unix
        let _ = child.0.wait();
        child = spawn(&cfg, &log);
    }
    // Everything arrives: every mail processed in both boxes, every reply sent.
    wait_until(
        &pool,
        "SELECT count(*) FROM ledger",
        2 * total as i64,
        Duration::from_secs(90),
    )
    .await;
    wait_until(
        &pool,
        "SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL",
        2 * total as i64,
        Duration::from_secs(90),
    )
    .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    drop(child);

    assert_eq!(
        count(&pool, "SELECT count(*) FROM messages").await,
        2 * total as i64,
        "nothing processed twice"
    );
    assert_eq!(
        count(&pool, "SELECT count(*) FROM ledger").await,
        2 * total as i64
    );
    assert_eq!(
        count(&pool, "SELECT count(*) FROM outbox").await,
        2 * total as i64,
        "one receipt and one ack per mail"
    );
    assert_eq!(
        count(
            &pool,
            "SELECT count(*) FROM outbox WHERE failed_at IS NOT NULL"
        )
        .await,
        0
    );
    assert_eq!(
        count(&pool, "SELECT count(*) FROM submissions").await,
        total as i64
    );
    assert_eq!(
        count(&pool, "SELECT count(*) FROM press").await,
        total as i64,
        "press stored once per mail"
    );
    // The standing orders are each power's last set.
    {
        let mut c = pool.acquire().await.expect("conn");
        let standing = store::diplomacy::standing_orders(&mut c, "wm1", "S1901M")
            .await
            .expect("standing");
        assert_eq!(standing.len(), POWERS.len());
        for s in &standing {
            assert!(
                !s.orders.is_empty() && s.orders.iter().all(|o| !o.order.contains(" S ")),
                "{}: the last revision (all holds) stands: {:?}",
                s.power,
                s.orders
            );
        }
    }
    // What the players received: no Message-ID twice, one receipt and one ack per mail sent.
    for i in 0..POWERS.len() {
        let user = format!("player{}@example.test", i + 1);
        let seen = received_once(&stack, &user).await;
        assert_eq!(
            seen.values().sum::<usize>(),
            2 * REVISIONS,
            "{user}: a receipt and an ack per mail"
        );
    }
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        log_text.matches("serving; database").count() >= 2,
        "the server ran again after being killed: {log_text}"
    );
}
