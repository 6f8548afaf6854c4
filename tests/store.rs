//! The store on a real SQLite file: migrations, WAL, the ledger's exactly-once keys, the outbox.

#[path = "common/database.rs"]
#[allow(dead_code)]
mod database;

use chancery::store::{self, NewMail, PlayerRow};
use sqlx::Row;

fn db_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chancery-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp dir");
    dir.join("chancery.sqlite")
}

#[tokio::test]
async fn ledger_outbox_and_reopen() {
    let path = db_path("ledger");
    let pool = database::open(&path).await;
    let mut c = pool.acquire().await.expect("conn");
    if database::postgres().is_none() {
        let mode: String = sqlx::query("PRAGMA journal_mode")
            .fetch_one(&mut *c)
            .await
            .expect("pragma")
            .get(0);
        assert_eq!(mode, "wal");
    }

    store::create_game(
        &mut c,
        "wm1",
        "standard",
        "{}",
        "GM@example.test",
        "confirm@example.test",
        100,
    )
    .await
    .expect("game");
    let dup = store::create_game(
        &mut c,
        "wm1",
        "standard",
        "{}",
        "gm@example.test",
        "c@example.test",
        100,
    )
    .await;
    assert!(dup.unwrap_err().to_string().contains("already exists"));
    let g = store::game(&mut c, "WM1").await.expect("q").expect("found");
    assert_eq!(g.gm_address, "gm@example.test");
    store::add_player(
        &mut c,
        "wm1",
        &PlayerRow {
            power: "FRANCE".into(),
            address: "Player3@Example.test".into(),
            name: "Jean".into(),
            tz: "Europe/Paris".into(),
            secret: "s3".into(),
            extension_days_used: 0,
        },
    )
    .await
    .expect("player");
    assert_eq!(
        store::players(&mut c, "wm1").await.expect("players")[0].address,
        "player3@example.test"
    );
    // Issue 11, point 7: a power that has a player is not silently given another.
    let taken = store::add_player(
        &mut c,
        "wm1",
        &PlayerRow {
            power: "FRANCE".into(),
            address: "intruder@example.test".into(),
            name: String::new(),
            tz: "UTC".into(),
            secret: "s9".into(),
            extension_days_used: 0,
        },
    )
    .await;
    assert!(
        matches!(taken, Err(store::StoreError::PowerTaken { .. })),
        "{taken:?}"
    );
    assert_eq!(
        store::players(&mut c, "wm1").await.expect("players")[0].address,
        "player3@example.test"
    );

    // A message and its ledger row, in one transaction with an outgoing mail.
    let mut tx = pool.begin().await.expect("tx");
    assert!(
        !store::processed(&mut tx, &seen("gm", 7, 1, "00"))
            .await
            .expect("q")
    );
    store::record_message(
        &mut tx,
        &store::MessageRecord {
            seen: seen("gm", 7, 1, "00"),
            message_id: Some("a@x"),
            raw: b"raw",
            received_at: 200,
            internal_date: Some(190),
            from: Some("p@x"),
            subject: "s".into(),
            game: Some("wm1".into()),
            power: Some("FRANCE".into()),
            phase: Some("S1901M".into()),
            outcome: "accepted",
        },
    )
    .await
    .expect("record");
    store::enqueue(
        &mut tx,
        &NewMail {
            kind: store::MailKind::Ack,
            message_id: "ack-1@chancery".into(),
            from: "gm@example.test".into(),
            to: "player3@example.test".into(),
            subject: "Re: wm1".into(),
            body: "ok".into(),
            in_reply_to: Some("a@x".into()),
            refs: vec!["a@x".into()],
            auto_submitted: "auto-replied",
            game: Some("wm1".into()),
            picture: None,
        },
        200,
    )
    .await
    .expect("enqueue");
    tx.commit().await.expect("commit");
    // Seen again by position or by content (a re-delivery with a new UID); a Message-ID alone
    // decides nothing (a new mail may reuse one).
    assert!(
        store::processed(&mut c, &seen("gm", 7, 1, "ff"))
            .await
            .expect("q")
    );
    assert!(
        store::processed(&mut c, &seen("gm", 7, 99, "00"))
            .await
            .expect("q")
    );
    assert!(
        !store::processed(&mut c, &seen("gm", 7, 99, "ff"))
            .await
            .expect("q")
    );
    assert!(
        !store::processed(&mut c, &seen("confirm", 7, 1, "00"))
            .await
            .expect("q")
    );
    // Issue 21.13: the same message delivered again in another SMTP transaction (other trace
    // headers, so other raw bytes) has the same content digest: processed.
    let redelivered = store::Seen {
        content_sha256: "c-00",
        ..seen("gm", 7, 100, "ee")
    };
    assert!(store::processed(&mut c, &redelivered).await.expect("q"));
    assert_eq!(store::last_uid(&mut c, "gm", 7).await.expect("q"), 1);
    assert_eq!(store::last_uid(&mut c, "gm", 8).await.expect("q"), 0);

    // A rolled-back transaction leaves nothing behind.
    let mut tx = pool.begin().await.expect("tx");
    store::record_message(
        &mut tx,
        &store::MessageRecord {
            seen: seen("gm", 7, 2, "11"),
            message_id: Some("b@x"),
            raw: b"raw2",
            received_at: 300,
            internal_date: None,
            from: None,
            subject: "s".into(),
            game: None,
            power: None,
            phase: None,
            outcome: "rejected",
        },
    )
    .await
    .expect("record");
    tx.rollback().await.expect("rollback");
    assert!(
        !store::processed(&mut c, &seen("gm", 7, 2, "11"))
            .await
            .expect("q")
    );

    // The outbox: due, sending, retry, sent.
    let due = store::due_outbox(&mut c, 200, 10).await.expect("due");
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].in_reply_to.as_deref(), Some("a@x"));
    store::mark_sending(&mut c, due[0].id, 201)
        .await
        .expect("sending");
    store::mark_retry(&mut c, due[0].id, 260, "421 try later")
        .await
        .expect("retry");
    assert!(
        store::due_outbox(&mut c, 250, 10)
            .await
            .expect("due")
            .is_empty()
    );
    assert_eq!(
        store::next_outbox_attempt(&mut c).await.expect("next"),
        Some(260)
    );
    store::mark_sent(&mut c, due[0].id, 261)
        .await
        .expect("sent");
    assert_eq!(
        store::outbox_counts(&mut c).await.expect("counts"),
        (0, 1, 0)
    );
    drop(c);
    pool.close().await;

    // Everything is still there after reopening the file.
    let pool = database::open(&path).await;
    let mut c = pool.acquire().await.expect("conn");
    assert!(
        store::processed(&mut c, &seen("gm", 7, 1, ""))
            .await
            .expect("q")
    );
    assert_eq!(
        store::outbox_counts(&mut c).await.expect("counts"),
        (0, 1, 0)
    );
}

