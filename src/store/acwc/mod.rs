//! The ACWC office's store (issue 26): its own tables and the queries of them, read only by
//! the ACWC's code (`store::acwc::name`). What it shares with every kind (players, masters, the
//! outbox) is in the store's other files.
//!
//! - `acwc_entrants`: every entry, its ratings and what became of it ("Player eligibility");
//! - `acwc_rounds`: each round published, with its transcript ("Pairing details");
//! - `acwc_matches`: each pairing and its result;
//! - `acwc_match_events`: every mail about a match, as the pure rules replay them ("Match
//!   negotiations": times offered, accepted, chosen, assigned, the arbiter's finding; "Match
//!   rules": a result reported, confirmed, disputed, ruled on).

use crate::store::*;

/// A stage of the championship, as stored ("Format").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageRow {
    Swiss,
    Candidates,
    Final,
}

/// One entry.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct EntrantRow {
    pub account: String,
    pub address: String,
    pub cutoff: i64,
    pub peak: i64,
    pub entered_at: Ts,
    pub approved_at: Option<Ts>,
    pub withdrawn_at: Option<Ts>,
}

/// One pairing of a round and its result (half games; a bye has no `b`).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct MatchRow {
    pub stage: StageRow,
    pub round: i64,
    pub board: i64,
    pub a: String,
    pub b: Option<String>,
    /// ACWC Match negotiations: the start time agreed, chosen or assigned.
    pub agreed_at: Option<Ts>,
    pub score_a: Option<i64>,
    pub score_b: Option<i64>,
    /// ACWC Match rules, Disqualification and withdrawals: the player a forfeit, a departure
    /// or an engine mark gave the match to, whatever its score.
    pub forfeit_to: Option<String>,
    pub decided_at: Option<Ts>,
}

/// What a mail about a match was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEventKind {
    Offer,
    Accept,
    Choose,
    Assign,
    Finding,
    Report,
    Confirm,
    Dispute,
    Ruling,
    /// ACWC "Final": a finalist's sealed Armageddon bid (`score_a`: the seconds), never shown
    /// until both are in.
    Bid,
    /// ACWC Match rules: an appearing player's no-show message to the TD, timed by the
    /// receiving server.
    NoShow,
    /// ACWC Match rules: the appearing player claims the win.
    Claim,
    /// ACWC Match rules: the appearing player chooses to reschedule.
    Reschedule,
    /// ACWC Match rules: the match forfeited by `by` (`note`: why).
    Forfeit,
}

/// ACWC Match rules: why a match was forfeited, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForfeitNote {
    NoShow,
    ReschedulingFailed,
    LeftTheMatch,
    NoRematch,
}

/// ACWC Disqualification: why a player was disqualified, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisqualifiedRow {
    Engine,
    Booster,
    TwoForfeits,
    PublicAccusation,
    Other,
}

/// A player who left the championship: when, after how many Swiss rounds, in which stage, and
/// why (none for a withdrawal).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct DepartureRow {
    pub account: String,
    pub withdrawn_at: Ts,
    pub left_after_round: i64,
    pub left_stage: StageRow,
    pub disqualified: Option<DisqualifiedRow>,
}

/// A forfeit kept: the match, the player forfeited and why.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ForfeitRow {
    pub stage: StageRow,
    pub round: i64,
    pub board: i64,
    pub by: String,
    pub note: Option<ForfeitNote>,
}

/// One mail about a match (scores in half games, as the pairing's `a` and `b`).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct MatchEventRow {
    pub event: MatchEventKind,
    pub by: Option<String>,
    pub at: Ts,
    /// The times offered, or the one accepted, chosen or assigned (UTC).
    #[sqlx(try_from = "crate::store::dialect::Json<Vec<Ts>>")]
    pub times: Vec<Ts>,
    pub score_a: Option<i64>,
    pub score_b: Option<i64>,
    /// Why a forfeit was given.
    pub note: Option<ForfeitNote>,
}

