//! Issue 26: the ACWC match-time negotiation by mail (ACWC "Match negotiations"), through the
//! engine on a real SQLite file with the clock passed in. Five entrants, round 1 published on
//! Monday 30 September 2019: offers refused with the reason (a third on one date, two hours
//! apart); a valid offer, a reminder for it unanswered after 24 hours (sent once), and its
//! acceptance told to both players; a player short of 3 offers by Wednesday at fault and the
//! opponent choosing the time; in round 2, both players short of offers and the TD assigning a
//! time with `ASSIGN`.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::{deliver, env, raw};

use chancery::commands::GmCommand;
use chancery::engine::Processed;
use chancery::games;
use chancery::games::acwc::admin::{NewChampionship, create};
use chancery::policy::{DAY, HOUR, Ts};
use chancery::store::{self, acwc::StageRow};
use sqlx::{Row, SqlitePool};

const GAME: &str = "acwc19";
const GM: &str = "gm@example.test";
/// The Tournament Director, a master of the championship.
const TD: &str = "td@example.test";
/// Monday 30 September 2019, 00:00 UTC: the first round's pairings.
const T0: Ts = 1_569_801_600;

/// (account, cut-off rating, peak).
const ENTRANTS: [(&str, u32, u32); 5] = [
    ("alice", 2101, 2250),
    ("bob", 2050, 2100),
    ("carol", 1900, 2000),
    ("dave", 1890, 1990),
    ("erin", 1700, 1850),
];

fn address(account: &str) -> String {
    format!("{}@example.test", account.to_lowercase())
}

struct Champ {
    pool: SqlitePool,
    uid: u32,
    secrets: std::collections::BTreeMap<String, String>,
}

