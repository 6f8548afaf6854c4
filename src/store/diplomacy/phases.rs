//! Phases and what stands in them: boards, deadlines, a declared draw, submissions, standing and
//! conditional orders, press; the retention of press and submissions. (The votes of a phase are
//! `votes.rs`'s.)

use crate::store::*;

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct StandingRow {
    pub power: String,
    /// The orders as they will be adjudicated.
    #[sqlx(try_from = "crate::store::dialect::Json<Vec<StandingOrder>>")]
    pub orders: Vec<StandingOrder>,
    #[sqlx(rename = "final")]
    #[sqlx(try_from = "crate::store::dialect::Flag")]
    pub final_: bool,
    pub updated_at: Ts,
}

/// Every phase of a game, in order: (phase, board JSON).
pub async fn phase_boards(c: &mut Conn, game: &str) -> Result<Vec<(String, String)>> {
    let rows = sqlx::query("SELECT phase, board FROM phases WHERE game_id = $1 ORDER BY seq")
        .bind(game)
        .fetch_all(&mut *c)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("phase")?, r.try_get("board")?)))
        .collect()
}

/// Roll a game back to the phase `seq` (WM D.VIII(1)): the phases after it are removed with
/// their standing orders, the votes of it and of them are voided, its results are undone, it gets a new deadline, and a finished game
/// is active again. Submissions stay, as the record of what was sent. The results mailed since
/// that phase was adjudicated are marked superseded (HISTORY no longer serves them), and the
/// game's rollback count goes up: every mail derived from the game's course names it, so the
/// corrected results are new mails, not duplicates of the old ones.
pub async fn roll_back(c: &mut Conn, game: &str, seq: i64, deadline: Ts, now: Ts) -> Result<()> {
    sqlx::query(
        "UPDATE outbox SET superseded_at = $1
         WHERE game_id = $2 AND kind = 'results' AND superseded_at IS NULL AND created_at >= (
             SELECT adjudicated_at FROM phases WHERE game_id = $2 AND seq = $3)",
    )
    .bind(now)
    .bind(game)
    .bind(seq)
    .execute(&mut *c)
    .await?;
    sqlx::query("UPDATE games SET rollbacks = rollbacks + 1 WHERE id = $1")
        .bind(game)
        .execute(&mut *c)
        .await?;
    super::votes::void_votes(c, game, seq, now).await?;
    sqlx::query(
        "DELETE FROM standing_orders WHERE game_id = $1 AND phase IN (
             SELECT phase FROM phases WHERE game_id = $1 AND seq > $2)",
    )
    .bind(game)
    .bind(seq)
    .execute(&mut *c)
    .await?;
    sqlx::query("DELETE FROM phases WHERE game_id = $1 AND seq > $2")
        .bind(game)
        .bind(seq)
        .execute(&mut *c)
        .await?;
    sqlx::query(
        "UPDATE phases SET adjudicated_at = NULL, adjudication_started_at = NULL, results = NULL,
             reminded_at = NULL, held_until = NULL, deadline = $1
         WHERE game_id = $2 AND seq = $3",
    )
    .bind(deadline)
    .bind(game)
    .bind(seq)
    .execute(&mut *c)
    .await?;
    // A finished game rolled back plays on: how it ended no longer holds (nor scores).
    sqlx::query(
        "UPDATE games SET status = 'active', ended = NULL WHERE id = $1 AND status = 'finished'",
    )
    .bind(game)
    .execute(&mut *c)
    .await?;
    clock_changed(c, game).await
}

pub async fn last_adjudicated_at(c: &mut Conn, game: &str) -> Result<Option<Ts>> {
    let row = sqlx::query("SELECT max(adjudicated_at) AS t FROM phases WHERE game_id = $1")
        .bind(game)
        .fetch_one(&mut *c)
        .await?;
    Ok(row.try_get("t")?)
}

