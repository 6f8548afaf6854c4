//! The scheduler's tick: deadlines (once every mailbox is read past them), early adjudication,
//! reminders, digests and the adjudication itself, each game in isolation.

use super::*;
use crate::outgoing::render::Reader;
use crate::store::NewMail;

/// What one tick did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    pub adjudicated: usize,
    /// Games whose deadline has passed but whose mailboxes have not yet been read through it:
    /// (game, deadline). Nothing is adjudicated with orders still unread.
    pub waiting: Vec<(String, Ts)>,
    /// Games whose tick failed (an error or a panic), with why. The other games went on, and
    /// the masters were alerted once per phase.
    pub failed: Vec<(String, String)>,
}

/// One tick with every mailbox taken as read through `now` (tests and tools that drive the
/// clock themselves). A game that fails is an error here, so that tests see it.
pub async fn tick(pool: &SqlitePool, env: &Env, now: Ts) -> Result<usize> {
    let r = tick_with(pool, env, now, now).await?;
    if let Some((g, e)) = r.failed.first() {
        return Err(EngineError::Refused(format!("game {g}: {e}")));
    }
    Ok(r.adjudicated)
}

/// Adjudicate every phase whose deadline has passed and whose mail has been read through it
/// (`read_through`: every mailbox had a successful poll that started at or after this time),
/// or that may go early (everyone Final and the minimum gap respected: WM D.VII(2)); remind
/// the players and send the masters' digest a day before a deadline.
///
/// Games go in batches, one transaction each: the batch's facts are read in a few statements,
/// each game is decided by pure code (a game whose decision fails, even by panicking, is set
/// aside alone), and what was decided is written in a few statements. If the batch cannot be
/// read or written, its games are run again one transaction each, so that one game's bad data
/// never stops the others.
pub async fn tick_with(
    pool: &SqlitePool,
    env: &Env,
    now: Ts,
    read_through: Ts,
) -> Result<TickReport> {
    // One connection for the whole tick, so its page cache stays warm (a connection that another
    // one wrote behind must re-read its pages).
    let mut conn = pool.acquire().await?;
    let games = store::tick_candidates(&mut conn, now, now + DIGEST_BEFORE).await?;
    let mut report = TickReport::default();
    for batch in games.chunks(TICK_BATCH) {
        match run_batch(&mut conn, env, batch, now, read_through).await {
            Ok(r) => r.add_to(&mut report),
            Err(e) if batch.len() == 1 => {
                report.failed.push((batch[0].clone(), e.to_string()));
            }
            Err(_) => {
                for one in batch.chunks(1) {
                    match run_batch(&mut conn, env, one, now, read_through).await {
                        Ok(r) => r.add_to(&mut report),
                        Err(e) => report.failed.push((one[0].clone(), e.to_string())),
                    }
                }
            }
        }
    }
    drop(conn);
    if let Err(e) = replacement_notices(pool, env, now).await {
        tracing::warn!(error = %e, "replacement notices");
    }
    for (game, error) in &report.failed {
        alert_tick_failure(pool, env, game, error, now).await;
    }
    Ok(report)
}

