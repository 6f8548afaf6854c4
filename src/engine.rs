//! The engine: what one received message, or one tick of the clock, does to the store.
//!
//! Each entry point runs in one transaction: the message's effects (submission, standing orders,
//! press, votes, requests), the mail it causes (in the outbox) and its ledger row commit together,
//! so a crash at any point loses nothing and repeats nothing. The decisions themselves are the
//! pure core's (`game`, `orderset`, `adjudicator`); mail text comes from `render`.

use crate::adjudicator::{Board, adjudicate};
use crate::game::{self, Ts, Window};
use crate::json;
use crate::mails;
use crate::map::{Map, Power};
use crate::message::{ReadMessage, read_message};
use crate::order::{Order, parse_order};
use crate::orderset::{MailRead, RequestOut, read_body};
use crate::phase::{Phase, PhaseKind};
use crate::reader::ReadContext;
use crate::rules::Rules;
use crate::store::{self, GameRow, PhaseRow, PlayerRow, Result, StoreError};
use serde::{Deserialize, Serialize};
use sqlx::SqliteConnection;
use sqlx::SqlitePool;
use std::collections::HashMap;

/// What the engine needs besides the store.
#[derive(Clone, Debug)]
pub struct Env {
    /// Only this server's Authentication-Results are trusted.
    pub authserv_id: String,
    /// Domain of the Message-IDs Chancery makes.
    pub message_id_domain: String,
}

/// What became of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Processed {
    /// Processed before (by mailbox position or Message-ID): nothing done again.
    AlreadyDone,
    Accepted,
    Rejected,
    /// Automatic mail: recorded, never answered.
    Auto,
    /// A confirmation-box message, receipted.
    Receipted,
}

/// One order as it stands: canonical, and as the player wrote it (WM D.VIII(4)).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct StandingOrder {
    pub order: String,
    pub written: String,
}

fn sha256_hex(raw: &[u8]) -> String {
    // FNV would do for identity, but the receipt promises a digest players can check.
    crate::digest::sha256_hex(raw)
}

pub(crate) fn new_message_id(env: &Env, kind: &str, seed: &str) -> String {
    format!(
        "{kind}.{}@{}",
        crate::digest::short_hash(seed),
        env.message_id_domain
    )
}

fn rules_of(game: &GameRow) -> Result<Rules> {
    serde_json::from_str(&game.rules).map_err(StoreError::from)
}

fn map_of(game: &GameRow) -> Result<&'static Map> {
    Map::variant(&game.variant)
        .ok_or_else(|| StoreError(format!("unknown variant {}", game.variant)))
}

/// Read a stored board (the `adjudicate` input shape).
pub fn board_from_json(text: &str, phase: &str) -> Result<Board> {
    let mut input: json::PhaseInput = serde_json::from_str(text)?;
    input.phase = phase.to_string();
    input.orders.clear();
    json::prepare(&input)
        .map(|p| p.board)
        .map_err(|e| StoreError(format!("stored board: {e}")))
}

fn windows(rows: &[(Ts, Ts)]) -> Vec<Window> {
    rows.iter()
        .map(|(from, to)| Window {
            from: *from,
            to: *to,
        })
        .collect()
}

// Write transactions begin IMMEDIATE: in WAL mode a deferred transaction that reads and then
// writes fails at once ("database is locked") if another writer committed in between, while an
// immediate one waits its turn under the busy timeout.