pub async fn insert_phase(
    c: &mut Conn,
    game: &str,
    phase: &str,
    board_json: &str,
    started_at: Ts,
    deadline: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO phases (game_id, seq, phase, board, started_at, deadline)
         VALUES ($1, (SELECT coalesce(max(seq), 0) + 1 FROM phases WHERE game_id = $1), $2, $3, $4, $5)",
    )
    .bind(game)
    .bind(phase)
    .bind(board_json)
    .bind(started_at)
    .bind(deadline)
    .execute(&mut *c)
    .await?;
    clock_changed(c, game).await
}

/// A power's conditional orders sent in movement phase `phase` (WM D.II(5)): the latest
/// block replaces the earlier.
/// The conditional orders a power keeps for a movement phase (WM D.II(5); Agora BT15), if any.
pub async fn conditional_lines(
    c: &mut Conn,
    game: &str,
    power: &str,
    phase: &str,
) -> Result<Option<String>> {
    Ok(sqlx::query_scalar(
        "SELECT lines FROM conditional_orders WHERE game_id = $1 AND phase = $2 AND power = $3",
    )
    .bind(game)
    .bind(phase)
    .bind(power)
    .fetch_optional(&mut *c)
    .await?)
}

pub async fn set_conditional(
    c: &mut Conn,
    game: &str,
    power: &str,
    phase: &str,
    lines: &str,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO conditional_orders (game_id, power, phase, lines, at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (game_id, phase, power) DO UPDATE SET lines = excluded.lines, at = excluded.at",
    )
    .bind(game)
    .bind(power)
    .bind(phase)
    .bind(lines)
    .bind(now)
    .execute(&mut *c)
    .await?;
    // The phase that follows may go early on them (`conditional_early`).
    clock_changed(c, game).await
}

