//! The scheduler's tick: deadlines (once every mailbox is read past them), early adjudication,
//! reminders, digests and the adjudication itself, each game in isolation.

use super::*;

/// What one tick did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    pub adjudicated: usize,
    /// Games whose deadline has passed but whose mailboxes have not yet been read through it:
    /// (game, deadline). Nothing is adjudicated with orders still unread.
    pub waiting: Vec<(String, Ts)>,
    /// Games whose tick failed (an error or a panic), with why. The other games went on, and
    /// the masters were alerted once per phase.
    pub failed: Vec<(String, String)>,
}

/// One tick with every mailbox taken as read through `now` (tests and tools that drive the
/// clock themselves). A game that fails is an error here, so that tests see it.
pub async fn tick(pool: &SqlitePool, env: &Env, now: Ts) -> Result<usize> {
    let r = tick_with(pool, env, now, now).await?;
    if let Some((g, e)) = r.failed.first() {
        return Err(EngineError::Refused(format!("game {g}: {e}")));
    }
    Ok(r.adjudicated)
}

/// Adjudicate every phase whose deadline has passed and whose mail has been read through it
/// (`read_through`: every mailbox had a successful poll that started at or after this time),
/// or that may go early (everyone Final and the minimum gap respected: WM D.VII(2)). Each
/// game is its own transaction and is isolated: one game's failure, even a panic, does not
/// stop the others.
pub async fn tick_with(
    pool: &SqlitePool,
    env: &Env,
    now: Ts,
    read_through: Ts,
) -> Result<TickReport> {
    use futures::FutureExt;
    use sqlx::Connection;
    use tracing::Instrument;
    // One connection for the whole tick, so its page cache stays warm (a connection that another
    // one wrote behind must re-read its pages), and one transaction (one fsync) for a batch of
    // games, each game in its own savepoint: a game that fails, even by panicking, rolls back
    // alone and the others commit. Batches are small so the write lock is never held for long.
    let mut conn = pool.acquire().await?;
    let open = store::open_phases(&mut conn).await?;
    let mut report = TickReport::default();
    for batch in open.chunks(TICK_BATCH) {
        let mut failed: Vec<(&PhaseRow, String)> = Vec::new();
        let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
        for p in batch {
            let mut game = tx.begin().await?;
            let span = tracing::info_span!("tick", game = %p.game_id, phase = %p.phase);
            let run = std::panic::AssertUnwindSafe(
                tick_game(&mut game, env, p, now, read_through).instrument(span),
            );
            let error = match run.catch_unwind().await {
                Ok(Ok(outcome)) => {
                    game.commit().await?;
                    match outcome {
                        GameTick::Adjudicated => report.adjudicated += 1,
                        GameTick::Waiting => report.waiting.push((p.game_id.clone(), p.deadline)),
                        GameTick::Idle => {}
                    }
                    continue;
                }
                Ok(Err(e)) => e.to_string(),
                Err(panic) => format!("panic: {}", panic_text(panic.as_ref())),
            };
            game.rollback().await?;
            failed.push((p, error));
        }
        tx.commit().await?;
        for (p, error) in failed {
            alert_tick_failure(pool, env, p, &error, now).await;
            report.failed.push((p.game_id.clone(), error));
        }
    }
    Ok(report)
}

/// Games per transaction in a tick: enough to share an fsync, few enough that the write lock
/// is held for tens of milliseconds, not seconds (mail is read meanwhile).
const TICK_BATCH: usize = 64;

/// The text of a panic's payload.
pub fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

