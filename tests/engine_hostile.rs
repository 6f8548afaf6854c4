//! Hostile, broken and late mail through the engine, on a real SQLite file: what a message or a
//! tick does to the store and the outbox. (The same over the real mail stack: tests/hostile.rs.)

use chancery::engine::{self, Incoming, Processed};
use chancery::games;
use chancery::policy::DAY;
use chancery::store;
use chancery::store::Pool;
use sqlx::Row;

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

async fn drops(pool: &Pool) -> Vec<String> {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query("SELECT reason FROM drops ORDER BY id")
        .fetch_all(&mut *c)
        .await
        .expect("drops")
        .iter()
        .map(|r| r.get(0))
        .collect()
}

fn orders(i: usize, lines: &str) -> String {
    format!("SECRET s{}\n{lines}\n", i + 1)
}

#[tokio::test]
async fn a_stranger_gets_one_answer_a_day_and_none_after_an_auth_failure() {
    // Issue 9, point 5 (backscatter): a forged From must not make Chancery mail anyone at will.
    let pool = setup("stranger", &["wm1"]).await;
    let now = T0 + 3600;
    for uid in 1..=5 {
        let m = raw(
            "victim@elsewhere.test",
            "gm@example.test",
            &format!("hello {uid}"),
            "",
            "A Par - Bur\n",
        );
        assert_eq!(
            deliver(&pool, "gm", uid, &m, None, now).await,
            Processed::Rejected
        );
    }
    let out = outbox(&pool).await;
    assert_eq!(
        out.iter()
            .filter(|o| o.1 == "victim@elsewhere.test")
            .count(),
        1,
        "{out:?}"
    );
    assert_eq!(
        drops(&pool).await,
        vec!["stranger: already answered today"; 4]
    );
    // The next day: one more.
    let m = raw(
        "victim@elsewhere.test",
        "gm@example.test",
        "again",
        "",
        "x\n",
    );
    deliver(&pool, "gm", 6, &m, None, now + DAY + 1).await;
    assert_eq!(outbox(&pool).await.len(), 2);

    // A stranger for whom our receiving server recorded a DMARC failure: no answer at all.
    let forged = raw(
        "boss@bank.test",
        "gm@example.test",
        "hi",
        "Authentication-Results: mx.example.test; spf=fail smtp.mailfrom=bank.test; dmarc=fail header.from=bank.test\r\n",
        "x\n",
    );
    deliver(&pool, "gm", 7, &forged, None, now).await;
    assert!(outbox(&pool).await.iter().all(|o| o.1 != "boss@bank.test"));
    assert_eq!(
        drops(&pool).await.last().map(String::as_str),
        Some("stranger: the receiving server recorded an SPF, DKIM or DMARC failure")
    );
}

#[tokio::test]
async fn the_confirmation_box_answers_only_registered_players() {
    // Issue 9, point 5: the confirmation box sent a receipt to anyone.
    let pool = setup("confirm", &["wm1"]).await;
    let now = T0 + 3600;
    for uid in 1..=3 {
        let m = raw(
            "someone@elsewhere.test",
            "gm@example.test",
            "wm1 FRANCE S1901M",
            &format!("Cc: confirm@example.test\r\nMessage-ID: <c{uid}@elsewhere.test>\r\n"),
            "A Par - Bur\n",
        );
        assert_eq!(
            deliver(&pool, "confirm", uid, &m, None, now).await,
            Processed::Dropped
        );
    }
    assert!(outbox(&pool).await.is_empty());
    assert_eq!(drops(&pool).await.len(), 3);
    let m = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "Cc: confirm@example.test\r\n",
        &orders(2, "A Par - Bur"),
    );
    assert_eq!(
        deliver(&pool, "confirm", 4, &m, None, now).await,
        Processed::Receipted
    );
    let out = outbox(&pool).await;
    assert_eq!(out.len(), 1);
    assert_eq!(
        (out[0].0.as_str(), out[0].1.as_str()),
        ("receipt", "player3@example.test")
    );
}

#[tokio::test]
async fn automatic_mail_is_never_answered_even_when_unreadable() {
    // Issue 9, point 5: an unreadable mail was answered before the auto-reply check.
    let pool = setup("auto", &["wm1"]).await;
    let mut big = raw(
        &player(0),
        "gm@example.test",
        "Out of office",
        "Auto-Submitted: auto-replied\r\n",
        "",
    );
    big.resize(chancery::message::MAX_MESSAGE_BYTES + 10, b'a');
    assert_eq!(
        deliver(&pool, "gm", 1, &big, None, T0).await,
        Processed::Auto
    );
    assert!(outbox(&pool).await.is_empty());
    // The same, from a person: answered, with the subject and threading of the original.
    let mut big = raw(
        &player(0),
        "gm@example.test",
        "wm1 AUSTRIA S1901M",
        "Message-ID: <big-1@player.test>\r\n",
        "",
    );
    big.resize(chancery::message::MAX_MESSAGE_BYTES + 10, b'a');
    assert_eq!(
        deliver(&pool, "gm", 2, &big, None, T0).await,
        Processed::Rejected
    );
    let out = outbox(&pool).await;
    assert_eq!(out.len(), 1);
    assert!(out[0].3.contains("too large"), "{}", out[0].3);
    assert!(out[0].3.contains("wm1 AUSTRIA S1901M"), "{}", out[0].3);
}