/// Replace the board of a phase (a GM's correction, WM D.VIII(1)).
pub async fn set_board(c: &mut Conn, game: &str, seq: i64, board: &str) -> Result<()> {
    sqlx::query("UPDATE phases SET board = $1 WHERE game_id = $2 AND seq = $3")
        .bind(board)
        .bind(game)
        .bind(seq)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Agora BT9: the game ends in a draw at the first deadline at or after `at`.
pub async fn declare_end(c: &mut Conn, id: &str, at: Ts) -> Result<()> {
    sqlx::query("UPDATE games SET declared_end_at = $1 WHERE id = $2")
        .bind(at)
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// Agora BT3: `winners` (a JSON list of powers) are announced as winners; the contest is
/// concluded at `at`, and the tick looks then.
pub async fn declare_winners(c: &mut Conn, id: &str, winners: &str, at: Ts) -> Result<()> {
    sqlx::query("UPDATE games SET declared_end_at = $1, declared_winners = $2 WHERE id = $3")
        .bind(at)
        .bind(winners)
        .bind(id)
        .execute(&mut *c)
        .await?;
    clock_changed(c, id).await
}

/// The replacement's orders have come to a held phase: the tick looks at it at once.
pub async fn wake_held(c: &mut Conn, game: &str, seq: i64, now: Ts) -> Result<()> {
    sqlx::query(
        "UPDATE phases SET held_until = CASE WHEN $1 < held_until THEN $1 ELSE held_until END
         WHERE game_id = $2 AND seq = $3 AND held_until IS NOT NULL",
    )
    .bind(now)
    .bind(game)
    .bind(seq)
    .execute(&mut *c)
    .await?;
    clock_changed(c, game).await
}

pub async fn mark_adjudicated(
    c: &mut Conn,
    game: &str,
    seq: i64,
    now: Ts,
    results_json: &str,
) -> Result<()> {
    sqlx::query(
        "UPDATE phases SET adjudication_started_at = coalesce(adjudication_started_at, $1), adjudicated_at = $1, results = $2
         WHERE game_id = $3 AND seq = $4",
    )
    .bind(now)
    .bind(results_json)
    .bind(game)
    .bind(seq)
    .execute(&mut *c)
    .await?;
    clock_changed(c, game).await
}

/// Current phases whose deadline has passed, across all active games.
pub async fn due_phases(c: &mut Conn, now: Ts) -> Result<Vec<PhaseRow>> {
    Ok(sqlx::query_as(
        "SELECT p.* FROM phases p JOIN games g ON g.id = p.game_id
         WHERE g.status = 'active' AND g.paused_remaining IS NULL AND p.adjudicated_at IS NULL
           AND p.deadline <= $1
         ORDER BY p.deadline, p.game_id",
    )
    .bind(now)
    .fetch_all(&mut *c)
    .await?)
}

/// The earliest deadline (or end of an NMR's hold) of Diplomacy's running games. The scheduler
/// asks `store::next_due` (every kind's `games.due_at`) instead.
pub async fn next_deadline(c: &mut Conn) -> Result<Option<Ts>> {
    let row = sqlx::query(
        "SELECT min(coalesce(p.held_until, p.deadline)) AS t FROM phases p JOIN games g ON g.id = p.game_id
         WHERE g.status = 'active' AND g.paused_remaining IS NULL AND p.adjudicated_at IS NULL",
    )
    .fetch_one(&mut *c)
    .await?;
    Ok(row.try_get("t")?)
}

/// An accepted order mail, as stored.
pub struct NewSubmission<'a> {
    pub game: &'a str,
    pub phase: &'a str,
    pub power: &'a str,
    pub message_id: Option<&'a str>,
    /// When it counts as received (WM D.VII(1)).
    pub submitted_at: Ts,
    /// When it says it was written: its Date, never later than its arrival.
    pub dated_at: Ts,
    pub final_: bool,
    pub late: bool,
    /// What the reader understood, line by line (JSON).
    pub read_json: &'a str,
    /// Who sent it: the power's player, or an announced assistant (Agora BT7, team orders).
    pub submitted_by: &'a str,
}

pub async fn insert_submission(c: &mut Conn, s: &NewSubmission<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO submissions (game_id, phase, power, message_id, submitted_at, final, late, read, dated_at,
                                  submitted_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(s.game)
    .bind(s.phase)
    .bind(s.power)
    .bind(s.message_id)
    .bind(s.submitted_at)
    .bind(dialect::Flag(s.final_))
    .bind(dialect::Flag(s.late))
    .bind(s.read_json)
    .bind(s.dated_at)
    .bind(s.submitted_by.to_ascii_lowercase())
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Who sent the accepted order mails of `power` in `phase`, and when they were submitted, in
/// that order (Agora BT7: `<game> SUBMITTED`); a mail stored before senders were kept is
/// named as its power's.
pub async fn submitters(
    c: &mut Conn,
    game: &str,
    phase: &str,
    power: &str,
) -> Result<Vec<(String, Ts)>> {
    let rows = sqlx::query(
        "SELECT coalesce(submitted_by, '') AS who, submitted_at FROM submissions
         WHERE game_id = $1 AND phase = $2 AND power = $3 ORDER BY submitted_at, id",
    )
    .bind(game)
    .bind(phase)
    .bind(power)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("who")?, r.try_get("submitted_at")?)))
        .collect()
}

/// What the store holds of a power that a new order mail from it is checked against, read at
/// once (one round trip, not four: issue 28).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PowerRecord {
    /// Its registered abbreviations list (WM D.III(1)), as stored.
    pub abbreviations: Option<String>,
    /// The newest date of its accepted mails (their Date, or for rows from before dates were
    /// kept, their submission time): an older mail sent again is a replay.
    pub newest: Option<Ts>,
    /// Whether a mail of it with this Message-ID was accepted already (a copy sent again).
    pub seen: bool,
    /// Whether an NMR of it waits for contact (WM D.VII(6)(a)): any mail from it is contact.
    pub nmr_open: bool,
    /// Whether the confirmation box has a copy with this Message-ID from this sender in this
    /// game: only then is the copy's time looked up (`confirmation_time`), by what it says.
    pub confirmed_copy: bool,
    /// Its standing order set for the phase and whether it is final (WM D.III(3)), if it has
    /// one.
    pub standing: Option<(Vec<StandingOrder>, bool)>,
}

