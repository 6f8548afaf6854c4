//! The Agora Birthday Tournament's regulations in a game (issue 24, points 2 and 3), through
//! the engine on a real SQLite file: the rulebook enacted at the start as the game's rule set
//! (Agora BT5, BT8), proposals, withdrawals and private votes by order mail, a proposal enacted
//! the moment its votes in favour exceed half the contestants and published with the counts
//! and never a voter (BT8), BT0-BT5 out of a proposal's reach (BT5), a setting enacted after
//! the ordering period holding only once the turn is adjudicated (BT15), the Gamemaster's own
//! amendment and confirmation (BT2, BT8).

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::commands::GmCommand;
use chancery::engine::Processed;
use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};
use chancery::ruleset::Mutability;
use chancery::store;
use chancery::store::Pool;
use sqlx::Row;

/// An agora2020 game, started at T0 (`options` changed from the preset): its pool and the
/// players' secrets.
async fn agora(name: &str, options: &[(&str, &str)]) -> (Pool, Vec<String>) {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(o, v)| (o.to_string(), v.to_string()))
        .collect();
    let (pool, secrets) = game_with(name, "ag1", "agora2020", &options).await;
    games::start_game(&pool, "ag1", T0).await.expect("start");
    (pool, secrets)
}

/// Player `i`'s mail in S1901M with `body`, arriving at `at`: what became of it.
async fn mail(
    pool: &Pool,
    secrets: &[String],
    uid: u32,
    i: usize,
    body: &str,
    at: Ts,
) -> Processed {
    let raw = raw(
        &player(i),
        "gm@example.test",
        &format!("ag1 {} S1901M", POWERS[i]),
        &format!("Message-ID: <a{uid}@x.test>\r\n"),
        &format!("SECRET {}\n{body}\n", secrets[i]),
    );
    deliver(pool, "gm", uid, &raw, Some(at), at).await
}

/// Every outbox row: (kind, to, subject, body, message_id, in_reply_to, refs).
async fn rows(pool: &Pool) -> Vec<[String; 7]> {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query(
        "SELECT kind, to_address, subject, body, message_id, coalesce(in_reply_to, ''), refs
         FROM outbox ORDER BY id",
    )
    .fetch_all(&mut *c)
    .await
    .expect("outbox")
    .iter()
    .map(|r| std::array::from_fn(|k| flat(&r.get::<String, _>(k))))
    .collect()
}

/// A mail's text with its wrapping and quote marks undone, for reading sentences in it.
fn flat(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "|")
        .collect::<Vec<_>>()
        .join(" ")
}

/// The last acknowledgement (or refusal) sent to player `i`.
async fn answer_to(pool: &Pool, i: usize) -> String {
    rows(pool)
        .await
        .into_iter()
        .rev()
        .find(|r| r[1] == player(i) && (r[0] == "ack" || r[0] == "rejection"))
        .map(|r| r[3].clone())
        .unwrap_or_else(|| panic!("no answer to {}", player(i)))
}

/// The full hour after `at`, when the tick counts again the proposals a vote brought over their
/// threshold, and enacts those that still pass (Agora BT8: never as the deciding vote arrives).
fn the_hour_after(at: Ts) -> Ts {
    (at / HOUR + 1) * HOUR
}

/// The tick at the full hour after `at`: what passed is enacted.
async fn on_the_hour(pool: &Pool, at: Ts) -> Ts {
    let hour = the_hour_after(at);
    games::tick(pool, &env(), hour).await.expect("tick");
    hour
}

async fn regulation_text(pool: &Pool, number: u32, at: Ts) -> Option<Vec<String>> {
    let mut c = pool.acquire().await.expect("conn");
    let set = store::rule_set(&mut c, "ag1").await.expect("rules");
    set.as_of(at).get(&number).map(|r| r.text.clone())
}

async fn deadline(pool: &Pool) -> store::PhaseRow {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, "ag1")
        .await
        .expect("phase")
        .expect("open")
}

