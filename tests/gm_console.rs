//! The game master's console (issue 11), through the engine on a real SQLite file: the people
//! of a game, command mails from its masters, the same commands at the console, the audit log,
//! and where digests and alerts go.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::commands::GmCommand;
use chancery::engine::{Processed, admin};
use chancery::games;
use chancery::policy::DAY;
use chancery::store::Pool;
use chancery::store::{self, Role};

const GM: &str = "gm.person@example.test";
const TD: &str = "td.person@example.test";

/// A game with a GM and a TD of its own; returns the GM's and the TD's secrets.
async fn with_masters(name: &str) -> (Pool, String, String) {
    let pool = setup(name, &["wm1"]).await;
    let gm = admin::add_member(&pool, "wm1", Role::Gm, GM, "Europe/Paris", T0)
        .await
        .expect("gm");
    let td = admin::add_member(&pool, "wm1", Role::Td, TD, "UTC", T0)
        .await
        .expect("td");
    (pool, gm.secret, td.secret)
}

async fn deadline(pool: &Pool) -> i64 {
    deadline_in(pool, "wm1").await
}

async fn deadline_in(pool: &Pool, game: &str) -> i64 {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, game)
        .await
        .expect("phase")
        .expect("open")
        .deadline
}

async fn audit(pool: &Pool) -> Vec<store::AuditRow> {
    let mut c = pool.acquire().await.expect("conn");
    store::audit_log(&mut c, "wm1").await.expect("audit")
}

#[tokio::test]
async fn a_command_mail_from_the_gm_is_done_line_by_line_audited_and_announced() {
    let (pool, secret, _) = with_masters("commands").await;
    let before = deadline(&pool).await;
    let body = format!(
        "SECRET {secret}\nEXTEND 2d\nPAUSE\nRESUME\nSTATUS\nSET movement_days 2\n\
         OBSERVER ADD watcher@example.test\nFROBNICATE\nDEADLINE 2001-01-01 00:00\n\
         BROADCAST\nDear all,\n  the game goes on.\nENDBROADCAST\n"
    );
    let mail = raw(GM, "gm@example.test", "wm1 GM", "", &body);
    let now = T0 + 3600;
    assert_eq!(
        deliver(&pool, "gm", 1, &mail, Some(now), now).await,
        Processed::Accepted
    );
    // EXTEND 2d, then PAUSE and RESUME in the same instant: the time left is kept.
    assert_eq!(deadline(&pool).await, before + 2 * DAY);
    let out = outbox(&pool).await;
    let reply: Vec<_> = out.iter().filter(|o| o.0 == "command-reply").collect();
    assert_eq!(reply.len(), 1, "{out:?}");
    assert_eq!(reply[0].1, GM);
    let body = &reply[0].3;
    for want in [
        "> EXTEND 2d",
        "OK: the deadline of S1901M is now",
        "OK: paused with",
        "OK: resumed",
        "OK: wm1 S1901M",
        "OK: movement_days = 2",
        "OK: watcher@example.test observes wm1",
        "REFUSED: not a command",
        "REFUSED: 2001-01-01 00:00 GMT has already passed",
        "OK: sent to every player and observer",
    ] {
        assert!(body.contains(want), "{want}: {body}");
    }
    assert!(!body.contains(&secret), "the secret is never echoed");
    assert!(
        reply[0].2.contains("7 commands done, 2 refused"),
        "{}",
        reply[0].2
    );
    // Every player is told of each change that concerns them, in their own mail.
    let told: Vec<_> = out.iter().filter(|o| o.0 == "announcement").collect();
    for i in 0..7 {
        let mine = told.iter().filter(|o| o.1 == player(i)).count();
        assert_eq!(
            mine,
            5,
            "extend, pause, resume, set, broadcast for {}",
            player(i)
        );
    }
    assert!(
        told.iter()
            .any(|o| o.2.contains("the deadline has moved") && o.3.contains("Deadline:")),
        "{told:?}"
    );
    // The audit log: who, how, the command, what it did (a line that is no command is not one).
    // The broadcast reaches the new observer too, as written.
    let words: Vec<_> = told
        .iter()
        .filter(|o| o.2.contains("a message from the GM"))
        .collect();
    assert_eq!(words.len(), 8, "{words:?}");
    assert!(words.iter().any(|o| o.1 == "watcher@example.test"));
    assert!(
        words[0]
            .3
            .contains("  | Dear all,\n  |   the game goes on."),
        "{}",
        words[0].3
    );
    let log = audit(&pool).await;
    assert_eq!(log.len(), 8, "{log:?}");
    assert!(log.iter().all(|a| a.actor == GM && a.via == "mail"));
    assert_eq!(log[0].command, "EXTEND 2d");
    assert!(log[6].effect.starts_with("refused: "), "{:?}", log[6]);
    // The house rule changed for this game.
    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, "wm1").await.expect("q").expect("game");
    assert!(g.rules.contains("\"movement_days\":2"), "{}", g.rules);
    let members = store::members(&mut c, "wm1").await.expect("members");
    assert!(
        members
            .iter()
            .any(|m| m.role == Role::Observer && m.address == "watcher@example.test")
    );
}

#[tokio::test]
async fn a_command_from_anyone_but_an_authenticated_master_is_refused_and_reported() {
    let (pool, secret, _) = with_masters("refused").await;
    let before = deadline(&pool).await;
    let now = T0 + 3600;
    // A player (registered, with a valid secret of their own) is no master.
    let mail = raw(
        &player(2),
        "gm@example.test",
        "wm1 GM",
        "",
        "SECRET s3\nEXTEND 5d\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &mail, Some(now), now).await,
        Processed::Rejected
    );
    // The GM's address with a wrong secret.
    let mail = raw(
        GM,
        "gm@example.test",
        "wm1 GM",
        "",
        "SECRET guessed\nPAUSE\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 2, &mail, Some(now), now).await,
        Processed::Rejected
    );
    // A stranger.
    let mail = raw(
        "mallory@evil.test",
        "gm@example.test",
        "wm1 GM",
        "",
        "PROCESS\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 3, &mail, Some(now), now).await,
        Processed::Rejected
    );
    assert_eq!(deadline(&pool).await, before, "nothing was done");
    assert!(audit(&pool).await.is_empty());
    let out = outbox(&pool).await;
    // The masters are told, at their own addresses (not the server's): once an hour, the rest
    // counted (issue 21.2: a thousand forged command mails must not make a thousand alerts).
    let alerts: Vec<_> = out.iter().filter(|o| o.0 == "alert").collect();
    for who in [GM, TD] {
        assert_eq!(
            alerts.iter().filter(|a| a.1 == who).count(),
            1,
            "{who}: {alerts:?}"
        );
    }
    assert!(alerts.iter().all(|a| a.3.contains("not one")));
    assert!(alerts.iter().all(|a| a.3.contains("at most once an hour")));
    // The next hour's alert says how many were held back.
    let later = now + 3600;
    let mail = raw(
        "mallory@evil.test",
        "gm@example.test",
        "wm1 GM",
        "Message-ID: <later@evil.test>\r\n",
        "PROCESS\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 4, &mail, Some(later), later).await,
        Processed::Rejected
    );
    let out = outbox(&pool).await;
    let alerts: Vec<_> = out.iter().filter(|o| o.0 == "alert").collect();
    assert_eq!(alerts.len(), 4, "{alerts:?}");
    assert!(
        alerts[2..].iter().all(|a| a
            .3
            .contains("In the hour before this one, 2 more were held back")),
        "{alerts:?}"
    );
    assert!(
        alerts
            .iter()
            .all(|a| !a.3.contains(&secret) && !a.3.contains("s3"))
    );
    // The GM's own address is answered (it is registered); nobody else gets a command reply.
    let replies: Vec<_> = out.iter().filter(|o| o.0 == "command-reply").collect();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert_eq!(replies[0].1, GM);
    assert!(!out.iter().any(|o| o.1 == "mallory@evil.test"));
}

