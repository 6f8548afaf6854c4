//! A championship (the ACWC office) on a real SQLite file for the engine-level tests: made from
//! the `acwc2019` preset with a Tournament Director, entrants' mails delivered straight to the
//! engine, the TD's commands at the console, and what the outbox holds.

#[path = "engine.rs"]
#[allow(dead_code)]
mod fixtures;
pub use fixtures::{deliver, env, raw};

use chancery::commands::GmCommand;
use chancery::engine::Processed;
use chancery::games;
use chancery::games::acwc::admin::{NewChampionship, create};
use chancery::policy::{DAY, Ts};
use chancery::store::Pool;
use chancery::store::{self, acwc::StageRow};
use sqlx::Row;

pub const GAME: &str = "acwc19";
pub const GM: &str = "gm@example.test";
/// The Tournament Director, a master of the championship.
pub const TD: &str = "td@example.test";
/// Monday 30 September 2019, 00:00 UTC: the first round's pairings.
pub const T0: Ts = 1_569_801_600;

/// Nine entrants (account, cut-off rating, peak): the holder and the runner-up (the fixed
/// qualifiers, who skip the Swiss) and seven who play it, a bye each round.
pub const NINE: [(&str, u32, u32); 9] = [
    ("arimakat", 2450, 2500),
    ("Ogul1", 2300, 2380),
    ("alice", 2101, 2250),
    ("bob", 2050, 2100),
    ("carol", 1900, 2000),
    ("dave", 1890, 1990),
    ("erin", 1700, 1850),
    ("frank", 1650, 1700),
    ("grace", 1500, 1500),
];

pub fn address(account: &str) -> String {
    format!("{}@example.test", account.to_lowercase())
}

/// A championship and its entrants' secrets.
pub struct Champ {
    pub pool: Pool,
    pub uid: u32,
    pub secrets: std::collections::BTreeMap<String, String>,
}

impl Champ {
    /// `account`'s mail with `body` (and its secret, once approved), arriving at `at`.
    pub async fn mail(&mut self, account: &str, body: &str, at: Ts) -> Processed {
        self.uid += 1;
        let secret = self
            .secrets
            .get(account)
            .map(|s| format!("SECRET {s}\n"))
            .unwrap_or_default();
        let bytes = raw(
            &address(account),
            GM,
            &format!("{GAME} match"),
            &format!("Message-ID: <a{}@sender.example.test>\r\n", self.uid),
            &format!("{secret}{body}\n"),
        );
        deliver(&self.pool, "gm", self.uid, &bytes, Some(at), at).await
    }

    /// The TD's command at the console, which must be done: its answer.
    pub async fn command(&self, cmd: GmCommand, at: Ts) -> String {
        let done = games::console_command(&self.pool, &env(), GAME, &cmd, at)
            .await
            .expect("command");
        assert!(done.ok, "{}", done.answer);
        done.answer
    }

    /// Every mail to `to`, its subject and body, with the wrapping undone (one space between
    /// words).
    pub async fn texts(&self, to: &str) -> Vec<(String, String)> {
        let mut c = self.pool.acquire().await.expect("conn");
        sqlx::query("SELECT subject, body FROM outbox WHERE to_address = $1 ORDER BY id")
            .bind(to)
            .fetch_all(&mut *c)
            .await
            .expect("outbox")
            .iter()
            .map(|r| {
                let flat = |s: String| s.split_whitespace().collect::<Vec<_>>().join(" ");
                (flat(r.get(0)), flat(r.get(1)))
            })
            .collect()
    }

    /// The mails to `to` whose subject contains `part`: subject and body, wrapping undone.
    pub async fn mails(&self, to: &str, part: &str) -> Vec<String> {
        self.texts(to)
            .await
            .into_iter()
            .filter(|(s, _)| s.contains(part))
            .map(|(s, b)| format!("{s} {b}"))
            .collect()
    }

    /// The mails to `to` whose subject or body contains `part`: subject and body, wrapping
    /// undone.
    pub async fn mails_containing(&self, to: &str, part: &str) -> Vec<String> {
        self.texts(to)
            .await
            .into_iter()
            .map(|(s, b)| format!("{s} {b}"))
            .filter(|m| m.contains(part))
            .collect()
    }

    /// The Swiss's pairings and results as stored.
    pub async fn matches(&self) -> Vec<store::acwc::MatchRow> {
        let mut c = self.pool.acquire().await.expect("conn");
        store::acwc::matches(&mut c, GAME, StageRow::Swiss)
            .await
            .expect("matches")
    }

    /// The TD approves each of `accounts`; each one's secret read from their mail.
    pub async fn approve_all(&mut self, accounts: &[&str], at: Ts) {
        for account in accounts {
            self.command(GmCommand::Approve(account.to_string()), at)
                .await;
            let mail = self
                .mails(&address(account), "your entry is approved")
                .await
                .join(" ");
            let secret = mail
                .split("Your secret: ")
                .nth(1)
                .and_then(|s| s.split_whitespace().next())
                .expect("a secret")
                .to_string();
            self.secrets.insert(account.to_string(), secret);
        }
    }
}

/// A championship made from the `acwc2019` preset a week before [`T0`], with its TD.
pub async fn open(name: &str) -> Champ {
    let dir = std::env::temp_dir().join(format!("chancery-acwc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pool = fixtures::database::open(&dir.join("chancery.sqlite")).await;
    let mut c = pool.acquire().await.expect("conn");
    let n = NewChampionship {
        id: GAME,
        preset: "acwc2019",
        gm_address: GM,
        confirm_address: "confirm@example.test",
    };
    create(&mut c, &n, T0 - 7 * DAY).await.expect("create");
    drop(c);
    chancery::engine::admin::add_member(&pool, GAME, store::Role::Td, TD, "UTC", T0 - 7 * DAY)
        .await
        .expect("td");
    Champ {
        pool,
        uid: 0,
        secrets: Default::default(),
    }
}