#[tokio::test]
async fn echoed_subjects_are_cut_and_never_carry_the_secret() {
    // Issue 9, points 5 and 8.
    let pool = setup("subject", &["wm1"]).await;
    let long = format!("wm1 FRANCE S1901M SECRET s3 {}", "x".repeat(100_000));
    let m = raw(&player(2), "gm@example.test", &long, "", "A Par - Bur\n");
    deliver(&pool, "gm", 1, &m, None, T0 + 60).await;
    let out = outbox(&pool).await;
    assert!(!out.is_empty());
    for (_, _, subject, body) in &out {
        assert!(subject.chars().count() <= 220, "{}", subject.len());
        assert!(body.len() < 20_000, "{}", body.len());
        assert!(!body.contains("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
        assert!(
            !subject.contains(" s3") && !body.contains("SECRET s3"),
            "{subject}\n{body}"
        );
    }
}

#[tokio::test]
async fn answers_are_rate_limited_and_orders_still_count() {
    // Issue 9, point 5: a sender (or a forger of a registered address) cannot make Chancery
    // mail without end.
    let pool = setup("rate", &["wm1"]).await;
    let limit = env().limits.answers_per_hour;
    let now = T0 + 3600;
    for uid in 1..=(limit as u32 + 10) {
        let last = if uid == limit as u32 + 10 {
            "A Par - Pic"
        } else {
            "A Par - Bur"
        };
        let m = raw(
            &player(2),
            "gm@example.test",
            "wm1 FRANCE S1901M",
            &format!("Message-ID: <r{uid}@player.test>\r\n"),
            &orders(2, last),
        );
        assert_eq!(
            deliver(&pool, "gm", uid, &m, None, now).await,
            Processed::Accepted
        );
    }
    let out = outbox(&pool).await;
    let acks = out.iter().filter(|o| o.0 == "ack").count();
    let notices = out.iter().filter(|o| o.0 == "notice").count();
    assert_eq!(acks as i64, limit);
    assert_eq!(notices, 1, "one 'too many mails' notice per window");
    // The last mail's orders stand although it was not answered.
    let mut c = pool.acquire().await.expect("conn");
    let standing = store::diplomacy::standing_orders(&mut c, "wm1", "S1901M")
        .await
        .expect("standing");
    assert!(
        standing[0].orders.iter().any(|o| o.order == "A PAR - PIC"),
        "{:?}",
        standing[0].orders
    );
    // An hour later answers resume.
    drop(c);
    let m = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "Message-ID: <later@player.test>\r\n",
        &orders(2, "A Par - Bur"),
    );
    deliver(&pool, "gm", 500, &m, None, now + 3601).await;
    assert_eq!(
        outbox(&pool).await.iter().filter(|o| o.0 == "ack").count() as i64,
        limit + 1
    );
}

#[tokio::test]
async fn a_games_answers_are_limited_in_an_hour_and_its_masters_told_once() {
    // Issue 9, point 5: mail about one game cannot make Chancery mail without end, whoever sends
    // it; the orders still count, and the masters hear of the limit once an hour. The answer and
    // its counts are one statement (issue 28): each answer below the limit is sent, none above.
    let pool = setup("game-rate", &["wm1"]).await;
    let mut env = env();
    env.limits.game_answers_per_hour = 5;
    let now = T0 + 3600;
    let mail = |i: usize, uid: u32| {
        let m = raw(
            &player(i),
            "gm@example.test",
            &format!(
                "wm1 {} S1901M",
                [
                    "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"
                ][i]
            ),
            &format!("Message-ID: <g{uid}@player.test>\r\n"),
            &format!("SECRET s{}\n", i + 1),
        );
        (uid, m)
    };
    let deliver_at = |uid: u32, bytes: Vec<u8>, at: i64| {
        let (pool, env) = (pool.clone(), env.clone());
        async move {
            let inc = Incoming {
                mailbox: "gm",
                uidvalidity: 1,
                uid,
                raw: &bytes,
                arrived: None,
                wait_for_claim: false,
                passed_over: None,
            };
            games::process_message(&pool, &env, &inc, &engine::read(&bytes), at)
                .await
                .expect("process")
        }
    };
    for i in 0..7 {
        let (uid, m) = mail(i, i as u32 + 1);
        assert_eq!(deliver_at(uid, m, now).await, Processed::Accepted);
    }
    let about_the_game = |out: &[(String, String, String, String)]| {
        out.iter().filter(|o| o.1.starts_with("player")).count()
    };
    let out = outbox(&pool).await;
    assert_eq!(about_the_game(&out), 5, "{out:?}");
    let told: Vec<_> = out
        .iter()
        .filter(|o| o.1 == "td@example.test" && o.2.contains("answer limit reached"))
        .collect();
    assert_eq!(told.len(), 1, "{out:?}");
    assert_eq!(
        drops(&pool).await,
        vec!["rate limit: too many answers in this game in an hour"; 2]
    );
    // The orders of the powers not answered stand (their units hold: no orders, no change).
    let mut c = pool.acquire().await.expect("conn");
    let n: i64 = sqlx::query("SELECT count(*) FROM submissions WHERE game_id = 'wm1'")
        .fetch_one(&mut *c)
        .await
        .expect("count")
        .get(0);
    assert_eq!(n, 7);
    drop(c);
    // An hour later, answers resume.
    let (uid, m) = mail(0, 8);
    deliver_at(uid, m, now + 3601).await;
    assert_eq!(about_the_game(&outbox(&pool).await), 6);
}

#[tokio::test]
async fn a_reused_message_id_is_new_mail_and_the_same_bytes_are_not() {
    // Issue 9, point 7: deduplicate by position and content, not by Message-ID alone. A second
    // mail under an accepted Message-ID is read and answered, not dropped as a duplicate; it is
    // refused as a replay (issue 21, point 8).
    let pool = setup("dedup", &["wm1"]).await;
    let first = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "Message-ID: <same@player.test>\r\n",
        &orders(2, "A Par - Bur"),
    );
    let second = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "Message-ID: <same@player.test>\r\n",
        &orders(2, "A Par - Pic"),
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &first, None, T0 + 60).await,
        Processed::Accepted
    );
    assert_eq!(
        deliver(&pool, "gm", 2, &second, None, T0 + 61).await,
        Processed::Rejected
    );
    // The first again under a new UID (a redelivery): nothing done twice.
    assert_eq!(
        deliver(&pool, "gm", 3, &first, None, T0 + 62).await,
        Processed::AlreadyDone
    );
    assert_eq!(
        deliver(&pool, "gm", 2, &second, None, T0 + 63).await,
        Processed::AlreadyDone
    );
    let out = outbox(&pool).await;
    let answered = |kind: &str| out.iter().filter(|o| o.0 == kind).count();
    assert_eq!(
        (answered("ack"), answered("rejection")),
        (1, 1),
        "each distinct mail is answered once"
    );
}

#[tokio::test]
async fn mails_without_message_id_each_get_their_acknowledgement() {
    // Issue 9, point 9: the outbox dropped the acknowledgement of a mail that had no Message-ID.
    let pool = setup("noid", &["wm1"]).await;
    for (uid, o) in [(1, "A Par - Bur"), (2, "A Par - Pic")] {
        let m = raw(
            &player(2),
            "gm@example.test",
            "wm1 FRANCE S1901M",
            "",
            &orders(2, o),
        );
        deliver(&pool, "gm", uid, &m, None, T0 + 60).await;
    }
    let acks = outbox(&pool).await.iter().filter(|o| o.0 == "ack").count();
    assert_eq!(acks, 2);
}

#[tokio::test]
async fn the_arrival_time_decides_timeliness_not_the_reading_time() {
    // Issue 9, point 3: orders that reached the server before the deadline are on time even
    // when Chancery reads them after it (an outage, a late poll).
    let pool = setup("arrival", &["wm1"]).await;
    let deadline = T0 + 3 * DAY;
    for (i, power) in POWERS.iter().enumerate() {
        let m = raw(
            &player(i),
            "gm@example.test",
            &format!("wm1 {power} S1901M"),
            &format!("Message-ID: <a{i}@player.test>\r\n"),
            &orders(i, ""),
        );
        assert_eq!(
            deliver(
                &pool,
                "gm",
                i as u32 + 1,
                &m,
                Some(deadline - 60),
                deadline + 3600
            )
            .await,
            Processed::Accepted
        );
    }
    let mut c = pool.acquire().await.expect("conn");
    let late: Vec<(i64, i64)> = sqlx::query("SELECT late, submitted_at FROM submissions")
        .fetch_all(&mut *c)
        .await
        .expect("subs")
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(late, vec![(0, deadline - 60); 7]);
    // Both times are recorded.
    let row = sqlx::query("SELECT internal_date, received_at FROM messages LIMIT 1")
        .fetch_one(&mut *c)
        .await
        .expect("msg");
    assert_eq!(
        (row.get::<i64, _>(0), row.get::<i64, _>(1)),
        (deadline - 60, deadline + 3600)
    );
}

#[tokio::test]
async fn a_deadline_waits_until_every_mailbox_is_read_through_it() {
    // Issue 9, point 3: never adjudicate with orders possibly unread.
    let pool = setup("wait", &["wm1"]).await;
    let deadline = T0 + 3 * DAY;
    let e = env();
    let r = games::tick_with(&pool, &e, deadline + 600, deadline - 1)
        .await
        .expect("tick");
    assert_eq!(r.adjudicated, 0);
    assert_eq!(r.waiting, vec![("wm1".to_string(), deadline)]);
    let r = games::tick_with(&pool, &e, deadline + 600, deadline)
        .await
        .expect("tick");
    assert_eq!(r.adjudicated, 1);
}

