//! The deadline, NMR and press rules of the rulebooks (issue 12), through the engine on a real
//! SQLite file with an injected clock: extensions and holiday extensions (WM D.VII(5)), one-off
//! unavailable periods (WM D.VII(2)), the NMR contact window (WM D.VII(6)(a)) and white press
//! with its author's orders (WM D.X(1)), and receipts read against the subject's phase and the
//! game's own addressing rule (WM D.VII(7); Maharajiad B.VIII(7)).

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::commands::GmCommand;
use chancery::engine::admin;
use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};
use chancery::store::Pool;
use chancery::store::{self, Role};

const GM: &str = "gm.person@example.test";

/// A running wm2004 game `wm7` with a GM of its own; the players' secrets.
async fn wm(name: &str) -> (Pool, Vec<String>) {
    wm_with(name, &[]).await
}

/// NMRs allowed from the start (no WM D.VII(6)(b) hold), so that only some players need write.
fn nmrs_allowed() -> Vec<(String, String)> {
    vec![("no_nmr_phases".into(), "[]".into())]
}

/// [`wm`], with options changed from the preset.
async fn wm_with(name: &str, options: &[(String, String)]) -> (Pool, Vec<String>) {
    let (pool, secrets) = wm_game(name, "wm7", options).await;
    admin::add_member(&pool, "wm7", Role::Gm, GM, "UTC", T0)
        .await
        .expect("gm");
    games::start_game(&pool, "wm7", T0).await.expect("start");
    (pool, secrets)
}

async fn deadline(pool: &Pool) -> Ts {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, "wm7")
        .await
        .expect("q")
        .expect("open")
        .deadline
}

/// Player `i` mails `body` for S1901M at `at`; the acknowledgement's text.
async fn mail(pool: &Pool, secrets: &[String], i: usize, uid: u32, body: &str, at: Ts) -> String {
    mail_in(pool, secrets, i, uid, "S1901M", body, at).await
}

/// [`mail`], for another phase.
async fn mail_in(
    pool: &Pool,
    secrets: &[String],
    i: usize,
    uid: u32,
    phase: &str,
    body: &str,
    at: Ts,
) -> String {
    let power = POWERS[i];
    let m = raw(
        &player(i),
        "gm@example.test",
        &format!("wm7 {power} {phase}"),
        &format!("Message-ID: <d{uid}@x.test>\r\n"),
        &format!("SECRET {}\n{body}\n", secrets[i]),
    );
    deliver(pool, "gm", uid, &m, Some(at), at).await;
    outbox(pool)
        .await
        .into_iter()
        .rev()
        .find(|o| o.0 == "ack" && o.1 == player(i))
        .map(|o| o.3.split_whitespace().collect::<Vec<_>>().join(" "))
        .expect("ack")
}

#[tokio::test]
async fn wm_d_vii_5_notice_guaranteed_then_discretionary_extensions_and_the_cap() {
    let (pool, secrets) = wm("extensions").await;
    let first = deadline(&pool).await;
    // 11 h 59 min before the deadline: refused for this turn.
    let ack = mail(
        &pool,
        &secrets,
        2,
        1,
        "EXTEND 1 DAY",
        first - 12 * HOUR + 60,
    )
    .await;
    assert!(
        ack.contains("refused: extensions must be asked at least 12 hours before"),
        "{ack}"
    );
    assert_eq!(deadline(&pool).await, first);
    // 12 h 01 min before: France's guaranteed extension; every player is told.
    let ack = mail(
        &pool,
        &secrets,
        2,
        2,
        "EXTEND 2 DAYS",
        first - 12 * HOUR - 60,
    )
    .await;
    assert!(ack.contains("granted (guaranteed: WM D.VII(5))"), "{ack}");
    let second = deadline(&pool).await;
    assert_eq!(second, first + 2 * DAY);
    let out = outbox(&pool).await;
    for i in 0..7 {
        assert!(
            out.iter().any(|o| o.0 == "announcement"
                && o.1 == player(i)
                && o.3.contains("An extension of 2 day(s) has been granted")),
            "player {i} is told"
        );
    }
    // The next one is the GM's to grant: the GM is asked.
    let ack = mail(&pool, &secrets, 2, 3, "EXTEND 3 DAYS", second - 2 * DAY).await;
    assert!(ack.contains("asked of the GM"), "{ack}");
    assert_eq!(deadline(&pool).await, second);
    let out = outbox(&pool).await;
    let asked = out
        .iter()
        .find(|o| o.1 == GM && o.2.contains("FRANCE asks for an extension"))
        .expect("the GM is asked");
    assert!(asked.3.contains("GRANT EXTENSION FRANCE"), "{}", asked.3);
    let e = env();
    let grant = GmCommand::GrantExtension("FRANCE".into());
    let done = games::console_command(&pool, &e, "wm7", &grant, second - DAY)
        .await
        .expect("grant");
    assert!(done.ok, "{done:?}");
    let third = deadline(&pool).await;
    assert_eq!(third, second + 3 * DAY);
    // Nothing waits any more.
    let again = games::console_command(&pool, &e, "wm7", &grant, second - DAY)
        .await
        .expect("grant");
    assert!(
        !again.ok && again.answer.contains("no extension request"),
        "{again:?}"
    );
    // Five days used of seven: three more are over the cap (WM D.VII(5)), refused at once.
    let ack = mail(&pool, &secrets, 2, 4, "EXTEND 3 DAYS", third - 2 * DAY).await;
    assert!(
        ack.contains("refused: this position has 2 day(s) of extension left"),
        "{ack}"
    );
    assert!(!ack.contains("asked of the GM"), "{ack}");
    // England's own guaranteed extension is still there; a refusal tells the player.
    let ack = mail(&pool, &secrets, 1, 5, "EXTEND 1 DAY", third - 2 * DAY).await;
    assert!(ack.contains("granted (guaranteed"), "{ack}");
    let ack = mail(&pool, &secrets, 1, 6, "EXTEND 1 DAY", third - DAY).await;
    assert!(ack.contains("asked of the GM"), "{ack}");
    let refuse = GmCommand::RefuseExtension("ENGLAND".into());
    let done = games::console_command(&pool, &e, "wm7", &refuse, third)
        .await
        .expect("refuse");
    assert!(done.ok, "{done:?}");
    assert!(
        outbox(&pool)
            .await
            .iter()
            .any(|o| o.1 == player(1) && o.3.contains("The GM has refused your request")),
        "England is told"
    );
    let mut c = pool.acquire().await.expect("conn");
    let players = store::players(&mut c, "wm7").await.expect("players");
    let days = |p: &str| {
        players
            .iter()
            .find(|x| x.power == p)
            .expect("player")
            .extension_days_used
    };
    assert_eq!((days("FRANCE"), days("ENGLAND")), (5, 1));
    drop(c);
    // The ledger, in STATUS.
    let status = games::console_command(&pool, &e, "wm7", &GmCommand::Status, third)
        .await
        .expect("status");
    assert!(
        status
            .answer
            .contains("extension days used: ENGLAND 1d, FRANCE 5d"),
        "{status:?}"
    );
}

