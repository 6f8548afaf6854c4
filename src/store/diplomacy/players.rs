//! What a Diplomacy player chose and how they played, by power: their abbreviations list (WM
//! D.III(1)), what a replacement forgets of the player before, the reliability record over
//! every game (NMRs included), and what their unavailable periods say to the policy's rule of
//! one a week (WM D.VII(2)).

use crate::store::*;

/// What a player chose for themselves in Diplomacy's terms, forgotten when another takes the
/// power over: the new player made none of those choices. Their abbreviations list (WM
/// D.III(1): a replacement registers their own with the first orders), their conditional
/// retreat and adjustment orders (WM D.II(5)) and their votes (WM D.IX; Maharajiad B.X); their
/// unavailable periods are the office's (`store::forget_unavailable`). The orders standing for the phase stay: the welcome lists them,
/// and they are adjudicated unless the new player sends others.
pub async fn forget_player_choices(c: &mut Conn, game: &str, power: &str) -> Result<()> {
    for sql in [
        "DELETE FROM abbreviation_lists WHERE game_id = $1 AND power = $2",
        "DELETE FROM conditional_orders WHERE game_id = $1 AND power = $2",
    ] {
        sqlx::query(sql)
            .bind(game)
            .bind(power)
            .execute(&mut *c)
            .await?;
    }
    super::votes::forget_votes(c, game, power).await
}

/// One player's reliability record, over every game of this server (by address).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Reliability {
    pub address: String,
    /// Positions held now.
    pub positions: i64,
    pub nmrs: i64,
    pub late: i64,
    pub extensions: i64,
    pub extension_days: i64,
    /// Times this player was replaced, and times this player replaced another.
    pub replaced: i64,
    pub replacing: i64,
}

/// Every player's reliability record (a report: it reads whole tables by design).
pub async fn reliability(c: &mut Conn) -> Result<Vec<Reliability>> {
    Ok(sqlx::query_as(
        "WITH people AS (SELECT address FROM players
                         UNION SELECT old_address FROM replacements
                         UNION SELECT address FROM nmrs WHERE address != ''),
              reliability_counts AS (SELECT 1)
         SELECT p.address,
           (SELECT count(*) FROM players x WHERE x.address = p.address) AS positions,
           (SELECT count(*) FROM nmrs n WHERE n.address = p.address) AS nmrs,
           (SELECT count(*) FROM late_orders l WHERE l.address = p.address) AS late,
           (SELECT count(*) FROM extensions e WHERE e.address = p.address AND e.kind != 'holiday')
             AS extensions,
           (SELECT CAST(coalesce(sum(e.days), 0) AS BIGINT) FROM extensions e
             WHERE e.address = p.address AND e.kind != 'holiday') AS extension_days,
           (SELECT count(*) FROM replacements r WHERE r.old_address = p.address) AS replaced,
           (SELECT count(*) FROM replacements r WHERE r.new_address = p.address) AS replacing
         FROM people p ORDER BY p.address",
    )
    .fetch_all(&mut *c)
    .await?)
}

/// A power's abbreviations list (WM D.III(1)): JSON `{"abbreviation": "province code"}`.
pub async fn abbreviations(c: &mut Conn, game: &str, power: &str) -> Result<Option<String>> {
    Ok(
        sqlx::query_scalar("SELECT list FROM abbreviation_lists WHERE game_id = $1 AND power = $2")
            .bind(game)
            .bind(power)
            .fetch_optional(&mut *c)
            .await?,
    )
}

pub async fn set_abbreviations(
    c: &mut Conn,
    game: &str,
    power: &str,
    list_json: &str,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO abbreviation_lists (game_id, power, list, at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (game_id, power) DO UPDATE SET list = excluded.list, at = excluded.at",
    )
    .bind(game)
    .bind(power)
    .bind(list_json)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Whether `address` took `power` over as a replacement and has sent no orders since (WM
/// D.III(1): a replacement registers abbreviations with the first orders).
pub async fn replacement_without_orders(
    c: &mut Conn,
    game: &str,
    power: &str,
    address: &str,
) -> Result<bool> {
    Ok(sqlx::query(
        "SELECT 1 FROM replacements r
         WHERE r.game_id = $1 AND r.power = $2 AND r.new_address = $3
           AND NOT EXISTS (SELECT 1 FROM submissions s
                           WHERE s.game_id = r.game_id AND s.power = r.power AND s.submitted_at >= r.at)",
    )
    .bind(game)
    .bind(power)
    .bind(address)
    .fetch_optional(&mut *c)
    .await?
    .is_some())
}