#[tokio::test]
async fn one_failing_game_does_not_stop_the_others() {
    // Issue 9, point 1: the scheduler stopped at the first game's error.
    let pool = setup("isolation", &["a1", "b2", "c3"]).await;
    {
        let mut c = pool.acquire().await.expect("conn");
        sqlx::query("UPDATE phases SET board = 'not json' WHERE game_id = 'b2'")
            .execute(&mut *c)
            .await
            .expect("break b2");
    }
    let due = T0 + 3 * DAY + 1;
    let r = games::tick_with(&pool, &env(), due, due)
        .await
        .expect("tick");
    assert_eq!(r.adjudicated, 2, "a1 and c3 are adjudicated");
    assert_eq!(r.failed.len(), 1);
    assert_eq!(r.failed[0].0, "b2");
    // The masters are told once per phase, however often the tick fails.
    games::tick_with(&pool, &env(), due + 5, due + 5)
        .await
        .expect("tick");
    let alerts: Vec<_> = outbox(&pool)
        .await
        .into_iter()
        .filter(|o| o.0 == "alert")
        .collect();
    assert_eq!(alerts.len(), 1, "{alerts:?}");
    assert_eq!(alerts[0].1, "td@example.test");
    assert!(alerts[0].2.contains("b2"));
    // And the plain `tick` reports it as an error.
    assert!(games::tick(&pool, &env(), due + 10).await.is_err());
}

#[tokio::test]
async fn a_game_whose_stored_rows_cannot_be_read_fails_alone() {
    // Issue 10: the tick reads a batch of games in one statement per table. One game's
    // unreadable row fails that read for the whole batch; the batch is then run one game per
    // transaction, and only that game fails.
    let pool = setup("batch-isolation", &["a1", "b2", "c3"]).await;
    {
        let mut c = pool.acquire().await.expect("conn");
        sqlx::query(
            "INSERT INTO standing_orders (game_id, phase, power, orders, final, updated_at)
             VALUES ('b2', 'S1901M', 'FRANCE', 'not json', 1, 0)",
        )
        .execute(&mut *c)
        .await
        .expect("break b2");
    }
    let due = T0 + 3 * DAY + 1;
    let r = games::tick_with(&pool, &env(), due, due)
        .await
        .expect("tick");
    assert_eq!(r.adjudicated, 2, "a1 and c3 are adjudicated: {r:?}");
    assert_eq!(r.failed.len(), 1);
    assert_eq!(r.failed[0].0, "b2");
    let mut c = pool.acquire().await.expect("conn");
    for (game, open) in [("a1", "F1901M"), ("b2", "S1901M"), ("c3", "F1901M")] {
        let p = store::current_phase(&mut c, game)
            .await
            .expect("phase")
            .expect("open");
        assert_eq!(p.phase, open, "{game}");
    }
}

#[tokio::test]
async fn a_poisoned_message_is_set_aside_once_and_the_masters_are_told() {
    // Issue 9, point 1: a message whose handling fails gets a "poisoned" ledger row, and the
    // mailbox goes on.
    let pool = setup("poison", &["wm1"]).await;
    let bytes = b"From: x@y.test\r\n\r\nwhatever".to_vec();
    let inc = Incoming {
        mailbox: "gm",
        uidvalidity: 1,
        uid: 9,
        raw: &bytes,
        arrived: Some(T0),
        wait_for_claim: false,
        passed_over: None,
    };
    engine::poison_message(&pool, &env(), &inc, "panic: boom", T0 + 5)
        .await
        .expect("poison");
    engine::poison_message(&pool, &env(), &inc, "panic: boom", T0 + 6)
        .await
        .expect("poison again is a no-op");
    let mut c = pool.acquire().await.expect("conn");
    let p = store::poisoned(&mut c).await.expect("poisoned");
    assert_eq!(p.len(), 1);
    assert_eq!((p[0].uid, p[0].error.as_str()), (9, "panic: boom"));
    assert_eq!(store::last_uid(&mut c, "gm", 1).await.expect("uid"), 9);
    drop(c);
    // Processed from now on: the same UID is not handled again.
    assert_eq!(
        deliver(&pool, "gm", 9, &bytes, None, T0 + 7).await,
        Processed::AlreadyDone
    );
    let alerts: Vec<_> = outbox(&pool)
        .await
        .into_iter()
        .filter(|o| o.0 == "alert")
        .collect();
    assert_eq!(alerts.len(), 1);
    assert!(alerts[0].3.contains("UID 9") && alerts[0].3.contains("panic: boom"));
}

#[tokio::test]
async fn wrong_secrets_and_silent_drops_reach_the_masters_digest() {
    // Issue 9, points 5 and 6.
    let pool = setup("digest", &["wm1"]).await;
    for uid in 1..=3 {
        let m = raw(
            &player(2),
            "gm@example.test",
            "wm1 FRANCE S1901M",
            &format!("Message-ID: <w{uid}@player.test>\r\n"),
            "SECRET guess\nA Par - Bur\n",
        );
        assert_eq!(
            deliver(&pool, "gm", uid, &m, None, T0 + 60).await,
            Processed::Rejected
        );
    }
    let m = raw(
        "someone@else.test",
        "gm@example.test",
        "x",
        "Cc: confirm@example.test\r\n",
        "x",
    );
    deliver(&pool, "confirm", 1, &m, None, T0 + 2 * DAY).await;
    // The digest, a day before the deadline.
    games::tick(&pool, &env(), T0 + 2 * DAY + 3600)
        .await
        .expect("tick");
    let out = outbox(&pool).await;
    let digest = out.iter().find(|o| o.0 == "digest").expect("digest");
    assert_eq!(
        digest.1, "td@example.test",
        "the digest goes to the masters"
    );
    assert!(digest.3.contains("Wrong secrets"), "{}", digest.3);
    assert!(digest.3.contains("FRANCE     3"), "{}", digest.3);
    assert!(
        digest
            .3
            .contains("confirmation box: the sender plays in no game"),
        "{}",
        digest.3
    );
    // The impersonation reports went to the masters, naming the registered address.
    let report = out.iter().find(|o| o.0 == "report").expect("report");
    assert_eq!(report.1, "td@example.test");
    assert!(report.3.contains("player3@example.test"), "{}", report.3);
    // Issue 11, point 1: and the phase and the player (the fixtures give no name).
    assert!(report.3.contains("(S1901M)"), "{}", report.3);
    assert!(
        report.3.contains("Registered player:   (no name given)"),
        "{}",
        report.3
    );
}

#[tokio::test]
async fn a_mail_that_cannot_be_composed_is_not_sent_and_the_masters_are_told() {
    // Issue 9, point 7: a template failure sent a near-empty mail.
    let pool = setup("compose", &["wm1"]).await;
    {
        // A deadline no calendar can print makes the acknowledgement fail to render.
        let mut c = pool.acquire().await.expect("conn");
        sqlx::query("UPDATE phases SET deadline = 9000000000000000000 WHERE game_id = 'wm1'")
            .execute(&mut *c)
            .await
            .expect("deadline");
    }
    let m = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "",
        &orders(2, "A Par - Bur"),
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &m, None, T0 + 60).await,
        Processed::Accepted
    );
    let out = outbox(&pool).await;
    assert!(out.iter().all(|o| o.0 != "ack"), "{out:?}");
    let alert = out.iter().find(|o| o.0 == "alert").expect("alert");
    assert!(alert.2.contains("could not be composed"), "{}", alert.2);
    assert!(alert.3.contains("player3@example.test"));
}