/// A dated period's line: `UNAVAILABLE <from> TO <to>`, written to the minute in GMT.
fn period(from: Ts, to: Ts) -> String {
    let day = |t: Ts| chancery::time::format_gmt(t).replace(" GMT", "");
    format!("UNAVAILABLE {} TO {}", day(from), day(to))
}

#[tokio::test]
async fn wm_d_vii_2_one_period_a_week_declared_in_advance_and_a_covered_deadline_moves() {
    // Issue 21, point 4: a player could move any deadline 63 hours an hour before it, every
    // turn, with periods a minute apart or abutting a weekly one, as many as they liked.
    let (pool, secrets) = wm("unavailable").await;
    let first = deadline(&pool).await;
    // Periods are written to the minute.
    let minute = |t: Ts| t / 60 * 60;
    // A period of 40 hours around the deadline, declared days ahead: recorded, and the
    // deadline moves to its end; every player is told.
    let (from, to) = (minute(first - 20 * HOUR), minute(first + 20 * HOUR));
    let ack = mail(&pool, &secrets, 0, 1, &period(from, to), T0 + HOUR).await;
    assert!(ack.contains("recorded"), "{ack}");
    assert!(ack.contains("the deadline fell in this period"), "{ack}");
    assert_eq!(deadline(&pool).await, to);
    assert!(
        outbox(&pool)
            .await
            .iter()
            .any(|o| o.1 == player(5) && o.3.contains("(WM D.VII(2))")),
        "every player is told"
    );
    // One period a week: abutting it, a minute after it, or six days after it began, it would
    // be a second one (and so no chain of periods either).
    for (uid, (a, b)) in [
        (to, to + 30 * HOUR),
        (to + 60, to + 10 * HOUR),
        (from + 6 * DAY, from + 6 * DAY + 10 * HOUR),
    ]
    .into_iter()
    .enumerate()
    {
        let ack = mail(
            &pool,
            &secrets,
            0,
            2 + uid as u32,
            &period(a, b),
            T0 + 2 * HOUR,
        )
        .await;
        assert!(
            ack.contains("refused: a player has one unavailable period a week (WM D.VII(2))"),
            "{ack}"
        );
    }
    // A week after the first began is the next week's.
    let next = from + 7 * DAY;
    let ack = mail(
        &pool,
        &secrets,
        0,
        5,
        &period(next, next + 64 * HOUR),
        T0 + 2 * HOUR,
    )
    .await;
    assert!(ack.contains("recorded"), "{ack}");
    assert_eq!(deadline(&pool).await, to);
    // Declared in advance, with the notice an extension needs: not an hour before the
    // deadline, to move it 63 hours; never in the past.
    let dl = deadline(&pool).await;
    let late = minute(dl - HOUR);
    for (uid, (a, b)) in [(late, late + 63 * HOUR), (T0, T0 + 10 * HOUR)]
        .into_iter()
        .enumerate()
    {
        let ack = mail(&pool, &secrets, 1, 6 + uid as u32, &period(a, b), late).await;
        assert!(
            ack.contains(
                "refused: an unavailable period must be declared at least 12 hours before it starts"
            ),
            "{ack}"
        );
    }
    assert_eq!(deadline(&pool).await, dl, "the deadline stands");
    // A dated period may not abut the player's weekly one: that too is a second in its week.
    // (T0 is Wednesday 2026-11-18; the first Tuesday occurrence is 2026-11-24.)
    let ack = mail(
        &pool,
        &secrets,
        3,
        8,
        "UNAVAILABLE WEEKLY TUESDAY 08:00 TO TUESDAY 20:00",
        T0 + 3 * HOUR,
    )
    .await;
    assert!(ack.contains("the first from 2026-11-24 08:00 GMT"), "{ack}");
    let ack = mail(
        &pool,
        &secrets,
        3,
        9,
        "UNAVAILABLE 2026-11-24 20:00 TO 2026-11-25 08:00",
        T0 + 3 * HOUR,
    )
    .await;
    assert!(
        ack.contains("refused: you have a weekly unavailable period"),
        "{ack}"
    );
    // The server keeps at most 8 dated periods to come for a player: a ninth, a week after
    // the eighth, is refused (the lines of one mail see the ones before them).
    let lines: Vec<String> = (0..9)
        .map(|k| {
            let a = minute(dl + 2 * DAY) + k * 7 * DAY;
            period(a, a + HOUR)
        })
        .collect();
    let ack = mail(&pool, &secrets, 4, 10, &lines.join("\n"), T0 + 3 * HOUR).await;
    assert_eq!(ack.matches("GMT: recorded").count(), 8, "{ack}");
    assert!(
        ack.contains("refused: you have 8 dated unavailable periods to come already"),
        "{ack}"
    );
}

