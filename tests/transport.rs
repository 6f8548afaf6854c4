//! The mail transport against a real Postfix + Dovecot on loopback (`scripts/mailstack`).
//! Each test starts its own stack on its own port base; see `tests/common/mailstack.rs`.

#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use std::time::{Duration, Instant};

use chancery::transport::imap::{Fetched, MIN_POLL_INTERVAL, Mailbox, Wait, Watch};
use chancery::transport::smtp::{FailureKind, OutMail, Sender};
use chancery::transport::{ServerConfig, Tls};
use mailstack::Stack;

fn mail(to: &str, subject: &str, id: &str) -> OutMail {
    OutMail {
        from: "Chancery GM <gm@example.test>".into(),
        to: vec![to.into()],
        subject: subject.into(),
        body: format!("Body of {subject}.\n"),
        message_id: id.into(),
        in_reply_to: None,
        references: Vec::new(),
        auto_submitted: "auto-generated",
        extra_headers: Vec::new(),
        html: None,
    }
}

/// Fetch until at least `n` messages above `after` have arrived (SMTP delivery is queued, so a
/// sent message shows up a few milliseconds later).
async fn fetch_until(mb: &mut Mailbox, after: u32, n: usize) -> Vec<Fetched> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let got = mb
            .fetch_after(after, 1000)
            .await
            .expect("fetch_after")
            .messages;
        if got.len() >= n {
            return got;
        }
        assert!(
            Instant::now() < deadline,
            "only {} of {n} messages arrived within 10 s",
            got.len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn raw_message(subject: &str) -> Vec<u8> {
    format!(
        "From: player3@example.test\r\nTo: gm@example.test\r\nSubject: {subject}\r\n\
         Message-ID: <{subject}@test>\r\n\r\nbody {subject}\r\n"
    )
    .into_bytes()
}

/// A loopback port with nothing listening on it.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

#[tokio::test]
async fn send_then_fetch_keeps_headers_and_utf8() {
    let stack = Stack::start();
    let sender = Sender::new(&stack.smtp_config()).expect("sender");
    let subject = "Printemps 1901 — résultats ✓ (Ærø)";
    let body = "Größe: Ærø → Øst\nMünchen hält.\n\nA line with trailing = and tab\tend\n";
    let out = OutMail {
        from: "Chancery GM <gm@example.test>".into(),
        to: vec!["player1@example.test".into()],
        subject: subject.into(),
        body: body.into(),
        message_id: "s1901m.g42.1@chancery.example.test".into(),
        in_reply_to: Some("orders-17@player1.example".into()),
        references: vec![
            "s1901m.g42.0@chancery.example.test".into(),
            "orders-17@player1.example".into(),
        ],
        auto_submitted: "auto-replied",
        extra_headers: vec![("X-Chancery-Game".into(), "g42".into())],
        html: None,
    };
    sender.send(&out).await.expect("send");

    let mut mb = Mailbox::connect(&stack.imap_config("player1"), "INBOX")
        .await
        .expect("connect");
    let got = fetch_until(&mut mb, 0, 1).await;
    assert_eq!(got.len(), 1);
    let now = chrono::Utc::now().timestamp();
    let date = got[0].internal_date.expect("INTERNALDATE");
    assert!(
        (now - date).abs() < 120,
        "internal date {date} vs now {now}"
    );

    let raw = &got[0].raw;
    let text = String::from_utf8_lossy(raw);
    let msg = mail_parser::MessageParser::default()
        .parse(raw)
        .expect("parse the fetched message");
    assert_eq!(msg.subject(), Some(subject));
    assert_eq!(
        msg.body_text(0).as_deref().map(|b| b.replace("\r\n", "\n")),
        Some(body.to_owned()),
        "{text}"
    );
    assert_eq!(msg.message_id(), Some("s1901m.g42.1@chancery.example.test"));
    assert_eq!(
        msg.in_reply_to().as_text(),
        Some("orders-17@player1.example")
    );
    let refs: Vec<&str> = msg
        .references()
        .as_text_list()
        .expect("References")
        .iter()
        .map(|r| r.as_ref())
        .collect();
    assert_eq!(
        refs,
        [
            "s1901m.g42.0@chancery.example.test",
            "orders-17@player1.example"
        ]
    );
    assert_eq!(
        msg.header_raw("Auto-Submitted").map(str::trim),
        Some("auto-replied")
    );
    assert_eq!(
        msg.header_raw("X-Loop").map(str::trim),
        Some("gm@example.test")
    );
    assert_eq!(
        msg.header_raw("X-Chancery-Game").map(str::trim),
        Some("g42")
    );
    assert!(msg.date().is_some(), "Date header missing:\n{text}");
    assert!(
        text.contains("Content-Type: text/plain; charset=utf-8"),
        "content type:\n{text}"
    );
    assert!(
        text.contains("Content-Transfer-Encoding: quoted-printable")
            || text.contains("Content-Transfer-Encoding: 8bit"),
        "transfer encoding:\n{text}"
    );
    mb.logout().await;
}

#[tokio::test]
async fn idle_wakes_on_new_mail_and_times_out_without() {
    let stack = Stack::start();
    let mut mb = Mailbox::connect(&stack.imap_config("player2"), "INBOX")
        .await
        .expect("connect");
    assert!(mb.uses_idle(), "Dovecot advertises IDLE");

    // No mail: Timeout, after (about) the timeout.
    let t0 = Instant::now();
    let w = mb.wait(Duration::from_millis(1200)).await.expect("wait");
    let took = t0.elapsed();
    assert_eq!(w, Wait::Timeout);
    assert!(
        took >= Duration::from_millis(1100) && took < Duration::from_secs(4),
        "{took:?}"
    );

    // Mail sent while waiting: NewMail within a few seconds (Dovecot pushes after ~0.5 s).
    let sender = Sender::new(&stack.smtp_config()).expect("sender");
    let send = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        sender
            .send(&mail("player2@example.test", "idle one", "idle1@test"))
            .await
    });
    let t0 = Instant::now();
    let w = mb.wait(Duration::from_secs(15)).await.expect("wait");
    let took = t0.elapsed();
    send.await.expect("join").expect("send");
    assert_eq!(w, Wait::NewMail);
    assert!(took < Duration::from_secs(5), "IDLE push took {took:?}");
    let got = fetch_until(&mut mb, 0, 1).await;
    assert_eq!(got.len(), 1);

    // The wake-up was consumed: waiting again times out.
    let w = mb.wait(Duration::from_millis(700)).await.expect("wait");
    assert_eq!(w, Wait::Timeout);

    // Mail that arrives between two waits is not missed: it is announced during the next
    // command or when IDLE starts.
    stack.inject("player2", &raw_message("between"));
    let t0 = Instant::now();
    let w = mb.wait(Duration::from_secs(10)).await.expect("wait");
    assert_eq!(w, Wait::NewMail);
    assert!(t0.elapsed() < Duration::from_secs(5));
    let got = mb
        .fetch_after(got[0].uid, 1000)
        .await
        .expect("fetch")
        .messages;
    assert_eq!(got.len(), 1);

    // The NOOP-polling fallback behaves the same.
    mb.force_polling();
    let t0 = Instant::now();
    let w = mb
        .wait(Duration::from_millis(1100))
        .await
        .expect("poll wait");
    assert_eq!(w, Wait::Timeout);
    assert!(t0.elapsed() >= Duration::from_millis(1000));
    let last = got[0].uid;
    let t0 = Instant::now();
    let (w, ()) = tokio::join!(mb.wait(Duration::from_secs(10)), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        stack.inject("player2", &raw_message("polled"));
    });
    let w = w.expect("poll wait");
    assert_eq!(w, Wait::NewMail);
    assert!(t0.elapsed() < Duration::from_secs(3));
    assert_eq!(
        mb.fetch_after(last, 1000)
            .await
            .expect("fetch")
            .messages
            .len(),
        1
    );
    mb.logout().await;
}

