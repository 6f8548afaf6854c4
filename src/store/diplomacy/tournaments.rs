//! Tournaments: their directors, entrants (teams, captains, reserves), boards (one game each)
//! and what the standings are computed from.

use crate::scoring::Rulebook;
use crate::store::{Conn, Result, StoreError};
use crate::time::Ts;

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentRow {
    pub id: String,
    /// Stored as `wm2004` or `maharajiad`: any other is an error naming it, never a default.
    #[sqlx(try_from = "String")]
    pub rulebook: Rulebook,
    pub preset: String,
    pub variant: String,
    pub gm_address: String,
    pub confirm_address: String,
    pub seed: String,
    /// JSON [[option, value]]: single house-rule options set in every game of the tournament.
    pub options: String,
    #[sqlx(try_from = "crate::store::dialect::Flag")]
    pub released: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct DirectorRow {
    pub address: String,
    pub tz: String,
    pub secret: String,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct EntrantRow {
    pub address: String,
    pub name: String,
    pub tz: String,
    pub team: Option<String>,
    #[sqlx(try_from = "crate::store::dialect::Flag")]
    pub captain: bool,
    /// The round one power the team gave (WM B.5).
    pub power: Option<String>,
    #[sqlx(try_from = "crate::store::dialect::Flag")]
    pub reserve: bool,
    #[sqlx(try_from = "crate::store::dialect::Flag")]
    pub declined: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct BoardRow {
    pub round: i64,
    pub board: i64,
    pub game_id: String,
}

/// How a finished game ended (the `games.ended` column, JSON), for scoring.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameEnded {
    pub end: EndKind,
    pub winner: Option<String>,
    /// The last phase played.
    pub after: String,
    /// Each power's centres at the end.
    pub centres: std::collections::BTreeMap<String, u32>,
}

/// The kind of end a finished game had, as stored (`played`, `solo`, `conceded_solo`, `vote`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// No solo and no vote: its final year was played (WM B.3, Maharajiad A.10), or it stopped
    /// before it for a stalemate (Maharajiad B.X(1)); the game's final year tells which.
    Played,
    /// A power reached the victory count (WM C.4, Maharajiad B.I(1)).
    Solo,
    /// A solo conceded by vote (WM IX(3)).
    ConcededSolo,
    /// A draw: accepted by vote (WM IX(4)), or declared by the GM (Agora BT9).
    Vote,
}

impl EndKind {
    /// As stored.
    pub fn name(self) -> &'static str {
        match self {
            EndKind::Played => "played",
            EndKind::Solo => "solo",
            EndKind::ConcededSolo => "conceded_solo",
            EndKind::Vote => "vote",
        }
    }
}

/// An end compares equal to its stored name (what a test or a tool reads from the column).
impl PartialEq<&str> for EndKind {
    fn eq(&self, name: &&str) -> bool {
        self.name() == *name
    }
}

pub async fn create_tournament(c: &mut Conn, t: &TournamentRow, now: Ts) -> Result<()> {
    sqlx::query(
        "INSERT INTO tournaments (id, rulebook, preset, variant, gm_address, confirm_address, seed, options, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(t.id.to_ascii_lowercase())
    .bind(t.rulebook.name())
    .bind(&t.preset)
    .bind(&t.variant)
    .bind(t.gm_address.to_ascii_lowercase())
    .bind(t.confirm_address.to_ascii_lowercase())
    .bind(&t.seed)
    .bind(&t.options)
    .bind(now)
    .execute(&mut *c)
    .await
    .map_err(|e| match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            StoreError::GameExists(t.id.clone())
        }
        e => e.into(),
    })?;
    Ok(())
}

/// The tournament of this id (ids are stored in lower case).
pub async fn tournament(c: &mut Conn, id: &str) -> Result<Option<TournamentRow>> {
    Ok(sqlx::query_as(
        "SELECT id, rulebook, preset, variant, gm_address, confirm_address, seed, options, released
         FROM tournaments WHERE id = lower($1)",
    )
    .bind(id)
    .fetch_optional(&mut *c)
    .await?)
}

