//! The Agora Birthday Tournament's contestants (issue 24, points 1 and 7), through the engine
//! on a real SQLite file: the Gamemaster's ENTRY UNTIL (BT1), DRAW, ADD and REMOVE (BT2, BT6),
//! the assistants a contestant announces (BT7), and team orders from an announced assistant
//! with `<game> SUBMITTED` naming who sent a power's orders (BT7, the 2020 game's proposal).

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::commands::GmCommand;
use chancery::engine::Processed;
use chancery::games;
use chancery::policy::{DAY, Ts};
use chancery::store;
use chancery::store::Pool;

const GAME: &str = "bt2020";

fn entrant(i: usize) -> String {
    format!("contestant{i}@example.org")
}

/// A mail's text with its wrapping undone, for reading sentences in it.
fn flat(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "|")
        .collect::<Vec<_>>()
        .join(" ")
}

/// Outgoing mail, its body flattened: (kind, to, subject, body).
async fn mails(pool: &Pool) -> Vec<(String, String, String, String)> {
    outbox(pool)
        .await
        .into_iter()
        .map(|(k, to, s, b)| (k, to, s, flat(&b)))
        .collect()
}

/// An agora2020 game with no players, as a GM creates it for entry by announcement.
async fn open_game(name: &str) -> Pool {
    let dir = std::env::temp_dir().join(format!("chancery-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pool = store::open(&dir.join("chancery.sqlite"))
        .await
        .expect("open");
    games::diplomacy::admin::create_game(
        &pool,
        &games::diplomacy::admin::NewGame {
            id: GAME,
            preset: "agora2020",
            variant: "standard",
            gm_address: "gm@example.test",
            confirm_address: "confirm@example.test",
            options: &[],
        },
        T0,
    )
    .await
    .expect("create");
    pool
}

async fn enter(pool: &Pool, uid: u32, from: &str, now: Ts) -> Processed {
    let mail = raw(
        from,
        "gm@example.test",
        &format!("{GAME} ENTER"),
        &format!("Message-ID: <entry-{uid}@example.org>\r\n"),
        "",
    );
    deliver(pool, "gm", uid, &mail, Some(now), now).await
}

/// The Gamemaster's command at the console: (done, answer).
async fn gm(pool: &Pool, cmd: GmCommand, now: Ts) -> (bool, String) {
    let done = games::console_command(pool, &env(), GAME, &cmd, now)
        .await
        .expect("command");
    (done.ok, done.answer)
}

async fn game_row(pool: &Pool) -> store::GameRow {
    let mut c = pool.acquire().await.expect("conn");
    store::game(&mut c, GAME)
        .await
        .expect("read")
        .expect("game")
}

async fn players(pool: &Pool) -> Vec<store::PlayerRow> {
    let mut c = pool.acquire().await.expect("conn");
    store::players(&mut c, GAME).await.expect("players")
}

/// An order mail from `from` for `power` in S1901M, with `body` after the secret line.
#[allow(clippy::too_many_arguments)]
async fn order_mail(
    pool: &Pool,
    uid: u32,
    from: &str,
    power: &str,
    secret: &str,
    body: &str,
    at: Ts,
) -> Processed {
    let raw = raw(
        from,
        "gm@example.test",
        &format!("{GAME} {power} S1901M"),
        &format!("Message-ID: <o{uid}@x.test>\r\n"),
        &format!("SECRET {secret}\n{body}\n"),
    );
    deliver(pool, "gm", uid, &raw, Some(at), at).await
}

/// An agora2020 game with seven registered players, started at T0 (`options` from the
/// preset changed): its pool and the players' secrets.
async fn started(name: &str, options: &[(&str, &str)]) -> (Pool, Vec<String>) {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(o, v)| (o.to_string(), v.to_string()))
        .collect();
    let (pool, secrets) = game_with(name, GAME, "agora2020", &options).await;
    games::start_game(&pool, GAME, T0).await.expect("start");
    (pool, secrets)
}

#[tokio::test]
async fn agora_bt1_the_gms_entry_until_sets_the_close_and_the_week_after_creation_still_counts() {
    let pool = open_game("agora-contestants-until").await;
    // Earlier than 7 days after the regulations were published: the week counts (BT1).
    let (ok, answer) = gm(&pool, GmCommand::EntryUntil(T0 + DAY), T0).await;
    assert!(ok, "{answer}");
    assert!(answer.contains("7 days after"), "{answer}");
    // Later: it counts, and an entry on day 8 is taken.
    let (ok, answer) = gm(&pool, GmCommand::EntryUntil(T0 + 10 * DAY), T0).await;
    assert!(ok && answer.contains("entry closes"), "{answer}");
    assert_eq!(
        enter(&pool, 1, &entrant(1), T0 + 8 * DAY).await,
        Processed::Accepted
    );
    assert_eq!(
        enter(&pool, 2, &entrant(2), T0 + 10 * DAY).await,
        Processed::Rejected
    );
    // A game whose masters register the players takes no ENTRY UNTIL, with the clause.
    let (wm, _) = game_with("agora-contestants-until-wm", GAME, "wm2004", &[]).await;
    let (ok, answer) = gm(&wm, GmCommand::EntryUntil(T0 + DAY), T0).await;
    assert!(!ok && answer.contains("BT1"), "{answer}");
}

#[tokio::test]
async fn agora_bt2_bt6_the_gm_draws_with_fewer_than_seven_and_the_empty_powers_are_in_civil_disorder()
 {
    let pool = open_game("agora-contestants-draw").await;
    // One contestant is not a game (BT3): refused with the reason.
    assert_eq!(
        enter(&pool, 1, &entrant(1), T0 + 60).await,
        Processed::Accepted
    );
    let (ok, answer) = gm(&pool, GmCommand::DrawPowers, T0 + 100).await;
    assert!(!ok && answer.contains("BT3"), "{answer}");
    for i in 2..=3 {
        assert_eq!(
            enter(&pool, i as u32, &entrant(i), T0 + 100 * i as i64).await,
            Processed::Accepted
        );
    }
    let (ok, answer) = gm(&pool, GmCommand::DrawPowers, T0 + 1_000).await;
    assert!(ok, "{answer}");
    assert!(answer.contains("4 without a contestant"), "{answer}");
    assert_eq!(game_row(&pool).await.status, store::GameStatus::Active);
    let seated = players(&pool).await;
    assert_eq!(seated.len(), 3);
    // The draw follows the published seed, the empty powers drawn too (BT6).
    let all = mails(&pool).await;
    let draw = all
        .iter()
        .find(|m| m.1 == entrant(1) && m.3.contains("seed: "))
        .expect("the draw's mail");
    let at = draw.3.find("seed: ").expect("seed") + "seed: ".len();
    let seed = chancery::entry::parse_seed(&draw.3[at..at + 16]).expect("hex");
    let people: Vec<String> = (1..=3).map(entrant).collect();
    let who: Vec<&str> = people.iter().map(String::as_str).collect();
    let expected = chancery::entry::draw(seed, &who, &POWERS);
    for (power, address) in &expected {
        assert!(
            seated
                .iter()
                .any(|p| p.power == *power && p.address == *address)
        );
    }
    assert!(draw.3.contains("civil disorder"), "{}", draw.3);
    // Drawn once only.
    let (ok, answer) = gm(&pool, GmCommand::DrawPowers, T0 + 2_000).await;
    assert!(!ok && answer.contains("started"), "{answer}");
}

#[tokio::test]
async fn agora_bt2_a_person_the_gm_adds_becomes_a_contestant_on_consenting_after_the_close() {
    let pool = open_game("agora-contestants-add").await;
    let (ok, answer) = gm(&pool, GmCommand::AddContestant(entrant(1)), T0).await;
    assert!(ok, "{answer}");
    // The invitation says how to consent.
    let all = mails(&pool).await;
    let invitation = all
        .iter()
        .find(|m| m.1 == entrant(1))
        .expect("the invitation");
    assert!(invitation.3.contains("bt2020 ENTER"), "{}", invitation.3);
    // A master cannot be added (BT0).
    let (ok, answer) = gm(
        &pool,
        GmCommand::AddContestant("td@example.test".into()),
        T0,
    )
    .await;
    assert!(!ok && answer.contains("BT0"), "{answer}");
    // After the close: the invited person consents, a stranger cannot enter.
    let late = T0 + 8 * DAY;
    assert_eq!(
        enter(&pool, 1, &entrant(1), late).await,
        Processed::Accepted
    );
    assert_eq!(
        enter(&pool, 2, &entrant(2), late).await,
        Processed::Rejected
    );
    let mut c = pool.acquire().await.expect("conn");
    let entries = store::game_entries(&mut c, GAME).await.expect("entries");
    drop(c);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].address, entrant(1));
    // Adding a contestant twice is refused.
    let (ok, answer) = gm(&pool, GmCommand::AddContestant(entrant(1)), late).await;
    assert!(!ok && answer.contains("already"), "{answer}");
}

