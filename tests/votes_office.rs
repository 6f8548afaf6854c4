//! Diplomacy's votes in the office's proposals and ballots (issue 23: "proposals and secret
//! ballots (one pair of tables ...)"), through the engine on a real SQLite file: one proposal a
//! (game, phase, proposal), every voter's last ballot on it; spent at the deadline with the
//! count recorded (WM IX(2)), an NMR's uncast vote deemed a yes (WM IX(1)); a refused proposal
//! (Maharajiad X(2)) and the votes of undone phases (WM D.VIII(1)) count for nothing; and the
//! rows of `votes` and `refused_proposals` carried over by the migration.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::engine::Processed;
use chancery::games;
use chancery::policy::Ts;
use chancery::store;
use chancery::store::Pool;
use chancery::store::dialect::{Flag, MaybeFlag};
use sqlx::Row;

/// A player's mail in `phase` with `body` (after the secret).
async fn send(pool: &Pool, uid: u32, i: usize, phase: &str, body: &str, at: Ts) {
    let mail = raw(
        &player(i),
        "gm@example.test",
        &format!("g1 {} {phase}", POWERS[i]),
        &format!("Message-ID: <v{uid}@x.test>\r\n"),
        &format!("SECRET s{}\n{body}\n", i + 1),
    );
    assert_eq!(
        deliver(pool, "gm", uid, &mail, Some(at), at).await,
        Processed::Accepted
    );
}

async fn phase_row(pool: &Pool) -> store::PhaseRow {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, "g1")
        .await
        .expect("q")
        .expect("open")
}

/// The game's proposals: (phase, payload, threshold, decided, passed, refused, voided).
type Proposal = (
    Option<String>,
    String,
    String,
    bool,
    Option<bool>,
    bool,
    bool,
);

async fn proposals(pool: &Pool) -> Vec<Proposal> {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query(
        "SELECT phase, payload, threshold, decided_at IS NOT NULL AS decided, passed,
                refused_at IS NOT NULL AS refused, voided_at IS NOT NULL AS voided
         FROM office_proposals WHERE game_id = 'g1' ORDER BY number",
    )
    .fetch_all(&mut *c)
    .await
    .expect("proposals")
    .iter()
    .map(|r| {
        (
            r.get(0),
            r.get(1),
            r.get(2),
            r.get::<Flag, _>(3).into(),
            r.get::<MaybeFlag, _>(4).into(),
            r.get::<Flag, _>(5).into(),
            r.get::<Flag, _>(6).into(),
        )
    })
    .collect()
}

/// The ballots on a proposal of the game: (voter, choice, deemed).
async fn ballots(pool: &Pool, phase: &str, payload: &str) -> Vec<(String, String, bool)> {
    let mut c = pool.acquire().await.expect("conn");
    sqlx::query(
        "SELECT b.voter, b.choice, b.deemed FROM office_ballots b
         JOIN office_proposals p ON p.id = b.proposal_id
         WHERE p.game_id = 'g1' AND p.phase = $1 AND p.payload = $2 ORDER BY b.voter",
    )
    .bind(phase)
    .bind(payload)
    .fetch_all(&mut *c)
    .await
    .expect("ballots")
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get::<Flag, _>(2).into()))
    .collect()
}

