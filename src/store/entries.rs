//! Entry by announcement (Agora BT1), the draw's seed (BT6) and the assistants a contestant
//! announces (BT7): rows every kind of game whose players enter themselves may use.

use super::*;

/// A person who entered a game by announcement, before the draw.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct GameEntryRow {
    pub address: String,
    pub name: String,
    pub entered_at: Ts,
}

/// The game's entrants, in the order they entered.
pub async fn game_entries(c: &mut Conn, game: &str) -> Result<Vec<GameEntryRow>> {
    Ok(sqlx::query_as(
        "SELECT address, name, entered_at FROM game_entries WHERE game_id = $1
         ORDER BY entered_at, address",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// Record an entry (the address in lower case).
pub async fn add_game_entry(
    c: &mut Conn,
    game: &str,
    address: &str,
    name: &str,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO game_entries (game_id, address, name, entered_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(game)
    .bind(address.to_ascii_lowercase())
    .bind(name)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The draw's seed as stored (16 hex digits), if one was fixed.
pub async fn draw_seed(c: &mut Conn, game: &str) -> Result<Option<String>> {
    Ok(
        sqlx::query_scalar("SELECT draw_seed FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&mut *c)
            .await?
            .flatten(),
    )
}

/// Fix the draw's seed, unless one is fixed already; returns the game's seed.
pub async fn fix_draw_seed(c: &mut Conn, game: &str, seed: &str) -> Result<String> {
    sqlx::query("UPDATE games SET draw_seed = coalesce(draw_seed, $2) WHERE id = $1")
        .bind(game)
        .bind(seed)
        .execute(&mut *c)
        .await?;
    Ok(draw_seed(c, game)
        .await?
        .unwrap_or_else(|| seed.to_string()))
}

/// When the game was created and the close of entry its masters set (Agora BT1).
pub async fn entry_dates(c: &mut Conn, game: &str) -> Result<(Ts, Option<Ts>)> {
    let row = sqlx::query("SELECT created_at, entry_until FROM games WHERE id = $1")
        .bind(game)
        .fetch_one(&mut *c)
        .await?;
    Ok((row.try_get("created_at")?, row.try_get("entry_until")?))
}

/// Set the close of entry (Agora BT1: the later of it and 7 days after creation counts).
pub async fn set_entry_until(c: &mut Conn, game: &str, until: Ts) -> Result<()> {
    sqlx::query("UPDATE games SET entry_until = $2 WHERE id = $1")
        .bind(game)
        .bind(until)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// An assistant a contestant announced (Agora BT7).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AssistantRow {
    pub power: String,
    pub address: String,
    pub help: String,
    pub announced_at: Ts,
}

/// Record (or restate) an assistant of `power`.
pub async fn add_assistant(
    c: &mut Conn,
    game: &str,
    power: &str,
    address: &str,
    help: &str,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO assistants (game_id, power, address, help, announced_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (game_id, power, address) DO UPDATE SET help = excluded.help,
             announced_at = excluded.announced_at",
    )
    .bind(game)
    .bind(power)
    .bind(address.to_ascii_lowercase())
    .bind(help)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The assistants of a game, by power and address.
pub async fn assistants(c: &mut Conn, game: &str) -> Result<Vec<AssistantRow>> {
    Ok(sqlx::query_as(
        "SELECT power, address, help, announced_at FROM assistants WHERE game_id = $1
         ORDER BY power, address",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// Drop an entry before the draw (Agora BT2: the Gamemaster causes a person to cease to be a
/// Contestant); whether there was one.
pub async fn remove_game_entry(c: &mut Conn, game: &str, address: &str) -> Result<bool> {
    let r = sqlx::query("DELETE FROM game_entries WHERE game_id = $1 AND address = $2")
        .bind(game)
        .bind(address.to_ascii_lowercase())
        .execute(&mut *c)
        .await?;
    Ok(r.rows_affected() > 0)
}

/// Record the Gamemaster's invitation of `address` to become a Contestant (Agora BT2: "any
/// consenting person"): it becomes one when it consents by mail.
pub async fn invite(c: &mut Conn, game: &str, address: &str, now: Ts) -> Result<()> {
    sqlx::query(
        "INSERT INTO entry_invitations (game_id, address, invited_at) VALUES ($1, $2, $3)
         ON CONFLICT (game_id, address) DO UPDATE SET invited_at = excluded.invited_at",
    )
    .bind(game)
    .bind(address.to_ascii_lowercase())
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Whether the Gamemaster invited `address` to become a Contestant (Agora BT2).
pub async fn is_invited(c: &mut Conn, game: &str, address: &str) -> Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM entry_invitations WHERE game_id = $1 AND address = $2",
    )
    .bind(game)
    .bind(address.to_ascii_lowercase())
    .fetch_one(&mut *c)
    .await?;
    Ok(n > 0)
}

/// Withdraw an invitation (a REMOVE before the person consented); whether there was one.
pub async fn uninvite(c: &mut Conn, game: &str, address: &str) -> Result<bool> {
    let r = sqlx::query("DELETE FROM entry_invitations WHERE game_id = $1 AND address = $2")
        .bind(game)
        .bind(address.to_ascii_lowercase())
        .execute(&mut *c)
        .await?;
    Ok(r.rows_affected() > 0)
}

/// A contestant ceases to be one after the draw (Agora BT2): its player row goes, so that no
/// mail of the game goes to it and its power, with no player, is in civil disorder (BT24: its
/// units hold, as an NMR's do). Whether there was one.
pub async fn remove_player(c: &mut Conn, game: &str, power: &str) -> Result<bool> {
    let r = sqlx::query("DELETE FROM players WHERE game_id = $1 AND power = $2")
        .bind(game)
        .bind(power)
        .execute(&mut *c)
        .await?;
    Ok(r.rows_affected() > 0)
}
