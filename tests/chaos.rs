//! The chaos campaigns (issue 28; issue 29, campaign 1), over the real mail stack: `chancery
//! serve` processes are killed (SIGKILL) at random while order mails stream in (with press,
//! votes, player commands and confirmation copies among them) and games pass their deadlines.
//! Every mail is answered exactly once, every effect is stored once, every deadline is
//! adjudicated once, nothing is left unprocessed, and no mail is sent twice (the players'
//! mailboxes and the archive hold each Message-ID once). What each kill cut into is looked at a
//! moment before it and counted: a send begun, a transaction open, mail not yet in the ledger.
//!
//! - One instance on SQLite, killed 20 times.
//! - Two instances on one PostgreSQL database (issue 28), killed 10 times between them: the
//!   suite's server (`CHANCERY_TEST_POSTGRES`, as `scripts/test` runs it) or a private cluster
//!   this test starts with `scripts/postgres`.
//!
//! `scripts/test` streams 200 mails; `scripts/chaos` is the long campaign (1,000 mails and more:
//! `CHANCERY_CHAOS_MAILS`, `CHANCERY_CHAOS_KILLS`).

#[path = "common/database.rs"]
#[allow(dead_code)]
mod database;
#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;
#[path = "common/serve.rs"]
mod serve;

use chancery::store::{self, Pool};
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

/// A number from the environment, or `default`.
fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Order mails streamed (`CHANCERY_CHAOS_MAILS`, 200 unless set).
fn mails() -> usize {
    setting("CHANCERY_CHAOS_MAILS", 200)
}

/// What mail `n` carries besides its orders: every fifth mail of each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Extra {
    /// White press to all, published with the results.
    Press,
    /// A draw vote, kept secret.
    Vote,
    /// A copy to the confirmation mailbox (WM D.VII(7)): a receipt besides the answer.
    Copy,
    /// A player's command (`MAP OFF`).
    Command,
    Nothing,
}

fn extra(n: usize) -> Extra {
    [
        Extra::Press,
        Extra::Vote,
        Extra::Copy,
        Extra::Command,
        Extra::Nothing,
    ][n % 5]
}

/// How many of the first `mails` mails carry `e`.
fn with(mails: usize, e: Extra) -> i64 {
    (0..mails).filter(|&n| extra(n) == e).count() as i64
}