#[tokio::test]
async fn wm_ix_2_a_proposal_is_one_row_a_phase_whatever_its_spelling_and_spent_at_the_deadline() {
    let pool = setup("votes-office-spent", &["g1"]).await;
    let spring = phase_row(&pool).await.deadline;
    // England and France each write the draw of the two of them their own way; Germany votes
    // on the draw of all survivors, then revises its ballot (WM IX(2)).
    send(
        &pool,
        1,
        1,
        "S1901M",
        "VOTE DRAW ENGLAND FRANCE YES",
        T0 + 60,
    )
    .await;
    send(
        &pool,
        2,
        2,
        "S1901M",
        "VOTE DRAW FRANCE ENGLAND NO",
        T0 + 60,
    )
    .await;
    send(&pool, 3, 3, "S1901M", "VOTE DIAS YES", T0 + 60).await;
    send(&pool, 4, 3, "S1901M", "VOTE DRAW NO", T0 + 120).await;
    let open = proposals(&pool).await;
    assert_eq!(open.len(), 2, "{open:?}");
    assert_eq!(
        open[0],
        (
            Some("S1901M".into()),
            "\"DRAW ENGLAND FRANCE\"".into(),
            "unanimity".into(),
            false,
            None,
            false,
            false
        ),
        "WM IX(1): unanimity"
    );
    assert_eq!(open[1].1, "\"DRAW\"");
    assert_eq!(
        ballots(&pool, "S1901M", "\"DRAW ENGLAND FRANCE\"").await,
        vec![
            ("ENGLAND".into(), "yes".into(), false),
            ("FRANCE".into(), "no".into(), false)
        ]
    );
    assert_eq!(
        ballots(&pool, "S1901M", "\"DRAW\"").await,
        vec![("GERMANY".into(), "no".into(), false)],
        "the revised ballot replaces the first"
    );
    let e = env();
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let spent = proposals(&pool).await;
    assert!(
        spent.iter().all(|p| p.3 && p.4 == Some(false)),
        "counted and failed: {spent:?}"
    );
    // Nothing of who voted how left in what was sent (WM IX(2)).
    for (kind, _, _, body) in outbox(&pool).await {
        assert!(!body.contains("GERMANY voted"), "{kind}: {body}");
        assert!(!body.contains("votes for"), "{kind}: {body}");
    }
    // A vote of the next phase opens a new row.
    send(&pool, 5, 3, "F1901M", "VOTE DRAW YES", spring + 60).await;
    let now = proposals(&pool).await;
    assert_eq!(now.len(), 3);
    assert_eq!(now[2].0.as_deref(), Some("F1901M"));
}

#[tokio::test]
async fn wm_ix_1_an_nmrs_uncast_vote_on_a_game_end_proposal_is_recorded_as_a_deemed_yes() {
    let pool = setup("votes-office-nmr", &["g1"]).await;
    let spring = phase_row(&pool).await.deadline;
    // Six vote the draw; Turkey sends nothing at this movement deadline.
    for i in 0..6 {
        send(&pool, i as u32 + 1, i, "S1901M", "VOTE DRAW YES", T0 + 60).await;
    }
    let e = env();
    assert_eq!(games::tick(&pool, &e, spring).await.expect("tick"), 1);
    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, "g1").await.expect("q").expect("game");
    assert_eq!(g.status, store::GameStatus::Finished, "the draw passed");
    drop(c);
    let decided = proposals(&pool).await;
    assert_eq!(decided.len(), 1);
    assert_eq!((decided[0].3, decided[0].4), (true, Some(true)));
    let cast = ballots(&pool, "S1901M", "\"DRAW\"").await;
    assert_eq!(cast.len(), 7);
    assert!(
        cast.contains(&("TURKEY".into(), "yes".into(), true)),
        "{cast:?}"
    );
    assert_eq!(
        cast.iter().filter(|b| b.2).count(),
        1,
        "only Turkey's is deemed"
    );
}

