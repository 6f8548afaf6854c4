//! What a game's read-only page shows (issue 27): its phases with their boards and results, and
//! the press published to all. Nothing secret is read here: no votes, no addresses, no press to
//! some powers only, no orders of a phase not yet adjudicated.

use crate::store::*;

/// One phase as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PagePhase {
    pub phase: String,
    /// The board it was played on (the `adjudicate` input shape).
    pub board: String,
    /// Its results (the `adjudicate` output), once adjudicated.
    pub results: Option<String>,
    pub deadline: Ts,
    pub adjudicated_at: Option<Ts>,
}

/// Every phase of a game, in order.
pub async fn page_phases(c: &mut Conn, game: &str) -> Result<Vec<PagePhase>> {
    Ok(sqlx::query_as(
        "SELECT phase, board, results, deadline, adjudicated_at FROM phases
         WHERE game_id = $1 ORDER BY seq",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// One phase of a game: the last of that name, or (`None`) the last one.
pub async fn page_phase(
    c: &mut Conn,
    game: &str,
    phase: Option<&str>,
) -> Result<Option<PagePhase>> {
    Ok(sqlx::query_as(
        "SELECT phase, board, results, deadline, adjudicated_at FROM phases
         WHERE game_id = $1 AND ($2 IS NULL OR phase = $2) ORDER BY seq DESC LIMIT 1",
    )
    .bind(game)
    .bind(phase)
    .fetch_optional(&mut *c)
    .await?)
}

/// A press message sent to all: the author is read only to be shown for white press.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PagePress {
    pub phase: String,
    pub author: String,
    #[sqlx(try_from = "crate::store::dialect::Flag")]
    pub grey: bool,
    pub signature: Option<String>,
    pub attributed: Option<String>,
    pub body: String,
}

/// The press sent to all in the phases already adjudicated (published with their results),
/// oldest first.
pub async fn page_press(c: &mut Conn, game: &str) -> Result<Vec<PagePress>> {
    Ok(sqlx::query_as(
        "SELECT s.phase, s.author, s.grey, s.signature, s.attributed, s.body FROM press s
         JOIN phases p ON p.game_id = s.game_id AND p.phase = s.phase
         WHERE s.game_id = $1 AND s.recipients = '[]' AND p.adjudicated_at IS NOT NULL
           AND s.body <> ''
         ORDER BY s.id",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}