#[tokio::test]
async fn a_paused_game_is_not_adjudicated_and_resumes_with_the_time_left() {
    let (pool, _, _) = with_masters("pause").await;
    let e = env();
    let before = deadline(&pool).await;
    let paused_at = before - 6 * 3600;
    let done = games::console_command(&pool, &e, "wm1", &GmCommand::Pause, paused_at)
        .await
        .expect("pause");
    assert!(done.ok, "{done:?}");
    // Long past the old deadline: nothing happens while paused.
    assert_eq!(
        games::tick(&pool, &e, before + 5 * DAY)
            .await
            .expect("tick"),
        0
    );
    let again = games::console_command(&pool, &e, "wm1", &GmCommand::Pause, before)
        .await
        .expect("pause");
    assert!(!again.ok && again.answer.contains("already paused"));
    let resumed_at = before + 5 * DAY;
    let done = games::console_command(&pool, &e, "wm1", &GmCommand::Resume, resumed_at)
        .await
        .expect("resume");
    assert!(done.ok, "{done:?}");
    assert_eq!(deadline(&pool).await, resumed_at + 6 * 3600);
    let log = audit(&pool).await;
    assert_eq!(log.len(), 3);
    assert!(
        log.iter()
            .all(|a| a.actor == "console" && a.via == "console")
    );
    assert_eq!(
        games::tick(&pool, &e, resumed_at + 6 * 3600)
            .await
            .expect("tick"),
        1
    );
}

#[tokio::test]
async fn digests_go_to_the_games_own_masters() {
    let (pool, _, _) = with_masters("digest").await;
    let e = env();
    let d = deadline(&pool).await;
    // An hour before the deadline: inside the reminder window.
    let at = d - 3600;
    games::tick(&pool, &e, at).await.expect("tick");
    let out = outbox(&pool).await;
    let digests: Vec<_> = out.iter().filter(|o| o.0 == "digest").collect();
    let to: Vec<&str> = digests.iter().map(|o| o.1.as_str()).collect();
    assert_eq!(to, vec![GM, TD], "not the server's masters: {digests:?}");
    // Reminded once: a second tick sends nothing more.
    games::tick(&pool, &e, at + 60).await.expect("tick");
    assert_eq!(outbox(&pool).await.len(), out.len());
}

/// A fresh wm2004 game created as a GM does (`game create`, `add-player`), with single
/// options changed; France's player is in Europe/Paris. Returns the pool and the secrets.

#[tokio::test]
async fn the_start_mail_tells_each_reader_what_a_gm_must_state() {
    // Issue 11, point 7: a game with two single options changed from its preset; every player's
    // start mail states them, with the power, the deadline, the secret, how to send orders and
    // the four policies WM D.I(1)(b) requires (D.II(2), D.III(3), D.VII(3), D.X(1)).
    let options = vec![
        ("submissions".to_string(), "merge_per_unit".to_string()),
        ("late_orders".to_string(), "until_adjudication".to_string()),
    ];
    let (pool, secrets) = wm_game("start", "wm9", &options).await;
    let gm = admin::add_member(&pool, "wm9", Role::Gm, GM, "UTC", T0)
        .await
        .expect("gm");
    admin::add_member(&pool, "wm9", Role::Observer, "fan@example.test", "UTC", T0)
        .await
        .expect("observer");
    games::start_game_and_tell(&pool, &env(), "wm9", T0)
        .await
        .expect("start");
    let out = outbox(&pool).await;
    let starts: Vec<_> = out.iter().filter(|o| o.0 == "start").collect();
    assert_eq!(starts.len(), 9, "7 players, the GM, the observer");
    for (i, power) in POWERS.iter().enumerate() {
        let (_, _, subject, body) = starts
            .iter()
            .find(|o| o.1 == player(i))
            .expect("a start mail");
        assert!(subject.contains(&format!("you play {power}")), "{subject}");
        for want in [
            "First phase: S1901M",
            "Deadline:",
            &format!("YOUR SECRET: {}", secrets[i]),
            &format!("wm9 {power} S1901M"),
            "confirm@example.test",
            "(WM D.II(2))",
            "(WM D.III(3))",
            "(WM D.VII(3))",
            "(WM D.X(1))",
            "submissions = \"merge_per_unit\"",
            "late_orders = \"until_adjudication\"",
            "sets of orders are merged",
            &format!("\"wm9 {power} <phase>\""),
        ] {
            assert!(body.contains(want), "{power}: {want}\n{body}");
        }
        // Nobody else's secret.
        for (j, s) in secrets.iter().enumerate() {
            assert!(
                j == i || !body.contains(s.as_str()),
                "{power} sees {j}'s secret"
            );
        }
    }
    let paris = &starts.iter().find(|o| o.1 == player(2)).expect("france").3;
    assert!(paris.contains("Europe/Paris"), "{paris}");
    let gm_mail = &starts.iter().find(|o| o.1 == GM).expect("gm").3;
    assert!(gm_mail.contains(&gm.secret) && gm_mail.contains("command mails"));
    let fan = &starts
        .iter()
        .find(|o| o.1 == "fan@example.test")
        .expect("observer")
        .3;
    assert!(
        !fan.contains("YOUR SECRET") && fan.contains("made you an\nobserver"),
        "{fan}"
    );
    // Issue 21: an observer never asked for the mail; their first one says how to stop it.
    assert!(fan.contains("OBSERVER REMOVE fan@example.test"), "{fan}");
}

#[tokio::test]
async fn a_mail_about_a_finished_game_gets_a_polite_answer() {
    // Issue 11, point 5: a finished game takes no more orders, and says so.
    let pool = setup("finished", &["wm1"]).await;
    {
        let mut c = pool.acquire().await.expect("conn");
        store::set_game_status(&mut c, "wm1", store::GameStatus::Finished)
            .await
            .expect("finish");
    }
    let mail = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "",
        "SECRET s3\nA Par - Bur\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &mail, Some(T0 + 60), T0 + 60).await,
        Processed::Rejected
    );
    let out = outbox(&pool).await;
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].1, player(2));
    assert!(out[0].3.contains("game wm1 is over"), "{}", out[0].3);
    let mut c = pool.acquire().await.expect("conn");
    assert!(
        store::diplomacy::standing_orders(&mut c, "wm1", "S1901M")
            .await
            .expect("standing")
            .is_empty()
    );
}