#[tokio::test]
async fn raw_mail_is_kept_for_the_retention_time_only() {
    // Issue 9, point 10.
    let pool = setup("purge", &["wm1"]).await;
    let m = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "",
        &orders(2, "A Par - Bur"),
    );
    deliver(&pool, "gm", 1, &m, None, T0 + 60).await;
    let mut c = pool.acquire().await.expect("conn");
    let retention = env().limits.raw_retention_days * DAY;
    assert_eq!(
        store::purge_raw(&mut c, T0 + 60, T0 + retention)
            .await
            .expect("purge"),
        0
    );
    assert_eq!(
        store::purge_raw(&mut c, T0 + 61, T0 + retention + 61)
            .await
            .expect("purge"),
        1
    );
    let row = sqlx::query("SELECT length(raw), raw_purged_at FROM messages")
        .fetch_one(&mut *c)
        .await
        .expect("row");
    assert_eq!(row.get::<i64, _>(0), 0);
    assert!(
        store::processed(
            &mut c,
            &store::Seen {
                mailbox: "gm",
                uidvalidity: 1,
                uid: 1,
                sha256: "x",
                content_sha256: "x",
            },
        )
        .await
        .expect("ledger")
    );
}

/// The open phase's deadline of game `g`.
async fn open_deadline(pool: &Pool, g: &str) -> i64 {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, g)
        .await
        .expect("phase")
        .expect("open")
        .deadline
}

/// The orders that stand for `power` in S1901M.
async fn standing(pool: &Pool, power: &str) -> Vec<String> {
    let mut c = pool.acquire().await.expect("conn");
    store::diplomacy::standing_orders(&mut c, "wm1", "S1901M")
        .await
        .expect("standing")
        .into_iter()
        .filter(|r| r.power == power)
        .flat_map(|r| r.orders.into_iter().map(|o| o.order))
        .collect()
}

#[tokio::test]
async fn wm_d_vii_7_the_confirmation_box_vouches_only_for_the_same_mail_from_the_same_sender() {
    // Issue 21, point 7: the box's time was matched by Message-ID alone, so a dummy sent there
    // before the deadline made any late mail reusing its Message-ID on time (WM D.VII(1)).
    let pool = setup("confirm-match", &["wm1"]).await;
    let deadline = open_deadline(&pool, "wm1").await;
    let (before, after) = (deadline - 3600, deadline + 600);
    let mail = |from: usize, to: &str, id: &str, lines: &str| {
        raw(
            &player(from),
            to,
            "wm1 FRANCE S1901M",
            &format!("Cc: confirm@example.test\r\nMessage-ID: <{id}@player.test>\r\n"),
            &orders(2, lines),
        )
    };
    let mut uid = 0;
    let mut at_box = |pool: Pool, m: Vec<u8>| {
        uid += 1;
        let n = uid;
        async move { deliver(&pool, "confirm", n, &m, Some(before), before).await }
    };
    // A dummy with other orders; a copy that does not address the GM; a copy from another
    // player (England's address, France's secret and subject).
    at_box(
        pool.clone(),
        mail(2, "gm@example.test", "dummy", "A Par - Bur"),
    )
    .await;
    at_box(
        pool.clone(),
        mail(2, "confirm@example.test", "nogm", "A Mar - Spa"),
    )
    .await;
    at_box(
        pool.clone(),
        mail(1, "gm@example.test", "other", "A Mar - Pie"),
    )
    .await;
    // The genuine copy of the mail the GM gets late.
    at_box(
        pool.clone(),
        mail(2, "gm@example.test", "same", "A Par - Gas"),
    )
    .await;
    let late = [
        ("dummy", "A Par - Pic"),
        ("nogm", "A Mar - Spa"),
        ("other", "A Mar - Pie"),
    ];
    for (i, (id, lines)) in late.iter().enumerate() {
        let m = mail(2, "gm@example.test", id, lines);
        assert_eq!(
            deliver(&pool, "gm", 10 + i as u32, &m, Some(after), after).await,
            Processed::Rejected,
            "{id}: late, whatever the box received under its Message-ID"
        );
    }
    assert!(standing(&pool, "FRANCE").await.is_empty());
    let m = mail(2, "gm@example.test", "same", "A Par - Gas");
    assert_eq!(
        deliver(&pool, "gm", 20, &m, Some(after), after).await,
        Processed::Accepted,
        "the same mail from the same sender: the box's time counts"
    );
    assert_eq!(standing(&pool, "FRANCE").await, vec!["A PAR - GAS"]);
    let out = outbox(&pool).await;
    let rejections = out.iter().filter(|o| o.0 == "rejection").count();
    assert_eq!(rejections, 3, "each late mail is told so");
}

/// A mail from France's player written at `date` (RFC 5322), as a replay would keep it.
fn dated(date: &str, id: &str, lines: &str, resent: bool) -> Vec<u8> {
    format!(
        "{}From: {}\r\nTo: gm@example.test\r\nSubject: wm1 FRANCE S1901M\r\nDate: {date}\r\n\
         Message-ID: <{id}@player.test>\r\n\r\n{}",
        if resent {
            // Redirected by the ally who got a copy (RFC 5322 §3.6.6): the content differs from
            // the mail first delivered, so it is new mail, not a redelivery.
            "Resent-From: ally@example.test\r\nResent-Date: Wed, 18 Nov 2026 16:00:00 +0000\r\n"
        } else {
            ""
        },
        player(2),
        orders(2, lines)
    )
    .into_bytes()
}

#[tokio::test]
async fn wm_d_iii_3_an_older_mail_sent_again_is_refused_and_changes_nothing() {
    // Issue 21, point 8: a signed (or secret-bearing) mail copied to an ally could be sent to
    // the GM again later, by anyone holding it, to put back the orders it held.
    let pool = setup("replay", &["wm1"]).await;
    let first = dated(
        "Wed, 18 Nov 2026 12:00:00 +0000",
        "one",
        "A Par - Bur",
        false,
    );
    let second = dated(
        "Wed, 18 Nov 2026 13:00:00 +0000",
        "two",
        "A Par - Pic",
        false,
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &first, Some(T0 + 2 * 3600), T0 + 2 * 3600).await,
        Processed::Accepted
    );
    assert_eq!(
        deliver(&pool, "gm", 2, &second, Some(T0 + 3 * 3600), T0 + 3 * 3600).await,
        Processed::Accepted
    );
    // The first mail again, redirected under a new Message-ID (DKIM need not sign it), with its
    // Date and signature: older than the newest accepted one.
    let replay = dated(
        "Wed, 18 Nov 2026 12:00:00 +0000",
        "one-again",
        "A Par - Bur",
        true,
    );
    assert_eq!(
        deliver(&pool, "gm", 3, &replay, Some(T0 + 4 * 3600), T0 + 4 * 3600).await,
        Processed::Rejected
    );
    // The second again: accepted already.
    let again = dated(
        "Wed, 18 Nov 2026 13:00:00 +0000",
        "two",
        "A Par - Pic",
        true,
    );
    assert_eq!(
        deliver(&pool, "gm", 4, &again, Some(T0 + 4 * 3600), T0 + 4 * 3600).await,
        Processed::Rejected
    );
    assert_eq!(standing(&pool, "FRANCE").await, vec!["A PAR - PIC"]);
    let out = outbox(&pool).await;
    let told: Vec<String> = out
        .iter()
        .filter(|o| o.0 == "rejection" && o.1 == player(2))
        .map(|o| o.3.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(told.len(), 2, "{told:?}");
    assert!(
        told[0].contains("before your newest accepted mail"),
        "{}",
        told[0]
    );
    assert!(told[1].contains("was accepted already"), "{}", told[1]);
    // A new mail still counts, even one whose sender's clock runs ahead (dated at its arrival).
    let ahead = dated(
        "Fri, 27 Nov 2026 09:00:00 +0000",
        "three",
        "A Par - Gas",
        false,
    );
    assert_eq!(
        deliver(&pool, "gm", 5, &ahead, Some(T0 + 5 * 3600), T0 + 5 * 3600).await,
        Processed::Accepted
    );
    let next = dated(
        "Wed, 18 Nov 2026 17:00:00 +0000",
        "four",
        "A Par - Bur",
        false,
    );
    assert_eq!(
        deliver(&pool, "gm", 6, &next, Some(T0 + 6 * 3600), T0 + 6 * 3600).await,
        Processed::Accepted
    );
    assert_eq!(standing(&pool, "FRANCE").await, vec!["A PAR - BUR"]);
}