/// WM D.VII(6)(a): a player who NMRed and has not contacted the GM within the window is to be
/// replaced (WM B.8): the masters get a replacement notice, once per NMR.
async fn replacement_notices(pool: &SqlitePool, env: &Env, now: Ts) -> Result<()> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    for n in store::nmrs_due(&mut tx, now, 500).await? {
        let g = store::game(&mut tx, &n.game_id).await?;
        if g.as_ref()
            .is_some_and(|g| g.status == store::GameStatus::Active)
        {
            let body = format!(
                "Game {game}: {power} sent no orders for {phase} and has not contacted the GM in\n\
                 the {hours} hours since the results were published ({published} to {due}).\n\n\
                 The replacement procedure starts (WM D.VII(6)(a), B.8). Find a replacement and\n\
                 send a command mail (subject \"{game} GM\"):\n\n    REPLACE {power} <address> [TEMPORARY|PERMANENT]\n",
                game = n.game_id,
                power = n.power,
                phase = n.phase,
                hours = (n.due_at - n.published_at) / policy::HOUR,
                published = compose::gmt(n.published_at),
                due = compose::gmt(n.due_at),
            );
            alert_masters(
                &mut tx,
                env,
                g.as_ref(),
                &format!("replace|{}|{}|{}", n.game_id, n.power, n.phase),
                &format!(
                    "{} {}: replace {}, who NMRed and has not made contact",
                    n.game_id, n.phase, n.power
                ),
                &body,
                now,
            )
            .await?;
            // WM B.8(b): a tournament board's NMR goes to the player's team too.
            super::tournament::tell_team_of_nmr(&mut tx, env, &n.game_id, &n.power, &n.phase, now)
                .await?;
        }
        store::nmr_notified(&mut tx, &n, now).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Games per transaction in a tick: enough to share an fsync and the statements, few enough
/// that the write lock is held for tens of milliseconds, not seconds (mail is read meanwhile).
const TICK_BATCH: usize = 64;

/// What one batch did.
#[derive(Default)]
struct BatchReport {
    adjudicated: usize,
    waiting: Vec<(String, Ts)>,
    /// Games whose decision failed: nothing was written for them.
    failed: Vec<(String, String)>,
}

impl BatchReport {
    fn add_to(self, r: &mut TickReport) {
        r.adjudicated += self.adjudicated;
        r.waiting.extend(self.waiting);
        r.failed.extend(self.failed);
    }
}

/// Read, decide and write a batch of games in one transaction.
async fn run_batch(
    conn: &mut SqliteConnection,
    env: &Env,
    games: &[String],
    now: Ts,
    read_through: Ts,
) -> Result<BatchReport> {
    use sqlx::Connection;
    let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
    // Read inside the transaction: another tick, or a mail, may have got there first.
    let facts = store::tick_facts(&mut tx, games, now - policy::DAY).await?;
    let mut report = BatchReport::default();
    let mut writes = Writes::default();
    for f in facts {
        let span = tracing::info_span!("tick", game = %f.game.id, phase = %f.phase.phase);
        let decided = span.in_scope(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                decide(env, &f, now, read_through)
            }))
        });
        let error = match decided {
            Ok(Ok(d)) => {
                match &d {
                    Decision::Adjudicated { .. } => report.adjudicated += 1,
                    Decision::Waiting => report.waiting.push((f.game.id.clone(), f.phase.deadline)),
                    _ => {}
                }
                writes.add(&f, d);
                continue;
            }
            Ok(Err(e)) => e.to_string(),
            Err(panic) => format!("panic: {}", panic_text(panic.as_ref())),
        };
        report.failed.push((f.game.id, error));
    }
    writes.write(&mut tx, env, now).await?;
    tx.commit().await?;
    Ok(report)
}

/// What the tick decided for one game. Pure: made from the game's facts and the clock.
enum Decision {
    Idle,
    /// The deadline has passed, but a mailbox has not been read through it yet.
    Waiting,
    /// The day before the deadline: reminders and the digest.
    Remind(Vec<NewMail>),
    /// An NMR holds the results (WM D.VII(6)(b)): the masters are told; the phase stays closed
    /// at its deadline, and the tick looks again at `until` (or when the replacement's orders
    /// come).
    Hold {
        mails: Vec<NewMail>,
        until: Ts,
        /// The powers without orders.
        missing: Vec<String>,
    },
    Adjudicated {
        record: store::Adjudicated,
        mails: Vec<NewMail>,
    },
}

/// What a batch writes, gathered so that it is written in a few statements.
#[derive(Default)]
struct Writes {
    adjudicated: Vec<store::Adjudicated>,
    reminded: Vec<(String, i64)>,
    held: Vec<(String, i64, Ts)>,
    mails: Vec<NewMail>,
}

impl Writes {
    fn add(&mut self, f: &store::GameFacts, d: Decision) {
        match d {
            Decision::Idle | Decision::Waiting => {}
            Decision::Remind(mails) => {
                self.reminded.push((f.game.id.clone(), f.phase.seq));
                self.mails.extend(mails);
            }
            Decision::Hold { mails, until, .. } => {
                self.held.push((f.game.id.clone(), f.phase.seq, until));
                self.mails.extend(mails);
            }
            Decision::Adjudicated { record, mails } => {
                self.adjudicated.push(record);
                self.mails.extend(mails);
            }
        }
    }

    async fn write(&self, c: &mut SqliteConnection, env: &Env, now: Ts) -> Result<()> {
        store::record_adjudications(c, &self.adjudicated, now).await?;
        // A tournament's board that ended sends its standings, in this same transaction.
        let ended: Vec<&str> = self
            .adjudicated
            .iter()
            .filter(|a| matches!(a.next, store::Next::Finished { .. }))
            .map(|a| a.game.as_str())
            .collect();
        super::tournament::after_games_ended(c, env, &ended, now).await?;
        let reminded: Vec<(&str, i64)> = self
            .reminded
            .iter()
            .map(|(g, s)| (g.as_str(), *s))
            .collect();
        store::mark_reminded(c, &reminded, now).await?;
        let held: Vec<(&str, i64, Ts)> = self
            .held
            .iter()
            .map(|(g, s, u)| (g.as_str(), *s, *u))
            .collect();
        store::hold_results(c, &held).await?;
        store::enqueue_many(c, &self.mails, now).await?;
        Ok(())
    }
}