/// Issue 22: the confirmation box is watched by NOOP at `poll_ms`, not IDLE (Dovecot holds IDLE
/// notifications back 500 ms), as the shipped configuration says; the interval has a floor.
#[tokio::test]
async fn a_mailbox_watched_by_poll_ms_polls_at_that_interval_and_sees_new_mail() {
    let shipped = chancery::config::Config::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/config/chancery.toml"
    )))
    .expect("config")
    .0;
    assert_eq!(
        shipped.confirm_mailbox.watch(),
        Watch::Poll(Duration::from_millis(
            chancery::dev::localstack::CONFIRM_POLL_MS
        ))
    );
    assert_eq!(shipped.gm_mailbox.watch(), Watch::Idle);

    let stack = Stack::start();
    let mut mb = Mailbox::connect(&stack.imap_config("player4"), "INBOX")
        .await
        .expect("connect");
    mb.watch(Watch::Idle);
    assert!(mb.uses_idle(), "IDLE stays where it is configured");
    mb.watch(Watch::Poll(Duration::from_millis(1)));
    assert!(!mb.uses_idle());
    assert_eq!(mb.poll_interval(), MIN_POLL_INTERVAL, "the floor holds");
    mb.watch(Watch::Poll(Duration::from_millis(100)));
    assert_eq!(mb.poll_interval(), Duration::from_millis(100));
    let (w, ()) = tokio::join!(mb.wait(Duration::from_secs(20)), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        stack.inject("player4", &raw_message("noop-polled"));
    });
    assert_eq!(w.expect("poll wait"), Wait::NewMail);
    assert_eq!(
        mb.fetch_after(0, 1000).await.expect("fetch").messages.len(),
        1
    );
    mb.logout().await;
}