#[tokio::test]
async fn agora_bt2_removed_before_the_draw_the_entry_is_dropped_and_the_person_told() {
    let pool = open_game("agora-contestants-remove-early").await;
    assert_eq!(
        enter(&pool, 1, &entrant(1), T0 + 60).await,
        Processed::Accepted
    );
    let (ok, answer) = gm(&pool, GmCommand::RemoveContestant("FRANCE".into()), T0 + 90).await;
    assert!(!ok && answer.contains("not drawn"), "{answer}");
    let (ok, answer) = gm(&pool, GmCommand::RemoveContestant(entrant(1)), T0 + 100).await;
    assert!(ok, "{answer}");
    let mut c = pool.acquire().await.expect("conn");
    assert!(
        store::game_entries(&mut c, GAME)
            .await
            .expect("entries")
            .is_empty()
    );
    drop(c);
    assert!(
        mails(&pool)
            .await
            .iter()
            .any(|m| m.1 == entrant(1) && m.3.contains("cease to be a Contestant")),
    );
    let (ok, answer) = gm(&pool, GmCommand::RemoveContestant(entrant(1)), T0 + 200).await;
    assert!(!ok && answer.contains("has not entered"), "{answer}");
}

#[tokio::test]
async fn agora_bt2_bt24_removed_after_the_draw_the_power_is_in_civil_disorder_until_replaced() {
    let (pool, secrets) = started("agora-contestants-remove", &[]).await;
    let at = T0 + 3_600;
    assert_eq!(
        order_mail(
            &pool,
            1,
            &player(2),
            "FRANCE",
            &secrets[2],
            "A PAR - BUR",
            at
        )
        .await,
        Processed::Accepted
    );
    let (ok, answer) = gm(&pool, GmCommand::RemoveContestant("FRANCE".into()), at + 60).await;
    assert!(ok && answer.contains("civil disorder"), "{answer}");
    assert!(!players(&pool).await.iter().any(|p| p.power == "FRANCE"));
    // The power's orders are gone: its units hold (BT24).
    let mut c = pool.acquire().await.expect("conn");
    let standing = store::diplomacy::standing_orders(&mut c, GAME, "S1901M")
        .await
        .expect("standing");
    drop(c);
    assert!(!standing.iter().any(|s| s.power == "FRANCE"));
    // The person and every player are told.
    let all = mails(&pool).await;
    for to in [player(2), player(0), player(6)] {
        assert!(
            all.iter()
                .any(|m| m.1 == to && m.3.contains("cease to be a Contestant")),
            "{to}"
        );
    }
    // The removed person's mail is no longer taken for the power.
    assert_eq!(
        order_mail(
            &pool,
            2,
            &player(2),
            "FRANCE",
            &secrets[2],
            "A PAR - PIC",
            at + 120
        )
        .await,
        Processed::Rejected
    );
    // Nor is an unknown contestant removed.
    let (ok, answer) = gm(
        &pool,
        GmCommand::RemoveContestant("FRANCE".into()),
        at + 180,
    )
    .await;
    assert!(!ok && answer.contains("no contestant"), "{answer}");
    // Agora BT24: "the Gamemaster SHALL attempt to replace em with a new Contestant": REPLACE
    // seats a new player on the empty power, with a welcome and a new secret.
    let (ok, answer) = gm(
        &pool,
        GmCommand::Replace {
            power: "FRANCE".into(),
            address: "newcomer@example.org".into(),
            permanent: true,
        },
        at + 240,
    )
    .await;
    assert!(ok && answer.contains("which had no player"), "{answer}");
    let seated = players(&pool)
        .await
        .into_iter()
        .find(|p| p.power == "FRANCE")
        .expect("seated");
    assert_eq!(seated.address, "newcomer@example.org");
    assert!(
        mails(&pool)
            .await
            .iter()
            .any(|m| m.1 == "newcomer@example.org" && m.3.contains(&seated.secret)),
        "welcomed with the secret"
    );
}