#[tokio::test]
async fn press_beyond_the_servers_cap_for_a_player_and_a_phase_is_refused_with_the_reason() {
    // Issue 21, point 12: a player could put any amount of press in everyone's results.
    let pool = setup("press-cap", &["wm1"]).await;
    let limits = env().limits;
    let pieces = limits.press_per_phase as usize + 1;
    let blocks: String = (1..=pieces)
        .map(|i| format!("PRESS TO ALL\nNote {i}.\nENDPRESS\n"))
        .collect();
    let m = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "Message-ID: <many@player.test>\r\n",
        &orders(2, &blocks),
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &m, None, T0 + 60).await,
        Processed::Accepted
    );
    // One piece of many bytes from England.
    let long: String = (0..limits.press_bytes_per_phase / 60 + 10)
        .map(|_| format!("{}\n", "x".repeat(59)))
        .collect();
    let m = raw(
        &player(1),
        "gm@example.test",
        "wm1 ENGLAND S1901M",
        "Message-ID: <long@player.test>\r\n",
        &orders(
            1,
            &format!("PRESS TO ALL\n{long}ENDPRESS\nPRESS TO ALL\nShort.\nENDPRESS"),
        ),
    );
    assert_eq!(
        deliver(&pool, "gm", 2, &m, None, T0 + 60).await,
        Processed::Accepted
    );
    let mut c = pool.acquire().await.expect("conn");
    let kept: Vec<(String, String)> = sqlx::query("SELECT author, body FROM press ORDER BY id")
        .fetch_all(&mut *c)
        .await
        .expect("press")
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    drop(c);
    let by = |who: &str| kept.iter().filter(|k| k.0 == who).count();
    assert_eq!(by("FRANCE"), pieces - 1, "the cap on pieces");
    assert!(
        !kept
            .iter()
            .any(|k| k.1.contains(&format!("Note {pieces}.")))
    );
    assert_eq!(
        by("ENGLAND"),
        0,
        "the cap on bytes refuses the long piece and the rest"
    );
    let out = outbox(&pool).await;
    for who in [2, 1] {
        let ack = out
            .iter()
            .find(|o| o.0 == "ack" && o.1 == player(who))
            .map(|o| o.3.split_whitespace().collect::<Vec<_>>().join(" "))
            .expect("ack");
        assert!(
            ack.contains("this server takes at most 20 pieces of press, 65536 bytes in all"),
            "{ack}"
        );
    }
    // The next mail of the phase: France is at the cap.
    let m = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "Message-ID: <more@player.test>\r\n",
        &orders(2, "PRESS TO ALL\nOne more.\nENDPRESS"),
    );
    deliver(&pool, "gm", 3, &m, None, T0 + 120).await;
    let mut c = pool.acquire().await.expect("conn");
    let n: i64 = sqlx::query("SELECT count(*) FROM press WHERE author = 'FRANCE'")
        .fetch_one(&mut *c)
        .await
        .expect("count")
        .get(0);
    assert_eq!(n, pieces as i64 - 1);
}

#[tokio::test]
async fn press_submissions_and_sent_mail_bodies_are_kept_for_the_retention_time_only() {
    // Issue 21: press, what each submission was read as, and outgoing mail (start mails carry
    // secrets) were kept forever; `raw_retention_days` now applies to them too.
    let pool = setup("purge-all", &["wm1", "wm2"]).await;
    for (uid, game) in [(1, "wm1"), (2, "wm2")] {
        let m = raw(
            &player(2),
            "gm@example.test",
            &format!("{game} FRANCE S1901M"),
            "",
            &orders(2, "A Par - Bur\nPRESS TO ALL\nVive la France.\nENDPRESS"),
        );
        assert_eq!(
            deliver(&pool, "gm", uid, &m, None, T0 + 60).await,
            Processed::Accepted
        );
    }
    // wm1's spring is adjudicated (its press published); wm2's stays open (paused, say).
    let mut c = pool.acquire().await.expect("conn");
    let deadline = store::current_phase(&mut c, "wm1")
        .await
        .expect("q")
        .expect("open")
        .deadline;
    let wm2 = store::current_phase(&mut c, "wm2")
        .await
        .expect("q")
        .expect("open");
    store::set_deadline(&mut c, "wm2", wm2.seq, deadline + 1000 * DAY)
        .await
        .expect("wm2 waits");
    drop(c);
    assert_eq!(
        games::tick_with(&pool, &env(), deadline, deadline)
            .await
            .expect("tick")
            .adjudicated,
        1
    );
    let mut c = pool.acquire().await.expect("conn");
    // Everything is sent but one results mail, still waiting for its turn.
    let due = store::due_outbox(&mut c, i64::MAX, 1000)
        .await
        .expect("due");
    let waiting = due
        .iter()
        .find(|m| m.kind == store::MailKind::Results)
        .expect("a results mail")
        .id;
    for m in due.iter().filter(|m| m.id != waiting) {
        store::mark_sent(&mut c, m.id, deadline)
            .await
            .expect("sent");
    }
    drop(c);
    let limits = env().limits;
    let retention = limits.raw_retention_days * DAY;
    let kept = engine::purge_expired(&pool, &limits, T0 + 60 + retention)
        .await
        .expect("purge");
    assert_eq!(
        kept,
        store::Purged::default(),
        "nothing is older than the retention yet"
    );
    let purged = engine::purge_expired(&pool, &limits, deadline + 1 + retention)
        .await
        .expect("purge");
    assert_eq!(purged.raw_mail, 2);
    assert_eq!(purged.press, 1, "the press of the phase still open stays");
    assert_eq!(purged.submissions, 2);
    assert!(purged.outbox_bodies > 7, "{purged:?}");
    let mut c = pool.acquire().await.expect("conn");
    let text = |sql: &'static str| sqlx::query_scalar::<_, String>(sql);
    assert_eq!(
        text("SELECT body FROM press WHERE game_id = 'wm1'")
            .fetch_one(&mut *c)
            .await
            .expect("press"),
        ""
    );
    assert_eq!(
        text("SELECT body FROM press WHERE game_id = 'wm2'")
            .fetch_one(&mut *c)
            .await
            .expect("press"),
        "Vive la France."
    );
    let reads = text("SELECT read FROM submissions")
        .fetch_all(&mut *c)
        .await
        .expect("submissions");
    assert!(reads.iter().all(String::is_empty), "{reads:?}");
    let bodies: Vec<(i64, String)> = sqlx::query_as("SELECT id, body FROM outbox")
        .fetch_all(&mut *c)
        .await
        .expect("outbox");
    for (id, body) in &bodies {
        assert_eq!(
            body.is_empty(),
            *id != waiting,
            "only mail still to send keeps its body: {id}"
        );
    }
    // The rows that say what happened stay.
    assert!(
        store::processed(
            &mut c,
            &store::Seen {
                mailbox: "gm",
                uidvalidity: 1,
                uid: 1,
                sha256: "x",
                content_sha256: "x",
            },
        )
        .await
        .expect("ledger")
    );
    assert_eq!(bodies.len(), purged.outbox_bodies as usize + 1);
    // The phase's map: kept while a mail still to send shows it, then let go.
    assert_eq!(purged.pictures, 0, "the waiting results mail keeps its map");
    let named: Option<i64> = sqlx::query_scalar("SELECT picture_id FROM outbox WHERE id = $1")
        .bind(waiting)
        .fetch_one(&mut *c)
        .await
        .expect("row");
    assert!(named.is_some(), "the waiting results mail shows the map");
    store::mark_sent(&mut c, waiting, deadline + 2)
        .await
        .expect("sent");
    drop(c);
    let later = engine::purge_expired(&pool, &limits, deadline + 3 + retention)
        .await
        .expect("purge");
    assert_eq!(later.pictures, 1, "{later:?}");
}