/// Process one received message. `mailbox` is `gm` or `confirm`.
pub async fn process_message(
    pool: &SqlitePool,
    env: &Env,
    mailbox: &str,
    uidvalidity: u32,
    uid: u32,
    raw: &[u8],
    now: Ts,
) -> Result<Processed> {
    let read = read_message(raw);
    let message_id = read.as_ref().ok().and_then(|m| m.message_id.clone());
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    if store::processed(&mut tx, mailbox, uidvalidity, uid, message_id.as_deref()).await? {
        tx.rollback().await?;
        return Ok(Processed::AlreadyDone);
    }
    let digest = sha256_hex(raw);
    let (outcome, tag) = match &read {
        Err(e) => {
            // Unreadable or oversized: answer the sender if we can tell who it was.
            let from = crate::message::sender_of_raw(raw);
            if let Some(from) = from {
                let gm = gm_address_for(&mut tx, mailbox).await?;
                if let Some(gm) = gm {
                    let mail = mails::unreadable(env, &gm, &from, &e.to_string(), now);
                    store::enqueue(&mut tx, &mail, now).await?;
                }
            }
            (Processed::Rejected, Tag::default())
        }
        Ok(msg) if msg.auto.is_some() => (Processed::Auto, Tag::default()),
        Ok(msg) if mailbox == "confirm" => (
            receipt(&mut tx, env, msg, &digest, raw.len() as u64, now).await?,
            Tag::default(),
        ),
        Ok(msg) => order_mail(&mut tx, env, msg, now).await?,
    };
    let m = read.as_ref().ok();
    store::record_message(
        &mut tx,
        mailbox,
        uidvalidity,
        uid,
        message_id.as_deref(),
        raw,
        &digest,
        now,
        m.and_then(|m| m.from_address.as_deref()),
        m.map(|m| m.subject.as_str()).unwrap_or(""),
        tag.game.as_deref(),
        tag.power.as_deref(),
        tag.phase.as_deref(),
        match outcome {
            Processed::Accepted => "accepted",
            Processed::Rejected => "rejected",
            Processed::Auto => "auto",
            Processed::Receipted => "receipt",
            Processed::AlreadyDone => "duplicate",
        },
    )
    .await?;
    tx.commit().await?;
    Ok(outcome)
}

#[derive(Default)]
struct Tag {
    game: Option<String>,
    power: Option<String>,
    phase: Option<String>,
}

async fn gm_address_for(c: &mut SqliteConnection, mailbox: &str) -> Result<Option<String>> {
    let games = store::games_with_status(c, "active").await?;
    Ok(games.first().map(|g| {
        if mailbox == "confirm" {
            g.confirm_address.clone()
        } else {
            g.gm_address.clone()
        }
    }))
}

/// The active game a message is about: named in the subject, else the one its sender plays in.
async fn find_game(c: &mut SqliteConnection, msg: &ReadMessage) -> Result<Option<GameRow>> {
    let games = store::games_with_status(c, "active").await?;
    let words: Vec<String> = msg
        .subject
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|ch: char| !ch.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    if let Some(g) = games
        .iter()
        .find(|g| words.iter().any(|w| *w == g.id.to_lowercase()))
    {
        return Ok(Some(g.clone()));
    }
    let Some(from) = &msg.from_address else {
        return Ok(None);
    };
    let mut found = Vec::new();
    for g in &games {
        if store::players(c, &g.id)
            .await?
            .iter()
            .any(|p| &p.address == from)
        {
            found.push(g.clone());
        }
    }
    Ok(if found.len() == 1 { found.pop() } else { None })
}

/// The confirmation mailbox (WM D.VII(7)): record the time, answer with a receipt.
async fn receipt(
    c: &mut SqliteConnection,
    env: &Env,
    msg: &ReadMessage,
    digest: &str,
    size: u64,
    now: Ts,
) -> Result<Processed> {
    if let Some(id) = &msg.message_id {
        store::record_confirmation(c, id, now, msg.from_address.as_deref()).await?;
    }
    let Some(from) = msg.from_address.clone() else {
        return Ok(Processed::Receipted);
    };
    let game = find_game(c, msg).await?;
    let gm_address = game
        .as_ref()
        .map(|g| g.gm_address.clone())
        .unwrap_or_default();
    let (addressing, orders, confirm_address) = match &game {
        Some(g) => {
            let rules = rules_of(g)?;
            let addressing = game::check_addressing(&rules, &g.gm_address, &msg.to, &msg.cc);
            let orders = match power_and_phase(c, g, msg, &from).await? {
                Some((power, phase_row)) => {
                    let map = map_of(g)?;
                    let read = read_with(map, &rules, power, &phase_row, msg)?;
                    read.understood()
                        .iter()
                        .map(|o| o.display(map).to_string())
                        .collect()
                }
                None => Vec::new(),
            };
            (addressing, orders, g.confirm_address.clone())
        }
        None => (
            Err("no game of this server is named in the subject or plays from this address".into()),
            Vec::new(),
            String::new(),
        ),
    };
    let confirm = if confirm_address.is_empty() {
        gm_address_for(c, "confirm").await?.unwrap_or_default()
    } else {
        confirm_address
    };
    let mail = mails::receipt(
        env,
        &confirm,
        &gm_address,
        &from,
        msg,
        digest,
        size,
        &orders,
        addressing.err(),
        now,
    );
    store::enqueue(c, &mail, now).await?;
    Ok(Processed::Receipted)
}

