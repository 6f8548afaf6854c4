//! Issue 21 (trust), through the engine on a real SQLite file: results after a rollback, limits
//! on every answer, secrets that stay secret, announcements that all arrive, redeliveries.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::commands::GmCommand;
use chancery::engine::Processed;
use chancery::games;
use chancery::policy::DAY;
use chancery::store;
use chancery::store::Pool;
use sqlx::Row;

async fn current(pool: &Pool) -> store::PhaseRow {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, "wm1")
        .await
        .expect("phase")
        .expect("open")
}

/// Mail to `to` of `kind`: (subject, body).
async fn mails(pool: &Pool, kind: &str, to: &str) -> Vec<(String, String)> {
    outbox(pool)
        .await
        .into_iter()
        .filter(|o| o.0 == kind && o.1 == to)
        .map(|o| (o.2, o.3))
        .collect()
}

async fn duplicates(pool: &Pool) -> i64 {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query("SELECT CAST(coalesce(sum(count), 0) AS BIGINT) AS n FROM outbox_duplicates")
        .fetch_one(&mut *c)
        .await
        .expect("q")
        .get("n")
}

fn query(uid: u32, from: &str, subject: &str, body: &str) -> Vec<u8> {
    raw(
        from,
        "gm@example.test",
        subject,
        &format!("Message-ID: <q{uid}@x.test>\r\n"),
        body,
    )
}

#[tokio::test]
async fn a_rolled_back_phase_is_mailed_again_wm_d_viii_1() {
    // Issue 21.1: the corrected results of a rolled-back phase were dropped as duplicates of
    // the first ones (the Message-ID named only game, phase and reader), and HISTORY served
    // the old results.
    let pool = setup("trust-rollback", &["wm1"]).await;
    let e = env();
    let spring = current(&pool).await.deadline;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let rollback = GmCommand::Rollback("S1901M".into());
    let done = games::console_command_as(&pool, &e, "wm1", &rollback, true, spring + 3600)
        .await
        .expect("rollback");
    assert!(done.ok, "{done:?}");
    let again = current(&pool).await;
    assert_eq!(again.phase, "S1901M");
    assert_eq!(
        games::tick(&pool, &e, again.deadline).await.expect("tick"),
        1
    );
    for i in 0..7 {
        let results = mails(&pool, "results", &player(i)).await;
        let spring: Vec<_> = results.iter().filter(|r| r.0.contains("S1901M")).collect();
        assert_eq!(spring.len(), 2, "{}: {results:?}", player(i));
    }
    assert_eq!(duplicates(&pool).await, 0, "nothing was dropped");
    // HISTORY serves the results that stand, not the ones the rollback undid.
    let ask = query(1, &player(2), "wm1 HISTORY S1901M", "SECRET s3\n");
    let now = again.deadline + 60;
    deliver(&pool, "gm", 1, &ask, Some(now), now).await;
    let history = mails(&pool, "query-reply", &player(2)).await;
    assert_eq!(history.len(), 1, "{history:?}");
    assert_eq!(
        history[0].1.matches("==== wm1 S1901M").count(),
        1,
        "{}",
        history[0].1
    );
}

#[tokio::test]
async fn forged_queries_get_one_answer_an_hour_and_every_answer_counts() {
    // Issue 21.2: 1,000 forged `<game> HISTORY` mails from a player's address made 1,000
    // replies; query replies counted against no limit.
    let pool = setup("trust-queries", &["wm1"]).await;
    let e = env();
    let spring = current(&pool).await.deadline;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let now = spring + 60;
    for uid in 1..=200 {
        let mail = query(uid, &player(2), "wm1 HISTORY", "\n");
        deliver(&pool, "gm", uid, &mail, Some(now), now).await;
    }
    assert_eq!(mails(&pool, "query-reply", &player(2)).await.len(), 1);
    // With the secret the sender is proven: answered, within the hourly limit of every answer.
    for uid in 201..=260 {
        let mail = query(uid, &player(3), "wm1 STATUS", "SECRET s4\n");
        deliver(&pool, "gm", uid, &mail, Some(now), now).await;
    }
    let replies = mails(&pool, "query-reply", &player(3)).await.len() as i64;
    assert_eq!(replies, e.limits.answers_per_hour);
    assert_eq!(mails(&pool, "notice", &player(3)).await.len(), 1);
    // An hour later the unproven sender is answered once more.
    let later = now + 3601;
    let mail = query(300, &player(2), "wm1 HISTORY", "\n");
    deliver(&pool, "gm", 300, &mail, Some(later), later).await;
    assert_eq!(mails(&pool, "query-reply", &player(2)).await.len(), 2);
}

#[tokio::test]
async fn status_names_nobody_who_asked_for_an_extension_wm_d_vii_5() {
    // Issue 21.3: STATUS to any player listed "extension days used: FRANCE 2d".
    let pool = setup("trust-status", &["wm1"]).await;
    {
        let mut c = pool.acquire().await.expect("conn");
        sqlx::query("UPDATE players SET extension_days_used = 2 WHERE power = 'FRANCE'")
            .execute(&mut *c)
            .await
            .expect("used");
    }
    let now = T0 + 3600;
    let mail = query(1, &player(1), "wm1 STATUS", "SECRET s2\n");
    deliver(&pool, "gm", 1, &mail, Some(now), now).await;
    let status = mails(&pool, "query-reply", &player(1)).await;
    assert_eq!(status.len(), 1);
    assert!(
        status[0].1.contains("your orders (ENGLAND): none"),
        "{}",
        status[0].1
    );
    assert!(!status[0].1.contains("FRANCE"), "{}", status[0].1);
    assert!(!status[0].1.contains("extension"), "{}", status[0].1);
    // The masters still see it.
    let done = games::console_command(&pool, &env(), "wm1", &GmCommand::Status, now)
        .await
        .expect("status");
    assert!(
        done.answer.contains("extension days used: FRANCE 2d"),
        "{done:?}"
    );
}

