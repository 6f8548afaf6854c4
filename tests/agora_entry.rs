//! Agora BT1 and BT6 (issue 24): contestants enter an `agora2020` game by announcement (a mail
//! `<game> ENTER`), seven at most; the seventh entry draws the powers from the game's seed and
//! starts the game; the draw can be checked by anyone from the published seed. Real SQLite,
//! mails handed to the engine as the mailbox reader hands them.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;

use chancery::engine::Processed;
use chancery::store;
use fixtures::{POWERS, T0, deliver, game_with, outbox, raw};

const GAME: &str = "bt2020";

fn entrant(i: usize) -> String {
    format!("contestant{i}@example.org")
}

async fn enter(pool: &chancery::store::Pool, uid: u32, from: &str, now: i64) -> Processed {
    let mail = raw(
        from,
        "gm@example.test",
        &format!("{GAME} ENTER"),
        &format!("Message-ID: <entry-{uid}@example.org>\r\n"),
        &format!("NAME Someone {uid}\r\n"),
    );
    deliver(pool, "gm", uid, &mail, Some(now), now).await
}

/// An agora2020 game with no players, as a GM creates it for entry by announcement.
async fn open_game(name: &str) -> chancery::store::Pool {
    let dir = std::env::temp_dir().join(format!("chancery-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pool = store::open(&dir.join("chancery.sqlite"))
        .await
        .expect("open");
    chancery::games::diplomacy::admin::create_game(
        &pool,
        &chancery::games::diplomacy::admin::NewGame {
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

fn seed_in(body: &str) -> String {
    let at = body.find("seed: ").expect("the seed") + "seed: ".len();
    body[at..at + 16].to_string()
}

#[tokio::test]
async fn agora_bt1_bt6_seven_enter_the_eighth_is_refused_and_the_draw_follows_its_seed() {
    let pool = open_game("agora-entry").await;
    for i in 1..=6 {
        let now = T0 + i as i64 * 60;
        assert_eq!(
            enter(&pool, i as u32, &entrant(i), now).await,
            Processed::Accepted
        );
    }
    // The same person twice is one entry (BT1: "acting as emself").
    assert_eq!(
        enter(&pool, 20, &entrant(3), T0 + 700).await,
        Processed::Rejected
    );
    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, GAME)
        .await
        .expect("read")
        .expect("game");
    assert_eq!(g.status, store::GameStatus::Forming);
    drop(c);
    // The seventh entry draws the powers and starts the game (BT1, BT6).
    assert_eq!(
        enter(&pool, 7, &entrant(7), T0 + 800).await,
        Processed::Accepted
    );
    // An eighth is refused, with the clause (BT1).
    assert_eq!(
        enter(&pool, 8, &entrant(8), T0 + 900).await,
        Processed::Rejected
    );

    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, GAME)
        .await
        .expect("read")
        .expect("game");
    assert_eq!(g.status, store::GameStatus::Active);
    let players = store::players(&mut c, GAME).await.expect("players");
    drop(c);
    assert_eq!(players.len(), 7);

    let mails = outbox(&pool).await;
    // Every entry's acknowledgement gives the same digest of the seed.
    let acks: Vec<&(String, String, String, String)> = mails
        .iter()
        .filter(|m| m.2.ends_with("ENTER") && m.3.contains("You have entered"))
        .collect();
    assert_eq!(acks.len(), 7, "{mails:#?}");
    let draw = mails
        .iter()
        .find(|m| m.1 == entrant(1) && m.3.contains("seed: "))
        .expect("the draw's mail to a contestant");
    let seed = seed_in(&draw.3);
    let digest = chancery::outgoing::ids::sha256_hex(seed.as_bytes());
    for ack in &acks {
        assert!(ack.3.contains(&digest), "{}", ack.3);
        assert!(
            !ack.3.contains(&seed),
            "the seed is not given before the draw"
        );
    }
    // Anyone can recompute the draw from the seed (BT6).
    let people: Vec<String> = (1..=7).map(entrant).collect();
    let who: Vec<&str> = people.iter().map(String::as_str).collect();
    let expected = chancery::entry::draw(
        chancery::entry::parse_seed(&seed).expect("hex"),
        &who,
        &POWERS,
    );
    for (power, address) in &expected {
        assert!(
            players
                .iter()
                .any(|p| p.power == *power && p.address == *address),
            "{power} {address}: {players:?}"
        );
        assert!(draw.3.contains(address));
    }
    // Each contestant's start mail gives their power and their secret.
    for p in &players {
        assert!(
            mails
                .iter()
                .any(|m| m.1 == p.address && m.3.contains(&p.secret) && m.3.contains(&p.power)),
            "no start mail for {}",
            p.address
        );
    }
    let refusal = mails
        .iter()
        .find(|m| m.1 == entrant(8))
        .expect("the eighth is answered");
    assert_eq!(refusal.0, "rejection");
    assert!(refusal.3.contains("Agora BT1"), "{}", refusal.3);
    // The second entry from the same address is refused, and not answered: the address is a
    // stranger's until the draw, answered once a day at most (no backscatter).
    assert_eq!(
        mails
            .iter()
            .filter(|m| m.1 == entrant(3) && m.0 == "query-reply")
            .count(),
        1
    );
    assert!(
        !mails
            .iter()
            .any(|m| m.1 == entrant(3) && m.0 == "rejection")
    );
}

#[tokio::test]
async fn agora_bt1_no_entry_after_the_close_and_none_where_the_masters_register_players() {
    let pool = open_game("agora-entry-closed").await;
    // Seven days after the regulations were published (the game's creation), entry is closed.
    let late = T0 + 7 * 86_400;
    assert_eq!(
        enter(&pool, 1, &entrant(1), late).await,
        Processed::Rejected
    );
    let mails = outbox(&pool).await;
    assert!(
        mails
            .iter()
            .any(|m| m.1 == entrant(1) && m.3.contains("the entry has closed")),
        "{mails:#?}"
    );
    // A game whose players the masters register (wm2004) takes no entries: the answer is that
    // it has not started.
    let (wm, _) = game_with("agora-entry-wm", "wm1", "wm2004", &[]).await;
    let mail = raw(&entrant(2), "gm@example.test", "wm1 ENTER", "", "");
    assert_eq!(
        deliver(&wm, "gm", 1, &mail, Some(T0), T0).await,
        Processed::Rejected
    );
    let mails = outbox(&wm).await;
    assert!(
        mails
            .iter()
            .any(|m| m.1 == entrant(2) && m.3.contains("has not started")),
        "{mails:#?}"
    );
}

/// Agora BT0: "P.S.S. CANNOT win this Tournament or become a Contestant. P.S.S. is the
/// Gamemaster and Judge of this game": the game's master may not enter it.
#[tokio::test]
async fn agora_bt0_the_gamemaster_cannot_become_a_contestant() {
    let pool = open_game("agora-entry-gm").await;
    chancery::engine::admin::add_member(
        &pool,
        GAME,
        store::Role::Gm,
        "judge@example.org",
        "UTC",
        T0,
    )
    .await
    .expect("master");
    assert_eq!(
        enter(&pool, 1, "judge@example.org", T0 + 60).await,
        Processed::Rejected
    );
    let mails = outbox(&pool).await;
    assert!(
        mails
            .iter()
            .any(|m| m.1 == "judge@example.org" && m.3.contains("Agora BT0")),
        "{mails:#?}"
    );
    let mut c = pool.acquire().await.expect("conn");
    assert!(
        store::game_entries(&mut c, GAME)
            .await
            .expect("q")
            .is_empty()
    );
}
