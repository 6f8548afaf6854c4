//! What Diplomacy's tick reads and writes, a batch of games at a time: a deadline that falls on
//! thousands of games at once costs a handful of statements per batch, not a dozen per game.
//! What every kind reads of a batch (players, unavailable periods, drops, members) is the
//! store's shared `batch.rs`.
//!
//! Lists are bound as one JSON array (the dialect's `json_values!` and `json_rows!`), so a
//! statement has the same text whatever the batch size (SQLite caches its plan) and every
//! lookup uses an index.

use super::{GameEnded, StandingRow};
use crate::store::batch::{
    by_game, drops_since, members_of, players_of, running_games, unavailable_of,
};
use crate::store::dialect::ROWS_A_STATEMENT;
use crate::store::*;
use crate::time::Window;
use std::collections::HashMap;

/// Who owns one supply centre at the end of a year. Stored as `[centre, owner]`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "(String, Option<String>)", into = "(String, Option<String>)")]
pub struct CentreOwner {
    /// The centre's code (`Par`).
    pub centre: String,
    /// The power that owns it; None: nobody.
    pub owner: Option<String>,
}

impl From<(String, Option<String>)> for CentreOwner {
    fn from((centre, owner): (String, Option<String>)) -> CentreOwner {
        CentreOwner { centre, owner }
    }
}

impl From<CentreOwner> for (String, Option<String>) {
    fn from(o: CentreOwner) -> (String, Option<String>) {
        (o.centre, o.owner)
    }
}

/// A completed game year and who owned each centre at its end, in the map's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YearEnd {
    pub year: u16,
    pub owners: Vec<CentreOwner>,
}

/// Press of a phase. The author of grey press must never leave the engine.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PressRow {
    pub author: String,
    /// JSON list of powers; empty for all.
    pub recipients: String,
    #[sqlx(try_from = "crate::store::dialect::Flag")]
    pub grey: bool,
    pub body: String,
    /// Dark grey press: the name it is signed with.
    pub signature: Option<String>,
    /// Black press: the power it is printed as from.
    pub attributed: Option<String>,
}

/// A power's conditional orders (WM D.II(5)): the lines as written.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ConditionalRow {
    pub power: String,
    pub lines: String,
}

/// A ballot cast on a proposal (as written). Secret: only the votes' result leaves the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoteRow {
    pub power: String,
    pub proposal: String,
    pub ballot: crate::votes::Ballot,
}

/// Everything the tick needs to decide about one game, read in the tick's transaction.
#[derive(Clone, Debug)]
pub struct GameFacts {
    pub game: GameRow,
    /// The phase being played.
    pub phase: PhaseRow,
    pub standing: Vec<StandingRow>,
    pub players: Vec<PlayerRow>,
    pub wrong_secrets: Vec<WrongSecrets>,
    pub press: Vec<PressRow>,
    /// Declared unavailable periods.
    pub unavailable: Vec<Window>,
    pub last_adjudicated: Option<Ts>,
    /// Silent drops since the time asked for, by reason: about this game or about none.
    pub drops: Vec<DropCount>,
    /// The masters' own addresses (GM, TD).
    pub masters: Vec<String>,
    pub observers: Vec<Observer>,
    /// Conditional orders for this retreat or adjustment phase, sent with the movement orders
    /// before it (WM D.II(5)); in a movement phase, those sent with its own orders (Agora BT15,
    /// `one_order_set`: the phases that follow are resolved with it, at once).
    pub conditional: Vec<ConditionalRow>,
    /// The votes cast for this phase, oldest first (a power's last ballot on a proposal is the
    /// one counted).
    pub votes: Vec<VoteRow>,
    /// Each completed year, oldest first.
    pub year_ends: Vec<YearEnd>,
    /// Agora BT8: the proposals enacted whose effect the Gamemaster has not yet confirmed
    /// (a free text is never executed: the masters' digest lists them), by number.
    pub unconfirmed: Vec<UnconfirmedRow>,
    /// The readers who said MAP OFF (lower-case addresses): their results are text only.
    pub maps_off: Vec<String>,
}

