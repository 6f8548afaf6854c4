//! A championship made at the console from its preset, its entries approved by the TD (ACWC
//! "Player eligibility": the TD checks the account on Lichess; Chancery cannot), and started:
//! the Swiss's first round published.

use super::store::{self, Conn, EntrantRow, GameRow, GameStatus, Kind, PlayerRow};
use crate::acwc::house::HouseRules;
use crate::acwc::seeding::Seeding;
use crate::config::Env;
use crate::engine::{self, EngineError, Result};
use crate::outgoing::acwc::compose;
use crate::outgoing::acwc::render::StartView;
use crate::time::Ts;

/// The rulebook's name, kept as the game's `variant`.
pub const RULEBOOK_2019: &str = "acwc-2019";

/// A championship to make.
pub struct NewChampionship<'a> {
    pub id: &'a str,
    /// `acwc2019` (`chancery presets`).
    pub preset: &'a str,
    pub gm_address: &'a str,
    pub confirm_address: &'a str,
}

/// Make a championship from its preset, open for entries.
pub async fn create(c: &mut Conn, n: &NewChampionship<'_>, now: Ts) -> Result<HouseRules> {
    let rules = HouseRules::preset(n.preset).map_err(|e| EngineError::Refused(e.to_string()))?;
    let json = serde_json::to_string(&rules)?;
    store::create_game(
        c,
        n.id,
        RULEBOOK_2019,
        &json,
        n.gm_address,
        n.confirm_address,
        now,
    )
    .await?;
    store::set_kind(c, n.id, Kind::Acwc).await?;
    store::create_championship(c, n.id).await?;
    Ok(rules)
}

/// An entry: the account, its address and its two ratings (ACWC "Format": the seeding rating
/// is their average). Refused, with why, if the ratings do not hold together or the account
/// entered already.
pub async fn enter(
    c: &mut Conn,
    g: &GameRow,
    e: &EntrantRow,
) -> Result<std::result::Result<(), String>> {
    let seeding = Seeding {
        cutoff: u32::try_from(e.cutoff).unwrap_or(0),
        peak: u32::try_from(e.peak).unwrap_or(0),
    };
    if let Err(why) = seeding.check() {
        return Ok(Err(why.to_string()));
    }
    if g.status != GameStatus::Forming {
        return Ok(Err(format!(
            "entries to {} are closed: it has started",
            g.id
        )));
    }
    let taken = store::entrants(c, &g.id)
        .await?
        .iter()
        .any(|x| x.account.eq_ignore_ascii_case(&e.account));
    if taken || !store::add_entrant(c, &g.id, e).await? {
        return Ok(Err(format!(
            "{} has entered already (ACWC Player eligibility: one account a player)",
            e.account
        )));
    }
    Ok(Ok(()))
}

/// The TD approves `account`'s entry: the entrant is seated (a player of the championship,
/// with a secret from the OS random generator) and mailed it.
pub async fn approve(
    c: &mut Conn,
    tell: Option<&Env>,
    g: &GameRow,
    account: &str,
    now: Ts,
) -> Result<std::result::Result<PlayerRow, String>> {
    let Some(e) = store::entrants(c, &g.id)
        .await?
        .into_iter()
        .find(|e| e.account.eq_ignore_ascii_case(account))
    else {
        return Ok(Err(format!("no entry of {account} in {}", g.id)));
    };
    if !store::approve(c, &g.id, &e.account, now).await? {
        return Ok(Err(format!("{} is approved already", e.account)));
    }
    let player = PlayerRow {
        power: e.account.clone(),
        address: e.address.clone(),
        name: e.account.clone(),
        tz: "UTC".into(),
        secret: engine::secret::generate()?,
        extension_days_used: 0,
    };
    store::add_player(c, &g.id, &player).await?;
    if let Some(env) = tell {
        let seeding = Seeding {
            cutoff: u32::try_from(e.cutoff).unwrap_or(0),
            peak: u32::try_from(e.peak).unwrap_or(0),
        };
        let v = StartView {
            game: g.id.clone(),
            account: e.account.clone(),
            seeding: seeding.rating().to_string(),
            secret: player.secret.clone(),
        };
        match compose::start(env, g, &player.address, &v) {
            Ok(m) => {
                store::enqueue(c, &m, now).await?;
            }
            Err(err) => engine::compose_failed(c, env, Some(g), &err, now).await?,
        }
    }
    Ok(Ok(player))
}

/// Start a championship: the Swiss's first round paired and published to everyone (ACWC
/// "Timeline"). Its deadline.
pub async fn start_in(c: &mut Conn, tell: Option<&Env>, g: &GameRow, now: Ts) -> Result<Ts> {
    if g.status != GameStatus::Forming {
        return Err(EngineError::Refused(format!(
            "championship '{}' is already {}",
            g.id, g.status
        )));
    }
    let approved = super::approved(c, &g.id).await?;
    if approved.len() < 2 {
        return Err(EngineError::Refused(format!(
            "{} has {} approved entrant(s): a Swiss needs two at least",
            g.id,
            approved.len()
        )));
    }
    store::set_game_status(c, &g.id, GameStatus::Active).await?;
    let Some(env) = tell else {
        return Err(EngineError::Refused(
            "a championship starts by publishing its pairings: it needs the mail".to_string(),
        ));
    };
    super::rounds::advance(c, env, g, now).await?;
    Ok(crate::acwc::week::round_week(now).deadline)
}