#[tokio::test]
async fn maharajiad_x_2_a_refused_proposal_takes_no_ballot_and_its_ballots_are_dropped() {
    let pool = setup("votes-office-refused", &["g1"]).await;
    send(&pool, 1, 0, "S1901M", "VOTE CONCEDE FRANCE YES", T0 + 60).await;
    let mut c = pool.acquire().await.expect("conn");
    assert!(
        store::diplomacy::refuse_proposal(
            &mut c,
            "g1",
            "CONCEDE FRANCE",
            "gm@example.test",
            T0 + 90
        )
        .await
        .expect("refuse")
    );
    assert!(
        !store::diplomacy::refuse_proposal(
            &mut c,
            "g1",
            "CONCEDE FRANCE",
            "gm@example.test",
            T0 + 95
        )
        .await
        .expect("again"),
        "refused already"
    );
    // Refused before anyone voted on it: a row of no phase says so.
    assert!(
        store::diplomacy::refuse_proposal(&mut c, "g1", "CONTINUE", "gm@example.test", T0 + 95)
            .await
            .expect("refuse")
    );
    assert!(
        store::diplomacy::proposal_refused(&mut c, "g1", "CONTINUE")
            .await
            .expect("q")
    );
    drop(c);
    send(&pool, 2, 1, "S1901M", "VOTE CONCEDE FRANCE YES", T0 + 120).await;
    assert!(
        ballots(&pool, "S1901M", "\"CONCEDE FRANCE\"")
            .await
            .is_empty()
    );
    let rows = proposals(&pool).await;
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows.iter().all(|p| p.5), "both refused: {rows:?}");
    assert_eq!(rows[1].0, None);
}

#[tokio::test]
async fn wm_d_viii_1_a_rollback_voids_the_votes_of_the_phases_it_undoes() {
    let pool = setup("votes-office-rollback", &["g1"]).await;
    let spring = phase_row(&pool).await;
    send(&pool, 1, 0, "S1901M", "VOTE DRAW NO", T0 + 60).await;
    let e = env();
    assert_eq!(
        games::tick(&pool, &e, spring.deadline).await.expect("tick"),
        1
    );
    send(&pool, 2, 0, "F1901M", "VOTE DRAW YES", spring.deadline + 60).await;
    let now = spring.deadline + 120;
    let mut c = pool.acquire().await.expect("conn");
    store::diplomacy::roll_back(&mut c, "g1", spring.seq, now + 7 * 86_400, now)
        .await
        .expect("roll back");
    drop(c);
    let rows = proposals(&pool).await;
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|p| p.6), "both voided: {rows:?}");
    assert!(ballots(&pool, "F1901M", "\"DRAW\"").await.is_empty());
    assert!(ballots(&pool, "S1901M", "\"DRAW\"").await.is_empty());
    // Spring is played again: its votes are new ones.
    send(&pool, 3, 0, "S1901M", "VOTE DRAW YES", now + 60).await;
    let rows = proposals(&pool).await;
    assert_eq!(rows.len(), 3);
    assert_eq!((rows[2].0.as_deref(), rows[2].6), (Some("S1901M"), false));
}

/// A proposal as carried over: (number, kind, payload, phase, electorate, threshold,
/// refused by, voided).
type Carried = (
    i64,
    String,
    String,
    Option<String>,
    String,
    String,
    Option<String>,
    bool,
);

