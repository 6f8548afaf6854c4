//! The Nomic's store (issue 25): its own tables and the queries of them. Only the Nomic's code
//! reads these (`store::nomic::name`); what it shares with every kind (players, proposals and
//! ballots, the rule set's revisions, the outbox) is in the store's other files.
//!
//! - `nomic_games`: when the game began (Nomic 101, 201) and its winner (Nomic 210);
//! - `nomic_seats`: each player's allocated day (Nomic 201);
//! - `nomic_submissions`: every rule-change submitted, proper or not (Nomic 107, 202);
//! - `nomic_votes`: the voting thread, public in the Nomic (Nomic 113): every vote mail and why
//!   one did not count; the office's ballots count the ones that did;
//! - `nomic_points`: the points thread (Nomic 209): each change and the rule it came from;
//! - `nomic_points_of_order`, `nomic_order_events`: Points of Order and each mail about one
//!   (Nomic 214).

use crate::store::*;
use chancery_office::time::Weekday;

/// A player's allocated day as stored (Nomic 201: Monday to Friday).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatDay {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
}

impl SeatDay {
    /// The stored day of a weekday; none for Saturday and Sunday, on which every message is
    /// void (Nomic 201).
    pub fn of(day: Weekday) -> Option<SeatDay> {
        Some(match day {
            Weekday::Monday => SeatDay::Monday,
            Weekday::Tuesday => SeatDay::Tuesday,
            Weekday::Wednesday => SeatDay::Wednesday,
            Weekday::Thursday => SeatDay::Thursday,
            Weekday::Friday => SeatDay::Friday,
            Weekday::Saturday | Weekday::Sunday => return None,
        })
    }

    pub fn weekday(self) -> Weekday {
        match self {
            SeatDay::Monday => Weekday::Monday,
            SeatDay::Tuesday => Weekday::Tuesday,
            SeatDay::Wednesday => Weekday::Wednesday,
            SeatDay::Thursday => Weekday::Thursday,
            SeatDay::Friday => Weekday::Friday,
        }
    }
}

/// A Nomic's own facts.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct NomicGameRow {
    pub game_id: String,
    /// Nomic 101: when the game began.
    pub started_at: Option<Ts>,
    /// Nomic 210: the winner (several, in a JSON list, if they reached the score together).
    pub winner: Option<String>,
    pub won_at: Option<Ts>,
}

/// One player's seat.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct SeatRow {
    pub player: String,
    pub day: SeatDay,
}

/// One rule-change submitted.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct SubmissionRow {
    pub player: String,
    pub at: Ts,
    pub text: String,
    pub number: Option<i64>,
    pub improper: Option<String>,
}

/// A vote's choice as stored (Nomic 113: `Vote: Yes` or `Vote: No`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteChoice {
    Yes,
    No,
}

/// One vote mail of the voting thread.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct VoteRow {
    pub number: i64,
    pub voter: String,
    pub at: Ts,
    pub choice: VoteChoice,
    /// Why it did not count; none if it did.
    pub refused: Option<String>,
}

/// The rule a change of points came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointsCause {
    /// Nomic 203.
    Adopted203,
    /// Nomic 205.
    Against205,
    /// Nomic 207.
    Defeated207,
}

/// One change of a player's points.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PointsRow {
    pub player: String,
    pub at: Ts,
    pub points: i64,
    pub rule: PointsCause,
    pub proposal: Option<i64>,
}

/// A Point of Order (Nomic 214).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PointOfOrderRow {
    pub number: i64,
    pub raised_by: String,
    pub raised_at: Ts,
    pub question: String,
    pub concerns: Option<i64>,
    pub settled_at: Option<Ts>,
    /// How many steps of its course the players have been told.
    pub told: i64,
}

/// What a mail about a Point of Order was (Nomic 214).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderEventKind {
    Judgement,
    Dispute,
    Agree,
    Disagree,
}

/// One mail about a Point of Order.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct OrderEventRow {
    pub number: i64,
    pub event: OrderEventKind,
    pub by: String,
    pub at: Ts,
    pub text: String,
}