#[tokio::test]
async fn phases_and_deadlines() {
    let pool = database::open(&db_path("phases")).await;
    let mut c = pool.acquire().await.expect("conn");
    store::create_game(&mut c, "g", "standard", "{}", "gm@x", "c@x", 0)
        .await
        .expect("game");
    store::set_game_status(&mut c, "g", store::GameStatus::Active)
        .await
        .expect("status");
    store::diplomacy::insert_phase(&mut c, "g", "S1901M", "{}", 0, 1000)
        .await
        .expect("phase");
    assert!(
        store::diplomacy::due_phases(&mut c, 999)
            .await
            .expect("due")
            .is_empty()
    );
    let due = store::diplomacy::due_phases(&mut c, 1000)
        .await
        .expect("due");
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].seq, 1);
    store::diplomacy::mark_adjudicated(&mut c, "g", 1, 1000, "{}")
        .await
        .expect("adj");
    store::diplomacy::insert_phase(&mut c, "g", "F1901M", "{}", 1000, 5000)
        .await
        .expect("phase");
    let cur = store::current_phase(&mut c, "g")
        .await
        .expect("q")
        .expect("current");
    assert_eq!((cur.seq, cur.phase.as_str()), (2, "F1901M"));
    assert_eq!(
        store::diplomacy::last_adjudicated_at(&mut c, "g")
            .await
            .expect("q"),
        Some(1000)
    );
    assert_eq!(
        store::diplomacy::next_deadline(&mut c).await.expect("q"),
        Some(5000)
    );
}