async fn rules(pool: &Pool) -> chancery::rules::Rules {
    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, "ag1").await.expect("q").expect("game");
    serde_json::from_str(&g.rules).expect("rules")
}

#[tokio::test]
async fn agora_bt5_bt8_the_regulations_are_enacted_at_the_start_and_read_back_as_of_any_moment() {
    let (pool, _) = agora("agora-start", &[]).await;
    let mut c = pool.acquire().await.expect("conn");
    let set = store::rule_set(&mut c, "ag1").await.expect("rules");
    assert_eq!(set.revisions().len(), 26);
    assert!(
        set.revisions()
            .iter()
            .all(|r| r.proposal.is_none() && r.at == T0)
    );
    assert!(set.as_of(T0 - 1).is_empty(), "nothing before the start");
    let now = set.as_of(T0);
    assert_eq!(
        now.keys().copied().collect::<Vec<u32>>(),
        (0..=25).collect::<Vec<u32>>()
    );
    for (n, r) in &now {
        assert_eq!(
            r.mutability == Mutability::Immutable,
            *n <= 5,
            "Agora BT5: BT{n}"
        );
    }
    assert!(now[&8].text[0].contains("greater than half the number of Contestants"));
}

#[tokio::test]
async fn agora_bt8_a_proposal_passes_when_votes_for_exceed_half() {
    let (pool, s) = agora("agora-passes", &[]).await;
    let at = T0 + 3600;
    // France (2) proposes; seven contestants: four votes in favour are needed.
    let proposed = "PROPOSE AMEND BT17 \"There are four possible orders.\n\nNot giving a unit an order is a hold.\"";
    assert_eq!(
        mail(&pool, &s, 1, 2, proposed, at).await,
        Processed::Accepted
    );
    let ack = answer_to(&pool, 2).await;
    assert!(ack.contains("submitted as Proposal 1"), "{ack}");
    let announced = rows(&pool).await;
    assert!(
        announced
            .iter()
            .any(|r| r[0] == "announcement" && r[1] == player(0) && r[3].contains("VOTE 1 FOR")),
        "every contestant hears of the proposal"
    );
    // England and Italy for, Germany against, Russia for: three of seven, not enacted.
    for (uid, i, vote) in [
        (2, 1, "FOR"),
        (3, 4, "FOR"),
        (4, 3, "AGAINST"),
        (5, 5, "FOR"),
    ] {
        mail(&pool, &s, uid, i, &format!("VOTE 1 {vote}"), at + 60).await;
    }
    assert!(
        answer_to(&pool, 3)
            .await
            .contains("your vote AGAINST on Proposal 1: recorded")
    );
    assert_eq!(
        regulation_text(&pool, 17, at + 60).await.map(|t| t.len()),
        Some(1)
    );
    // The proposer may not vote on it (BT8: "any Contestant other than the Proposer").
    mail(&pool, &s, 6, 2, "VOTE 1 FOR", at + 90).await;
    assert!(
        answer_to(&pool, 2)
            .await
            .contains("you may not vote on your own proposal")
    );
    // Germany changes its vote: the later ballot replaces the earlier one. The fourth vote in
    // favour carries it, and the tick enacts it at the next full hour, not as the vote arrives
    // (the enactment's time must not tell whose vote decided it).
    mail(&pool, &s, 7, 3, "VOTE 1 FOR", at + 120).await;
    let ack = answer_to(&pool, 3).await;
    assert!(ack.contains("in place of your earlier vote"), "{ack}");
    assert!(
        ack.contains("Proposal 1 is carried: it is enacted at"),
        "{ack}"
    );
    assert_eq!(
        regulation_text(&pool, 17, at + 120).await.map(|t| t.len()),
        Some(1),
        "not yet"
    );
    assert!(
        !rows(&pool)
            .await
            .iter()
            .any(|r| r[2].contains("Proposal 1 is enacted"))
    );
    let hour = on_the_hour(&pool, at + 120).await;
    let new = regulation_text(&pool, 17, hour).await.expect("BT17");
    assert_eq!(
        new,
        vec![
            "There are four possible orders.".to_string(),
            "Not giving a unit an order is a hold.".to_string()
        ]
    );
    let old = regulation_text(&pool, 17, hour - 1)
        .await
        .expect("BT17 before");
    assert!(old[0].starts_with("There are four possible orders: Hold, Move"));
    let mut c = pool.acquire().await.expect("conn");
    let set = store::rule_set(&mut c, "ag1").await.expect("rules");
    assert_eq!(set.revisions().last().map(|r| r.proposal), Some(Some(1)));
    // Published to every contestant and master: the new text, the counts, no voter.
    let enacted: Vec<[String; 7]> = rows(&pool)
        .await
        .into_iter()
        .filter(|r| r[2].contains("Proposal 1 is enacted"))
        .collect();
    assert!(enacted.len() >= 7, "{enacted:?}");
    for r in &enacted {
        assert!(
            r[3].contains("4 vote(s) in favour and 0 against (Agora BT8)"),
            "{}",
            r[3]
        );
        assert!(
            r[3].contains("Not giving a unit an order is a hold."),
            "{}",
            r[3]
        );
    }
    // A vote after it is enacted changes nothing.
    mail(&pool, &s, 8, 6, "VOTE 1 AGAINST", hour + 60).await;
    assert!(
        answer_to(&pool, 6)
            .await
            .contains("refused: the vote on this proposal is closed")
    );
}