#[tokio::test]
async fn fetch_after_mark_processed_and_uidvalidity() {
    let stack = Stack::start();
    for s in ["one", "two", "three"] {
        stack.inject("player3", &raw_message(s));
    }
    let cfg = stack.imap_config("player3");
    let mut mb = Mailbox::connect(&cfg, "INBOX").await.expect("connect");
    let validity = mb.uidvalidity();
    assert_ne!(validity, 0);

    let all = mb.fetch_after(0, 1000).await.expect("fetch all").messages;
    let uids: Vec<u32> = all.iter().map(|f| f.uid).collect();
    assert_eq!(uids.len(), 3);
    assert!(uids.windows(2).all(|w| w[0] < w[1]), "sorted: {uids:?}");
    assert!(String::from_utf8_lossy(&all[0].raw).contains("Subject: one"));
    assert!(all.iter().all(|f| f.internal_date.is_some()));

    // Only newer ones; at or past the end nothing (despite `n:*` matching the last message).
    let newer = mb
        .fetch_after(uids[1], 1000)
        .await
        .expect("fetch newer")
        .messages;
    assert_eq!(newer.iter().map(|f| f.uid).collect::<Vec<_>>(), [uids[2]]);
    assert!(
        mb.fetch_after(uids[2], 1000)
            .await
            .expect("fetch at end")
            .messages
            .is_empty()
    );
    assert!(
        mb.fetch_after(uids[2] + 1000, 1000)
            .await
            .expect("fetch past end")
            .messages
            .is_empty()
    );
    assert!(
        mb.fetch_after(u32::MAX, 1000)
            .await
            .expect("fetch max")
            .messages
            .is_empty()
    );

    // Fetching does not set \Seen (BODY.PEEK); mark_processed does, plus the keyword.
    assert!(!stack.flags("player3", uids[0]).contains("\\Seen"));
    mb.mark_processed(uids[0], true).await.expect("mark");
    let flags = stack.flags("player3", uids[0]);
    assert!(
        flags.contains("\\Seen") && flags.contains("$ChanceryDone"),
        "{flags}"
    );
    assert!(!stack.flags("player3", uids[1]).contains("\\Seen"));
    mb.mark_processed(uids[0], true)
        .await
        .expect("mark twice is fine");
    mb.logout().await;

    // Same UIDVALIDITY and UIDs after reconnecting.
    let mut again = Mailbox::connect(&cfg, "INBOX").await.expect("reconnect");
    assert_eq!(again.uidvalidity(), validity);
    let uids_again: Vec<u32> = again
        .fetch_after(0, 1000)
        .await
        .expect("fetch")
        .messages
        .iter()
        .map(|f| f.uid)
        .collect();
    assert_eq!(uids_again, uids);
    again.logout().await;
}