#[tokio::test]
async fn receipts_go_first() {
    let pool = database::open(&db_path("priority")).await;
    let mut c = pool.acquire().await.expect("conn");
    let mail = |kind: store::MailKind, id: &str| NewMail {
        kind,
        message_id: id.into(),
        from: "gm@example.test".into(),
        to: "p@example.test".into(),
        subject: "s".into(),
        body: "b".into(),
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-replied",
        game: None,
        picture: None,
    };
    for i in 0..5 {
        store::enqueue(&mut c, &mail(store::MailKind::Ack, &format!("ack{i}")), 100)
            .await
            .expect("ack");
    }
    assert!(
        store::enqueue(&mut c, &mail(store::MailKind::Receipt, "r1"), 200)
            .await
            .expect("receipt")
    );
    // The same Message-ID again is one mail, not two; and never silently (issue 21.1): the
    // duplicate is counted, by Message-ID and by kind.
    assert!(
        !store::enqueue(&mut c, &mail(store::MailKind::Receipt, "r1"), 201)
            .await
            .expect("receipt")
    );
    assert_eq!(store::duplicates_of(&mut c, "r1").await.expect("dups"), 1);
    assert_eq!(
        store::duplicate_counts(&mut c, 0).await.expect("counts"),
        vec![(store::MailKind::Receipt, 1)]
    );
    let due = store::due_outbox(&mut c, 300, 3).await.expect("due");
    assert_eq!(due[0].message_id, "r1", "the receipt jumps the queue");
    assert_eq!(due[1].message_id, "ack0");
    assert_eq!(store::outbox_counts(&mut c).await.expect("counts").0, 6);
    assert!(store::outbox_has_pending(&mut c).await.expect("pending"));
}

#[tokio::test]
async fn a_mailbox_polls_count_and_its_last_uid_only_grows() {
    let pool = database::open(&db_path("polls")).await;
    let mut c = pool.acquire().await.expect("conn");
    store::poll_ok(&mut c, "gm", 10, 11, 7)
        .await
        .expect("first");
    store::poll_ok(&mut c, "gm", 20, 21, 5)
        .await
        .expect("second");
    store::poll_ok(&mut c, "gm", 30, 31, 9)
        .await
        .expect("third");
    let states = store::mailbox_states(&mut c).await.expect("states");
    let gm = states.iter().find(|s| s.mailbox == "gm").expect("gm");
    assert_eq!(gm.polls, 3);
    assert_eq!(gm.last_uid, Some(9));
    assert_eq!(gm.last_poll_ok, Some(31));
}

/// The dialect's fragments as the store's statements call them (`concat!("SELECT ... FROM ",
/// json_values!(1), " j ...")` inside `dialect::sql!`), each expanded by the dialect's own macro, so that a
/// statement is explained as SQLite runs it. A fragment missing here fails the test.
const DIALECT_FRAGMENTS: &[(&str, &str)] = &[
    ("json_values!(1)", store::dialect::sqlite::json_values!(1)),
    ("json_values!(3)", store::dialect::sqlite::json_values!(3)),
    ("json_values!(4)", store::dialect::sqlite::json_values!(4)),
    ("json_values!(5)", store::dialect::sqlite::json_values!(5)),
    ("json_rows!(1)", store::dialect::sqlite::json_rows!(1)),
    ("json_rows!(2)", store::dialect::sqlite::json_rows!(2)),
    ("json_int!(1)", store::dialect::sqlite::json_int!(1)),
    ("json_int!(2)", store::dialect::sqlite::json_int!(2)),
    (
        "insertion_order!()",
        store::dialect::sqlite::insertion_order!(),
    ),
    (
        "indexed_by!(\"outbox_due\")",
        store::dialect::sqlite::indexed_by!("outbox_due"),
    ),
    ("empty_blob!()", store::dialect::sqlite::empty_blob!()),
    (
        "skip_locked!(\"g\")",
        store::dialect::sqlite::skip_locked!("g"),
    ),
];