/// The phase being played (as [`crate::store::current_phase`] reads it) and, in it, `power`'s
/// [`PowerRecord`] for a mail with this Message-ID from `from`: one round trip where an order
/// mail took two (issue 28). None if no phase is being played.
pub async fn current_phase_and_record(
    c: &mut Conn,
    game: &str,
    power: &str,
    message_id: Option<&str>,
    from: &str,
) -> Result<Option<(PhaseRow, PowerRecord)>> {
    // The record's subqueries run for the one phase kept (a subquery with a LIMIT is not merged
    // into the outer query, on either database).
    let row = sqlx::query(
        "SELECT sub.*,
                (SELECT list FROM abbreviation_lists WHERE game_id = $1 AND power = $2)
                    AS abbreviations,
                (SELECT max(coalesce(dated_at, submitted_at)) FROM submissions
                  WHERE game_id = $1 AND power = $2) AS newest,
                CASE WHEN EXISTS (SELECT 1 FROM submissions
                  WHERE game_id = $1 AND power = $2 AND message_id = $3) THEN 1 ELSE 0 END AS seen,
                CASE WHEN EXISTS (SELECT 1 FROM nmrs WHERE game_id = $1 AND power = $2
                  AND contacted_at IS NULL AND notified_at IS NULL) THEN 1 ELSE 0 END AS nmr_open,
                CASE WHEN EXISTS (SELECT 1 FROM confirmations WHERE game_id = $1
                  AND message_id = $3 AND from_address = $4) THEN 1 ELSE 0 END AS confirmed_copy,
                (SELECT orders FROM standing_orders
                  WHERE game_id = $1 AND phase = sub.phase AND power = $2) AS standing,
                (SELECT final FROM standing_orders
                  WHERE game_id = $1 AND phase = sub.phase AND power = $2) AS standing_final
         FROM (SELECT * FROM phases WHERE game_id = $1 AND adjudicated_at IS NULL
               ORDER BY seq DESC LIMIT 1) AS sub",
    )
    .bind(game)
    .bind(power)
    .bind(message_id)
    .bind(from)
    .fetch_optional(&mut *c)
    .await?;
    match row {
        Some(row) => Ok(Some((
            sqlx::FromRow::from_row(&row)?,
            power_record_of(&row)?,
        ))),
        None => Ok(None),
    }
}

/// The [`PowerRecord`] in a row of [`current_phase_and_record`].
fn power_record_of(row: &DbRow) -> Result<PowerRecord> {
    let standing: Option<dialect::Json<Vec<StandingOrder>>> = row.try_get("standing")?;
    let flag = |name: &str| -> Result<bool> { Ok(row.try_get::<dialect::Flag, _>(name)?.0) };
    Ok(PowerRecord {
        abbreviations: row.try_get("abbreviations")?,
        newest: row.try_get("newest")?,
        seen: flag("seen")?,
        nmr_open: flag("nmr_open")?,
        confirmed_copy: flag("confirmed_copy")?,
        standing: match standing {
            Some(orders) => Some((orders.0, flag("standing_final")?)),
            None => None,
        },
    })
}

/// How much press `author` has had accepted in this phase: (pieces, bytes of text).
pub async fn press_sent(c: &mut Conn, game: &str, phase: &str, author: &str) -> Result<(i64, i64)> {
    let row = sqlx::query(
        "SELECT count(*) AS n, CAST(coalesce(sum(octet_length(body)), 0) AS BIGINT) AS bytes
         FROM press WHERE game_id = $1 AND phase = $2 AND author = $3",
    )
    .bind(game)
    .bind(phase)
    .bind(author)
    .fetch_one(&mut *c)
    .await?;
    Ok((row.try_get("n")?, row.try_get("bytes")?))
}

