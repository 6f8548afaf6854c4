//! `chancery bench`: the service's figures over the real stack (a private Dovecot + Postfix on
//! loopback, a real SQLite file): confirmation-receipt latency, order-mail ingestion throughput,
//! and a deadline storm. Timing is the point here, so this is a command, not a test.

use crate::config::Config;
use crate::dev::localstack::{LocalStack, POWERS, imap_config as imap, server_config as server};
use crate::engine::{self, Env};
use crate::policy::{DAY, Ts};
use crate::rules::Rules;
use crate::service::{self, SystemClock, Tasks};
use crate::store::{self, PlayerRow};
use crate::transport::imap::Mailbox;
use crate::transport::smtp::{OutMail, Sender};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

async fn new_game(pool: &sqlx::SqlitePool, id: &str, start: Ts) -> Result<(), String> {
    let mut c = pool.acquire().await.map_err(|e| e.to_string())?;
    let rules = serde_json::to_string(&Rules::default()).map_err(|e| e.to_string())?;
    store::create_game(
        &mut c,
        id,
        "standard",
        &rules,
        "gm@example.test",
        "confirm@example.test",
        start,
    )
    .await
    .map_err(|e| e.to_string())?;
    for (i, p) in POWERS.iter().enumerate() {
        store::add_player(
            &mut c,
            id,
            &PlayerRow {
                power: p.to_string(),
                address: format!("player{}@example.test", i + 1),
                name: String::new(),
                tz: "UTC".into(),
                secret: format!("s{}", i + 1),
                extension_days_used: 0,
            },
        )
        .await
        .map_err(|e| e.to_string())?;
    }
    drop(c);
    engine::start_game(pool, id, start)
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// 1,000 games with one deadline: adjudicated, stored, and their results enqueued.
async fn storm(dir: &Path, games: usize) -> Result<(), String> {
    let pool = store::open(&dir.join("storm.sqlite"))
        .await
        .map_err(|e| e.to_string())?;
    let t0: Ts = 1_795_000_000;
    let opening = [
        ["A VIE - GAL", "A BUD - SER", "F TRI - ALB", ""],
        ["F LON - NTH", "F EDI - NWG", "A LVP - YOR", ""],
        ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO", ""],
        ["F KIE - DEN", "A BER - KIE", "A MUN - RUH", ""],
        ["F NAP - ION", "A ROM - APU", "A VEN H", ""],
        [
            "F STP/SC - BOT",
            "A MOS - UKR",
            "A WAR - GAL",
            "F SEV - BLA",
        ],
        ["F ANK - BLA", "A CON - BUL", "A SMY - ARM", ""],
    ];
    for g in 0..games {
        let id = format!("g{g}");
        new_game(&pool, &id, t0).await?;
        let mut c = pool.acquire().await.map_err(|e| e.to_string())?;
        for (i, p) in POWERS.iter().enumerate() {
            let orders: Vec<engine::StandingOrder> = opening[i]
                .iter()
                .filter(|o| !o.is_empty())
                .map(|o| engine::StandingOrder {
                    order: o.to_string(),
                    written: o.to_string(),
                })
                .collect();
            store::set_standing_orders(&mut c, &id, "S1901M", p, &orders, true, t0)
                .await
                .map_err(|e| e.to_string())?;
        }
    }
    let env = Env {
        authserv_id: "mx.example.test".into(),
        message_id_domain: "chancery.example.test".into(),
        alert_from: "gm@example.test".into(),
        confirm_from: "confirm@example.test".into(),
        ..Env::default()
    };
    let env = engine::keyed(&pool, env, t0)
        .await
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let n = engine::tick(&pool, &env, t0 + 3 * DAY + 1)
        .await
        .map_err(|e| e.to_string())?;
    let took = start.elapsed();
    let mut c = pool.acquire().await.map_err(|e| e.to_string())?;
    let (pending, _, _) = store::outbox_counts(&mut c)
        .await
        .map_err(|e| e.to_string())?;
    println!(
        "deadline storm: {n} games adjudicated, stored, and {pending} results mails enqueued in {:.2} s ({:.2} ms per game)",
        took.as_secs_f64(),
        took.as_secs_f64() * 1000.0 / n.max(1) as f64
    );
    Ok(())
}

/// Run the benches. `root` is the repository (for `scripts/mailstack`).
pub async fn run(root: &Path, receipts: usize, ingest: usize, games: usize) -> Result<(), String> {
    crate::transport::init_crypto();
    let dir = std::env::temp_dir().join(format!("chb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    storm(&dir, games).await?;
    if receipts == 0 && ingest == 0 {
        // The storm alone: no mail stack needed.
        let _ = std::fs::remove_dir_all(&dir);
        return Ok(());
    }

    let stack = LocalStack::start(root, &dir, 33000)?;
    let result = mail_benches(&dir, &stack, receipts, ingest).await;
    drop(stack);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

async fn mail_benches(
    dir: &Path,
    stack: &LocalStack,
    receipts: usize,
    ingest: usize,
) -> Result<(), String> {
    let (smtp_port, imap_port) = (stack.smtp_port(), stack.imap_port());
    let db = dir.join("chancery.sqlite");
    let now = chrono::Utc::now().timestamp();
    {
        let pool = store::open(&db).await.map_err(|e| e.to_string())?;
        new_game(&pool, "b1", now).await?;
        pool.close().await;
    }
    let cfg = Config {
        database: db.clone(),
        authserv_id: "mx.example.test".into(),
        message_id_domain: "chancery.example.test".into(),
        poll_seconds: 30,
        smtp: server(smtp_port, ""),
        gm_mailbox: server(imap_port, "gm@example.test"),
        confirm_mailbox: server(imap_port, "confirm@example.test"),
        archive_mailbox: Some(server(imap_port, "archive@example.test")),
        masters: vec!["td@example.test".into()],
        deadline_grace_seconds: 5,
        smtp_connections: 4,
        // Seven senders mail hundreds of times each here: the answer limits would (rightly)
        // silence them. This measures the pipeline; tests/engine_hostile.rs tests the limits.
        limits: crate::engine::Limits {
            answers_per_hour: i64::MAX,
            game_answers_per_hour: i64::MAX,
            ..Default::default()
        },
    };
    let sender = Sender::new(&imap(smtp_port, "")).map_err(|e| e.to_string())?;
    let mail = |i: usize, to: &str, tag: &str| OutMail {
        from: format!("player{}@example.test", i % 7 + 1),
        to: vec![to.to_string()],
        subject: format!("b1 {} S1901M", POWERS[i % 7]),
        body: format!(
            "SECRET s{}\nA Vie H\nF Lon H\nA Par H\nA Ber H\nA Rom H\nA Mos H\nA Con H\n",
            i % 7 + 1
        ),
        message_id: format!("{tag}-{i}@bench.example.test"),
        in_reply_to: None,
        references: Vec::new(),
        auto_submitted: "no",
        extra_headers: Vec::new(),
    };
    // Ingestion: the order mails are delivered to the GM mailbox first; then the server starts,
    // and the clock runs from its start until every one is processed (fetched, read, checked,
    // stored, acknowledgement enqueued, ledger committed, flagged).
    for i in 0..ingest {
        sender
            .send(&mail(i, "gm@example.test", "i"))
            .await
            .map_err(|e| e.to_string())?;
    }
    {
        let mut gm = Mailbox::connect(&imap(imap_port, "gm@example.test"), "INBOX")
            .await
            .map_err(|e| e.to_string())?;
        let waiting = Instant::now();
        while gm
            .fetch_after(0, usize::MAX)
            .await
            .map_err(|e| e.to_string())?
            .messages
            .len()
            < ingest
        {
            if waiting.elapsed() > Duration::from_secs(120) {
                return Err("the order mails were not all delivered".into());
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        gm.logout().await;
    }
    let pool = store::open(&db).await.map_err(|e| e.to_string())?;
    let ingest_start = Instant::now();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let server = {
        let dir = dir.to_path_buf();
        tokio::spawn(async move {
            service::serve_with(
                cfg,
                &dir,
                Arc::new(SystemClock),
                stopped,
                Tasks { scheduler: false },
            )
            .await
        })
    };
    let count = |pool: sqlx::SqlitePool| async move {
        let mut c = pool.acquire().await.map_err(|e| e.to_string())?;
        let r: i64 = sqlx::query_scalar("SELECT count(*) FROM ledger WHERE mailbox = 'gm'")
            .fetch_one(&mut *c)
            .await
            .map_err(|e| e.to_string())?;
        Ok::<i64, String>(r)
    };
    while count(pool.clone()).await? < ingest as i64 {
        if ingest_start.elapsed() > Duration::from_secs(300) {
            return Err("ingestion did not finish in 300 s".into());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let took = ingest_start.elapsed();
    println!(
        "ingestion: {ingest} order mails waiting in the GM mailbox processed end to end in {:.2} s = {:.0} per second",
        took.as_secs_f64(),
        ingest as f64 / took.as_secs_f64()
    );

    // Receipt latency: from the SMTP server's acceptance of a mail to the confirmation box to
    // the receipt in the player's mailbox. Ten mails in flight at a time.
    let mut sent_at: HashMap<String, Instant> = HashMap::new();
    let mut latencies: Vec<f64> = Vec::new();
    let mut readers: Vec<(Mailbox, u32)> = Vec::new();
    for i in 0..7 {
        let mb = Mailbox::connect(
            &imap(imap_port, &format!("player{}@example.test", i + 1)),
            "INBOX",
        )
        .await
        .map_err(|e| e.to_string())?;
        readers.push((mb, 0));
    }
    let started = Instant::now();
    let mut next = 0;
    while latencies.len() < receipts {
        while next < receipts && sent_at.len() - latencies.len() < 10 {
            let m = mail(next, "confirm@example.test", "r");
            sender.send(&m).await.map_err(|e| e.to_string())?;
            sent_at.insert(m.message_id.clone(), Instant::now());
            next += 1;
        }
        for (mb, last) in readers.iter_mut() {
            let got = mb
                .fetch_after(*last, 1000)
                .await
                .map_err(|e| e.to_string())?
                .messages;
            for f in got {
                *last = (*last).max(f.uid);
                if let Ok(m) = crate::message::read_message(&f.raw)
                    && let Some(parent) = m.in_reply_to.as_deref()
                    && let Some(t) = sent_at.get(parent.trim_matches(['<', '>']))
                {
                    latencies.push(t.elapsed().as_secs_f64());
                }
            }
        }
        if started.elapsed() > Duration::from_secs(300) {
            return Err(format!(
                "only {} of {receipts} receipts arrived in 300 s",
                latencies.len()
            ));
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    latencies.sort_by(|a, b| a.total_cmp(b));
    println!(
        "confirmation receipts: p50 {:.3} s, p99 {:.3} s, max {:.3} s over {} messages",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(f64::NAN),
        latencies.len()
    );

    pool.close().await;
    let _ = stop.send(true);
    let _ = server.await;
    Ok(())
}