#[tokio::test]
async fn tls_with_the_test_ca_and_login_errors() {
    let stack = Stack::start();
    stack.inject("player4", &raw_message("secure"));

    for cfg in [
        stack.imaps_config("player4"),
        stack.imap_starttls_config("player4"),
    ] {
        let mut mb = Mailbox::connect(&cfg, "INBOX")
            .await
            .unwrap_or_else(|e| panic!("connect {:?}: {e}", cfg.tls));
        let got = mb
            .fetch_after(0, 1000)
            .await
            .expect("fetch over TLS")
            .messages;
        assert_eq!(got.len(), 1);
        mb.logout().await;
    }

    // A wrong password is an error (permanent: retrying will not help), not a panic.
    let mut bad = stack.imap_config("player4");
    bad.password = "wrong".into();
    let e = Mailbox::connect(&bad, "INBOX")
        .await
        .expect_err("bad password");
    assert!(e.permanent, "{e}");
    let mut bad = stack.imaps_config("player4");
    bad.password = "wrong".into();
    assert!(Mailbox::connect(&bad, "INBOX").await.is_err());

    // A certificate that does not match the expected name is refused.
    let mut wrong_name = stack.imaps_config("player4");
    wrong_name.tls_name = "imap.elsewhere.example".into();
    let e = Mailbox::connect(&wrong_name, "INBOX")
        .await
        .expect_err("wrong TLS name");
    assert!(e.permanent, "{e}");

    // A folder that does not exist.
    let e = Mailbox::connect(&stack.imap_config("player4"), "NoSuchFolder")
        .await
        .expect_err("no such folder");
    assert!(e.message.contains("NoSuchFolder"), "{e}");

    // Authenticated submission (STARTTLS) and SMTPS with the same CA.
    for (i, cfg) in [stack.submission_config("gm"), stack.smtps_config("gm")]
        .iter()
        .enumerate()
    {
        Sender::new(cfg)
            .expect("sender")
            .send(&mail(
                "player4@example.test",
                &format!("via {:?}", cfg.tls),
                &format!("tls{i}@test"),
            ))
            .await
            .unwrap_or_else(|e| panic!("send via {:?}: {e}", cfg.tls));
    }
    let mut mb = Mailbox::connect(&stack.imaps_config("player4"), "INBOX")
        .await
        .expect("connect");
    assert_eq!(fetch_until(&mut mb, 0, 3).await.len(), 3);
    mb.logout().await;

    // Submission with a wrong password: 535, permanent.
    let mut bad = stack.submission_config("gm");
    bad.password = "wrong".into();
    let e = Sender::new(&bad)
        .expect("sender")
        .send(&mail("player4@example.test", "nope", "nope@test"))
        .await
        .expect_err("bad SMTP password");
    assert!(
        e.kind == FailureKind::Permanent && e.message.contains("535"),
        "{e}"
    );
}

#[tokio::test]
async fn smtp_errors_are_classified() {
    let stack = Stack::start();
    let sender = Sender::new(&stack.smtp_config()).expect("sender");
    let e = sender
        .send(&mail("nobody@example.test", "lost", "lost@test"))
        .await
        .expect_err("unknown user");
    assert_eq!(e.kind, FailureKind::Permanent, "{e}");
    assert!(e.message.contains("550"), "{e}");

    // Invalid input is refused before anything is sent.
    let mut m = mail("player5@example.test", "bad", "bad@test");
    m.message_id = "has space@x".into();
    assert_eq!(
        sender.send(&m).await.expect_err("bad id").kind,
        FailureKind::Permanent
    );
    let mut m = mail("player5@example.test", "bad", "bad2@test");
    m.extra_headers = vec![("Message-ID".into(), "<x@y>".into())];
    assert!(sender.send(&m).await.is_err());

    // The sender still works after those errors; CR/LF in the subject cannot inject headers.
    let mut m = mail(
        "player5@example.test",
        "x\r\nBcc: player6@example.test",
        "ok@test",
    );
    m.body = "plain ascii\n".into();
    sender.send(&m).await.expect("send after errors");
    let mut mb = Mailbox::connect(&stack.imap_config("player5"), "INBOX")
        .await
        .expect("connect");
    let got = fetch_until(&mut mb, 0, 1).await;
    let text = String::from_utf8_lossy(&got[0].raw);
    assert!(!text.contains("\nBcc:"), "{text}");
    mb.logout().await;
    let mut mb6 = Mailbox::connect(&stack.imap_config("player6"), "INBOX")
        .await
        .expect("connect");
    assert!(
        mb6.fetch_after(0, 1000)
            .await
            .expect("fetch")
            .messages
            .is_empty()
    );
    mb6.logout().await;
}