/// A reader who said MAP OFF.
#[derive(sqlx::FromRow)]
struct MapsOff {
    address: String,
}

/// An enacted rule-change proposal not yet confirmed by a master (Agora BT8).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct UnconfirmedRow {
    pub number: i64,
    /// JSON: what was proposed.
    pub payload: String,
}

/// The facts of each game named (those still active with an open phase), in the order named.
/// `since`: how far back the silent drops are counted (for the GM's digest); unavailable periods
/// over before it are left out.
pub async fn tick_facts(c: &mut Conn, games: &[String], since: Ts) -> Result<Vec<GameFacts>> {
    let ids = serde_json::to_string(games)?;
    let mut by_id = running_games(c, &ids).await?;
    let mut phases = open_phases(c, &ids).await?;
    let pairs: Vec<(&str, &str)> = phases
        .values()
        .map(|p| (p.game_id.as_str(), p.phase.as_str()))
        .collect();
    let pairs = serde_json::to_string(&pairs)?;
    let mut standing: HashMap<String, Vec<StandingRow>> = by_game(
        c,
        crate::store::dialect::sql!(
            c,
            concat!(
                "SELECT s.* FROM ",
                json_rows!(1),
                " j JOIN standing_orders s
           ON s.game_id = j.value ->> 0 AND s.phase = j.value ->> 1
         ORDER BY s.game_id, s.power",
            )
        ),
        &pairs,
    )
    .await?;
    let mut press: HashMap<String, Vec<PressRow>> = by_game(
        c,
        crate::store::dialect::sql!(
            c,
            concat!(
                "SELECT s.* FROM ",
                json_rows!(1),
                " j JOIN press s
           ON s.game_id = j.value ->> 0 AND s.phase = j.value ->> 1
         ORDER BY s.id",
            )
        ),
        &pairs,
    )
    .await?;
    let mut conditional = conditional_orders(c, &phases).await?;
    let mut votes = votes(c, &pairs).await?;
    let mut year_ends = year_ends_of(c, &ids).await?;
    let mut unconfirmed: HashMap<String, Vec<UnconfirmedRow>> = by_game(
        c,
        crate::store::dialect::sql!(
            c,
            concat!(
                "SELECT p.game_id, p.number, p.payload FROM ",
                json_values!(1),
                " j JOIN office_proposals p ON p.game_id = j.value
         WHERE p.kind = 'rule_change' AND p.phase IS NULL AND p.passed = 1
           AND p.confirmed_at IS NULL
         ORDER BY p.game_id, p.number",
            )
        ),
        &ids,
    )
    .await?;
    let (mut players, mut wrong) = players_of(c, &ids).await?;
    let mut unavailable = unavailable_of(c, &ids, since).await?;
    let last = last_adjudicated(c, &ids).await?;
    let drops = drops_since(c, since).await?;
    let (mut masters, mut observers) = members_of(c, &ids).await?;
    let mut maps_off: HashMap<String, Vec<MapsOff>> = by_game(
        c,
        crate::store::dialect::sql!(
            c,
            concat!(
                "SELECT m.game_id, m.address FROM ",
                json_values!(1),
                " j JOIN maps_off m ON m.game_id = j.value",
            )
        ),
        &ids,
    )
    .await?;
    let mut out = Vec::with_capacity(games.len());
    for id in games {
        let (Some(game), Some(phase)) = (by_id.remove(id), phases.remove(id)) else {
            continue;
        };
        out.push(GameFacts {
            standing: standing.remove(id).unwrap_or_default(),
            players: players.remove(id).unwrap_or_default(),
            wrong_secrets: wrong.remove(id).unwrap_or_default(),
            press: press.remove(id).unwrap_or_default(),
            unavailable: unavailable.remove(id).unwrap_or_default(),
            last_adjudicated: last.get(id).copied(),
            drops: drops.of(id),
            masters: masters.remove(id).unwrap_or_default(),
            observers: observers.remove(id).unwrap_or_default(),
            votes: votes.remove(id).unwrap_or_default(),
            conditional: conditional.remove(id).unwrap_or_default(),
            year_ends: year_ends.remove(id).unwrap_or_default(),
            unconfirmed: unconfirmed.remove(id).unwrap_or_default(),
            maps_off: maps_off
                .remove(id)
                .unwrap_or_default()
                .into_iter()
                .map(|m| m.address)
                .collect(),
            game,
            phase,
        });
    }
    Ok(out)
}

