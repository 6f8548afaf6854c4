//! What a tick of the clock reads and writes, a batch of games at a time: a deadline that falls
//! on thousands of games at once costs a handful of statements per batch, not a dozen per game.
//!
//! Game lists are bound as one JSON array and expanded with `json_each`, so a statement has the
//! same text whatever the batch size (SQLite caches its plan) and every lookup uses an index.

use super::*;
use sqlx::FromRow;
use std::collections::HashMap;

/// Who owns each supply centre: (centre, owner), in the map's order.
pub type Owners = Vec<(String, Option<String>)>;

/// A completed game year and who owned each centre at its end.
pub type YearEnd = (u16, Owners);

/// Press of a phase. The author of grey press must never leave the engine.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PressRow {
    pub author: String,
    /// JSON list of powers; empty for all.
    pub recipients: String,
    pub grey: bool,
    pub body: String,
    /// Dark grey press: the name it is signed with.
    pub signature: Option<String>,
    /// Black press: the power it is printed as from.
    pub attributed: Option<String>,
}

/// Everything the tick needs to decide about one game, read in the tick's transaction.
#[derive(Clone, Debug)]
pub struct GameFacts {
    pub game: GameRow,
    /// The phase being played.
    pub phase: PhaseRow,
    pub standing: Vec<StandingRow>,
    pub players: Vec<PlayerRow>,
    /// Wrong secrets given so far, by power (only powers with some).
    pub wrong_secrets: Vec<(String, i64)>,
    pub press: Vec<PressRow>,
    /// Declared unavailable periods, (from, to).
    pub unavailable: Vec<(Ts, Ts)>,
    pub last_adjudicated: Option<Ts>,
    /// Silent drops since the time asked for, by reason: about this game or about none.
    pub drops: Vec<(String, i64)>,
    /// The masters' own addresses (GM, TD).
    pub masters: Vec<String>,
    /// The observers, (address, time zone): results and press to all only.
    pub observers: Vec<(String, String)>,
    /// Conditional orders for this retreat or adjustment phase, sent with the movement orders
    /// before it (WM D.II(5)): (power, lines as written).
    pub conditional: Vec<(String, String)>,
    /// The votes cast for this phase: (power, proposal, ballot), oldest first (a power's last
    /// ballot on a proposal is the one counted). Secret: only their result ever leaves the
    /// engine.
    pub votes: Vec<(String, String, String)>,
    /// Each completed year, oldest first: (year, [(centre, owner)]).
    pub year_ends: Vec<YearEnd>,
}

/// Games the tick must look at (active, not paused): open phases whose deadline has passed, whose
/// reminder window (`remind_from`: deadlines up to then) has opened and who were not yet
/// reminded, where some power has marked its orders final (they may go early), or whose
/// conditional orders may end the phase at once.
pub async fn tick_candidates(
    c: &mut SqliteConnection,
    now: Ts,
    remind_until: Ts,
) -> Result<Vec<String>> {
    let rows = sqlx::query(
        "SELECT p.game_id FROM phases p JOIN games g ON g.id = p.game_id
         WHERE g.status = 'active' AND g.paused_remaining IS NULL AND p.adjudicated_at IS NULL
           -- A phase held for an NMR waits for its time (WM D.VII(6)(b)).
           AND (coalesce(p.held_until, p.deadline) <= $1
                OR (p.deadline <= $2 AND p.reminded_at IS NULL)
                OR EXISTS (SELECT 1 FROM standing_orders s
                           WHERE s.game_id = p.game_id AND s.phase = p.phase AND s.final)
                -- WM D.II(5), `conditional_early`: a retreat or adjustment phase whose
                -- movement phase brought conditional orders may go at once.
                OR (p.phase NOT LIKE '%M' AND json_extract(g.rules, '$.conditional_early') = 1
                    AND EXISTS (SELECT 1 FROM conditional_orders o
                                WHERE o.game_id = p.game_id
                                  AND o.phase = CASE WHEN p.phase LIKE '%R'
                                                     THEN substr(p.phase, 1, length(p.phase) - 1) || 'M'
                                                     ELSE 'F' || substr(p.phase, 2, length(p.phase) - 2) || 'M'
                                                END)))
         ORDER BY p.game_id",
    )
    .bind(now)
    .bind(remind_until)
    .fetch_all(&mut *c)
    .await?;
    let mut games: Vec<String> = rows
        .iter()
        .map(|r| r.try_get("game_id"))
        .collect::<std::result::Result<_, _>>()?;
    games.dedup();
    Ok(games)
}

