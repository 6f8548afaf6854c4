//! Pictures a mail shows inline (a phase's map), the readers who want none (MAP OFF), and the
//! unguessable link of each game's page. Shared by every kind of game: a picture is named by a
//! key its kind chose, and is recorded once, however many mails show it.

use super::*;

/// A picture to show: what it shows (a game's phase, drawn by the game's kind) and its text
/// alternative. The drawing itself is the outbox's (`service::pictures`), never stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PictureRow {
    pub id: i64,
    pub game_id: Option<String>,
    pub phase: Option<String>,
    pub alt: String,
}

/// Record, under `key`, a picture to draw of a game's phase (once: a key already recorded
/// stays as it is). The outbox draws it before the first mail that shows it is sent.
pub async fn keep_picture(
    c: &mut Conn,
    key: &str,
    game: &str,
    phase: &str,
    alt: &str,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO outbox_pictures (key, game_id, phase, alt, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING",
    )
    .bind(key)
    .bind(game)
    .bind(phase)
    .bind(alt)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The picture a mail of the outbox shows, by its id.
pub async fn picture(c: &mut Conn, id: i64) -> Result<Option<PictureRow>> {
    Ok(
        sqlx::query_as("SELECT id, game_id, phase, alt FROM outbox_pictures WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *c)
            .await?,
    )
}

/// The retention (`raw_retention_days`): the pictures made before `before` are let go by the
/// mails done with (sent or given up) that name them, then dropped once no mail names them.
/// Mail still to send keeps its picture. How many were dropped.
pub async fn purge_pictures(c: &mut Conn, before: Ts) -> Result<u64> {
    sqlx::query(
        "UPDATE outbox SET picture_id = NULL
         WHERE picture_id IN (SELECT id FROM outbox_pictures WHERE created_at < $1)
           AND (sent_at IS NOT NULL OR failed_at IS NOT NULL)",
    )
    .bind(before)
    .execute(&mut *c)
    .await?;
    let r = sqlx::query(
        "DELETE FROM outbox_pictures WHERE created_at < $1
           AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.picture_id = outbox_pictures.id)",
    )
    .bind(before)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected())
}

/// MAP ON (`on`) or MAP OFF for a reader of a game. Whether it changed anything.
pub async fn set_maps(c: &mut Conn, game: &str, address: &str, on: bool, now: Ts) -> Result<bool> {
    let address = address.to_ascii_lowercase();
    let done = if on {
        sqlx::query("DELETE FROM maps_off WHERE game_id = $1 AND address = $2")
            .bind(game)
            .bind(&address)
            .execute(&mut *c)
            .await?
    } else {
        sqlx::query(
            "INSERT INTO maps_off (game_id, address, since) VALUES ($1, $2, $3)
             ON CONFLICT (game_id, address) DO NOTHING",
        )
        .bind(game)
        .bind(&address)
        .bind(now)
        .execute(&mut *c)
        .await?
    };
    Ok(done.rows_affected() > 0)
}

/// The readers of a game who said MAP OFF (lower-case addresses).
pub async fn maps_off(c: &mut Conn, game: &str) -> Result<Vec<String>> {
    let rows = sqlx::query("SELECT address FROM maps_off WHERE game_id = $1 ORDER BY address")
        .bind(game)
        .fetch_all(&mut *c)
        .await?;
    rows.iter().map(|r| Ok(r.try_get("address")?)).collect()
}

/// The token of a game's page, made (32 bytes from the OS random generator, hex) the first
/// time it is asked for.
pub async fn page_token(c: &mut Conn, game: &str, now: Ts) -> Result<String> {
    if let Some(t) = stored_token(c, game).await? {
        return Ok(t);
    }
    let mut fresh = [0u8; 32];
    getrandom::getrandom(&mut fresh).map_err(|e| StoreError::Random(e.to_string()))?;
    let token: String = fresh.iter().map(|b| format!("{b:02x}")).collect();
    sqlx::query(
        "INSERT INTO game_pages (game_id, token, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(game)
    .bind(&token)
    .bind(now)
    .execute(&mut *c)
    .await?;
    stored_token(c, game)
        .await?
        .ok_or_else(|| StoreError::Random(format!("the page of '{game}' was not kept")))
}

async fn stored_token(c: &mut Conn, game: &str) -> Result<Option<String>> {
    let row = sqlx::query("SELECT token FROM game_pages WHERE game_id = $1")
        .bind(game)
        .fetch_optional(&mut *c)
        .await?;
    Ok(row.map(|r| r.try_get("token")).transpose()?)
}

/// The game a page's token opens, if any.
pub async fn game_of_page(c: &mut Conn, token: &str) -> Result<Option<String>> {
    let row = sqlx::query("SELECT game_id FROM game_pages WHERE token = $1")
        .bind(token)
        .fetch_optional(&mut *c)
        .await?;
    Ok(row.map(|r| r.try_get("game_id")).transpose()?)
}