#[tokio::test]
async fn agora_bt7_an_announced_assistant_is_published_to_everyone() {
    let (pool, secrets) = started("agora-contestants-assistant", &[]).await;
    let at = T0 + 3_600;
    let body = "ASSISTANT helper@example.org negotiating and drafting proposals\nA PAR - BUR";
    assert_eq!(
        order_mail(&pool, 1, &player(2), "FRANCE", &secrets[2], body, at).await,
        Processed::Accepted
    );
    let mut c = pool.acquire().await.expect("conn");
    let helpers = store::assistants(&mut c, GAME).await.expect("assistants");
    drop(c);
    assert_eq!(helpers.len(), 1);
    assert_eq!(helpers[0].power, "FRANCE");
    assert_eq!(helpers[0].help, "negotiating and drafting proposals");
    let all = mails(&pool).await;
    let published = |to: &str| {
        all.iter().any(|m| {
            m.1 == to
                && m.3.contains("helper@example.org assists it")
                && m.3.contains("negotiating and drafting proposals")
        })
    };
    for i in 0..7 {
        assert!(published(&player(i)), "{}", player(i));
    }
    assert!(published("td@example.test"), "the masters");
    // The contestant's acknowledgement confirms it, and the orders were read as usual.
    let ack = all
        .iter()
        .rfind(|m| m.1 == player(2) && m.0 == "ack")
        .expect("ack");
    assert!(ack.3.contains("ASSISTANTS (Agora BT7)"), "{}", ack.3);
    assert!(ack.3.contains("published to every player and master"));
    // A contestant is no one's assistant (BT7: non-Contestants).
    let body = format!("ASSISTANT {} negotiating", player(3));
    order_mail(&pool, 2, &player(2), "FRANCE", &secrets[2], &body, at + 60).await;
    let all = mails(&pool).await;
    let ack = all
        .iter()
        .rfind(|m| m.1 == player(2) && m.0 == "ack")
        .expect("ack");
    assert!(ack.3.contains("is a contestant"), "{}", ack.3);
}

