//! `chancery demo`: the whole loop in one command. It starts a private mail stack on loopback,
//! sets up a game with seven scripted players, runs the game master with a fast clock (one real
//! second is two game hours), and plays the first year by e-mail: orders, receipts,
//! acknowledgements, adjudication, results. `--variant maharajah` plays 1501 on the Maharajah
//! map under the Maharajiad rules instead. Everything it starts, it stops.

use super::DevError;
use crate::config::Config;
use crate::dev::localstack::{LocalStack, POWERS, imap_config as imap, server_config as server};
use crate::engine;
use crate::rules::Rules;
use crate::service::{self, Tasks};
use crate::store::{self, PlayerRow};
use crate::transport::imap::Mailbox;
use crate::transport::smtp::{OutMail, Sender};
use std::path::Path;
use std::time::{Duration, Instant};

/// Game time runs this many times faster than real time: a second is two game hours.
const FACTOR: u32 = 7200;

/// A scripted game: its variant, house rules, powers and each player's orders for the year.
struct Script {
    variant: &'static str,
    title: &'static str,
    rules: Rules,
    powers: [&'static str; 7],
    zones: [&'static str; 7],
    phases: Vec<(&'static str, [&'static [&'static str]; 7])>,
}

fn script(variant: &str) -> Result<Script, DevError> {
    match variant {
        "standard" => Ok(Script {
            variant: "standard",
            title: "2023 rules, DATC preferences",
            // A short game: 1901 is its final year (WM B(3)), so it ends after the Fall turn.
            rules: Rules {
                final_year: Some(1901),
                ..Rules::default()
            },
            powers: POWERS,
            zones: ZONES,
            phases: vec![
                (
                    "S1901M",
                    [
                        &["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
                        &["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
                        &[
                            "Army Paris -> Burgundy",
                            "A Mar S A Par - Bur",
                            "F Brest - Mid-Atlantic",
                        ],
                        &["F Kie - Den", "A Ber - Kie", "A Mun - Ruh"],
                        &["F Nap - Ion", "A Rom - Apu", "A Ven H"],
                        &[
                            "F StP/sc - Bot",
                            "A Mos - Ukr",
                            "A War - Gal",
                            "F Sev - Bla",
                        ],
                        &["F Ank - Bla", "A Con - Bul", "A Smy - Arm"],
                    ],
                ),
                (
                    "F1901M",
                    [
                        &["A Ser - Gre", "F Alb S A Ser - Gre", "A Vie - Gal"],
                        &["F Nwg - Nwy", "F Nth S F Nwg - Nwy", "A Yor H"],
                        &["A Bur - Bel", "F Mao - Por", "A Mar - Spa"],
                        &["F Den H", "A Kie - Hol", "A Ruh S A Kie - Hol"],
                        &["F Ion - Tun", "A Apu H", "A Ven H"],
                        &["F Bot - Swe", "A Ukr - Rum", "A War - Gal", "F Sev H"],
                        &["F Ank - Bla", "A Bul H", "A Arm H"],
                    ],
                ),
            ],
        }),
        "maharajah" => {
            let mut rules = Rules::preset("maharajiad")?;
            // A short game: 1501 is its final year.
            rules.final_year = Some(1501);
            Ok(Script {
                variant: "maharajah",
                title: "Maharajah's Diplomacy, Maharajiad I rules",
                rules,
                powers: [
                    "BAHMANA",
                    "DELHI",
                    "GONDWANA",
                    "MUGHALISTAN",
                    "PERSIA",
                    "RAJPUTANA",
                    "VIJAYANAGAR",
                ],
                zones: ["Asia/Kolkata"; 7],
                phases: vec![
                    (
                        "S1501M",
                        [
                            &["F Goa - ArS", "A Ang - Kha", "A Bij H"],
                            &["A Agra - Kashmir", "A Awa H", "A Muz H"],
                            &["F Sbl - Ori", "A Rai H", "A Jab H"],
                            &["A Bal - Sam", "A Bad H", "A Kab H"],
                            &["F Hor - PrG", "A Isf H", "A Mes - Her"],
                            &["A Mul - Lah", "F Jsl - Sin", "A Jod H"],
                            &["F Pul - NiS", "A Cal H", "A Ban H"],
                        ],
                    ),
                    (
                        "F1501M",
                        [
                            &["F ArS - Guj", "A Kha H", "A Bij H"],
                            &["A Kmr H", "A Awa H", "A Muz H"],
                            &["F Ori H", "A Rai H", "A Jab H"],
                            &["A Sam H", "A Bad H", "A Kab H"],
                            &["F PrG H", "A Isf H", "A Her H"],
                            &["A Lah H", "F Sin H", "A Jod H"],
                            &["F NiS - Kdy", "A Cal H", "A Ban H"],
                        ],
                    ),
                ],
            })
        }
        v => Err(DevError::Stack(format!(
            "no demo for variant '{v}' (standard, maharajah)"
        ))),
    }
}

const ZONES: [&str; 7] = [
    "Europe/Vienna",
    "Europe/London",
    "Europe/Paris",
    "America/New_York",
    "Europe/Rome",
    "Asia/Tokyo",
    "Australia/Sydney",
];

fn say(s: &str) {
    println!("{s}");
}

async fn subjects(port: u16, user: &str) -> Vec<(String, String)> {
    let Ok(mut mb) = Mailbox::connect(&imap(port, user), "INBOX").await else {
        return Vec::new();
    };
    let got = mb
        .fetch_after(0, 1000)
        .await
        .map(|b| b.messages)
        .unwrap_or_default();
    mb.logout().await;
    got.into_iter()
        .filter_map(|f| crate::message::read_message(&f.raw).ok())
        .map(|m| {
            let body: Vec<String> = m.lines.iter().map(|l| l.text.clone()).collect();
            (m.subject, body.join("\n"))
        })
        .collect()
}

async fn wait_mail(
    port: u16,
    user: &str,
    needle: &str,
    n: usize,
    limit: Duration,
) -> Result<Vec<(String, String)>, DevError> {
    let start = Instant::now();
    loop {
        let hits: Vec<(String, String)> = subjects(port, user)
            .await
            .into_iter()
            .filter(|(s, _)| s.contains(needle))
            .collect();
        if hits.len() >= n {
            return Ok(hits);
        }
        if start.elapsed() > limit {
            return Err(DevError::Stack(format!(
                "{user} got no mail about '{needle}' in {limit:?}"
            )));
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// Run the demo. `root` is the repository (for `scripts/mailstack`).
pub async fn run(root: &Path, variant: &str) -> Result<(), DevError> {
    let script = script(variant)?;
    let powers = script.powers;
    crate::transport::init_crypto();
    let dir = std::env::temp_dir().join(format!("chd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let base: u16 = 31000;
    say(&format!(
        "== Starting a mail stack (Dovecot + Postfix) on loopback, ports {base}+ ..."
    ));
    let stack = LocalStack::start(root, &dir, base)?;
    let (smtp_port, imap_port) = (stack.smtp_port(), stack.imap_port());

    let db = dir.join("chancery.sqlite");
    let start = chrono::Utc::now().timestamp();
    let td_secret;
    say(&format!(
        "== Setting up game 'demo' ({}) with seven players",
        script.title
    ));
    let cfg = Config {
        database: db.clone(),
        authserv_id: "mx.example.test".into(),
        message_id_domain: "chancery.example.test".into(),
        poll_seconds: 2,
        smtp: server(smtp_port, ""),
        gm_mailbox: server(imap_port, "gm@example.test"),
        confirm_mailbox: super::localstack::confirm_config(imap_port),
        archive_mailbox: Some(server(imap_port, "archive@example.test")),
        masters: vec!["td@example.test".into()],
        deadline_grace_seconds: 5,
        archive_grace_seconds: 60,
        smtp_connections: 4,
        web: None,
        limits: Default::default(),
    };
    {
        let pool = store::open(&db).await?;
        let mut c = pool.acquire().await?;
        let rules = &script.rules;
        store::create_game(
            &mut c,
            "demo",
            script.variant,
            &serde_json::to_string(rules)?,
            "gm@example.test",
            "confirm@example.test",
            start,
        )
        .await?;
        for (i, power) in powers.iter().enumerate() {
            let p = PlayerRow {
                power: power.to_string(),
                address: format!("player{}@example.test", i + 1),
                name: format!("Player {}", i + 1),
                tz: script.zones[i].into(),
                secret: format!("secret{}", i + 1),
                extension_days_used: 0,
            };
            say(&format!(
                "   {:8} player{}@example.test ({})",
                power,
                i + 1,
                script.zones[i]
            ));
            store::add_player(&mut c, "demo", &p).await?;
        }
        drop(c);
        let td = engine::admin::add_member(
            &pool,
            "demo",
            store::Role::Td,
            "td@example.test",
            "UTC",
            start,
        )
        .await?;
        td_secret = td.secret;
        say("   TD       td@example.test (may send command mails: subject \"demo GM\")");
        let deadline = crate::games::start_game_and_tell(
            &pool,
            &engine::env(&pool, &cfg, start).await?,
            "demo",
            start,
        )
        .await?;
        say(&format!(
            "   started; first deadline {}",
            crate::outgoing::time::gmt(deadline)
        ));
        pool.close().await;
    }
    let clock = std::sync::Arc::new(crate::service::FastClock::new(start, FACTOR));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    say("== Running the game master (one real second is two game hours)");
    let gm = {
        let cfg = cfg.clone();
        let dir = dir.clone();
        let clock = clock.clone();
        tokio::spawn(async move {
            service::serve_with(cfg, &dir, clock, stopped, Tasks { scheduler: true }).await
        })
    };
    let sender = Sender::new(&imap(smtp_port, ""))?;
    // The TD's command mail: the first deadline moves a day later (every player is told).
    say("== The TD mails a command: EXTEND 1d, STATUS (subject \"demo GM\")");
    let command = OutMail {
        from: "td@example.test".into(),
        to: vec!["gm@example.test".into()],
        subject: "demo GM".into(),
        body: format!("SECRET {td_secret}\nEXTEND 1d\nSTATUS\n"),
        message_id: format!("td-extend-{start}@example.test"),
        in_reply_to: None,
        references: Vec::new(),
        auto_submitted: "no",
        extra_headers: Vec::new(),
        html: None,
    };
    sender.send(&command).await?;
    let reply = wait_mail(
        imap_port,
        "td@example.test",
        "demo GM",
        1,
        Duration::from_secs(60),
    )
    .await?;
    for (s, b) in &reply {
        say(&format!("--- {s}"));
        for l in b.lines() {
            say(&format!("  | {l}"));
        }
    }
    let phases = &script.phases;
    for (n, (phase, orders)) in phases.iter().enumerate() {
        say(&format!(
            "== {phase}: the players mail their orders to gm@example.test, CC confirm@example.test"
        ));
        for (i, lines) in orders.iter().enumerate() {
            let mut body = format!("SECRET secret{}\n", i + 1);
            for l in lines.iter() {
                body.push_str(l);
                body.push('\n');
            }
            body.push_str("FINAL\n");
            let mail = OutMail {
                from: format!("player{}@example.test", i + 1),
                to: vec!["gm@example.test".into(), "confirm@example.test".into()],
                subject: format!("demo {} {phase}", powers[i]),
                body,
                message_id: format!(
                    "{}-{phase}-{}@players.example.test",
                    powers[i].to_lowercase(),
                    start
                ),
                in_reply_to: None,
                references: Vec::new(),
                auto_submitted: "no",
                extra_headers: Vec::new(),
                html: None,
            };
            sender.send(&mail).await?;
            say(&format!("   {:8} {}", powers[i], lines.join("; ")));
        }
        let fr = wait_mail(
            imap_port,
            "player3@example.test",
            phase,
            2,
            Duration::from_secs(60),
        )
        .await?;
        if n == 0 {
            say(&format!(
                "== What {} got back within seconds (receipt, then acknowledgement):",
                powers[2]
            ));
            for (s, b) in &fr {
                say(&format!("--- {s}"));
                for l in b.lines().take(40) {
                    say(&format!("  | {l}"));
                }
            }
        }
        say(
            "   ... waiting for the adjudication (everyone is Final: early, once 24 game hours have passed)",
        );
        let results = wait_mail(
            imap_port,
            "player3@example.test",
            "results",
            n + 1,
            Duration::from_secs(120),
        )
        .await?;
        if let Some((s, b)) = results
            .iter()
            .find(|(s, _)| s.contains(phase))
            .or(results.last())
        {
            say(&format!("--- {s}"));
            for l in b.lines() {
                say(&format!("  | {l}"));
            }
        }
    }
    let pool = store::open(&db).await?;
    let mut c = pool.acquire().await?;
    // Let the outbox finish sending (the final mails go to everyone), for up to 20 s.
    let mut counts = store::outbox_counts(&mut c).await?;
    for _ in 0..40 {
        if counts.0 == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        counts = store::outbox_counts(&mut c).await?;
    }
    let (pending, sent, failed) = counts;
    let current = store::current_phase(&mut c, "demo").await?;
    say(&format!(
        "== Done: the game is at {}; {sent} mails sent, {pending} pending, {failed} failed.",
        current.map(|p| p.phase).unwrap_or_else(|| "its end".into())
    ));
    drop(c);
    pool.close().await;
    let _ = stop.send(true);
    let _ = gm.await;
    drop(stack);
    let _ = std::fs::remove_dir_all(&dir);
    say("== Stopped the game master and the mail stack.");
    Ok(())
}