#[tokio::test]
async fn wm_d_vii_5_a_holiday_extension_must_be_granted_and_is_not_charged() {
    let (pool, secrets) = wm("holiday").await;
    let e = env();
    let first = deadline(&pool).await;
    // The TD declares two days around the first deadline a holiday.
    let day0 = chancery::time::format_gmt(first - DAY);
    let day1 = chancery::time::format_gmt(first);
    let cmd = chancery::commands::read_command(&format!(
        "HOLIDAY {} TO {} Thanksgiving",
        &day0[..10],
        &day1[..10]
    ))
    .expect("read");
    let done = games::console_command(&pool, &e, "wm7", &cmd, T0 + 60)
        .await
        .expect("holiday");
    assert!(done.ok, "{done:?}");
    assert!(
        outbox(&pool)
            .await
            .iter()
            .any(|o| o.1 == player(3) && o.3.contains("EXTEND HOLIDAY")),
        "every player is told how to take it"
    );
    // An hour before the deadline (no 12 hours' notice needed): it must be granted.
    let ack = mail(&pool, &secrets, 2, 1, "EXTEND HOLIDAY", first - HOUR).await;
    assert!(
        ack.contains("holiday extension granted (WM D.VII(5); not charged)"),
        "{ack}"
    );
    let second = deadline(&pool).await;
    assert_eq!(second, first + 2 * DAY, "the holiday's two days");
    // Once for the game; and France's guaranteed extension is still there.
    let ack = mail(&pool, &secrets, 4, 2, "EXTEND HOLIDAY", first).await;
    assert!(ack.contains("holiday extension refused"), "{ack}");
    let ack = mail(&pool, &secrets, 2, 3, "EXTEND 1 DAY", first).await;
    assert!(ack.contains("granted (guaranteed"), "{ack}");
    let mut c = pool.acquire().await.expect("conn");
    let france = store::players(&mut c, "wm7")
        .await
        .expect("players")
        .into_iter()
        .find(|p| p.power == "FRANCE")
        .expect("france");
    assert_eq!(france.extension_days_used, 1, "only the guaranteed day");
}

#[tokio::test]
async fn wm_d_vii_6_a_a_player_who_nmred_must_make_contact_or_be_replaced() {
    let (pool, secrets) = wm_with("nmr-contact", &nmrs_allowed()).await;
    let e = env();
    // France orders; the six others NMR.
    mail(&pool, &secrets, 2, 1, "A Par - Bur", T0 + HOUR).await;
    let published = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, published).await.expect("tick"), 1);
    let rules = chancery::rules::Rules::preset("wm2004").expect("wm");
    let due = chancery::policy::nmr_contact_deadline(&rules, published).expect("window");
    // Italy's player makes contact (any authenticated mail).
    let italy = raw(
        &player(4),
        "gm@example.test",
        "wm7 ITALY F1901M",
        "Message-ID: <contact@x.test>\r\n",
        &format!("SECRET {}\nSorry, I was away.\n", secrets[4]),
    );
    deliver(
        &pool,
        "gm",
        50,
        &italy,
        Some(published + HOUR),
        published + HOUR,
    )
    .await;
    let notices = |pool: Pool| async move {
        outbox(&pool)
            .await
            .into_iter()
            .filter(|o| o.1 == GM && o.2.contains("who NMRed and has not made contact"))
            .map(|o| (o.2, o.3))
            .collect::<Vec<_>>()
    };
    // Not before the window closes...
    games::tick(&pool, &e, due - 60).await.expect("tick");
    assert!(notices(pool.clone()).await.is_empty());
    // ...then once per NMR without contact: not France (orders), not Italy (contact).
    games::tick(&pool, &e, due + 60).await.expect("tick");
    games::tick(&pool, &e, due + 120).await.expect("tick");
    let sent = notices(pool.clone()).await;
    let powers: Vec<&str> = ["AUSTRIA", "ENGLAND", "GERMANY", "RUSSIA", "TURKEY"].to_vec();
    assert_eq!(sent.len(), powers.len(), "{sent:?}");
    for p in powers {
        let n = sent.iter().find(|n| n.0.contains(p)).expect(p);
        assert!(n.1.contains(&format!("REPLACE {p} <address>")), "{}", n.1);
        assert!(n.1.contains("WM D.VII(6)(a)"), "{}", n.1);
    }
    assert!(
        !sent
            .iter()
            .any(|n| n.0.contains("FRANCE") || n.0.contains("ITALY"))
    );
}

#[tokio::test]
async fn wm_d_x_1_white_press_is_published_with_its_authors_orders() {
    let (pool, secrets) = wm_game("white-press", "wm7", &nmrs_allowed()).await;
    games::start_game(&pool, "wm7", T0).await.expect("start");
    mail(
        &pool,
        &secrets,
        4,
        1,
        "A Ven H\nPRESS TO ALL\nLepanto? Never heard of it.\nENDPRESS",
        T0 + HOUR,
    )
    .await;
    let at = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &env(), at).await.expect("tick"), 1);
    let results = outbox(&pool)
        .await
        .into_iter()
        .find(|o| o.0 == "results" && o.1 == player(6))
        .expect("Turkey's results")
        .3;
    let italy = results
        .split("\nITALY\n")
        .nth(1)
        .and_then(|s| s.split("\nRUSSIA\n").next())
        .expect("Italy's orders");
    assert!(italy.contains("Lepanto? Never heard of it."), "{results}");
}