#[tokio::test]
async fn a_powers_record_is_read_at_once_and_says_only_what_is_its_own() {
    // Issue 28: an order mail reads the phase being played with its power's abbreviations,
    // replay facts, waiting NMR, confirmation copy and standing orders in one statement
    // (`current_phase_and_record`); each must be the power's own, in this game and phase, for
    // this Message-ID and sender, on either database.
    use store::diplomacy::{self as dip, NewSubmission, PowerRecord};
    let pool = database::open(&db_path("power-record")).await;
    let mut c = pool.acquire().await.expect("conn");
    for g in ["wm1", "wm2"] {
        store::create_game(&mut c, g, "standard", "{}", "gm@x.test", "c@x.test", 100)
            .await
            .expect("game");
    }
    /// A mail of `power` accepted in S1901M, written at `dated`.
    async fn accepted(c: &mut store::Conn, game: &str, power: &str, id: &str, dated: i64) {
        let sub = NewSubmission {
            game,
            phase: "S1901M",
            power,
            message_id: Some(id),
            submitted_at: dated + 10,
            dated_at: dated,
            final_: false,
            late: false,
            read_json: "[]",
            submitted_by: "p@x.test",
        };
        dip::insert_submission(c, &sub).await.expect("submission");
    }
    /// The confirmation box's copy of mail `id` from `from` in `game`.
    async fn confirmed(c: &mut store::Conn, game: &str, id: &str, from: &str) {
        let copy = store::Confirmation {
            message_id: id,
            from,
            game,
            read_digest: "d",
        };
        store::record_confirmation(c, &copy, 150)
            .await
            .expect("copy");
    }
    async fn record(c: &mut store::Conn, id: Option<&str>, from: &str) -> PowerRecord {
        let (phase, record) = dip::current_phase_and_record(c, "wm1", "FRANCE", id, from)
            .await
            .expect("record")
            .expect("a phase being played");
        assert_eq!(phase.phase, "S1901M");
        record
    }
    // No phase being played: nothing to read a record in.
    let none = dip::current_phase_and_record(&mut c, "wm1", "FRANCE", Some("<a@x>"), "f@x.test");
    assert_eq!(none.await.expect("read"), None);
    // The phase before, decided; the one being played.
    for phase in ["W1900A", "S1901M"] {
        dip::insert_phase(&mut c, "wm1", phase, "{}", 100, 200)
            .await
            .expect("phase");
    }
    sqlx::query(
        "UPDATE phases SET adjudicated_at = 150 WHERE game_id = 'wm1' AND phase = 'W1900A'",
    )
    .execute(&mut *c)
    .await
    .expect("decided");
    assert_eq!(
        record(&mut c, Some("<a@x>"), "f@x.test").await,
        PowerRecord::default()
    );
    // Another power's, and another game's, say nothing of France in wm1.
    for (game, power) in [("wm1", "ENGLAND"), ("wm2", "FRANCE")] {
        dip::set_abbreviations(&mut c, game, power, "{\"lon\":\"LON\"}", 100)
            .await
            .expect("list");
        accepted(&mut c, game, power, "<a@x>", 190).await;
        sqlx::query(
            "INSERT INTO nmrs (game_id, power, phase, published_at, due_at) VALUES ($1, $2, 'S1901M', 1, 2)",
        )
        .bind(game)
        .bind(power)
        .execute(&mut *c)
        .await
        .expect("nmr");
        // England's player's copy in wm1; France's player's in wm2.
        let from = if game == "wm1" {
            "e@x.test"
        } else {
            "f@x.test"
        };
        confirmed(&mut c, game, "<a@x>", from).await;
        let orders = [dip::StandingOrder {
            order: "F LON H".into(),
            written: "F Lon H".into(),
        }];
        dip::set_standing_orders(&mut c, game, "S1901M", power, &orders, true, 100)
            .await
            .expect("standing");
    }
    assert_eq!(
        record(&mut c, Some("<a@x>"), "f@x.test").await,
        PowerRecord::default()
    );
    // France's own.
    dip::set_abbreviations(&mut c, "wm1", "FRANCE", "{\"par\":\"PAR\"}", 100)
        .await
        .expect("list");
    for (id, dated) in [("<a@x>", 300), ("<b@x>", 250)] {
        accepted(&mut c, "wm1", "FRANCE", id, dated).await;
    }
    sqlx::query(
        "INSERT INTO nmrs (game_id, power, phase, published_at, due_at, contacted_at) VALUES ('wm1', 'FRANCE', 'W1900A', 1, 2, 3)",
    )
    .execute(&mut *c)
    .await
    .expect("nmr");
    confirmed(&mut c, "wm1", "<c@x>", "f@x.test").await;
    // France's orders of another phase are not this phase's.
    let orders = [dip::StandingOrder {
        order: "A PAR H".into(),
        written: "A Par H".into(),
    }];
    dip::set_standing_orders(&mut c, "wm1", "F1901M", "FRANCE", &orders, true, 100)
        .await
        .expect("standing");
    assert_eq!(record(&mut c, None, "f@x.test").await.standing, None);
    dip::set_standing_orders(&mut c, "wm1", "S1901M", "FRANCE", &orders, false, 100)
        .await
        .expect("standing");
    let seen = record(&mut c, Some("<a@x>"), "f@x.test").await;
    assert_eq!(
        seen,
        PowerRecord {
            abbreviations: Some("{\"par\":\"PAR\"}".into()),
            newest: Some(300),
            seen: true,
            // Its only NMR had its contact already.
            nmr_open: false,
            // The box's copy of <a@x> is another game's.
            confirmed_copy: false,
            standing: Some((orders.to_vec(), false)),
        }
    );
    // A new mail: not seen; the box has its copy, from this sender only.
    let new = record(&mut c, Some("<c@x>"), "f@x.test").await;
    assert!(!new.seen && new.confirmed_copy, "{new:?}");
    assert!(
        !record(&mut c, Some("<c@x>"), "g@x.test")
            .await
            .confirmed_copy
    );
    assert!(!record(&mut c, None, "f@x.test").await.seen);
    sqlx::query(
        "INSERT INTO nmrs (game_id, power, phase, published_at, due_at) VALUES ('wm1', 'FRANCE', 'S1901M', 1, 2)",
    )
    .execute(&mut *c)
    .await
    .expect("nmr");
    assert!(record(&mut c, None, "f@x.test").await.nmr_open);
}

