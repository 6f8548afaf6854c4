//! A Nomic on a real SQLite file for the engine-level tests: five players on their days
//! (Nomic 201), raw mails delivered straight to the engine, the clock passed in.

#[path = "nomic_plan.rs"]
mod plan;
pub use plan::*;

#[path = "engine.rs"]
#[allow(dead_code)]
mod fixtures;

pub use fixtures::{deliver, env, raw};

use chancery::engine::Processed;
use chancery::games;
use chancery::games::nomic::admin::{self, NewNomic, NewSeat};
use chancery::policy::{DAY, Ts};
use chancery::store;

use chancery::store::Pool;
use sqlx::Row;
use std::collections::BTreeMap;

pub const GAME: &str = "n1";
pub const GM: &str = "gm@example.test";

pub fn address(i: usize) -> String {
    format!("nomic{}@example.test", i + 1)
}

/// The game and its mail.
pub struct Game {
    pub pool: Pool,
    pub uid: u32,
}

impl Game {
    pub async fn mail(&mut self, i: usize, subject: &str, body: &str, at: Ts) -> Processed {
        self.uid += 1;
        let bytes = raw(
            &address(i),
            GM,
            subject,
            &format!("Message-ID: <n{}@sender.example.test>\r\n", self.uid),
            &format!("SECRET {}\n{body}\n", secret(i)),
        );
        deliver(&self.pool, "gm", self.uid, &bytes, Some(at), at).await
    }

    pub async fn tick(&self, at: Ts) {
        games::tick(&self.pool, &env(), at).await.expect("tick");
    }

    /// The outbox rows to `to` whose subject contains `part`: their bodies.
    pub async fn mails_to(&self, to: &str, part: &str) -> Vec<String> {
        let mut c = self.pool.acquire().await.expect("conn");
        sqlx::query("SELECT subject, body FROM outbox WHERE to_address = $1 ORDER BY id")
            .bind(to)
            .fetch_all(&mut *c)
            .await
            .expect("outbox")
            .iter()
            .filter(|r| r.get::<String, _>(0).contains(part))
            .map(|r| format!("{}\n{}", r.get::<String, _>(0), r.get::<String, _>(1)))
            .collect()
    }

    pub async fn last_to(&self, i: usize) -> String {
        self.mails_to(&address(i), "")
            .await
            .pop()
            .unwrap_or_default()
    }

    pub async fn points(&self) -> BTreeMap<String, i64> {
        let mut c = self.pool.acquire().await.expect("conn");
        let mut out: BTreeMap<String, i64> =
            PLAYERS.iter().map(|(n, _)| (n.to_string(), 0)).collect();
        for r in store::nomic::points(&mut c, GAME).await.expect("points") {
            *out.entry(r.player).or_insert(0) += r.points;
        }
        out
    }
}

pub async fn new_game(name: &str, start: Ts) -> Game {
    let dir = std::env::temp_dir().join(format!("chancery-nomic-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pool = fixtures::database::open(&dir.join("chancery.sqlite")).await;
    let mut c = pool.acquire().await.expect("conn");
    let n = NewNomic {
        id: GAME,
        preset: "nomic2019",
        gm_address: GM,
        confirm_address: "confirm@example.test",
    };
    admin::create_game(&mut c, &n, start - DAY)
        .await
        .expect("create");
    let g = store::game(&mut c, GAME).await.expect("game").expect("row");
    for (i, (name, day)) in PLAYERS.iter().enumerate() {
        let s = NewSeat {
            name,
            address: &address(i),
            day: *day,
            tz: "Europe/London",
            secret: Some(&secret(i)),
        };
        admin::add_player(&mut c, None, &g, &s, start - DAY)
            .await
            .expect("seat");
    }
    drop(c);
    games::start_game_and_tell(&pool, &env(), GAME, start)
        .await
        .expect("start");
    Game { pool, uid: 0 }
}