/// The phase each game of the list is playing: its last open one.
async fn open_phases(c: &mut Conn, ids: &str) -> Result<HashMap<String, PhaseRow>> {
    let rows: Vec<PhaseRow> = sqlx::query_as(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT p.* FROM ",
            json_values!(1),
            " j JOIN phases p ON p.game_id = j.value
         WHERE p.adjudicated_at IS NULL",
        )
    ))
    .bind(ids)
    .fetch_all(&mut *c)
    .await?;
    let mut phases: HashMap<String, PhaseRow> = HashMap::new();
    for p in rows {
        match phases.get(&p.game_id) {
            Some(q) if q.seq >= p.seq => {}
            _ => {
                phases.insert(p.game_id.clone(), p);
            }
        }
    }
    Ok(phases)
}

/// WM D.II(5): a retreat or adjustment phase's conditional orders were sent in the movement
/// phase before it; a movement phase's, with its own orders (Agora BT15: the retreats and
/// adjustments that follow it may be resolved with it).
async fn conditional_orders(
    c: &mut Conn,
    phases: &HashMap<String, PhaseRow>,
) -> Result<HashMap<String, Vec<ConditionalRow>>> {
    let sources: Vec<(&str, String)> = phases
        .values()
        .filter_map(|p| {
            let phase = p.phase.parse::<crate::phase::Phase>().ok()?;
            let source = crate::conditional::source_phase(phase).unwrap_or(phase);
            Some((p.game_id.as_str(), source.to_string()))
        })
        .collect();
    if sources.is_empty() {
        return Ok(HashMap::new());
    }
    by_game(
        c,
        crate::store::dialect::sql!(
            c,
            concat!(
                "SELECT o.game_id, o.power, o.lines FROM ",
                json_rows!(1),
                " j JOIN conditional_orders o
           ON o.game_id = j.value ->> 0 AND o.phase = j.value ->> 1
         ORDER BY o.game_id, o.power",
            )
        ),
        &serde_json::to_string(&sources)?,
    )
    .await
}

/// The ballots cast on the open proposals of each (game, phase) of the list (the office's
/// `office_proposals`, `office_ballots`), oldest first: by when cast, then voter, then proposal.
async fn votes(c: &mut Conn, pairs: &str) -> Result<HashMap<String, Vec<VoteRow>>> {
    #[derive(sqlx::FromRow)]
    struct Cast {
        voter: String,
        payload: String,
        choice: BallotChoice,
        cast_at: Ts,
    }
    let cast: HashMap<String, Vec<Cast>> = by_game(
        c,
        crate::store::dialect::sql!(
            c,
            concat!(
                "SELECT p.game_id, b.voter, p.payload, b.choice, b.cast_at FROM ",
                json_rows!(1),
                " j JOIN office_proposals p
           ON p.game_id = j.value ->> 0 AND p.phase = j.value ->> 1
             AND p.decided_at IS NULL AND p.withdrawn_at IS NULL AND p.refused_at IS NULL
             AND p.voided_at IS NULL
         JOIN office_ballots b ON b.proposal_id = p.id
         ORDER BY p.game_id",
            )
        ),
        pairs,
    )
    .await?;
    cast.into_iter()
        .map(|(game, rows)| {
            let mut rows = rows
                .into_iter()
                .map(|v| {
                    let proposal: String = serde_json::from_str(&v.payload)?;
                    Ok((v.cast_at, v.voter, proposal, v.choice))
                })
                .collect::<Result<Vec<_>>>()?;
            rows.sort_by(|a, b| (a.0, &a.1, &a.2).cmp(&(b.0, &b.1, &b.2)));
            let rows = rows
                .into_iter()
                .map(|(_, power, proposal, choice)| VoteRow {
                    power,
                    proposal,
                    ballot: super::votes::ballot_of(choice),
                })
                .collect();
            Ok((game, rows))
        })
        .collect()
}