#[tokio::test]
async fn a_preview_goes_to_the_masters_only_and_changes_nothing() {
    let (pool, secret, _) = with_masters("preview").await;
    let before = deadline(&pool).await;
    let orders = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "",
        "SECRET s3\nA Par - Bur\n",
    );
    deliver(&pool, "gm", 1, &orders, Some(T0 + 60), T0 + 60).await;
    let mail = raw(
        GM,
        "gm@example.test",
        "wm1 GM",
        "",
        &format!("SECRET {secret}\nPREVIEW\n"),
    );
    assert_eq!(
        deliver(&pool, "gm", 2, &mail, Some(T0 + 120), T0 + 120).await,
        Processed::Accepted
    );
    let out = outbox(&pool).await;
    let previews: Vec<_> = out.iter().filter(|o| o.0 == "preview").collect();
    let to: Vec<&str> = previews.iter().map(|o| o.1.as_str()).collect();
    assert_eq!(to, vec![GM, TD]);
    assert!(
        previews[0].2.starts_with("PREVIEW, nothing changed"),
        "{}",
        previews[0].2
    );
    assert!(previews[0].3.contains("A Par - Bur"), "{}", previews[0].3);
    assert!(
        !out.iter().any(|o| o.0 == "results"),
        "no player was sent results"
    );
    assert_eq!(deadline(&pool).await, before);
    let mut c = pool.acquire().await.expect("conn");
    let p = store::current_phase(&mut c, "wm1")
        .await
        .expect("q")
        .expect("open");
    assert_eq!(p.phase, "S1901M", "still open");
    assert_eq!(audit(&pool).await[0].command, "PREVIEW");
}

#[tokio::test]
async fn the_game_ends_when_its_final_year_has_been_played() {
    // Issue 11, point 5; WM B(3): the rounds play until a Fall, then the centre counts stand.
    let (pool, _, _) = with_masters("final-year").await;
    let e = env();
    let set = GmCommand::Set {
        option: "final_year".into(),
        value: "1901".into(),
    };
    let done = games::console_command(&pool, &e, "wm1", &set, T0 + 60)
        .await
        .expect("set");
    assert!(done.ok, "{done:?}");
    // Spring, then Fall 1901 (no orders: every unit holds).
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let fall = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, fall).await.expect("tick"), 1);
    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, "wm1").await.expect("q").expect("game");
    assert_eq!(g.status, store::GameStatus::Finished);
    assert!(
        store::current_phase(&mut c, "wm1")
            .await
            .expect("q")
            .is_none(),
        "no phase follows"
    );
    let out = outbox(&pool).await;
    let last: Vec<_> = out
        .iter()
        .filter(|o| o.0 == "results" && o.2.contains("F1901M"))
        .collect();
    assert_eq!(last.len(), 8, "7 players and the GM's copy");
    for r in &last {
        assert!(
            r.3.contains("final year of the game (1901) has been played"),
            "{}",
            r.3
        );
        assert!(!r.3.contains("Next phase"), "{}", r.3);
        assert!(
            r.3.contains("Supply centres at the end of each year"),
            "{}",
            r.3
        );
        assert!(
            r.3.contains("1901    3    3    3    3    3    4    3"),
            "{}",
            r.3
        );
    }
    // A finished game is never ticked again.
    assert_eq!(
        games::tick(&pool, &e, fall + 10 * DAY).await.expect("tick"),
        0
    );
}

#[tokio::test]
async fn two_games_with_one_player_each_mail_reaches_its_own_game() {
    // Issue 11, point 6: several games on one server; nothing picks "the first active game".
    let pool = setup("two-games", &["wm1", "wm2"]).await;
    let to_wm2 = raw(
        &player(2),
        "gm@example.test",
        "WM2 France S1901M",
        "",
        "SECRET s3\nA Par - Bur\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &to_wm2, Some(T0 + 60), T0 + 60).await,
        Processed::Accepted
    );
    // No game in the subject, and the sender plays in both: refused, asking for the game.
    let unnamed = raw(
        &player(2),
        "gm@example.test",
        "my orders",
        "",
        "SECRET s3\nA Par - Pic\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 2, &unnamed, Some(T0 + 120), T0 + 120).await,
        Processed::Rejected
    );
    let mut c = pool.acquire().await.expect("conn");
    let wm1 = store::diplomacy::standing_orders(&mut c, "wm1", "S1901M")
        .await
        .expect("q");
    let wm2 = store::diplomacy::standing_orders(&mut c, "wm2", "S1901M")
        .await
        .expect("q");
    assert!(wm1.is_empty(), "{wm1:?}");
    assert_eq!(wm2.len(), 1);
    assert_eq!(wm2[0].orders[0].order, "A PAR - BUR");
    let out = outbox(&pool).await;
    let refusal = out.last().expect("an answer");
    assert_eq!(refusal.1, player(2));
    assert!(
        refusal.3.contains("you play in several games (wm1, wm2)"),
        "{}",
        refusal.3
    );
}

#[tokio::test]
async fn a_replacement_player_is_welcomed_and_the_season_is_recorded() {
    // Issue 11, point 2; WM B.8.
    let (pool, secret, _) = with_masters("replace").await;
    let orders = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "",
        "SECRET s3\nA Par - Bur\n",
    );
    deliver(&pool, "gm", 1, &orders, Some(T0 + 60), T0 + 60).await;
    let mail = raw(
        GM,
        "gm@example.test",
        "wm1 GM",
        "",
        &format!(
            "SECRET {secret}\nREPLACE France newbie@example.test TEMPORARY\nREPLACE ITALY player1@example.test\n"
        ),
    );
    deliver(&pool, "gm", 2, &mail, Some(T0 + 120), T0 + 120).await;
    let out = outbox(&pool).await;
    let reply = &out
        .iter()
        .find(|o| o.0 == "command-reply")
        .expect("reply")
        .3;
    assert!(
        reply.contains("OK: newbie@example.test plays FRANCE from S1901M"),
        "{reply}"
    );
    assert!(
        reply.contains("REFUSED: player1@example.test already plays AUSTRIA"),
        "{reply}"
    );
    let welcome = &out
        .iter()
        .find(|o| o.0 == "start" && o.1 == "newbie@example.test")
        .expect("welcome")
        .3;
    for want in [
        "You take over FRANCE",
        "temporary replacement",
        "A PAR - BUR",
        "YOUR SECRET:",
        "Your centres: BRE, MAR, PAR",
    ] {
        assert!(welcome.contains(want), "{want}: {welcome}");
    }
    let told = out
        .iter()
        .find(|o| o.0 == "announcement" && o.1 == player(2))
        .expect("the old player is told");
    assert!(told.2.contains("you no longer play FRANCE"), "{}", told.2);
    let mut c = pool.acquire().await.expect("conn");
    let r = store::replacements(&mut c, "wm1").await.expect("q");
    assert_eq!(r.len(), 1);
    assert_eq!(
        (
            r[0].power.as_str(),
            r[0].phase.as_str(),
            r[0].old_address.as_str(),
            r[0].kind.as_str()
        ),
        ("FRANCE", "S1901M", "player3@example.test", "temporary")
    );
    // The old address no longer speaks for France; the new one does, with its new secret.
    let old = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "",
        "SECRET s3\nA Par - Pic\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 3, &old, Some(T0 + 180), T0 + 180).await,
        Processed::Rejected
    );
    let players = store::players(&mut c, "wm1").await.expect("players");
    let france = players
        .iter()
        .find(|p| p.power == "FRANCE")
        .expect("france");
    assert_eq!(france.address, "newbie@example.test");
    let new = raw(
        "newbie@example.test",
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "",
        &format!("SECRET {}\nA Par - Gas\n", france.secret),
    );
    assert_eq!(
        deliver(&pool, "gm", 4, &new, Some(T0 + 240), T0 + 240).await,
        Processed::Accepted
    );
}

