//! The kinds of game (the `games.kind` column) and when a game next needs the clock (the
//! `games.due_at` column). The store never reads a kind's own data to decide either: the kind's
//! tick step says when it next needs the clock, and the store only asks `due_at <= now`.

use super::*;

/// A kind of game: anything with seats, a clock and mail of its own. `src/games/mod.rs` is the
/// only place that matches on one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Diplomacy,
    /// Suber's Nomic, as the 2019 game edited it (issue 25).
    Nomic,
    /// The Antichess World Championship's office (issue 26): one championship a game.
    Acwc,
}

impl Kind {
    /// Every kind, each ticked in turn.
    pub const ALL: [Kind; 3] = [Kind::Diplomacy, Kind::Nomic, Kind::Acwc];
}

/// `due_at` of a game whose kind must look at it at the next tick: before any clock time.
pub const AT_ONCE: Ts = Ts::MIN;

/// Something a game's clock depends on changed (a deadline, a new phase, orders marked final,
/// the house rules, a resumption): the tick looks at the running game at once, and its kind's
/// step then says when it next needs the clock. A game that does not run needs none.
pub(super) async fn clock_changed(c: &mut Conn, game: &str) -> Result<()> {
    sqlx::query(
        "UPDATE games SET due_at = $1
         WHERE id = $2 AND status = 'active' AND paused_remaining IS NULL",
    )
    .bind(AT_ONCE)
    .bind(game)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// When the next game needs the clock, of any kind (the scheduler sleeps until then): one index
/// lookup a kind.
pub async fn next_due(c: &mut Conn) -> Result<Option<Ts>> {
    let mut next: Option<Ts> = None;
    for kind in Kind::ALL {
        let due: Option<Ts> = sqlx::query_scalar("SELECT min(due_at) FROM games WHERE kind = $1")
            .bind(kind)
            .fetch_one(&mut *c)
            .await?;
        next = match (next, due) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    Ok(next)
}

/// Games of `kind` that need the clock by `now`, in name order (an index lookup).
pub async fn tick_candidates(c: &mut Conn, kind: Kind, now: Ts) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar("SELECT id FROM games WHERE kind = $1 AND due_at <= $2 ORDER BY id")
            .bind(kind)
            .bind(now)
            .fetch_all(&mut *c)
            .await?,
    )
}

/// The games of `ids` still due by `now`, taken for this transaction (several instances share
/// the ticks, issue 28): a game another instance's tick holds is left out, and so is one whose
/// tick was committed since the candidates were read (no longer due). The tick decides only
/// these.
pub async fn claim_due(c: &mut Conn, ids: &[String], now: Ts) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT g.id FROM ",
            json_values!(1),
            " j JOIN games g ON g.id = j.value WHERE g.due_at <= $2 ORDER BY g.id",
            skip_locked!("g"),
        )
    ))
    .bind(serde_json::to_string(ids)?)
    .bind(now)
    .fetch_all(&mut *c)
    .await?)
}

/// When each game next needs the clock, as its kind's tick step decided: (game, due_at), None
/// for a game that needs none. One statement.
pub async fn set_due(c: &mut Conn, due: &[(&str, Option<Ts>)]) -> Result<()> {
    if due.is_empty() {
        return Ok(());
    }
    sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "UPDATE games SET due_at = v.d
         FROM (SELECT value ->> 0 AS g, ",
            json_int!(1),
            " AS d FROM ",
            json_rows!(1),
            ") AS v
         WHERE games.id = v.g",
        )
    ))
    .bind(serde_json::to_string(due)?)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Ask for the clock on `game` by `at` at the latest (an earlier time already set stands).
pub async fn need_clock_by(c: &mut Conn, game: &str, at: Ts) -> Result<()> {
    sqlx::query(
        "UPDATE games SET due_at = CASE WHEN due_at IS NULL OR due_at > $2 THEN $2 ELSE due_at END
         WHERE id = $1",
    )
    .bind(game)
    .bind(at)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Game `game` is of `kind` (set once, when a kind's console makes it: a new game is
/// Diplomacy's by default).
pub async fn set_kind(c: &mut Conn, game: &str, kind: Kind) -> Result<()> {
    sqlx::query("UPDATE games SET kind = $1 WHERE id = $2")
        .bind(kind)
        .bind(game)
        .execute(&mut *c)
        .await?;
    Ok(())
}

crate::store::dialect::text_type!(Kind { Diplomacy = "diplomacy", Nomic = "nomic", Acwc = "acwc" });
