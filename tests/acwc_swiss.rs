//! Issue 26 (first part): the ACWC office's Swiss by mail, through the engine on a real SQLite
//! file with the clock passed in. Nine entries by mail (ACWC "Player eligibility") with both
//! ratings, the fixed qualifiers (the holder, the runner-up) among them; a bad entry refused;
//! the TD approves each (`APPROVE`); the start publishes round 1 with its transcript (ACWC
//! "Pairing details"); every match's result reported by one player and confirmed by the other,
//! one disputed and ruled by the TD (`RULING`), one left unanswered and standing after 48 hours
//! (ACWC "Match rules"); each next round published as soon as the last is decided (ACWC
//! "Timeline"), its pairing the one `chancery acwc check` finds as the rules give it; after
//! the fifth round, the Swiss's end with the final ranking and the three who proceed with the
//! runner-up (ACWC "Qualification").

#[path = "common/acwc.rs"]
#[allow(dead_code)]
mod acwc;
use acwc::*;

use chancery::acwc::Player;
use chancery::acwc::checker::{Tournament, check};
use chancery::acwc::seeding::{Entrant, FixedQualifiers, Seeding};
use chancery::acwc::swiss::{Match, Outcome, Round};
use chancery::commands::GmCommand;
use chancery::engine::Processed;
use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};
use chancery::store::{self, acwc::StageRow};

/// Every entry by mail, approved by the TD; each approved entrant's secret from their mail.
async fn enter_all(ch: &mut Champ) {
    let at = T0 - 5 * DAY;
    // ACWC Format: a peak below the cut-off rating is no seeding.
    let bad = ch
        .mail("zed", "ACCOUNT zed\nRATING 2000\nPEAK 1900", at)
        .await;
    assert_eq!(bad, Processed::Rejected);
    for (k, (account, cutoff, peak)) in NINE.iter().enumerate() {
        let body = format!("ACCOUNT {account}\nRATING {cutoff}\nPEAK {peak}");
        let got = ch.mail(account, &body, at + k as Ts * 60).await;
        assert_eq!(got, Processed::Accepted, "{account}");
        let ack = ch
            .mails(&address(account), "your entry for")
            .await
            .join("\n");
        assert!(ack.contains("seeding rating"), "{ack}");
        // ACWC Player eligibility: the TD is told of the entry and how to approve it, once.
        let told = ch
            .mails(TD, &format!("entry of {account} to approve"))
            .await;
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0].contains(&format!("APPROVE {account}")), "{told:?}");
    }
    assert!(ch.mails(TD, "entry of zed").await.is_empty());
    let accounts: Vec<&str> = NINE.iter().map(|e| e.0).collect();
    ch.approve_all(&accounts, T0 - DAY).await;
}

/// The Swiss as the checker reads it, from the stored pairings and results.
async fn as_played(ch: &Champ) -> Tournament {
    let mut rounds: Vec<Round> = Vec::new();
    for m in ch.matches().await {
        let k = (m.round - 1) as usize;
        while rounds.len() <= k {
            rounds.push(Round::default());
        }
        match (&m.b, m.score_a, m.score_b) {
            (None, _, _) => rounds[k].bye = Some(Player(m.a.clone())),
            (Some(b), a_s, b_s) => rounds[k].matches.push(Match {
                first: Player(m.a.clone()),
                second: Player(b.clone()),
                outcome: match (a_s, b_s) {
                    (Some(x), Some(y)) if x > y => Some(Outcome::FirstWon),
                    (Some(x), Some(y)) if x == y => Some(Outcome::Tie),
                    (Some(_), Some(_)) => Some(Outcome::SecondWon),
                    _ => None,
                },
            }),
        }
    }
    Tournament {
        entrants: NINE
            .iter()
            .map(|(p, c, k)| Entrant {
                player: Player::new(*p),
                seeding: Seeding {
                    cutoff: *c,
                    peak: *k,
                },
            })
            .collect(),
        fixed: FixedQualifiers {
            to_final: Some(Player::new("arimakat")),
            to_candidates: vec![Player::new("Ogul1")],
        },
        rounds,
    }
}