#[tokio::test]
async fn a_replacement_inherits_none_of_the_old_players_choices_wm_d_iii_1_d_vii_2_d_ii_5_d_ix() {
    // Issue 21: the new player silently inherited the old one's abbreviations (WM D.III(1)),
    // unavailable periods (D.VII(2)), conditional orders (D.II(5)) and votes (D.IX). They did
    // not make those choices: the replacement clears them, and the welcome says so.
    let (pool, secret, _) = with_masters("replace-choices").await;
    let mut c = pool.acquire().await.expect("conn");
    for power in ["FRANCE", "GERMANY"] {
        store::diplomacy::set_abbreviations(&mut c, "wm1", power, r#"{"paree":"par"}"#, T0)
            .await
            .expect("abbreviations");
        store::add_unavailable(&mut c, "wm1", power, T0 + 10 * DAY, T0 + 11 * DAY)
            .await
            .expect("unavailable");
        store::add_weekly(&mut c, "wm1", power, &[(T0 + 3 * DAY, T0 + 4 * DAY)])
            .await
            .expect("weekly");
        store::diplomacy::set_conditional(&mut c, "wm1", power, "S1901M", "A PAR - BUR", T0)
            .await
            .expect("conditional");
        store::diplomacy::cast_vote(&mut c, "wm1", "S1901M", power, "DRAW", "YES", T0)
            .await
            .expect("vote");
    }
    drop(c);
    let mail = raw(
        GM,
        "gm@example.test",
        "wm1 GM",
        "",
        &format!("SECRET {secret}\nREPLACE FRANCE newbie@example.test PERMANENT\n"),
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &mail, Some(T0 + 60), T0 + 60).await,
        Processed::Accepted
    );
    let mut c = pool.acquire().await.expect("conn");
    let count = |table: &'static str, power: &'static str| {
        sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM {table} WHERE game_id = 'wm1' AND power = '{power}'"
        )))
    };
    for table in [
        "abbreviation_lists",
        "unavailable",
        "conditional_orders",
        "votes",
    ] {
        assert_eq!(
            count(table, "FRANCE").fetch_one(&mut *c).await.expect("q"),
            0,
            "{table}: the old player's choices are cleared"
        );
        assert!(
            count(table, "GERMANY").fetch_one(&mut *c).await.expect("q") > 0,
            "{table}: another power's choices stay"
        );
    }
    let out = outbox(&pool).await;
    let welcome = &out
        .iter()
        .find(|o| o.0 == "start" && o.1 == "newbie@example.test")
        .expect("welcome")
        .3
        .replace("\n", " ");
    assert!(
        welcome.contains("The previous player's own choices do not carry over"),
        "{welcome}"
    );
    let reply = &out
        .iter()
        .find(|o| o.0 == "command-reply")
        .expect("reply")
        .3
        .replace("\n  ", " ");
    assert!(reply.contains("votes of FRANCE were cleared"), "{reply}");
}

#[tokio::test]
async fn a_rollback_needs_the_tds_consent() {
    // Issue 11 acceptance: a ROLLBACK without TD consent is refused; WM D.VIII(1).
    let (pool, gm_secret, td_secret) = with_masters("rollback").await;
    let e = env();
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let now = spring + 3600;
    // Each mail distinct (the ledger knows a mail by its content too).
    let command = |uid: u32, from: &str, secret: &str, body: &str| {
        let id = format!("Message-ID: <cmd{uid}@example.test>\r\n");
        (
            uid,
            raw(
                from,
                "gm@example.test",
                "wm1 GM",
                &id,
                &format!("SECRET {secret}\n{body}\n"),
            ),
        )
    };
    let last_reply = |out: &[(String, String, String, String)]| {
        out.iter()
            .rev()
            .find(|o| o.0 == "command-reply")
            .expect("reply")
            .3
            .clone()
    };
    let (uid, mail) = command(1, GM, &gm_secret, "ROLLBACK S1901M");
    deliver(&pool, "gm", uid, &mail, Some(now), now).await;
    let mut c = pool.acquire().await.expect("conn");
    let open = store::current_phase(&mut c, "wm1")
        .await
        .expect("q")
        .expect("open");
    assert_eq!(open.phase, "F1901M", "nothing rolled back");
    drop(c);
    let reply = last_reply(&outbox(&pool).await);
    assert!(
        reply.contains("REFUSED: a rollback needs the TD's consent"),
        "{reply}"
    );
    // A GM cannot consent for the TD.
    let (uid, mail) = command(2, GM, &gm_secret, "CONSENT ROLLBACK S1901M");
    deliver(&pool, "gm", uid, &mail, Some(now), now).await;
    let reply = last_reply(&outbox(&pool).await);
    assert!(reply.contains("REFUSED: only the TD consents"), "{reply}");
    // The TD consents; then the GM rolls back, once.
    let (uid, mail) = command(3, TD, &td_secret, "CONSENT ROLLBACK S1901M");
    deliver(&pool, "gm", uid, &mail, Some(now), now).await;
    let (uid, mail) = command(4, GM, &gm_secret, "ROLLBACK S1901M");
    deliver(&pool, "gm", uid, &mail, Some(now), now).await;
    let mut c = pool.acquire().await.expect("conn");
    let open = store::current_phase(&mut c, "wm1")
        .await
        .expect("q")
        .expect("open");
    assert_eq!(open.phase, "S1901M", "rolled back");
    assert!(open.deadline > now);
    drop(c);
    let out = outbox(&pool).await;
    let reply = last_reply(&out);
    assert!(
        reply.contains("OK: rolled back to S1901M with the TD's consent"),
        "{reply}"
    );
    for i in 0..7 {
        assert!(
            out.iter()
                .any(|o| o.0 == "announcement" && o.1 == player(i) && o.2.contains("rolled back")),
            "{} is told",
            player(i)
        );
    }
    // The consent was used: a second rollback needs another.
    assert_eq!(
        games::tick(&pool, &e, open.deadline).await.expect("tick"),
        1
    );
    let later = open.deadline + 60;
    let (uid, mail) = command(5, GM, &gm_secret, "ROLLBACK S1901M");
    deliver(&pool, "gm", uid, &mail, Some(later), later).await;
    let reply = last_reply(&outbox(&pool).await);
    assert!(reply.contains("REFUSED: a rollback needs"), "{reply}");
    let log = audit(&pool).await;
    assert!(
        log.iter()
            .any(|a| a.command == "CONSENT ROLLBACK S1901M" && a.actor == TD)
    );
}

