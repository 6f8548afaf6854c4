//! Issue 25: a Nomic played through the engine on a real SQLite file, the clock injected: five
//! players on their days (Nomic 201), twenty proper proposals over four weeks (Nomic 107, 109)
//! across the end of British Summer Time (Nomic 106), the switch from unanimity to a simple
//! majority after the second complete circuit (Nomic 204), an amendment that renumbers (Nomic
//! 109), a repeal, a transmutation refused for lack of unanimity (Nomic 111), a weekend vote
//! void (Nomic 201), a second vote ignored (Nomic 113), a free text confirmed by the GM (Nomic
//! 107), a parameter set and followed (Nomic 205), a Point of Order overruled (Nomic 214), the
//! points as the formulas say (Nomic 203, 205, 207) and a winner at 200 (Nomic 210).
//!
//! The plan is data ([`plan`]); the test keeps its own model of the rule numbers and the
//! points, computed from the rules' words, and checks the server against it after every vote.

#[path = "common/nomic.rs"]
#[allow(dead_code)]
mod nomic;
use nomic::*;

use chancery::commands::GmCommand;
use chancery::engine::Processed;
use chancery::games;
use chancery::policy::{HOUR, Ts};
use chancery::store;

#[tokio::test]
async fn nomic_by_the_engine_twenty_proposals_to_a_winner() {
    // Monday 12 October 2026, 00:00 BST.
    let start = utc(2026, 10, 11, 23, 0);
    let mut game = new_game("game", start).await;
    let start_mail = game.last_to(2).await;
    assert!(
        start_mail.contains("Your allocated day is Wednesday"),
        "{start_mail}"
    );
    assert!(start_mail.contains("nomic-secret-3"), "{start_mail}");
    let mut model = Model::new();
    for (k, p) in plan().iter().enumerate() {
        let number = 301 + k as u32;
        let (y, m, d) = p.day;
        // 10:00 UTC is 11:00 BST in weeks 1 and 2, 10:00 GMT after.
        let at = utc(y, m, d, 10, 0);
        let subject = format!("{GAME} proposal");
        let line = format!("Rule-change: {}", p.change);
        assert_eq!(
            game.mail(p.by, &subject, &line, at).await,
            Processed::Accepted
        );
        let announced = flat(&game.last_to(0).await);
        assert!(
            announced.contains(&format!("Proposal {number} by {}", PLAYERS[p.by].0)),
            "{announced}"
        );
        special_before_votes(&mut game, number, at).await;
        for (i, v) in p.votes.chars().enumerate() {
            let vote = match v {
                'Y' => "Vote: Yes",
                'N' => "Vote: No",
                _ => continue,
            };
            let subject = format!("Re: {GAME}: Proposal {number} by {}", PLAYERS[p.by].0);
            let got = game
                .mail(i, &subject, vote, at + HOUR + i as i64 * 60)
                .await;
            assert_eq!(got, Processed::Accepted, "{}", game.last_to(i).await);
        }
        special_after_votes(&mut game, number, at).await;
        // The day ends at 24:00 UK time; the tick after it completes the vote.
        let next_day = utc(y, m, d, 23, 30) + HOUR;
        game.tick(next_day).await;
        let result = flat(&game.last_to(0).await);
        let majority = k >= 10;
        let yes = p.votes.chars().filter(|c| *c == 'Y').count();
        let no = p.votes.chars().filter(|c| *c == 'N').count();
        let adopted = match p.change {
            // Nomic 111: a transmutation of an immutable rule needs every eligible vote.
            "transmute 109" => false,
            _ if majority => yes > no,
            _ => no == 0 && yes > 0,
        };
        let word = if adopted { "adopted" } else { "defeated" };
        assert!(
            result.contains(&format!("Proposal {number} {word}")),
            "proposal {number}: {result}"
        );
        if adopted {
            let change = if p.change.starts_with("enact")
                || p.change.starts_with("amend")
                || p.change.starts_with("repeal")
                || p.change.starts_with("renumber")
                || p.change.starts_with("transmute")
                || p.change.starts_with("set")
            {
                p.change
            } else {
                "free"
            };
            model.adopt(change, number);
        }
        model.score(p.by, adopted, p.votes, majority);
        assert_eq!(game.points().await, model.points, "after proposal {number}");
        special_after_result(&mut game, number, next_day).await;
        if number == 320 {
            assert!(
                result.contains("Alex W has won the game (Nomic 210)"),
                "{result}"
            );
        }
    }
    // Nomic 210: the winner at 200, and the game over.
    let points = game.points().await;
    assert!(points["Alex W"] >= 200, "{points:?}");
    assert!(
        points.values().filter(|p| **p >= 200).count() == 1,
        "{points:?}"
    );
    let mut c = game.pool.acquire().await.expect("conn");
    let g = store::game(&mut c, GAME).await.expect("game").expect("row");
    assert_eq!(g.status, store::GameStatus::Finished);
    drop(c);
    // A mail to the game once it is over is answered so.
    let late = utc(2026, 11, 9, 10, 0);
    let got = game
        .mail(0, "n1 proposal", "Rule-change: repeal 301", late)
        .await;
    assert_eq!(got, Processed::Rejected);
    assert!(flat(&game.last_to(0).await).contains("is over"));
}