/// The SQL statements of the store's sources (every file under `src/store`, a kind's folder
/// included; `dialect.rs` holds fragments, not statements): each string literal that starts a
/// statement, or a `concat!` of literals and dialect fragments that does, with `$N` made
/// literal: what `EXPLAIN QUERY PLAN` can look at.
fn store_statements() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    let mut dirs = vec![root.clone()];
    let mut out = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/store") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.file_name().is_some_and(|f| f == "dialect.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read");
            let file = path
                .strip_prefix(&root)
                .expect("under src/store")
                .display()
                .to_string();
            for lit in sql_texts(&text) {
                let starts = ["SELECT ", "UPDATE ", "INSERT ", "DELETE "];
                if starts.iter().any(|s| lit.starts_with(s)) {
                    out.push((file.clone(), literal_parameters(&lit)));
                }
            }
        }
    }
    out
}

/// The string literals of a source, a `concat!(...)` taken as the one string it makes.
fn sql_texts(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let quote = rest.find('"');
        let concat = rest
            .find("concat!(")
            .filter(|c| quote.is_none_or(|q| *c < q));
        if let Some(c) = concat {
            let (sql, after) = concat_text(&rest[c + "concat!(".len()..]);
            out.push(sql);
            rest = after;
        } else if let Some(q) = quote {
            let after = &rest[q + 1..];
            let Some(end) = after.find('"') else { break };
            out.push(after[..end].to_string());
            rest = &after[end + 1..];
        } else {
            break;
        }
    }
    out
}

