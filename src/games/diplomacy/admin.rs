//! A Diplomacy game made at the console or by a tournament: created with a preset's house rules
//! and a variant, its players registered for the map's powers, started (the opening board, the
//! first deadline, the start mails). Refusals are the engine's [`AdminError`]s; a master or an
//! observer is added by what every kind shares (`engine::admin`).

use super::{map_of, rules_of};
use crate::adjudicator::Board;
use crate::engine::admin::{AdminError, MIN_SECRET_CHARS};
use crate::engine::{self, EngineError, Env};
use crate::games::diplomacy::store::{self, PlayerRow, StoreError};
use crate::json;
use crate::map::Map;
use crate::outgoing::diplomacy::compose;
use crate::phase::PhaseKind;
use crate::policy;
use crate::rules::Rules;
use crate::store::Conn;
use crate::store::Pool;
use crate::time::Ts;

/// What a new game needs.
pub struct NewGame<'a> {
    pub id: &'a str,
    pub preset: &'a str,
    pub variant: &'a str,
    pub gm_address: &'a str,
    pub confirm_address: &'a str,
    /// Single options changed from the preset, (option, value): the alternative rules chosen
    /// for this game.
    pub options: &'a [(String, String)],
}

/// Create a game in the "forming" state, with the preset's house rules and any single options
/// changed; returns the game's rules.
pub async fn create_game(pool: &Pool, g: &NewGame<'_>, now: Ts) -> Result<Rules, AdminError> {
    let mut c = pool.acquire().await.map_err(StoreError::from)?;
    create_game_in(&mut c, g, now).await
}

/// [`create_game`] on the caller's connection (or transaction).
pub async fn create_game_in(c: &mut Conn, g: &NewGame<'_>, now: Ts) -> Result<Rules, AdminError> {
    let mut rules = Rules::preset(g.preset).map_err(|e| AdminError::Rules(e.to_string()))?;
    for (option, value) in g.options {
        rules = rules
            .set(option, value)
            .map_err(|e| AdminError::Rules(e.to_string()))?;
    }
    if Map::variant(g.variant).is_none() {
        return Err(AdminError::UnknownVariant(g.variant.to_string()));
    }
    let json = serde_json::to_string(&rules).map_err(StoreError::from)?;
    store::create_game(
        c,
        g.id,
        g.variant,
        &json,
        g.gm_address,
        g.confirm_address,
        now,
    )
    .await?;
    Ok(rules)
}

/// A player to register.
pub struct NewPlayer<'a> {
    pub game: &'a str,
    pub power: &'a str,
    pub address: &'a str,
    pub name: &'a str,
    pub tz: &'a str,
    /// None: a fresh one from the OS random generator.
    pub secret: Option<&'a str>,
}

/// Register a player for a power; returns the stored row (with the secret to give them).
pub async fn add_player(pool: &Pool, p: &NewPlayer<'_>) -> Result<PlayerRow, AdminError> {
    let mut c = pool.acquire().await.map_err(StoreError::from)?;
    add_player_in(&mut c, p).await
}

/// [`add_player`] on the caller's connection (or transaction).
pub async fn add_player_in(c: &mut Conn, p: &NewPlayer<'_>) -> Result<PlayerRow, AdminError> {
    let g = store::game(c, p.game)
        .await?
        .ok_or_else(|| AdminError::NoGame(p.game.to_string()))?;
    let map =
        Map::variant(&g.variant).ok_or_else(|| AdminError::UnknownVariant(g.variant.clone()))?;
    let power = map
        .power_by_name(p.power)
        .ok_or_else(|| AdminError::UnknownPower(p.power.to_string()))?;
    if p.tz != "UTC" && p.tz.parse::<chrono_tz::Tz>().is_err() {
        return Err(AdminError::UnknownTimeZone(p.tz.to_string()));
    }
    // From the OS random generator: at least 64 bits, in words a player can type.
    let secret = match p.secret {
        Some(s) if s.trim().chars().count() < MIN_SECRET_CHARS => {
            return Err(AdminError::ShortSecret);
        }
        Some(s) => s.to_string(),
        None => engine::secret::generate()?,
    };
    let player = PlayerRow {
        power: map.power_name(power).to_string(),
        address: p.address.to_string(),
        name: p.name.to_string(),
        tz: p.tz.to_string(),
        secret,
        extension_days_used: 0,
    };
    store::add_player(c, &g.id, &player).await?;
    Ok(player)
}