impl Champ {
    async fn mail(&mut self, account: &str, body: &str, at: Ts) -> Processed {
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

    async fn command(&self, cmd: GmCommand, at: Ts) -> String {
        let done = games::console_command(&self.pool, &env(), GAME, &cmd, at)
            .await
            .expect("command");
        assert!(done.ok, "{}", done.answer);
        done.answer
    }

    /// The mails to `to` whose subject or body contains `part`, subject and body each.
    async fn mails(&self, to: &str, part: &str) -> Vec<String> {
        let mut c = self.pool.acquire().await.expect("conn");
        sqlx::query("SELECT subject, body FROM outbox WHERE to_address = $1 ORDER BY id")
            .bind(to)
            .fetch_all(&mut *c)
            .await
            .expect("outbox")
            .iter()
            // Read with the wrapping undone: one space between words.
            .map(|r| {
                let text = format!("{}\n{}", r.get::<String, _>(0), r.get::<String, _>(1));
                text.split_whitespace().collect::<Vec<_>>().join(" ")
            })
            .filter(|m| m.contains(part))
            .collect()
    }

    async fn matches(&self) -> Vec<store::acwc::MatchRow> {
        let mut c = self.pool.acquire().await.expect("conn");
        store::acwc::matches(&mut c, GAME, StageRow::Swiss)
            .await
            .expect("matches")
    }
}

async fn open(name: &str) -> Champ {
    let dir = std::env::temp_dir().join(format!("chancery-acwc-neg-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pool = store::open(&dir.join("chancery.sqlite"))
        .await
        .expect("open");
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

/// Every entry by mail, approved by the TD; each approved entrant's secret from their mail.
async fn enter_all(ch: &mut Champ) {
    let at = T0 - 5 * DAY;
    for (k, (account, cutoff, peak)) in ENTRANTS.iter().enumerate() {
        let body = format!("ACCOUNT {account}\nRATING {cutoff}\nPEAK {peak}");
        let got = ch.mail(account, &body, at + k as Ts * 60).await;
        assert_eq!(got, Processed::Accepted, "{account}");
    }
    for (account, _, _) in ENTRANTS {
        ch.command(GmCommand::Approve(account.to_string()), T0 - DAY)
            .await;
        let mail = ch
            .mails(&address(account), "your entry is approved")
            .await
            .join("\n");
        let secret = mail
            .split("Your secret: ")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .expect("a secret")
            .to_string();
        ch.secrets.insert(account.to_string(), secret);
    }
}

fn t(s: &str) -> Ts {
    chancery::time::parse_gmt(s).expect("a time")
}

/// The pairs of round `round`: (first, second).
async fn pairs(ch: &Champ, round: i64) -> Vec<(String, String)> {
    ch.matches()
        .await
        .into_iter()
        .filter(|m| m.round == round)
        .filter_map(|m| Some((m.a.clone(), m.b.clone()?)))
        .collect()
}

async fn agreed(ch: &Champ, round: i64, a: &str) -> Option<Ts> {
    ch.matches()
        .await
        .into_iter()
        .find(|m| m.round == round && m.a == a)
        .and_then(|m| m.agreed_at)
}

#[tokio::test]
async fn acwc_match_negotiations_by_mail_offers_acceptance_fault_choice_and_assignment() {
    let mut ch = open("negotiation").await;
    enter_all(&mut ch).await;
    games::start_game_and_tell(&ch.pool, &env(), GAME, T0)
        .await
        .expect("start");
    let round1 = pairs(&ch, 1).await;
    assert_eq!(round1.len(), 2, "{round1:?}");
    let (a1, b1) = round1[0].clone();
    let (a2, b2) = round1[1].clone();

    // Round 1's week: offers by Wednesday 2 October 23:59:59 UTC, the weekend from Saturday 5.
    // ACWC Match negotiations: no more than 2 on a single date.
    let third = "OFFER 2019-10-03 08:00, 2019-10-03 14:00, 2019-10-03 20:00";
    assert_eq!(ch.mail(&a1, third, T0 + HOUR).await, Processed::Rejected);
    let why = ch.mails(&address(&a1), "Not accepted").await.join("\n");
    assert!(why.contains("no more than 2 on a single date"), "{why}");
    // No closer than 3 hours to each other.
    let close = "OFFER 2019-10-03 10:00, 2019-10-03 12:00";
    assert_eq!(
        ch.mail(&a1, close, T0 + 2 * HOUR).await,
        Processed::Rejected
    );
    let why = ch.mails(&address(&a1), "Not accepted").await.join("\n");
    assert!(why.contains("closer than 3 hours"), "{why}");
    // A valid offer, told to both players and the TD, in UTC.
    let offer = "OFFER 2019-10-03 10:00, 2019-10-04 10:00, 2019-10-05 10:00";
    assert_eq!(
        ch.mail(&a1, offer, T0 + 3 * HOUR).await,
        Processed::Accepted
    );
    for to in [address(&a1), address(&b1), TD.to_string()] {
        let told = ch.mails(&to, "offers 3 times").await.join("\n");
        assert!(told.contains("2019-10-04 10:00 UTC"), "{to}: {told}");
        assert!(told.contains("ACCEPT"), "{told}");
    }
    // Board 2: the first offers 3 times, the second only one.
    let offer2 = "OFFER 2019-10-03 19:00, 2019-10-04 19:00, 2019-10-05 19:00";
    assert_eq!(
        ch.mail(&a2, offer2, T0 + 3 * HOUR).await,
        Processed::Accepted
    );

    // ACWC Match negotiations ("preferably within 24 hours"): the unanswered offer is
    // reminded once, after 24 hours.
    games::tick(&ch.pool, &env(), T0 + 26 * HOUR)
        .await
        .expect("tick");
    assert!(ch.mails(&address(&b1), "unanswered").await.is_empty());
    games::tick(&ch.pool, &env(), T0 + 28 * HOUR)
        .await
        .expect("tick");
    games::tick(&ch.pool, &env(), T0 + 28 * HOUR + 60)
        .await
        .expect("tick");
    let reminders: Vec<String> = ch
        .mails(&address(&b1), "a reminder to")
        .await
        .into_iter()
        .filter(|m| m.contains("is unanswered"))
        .collect();
    assert_eq!(reminders.len(), 1, "{reminders:?}");
    assert!(
        reminders[0].contains("2019-10-05 10:00 UTC"),
        "{}",
        reminders[0]
    );
    assert!(ch.mails(&address(&a1), "is unanswered").await.is_empty());

    // The acceptance: the time agreed, told to both and kept.
    let accept = "ACCEPT 2019-10-04 10:00";
    assert_eq!(
        ch.mail(&b1, accept, T0 + 30 * HOUR).await,
        Processed::Accepted
    );
    for to in [address(&a1), address(&b1)] {
        let told = ch
            .mails(&to, "agreed 2019-10-04 10:00 UTC")
            .await
            .join("\n");
        assert!(told.contains(&format!("accepted by {b1}")), "{to}: {told}");
    }
    assert_eq!(agreed(&ch, 1, &a1).await, Some(t("2019-10-04 10:00")));
    // Settled: no more offers.
    let more = "OFFER 2019-10-05 18:00";
    assert_eq!(
        ch.mail(&a1, more, T0 + 31 * HOUR).await,
        Processed::Rejected
    );

    let one = "OFFER 2019-10-04 08:00";
    assert_eq!(ch.mail(&b2, one, T0 + 30 * HOUR).await, Processed::Accepted);
    // Thursday 00:00: b2 is short of 3 offers and at fault; a2 chooses. Told to both and the TD.
    games::tick(&ch.pool, &env(), T0 + 3 * DAY)
        .await
        .expect("tick");
    for to in [address(&a2), address(&b2), TD.to_string()] {
        let told = ch.mails(&to, &format!("{a2} chooses")).await.join("\n");
        assert!(
            told.contains(&format!("{b2} did not offer 3 times by Wednesday")),
            "{to}: {told}"
        );
        assert!(told.contains("CHOOSE"), "{told}");
    }
    let late = "OFFER 2019-10-05 12:00";
    assert_eq!(
        ch.mail(&b2, late, T0 + 3 * DAY + HOUR).await,
        Processed::Rejected
    );
    let why = ch.mails(&address(&b2), "Not accepted").await.join("\n");
    assert!(
        why.contains(&format!("accept the time {a2} chooses")),
        "{why}"
    );
    let choose = "CHOOSE 2019-10-05 15:00";
    assert_eq!(
        ch.mail(&a2, choose, T0 + 3 * DAY + 2 * HOUR).await,
        Processed::Accepted
    );
    let told = ch
        .mails(&address(&b2), "agreed 2019-10-05 15:00 UTC")
        .await
        .join("\n");
    assert!(told.contains(&format!("chosen by {a2}")), "{told}");
    assert_eq!(agreed(&ch, 1, &a2).await, Some(t("2019-10-05 15:00")));

    // Round 1 played; round 2 published on Monday 7 October, its week that week.
    let monday = T0 + 7 * DAY;
    for (a, b) in &round1 {
        assert_eq!(ch.mail(a, "RESULT 6-4", monday).await, Processed::Accepted);
        assert_eq!(
            ch.mail(b, "CONFIRM", monday + HOUR).await,
            Processed::Accepted
        );
    }
    let round2 = pairs(&ch, 2).await;
    assert_eq!(round2.len(), 2, "{round2:?}");
    let (a3, b3) = round2[0].clone();
    // Nobody offers by Wednesday 9 October: both at fault, the arbiter assigns; the TD is told
    // who is at fault and how to assign.
    games::tick(&ch.pool, &env(), t("2019-10-10 00:00"))
        .await
        .expect("tick");
    let told = ch.mails(TD, "for the match arbiter").await.join("\n");
    assert!(told.contains("neither player offered 3 times"), "{told}");
    assert!(told.contains(&format!("At fault: {a3} and {b3}")), "{told}");
    assert!(told.contains("ASSIGN"), "{told}");
    let players = ch.mails(&address(&b3), "for the match arbiter").await;
    assert_eq!(players.len(), 1, "{players:?}");
    let refused = ch
        .mail(&a3, "OFFER 2019-10-12 18:00", t("2019-10-10 08:00"))
        .await;
    assert_eq!(refused, Processed::Rejected);
    let answer = ch
        .command(
            GmCommand::Assign {
                account: b3.clone(),
                time: t("2019-10-12 17:00"),
            },
            t("2019-10-10 09:00"),
        )
        .await;
    assert!(answer.contains("agreed 2019-10-12 17:00 UTC"), "{answer}");
    let told = ch
        .mails(&address(&a3), "agreed 2019-10-12 17:00 UTC")
        .await
        .join("\n");
    assert!(told.contains("assigned by the match arbiter"), "{told}");
    assert_eq!(agreed(&ch, 2, &a3).await, Some(t("2019-10-12 17:00")));
    // A finding is refused where none is due.
    let done = games::console_command(
        &ch.pool,
        &env(),
        GAME,
        &GmCommand::Finding {
            account: b3.clone(),
            at_fault: None,
        },
        t("2019-10-10 10:00"),
    )
    .await
    .expect("command");
    assert!(!done.ok, "{}", done.answer);
}
