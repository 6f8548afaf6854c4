//! The Agora Birthday Tournament's turns (issue 24, points 4-6), through the engine on a real
//! SQLite file with the tick driven by an injected clock: BT15's daily UTC timetable, one set of
//! orders a turn with its conditional retreats and builds (BT15, BT22, BT23), and the end of
//! the contest (BT3, BT16).

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;
use fixtures::*;

use chancery::games;
use chancery::policy::{DAY, HOUR, Ts};
use chancery::rules::Rules;
use chancery::store;
use chancery::store::Pool;
use chancery::timetable::midnight_at_or_after;

const GAME: &str = "ag";

/// A running agora2020 game `ag` started at [`T0`] (a Sunday, 08:26 UTC); the secrets.
async fn agora(name: &str) -> (Pool, Vec<String>) {
    let (pool, secrets) = game_with(name, GAME, "agora2020", &[]).await;
    games::start_game_and_tell(&pool, &env(), GAME, T0)
        .await
        .expect("start");
    (pool, secrets)
}

async fn current(pool: &Pool) -> store::PhaseRow {
    let mut c = pool.acquire().await.expect("conn");
    store::current_phase(&mut c, GAME)
        .await
        .expect("q")
        .expect("open")
}

/// Player `i` mails `body` for `phase` at `at`; the acknowledgement's text, on one line.
async fn mail(
    pool: &Pool,
    secrets: &[String],
    i: usize,
    uid: u32,
    phase: &str,
    body: &str,
    at: Ts,
) -> String {
    let power = POWERS[i];
    let m = raw(
        &player(i),
        "gm@example.test",
        &format!("{GAME} {power} {phase}"),
        &format!("Message-ID: <a{uid}@x.test>\r\n"),
        &format!("SECRET {}\n{body}\n", secrets[i]),
    );
    deliver(pool, "gm", uid, &m, Some(at), at).await;
    outbox(pool)
        .await
        .into_iter()
        .rev()
        .find(|o| o.0 == "ack" && o.1 == player(i))
        .map(|o| o.3.split_whitespace().collect::<Vec<_>>().join(" "))
        .expect("ack")
}

async fn tick(pool: &Pool, at: Ts) -> usize {
    games::tick(pool, &env(), at).await.expect("tick")
}

/// The results mail player 1 (Austria) had for `phase`.
async fn results(pool: &Pool, phase: &str) -> Option<String> {
    outbox(pool)
        .await
        .into_iter()
        .find(|o| o.0 == "results" && o.1 == player(0) && o.2.contains(phase))
        .map(|o| o.3)
}

async fn units_of(pool: &Pool, power: &str) -> Vec<String> {
    let p = current(pool).await;
    let map = chancery::map::Map::standard();
    let board =
        chancery::games::diplomacy::board_from_json(map, &p.board, &p.phase).expect("board");
    let pw = map.power_by_name(power).expect("power");
    let mut units: Vec<String> = board
        .units
        .iter()
        .filter(|u| u.power == pw)
        .map(|u| map.unit_name(u.unit_type, u.location))
        .collect();
    units.sort();
    units
}