#[tokio::test]
async fn agora_bt8_a_withdrawn_vote_no_longer_counts_and_only_the_proposer_withdraws() {
    let (pool, s) = agora("agora-withdrawn", &[]).await;
    let at = T0 + 3600;
    mail(&pool, &s, 1, 0, "PROPOSE REPEAL BT10", at).await;
    for (uid, i) in [(2, 1), (3, 2), (4, 3)] {
        mail(&pool, &s, uid, i, "VOTE 1 FOR", at + 10).await;
    }
    // England withdraws its vote: three for, one withdrawn; Italy's vote makes three again.
    mail(&pool, &s, 5, 1, "VOTE 1 WITHDRAW", at + 20).await;
    assert!(
        answer_to(&pool, 1)
            .await
            .contains("withdrawn: it no longer counts")
    );
    mail(&pool, &s, 6, 4, "VOTE 1 FOR", at + 30).await;
    assert!(
        regulation_text(&pool, 10, at + 30).await.is_some(),
        "3 of 7: not enacted"
    );
    // Only its proposer withdraws a proposal (BT8).
    mail(&pool, &s, 7, 5, "WITHDRAW PROPOSAL 1", at + 40).await;
    assert!(
        answer_to(&pool, 5)
            .await
            .contains("only its proposer may withdraw")
    );
    mail(&pool, &s, 8, 0, "WITHDRAW PROPOSAL 1", at + 50).await;
    assert!(
        answer_to(&pool, 0)
            .await
            .contains("Proposal 1 is withdrawn")
    );
    mail(&pool, &s, 9, 1, "VOTE 1 FOR", at + 60).await;
    assert!(
        answer_to(&pool, 1)
            .await
            .contains("refused: this proposal was withdrawn")
    );
    assert!(
        regulation_text(&pool, 10, at + 60).await.is_some(),
        "never enacted"
    );
}