/// Each completed year of each game of the list, oldest first.
async fn year_ends_of(c: &mut Conn, ids: &str) -> Result<HashMap<String, Vec<YearEnd>>> {
    let rows: HashMap<String, Vec<YearEndRow>> = by_game(
        c,
        crate::store::dialect::sql!(
            c,
            concat!(
                "SELECT y.game_id, y.year, y.owners FROM ",
                json_values!(1),
                " j JOIN year_ends y
           ON y.game_id = j.value ORDER BY y.game_id, y.year",
            )
        ),
        ids,
    )
    .await?;
    rows.into_iter()
        .map(|(game, rows)| Ok((game, YearEndRow::read_all(rows)?)))
        .collect()
}

/// Who owned each centre at the end of each completed year of a game, oldest first.
pub async fn year_ends(c: &mut Conn, game: &str) -> Result<Vec<YearEnd>> {
    let rows: Vec<YearEndRow> =
        sqlx::query_as("SELECT year, owners FROM year_ends WHERE game_id = $1 ORDER BY year")
            .bind(game)
            .fetch_all(&mut *c)
            .await?;
    YearEndRow::read_all(rows)
}

/// A `year_ends` row: the owners as stored (JSON).
#[derive(sqlx::FromRow)]
struct YearEndRow {
    year: i64,
    owners: String,
}

impl YearEndRow {
    fn read_all(rows: Vec<YearEndRow>) -> Result<Vec<YearEnd>> {
        rows.into_iter()
            .map(|r| {
                Ok(YearEnd {
                    year: u16::try_from(r.year).map_err(|_| {
                        StoreError::Inconsistent(format!("year {} is no year", r.year))
                    })?,
                    owners: serde_json::from_str(&r.owners)?,
                })
            })
            .collect()
    }
}

/// When each game of the list last had a phase adjudicated, if ever.
async fn last_adjudicated(c: &mut Conn, ids: &str) -> Result<HashMap<String, Ts>> {
    let mut last = HashMap::new();
    for r in sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT p.game_id, max(p.adjudicated_at) AS t FROM ",
            json_values!(1),
            " j
         JOIN phases p ON p.game_id = j.value GROUP BY p.game_id",
        )
    ))
    .bind(ids)
    .fetch_all(&mut *c)
    .await?
    {
        if let Some(t) = r.try_get::<Option<Ts>, _>("t")? {
            last.insert(r.try_get("game_id")?, t);
        }
    }
    Ok(last)
}

/// A phase adjudicated by a tick: its results, and what follows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Adjudicated {
    pub game: String,
    pub seq: i64,
    /// JSON, the `chancery adjudicate` output shape.
    pub results: String,
    pub next: Next,
    /// The year this adjudication completed, with who owns each centre.
    pub year_end: Option<YearEnd>,
    /// The game's house rules as a passed proposal changed them (WM IX(5)), if one did.
    pub rules: Option<crate::rules::Rules>,
    /// The powers that NMRed, each opening a contact window (WM D.VII(6)(a)).
    pub nmrs: Vec<NmrWindow>,
    /// What the count of the phase's votes decided, for the record (WM IX(1), (2)).
    pub votes: super::votes::Counted,
    /// Agora BT15, BT22, BT23 (`one_order_set`): the retreat and adjustment phases that followed
    /// this one, resolved at once from its conditional orders, in order; recorded as phases
    /// adjudicated now, before the next phase opens.
    pub resolved: Vec<Resolved>,
    /// Agora BT3, BT16: the winners this adjudication found (a JSON list of powers), announced
    /// with notice: the contest is concluded at the time given.
    pub winners_announced: Option<(String, Ts)>,
}