#[tokio::test]
async fn closed_ports_fail_fast_and_transient() {
    let port = closed_port();
    let cfg = ServerConfig {
        host: "127.0.0.1".into(),
        port,
        tls: Tls::None,
        ca_file: None,
        tls_name: "localhost".into(),
        username: String::new(),
        password: String::new(),
    };
    let t0 = Instant::now();
    let e = Sender::new(&cfg)
        .expect("sender")
        .send(&mail("player1@example.test", "x", "x@test"))
        .await
        .expect_err("closed SMTP port");
    assert_eq!(e.kind, FailureKind::Transient, "{e}");
    let e = Mailbox::connect(
        &ServerConfig {
            username: "player1@example.test".into(),
            password: "secret".into(),
            ..cfg
        },
        "INBOX",
    )
    .await
    .expect_err("closed IMAP port");
    assert!(!e.permanent, "{e}");
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
}

/// Compile-time check: the transport futures can be spawned on a multi-threaded runtime.
#[allow(dead_code)]
fn transport_futures_are_send(mb: &mut Mailbox, sender: &Sender, m: &OutMail, cfg: &ServerConfig) {
    fn is_send<T: Send>(_: T) {}
    is_send(Mailbox::connect(cfg, "INBOX"));
    is_send(mb.fetch_after(0, 1));
    is_send(mb.mark_processed(1, true));
    is_send(mb.wait(Duration::from_secs(1)));
    is_send(sender.send(m));
    is_send(Sender::new(cfg));
}

#[tokio::test]
async fn the_backlog_is_fetched_in_batches_and_marks_can_leave_mail_unread() {
    // Issue 9, point 10: the backlog was read into memory in one go; point 7: alerts in the GM
    // box were marked read.
    let stack = Stack::start();
    for i in 0..120 {
        stack.inject("player3", &raw_message(&format!("b{i}")));
    }
    let mut mb = Mailbox::connect(&stack.imap_config("player3"), "INBOX")
        .await
        .expect("connect");
    let mut last = 0;
    let mut sizes = Vec::new();
    let mut all = Vec::new();
    loop {
        let batch = mb.fetch_after(last, 50).await.expect("batch");
        assert!(batch.missing.is_empty());
        sizes.push(batch.messages.len());
        for f in &batch.messages {
            assert!(f.uid > last);
            last = f.uid;
            all.push(f.uid);
        }
        if !batch.more {
            break;
        }
    }
    assert_eq!(sizes, vec![50, 50, 20]);
    assert_eq!(all.len(), 120);
    assert!(all.windows(2).all(|w| w[0] < w[1]));
    // Nothing is marked yet: all are unflagged.
    assert_eq!(mb.unflagged_uids().await.expect("search"), all);
    mb.mark_processed(all[0], false)
        .await
        .expect("mark, unread");
    mb.mark_processed(all[1], true).await.expect("mark, read");
    let f0 = stack.flags("player3", all[0]);
    assert!(
        f0.contains("$ChanceryDone") && !f0.contains("\\Seen"),
        "{f0}"
    );
    assert!(stack.flags("player3", all[1]).contains("\\Seen"));
    assert_eq!(
        mb.unflagged_uids().await.expect("search"),
        all[2..].to_vec()
    );
    // A whole batch in one command: a run and a stray UID, some read, some left unread.
    let mut read: Vec<u32> = all[2..60].to_vec();
    read.push(all[100]);
    mb.mark_processed_many(&read, true)
        .await
        .expect("mark many");
    mb.mark_processed_many(&all[60..70], false)
        .await
        .expect("mark many, unread");
    mb.mark_processed_many(&[], true).await.expect("nothing");
    assert!(stack.flags("player3", all[100]).contains("\\Seen"));
    let f65 = stack.flags("player3", all[65]);
    assert!(
        f65.contains("$ChanceryDone") && !f65.contains("\\Seen"),
        "{f65}"
    );
    let mut left: Vec<u32> = all[70..].to_vec();
    left.retain(|u| *u != all[100]);
    assert_eq!(mb.unflagged_uids().await.expect("search"), left);
    mb.logout().await;
}