/// Round `round`'s matches played: the first-named wins 6-4 (the second ties on board 2 of
/// round 2), reported by the first and confirmed by the second; in round 3 board 1's report is
/// disputed and ruled on; in round 4 board 1's report is left unanswered and stands.
async fn play_round(ch: &mut Champ, round: i64, at: Ts) {
    let open: Vec<_> = ch
        .matches()
        .await
        .into_iter()
        .filter(|m| m.round == round && m.b.is_some())
        .collect();
    for m in &open {
        let b = m.b.clone().expect("a pair");
        let score = if round == 2 && m.board == 2 {
            "5-5"
        } else {
            "6-4"
        };
        let got = ch.mail(&m.a, &format!("RESULT {score}"), at).await;
        assert_eq!(got, Processed::Accepted, "{round} {}", m.board);
        match (round, m.board) {
            (3, 1) => {
                assert_eq!(ch.mail(&b, "DISPUTE", at + HOUR).await, Processed::Accepted);
                let told = ch.mails(TD, "disputed").await.join("\n");
                assert!(told.contains("RULING"), "{told}");
                let answer = ch
                    .command(
                        GmCommand::Ruling {
                            account: m.a.clone(),
                            score: "6-4".into(),
                        },
                        at + 2 * HOUR,
                    )
                    .await;
                assert!(answer.contains("ruled"), "{answer}");
            }
            (4, 1) => {}
            _ => {
                assert_eq!(ch.mail(&b, "CONFIRM", at + HOUR).await, Processed::Accepted);
            }
        }
    }
    if round == 4 {
        // ACWC Match rules: unanswered for 48 hours, the report stands.
        games::tick(&ch.pool, &env(), at + 47 * HOUR)
            .await
            .expect("tick");
        assert!(
            ch.matches()
                .await
                .iter()
                .any(|m| m.round == 4 && m.decided_at.is_none())
        );
        games::tick(&ch.pool, &env(), at + 49 * HOUR)
            .await
            .expect("tick");
    }
}

#[tokio::test]
async fn acwc_a_championship_by_mail_from_entries_to_the_champion() {
    let mut ch = open("swiss").await;
    enter_all(&mut ch).await;
    games::start_game_and_tell(&ch.pool, &env(), GAME, T0)
        .await
        .expect("start");
    // Seven in the Swiss (the holder and the runner-up skip it): 5 rounds, a bye each.
    let first = ch
        .mails(&address("alice"), "Swiss round 1 pairings")
        .await
        .join("\n");
    assert!(first.contains("the ranking"), "{first}");
    assert!(first.contains("has the bye"), "{first}");
    assert!(!first.contains("arimakat v"), "{first}");
    for round in 1..=5 {
        play_round(&mut ch, round, T0 + (round - 1) * 7 * DAY + DAY).await;
        // ACWC Timeline: the next round is out as soon as every match is decided, and the
        // pairings are the rules' own.
        let report = check(&as_played(&ch).await).expect("checks");
        assert!(report.agrees(), "{:?}", report.discrepancies);
        if round < 5 {
            let next = format!("Swiss round {} pairings", round + 1);
            assert_eq!(ch.mails(&address("bob"), &next).await.len(), 1, "{next}");
        }
    }
    let end = ch
        .mails(&address("carol"), "the Swiss is over")
        .await
        .join("\n");
    assert!(end.contains("after 5 rounds"), "{end}");
    assert!(end.contains("Ogul1 (the previous runner-up"), "{end}");
    candidates_and_final(&mut ch).await;
}

/// The open match of `round` of `stage` that `account` plays: (first-named, second-named).
async fn pair_of(ch: &Champ, stage: StageRow, round: i64) -> Vec<(String, String)> {
    let mut c = ch.pool.acquire().await.expect("conn");
    store::acwc::matches(&mut c, GAME, stage)
        .await
        .expect("matches")
        .into_iter()
        .filter(|m| m.round == round && m.decided_at.is_none())
        .map(|m| (m.a.clone(), m.b.clone().expect("a pair")))
        .collect()
}