/// The facts of each game named (those still active with an open phase), in the order named.
/// `drops_since`: how far back the silent drops are counted (for the GM's digest).
pub async fn tick_facts(
    c: &mut SqliteConnection,
    games: &[String],
    drops_since: Ts,
) -> Result<Vec<GameFacts>> {
    let ids = serde_json::to_string(games)?;
    let game_rows: Vec<GameRow> = sqlx::query_as(
        "SELECT g.* FROM json_each($1) j JOIN games g ON g.id = j.value
         WHERE g.status = 'active' AND g.paused_remaining IS NULL",
    )
    .bind(&ids)
    .fetch_all(&mut *c)
    .await?;
    let mut phases: HashMap<String, PhaseRow> = HashMap::new();
    let rows: Vec<PhaseRow> = sqlx::query_as(
        "SELECT p.* FROM json_each($1) j JOIN phases p ON p.game_id = j.value
         WHERE p.adjudicated_at IS NULL",
    )
    .bind(&ids)
    .fetch_all(&mut *c)
    .await?;
    for p in rows {
        // The current phase is the last open one.
        match phases.get(&p.game_id) {
            Some(q) if q.seq >= p.seq => {}
            _ => {
                phases.insert(p.game_id.clone(), p);
            }
        }
    }
    let pairs: Vec<(&str, &str)> = phases
        .values()
        .map(|p| (p.game_id.as_str(), p.phase.as_str()))
        .collect();
    let pairs = serde_json::to_string(&pairs)?;
    let mut standing: HashMap<String, Vec<StandingRow>> = HashMap::new();
    for r in sqlx::query(
        "SELECT s.* FROM json_each($1) j JOIN standing_orders s
           ON s.game_id = j.value ->> 0 AND s.phase = j.value ->> 1
         ORDER BY s.game_id, s.power",
    )
    .bind(&pairs)
    .fetch_all(&mut *c)
    .await?
    {
        let game: String = r.try_get("game_id")?;
        standing
            .entry(game)
            .or_default()
            .push(StandingRow::from_row(&r)?);
    }
    let mut press: HashMap<String, Vec<PressRow>> = HashMap::new();
    for r in sqlx::query(
        "SELECT s.* FROM json_each($1) j JOIN press s
           ON s.game_id = j.value ->> 0 AND s.phase = j.value ->> 1
         ORDER BY s.id",
    )
    .bind(&pairs)
    .fetch_all(&mut *c)
    .await?
    {
        let game: String = r.try_get("game_id")?;
        press.entry(game).or_default().push(PressRow::from_row(&r)?);
    }
    // WM D.II(5): a retreat or adjustment phase's conditional orders were sent in the movement
    // phase before it.
    let sources: Vec<(&str, String)> = phases
        .values()
        .filter_map(|p| {
            let phase = p.phase.parse::<crate::phase::Phase>().ok()?;
            let source = crate::conditional::source_phase(phase)?;
            Some((p.game_id.as_str(), source.to_string()))
        })
        .collect();
    let mut conditional: HashMap<String, Vec<(String, String)>> = HashMap::new();
    if !sources.is_empty() {
        for r in sqlx::query(
            "SELECT o.game_id, o.power, o.lines FROM json_each($1) j JOIN conditional_orders o
               ON o.game_id = j.value ->> 0 AND o.phase = j.value ->> 1
             ORDER BY o.game_id, o.power",
        )
        .bind(serde_json::to_string(&sources)?)
        .fetch_all(&mut *c)
        .await?
        {
            conditional
                .entry(r.try_get("game_id")?)
                .or_default()
                .push((r.try_get("power")?, r.try_get("lines")?));
        }
    }
    let mut votes: HashMap<String, Vec<(String, String, String)>> = HashMap::new();
    for r in sqlx::query(
        "SELECT v.game_id, v.power, v.proposal, v.ballot FROM json_each($1) j JOIN votes v
           ON v.game_id = j.value ->> 0 AND v.phase = j.value ->> 1
         ORDER BY v.game_id, v.cast_at, v.power, v.proposal",
    )
    .bind(&pairs)
    .fetch_all(&mut *c)
    .await?
    {
        votes.entry(r.try_get("game_id")?).or_default().push((
            r.try_get("power")?,
            r.try_get("proposal")?,
            r.try_get("ballot")?,
        ));
    }
    let mut year_ends: HashMap<String, Vec<YearEnd>> = HashMap::new();
    for r in sqlx::query(
        "SELECT y.game_id, y.year, y.owners FROM json_each($1) j JOIN year_ends y
           ON y.game_id = j.value ORDER BY y.game_id, y.year",
    )
    .bind(&ids)
    .fetch_all(&mut *c)
    .await?
    {
        let owners: String = r.try_get("owners")?;
        year_ends
            .entry(r.try_get("game_id")?)
            .or_default()
            .push((r.try_get("year")?, serde_json::from_str(&owners)?));
    }
    let mut players: HashMap<String, Vec<PlayerRow>> = HashMap::new();
    let mut wrong: HashMap<String, Vec<(String, i64)>> = HashMap::new();
    for r in sqlx::query(
        "SELECT p.* FROM json_each($1) j JOIN players p ON p.game_id = j.value
         ORDER BY p.game_id, p.power",
    )
    .bind(&ids)
    .fetch_all(&mut *c)
    .await?
    {
        let game: String = r.try_get("game_id")?;
        let p = PlayerRow::from_row(&r)?;
        let n: i64 = r.try_get("wrong_secrets")?;
        if n > 0 {
            wrong
                .entry(game.clone())
                .or_default()
                .push((p.power.clone(), n));
        }
        players.entry(game).or_default().push(p);
    }
    let mut unavailable: HashMap<String, Vec<(Ts, Ts)>> = HashMap::new();
    for r in sqlx::query(
        "SELECT u.game_id, u.from_ts, u.to_ts FROM json_each($1) j
         JOIN unavailable u ON u.game_id = j.value AND u.to_ts > $2",
    )
    .bind(&ids)
    // Periods over before the day began no longer matter (weekly ones run two years ahead).
    .bind(drops_since)
    .fetch_all(&mut *c)
    .await?
    {
        let game: String = r.try_get("game_id")?;
        unavailable
            .entry(game)
            .or_default()
            .push((r.try_get("from_ts")?, r.try_get("to_ts")?));
    }
    let mut last: HashMap<String, Ts> = HashMap::new();
    for r in sqlx::query(
        "SELECT p.game_id, max(p.adjudicated_at) AS t FROM json_each($1) j
         JOIN phases p ON p.game_id = j.value GROUP BY p.game_id",
    )
    .bind(&ids)
    .fetch_all(&mut *c)
    .await?
    {
        if let Some(t) = r.try_get::<Option<Ts>, _>("t")? {
            last.insert(r.try_get("game_id")?, t);
        }
    }
    // Drops of the last day are few: all of them, sorted out by game here.
    let mut drops_by_game: HashMap<Option<String>, Vec<(String, i64)>> = HashMap::new();
    for r in sqlx::query(
        "SELECT game_id, reason, count(*) AS n FROM drops WHERE at >= $1
         GROUP BY game_id, reason ORDER BY reason",
    )
    .bind(drops_since)
    .fetch_all(&mut *c)
    .await?
    {
        drops_by_game
            .entry(r.try_get("game_id")?)
            .or_default()
            .push((r.try_get("reason")?, r.try_get("n")?));
    }
    let unattributed = drops_by_game.get(&None).cloned().unwrap_or_default();
    let mut masters: HashMap<String, Vec<String>> = HashMap::new();
    let mut observers: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for r in sqlx::query(
        "SELECT m.game_id, m.role, m.address, m.tz FROM json_each($1) j
         JOIN members m ON m.game_id = j.value ORDER BY m.game_id, m.role, m.address",
    )
    .bind(&ids)
    .fetch_all(&mut *c)
    .await?
    {
        let game: String = r.try_get("game_id")?;
        let address: String = r.try_get("address")?;
        if r.try_get::<Role, _>("role")? == Role::Observer {
            observers
                .entry(game)
                .or_default()
                .push((address, r.try_get("tz")?));
        } else {
            masters.entry(game).or_default().push(address);
        }
    }
    let mut by_id: HashMap<String, GameRow> =
        game_rows.into_iter().map(|g| (g.id.clone(), g)).collect();
    let mut out = Vec::with_capacity(games.len());
    for id in games {
        let (Some(game), Some(phase)) = (by_id.remove(id), phases.remove(id)) else {
            continue;
        };
        let mut drops = unattributed.clone();
        for (reason, n) in drops_by_game.get(&Some(id.clone())).into_iter().flatten() {
            match drops.iter_mut().find(|d| d.0 == *reason) {
                Some(d) => d.1 += n,
                None => drops.push((reason.clone(), *n)),
            }
        }
        drops.sort();
        out.push(GameFacts {
            standing: standing.remove(id).unwrap_or_default(),
            players: players.remove(id).unwrap_or_default(),
            wrong_secrets: wrong.remove(id).unwrap_or_default(),
            press: press.remove(id).unwrap_or_default(),
            unavailable: unavailable.remove(id).unwrap_or_default(),
            last_adjudicated: last.get(id).copied(),
            drops,
            masters: masters.remove(id).unwrap_or_default(),
            observers: observers.remove(id).unwrap_or_default(),
            votes: votes.remove(id).unwrap_or_default(),
            conditional: conditional.remove(id).unwrap_or_default(),
            year_ends: year_ends.remove(id).unwrap_or_default(),
            game,
            phase,
        });
    }
    Ok(out)
}