#[tokio::test]
async fn a_refused_archive_copy_does_not_stop_the_mail() {
    // Issue 9, point 9: a refusal of the archive Bcc made every send fail.
    let stack = Stack::start();
    let sender = Sender::new(&stack.smtp_config())
        .expect("sender")
        .with_bcc("no-such-archive@example.test")
        .expect("bcc");
    let report = sender
        .send(&mail("player2@example.test", "still goes", "arch1@test"))
        .await
        .expect("sent");
    let why = report.archive_error.expect("the refusal is reported");
    assert!(why.contains("550"), "{why}");
    let mut mb = Mailbox::connect(&stack.imap_config("player2"), "INBOX")
        .await
        .expect("connect");
    assert_eq!(fetch_until(&mut mb, 0, 1).await.len(), 1);
    mb.logout().await;
    // With a working archive, both get the mail and nothing is reported.
    let sender = Sender::new(&stack.smtp_config())
        .expect("sender")
        .with_bcc("archive@example.test")
        .expect("bcc");
    let report = sender
        .send(&mail("player2@example.test", "with copy", "arch2@test"))
        .await
        .expect("sent");
    assert_eq!(report.archive_error, None);
    let mut mb = Mailbox::connect(&stack.imap_config("archive"), "INBOX")
        .await
        .expect("connect");
    assert!(
        mb.has_message_id("arch2@test").await.unwrap_or(false) || {
            fetch_until(&mut mb, 0, 1).await;
            mb.has_message_id("arch2@test").await.expect("search")
        }
    );
    mb.logout().await;
}

#[tokio::test]
async fn a_broken_threading_id_does_not_stop_the_answer() {
    // Issue 9, point 9: an In-Reply-To of the form <a b@c d> broke the send.
    let stack = Stack::start();
    let sender = Sender::new(&stack.smtp_config()).expect("sender");
    let mut m = mail("player4@example.test", "threaded", "thr@test");
    m.in_reply_to = Some("<a b@c d>".into());
    m.references = vec!["<a b@c d>".into(), "<good@x.test>".into()];
    sender.send(&m).await.expect("sent without the broken id");
    let mut mb = Mailbox::connect(&stack.imap_config("player4"), "INBOX")
        .await
        .expect("connect");
    let got = fetch_until(&mut mb, 0, 1).await;
    let text = String::from_utf8_lossy(&got[0].raw);
    assert!(!text.contains("In-Reply-To"), "{text}");
    assert!(text.contains("References: <good@x.test>"), "{text}");
    mb.logout().await;
}