/// Orders from player `i` (0-based) for game wm1.
fn orders_of(i: usize, lines: &str) -> Vec<u8> {
    raw(
        &player(i),
        "gm@example.test",
        &format!("wm1 {} S1901M", POWERS[i]),
        "",
        &orders(i, lines),
    )
}

/// Process `mails` (UID, bytes) of the GM box as one batch, as the mailbox reader does.
async fn batch(pool: &Pool, mails: &[(u32, &[u8])]) -> engine::BatchRun {
    try_batch(pool, mails).await.expect("the batch commits")
}

/// [`batch`], which may fail as a whole.
async fn try_batch(
    pool: &Pool,
    mails: &[(u32, &[u8])],
) -> chancery::engine::Result<engine::BatchRun> {
    try_batch_in(pool, mails, None, false).await
}

/// [`try_batch`] in a reader's pass that has passed over `passed_over`'s games, or (`wait`)
/// looking again at mail passed over.
async fn try_batch_in(
    pool: &Pool,
    mails: &[(u32, &[u8])],
    passed_over: Option<&engine::PassedOver>,
    wait: bool,
) -> chancery::engine::Result<engine::BatchRun> {
    let readings: Vec<engine::Reading> = mails.iter().map(|(_, m)| engine::read(m)).collect();
    let queued: Vec<engine::Queued> = mails
        .iter()
        .zip(&readings)
        .map(|((uid, m), reading)| engine::Queued {
            inc: Incoming {
                mailbox: "gm",
                uidvalidity: 1,
                uid: *uid,
                raw: m,
                arrived: None,
                wait_for_claim: wait,
                passed_over,
            },
            reading,
            span: tracing::info_span!(
                "message",
                uid = *uid,
                game = tracing::field::Empty,
                power = tracing::field::Empty
            ),
        })
        .collect();
    games::process_batch(pool, &env(), &queued, T0 + 60).await
}

/// The UIDs of the GM box in the ledger.
async fn ledger_uids(pool: &Pool) -> Vec<i64> {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query_scalar("SELECT uid FROM ledger WHERE mailbox = 'gm' ORDER BY uid")
        .fetch_all(&mut *c)
        .await
        .expect("ledger")
}

/// Whom the acknowledgements go to.
async fn acked(pool: &Pool) -> Vec<String> {
    outbox(pool)
        .await
        .into_iter()
        .filter(|o| o.0 == "ack")
        .map(|o| o.1)
        .collect()
}

/// A trigger that makes the store refuse every row of `table` for which `when` holds (written
/// the same on either database), with `why` as the error.
async fn refuse_rows(pool: &Pool, table: &str, when: &str, why: &str) {
    let mut c = pool.acquire().await.expect("conn");
    let statements = if fixtures::database::postgres().is_some() {
        vec![
            format!(
                "CREATE FUNCTION refuse_{table}() RETURNS trigger AS $$
                 BEGIN RAISE EXCEPTION '{why}'; END $$ LANGUAGE plpgsql"
            ),
            format!(
                "CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} FOR EACH ROW
                 WHEN ({when}) EXECUTE FUNCTION refuse_{table}()"
            ),
        ]
    } else {
        vec![format!(
            "CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} WHEN {when}
             BEGIN SELECT RAISE(ABORT, '{why}'); END"
        )]
    };
    for sql in statements {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut *c)
            .await
            .expect("trigger");
    }
}

#[tokio::test]
async fn a_message_that_fails_in_a_batch_leaves_nothing_and_the_ones_before_it_commit() {
    // Issue 22, point 4: messages are committed a group at a time, each in a savepoint of its
    // own. France's submission cannot be written here (the store refuses it after France's
    // standing orders were written): France's message must leave nothing behind, Austria's
    // before it must commit, and England's after it is left for the next batch.
    let pool = setup("batch-commit", &["wm1"]).await;
    refuse_rows(
        &pool,
        "submissions",
        "NEW.power = 'FRANCE'",
        "the store refuses France",
    )
    .await;
    let (austria, france, england) = (
        orders_of(0, "A Vie - Gal"),
        orders_of(2, "A Par - Bur"),
        orders_of(1, "F Lon - Nth"),
    );
    let run = batch(&pool, &[(1, &austria), (2, &france), (3, &england)]).await;
    assert_eq!(run.done, vec![Processed::Accepted]);
    assert!(
        matches!(&run.failed, Some(engine::Failure::Error(e)) if e.contains("the store refuses France")),
        "{:?}",
        run.failed
    );
    assert_eq!(ledger_uids(&pool).await, vec![1]);
    assert_eq!(acked(&pool).await, vec![player(0)]);
    assert_eq!(standing(&pool, "AUSTRIA").await, vec!["A VIE - GAL"]);
    assert!(standing(&pool, "FRANCE").await.is_empty(), "undone");
    {
        let mut c = pool.acquire().await.expect("conn");
        let kept: i64 = sqlx::query_scalar("SELECT count(*) FROM messages WHERE uid = 2")
            .fetch_one(&mut *c)
            .await
            .expect("messages");
        assert_eq!(kept, 0, "France's raw mail went with its savepoint");
    }
    // The reader goes on: England's in a new batch; France's alone fails again, and is set
    // aside once it has failed too often.
    let run = batch(&pool, &[(3, &england)]).await;
    assert_eq!((run.done, run.failed), (vec![Processed::Accepted], None));
    let inc = Incoming {
        mailbox: "gm",
        uidvalidity: 1,
        uid: 2,
        raw: &france,
        arrived: None,
        wait_for_claim: false,
        passed_over: None,
    };
    assert!(
        games::process_message(&pool, &env(), &inc, &engine::read(&france), T0 + 61)
            .await
            .is_err()
    );
    engine::poison_message(&pool, &env(), &inc, "the store refuses France", T0 + 62)
        .await
        .expect("set aside");
    assert_eq!(ledger_uids(&pool).await, vec![1, 2, 3]);
    assert_eq!(acked(&pool).await, vec![player(0), player(1)]);
    assert!(standing(&pool, "FRANCE").await.is_empty());
}

