//! A Master's console commands every kind of game shares: a master (GM or TD) or an observer
//! added to a game, and an observer's first mail. Creating a game, registering its players and
//! starting it are each kind's own (`src/games/<kind>/admin.rs`); their refusals are
//! [`AdminError`]s too. Domain checks happen here, not in the CLI.

use super::EngineError;
use super::house::{House, Houses};
use crate::store::Pool;
use crate::store::{self, StoreError};
use crate::time::Ts;

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

/// The shortest secret a GM may choose for a player: the echo masks the secret wherever it
/// appears in the lines it quotes, and a secret of a few letters ("bur") is found inside
/// ordinary orders and words.
pub const MIN_SECRET_CHARS: usize = 8;

/// Add a master (GM or TD) or an observer to a game; returns the stored row (with the secret
/// to give them: masters authenticate their command mails as players do, WM D.X(6)).
pub async fn add_member(
    pool: &Pool,
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
/// under way ([`welcome_observer`], in the words of the game's kind: `houses`).
pub async fn add_observer(
    pool: &Pool,
    env: &super::Env,
    houses: &impl Houses,
    game: &str,
    address: &str,
    tz: &str,
    now: Ts,
) -> super::Result<store::MemberRow> {
    let mut tx = crate::store::begin_write(pool).await?;
    let g = store::take_game_waiting(&mut tx, game)
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
    let house = houses.house(&g)?;
    welcome_observer(&mut tx, env, &g, &*house, &m.address, &m.tz, now).await?;
    tx.commit().await?;
    Ok(m)
}

/// An observer's first mail, when they are added to a game under way (added before the start,
/// the start mail is their first): what they will receive, and how to stop it, since they did
/// not ask for it themselves (`OBSERVER REMOVE` with their own address, from their own mail).
/// Returns whether it was sent.
pub(crate) async fn welcome_observer(
    c: &mut crate::store::Conn,
    env: &super::Env,
    g: &store::GameRow,
    house: &dyn House,
    address: &str,
    tz: &str,
    now: Ts,
) -> super::Result<bool> {
    if g.status != store::GameStatus::Active {
        return Ok(false);
    }
    let p = store::current_phase(c, &g.id).await?;
    let Some(welcome) = house.welcome_observer(env, g, p.as_ref(), address, tz) else {
        return Ok(false);
    };
    let mails = match welcome {
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
