//! Hostile, broken and late mail over the real mail stack (Dovecot + Postfix on loopback) and a
//! real SQLite file, with the real `serve` tasks: nothing stops a game, nothing is lost,
//! nothing is judged late.

#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use chancery::config::Config;
use chancery::dev::localstack::POWERS;
use chancery::dev::localstack::server_config as server;
use chancery::games;
use chancery::policy::{DAY, Ts};
use chancery::rules::Rules;
use chancery::service::{self, Clock, Tasks};
use chancery::store::{self, PlayerRow};
use chancery::transport::imap::Mailbox;
use lettre::address::Envelope;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use mailstack::Stack;
use sqlx::Row;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn player(i: usize) -> String {
    format!("player{}@example.test", i + 1)
}

/// Real time moved by a fixed offset: the game's deadlines fall where the test wants them,
/// and the mail server's arrival times map onto the same clock.
struct OffsetClock(i64);

impl Clock for OffsetClock {
    fn now(&self) -> Ts {
        chrono::Utc::now().timestamp() + self.0
    }

    fn game_time(&self, unix: i64) -> Ts {
        unix + self.0
    }
}

/// Spring 1901 orders for each power, in `POWERS` order.
const OPENING: [&str; 7] = [
    "A Vie - Gal\r\nA Bud - Ser\r\nF Tri - Alb",
    "F Lon - Nth\r\nF Edi - Nwg\r\nA Lvp - Yor",
    "A Par - Bur\r\nF Bre - Mao\r\nA Mar - Spa",
    "F Kie - Den\r\nA Ber - Kie\r\nA Mun - Ruh",
    "A Ven H\r\nA Rom - Apu\r\nF Nap - Ion",
    "F StP/sc - Bot\r\nA Mos - Ukr\r\nA War - Gal\r\nF Sev - Bla",
    "F Ank - Bla\r\nA Con - Bul\r\nA Smy - Arm",
];