/// The power a message is for (named in the subject, else the sender's), and the current phase.
async fn power_and_phase(
    c: &mut SqliteConnection,
    g: &GameRow,
    msg: &ReadMessage,
    from: &str,
) -> Result<Option<(Power, PhaseRow)>> {
    let map = map_of(g)?;
    let players = store::players(c, &g.id).await?;
    let named = msg
        .subject
        .split_whitespace()
        .find_map(|w| map.power_by_name(w.trim_matches(|ch: char| !ch.is_alphanumeric())));
    let power = named.or_else(|| {
        players
            .iter()
            .find(|p| p.address == from)
            .and_then(|p| map.power_by_name(&p.power))
    });
    let Some(power) = power else {
        return Ok(None);
    };
    let Some(phase) = store::current_phase(c, &g.id).await? else {
        return Ok(None);
    };
    Ok(Some((power, phase)))
}

fn read_with(
    map: &'static Map,
    rules: &Rules,
    power: Power,
    phase_row: &PhaseRow,
    msg: &ReadMessage,
) -> Result<MailRead> {
    let phase: Phase = phase_row
        .phase
        .parse()
        .map_err(|e: crate::phase::PhaseError| StoreError(e.to_string()))?;
    let board = board_from_json(&phase_row.board, &phase_row.phase)?;
    let abbreviations = HashMap::new();
    let ctx = ReadContext {
        map,
        rules,
        power,
        phase: phase.kind,
        board: Some(&board),
        abbreviations: &abbreviations,
    };
    Ok(read_body(&ctx, msg))
}