#[tokio::test]
async fn agora_bt15_turns_follow_the_daily_utc_timetable() {
    let (pool, secrets) = agora("agora-timetable").await;
    // Started mid-day: the first turn begins at the next 00:00 UTC, orders due at 12:00 UTC
    // the day after.
    let begins = midnight_at_or_after(T0);
    let spring = current(&pool).await;
    assert_eq!(spring.deadline, begins + DAY + 12 * HOUR);
    // The start mail explains the timetable and one set of orders a turn, with an example.
    let start = outbox(&pool)
        .await
        .into_iter()
        .find(|o| o.1 == player(0))
        .expect("start mail")
        .3;
    let start = start.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(start.contains("Each turn begins at 00:00 UTC"), "{start}");
    assert!(start.contains("One set of orders a turn"), "{start}");
    assert!(start.contains("CONDITIONAL / A Par - Gas"), "{start}");
    // Orders may be sent, and changed, from the start; no extension moves the fixed times.
    let ack = mail(&pool, &secrets, 2, 1, "S1901M", "A Par - Bur", T0 + HOUR).await;
    assert!(ack.contains("A PAR - BUR"), "{ack}");
    let ack = mail(
        &pool,
        &secrets,
        2,
        2,
        "S1901M",
        "EXTEND 1 DAY",
        T0 + 2 * HOUR,
    )
    .await;
    assert!(
        ack.contains("fixed daily UTC timetable (Agora BT15)"),
        "{ack}"
    );
    assert_eq!(current(&pool).await.deadline, spring.deadline);
    // Everyone's orders final: no early adjudication on the timetable.
    for i in 0..7 {
        mail(
            &pool,
            &secrets,
            i,
            10 + i as u32,
            "S1901M",
            "FINAL",
            T0 + 3 * HOUR,
        )
        .await;
    }
    tick(&pool, T0 + 4 * HOUR).await;
    tick(&pool, spring.deadline - 60).await;
    assert_eq!(current(&pool).await.phase, "S1901M");
    // At the deadline: adjudicated, and the next turn begins at 24:00 UTC that day.
    assert_eq!(tick(&pool, spring.deadline + 5 * 60).await, 1);
    let fall = current(&pool).await;
    assert_eq!(fall.phase, "F1901M");
    assert_eq!(fall.deadline, begins + 2 * DAY + DAY + 12 * HOUR);
    assert!(results(&pool, "S1901M").await.is_some());
    // A proposal changes the hours mid-game: the next turn follows the new hours.
    let mut c = pool.acquire().await.expect("conn");
    let mut rules: Rules = serde_json::from_str(
        &store::game(&mut c, GAME)
            .await
            .expect("q")
            .expect("g")
            .rules,
    )
    .expect("rules");
    rules.negotiation_hours = 48;
    rules.ordering_hours = 24;
    rules.resolution_hours = 24;
    store::set_rules(&mut c, GAME, &serde_json::to_string(&rules).expect("json"))
        .await
        .expect("set");
    drop(c);
    assert_eq!(current(&pool).await.deadline, fall.deadline);
    assert_eq!(tick(&pool, fall.deadline).await, 1);
    let next = current(&pool).await;
    // The Fall deadline was 12:00; 24 hours on is 12:00 the next day, so the turn begins at
    // the midnight after, and orders are due 72 hours later.
    let next_begins = fall.deadline - 12 * HOUR + 2 * DAY;
    assert_eq!(next.deadline, next_begins + 3 * DAY);
}

/// Spring 1901: France takes Spain, its army goes to Burgundy; Germany moves to Ruhr and
/// Munich. Fall: Germany dislodges the army in Burgundy while France takes Portugal; France's
/// Fall orders carry `conditional` (none: no block). Every Fall deadline passed.
async fn fall_with(name: &str, conditional: &str) -> Pool {
    let (pool, secrets) = agora(name).await;
    mail(
        &pool,
        &secrets,
        2,
        1,
        "S1901M",
        "A Mar - Spa\nF Bre - Mao\nA Par - Bur",
        T0,
    )
    .await;
    mail(
        &pool,
        &secrets,
        3,
        2,
        "S1901M",
        "A Mun - Ruh\nA Ber - Mun",
        T0,
    )
    .await;
    let spring = current(&pool).await.deadline;
    assert_eq!(tick(&pool, spring).await, 1);
    mail(
        &pool,
        &secrets,
        3,
        3,
        "F1901M",
        "A Ruh - Bur\nA Mun S A Ruh - Bur",
        spring + HOUR,
    )
    .await;
    let orders = format!("F Mao - Por\nA Spa H\nA Bur H\n{conditional}");
    let ack = mail(&pool, &secrets, 2, 4, "F1901M", &orders, spring + HOUR).await;
    if !conditional.is_empty() {
        assert!(ack.contains("Agora BT15"), "{ack}");
    }
    let fall = current(&pool).await.deadline;
    assert_eq!(tick(&pool, fall).await, 1);
    pool
}

#[tokio::test]
async fn agora_bt15_bt23_one_order_set_resolves_the_retreat_and_builds_with_the_fall_turn() {
    let pool = fall_with(
        "agora-one-set",
        "CONDITIONAL\nA Bur - Mar\nBuild A Mar\nBuild F Bre\nBuild A Par\nENDCONDITIONAL",
    )
    .await;
    // No retreat or adjustment phase waits for a deadline of its own: Spring 1902 is open.
    let next = current(&pool).await;
    assert_eq!(next.phase, "S1902M");
    // The army retreated to Marseilles; Marseilles then taken, the next two builds were used.
    assert_eq!(
        units_of(&pool, "FRANCE").await,
        vec!["A MAR", "A PAR", "A SPA", "F BRE", "F POR"]
    );
    // Each phase resolved has its own results mail and its own row.
    let retreat = results(&pool, "F1901R").await.expect("retreat results");
    assert!(retreat.contains("(conditional)"), "{retreat}");
    assert!(retreat.contains("Agora BT15"), "{retreat}");
    let winter = results(&pool, "W1901A").await.expect("winter results");
    assert!(winter.contains("BUILD F BRE (conditional)"), "{winter}");
    let mut c = pool.acquire().await.expect("conn");
    let phases: Vec<(String, bool)> = sqlx::query_as::<_, (String, Option<i64>)>(
        "SELECT phase, adjudicated_at FROM phases WHERE game_id = $1 ORDER BY seq",
    )
    .bind(GAME)
    .fetch_all(&mut *c)
    .await
    .expect("phases")
    .into_iter()
    .map(|(phase, at)| (phase, at.is_some()))
    .collect();
    assert_eq!(
        phases,
        vec![
            ("S1901M".to_string(), true),
            ("F1901M".to_string(), true),
            ("F1901R".to_string(), true),
            ("W1901A".to_string(), true),
            ("S1902M".to_string(), false),
        ]
    );
}