/// Games `wm1`..`wm4`, seven players each, started so that their Spring 1901 deadlines fall
/// `first` seconds from now and 10 seconds apart.
async fn games(pool: &Pool, first: i64) {
    let now = chrono::Utc::now().timestamp();
    for g in 0..GAMES {
        // A movement phase lasts 3 days: started that long before the deadline wanted.
        let started = now + first + 10 * g as i64 - 3 * chancery::policy::DAY;
        let deadline = serve::seven_player_game(pool, &format!("wm{}", g + 1), started).await;
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
    let mut to = vec!["gm@example.test".to_string()];
    match extra(n) {
        Extra::Press => body.push_str(&format!("PRESS TO ALL\nChaos note {n}.\nENDPRESS\n")),
        Extra::Vote => body.push_str("VOTE DRAW NO\n"),
        Extra::Copy => to.push("confirm@example.test".into()),
        Extra::Command => body.push_str("MAP OFF\n"),
        Extra::Nothing => {}
    }
    OutMail {
        from: format!("player{}@example.test", i + 1),
        to,
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

/// Where the campaign runs: the database the instances share, how many there are, how many
/// times one is killed.
struct Campaign<'a> {
    stack: &'a Stack,
    pool: Pool,
    /// The `database` of the instances' configuration.
    database: String,
    instances: usize,
    kills: usize,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_instance_on_sqlite_killed_twenty_times_answers_every_mail_once_and_adjudicates_every_deadline_once()
 {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("chancery.sqlite");
    // SQLite whatever the suite's database: one file, one instance.
    let pool = store::open(&file).await.expect("store");
    run(Campaign {
        stack: &stack,
        pool,
        database: file.display().to_string(),
        instances: 1,
        kills: setting("CHANCERY_CHAOS_KILLS", 20),
    })
    .await;
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
    run(Campaign {
        stack: &stack,
        pool,
        database: database::url_on(&server, &key),
        instances: 2,
        kills: setting("CHANCERY_CHAOS_KILLS", 10),
    })
    .await;
}

/// The stream, the kills, and what must hold after.
async fn run(c: Campaign<'_>) {
    let pool = &c.pool;
    let mails = mails();
    // The deadlines fall while the stream runs: about 25 mails a second reach the server.
    games(pool, 10 + (mails / 50) as i64).await;
    let servers = kill_while_streaming(&c, mails).await;
    settle(pool, mails).await;
    drop(servers);
    check_the_store(pool, mails).await;
    check_the_mailboxes(&c, mails).await;
}

/// Start the instances, stream the mails, and kill one instance at random `kills` times, each
/// once the ledger has moved on since the last kill and a random moment more has passed (a
/// fetch, a transaction or a send may be under way); each is started again at once.
async fn kill_while_streaming(c: &Campaign<'_>, mails: usize) -> Vec<serve::Server> {
    let dir = c.stack.dir.join("chancery");
    // Each instance's own configuration: the shared database and mailboxes, the masters' mail
    // to the TD, no answer limit (seven players write all the mails), and a send cut short
    // and not in the archive sent again after 10 s, not a minute (the archive is on the
    // relay's host).
    let keys = format!(
        "database = \"{}\"\npoll_seconds = 1\nsmtp_connections = 2\narchive_grace_seconds = 10\nmasters = [\"td@example.test\"]\n",
        c.database
    );
    let limits = "[limits]\nanswers_per_hour = 100000\ngame_answers_per_hour = 100000\n";
    let mut cfgs = Vec::new();
    let mut logs = Vec::new();
    let mut servers = Vec::new();
    for k in 0..c.instances {
        let d = dir.join(format!("instance{k}"));
        std::fs::create_dir_all(&d).expect("dir");
        cfgs.push(config_file(c.stack, &d, &keys, limits));
        logs.push(d.join("serve.log"));
        servers.push(spawn(&cfgs[k], &logs[k]));
    }
    let mut spawns = vec![1; c.instances];
    let sender = Sender::new(&c.stack.smtp_config()).expect("smtp");
    let streaming = tokio::spawn(async move {
        for n in 0..mails {
            sender.send(&order_mail(n)).await.expect("send");
        }
    });
    let seed = std::process::id() as u64 | 1;
    eprintln!("chaos: seed {seed}, {mails} mails, {} kills", c.kills);
    let mut dice = Dice(seed);
    let step = (mails / (c.kills + 2)).max(2) as u64;
    let mut under_way = UnderWay::default();
    let mut last_kill = 0;
    for _ in 0..c.kills {
        let base = count(&c.pool, "SELECT count(*) FROM ledger").await;
        wait_until(
            &c.pool,
            "SELECT count(*) FROM ledger",
            (base + (step / 2 + dice.roll(step)) as i64).min(mails as i64 - 1),
            Duration::from_secs(120),
        )
        .await;
        tokio::time::sleep(Duration::from_millis(dice.roll(300))).await;
        let k = dice.roll(c.instances as u64) as usize;
        // Killed at work, not before it has started serving.
        serving(&logs[k], spawns[k]).await;
        under_way.add(look_under_way(c, last_kill).await);
        servers[k].0.kill().expect("SIGKILL");
        last_kill = chrono::Utc::now().timestamp();
        let _ = servers[k].0.wait();
        servers[k] = spawn(&cfgs[k], &logs[k]);
        spawns[k] += 1;
    }
    eprintln!(
        "chaos: {} kills; a moment before each: a send under way {}, a transaction open {}, mail delivered and not yet in the ledger {}, none of these {}",
        c.kills, under_way.sends, under_way.transactions, under_way.unread, under_way.idle
    );
    streaming.await.expect("the stream");
    for k in 0..c.instances {
        serving(&logs[k], spawns[k]).await;
    }
    servers
}

/// What was under way when the instances were killed: of the kills, how many a moment before
/// found a send begun and not finished, a transaction open on the store, and mail delivered to
/// the two mailboxes that the ledger did not hold yet (to be fetched, or fetched and being
/// processed). A kill can find several at once, or none (the servers between two looks).
#[derive(Default)]
struct UnderWay {
    sends: usize,
    transactions: usize,
    unread: usize,
    idle: usize,
}

/// What one look found.
struct Look {
    send: bool,
    transaction: bool,
    unread: bool,
}

impl UnderWay {
    fn add(&mut self, l: Look) {
        self.sends += usize::from(l.send);
        self.transactions += usize::from(l.transaction);
        self.unread += usize::from(l.unread);
        self.idle += usize::from(!(l.send || l.transaction || l.unread));
    }
}

/// Look at the store and the mailboxes from outside, writing nothing (the SQLite probe may hold
/// the write lock for a moment, which a server waits out as it would another writer's).
/// A send counts if it was begun since the last kill (`last_kill`, in seconds): the sends that
/// kill cut short stay marked until they are settled against the archive.
async fn look_under_way(c: &Campaign<'_>, last_kill: i64) -> Look {
    let mut conn = c.pool.acquire().await.expect("conn");
    let sends: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM outbox WHERE sending_since >= $1 AND sent_at IS NULL AND failed_at IS NULL",
    )
    .bind(last_kill)
    .fetch_one(&mut *conn)
    .await
    .expect("sends");
    drop(conn);
    let delivered =
        c.stack.delivered("gm@example.test") + c.stack.delivered("confirm@example.test");
    let ledger = count(&c.pool, "SELECT count(*) FROM ledger").await;
    Look {
        send: sends > 0,
        transaction: transaction_open(c).await,
        unread: delivered as i64 > ledger,
    }
}

/// Whether a server has a transaction open on the store: on PostgreSQL, a session of the
/// database in a transaction; on SQLite, the write lock taken (a write that cannot begin at
/// once; one that can is rolled back at once).
async fn transaction_open(c: &Campaign<'_>) -> bool {
    use sqlx::Connection;
    if c.database.starts_with("postgres") {
        return count(
            &c.pool,
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL",
        )
        .await
            > 0;
    }
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&c.database)
        .busy_timeout(Duration::ZERO);
    // Opening may itself find the file locked (a restarted server recovering the WAL): busy.
    let Ok(mut probe) = sqlx::SqliteConnection::connect_with(&options).await else {
        return true;
    };
    let open = match sqlx::query("BEGIN IMMEDIATE").execute(&mut probe).await {
        Ok(_) => {
            sqlx::query("ROLLBACK")
                .execute(&mut probe)
                .await
                .expect("rollback");
            false
        }
        Err(_) => true,
    };
    let _ = probe.close().await;
    open
}

/// Wait until the instance logging to `log` has started serving `times` times.
async fn serving(log: &std::path::Path, times: usize) {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if text.matches("serving; database").count() >= times {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} did not start serving a {times}th time",
            log.display()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Wait until every mail is processed, every deadline adjudicated, and the outbox drained.
async fn settle(pool: &Pool, mails: usize) {
    wait_until(
        pool,
        "SELECT count(*) FROM ledger WHERE message_id LIKE 'chaos-%' AND mailbox = 'gm'",
        mails as i64,
        Duration::from_secs(120),
    )
    .await;
    wait_until(
        pool,
        "SELECT count(*) FROM ledger WHERE message_id LIKE 'chaos-%' AND mailbox = 'confirm'",
        with(mails, Extra::Copy),
        Duration::from_secs(120),
    )
    .await;
    wait_until(
        pool,
        "SELECT count(*) FROM phases WHERE phase = 'S1901M' AND adjudicated_at IS NOT NULL",
        GAMES as i64,
        Duration::from_secs(120),
    )
    .await;
    let start = Instant::now();
    while count(
        pool,
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
}

/// Nothing lost, nothing twice, in the store (the GM box also gets a copy of each game's
/// results, which Chancery reads and never answers).
async fn check_the_store(pool: &Pool, mails: usize) {
    let n = mails as i64;
    let copies = with(mails, Extra::Copy);
    for (sql, want, what) in [
        (
            "SELECT count(*) FROM ledger WHERE message_id LIKE 'chaos-%' AND mailbox = 'gm'",
            n,
            "every mail read once",
        ),
        (
            "SELECT count(DISTINCT message_id) FROM ledger WHERE message_id LIKE 'chaos-%' AND mailbox = 'gm'",
            n,
            "every mail read",
        ),
        (
            "SELECT count(*) FROM ledger WHERE message_id LIKE 'chaos-%' AND mailbox = 'confirm'",
            copies,
            "every copy read once",
        ),
        (
            "SELECT count(*) FROM messages WHERE message_id LIKE 'chaos-%' AND mailbox = 'gm'",
            n,
            "nothing processed twice",
        ),
        (
            "SELECT count(DISTINCT in_reply_to) FROM outbox WHERE in_reply_to LIKE '%chaos-%' AND kind <> 'receipt'",
            n,
            "every mail answered",
        ),
        (
            "SELECT count(*) FROM outbox WHERE in_reply_to LIKE '%chaos-%' AND kind <> 'receipt'",
            n,
            "every mail answered once",
        ),
        (
            "SELECT count(*) FROM outbox WHERE in_reply_to LIKE '%chaos-%' AND kind = 'receipt'",
            copies,
            "every copy receipted once",
        ),
        (
            "SELECT count(*) FROM outbox WHERE failed_at IS NOT NULL",
            0,
            "no mail given up",
        ),
        // Every deadline adjudicated once: one Spring and one Fall 1901 a game, one results
        // mail a player a game.
        (
            "SELECT count(*) FROM phases WHERE phase = 'S1901M'",
            GAMES as i64,
            "one Spring a game",
        ),
        (
            "SELECT count(*) FROM phases WHERE phase = 'F1901M'",
            GAMES as i64,
            "one Fall a game",
        ),
        (
            "SELECT count(*) FROM outbox WHERE kind = 'results' AND to_address LIKE 'player%'",
            (GAMES * POWERS.len()) as i64,
            "one results mail a seat",
        ),
    ] {
        assert_eq!(count(pool, sql).await, want, "{what}: {sql}");
    }
    // The mails that came after their game's deadline were refused as late (WM D.VII(3));
    // every other one's orders and press are stored, once.
    let accepted: Vec<usize> = sqlx::query_scalar::<_, String>(
        "SELECT message_id FROM messages WHERE mailbox = 'gm' AND outcome = 'accepted'
         AND message_id LIKE 'chaos-%'",
    )
    .fetch_all(pool)
    .await
    .expect("accepted")
    .iter()
    .filter_map(|id| id.strip_prefix("chaos-")?.split('@').next()?.parse().ok())
    .collect();
    let late = count(
        pool,
        "SELECT count(*) FROM messages WHERE mailbox = 'gm' AND outcome = 'rejected'
         AND message_id LIKE 'chaos-%'",
    )
    .await;
    eprintln!(
        "chaos: {} mails accepted, {late} refused as late",
        accepted.len()
    );
    assert_eq!(accepted.len() as i64 + late, n, "accepted or refused, each");
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM submissions WHERE message_id LIKE '%chaos-%'"
        )
        .await,
        accepted.len() as i64,
        "every set of orders stored once"
    );
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM press WHERE body LIKE 'Chaos note %'"
        )
        .await,
        accepted
            .iter()
            .filter(|&&k| extra(k) == Extra::Press)
            .count() as i64,
        "every press stored once"
    );
    // A voter's ballot is one row however often it was sent (a later one replaces it).
    assert!(
        count(pool, "SELECT count(*) FROM office_ballots").await <= (GAMES * POWERS.len()) as i64
    );
}