/// An order mail to the GM address.
async fn order_mail(
    c: &mut SqliteConnection,
    env: &Env,
    msg: &ReadMessage,
    now: Ts,
) -> Result<(Processed, Tag)> {
    let from = msg.from_address.clone().unwrap_or_default();
    let Some(g) = find_game(c, msg).await? else {
        if !from.is_empty() {
            let gm = gm_address_for(c, "gm").await?.unwrap_or_default();
            let mail = mails::rejection(
                env,
                &gm,
                &from,
                msg,
                &["no game of this server is named in the subject, and this address plays in none".to_string()],
                now,
            );
            store::enqueue(c, &mail, now).await?;
        }
        return Ok((Processed::Rejected, Tag::default()));
    };
    let rules = rules_of(&g)?;
    let map = map_of(&g)?;
    let mut tag = Tag {
        game: Some(g.id.clone()),
        ..Tag::default()
    };
    let reject = |reasons: Vec<String>, to: &str| {
        mails::rejection(env, &g.gm_address, to, msg, &reasons, now)
    };

    if let Err(e) = game::check_addressing(&rules, &g.gm_address, &msg.to, &msg.cc) {
        store::enqueue(c, &reject(vec![e], &from), now).await?;
        return Ok((Processed::Rejected, tag));
    }
    let Some((power, phase_row)) = power_and_phase(c, &g, msg, &from).await? else {
        let e = format!(
            "the subject must name your power, as in \"{}\"",
            rules.subject_format.replace("{game}", &g.id)
        );
        store::enqueue(c, &reject(vec![e], &from), now).await?;
        return Ok((Processed::Rejected, tag));
    };
    let power_name = map.power_name(power).to_string();
    tag.power = Some(power_name.clone());
    tag.phase = Some(phase_row.phase.clone());
    let players = store::players(c, &g.id).await?;
    let Some(player) = players.iter().find(|p| p.power == power_name).cloned() else {
        store::enqueue(
            c,
            &reject(
                vec![format!("{power_name} has no player in this game")],
                &from,
            ),
            now,
        )
        .await?;
        return Ok((Processed::Rejected, tag));
    };
    let phase: Phase = phase_row
        .phase
        .parse()
        .map_err(|e: crate::phase::PhaseError| StoreError(e.to_string()))?;
    let read = read_with(map, &rules, power, &phase_row, msg)?;
    // Who sent it: the registered player, proven by secret or DKIM (a failure is answered at the
    // registered address, and reported to the GM: WM D.X(6)).
    if let Err(e) = game::authenticate(
        &rules,
        &from,
        &player.address,
        read.secret.as_deref(),
        &player.secret,
        &msg.authentication_results,
        &env.authserv_id,
    ) {
        store::enqueue(c, &reject(vec![e.clone()], &player.address), now).await?;
        let report = mails::impersonation(env, &g.gm_address, &g.id, &power_name, msg, &e, now);
        store::enqueue(c, &report, now).await?;
        return Ok((Processed::Rejected, tag));
    }
    if let Err(e) = game::check_subject(&rules, &msg.subject, &g.id, &power_name, phase) {
        store::enqueue(c, &reject(vec![e], &player.address), now).await?;
        return Ok((Processed::Rejected, tag));
    }
    let confirm_time = match &msg.message_id {
        Some(id) => store::confirmation_time(c, id).await?,
        None => None,
    };
    let submitted = game::submission_time(&rules, now, confirm_time);
    let timeliness = game::timeliness(
        &rules,
        submitted,
        phase_row.deadline,
        phase_row.adjudication_started_at.is_some(),
    );
    if timeliness == game::Timeliness::LateRefused {
        let e = format!(
            "these orders arrived after the deadline ({}), and late orders are not accepted (WM D.VII(3))",
            mails::gmt(phase_row.deadline)
        );
        store::enqueue(c, &reject(vec![e], &player.address), now).await?;
        return Ok((Processed::Rejected, tag));
    }

    // The standing order set.
    let standing_rows = store::standing_orders(c, &g.id, &phase_row.phase).await?;
    let mine = standing_rows.iter().find(|r| r.power == power_name);
    let standing: Vec<StandingOrder> = match mine {
        Some(r) => serde_json::from_str(&r.orders)?,
        None => Vec::new(),
    };
    let new: Vec<StandingOrder> = read
        .orders
        .iter()
        .filter_map(|l| {
            l.typed.as_ref().map(|o| StandingOrder {
                order: o.display(map).to_string(),
                written: l.text.clone(),
            })
        })
        .collect();
    let combined = if new.is_empty() {
        standing.clone()
    } else {
        combine_standing(map, &rules, &standing, &new)
    };
    let final_ = read.final_ || (new.is_empty() && mine.is_some_and(|r| r.final_));
    store::set_standing_orders(
        c,
        &g.id,
        &phase_row.phase,
        &power_name,
        &serde_json::to_string(&combined)?,
        final_,
        now,
    )
    .await?;
    store::insert_submission(
        c,
        &g.id,
        &phase_row.phase,
        &power_name,
        msg.message_id.as_deref(),
        submitted,
        read.final_,
        timeliness == game::Timeliness::LateAccepted,
        &serde_json::to_string(&read)?,
    )
    .await?;
    for p in read.press.iter().filter(|p| p.status == "accepted") {
        store::insert_press(
            c,
            &g.id,
            &phase_row.phase,
            &power_name,
            &serde_json::to_string(&p.to.iter().filter(|t| *t != "ALL").collect::<Vec<_>>())?,
            p.grey,
            &p.body,
            now,
        )
        .await?;
    }
    for v in &read.votes {
        store::cast_vote(
            c,
            &g.id,
            &phase_row.phase,
            &power_name,
            &v.proposal,
            v.vote,
            now,
        )
        .await?;
    }
    // Requests: extensions move the deadline; unavailable periods are recorded.
    let mut request_notes: Vec<String> = Vec::new();
    let mut deadline = phase_row.deadline;
    let wins = windows(&store::unavailable(c, &g.id).await?);
    for r in &read.requests {
        match r {
            RequestOut::Extension { days, .. } => {
                match game::extend(
                    &rules,
                    deadline,
                    now,
                    *days,
                    u32::try_from(player.extension_days_used).unwrap_or(u32::MAX),
                    &wins,
                ) {
                    Ok(new_deadline) => {
                        deadline = new_deadline;
                        store::set_deadline(c, &g.id, phase_row.seq, deadline).await?;
                        store::add_extension_days(c, &g.id, &power_name, i64::from(*days)).await?;
                        request_notes.push(format!(
                            "extension of {days} day(s) granted: the deadline is now {}",
                            mails::gmt(deadline)
                        ));
                    }
                    Err(e) => {
                        request_notes.push(format!("extension of {days} day(s) refused: {e}"))
                    }
                }
            }
            RequestOut::Unavailable { from: f, to: t, .. } => {
                match (mails::parse_gmt(f), mails::parse_gmt(t)) {
                    (Some(a), Some(b)) => match game::unavailable_window(&rules, a, b) {
                        Ok(w) => {
                            store::add_unavailable(c, &g.id, &power_name, w.from, w.to).await?;
                            request_notes
                                .push(format!("unavailable from {f} to {t} GMT: recorded"));
                        }
                        Err(e) => request_notes.push(format!("unavailable period refused: {e}")),
                    },
                    _ => request_notes
                        .push("unavailable period refused: the dates could not be read".into()),
                }
            }
        }
    }
    let units = board_from_json(&phase_row.board, &phase_row.phase)?;
    let ack = mails::acknowledgement(
        env,
        &g,
        map,
        &player,
        msg,
        &read,
        &combined,
        final_,
        &units,
        power,
        &phase_row.phase,
        deadline,
        timeliness == game::Timeliness::LateAccepted,
        &request_notes,
        now,
    );
    store::enqueue(c, &ack, now).await?;
    Ok((Processed::Accepted, tag))
}

