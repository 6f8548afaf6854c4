//! What every kind's tick reads of a batch of games from the tables they share (games, players,
//! unavailable periods, silent drops, members), a few statements for the whole batch: a
//! deadline that falls on thousands of games at once costs a handful of statements per batch,
//! not a dozen per game. A kind's own facts are read by its folder (`diplomacy/tick.rs`).
//!
//! A batch's game ids are bound as one JSON array, its rows the dialect's list
//! (`dialect::json_values!`), so that a statement has the same text whatever the batch size
//! (SQLite caches its plan) and every lookup uses an index.

use super::*;
use crate::time::Window;
use sqlx::FromRow;
use std::collections::HashMap;

/// A power's wrong secrets so far (only powers with some).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongSecrets {
    pub power: String,
    pub count: i64,
}

/// How many mails were dropped silently for one reason.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct DropCount {
    pub reason: String,
    #[sqlx(rename = "n")]
    pub count: i64,
}

/// An observer of a game: results and press to all only, in their time zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observer {
    pub address: String,
    pub tz: String,
}

/// Rows of a batch's games, by game: `sql` binds the batch's list as `$1` and returns a
/// `game_id` column with the row's own.
pub(super) async fn by_game<T>(
    c: &mut Conn,
    sql: &'static str,
    list: &str,
) -> Result<HashMap<String, Vec<T>>>
where
    T: for<'r> FromRow<'r, DbRow> + Send + Unpin,
{
    let mut out: HashMap<String, Vec<T>> = HashMap::new();
    for r in sqlx::query(sql).bind(list).fetch_all(&mut *c).await? {
        out.entry(r.try_get("game_id")?)
            .or_default()
            .push(T::from_row(&r)?);
    }
    Ok(out)
}

/// The games of the list that run (active, not paused), by id.
pub(super) async fn running_games(c: &mut Conn, ids: &str) -> Result<HashMap<String, GameRow>> {
    let rows: Vec<GameRow> = sqlx::query_as(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT g.* FROM ",
            json_values!(1),
            " j JOIN games g ON g.id = j.value
         WHERE g.status = 'active' AND g.paused_remaining IS NULL",
        )
    ))
    .bind(ids)
    .fetch_all(&mut *c)
    .await?;
    Ok(rows.into_iter().map(|g| (g.id.clone(), g)).collect())
}

/// The players of each game of the list, by power, and the wrong secrets given for each.
#[allow(clippy::type_complexity)]
pub(super) async fn players_of(
    c: &mut Conn,
    ids: &str,
) -> Result<(
    HashMap<String, Vec<PlayerRow>>,
    HashMap<String, Vec<WrongSecrets>>,
)> {
    let mut players: HashMap<String, Vec<PlayerRow>> = HashMap::new();
    let mut wrong: HashMap<String, Vec<WrongSecrets>> = HashMap::new();
    for r in sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT p.* FROM ",
            json_values!(1),
            " j JOIN players p ON p.game_id = j.value
         ORDER BY p.game_id, p.power",
        )
    ))
    .bind(ids)
    .fetch_all(&mut *c)
    .await?
    {
        let game: String = r.try_get("game_id")?;
        let p = PlayerRow::from_row(&r)?;
        let count: i64 = r.try_get("wrong_secrets")?;
        if count > 0 {
            wrong.entry(game.clone()).or_default().push(WrongSecrets {
                power: p.power.clone(),
                count,
            });
        }
        players.entry(game).or_default().push(p);
    }
    Ok((players, wrong))
}

/// The unavailable periods of each game of the list that end after `since`.
pub(super) async fn unavailable_of(
    c: &mut Conn,
    ids: &str,
    since: Ts,
) -> Result<HashMap<String, Vec<Window>>> {
    let mut out: HashMap<String, Vec<Window>> = HashMap::new();
    for r in sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT u.game_id, u.from_ts, u.to_ts FROM ",
            json_values!(1),
            " j
         JOIN unavailable u ON u.game_id = j.value AND u.to_ts > $2",
        )
    ))
    .bind(ids)
    // Periods over before the day began no longer matter (weekly ones run two years ahead).
    .bind(since)
    .fetch_all(&mut *c)
    .await?
    {
        out.entry(r.try_get("game_id")?).or_default().push(Window {
            from: r.try_get("from_ts")?,
            to: r.try_get("to_ts")?,
        });
    }
    Ok(out)
}

/// The silent drops since a time, by the game they were about (None: about no game).
pub(super) struct Drops(HashMap<Option<String>, Vec<DropCount>>);

impl Drops {
    /// A game's drops and those about no game, by reason.
    pub(super) fn of(&self, game: &str) -> Vec<DropCount> {
        let mut drops = self.0.get(&None).cloned().unwrap_or_default();
        for d in self.0.get(&Some(game.to_string())).into_iter().flatten() {
            match drops.iter_mut().find(|x| x.reason == d.reason) {
                Some(x) => x.count += d.count,
                None => drops.push(d.clone()),
            }
        }
        drops.sort_by(|a, b| (&a.reason, a.count).cmp(&(&b.reason, b.count)));
        drops
    }
}

/// Drops of the last day are few: all of them, sorted out by game later.
pub(super) async fn drops_since(c: &mut Conn, since: Ts) -> Result<Drops> {
    let mut out: HashMap<Option<String>, Vec<DropCount>> = HashMap::new();
    for r in sqlx::query(
        "SELECT game_id, reason, count(*) AS n FROM drops WHERE at >= $1
         GROUP BY game_id, reason ORDER BY reason",
    )
    .bind(since)
    .fetch_all(&mut *c)
    .await?
    {
        out.entry(r.try_get("game_id")?)
            .or_default()
            .push(DropCount::from_row(&r)?);
    }
    Ok(Drops(out))
}

/// The masters' addresses and the observers of each game of the list.
#[allow(clippy::type_complexity)]
pub(super) async fn members_of(
    c: &mut Conn,
    ids: &str,
) -> Result<(HashMap<String, Vec<String>>, HashMap<String, Vec<Observer>>)> {
    let mut masters: HashMap<String, Vec<String>> = HashMap::new();
    let mut observers: HashMap<String, Vec<Observer>> = HashMap::new();
    for r in sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT m.game_id, m.role, m.address, m.tz FROM ",
            json_values!(1),
            " j
         JOIN members m ON m.game_id = j.value ORDER BY m.game_id, m.role, m.address",
        )
    ))
    .bind(ids)
    .fetch_all(&mut *c)
    .await?
    {
        let game: String = r.try_get("game_id")?;
        let address: String = r.try_get("address")?;
        if r.try_get::<Role, _>("role")? == Role::Observer {
            observers.entry(game).or_default().push(Observer {
                address,
                tz: r.try_get("tz")?,
            });
        } else {
            masters.entry(game).or_default().push(address);
        }
    }
    Ok((masters, observers))
}