/// What happens on a proposal's day before its votes.
async fn special_before_votes(game: &mut Game, number: u32, at: Ts) {
    match number {
        // Nomic 202: only the first rule-change of the day is proper; it gets no number.
        301 => {
            let got = game
                .mail(
                    0,
                    "n1 another",
                    r#"Rule-change: enact 399 "Twice.""#,
                    at + 600,
                )
                .await;
            assert_eq!(got, Processed::Rejected);
            let why = flat(&game.last_to(0).await);
            assert!(
                why.contains("submitted on a given day is proper (Nomic 202)"),
                "{why}"
            );
        }
        // Nomic 202, 106: 18:30 GMT on a BST day is 19:30 UK time: too late.
        302 => {
            let late = utc(2026, 10, 13, 18, 30);
            let got = game
                .mail(1, "n1 late", r#"Rule-change: enact 399 "Late.""#, late)
                .await;
            assert_eq!(got, Processed::Rejected);
            let why = flat(&game.last_to(1).await);
            assert!(why.contains("before 19:00 UK time"), "{why}");
            // Nomic 202: not Ben P's day.
            let got = game
                .mail(2, "n1 early", r#"Rule-change: enact 399 "Not my day.""#, at)
                .await;
            assert_eq!(got, Processed::Rejected);
        }
        _ => {}
    }
}

/// What happens on a proposal's day after its votes.
async fn special_after_votes(game: &mut Game, number: u32, at: Ts) {
    // Nomic 214: a Point of Order on proposal 308, its Judge (the previous day's player, Dave
    // M) overruled, the next one back (Chris B) ruling, invoked an hour later.
    if number == 308 {
        point_of_order_overruled(game, at + 2 * HOUR).await;
    }
    if number == 305 {
        // Nomic 113: a second vote is not counted.
        let subject = "Re: n1: Proposal 305 by Alex W";
        let got = game.mail(1, subject, "Vote: No", at + 3 * HOUR).await;
        assert_eq!(got, Processed::Rejected);
        let why = flat(&game.last_to(1).await);
        assert!(
            why.contains("a vote may not be withdrawn (Nomic 113)"),
            "{why}"
        );
    }
}

/// What happens after a proposal's result.
async fn special_after_result(game: &mut Game, number: u32, at: Ts) {
    match number {
        // Nomic 201: Saturday's vote on Friday's proposal is void.
        305 => {
            let saturday = utc(2026, 10, 17, 10, 0);
            let got = game
                .mail(2, "Re: n1: Proposal 305 by Alex W", "Vote: Yes", saturday)
                .await;
            assert_eq!(got, Processed::Rejected);
            let why = flat(&game.last_to(2).await);
            assert!(why.contains("Saturday"), "{why}");
        }
        // Nomic 212: the record, the rules and the points by mail.
        319 => {
            let body = "HISTORY\nRULES\nPOINTS";
            assert_eq!(
                game.mail(0, "n1 record", body, at).await,
                Processed::Accepted
            );
            let rules = flat(&game.mails_to(&address(0), "the rules").await.join("\n"));
            assert!(rules.contains("Rule 490 (mutable)"), "{rules}");
            assert!(!rules.contains("Rule 215 "), "{rules}");
            // Nomic 110: rule 206, amended by Proposal 302, is rule 302, and rule 214's
            // reference to it says so.
            assert!(
                rules.contains("This has precedence over Rule 302."),
                "{rules}"
            );
            assert!(
                rules.contains("Rule 302 (mutable) [Refers to rules 214.]"),
                "{rules}"
            );
            let record = flat(&game.mails_to(&address(0), "the record").await.join("\n"));
            assert!(
                record.contains("rule 317 renumbered 490 by Proposal 318"),
                "{record}"
            );
            assert!(record.contains("PO1 by Chris B"), "{record}");
            let points = flat(&game.mails_to(&address(0), "the points").await.join("\n"));
            assert!(points.contains("Points (Nomic 209)"), "{points}");
        }
        // Nomic 107: the adopted free text, carried out by the GM and confirmed.
        307 => {
            let cmd = GmCommand::ConfirmProposal {
                number: 307,
                done: "the weekly digest is sent on Sundays".into(),
            };
            let done = games::console_command(&game.pool, &env(), GAME, &cmd, at)
                .await
                .expect("confirm");
            assert!(done.ok, "{}", done.answer);
        }
        _ => {}
    }
}

async fn point_of_order_overruled(game: &mut Game, at: Ts) {
    let raise = "Point of Order: Is proposal 308 proper, given rule 202?";
    assert_eq!(
        game.mail(0, "n1 po", raise, at + 1800).await,
        Processed::Accepted
    );
    let raised = flat(&game.last_to(3).await);
    assert!(raised.contains("The Judge is Dave M"), "{raised}");
    let judged = "Judgement: PO1 Proposal 308 is improper.";
    assert_eq!(
        game.mail(1, "n1 po", judged, at + 3600).await,
        Processed::Accepted
    );
    assert_eq!(
        game.mail(3, "n1 po", "Dispute: PO1", at + 4200).await,
        Processed::Accepted
    );
    for (i, t) in [(0, 4500), (4, 4800)] {
        let body = "I disagree with Judgement PO1";
        assert_eq!(
            game.mail(i, "n1 po", body, at + t).await,
            Processed::Accepted
        );
        let counted = flat(&game.last_to(i).await);
        assert!(counted.contains("your opinion on PO1"), "{counted}");
    }
    game.tick(at + 4200 + 3600 + 60).await;
    let overruled = flat(&game.last_to(2).await);
    assert!(overruled.contains("Judge overruled"), "{overruled}");
    assert!(overruled.contains("The Judge is Chris B"), "{overruled}");
    let again = "Judgement: PO1 Proposal 308 is proper.";
    assert_eq!(
        game.mail(0, "n1 po", again, at + 3 * HOUR).await,
        Processed::Accepted
    );
    game.tick(at + 4 * HOUR + 60).await;
    let invoked = flat(&game.last_to(2).await);
    assert!(invoked.contains("Judgement invoked"), "{invoked}");
}