/// Combine the standing orders with a new set, per the submissions rule (WM D.III(3)).
fn combine_standing(
    map: &Map,
    rules: &Rules,
    standing: &[StandingOrder],
    new: &[StandingOrder],
) -> Vec<StandingOrder> {
    let parse = |s: &[StandingOrder]| -> Vec<Order> {
        s.iter()
            .filter_map(|o| parse_order(map, &o.order).ok())
            .collect()
    };
    let combined = game::combine(rules, &parse(standing), &parse(new));
    // Keep the written text: from the new set where the order came from it, else the old.
    combined
        .iter()
        .filter_map(|o| {
            let text = o.display(map).to_string();
            new.iter()
                .chain(standing.iter())
                .find(|s| s.order == text)
                .cloned()
        })
        .collect()
}

/// Adjudicate every phase whose deadline has passed, or that may go early (everyone Final and
/// the minimum gap respected: WM D.VII(2)). Returns how many phases were adjudicated.
pub async fn tick(pool: &SqlitePool, env: &Env, now: Ts) -> Result<usize> {
    let mut conn = pool.acquire().await?;
    let open = store::open_phases(&mut conn).await?;
    drop(conn);
    let mut done = 0;
    for p in open {
        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
        // Re-read inside the transaction: another tick may have got there first.
        let Some(current) = store::current_phase(&mut tx, &p.game_id).await? else {
            continue;
        };
        if current.seq != p.seq {
            continue;
        }
        let Some(g) = store::game(&mut tx, &p.game_id).await? else {
            continue;
        };
        let rules = rules_of(&g)?;
        let due = current.deadline <= now;
        let early = !due && {
            let map = map_of(&g)?;
            let board = board_from_json(&current.board, &current.phase)?;
            let standing = store::standing_orders(&mut tx, &g.id, &current.phase).await?;
            let must = powers_with_orders_due(map, &board);
            let all_final = !must.is_empty()
                && must.iter().all(|pw| {
                    standing
                        .iter()
                        .any(|s| s.power == map.power_name(*pw) && s.final_)
                });
            let last = store::last_adjudicated_at(&mut tx, &g.id).await?;
            let wins = windows(&store::unavailable(&mut tx, &g.id).await?);
            game::may_adjudicate_early(&rules, now, last, all_final, &wins)
        };
        if due || early {
            adjudicate_phase(&mut tx, env, &g, &rules, &current, now).await?;
            tx.commit().await?;
            done += 1;
        } else if current.deadline - now <= DIGEST_BEFORE {
            remind(&mut tx, env, &g, &rules, &current, now).await?;
            tx.commit().await?;
        } else {
            tx.rollback().await?;
        }
    }
    Ok(done)
}