/// A phase resolved in the same tick as the phase before it (Agora BT15).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub phase: String,
    /// JSON, the `adjudicate` input shape.
    pub board: String,
    /// JSON, the `adjudicate` output shape.
    pub results: String,
}

/// An NMR's contact window (WM D.VII(6)(a)): the player of `power` must contact the GM by
/// `due_at`, or be replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NmrWindow {
    pub power: String,
    /// The phase without orders.
    pub phase: String,
    pub due_at: Ts,
    /// The player's address.
    pub address: String,
}

/// What follows an adjudicated phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// The next phase, with its board (JSON, the `adjudicate` input shape) and deadline.
    Phase {
        phase: String,
        board: String,
        deadline: Ts,
    },
    /// The game is over: how it ended, for scoring.
    Finished { ended: GameEnded },
}

/// Record adjudicated phases and open the phases that follow them, a few statements for the
/// whole batch.
pub async fn record_adjudications(c: &mut Conn, done: &[Adjudicated], now: Ts) -> Result<()> {
    if done.is_empty() {
        return Ok(());
    }
    close_phases(c, done, now).await?;
    record_resolved(c, done, now).await?;
    open_next_phases(c, done, now).await?;
    record_year_ends(c, done).await?;
    open_nmr_windows(c, done, now).await?;
    // Rare (a passed house-rule proposal): one statement each.
    for a in done {
        if let Some(rules) = &a.rules {
            set_rules(c, &a.game, &serde_json::to_string(rules)?).await?;
        }
        if let Some((winners, at)) = &a.winners_announced {
            super::declare_winners(c, &a.game, winners, *at).await?;
        }
    }
    // Votes are due with the deadline just passed: counted, they are spent (WM IX(2)).
    let counted: Vec<(&str, &super::votes::Counted)> =
        done.iter().map(|a| (a.game.as_str(), &a.votes)).collect();
    super::votes::decide_votes(c, &counted, now).await?;
    finish_games(c, done).await
}