pub async fn set_released(c: &mut Conn, id: &str) -> Result<()> {
    sqlx::query("UPDATE tournaments SET released = 1 WHERE id = $1")
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn add_director(c: &mut Conn, tournament: &str, d: &DirectorRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO tournament_directors (tournament_id, address, tz, secret) VALUES ($1, $2, $3, $4)",
    )
    .bind(tournament)
    .bind(d.address.to_ascii_lowercase())
    .bind(&d.tz)
    .bind(&d.secret)
    .execute(&mut *c)
    .await
    .map_err(|e| match e {
        sqlx::Error::Database(x) if x.is_unique_violation() => StoreError::MemberExists {
            game: tournament.to_string(),
            address: d.address.clone(),
        },
        e => e.into(),
    })?;
    Ok(())
}

pub async fn directors(c: &mut Conn, tournament: &str) -> Result<Vec<DirectorRow>> {
    Ok(sqlx::query_as(
        "SELECT address, tz, secret FROM tournament_directors WHERE tournament_id = $1 ORDER BY address",
    )
    .bind(tournament)
    .fetch_all(&mut *c)
    .await?)
}

pub async fn add_entrant(c: &mut Conn, tournament: &str, e: &EntrantRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO entrants (tournament_id, address, name, tz, team, captain, power, reserve)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(tournament)
    .bind(e.address.to_ascii_lowercase())
    .bind(&e.name)
    .bind(&e.tz)
    .bind(&e.team)
    .bind(crate::store::dialect::Flag(e.captain))
    .bind(&e.power)
    .bind(crate::store::dialect::Flag(e.reserve))
    .execute(&mut *c)
    .await
    .map_err(|x| match x {
        sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::MemberExists {
            game: tournament.to_string(),
            address: e.address.clone(),
        },
        x => x.into(),
    })?;
    Ok(())
}

pub async fn entrants(c: &mut Conn, tournament: &str) -> Result<Vec<EntrantRow>> {
    Ok(sqlx::query_as(
        "SELECT address, name, tz, team, captain, power, reserve, declined FROM entrants
         WHERE tournament_id = $1 ORDER BY address",
    )
    .bind(tournament)
    .fetch_all(&mut *c)
    .await?)
}

/// A tournament's entrants' addresses in the order they signed up: "player N" in what every
/// player reads, for an entrant who gave no name.
pub async fn entrants_in_sign_up_order(c: &mut Conn, tournament: &str) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT address FROM entrants WHERE tournament_id = $1 ORDER BY ",
            insertion_order!(),
        )
    ))
    .bind(tournament)
    .fetch_all(&mut *c)
    .await?)
}

/// An entrant declines the next round (WM C.10, Maharajiad A.21); false if no such entrant.
pub async fn set_declined(c: &mut Conn, tournament: &str, address: &str) -> Result<bool> {
    let r = sqlx::query(
        "UPDATE entrants SET declined = 1 WHERE tournament_id = $1 AND address = lower($2)",
    )
    .bind(tournament)
    .bind(address)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected() == 1)
}

pub async fn add_board(
    c: &mut Conn,
    tournament: &str,
    round: i64,
    board: i64,
    game: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO boards (tournament_id, round, board, game_id) VALUES ($1, $2, $3, $4)",
    )
    .bind(tournament)
    .bind(round)
    .bind(board)
    .bind(game)
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn boards(c: &mut Conn, tournament: &str) -> Result<Vec<BoardRow>> {
    Ok(sqlx::query_as(
        "SELECT round, board, game_id FROM boards WHERE tournament_id = $1 ORDER BY round, board",
    )
    .bind(tournament)
    .fetch_all(&mut *c)
    .await?)
}

/// The tournament a game is a board of, if any, with its round.
pub async fn tournament_of_game(c: &mut Conn, game: &str) -> Result<Option<(String, i64)>> {
    Ok(
        sqlx::query_as("SELECT tournament_id, round FROM boards WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&mut *c)
            .await?,
    )
}

/// How a game ended (set when it finishes), if it has.
pub async fn game_ended(c: &mut Conn, game: &str) -> Result<Option<GameEnded>> {
    let ended: Option<Option<crate::store::dialect::Json<GameEnded>>> =
        sqlx::query_scalar("SELECT ended FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&mut *c)
            .await?;
    Ok(ended.flatten().map(|e| e.0))
}