#[tokio::test]
async fn agora_bt5_a_proposal_to_amend_or_repeal_bt0_to_bt5_is_refused_with_the_clause() {
    let (pool, s) = agora("agora-bt5", &[]).await;
    let at = T0 + 3600;
    mail(
        &pool,
        &s,
        1,
        0,
        "PROPOSE AMEND BT5 \"Anything goes.\"\nPROPOSE REPEAL BT0",
        at,
    )
    .await;
    let ack = answer_to(&pool, 0).await;
    assert_eq!(ack.matches("Agora BT5").count(), 2, "{ack}");
    let mut c = pool.acquire().await.expect("conn");
    assert_eq!(
        store::last_proposal_number(&mut c, "ag1").await.expect("q"),
        None
    );
    // The Gamemaster may (BT2, and BT5: "according to the procedures established by Section
    // 2"): a revision of no proposal, noted as the GM's.
    let e = env();
    let cmd = GmCommand::AmendRule {
        rule: "BT5".into(),
        text: "Sections 0 to 5 are amended only by the Gamemaster.".into(),
    };
    let done = games::console_command(&pool, &e, "ag1", &cmd, at + 60)
        .await
        .expect("amend");
    assert!(done.ok, "{}", done.answer);
    let set = store::rule_set(&mut c, "ag1").await.expect("rules");
    let bt5 = &set.current()[&5];
    assert_eq!(
        bt5.text,
        vec!["Sections 0 to 5 are amended only by the Gamemaster."]
    );
    assert_eq!(
        bt5.mutability,
        Mutability::Immutable,
        "still beyond a proposal"
    );
    let authors = store::revision_authors(&mut c, "ag1")
        .await
        .expect("authors");
    assert_eq!(
        authors.len(),
        3,
        "made mutable, amended, made immutable: {authors:?}"
    );
    assert!(
        set.revisions()
            .iter()
            .rev()
            .take(3)
            .all(|r| r.proposal.is_none())
    );
    assert!(
        rows(&pool)
            .await
            .iter()
            .any(|r| r[1] == player(3) && r[2].contains("the Gamemaster amends BT5")),
        "published"
    );
}

#[tokio::test]
async fn agora_bt8_a_free_text_proposal_is_an_open_item_until_the_gm_confirms_it() {
    let (pool, s) = agora("agora-text", &[]).await;
    let at = T0 + 3600;
    mail(
        &pool,
        &s,
        1,
        0,
        "PROPOSE TEXT \"The Judge SHALL award a badge to every Contestant.\"",
        at,
    )
    .await;
    mail(&pool, &s, 2, 1, "PROPOSE SET civil_disorder hold", at).await;
    assert!(
        answer_to(&pool, 1)
            .await
            .contains("not a setting a proposal may change")
    );
    for (uid, i) in [(3, 1), (4, 2), (5, 3), (6, 4)] {
        mail(&pool, &s, uid, i, "VOTE 1 FOR", at + 10).await;
    }
    let hour = on_the_hour(&pool, at + 10).await;
    assert_eq!(
        regulation_text(&pool, 26, hour).await,
        Some(vec![
            "The Judge SHALL award a badge to every Contestant.".to_string()
        ]),
        "recorded as text, the next regulation"
    );
    let summary = |uid: u32| {
        raw(
            &player(0),
            "gm@example.test",
            "ag1 SUMMARY",
            &format!("Message-ID: <s{uid}@x.test>\r\n"),
            &format!("SECRET {}\n", s[0]),
        )
    };
    deliver(&pool, "gm", 100, &summary(100), Some(at + 20), at + 20).await;
    let listed = rows(&pool)
        .await
        .into_iter()
        .rev()
        .find(|r| r[0] == "query-reply")
        .expect("summary");
    assert!(
        listed[3].contains("to be carried out and confirmed by the Gamemaster: Proposal 1"),
        "{}",
        listed[3]
    );
    assert!(
        listed[3].contains("BT26 enacted by Proposal 1"),
        "{}",
        listed[3]
    );
    // The masters' digest before the deadline lists it as waiting for them (Agora BT8).
    let d = deadline(&pool).await.deadline - 12 * HOUR;
    games::tick(&pool, &env(), d).await.expect("tick");
    let digest = rows(&pool)
        .await
        .into_iter()
        .find(|r| r[0] == "digest")
        .expect("the masters' digest");
    assert!(
        digest[3].contains("Waiting for you: - Proposal 1")
            && digest[3].contains("CONFIRM PROPOSAL 1"),
        "{}",
        digest[3]
    );
    let cmd = GmCommand::ConfirmProposal {
        number: 1,
        done: "badges promised to all".into(),
    };
    let done = games::console_command(&pool, &env(), "ag1", &cmd, d + 60)
        .await
        .expect("confirm");
    assert!(done.ok, "{}", done.answer);
    let again = games::console_command(&pool, &env(), "ag1", &cmd, d + 120)
        .await
        .expect("again");
    assert!(!again.ok, "{}", again.answer);
    deliver(&pool, "gm", 101, &summary(101), Some(d + 180), d + 180).await;
    let listed = rows(&pool)
        .await
        .into_iter()
        .rev()
        .find(|r| r[0] == "query-reply")
        .expect("summary");
    assert!(
        !listed[3].contains("confirmed by the Gamemaster: Proposal 1"),
        "{}",
        listed[3]
    );
}