/// Decide what the tick does for one game.
fn decide(env: &Env, f: &store::GameFacts, now: Ts, read_through: Ts) -> Result<Decision> {
    let g = &f.game;
    let current = &f.phase;
    // Results held for an NMR wait for their time, or for the replacement's orders (WM
    // D.VII(6)(b)).
    if current.held_until.is_some_and(|t| t > now) {
        return Ok(Decision::Idle);
    }
    let rules = rules_of(g)?;
    let map = map_of(g)?;
    // The board is read once, here, and kept typed for everything below.
    let board = board_from_json(map, &current.board, &current.phase)?;
    let due_powers = powers_with_orders_due(map, &board);
    let passed = current.deadline <= now;
    let due = passed && current.deadline <= read_through;
    let early = !passed && {
        let all_final = !due_powers.is_empty()
            && due_powers
                .iter()
                .all(|pw| orders_of(f, map.power_name(*pw)).is_some_and(|s| s.final_));
        policy::may_adjudicate_early(
            &rules,
            now,
            f.last_adjudicated,
            all_final,
            &windows(&f.unavailable),
        )
    };
    // Never inside a declared unavailable period (WM D.VII(2)), as for early adjudication.
    let early = early
        || (!passed
            && rules.conditional_early
            && !windows(&f.unavailable).iter().any(|w| w.contains(now))
            && conditionals_suffice(f, &rules, map, &board, &due_powers));
    if due || early {
        adjudicate_phase(env, f, &rules, map, &board, &due_powers, now)
    } else if passed {
        Ok(Decision::Waiting)
    } else if current.deadline - now <= DIGEST_BEFORE && current.reminded_at.is_none() {
        Ok(Decision::Remind(remind(
            env,
            f,
            &rules,
            map,
            &due_powers,
            now,
        )))
    } else {
        Ok(Decision::Idle)
    }
}

/// PREVIEW: what adjudicating game `game` now would publish, as the GM's copy of the results,
/// to each master (kind `preview`); nothing is written but those mails. `Err` says why there
/// is nothing to preview.
pub async fn preview(
    c: &mut SqliteConnection,
    env: &Env,
    game: &str,
    now: Ts,
) -> Result<std::result::Result<Vec<NewMail>, String>> {
    let facts = store::tick_facts(c, &[game.to_string()], now - policy::DAY).await?;
    let Some(f) = facts.first() else {
        return Ok(Err(
            "the game is not running (not started, paused or over)".into()
        ));
    };
    let rules = rules_of(&f.game)?;
    let map = map_of(&f.game)?;
    let board = board_from_json(map, &f.phase.board, &f.phase.phase)?;
    let due = powers_with_orders_due(map, &board);
    let masters = masters_of(env, Some(&f.game), &f.masters);
    // What the tick would do: publish the results, or hold them for an NMR (WM D.VII(6)(b)).
    // A hold is exactly when the GM wants to see them, so the preview then shows the hold and
    // the results the tick would give without it (the NMR's units holding).
    let (held, mails) = match adjudicate_phase(env, f, &rules, map, &board, &due, now)? {
        Decision::Adjudicated { mails, .. } => (None, mails),
        Decision::Hold { missing, .. } => {
            let unheld = Rules {
                no_nmr_phases: Vec::new(),
                ..rules.clone()
            };
            match adjudicate_phase(env, f, &unheld, map, &board, &due, now)? {
                Decision::Adjudicated { mails, .. } => (Some(missing), mails),
                _ => (Some(missing), Vec::new()),
            }
        }
        _ => (None, Vec::new()),
    };
    // The GM's copy sees all press; it goes to each master, marked as a preview.
    let Some(gm_copy) = mails.into_iter().find(|m| m.to == f.game.gm_address) else {
        return Ok(Err("the results could not be composed".into()));
    };
    let phase = &f.phase.phase;
    let (subject, head) = match &held {
        None => (
            format!("PREVIEW, nothing changed: {}", gm_copy.subject),
            format!(
                "PREVIEW: {phase} adjudicated as if now, with the orders that stand. Nothing has\n\
                 changed; the players have not been sent this, and their orders may still\n\
                 change before the deadline."
            ),
        ),
        Some(missing) => (
            format!(
                "PREVIEW, results held (NMR by {}), nothing changed: {}",
                missing.join(", "),
                gm_copy.subject
            ),
            format!(
                "PREVIEW: the tick would HOLD the results of {phase}: no orders from {}, and no\n\
                 NMR is allowed in this phase (WM D.VII(6)(b)). The player(s) must be replaced;\n\
                 only the replacement may then send orders. Below, the results it would give\n\
                 without the hold, with those units holding. Nothing has changed; the players\n\
                 have not been sent this.",
                missing.join(", ")
            ),
        ),
    };
    Ok(Ok(masters
        .iter()
        .map(|to| NewMail {
            kind: store::MailKind::Preview,
            message_id: crate::outgoing::ids::new_message_id(
                env,
                "preview",
                &format!("{}|{phase}|{now}|{to}", f.game.id),
            ),
            to: to.clone(),
            subject: subject.clone(),
            body: format!("{head}\n\n{}", gm_copy.body),
            from: env.alert_from.clone(),
            ..gm_copy.clone()
        })
        .collect()))
}