#[tokio::test]
async fn wm_d_vii_2_a_weekly_weekend_in_new_york_keeps_deadlines_out_across_dst() {
    let (pool, secrets) = wm_game("weekly", "wm7", &nmrs_allowed()).await;
    admin::add_member(&pool, "wm7", Role::Gm, GM, "UTC", T0)
        .await
        .expect("gm");
    let at = |s: &str| {
        chrono::DateTime::parse_from_rfc3339(s)
            .expect("date")
            .timestamp()
    };
    // Started on Wednesday 2026-10-28: the first deadline, three days on, is Saturday noon GMT,
    // in the weekend over which New York leaves daylight saving.
    let start = at("2026-10-28T12:00:00Z");
    games::start_game(&pool, "wm7", start).await.expect("start");
    assert_eq!(deadline(&pool).await, at("2026-10-31T12:00:00Z"));
    let ack = mail(
        &pool,
        &secrets,
        0,
        1,
        "UNAVAILABLE WEEKLY FRIDAY 17:00 TO MONDAY 09:00 America/New_York",
        start + HOUR,
    )
    .await;
    assert!(ack.contains("recorded, in America/New_York time"), "{ack}");
    assert!(ack.contains("the deadline fell in it"), "{ack}");
    // It left at 21:00 GMT (17:00 EDT); Monday 09:00 EST would be 65 real hours later, so it
    // ends after 64 (WM D.VII(2)): 13:00 GMT, 08:00 in New York.
    let monday = at("2026-11-02T13:00:00Z");
    assert_eq!(deadline(&pool).await, monday);
    assert!(
        outbox(&pool)
            .await
            .iter()
            .any(|o| o.1 == player(3) && o.3.contains("(WM D.VII(2))")),
        "every player is told"
    );
    // The tick keeps later deadlines out of later weekends: Fall's is Thursday, then Spring
    // 1902's would be Sunday 2026-11-08 and moves to Monday 09:00 EST (a 64-hour weekend).
    let e = env();
    assert_eq!(games::tick(&pool, &e, monday).await.expect("tick"), 1);
    let fall = deadline(&pool).await;
    assert_eq!(fall, at("2026-11-05T13:00:00Z"));
    assert_eq!(games::tick(&pool, &e, fall).await.expect("tick"), 1);
    assert_eq!(deadline(&pool).await, at("2026-11-09T14:00:00Z"));
    // Withdrawn: no weekly period any more.
    let ack = mail(
        &pool,
        &secrets,
        0,
        2,
        "UNAVAILABLE WEEKLY NONE",
        fall + HOUR,
    )
    .await;
    assert!(ack.contains("withdrawn"), "{ack}");
}

#[tokio::test]
async fn a_receipt_reads_the_orders_against_the_subjects_phase_and_the_games_own_rule() {
    // Issue 12, point 7; WM D.VII(7), Maharajiad B.VIII(7) and B.III(2).
    let (pool, secrets) = wm_game(
        "receipts",
        "wm7",
        &[
            ("no_nmr_phases".into(), "[]".into()),
            ("gm_address".into(), "to".into()),
        ],
    )
    .await;
    games::start_game(&pool, "wm7", T0).await.expect("start");
    mail(&pool, &secrets, 2, 1, "A Par - Bur", T0 + HOUR).await;
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &env(), spring).await.expect("tick"), 1);
    // Read after the adjudication (an outage), a copy of Spring orders is still read against
    // Spring's board, where the army is in Paris; the GM is only in CC, which this game refuses.
    let copy = raw(
        &player(2),
        "confirm@example.test",
        "wm7 FRANCE S1901M",
        "Cc: gm@example.test\r\nMessage-ID: <late-copy@x.test>\r\n",
        &format!("SECRET {}\nA Par - Pic\n", secrets[2]),
    );
    deliver(
        &pool,
        "confirm",
        60,
        &copy,
        Some(spring - 60),
        spring + HOUR,
    )
    .await;
    let receipt = outbox(&pool)
        .await
        .into_iter()
        .find(|o| o.0 == "receipt")
        .expect("receipt")
        .3;
    let text = receipt.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("A PAR - PIC"), "{text}");
    assert!(
        text.contains("is not in the \"To\" line of this message"),
        "{text}"
    );
}

#[tokio::test]
async fn every_nmr_late_set_extension_and_replacement_feeds_the_reliability_record() {
    // Issue 12, point 4: `chancery players report`.
    let (pool, secrets) = wm_with("reliability", &nmrs_allowed()).await;
    let e = env();
    let first = deadline(&pool).await;
    // France: orders and a two-day extension; Germany: orders; England: orders too late.
    mail(
        &pool,
        &secrets,
        2,
        1,
        "A Par - Bur\nEXTEND 2 DAYS",
        T0 + HOUR,
    )
    .await;
    mail(&pool, &secrets, 3, 2, "A Mun H", T0 + HOUR).await;
    let spring = deadline(&pool).await;
    assert_eq!(spring, first + 2 * DAY);
    let late = raw(
        &player(1),
        "gm@example.test",
        "wm7 ENGLAND S1901M",
        "Message-ID: <late@x.test>\r\n",
        &format!("SECRET {}\nF Lon - Nth\n", secrets[1]),
    );
    deliver(&pool, "gm", 3, &late, Some(spring + 60), spring + 60).await;
    // Italy's player is replaced.
    let replace = GmCommand::Replace {
        power: "ITALY".into(),
        address: "stand-in@example.test".into(),
        permanent: true,
    };
    assert!(
        games::console_command(&pool, &e, "wm7", &replace, T0 + 2 * HOUR)
            .await
            .expect("replace")
            .ok
    );
    assert_eq!(games::tick(&pool, &e, spring + 120).await.expect("tick"), 1);
    let mut c = pool.acquire().await.expect("conn");
    let report = store::diplomacy::reliability(&mut c).await.expect("report");
    let of = |a: &str| report.iter().find(|r| r.address == a).cloned().expect(a);
    let france = of(&player(2));
    assert_eq!(
        (france.nmrs, france.extensions, france.extension_days),
        (0, 1, 2)
    );
    let england = of(&player(1));
    assert_eq!((england.nmrs, england.late), (1, 1), "late, then no orders");
    assert_eq!(of(&player(3)).nmrs, 0);
    assert_eq!(of(&player(0)).nmrs, 1);
    let old = of(&player(4));
    assert_eq!((old.replaced, old.positions), (1, 0));
    let new = of("stand-in@example.test");
    assert_eq!((new.replacing, new.positions, new.nmrs), (1, 1, 1));
}

/// The results a player got for a phase, and every outgoing mail of the game but the author's
/// own acknowledgements, for the press tests.
async fn press_outcome(pool: &Pool, reader: usize, author: usize) -> (String, Vec<String>) {
    let out = outbox(pool).await;
    let results = out
        .iter()
        .find(|o| o.0 == "results" && o.1 == player(reader))
        .map(|o| o.3.clone())
        .expect("results");
    let others = out
        .into_iter()
        .filter(|o| !(o.0 == "ack" && o.1 == player(author)))
        .map(|o| format!("{}\n{}\n{}", o.1, o.2, o.3))
        .collect();
    (results, others)
}

