//! The office's storage on a real SQLite file (issue 23): proposals and their secret ballots
//! (`src/store/ballots.rs`), a rule set's dated revisions (`src/store/rulesets.rs`).

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;

use chancery::ballot::{
    Choice, Counts, Disclosure, Outcome, Poll, Proposal, Recorded, Refused, Revision, Threshold,
    VoterId, VotingRule,
};
use chancery::policy::Ts;
use chancery::ruleset::{Change, Mutability, RuleSet, read_initial_set};
use chancery::store::Conn;
use chancery::store::{self, Cast, ProposalKind, StoreError, Withdrawal};
use fixtures::T0;

const HOUR: Ts = 3600;
const GAME: &str = "nomic1";

fn v(name: &str) -> VoterId {
    VoterId::new(name)
}

/// A proposal of `GAME` voted on by the seven powers of the fixtures' game.
fn proposal(number: u32, rule: VotingRule, closes: Option<Ts>) -> Poll<serde_json::Value> {
    Poll::new(Proposal {
        number,
        payload: serde_json::json!({"amend": 203, "text": ["Points: 10 a proposal."]}),
        electorate: fixtures::POWERS.iter().map(|p| v(p)).collect(),
        rule,
        opens: T0,
        closes,
    })
    .expect("a proposal")
}

async fn ballots_kept(c: &mut Conn) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM office_ballots")
        .fetch_one(&mut *c)
        .await
        .expect("count")
}

async fn cast(c: &mut Conn, number: i64, who: &str, choice: Choice, at: Ts) -> Cast {
    store::cast_ballot(c, GAME, number, &v(who), choice, at)
        .await
        .expect("cast")
}