/// The adjudicated phases get their results.
async fn close_phases(c: &mut Conn, done: &[Adjudicated], now: Ts) -> Result<()> {
    for chunk in done.chunks(ROWS_A_STATEMENT) {
        let mut q = crate::store::dialect::Statement::new(
            c,
            "UPDATE phases SET adjudication_started_at = coalesce(adjudication_started_at, v.column3),
             adjudicated_at = v.column3, results = v.column4 FROM (",
        );
        q.values(chunk, |b, a| {
            b.bind(&a.game).bind(a.seq).bind(now).bind(&a.results);
        });
        q.push(") AS v WHERE phases.game_id = v.column1 AND phases.seq = v.column2");
        q.query()?.execute(&mut *c).await?;
    }
    Ok(())
}

/// Agora BT15: the phases resolved at once after an adjudicated one, each recorded as begun,
/// due and adjudicated now.
async fn record_resolved(c: &mut Conn, done: &[Adjudicated], now: Ts) -> Result<()> {
    let rows: Vec<(&str, i64, &Resolved)> = done
        .iter()
        .flat_map(|a| {
            (a.seq + 1..)
                .zip(&a.resolved)
                .map(move |(seq, r)| (a.game.as_str(), seq, r))
        })
        .collect();
    for chunk in rows.chunks(ROWS_A_STATEMENT) {
        let mut q = crate::store::dialect::Statement::new(
            c,
            "INSERT INTO phases (game_id, seq, phase, board, started_at, deadline, \
             adjudication_started_at, adjudicated_at, results) ",
        );
        q.values(chunk, |b, (game, seq, r)| {
            b.bind(*game)
                .bind(*seq)
                .bind(&r.phase)
                .bind(&r.board)
                .bind(now)
                .bind(now)
                .bind(now)
                .bind(now)
                .bind(&r.results);
        });
        q.query()?.execute(&mut *c).await?;
    }
    Ok(())
}

/// The phases that follow, for the games that go on (after the phases resolved at once).
async fn open_next_phases(c: &mut Conn, done: &[Adjudicated], now: Ts) -> Result<()> {
    let next: Vec<(&Adjudicated, &str, &str, Ts)> = done
        .iter()
        .filter_map(|a| match &a.next {
            Next::Phase {
                phase,
                board,
                deadline,
            } => Some((a, phase.as_str(), board.as_str(), *deadline)),
            Next::Finished { .. } => None,
        })
        .collect();
    for chunk in next.chunks(ROWS_A_STATEMENT) {
        let mut q = crate::store::dialect::Statement::new(
            c,
            "INSERT INTO phases (game_id, seq, phase, board, started_at, deadline) ",
        );
        q.values(chunk, |b, (a, phase, board, deadline)| {
            b.bind(&a.game)
                .bind(a.seq + 1 + a.resolved.len() as i64)
                .bind(*phase)
                .bind(*board)
                .bind(now)
                .bind(*deadline);
        });
        q.query()?.execute(&mut *c).await?;
    }
    Ok(())
}

/// Who owns each centre at the end of the years just completed.
async fn record_year_ends(c: &mut Conn, done: &[Adjudicated]) -> Result<()> {
    let ends: Vec<(&str, u16, String)> = done
        .iter()
        .filter_map(|a| {
            let end = a.year_end.as_ref()?;
            Some((
                a.game.as_str(),
                end.year,
                serde_json::to_string(&end.owners).ok()?,
            ))
        })
        .collect();
    for chunk in ends.chunks(ROWS_A_STATEMENT) {
        let mut q = crate::store::dialect::Statement::new(
            c,
            "INSERT INTO year_ends (game_id, year, owners) ",
        );
        q.values(chunk, |b, (game, year, owners)| {
            b.bind(*game).bind(i64::from(*year)).bind(owners);
        });
        // A year adjudicated again (after a rollback) has its owners replaced.
        q.push(" ON CONFLICT (game_id, year) DO UPDATE SET owners = excluded.owners");
        q.query()?.execute(&mut *c).await?;
    }
    Ok(())
}

/// WM D.VII(6)(a): each NMR opens a contact window.
async fn open_nmr_windows(c: &mut Conn, done: &[Adjudicated], now: Ts) -> Result<()> {
    let nmrs: Vec<(&str, &NmrWindow)> = done
        .iter()
        .flat_map(|a| a.nmrs.iter().map(move |n| (a.game.as_str(), n)))
        .collect();
    for chunk in nmrs.chunks(ROWS_A_STATEMENT) {
        let mut q = crate::store::dialect::Statement::new(
            c,
            "INSERT INTO nmrs (game_id, power, phase, published_at, due_at, address) ",
        );
        q.values(chunk, |b, (game, n)| {
            b.bind(*game)
                .bind(&n.power)
                .bind(&n.phase)
                .bind(now)
                .bind(n.due_at)
                .bind(&n.address);
        });
        // A window the phase opened already (adjudicated again after a rollback) stands.
        q.push(" ON CONFLICT DO NOTHING");
        q.query()?.execute(&mut *c).await?;
    }
    Ok(())
}

/// The games that ended are finished, with how they ended (for scoring).
async fn finish_games(c: &mut Conn, done: &[Adjudicated]) -> Result<()> {
    let finished: Vec<(&str, String)> = done
        .iter()
        .filter_map(|a| match &a.next {
            Next::Finished { ended } => Some((a.game.as_str(), ended)),
            Next::Phase { .. } => None,
        })
        .map(|(g, e)| Ok((g, serde_json::to_string(e)?)))
        .collect::<Result<_>>()?;
    if !finished.is_empty() {
        sqlx::query(crate::store::dialect::sql!(
            c,
            concat!(
                "UPDATE games SET status = $1, ended = v.e
             FROM (SELECT value ->> 0 AS g, value ->> 1 AS e FROM ",
                json_rows!(2),
                ") AS v
             WHERE games.id = v.g",
            )
        ))
        .bind(GameStatus::Finished)
        .bind(serde_json::to_string(&finished)?)
        .execute(&mut *c)
        .await?;
    }
    Ok(())
}

/// Note that the players of these phases, (game, seq), have been reminded and their masters
/// sent the digest: the tick looks at them again only at the deadline.
pub async fn mark_reminded(c: &mut Conn, phases: &[(&str, i64)], now: Ts) -> Result<()> {
    if phases.is_empty() {
        return Ok(());
    }
    sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "UPDATE phases SET reminded_at = $1
         FROM (SELECT value ->> 0 AS g, ",
            json_int!(1),
            " AS s FROM ",
            json_rows!(2),
            ") AS v
         WHERE phases.game_id = v.g AND phases.seq = v.s",
        )
    ))
    .bind(now)
    .bind(serde_json::to_string(phases)?)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// WM D.VII(6)(b): the results of these phases are held for an NMR; the tick looks at each
/// again at its time, (game, seq, until). The deadline is left as published.
pub async fn hold_results(c: &mut Conn, held: &[(&str, i64, Ts)]) -> Result<()> {
    if held.is_empty() {
        return Ok(());
    }
    sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "UPDATE phases SET held_until = v.u
         FROM (SELECT value ->> 0 AS g, ",
            json_int!(1),
            " AS s, ",
            json_int!(2),
            " AS u FROM ",
            json_rows!(1),
            ") AS v
         WHERE phases.game_id = v.g AND phases.seq = v.s",
        )
    ))
    .bind(serde_json::to_string(held)?)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// An NMR whose contact window has closed without contact (WM D.VII(6)(a)).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct NmrDue {
    pub game_id: String,
    pub power: String,
    pub phase: String,
    pub published_at: Ts,
    pub due_at: Ts,
}

