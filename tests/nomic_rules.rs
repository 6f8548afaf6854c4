//! Issue 25: the Nomic's rules one at a time, through the engine on a real SQLite file with the
//! clock passed in: a proposal that a Point of Order concerns waits for its Judgement, through a
//! Judge's forfeit at the end of the day (Nomic 206, 214); no Point of Order against a proposal
//! voted on but not yet in effect, and no more than three active a player (Nomic 214);
//! improper proposals get no number (Nomic 109, 201, 202); a parameter the GM sets is followed
//! (Nomic 210).

#[path = "common/nomic.rs"]
#[allow(dead_code)]
mod nomic;
use nomic::*;

use chancery::commands::GmCommand;
use chancery::engine::Processed;
use chancery::games;
use chancery::policy::HOUR;
use chancery::store;

/// Monday 12 October 2026, 00:00 BST.
fn monday() -> i64 {
    utc(2026, 10, 11, 23, 0)
}

#[tokio::test]
async fn nomic_206_214_a_proposal_a_point_of_order_concerns_waits_for_its_judgement() {
    let mut game = new_game("waits", monday()).await;
    let at = utc(2026, 10, 12, 9, 0);
    let got = game
        .mail(0, "n1 p", r#"Rule-change: enact 301 "Be kind.""#, at)
        .await;
    assert_eq!(got, Processed::Accepted);
    // Monday: the Judge is the player whose day preceded it, Friday's Alex W.
    let raise = "Point of Order: Is proposal 301 proper?";
    assert_eq!(
        game.mail(1, "n1 po", raise, at + 1800).await,
        Processed::Accepted
    );
    let raised = flat(&game.last_to(2).await);
    assert!(raised.contains("The Judge is Alex W"), "{raised}");
    for i in 0..5 {
        let vote = game
            .mail(i, "Re: n1: Proposal 301", "Vote: Yes", at + HOUR + i as i64)
            .await;
        assert_eq!(vote, Processed::Accepted);
    }
    // The vote completes at 24:00 BST; Alex W has not pronounced and forfeits to Alex T.
    game.tick(utc(2026, 10, 12, 23, 30)).await;
    let forfeit = flat(&game.last_to(2).await);
    assert!(forfeit.contains("Judge forfeited"), "{forfeit}");
    assert!(forfeit.contains("The Judge is Alex T"), "{forfeit}");
    assert!(
        game.mails_to(&address(2), "Proposal 301 adopted")
            .await
            .is_empty()
    );
    // Nomic 214: no new Point of Order on a proposal voted on and not yet in effect.
    let tuesday = utc(2026, 10, 13, 8, 0);
    let again = "Point of Order: proposal 301 again";
    assert_eq!(
        game.mail(2, "n1 po", again, tuesday).await,
        Processed::Rejected
    );
    let why = flat(&game.last_to(2).await);
    assert!(why.contains("Nomic 214"), "{why}");
    let judged = "Judgement: PO1 It is proper.";
    assert_eq!(
        game.mail(3, "n1 po", judged, tuesday + HOUR).await,
        Processed::Accepted
    );
    // Undisputed for an hour: invoked, and the proposal takes effect then.
    game.tick(tuesday + 2 * HOUR + 60).await;
    let adopted = flat(
        &game
            .mails_to(&address(2), "Proposal 301 adopted")
            .await
            .join("\n"),
    );
    assert!(adopted.contains("Rule 301 enacted"), "{adopted}");
    assert!(
        adopted.contains("Tuesday 13 October 2026, 10:00 GMT"),
        "{adopted}"
    );
    let invoked = flat(
        &game
            .mails_to(&address(2), "Judgement invoked")
            .await
            .join("\n"),
    );
    assert!(
        invoked.contains("Alex T's Judgement is invoked"),
        "{invoked}"
    );
}

#[tokio::test]
async fn nomic_214_no_player_has_more_than_three_active_points_of_order() {
    let mut game = new_game("three", monday()).await;
    let at = utc(2026, 10, 12, 9, 0);
    for k in 0..3 {
        let body = format!("Point of Order: question {k}");
        let got = game.mail(1, "n1 po", &body, at + k * 60).await;
        assert_eq!(got, Processed::Accepted, "{}", game.last_to(1).await);
    }
    let got = game
        .mail(1, "n1 po", "Point of Order: a fourth", at + 600)
        .await;
    assert_eq!(got, Processed::Rejected);
    let why = flat(&game.last_to(1).await);
    assert!(why.contains("more than 3 active Points of Order"), "{why}");
    // Another player may still raise one.
    let got = game
        .mail(2, "n1 po", "Point of Order: mine", at + 700)
        .await;
    assert_eq!(got, Processed::Accepted);
}

#[tokio::test]
async fn nomic_109_201_202_an_improper_proposal_gets_no_number() {
    let mut game = new_game("improper", monday()).await;
    // Saturday 17 October: every message is void (Nomic 201).
    let saturday = utc(2026, 10, 17, 10, 0);
    let got = game
        .mail(0, "n1 p", r#"Rule-change: enact 301 "Weekend.""#, saturday)
        .await;
    assert_eq!(got, Processed::Rejected);
    let why = flat(&game.last_to(0).await);
    assert!(why.contains("Saturday"), "{why}");
    assert!(why.contains("not a proper proposal"), "{why}");
    // Monday 19th, Chris B's day: the first proper proposal is 301 (Nomic 109).
    let got = game
        .mail(
            0,
            "n1 p",
            r#"Rule-change: enact 399 "Proper.""#,
            utc(2026, 10, 19, 9, 0),
        )
        .await;
    assert_eq!(got, Processed::Accepted);
    assert!(flat(&game.last_to(3).await).contains("Proposal 301 by Chris B"));
    // A mail with no Nomic line is answered with the forms.
    let got = game
        .mail(3, "n1 hello", "Hello all", utc(2026, 10, 19, 9, 30))
        .await;
    assert_eq!(got, Processed::Rejected);
    let why = flat(&game.last_to(3).await);
    assert!(why.contains("Rule-change:"), "{why}");
}

#[tokio::test]
async fn nomic_210_the_gm_sets_the_winning_score_and_the_game_follows_it() {
    let mut game = new_game("set", monday()).await;
    let set = GmCommand::Set {
        option: "winning-score".into(),
        value: "10".into(),
    };
    let at = utc(2026, 10, 12, 8, 0);
    let done = games::console_command(&game.pool, &env(), GAME, &set, at)
        .await
        .expect("set");
    assert!(done.ok, "{}", done.answer);
    let got = game
        .mail(0, "n1 p", r#"Rule-change: enact 301 "Ten.""#, at + HOUR)
        .await;
    assert_eq!(got, Processed::Accepted);
    for i in 0..5 {
        game.mail(
            i,
            "Re: n1: Proposal 301",
            "Vote: Yes",
            at + 2 * HOUR + i as i64,
        )
        .await;
    }
    game.tick(utc(2026, 10, 12, 23, 30)).await;
    let result = flat(&game.last_to(1).await);
    // R = 301: floor(max(10, 11) x 5/5) = 11, past the winning score of 10.
    assert!(result.contains("Chris B 11 (+11)"), "{result}");
    assert!(
        result.contains("Chris B has won the game (Nomic 210)"),
        "{result}"
    );
    let mut c = game.pool.acquire().await.expect("conn");
    let g = store::game(&mut c, GAME).await.expect("q").expect("game");
    assert_eq!(g.status, store::GameStatus::Finished);
    // A finished Nomic's STATUS still answers, with the points.
    drop(c);
    let status =
        games::console_command(&game.pool, &env(), GAME, &GmCommand::Status, at + DAY_AFTER)
            .await
            .expect("status");
    assert!(status.answer.contains("Chris B: 11"), "{}", status.answer);
}

const DAY_AFTER: i64 = 2 * 86_400;

#[tokio::test]
async fn nomic_113_an_observer_added_under_way_is_told_how_to_stop_and_reads_the_votes() {
    let mut game = new_game("observer", monday()).await;
    let at = utc(2026, 10, 12, 8, 0);
    let add = GmCommand::ObserverAdd("watcher@example.test".into());
    let done = games::console_command(&game.pool, &env(), GAME, &add, at)
        .await
        .expect("add");
    assert!(
        done.ok && done.answer.contains("they were sent a first mail"),
        "{}",
        done.answer
    );
    let first = flat(
        &game
            .mails_to("watcher@example.test", "you observe")
            .await
            .join("\n"),
    );
    assert!(
        first.contains("OBSERVER REMOVE watcher@example.test"),
        "{first}"
    );
    let got = game
        .mail(0, "n1 p", r#"Rule-change: enact 301 "Watched.""#, at + HOUR)
        .await;
    assert_eq!(got, Processed::Accepted);
    game.mail(1, "Re: n1: Proposal 301", "Vote: No", at + 2 * HOUR)
        .await;
    game.tick(utc(2026, 10, 12, 23, 30)).await;
    // Nomic 113: the votes are public; the observer reads who voted how.
    let result = flat(
        &game
            .mails_to("watcher@example.test", "Proposal 301 defeated")
            .await
            .join("\n"),
    );
    assert!(result.contains("Against (1): Dave M"), "{result}");
}