/// The string a `concat!` makes, from just after its `(`: its literals joined, each dialect
/// fragment expanded; and the source after its `)`.
fn concat_text(mut rest: &str) -> (String, &str) {
    let mut sql = String::new();
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if let Some(after) = rest.strip_prefix(')') {
            return (sql, after);
        }
        if let Some(after) = rest.strip_prefix('"') {
            let end = after.find('"').expect("a closed literal");
            sql.push_str(&after[..end]);
            rest = &after[end + 1..];
            continue;
        }
        // A fragment: `dialect::name!(args)`, its arguments without a parenthesis.
        let open = rest.find('(').expect("a fragment's arguments");
        let close = open + rest[open..].find(')').expect("a fragment's end");
        let call = &rest[..=close];
        let name = call.rsplit_once("::").map_or(call, |(_, name)| name);
        let expanded = DIALECT_FRAGMENTS
            .iter()
            .find(|(c, _)| *c == name)
            .unwrap_or_else(|| panic!("add {name} to DIALECT_FRAGMENTS"))
            .1;
        sql.push_str(expanded);
        rest = &rest[close + 1..];
    }
}

/// A statement's `$N` made the literal `'[]'` (an empty JSON list, or a value), and its line
/// continuations spaces.
fn literal_parameters(lit: &str) -> String {
    let mut sql = String::new();
    let mut chars = lit.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                chars.next();
            }
            sql.push_str("'[]'");
        } else if c == '\\' {
            // A line continuation inside the literal.
            sql.push(' ');
        } else {
            sql.push(c);
        }
    }
    sql
}

#[tokio::test]
async fn no_statement_of_the_store_scans_a_whole_table_unless_listed() {
    // Issue 10: a lookup that scanned the games table once per game made the deadline storm
    // quadratic (10,000 games took 45 s). Every statement that runs per message, per game or
    // per mail must use an index; the few that read a whole table by design are listed here.
    let whole_table_by_design = [
        // `chancery game list`-style listings and the status command.
        "SELECT * FROM games WHERE status",
        "SELECT * FROM mailbox_state",
        "count(*) FILTER",
        // The tick's list of open phases: one pass over the open ones (a partial index).
        "SELECT p.game_id FROM phases p JOIN games g",
        "SELECT p.* FROM phases p JOIN games g",
        "SELECT min(coalesce(p.held_until, p.deadline)) AS t FROM phases p JOIN games g",
        // `chancery players report`: every player's record, over every game.
        "reliability_counts",
        // The poisoned messages: a partial index holding only those.
        "WHERE status = 'poisoned'",
        // `chancery migrate`: the migrations done, once a copy (a table of a few dozen rows).
        "FROM _sqlx_migrations",
        // Whether any mail waits: EXISTS stops at the first entry of the due rows' partial index.
        "SELECT EXISTS (SELECT 1 FROM outbox INDEXED BY outbox_due",
    ];
    // SQLite's plans, whatever database the other tests run on.
    let pool = store::open(&db_path("plans")).await.expect("open");
    let mut c = pool.acquire().await.expect("conn");
    let mut checked = 0;
    let mut scans = Vec::new();
    for (file, sql) in store_statements() {
        // Statements that a QueryBuilder completes (multi-row VALUES) are not whole here.
        let Ok(rows) = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")))
            .fetch_all(&mut *c)
            .await
        else {
            continue;
        };
        checked += 1;
        for r in rows {
            let detail: String = r.get("detail");
            // `j` is the batch's json_each list; a constant row or a subquery's own (bounded)
            // result is no table (a subquery in FROM is named `sub`: PostgreSQL 15 needs a name).
            let scan = detail.starts_with("SCAN ")
                && !detail.starts_with("SCAN j")
                && !detail.starts_with("SCAN CONSTANT ROW")
                && !detail.starts_with("SCAN (subquery")
                && detail != "SCAN sub";
            if scan && !whole_table_by_design.iter().any(|w| sql.contains(w)) {
                scans.push(format!("{file}: {detail}: {sql}"));
            }
        }
    }
    assert!(checked >= 40, "only {checked} statements could be checked");
    assert!(scans.is_empty(), "{scans:#?}");
}

/// Where a message was found: its content digest is `c-` and its raw digest (as the tests of
/// position and raw bytes need them apart).
fn seen(
    mailbox: &'static str,
    uidvalidity: u32,
    uid: u32,
    sha256: &'static str,
) -> store::Seen<'static> {
    let content: &'static str = Box::leak(format!("c-{sha256}").into_boxed_str());
    store::Seen {
        mailbox,
        uidvalidity,
        uid,
        sha256,
        content_sha256: content,
    }
}
