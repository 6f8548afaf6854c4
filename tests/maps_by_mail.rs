//! Issue 27 over the real mail stack (Dovecot + Postfix on loopback), a real SQLite file and a
//! real HTTP listener: a phase's results mails show its map inline (multipart/alternative, the
//! text part exactly the text Chancery wrote, the PNG in a multipart/related by Content-ID), a
//! player who said MAP OFF gets text alone, HISTORY <phase> shows that phase's map, and the
//! game's read-only page serves the maps and the history at its unguessable link, with nothing
//! secret on it. The page and a results mail's HTML part are then opened in headless Chromium
//! (Debian's `chromium`, installed by scripts/install-chromium) and their screenshots kept in
//! the target directory (`target/maps-screenshots/`).

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;

use chancery::engine;
use chancery::games;
use chancery::policy::{HOUR, Ts};
use chancery::service::Clock;
use chancery::store;
use chancery::transport::smtp::Sender;
use fixtures::{POWERS, T0, game_with, player};
use mail_parser::{MessageParser, MimeHeaders, PartType};
use mailstack::{Stack, TestClock, send, wait_for};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// The raw mails of a mailbox whose subject contains `needle`.
async fn raw_mails(stack: &Stack, user: &str, needle: &str) -> Vec<Vec<u8>> {
    mailstack::raw_inbox(stack, user)
        .await
        .into_iter()
        .filter(|raw| {
            MessageParser::default()
                .parse(raw)
                .and_then(|m| m.subject().map(|s| s.contains(needle)))
                .unwrap_or(false)
        })
        .collect()
}

/// What a mail is made of: its top content type, its text part, its HTML part and its PNG
/// parts (with their Content-IDs).
struct Parts {
    top: String,
    text: String,
    html: Option<String>,
    pngs: Vec<(String, Vec<u8>)>,
}

fn parts(raw: &[u8]) -> Parts {
    let m = MessageParser::default().parse(raw).expect("a mail");
    let ct = m.content_type().expect("a content type");
    let top = format!("{}/{}", ct.c_type, ct.c_subtype.as_deref().unwrap_or(""));
    let mut p = Parts {
        top,
        // As the wire carries it, CRLF; the outbox keeps LF.
        text: m.body_text(0).expect("a text part").replace("\r\n", "\n"),
        html: None,
        pngs: Vec::new(),
    };
    for part in &m.parts {
        match &part.body {
            PartType::Html(h) => p.html = Some(h.to_string()),
            PartType::Binary(b) | PartType::InlineBinary(b) => {
                let id = part.content_id().unwrap_or_default().to_string();
                p.pngs.push((id, b.to_vec()));
            }
            _ => {}
        }
    }
    p
}

/// What the outbox holds for a reader's results of a phase: (body, the picture it names).
async fn outbox_row(
    pool: &chancery::store::Pool,
    to: &str,
    subject: &str,
) -> (String, Option<i64>) {
    sqlx::query_as("SELECT body, picture_id FROM outbox WHERE to_address = $1 AND subject = $2")
        .bind(to)
        .bind(subject)
        .fetch_one(pool)
        .await
        .expect("the outbox row")
}

/// A game's phase drawn as the outbox draws it (the same scene always draws the same bytes).
async fn drawn(pool: &chancery::store::Pool, game: &str, phase: &str) -> Vec<u8> {
    let mut c = pool.acquire().await.expect("conn");
    games::drawing(&mut c, game, phase)
        .await
        .expect("read")
        .expect("a drawing")
        .png()
        .expect("drawn")
}

/// A GET on the loopback server: (status, body).
fn http_get(port: u16, path: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .expect("request");
    let mut all = Vec::new();
    s.read_to_end(&mut all).expect("answer");
    let text = String::from_utf8_lossy(&all).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, body.to_string())
}

/// A free loopback port for the pages.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

/// Where the screenshots are kept: the target directory (a test artefact).
fn screenshots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/maps-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    dir
}

/// Headless Chromium's screenshot of `url`, decoded: (width, height, RGBA pixels).
fn screenshot(url: &str, file: &Path) -> (u32, u32, Vec<u8>) {
    let _ = std::fs::remove_file(file);
    let profile = std::env::temp_dir().join(format!("chancery-chromium-{}", std::process::id()));
    let status = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--window-size=1100,1500",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", file.display()))
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("chromium runs (scripts/install-chromium installs it)");
    assert!(status.success(), "chromium: {status}");
    let png = std::fs::read(file).expect("the screenshot");
    chancery_cartography::decode_png(&png).expect("a PNG")
}