/// A relay that stalls after the end of the data, as a broken one can: Postfix cannot be made
/// to do this on cue, so a scripted peer stands in for it. It speaks just enough SMTP, and
/// `refuse_rcpt` makes it refuse the recipient instead.
async fn stalling_relay(refuse_rcpt: bool) -> u16 {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("addr").port();
    tokio::spawn(async move {
        while let Ok((sock, _)) = listener.accept().await {
            tokio::spawn(async move {
                let (r, mut w) = sock.into_split();
                let mut lines = BufReader::new(r).lines();
                let _ = w.write_all(b"220 stall.test ESMTP\r\n").await;
                let mut in_data = false;
                while let Ok(Some(line)) = lines.next_line().await {
                    if in_data {
                        if line == "." {
                            // Never answer the end of the data.
                            tokio::time::sleep(Duration::from_secs(3600)).await;
                        }
                        continue;
                    }
                    let upper = line.to_ascii_uppercase();
                    let reply: &[u8] = if upper.starts_with("EHLO") {
                        b"250-stall.test\r\n250 8BITMIME\r\n"
                    } else if upper.starts_with("RCPT") && refuse_rcpt {
                        b"451 4.3.0 try later\r\n"
                    } else if upper.starts_with("DATA") {
                        in_data = true;
                        b"354 go on\r\n"
                    } else if upper.starts_with("QUIT") {
                        b"221 bye\r\n"
                    } else {
                        b"250 ok\r\n"
                    };
                    let _ = w.write_all(reply).await;
                }
            });
        }
    });
    port
}

#[tokio::test]
async fn a_timeout_after_the_data_is_uncertain_and_before_it_is_not() {
    // Issue 9, point 9: a timeout after DATA was retried as if nothing had been sent.
    let cfg = |port| ServerConfig {
        host: "127.0.0.1".into(),
        port,
        tls: Tls::None,
        ca_file: None,
        tls_name: "localhost".into(),
        username: String::new(),
        password: String::new(),
    };
    let port = stalling_relay(false).await;
    let sender = Sender::new(&cfg(port))
        .expect("sender")
        .with_timeout(Duration::from_millis(500));
    let e = sender
        .send(&mail("player1@example.test", "x", "stall@test"))
        .await
        .expect_err("stalls");
    assert_eq!(e.kind, FailureKind::Uncertain, "{e}");
    let port = stalling_relay(true).await;
    let sender = Sender::new(&cfg(port))
        .expect("sender")
        .with_timeout(Duration::from_millis(500));
    let e = sender
        .send(&mail("player1@example.test", "x", "stall2@test"))
        .await
        .expect_err("refused");
    assert_eq!(e.kind, FailureKind::Transient, "{e}");
}

#[tokio::test]
async fn a_wait_cut_short_leaves_the_connection_usable() {
    // The scheduler wakes a mailbox reader in IDLE when a deadline waits for it: IDLE must end
    // properly (DONE), not by dropping the connection.
    let stack = Stack::start();
    let mut mb = Mailbox::connect(&stack.imap_config("player7"), "INBOX")
        .await
        .expect("connect");
    assert!(mb.uses_idle());
    let wake = std::sync::Arc::new(tokio::sync::Notify::new());
    let w2 = wake.clone();
    let nudge = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        w2.notify_waiters();
    });
    let t0 = Instant::now();
    let got = mb
        .wait_or(Duration::from_secs(30), &wake)
        .await
        .expect("wait");
    assert_eq!(got, Wait::Timeout);
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    nudge.await.expect("nudge");
    stack.inject("player7", &raw_message("after-wake"));
    assert_eq!(
        fetch_until(&mut mb, 0, 1).await.len(),
        1,
        "the session still works"
    );
    mb.logout().await;
}
/// The stack behaves as a border MX (RFC 8601 §5): an Authentication-Results header that
/// claims its authserv-id (the one Chancery trusts) cannot come from outside.
#[tokio::test]
async fn forged_authentication_results_are_removed_at_the_border() {
    let stack = Stack::start();
    let sender = Sender::new(&stack.smtp_config()).expect("sender");
    let with_ar = |subject: &str, value: &str| {
        let mut m = mail("player6@example.test", subject, &format!("{subject}@test"));
        m.from = "someone@players.example.org".into();
        m.extra_headers = vec![("Authentication-Results".into(), value.into())];
        m
    };
    for (subject, value) in [
        (
            "forged1",
            "mx.example.test; dkim=pass header.d=example.test",
        ),
        (
            "forged2",
            "(trust me) MX.Example.Test 1; dmarc=pass header.from=example.test",
        ),
        (
            "other",
            "other.example; spf=pass smtp.mailfrom=players.example.org",
        ),
        (
            "lookalike",
            "mx.example.test.evil.example; dkim=pass header.d=example.test",
        ),
    ] {
        sender.send(&with_ar(subject, value)).await.expect("send");
    }
    let mut mb = Mailbox::connect(&stack.imap_config("player6"), "INBOX")
        .await
        .expect("connect");
    let got = fetch_until(&mut mb, 0, 4).await;
    mb.logout().await;
    let mut by_subject = std::collections::HashMap::new();
    for f in &got {
        let msg = mail_parser::MessageParser::default()
            .parse(&f.raw)
            .expect("parse");
        let subject = msg.subject().unwrap_or_default().to_owned();
        let ars: Vec<String> = msg
            .header_values("Authentication-Results")
            .filter_map(|v| {
                v.as_text()
                    .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            })
            .collect();
        by_subject.insert(subject, ars);
    }
    assert_eq!(by_subject.len(), 4, "{by_subject:?}");
    assert_eq!(by_subject["forged1"], Vec::<String>::new());
    assert_eq!(by_subject["forged2"], Vec::<String>::new());
    assert_eq!(
        by_subject["other"],
        ["other.example; spf=pass smtp.mailfrom=players.example.org"]
    );
    assert_eq!(
        by_subject["lookalike"],
        ["mx.example.test.evil.example; dkim=pass header.d=example.test"]
    );
}