/// A match's result reported by its first-named player and confirmed by the other.
async fn result(ch: &mut Champ, a: &str, b: &str, score: &str, at: Ts) {
    let got = ch.mail(a, &format!("RESULT {score}"), at).await;
    assert_eq!(
        got,
        Processed::Accepted,
        "{a} {score}: {:?}",
        ch.mails(&address(a), "Not accepted").await.last()
    );
    assert_eq!(ch.mail(b, "CONFIRM", at + 60).await, Processed::Accepted);
}

/// ACWC "Candidates": three rounds of the Berger table, ten games a match (a match stopped at
/// 5.5 is refused); "Final": the holder and the Challenger level through 30 games, sealed
/// bids (the lower plays White), and the Armageddon's draw goes to Black.
async fn candidates_and_final(ch: &mut Champ) {
    let mut at = T0 + 40 * DAY;
    for round in 1..=3 {
        let title = format!("Candidates round {round} pairings");
        assert_eq!(
            ch.mails(&address("Ogul1"), &title).await.len(),
            1,
            "{title}"
        );
        for (a, b) in pair_of(ch, StageRow::Candidates, round).await {
            if round == 1 {
                // ACWC Candidates: "not allowed to stop the match once either player reaches 5.5".
                assert_eq!(ch.mail(&a, "RESULT 5.5-0.5", at).await, Processed::Rejected);
            }
            result(ch, &a, &b, "6-4", at).await;
        }
        at += 7 * DAY;
    }
    let first = ch
        .mails(&address("arimakat"), "The Final, games 1-12")
        .await
        .join("\n");
    assert!(first.contains("arimakat v"), "{first}");
    // Level after every block: 6-6, then 1-1 to game 30.
    let mut block = 1;
    loop {
        let pairs = pair_of(ch, StageRow::Final, block).await;
        let Some((a, b)) = pairs.first().cloned() else {
            break;
        };
        if ch.mails(&address(&a), "Armageddon pairings").await.len() == 1 {
            break;
        }
        let score = if block == 1 { "6-6" } else { "1-1" };
        result(ch, &a, &b, score, at).await;
        block += 1;
        at += HOUR;
    }
    assert_eq!(
        block, 11,
        "block 1: 12 games, blocks 2-10: two each to game 30, block 11: the Armageddon"
    );
    let (holder, challenger) = pair_of(ch, StageRow::Final, block).await[0].clone();
    // Sealed bids: the first is told only to its bidder.
    assert_eq!(ch.mail(&holder, "BID 100", at).await, Processed::Accepted);
    let sealed = ch.mails(&address(&challenger), "bid").await.join("\n");
    assert!(!sealed.contains("100"), "{sealed}");
    assert_eq!(
        ch.mail(&holder, "BID 90", at + 60).await,
        Processed::Rejected
    );
    assert_eq!(
        ch.mail(&challenger, "BID 120", at + 120).await,
        Processed::Accepted
    );
    let revealed = ch
        .mails(&address(&challenger), "the bids revealed")
        .await
        .join(" ");
    let revealed = revealed.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        revealed.contains(&format!("{holder} plays White with 100 seconds")),
        "{revealed}"
    );
    // The Armageddon drawn: Black (the challenger) wins.
    result(ch, &holder, &challenger, "0.5-0.5", at + HOUR).await;
    let champion = ch.mails(&address(&holder), "the champion").await.join(" ");
    let champion = champion.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        champion.contains(&format!(
            "{challenger} wins the Final after 31 games (the Armageddon)"
        )),
        "{champion}"
    );
    let mut c = ch.pool.acquire().await.expect("conn");
    let g = store::game(&mut c, GAME).await.expect("q").expect("game");
    assert_eq!(g.status, store::GameStatus::Finished);
}