/// How many pixels of a screenshot have exactly this colour.
fn pixels_of(shot: &(u32, u32, Vec<u8>), [r, g, b]: [u8; 3]) -> usize {
    shot.2
        .chunks_exact(4)
        .filter(|p| p[0] == r && p[1] == g && p[2] == b)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_mails_show_the_map_and_the_games_page_serves_it() {
    chancery::transport::init_crypto();
    let stack = Stack::start();
    let (pool, secrets) = game_with("maps-by-mail", "map1", "wm2004", &[]).await;
    games::start_game(&pool, "map1", T0).await.expect("start");
    let db = std::env::temp_dir()
        .join(format!("chancery-maps-by-mail-{}", std::process::id()))
        .join("chancery.sqlite");
    let port = free_port();
    let mut cfg = stack.chancery_config(&db);
    cfg.web = Some(chancery::config::Web {
        listen: format!("127.0.0.1:{port}"),
        public_url: None,
    });
    let token = games::page_token(&pool, "map1", T0).await.expect("token");
    let clock = Arc::new(TestClock(AtomicI64::new(T0 + HOUR)));
    let (stop, server_task) = mailstack::serve_by_hand(&cfg, &stack.dir, clock.clone());
    let sender = Sender::new(&stack.smtp_config()).expect("smtp");
    let env = engine::env(&pool, &cfg, T0).await.expect("env");

    // France wants no maps: MAP OFF, with its secret.
    let body = format!("SECRET {}\n", secrets[2]);
    send(&sender, &player(2), "map1 MAP OFF", &body, "map-off").await;
    let answer = wait_for(&stack, &player(2), "MAP OFF", 1).await;
    assert!(
        answer[0].1.contains("MAP OFF: from the next phase on"),
        "{}",
        answer[0].1
    );
    // A MAP OFF without proof changes nothing.
    send(&sender, &player(3), "map1 MAP OFF", "", "map-off-unproven").await;
    let answer = wait_for(&stack, &player(3), "MAP OFF", 1).await;
    assert!(answer[0].1.contains("Nothing changed"), "{}", answer[0].1);

    // Spring 1901: a bounce in Burgundy, a support, a fleet to the Black Sea bounced.
    let orders = [
        "A Vie - Gal\nA Bud - Ser\nF Tri - Alb",
        "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
        "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao",
        "A Mun - Bur\nA Ber - Kie\nF Kie - Den",
        "A Ven H\nA Rom - Apu\nF Nap - Ion",
        "A Mos - Ukr\nA War - Gal\nF Sev - Bla\nF Stp/sc - Bot",
        "F Ank - Bla\nA Con - Bul\nA Smy - Arm",
    ];
    // Press with the orders: Austria's white press to all, Italy's grey press to all, and
    // England's press to France alone. The page shows the first two as every reader saw them
    // (the grey one without its author) and never the third.
    let press = [
        "PRESS TO ALL\nThe Archduke sends his greetings.\nENDPRESS\n",
        "PRESS TO FRANCE\nThe Channel is yours.\nENDPRESS\n",
        "",
        "",
        "GREY PRESS TO ALL\nSomeone in the south is watching.\nENDPRESS\n",
        "",
        "",
    ];
    for (i, o) in orders.iter().enumerate() {
        let subject = format!("map1 {} S1901M", POWERS[i]);
        let body = format!("SECRET {}\n{o}\n{}", secrets[i], press[i]);
        send(&sender, &player(i), &subject, &body, &format!("s-{i}")).await;
    }
    for (i, power) in POWERS.iter().enumerate() {
        let ack = format!("S1901M {power}: orders received");
        wait_for(&stack, &player(i), &ack, 1).await;
    }
    let deadline: Ts = {
        let mut c = pool.acquire().await.expect("conn");
        store::current_phase(&mut c, "map1")
            .await
            .expect("phase")
            .expect("open")
            .deadline
    };
    clock.0.store(deadline + 60, Ordering::SeqCst);
    assert_eq!(
        games::tick(&pool, &env, clock.now()).await.expect("tick"),
        1
    );
    for i in 0..7 {
        wait_for(&stack, &player(i), "map1 S1901M results", 1).await;
    }

    // Austria's results: the text part is the text Chancery wrote, the map beside it.
    let raw = raw_mails(&stack, &player(0), "map1 S1901M results").await;
    let austria = parts(&raw[0]);
    assert_eq!(austria.top, "multipart/alternative");
    let (text, picture) = outbox_row(&pool, &player(0), "map1 S1901M results").await;
    assert!(picture.is_some(), "Austria's mail names the map");
    let png = drawn(&pool, "map1", "S1901M").await;
    assert_eq!(
        austria.text.trim_end(),
        text.trim_end(),
        "the text part is the text"
    );
    let html = austria.html.as_deref().expect("an HTML part");
    assert!(html.contains("src=\"cid:map@chancery\""), "{html}");
    assert!(
        html.contains("= A PAR - BUR: succeeds"),
        "the text in the HTML part: {html}"
    );
    assert_eq!(austria.pngs.len(), 1, "one picture: the map");
    assert_eq!(austria.pngs[0].0, "map@chancery");
    assert_eq!(austria.pngs[0].1, png, "the PNG is the phase's map");
    // Every reader's mail carries that one picture.
    for i in [1, 3, 4, 5, 6] {
        let raw = raw_mails(&stack, &player(i), "map1 S1901M results").await;
        assert_eq!(parts(&raw[0]).pngs[0].1, png, "{}'s map", POWERS[i]);
    }
    assert!(
        png.len() <= 200 * 1024,
        "the map's PNG is {} bytes",
        png.len()
    );
    // Every reader's mail names one picture: drawn once for the phase.
    let pictures: i64 = sqlx::query_scalar("SELECT count(*) FROM outbox_pictures")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(pictures, 1);

    // France said MAP OFF: text alone, the same text.
    let raw = raw_mails(&stack, &player(2), "map1 S1901M results").await;
    let france = parts(&raw[0]);
    assert_eq!(france.top, "text/plain");
    assert!(france.html.is_none() && france.pngs.is_empty());
    let (text, picture) = outbox_row(&pool, &player(2), "map1 S1901M results").await;
    assert!(picture.is_none());
    assert_eq!(france.text.trim_end(), text.trim_end());

    // HISTORY S1901M shows that phase's map.
    let body = format!("SECRET {}\n", secrets[3]);
    send(&sender, &player(3), "map1 HISTORY S1901M", &body, "history").await;
    wait_for(&stack, &player(3), "HISTORY S1901M", 1).await;
    let raw = raw_mails(&stack, &player(3), "HISTORY S1901M").await;
    let history = parts(&raw[0]);
    assert_eq!(history.pngs.len(), 1, "the phase's map");

    // France says MAP ON again: the next results show the map.
    let body = format!("SECRET {}\n", secrets[2]);
    send(&sender, &player(2), "map1 MAP ON", &body, "map-on").await;
    let answer = wait_for(&stack, &player(2), "MAP ON", 1).await;
    assert!(
        answer[0].1.contains("MAP ON: from the next phase on"),
        "{}",
        answer[0].1
    );
    let off: i64 = sqlx::query_scalar("SELECT count(*) FROM maps_off")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(off, 0);

    // STATUS gives the page's link.
    let body = format!("SECRET {}\n", secrets[4]);
    send(&sender, &player(4), "map1 STATUS", &body, "status").await;
    let answer = wait_for(&stack, &player(4), "STATUS", 1).await;
    let link = format!("http://127.0.0.1:{port}/g/{token}");
    assert!(answer[0].1.contains(&link), "{}", answer[0].1);

    // The page: the map now, the phase played with its results, no secret.
    let (status, page) = http_get(port, &format!("/g/{token}?tz=Europe/Paris"));
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Spring 1901, movement"), "{page}");
    assert!(
        page.contains("Fall 1901, movement"),
        "the phase being played: {page}"
    );
    assert!(
        page.contains("<td>A PAR - BUR</td><td>succeeds</td>"),
        "{page}"
    );
    assert!(
        page.contains("CET"),
        "the deadline in the reader's zone: {page}"
    );
    for secret in &secrets {
        assert!(!page.contains(secret.as_str()), "a secret on the page");
    }
    assert!(!page.contains("@example.test"), "an address on the page");
    assert!(
        page.contains("from AUSTRIA:</p>\n<pre>The Archduke sends his greetings."),
        "{page}"
    );
    assert!(
        page.contains("from (anonymous):</p>\n<pre>Someone in the south"),
        "{page}"
    );
    assert!(
        !page.contains("ITALY:</p>"),
        "the grey press's author on the page"
    );
    assert!(
        !page.contains("The Channel is yours"),
        "press to one power on the page"
    );
    assert!(!page.contains("<script"), "no scripts");
    let (status, svg) = http_get(port, &format!("/g/{token}/map/S1901M.svg"));
    assert_eq!(status, 200);
    assert!(svg.starts_with("<svg"), "{svg}");
    assert_eq!(
        http_get(port, &format!("/g/{token}/map/F1901M.svg")).0,
        404,
        "not played yet"
    );
    assert_eq!(http_get(port, "/g/0123456789abcdef/map/now.svg").0, 404);
    assert_eq!(http_get(port, "/g/0123456789abcdef").0, 404);

    // Headless Chromium: the page and the mail's HTML part, with the map in both.
    let dir = screenshots();
    let france_tint = chancery_cartography::owner_colour("standard", "FRANCE").expect("France");
    let page_shot = screenshot(
        &format!("http://127.0.0.1:{port}/g/{token}"),
        &dir.join("game-page.png"),
    );
    assert!(
        pixels_of(&page_shot, france_tint) > 500,
        "France's colour on the page's map"
    );
    let mail_dir = dir.join("results-mail");
    std::fs::create_dir_all(&mail_dir).expect("dir");
    std::fs::write(mail_dir.join("map.png"), &austria.pngs[0].1).expect("png");
    std::fs::write(
        mail_dir.join("mail.html"),
        html.replace("cid:map@chancery", "map.png"),
    )
    .expect("html");
    let mail_shot = screenshot(
        &format!("file://{}", mail_dir.join("mail.html").display()),
        &dir.join("results-mail.png"),
    );
    assert!(
        pixels_of(&mail_shot, france_tint) > 500,
        "France's colour on the mail's map"
    );

    stop.send(true).expect("stop");
    server_task.await.expect("join").expect("serve");
}