/// The text around the first `needle` in `mail`, `bytes` either side (on character bounds).
fn around<'a>(mail: &'a str, needle: &str, bytes: usize) -> Option<&'a str> {
    let k = mail.find(needle)?;
    let mut a = k.saturating_sub(bytes);
    while !mail.is_char_boundary(a) {
        a -= 1;
    }
    let mut b = (k + needle.len() + bytes).min(mail.len());
    while !mail.is_char_boundary(b) {
        b += 1;
    }
    Some(&mail[a..b])
}

/// The press section of a results mail (from its heading to the next blank-line section).
fn section<'a>(results: &'a str, heading: &str) -> &'a str {
    let start = results
        .find(heading)
        .unwrap_or_else(|| panic!("{heading}: {results}"));
    let rest = &results[start..];
    let end = rest.find("\n\n\n").unwrap_or(rest.len());
    &rest[..end]
}

#[tokio::test]
async fn wm_d_x_1_dark_grey_press_is_unofficial_and_anonymous_and_black_press_is_refused() {
    let (pool, secrets) = wm_game("dark-grey", "wm7", &nmrs_allowed()).await;
    games::start_game(&pool, "wm7", T0).await.expect("start");
    let ack = mail(
        &pool,
        &secrets,
        2,
        1,
        "A Par H\nDARK GREY PRESS TO ALL SIGNED The Ghost of Bismarck\nThe Kaiser lives.\nENDPRESS\n\
         BLACK PRESS TO ALL AS ENGLAND\nWe surrender.\nENDPRESS",
        T0 + HOUR,
    )
    .await;
    assert!(ack.contains("does not accept black press"), "{ack}");
    let at = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &env(), at).await.expect("tick"), 1);
    let (results, others) = press_outcome(&pool, 6, 2).await;
    let press = section(&results, "ANONYMOUS OR UNOFFICIAL PRESS");
    assert!(
        press.contains("Signed \"The Ghost of Bismarck\" (unofficial) to ALL:")
            && press.contains("The Kaiser lives."),
        "{press}"
    );
    assert!(!press.contains("FRANCE"), "{press}");
    for mail in &others {
        // Never with its author, never the refused black press (WM D.X(2)).
        assert!(!mail.contains("We surrender."), "{mail}");
        if let Some(around) = around(mail, "The Kaiser lives.", 200) {
            assert!(!around.contains("FRANCE"), "{around}");
        }
    }
}

#[tokio::test]
async fn maharajiad_b_xi_1_black_press_is_printed_as_the_named_powers() {
    let (pool, secrets) = game_with("black", "mj7", "maharajiad", &nmrs_allowed()).await;
    games::start_game(&pool, "mj7", T0).await.expect("start");
    let m = raw(
        &player(2),
        "gm@example.test",
        "mj7 FRANCE S1901M",
        "Message-ID: <black@x.test>\r\n",
        &format!(
            "SECRET {}\nA Par H\nBLACK PRESS TO ALL AS ENGLAND\nWe surrender.\nENDPRESS\n\
             DARK GREY PRESS TO ALL SIGNED Nobody\nBoo.\nENDPRESS\n",
            secrets[2]
        ),
    );
    deliver(&pool, "gm", 1, &m, Some(T0 + HOUR), T0 + HOUR).await;
    let mut c = pool.acquire().await.expect("conn");
    let at = store::current_phase(&mut c, "mj7")
        .await
        .expect("q")
        .expect("open")
        .deadline;
    drop(c);
    assert_eq!(games::tick(&pool, &env(), at).await.expect("tick"), 1);
    let (results, others) = press_outcome(&pool, 6, 2).await;
    let press = section(&results, "\nPRESS\n");
    assert!(
        press.contains("From ENGLAND to ALL:") && press.contains("We surrender."),
        "{press}"
    );
    assert!(!press.contains("FRANCE"), "{press}");
    assert!(
        !results.contains("Boo."),
        "dark grey is refused here: {results}"
    );
    for mail in &others {
        if let Some(around) = around(mail, "We surrender.", 300) {
            assert!(!around.contains("FRANCE"), "{around}");
        }
    }
}

#[tokio::test]
async fn maharajiad_b_xi_2_press_is_published_in_the_games_keyed_order_not_as_it_came() {
    // Issue 21: black press went out next to its author's own white press sent in the same
    // mail (the order of arrival). The server's secret key orders the phase's press instead.
    let (pool, secrets) = game_with("press-order", "mj8", "maharajiad", &nmrs_allowed()).await;
    games::start_game(&pool, "mj8", T0).await.expect("start");
    // The server's secret orders the press; the tests' key is known here.
    let key = env().key.bytes().to_vec();
    // In order of arrival: France's white, France's black (as England), France's white, then
    // Germany's white.
    let france = raw(
        &player(2),
        "gm@example.test",
        "mj8 FRANCE S1901M",
        "Message-ID: <order1@x.test>\r\n",
        &format!(
            "SECRET {}\nA Par H\nPRESS TO ALL\nFrance one.\nENDPRESS\n\
             BLACK PRESS TO ALL AS ENGLAND\nWe surrender.\nENDPRESS\n\
             PRESS TO ALL\nFrance two.\nENDPRESS\n",
            secrets[2]
        ),
    );
    deliver(&pool, "gm", 1, &france, Some(T0 + HOUR), T0 + HOUR).await;
    let germany = raw(
        &player(3),
        "gm@example.test",
        "mj8 GERMANY S1901M",
        "Message-ID: <order2@x.test>\r\n",
        &format!(
            "SECRET {}\nA Mun H\nPRESS TO ALL\nGermany speaks.\nENDPRESS\n",
            secrets[3]
        ),
    );
    deliver(&pool, "gm", 2, &germany, Some(T0 + 2 * HOUR), T0 + 2 * HOUR).await;
    let mut c = pool.acquire().await.expect("conn");
    let at = store::current_phase(&mut c, "mj8")
        .await
        .expect("q")
        .expect("open")
        .deadline;
    drop(c);
    assert_eq!(games::tick(&pool, &env(), at).await.expect("tick"), 1);
    let (results, _) = press_outcome(&pool, 6, 2).await;
    let press = section(&results, "\nPRESS\n");
    let arrived = [
        "France one.",
        "We surrender.",
        "France two.",
        "Germany speaks.",
    ];
    let mut published: Vec<(usize, &str)> = arrived
        .iter()
        .map(|body| {
            (
                press
                    .find(body)
                    .unwrap_or_else(|| panic!("{body}: {press}")),
                *body,
            )
        })
        .collect();
    published.sort_unstable();
    let published: Vec<&str> = published.into_iter().map(|(_, b)| b).collect();
    let keyed: Vec<&str> = chancery::outgoing::compose::keyed_order(&key, "press|mj8|S1901M", 4)
        .into_iter()
        .map(|i| arrived[i])
        .collect();
    assert_eq!(published, keyed, "{press}");
    assert_ne!(published, arrived, "not in the order it came: {press}");
}