/// Tell the masters, once per phase, that a game's tick failed. Failing to tell them is only
/// logged: the tick of the other games must go on.
pub(super) async fn alert_tick_failure(
    pool: &SqlitePool,
    env: &Env,
    p: &PhaseRow,
    error: &str,
    now: Ts,
) {
    let told: Result<()> = async {
        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
        let g = store::game(&mut tx, &p.game_id).await?;
        let body = format!(
            "Game {} {}: the deadline could not be processed, and the game waits until this is\n\
             fixed (the other games go on). Chancery tries again on every tick.\n\nError: {error}\n",
            p.game_id, p.phase
        );
        alert_masters(
            &mut tx,
            env,
            g.as_ref(),
            &format!("tick-failed|{}|{}", p.game_id, p.seq),
            &format!("{} {}: the deadline could not be processed", p.game_id, p.phase),
            &body,
            now,
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }
    .await;
    if let Err(e) = told {
        tracing::error!(game = %p.game_id, "cannot alert the masters: {e}");
    }
}

pub(super) enum GameTick {
    Adjudicated,
    Waiting,
    Idle,
}

pub(super) async fn tick_game(
    tx: &mut SqliteConnection,
    env: &Env,
    p: &PhaseRow,
    now: Ts,
    read_through: Ts,
) -> Result<GameTick> {
    // Re-read inside the transaction: another tick may have got there first.
    let Some(current) = store::current_phase(tx, &p.game_id).await? else {
        return Ok(GameTick::Idle);
    };
    if current.seq != p.seq {
        return Ok(GameTick::Idle);
    }
    let Some(g) = store::game(tx, &p.game_id).await? else {
        return Ok(GameTick::Idle);
    };
    let rules = rules_of(&g)?;
    let passed = current.deadline <= now;
    let due = passed && current.deadline <= read_through;
    let early = !passed && {
        let map = map_of(&g)?;
        let board = board_from_json(&current.board, &current.phase)?;
        let standing = store::standing_orders(tx, &g.id, &current.phase).await?;
        let must = powers_with_orders_due(map, &board);
        let all_final = !must.is_empty()
            && must.iter().all(|pw| {
                standing
                    .iter()
                    .any(|s| s.power == map.power_name(*pw) && s.final_)
            });
        let last = store::last_adjudicated_at(tx, &g.id).await?;
        let wins = windows(&store::unavailable(tx, &g.id).await?);
        policy::may_adjudicate_early(&rules, now, last, all_final, &wins)
    };
    if due || early {
        adjudicate_phase(tx, env, &g, &rules, &current, now).await?;
        Ok(GameTick::Adjudicated)
    } else if passed {
        Ok(GameTick::Waiting)
    } else if current.deadline - now <= DIGEST_BEFORE {
        remind(tx, env, &g, &rules, &current, now).await?;
        Ok(GameTick::Idle)
    } else {
        Ok(GameTick::Idle)
    }
}

/// The GM's digest and the players' reminders go out this long before a deadline.
pub const DIGEST_BEFORE: Ts = policy::DAY;

/// The GM's deadline digest, and a reminder to each player who owes orders and has none in.
/// Each has a Message-ID fixed by game, phase (and power), so the outbox keeps only the first:
/// calling this on every tick sends each mail once.
pub(super) async fn remind(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    rules: &Rules,
    current: &PhaseRow,
    now: Ts,
) -> Result<()> {
    let map = map_of(g)?;
    let board = board_from_json(&current.board, &current.phase)?;
    let due = powers_with_orders_due(map, &board);
    let standing = store::standing_orders(c, &g.id, &current.phase).await?;
    let players = store::players(c, &g.id).await?;
    let wrong = store::wrong_secrets(c, &g.id).await?;
    let mut powers = Vec::new();
    for p in &players {
        let Some(pw) = map.power_by_name(&p.power) else {
            continue;
        };
        if !due.contains(&pw) {
            continue;
        }
        let s = standing.iter().find(|s| s.power == p.power);
        let count = s
            .map(|s| serde_json::from_str::<Vec<StandingOrder>>(&s.orders).map(|v| v.len()))
            .transpose()?
            .unwrap_or(0);
        powers.push(crate::outgoing::render::DigestPower {
            power: p.power.clone(),
            player: p.address.clone(),
            orders_in: s.is_some(),
            is_final: s.is_some_and(|s| s.final_),
            order_count: count,
            last_submission: s.map(|s| s.updated_at),
            extension_days_used: u32::try_from(p.extension_days_used).unwrap_or(u32::MAX),
            wrong_secrets: wrong.iter().find(|(w, _)| *w == p.power).map_or(0, |w| w.1),
        });
        if s.is_none() {
            let mail = compose::reminder(env, g, rules, p, &current.phase, current.deadline, now);
            let key = format!("reminder|{}|{}|{}", g.id, current.phase, p.power);
            send(c, env, Some(g), mail, &key, now).await?;
        }
    }
    let drops: Vec<crate::outgoing::render::DropCount> =
        store::drop_counts(c, &g.id, now - policy::DAY)
            .await?
            .into_iter()
            .map(|(reason, count)| crate::outgoing::render::DropCount { reason, count })
            .collect();
    for to in masters_of(env, Some(g)) {
        let mail = compose::digest(
            env,
            &to,
            g,
            &current.phase,
            current.deadline,
            powers.clone(),
            rules.extension_days_total,
            drops.clone(),
            now,
        );
        let key = format!("digest|{}|{}", g.id, current.phase);
        send(c, env, Some(g), mail, &key, now).await?;
    }
    Ok(())
}

/// Powers that have something to order in this phase.
pub fn powers_with_orders_due(map: &Map, board: &Board) -> Vec<Power> {
    map.all_powers()
        .filter(|p| match board.phase.kind {
            PhaseKind::Movement => board.units.iter().any(|u| u.power == *p),
            PhaseKind::Retreat => board.dislodged.iter().any(|d| d.unit.power == *p),
            PhaseKind::Adjustment => board.center_count(*p) != board.unit_count(*p),
        })
        .collect()
}

pub(super) async fn adjudicate_phase(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    rules: &Rules,
    current: &PhaseRow,
    now: Ts,
) -> Result<()> {
    let map = map_of(g)?;
    let board = board_from_json(&current.board, &current.phase)?;
    let standing = store::standing_orders(c, &g.id, &current.phase).await?;
    let mut orders: Vec<(Power, Order)> = Vec::new();
    let mut written: HashMap<String, Vec<StandingOrder>> = HashMap::new();
    for s in &standing {
        let Some(pw) = map.power_by_name(&s.power) else {
            continue;
        };
        let list: Vec<StandingOrder> = serde_json::from_str(&s.orders)?;
        for o in &list {
            if let Ok(order) = parse_order(map, &o.order) {
                orders.push((pw, order));
            }
        }
        written.insert(s.power.clone(), list);
    }
    let due = powers_with_orders_due(map, &board);
    let missing: Vec<Power> = due
        .iter()
        .copied()
        .filter(|p| !standing.iter().any(|s| s.power == map.power_name(*p)))
        .collect();
    let phase: Phase = current.phase.parse()?;
    if policy::nmr_holds_results(rules, phase, &missing) {
        // WM D.VII(6)(b): no results while an NMR stands in these phases; the GM replaces the
        // player. The deadline moves a day so the GM is not told every minute.
        let names: Vec<String> = missing
            .iter()
            .map(|p| map.power_name(*p).to_string())
            .collect();
        for to in masters_of(env, Some(g)) {
            let mail = compose::nmr_hold(env, &to, g, &current.phase, &names, now);
            store::enqueue(c, &mail, now).await?;
        }
        store::set_deadline(c, &g.id, current.seq, now + policy::DAY).await?;
        return Ok(());
    }
    let adj = adjudicate(map, rules, &board, &orders);
    let out = json::render(map, rules, &adj);
    let results_json = serde_json::to_string(&out)?;
    store::mark_adjudicated(c, &g.id, current.seq, now, &results_json).await?;
    let wins = windows(&store::unavailable(c, &g.id).await?);
    let next_phase = adj.next.phase;
    let next_deadline = policy::deadline(rules, now, next_phase.kind, &wins);
    let winner = map
        .all_powers()
        .find(|p| adj.next.center_count(*p) * 2 > map.supply_centers().count());
    if winner.is_none() {
        store::insert_phase(
            c,
            &g.id,
            &next_phase.to_string(),
            &serde_json::to_string(&out.next)?,
            now,
            next_deadline,
        )
        .await?;
    } else {
        store::set_game_status(c, &g.id, "finished").await?;
    }
    let press = store::press(c, &g.id, &current.phase).await?;
    let players = store::players(c, &g.id).await?;
    let missing_names: Vec<String> = missing
        .iter()
        .map(|p| map.power_name(*p).to_string())
        .collect();
    // Every player, then the GM's copy (which sees all press).
    let gm_copy = PlayerRow {
        power: String::new(),
        address: g.gm_address.clone(),
        name: "GM".into(),
        tz: "UTC".into(),
        secret: String::new(),
        extension_days_used: 0,
    };
    let mut mails = Vec::new();
    for p in players.iter().chain(std::iter::once(&gm_copy)) {
        let mail = compose::results(
            env,
            g,
            map,
            &adj,
            &board,
            &written,
            &missing_names,
            &press,
            p,
            winner.map(|w| map.power_name(w).to_string()),
            next_deadline,
        );
        match mail {
            Ok(m) => mails.push(m),
            Err(e) => {
                let key = format!("results|{}|{}|{}", g.id, current.phase, p.address);
                compose_failed(c, env, Some(g), &e, &key, now).await?;
            }
        }
    }
    store::enqueue_many(c, &mails, now).await?;
    Ok(())
}