/// Start game `g`, inside the caller's transaction: the opening board, its first deadline, the
/// game goes active, and with `tell` every player, master and observer is mailed a start mail
/// (the power, the deadline, the secret, how to send orders, the house rules with their
/// clauses: WM D.I(1)(b)). A tournament round starts all its boards in one transaction.
pub async fn start_in(
    tx: &mut Conn,
    tell: Option<&Env>,
    g: &store::GameRow,
    now: Ts,
) -> engine::Result<Ts> {
    let game_id = &g.id;
    if g.status != store::GameStatus::Forming {
        return Err(EngineError::Refused(format!(
            "game '{game_id}' is already {}",
            g.status
        )));
    }
    let map = map_of(g)?;
    let players = store::players(&mut *tx, &g.id).await?;
    let missing: Vec<&str> = map
        .powers
        .iter()
        .map(|p| p.name.as_str())
        .filter(|name| !players.iter().any(|p| p.power == *name))
        .collect();
    if !missing.is_empty() {
        return Err(EngineError::Refused(format!(
            "every power needs a player before the start; missing: {}",
            missing.join(", ")
        )));
    }
    start_seated(tx, tell, g, now).await
}

/// Start a forming game with the players it has: every power's (`start_in`), or the powers
/// drawn among fewer contestants than powers (Agora BT2, BT6), the others in civil disorder
/// (BT24: with no player, their units hold and build nothing).
pub async fn start_seated(
    tx: &mut Conn,
    tell: Option<&Env>,
    g: &store::GameRow,
    now: Ts,
) -> engine::Result<Ts> {
    if g.status != store::GameStatus::Forming {
        return Err(EngineError::Refused(format!(
            "game '{}' is already {}",
            g.id, g.status
        )));
    }
    let rules = rules_of(g)?;
    let map = map_of(g)?;
    let players = store::players(&mut *tx, &g.id).await?;
    let board = Board::initial(map);
    let next = json::board_output(map, &board);
    let deadline = policy::deadline(&rules, now, PhaseKind::Movement, &[]);
    store::insert_phase(
        &mut *tx,
        &g.id,
        &board.phase.to_string(),
        &serde_json::to_string(&next)?,
        now,
        deadline,
    )
    .await?;
    store::set_game_status(&mut *tx, &g.id, store::GameStatus::Active).await?;
    // Agora BT5, BT8: the regulations the game is run under, its rule set from the start.
    super::regulations::start(&mut *tx, g, &rules, now).await?;
    if let Some(env) = tell {
        let phase = board.phase.to_string();
        let mails = start_mails(tx, env, g, &rules, &players, &phase, deadline).await?;
        store::enqueue_many(&mut *tx, &mails, now).await?;
    }
    Ok(deadline)
}

/// The start mails of a game: to every player (their power and secret), master (their secret)
/// and observer, each in their own zone.
async fn start_mails(
    tx: &mut Conn,
    env: &Env,
    g: &store::GameRow,
    rules: &Rules,
    players: &[PlayerRow],
    phase: &str,
    deadline: Ts,
) -> engine::Result<Vec<store::NewMail>> {
    let members = store::members(&mut *tx, &g.id).await?;
    let mut readers: Vec<compose::StartReader<'_>> = players
        .iter()
        .map(|p| compose::StartReader {
            address: &p.address,
            tz: &p.tz,
            power: &p.power,
            role: "player",
            secret: &p.secret,
            takeover: None,
            joined: false,
        })
        .collect();
    readers.extend(members.iter().map(|m| compose::StartReader {
        address: &m.address,
        tz: &m.tz,
        power: "",
        role: match m.role {
            store::Role::Gm => "GM",
            store::Role::Td => "TD",
            store::Role::Observer => "observer",
        },
        secret: if m.role.is_master() { &m.secret } else { "" },
        takeover: None,
        joined: false,
    }));
    let mut mails = Vec::new();
    for r in &readers {
        match compose::start(env, g, rules, phase, deadline, r) {
            Ok(m) => mails.push(m),
            Err(e) => {
                let masters = engine::masters_for(&mut *tx, env, Some(g)).await?;
                let key = format!("start|{}", g.id);
                mails.extend(engine::compose_failed_mails(
                    env,
                    Some(g),
                    &masters,
                    &e,
                    &key,
                ));
            }
        }
    }
    Ok(mails)
}