#[tokio::test]
async fn agora_bt7_without_team_orders_an_assistants_orders_are_refused_with_the_clause() {
    let (pool, secrets) = started("agora-contestants-no-team", &[]).await;
    let at = T0 + 3_600;
    let body = "ASSISTANT helper@example.org drafting orders";
    order_mail(&pool, 1, &player(2), "FRANCE", &secrets[2], body, at).await;
    assert_eq!(
        order_mail(
            &pool,
            2,
            "helper@example.org",
            "FRANCE",
            &secrets[2],
            "A PAR - BUR",
            at + 60
        )
        .await,
        Processed::Rejected
    );
    let all = mails(&pool).await;
    let refusal = all
        .iter()
        .rfind(|m| m.1 == "helper@example.org")
        .expect("the refusal");
    assert!(
        refusal.3.contains("BT7") && refusal.3.contains("team_orders"),
        "{}",
        refusal.3
    );
}

#[tokio::test]
async fn agora_bt7_with_team_orders_an_assistant_submits_and_submitted_names_who_sent() {
    let (pool, secrets) = started("agora-contestants-team", &[("team_orders", "true")]).await;
    let at = T0 + 3_600;
    let body = "ASSISTANT helper@example.org drafting orders\nA PAR - BUR";
    assert_eq!(
        order_mail(&pool, 1, &player(2), "FRANCE", &secrets[2], body, at).await,
        Processed::Accepted
    );
    // The assistant, with the contestant's secret, sends the power's orders.
    assert_eq!(
        order_mail(
            &pool,
            2,
            "helper@example.org",
            "FRANCE",
            &secrets[2],
            "A PAR - PIC",
            at + 60
        )
        .await,
        Processed::Accepted
    );
    // A wrong secret from the assistant proves nothing.
    assert_eq!(
        order_mail(
            &pool,
            3,
            "helper@example.org",
            "FRANCE",
            "nope",
            "A PAR - GAS",
            at + 90
        )
        .await,
        Processed::Rejected
    );
    // The assistant is acknowledged too, as the sender.
    let all = mails(&pool).await;
    assert!(
        all.iter().any(|m| m.1 == "helper@example.org"
            && m.0 == "ack"
            && m.3.contains("an announced assistant")),
        "{all:#?}"
    );
    // France asks who submitted: both addresses, in order; Germany's answer names neither.
    let ask = |uid: u32, i: usize| {
        let raw = raw(
            &player(i),
            "gm@example.test",
            &format!("{GAME} SUBMITTED"),
            &format!("Message-ID: <q{uid}@x.test>\r\n"),
            &format!("SECRET {}\n", secrets[i]),
        );
        let pool = pool.clone();
        async move { deliver(&pool, "gm", uid, &raw, Some(at + 200), at + 200).await }
    };
    assert_eq!(ask(10, 2).await, Processed::Accepted);
    assert_eq!(ask(11, 3).await, Processed::Accepted);
    let all = mails(&pool).await;
    let france = all
        .iter()
        .rfind(|m| m.1 == player(2) && m.2.contains("SUBMITTED"))
        .expect("France's answer");
    let first = france.3.find(&player(2)).expect("the contestant");
    let second = france.3.find("helper@example.org").expect("the assistant");
    assert!(first < second, "{}", france.3);
    let germany = all
        .iter()
        .rfind(|m| m.1 == player(3) && m.2.contains("SUBMITTED"))
        .expect("Germany's answer");
    assert!(!germany.3.contains("helper@example.org"), "{}", germany.3);
    assert!(!germany.3.contains(&player(2)), "{}", germany.3);
    assert!(germany.3.contains("No orders"), "{}", germany.3);
}