/// What the votes of a phase decided: the proposal that passed, if any (it ends the game), the
/// house rules a passed proposal changed, and a sentence for each other result. Only these
/// results are ever published.
struct Votes {
    passed: Option<crate::votes::Proposal>,
    /// Everyone voted to play on (Maharajiad X(1)).
    continue_passed: bool,
    /// The rules as passed house-rule proposals changed them (WM IX(5); Maharajiad X(3)).
    rules: Option<Rules>,
    told: Vec<String>,
}

fn count_votes(
    rules: &Rules,
    map: &Map,
    board: &Board,
    f: &store::GameFacts,
    nmr: &[Power],
    movement: bool,
) -> Votes {
    use crate::votes::{
        Ballot, Proposal, changed_rules, passes, rule_change_passes, survivors, tally,
    };
    let alive = survivors(map, board);
    let mut out = Votes {
        passed: None,
        continue_passed: false,
        rules: None,
        told: Vec::new(),
    };
    // Every spelling of a proposal is counted together, each power's last ballot on it
    // (WM IX(2), IX(4)); the ballots come oldest first.
    let cast: Vec<(&str, &str, Ballot)> = f
        .votes
        .iter()
        .filter_map(|v| Some((v.0.as_str(), v.1.as_str(), Ballot::from_stored(&v.2)?)))
        .collect();
    for t in tally(map, rules, &alive, &cast) {
        let proposal = t.proposal;
        let failed = || {
            format!(
                "The proposal of {} failed (WM IX(2): no tally is published).",
                proposal.describe(map)
            )
        };
        if let Proposal::Rule { option, value } = &proposal {
            // WM IX(5): the GM and every player remaining; each passed change builds on the
            // ones before it.
            let base = out.rules.as_ref().unwrap_or(rules);
            match changed_rules(base, option, value) {
                Err(why) => out.told.push(format!(
                    "The proposal of {} failed: {why}.",
                    proposal.describe(map)
                )),
                Ok(new)
                    if rule_change_passes(rules, &proposal, &alive, &t.ballots, t.gm_agrees) =>
                {
                    out.told.push(format!(
                        "The proposal of {} has passed, with the GM's agreement (WM IX(5)): it \
                         holds from the next phase on.",
                        proposal.describe(map)
                    ));
                    out.rules = Some(new);
                }
                Ok(_) => out.told.push(failed()),
            }
            continue;
        }
        let passed = passes(rules, &proposal, &alive, &t.ballots, nmr, movement);
        if passed && !proposal.ends_game() {
            out.continue_passed = true;
        } else if passed && out.passed.is_none() {
            out.passed = Some(proposal);
        } else {
            out.told.push(failed());
        }
    }
    out
}

/// A game-end proposal passed: instead of the adjudication, every player, observer and master
/// is told that the game has ended, and how, with the final supply centre counts.
fn ended_by_vote(
    env: &Env,
    f: &store::GameFacts,
    map: &Map,
    board: &Board,
    passed: &crate::votes::Proposal,
) -> Result<Decision> {
    use crate::votes::{Proposal, survivors};
    let how = match passed {
        Proposal::Draw(named) if named.is_empty() => {
            "The proposal of a draw of all survivors has passed: the game ends in a draw \
             (WM IX(4))."
                .to_string()
        }
        Proposal::Draw(named) => {
            let out: Vec<&str> = survivors(map, board)
                .into_iter()
                .filter(|p| !named.contains(p))
                .map(|p| map.power_name(p))
                .collect();
            format!(
                "The proposal of {} has passed: the game ends in that draw, and {} {} presumed \
                 eliminated (WM IX(4)).",
                passed.describe(map),
                if out.is_empty() {
                    "no one".to_string()
                } else {
                    out.join(", ")
                },
                if out.len() == 1 { "is" } else { "are" }
            )
        }
        Proposal::Concede(p) => format!(
            "The proposal of conceding the win to {} has passed: {} wins the game by concession \
             (WM IX(3)).",
            map.power_name(*p),
            map.power_name(*p)
        ),
        // Never passed here: they do not end the game.
        Proposal::Continue | Proposal::Rule { .. } => "The game continues.".to_string(),
    };
    let (end, winner) = match passed {
        Proposal::Concede(p) => ("conceded_solo", Some(*p)),
        _ => ("vote", None),
    };
    let ended = ended_record(map, board, end, winner, board.phase)?;
    ended_instead(env, f, map, board, &how, ended)
}