#[tokio::test]
async fn observers_get_the_results_with_press_to_all_only() {
    // Issue 11, point 3: observers get results and public press, never private press.
    let (pool, _, _) = with_masters("observers").await;
    admin::add_member(
        &pool,
        "wm1",
        Role::Observer,
        "fan@example.test",
        "Asia/Tokyo",
        T0,
    )
    .await
    .expect("observer");
    let orders = raw(
        &player(2),
        "gm@example.test",
        "wm1 FRANCE S1901M",
        "",
        "SECRET s3\nA Par - Bur\nPRESS TO ALL\nBonjour a tous.\nENDPRESS\n\
         PRESS TO ENGLAND\nA secret offer.\nENDPRESS\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &orders, Some(T0 + 60), T0 + 60).await,
        Processed::Accepted
    );
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &env(), spring).await.expect("tick"), 1);
    let out = outbox(&pool).await;
    let fan = &out
        .iter()
        .find(|o| o.0 == "results" && o.1 == "fan@example.test")
        .expect("the observer's results")
        .3;
    assert!(
        fan.contains("A PAR - BUR") || fan.contains("A Par - Bur"),
        "{fan}"
    );
    assert!(fan.contains("Bonjour a tous."), "{fan}");
    assert!(!fan.contains("A secret offer."), "{fan}");
    assert!(fan.contains("Asia/Tokyo") || fan.contains("JST"), "{fan}");
    let england = &out
        .iter()
        .find(|o| o.0 == "results" && o.1 == player(1))
        .expect("England's results")
        .3;
    assert!(england.contains("A secret offer."), "{england}");
}

#[tokio::test]
async fn an_observer_added_by_the_gm_is_told_how_to_stop_and_stops_by_mail() {
    // Issue 21: mail went to an address given by `OBSERVER ADD` with no word on how to stop
    // it. Its first mail says how; the observer's own `OBSERVER REMOVE` does it.
    let (pool, secret, _) = with_masters("observer-opt-out").await;
    let add = raw(
        GM,
        "gm@example.test",
        "wm1 GM",
        "",
        &format!("SECRET {secret}\nOBSERVER ADD fan@example.test\n"),
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &add, Some(T0 + 60), T0 + 60).await,
        Processed::Accepted
    );
    let out = outbox(&pool).await;
    let first = out
        .iter()
        .find(|o| o.1 == "fan@example.test")
        .expect("the observer's first mail");
    assert_eq!(first.0, "start");
    assert!(
        first.2.contains("wm1 is under way: you observe it"),
        "{}",
        first.2
    );
    let body = first.3.replace("\n", " ");
    assert!(body.contains("If you do not want these mails"), "{body}");
    assert!(body.contains("with the subject \"wm1 GM\""), "{body}");
    assert!(body.contains("OBSERVER REMOVE fan@example.test"), "{body}");
    assert!(!body.contains("YOUR SECRET"), "{body}");
    // Nobody else may use the exception: a stranger, or an observer doing more than leaving.
    for (uid, from, line) in [
        (2, "eve@example.test", "OBSERVER REMOVE fan@example.test"),
        (
            3,
            "fan@example.test",
            "OBSERVER REMOVE fan@example.test\nPAUSE",
        ),
        (4, "fan@example.test", "OBSERVER ADD friend@example.test"),
    ] {
        let m = raw(from, "gm@example.test", "wm1 GM", "", &format!("{line}\n"));
        assert_eq!(
            deliver(&pool, "gm", uid, &m, Some(T0 + 120), T0 + 120).await,
            Processed::Rejected,
            "{from}: {line}"
        );
    }
    let mut c = pool.acquire().await.expect("conn");
    let observes = |members: Vec<store::MemberRow>| {
        members
            .iter()
            .any(|m| m.role == Role::Observer && m.address == "fan@example.test")
    };
    assert!(observes(
        store::members(&mut c, "wm1").await.expect("members")
    ));
    drop(c);
    // The observer's own mail, without a secret: done, answered, audited.
    let leave = raw(
        "Fan@Example.test",
        "gm@example.test",
        "Re: wm1 GM",
        "",
        "OBSERVER REMOVE fan@example.test\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 5, &leave, Some(T0 + 180), T0 + 180).await,
        Processed::Accepted
    );
    let mut c = pool.acquire().await.expect("conn");
    assert!(!observes(
        store::members(&mut c, "wm1").await.expect("members")
    ));
    drop(c);
    let reply = outbox(&pool)
        .await
        .into_iter()
        .rfind(|o| o.0 == "command-reply")
        .expect("the observer is answered");
    assert!(
        reply
            .3
            .contains("OK: fan@example.test no longer observes wm1"),
        "{}",
        reply.3
    );
    assert!(
        audit(&pool)
            .await
            .iter()
            .any(|a| a.command == "OBSERVER REMOVE fan@example.test")
    );
}

#[tokio::test]
async fn players_and_observers_ask_for_status_history_and_summary() {
    // Issue 11, point 3.
    let (pool, _, _) = with_masters("queries").await;
    admin::add_member(&pool, "wm1", Role::Observer, "fan@example.test", "UTC", T0)
        .await
        .expect("observer");
    let e = env();
    // Play 1901 with no orders: every unit holds, nobody gains a centre.
    for _ in 0..2 {
        let d = deadline(&pool).await;
        assert_eq!(games::tick(&pool, &e, d).await.expect("tick"), 1);
    }
    let now = deadline(&pool).await - DAY;
    // France proves who it is (its secret): more than one query an hour is answered.
    let ask = |uid: u32, from: &str, subject: &str| {
        let body = if from == player(2) {
            "SECRET s3\n"
        } else {
            "\n"
        };
        (
            uid,
            raw(
                from,
                "gm@example.test",
                subject,
                &format!("Message-ID: <q{uid}@x.test>\r\n"),
                body,
            ),
        )
    };
    let reply_to = |out: &[(String, String, String, String)], to: &str, what: &str| {
        out.iter()
            .find(|o| o.0 == "query-reply" && o.1 == to && o.2.contains(what))
            .map(|o| o.3.clone())
            .unwrap_or_else(|| panic!("no {what} answer to {to}: {out:?}"))
    };
    for (uid, from, subject) in [
        (1, player(2), "wm1 STATUS"),
        (2, "fan@example.test".to_string(), "wm1 SUMMARY"),
        (3, player(2), "Re: wm1 HISTORY S1901M"),
        (4, "mallory@evil.test".to_string(), "wm1 STATUS"),
    ] {
        let (uid, mail) = ask(uid, &from, subject);
        deliver(&pool, "gm", uid, &mail, Some(now), now).await;
    }
    let out = outbox(&pool).await;
    let status = reply_to(&out, &player(2), "STATUS");
    assert!(
        status.contains("wm1 S1902M") || status.contains("wm1 W1901A"),
        "{status}"
    );
    // A player hears of their own power only (issue 21.3: per-power facts are the masters').
    assert!(status.contains("your orders (FRANCE): none"), "{status}");
    assert!(!status.contains("ENGLAND"), "{status}");
    let summary = reply_to(&out, "fan@example.test", "SUMMARY");
    assert!(summary.contains("Year  AUS  ENG  FRA"), "{summary}");
    assert!(summary.contains("1901"), "{summary}");
    let history = reply_to(&out, &player(2), "HISTORY S1901M");
    assert!(history.contains("==== wm1 S1901M"), "{history}");
    assert!(
        !out.iter().any(|o| o.1 == "mallory@evil.test"),
        "no answer to strangers"
    );
}