#[tokio::test]
async fn wm_d_iii_1_a_players_own_abbreviations_are_used_published_and_may_be_vetoed() {
    let (pool, secrets) = wm_with("abbreviations", &nmrs_allowed()).await;
    let e = env();
    let list = "ABBREVIATIONS\nbg = Burgundy\nwm = Western Mediterranean\nENDABBREVIATIONS";
    let ack = mail(
        &pool,
        &secrets,
        2,
        1,
        &format!("{list}\nA Par - bg"),
        T0 + HOUR,
    )
    .await;
    assert!(ack.contains("A PAR - BUR"), "read with the list: {ack}");
    assert!(ack.contains("registered (2 entries)"), "{ack}");
    assert!(
        outbox(&pool)
            .await
            .iter()
            .any(|o| o.1 == player(6) && o.3.contains("bg = BUR") && o.3.contains("WM D.III(1)")),
        "every player sees the list"
    );
    // The GM vetoes one entry before the first deadline; it no longer reads.
    let veto = GmCommand::VetoAbbreviations {
        power: "FRANCE".into(),
        entries: vec!["bg".into()],
    };
    let done = games::console_command(&pool, &e, "wm7", &veto, T0 + 2 * HOUR)
        .await
        .expect("veto");
    assert!(done.ok, "{done:?}");
    let ack = mail(&pool, &secrets, 2, 2, "A Par - bg", T0 + 3 * HOUR).await;
    assert!(ack.contains("'bg' is not a province"), "{ack}");
    // Too late for the others once the first turn is over; a replacement may, with the first
    // orders.
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let ack = mail_in(
        &pool,
        &secrets,
        0,
        3,
        "F1901M",
        "ABBREVIATIONS\nvi = Vienna\nENDABBREVIATIONS",
        spring + HOUR,
    )
    .await;
    assert!(
        ack.contains("refused: a list is registered at the outset"),
        "{ack}"
    );
    let replace = GmCommand::Replace {
        power: "ITALY".into(),
        address: "stand-in@example.test".into(),
        permanent: true,
    };
    assert!(
        games::console_command(&pool, &e, "wm7", &replace, spring + HOUR)
            .await
            .expect("replace")
            .ok
    );
    let mut c = pool.acquire().await.expect("conn");
    let secret = store::players(&mut c, "wm7")
        .await
        .expect("players")
        .into_iter()
        .find(|p| p.power == "ITALY")
        .expect("italy")
        .secret;
    drop(c);
    let m = raw(
        "stand-in@example.test",
        "gm@example.test",
        "wm7 ITALY F1901M",
        "Message-ID: <stand-in@x.test>\r\n",
        &format!("SECRET {secret}\nABBREVIATIONS\nvn = Venice\nENDABBREVIATIONS\nA vn - Tyr\n"),
    );
    deliver(
        &pool,
        "gm",
        4,
        &m,
        Some(spring + 2 * HOUR),
        spring + 2 * HOUR,
    )
    .await;
    let ack = outbox(&pool)
        .await
        .into_iter()
        .rev()
        .find(|o| o.0 == "ack" && o.1 == "stand-in@example.test")
        .expect("ack")
        .3
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        ack.contains("A VEN - TYR") && ack.contains("registered (1 entries)"),
        "{ack}"
    );
}

/// France takes Spain and Portugal in 1901 (two builds) and sends its builds with its Fall
/// orders; the game's `options` besides.
async fn france_builds_conditionally(name: &str, options: &[(String, String)]) -> Pool {
    let mut all = vec![("no_nmr_phases".to_string(), "[]".to_string())];
    all.extend_from_slice(options);
    let (pool, secrets) = wm_game(name, "wm7", &all).await;
    games::start_game(&pool, "wm7", T0).await.expect("start");
    let e = env();
    mail(&pool, &secrets, 2, 1, "A Mar - Spa\nF Bre - Mao", T0 + HOUR).await;
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let ack = mail_in(
        &pool,
        &secrets,
        2,
        2,
        "F1901M",
        "F Mao - Por\nA Spa H\nCONDITIONAL\nBuild A Par\nBuild F Mar\nBuild A Bre\nBuild A Mar\nENDCONDITIONAL",
        spring + HOUR,
    )
    .await;
    assert!(
        ack.contains("kept (4 line(s))") && ack.contains("WM D.II(5)"),
        "{ack}"
    );
    // The conditional lines are not this turn's orders.
    assert!(!ack.contains("BUILD"), "{ack}");
    pool
}

async fn france_units(pool: &Pool) -> Vec<String> {
    let mut c = pool.acquire().await.expect("conn");
    let p = store::current_phase(&mut c, "wm7")
        .await
        .expect("q")
        .expect("open");
    let board = chancery::games::diplomacy::board_from_json(
        chancery::map::Map::standard(),
        &p.board,
        &p.phase,
    )
    .expect("board");
    let map = chancery::map::Map::standard();
    let france = map.power_by_name("FRANCE").expect("france");
    let mut units: Vec<String> = board
        .units
        .iter()
        .filter(|u| u.power == france)
        .map(|u| map.unit_name(u.unit_type, u.location))
        .collect();
    units.sort();
    units
}

