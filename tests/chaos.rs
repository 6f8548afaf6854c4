//! Several Chancery instances on one PostgreSQL database (issue 28), over the real mail stack:
//! two `chancery serve` processes read the same mailboxes, share the ticks and the outbox, and
//! are killed (SIGKILL) ten times between them, at random, while 1,000 order mails stream in and
//! four games pass their deadlines. Every mail is answered exactly once, nothing is lost, and
//! every deadline is adjudicated once.
//!
//! The database is the suite's PostgreSQL server (`CHANCERY_TEST_POSTGRES`, as `scripts/test`
//! runs it), or a private cluster this test starts with `scripts/postgres`.

#[path = "common/database.rs"]
#[allow(dead_code)]
mod database;
#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;
#[path = "common/serve.rs"]
mod serve;

use chancery::store::{self, PlayerRow, Pool};
use chancery::transport::smtp::{OutMail, Sender};
use database::Cluster;
use mailstack::Stack;
use serve::{config_file, count, received_once, spawn, wait_until};
use std::time::{Duration, Instant};

const POWERS: [&str; 7] = [
    "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
];
/// Games, each with the same seven players, and a deadline of its own during the stream.
const GAMES: usize = 4;
const MAILS: usize = 1000;
const KILLS: usize = 10;

/// Games `wm1`..`wm4`, seven players each, started so that their Spring 1901 deadlines fall
/// `first` seconds from now and 10 seconds apart.
async fn games(pool: &Pool, first: i64) {
    let now = chrono::Utc::now().timestamp();
    let rules = serde_json::to_string(&chancery::rules::Rules::default()).expect("rules");
    for g in 0..GAMES {
        let id = format!("wm{}", g + 1);
        // A movement phase lasts 3 days: started that long before the deadline wanted.
        let started = now + first + 10 * g as i64 - 3 * chancery::policy::DAY;
        let mut c = pool.acquire().await.expect("conn");
        store::create_game(
            &mut c,
            &id,
            "standard",
            &rules,
            "gm@example.test",
            "confirm@example.test",
            started,
        )
        .await
        .expect("game");
        for (i, p) in POWERS.iter().enumerate() {
            store::add_player(
                &mut c,
                &id,
                &PlayerRow {
                    power: p.to_string(),
                    address: format!("player{}@example.test", i + 1),
                    name: String::new(),
                    tz: "UTC".into(),
                    secret: format!("s{}", i + 1),
                    extension_days_used: 0,
                },
            )
            .await
            .expect("player");
        }
        drop(c);
        let deadline = chancery::games::start_game(pool, &id, started)
            .await
            .expect("start");
        assert_eq!(deadline, now + first + 10 * g as i64);
    }
}

/// Order mail `n`: a power of a game, holding or supporting in turn, to the GM address.
fn order_mail(n: usize) -> OutMail {
    let board = chancery::adjudicator::Board::initial(chancery::map::Map::standard());
    let map = chancery::map::Map::standard();
    let (g, i) = ((n / POWERS.len()) % GAMES, n % POWERS.len());
    let power = map.power_by_name(POWERS[i]).expect("power");
    let mut body = format!("SECRET s{}\n", i + 1);
    for u in board.units.iter().filter(|u| u.power == power) {
        let unit = map.unit_name(u.unit_type, u.location);
        body.push_str(&if n.is_multiple_of(2) {
            format!("{unit} H\n")
        } else {
            format!("{unit} S {unit}\n")
        });
    }
    OutMail {
        from: format!("player{}@example.test", i + 1),
        to: vec!["gm@example.test".into()],
        subject: format!("wm{} {} S1901M", g + 1, POWERS[i]),
        body,
        message_id: format!("chaos-{n}@players.example.test"),
        in_reply_to: None,
        references: Vec::new(),
        auto_submitted: "no",
        extra_headers: Vec::new(),
        html: None,
    }
}

/// A small deterministic generator for which instance dies next (xorshift).
struct Dice(u64);

