//! Tournaments through the real engine and a real SQLite file, without mail (issue 14): a World
//! Masters round one of 35 boards played by scripted players with an injected clock, its
//! standings, advancement and best country, byte-identical for the same seed; the directors'
//! commands by mail (delivered straight to the engine) and their refusals.

#[path = "common/engine.rs"]
#[allow(dead_code)]
mod fixtures;

use chancery::adjudicator::Board;
use chancery::engine::Processed;
use chancery::games;
use chancery::games::diplomacy::tournament;
use chancery::map::{Location, Map};
use chancery::phase::PhaseKind;
use chancery::policy::{DAY, Ts};
use chancery::store;
use chancery::store::Pool;
use chancery::store::diplomacy::{EntrantRow, TournamentRow};
use chancery::td_commands::TdCommand;
use fixtures::{POWERS, T0, deliver, env, outbox, raw};

const TD: &str = "td@example.test";

/// A fresh database for a tournament test.
async fn pool(name: &str) -> Pool {
    let dir =
        std::env::temp_dir().join(format!("chancery-tournament-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    store::open(&dir.join("chancery.sqlite"))
        .await
        .expect("open")
}

/// A WM 2004 tournament with its director, and `teams` full teams of seven signed up, each
/// player given a power by the team (WM B.5): `p<team>x<k>@example.test`.
async fn wm_tournament(pool: &Pool, id: &str, seed: &str, teams: usize) -> (TournamentRow, String) {
    let t = tournament::create(
        pool,
        &tournament::NewTournament {
            id,
            rulebook: "wm2004",
            preset: None,
            variant: None,
            gm_address: "gm@example.test",
            confirm_address: "confirm@example.test",
            seed: Some(seed),
            options: &[],
        },
        T0,
    )
    .await
    .expect("create");
    let d = tournament::add_director(pool, id, TD, "UTC")
        .await
        .expect("director");
    let mut c = pool.acquire().await.expect("conn");
    for team in 0..teams {
        for (k, power) in POWERS.iter().enumerate() {
            let e = EntrantRow {
                address: format!("p{team:02}x{k}@example.test"),
                name: format!("Player {team:02}-{k}"),
                tz: "UTC".into(),
                team: Some(format!("team{team:02}")),
                captain: k == 0,
                power: Some(power.to_string()),
                reserve: false,
                declined: false,
            };
            tournament::add_entrant(&mut c, &t, &e)
                .await
                .expect("entrant");
        }
    }
    (t, d.secret)
}

/// SplitMix64 over a string: the scripted players' choices, reproducible.
fn pick(key: &str, n: usize) -> usize {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    for b in key.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 31;
    }
    (h % n.max(1) as u64) as usize
}

fn loc(map: &Map, l: Location) -> String {
    let code = &map.info(l.province).code;
    match l.coast {
        Some(c) => format!("{code}/{}", c.code()),
        None => code.clone(),
    }
}

/// A scripted player's orders for `power` on `board`: in movement, each unit holds or moves to
/// a neighbour, chosen from the key; retreats disband; builds use free home centres as armies;
/// disbands take the first units.
fn scripted_orders(map: &Map, board: &Board, power: &str, key: &str) -> Vec<String> {
    let Some(p) = map.power_by_name(power) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match board.phase.kind {
        PhaseKind::Movement => {
            for u in board.units.iter().filter(|u| u.power == p) {
                let from = loc(map, u.location);
                let targets: Vec<String> = match u.unit_type {
                    chancery::map::UnitType::Army => map
                        .army_neighbours(u.location.province)
                        .iter()
                        .map(|q| map.info(q).code.clone())
                        .collect(),
                    chancery::map::UnitType::Fleet => map
                        .fleet_neighbours(u.location)
                        .iter()
                        .map(|l| loc(map, *l))
                        .collect(),
                };
                let choice = pick(&format!("{key}|{from}"), targets.len() + 2);
                match targets.get(choice) {
                    Some(to) => out.push(format!("{} {from} - {to}", u.unit_type.letter())),
                    None => out.push(format!("{} {from} H", u.unit_type.letter())),
                }
            }
        }
        PhaseKind::Retreat => {
            for d in board.dislodged.iter().filter(|d| d.unit.power == p) {
                out.push(format!(
                    "{} {} DISBAND",
                    d.unit.unit_type.letter(),
                    loc(map, d.unit.location)
                ));
            }
        }
        PhaseKind::Adjustment => {
            let centres = board.center_count(p);
            let units = board.unit_count(p);
            if centres > units {
                let free: Vec<String> = board
                    .home_centers(p)
                    .filter(|h| board.owner(*h) == Some(p) && board.unit_at(*h).is_none())
                    .map(|h| map.info(h).code.clone())
                    .take(centres - units)
                    .collect();
                for h in &free {
                    out.push(format!("BUILD A {h}"));
                }
                if free.is_empty() {
                    out.push("WAIVE".into());
                }
            } else {
                for u in board
                    .units
                    .iter()
                    .filter(|u| u.power == p)
                    .take(units - centres)
                {
                    out.push(format!(
                        "DISBAND {} {}",
                        u.unit_type.letter(),
                        loc(map, u.location)
                    ));
                }
            }
        }
    }
    out
}

/// Play every active board of the tournament to its end: before each deadline every player
/// with orders due sends them (an order mail, delivered to the engine), then the clock moves
/// past the earliest deadline and the tick runs. Returns the number of mails delivered.
async fn play_out(pool: &Pool, t: &TournamentRow) -> usize {
    let map = Map::variant(&t.variant).expect("map");
    let mut uid = 10_000u32;
    let mut now: Ts = T0 + 60;
    let mut ordered: std::collections::HashSet<(String, i64)> = Default::default();
    for _ in 0..400 {
        let mut c = pool.acquire().await.expect("conn");
        let boards = store::diplomacy::boards(&mut c, &t.id)
            .await
            .expect("boards");
        let mut next_deadline: Option<Ts> = None;
        let mut mails = Vec::new();
        for b in &boards {
            let g = store::game(&mut c, &b.game_id)
                .await
                .expect("game")
                .expect("row");
            if g.status != store::GameStatus::Active {
                continue;
            }
            let phase = store::current_phase(&mut c, &g.id)
                .await
                .expect("phase")
                .expect("open");
            next_deadline = Some(next_deadline.map_or(phase.deadline, |d| d.min(phase.deadline)));
            if !ordered.insert((g.id.clone(), phase.seq)) {
                continue;
            }
            let board =
                chancery::games::diplomacy::board_from_json(map, &phase.board, &phase.phase)
                    .expect("board");
            for player in store::players(&mut c, &g.id).await.expect("players") {
                let orders = scripted_orders(
                    map,
                    &board,
                    &player.power,
                    &format!("{}|{}|{}", g.id, phase.phase, player.power),
                );
                if orders.is_empty() {
                    continue;
                }
                let subject = format!("{} {} {}", g.id, player.power, phase.phase);
                let body = format!("SECRET {}\n{}\n", player.secret, orders.join("\n"));
                mails.push((player.address.clone(), subject, body));
            }
        }
        drop(c);
        let Some(deadline) = next_deadline else {
            return (uid - 10_000) as usize;
        };
        for (from, subject, body) in mails {
            uid += 1;
            let id = format!("Message-ID: <o{uid}@players.example.test>\r\n");
            let got = deliver(
                pool,
                "gm",
                uid,
                &raw(&from, "gm@example.test", &subject, &id, &body),
                Some(now),
                now,
            )
            .await;
            assert_eq!(got, Processed::Accepted, "{subject}");
        }
        now = now.max(deadline + 1);
        games::tick(pool, &env(), now).await.expect("tick");
    }
    panic!("the boards did not end in 400 deadlines");
}

/// The standings now, as the mail and the console show them, and as CSV.
async fn standings_text(pool: &Pool, t: &TournamentRow) -> (String, String, tournament::Table) {
    let mut c = pool.acquire().await.expect("conn");
    let table = tournament::table(&mut c, t).await.expect("standings");
    let text = chancery::outgoing::diplomacy::standings::standings_table(
        &t.id,
        &table.standings,
        table.finished,
        table.games,
        &table.names,
    );
    let csv = chancery::standings::csv(&table.standings);
    (text, csv, table)
}

/// One simulated WM round one of 35 boards: made by the TD's ROUND, played out, scored.
async fn simulate_round_one(
    name: &str,
    seed: &str,
    round_two: bool,
) -> (String, String, tournament::Table, usize) {
    let pool = pool(name).await;
    let (t, _) = wm_tournament(&pool, "wm04", seed, 35).await;
    let said = tournament::console(&pool, &env(), "wm04", &TdCommand::Round, T0)
        .await
        .expect("round");
    assert!(said.starts_with("round 1 made: 35 board(s)"), "{said}");
    // WM B.6 (a), (b): the seating met both (the teams give distinct powers).
    assert!(!said.contains("could not meet"), "{said}");
    let mails = play_out(&pool, &t).await;
    let (text, csv, table) = standings_text(&pool, &t).await;
    // After each board's end the director got the standings (WM C; issue 14 point 4).
    let standings_mails: Vec<String> = outbox(&pool)
        .await
        .into_iter()
        .filter(|(kind, to, _, _)| kind == "standings" && to == TD)
        .map(|(_, _, subject, _)| subject)
        .collect();
    assert!(
        standings_mails
            .last()
            .is_some_and(|s| s == "wm04 standings: round 1, 35 of 35 games over"),
        "{standings_mails:?}"
    );
    if round_two {
        // Round two seats those who advanced (WM B.4: 17 boards), powers drawn anew, no one on
        // a power twice and no two players meeting twice (B.6 c, d).
        let said = tournament::console(&pool, &env(), "wm04", &TdCommand::Round, T0 + 400 * DAY)
            .await
            .expect("round two");
        assert!(said.starts_with("round 2 made: 17 board(s)"), "{said}");
        assert!(!said.contains("could not meet"), "{said}");
        let mut c = pool.acquire().await.expect("conn");
        let mut seated = Vec::new();
        for b in 1..=17 {
            let game = format!("wm04r2b{b}");
            for p in store::players(&mut c, &game).await.expect("players") {
                seated.push(p.address);
            }
        }
        seated.sort();
        let mut advancing = table.standings.advancing.clone();
        advancing.sort();
        assert_eq!(seated, advancing, "round two is who advanced");
    }
    pool.close().await;
    (text, csv, table, mails)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wm_round_one_of_35_boards_is_played_scored_and_ranked_reproducibly() {
    // The same seed twice, each in a database of its own (side by side: the test's two
    // workers), must give the same standings, byte for byte.
    let again = tokio::spawn(simulate_round_one("sim-b", "WM2004 published seed", false));
    let (text, csv, table, mails) =
        simulate_round_one("sim-a", "WM2004 published seed", true).await;
    let (text2, csv2, _, _) = again.await.expect("the second run");
    let s = &table.standings;
    assert_eq!((table.finished, table.games), (35, 35));
    assert!(
        mails > 35 * 7 * 10,
        "scripted players sent {mails} order mails"
    );
    // Every player ranked once, places in order.
    assert_eq!(s.players.len(), 245);
    let mut seen: Vec<&str> = s.players.iter().map(|p| p.player.as_str()).collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 245);
    assert!(s.players.windows(2).all(|w| w[0].place <= w[1].place));
    assert!(s.players.windows(2).all(|w| w[0].score >= w[1].score));
    // WM C.6: the top ten teams' players get 10 down to 1 credits; the others none.
    assert_eq!(s.teams.len(), 35);
    let credits: Vec<f64> = s.teams.iter().map(|t| t.credits).collect();
    assert_eq!(
        &credits[..10],
        &[10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    );
    assert!(credits[10..].iter().all(|c| *c == 0.0));
    // WM C.7: the score ranked is the game's plus the team's credits.
    for p in &s.players {
        assert!((p.score - p.game_score - p.credits).abs() < 1e-9, "{p:?}");
    }
    // WM B.4: 35 teams (245 players): 28 boards would be more than half, so 17 boards advance.
    assert_eq!(chancery::standings::wm_round_two_boards(35), 17);
    assert_eq!(s.advancing.len(), 17 * 7);
    let top: Vec<&str> = s.players[..119].iter().map(|p| p.player.as_str()).collect();
    assert_eq!(
        s.advancing.iter().map(String::as_str).collect::<Vec<_>>(),
        top
    );
    // WM C.13: a best country for each of the seven powers.
    assert_eq!(s.best_country.len(), 7);
    assert!(text.contains("Best country"), "{text}");
    assert!(
        text.contains("Advancing to round 2 (119 players)"),
        "{text}"
    );
    // Each place says what decided it.
    assert!(s.players.iter().all(|p| !p.decided_by.is_empty()));

    assert_eq!(text, text2);
    assert_eq!(csv, csv2);
}

#[tokio::test]
async fn directors_command_a_tournament_by_mail_and_strangers_cannot() {
    let pool = pool("td-mail").await;
    let (_, secret) = wm_tournament(&pool, "wm05", "seed", 1).await;
    // A stranger's command mail does nothing; the director hears of it, the stranger gets no answer.
    let stranger = raw(
        "eve@example.test",
        "gm@example.test",
        "wm05 TD",
        "Message-ID: <s1@example.test>\r\n",
        "ROUND\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &stranger, Some(T0), T0).await,
        Processed::Rejected
    );
    let mut c = pool.acquire().await.expect("conn");
    assert!(
        store::diplomacy::boards(&mut c, "wm05")
            .await
            .expect("boards")
            .is_empty()
    );
    drop(c);
    let out = outbox(&pool).await;
    assert!(
        out.iter().all(|(_, to, _, _)| to != "eve@example.test"),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|(kind, to, s, _)| kind == "alert" && to == TD && s.contains("refused")),
        "{out:?}"
    );
    // The director with a wrong secret: refused, answered.
    let forged = raw(
        TD,
        "gm@example.test",
        "wm05 TD",
        "Message-ID: <s2@example.test>\r\n",
        "SECRET wrong\nROUND\n",
    );
    assert_eq!(
        deliver(&pool, "gm", 2, &forged, Some(T0), T0).await,
        Processed::Rejected
    );
    // The director: one more entrant is refused (the team is full, WM B.2), the round is made.
    let body = format!(
        "SECRET {secret}\nENTRANT late@example.test TEAM team00\nROUND\nSTATUS\nDECLINE nobody@example.test\n"
    );
    let mail = raw(
        TD,
        "gm@example.test",
        "Re: wm05 TD",
        "Message-ID: <s3@example.test>\r\n",
        &body,
    );
    assert_eq!(
        deliver(&pool, "gm", 3, &mail, Some(T0), T0).await,
        Processed::Accepted
    );
    let reply = outbox(&pool)
        .await
        .into_iter()
        .rfind(|(kind, to, s, _)| kind == "command-reply" && to == TD && s.starts_with("wm05 TD"))
        .map(|(k, t, s, body)| (k, t, s, body.replace("\n  ", " ")))
        .expect("the director's reply (its wrapped lines joined)");
    assert!(
        reply
            .3
            .contains("REFUSED: team team00 already has 7 players (WM B.2"),
        "{}",
        reply.3
    );
    assert!(
        reply.3.contains("OK: round 1 made: 1 board(s), wm05r1b1"),
        "{}",
        reply.3
    );
    // One team alone cannot be kept apart (WM B.6 b): the reply says so, briefly.
    assert!(
        reply.3.contains("could not meet 21 constraint(s)"),
        "{}",
        reply.3
    );
    assert!(
        reply.3.contains("round 1 board 1: wm05r1b1 active"),
        "{}",
        reply.3
    );
    assert!(
        reply
            .3
            .contains("REFUSED: nobody@example.test is not an entrant"),
        "{}",
        reply.3
    );
    // Every player got a start mail for the board, with their power (WM B.5: the team's).
    let starts: Vec<(String, String, String, String)> = outbox(&pool)
        .await
        .into_iter()
        .filter(|(kind, _, s, _)| kind == "start" && s.contains("wm05r1b1"))
        .collect();
    assert!(starts.len() >= 7, "{starts:?}");
    let mut c = pool.acquire().await.expect("conn");
    let players = store::players(&mut c, "wm05r1b1").await.expect("players");
    for p in &players {
        let k = POWERS.iter().position(|x| *x == p.power).expect("power");
        assert_eq!(p.address, format!("p00x{k}@example.test"));
    }
    // The board is to Fall 1909 (WM B.3).
    let g = store::game(&mut c, "wm05r1b1")
        .await
        .expect("game")
        .expect("row");
    let rules: chancery::rules::Rules = serde_json::from_str(&g.rules).expect("rules");
    assert_eq!(rules.final_year, Some(1909));
    // RELEASE: the standings go to every entrant and the director, and the tournament stays
    // released (every finished game's standings will go to all).
    let release = raw(
        TD,
        "gm@example.test",
        "wm05 TD",
        "Message-ID: <s4@example.test>\r\n",
        &format!("SECRET {secret}\nRELEASE\n"),
    );
    assert_eq!(
        deliver(&pool, "gm", 4, &release, Some(T0), T0).await,
        Processed::Accepted
    );
    let mut readers: Vec<String> = outbox(&pool)
        .await
        .into_iter()
        .filter(|(kind, _, s, _)| kind == "standings" && s.starts_with("wm05 standings"))
        .map(|(_, to, _, _)| to)
        .collect();
    readers.sort();
    let mut want: Vec<String> = (0..7).map(|k| format!("p00x{k}@example.test")).collect();
    want.push(TD.to_string());
    want.sort();
    assert_eq!(readers, want);
    assert!(
        store::diplomacy::tournament(&mut c, "wm05")
            .await
            .expect("q")
            .expect("row")
            .released
    );
    // A second ROUND while round one plays is refused.
    drop(c);
    let again = tournament::console(&pool, &env(), "wm05", &TdCommand::Round, T0).await;
    assert!(
        again.is_err_and(|e| e.to_string().contains("round 1 is not over")),
        "a round is made only when the last is over"
    );
}

#[tokio::test]
async fn a_round_refused_on_a_later_board_by_mail_makes_no_board_at_all() {
    // Issue 21: by mail, a ROUND refused on board 2 kept board 1 (its game, its row, its
    // players' start mails), though the director was told it was refused. All or nothing, as
    // at the console.
    let pool = pool("round-all-or-nothing").await;
    let (_, secret) = wm_tournament(&pool, "wm07", "seed", 2).await;
    // Board 2's game name is taken: the round is refused when it comes to it.
    chancery::games::diplomacy::admin::create_game(
        &pool,
        &chancery::games::diplomacy::admin::NewGame {
            id: "wm07r1b2",
            preset: "wm2004",
            variant: "standard",
            gm_address: "gm@example.test",
            confirm_address: "confirm@example.test",
            options: &[],
        },
        T0,
    )
    .await
    .expect("the game in the way");
    let mail = raw(
        TD,
        "gm@example.test",
        "wm07 TD",
        "Message-ID: <r1@example.test>\r\n",
        &format!("SECRET {secret}\nROUND\nSTATUS\n"),
    );
    assert_eq!(
        deliver(&pool, "gm", 1, &mail, Some(T0), T0).await,
        Processed::Accepted
    );
    let out = outbox(&pool).await;
    let reply = out
        .iter()
        .rfind(|(kind, to, _, _)| kind == "command-reply" && to == TD)
        .map(|(_, _, _, body)| body.replace("\n  ", " "))
        .expect("the director's reply");
    assert!(reply.contains("REFUSED: "), "{reply}");
    assert!(reply.contains("0 board(s) made"), "{reply}");
    let mut c = pool.acquire().await.expect("conn");
    assert!(
        store::diplomacy::boards(&mut c, "wm07")
            .await
            .expect("boards")
            .is_empty()
    );
    assert!(
        store::game(&mut c, "wm07r1b1")
            .await
            .expect("game")
            .is_none(),
        "board 1's game was undone with the round"
    );
    assert!(
        out.iter().all(|(kind, _, _, _)| kind != "start"),
        "no start mail for a round that was not made: {out:?}"
    );
}

#[tokio::test]
async fn released_standings_name_players_never_by_address() {
    // Issue 21: the released standings go to every player, and showed the address of each
    // entrant who gave no name. They show the name, or "player N" (by sign-up order).
    let pool = pool("public-names").await;
    let (t, _) = wm_tournament(&pool, "wm08", "seed", 1).await;
    let mut c = pool.acquire().await.expect("conn");
    // All but the first player of the team signed up without a name.
    sqlx::query("UPDATE entrants SET name = '' WHERE address <> 'p00x0@example.test'")
        .execute(&mut *c)
        .await
        .expect("no names");
    drop(c);
    tournament::console(&pool, &env(), &t.id, &TdCommand::Round, T0)
        .await
        .expect("round");
    tournament::console(&pool, &env(), &t.id, &TdCommand::Release, T0)
        .await
        .expect("release");
    let released: Vec<String> = outbox(&pool)
        .await
        .into_iter()
        .filter(|(kind, _, s, _)| kind == "standings" && s.starts_with("wm08 standings"))
        .map(|(_, _, _, body)| body)
        .collect();
    assert_eq!(released.len(), 8, "seven players and the director");
    for body in &released {
        assert!(!body.contains("@example.test"), "{body}");
        assert!(
            body.contains("Player 00-0"),
            "a name given is shown: {body}"
        );
        for n in 2..=7 {
            assert!(body.contains(&format!("player {n} ")), "player {n}: {body}");
        }
    }
    // The console keeps showing the directors who is who.
    let mut c = pool.acquire().await.expect("conn");
    let table = tournament::table(&mut c, &t).await.expect("table");
    assert_eq!(table.names["p00x3@example.test"], "p00x3@example.test");
    assert_eq!(table.public_names["p00x3@example.test"], "player 4");
}

#[tokio::test]
async fn sign_up_is_checked_against_the_rulebook() {
    let pool = pool("signup").await;
    let (t, _) = wm_tournament(&pool, "wm06", "seed", 1).await;
    let mut c = pool.acquire().await.expect("conn");
    let e = |address: &str, team: &str, power: Option<&str>| EntrantRow {
        address: address.into(),
        name: String::new(),
        tz: "UTC".into(),
        team: Some(team.into()),
        captain: false,
        power: power.map(str::to_string),
        reserve: false,
        declined: false,
    };
    // WM B.2: teams of seven.
    let full = tournament::add_entrant(&mut c, &t, &e("x@example.test", "team00", None)).await;
    assert!(full.is_err_and(|e| e.to_string().contains("WM B.2")));
    // WM B.6(a): no two of a team on one power.
    tournament::add_entrant(&mut c, &t, &e("a@example.test", "team01", Some("FRANCE")))
        .await
        .expect("first");
    let twice =
        tournament::add_entrant(&mut c, &t, &e("b@example.test", "team01", Some("france"))).await;
    assert!(twice.is_err_and(|e| e.to_string().contains("WM B.6(a)")));
    let unknown =
        tournament::add_entrant(&mut c, &t, &e("c@example.test", "team01", Some("SPAIN"))).await;
    assert!(unknown.is_err_and(|e| e.to_string().contains("unknown power")));
    drop(c);
    // WM B.2: a round cannot start with a team short of seven.
    let short = tournament::console(&pool, &env(), "wm06", &TdCommand::Round, T0).await;
    assert!(
        short.is_err_and(|e| e.to_string().contains("team team01 has 1 players")),
        "a short team stops the round"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_maharajiad_is_played_from_its_first_round_to_its_winner() {
    let pool = pool("maharajiad").await;
    let t = tournament::create(
        &pool,
        &tournament::NewTournament {
            id: "mj1",
            rulebook: "maharajiad",
            preset: None,
            variant: None,
            gm_address: "gm@example.test",
            confirm_address: "confirm@example.test",
            seed: None,
            options: &[],
        },
        T0,
    )
    .await
    .expect("create");
    assert_eq!((t.variant.as_str(), t.seed.as_str()), ("maharajah", "mj1"));
    let mut c = pool.acquire().await.expect("conn");
    for i in 0..42 {
        let e = EntrantRow {
            address: format!("m{i:02}@example.test"),
            name: format!("Player {i:02}"),
            tz: "UTC".into(),
            team: None,
            captain: false,
            power: None,
            reserve: false,
            declined: false,
        };
        tournament::add_entrant(&mut c, &t, &e)
            .await
            .expect("entrant");
    }
    drop(c);
    // Maharajiad A.10: six first-round boards to Fall 1510.
    let said = tournament::console(&pool, &env(), "mj1", &TdCommand::Round, T0)
        .await
        .expect("round one");
    assert!(said.starts_with("round 1 made: 6 board(s)"), "{said}");
    play_out(&pool, &t).await;
    let mut c = pool.acquire().await.expect("conn");
    let table = tournament::table(&mut c, &t).await.expect("standings");
    drop(c);
    let s = &table.standings;
    assert_eq!((table.finished, table.games), (6, 6));
    // A.16: each board's best, then the best of the rest: seven advance.
    assert_eq!(s.advancing.len(), 7);
    for b in 1..=6u32 {
        let best = s
            .players
            .iter()
            .filter(|p| p.board == Some(b))
            .max_by(|x, y| x.score.total_cmp(&y.score))
            .expect("a board's players");
        assert!(
            s.players
                .iter()
                .filter(|p| p.board == Some(b) && p.advances)
                .any(|p| p.score == best.score),
            "board {b}'s best advances (A.16)"
        );
    }
    assert!(s.teams.is_empty(), "A.1: an individual tournament");
    assert_eq!(s.best_country.len(), 7, "A.22");
    // Round two: the seven on one board, played until a victory (A.10).
    let said = tournament::console(&pool, &env(), "mj1", &TdCommand::Round, T0 + 400 * DAY)
        .await
        .expect("round two");
    assert!(
        said.starts_with("round 2 made: 1 board(s), mj1r2b1"),
        "{said}"
    );
    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, "mj1r2b1")
        .await
        .expect("q")
        .expect("game");
    let rules: chancery::rules::Rules = serde_json::from_str(&g.rules).expect("rules");
    assert_eq!(rules.final_year, None, "the final plays until a victory");
    let players = store::players(&mut c, "mj1r2b1").await.expect("players");
    let mut seated: Vec<String> = players.iter().map(|p| p.address.clone()).collect();
    seated.sort();
    let mut advancing = s.advancing.clone();
    advancing.sort();
    assert_eq!(seated, advancing);
    drop(c);
    // Everyone orders and votes a draw: the game ends, and the standings name the winner (A.17).
    let now = T0 + 400 * DAY + 60;
    let mut uid = 90_000;
    draw_the_round(&pool, &t, &mut uid, now).await;
    let mut c = pool.acquire().await.expect("conn");
    let table = tournament::table(&mut c, &t).await.expect("standings");
    let s = &table.standings;
    assert_eq!(s.round, 2);
    assert_eq!((table.finished, table.games), (1, 1));
    assert_eq!(s.players.len(), 7);
    let winner = s.winner.clone().expect("A.17: the winner");
    assert_eq!(winner, s.players[0].player);
    assert!(s.advancing.is_empty(), "nothing after the last round");
    // Round one's standings stay to be read after round two.
    let one = tournament::table_of(&mut c, &t, Some(1))
        .await
        .expect("round one");
    assert_eq!(one.standings.round, 1);
    assert_eq!(one.standings.advancing.len(), 7);
    assert!(tournament::table_of(&mut c, &t, Some(3)).await.is_err());
    drop(c);
    let more = tournament::console(&pool, &env(), "mj1", &TdCommand::Round, now).await;
    assert!(
        more.is_err_and(|e| e.to_string().contains("has 2 rounds")),
        "A.9: two rounds"
    );
}

/// Every unit of `power` holds.
fn holds(map: &Map, board: &Board, power: &str) -> Vec<String> {
    let p = map.power_by_name(power).expect("power");
    board
        .units
        .iter()
        .filter(|u| u.power == p)
        .map(|u| format!("{} {} H", u.unit_type.letter(), loc(map, u.location)))
        .collect()
}

#[tokio::test]
async fn an_nmr_on_a_board_is_told_to_the_players_team() {
    // WM B.8(b): "In the event of an NMR the GM will notify the TD who will send an email to
    // both the Team Captain and Team Members."
    let pool = pool("team-nmr").await;
    let (_, _) = wm_tournament(&pool, "wm07", "seed", 2).await;
    tournament::console(&pool, &env(), "wm07", &TdCommand::Round, T0)
        .await
        .expect("round");
    let map = Map::standard();
    let game = "wm07r1b1";
    let mut uid = 500;
    let mut now = T0 + 60;
    let mut c = pool.acquire().await.expect("conn");
    let players = store::players(&mut c, game).await.expect("players");
    drop(c);
    let absent = players
        .iter()
        .find(|p| p.power == "ENGLAND")
        .expect("england")
        .clone();
    // Everyone holds through 1901; in Spring 1902 England's player sends nothing.
    for _ in 0..3 {
        let mut c = pool.acquire().await.expect("conn");
        let phase = store::current_phase(&mut c, game)
            .await
            .expect("phase")
            .expect("open");
        drop(c);
        let board = chancery::games::diplomacy::board_from_json(map, &phase.board, &phase.phase)
            .expect("board");
        for p in &players {
            if phase.phase == "S1902M" && p.power == "ENGLAND" {
                continue;
            }
            uid += 1;
            let body = format!(
                "SECRET {}\n{}\n",
                p.secret,
                holds(map, &board, &p.power).join("\n")
            );
            let id = format!("Message-ID: <h{uid}@players.example.test>\r\n");
            let subject = format!("{game} {} {}", p.power, phase.phase);
            deliver(
                &pool,
                "gm",
                uid,
                &raw(&p.address, "gm@example.test", &subject, &id, &body),
                Some(now),
                now,
            )
            .await;
        }
        now = phase.deadline + 1;
        games::tick(&pool, &env(), now).await.expect("tick");
    }
    // The contact window (48 hours, 96 over a weekend: WM D.VII(6)(a)) closes without contact.
    games::tick(&pool, &env(), now + 97 * 3600)
        .await
        .expect("tick");
    let team = absent.address.split('x').next().expect("team").to_string();
    let told: Vec<(String, String, String, String)> = outbox(&pool)
        .await
        .into_iter()
        .filter(|(kind, _, s, _)| kind == "notice" && s.contains("your team chooses a replacement"))
        .collect();
    let mut to: Vec<&str> = told.iter().map(|(_, to, _, _)| to.as_str()).collect();
    to.sort();
    let mut mates: Vec<String> = (0..7)
        .map(|k| format!("{team}x{k}@example.test"))
        .filter(|a| *a != absent.address)
        .collect();
    mates.sort();
    assert_eq!(to, mates, "the six team-mates, and no one else");
    let body = &told[0].3;
    assert!(body.contains("ENGLAND"), "{body}");
    assert!(
        body.contains(&format!("{team}x0@example.test")),
        "the captain is named: {body}"
    );
    assert!(body.contains("WM B.8(c)"), "round one's rule: {body}");
}

#[tokio::test]
async fn a_board_rolled_back_after_its_end_is_no_longer_scored() {
    // WM D.VIII(1): a rollback of a finished board makes it play on; the standings then count
    // it as playing, and how it had ended is forgotten.
    let pool = pool("rollback").await;
    let (t, _) = wm_tournament(&pool, "wm08", "seed", 1).await;
    tournament::console(&pool, &env(), "wm08", &TdCommand::Round, T0)
        .await
        .expect("round");
    let game = "wm08r1b1";
    let deadline = {
        let mut c = pool.acquire().await.expect("conn");
        store::current_phase(&mut c, game)
            .await
            .expect("phase")
            .expect("open")
            .deadline
    };
    let mut uid = 700;
    draw_the_round(&pool, &t, &mut uid, T0 + 60).await;
    let mut c = pool.acquire().await.expect("conn");
    let table = tournament::table(&mut c, &t).await.expect("standings");
    assert_eq!((table.finished, table.games), (1, 1), "the draw ended it");
    assert!(
        store::diplomacy::game_ended(&mut c, game)
            .await
            .expect("q")
            .is_some()
    );
    drop(c);
    let done = games::console_command_as(
        &pool,
        &env(),
        game,
        &chancery::commands::GmCommand::Rollback("S1901M".into()),
        true,
        deadline + 60,
    )
    .await
    .expect("rollback");
    assert!(done.ok, "{}", done.answer);
    let mut c = pool.acquire().await.expect("conn");
    let table = tournament::table(&mut c, &t).await.expect("standings");
    assert_eq!((table.finished, table.games), (0, 1), "playing again");
    assert!(
        store::diplomacy::game_ended(&mut c, game)
            .await
            .expect("q")
            .is_none()
    );
}

#[tokio::test]
async fn a_round_makes_its_games_from_the_preset_and_the_tournaments_options() {
    // Issue 14, point 1: "A round creates its games from a preset and its settings (the end
    // year ...; deadlines)".
    let pool = pool("options").await;
    let options = [
        ("movement_days".to_string(), "5".to_string()),
        ("submissions".to_string(), "merge_per_unit".to_string()),
    ];
    tournament::create(
        &pool,
        &tournament::NewTournament {
            id: "wm09",
            rulebook: "wm2004",
            preset: None,
            variant: None,
            gm_address: "gm@example.test",
            confirm_address: "confirm@example.test",
            seed: None,
            options: &options,
        },
        T0,
    )
    .await
    .expect("create");
    let bad = tournament::create(
        &pool,
        &tournament::NewTournament {
            id: "wm10",
            rulebook: "wm2004",
            preset: None,
            variant: None,
            gm_address: "gm@example.test",
            confirm_address: "confirm@example.test",
            seed: None,
            options: &[("movement_days".to_string(), "soon".to_string())],
        },
        T0,
    )
    .await;
    assert!(bad.is_err(), "a bad option is refused at creation");
    let t = {
        let mut c = pool.acquire().await.expect("conn");
        tournament::get(&mut c, "wm09").await.expect("t")
    };
    let mut c = pool.acquire().await.expect("conn");
    for (k, power) in POWERS.iter().enumerate() {
        let e = EntrantRow {
            address: format!("o{k}@example.test"),
            name: String::new(),
            tz: "UTC".into(),
            team: Some("solo".into()),
            captain: k == 0,
            power: Some(power.to_string()),
            reserve: false,
            declined: false,
        };
        tournament::add_entrant(&mut c, &t, &e)
            .await
            .expect("entrant");
    }
    drop(c);
    tournament::console(&pool, &env(), "wm09", &TdCommand::Round, T0)
        .await
        .expect("round");
    let mut c = pool.acquire().await.expect("conn");
    let g = store::game(&mut c, "wm09r1b1")
        .await
        .expect("q")
        .expect("game");
    let rules: chancery::rules::Rules = serde_json::from_str(&g.rules).expect("rules");
    assert_eq!(rules.name, "wm2004");
    assert_eq!(rules.movement_days, 5);
    assert_eq!(rules.final_year, Some(1909), "WM B.3");
    assert_eq!(
        serde_json::to_value(rules.submissions).expect("json"),
        serde_json::json!("merge_per_unit")
    );
    let phase = store::current_phase(&mut c, "wm09r1b1")
        .await
        .expect("phase")
        .expect("open");
    assert!(
        phase.deadline >= T0 + 5 * DAY,
        "the first deadline follows the tournament's movement_days"
    );
}

/// Every board of the latest round: all hold and vote a draw in its current phase, and the
/// deadline passes. Returns the round's game ids.
async fn draw_the_round(pool: &Pool, t: &TournamentRow, uid: &mut u32, now: Ts) -> Vec<String> {
    let map = Map::variant(&t.variant).expect("map");
    let mut c = pool.acquire().await.expect("conn");
    let boards = store::diplomacy::boards(&mut c, &t.id)
        .await
        .expect("boards");
    let round = boards.iter().map(|b| b.round).max().expect("a round");
    let games: Vec<String> = boards
        .iter()
        .filter(|b| b.round == round)
        .map(|b| b.game_id.clone())
        .collect();
    let mut deadline = now;
    let mut mails = Vec::new();
    for game in &games {
        let phase = store::current_phase(&mut c, game)
            .await
            .expect("phase")
            .expect("open");
        deadline = deadline.max(phase.deadline);
        let board = chancery::games::diplomacy::board_from_json(map, &phase.board, &phase.phase)
            .expect("board");
        for p in store::players(&mut c, game).await.expect("players") {
            let body = format!(
                "SECRET {}\nVOTE DRAW YES\n{}\n",
                p.secret,
                holds(map, &board, &p.power).join("\n")
            );
            mails.push((
                p.address,
                format!("{game} {} {}", p.power, phase.phase),
                body,
            ));
        }
    }
    drop(c);
    for (from, subject, body) in mails {
        *uid += 1;
        let id = format!("Message-ID: <d{uid}@players.example.test>\r\n");
        let mail = raw(&from, "gm@example.test", &subject, &id, &body);
        assert_eq!(
            deliver(pool, "gm", *uid, &mail, Some(now), now).await,
            Processed::Accepted,
            "{subject}"
        );
    }
    games::tick(pool, &env(), deadline + 1).await.expect("tick");
    games
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wm_tournament_has_four_rounds_then_its_winners() {
    // WM B.1: "There will be four rounds"; B.3: to Fall 1909, 1909, 1912 and 1915; C.11, C.12:
    // the individual and team winners. Fourteen teams: round two has seven boards (B.4), the
    // semi-final seven (49 players, C.8), the final one (each semi-final board's best, C.9).
    let pool = pool("four-rounds").await;
    let (t, _) = wm_tournament(&pool, "wm11", "four rounds", 14).await;
    let mut uid = 2_000;
    let mut now = T0;
    let mut sizes = Vec::new();
    for (round, final_year) in [(1, 1909), (2, 1909), (3, 1912), (4, 1915)] {
        let said = tournament::console(&pool, &env(), "wm11", &TdCommand::Round, now)
            .await
            .expect("round");
        assert!(said.starts_with(&format!("round {round} made")), "{said}");
        let games = draw_the_round(&pool, &t, &mut uid, now + 60).await;
        sizes.push(games.len());
        let mut c = pool.acquire().await.expect("conn");
        for game in &games {
            let g = store::game(&mut c, game).await.expect("q").expect("game");
            assert_eq!(g.status, store::GameStatus::Finished, "{game}");
            let rules: chancery::rules::Rules = serde_json::from_str(&g.rules).expect("rules");
            assert_eq!(rules.final_year, Some(final_year), "WM B.3, round {round}");
        }
        now += 30 * DAY;
    }
    assert_eq!(sizes, vec![14, 7, 7, 1]);
    let mut c = pool.acquire().await.expect("conn");
    let table = tournament::table(&mut c, &t).await.expect("standings");
    drop(c);
    let s = &table.standings;
    assert_eq!(s.round, 4);
    assert_eq!(s.players.len(), 7, "the final board");
    assert_eq!(
        s.winner.as_deref(),
        Some(s.players[0].player.as_str()),
        "C.11"
    );
    assert!(s.team_winner.is_some(), "C.12");
    let fifth = tournament::console(&pool, &env(), "wm11", &TdCommand::Round, now).await;
    assert!(
        fifth.is_err_and(|e| e.to_string().contains("has 4 rounds")),
        "WM B.1: four rounds"
    );
}