#[tokio::test]
async fn announcements_in_one_second_all_reach_every_player_wm_d_vii_4_b() {
    // Issue 21.5: DEADLINE then EXTEND 1d in one mail told every player only the first
    // deadline; PAUSE, RESUME, EXTEND 1d, EXTEND 2d lost the last notice.
    let pool = setup("trust-announce", &["wm1"]).await;
    let e = env();
    let now = T0 + 3600;
    let first = current(&pool).await.deadline + DAY;
    for cmd in [
        GmCommand::Deadline(first),
        GmCommand::Extend(DAY),
        GmCommand::Pause,
        GmCommand::Resume,
        GmCommand::Extend(DAY),
        GmCommand::Extend(2 * DAY),
    ] {
        let done = games::console_command(&pool, &e, "wm1", &cmd, now)
            .await
            .expect("command");
        assert!(done.ok, "{cmd:?}: {done:?}");
    }
    let last = current(&pool).await.deadline;
    let shown = chancery::outgoing::time::gmt_human(last).expect("date");
    for i in 0..7 {
        let told = mails(&pool, "announcement", &player(i)).await;
        assert_eq!(told.len(), 6, "{}: {told:?}", player(i));
        assert!(
            told.last().is_some_and(|t| t.1.contains(&shown)),
            "{shown}: {told:?}"
        );
    }
    assert_eq!(duplicates(&pool).await, 0);
}

#[tokio::test]
async fn a_player_replaced_back_and_forth_gets_each_welcome() {
    // Issue 21.5: a re-replacement's welcome with the new secret was dropped (its Message-ID
    // named game, phase and address only).
    let pool = setup("trust-replace", &["wm1"]).await;
    let e = env();
    let now = T0 + 3600;
    let replace = |address: &str| GmCommand::Replace {
        power: "FRANCE".into(),
        address: address.into(),
        permanent: true,
    };
    for to in ["sub@example.test", "other@example.test", "sub@example.test"] {
        let done = games::console_command(&pool, &e, "wm1", &replace(to), now)
            .await
            .expect("replace");
        assert!(done.ok, "{done:?}");
    }
    let welcomes = mails(&pool, "start", "sub@example.test").await;
    assert_eq!(welcomes.len(), 2, "{welcomes:?}");
    assert_ne!(welcomes[0].1, welcomes[1].1, "each carries its own secret");
}

#[tokio::test]
async fn forged_mail_uses_up_none_of_the_players_answers() {
    // Issue 21.10: thirty forged mails naming a power used up that player's answers for the
    // hour, and each rejection quoted the forger's subject from the real GM address.
    let pool = setup("trust-forged", &["wm1"]).await;
    let now = T0 + 3600;
    for uid in 1..=40 {
        let mail = raw(
            &player(2),
            "gm@example.test",
            "wm1 FRANCE S1901M BUY-CHEAP-PILLS",
            &format!("Message-ID: <forged{uid}@evil.test>\r\n"),
            "SECRET guessed\nA PAR - BUR\nvisit evil.test/click\n",
        );
        assert_eq!(
            deliver(&pool, "gm", uid, &mail, Some(now), now).await,
            Processed::Rejected
        );
    }
    let refused = mails(&pool, "auth-rejection", &player(2)).await;
    assert_eq!(refused.len() as i64, env().limits.auth_rejections_per_hour);
    for (subject, body) in &refused {
        for forged in ["BUY-CHEAP", "evil.test", "A PAR"] {
            assert!(
                !subject.contains(forged) && !body.contains(forged),
                "{subject}\n{body}"
            );
        }
        assert!(body.contains("the secret is wrong"), "{body}");
    }
    // The real player's own mail is still answered.
    let real = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "Message-ID: <real@example.test>\r\n",
        "SECRET s3\nA PAR - BUR\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 100, &real, Some(now), now).await,
        Processed::Accepted
    );
    assert_eq!(mails(&pool, "ack", &player(2)).await.len(), 1);
}

#[tokio::test]
async fn the_same_message_delivered_twice_is_answered_once() {
    // Issue 21.13: two SMTP transactions of one message differ in their trace headers; the
    // dedup key was the SHA-256 of the raw bytes.
    let pool = setup("trust-redelivery", &["wm1"]).await;
    let now = T0 + 3600;
    let mail = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "Message-ID: <once@example.test>\r\n",
        "SECRET s3\nA PAR - BUR\n",
    );
    let copy = |hop: &str| {
        let mut b = format!(
            "Return-Path: <{}>\r\nDelivered-To: gm@example.test\r\nReceived: from {hop} by mx.example.test;\r\n\tThu, 19 Nov 2026 10:0{}:00 +0000\r\n",
            player(2),
            hop.len() % 10
        )
        .into_bytes();
        b.extend_from_slice(&mail);
        b
    };
    assert_eq!(
        deliver(&pool, "gm", 1, &copy("a.example"), Some(now), now).await,
        Processed::Accepted
    );
    assert_eq!(
        deliver(&pool, "gm", 2, &copy("bb.example.net"), Some(now), now + 5).await,
        Processed::AlreadyDone
    );
    assert_eq!(mails(&pool, "ack", &player(2)).await.len(), 1);
}