#[tokio::test]
async fn a_running_wm_game_keeps_its_minimum_turn_lengths() {
    // Issue 11, point 2 (SET refused where the rulebook forbids it); WM D.VII(4)(a).
    let (pool, _) = wm_game("minturn", "wm5", &[]).await;
    games::start_game(&pool, "wm5", T0).await.expect("start");
    let set = |value: &str| GmCommand::Set {
        option: "movement_days".into(),
        value: value.into(),
    };
    let e = env();
    let short = games::console_command(&pool, &e, "wm5", &set("2"), T0 + 60)
        .await
        .expect("set");
    assert!(
        !short.ok && short.answer.contains("WM D.VII(4)(a)"),
        "{short:?}"
    );
    let long = games::console_command(&pool, &e, "wm5", &set("4"), T0 + 60)
        .await
        .expect("set");
    assert!(long.ok, "{long:?}");
    // Nor a deadline sooner than the minimum turn after the phase began.
    let soon = GmCommand::Deadline(T0 + 2 * DAY);
    let done = games::console_command(&pool, &e, "wm5", &soon, T0 + 60)
        .await
        .expect("deadline");
    assert!(
        !done.ok && done.answer.contains("WM D.VII(4)(a)"),
        "{done:?}"
    );
    let later = GmCommand::Deadline(T0 + 3 * DAY + 60);
    let done = games::console_command(&pool, &e, "wm5", &later, T0 + 60)
        .await
        .expect("deadline");
    assert!(done.ok, "{done:?}");
}

#[tokio::test]
async fn votes_are_counted_and_only_their_result_is_published() {
    // Issue 11, point 4; WM IX(1)-(4). A draw fails (one player votes no), then passes at the
    // next deadline and ends the game instead of the adjudication.
    let (pool, _, _) = with_masters("votes").await;
    let e = env();
    let vote = |uid: u32, i: usize, phase: &str, ballot: &str, at: i64| {
        let pool = pool.clone();
        let mail = raw(
            &player(i),
            "gm@example.test",
            &format!("wm1 {} {phase}", POWERS[i]),
            &format!("Message-ID: <v{uid}@x.test>\r\n"),
            &format!("SECRET s{}\nVOTE DRAW {ballot}\n", i + 1),
        );
        async move { deliver(&pool, "gm", uid, &mail, Some(at), at).await }
    };
    let spring = deadline(&pool).await;
    for i in 0..7 {
        let ballot = if i == 3 { "NO" } else { "YES" };
        assert_eq!(
            vote(i as u32 + 1, i, "S1901M", ballot, T0 + 60).await,
            Processed::Accepted
        );
    }
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let out = outbox(&pool).await;
    let results: Vec<_> = out
        .iter()
        .filter(|o| o.0 == "results" && o.2.contains("S1901M"))
        .collect();
    assert_eq!(results.len(), 8);
    for r in &results {
        assert!(
            r.3.contains("The proposal of a draw of all survivors failed"),
            "{}",
            r.3
        );
    }
    // The votes were spent; at the next deadline everyone votes yes.
    let fall = deadline(&pool).await;
    for i in 0..7 {
        assert_eq!(
            vote(i as u32 + 20, i, "F1901M", "YES", spring + 60).await,
            Processed::Accepted
        );
    }
    assert_eq!(games::tick(&pool, &e, fall).await.expect("tick"), 1);
    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, "wm1").await.expect("q").expect("game");
    assert_eq!(g.status, store::GameStatus::Finished);
    drop(c);
    let out = outbox(&pool).await;
    assert!(
        !out.iter()
            .any(|o| o.0 == "results" && o.2.contains("F1901M")),
        "the passed proposal is published instead of the adjudication"
    );
    let ended: Vec<_> = out
        .iter()
        .filter(|o| o.0 == "announcement" && o.2.contains("the game has ended"))
        .collect();
    assert_eq!(ended.len(), 7 + 2, "the players and both masters");
    assert!(
        ended[0].3.contains("draw of all survivors has passed"),
        "{}",
        ended[0].3
    );
    assert!(
        ended[0].3.contains("Final supply centre counts"),
        "{}",
        ended[0].3
    );
    // Secrecy (WM IX(2)): no outgoing mail tells how anyone voted or how many did.
    for o in out.iter().filter(|o| o.0 != "ack") {
        let text = format!("{}\n{}", o.2, o.3).to_lowercase();
        for leak in [
            "voted",
            "6 to 1",
            "6 votes",
            "germany voted",
            "one vote",
            "tally:",
        ] {
            assert!(!text.contains(leak), "{leak} in {}: {}", o.0, o.3);
        }
    }
}

#[tokio::test]
async fn wm_ix_4_every_spelling_of_a_proposal_is_one_proposal_and_vote_rule_publishes_no_text() {
    // Issue 21, point 9: proposals were grouped by their raw text, so one draw written two ways
    // was two proposals (each published in its voter's word order), `VOTE DIAS` was never
    // counted, and `VOTE RULE <any text>` published that text to everyone.
    let (pool, _, _) = with_masters("spellings").await;
    let e = env();
    let vote = |uid: u32, i: usize, phase: &str, line: &str, at: i64| {
        let pool = pool.clone();
        let mail = raw(
            &player(i),
            "gm@example.test",
            &format!("wm1 {} {phase}", POWERS[i]),
            &format!("Message-ID: <sp{uid}@x.test>\r\n"),
            &format!("SECRET s{}\n{line}\n", i + 1),
        );
        async move { deliver(&pool, "gm", uid, &mail, Some(at), at).await }
    };
    // Spring: a draw of England and France written both ways, which Germany refuses, and a
    // house-rule proposal that is an advertisement.
    for (i, line) in [
        "VOTE DRAW FRANCE ENGLAND YES",
        "VOTE DRAW ENGLAND FRANCE YES",
        "VOTE DRAW ENGLAND, FRANCE YES",
        "VOTE DRAW FRANCE AND ENGLAND NO\nVOTE RULE PRESS CHEAP WATCHES AT SPAM.EXAMPLE YES",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(
            vote(i as u32 + 1, i, "S1901M", line, T0 + 60).await,
            Processed::Accepted
        );
    }
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let out = outbox(&pool).await;
    let refused = out
        .iter()
        .find(|o| o.0 == "ack" && o.1 == player(3))
        .map(|o| o.3.split_whitespace().collect::<Vec<_>>().join(" "))
        .expect("Germany's acknowledgement");
    assert!(
        refused.contains("this vote is not counted: bad value for 'press'"),
        "{refused}"
    );
    let results: Vec<_> = out
        .iter()
        .filter(|o| o.0 == "results" && o.2.contains("S1901M"))
        .collect();
    assert_eq!(results.len(), 8);
    for r in &results {
        let text = r.3.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            text.matches("The proposal of a draw of").count(),
            1,
            "one proposal, one result: {text}"
        );
        assert!(
            text.contains("The proposal of a draw of ENGLAND, FRANCE failed"),
            "{text}"
        );
        assert!(!text.to_lowercase().contains("watches"), "{text}");
    }
    // Fall: every power votes for the draw of all survivors, in four spellings: it passes.
    let all = POWERS.join(" ");
    let reversed = POWERS.iter().rev().copied().collect::<Vec<_>>().join(", ");
    for i in 0..7 {
        let line = match i % 4 {
            0 => "VOTE DIAS YES".to_string(),
            1 => "VOTE DRAW YES".to_string(),
            2 => format!("VOTE DRAW {all} YES"),
            _ => format!("VOTE DRAW {reversed} YES"),
        };
        assert_eq!(
            vote(i as u32 + 20, i, "F1901M", &line, spring + 60).await,
            Processed::Accepted
        );
    }
    let fall = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, fall).await.expect("tick"), 1);
    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, "wm1").await.expect("q").expect("game");
    assert_eq!(g.status, store::GameStatus::Finished, "the draw passed");
}