/// A phase adjudicated by a tick: its results, and what follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjudicated {
    pub game: String,
    pub seq: i64,
    /// JSON, the `chancery adjudicate` output shape.
    pub results: String,
    pub next: Next,
    /// The year this adjudication completed, with who owns each centre: (year, owners).
    pub year_end: Option<YearEnd>,
    /// The game's house rules (JSON) as a passed proposal changed them (WM IX(5)), if one did.
    pub rules: Option<String>,
    /// The powers that NMRed, each opening a contact window (WM D.VII(6)(a)).
    pub nmrs: Vec<NmrWindow>,
}

/// An NMR's contact window: (power, phase, when it closes, the player's address).
pub type NmrWindow = (String, String, Ts, String);

/// What follows an adjudicated phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// The next phase, with its board (JSON, the `adjudicate` input shape) and deadline.
    Phase {
        phase: String,
        board: String,
        deadline: Ts,
    },
    /// The game is over: how it ended (JSON, [`super::GameEnded`]), for scoring.
    Finished { ended: String },
}

/// Record adjudicated phases and open the phases that follow them, in three statements.
pub async fn record_adjudications(
    c: &mut SqliteConnection,
    done: &[Adjudicated],
    now: Ts,
) -> Result<()> {
    if done.is_empty() {
        return Ok(());
    }
    // 3 parameters a row; SQLite allows 32,766 in one statement.
    for chunk in done.chunks(1000) {
        let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "UPDATE phases SET adjudication_started_at = coalesce(adjudication_started_at, v.column3),
             adjudicated_at = v.column3, results = v.column4 FROM (",
        );
        q.push_values(chunk, |mut b, a| {
            b.push_bind(&a.game)
                .push_bind(a.seq)
                .push_bind(now)
                .push_bind(&a.results);
        });
        q.push(") AS v WHERE phases.game_id = v.column1 AND phases.seq = v.column2");
        q.build().execute(&mut *c).await?;
    }
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
    for chunk in next.chunks(1000) {
        let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "INSERT INTO phases (game_id, seq, phase, board, started_at, deadline) ",
        );
        q.push_values(chunk, |mut b, (a, phase, board, deadline)| {
            b.push_bind(&a.game)
                .push_bind(a.seq + 1)
                .push_bind(*phase)
                .push_bind(*board)
                .push_bind(now)
                .push_bind(*deadline);
        });
        q.build().execute(&mut *c).await?;
    }
    let ends: Vec<(&str, u16, String)> = done
        .iter()
        .filter_map(|a| {
            let (year, owners) = a.year_end.as_ref()?;
            Some((a.game.as_str(), *year, serde_json::to_string(owners).ok()?))
        })
        .collect();
    for chunk in ends.chunks(1000) {
        let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "INSERT OR REPLACE INTO year_ends (game_id, year, owners) ",
        );
        q.push_values(chunk, |mut b, (game, year, owners)| {
            b.push_bind(*game)
                .push_bind(i64::from(*year))
                .push_bind(owners);
        });
        q.build().execute(&mut *c).await?;
    }
    // WM D.VII(6)(a): each NMR opens a contact window.
    let nmrs: Vec<(&str, &NmrWindow)> = done
        .iter()
        .flat_map(|a| a.nmrs.iter().map(move |n| (a.game.as_str(), n)))
        .collect();
    for chunk in nmrs.chunks(1000) {
        let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "INSERT OR IGNORE INTO nmrs (game_id, power, phase, published_at, due_at, address) ",
        );
        q.push_values(chunk, |mut b, (game, (power, phase, due, address))| {
            b.push_bind(*game)
                .push_bind(power)
                .push_bind(phase)
                .push_bind(now)
                .push_bind(*due)
                .push_bind(address);
        });
        q.build().execute(&mut *c).await?;
    }
    // Rare (a passed house-rule proposal): one statement each.
    for a in done {
        if let Some(rules) = &a.rules {
            super::set_rules(c, &a.game, rules).await?;
        }
    }
    // Votes are due with the deadline just passed: counted, they are spent (WM IX(2)).
    let games: Vec<&str> = done.iter().map(|a| a.game.as_str()).collect();
    sqlx::query("DELETE FROM votes WHERE game_id IN (SELECT value FROM json_each($1))")
        .bind(serde_json::to_string(&games)?)
        .execute(&mut *c)
        .await?;
    let finished: Vec<(&str, &str)> = done
        .iter()
        .filter_map(|a| match &a.next {
            Next::Finished { ended } => Some((a.game.as_str(), ended.as_str())),
            Next::Phase { .. } => None,
        })
        .collect();
    if !finished.is_empty() {
        sqlx::query(
            "UPDATE games SET status = $1, ended = v.e
             FROM (SELECT value ->> 0 AS g, value ->> 1 AS e FROM json_each($2)) AS v
             WHERE games.id = v.g",
        )
        .bind(GameStatus::Finished)
        .bind(serde_json::to_string(&finished)?)
        .execute(&mut *c)
        .await?;
    }
    Ok(())
}