#[tokio::test]
async fn the_migration_carries_the_open_votes_and_the_refusals_over() {
    let dir = std::env::temp_dir().join(format!("chancery-votes-office-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    sqlx::any::install_default_drivers();
    let url = format!("sqlite://{}?mode=rwc", dir.join("old.sqlite").display());
    let pool = sqlx::AnyPool::connect(&url).await.expect("open");
    let all = sqlx::migrate!("./migrations");
    let mut before = sqlx::migrate!("./migrations");
    before.migrations = before
        .migrations
        .iter()
        .filter(|m| m.version < 27)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    before.run(&pool).await.expect("migrations to 26");
    for sql in [
        r#"INSERT INTO games (id, variant, rules, gm_address, confirm_address, status, created_at)
           VALUES ('g1', 'standard', '{"votes":"maharajiad"}', 'gm@x', 'c@x', 'active', 0)"#,
        "INSERT INTO players (game_id, power, address, name, tz, secret)
           VALUES ('g1', 'FRANCE', 'f@x', '', 'UTC', 's'), ('g1', 'ENGLAND', 'e@x', '', 'UTC', 's')",
        "INSERT INTO phases (game_id, seq, phase, board, started_at, deadline, adjudicated_at)
           VALUES ('g1', 1, 'S1901M', '{}', 0, 10, 10), ('g1', 2, 'F1901M', '{}', 10, 20, NULL)",
        "INSERT INTO votes (game_id, phase, power, proposal, ballot, cast_at) VALUES
           ('g1', 'F1901M', 'FRANCE', 'DRAW', 'yes', 12),
           ('g1', 'F1901M', 'ENGLAND', 'DRAW', 'abstain', 13),
           ('g1', 'F1901M', 'GM', 'RULE submissions merge_per_unit', 'yes', 14),
           ('g1', 'F1901M', 'FRANCE', 'PIZZA', 'yes', 15),
           ('g1', 'S1902M', 'FRANCE', 'CONTINUE', 'no', 16)",
        "INSERT INTO refused_proposals (game_id, proposal, by, at)
           VALUES ('g1', 'CONCEDE FRANCE', 'gm@x', 11)",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&pool)
            .await
            .expect(sql);
    }
    all.run(&pool).await.expect("the rest");
    let rows = sqlx::query(
        "SELECT number, kind, payload, phase, electorate, threshold, refused_by,
                voided_at IS NOT NULL AS voided
         FROM office_proposals WHERE game_id = 'g1' ORDER BY number",
    )
    .fetch_all(&pool)
    .await
    .expect("rows");
    let read: Vec<Carried> = rows
        .iter()
        .map(|r| {
            (
                r.get(0),
                r.get(1),
                r.get(2),
                r.get(3),
                r.get(4),
                r.get(5),
                r.get(6),
                r.get::<Flag, _>(7).into(),
            )
        })
        .collect();
    let mj = "unanimity_bar_abstentions".to_string();
    assert_eq!(
        read,
        vec![
            (
                1,
                "draw".into(),
                "\"DRAW\"".into(),
                Some("F1901M".into()),
                r#"["ENGLAND","FRANCE"]"#.into(),
                mj.clone(),
                None,
                false
            ),
            (
                2,
                "house_rule".into(),
                "\"RULE submissions merge_per_unit\"".into(),
                Some("F1901M".into()),
                r#"["ENGLAND","FRANCE","GM"]"#.into(),
                mj.clone(),
                None,
                false
            ),
            (
                3,
                "continue".into(),
                "\"CONTINUE\"".into(),
                Some("S1902M".into()),
                r#"["ENGLAND","FRANCE"]"#.into(),
                mj.clone(),
                None,
                true
            ),
            (
                4,
                "concession".into(),
                "\"CONCEDE FRANCE\"".into(),
                None,
                r#"["ENGLAND","FRANCE"]"#.into(),
                mj,
                Some("gm@x".into()),
                false
            ),
        ],
        "PIZZA was never a proposal; S1902M was left behind by a rollback"
    );
    let ballots: Vec<(String, String, String)> = sqlx::query(
        "SELECT voter, choice, json_extract(p.payload, '$') FROM office_ballots b
         JOIN office_proposals p ON p.id = b.proposal_id ORDER BY b.cast_at",
    )
    .fetch_all(&pool)
    .await
    .expect("ballots")
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2)))
    .collect();
    assert_eq!(
        ballots,
        vec![
            ("FRANCE".into(), "yes".into(), "DRAW".into()),
            ("ENGLAND".into(), "abstain".into(), "DRAW".into()),
            (
                "GM".into(),
                "yes".into(),
                "RULE submissions merge_per_unit".into()
            ),
        ]
    );
    for gone in ["refused_proposals"] {
        let left: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1",
        )
        .bind(gone)
        .fetch_one(&pool)
        .await
        .expect("q");
        assert_eq!(left, 0, "{gone} is dropped");
    }
    // `votes` is now a view of the open proposals' ballots.
    let open: i64 = sqlx::query_scalar("SELECT count(*) FROM votes WHERE game_id = 'g1'")
        .fetch_one(&pool)
        .await
        .expect("view");
    assert_eq!(open, 3);
}