#[tokio::test]
async fn agora_bt22_bt23_without_conditionals_the_unit_disbands_and_builds_are_waived() {
    let pool = fall_with("agora-one-set-none", "").await;
    assert_eq!(current(&pool).await.phase, "S1902M");
    // BT22: no retreat order, the dislodged army disbands; the two builds are waived.
    assert_eq!(units_of(&pool, "FRANCE").await, vec!["A SPA", "F POR"]);
}

/// France given 18 centres (BT16's majority of the standard map's 34) on the open phase's
/// board, from Austria's, Italy's and Germany's and the neutrals'.
async fn france_holds_eighteen(pool: &Pool) {
    let p = current(pool).await;
    let mut board: serde_json::Value = serde_json::from_str(&p.board).expect("board");
    let centres = [
        "PAR", "BRE", "MAR", "SPA", "POR", "BEL", "HOL", "MUN", "KIE", "BER", "DEN", "TUN", "NAP",
        "ROM", "VEN", "VIE", "TRI", "BUD",
    ];
    let mut all = serde_json::Map::new();
    all.insert("FRANCE".into(), serde_json::json!(centres));
    for (power, list) in [
        ("ENGLAND", vec!["LON", "LVP", "EDI"]),
        ("RUSSIA", vec!["MOS", "STP", "WAR", "SEV"]),
        ("TURKEY", vec!["ANK", "CON", "SMY"]),
    ] {
        all.insert(power.into(), serde_json::json!(list));
    }
    board["centers"] = serde_json::Value::Object(all);
    let mut c = pool.acquire().await.expect("conn");
    store::diplomacy::set_board(&mut c, GAME, p.seq, &board.to_string())
        .await
        .expect("board");
}

async fn game_row(pool: &Pool) -> store::GameRow {
    let mut c = pool.acquire().await.expect("conn");
    store::game(&mut c, GAME).await.expect("q").expect("game")
}

#[tokio::test]
async fn agora_bt16_bt3_eighteen_centres_win_announced_with_two_days_notice() {
    let (pool, _) = agora("agora-winner").await;
    france_holds_eighteen(&pool).await;
    let spring = current(&pool).await.deadline;
    assert_eq!(tick(&pool, spring).await, 1);
    // BT3: the victor is announced to everyone with the results, with 48 hours' notice; the
    // game goes on meanwhile.
    let told = results(&pool, "S1901M").await.expect("results");
    let told = told.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        told.contains("The Judge announces FRANCE as the winner of the tournament, with 48 hours' notice (Agora BT3; FRANCE controls 18 or more supply centres"),
        "{told}"
    );
    let g = game_row(&pool).await;
    assert_eq!(g.declared_winners.as_deref(), Some(r#"["FRANCE"]"#));
    assert_eq!(g.declared_end_at, Some(spring + 48 * HOUR));
    assert_eq!(current(&pool).await.phase, "F1901M");
    // Not yet...
    tick(&pool, spring + 47 * HOUR).await;
    assert_eq!(game_row(&pool).await.status.as_str(), "active");
    // ...then the tick concludes the tournament, with its final mail.
    assert_eq!(tick(&pool, spring + 48 * HOUR).await, 1);
    let g = game_row(&pool).await;
    assert_ne!(g.status.as_str(), "active");
    let ended = outbox(&pool)
        .await
        .into_iter()
        .rev()
        .find(|o| o.1 == player(0) && o.3.contains("FRANCE wins the tournament"))
        .expect("final mail");
    assert!(ended.3.contains("Agora BT3"), "{}", ended.3);
}

#[tokio::test]
async fn agora_bt3_the_judge_may_announce_several_winners() {
    let (pool, _) = agora("agora-winners").await;
    let cmd = chancery::commands::GmCommand::Winners(vec!["FRANCE".into(), "GERMANY".into()]);
    let done = games::console_command(&pool, &env(), GAME, &cmd, T0 + HOUR)
        .await
        .expect("winners");
    assert!(done.ok, "{}", done.answer);
    assert!(
        done.answer
            .contains("FRANCE and GERMANY announced as winners"),
        "{}",
        done.answer
    );
    let told = outbox(&pool)
        .await
        .into_iter()
        .rev()
        .find(|o| o.1 == player(0))
        .expect("announcement")
        .3;
    let told = told.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        told.contains("The Judge announces FRANCE and GERMANY as the winners of the tournament, with 48 hours' notice"),
        "{told}"
    );
    // An unknown seat, or a second announcement, is refused.
    let again = chancery::commands::GmCommand::Winners(vec!["ITALY".into()]);
    let refused = games::console_command(&pool, &env(), GAME, &again, T0 + 2 * HOUR)
        .await
        .expect("refused");
    assert!(
        !refused.ok && refused.answer.contains("announced already"),
        "{}",
        refused.answer
    );
    assert_eq!(tick(&pool, T0 + 49 * HOUR).await, 1);
    let g = game_row(&pool).await;
    assert_ne!(g.status.as_str(), "active");
    assert!(
        outbox(&pool)
            .await
            .iter()
            .any(|o| o.3.contains("FRANCE and GERMANY win the tournament")),
    );
}