#[tokio::test]
async fn agora_bt15_a_setting_enacted_after_the_deadline_holds_from_the_next_turn_only() {
    let e = env();
    for (name, late) in [("agora-set-early", false), ("agora-set-late", true)] {
        let (pool, s) = agora(name, &[("utc_turns", "false")]).await;
        let spring = deadline(&pool).await;
        let days = |r: &store::PhaseRow| (r.deadline - r.started_at) / DAY;
        assert_eq!(days(&spring), 3);
        mail(&pool, &s, 1, 0, "PROPOSE SET movement_days 5", T0 + 60).await;
        let at = if late { spring.deadline + 60 } else { T0 + 120 };
        for (uid, i) in [(2, 1), (3, 2), (4, 3), (5, 4)] {
            // Agora BT8: a vote at any time; after the deadline the orders are refused, the
            // vote is not.
            mail(&pool, &s, uid, i, "VOTE 1 FOR", at).await;
        }
        // Enacted by the tick at the next full hour (Agora BT8): before the deadline when the
        // votes came early, after the turn is adjudicated when they came late.
        if !late {
            on_the_hour(&pool, at).await;
        }
        assert_eq!(
            rules(&pool).await.movement_days,
            if late { 3 } else { 5 },
            "{name}"
        );
        assert_eq!(
            games::tick(&pool, &e, at.max(spring.deadline))
                .await
                .expect("tick"),
            1
        );
        if late {
            on_the_hour(&pool, at).await;
        }
        assert!(
            rows(&pool)
                .await
                .iter()
                .any(|r| r[2].contains("Proposal 1 is enacted")),
            "{name}: published"
        );
        let fall = deadline(&pool).await;
        assert_eq!(fall.phase, "F1901M");
        // Adjudicated under the regulations as they were at the end of the ordering period:
        // the setting enacted after it holds from then on, not in that resolution.
        assert_eq!(days(&fall), if late { 3 } else { 5 }, "{name}");
        assert_eq!(rules(&pool).await.movement_days, 5, "{name}: holds now");
    }
}