#[tokio::test]
async fn wm_d_ii_5_conditional_builds_are_used_first_possible_first() {
    let pool = france_builds_conditionally("conditional", &[]).await;
    let e = env();
    let fall = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, fall).await.expect("tick"), 1);
    // The adjustment phase still opens, and waits for its deadline (the setting is off).
    let winter = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, fall + 60).await.expect("tick"), 0);
    assert_eq!(games::tick(&pool, &e, winter).await.expect("tick"), 1);
    // Paris is occupied: the next two possible builds.
    assert_eq!(
        france_units(&pool).await,
        vec!["A BRE", "A PAR", "A SPA", "F MAR", "F POR"]
    );
    let results = outbox(&pool)
        .await
        .into_iter()
        .find(|o| o.0 == "results" && o.1 == player(0) && o.2.contains("W1901A"))
        .expect("winter results")
        .3;
    assert!(results.contains("BUILD F MAR (conditional)"), "{results}");
}

#[tokio::test]
async fn wm_d_ii_5_usable_conditional_orders_may_end_the_phase_at_once() {
    let pool = france_builds_conditionally(
        "conditional-early",
        &[("conditional_early".into(), "true".into())],
    )
    .await;
    let e = env();
    let fall = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, fall).await.expect("tick"), 1);
    // Not while a player is unavailable (WM D.VII(2))...
    let mut c = pool.acquire().await.expect("conn");
    store::add_unavailable(&mut c, "wm7", "ITALY", fall, fall + 2 * HOUR)
        .await
        .expect("away");
    drop(c);
    assert_eq!(games::tick(&pool, &e, fall + 60).await.expect("tick"), 0);
    // ...then the next tick adjudicates the adjustments at once: France alone is due, and its
    // conditional builds are usable.
    assert_eq!(
        games::tick(&pool, &e, fall + 3 * HOUR).await.expect("tick"),
        1
    );
    assert_eq!(
        france_units(&pool).await,
        vec!["A BRE", "A PAR", "A SPA", "F MAR", "F POR"]
    );
}

/// Spring 1901 orders for every power but Turkey (none are final).
const SPRING: [&str; 6] = [
    "A Vie - Gal",
    "F Lon - Nth",
    "A Par - Bur",
    "A Mun - Ruh",
    "A Ven H",
    "A Mos - Ukr",
];

/// The mails of a kind to an address: (subject, body).
async fn mails_to(pool: &Pool, kind: &str, to: &str) -> Vec<(String, String)> {
    outbox(pool)
        .await
        .into_iter()
        .filter(|o| o.0 == kind && o.1 == to)
        .map(|o| (o.2, o.3))
        .collect()
}

/// The masters' notices that an NMR holds the results (WM D.VII(6)(b)): alerts to the GM.
async fn holds(pool: &Pool) -> Vec<(String, String)> {
    mails_to(pool, "alert", GM)
        .await
        .into_iter()
        .filter(|m| m.0.contains("results held"))
        .collect()
}

/// The latest mail of a kind to an address, its body with whitespace made single.
async fn last_to(pool: &Pool, kind: &str, to: &str) -> String {
    mails_to(pool, kind, to)
        .await
        .pop()
        .map(|m| m.1.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

#[tokio::test]
async fn wm_d_vii_6_b_an_nmr_holds_the_phase_closed_to_all_but_the_replacement() {
    // Issue 21, point 6: the hold moved the deadline 24 hours, and every player could change
    // orders after the published deadline. Under either rule on late orders (WM D.VII(3) and
    // its Alternative Rule, orders until the start of adjudication) the hold closes the phase.
    for late in ["reject", "until_adjudication"] {
        let name = format!("nmr-hold-{late}");
        let (pool, secrets) = wm_with(&name, &[("late_orders".into(), late.into())]).await;
        let e = env();
        for (i, orders) in SPRING.iter().enumerate() {
            mail(&pool, &secrets, i, 1 + i as u32, orders, T0 + HOUR).await;
        }
        let spring = deadline(&pool).await;
        // Turkey sent nothing: no results, the masters are told; the deadline stands.
        assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 0);
        assert!(mails_to(&pool, "results", &player(2)).await.is_empty());
        let held = holds(&pool).await;
        assert_eq!(held.len(), 1, "{held:?}");
        assert!(
            held[0].0.contains("results held, NMR by TURKEY"),
            "{}",
            held[0].0
        );
        assert!(
            held[0].1.contains("WM D.VII(6)(b)") && held[0].1.contains("REPLACE TURKEY <address>"),
            "{}",
            held[0].1
        );
        assert_eq!(
            deadline(&pool).await,
            spring,
            "{late}: the published deadline stands"
        );
        let status = games::console_command(&pool, &e, "wm7", &GmCommand::Status, spring + 60)
            .await
            .expect("status");
        assert!(
            status.answer.contains("results held for an NMR"),
            "{status:?}"
        );
        // Nobody may change orders now: not France, not Turkey's own player.
        for (i, uid, orders) in [(2, 20, "A Par - Pic"), (6, 21, "A Con - Bul")] {
            deliver_orders(&pool, &secrets[i], i, uid, orders, spring + HOUR).await;
            let refused = last_to(&pool, "rejection", &player(i)).await;
            assert!(
                refused
                    .contains("only the replacement the GM names may send orders (WM D.VII(6)(b))"),
                "{late} {i}: {refused}"
            );
        }
        // Ticks meanwhile tell the GM nothing new; a day on, the GM is reminded.
        assert_eq!(
            games::tick(&pool, &e, spring + 2 * HOUR)
                .await
                .expect("tick"),
            0
        );
        assert_eq!(holds(&pool).await.len(), 1);
        assert_eq!(
            games::tick(&pool, &e, spring + DAY + 60)
                .await
                .expect("tick"),
            0
        );
        assert_eq!(holds(&pool).await.len(), 2);
        // The GM names a replacement, whose orders are taken; the results go out at once.
        let replace = GmCommand::Replace {
            power: "TURKEY".into(),
            address: "stand-in@example.test".into(),
            permanent: true,
        };
        let at = spring + DAY + HOUR;
        assert!(
            games::console_command(&pool, &e, "wm7", &replace, at)
                .await
                .expect("replace")
                .ok
        );
        let mut c = pool.acquire().await.expect("conn");
        let secret = store::players(&mut c, "wm7")
            .await
            .expect("players")
            .into_iter()
            .find(|p| p.power == "TURKEY")
            .expect("turkey")
            .secret;
        drop(c);
        let m = raw(
            "stand-in@example.test",
            "gm@example.test",
            "wm7 TURKEY S1901M",
            "Message-ID: <stand-in@x.test>\r\n",
            &format!("SECRET {secret}\nA Con - Bul\n"),
        );
        deliver(&pool, "gm", 30, &m, Some(at + HOUR), at + HOUR).await;
        assert!(
            !mails_to(&pool, "ack", "stand-in@example.test")
                .await
                .is_empty(),
            "{late}: the replacement's orders are taken"
        );
        assert_eq!(
            games::tick(&pool, &e, at + HOUR + 60).await.expect("tick"),
            1
        );
        // France's orders are those of the deadline.
        let results = last_to(&pool, "results", &player(0)).await;
        assert!(
            results.contains("A PAR - BUR") && !results.contains("A PAR - PIC"),
            "{late}: {results}"
        );
        assert!(results.contains("A CON - BUL"), "{late}: {results}");
    }
}

/// Player `i`'s orders for S1901M, as UID `uid`, arrived and read at `at`.
async fn deliver_orders(pool: &Pool, secret: &str, i: usize, uid: u32, orders: &str, at: Ts) {
    let m = raw(
        &player(i),
        "gm@example.test",
        &format!("wm7 {} S1901M", POWERS[i]),
        &format!("Message-ID: <d{uid}@x.test>\r\n"),
        &format!("SECRET {secret}\n{orders}\n"),
    );
    deliver(pool, "gm", uid, &m, Some(at), at).await;
}

#[tokio::test]
async fn wm_d_vii_6_b_a_mail_without_orders_is_still_an_nmr() {
    // Issue 21: a mail with only press, a vote or FINAL made an empty order set, so its power
    // was not NMR and the results were not held.
    let (pool, secrets) = wm("nmr-by-orders").await;
    let e = env();
    for (i, orders) in SPRING.iter().enumerate() {
        mail(&pool, &secrets, i, 1 + i as u32, orders, T0 + HOUR).await;
    }
    mail(
        &pool,
        &secrets,
        6,
        7,
        "PRESS TO ALL\nThe Sultan sends his regards.\nENDPRESS\nVOTE DRAW NO\nFINAL",
        T0 + HOUR,
    )
    .await;
    let status = games::console_command(&pool, &e, "wm7", &GmCommand::Status, T0 + 2 * HOUR)
        .await
        .expect("status");
    assert!(status.answer.contains("TURKEY none"), "{status:?}");
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 0);
    assert!(mails_to(&pool, "results", &player(0)).await.is_empty());
    let held = holds(&pool).await;
    assert!(
        held.iter()
            .any(|m| m.0.contains("results held, NMR by TURKEY")),
        "{held:?}"
    );
}