/// Note that the players of these phases, (game, seq), have been reminded and their masters
/// sent the digest: the tick looks at them again only at the deadline.
pub async fn mark_reminded(
    c: &mut SqliteConnection,
    phases: &[(&str, i64)],
    now: Ts,
) -> Result<()> {
    if phases.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "UPDATE phases SET reminded_at = $1
         FROM (SELECT value ->> 0 AS g, value ->> 1 AS s FROM json_each($2)) AS v
         WHERE phases.game_id = v.g AND phases.seq = v.s",
    )
    .bind(now)
    .bind(serde_json::to_string(phases)?)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// WM D.VII(6)(b): the results of these phases are held for an NMR; the tick looks at each
/// again at its time, (game, seq, until). The deadline is left as published.
pub async fn hold_results(c: &mut SqliteConnection, held: &[(&str, i64, Ts)]) -> Result<()> {
    if held.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "UPDATE phases SET held_until = v.u
         FROM (SELECT value ->> 0 AS g, value ->> 1 AS s, value ->> 2 AS u FROM json_each($1)) AS v
         WHERE phases.game_id = v.g AND phases.seq = v.s",
    )
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
pub async fn nmrs_due(c: &mut SqliteConnection, now: Ts, limit: i64) -> Result<Vec<NmrDue>> {
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
pub async fn nmr_notified(c: &mut SqliteConnection, n: &NmrDue, now: Ts) -> Result<()> {
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
pub async fn nmr_contact(c: &mut SqliteConnection, game: &str, power: &str, now: Ts) -> Result<()> {
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