/// What the players and the archive received: no Message-ID twice; every answer, receipt and
/// result.
async fn check_the_mailboxes(c: &Campaign<'_>, mails: usize) {
    let (pool, stack) = (&c.pool, c.stack);
    let mut total = 0;
    for i in 0..POWERS.len() {
        let user = format!("player{}@example.test", i + 1);
        total += received_once(stack, &user).await.len();
    }
    // A player with no orders in yet is reminded 24 hours before each deadline, once at most
    // (how many had none in when the reminders went depends on the stream's pace).
    let seats = (GAMES * POWERS.len()) as i64;
    let reminders = count(pool, "SELECT count(*) FROM outbox WHERE kind = 'reminder'").await;
    assert!(
        reminders <= seats,
        "{reminders} reminders for {seats} seats"
    );
    assert_eq!(
        count(
            pool,
            "SELECT count(*) FROM (SELECT DISTINCT game_id, to_address FROM outbox
             WHERE kind = 'reminder') AS sub"
        )
        .await,
        reminders,
        "nobody reminded twice"
    );
    assert_eq!(
        total as i64,
        mails as i64 + with(mails, Extra::Copy) + seats + reminders,
        "an answer a mail, a receipt a copy, the results a seat, and the reminders"
    );
    // The archive keeps a copy of every mail sent (the relay's blind copy), each once.
    let sent = count(
        pool,
        "SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL",
    )
    .await;
    let start = Instant::now();
    let archived = loop {
        let archived = received_once(stack, "archive@example.test").await.len() as i64;
        if archived >= sent || start.elapsed() > Duration::from_secs(30) {
            break archived;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    eprintln!("chaos: {total} mails to the players, {archived} archived of {sent} sent");
    assert_eq!(archived, sent, "the archive holds every mail sent, once");
}