/// With OpenDKIM as the border's verifying milter (DNS stands in via its TestDNSData), each
/// mail arrives with exactly one Authentication-Results of the border's authserv-id, and it is
/// the verifier's: pass for a good signature, fail for a tampered one, none without one, even
/// when the sender put a forged "dkim=pass" of that id into the mail.
#[tokio::test]
async fn dkim_is_verified_at_the_border() {
    let stack = Stack::start_with_dkim();
    let plain = |subject: &str, extra: &str| {
        format!(
            "From: player1@example.test\r\nTo: gm@example.test\r\nSubject: {subject}\r\n\
             Date: Mon, 23 Nov 2026 09:00:00 +0000\r\nMessage-ID: <{subject}@example.test>\r\n\
             {extra}\r\nA PAR - BUR\r\nA MAR S A PAR - BUR\r\n"
        )
        .into_bytes()
    };
    let signed = stack.dkim_sign(&plain("signed", ""));
    let tampered = String::from_utf8(stack.dkim_sign(&plain("tampered", "")))
        .expect("ascii")
        .replace("A PAR - BUR\r\nA MAR", "A PAR - PIC\r\nA MAR")
        .into_bytes();
    let forged = plain(
        "forged",
        "Authentication-Results: mx.example.test; dkim=pass header.d=example.test\r\n",
    );
    for raw in [&signed, &tampered, &forged] {
        stack.smtp_send_raw("player1@example.test", "gm", raw);
    }

    let mut mb = Mailbox::connect(&stack.imap_config("gm"), "INBOX")
        .await
        .expect("connect");
    let got = fetch_until(&mut mb, 0, 3).await;
    mb.logout().await;
    let mut ours = std::collections::HashMap::new();
    for f in &got {
        let msg = mail_parser::MessageParser::default()
            .parse(&f.raw)
            .expect("parse");
        let subject = msg.subject().unwrap_or_default().to_owned();
        let claims: Vec<String> = msg
            .header_values("Authentication-Results")
            .filter_map(|v| v.as_text())
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|t| t.to_ascii_lowercase().starts_with("mx.example.test"))
            .collect();
        assert_eq!(claims.len(), 1, "{subject}: {claims:?}");
        ours.insert(subject, claims[0].clone());
    }
    assert!(
        ours["signed"].contains("dkim=pass") && ours["signed"].contains("header.d=example.test"),
        "{}",
        ours["signed"]
    );
    assert!(
        ours["tampered"].contains("dkim=fail"),
        "{}",
        ours["tampered"]
    );
    assert!(
        ours["forged"].contains("dkim=none") && !ours["forged"].contains("pass header.d"),
        "{}",
        ours["forged"]
    );
}
