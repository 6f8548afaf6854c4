//! Every kind's turns (the `phases` table): a game's turns in order, each with its name in the
//! kind's words, when it began, its deadline, and when it was decided. What a turn holds
//! (`board`, `results`) is the kind's own JSON, read only by its code; the clock of a turn is
//! what the office's commands (DEADLINE, EXTEND, PAUSE, ROLLBACK, STATUS) work on, for every
//! kind alike.

use super::*;

/// One turn of a game, as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PhaseRow {
    pub game_id: String,
    pub seq: i64,
    pub phase: String,
    /// The kind's JSON of the turn (Diplomacy's: the `chancery adjudicate` input shape).
    pub board: String,
    pub started_at: Ts,
    pub deadline: Ts,
    pub adjudication_started_at: Option<Ts>,
    pub adjudicated_at: Option<Ts>,
    /// When the players were reminded and the masters sent the digest.
    pub reminded_at: Option<Ts>,
    /// An NMR holds the results (WM D.VII(6)(b)): when the tick looks at the phase again. The
    /// deadline stays as published, and the phase closed to all but the GM's replacement.
    pub held_until: Option<Ts>,
}

/// The phase being played: the last one, if not yet adjudicated.
pub async fn current_phase(c: &mut Conn, game: &str) -> Result<Option<PhaseRow>> {
    Ok(sqlx::query_as(
        "SELECT * FROM phases WHERE game_id = $1 AND adjudicated_at IS NULL ORDER BY seq DESC LIMIT 1",
    )
    .bind(game)
    .fetch_optional(&mut *c)
    .await?)
}

/// The last phase of a game with this name (`S1902M`), adjudicated or not.
pub async fn phase_named(c: &mut Conn, game: &str, phase: &str) -> Result<Option<PhaseRow>> {
    Ok(sqlx::query_as(
        "SELECT * FROM phases WHERE game_id = $1 AND phase = $2 ORDER BY seq DESC LIMIT 1",
    )
    .bind(game)
    .bind(phase)
    .fetch_optional(&mut *c)
    .await?)
}

/// A new deadline for turn `seq`.
pub async fn set_deadline(c: &mut Conn, game: &str, seq: i64, deadline: Ts) -> Result<()> {
    // A new deadline opens the phase again: a hold for an NMR ends with it.
    sqlx::query(
        "UPDATE phases SET deadline = $1, held_until = NULL WHERE game_id = $2 AND seq = $3",
    )
    .bind(deadline)
    .bind(game)
    .bind(seq)
    .execute(&mut *c)
    .await?;
    clock_changed(c, game).await
}