/// Agora BT8: "The Judge SHALL NOT reveal the votes of specific Contestants": no mail but a
/// voter's own acknowledgement says how anyone voted, and nothing in any mail (subject, body,
/// headers) puts a voter's power or address beside a vote.
#[tokio::test]
async fn agora_bt8_no_mail_reveals_who_voted_how() {
    let (pool, s) = agora("agora-secret", &[]).await;
    let at = T0 + 3600;
    mail(
        &pool,
        &s,
        1,
        0,
        "PROPOSE ENACT BT26 \"Contestants SHALL be polite.\"",
        at,
    )
    .await;
    let votes = [
        (1, "FOR"),
        (2, "AGAINST"),
        (3, "FOR"),
        (4, "FOR"),
        (2, "FOR"),
        (5, "FOR"),
    ];
    for (k, (i, vote)) in votes.iter().enumerate() {
        mail(
            &pool,
            &s,
            10 + k as u32,
            *i,
            &format!("VOTE 1 {vote}"),
            at + 10 * k as Ts,
        )
        .await;
    }
    let hour = on_the_hour(&pool, at + 50).await;
    assert!(regulation_text(&pool, 26, hour).await.is_some(), "enacted");
    let voters: Vec<usize> = vec![1, 2, 3, 4, 5];
    for r in rows(&pool).await {
        let [kind, to, subject, body, id, in_reply_to, refs] = &r;
        let own = voters.iter().find(|i| player(**i) == *to);
        let mentions_vote = |text: &str| {
            let t = text.to_ascii_uppercase();
            t.contains("VOTE 1 FOR") || t.contains("VOTE 1 AGAINST") || t.contains("YOUR VOTE")
        };
        if kind == "ack" && own.is_some() {
            // The voter's own acknowledgement: their vote, and nobody else's power.
            for other in voters.iter().filter(|i| Some(*i) != own) {
                assert!(
                    !body.contains(POWERS[*other]),
                    "{to} hears of {}: {body}",
                    POWERS[*other]
                );
            }
            continue;
        }
        for (i, power) in POWERS
            .iter()
            .enumerate()
            .filter(|(i, _)| voters.contains(i))
        {
            for field in [subject, body, id, in_reply_to, refs] {
                assert!(
                    !field.contains(&player(i)),
                    "{kind} to {to} names {}",
                    player(i)
                );
                assert!(
                    !field.contains(power),
                    "{kind} to {to} names {power}: {field}"
                );
            }
        }
        if kind != "announcement" {
            continue;
        }
        // The announcements say what was proposed and the counts, never a ballot.
        assert!(
            !(mentions_vote(body) && body.contains("your vote")),
            "{body}"
        );
        assert!(!body.contains("recorded"), "{body}");
    }
    let published: Vec<[String; 7]> = rows(&pool)
        .await
        .into_iter()
        .filter(|r| r[2].contains("Proposal 1 is enacted"))
        .collect();
    assert!(!published.is_empty());
    for r in &published {
        assert!(
            r[3].contains("4 vote(s) in favour and 0 against"),
            "{}",
            r[3]
        );
        assert!(
            r[5].is_empty(),
            "not a reply to the mail that cast the last vote"
        );
    }
}

/// Agora BT8: a proposal is carried the moment its non-withdrawn votes in favour exceed half
/// the contestants: from then on its ballots stand (a vote withdrawn after it is refused), and
/// the Judge enacts it at the next full hour, so that the time of the enactment does not tell
/// whose vote carried it.
#[tokio::test]
async fn agora_bt8_a_carried_proposal_is_enacted_on_the_hour_and_its_ballots_stand() {
    let (pool, s) = agora("agora-carried", &[]).await;
    let at = T0 + 3600;
    mail(&pool, &s, 1, 0, "PROPOSE REPEAL BT10", at).await;
    for (uid, i) in [(2, 1), (3, 2), (4, 3), (5, 4)] {
        mail(&pool, &s, uid, i, "VOTE 1 FOR", at + 10).await;
    }
    mail(&pool, &s, 6, 4, "VOTE 1 WITHDRAW", at + 20).await;
    assert!(
        answer_to(&pool, 4)
            .await
            .contains("refused: the vote on this proposal is closed")
    );
    assert!(
        regulation_text(&pool, 10, at + 20).await.is_some(),
        "not yet"
    );
    let hour = on_the_hour(&pool, at + 20).await;
    assert!(
        regulation_text(&pool, 10, hour).await.is_none(),
        "BT10 repealed"
    );
    let published: Vec<[String; 7]> = rows(&pool)
        .await
        .into_iter()
        .filter(|r| r[2].contains("Proposal 1 is enacted"))
        .collect();
    assert!(published.len() >= 7, "{published:?}");
}