/// How a game ended, as stored for scoring (`games.ended`, [`store::GameEnded`]): the kind of
/// end, the winner of a solo, the last phase played and each power's centres on `board`.
fn ended_record(
    map: &Map,
    board: &Board,
    end: &str,
    winner: Option<Power>,
    after: crate::phase::Phase,
) -> Result<String> {
    let record = store::GameEnded {
        end: end.to_string(),
        winner: winner.map(|w| map.power_name(w).to_string()),
        after: after.to_string(),
        centres: map
            .all_powers()
            .map(|p| (map.power_name(p).to_string(), board.center_count(p) as u32))
            .collect(),
    };
    Ok(serde_json::to_string(&record)?)
}

/// The game ends instead of this adjudication (a passed vote, a declared draw): every player,
/// observer and master is told how, with the final supply centre counts and their history.
fn ended_instead(
    env: &Env,
    f: &store::GameFacts,
    map: &Map,
    board: &Board,
    how: &str,
    ended: String,
) -> Result<Decision> {
    let g = &f.game;
    let counts: Vec<String> = map
        .all_powers()
        .map(|p| format!("{:10} {:>2}", map.power_name(p), board.center_count(p)))
        .collect();
    let message = format!(
        "Final supply centre counts:\n{}\n\n{}",
        counts.join("\n"),
        centre_history(map, &f.year_ends, None)
    );
    let key = format!("{}|ended|{}", g.id, f.phase.phase);
    let readers = f
        .players
        .iter()
        .map(|p| (p.address.as_str(), p.tz.as_str()))
        .chain(f.observers.iter().map(|(a, tz)| (a.as_str(), tz.as_str())));
    let mut mails = Vec::new();
    let masters = masters_of(env, Some(g), &f.masters);
    for (to, tz) in readers.chain(masters.iter().map(|m| (m.as_str(), "UTC"))) {
        let mail = compose::announcement(
            env,
            g,
            to,
            tz,
            &key,
            "the game has ended",
            how,
            &message,
            None,
        );
        mails.extend(or_alert(env, f, mail, &key));
    }
    let record = store::Adjudicated {
        game: g.id.clone(),
        seq: f.phase.seq,
        results: serde_json::to_string(&serde_json::json!({ "ended": how }))?,
        next: store::Next::Finished { ended },
        year_end: None,
        rules: None,
        nmrs: Vec::new(),
    };
    Ok(Decision::Adjudicated { record, mails })
}

/// The supply centres of each power at the end of each year, as a table: the years recorded,
/// then `current` (the year just ended) if given.
pub(super) fn centre_history(
    map: &Map,
    ends: &[store::YearEnd],
    current: Option<&store::YearEnd>,
) -> String {
    let powers: Vec<Power> = map.all_powers().collect();
    let head: Vec<String> = powers
        .iter()
        .map(|p| map.power_name(*p).chars().take(3).collect())
        .collect();
    let mut out = format!(
        "Supply centres at the end of each year:\nYear  {}\n",
        head.join("  ")
    );
    let rows = ends
        .iter()
        .filter(|(y, _)| current.is_none_or(|c| c.0 != *y))
        .chain(current);
    let mut any = false;
    for (year, owners) in rows {
        any = true;
        let cells: Vec<String> = powers
            .iter()
            .map(|p| {
                let n = owners
                    .iter()
                    .filter(|(_, o)| o.as_deref() == Some(map.power_name(*p)))
                    .count();
                format!("{n:>3}")
            })
            .collect();
        out.push_str(&format!("{year}  {}\n", cells.join("  ")));
    }
    if !any {
        out.push_str("(no year was completed)\n");
    }
    out
}

/// A mail, or if it could not be composed, the masters' alert instead.
fn or_alert(
    env: &Env,
    f: &store::GameFacts,
    composed: compose::Composed,
    key: &str,
) -> Vec<NewMail> {
    match composed {
        Ok(m) => vec![m],
        Err(e) => compose_failed_mails(env, Some(&f.game), &f.masters, &e, key),
    }
}

pub use super::panic::panic_text;