/// A round as published.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct RoundRow {
    pub stage: StageRow,
    pub round: i64,
    pub published_at: Ts,
    pub deadline: Option<Ts>,
}

/// An entry (by the entrant's mail or the TD's command); false if the account entered already.
pub async fn add_entrant(c: &mut Conn, game: &str, e: &EntrantRow) -> Result<bool> {
    let r = sqlx::query(
        "INSERT INTO acwc_entrants (game_id, account, address, cutoff, peak, entered_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
    )
    .bind(game)
    .bind(&e.account)
    .bind(e.address.to_ascii_lowercase())
    .bind(e.cutoff)
    .bind(e.peak)
    .bind(e.entered_at)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// Every entry, in the order entered.
pub async fn entrants(c: &mut Conn, game: &str) -> Result<Vec<EntrantRow>> {
    Ok(sqlx::query_as(
        "SELECT account, address, cutoff, peak, entered_at, approved_at, withdrawn_at
         FROM acwc_entrants WHERE game_id = $1 ORDER BY entered_at, account",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// The TD approves `account`'s entry at `at`; false if there is no such entry waiting.
pub async fn approve(c: &mut Conn, game: &str, account: &str, at: Ts) -> Result<bool> {
    let r = sqlx::query(
        "UPDATE acwc_entrants SET approved_at = $1
         WHERE game_id = $2 AND account = $3 AND approved_at IS NULL",
    )
    .bind(at)
    .bind(game)
    .bind(account)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// A round published, with its transcript (JSON lines).
pub async fn add_round(
    c: &mut Conn,
    game: &str,
    r: &RoundRow,
    transcript: &[String],
) -> Result<()> {
    sqlx::query(
        "INSERT INTO acwc_rounds (game_id, stage, round, published_at, deadline, transcript)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(game)
    .bind(r.stage)
    .bind(r.round)
    .bind(r.published_at)
    .bind(r.deadline)
    .bind(serde_json::to_string(transcript)?)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The rounds published, in order.
pub async fn rounds(c: &mut Conn, game: &str) -> Result<Vec<RoundRow>> {
    Ok(sqlx::query_as(
        "SELECT stage, round, published_at, deadline FROM acwc_rounds
         WHERE game_id = $1 ORDER BY published_at, round",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// A pairing of a round.
pub async fn add_match(c: &mut Conn, game: &str, m: &MatchRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO acwc_matches (game_id, stage, round, board, a, b, agreed_at, score_a,
             score_b, decided_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(game)
    .bind(m.stage)
    .bind(m.round)
    .bind(m.board)
    .bind(&m.a)
    .bind(&m.b)
    .bind(m.agreed_at)
    .bind(m.score_a)
    .bind(m.score_b)
    .bind(m.decided_at)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Every pairing of `stage`, by round and board.
pub async fn matches(c: &mut Conn, game: &str, stage: StageRow) -> Result<Vec<MatchRow>> {
    Ok(sqlx::query_as(
        "SELECT stage, round, board, a, b, agreed_at, score_a, score_b, forfeit_to, decided_at
         FROM acwc_matches
         WHERE game_id = $1 AND stage = $2 ORDER BY round, board",
    )
    .bind(game)
    .bind(stage)
    .fetch_all(&mut *c)
    .await?)
}

/// Every pairing of every stage (in no particular stage order).
pub async fn all_matches(c: &mut Conn, game: &str) -> Result<Vec<MatchRow>> {
    Ok(sqlx::query_as(
        "SELECT stage, round, board, a, b, agreed_at, score_a, score_b, forfeit_to, decided_at
         FROM acwc_matches WHERE game_id = $1 ORDER BY stage, round, board",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// A statement about one match: its `WHERE` names the match last (`game_id`, `stage`, `round`,
/// `board`), bound by [`of_match`].
type MatchQuery<'q> = sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments>;

/// `q` with match `m`'s key bound after its other values.
fn of_match<'q>(q: MatchQuery<'q>, game: &'q str, m: &MatchRow) -> MatchQuery<'q> {
    q.bind(game).bind(m.stage).bind(m.round).bind(m.board)
}

/// A match's result decided at `at` (half games for `a` and `b`).
pub async fn decide_match(
    c: &mut Conn,
    game: &str,
    m: &MatchRow,
    score: (i64, i64),
    at: Ts,
) -> Result<()> {
    let q = sqlx::query(
        "UPDATE acwc_matches SET score_a = $1, score_b = $2, decided_at = $3
         WHERE game_id = $4 AND stage = $5 AND round = $6 AND board = $7",
    )
    .bind(score.0)
    .bind(score.1)
    .bind(at);
    of_match(q, game, m).execute(&mut *c).await?;
    Ok(())
}

/// A mail about match `m`.
pub async fn add_match_event(
    c: &mut Conn,
    game: &str,
    m: &MatchRow,
    e: &MatchEventRow,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO acwc_match_events (game_id, stage, round, board, event, by, at, times,
             score_a, score_b, note)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(game)
    .bind(m.stage)
    .bind(m.round)
    .bind(m.board)
    .bind(e.event)
    .bind(&e.by)
    .bind(e.at)
    .bind(serde_json::to_string(&e.times)?)
    .bind(e.score_a)
    .bind(e.score_b)
    .bind(e.note)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The mails about match `m`, in order.
pub async fn match_events(c: &mut Conn, game: &str, m: &MatchRow) -> Result<Vec<MatchEventRow>> {
    Ok(sqlx::query_as(
        "SELECT event, by, at, times, score_a, score_b, note FROM acwc_match_events
         WHERE game_id = $1 AND stage = $2 AND round = $3 AND board = $4 ORDER BY at, id",
    )
    .bind(game)
    .bind(m.stage)
    .bind(m.round)
    .bind(m.board)
    .fetch_all(&mut *c)
    .await?)
}

/// A championship's own row, made with it.
pub async fn create_championship(c: &mut Conn, game: &str) -> Result<()> {
    sqlx::query("INSERT INTO acwc_championships (game_id) VALUES ($1)")
        .bind(game)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// When the Swiss's end was announced, if it was.
pub async fn swiss_done(c: &mut Conn, game: &str) -> Result<Option<Ts>> {
    Ok(
        sqlx::query_scalar("SELECT swiss_done_at FROM acwc_championships WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&mut *c)
            .await?
            .flatten(),
    )
}

/// The Swiss's end announced at `at`.
pub async fn set_swiss_done(c: &mut Conn, game: &str, at: Ts) -> Result<()> {
    sqlx::query("UPDATE acwc_championships SET swiss_done_at = $1 WHERE game_id = $2")
        .bind(at)
        .bind(game)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// ACWC Match negotiations: match `m`'s start time settled (agreed, chosen or assigned).
pub async fn set_agreed(c: &mut Conn, game: &str, m: &MatchRow, at: Ts) -> Result<()> {
    let q = sqlx::query(
        "UPDATE acwc_matches SET agreed_at = $1
         WHERE game_id = $2 AND stage = $3 AND round = $4 AND board = $5",
    )
    .bind(at);
    of_match(q, game, m).execute(&mut *c).await?;
    Ok(())
}

/// The moment through which the tick told the negotiations' reminders and turns, if ever.
pub async fn negotiation_told_through(c: &mut Conn, game: &str) -> Result<Option<Ts>> {
    Ok(sqlx::query_scalar(
        "SELECT negotiation_told_through FROM acwc_championships WHERE game_id = $1",
    )
    .bind(game)
    .fetch_optional(&mut *c)
    .await?
    .flatten())
}

/// The negotiations' reminders and turns told through `at`.
pub async fn set_negotiation_told_through(c: &mut Conn, game: &str, at: Ts) -> Result<()> {
    sqlx::query("UPDATE acwc_championships SET negotiation_told_through = $1 WHERE game_id = $2")
        .bind(at)
        .bind(game)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// ACWC Match rules, Disqualification and withdrawals: match `m` given to `winner` (a forfeit,
/// a departure's uncompleted pairing, an engine mark's finished match), decided at `at` if it
/// was not.
pub async fn give_match(
    c: &mut Conn,
    game: &str,
    m: &MatchRow,
    winner: &str,
    at: Ts,
) -> Result<()> {
    let q = sqlx::query(
        "UPDATE acwc_matches SET forfeit_to = $1, decided_at = COALESCE(decided_at, $2)
         WHERE game_id = $3 AND stage = $4 AND round = $5 AND board = $6",
    )
    .bind(winner)
    .bind(at);
    of_match(q, game, m).execute(&mut *c).await?;
    Ok(())
}

/// ACWC Disqualification and withdrawals, Candidates: match `m` disregarded ("all of their
/// games will be disregarded"): decided at `at` with no result.
pub async fn void_match(c: &mut Conn, game: &str, m: &MatchRow, at: Ts) -> Result<()> {
    let q = sqlx::query(
        "UPDATE acwc_matches SET decided_at = COALESCE(decided_at, $1)
         WHERE game_id = $2 AND stage = $3 AND round = $4 AND board = $5",
    )
    .bind(at);
    of_match(q, game, m).execute(&mut *c).await?;
    Ok(())
}

/// `d.account` leaves the championship; false if they had left already.
pub async fn depart(c: &mut Conn, game: &str, d: &DepartureRow) -> Result<bool> {
    let r = sqlx::query(
        "UPDATE acwc_entrants SET withdrawn_at = $1, left_after_round = $2, left_stage = $3,
             disqualified = $4
         WHERE game_id = $5 AND account = $6 AND withdrawn_at IS NULL",
    )
    .bind(d.withdrawn_at)
    .bind(d.left_after_round)
    .bind(d.left_stage)
    .bind(d.disqualified)
    .bind(game)
    .bind(&d.account)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// Everyone who left, in the order they left.
pub async fn departures(c: &mut Conn, game: &str) -> Result<Vec<DepartureRow>> {
    Ok(sqlx::query_as(
        "SELECT account, withdrawn_at, COALESCE(left_after_round, 0) AS left_after_round,
             COALESCE(left_stage, 'swiss') AS left_stage, disqualified
         FROM acwc_entrants WHERE game_id = $1 AND withdrawn_at IS NOT NULL
         ORDER BY withdrawn_at, account",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// Every forfeit of the championship, in the order given.
pub async fn forfeits(c: &mut Conn, game: &str) -> Result<Vec<ForfeitRow>> {
    Ok(sqlx::query_as(
        "SELECT stage, round, board, by, note FROM acwc_match_events
         WHERE game_id = $1 AND event = 'forfeit' AND by IS NOT NULL ORDER BY at, id",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

crate::store::dialect::text_type!(StageRow { Swiss = "swiss", Candidates = "candidates", Final = "final" });

crate::store::dialect::text_type!(MatchEventKind { Offer = "offer", Accept = "accept", Choose = "choose", Assign = "assign", Finding = "finding", Report = "report", Confirm = "confirm", Dispute = "dispute", Ruling = "ruling", Bid = "bid", NoShow = "noshow", Claim = "claim", Reschedule = "reschedule", Forfeit = "forfeit" });

crate::store::dialect::text_type!(ForfeitNote { NoShow = "no_show", ReschedulingFailed = "rescheduling_failed", LeftTheMatch = "left_the_match", NoRematch = "no_rematch" });

crate::store::dialect::text_type!(DisqualifiedRow { Engine = "engine", Booster = "booster", TwoForfeits = "two_forfeits", PublicAccusation = "public_accusation", Other = "other" });