/// A Nomic's own row, made with its game.
pub async fn create_nomic(c: &mut Conn, game: &str) -> Result<()> {
    sqlx::query("INSERT INTO nomic_games (game_id) VALUES ($1)")
        .bind(game)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn nomic_game(c: &mut Conn, game: &str) -> Result<Option<NomicGameRow>> {
    Ok(
        sqlx::query_as("SELECT * FROM nomic_games WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&mut *c)
            .await?,
    )
}

/// Nomic 101: the game begins at `at`.
pub async fn set_started(c: &mut Conn, game: &str, at: Ts) -> Result<()> {
    sqlx::query("UPDATE nomic_games SET started_at = $1 WHERE game_id = $2")
        .bind(at)
        .bind(game)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Nomic 210: the winner (a JSON list of players), at `at`.
pub async fn set_winner(c: &mut Conn, game: &str, winner: &str, at: Ts) -> Result<()> {
    sqlx::query("UPDATE nomic_games SET winner = $1, won_at = $2 WHERE game_id = $3")
        .bind(winner)
        .bind(at)
        .bind(game)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Nomic 201: `player` is allocated `day`; false (and nothing written) if the player or the
/// day is taken.
pub async fn add_seat(c: &mut Conn, game: &str, player: &str, day: SeatDay) -> Result<bool> {
    let r = sqlx::query(
        "INSERT INTO nomic_seats (game_id, player, day) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
    )
    .bind(game)
    .bind(player)
    .bind(day)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// The players and their days.
pub async fn seats(c: &mut Conn, game: &str) -> Result<Vec<SeatRow>> {
    Ok(
        sqlx::query_as("SELECT player, day FROM nomic_seats WHERE game_id = $1 ORDER BY player")
            .bind(game)
            .fetch_all(&mut *c)
            .await?,
    )
}

/// A rule-change submitted by `player` at `at`: proper with its number, or why not.
pub async fn add_submission(
    c: &mut Conn,
    game: &str,
    player: &str,
    at: Ts,
    text: &str,
    verdict: std::result::Result<i64, &str>,
) -> Result<()> {
    let (number, improper) = match verdict {
        Ok(n) => (Some(n), None),
        Err(why) => (None, Some(why)),
    };
    sqlx::query(
        "INSERT INTO nomic_submissions (game_id, player, at, text, number, improper)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(game)
    .bind(player)
    .bind(at)
    .bind(text)
    .bind(number)
    .bind(improper)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// `player`'s rule-changes submitted from `since` (Nomic 202 looks at one day's).
pub async fn submissions_of(
    c: &mut Conn,
    game: &str,
    player: &str,
    since: Ts,
) -> Result<Vec<SubmissionRow>> {
    Ok(sqlx::query_as(
        "SELECT player, at, text, number, improper FROM nomic_submissions
         WHERE game_id = $1 AND player = $2 AND at >= $3 ORDER BY at, id",
    )
    .bind(game)
    .bind(player)
    .bind(since)
    .fetch_all(&mut *c)
    .await?)
}

/// Every rule-change submitted, in order (the record, Nomic 212).
pub async fn submissions(c: &mut Conn, game: &str) -> Result<Vec<SubmissionRow>> {
    Ok(sqlx::query_as(
        "SELECT player, at, text, number, improper FROM nomic_submissions
         WHERE game_id = $1 ORDER BY at, id",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// One vote mail on proposal `number`: counted, or why not.
pub async fn record_vote(c: &mut Conn, game: &str, v: &VoteRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO nomic_votes (game_id, number, voter, at, choice, refused)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(game)
    .bind(v.number)
    .bind(&v.voter)
    .bind(v.at)
    .bind(v.choice)
    .bind(&v.refused)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The voting thread of proposal `number`, in order.
pub async fn votes_on(c: &mut Conn, game: &str, number: i64) -> Result<Vec<VoteRow>> {
    Ok(sqlx::query_as(
        "SELECT number, voter, at, choice, refused FROM nomic_votes
         WHERE game_id = $1 AND number = $2 ORDER BY at, id",
    )
    .bind(game)
    .bind(number)
    .fetch_all(&mut *c)
    .await?)
}

/// Changes of points (Nomic 209), each with its rule and proposal.
pub async fn add_points(c: &mut Conn, game: &str, rows: &[PointsRow]) -> Result<()> {
    for r in rows {
        sqlx::query(
            "INSERT INTO nomic_points (game_id, player, at, points, rule, proposal)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(game)
        .bind(&r.player)
        .bind(r.at)
        .bind(r.points)
        .bind(r.rule)
        .bind(r.proposal)
        .execute(&mut *c)
        .await?;
    }
    Ok(())
}

/// The points thread, in order.
pub async fn points(c: &mut Conn, game: &str) -> Result<Vec<PointsRow>> {
    Ok(sqlx::query_as(
        "SELECT player, at, points, rule, proposal FROM nomic_points
         WHERE game_id = $1 ORDER BY at, id",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// Nomic 214: a Point of Order raised; its number (1, 2, ... in the game).
pub async fn raise_point(
    c: &mut Conn,
    game: &str,
    by: &str,
    at: Ts,
    question: &str,
    concerns: Option<i64>,
) -> Result<i64> {
    let last: Option<i64> =
        sqlx::query_scalar("SELECT max(number) FROM nomic_points_of_order WHERE game_id = $1")
            .bind(game)
            .fetch_one(&mut *c)
            .await?;
    let number = last.unwrap_or(0) + 1;
    sqlx::query(
        "INSERT INTO nomic_points_of_order (game_id, number, raised_by, raised_at, question,
             concerns)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(game)
    .bind(number)
    .bind(by)
    .bind(at)
    .bind(question)
    .bind(concerns)
    .execute(&mut *c)
    .await?;
    Ok(number)
}

/// The game's Points of Order, by number; only the unsettled ones if `open`.
pub async fn points_of_order(c: &mut Conn, game: &str, open: bool) -> Result<Vec<PointOfOrderRow>> {
    let sql = if open {
        "SELECT number, raised_by, raised_at, question, concerns, settled_at, told
         FROM nomic_points_of_order WHERE game_id = $1 AND settled_at IS NULL ORDER BY number"
    } else {
        "SELECT number, raised_by, raised_at, question, concerns, settled_at, told
         FROM nomic_points_of_order WHERE game_id = $1 ORDER BY number"
    };
    Ok(sqlx::query_as(sql).bind(game).fetch_all(&mut *c).await?)
}

/// One mail about Point of Order `number`.
pub async fn add_order_event(c: &mut Conn, game: &str, e: &OrderEventRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO nomic_order_events (game_id, number, event, by, at, text)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(game)
    .bind(e.number)
    .bind(e.event)
    .bind(&e.by)
    .bind(e.at)
    .bind(&e.text)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Every mail about the game's Points of Order, in order.
pub async fn order_events(c: &mut Conn, game: &str) -> Result<Vec<OrderEventRow>> {
    Ok(sqlx::query_as(
        "SELECT number, event, by, at, text FROM nomic_order_events
         WHERE game_id = $1 ORDER BY at, id",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// Point of Order `number`'s course told up to step `told`, and settled at `settled` if it is.
pub async fn point_told(
    c: &mut Conn,
    game: &str,
    number: i64,
    told: i64,
    settled: Option<Ts>,
) -> Result<()> {
    sqlx::query(
        "UPDATE nomic_points_of_order SET told = $1, settled_at = coalesce(settled_at, $2)
         WHERE game_id = $3 AND number = $4",
    )
    .bind(told)
    .bind(settled)
    .bind(game)
    .bind(number)
    .execute(&mut *c)
    .await?;
    Ok(())
}

crate::store::dialect::text_type!(SeatDay { Monday = "monday", Tuesday = "tuesday", Wednesday = "wednesday", Thursday = "thursday", Friday = "friday" });

crate::store::dialect::text_type!(VoteChoice { Yes = "yes", No = "no" });

crate::store::dialect::text_type!(PointsCause { Adopted203 = "adopted_203", Against205 = "against_205", Defeated207 = "defeated_207" });

crate::store::dialect::text_type!(OrderEventKind { Judgement = "judgement", Dispute = "dispute", Agree = "agree", Disagree = "disagree" });