/// Tell the masters, once per phase, that a game's tick failed. Failing to tell them is only
/// logged: the tick of the other games must go on.
async fn alert_tick_failure(pool: &SqlitePool, env: &Env, game: &str, error: &str, now: Ts) {
    let told: Result<()> = async {
        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
        let g = store::game(&mut tx, game).await?;
        let (phase, seq) = match store::current_phase(&mut tx, game).await? {
            Some(p) => (p.phase, p.seq),
            None => (String::new(), 0),
        };
        let body = format!(
            "Game {game} {phase}: the deadline could not be processed, and the game waits until\n\
             this is fixed (the other games go on). Chancery tries again on every tick.\n\n\
             Error: {error}\n",
        );
        alert_masters(
            &mut tx,
            env,
            g.as_ref(),
            &format!("tick-failed|{game}|{seq}"),
            &format!("{game} {phase}: the deadline could not be processed"),
            &body,
            now,
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }
    .await;
    if let Err(e) = told {
        tracing::error!(game = %game, "cannot alert the masters: {e}");
    }
}

/// While an NMR holds the results (WM D.VII(6)(b)), the masters are reminded this often.
pub const HOLD_REMINDER: Ts = policy::DAY;

/// The GM's digest and the players' reminders go out this long before a deadline.
pub const DIGEST_BEFORE: Ts = policy::DAY;

/// The GM's deadline digest, and a reminder to each player who owes orders and has none in.
/// Sent once a phase (the phase is marked reminded), each with a Message-ID fixed by game,
/// phase (and power), so that even a repeat is sent once.
fn remind(
    env: &Env,
    f: &store::GameFacts,
    rules: &Rules,
    map: &Map,
    due: &[Power],
    now: Ts,
) -> Vec<NewMail> {
    let g = &f.game;
    let current = &f.phase;
    let mut mails = Vec::new();
    let mut powers = Vec::new();
    for p in &f.players {
        let Some(pw) = map.power_by_name(&p.power) else {
            continue;
        };
        if !due.contains(&pw) {
            continue;
        }
        let s = orders_of(f, &p.power);
        powers.push(crate::outgoing::render::DigestPower {
            power: p.power.clone(),
            player: p.address.clone(),
            orders_in: s.is_some(),
            is_final: s.is_some_and(|s| s.final_),
            order_count: s.map_or(0, |s| s.orders.len()),
            last_submission: s.map(|s| s.updated_at),
            extension_days_used: u32::try_from(p.extension_days_used).unwrap_or(u32::MAX),
            wrong_secrets: f
                .wrong_secrets
                .iter()
                .find(|(w, _)| *w == p.power)
                .map_or(0, |w| w.1),
        });
        if s.is_none() {
            let mail = compose::reminder(env, g, rules, p, &current.phase, current.deadline, now);
            let key = format!("reminder|{}|{}|{}", g.id, current.phase, p.power);
            mails.extend(or_alert(env, f, mail, &key));
        }
    }
    let drops: Vec<crate::outgoing::render::DropCount> = f
        .drops
        .iter()
        .map(|(reason, count)| crate::outgoing::render::DropCount {
            reason: reason.clone(),
            count: *count,
        })
        .collect();
    for to in masters_of(env, Some(g), &f.masters) {
        let mail = compose::digest(
            env,
            &to,
            g,
            &current.phase,
            current.deadline,
            powers.clone(),
            rules.extension_days_total,
            drops.clone(),
            now,
        );
        let key = format!("digest|{}|{}", g.id, current.phase);
        mails.extend(or_alert(env, f, mail, &key));
    }
    mails
}

/// The orders that stand for `power`, if it has any: an NMR is judged by the orders, not by
/// the mail (a mail with only press, a vote or FINAL leaves the power without orders).
fn orders_of<'a>(f: &'a store::GameFacts, power: &str) -> Option<&'a store::StandingRow> {
    f.standing
        .iter()
        .find(|s| s.power == power && !s.orders.is_empty())
}

/// Powers that have something to order in this phase.
pub fn powers_with_orders_due(map: &Map, board: &Board) -> Vec<Power> {
    map.all_powers()
        .filter(|p| match board.phase.kind {
            PhaseKind::Movement => board.units.iter().any(|u| u.power == *p),
            PhaseKind::Retreat => board.dislodged.iter().any(|d| d.unit.power == *p),
            PhaseKind::Adjustment => board.center_count(*p) != board.unit_count(*p),
        })
        .collect()
}

/// WM D.II(5): the orders a power's conditional block gives in this phase, each line read
/// against the phase's board, the first possible choice first ("Rule D.III(5) will not be
/// applied for conditional orders").
fn conditional_orders(
    rules: &Rules,
    map: &Map,
    board: &Board,
    power: Power,
    lines: &str,
) -> Vec<Order> {
    let none = HashMap::new();
    let ctx = ReadContext {
        map,
        rules,
        power,
        phase: board.phase.kind,
        board: Some(board),
        abbreviations: &none,
    };
    let candidates: Vec<Order> = lines
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let v = crate::reader::read_order(&ctx, l);
            if v.status == crate::reader::Status::Error {
                None
            } else {
                v.order
            }
        })
        .collect();
    crate::conditional::choose(map, board, power, &candidates)
}

