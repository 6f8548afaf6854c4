//! A Master's commands on a game (from the CLI today, by mail later): create it, register a
//! player, start it. Domain checks happen here, not in the CLI.

use super::{EngineError, map_of, rules_of};
use crate::adjudicator::Board;
use crate::json;
use crate::map::Map;
use crate::outgoing::diplomacy::compose;
use crate::phase::PhaseKind;
use crate::policy;
use crate::rules::Rules;
use crate::store::{self, PlayerRow, StoreError};
use crate::time::Ts;
use sqlx::SqlitePool;

/// Why a Master's command was refused.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("unknown variant '{0}'")]
    UnknownVariant(String),
    #[error("unknown power '{0}'")]
    UnknownPower(String),
    #[error("unknown time zone '{0}' (use an IANA name such as Europe/Paris)")]
    UnknownTimeZone(String),
    #[error("no game '{0}'")]
    NoGame(String),
    #[error("{0}")]
    Rules(String),
    #[error("cannot make a secret: {0}")]
    Secret(#[from] super::secret::SecretError),
    #[error(
        "a player's secret needs at least {MIN_SECRET_CHARS} characters (it is masked wherever the \
         player's mail is quoted, and a short one would mask ordinary words); leave it out for a \
         generated one"
    )]
    ShortSecret,
    #[error(transparent)]
    Store(#[from] StoreError),
}

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
pub async fn create_game(pool: &SqlitePool, g: &NewGame<'_>, now: Ts) -> Result<Rules, AdminError> {
    let mut c = pool.acquire().await.map_err(StoreError::from)?;
    create_game_in(&mut c, g, now).await
}