/// Drop a power's standing orders for a phase (Agora BT2: a contestant removed, its power in
/// civil disorder).
pub async fn drop_standing_orders(
    c: &mut Conn,
    game: &str,
    phase: &str,
    power: &str,
) -> Result<()> {
    sqlx::query("DELETE FROM standing_orders WHERE game_id = $1 AND phase = $2 AND power = $3")
        .bind(game)
        .bind(phase)
        .bind(power)
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn set_standing_orders(
    c: &mut Conn,
    game: &str,
    phase: &str,
    power: &str,
    orders: &[StandingOrder],
    final_: bool,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO standing_orders (game_id, phase, power, orders, final, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (game_id, phase, power) DO UPDATE SET orders = excluded.orders, final = excluded.final, updated_at = excluded.updated_at",
    )
    .bind(game)
    .bind(phase)
    .bind(power)
    .bind(crate::store::dialect::Json(orders))
    .bind(dialect::Flag(final_))
    .bind(now)
    .execute(&mut *c)
    .await?;
    if final_ {
        // Orders marked final may let the phase go early (WM D.VII(2)).
        clock_changed(c, game).await?;
    }
    Ok(())
}

pub async fn standing_orders(c: &mut Conn, game: &str, phase: &str) -> Result<Vec<StandingRow>> {
    Ok(sqlx::query_as(
        "SELECT * FROM standing_orders WHERE game_id = $1 AND phase = $2 ORDER BY power",
    )
    .bind(game)
    .bind(phase)
    .fetch_all(&mut *c)
    .await?)
}

#[allow(clippy::too_many_arguments)]
/// One piece of press as accepted: its real author, and how it is to be printed.
pub struct NewPress<'a> {
    pub author: &'a str,
    pub recipients_json: &'a str,
    pub grey: bool,
    /// Dark grey press: the name it is signed with.
    pub signature: Option<&'a str>,
    /// Black press: the power it is printed as from.
    pub attributed: Option<&'a str>,
    pub body: &'a str,
}

pub async fn insert_press(
    c: &mut Conn,
    game: &str,
    phase: &str,
    p: &NewPress<'_>,
    now: Ts,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO press (game_id, phase, author, recipients, grey, body, created_at, signature, attributed)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(game)
    .bind(phase)
    .bind(p.author)
    .bind(p.recipients_json)
    .bind(dialect::Flag(p.grey))
    .bind(p.body)
    .bind(now)
    .bind(p.signature)
    .bind(p.attributed)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// One order as it stands: canonical, and as the player wrote it (WM D.VIII(4)).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct StandingOrder {
    pub order: String,
    pub written: String,
}

/// Empty the bodies of press written before `before`, once its phase is over (press of a
/// phase still open is yet to be published); the rows stay.
pub async fn purge_press(c: &mut Conn, before: Ts) -> Result<u64> {
    let r = sqlx::query(
        "UPDATE press SET body = '' WHERE created_at < $1 AND body <> ''
           AND NOT EXISTS (SELECT 1 FROM phases p
                           WHERE p.game_id = press.game_id AND p.phase = press.phase
                             AND p.adjudicated_at IS NULL)",
    )
    .bind(before)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected())
}

/// Empty what the reader understood of each submission made before `before` (its lines as
/// written, press included); when and whether it came stay.
pub async fn purge_submissions(c: &mut Conn, before: Ts) -> Result<u64> {
    let r = sqlx::query("UPDATE submissions SET read = '' WHERE submitted_at < $1 AND read <> ''")
        .bind(before)
        .execute(&mut *c)
        .await?;
    Ok(r.rows_affected())
}
