//! The load campaign (issue 29, campaign 7): a day of a server's life in a short real time, over
//! the real mail stack. A `chancery serve` process runs its games on a fast clock (a game day
//! over the run) while every seat of every game mails its orders (some with press, some with a
//! confirmation copy), and the games' deadlines fall through the day. Sampled throughout: the
//! server's memory (RSS) and `chancery status`. At the end: every mail answered once and within
//! its target, every deadline that fell adjudicated once, the memory flat.
//!
//! `scripts/test` runs a short day (40 games over 40 s); `scripts/load [GAMES] [SECONDS]` runs
//! the long one (1,000 games over an hour by default), in release.

#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;
#[path = "common/serve.rs"]
#[allow(dead_code)]
mod serve;

use chancery::store::{self, Pool};
use chancery::transport::smtp::{OutMail, Sender};
use mailstack::Stack;
use serve::{config_file, count, wait_until};
use sqlx::Row;
use std::time::{Duration, Instant};

const POWERS: [&str; 7] = [
    "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
];
const DAY: i64 = 86_400;
/// Every answer is sent within this many real seconds of its mail's arrival.
const ANSWER_TARGET_SECS: f64 = 30.0;
/// And 99 in 100 within this many.
const ANSWER_P99_SECS: f64 = 10.0;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The run: how many games, over how many real seconds (one game day).
struct Day {
    games: usize,
    seconds: u64,
    /// Game seconds per real second.
    speed: u32,
}

fn day() -> Day {
    let seconds = setting("CHANCERY_LOAD_SECONDS", 40).max(10);
    Day {
        games: setting("CHANCERY_LOAD_GAMES", 40).max(1) as usize,
        seconds,
        speed: u32::try_from(DAY as u64 / seconds).unwrap_or(u32::MAX),
    }
}

/// Games `l0`.. with seven players each, started so that their Spring 1901 deadlines fall
/// through the game day that begins at `now`, the first two game hours in.
async fn games(pool: &Pool, now: i64, n: usize) -> Vec<i64> {
    let mut deadlines = Vec::new();
    for g in 0..n {
        let deadline = now + 2 * 3600 + (g as i64) * (DAY - 4 * 3600) / n as i64;
        let d = serve::seven_player_game(pool, &format!("l{g}"), deadline - 3 * DAY).await;
        assert_eq!(d, deadline);
        deadlines.push(deadline);
    }
    deadlines
}

/// Seat mail `n`: a power of a game holding, every fifth with press, every seventh copied to
/// the confirmation mailbox.
fn order_mail(n: usize, games: usize) -> OutMail {
    let board = chancery::adjudicator::Board::initial(chancery::map::Map::standard());
    let map = chancery::map::Map::standard();
    let (g, i) = (n % games, (n / games) % POWERS.len());
    let power = map.power_by_name(POWERS[i]).expect("power");
    let mut body = format!("SECRET s{}\n", i + 1);
    for u in board.units.iter().filter(|u| u.power == power) {
        body.push_str(&format!("{} H\n", map.unit_name(u.unit_type, u.location)));
    }
    if n.is_multiple_of(5) {
        body.push_str(&format!("PRESS TO ALL\nLoad note {n}.\nENDPRESS\n"));
    }
    let mut to = vec!["gm@example.test".to_string()];
    if n.is_multiple_of(7) {
        to.push("confirm@example.test".into());
    }
    OutMail {
        from: format!("player{}@example.test", i + 1),
        to,
        subject: format!("l{g} {} S1901M", POWERS[i]),
        body,
        message_id: format!("load-{n}@players.example.test"),
        in_reply_to: None,
        references: Vec::new(),
        auto_submitted: "no",
        extra_headers: Vec::new(),
        html: None,
    }
}