#[tokio::test]
async fn a_batch_finds_in_the_ledger_what_was_done_before_it() {
    // Issue 28: a batch's claims and ledger lookups are made for all its messages at once,
    // before the first. A message already in the ledger, by its UID or by its bytes under
    // another UID, must still be a duplicate.
    let pool = setup("batch-admission", &["wm1"]).await;
    let (austria, england) = (orders_of(0, "A Vie - Gal"), orders_of(1, "F Lon - Nth"));
    let run = batch(&pool, &[(1, &austria)]).await;
    assert_eq!((run.done, run.failed), (vec![Processed::Accepted], None));
    let run = batch(&pool, &[(1, &austria), (4, &austria), (5, &england)]).await;
    assert_eq!(
        (run.done, run.failed),
        (
            vec![
                Processed::AlreadyDone,
                Processed::AlreadyDone,
                Processed::Accepted
            ],
            None
        )
    );
    assert_eq!(ledger_uids(&pool).await, vec![1, 5]);
    assert_eq!(acked(&pool).await, vec![player(0), player(1)]);
}

#[tokio::test]
async fn a_batch_whose_records_cannot_be_written_keeps_nothing_of_any_message() {
    // Issue 28: a batch's `messages` and ledger rows are written together as it ends. When that
    // write fails, no message of the batch may keep its effects or answers without its ledger
    // row: the whole batch rolls back, and the reader then takes each message alone.
    let pool = setup("batch-records", &["wm1"]).await;
    refuse_rows(&pool, "ledger", "NEW.uid = 2", "the store refuses UID 2").await;
    let (austria, england) = (orders_of(0, "A Vie - Gal"), orders_of(1, "F Lon - Nth"));
    let failed = try_batch(&pool, &[(1, &austria), (2, &england)]).await;
    assert!(
        failed
            .as_ref()
            .is_err_and(|e| e.to_string().contains("the store refuses UID 2")),
        "{failed:?}"
    );
    assert_nothing_kept(&pool).await;
    assert!(standing(&pool, "AUSTRIA").await.is_empty(), "rolled back");
    // Alone, Austria's goes through.
    accepted_alone(&pool, &austria).await;
}

/// Nothing in the ledger, nothing answered.
async fn assert_nothing_kept(pool: &Pool) {
    assert!(ledger_uids(pool).await.is_empty());
    assert!(acked(pool).await.is_empty());
}

/// Austria's `mail`, as UID 1 and alone, is accepted and acknowledged (the first answer).
async fn accepted_alone(pool: &Pool, mail: &[u8]) {
    let run = batch(pool, &[(1, mail)]).await;
    assert_eq!((run.done, run.failed), (vec![Processed::Accepted], None));
    assert_eq!(acked(pool).await, vec![player(0)]);
}

#[tokio::test]
async fn a_batch_leaves_a_message_another_instance_holds_and_handles_the_rest() {
    // Issue 28: on PostgreSQL, a message another instance has claimed is left to it (answered
    // there, or here once its claim is gone), and the batch goes on with the others. SQLite has
    // one writer: its claims are the write lock, and no second holder can exist (this test
    // needs the suite's PostgreSQL run).
    if fixtures::database::postgres().is_none() {
        return;
    }
    let pool = setup("batch-claimed", &["wm1"]).await;
    let (austria, england) = (orders_of(0, "A Vie - Gal"), orders_of(1, "F Lon - Nth"));
    let reading = engine::read(&austria);
    let seen = store::Seen {
        mailbox: "gm",
        uidvalidity: 1,
        uid: 1,
        sha256: &reading.sha256,
        content_sha256: &reading.content_sha256,
    };
    let mut other = pool
        .begin()
        .await
        .expect("the other instance's transaction");
    assert!(
        store::claim_message(&mut other, &seen, false)
            .await
            .expect("claim")
    );
    let run = batch(&pool, &[(1, &austria), (2, &england)]).await;
    assert_eq!(
        (run.done, run.failed),
        (vec![Processed::Claimed, Processed::Accepted], None)
    );
    assert_eq!(ledger_uids(&pool).await, vec![2]);
    // The other instance died without handling it: its claim went with its transaction.
    other.rollback().await.expect("let go");
    let run = batch(&pool, &[(1, &austria)]).await;
    assert_eq!((run.done, run.failed), (vec![Processed::Accepted], None));
    assert_eq!(ledger_uids(&pool).await, vec![1, 2]);
    assert_eq!(acked(&pool).await, vec![player(1), player(0)]);
}

#[tokio::test]
async fn a_tick_leaves_a_game_whose_mail_is_being_handled_and_a_mail_leaves_a_ticking_game() {
    // Issue 28: on PostgreSQL the mailbox and the scheduler write on connections of their own
    // (and several instances share the ticks). A tick that adjudicated a phase while a mail
    // for it was being handled would leave that mail's accepted orders out of the results;
    // a mail handled while the tick runs would be acknowledged for a phase already decided.
    // The game is taken by one transaction at a time: the other leaves it, and takes it once
    // it is free. (SQLite's single writer does this by itself: this test needs the suite's
    // PostgreSQL run.)
    if fixtures::database::postgres().is_none() {
        return;
    }
    let pool = setup("tick-and-mail", &["wm1"]).await;
    let after = open_deadline(&pool, "wm1").await + 60;
    // A mail of wm1 is being handled (its transaction has taken the game).
    let mut mail = pool.begin().await.expect("the mail's transaction");
    assert!(matches!(
        store::take_game(&mut mail, "WM1", false).await.expect("take"),
        store::Taken::Game(g) if g.id == "wm1"
    ));
    let env = env();
    assert_eq!(
        games::tick(&pool, &env, after).await.expect("tick"),
        0,
        "left"
    );
    mail.rollback().await.expect("done");
    assert_eq!(games::tick(&pool, &env, after).await.expect("tick"), 1);
    // Now a tick holds wm1: a mail for it is left (answered once the tick is over).
    let mut tick = pool.begin().await.expect("the tick's transaction");
    let due = store::claim_due(&mut tick, &["wm1".to_string()], i64::MAX)
        .await
        .expect("claim");
    assert_eq!(due, vec!["wm1".to_string()]);
    let austria = raw(
        &player(0),
        "gm@example.test",
        "wm1 AUSTRIA F1901M",
        "",
        &orders(0, "A Vie H"),
    );
    let run = batch(&pool, &[(1, &austria)]).await;
    assert_eq!((run.done, run.failed), (vec![Processed::Claimed], None));
    assert_nothing_kept(&pool).await;
    tick.rollback().await.expect("done");
    accepted_alone(&pool, &austria).await;
}