#[tokio::test]
async fn a_stalemate_ends_the_game_unless_everyone_votes_to_continue() {
    // Issue 11, point 5; Maharajiad X(1) (here after one year, to keep the test short).
    for continue_vote in [false, true] {
        let name = if continue_vote {
            "stalemate-on"
        } else {
            "stalemate"
        };
        let (pool, _, _) = with_masters(name).await;
        let e = env();
        let set = GmCommand::Set {
            option: "stalemate_years".into(),
            value: "1".into(),
        };
        assert!(
            games::console_command(&pool, &e, "wm1", &set, T0 + 1)
                .await
                .expect("set")
                .ok
        );
        // 1901 and 1902 with every unit holding: no centre changes owner.
        let mut last = String::new();
        for _ in 0..4 {
            let mut c = pool.acquire().await.expect("conn");
            let Some(p) = store::current_phase(&mut c, "wm1").await.expect("q") else {
                break;
            };
            drop(c);
            if continue_vote && p.phase == "F1902M" {
                for (i, power) in POWERS.iter().enumerate() {
                    let mail = raw(
                        &player(i),
                        "gm@example.test",
                        &format!("wm1 {power} F1902M"),
                        "",
                        &format!("SECRET s{}\nVOTE CONTINUE YES\n", i + 1),
                    );
                    deliver(
                        &pool,
                        "gm",
                        100 + i as u32,
                        &mail,
                        Some(p.deadline - 60),
                        p.deadline - 60,
                    )
                    .await;
                }
            }
            assert_eq!(games::tick(&pool, &e, p.deadline).await.expect("tick"), 1);
            last = p.phase;
        }
        let mut c = pool.acquire().await.expect("conn");
        let g = store::game(&mut c, "wm1").await.expect("q").expect("game");
        if continue_vote {
            assert_eq!(
                g.status,
                store::GameStatus::Active,
                "the players voted to go on"
            );
            assert_eq!(last, "F1902M");
        } else {
            assert_eq!(g.status, store::GameStatus::Finished);
            assert_eq!(
                last, "F1902M",
                "ended after the second year without a change"
            );
            let out = outbox(&pool).await;
            let fin = out
                .iter()
                .find(|o| o.0 == "results" && o.2.contains("F1902M"))
                .expect("final results");
            assert!(fin.3.contains("(Maharajiad X(1))"), "{}", fin.3);
            assert!(fin.3.contains("1902    3"), "{}", fin.3);
        }
    }
}

#[tokio::test]
async fn a_refused_proposal_is_not_counted() {
    // Issue 11, point 4: the GM may refuse repetitive proposals (Maharajiad X(2)).
    let (pool, secret, _) = with_masters("refuse").await;
    let e = env();
    let refuse = raw(
        GM,
        "gm@example.test",
        "wm1 GM",
        "",
        &format!("SECRET {secret}\nREFUSE draw\n"),
    );
    deliver(&pool, "gm", 1, &refuse, Some(T0 + 60), T0 + 60).await;
    for (i, power) in POWERS.iter().enumerate() {
        let mail = raw(
            &player(i),
            "gm@example.test",
            &format!("wm1 {power} S1901M"),
            "",
            &format!("SECRET s{}\nVOTE DRAW YES\n", i + 1),
        );
        deliver(&pool, "gm", 10 + i as u32, &mail, Some(T0 + 120), T0 + 120).await;
    }
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, "wm1").await.expect("q").expect("game");
    assert_eq!(
        g.status,
        store::GameStatus::Active,
        "the refused draw did not end the game"
    );
    drop(c);
    let out = outbox(&pool).await;
    let reply = &out
        .iter()
        .find(|o| o.0 == "command-reply")
        .expect("reply")
        .3;
    assert!(reply.contains("OK: DRAW is refused"), "{reply}");
    assert!(
        out.iter().any(|o| o.0 == "announcement"
            && o.1 == player(0)
            && o.3.contains("refused the proposal DRAW")),
        "the players are told"
    );
    let results = &out.iter().find(|o| o.0 == "results").expect("results").3;
    assert!(!results.contains("proposal"), "{results}");
}

/// The board of the game's open phase, as stored.
async fn open_board(pool: &Pool, game: &str) -> (String, chancery::adjudicator::Board) {
    let mut c = pool.acquire().await.expect("conn");
    let p = store::current_phase(&mut c, game)
        .await
        .expect("q")
        .expect("open");
    let board = chancery::games::diplomacy::board_from_json(
        chancery::map::Map::standard(),
        &p.board,
        &p.phase,
    )
    .expect("board");
    (p.phase, board)
}

fn unit_in(board: &chancery::adjudicator::Board, code: &str) -> Option<String> {
    let map = chancery::map::Map::standard();
    let (p, _) = map.parse_location(code)?;
    board.unit_at(p).map(|u| {
        format!(
            "{} {}",
            map.power_name(u.power),
            map.unit_name(u.unit_type, u.location)
        )
    })
}

#[tokio::test]
async fn a_correction_puts_the_board_right_and_every_player_is_told() {
    // Issue 11, point 2 (CORRECT); WM D.VIII(1)-(3).
    let (pool, secret, _) = with_masters("correct").await;
    let body = format!(
        "SECRET {secret}\nCORRECT MOVE A PAR BUR\nCORRECT MOVE A MAR BUR\nCORRECT OWNER BEL FRANCE\n\
         CORRECT EXTRA F BRE\nCORRECT TELEPORT A MUN\nCORRECT PLACE GERMANY A MUN\n"
    );
    let mail = raw(GM, "gm@example.test", "wm1 GM", "", &body);
    deliver(&pool, "gm", 1, &mail, Some(T0 + 60), T0 + 60).await;
    let (_, board) = open_board(&pool, "wm1").await;
    let map = chancery::map::Map::standard();
    assert_eq!(unit_in(&board, "PAR"), None);
    assert_eq!(unit_in(&board, "BUR").as_deref(), Some("FRANCE A BUR"));
    assert_eq!(unit_in(&board, "MAR"), None, "off the board (D.VIII(2))");
    assert_eq!(unit_in(&board, "BRE").as_deref(), Some("FRANCE F BRE"));
    assert_eq!(board.units.len(), 21, "22 units less the one taken off");
    let bel = map.parse_location("BEL").expect("bel").0;
    assert_eq!(board.owner(bel), map.power_by_name("FRANCE"));
    let out = outbox(&pool).await;
    let reply = &out
        .iter()
        .find(|o| o.0 == "command-reply")
        .expect("reply")
        .3;
    for line in [
        "OK: FRANCE A PAR is moved to BUR",
        "WM D.VIII(2)",
        "WM D.VIII(3)",
        "CORRECT MOVE <unit> <space>",
        "MOVE or REMOVE it first",
    ] {
        assert!(reply.contains(line), "{line}: {reply}");
    }
    for i in 0..7 {
        let told: Vec<_> = out
            .iter()
            .filter(|o| o.0 == "announcement" && o.1 == player(i))
            .collect();
        assert_eq!(told.len(), 4, "one mail per correction done");
        assert!(told.iter().any(|o| o.3.contains("WM D.VIII(2)")));
    }
    let log = audit(&pool).await;
    assert_eq!(
        log.iter()
            .filter(|a| a.command.starts_with("CORRECT"))
            .count(),
        6
    );
    // The adjudication plays on the corrected board.
    let spring = deadline(&pool).await;
    assert_eq!(games::tick(&pool, &env(), spring).await.expect("tick"), 1);
    let (_, after) = open_board(&pool, "wm1").await;
    assert_eq!(unit_in(&after, "BUR").as_deref(), Some("FRANCE A BUR"));
}