/// A game `wm1` with seven players (secrets s1..s7), started at `start`; returns the db path.
async fn game(dir: &Path, start: Ts) -> PathBuf {
    std::fs::create_dir_all(dir).expect("dir");
    let db = dir.join("chancery.sqlite");
    let pool = store::open(&db).await.expect("db");
    let rules = Rules {
        subject_format: "{game} {power} {phase}".into(),
        ..Rules::default()
    };
    let mut c = pool.acquire().await.expect("conn");
    store::create_game(
        &mut c,
        "wm1",
        "standard",
        &serde_json::to_string(&rules).expect("rules"),
        "gm@example.test",
        "confirm@example.test",
        start,
    )
    .await
    .expect("game");
    for (i, power) in POWERS.iter().enumerate() {
        store::add_player(
            &mut c,
            "wm1",
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
    games::start_game(&pool, "wm1", start).await.expect("start");
    pool.close().await;
    db
}

fn config(stack: &Stack, db: &Path, poll: u64) -> Config {
    Config {
        database: db.to_path_buf(),
        authserv_id: "mx.example.test".into(),
        message_id_domain: "chancery.example.test".into(),
        poll_seconds: poll,
        smtp: server(stack.smtp_port(), ""),
        gm_mailbox: server(stack.imap_port(), "gm@example.test"),
        confirm_mailbox: server(stack.imap_port(), "confirm@example.test"),
        archive_mailbox: Some(server(stack.imap_port(), "archive@example.test")),
        masters: vec!["td@example.test".into()],
        deadline_grace_seconds: 2,
        archive_grace_seconds: 60,
        limits: Default::default(),
        smtp_connections: 4,
        web: None,
    }
}

/// Send raw bytes over SMTP, as any sender on the internet could.
async fn send_raw(stack: &Stack, from: &str, to: &[&str], raw: &[u8]) {
    let smtp = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
        .port(stack.smtp_port())
        .build();
    let envelope = Envelope::new(
        Some(from.parse().expect("from")),
        to.iter().map(|t| t.parse().expect("to")).collect(),
    )
    .expect("envelope");
    smtp.send_raw(&envelope, raw).await.expect("send");
}

fn mail(from: &str, to: &str, cc: &str, subject: &str, extra: &str, body: &str) -> Vec<u8> {
    let id = format!(
        "<{}.{}@sender.test>",
        std::process::id(),
        chancery::outgoing::ids::short_hash(&format!("{from}{subject}{body}{extra}"))
    );
    let cc = if cc.is_empty() {
        String::new()
    } else {
        format!("Cc: {cc}\r\n")
    };
    format!(
        "{extra}From: {from}\r\nTo: {to}\r\n{cc}Subject: {subject}\r\nMessage-ID: {id}\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{body}"
    )
    .into_bytes()
}

/// Subjects of the mails in `user`'s inbox.
async fn subjects(stack: &Stack, user: &str) -> Vec<String> {
    let mut mb = Mailbox::connect(&stack.imap_config(user), "INBOX")
        .await
        .expect("imap");
    let mut out = Vec::new();
    let mut last = 0;
    loop {
        let batch = mb.fetch_after(last, 100).await.expect("fetch");
        for f in &batch.messages {
            last = last.max(f.uid);
            out.push(
                chancery::message::read_message(&f.raw)
                    .map(|m| m.subject)
                    .unwrap_or_default(),
            );
        }
        if !batch.more {
            break;
        }
    }
    mb.logout().await;
    out
}

async fn wait_until<F: AsyncFnMut() -> bool>(what: &str, limit: Duration, mut f: F) -> Duration {
    let start = Instant::now();
    while start.elapsed() < limit {
        if f().await {
            return start.elapsed();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: not within {limit:?}");
}

#[tokio::test]
async fn hostile_mail_stops_nothing() {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    let now = chrono::Utc::now().timestamp();
    let db = game(&dir, now).await;
    let poll = 10;
    let cfg = config(&stack, &db, poll);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let server_task = {
        let cfg = cfg.clone();
        let base = dir.clone();
        tokio::spawn(async move {
            service::serve_with(
                cfg,
                &base,
                Arc::new(service::SystemClock),
                stopped,
                Tasks { scheduler: true },
            )
            .await
        })
    };
    let gm = "gm@example.test";
    let confirm = "confirm@example.test";

    // 1. An 8-bit header before From in a mail over the size limit (the sender_of_raw panic).
    let mut big = mail(
        &player(0),
        gm,
        "",
        "wm1 AUSTRIA S1901M",
        "Cc: éva <x@example.test>\r\n",
        "SECRET s1\r\nA Vie - Gal\r\n",
    );
    let line = format!("{}\r\n", "x".repeat(998));
    while big.len() < 5_400_000 {
        big.extend_from_slice(line.as_bytes());
    }
    send_raw(&stack, &player(0), &[gm], &big).await;

    // 2. 200,000 blank lines between two orders (the quadratic body cleaning).
    let blank = format!(
        "SECRET s2\r\nF Lon - Nth\r\n{}A Lvp - Yor\r\n",
        "\r\n".repeat(200_000)
    );
    send_raw(
        &stack,
        &player(1),
        &[gm],
        &mail(&player(1), gm, "", "wm1 ENGLAND S1901M", "", &blank),
    )
    .await;

    // 3. A forged Authentication-Results claiming our own server's DKIM pass, and no secret.
    send_raw(
        &stack,
        &player(2),
        &[gm],
        &mail(
            &player(2),
            gm,
            "",
            "wm1 FRANCE S1901M",
            "Authentication-Results: mx.example.test; dkim=pass header.d=example.test; dmarc=pass header.from=example.test\r\n",
            "A Par - Bur\r\n",
        ),
    )
    .await;

    // 4. Five mails from a stranger to the GM box, three to the confirmation box.
    for i in 0..5 {
        let m = mail(
            "stranger@elsewhere.test",
            gm,
            "",
            &format!("hello {i}"),
            "",
            "A Par - Bur\r\n",
        );
        send_raw(&stack, "stranger@elsewhere.test", &[gm], &m).await;
    }
    for i in 0..3 {
        let m = mail(
            "stranger@elsewhere.test",
            gm,
            confirm,
            &format!("wm1 FRANCE S1901M {i}"),
            "",
            "A Par - Bur\r\n",
        );
        send_raw(&stack, "stranger@elsewhere.test", &[confirm], &m).await;
    }

    // 5. A press block without ENDPRESS, with the secret and the orders after it.
    send_raw(
        &stack,
        &player(3),
        &[gm],
        &mail(
            &player(3),
            gm,
            "",
            "wm1 GERMANY S1901M",
            "",
            "PRESS TO ALL\r\nGreetings from Berlin.\r\n\r\nSECRET s4\r\nF Kie - Den\r\nA Ber - Kie\r\n",
        ),
    )
    .await;

    // 6. Then a normal order mail: answered within one polling period.
    let sent = Instant::now();
    send_raw(
        &stack,
        &player(4),
        &[gm],
        &mail(
            &player(4),
            gm,
            "",
            "wm1 ITALY S1901M",
            "",
            "SECRET s5\r\nA Ven H\r\n",
        ),
    )
    .await;
    let took = wait_until(
        "Italy's acknowledgement",
        Duration::from_secs(60),
        async || {
            subjects(&stack, &player(4))
                .await
                .iter()
                .any(|s| s.contains("S1901M"))
        },
    )
    .await;
    assert!(
        took <= Duration::from_secs(poll),
        "answered in {took:?}, more than one polling period ({poll} s) after it was sent ({:?} since)",
        sent.elapsed()
    );
    assert!(!server_task.is_finished(), "the server is still running");

    // Every hostile mail was processed: the ledger has all 12 GM-box mails... and 3 receipts' worth.
    let pool = store::open(&db).await.expect("db");
    wait_until("the ledger", Duration::from_secs(60), async || {
        let mut c = pool.acquire().await.expect("conn");
        let n: i64 = sqlx::query("SELECT count(*) FROM ledger")
            .fetch_one(&mut *c)
            .await
            .expect("count")
            .get(0);
        n == 13
    })
    .await;
    let mut c = pool.acquire().await.expect("conn");
    let poisoned = store::poisoned(&mut c).await.expect("poisoned");
    assert!(poisoned.is_empty(), "{poisoned:?}");
    // Issue 21.11: the mail over the size limit was neither downloaded nor kept whole: its
    // RFC822.SIZE was asked first, and only its header block was fetched and stored.
    let kept: i64 = sqlx::query("SELECT length(raw) FROM messages WHERE from_address = $1")
        .bind(player(0))
        .fetch_one(&mut *c)
        .await
        .expect("austria")
        .get(0);
    assert!(
        kept <= chancery::transport::imap::HEAD_BYTES as i64,
        "{kept} bytes kept"
    );
    let standing = store::diplomacy::standing_orders(&mut c, "wm1", "S1901M")
        .await
        .expect("standing");
    let powers: Vec<&str> = standing.iter().map(|s| s.power.as_str()).collect();
    // England (blank lines), Germany (press without ENDPRESS) and Italy are in; Austria's mail
    // was too large, France's forged proof of identity was not trusted.
    assert_eq!(powers, vec!["ENGLAND", "GERMANY", "ITALY"]);
    let has = |i: usize, order: &str| standing[i].orders.iter().any(|o| o.order == order);
    assert!(
        has(0, "F LON - NTH") && has(0, "A LVP - YOR"),
        "{:?}",
        standing[0].orders
    );
    assert!(
        has(1, "F KIE - DEN") && has(1, "A BER - KIE"),
        "{:?}",
        standing[1].orders
    );
    // The press is the one line written for it: no secret, no orders.
    let press: Vec<String> = sqlx::query("SELECT body FROM press")
        .fetch_all(&mut *c)
        .await
        .expect("press")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(press.len(), 1, "{press:?}");
    assert!(press[0].contains("Greetings from Berlin"), "{press:?}");
    assert!(
        !press[0].contains("s4") && !press[0].contains("Kie"),
        "{press:?}"
    );
    drop(c);

    // Austria is told its mail was too large; France that its secret is missing; the stranger
    // (whose mail lands in the catch-all box) gets one answer; the confirmation box answered no
    // stranger.
    wait_until("Austria's answer", Duration::from_secs(30), async || {
        !subjects(&stack, &player(0)).await.is_empty()
    })
    .await;
    wait_until("France's answer", Duration::from_secs(30), async || {
        !subjects(&stack, &player(2)).await.is_empty()
    })
    .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let stranger = subjects(&stack, "catchall@example.test").await;
    assert_eq!(stranger.len(), 1, "{stranger:?}");
    // The masters hear of nothing set aside, and the mailboxes are live.
    let mut c = pool.acquire().await.expect("conn");
    let states = store::mailbox_states(&mut c).await.expect("states");
    assert_eq!(states.len(), 2);
    let t = chrono::Utc::now().timestamp();
    for s in &states {
        assert!(
            s.last_poll_ok.is_some_and(|ok| t - ok <= 3 * poll as i64),
            "{s:?}"
        );
    }
    drop(c);
    pool.close().await;

    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}

#[tokio::test]
async fn orders_that_arrived_before_the_deadline_count_after_an_outage() {
    // Issue 9, point 3: the server is down; orders are delivered before the deadline; the
    // server starts after it. They are on time, and nobody is NMR.
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    // Game time runs as real time, shifted so that the deadline falls 6 s from now.
    let real_now = chrono::Utc::now().timestamp();
    let game_start = 1_795_000_000;
    let offset = game_start + 3 * DAY - 6 - real_now;
    let clock = Arc::new(OffsetClock(offset));
    let db = game(&dir, game_start).await;
    let deadline = game_start + 3 * DAY;
    for (i, o) in OPENING.iter().enumerate() {
        let body = format!("SECRET s{}\r\n{o}\r\n", i + 1);
        let m = mail(
            &player(i),
            "gm@example.test",
            "",
            &format!("wm1 {} S1901M", POWERS[i]),
            "",
            &body,
        );
        send_raw(&stack, &player(i), &["gm@example.test"], &m).await;
    }
    assert!(
        clock.now() < deadline,
        "the orders went in before the deadline"
    );
    // The outage lasts past the deadline.
    while clock.now() < deadline + 3 {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let cfg = config(&stack, &db, 30);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let server_task = {
        let base = dir.clone();
        let clock = clock.clone();
        tokio::spawn(async move {
            service::serve_with(cfg, &base, clock, stopped, Tasks { scheduler: true }).await
        })
    };
    // Results reach every player, with no NMR.
    for i in 0..7 {
        wait_until("the results", Duration::from_secs(60), async || {
            subjects(&stack, &player(i))
                .await
                .iter()
                .any(|s| s.contains("results") || s.contains("Results"))
        })
        .await;
    }
    let pool = store::open(&db).await.expect("db");
    let mut c = pool.acquire().await.expect("conn");
    let late: i64 =
        sqlx::query("SELECT count(*) FROM submissions WHERE late = 1 OR submitted_at > $1")
            .bind(deadline)
            .fetch_one(&mut *c)
            .await
            .expect("late")
            .get(0);
    assert_eq!(late, 0, "every order set counts as on time");
    let subs: i64 = sqlx::query("SELECT count(*) FROM submissions")
        .fetch_one(&mut *c)
        .await
        .expect("subs")
        .get(0);
    assert_eq!(subs, 7);
    let results: String = sqlx::query("SELECT results FROM phases WHERE phase = 'S1901M'")
        .fetch_one(&mut *c)
        .await
        .expect("results")
        .get(0);
    assert!(results.contains("\"F1901M\""), "{results}");
    let body: String = sqlx::query("SELECT body FROM outbox WHERE kind = 'results' LIMIT 1")
        .fetch_one(&mut *c)
        .await
        .expect("body")
        .get(0);
    assert!(!body.contains("NMR"), "{body}");
    assert!(
        body.contains("A PAR - BUR") || body.contains("A Par - Bur"),
        "{body}"
    );
    drop(c);
    pool.close().await;
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}

#[tokio::test]
async fn a_mailbox_that_cannot_be_read_holds_the_deadline_and_the_masters_are_told() {
    // Issue 9, points 1 and 3: a silent mailbox is an alert, and a deadline waits rather than
    // being adjudicated with orders possibly unread.
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    let now = chrono::Utc::now().timestamp();
    let deadline = now + 2;
    let db = game(&dir, deadline - 3 * DAY).await;
    let mut cfg = config(&stack, &db, 1);
    cfg.gm_mailbox.password = "wrong".into();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let server_task = {
        let cfg = cfg.clone();
        let base = dir.clone();
        tokio::spawn(async move {
            service::serve_with(
                cfg,
                &base,
                Arc::new(service::SystemClock),
                stopped,
                Tasks { scheduler: true },
            )
            .await
        })
    };
    wait_until("the masters' alerts", Duration::from_secs(30), async || {
        let s = subjects(&stack, "td@example.test").await;
        s.iter().any(|s| s.contains("gm mailbox has not been read"))
            && s.iter().any(|s| s.contains("the deadline waits"))
    })
    .await;
    let pool = store::open(&db).await.expect("db");
    {
        let mut c = pool.acquire().await.expect("conn");
        let p = store::current_phase(&mut c, "wm1")
            .await
            .expect("q")
            .expect("phase");
        assert_eq!(
            p.phase, "S1901M",
            "not adjudicated while the GM box is unread"
        );
        let states = store::mailbox_states(&mut c).await.expect("states");
        let gm = states.iter().find(|s| s.mailbox == "gm").expect("gm state");
        assert_eq!(gm.last_poll_ok, None);
        assert!(
            gm.last_error
                .as_deref()
                .is_some_and(|e| e.contains("LOGIN")),
            "{gm:?}"
        );
    }
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
    // Each alert went once.
    let s = subjects(&stack, "td@example.test").await;
    assert_eq!(
        s.iter()
            .filter(|s| s.contains("the deadline waits"))
            .count(),
        1,
        "{s:?}"
    );

    // With the mailbox readable again, the deadline is processed.
    let cfg = config(&stack, &db, 1);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let base = dir.clone();
    let server_task = tokio::spawn(async move {
        service::serve_with(
            cfg,
            &base,
            Arc::new(service::SystemClock),
            stopped,
            Tasks { scheduler: true },
        )
        .await
    });
    wait_until("the adjudication", Duration::from_secs(30), async || {
        let mut c = pool.acquire().await.expect("conn");
        store::current_phase(&mut c, "wm1")
            .await
            .expect("q")
            .is_some_and(|p| p.phase != "S1901M")
    })
    .await;
    pool.close().await;
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}

#[tokio::test]
async fn a_dkim_signed_order_needs_no_secret_and_a_forged_pass_a_broken_signature_a_forged_domain_and_a_replay_are_not_trusted()
 {
    // Issue 9, point 4, end to end: the border MX (the stack with OpenDKIM) verifies the
    // signature and writes the topmost Authentication-Results; Chancery trusts that one only.
    chancery::transport::init_crypto();
    let stack = Stack::start_with_dkim();
    let dir = stack.dir.join("chancery");
    let now = chrono::Utc::now().timestamp();
    let db = game(&dir, now).await;
    let cfg = config(&stack, &db, 5);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let server_task = {
        let base = dir.clone();
        tokio::spawn(async move {
            service::serve_with(
                cfg,
                &base,
                Arc::new(service::SystemClock),
                stopped,
                Tasks { scheduler: false },
            )
            .await
        })
    };
    let order = |subject: &str, extra: &str, body: &str| {
        format!(
            "From: player1@example.test\r\nTo: gm@example.test\r\nSubject: {subject}\r\n\
             Date: Mon, 23 Nov 2026 09:00:00 +0000\r\nMessage-ID: <{}@example.test>\r\n\
             {extra}\r\n{body}",
            chancery::outgoing::ids::short_hash(subject)
        )
        .into_bytes()
    };
    // Signed by example.test, the player's own domain: no secret needed (secret_or_dkim).
    let signed = stack.dkim_sign(&order("wm1 AUSTRIA S1901M", "", "A Vie - Gal\r\n"));
    stack.smtp_send_raw("player1@example.test", "gm", &signed);
    wait_until(
        "Austria's acknowledgement",
        Duration::from_secs(30),
        async || !subjects(&stack, &player(0)).await.is_empty(),
    )
    .await;
    // Unsigned, with a forged pass of our own id: stripped at the border, and no secret.
    let forged = order(
        "wm1 AUSTRIA S1901M again",
        "Authentication-Results: mx.example.test; dkim=pass header.d=example.test\r\n",
        "A Vie - Tyr\r\n",
    );
    stack.smtp_send_raw("player1@example.test", "gm", &forged);
    // Issue 29, campaign 3. The signed mail replayed as it was: the same content, one answer.
    stack.smtp_send_raw("player1@example.test", "gm", &signed);
    // Signed, then changed in transit (the body): the signature fails, and there is no secret.
    let broken = String::from_utf8(stack.dkim_sign(&order(
        "wm1 AUSTRIA S1901M changed",
        "",
        "A Vie - Boh\r\n",
    )))
    .expect("utf-8")
    .replace("A Vie - Boh", "A Vie - Tri")
    .into_bytes();
    stack.smtp_send_raw("player1@example.test", "gm", &broken);
    // A forged From domain: Turkey plays from other.test; a mail in Turkey's name, signed with
    // a good signature of another domain (example.test's key), is no proof of Turkey.
    let pool = store::open(&db).await.expect("db");
    {
        let mut c = pool.acquire().await.expect("conn");
        sqlx::query("UPDATE players SET address = 'player7@other.test' WHERE power = 'TURKEY'")
            .execute(&mut *c)
            .await
            .expect("Turkey's address");
    }
    let turkey = stack.dkim_sign(
        &String::from_utf8(order("wm1 TURKEY S1901M", "", "F Ank - Bla\r\n"))
            .expect("utf-8")
            .replace("From: player1@example.test", "From: player7@other.test")
            .into_bytes(),
    );
    stack.smtp_send_raw("player7@other.test", "gm", &turkey);
    wait_until(
        "every mail processed",
        Duration::from_secs(30),
        async || {
            let mut c = pool.acquire().await.expect("conn");
            let n: i64 = sqlx::query("SELECT count(*) FROM messages WHERE mailbox = 'gm'")
                .fetch_one(&mut *c)
                .await
                .expect("count")
                .get(0);
            n == 4
        },
    )
    .await;
    let mut c = pool.acquire().await.expect("conn");
    let outcomes: Vec<(String, String)> =
        sqlx::query("SELECT subject, outcome FROM messages WHERE mailbox = 'gm' ORDER BY uid")
            .fetch_all(&mut *c)
            .await
            .expect("outcomes")
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
    let outcomes: Vec<(&str, &str)> = outcomes
        .iter()
        .map(|(s, o)| (s.as_str(), o.as_str()))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("wm1 AUSTRIA S1901M", "accepted"),
            ("wm1 AUSTRIA S1901M again", "rejected"),
            ("wm1 AUSTRIA S1901M changed", "rejected"),
            ("wm1 TURKEY S1901M", "rejected"),
        ],
        "the replay is the first mail again, handled once"
    );
    let signed_id = chancery::outgoing::ids::short_hash("wm1 AUSTRIA S1901M");
    let answers: i64 = sqlx::query("SELECT count(*) FROM outbox WHERE in_reply_to LIKE $1")
        .bind(format!("%{signed_id}@example.test%"))
        .fetch_one(&pool)
        .await
        .expect("answers")
        .get(0);
    assert_eq!(
        answers, 1,
        "one answer to the signed mail, none to its replay"
    );
    // What the border wrote for the changed mail and for Turkey's: a failed signature, and a
    // good one of a domain that is not the sender's.
    let raw_of = async |subject: &str| -> String {
        let raw: Vec<u8> = sqlx::query("SELECT raw FROM messages WHERE subject = $1")
            .bind(subject)
            .fetch_one(&pool)
            .await
            .expect("raw")
            .get(0);
        String::from_utf8_lossy(&raw).into_owned()
    };
    let changed = raw_of("wm1 AUSTRIA S1901M changed").await;
    assert!(
        changed.contains("Authentication-Results: mx.example.test;")
            && changed.contains("dkim=fail")
            && !changed.contains("dkim=pass"),
        "{changed}"
    );
    let turkey = raw_of("wm1 TURKEY S1901M").await;
    assert!(
        turkey.contains("Authentication-Results: mx.example.test;")
            && turkey.contains("dkim=pass")
            && turkey.contains("header.d=example.test")
            && turkey.contains("From: player7@other.test"),
        "{turkey}"
    );
    let standing = store::diplomacy::standing_orders(&mut c, "wm1", "S1901M")
        .await
        .expect("standing");
    assert!(
        standing[0].orders.iter().any(|o| o.order == "A VIE - GAL"),
        "{:?}",
        standing[0].orders
    );
    drop(c);
    pool.close().await;
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}

/// Game time as real time shifted by an offset the test moves (issue 29: ten minutes pass in an
/// instant while the relay is down).
struct MovableClock(std::sync::atomic::AtomicI64);

impl MovableClock {
    fn advance(&self, seconds: i64) {
        self.0
            .fetch_add(seconds, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Clock for MovableClock {
    fn now(&self) -> Ts {
        chrono::Utc::now().timestamp() + self.0.load(std::sync::atomic::Ordering::SeqCst)
    }

    fn game_time(&self, unix: i64) -> Ts {
        unix + self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// How many of `user`'s mails have a subject holding `needle`.
async fn count_subjects(stack: &Stack, user: &str, needle: &str) -> usize {
    subjects(stack, user)
        .await
        .iter()
        .filter(|s| s.contains(needle))
        .count()
}

/// Player `i`'s Spring 1901 orders for `wm1`, as a raw mail.
fn opening_mail(i: usize) -> Vec<u8> {
    let body = format!("SECRET s{}\r\n{}\r\n", i + 1, OPENING[i]);
    mail(
        &player(i),
        "gm@example.test",
        "",
        &format!("wm1 {} S1901M", POWERS[i]),
        "",
        &body,
    )
}

/// `serve` in this process on `clock`, with the scheduler or not: the stop signal and the task.
fn serve_in_process(
    cfg: Config,
    dir: &Path,
    clock: Arc<dyn Clock>,
    scheduler: bool,
) -> (
    tokio::sync::watch::Sender<bool>,
    tokio::task::JoinHandle<Result<(), service::ServeError>>,
) {
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let base = dir.to_path_buf();
    let task = tokio::spawn(async move {
        service::serve_with(cfg, &base, clock, stopped, Tasks { scheduler }).await
    });
    (stop, task)
}

#[tokio::test]
async fn the_relay_down_ten_minutes_across_a_deadline_holds_the_results_then_sends_them_once_and_tells_the_masters_once()
 {
    // Issue 29, campaign 2: Postfix stops before the deadline and comes back ten (game) minutes
    // after it. The results wait in the outbox, go once when the relay is back (not at the end of
    // their backoff), and the masters are told once.
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    let game_start = 1_795_000_000;
    let deadline = game_start + 3 * DAY;
    let real_now = chrono::Utc::now().timestamp();
    let clock = Arc::new(MovableClock(std::sync::atomic::AtomicI64::new(
        deadline - 10 - real_now,
    )));
    let db = game(&dir, game_start).await;
    let cfg = config(&stack, &db, 2);
    let (stop, server_task) = serve_in_process(cfg, &dir, clock.clone(), true);
    for i in 0..7 {
        send_raw(&stack, &player(i), &["gm@example.test"], &opening_mail(i)).await;
    }
    for i in 0..7 {
        wait_until("the acknowledgement", Duration::from_secs(30), async || {
            !subjects(&stack, &player(i)).await.is_empty()
        })
        .await;
    }
    assert!(
        clock.now() < deadline,
        "the orders went in before the deadline"
    );
    stack.smtp_stop();
    // The deadline passes with the relay down: the results are made and cannot go.
    let pool = store::open(&db).await.expect("db");
    wait_until(
        "results tried and held",
        Duration::from_secs(60),
        async || {
            let n: i64 = sqlx::query(
                "SELECT count(*) FROM outbox WHERE kind = 'results' AND sent_at IS NULL
             AND last_error IS NOT NULL",
            )
            .fetch_one(&pool)
            .await
            .expect("count")
            .get(0);
            n > 0
        },
    )
    .await;
    // Ten minutes pass; the relay comes back.
    clock.advance(600);
    tokio::time::sleep(Duration::from_secs(2)).await;
    stack.smtp_start();
    for i in 0..7 {
        wait_until("the results", Duration::from_secs(60), async || {
            count_subjects(&stack, &player(i), "results").await > 0
        })
        .await;
    }
    wait_until("the masters told", Duration::from_secs(60), async || {
        count_subjects(&stack, "td@example.test", "mail could not be sent").await > 0
    })
    .await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    for i in 0..7 {
        assert_eq!(
            count_subjects(&stack, &player(i), "results").await,
            1,
            "{}: the results once",
            player(i)
        );
    }
    assert_eq!(
        count_subjects(&stack, "td@example.test", "mail could not be sent").await,
        1,
        "the masters told once"
    );
    let unsent: i64 =
        sqlx::query("SELECT count(*) FROM outbox WHERE sent_at IS NULL OR failed_at IS NOT NULL")
            .fetch_one(&pool)
            .await
            .expect("count")
            .get(0);
    assert_eq!(unsent, 0, "nothing left behind, nothing given up");
    pool.close().await;
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}

#[tokio::test]
async fn dovecot_restarted_mid_idle_is_reconnected_and_nothing_is_missed() {
    // Issue 29, campaign 2: the GM mailbox is watched with IDLE (the poll is a minute); Dovecot
    // is stopped and started again under it. Mail sent just after is answered well before the
    // next poll would have found it.
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let dir = stack.dir.join("chancery");
    let now = chrono::Utc::now().timestamp();
    let db = game(&dir, now).await;
    let cfg = config(&stack, &db, 60);
    let (stop, server_task) = serve_in_process(cfg, &dir, Arc::new(service::SystemClock), false);
    send_raw(&stack, &player(0), &["gm@example.test"], &opening_mail(0)).await;
    wait_until("the first answer", Duration::from_secs(30), async || {
        count_subjects(&stack, &player(0), "S1901M").await > 0
    })
    .await;
    // Let the reader settle into IDLE, then cut it.
    tokio::time::sleep(Duration::from_secs(1)).await;
    stack.imap_restart();
    for i in 1..4 {
        send_raw(&stack, &player(i), &["gm@example.test"], &opening_mail(i)).await;
    }
    for i in 1..4 {
        let took = wait_until(
            "an answer after the restart",
            Duration::from_secs(30),
            async || count_subjects(&stack, &player(i), "S1901M").await > 0,
        )
        .await;
        assert!(took < Duration::from_secs(30), "{took:?}");
    }
    let pool = store::open(&db).await.expect("db");
    let read: i64 = sqlx::query("SELECT count(*) FROM messages WHERE mailbox = 'gm'")
        .fetch_one(&pool)
        .await
        .expect("count")
        .get(0);
    assert_eq!(read, 4, "every mail read, once");
    pool.close().await;
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}

/// A small filesystem of its own (tmpfs), for a full disk; unmounted when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(at: &Path, size: &str) -> SmallDisk {
        std::fs::create_dir_all(at).expect("mount point");
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .status()
            .expect("run mount");
        assert!(
            status.success(),
            "mounting a tmpfs at {} (the test runs as root, as the mail stack does)",
            at.display()
        );
        SmallDisk(at.to_path_buf())
    }

    fn filler(&self) -> PathBuf {
        self.0.join("filler")
    }

    /// Take every free byte.
    fn fill(&self) {
        use std::io::Write;
        let mut f = std::fs::File::create(self.filler()).expect("filler");
        for chunk in [65_536, 4096, 512, 1] {
            let bytes = vec![0u8; chunk];
            while f.write_all(&bytes).and_then(|()| f.flush()).is_ok() {}
        }
        let _ = f.sync_all();
    }

    fn free(&self) {
        std::fs::remove_file(self.filler()).expect("remove the filler");
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
    }
}

#[tokio::test]
async fn a_full_disk_leaves_mail_unanswered_and_uncounted_tells_the_masters_once_and_loses_nothing()
{
    // Issue 29, campaign 2: the store's disk fills up while mail arrives. The store refuses
    // cleanly (nothing half-written), the mail waits in the mailbox without being set aside
    // (it failed for the store, not for itself), the masters are told once (directly: the
    // store cannot hold the alert), and once the disk has room every mail is answered, once.
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let disk = SmallDisk::mount(&stack.dir.join("disk"), "16m");
    let dir = disk.0.join("chancery");
    let now = chrono::Utc::now().timestamp();
    let db = game(&dir, now).await;
    let cfg = config(&stack, &db, 1);
    let (stop, server_task) = serve_in_process(cfg, &dir, Arc::new(service::SystemClock), false);
    send_raw(&stack, &player(0), &["gm@example.test"], &opening_mail(0)).await;
    wait_until("the first answer", Duration::from_secs(30), async || {
        count_subjects(&stack, &player(0), "S1901M").await > 0
    })
    .await;
    // The write-ahead log emptied (a commit then needs new room), and the disk filled.
    let pool = store::open(&db).await.expect("db");
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&pool)
        .await
        .expect("checkpoint");
    disk.fill();
    for i in 1..5 {
        send_raw(&stack, &player(i), &["gm@example.test"], &opening_mail(i)).await;
    }
    wait_until("the masters told", Duration::from_secs(60), async || {
        count_subjects(&stack, "td@example.test", "the store cannot be written").await > 0
    })
    .await;
    // Several failed attempts meanwhile: none answered, none set aside.
    tokio::time::sleep(Duration::from_secs(5)).await;
    for i in 1..5 {
        assert_eq!(count_subjects(&stack, &player(i), "S1901M").await, 0);
    }
    disk.free();
    for i in 1..5 {
        wait_until(
            "an answer once the disk has room",
            Duration::from_secs(90),
            async || count_subjects(&stack, &player(i), "S1901M").await > 0,
        )
        .await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let counts: Vec<(String, i64)> = sqlx::query(
        "SELECT outcome, count(*) FROM messages WHERE mailbox = 'gm' GROUP BY outcome ORDER BY outcome",
    )
    .fetch_all(&pool)
    .await
    .expect("outcomes")
    .iter()
    .map(|r| (r.get(0), r.get(1)))
    .collect();
    assert_eq!(
        counts,
        [("accepted".to_string(), 5)],
        "every mail once, none set aside"
    );
    for i in 0..5 {
        assert_eq!(
            count_subjects(&stack, &player(i), "S1901M").await,
            1,
            "{} answered once",
            player(i)
        );
    }
    assert_eq!(
        count_subjects(&stack, "td@example.test", "the store cannot be written").await,
        1,
        "the masters told once"
    );
    pool.close().await;
    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}