#[tokio::test]
async fn a_mail_waiting_for_its_game_reads_it_as_its_holder_left_it() {
    // Issue 28: a mail taken up again waits for whoever holds its game, then reads the game
    // as that transaction committed it, not as it was when the wait began (a locking read
    // follows the row's update). Here the holder ended the game: the mail must see it over.
    // (PostgreSQL only: SQLite's writer reads after taking the whole database.)
    if fixtures::database::postgres().is_none() {
        return;
    }
    let pool = setup("take-fresh", &["wm1"]).await;
    let mut holder = pool.begin().await.expect("the holder's transaction");
    assert!(matches!(
        store::take_game(&mut holder, "wm1", false)
            .await
            .expect("take"),
        store::Taken::Game(_)
    ));
    sqlx::query("UPDATE games SET status = 'finished' WHERE id = 'wm1'")
        .execute(&mut *holder)
        .await
        .expect("end the game");
    let waiter = {
        let pool = pool.clone();
        tokio::spawn(async move {
            let mut c = pool.begin().await.expect("the waiter's transaction");
            let taken = store::take_game(&mut c, "wm1", true).await.expect("take");
            c.commit().await.expect("commit");
            taken
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!waiter.is_finished(), "the waiter waits for the holder");
    // Meanwhile a mail that does not wait finds the game held.
    let mut other = pool.begin().await.expect("another transaction");
    assert_eq!(
        store::take_game(&mut other, "wm1", false)
            .await
            .expect("take"),
        store::Taken::Held("wm1".to_string())
    );
    other.rollback().await.expect("done");
    holder.commit().await.expect("commit");
    match waiter.await.expect("the waiter") {
        store::Taken::Game(g) => assert_eq!(g.status, store::GameStatus::Finished),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_mail_passed_over_keeps_its_games_later_mail_behind_it() {
    // Issue 28: a mail whose game a tick holds is passed over, and looked at again at the end
    // of the reader's pass. A later mail of that game in the same pass waits with it: handled
    // first, the newer mail would have the older one refused as a replay at the pass's end (its
    // orders, press and votes lost). Other games' mail goes on. (PostgreSQL only: SQLite's
    // single writer never finds a game held.)
    if fixtures::database::postgres().is_none() {
        return;
    }
    let pool = setup("passed-over", &["wm1", "wm2"]).await;
    let france = |id: &str, date: &str, line: &str| {
        format!(
            "From: {}\r\nTo: gm@example.test\r\nSubject: wm1 FRANCE S1901M\r\nDate: {date}\r\n\
             Message-ID: <{id}@player.test>\r\n\r\n{}",
            player(2),
            orders(2, line)
        )
        .into_bytes()
    };
    let older = france(
        "older",
        "Wed, 18 Nov 2026 10:00:00 +0000",
        "A Par - Bur\nA Mar - Spa",
    );
    let newer = france("newer", "Wed, 18 Nov 2026 10:30:00 +0000", "A Par - Pic");
    let elsewhere = raw(
        &player(0),
        "gm@example.test",
        "wm2 AUSTRIA S1901M",
        "",
        &orders(0, "A Vie - Gal"),
    );
    let passed = engine::PassedOver::default();
    // A tick holds wm1 while the pass reads France's older mail.
    let mut tick = pool.begin().await.expect("the tick's transaction");
    let due = store::claim_due(&mut tick, &["wm1".to_string()], i64::MAX).await;
    assert_eq!(due.expect("claim"), vec!["wm1".to_string()]);
    let run = try_batch_in(&pool, &[(1, &older)], Some(&passed), false).await;
    assert_eq!(run.expect("batch").done, vec![Processed::Claimed]);
    assert!(passed.has("wm1"));
    tick.rollback().await.expect("the tick ends");
    // The game is free now, but its newer mail waits behind the older; wm2's goes on.
    let run = try_batch_in(&pool, &[(2, &newer), (3, &elsewhere)], Some(&passed), false).await;
    let done = run.expect("batch").done;
    assert_eq!(done, vec![Processed::Claimed, Processed::Accepted]);
    assert!(standing(&pool, "FRANCE").await.is_empty());
    // The pass's end: each looked at again in the order it arrived, as the reader does.
    for (uid, mail) in [(1, &older), (2, &newer)] {
        let run = try_batch_in(&pool, &[(uid, mail)], None, true).await;
        assert_eq!(run.expect("batch").done, vec![Processed::Accepted]);
    }
    // The newer set replaces the older (WM D.III(3)), and nothing was refused.
    assert_eq!(
        standing(&pool, "FRANCE").await,
        vec!["A PAR - PIC".to_string()]
    );
    let out = outbox(&pool).await;
    assert!(out.iter().all(|o| o.0 != "rejection"), "{out:?}");
    assert_eq!(out.iter().filter(|o| o.0 == "ack").count(), 3, "{out:?}");
}

/// A tracing layer that panics when the engine records `power` on the span of message `uid`:
/// a bug in the middle of one message's handling, as the reader's isolation must survive.
struct PanicOnPower {
    uid: u64,
}

#[derive(Clone, Copy)]
struct SpanUid(u64);

struct UidVisitor(Option<u64>);

impl tracing::field::Visit for UidVisitor {
    fn record_u64(&mut self, field: &tracing::field::Field, value: u64) {
        if field.name() == "uid" {
            self.0 = Some(value);
        }
    }
    fn record_debug(&mut self, _: &tracing::field::Field, _: &dyn std::fmt::Debug) {}
}

impl<S> tracing_subscriber::Layer<S> for PanicOnPower
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        let mut uid = UidVisitor(None);
        attrs.record(&mut uid);
        if let (Some(u), Some(span)) = (uid.0, ctx.span(id)) {
            span.extensions_mut().insert(SpanUid(u));
        }
    }

    fn on_record(
        &self,
        id: &tracing::span::Id,
        values: &tracing::span::Record<'_>,
        ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        let Some(span) = ctx.span(id) else { return };
        let ours = span
            .extensions()
            .get::<SpanUid>()
            .is_some_and(|u| u.0 == self.uid);
        let power = span.metadata().fields().field("power");
        drop(span);
        if ours && power.is_some_and(|f| values.contains(&f)) {
            panic!("a bug in the handling of message {}", self.uid);
        }
    }
}

#[tokio::test]
async fn a_message_that_panics_in_a_batch_is_rolled_back_alone_and_the_ones_before_it_commit() {
    // Issue 22, point 4: a panic in the middle of one message of a batch (here as the engine
    // names the message's power) must not take the messages before it with it, nor leave
    // anything of its own; the connection stays usable for the next batch.
    use tracing_subscriber::layer::SubscriberExt;
    let pool = setup("batch-panic", &["wm1"]).await;
    let subscriber = tracing_subscriber::registry().with(PanicOnPower { uid: 2 });
    let _guard = tracing::subscriber::set_default(subscriber);
    // The other tests of this binary run beside this one with no subscriber: a span's
    // callsite they register while this one's subscriber is being set may keep "no one is
    // interested" (it happened once in scripts/test: the panic never came). Asked again now, every
    // callsite counts this thread's subscriber in.
    tracing::callsite::rebuild_interest_cache();
    let (austria, france, england) = (
        orders_of(0, "A Vie - Gal"),
        orders_of(2, "A Par - Bur"),
        orders_of(1, "F Lon - Nth"),
    );
    let run = batch(&pool, &[(1, &austria), (2, &france), (3, &england)]).await;
    assert_eq!(run.done, vec![Processed::Accepted]);
    assert!(
        matches!(&run.failed, Some(engine::Failure::Panic(e)) if e.contains("a bug in the handling of message 2")),
        "{:?}",
        run.failed
    );
    assert_eq!(ledger_uids(&pool).await, vec![1]);
    assert_eq!(acked(&pool).await, vec![player(0)]);
    assert!(standing(&pool, "FRANCE").await.is_empty());
    let run = batch(&pool, &[(3, &england)]).await;
    assert_eq!((run.done, run.failed), (vec![Processed::Accepted], None));
    assert_eq!(ledger_uids(&pool).await, vec![1, 3]);
}

#[tokio::test]
async fn a_message_repeated_in_one_batch_is_processed_once() {
    // What a batch's earlier messages recorded counts for its later ones (the batch remembers
    // it: the ledger was read for all of them before the first): the same mail twice in one
    // batch (a redelivery under a new UID) is one message.
    let pool = setup("batch-dedup", &["wm1"]).await;
    let austria = orders_of(0, "A Vie - Gal");
    let run = batch(&pool, &[(1, &austria), (2, &austria)]).await;
    assert_eq!(run.done, vec![Processed::Accepted, Processed::AlreadyDone]);
    assert_eq!(ledger_uids(&pool).await, vec![1]);
    assert_eq!(acked(&pool).await, vec![player(0)]);
}
