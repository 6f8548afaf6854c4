//! Games and their players: the game rows, registrations, extensions, unavailable periods,
//! wrong-secret counts.

use super::*;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub rules: String,
    pub gm_address: String,
    pub confirm_address: String,
    pub status: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub power: String,
    pub address: String,
    pub name: String,
    pub tz: String,
    pub secret: String,
    pub extension_days_used: i64,
}

pub async fn create_game(
    c: &mut SqliteConnection,
    id: &str,
    variant: &str,
    rules_json: &str,
    gm: &str,
    confirm: &str,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO games (id, variant, rules, gm_address, confirm_address, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(variant)
    .bind(rules_json)
    .bind(gm.to_ascii_lowercase())
    .bind(confirm.to_ascii_lowercase())
    .bind(now)
    .execute(&mut *c)
    .await
    .map_err(|e| match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            StoreError::GameExists(id.to_string())
        }
        e => e.into(),
    })?;
    Ok(())
}

pub(super) fn game_from(r: &sqlx::sqlite::SqliteRow) -> Result<GameRow> {
    Ok(GameRow {
        id: r.try_get("id")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        gm_address: r.try_get("gm_address")?,
        confirm_address: r.try_get("confirm_address")?,
        status: r.try_get("status")?,
    })
}

pub async fn game(c: &mut SqliteConnection, id: &str) -> Result<Option<GameRow>> {
    let row = sqlx::query("SELECT * FROM games WHERE lower(id) = lower($1)")
        .bind(id)
        .fetch_optional(&mut *c)
        .await?;
    row.as_ref().map(game_from).transpose()
}

pub async fn games_with_status(c: &mut SqliteConnection, status: &str) -> Result<Vec<GameRow>> {
    let rows = sqlx::query("SELECT * FROM games WHERE status = $1 ORDER BY id")
        .bind(status)
        .fetch_all(&mut *c)
        .await?;
    rows.iter().map(game_from).collect()
}

pub async fn set_game_status(c: &mut SqliteConnection, id: &str, status: &str) -> Result<()> {
    sqlx::query("UPDATE games SET status = $1 WHERE id = $2")
        .bind(status)
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn add_player(c: &mut SqliteConnection, game: &str, p: &PlayerRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO players (game_id, power, address, name, tz, secret) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (game_id, power) DO UPDATE SET address = excluded.address, name = excluded.name,
         tz = excluded.tz, secret = excluded.secret",
    )
    .bind(game)
    .bind(&p.power)
    .bind(p.address.to_ascii_lowercase())
    .bind(&p.name)
    .bind(&p.tz)
    .bind(&p.secret)
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn players(c: &mut SqliteConnection, game: &str) -> Result<Vec<PlayerRow>> {
    let rows = sqlx::query("SELECT * FROM players WHERE game_id = $1 ORDER BY power")
        .bind(game)
        .fetch_all(&mut *c)
        .await?;
    rows.iter()
        .map(|r| {
            Ok(PlayerRow {
                power: r.try_get("power")?,
                address: r.try_get("address")?,
                name: r.try_get("name")?,
                tz: r.try_get("tz")?,
                secret: r.try_get("secret")?,
                extension_days_used: r.try_get("extension_days_used")?,
            })
        })
        .collect()
}

pub async fn add_extension_days(
    c: &mut SqliteConnection,
    game: &str,
    power: &str,
    days: i64,
) -> Result<()> {
    sqlx::query("UPDATE players SET extension_days_used = extension_days_used + $1 WHERE game_id = $2 AND power = $3")
        .bind(days)
        .bind(game)
        .bind(power)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn add_unavailable(
    c: &mut SqliteConnection,
    game: &str,
    power: &str,
    from: Ts,
    to: Ts,
) -> Result<()> {
    sqlx::query("INSERT INTO unavailable (game_id, power, from_ts, to_ts) VALUES ($1, $2, $3, $4)")
        .bind(game)
        .bind(power)
        .bind(from)
        .bind(to)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn unavailable(c: &mut SqliteConnection, game: &str) -> Result<Vec<(Ts, Ts)>> {
    let rows = sqlx::query("SELECT from_ts, to_ts FROM unavailable WHERE game_id = $1")
        .bind(game)
        .fetch_all(&mut *c)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("from_ts")?, r.try_get("to_ts")?)))
        .collect()
}

/// Is `address` a registered player of any game that is not finished?
pub async fn is_registered(c: &mut SqliteConnection, address: &str) -> Result<bool> {
    let row = sqlx::query(
        "SELECT 1 FROM players p JOIN games g ON g.id = p.game_id
         WHERE p.address = lower($1) AND g.status != 'finished' LIMIT 1",
    )
    .bind(address)
    .fetch_optional(&mut *c)
    .await?;
    Ok(row.is_some())
}

/// Count a wrong secret given for a power.
pub async fn add_wrong_secret(c: &mut SqliteConnection, game: &str, power: &str) -> Result<()> {
    sqlx::query(
        "UPDATE players SET wrong_secrets = wrong_secrets + 1 WHERE game_id = $1 AND power = $2",
    )
    .bind(game)
    .bind(power)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Wrong secrets given so far, by power.
pub async fn wrong_secrets(c: &mut SqliteConnection, game: &str) -> Result<Vec<(String, i64)>> {
    let rows = sqlx::query(
        "SELECT power, wrong_secrets FROM players WHERE game_id = $1 AND wrong_secrets > 0 ORDER BY power",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("power")?, r.try_get("wrong_secrets")?)))
        .collect()
}