/// The GM's digest and the players' reminders go out this long before a deadline.
pub const DIGEST_BEFORE: Ts = game::DAY;

/// The GM's deadline digest, and a reminder to each player who owes orders and has none in.
/// Each has a Message-ID fixed by game, phase (and power), so the outbox keeps only the first:
/// calling this on every tick sends each mail once.
async fn remind(
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
        powers.push(crate::render::DigestPower {
            power: p.power.clone(),
            player: p.address.clone(),
            orders_in: s.is_some(),
            is_final: s.is_some_and(|s| s.final_),
            order_count: count,
            last_submission: s.map(|s| s.updated_at),
            extension_days_used: u32::try_from(p.extension_days_used).unwrap_or(u32::MAX),
        });
        if s.is_none() {
            let mail = mails::reminder(env, g, rules, p, &current.phase, current.deadline, now);
            store::enqueue(c, &mail, now).await?;
        }
    }
    let mail = mails::digest(
        env,
        g,
        &current.phase,
        current.deadline,
        powers,
        rules.extension_days_total,
        now,
    );
    store::enqueue(c, &mail, now).await?;
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

async fn adjudicate_phase(
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
    let phase: Phase = current
        .phase
        .parse()
        .map_err(|e: crate::phase::PhaseError| StoreError(e.to_string()))?;
    if game::nmr_holds_results(rules, phase, &missing) {
        // WM D.VII(6)(b): no results while an NMR stands in these phases; the GM replaces the
        // player. The deadline moves a day so the GM is not told every minute.
        let names: Vec<String> = missing
            .iter()
            .map(|p| map.power_name(*p).to_string())
            .collect();
        let mail = mails::nmr_hold(env, g, &current.phase, &names, now);
        store::enqueue(c, &mail, now).await?;
        store::set_deadline(c, &g.id, current.seq, now + game::DAY).await?;
        return Ok(());
    }
    let adj = adjudicate(map, rules, &board, &orders);
    let out = json::render(map, rules, &adj);
    let results_json = serde_json::to_string(&out)?;
    store::mark_adjudicated(c, &g.id, current.seq, now, &results_json).await?;
    let wins = windows(&store::unavailable(c, &g.id).await?);
    let next_phase = adj.next.phase;
    let next_deadline = game::deadline(rules, now, next_phase.kind, &wins);
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
    for p in players.iter().chain(std::iter::once(&gm_copy)) {
        let mail = mails::results(
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
        store::enqueue(c, &mail, now).await?;
    }
    Ok(())
}

/// Start a game: the opening board, its first deadline, and the game goes active.
pub async fn start_game(pool: &SqlitePool, game_id: &str, now: Ts) -> Result<Ts> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let g = store::game(&mut tx, game_id)
        .await?
        .ok_or_else(|| StoreError(format!("no game '{game_id}'")))?;
    if g.status != "forming" {
        return Err(StoreError(format!(
            "game '{game_id}' is already {}",
            g.status
        )));
    }
    let rules = rules_of(&g)?;
    let map = map_of(&g)?;
    let players = store::players(&mut tx, &g.id).await?;
    let missing: Vec<&str> = map
        .powers
        .iter()
        .map(|p| p.name.as_str())
        .filter(|name| !players.iter().any(|p| p.power == *name))
        .collect();
    if !missing.is_empty() {
        return Err(StoreError(format!(
            "every power needs a player before the start; missing: {}",
            missing.join(", ")
        )));
    }
    let board = Board::initial(map);
    let next = json::board_output(map, &board);
    let deadline = game::deadline(&rules, now, PhaseKind::Movement, &[]);
    store::insert_phase(
        &mut tx,
        &g.id,
        &board.phase.to_string(),
        &serde_json::to_string(&next)?,
        now,
        deadline,
    )
    .await?;
    store::set_game_status(&mut tx, &g.id, "active").await?;
    tx.commit().await?;
    Ok(deadline)
}