/// Whether every power due in this retreat or adjustment phase has Final orders or usable
/// conditional ones, so that it may be adjudicated at once (`conditional_early`, WM D.II(5)).
fn conditionals_suffice(
    f: &store::GameFacts,
    rules: &Rules,
    map: &Map,
    board: &Board,
    due: &[Power],
) -> bool {
    board.phase.kind != PhaseKind::Movement
        && !due.is_empty()
        && due.iter().all(|pw| {
            let name = map.power_name(*pw);
            orders_of(f, name).is_some_and(|s| s.final_)
                || (orders_of(f, name).is_none()
                    && f.conditional.iter().any(|(p, lines)| {
                        p == name && !conditional_orders(rules, map, board, *pw, lines).is_empty()
                    }))
        })
}

/// Adjudicate the phase, or hold it for an NMR.
fn adjudicate_phase(
    env: &Env,
    f: &store::GameFacts,
    rules: &Rules,
    map: &Map,
    board: &Board,
    due: &[Power],
    now: Ts,
) -> Result<Decision> {
    let g = &f.game;
    let current = &f.phase;
    let mut orders: Vec<(Power, Order)> = Vec::new();
    let mut written: HashMap<String, Vec<StandingOrder>> = HashMap::new();
    for s in f.standing.iter().filter(|s| !s.orders.is_empty()) {
        let Some(pw) = map.power_by_name(&s.power) else {
            continue;
        };
        for o in &s.orders {
            if let Ok(order) = parse_order(map, &o.order) {
                orders.push((pw, order));
            }
        }
        written.insert(s.power.clone(), s.orders.clone());
    }
    // WM D.II(5): a power with no orders for a retreat or adjustment phase is ordered by the
    // conditional orders it sent with its movement orders, if any is possible.
    for (power, lines) in &f.conditional {
        let Some(pw) = map.power_by_name(power) else {
            continue;
        };
        if !due.contains(&pw) || written.contains_key(power) {
            continue;
        }
        let chosen = conditional_orders(rules, map, board, pw, lines);
        if chosen.is_empty() {
            continue;
        }
        let shown: Vec<StandingOrder> = chosen
            .iter()
            .map(|o| {
                let canonical = o.display(map).to_string();
                StandingOrder {
                    written: format!("{canonical} (conditional)"),
                    order: canonical,
                }
            })
            .collect();
        orders.extend(chosen.into_iter().map(|o| (pw, o)));
        written.insert(power.clone(), shown);
    }
    let missing: Vec<Power> = due
        .iter()
        .copied()
        .filter(|p| !written.contains_key(map.power_name(*p)))
        .collect();
    let missing_names: Vec<String> = missing
        .iter()
        .map(|p| map.power_name(*p).to_string())
        .collect();
    let phase: Phase = current.phase.parse()?;
    if policy::nmr_holds_results(rules, phase, &missing) {
        // WM D.VII(6)(b): no results while an NMR stands in these phases; the GM replaces the
        // player. The deadline stays as published, so the phase stays closed to all but the
        // replacement; the masters are reminded daily, not every minute.
        let until = now + HOLD_REMINDER;
        let mails = masters_of(env, Some(g), &f.masters)
            .iter()
            .map(|to| compose::nmr_hold(env, to, g, &current.phase, &missing_names, until, now))
            .collect();
        return Ok(Decision::Hold {
            mails,
            until,
            missing: missing_names,
        });
    }
    // Votes are due with this deadline (WM IX(2)). A game-end proposal that passes is
    // published instead of the adjudication; one that fails, with it. Never a tally or a name.
    let votes = count_votes(
        rules,
        map,
        board,
        f,
        &missing,
        phase.kind == PhaseKind::Movement,
    );
    if let Some(passed) = votes.passed {
        return ended_by_vote(env, f, map, board, &passed);
    }
    // Agora BT9: a draw the GM declared, with notice, ends the game at its first deadline at or
    // after the notice ran out, instead of the adjudication.
    if g.declared_end_at.is_some_and(|at| at <= now) {
        let names: Vec<&str> = crate::votes::survivors(map, board)
            .into_iter()
            .map(|p| map.power_name(p))
            .collect();
        let how = format!(
            "The draw the GM declared has taken effect (Agora BT9): the game ends in a draw of \
             {}.",
            names.join(", ")
        );
        let ended = ended_record(map, board, "vote", None, board.phase)?;
        return ended_instead(env, f, map, board, &how, ended);
    }
    // House rules a passed proposal changed hold from the next phase on (WM IX(5)).
    let rules_after = votes.rules.as_ref().unwrap_or(rules);
    let adj = adjudicate(map, rules, board, &orders);
    let out = json::render(map, rules, &adj);
    let next_phase = adj.next.phase;
    let next_deadline =
        policy::deadline(rules_after, now, next_phase.kind, &windows(&f.unavailable));
    let winner = map
        .all_powers()
        .find(|p| adj.next.center_count(*p) * 2 > map.supply_centers().count());
    // The Fall turn just completed a year: who owns each centre now.
    let year_end = (phase.kind != PhaseKind::Adjustment
        && (next_phase.year > phase.year || next_phase.kind == PhaseKind::Adjustment))
        .then(|| {
            let owners: store::Owners = map
                .supply_centers()
                .map(|sc| {
                    (
                        map.info(sc).code.clone(),
                        adj.next.owner(sc).map(|p| map.power_name(p).to_string()),
                    )
                })
                .collect();
            (phase.year, owners)
        });
    // Maharajiad X(1): years with no centre changing owner end the game, unless all vote on.
    let stalemate = match (&year_end, rules.stalemate_years) {
        (Some((_, now_owners)), Some(years)) if !votes.continue_passed => {
            let mut ends: Vec<&[(String, Option<String>)]> =
                f.year_ends.iter().map(|(_, o)| o.as_slice()).collect();
            ends.push(now_owners.as_slice());
            crate::votes::stalemate(&ends, years).then_some(years)
        }
        _ => None,
    };
    // Why the game ends here, if it does: a solo, its final year played (WM B(3)), or a
    // stalemate (Maharajiad X(1)).
    let ended: Option<String> = match winner {
        Some(w) => Some(format!(
            "{} holds a majority of the supply centres and wins the game.",
            map.power_name(w)
        )),
        None if policy::final_year_played(rules, next_phase) => Some(format!(
            "The final year of the game ({}) has been played: the game ends here, and the \
             supply centre counts above stand ({}).",
            rules.final_year.unwrap_or_default(),
            if rules.name == "maharajiad" {
                "Maharajiad A.10"
            } else {
                "WM B(3)"
            }
        )),
        None => stalemate.map(|years| {
            format!(
                "No supply centre has changed owner in {years} game years, and the players did \
                 not all vote to continue: the game ends here, and the supply centre counts above \
                 stand (Maharajiad X(1))."
            )
        }),
    };
    let history = ended
        .is_some()
        .then(|| centre_history(map, &f.year_ends, year_end.as_ref()));
    let record = store::Adjudicated {
        game: g.id.clone(),
        seq: current.seq,
        results: serde_json::to_string(&out)?,
        year_end: year_end.clone(),
        rules: votes
            .rules
            .as_ref()
            .map(serde_json::to_string)
            .transpose()?,
        // WM D.VII(6)(a): each NMR of a game that goes on opens a contact window.
        nmrs: match policy::nmr_contact_deadline(rules, now) {
            Some(due) if ended.is_none() => missing_names
                .iter()
                .map(|p| {
                    let address = f
                        .players
                        .iter()
                        .find(|x| x.power == *p)
                        .map_or_else(String::new, |x| x.address.clone());
                    (p.clone(), current.phase.clone(), due, address)
                })
                .collect(),
            _ => Vec::new(),
        },
        next: if ended.is_some() {
            store::Next::Finished {
                ended: ended_record(
                    map,
                    &adj.next,
                    if winner.is_some() { "solo" } else { "played" },
                    winner,
                    phase,
                )?,
            }
        } else {
            store::Next::Phase {
                phase: next_phase.to_string(),
                board: serde_json::to_string(&out.next)?,
                deadline: next_deadline,
            }
        },
    };
    // What the players are told of the game's end and of the votes.
    let over = ended.is_some();
    let told: Vec<String> = votes.told.into_iter().chain(ended).collect();
    let mut view = compose::results_view(
        g,
        map,
        &adj,
        board,
        &written,
        &missing_names,
        &f.press,
        // The server's secret: no reader can work out the order (WM D.X(2), Maharajiad B.XI(2)).
        env.key.bytes(),
        (!told.is_empty()).then(|| told.join("\n\n")),
        (!over).then_some(next_deadline),
    );
    view.centre_history = history;
    // WM D.X(1): white press with its author's orders; Maharajiad B.XI(1): apart.
    view.white_press_with_orders = rules.white_press_with_orders;
    // Every player, each observer (press to all only), then the GM's copy (all press).
    let readers: Vec<compose::ResultsReader<'_>> = f
        .players
        .iter()
        .map(|p| compose::ResultsReader {
            address: &p.address,
            tz: &p.tz,
            reader: Reader::Power(&p.power),
        })
        .chain(
            f.observers
                .iter()
                .map(|(address, tz)| compose::ResultsReader {
                    address,
                    tz,
                    reader: Reader::Observer,
                }),
        )
        .chain(std::iter::once(compose::ResultsReader {
            address: &g.gm_address,
            tz: "UTC",
            reader: Reader::Gm,
        }))
        .collect();
    let mut mails = Vec::new();
    for (mail, r) in compose::results(env, g, &view, &readers)
        .into_iter()
        .zip(&readers)
    {
        let key = format!("results|{}|{}|{}", g.id, current.phase, r.address);
        mails.extend(or_alert(env, f, mail, &key));
    }
    Ok(Decision::Adjudicated { record, mails })
}