/// The server's resident memory, in kB.
fn rss_kb(pid: u32) -> Option<u64> {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `chancery status`: whether it says all is well, and the outgoing mail pending.
fn status(cfg: &std::path::Path) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chancery"))
        .args(["status", "--config"])
        .arg(cfg)
        .output()
        .expect("chancery status");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_day_of_a_busy_server_answers_every_mail_in_time_runs_every_deadline_once_in_flat_memory()
{
    chancery::transport::init_crypto();
    let day = day();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("chancery.sqlite");
    let pool = store::open(&file).await.expect("store");
    let now = chrono::Utc::now().timestamp();
    let deadlines = games(&pool, now, day.games).await;
    let keys = format!(
        "database = \"{}\"\npoll_seconds = 1\nmasters = [\"td@example.test\"]\n",
        file.display()
    );
    let limits = "[limits]\nanswers_per_hour = 100000\ngame_answers_per_hour = 100000\n";
    let cfg = config_file(&stack, &dir, &keys, limits);
    let log = dir.join("serve.log");
    let server = serve::spawn_with(&cfg, &log, &["--clock-speed", &day.speed.to_string()]);
    let pid = server.0.id();
    let started = Instant::now();

    // The seats' mails, spread over the first four fifths of the day.
    let mails = day.games * POWERS.len();
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let spacing = Duration::from_secs_f64(day.seconds as f64 * 0.8 / mails as f64);
    let (games_n, stream_start) = (day.games, Instant::now());
    let streaming = tokio::spawn(async move {
        for n in 0..mails {
            let due = stream_start + spacing * n as u32;
            tokio::time::sleep_until(due.into()).await;
            sender.send(&order_mail(n, games_n)).await.expect("send");
        }
    });

    // Sampled through the day: memory and `chancery status`.
    let mut rss = Vec::new();
    let mut pending_max = 0u64;
    while started.elapsed() < Duration::from_secs(day.seconds) {
        tokio::time::sleep(Duration::from_secs(2)).await;
        rss.push(rss_kb(pid).expect("the server runs"));
        let (ok, text) = status(&cfg);
        assert!(ok, "chancery status at {:?}:\n{text}", started.elapsed());
        assert!(
            text.contains("messages set aside: 0") && text.contains(" 0 failed"),
            "{text}"
        );
        let pending = text
            .lines()
            .find_map(|l| l.strip_prefix("outgoing mail: "))
            .and_then(|l| l.split_whitespace().next()?.parse().ok())
            .unwrap_or(0);
        pending_max = pending_max.max(pending);
    }
    streaming.await.expect("the stream");

    // Every mail read and answered; every deadline that fell adjudicated, once.
    wait_until(
        &pool,
        "SELECT count(*) FROM ledger WHERE message_id LIKE 'load-%' AND mailbox = 'gm'",
        mails as i64,
        Duration::from_secs(120),
    )
    .await;
    let game_now = now + (started.elapsed().as_secs() as i64) * i64::from(day.speed);
    let fell = deadlines.iter().filter(|d| **d + 3600 < game_now).count() as i64;
    wait_until(
        &pool,
        "SELECT count(*) FROM phases WHERE phase = 'S1901M' AND adjudicated_at IS NOT NULL",
        fell,
        Duration::from_secs(120),
    )
    .await;
    wait_until(
        &pool,
        "SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL AND in_reply_to LIKE '%load-%'",
        mails as i64 + mails.div_ceil(7) as i64,
        Duration::from_secs(120),
    )
    .await;
    drop(server);
    for (sql, want, what) in [
        (
            "SELECT count(*) FROM messages WHERE mailbox = 'gm' AND message_id LIKE 'load-%'",
            mails as i64,
            "every mail read once",
        ),
        (
            "SELECT count(*) FROM outbox WHERE in_reply_to LIKE '%load-%' AND kind <> 'receipt'",
            mails as i64,
            "every mail answered once",
        ),
        (
            "SELECT count(*) FROM outbox WHERE failed_at IS NOT NULL",
            0,
            "no mail given up",
        ),
    ] {
        assert_eq!(count(&pool, sql).await, want, "{what}: {sql}");
    }
    let adjudicated = count(
        &pool,
        "SELECT count(*) FROM phases WHERE phase = 'S1901M' AND adjudicated_at IS NOT NULL",
    )
    .await;
    assert!(adjudicated >= fell, "{adjudicated} of {fell} deadlines run");
    assert_eq!(
        count(&pool, "SELECT count(*) FROM phases WHERE phase = 'F1901M'").await,
        adjudicated,
        "each deadline run once"
    );

    // Each answer's delay, from the mail's arrival to its sending, in real seconds.
    let mut delays: Vec<f64> = sqlx::query(
        "SELECT o.sent_at - m.received_at AS delay FROM outbox o
         JOIN messages m ON o.in_reply_to IN (m.message_id, '<' || m.message_id || '>')
         WHERE m.mailbox = 'gm' AND m.message_id LIKE 'load-%' AND o.kind <> 'receipt'",
    )
    .fetch_all(&pool)
    .await
    .expect("delays")
    .iter()
    .map(|r| r.get::<i64, _>("delay") as f64 / f64::from(day.speed))
    .collect();
    delays.sort_by(f64::total_cmp);
    assert_eq!(delays.len(), mails);
    let p = |q: f64| delays[((delays.len() - 1) as f64 * q) as usize];
    let (p50, p99, max) = (p(0.5), p(0.99), p(1.0));
    // Memory: after the first quarter (warmed up), the last quarter is no higher than half
    // again (and 20 MB).
    let quarter = (rss.len() / 4).max(1);
    let early = rss[quarter.min(rss.len() - 1)..rss.len() / 2 + 1]
        .iter()
        .max()
        .copied()
        .unwrap_or(0);
    let late = rss[rss.len() * 3 / 4..].iter().max().copied().unwrap_or(0);
    eprintln!(
        "load: {} games, {mails} mails over {} s at {}x: answers p50 {p50:.2} s, p99 {p99:.2} s, max {max:.2} s; {adjudicated} deadlines run; RSS {} MB early, {} MB late; at most {pending_max} mails pending",
        day.games,
        day.seconds,
        day.speed,
        early / 1024,
        late / 1024
    );
    assert!(
        max <= ANSWER_TARGET_SECS && p99 <= ANSWER_P99_SECS,
        "answers: p99 {p99:.2} s, max {max:.2} s"
    );
    assert!(
        late <= early + early / 2 + 20 * 1024,
        "memory grew: {early} kB then {late} kB"
    );
}
