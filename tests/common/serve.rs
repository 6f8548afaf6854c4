//! Real `chancery serve` processes over the loopback mail stack, for the tests that kill them
//! (SIGKILL) mid-stream: started from a configuration file, killed when dropped, and the
//! store and the players' mailboxes read to see that nothing was lost or done twice.

use super::mailstack::{Stack, raw_inbox};
use chancery::store::Pool;
use sqlx::Row;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server process, killed when dropped: a failing test leaves no server behind.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `chancery serve --config CFG`, its log appended to `log`.
pub fn spawn(cfg: &Path, log: &Path) -> Server {
    spawn_with(cfg, log, &[])
}

/// [`spawn`] with more arguments (`--clock-speed N`).
pub fn spawn_with(cfg: &Path, log: &Path, more: &[&str]) -> Server {
    let err = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .expect("log");
    Server(
        Command::new(env!("CARGO_BIN_EXE_chancery"))
            .args(["serve", "--config"])
            .arg(cfg)
            .args(more)
            .stdout(Stdio::null())
            .stderr(err)
            .spawn()
            .expect("start chancery serve"),
    )
}

/// The one number `sql` counts.
pub async fn count(pool: &Pool, sql: &'static str) -> i64 {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query(sql)
        .fetch_one(&mut *c)
        .await
        .expect("query")
        .get(0)
}

/// Wait until `sql` counts at least `at_least`, for at most `limit`.
pub async fn wait_until(pool: &Pool, sql: &'static str, at_least: i64, limit: Duration) {
    let start = Instant::now();
    while count(pool, sql).await < at_least {
        assert!(
            start.elapsed() < limit,
            "'{sql}' did not reach {at_least} in {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A server's configuration for `stack`, in `dir`: `keys` (the database and the test's own
/// settings) first, then the SMTP relay, the GM, confirmation and archive mailboxes, and
/// `tables` (the test's own, such as `[limits]`).
pub fn config_file(stack: &Stack, dir: &Path, keys: &str, tables: &str) -> PathBuf {
    let cfg = dir.join("chancery.toml");
    let server = |user: &str| {
        format!(
            "host = \"127.0.0.1\"\nport = {}\ntls = \"none\"\nusername = \"{user}\"\npassword = \"secret\"\n",
            stack.imap_port()
        )
    };
    std::fs::write(
        &cfg,
        format!(
            "{keys}authserv_id = \"mx.example.test\"\nmessage_id_domain = \"chancery.example.test\"\n\n\
             [smtp]\nhost = \"127.0.0.1\"\nport = {}\ntls = \"none\"\n\n[gm_mailbox]\n{}\n[confirm_mailbox]\n{}\n[archive_mailbox]\n{}\n{tables}",
            stack.smtp_port(),
            server("gm@example.test"),
            server("confirm@example.test"),
            server("archive@example.test"),
        ),
    )
    .expect("config");
    cfg
}

/// Each Message-ID in `user`'s inbox, with how many times it is there.
pub async fn received(stack: &Stack, user: &str) -> HashMap<String, usize> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for raw in raw_inbox(stack, user).await {
        let m = chancery::message::read_message(&raw).expect("readable");
        *seen.entry(m.message_id.unwrap_or_default()).or_default() += 1;
    }
    seen
}

/// `user`'s inbox, as [`received`] counts it, with no Message-ID twice (a mail sent twice fails
/// the test).
pub async fn received_once(stack: &Stack, user: &str) -> HashMap<String, usize> {
    let seen = received(stack, user).await;
    let twice: Vec<&String> = seen
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(k, _)| k)
        .collect();
    assert!(twice.is_empty(), "{user} got these twice: {twice:?}");
    seen
}

/// Game `id` on the standard map with the default rules and seven players
/// (`player1..7@example.test`, secrets `s1..s7`), started at `started`: its first deadline.
pub async fn seven_player_game(pool: &Pool, id: &str, started: i64) -> i64 {
    const POWERS: [&str; 7] = [
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
    ];
    let rules = serde_json::to_string(&chancery::rules::Rules::default()).expect("rules");
    let mut c = pool.acquire().await.expect("conn");
    chancery::store::create_game(
        &mut c,
        id,
        "standard",
        &rules,
        "gm@example.test",
        "confirm@example.test",
        started,
    )
    .await
    .expect("game");
    for (i, p) in POWERS.iter().enumerate() {
        chancery::store::add_player(
            &mut c,
            id,
            &chancery::store::PlayerRow {
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
    chancery::games::start_game(pool, id, started)
        .await
        .expect("start")
}