impl Dice {
    fn roll(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_killed_ten_times_answer_every_mail_once_and_adjudicate_every_deadline_once()
{
    chancery::transport::init_crypto();
    let (server, _cluster) = Cluster::for_test();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let key = dir.join("chaos.db");
    let pool = database::open_on(&server, &key).await;
    games(&pool, 40).await;
    let url = database::url_on(&server, &key);
    let dirs = [dir.join("a"), dir.join("b")];
    let mut cfgs = Vec::new();
    // Each instance's own configuration: the shared database and mailboxes, the masters' mail
    // to the TD, and no answer limit (seven players write 1,000 mails).
    let keys = format!(
        "database = \"{url}\"\npoll_seconds = 1\nsmtp_connections = 2\nmasters = [\"td@example.test\"]\n"
    );
    let limits = "[limits]\nanswers_per_hour = 100000\ngame_answers_per_hour = 100000\n";
    for d in &dirs {
        std::fs::create_dir_all(d).expect("dir");
        cfgs.push(config_file(&stack, d, &keys, limits));
    }
    let logs = [dirs[0].join("serve.log"), dirs[1].join("serve.log")];
    let mut servers = [spawn(&cfgs[0], &logs[0]), spawn(&cfgs[1], &logs[1])];

    // The stream: 1,000 order mails while both instances run.
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let streaming = tokio::spawn(async move {
        for n in 0..MAILS {
            sender.send(&order_mail(n)).await.expect("send");
        }
    });

    // Kill one instance or the other, ten times, each once the two have made progress since the
    // last kill; each is started again at once.
    let seed = std::process::id() as u64 | 1;
    eprintln!("chaos: seed {seed}");
    let mut dice = Dice(seed);
    for _ in 0..KILLS {
        let base = count(&pool, "SELECT count(*) FROM ledger").await;
        wait_until(
            &pool,
            "SELECT count(*) FROM ledger",
            (base + 40 + dice.roll(60) as i64).min(MAILS as i64 - 1),
            Duration::from_secs(120),
        )
        .await;
        let k = dice.roll(2) as usize;
        servers[k].0.kill().expect("SIGKILL");
        let _ = servers[k].0.wait();
        servers[k] = spawn(&cfgs[k], &logs[k]);
    }
    streaming.await.expect("the stream");

    // Everything arrives: every mail processed, every answer and every result sent.
    wait_until(
        &pool,
        "SELECT count(*) FROM ledger WHERE message_id LIKE 'chaos-%'",
        MAILS as i64,
        Duration::from_secs(120),
    )
    .await;
    wait_until(
        &pool,
        "SELECT count(*) FROM phases WHERE phase = 'S1901M' AND adjudicated_at IS NOT NULL",
        GAMES as i64,
        Duration::from_secs(120),
    )
    .await;
    let start = Instant::now();
    while count(
        &pool,
        "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL",
    )
    .await
        > 0
    {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the outbox drains"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    drop(servers);

    // Nothing lost, nothing twice, in the store (the GM box also gets a copy of each game's
    // results, which Chancery reads and never answers).
    assert_eq!(
        count(
            &pool,
            "SELECT count(*) FROM ledger WHERE message_id LIKE 'chaos-%'"
        )
        .await,
        MAILS as i64
    );
    assert_eq!(
        count(
            &pool,
            "SELECT count(DISTINCT message_id) FROM ledger WHERE message_id LIKE 'chaos-%'"
        )
        .await,
        MAILS as i64
    );
    assert_eq!(
        count(
            &pool,
            "SELECT count(*) FROM messages WHERE message_id LIKE 'chaos-%'"
        )
        .await,
        MAILS as i64,
        "nothing processed twice"
    );
    assert_eq!(
        count(
            &pool,
            "SELECT count(DISTINCT in_reply_to) FROM outbox WHERE in_reply_to LIKE '%chaos-%'"
        )
        .await,
        MAILS as i64,
        "every mail answered"
    );
    assert_eq!(
        count(
            &pool,
            "SELECT count(*) FROM outbox WHERE in_reply_to LIKE '%chaos-%'"
        )
        .await,
        MAILS as i64,
        "every mail answered once"
    );
    assert_eq!(
        count(
            &pool,
            "SELECT count(*) FROM outbox WHERE failed_at IS NOT NULL"
        )
        .await,
        0
    );
    // Every deadline adjudicated once: one Spring and one Fall 1901 a game, one results mail a
    // player a game.
    assert_eq!(
        count(&pool, "SELECT count(*) FROM phases WHERE phase = 'S1901M'").await,
        GAMES as i64
    );
    assert_eq!(
        count(&pool, "SELECT count(*) FROM phases WHERE phase = 'F1901M'").await,
        GAMES as i64
    );
    assert_eq!(
        count(
            &pool,
            "SELECT count(*) FROM outbox WHERE kind = 'results' AND to_address LIKE 'player%'"
        )
        .await,
        (GAMES * POWERS.len()) as i64
    );

    // What the players received: no Message-ID twice; every answer and every result.
    let mut total = 0;
    for i in 0..POWERS.len() {
        let user = format!("player{}@example.test", i + 1);
        let seen = received_once(&stack, &user).await;
        total += seen.len();
    }
    // A player with no orders in yet is reminded 24 hours before each deadline, once at most
    // (how many had none in when the reminders went depends on the stream's pace).
    let seats = (GAMES * POWERS.len()) as i64;
    let reminders = count(&pool, "SELECT count(*) FROM outbox WHERE kind = 'reminder'").await;
    assert!(
        reminders <= seats,
        "{reminders} reminders for {seats} seats"
    );
    assert_eq!(
        count(
            &pool,
            "SELECT count(*) FROM (SELECT DISTINCT game_id, to_address FROM outbox
             WHERE kind = 'reminder') AS sub"
        )
        .await,
        reminders,
        "nobody reminded twice"
    );
    assert_eq!(
        total as i64,
        MAILS as i64 + seats + reminders,
        "an answer a mail, the results a seat, and the reminders"
    );
    let log_text: String = logs
        .iter()
        .map(|l| std::fs::read_to_string(l).unwrap_or_default())
        .collect();
    assert_eq!(
        log_text.matches("serving; database").count(),
        2 + KILLS,
        "each instance ran again after each kill"
    );
}