#[test]
fn agora_bt9_a_province_changing_ownership_means_a_supply_centre() {
    // Agora BT9's "no province has changed ownership": only supply centres have owners in
    // Diplomacy (BT14, BT23: "supply centers" are what a Great Power controls), so the years
    // compared are the supply centres' owners at each year's end; armies marching through
    // other provinces change nothing.
    use store::diplomacy::CentreOwner;
    let year = |owner: &str| {
        vec![
            CentreOwner {
                centre: "Par".into(),
                owner: Some("FRANCE".into()),
            },
            CentreOwner {
                centre: "Bel".into(),
                owner: Some(owner.into()),
            },
        ]
    };
    let (a, b) = (year("FRANCE"), year("GERMANY"));
    let same: Vec<&[CentreOwner]> = vec![&a, &a, &a, &a];
    assert!(chancery::votes::stalemate(&same, 3));
    let changed: Vec<&[CentreOwner]> = vec![&a, &b, &b, &b, &b];
    assert!(
        chancery::votes::stalemate(&changed, 3),
        "three years unchanged since"
    );
    let recent: Vec<&[CentreOwner]> = vec![&a, &a, &a, &b];
    assert!(!chancery::votes::stalemate(&recent, 3));
}

/// Agora BT15, BT22, BT23: the acknowledgement of a turn's order set lists the conditionals it
/// lacks: Austria's fleet in Trieste, next to Italy's army in Venice, has no retreat; once one
/// is given, only the units still uncovered are listed. A Fall turn's set without builds or
/// removals says so.
#[tokio::test]
async fn agora_bt15_the_acknowledgement_lists_the_conditionals_the_set_lacks() {
    let (pool, secrets) = agora("agora-gaps").await;
    let ack = mail(&pool, &secrets, 0, 1, "S1901M", "A Vie H", T0 + HOUR).await;
    assert!(
        ack.contains("No retreat or disband is given for your units in"),
        "{ack}"
    );
    assert!(ack.contains("units in F TRI should"), "{ack}");
    assert!(ack.contains("Agora BT22"), "{ack}");
    assert!(!ack.contains("No builds or removals"), "Spring: {ack}");
    let ack = mail(
        &pool,
        &secrets,
        0,
        2,
        "S1901M",
        "A Vie H\nCONDITIONAL\nF Tri - Alb\nENDCONDITIONAL",
        T0 + 2 * HOUR,
    )
    .await;
    let listed = ack
        .split("No retreat or disband is given for your units in")
        .nth(1)
        .unwrap_or("")
        .split("should they be")
        .next()
        .unwrap_or("")
        .to_string();
    assert!(!listed.contains("TRI"), "{ack}");
}

/// Agora BT10: "Contestants CAN and SHOULD lie and engage in deceit for personal gain": the
/// Judge publishes press as written and holds no contestant to it; a promise in the press
/// binds nothing, and the moves the results show are the orders, not the promise.
#[tokio::test]
async fn agora_bt10_press_is_published_as_written_and_binds_nobody() {
    let (pool, secrets) = agora("agora-deceit").await;
    let ack = mail(
        &pool,
        &secrets,
        2,
        1,
        "S1901M",
        "A Par - Bur\nA Mar S A Par - Bur\nPRESS TO ALL\nFrance promises never to enter Burgundy.\nENDPRESS",
        T0 + HOUR,
    )
    .await;
    assert!(ack.contains("accepted"), "{ack}");
    let spring = current(&pool).await;
    tick(&pool, spring.deadline + 60).await;
    let results = results(&pool, "S1901M").await.expect("results");
    let flat = results.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("France promises never to enter Burgundy."),
        "{results}"
    );
    assert!(flat.contains("A PAR - BUR: succeeds"), "{results}");
}