/// NMRs whose window closed by `now` with no contact and no notice yet, oldest first.
pub async fn nmrs_due(c: &mut Conn, now: Ts, limit: i64) -> Result<Vec<NmrDue>> {
    Ok(sqlx::query_as(
        "SELECT game_id, power, phase, published_at, due_at FROM nmrs
         WHERE contacted_at IS NULL AND notified_at IS NULL AND due_at <= $1
         ORDER BY due_at LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&mut *c)
    .await?)
}

/// The masters have been sent the replacement notice for this NMR.
pub async fn nmr_notified(c: &mut Conn, n: &NmrDue, now: Ts) -> Result<()> {
    sqlx::query(
        "UPDATE nmrs SET notified_at = $1 WHERE game_id = $2 AND power = $3 AND phase = $4",
    )
    .bind(now)
    .bind(&n.game_id)
    .bind(&n.power)
    .bind(&n.phase)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Any authenticated mail from a power's player is contact with the GM: its open windows close
/// (WM D.VII(6)(a)).
pub async fn nmr_contact(c: &mut Conn, game: &str, power: &str, now: Ts) -> Result<()> {
    sqlx::query(
        "UPDATE nmrs SET contacted_at = $1
         WHERE game_id = $2 AND power = $3 AND contacted_at IS NULL AND notified_at IS NULL",
    )
    .bind(now)
    .bind(game)
    .bind(power)
    .execute(&mut *c)
    .await?;
    Ok(())
}