#[tokio::test]
async fn wm_d_vii_6_b_a_preview_shows_the_hold_and_the_results_without_it() {
    // Issue 21: PREVIEW was refused while an NMR would hold the phase, which is exactly when
    // a GM wants one.
    let (pool, secrets) = wm("nmr-preview").await;
    let e = env();
    for (i, orders) in SPRING.iter().enumerate() {
        mail(&pool, &secrets, i, 1 + i as u32, orders, T0 + HOUR).await;
    }
    let spring = deadline(&pool).await;
    let done = games::console_command(&pool, &e, "wm7", &GmCommand::Preview, spring - HOUR)
        .await
        .expect("preview");
    assert!(done.ok, "{done:?}");
    let previews = mails_to(&pool, "preview", GM).await;
    assert_eq!(previews.len(), 1, "{previews:?}");
    let (subject, body) = &previews[0];
    assert!(
        subject.starts_with("PREVIEW, results held (NMR by TURKEY), nothing changed"),
        "{subject}"
    );
    assert!(body.contains("WM D.VII(6)(b)"), "{body}");
    // The results without the hold: the orders that stand, Turkey's units holding.
    assert!(body.contains("A Par - Bur"), "{body}");
    assert!(body.contains("TURKEY: no orders received (NMR)"), "{body}");
    // Nothing changed: no results, no hold; the tick still holds at the deadline.
    assert!(mails_to(&pool, "results", &player(0)).await.is_empty());
    assert!(holds(&pool).await.is_empty());
    assert_eq!(deadline(&pool).await, spring);
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 0);
    assert_eq!(holds(&pool).await.len(), 1);
}

#[tokio::test]
async fn wm_d_ii_5_a_conditional_retreat_is_used_when_no_retreat_order_comes() {
    let (pool, secrets) = wm_game("conditional-retreat", "wm7", &nmrs_allowed()).await;
    games::start_game(&pool, "wm7", T0).await.expect("start");
    let e = env();
    mail(&pool, &secrets, 2, 1, "A Par - Bur", T0 + HOUR).await;
    mail(&pool, &secrets, 3, 2, "A Mun - Ruh\nA Ber - Mun", T0 + HOUR).await;
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    // Fall: Germany dislodges the army in Burgundy; France says where it should go.
    mail_in(
        &pool,
        &secrets,
        3,
        3,
        "F1901M",
        "A Ruh - Bur\nA Mun S A Ruh - Bur",
        spring + HOUR,
    )
    .await;
    mail_in(
        &pool,
        &secrets,
        2,
        4,
        "F1901M",
        "A Bur H\nCONDITIONAL\nA Bur - Mar\nA Bur - Gas\nA Bur - Par\nENDCONDITIONAL",
        spring + HOUR,
    )
    .await;
    let fall = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, fall).await.expect("tick"), 1);
    let mut c = pool.acquire().await.expect("conn");
    let p = store::current_phase(&mut c, "wm7")
        .await
        .expect("q")
        .expect("open");
    drop(c);
    assert_eq!(p.phase, "F1901R", "the retreat phase still opens");
    // No retreat order comes: Marseilles is held, so the army retreats to Gascony.
    assert_eq!(games::tick(&pool, &e, p.deadline).await.expect("tick"), 1);
    assert!(france_units(&pool).await.contains(&"A GAS".to_string()));
}