#[tokio::test]
async fn a_house_rule_changes_only_when_the_gm_and_every_player_agree() {
    // Issue 11, point 4; WM D.I(1)(b), IX(5).
    let (pool, secrets) = wm_game(
        "rule-change",
        "wm6",
        &[("no_nmr_phases".into(), "[]".into())],
    )
    .await;
    let e = env();
    games::start_game(&pool, "wm6", T0).await.expect("start");
    let rules = |pool: Pool| async move {
        let mut c = pool.acquire().await.expect("conn");
        let g = store::game(&mut c, "wm6").await.expect("q").expect("game");
        serde_json::from_str::<chancery::rules::Rules>(&g.rules).expect("rules")
    };
    // Not on the GM's word: a policy stated at the outset.
    let set = GmCommand::Set {
        option: "submissions".into(),
        value: "merge_per_unit".into(),
    };
    let refused = games::console_command(&pool, &e, "wm6", &set, T0 + 60)
        .await
        .expect("set");
    assert!(
        !refused.ok && refused.answer.contains("WM D.I(1)(b)"),
        "{refused:?}"
    );
    // Nor by vote, what the tournament rules fix.
    let fixed = GmCommand::Agree("RULE FINAL_YEAR 1910".into());
    let refused = games::console_command(&pool, &e, "wm6", &fixed, T0 + 60)
        .await
        .expect("agree");
    assert!(
        !refused.ok && refused.answer.contains("WM IX(5)"),
        "{refused:?}"
    );
    let vote_all = |phase: &'static str, uid: u32, at: i64| {
        let pool = pool.clone();
        let secrets = secrets.clone();
        async move {
            for (i, power) in POWERS.iter().enumerate() {
                let mail = raw(
                    &player(i),
                    "gm@example.test",
                    &format!("wm6 {power} {phase}"),
                    &format!("Message-ID: <rule{uid}.{i}@x.test>\r\n"),
                    &format!(
                        "SECRET {}\nVOTE RULE submissions merge_per_unit YES\n",
                        secrets[i]
                    ),
                );
                deliver(&pool, "gm", uid + i as u32, &mail, Some(at), at).await;
            }
        }
    };
    // Every player agrees, the GM has not: it fails.
    vote_all("S1901M", 10, T0 + 120).await;
    let spring = deadline_in(&pool, "wm6").await;
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    assert_eq!(
        rules(pool.clone()).await.submissions,
        chancery::rules::Submissions::Replace
    );
    // The GM agrees, and every player votes again: it passes, and holds from the next phase.
    let agree = GmCommand::Agree("RULE SUBMISSIONS MERGE_PER_UNIT".into());
    let done = games::console_command(&pool, &e, "wm6", &agree, spring + 60)
        .await
        .expect("agree");
    assert!(done.ok && done.answer.contains("WM IX(5)"), "{done:?}");
    vote_all("F1901M", 30, spring + 120).await;
    let fall = deadline_in(&pool, "wm6").await;
    assert_eq!(games::tick(&pool, &e, fall).await.expect("tick"), 1);
    assert_eq!(
        rules(pool.clone()).await.submissions,
        chancery::rules::Submissions::MergePerUnit
    );
    let out = outbox(&pool).await;
    let results = |phase: &str| {
        out.iter()
            .find(|o| o.0 == "results" && o.1 == player(0) && o.2.contains(phase))
            .map(|o| o.3.split_whitespace().collect::<Vec<_>>().join(" "))
            .expect("results")
    };
    let spring_results = results("S1901M");
    // A failed proposal is published with the results; the game goes on.
    assert!(
        spring_results.contains("Next phase: Fall 1901"),
        "{spring_results}"
    );
    assert!(
        spring_results.contains("changing the house rule submissions to merge_per_unit failed"),
        "{spring_results}"
    );
    let fall_results = results("F1901M");
    assert!(
        fall_results.contains("merge_per_unit has passed, with the GM's agreement (WM IX(5))"),
        "{fall_results}"
    );
}

#[tokio::test]
async fn the_gm_declares_a_draw_with_two_days_notice() {
    // Issue 11, point 5; Agora BT9 (here after one unchanged year, to keep the test short).
    let (pool, _, _) = with_masters("declare").await;
    let e = env();
    let declare = GmCommand::DeclareDraw;
    let refused = games::console_command(&pool, &e, "wm1", &declare, T0 + 1)
        .await
        .expect("declare");
    assert!(
        !refused.ok && refused.answer.contains("Agora BT9"),
        "{refused:?}"
    );
    let set = GmCommand::Set {
        option: "gm_draw_years".into(),
        value: "1".into(),
    };
    assert!(
        games::console_command(&pool, &e, "wm1", &set, T0 + 2)
            .await
            .expect("set")
            .ok
    );
    let too_early = games::console_command(&pool, &e, "wm1", &declare, T0 + 3)
        .await
        .expect("declare");
    assert!(
        !too_early.ok && too_early.answer.contains("may not declare a draw yet"),
        "{too_early:?}"
    );
    // 1901 and 1902 with every unit holding: no centre changes owner in 1902.
    for _ in 0..4 {
        let at = deadline(&pool).await;
        assert_eq!(games::tick(&pool, &e, at).await.expect("tick"), 1);
    }
    let (phase, _) = open_board(&pool, "wm1").await;
    assert_eq!(phase, "S1903M");
    let now = deadline(&pool).await - 2 * DAY;
    let done = games::console_command(&pool, &e, "wm1", &declare, now)
        .await
        .expect("declare");
    assert!(done.ok, "{done:?}");
    let again = games::console_command(&pool, &e, "wm1", &declare, now + 1)
        .await
        .expect("declare");
    assert!(!again.ok && again.answer.contains("already"), "{again:?}");
    // The first deadline two days or more later ends the game instead of its adjudication.
    let mut ended_at = 0;
    for _ in 0..3 {
        let at = deadline(&pool).await;
        games::tick(&pool, &e, at).await.expect("tick");
        let mut c = pool.acquire().await.expect("conn");
        let g = store::game(&mut c, "wm1").await.expect("q").expect("game");
        if g.status == store::GameStatus::Finished {
            ended_at = at;
            break;
        }
    }
    assert!(ended_at >= now + 2 * DAY, "not before the notice ran out");
    let out = outbox(&pool).await;
    assert!(
        out.iter().any(|o| o.0 == "announcement"
            && o.1 == player(0)
            && o.3.contains("declares the game a draw (Agora BT9)")),
        "the players are told at once"
    );
    let end = out
        .iter()
        .filter(|o| o.1 == player(0))
        .find(|o| o.3.contains("has taken effect (Agora BT9)"))
        .expect("the final mail");
    assert!(
        end.3.contains("draw of AUSTRIA, ENGLAND, FRANCE"),
        "{}",
        end.3
    );
    assert!(end.3.contains("Supply centres at the end of each year"));
}