#[tokio::test]
async fn nomic_113_204_proposals_and_ballots_are_kept_and_counted_in_secret() {
    let dir = std::env::temp_dir().join(format!("chancery-office-{}-ballots", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("chancery.sqlite");
    let pool = fixtures::setup_at(&path, &[GAME]).await;
    let mut c = pool.acquire().await.expect("conn");
    let closes = T0 + 12 * HOUR;
    // Nomic rule 204 after two circuits: a simple majority of the votes cast; rule 113: a vote
    // may not be changed; rule 203: the counts are needed.
    let rule = VotingRule {
        threshold: Threshold::SimpleMajority,
        revision: Revision::Final,
        disclosure: Disclosure::Counts,
    };
    assert_eq!(
        store::last_proposal_number(&mut c, GAME)
            .await
            .expect("max"),
        None
    );
    let poll = proposal(301, rule, Some(closes));
    store::insert_proposal(
        &mut c,
        GAME,
        ProposalKind::RuleChange,
        Some(&v("FRANCE")),
        &poll,
        T0,
    )
    .await
    .expect("kept");
    assert!(
        store::insert_proposal(&mut c, GAME, ProposalKind::RuleChange, None, &poll, T0)
            .await
            .is_err(),
        "one proposal 301 a game (Nomic rule 109)"
    );
    assert_eq!(
        store::last_proposal_number(&mut c, GAME)
            .await
            .expect("max"),
        Some(301)
    );

    assert_eq!(
        cast(&mut c, 301, "FRANCE", Choice::Yes, T0 + 1).await,
        Cast::Recorded(Recorded::First)
    );
    assert_eq!(
        cast(&mut c, 301, "FRANCE", Choice::No, T0 + 2).await,
        Cast::Refused(Refused::AlreadyVoted),
        "Nomic rule 113: a vote may not be withdrawn"
    );
    assert_eq!(
        cast(&mut c, 301, "NARNIA", Choice::Yes, T0 + 3).await,
        Cast::Refused(Refused::NotEntitled)
    );
    assert_eq!(
        cast(&mut c, 302, "FRANCE", Choice::Yes, T0 + 3).await,
        Cast::NoSuchProposal
    );
    assert_eq!(
        ballots_kept(&mut c).await,
        1,
        "a refused ballot writes nothing"
    );
    for (who, choice) in [
        ("ENGLAND", Choice::Yes),
        ("ITALY", Choice::No),
        ("RUSSIA", Choice::Abstain),
    ] {
        assert_eq!(
            cast(&mut c, 301, who, choice, T0 + 10).await,
            Cast::Recorded(Recorded::First)
        );
    }
    assert_eq!(
        cast(&mut c, 301, "TURKEY", Choice::No, closes).await,
        Cast::Refused(Refused::Closed),
        "Nomic rule 113: voting is completed at the end of the day"
    );
    assert_eq!(ballots_kept(&mut c).await, 4);

    // Due once closed; acted on once.
    assert!(
        store::proposals_due(&mut c, closes - 1, 10)
            .await
            .expect("due")
            .is_empty()
    );
    let due = store::proposals_due(&mut c, closes, 10).await.expect("due");
    assert_eq!(due.len(), 1);
    assert_eq!(
        (due[0].number, due[0].kind),
        (301, ProposalKind::RuleChange)
    );
    assert_eq!(due[0].proposer.as_deref(), Some("FRANCE"));
    let (_, poll) = store::poll(&mut c, GAME, 301)
        .await
        .expect("poll")
        .expect("301");
    assert_eq!(
        poll.outcome(closes),
        Outcome::Closed {
            passed: true,
            counts: Some(Counts { yes: 2, no: 1 })
        }
    );
    assert!(
        store::record_decision(&mut c, due[0].id, true, closes)
            .await
            .expect("decided")
    );
    assert!(
        !store::record_decision(&mut c, due[0].id, false, closes)
            .await
            .expect("once")
    );
    assert!(
        store::proposals_due(&mut c, closes, 10)
            .await
            .expect("due")
            .is_empty()
    );
    drop(c);
    drop(pool);

    // Reopened: the same count.
    let pool = fixtures::database::open(&path).await;
    let mut c = pool.acquire().await.expect("conn");
    let (row, poll) = store::poll(&mut c, GAME, 301)
        .await
        .expect("poll")
        .expect("301");
    assert_eq!((row.decided_at, row.passed), (Some(closes), Some(true)));
    assert_eq!(
        poll.outcome(closes + HOUR),
        Outcome::Closed {
            passed: true,
            counts: Some(Counts { yes: 2, no: 1 })
        }
    );
    assert!(
        store::poll(&mut c, GAME, 302)
            .await
            .expect("poll")
            .is_none()
    );
}

#[tokio::test]
async fn wm_ix_2_a_revised_ballot_replaces_the_kept_one_and_agora_bt8_withdraws() {
    let pool = fixtures::setup("office-revised", &[GAME]).await;
    let mut c = pool.acquire().await.expect("conn");
    let closes = T0 + 24 * HOUR;
    let wm = VotingRule {
        threshold: Threshold::Unanimity,
        revision: Revision::Replaces,
        disclosure: Disclosure::Outcome,
    };
    store::insert_proposal(
        &mut c,
        GAME,
        ProposalKind::Draw,
        None,
        &proposal(1, wm, Some(closes)),
        T0,
    )
    .await
    .expect("kept");
    assert_eq!(
        cast(&mut c, 1, "FRANCE", Choice::No, T0 + 1).await,
        Cast::Recorded(Recorded::First)
    );
    for (i, p) in fixtures::POWERS.iter().enumerate() {
        let expected = if *p == "FRANCE" {
            Recorded::Replaced
        } else {
            Recorded::First
        };
        assert_eq!(
            cast(&mut c, 1, p, Choice::Yes, T0 + 2 + i as Ts).await,
            Cast::Recorded(expected),
            "{p}"
        );
    }
    assert_eq!(
        ballots_kept(&mut c).await,
        7,
        "one row a voter: France's no is gone"
    );
    let (_, poll) = store::poll(&mut c, GAME, 1)
        .await
        .expect("poll")
        .expect("1");
    assert_eq!(
        poll.outcome(T0 + HOUR),
        Outcome::Open,
        "any ballot may still be revised"
    );
    assert_eq!(
        poll.outcome(closes),
        Outcome::Closed {
            passed: true,
            counts: None
        },
        "WM IX(2): no totals"
    );

    // Agora BT8: open until it passes (no closing time), withdrawn by its proposer.
    let bt8 = VotingRule {
        threshold: Threshold::MoreThanHalf { of: 8 },
        revision: Revision::Replaces,
        disclosure: Disclosure::Counts,
    };
    store::insert_proposal(
        &mut c,
        GAME,
        ProposalKind::RuleChange,
        None,
        &proposal(2, bt8, None),
        T0,
    )
    .await
    .expect("kept");
    assert_eq!(
        cast(&mut c, 2, "ITALY", Choice::Yes, T0 + 5).await,
        Cast::Recorded(Recorded::First)
    );
    let due = store::proposals_due(&mut c, T0 + 100 * HOUR, 10)
        .await
        .expect("due");
    assert_eq!(
        due.iter().map(|p| p.number).collect::<Vec<_>>(),
        vec![1],
        "the draw is due at its deadline; BT8's proposal has none"
    );
    assert_eq!(
        store::withdraw_proposal(&mut c, GAME, 2, T0 + 6)
            .await
            .expect("withdraw"),
        Withdrawal::Withdrawn
    );
    assert_eq!(
        store::withdraw_proposal(&mut c, GAME, 2, T0 + 7)
            .await
            .expect("withdraw"),
        Withdrawal::Refused(Refused::Withdrawn)
    );
    assert_eq!(
        store::withdraw_proposal(&mut c, GAME, 9, T0 + 7)
            .await
            .expect("withdraw"),
        Withdrawal::NoSuchProposal
    );
    assert_eq!(
        cast(&mut c, 2, "ENGLAND", Choice::Yes, T0 + 8).await,
        Cast::Refused(Refused::Withdrawn)
    );
    let (row, poll) = store::poll(&mut c, GAME, 2)
        .await
        .expect("poll")
        .expect("2");
    assert_eq!(row.withdrawn_at, Some(T0 + 6));
    assert_eq!(poll.outcome(T0 + 9), Outcome::Withdrawn);
    // A closed proposal is not withdrawn.
    assert_eq!(
        store::withdraw_proposal(&mut c, GAME, 1, closes)
            .await
            .expect("withdraw"),
        Withdrawal::Refused(Refused::Closed)
    );
}

#[tokio::test]
async fn nomic_109_a_rule_set_is_kept_as_dated_revisions_and_read_as_of_any_time() {
    let pool = fixtures::setup("office-rules", &[GAME]).await;
    let mut c = pool.acquire().await.expect("conn");
    assert!(
        store::rule_set(&mut c, GAME)
            .await
            .expect("none yet")
            .revisions()
            .is_empty()
    );
    // Suber's Initial Set, in effect when the game begins (rule 101).
    // Four rules of Suber's Initial Set, in its file's format (the whole file is read by the
    // office's own test), in effect when the game begins (rule 101).
    let set = read_initial_set(
        r#"{"rules": {
            "0": {"text": ["All players must always abide by all the rules then in effect."],
                  "label": "101[I]", "ineffect": "1"},
            "15": {"text": ["Whatever is not prohibited or regulated by a rule is permitted."],
                   "label": "116[I]", "ineffect": "1"},
            "18": {"text": ["Each player is allocated one day a week."], "label": "201"},
            "19": {"text": ["Players may only propose rule-changes on their allocated day."],
                   "label": "202"}},
            "date": "2019-02-11", "author": "Ben"}"#,
    )
    .expect("the Initial Set");
    let mut rules = RuleSet::from_initial(&set, T0).expect("enacted");
    store::append_rule_revisions(&mut c, GAME, rules.revisions())
        .await
        .expect("kept");
    // Proposal 301 transmutes rule 116 and, by rule 109, renumbers it 301.
    let adopted = T0 + 2 * 24 * HOUR;
    let first_new = rules.revisions().len();
    rules
        .apply(
            adopted,
            Change::Transmute {
                number: 116,
                to: Mutability::Mutable,
            },
            Some(301),
        )
        .expect("transmuted");
    rules
        .apply(adopted, Change::Renumber { from: 116, to: 301 }, Some(301))
        .expect("renumbered");
    rules
        .apply(
            adopted + HOUR,
            Change::Amend {
                number: 301,
                text: vec!["Whatever is not prohibited is permitted.".into()],
            },
            Some(302),
        )
        .expect("amended");
    store::append_rule_revisions(&mut c, GAME, &rules.revisions()[first_new..])
        .await
        .expect("kept");
    // The same revision again is refused by the key: nothing is kept twice.
    assert!(
        store::append_rule_revisions(&mut c, GAME, &rules.revisions()[first_new..][..1])
            .await
            .is_err()
    );

    let kept = store::rule_set(&mut c, GAME).await.expect("replayed");
    assert_eq!(kept, rules);
    assert_eq!(kept.revisions().len(), 7);
    let before = kept.as_of(adopted - 1);
    assert_eq!(before[&116].mutability, Mutability::Immutable);
    assert!(!before.contains_key(&301));
    let after = kept.as_of(adopted);
    assert!(!after.contains_key(&116));
    assert_eq!(after[&301].mutability, Mutability::Mutable);
    assert_eq!(
        after[&301].text, before[&116].text,
        "renumbered, not yet amended"
    );
    assert_eq!(
        kept.current()[&301].text,
        vec!["Whatever is not prohibited is permitted.".to_string()]
    );
    let rows = store::rule_revisions(&mut c, GAME).await.expect("rows");
    assert_eq!(rows.len(), 7);
    assert_eq!(
        (rows[5].new_number, rows[5].proposal),
        (Some(301), Some(301))
    );

    // A row edited by hand so that it no longer replays is an error, not a panic.
    sqlx::query("UPDATE rule_revisions SET new_number = 201 WHERE game_id = $1 AND seq = 6")
        .bind(GAME)
        .execute(&mut *c)
        .await
        .expect("edited");
    match store::rule_set(&mut c, GAME).await {
        Err(StoreError::Inconsistent(why)) => assert!(why.contains("201"), "{why}"),
        other => panic!("{other:?}"),
    }
}
