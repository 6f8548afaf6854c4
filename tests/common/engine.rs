//! Engine fixtures on a real database (a SQLite file, or PostgreSQL: `database.rs`): games with seven players, raw mails delivered
//! straight to the engine, and what the outbox holds.

#[path = "database.rs"]
pub mod database;

use chancery::engine::{self, Env, Incoming, Processed};
use chancery::games;
use chancery::policy::Ts;
use chancery::rules::Rules;
use chancery::store::Pool;
use chancery::store::{self, PlayerRow};
use sqlx::Row;

pub const T0: Ts = 1_795_000_000;
pub const POWERS: [&str; 7] = [
    "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
];

pub fn env() -> Env {
    Env {
        authserv_id: "mx.example.test".into(),
        message_id_domain: "chancery.example.test".into(),
        masters: vec!["td@example.test".into()],
        alert_from: "gm@example.test".into(),
        confirm_from: "confirm@example.test".into(),
        key: chancery::config::ServerKey::new(b"the tests' server key"),
        ..Env::default()
    }
}

pub fn player(i: usize) -> String {
    format!("player{}@example.test", i + 1)
}

/// A fresh database in the temporary directory, with `games` started (seven players each).
pub async fn setup(name: &str, games: &[&str]) -> Pool {
    let dir = std::env::temp_dir().join(format!("chancery-engine-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    setup_at(&dir.join("chancery.sqlite"), games).await
}

/// The database at `path`, with `games` started: the default rules with the subject format
/// spelled out, players `player1..7@example.test` with secrets `s1..s7`, started at [`T0`].
pub async fn setup_at(path: &std::path::Path, games: &[&str]) -> Pool {
    setup_on(database::open(path).await, games).await
}

/// [`setup_at`] on a store already open.
pub async fn setup_on(pool: Pool, games: &[&str]) -> Pool {
    let rules = Rules {
        subject_format: "{game} {power} {phase}".into(),
        ..Rules::default()
    };
    for g in games {
        let mut c = pool.acquire().await.expect("conn");
        store::create_game(
            &mut c,
            g,
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
                g,
                &PlayerRow {
                    power: power.to_string(),
                    address: player(i),
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
        games::start_game(&pool, g, T0).await.expect("start");
    }
    pool
}

pub fn raw(from: &str, to: &str, subject: &str, extra: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: Thu, 19 Nov 2026 10:00:00 +0000\r\n{extra}\r\n{body}"
    )
    .into_bytes()
}

/// Process a raw mail as UID `uid` of `mailbox`, arrived at `arrived`, read at `now`.
pub async fn deliver(
    pool: &Pool,
    mailbox: &str,
    uid: u32,
    bytes: &[u8],
    arrived: Option<Ts>,
    now: Ts,
) -> Processed {
    let inc = Incoming {
        mailbox,
        uidvalidity: 1,
        uid,
        raw: bytes,
        arrived,
        wait_for_claim: false,
        passed_over: None,
    };
    games::process_message(pool, &env(), &inc, &engine::read(bytes), now)
        .await
        .expect("process")
}

/// Outgoing mail: (kind, to, subject, body).
pub async fn outbox(pool: &Pool) -> Vec<(String, String, String, String)> {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query("SELECT kind, to_address, subject, body FROM outbox ORDER BY id")
        .fetch_all(&mut *c)
        .await
        .expect("outbox")
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
        .collect()
}

/// A wm2004 game set up as a GM does (`options` changed from the preset), not started: players
/// `player1..7@example.test` (France's in Europe/Paris); returns the pool and their secrets.
pub async fn wm_game(name: &str, id: &str, options: &[(String, String)]) -> (Pool, Vec<String>) {
    game_with(name, id, "wm2004", options).await
}

/// A game on `preset` set up as a GM does, as [`wm_game`].
pub async fn game_with(
    name: &str,
    id: &str,
    preset: &str,
    options: &[(String, String)],
) -> (Pool, Vec<String>) {
    let dir = std::env::temp_dir().join(format!("chancery-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pool = database::open(&dir.join("chancery.sqlite")).await;
    chancery::games::diplomacy::admin::create_game(
        &pool,
        &chancery::games::diplomacy::admin::NewGame {
            id,
            preset,
            variant: "standard",
            gm_address: "gm@example.test",
            confirm_address: "confirm@example.test",
            options,
        },
        T0,
    )
    .await
    .expect("create");
    let mut secrets = Vec::new();
    for (i, power) in POWERS.iter().enumerate() {
        let p = chancery::games::diplomacy::admin::add_player(
            &pool,
            &chancery::games::diplomacy::admin::NewPlayer {
                game: id,
                power,
                address: &player(i),
                name: "",
                tz: if i == 2 { "Europe/Paris" } else { "UTC" },
                secret: None,
            },
        )
        .await
        .expect("player");
        secrets.push(p.secret);
    }
    (pool, secrets)
}