/// [`create_game`] on the caller's connection (or transaction).
pub async fn create_game_in(
    c: &mut sqlx::SqliteConnection,
    g: &NewGame<'_>,
    now: Ts,
) -> Result<Rules, AdminError> {
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

/// The shortest secret a GM may choose for a player: the echo masks the secret wherever it
/// appears in the lines it quotes, and a secret of a few letters ("bur") is found inside
/// ordinary orders and words.
pub const MIN_SECRET_CHARS: usize = 8;

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
pub async fn add_player(pool: &SqlitePool, p: &NewPlayer<'_>) -> Result<PlayerRow, AdminError> {
    let mut c = pool.acquire().await.map_err(StoreError::from)?;
    add_player_in(&mut c, p).await
}

/// [`add_player`] on the caller's connection (or transaction).
pub async fn add_player_in(
    c: &mut sqlx::SqliteConnection,
    p: &NewPlayer<'_>,
) -> Result<PlayerRow, AdminError> {
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
        None => super::secret::generate()?,
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

/// Add a master (GM or TD) or an observer to a game; returns the stored row (with the secret
/// to give them: masters authenticate their command mails as players do, WM D.X(6)).
pub async fn add_member(
    pool: &SqlitePool,
    game: &str,
    role: store::Role,
    address: &str,
    tz: &str,
    now: Ts,
) -> Result<store::MemberRow, AdminError> {
    let mut c = pool.acquire().await.map_err(StoreError::from)?;
    let g = store::game(&mut c, game)
        .await?
        .ok_or_else(|| AdminError::NoGame(game.to_string()))?;
    if tz != "UTC" && tz.parse::<chrono_tz::Tz>().is_err() {
        return Err(AdminError::UnknownTimeZone(tz.to_string()));
    }
    let m = store::MemberRow {
        role,
        address: address.to_ascii_lowercase(),
        name: String::new(),
        tz: tz.to_string(),
        secret: super::secret::generate()?,
    };
    store::add_member(&mut c, &g.id, &m, now).await?;
    Ok(m)
}

/// Add an observer at the console, in one transaction with their first mail if the game is
/// under way ([`welcome_observer`]).
pub async fn add_observer(
    pool: &SqlitePool,
    env: &super::Env,
    game: &str,
    address: &str,
    tz: &str,
    now: Ts,
) -> super::Result<store::MemberRow> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let g = store::game(&mut tx, game)
        .await?
        .ok_or_else(|| EngineError::NoGame(game.to_string()))?;
    if tz != "UTC" && tz.parse::<chrono_tz::Tz>().is_err() {
        return Err(EngineError::Refused(
            AdminError::UnknownTimeZone(tz.to_string()).to_string(),
        ));
    }
    let m = store::MemberRow {
        role: store::Role::Observer,
        address: address.to_ascii_lowercase(),
        name: String::new(),
        tz: tz.to_string(),
        // Observers send no commands; the secret is never given out.
        secret: super::secret::generate()?,
    };
    store::add_member(&mut tx, &g.id, &m, now).await?;
    welcome_observer(&mut tx, env, &g, &m.address, &m.tz, now).await?;
    tx.commit().await?;
    Ok(m)
}

/// An observer's first mail, when they are added to a game under way (added before the start,
/// the start mail is their first): what they will receive, and how to stop it, since they did
/// not ask for it themselves (`OBSERVER REMOVE` with their own address, from their own mail).
/// Returns whether it was sent.
pub(crate) async fn welcome_observer(
    c: &mut sqlx::SqliteConnection,
    env: &super::Env,
    g: &store::GameRow,
    address: &str,
    tz: &str,
    now: Ts,
) -> super::Result<bool> {
    if g.status != store::GameStatus::Active {
        return Ok(false);
    }
    let Some(p) = store::current_phase(c, &g.id).await? else {
        return Ok(false);
    };
    let rules = rules_of(g)?;
    let reader = compose::StartReader {
        address,
        tz,
        power: "",
        role: "observer",
        secret: "",
        takeover: None,
        joined: true,
    };
    let mails = match compose::start(env, g, &rules, &p.phase, p.deadline, &reader) {
        Ok(m) => vec![m],
        Err(e) => {
            let masters = super::masters_for(c, env, Some(g)).await?;
            let key = format!("observer|{}|{address}", g.id);
            super::compose_failed_mails(env, Some(g), &masters, &e, &key)
        }
    };
    store::enqueue_many(c, &mails, now).await?;
    Ok(true)
}

/// Start a game: the opening board, its first deadline, the game goes active, and every
/// player, master and observer is mailed a start mail (the power, the deadline, the secret, how
/// to send orders, the house rules with their clauses: WM D.I(1)(b)), in one transaction.
pub async fn start_game_and_tell(
    pool: &SqlitePool,
    env: &super::Env,
    game_id: &str,
    now: Ts,
) -> super::Result<Ts> {
    start(pool, Some(env), game_id, now).await
}

/// Start a game without mailing anyone: test fixtures and the bench, whose players need no
/// start mail.
pub async fn start_game(pool: &SqlitePool, game_id: &str, now: Ts) -> super::Result<Ts> {
    start(pool, None, game_id, now).await
}

async fn start(
    pool: &SqlitePool,
    tell: Option<&super::Env>,
    game_id: &str,
    now: Ts,
) -> super::Result<Ts> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let deadline = start_in(&mut tx, tell, game_id, now).await?;
    tx.commit().await?;
    Ok(deadline)
}

/// [`start_game_and_tell`] (with `tell`) inside the caller's transaction: a tournament round
/// starts all its boards in one.
pub(super) async fn start_in(
    tx: &mut sqlx::SqliteConnection,
    tell: Option<&super::Env>,
    game_id: &str,
    now: Ts,
) -> super::Result<Ts> {
    let g = store::game(tx, game_id)
        .await?
        .ok_or_else(|| EngineError::NoGame(game_id.to_string()))?;
    if g.status != store::GameStatus::Forming {
        return Err(EngineError::Refused(format!(
            "game '{game_id}' is already {}",
            g.status
        )));
    }
    let rules = rules_of(&g)?;
    let map = map_of(&g)?;
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
    if let Some(env) = tell {
        let phase = board.phase.to_string();
        let mails = start_mails(tx, env, &g, &rules, &players, &phase, deadline).await?;
        store::enqueue_many(&mut *tx, &mails, now).await?;
    }
    Ok(deadline)
}

/// The start mails of a game: to every player (their power and secret), master (their secret)
/// and observer, each in their own zone.
async fn start_mails(
    tx: &mut sqlx::SqliteConnection,
    env: &super::Env,
    g: &store::GameRow,
    rules: &Rules,
    players: &[PlayerRow],
    phase: &str,
    deadline: Ts,
) -> super::Result<Vec<store::NewMail>> {
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
                let masters = super::masters_for(&mut *tx, env, Some(g)).await?;
                let key = format!("start|{}", g.id);
                mails.extend(super::compose_failed_mails(
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
