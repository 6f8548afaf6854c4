//! The Nomic's tick step: each vote completed at the end of its day (Nomic 113) is counted by
//! the office with the threshold it was put with (Nomic 204, 111); an adopted proposal changes
//! the rule set at once (Nomic 206), the references to a renumbered rule rewritten (Nomic
//! 110), a `set` followed by the game from then on; the points are given (Nomic 203, 205,
//! 207) and reported (Nomic 209), and the first to the winning score wins (Nomic 210). A
//! proposal that a Point of Order concerns waits for its Judgement (Nomic 214), and each open
//! point's clock is kept (a forfeit, the end of the hour for disputes or opinions).
//!
//! Decided by pure code from the facts read (`decide`: the office's count, `nomic::proposal`,
//! `nomic::points`); written with its mails in the batch's transaction. Nomic games are few: the
//! facts are read game by game.

use super::order;
use super::propose::{Payload, threshold_words};
use super::store::{self, Conn, GameRow, GameStatus, Kind, OrderEventRow, PointOfOrderRow};
use super::store::{PointsCause, PointsRow, ProposalRow, VoteChoice, VoteRow};
use crate::ballot::{Outcome, Poll, Threshold, VoterId};
use crate::config::Env;
use crate::engine::tick::{Outcome as TickOutcome, TickStep, active_games};
use crate::engine::{EngineError, Result};
use crate::nomic::circuit::Seats;
use crate::nomic::grammar::RuleChange;
use crate::nomic::house::HouseRules;
use crate::nomic::point_of_order;
use crate::nomic::points::{Award, Completed, PointsRule, Scores, Win, awards, highest_rule};
use crate::nomic::proposal::adopt;
use crate::nomic::rules::{Found, references_to, rewrite_references};
use crate::outgoing::nomic::compose;
use crate::outgoing::nomic::render::{
    DiffLine, NotCounted, PointsLine, ResultView, RuleDiff, diff,
};
use crate::outgoing::time::gmt;
use crate::ruleset::{Change, Mutability, Revision, RuleSet};
use crate::store::Pool;
use crate::time::Ts;
use std::collections::BTreeMap;

/// The Nomic's tick step (`games::tick_with` runs it).
pub struct Tick;

/// An open proposal, with its ballots (inside the office's `Poll`) and its voting thread.
pub struct Open {
    row: ProposalRow,
    poll: Poll<serde_json::Value>,
    payload: Payload,
    votes: Vec<VoteRow>,
}

/// What one game's tick needs.
pub struct Facts {
    g: GameRow,
    house: HouseRules,
    seats: Seats,
    rules: RuleSet,
    open: Vec<Open>,
    points: Vec<PointsRow>,
    players: Vec<String>,
    points_of_order: Vec<(PointOfOrderRow, Vec<OrderEventRow>)>,
}

/// A vote completed.
pub struct Completion {
    row_id: i64,
    adopted: bool,
    at: Ts,
    /// The rule set's revisions this adoption made.
    revisions: Vec<Revision>,
    /// The house rules after a `set`.
    house: Option<HouseRules>,
    points: Vec<PointsRow>,
    /// The effect is the GM's to carry out (free text).
    to_confirm: bool,
    winner: Option<Vec<String>>,
    view: ResultView,
}

/// What the tick decided for one game.
pub struct Decision {
    completions: Vec<Completion>,
    /// When the game next needs the clock for its votes (the points of order ask for theirs
    /// as they are written).
    due: Option<Ts>,
}

impl TickStep for Tick {
    type Facts = Facts;
    type Decision = Decision;
    const KIND: Kind = Kind::Nomic;

    async fn read(&self, c: &mut Conn, games: &[String], _now: Ts) -> Result<Vec<Facts>> {
        let mut out = Vec::new();
        for g in active_games(c, games).await? {
            out.push(read_game(c, g).await?);
        }
        Ok(out)
    }

    fn names<'f>(&self, f: &'f Facts) -> (&'f str, &'f str) {
        (&f.g.id, "")
    }

    fn decide(&self, _env: &Env, f: &Facts, now: Ts, _read_through: Ts) -> Result<Decision> {
        decide(f, now)
    }

    fn outcome(&self, _f: &Facts, d: &Decision) -> TickOutcome {
        if d.completions.is_empty() {
            TickOutcome::Quiet
        } else {
            TickOutcome::Adjudicated
        }
    }

    async fn write(
        &self,
        c: &mut Conn,
        env: &Env,
        decided: Vec<(Facts, Decision)>,
        now: Ts,
    ) -> Result<()> {
        for (f, d) in decided {
            write_game(c, env, &f, d, now).await?;
        }
        Ok(())
    }

    async fn after_batches(&self, _pool: &Pool, _env: &Env, _now: Ts) -> Result<()> {
        Ok(())
    }
}

async fn read_game(c: &mut Conn, g: GameRow) -> Result<Facts> {
    let house = super::rules_of(&g)?;
    let seats = super::seats_of(c, &g.id).await?;
    let rules = store::rule_set(c, &g.id).await?;
    let mut open = Vec::new();
    for row in store::open_rule_changes(c, &g.id).await? {
        let Some((row, poll)) = store::poll(c, &g.id, row.number).await? else {
            continue;
        };
        let payload: Payload = serde_json::from_value(poll.proposal().payload.clone())?;
        let votes = store::votes_on(c, &g.id, row.number).await?;
        open.push(Open {
            row,
            poll,
            payload,
            votes,
        });
    }
    open.sort_by_key(|o| (o.row.closes_at, o.row.number));
    let points = store::points(c, &g.id).await?;
    let players = store::players(c, &g.id)
        .await?
        .into_iter()
        .map(|p| p.power)
        .collect();
    let events = store::order_events(c, &g.id).await?;
    let points_of_order = store::points_of_order(c, &g.id, false)
        .await?
        .into_iter()
        .map(|p| {
            let evs = events
                .iter()
                .filter(|e| e.number == p.number)
                .cloned()
                .collect();
            (p, evs)
        })
        .collect();
    Ok(Facts {
        g,
        house,
        seats,
        rules,
        open,
        points,
        players,
        points_of_order,
    })
}

/// The game's state carried from one completion to the next within a tick.
struct Running {
    rules: RuleSet,
    house: HouseRules,
    scores: Scores,
    totals: BTreeMap<String, i64>,
    won: bool,
}

fn decide(f: &Facts, now: Ts) -> Result<Decision> {
    let players: Vec<VoterId> = f.players.iter().map(|p| VoterId::new(p.clone())).collect();
    let mut scores = Scores::new(players.iter());
    let past: Vec<Award> = f
        .points
        .iter()
        .map(|r| Award {
            player: VoterId::new(r.player.clone()),
            points: r.points,
            rule: match r.rule {
                PointsCause::Adopted203 => PointsRule::Adopted203,
                PointsCause::Against205 => PointsRule::Against205,
                PointsCause::Defeated207 => PointsRule::Defeated207,
            },
        })
        .collect();
    let won = scores
        .apply(&past, f.house.settings.winning_score)
        .is_some();
    let mut totals: BTreeMap<String, i64> = f.players.iter().map(|p| (p.clone(), 0)).collect();
    for r in &f.points {
        *totals.entry(r.player.clone()).or_insert(0) += r.points;
    }
    let mut run = Running {
        rules: f.rules.clone(),
        house: f.house.clone(),
        scores,
        totals,
        won,
    };
    let waiting = order::waiting(&f.points_of_order, &f.seats, &f.house.settings, now);
    let mut completions = Vec::new();
    let mut due: Option<Ts> = None;
    let mut later = |t: Ts| due = Some(due.map_or(t, |d: Ts| d.min(t)));
    for (p, rows) in &f.points_of_order {
        let events: Vec<_> = rows.iter().map(order::event).collect();
        let settings = &f.house.settings;
        if let Some(t) =
            point_of_order::next_due(&order::raised(p), &events, &f.seats, settings, now)
        {
            later(t);
        }
    }
    for o in &f.open {
        let Some(closes) = o.row.closes_at else {
            continue;
        };
        if run.won {
            break;
        }
        if closes > now {
            later(closes);
            continue;
        }
        // Nomic 214: a proposal a Point of Order concerns takes effect once every related
        // Judgement is invoked (the point's own clock asks for the tick then).
        let number = u32::try_from(o.row.number).unwrap_or(0);
        let related: Vec<Option<Ts>> = waiting
            .iter()
            .filter(|(n, _)| *n == number)
            .map(|(_, at)| *at)
            .collect();
        if related.iter().any(Option::is_none) {
            continue;
        }
        let at = related.into_iter().flatten().fold(closes, Ts::max);
        completions.push(complete(f, o, &mut run, at)?);
    }
    Ok(Decision { completions, due })
}

/// The votes of a thread: for, against (counted), the mails not counted, and who did not vote.
fn tally(f: &Facts, o: &Open) -> (Vec<String>, Vec<String>, Vec<NotCounted>, Vec<String>) {
    let mut yes = Vec::new();
    let mut no = Vec::new();
    let mut not_counted = Vec::new();
    for v in &o.votes {
        let choice = match v.choice {
            VoteChoice::Yes => "Yes",
            VoteChoice::No => "No",
        };
        match &v.refused {
            None if v.choice == VoteChoice::Yes => yes.push(v.voter.clone()),
            None => no.push(v.voter.clone()),
            Some(why) => not_counted.push(NotCounted {
                voter: v.voter.clone(),
                choice: choice.to_string(),
                at: gmt(v.at),
                why: why.clone(),
            }),
        }
    }
    let silent = f
        .players
        .iter()
        .filter(|p| !yes.contains(p) && !no.contains(p))
        .cloned()
        .collect();
    (yes, no, not_counted, silent)
}

/// One vote completed at `at`: the office's count, the rule set changed if adopted, the points.
fn complete(f: &Facts, o: &Open, run: &mut Running, at: Ts) -> Result<Completion> {
    let closes = o.row.closes_at.unwrap_or(at);
    let (passed, counts) = match o.poll.outcome(closes.max(at)) {
        Outcome::Closed { passed, counts } => (passed, counts),
        other => {
            return Err(EngineError::Refused(format!(
                "proposal {} did not close: {other:?}",
                o.row.number
            )));
        }
    };
    let counts = counts.unwrap_or(crate::ballot::Counts { yes: 0, no: 0 });
    let number = u32::try_from(o.row.number).unwrap_or(0);
    let proposer = o.row.proposer.clone().unwrap_or_default();
    let (yes, no, not_counted, silent) = tally(f, o);
    let mut notes = Vec::new();
    let mut revisions = Vec::new();
    let mut changes = Vec::new();
    let mut house = None;
    let mut to_confirm = false;
    if passed {
        let before = run.rules.clone();
        match adopt(
            &run.rules,
            &o.payload.change,
            number,
            at,
            &run.house.settings,
        ) {
            Ok(mut next) => {
                rewrite_renumbered(&before, &mut next, number, at);
                revisions = next.revisions()[before.revisions().len()..].to_vec();
                changes = revisions.iter().map(|r| rule_diff(&before, r)).collect();
                run.rules = next;
            }
            Err(why) => notes.push(format!(
                "It was adopted, but cannot change the rules as they now stand: {why}. The \
                 rules are unchanged."
            )),
        }
        match &o.payload.change {
            RuleChange::Set { parameter, value } => {
                let mut h = run.house.clone();
                let was = h.settings.shown(*parameter);
                match h.settings.set(*parameter, *value) {
                    Ok(()) => {
                        notes.push(format!(
                            "The game's {parameter} is now {} (it was {was}), and the game \
                             follows it from now on.",
                            h.settings.shown(*parameter)
                        ));
                        run.house = h.clone();
                        house = Some(h);
                    }
                    Err(e) => notes.push(format!("The setting cannot be made: {e}.")),
                }
            }
            RuleChange::FreeText(_) => {
                to_confirm = true;
                notes.push(format!(
                    "Its effect is the GM's to carry out; the GM confirms it with CONFIRM \
                     PROPOSAL {number} (Nomic 107)."
                ));
            }
            _ => {}
        }
    }
    let without_unanimity = o.poll.proposal().rule.threshold == Threshold::SimpleMajority;
    let against: Vec<VoterId> = no.iter().map(|p| VoterId::new(p.clone())).collect();
    let proposer_id = VoterId::new(proposer.clone());
    let given = awards(
        &Completed {
            proposer: &proposer_id,
            adopted: passed,
            counts,
            highest_rule: highest_rule(run.rules.current().keys()),
            against: &against,
            without_unanimity,
        },
        &run.house.settings,
    );
    let winner = match run.scores.apply(&given, run.house.settings.winning_score) {
        Some(w) if !run.won => {
            run.won = true;
            Some(match w {
                Win::One(p) => vec![p.to_string()],
                Win::Together(ps) => ps.iter().map(ToString::to_string).collect(),
            })
        }
        _ => None,
    };
    let mut changed: BTreeMap<String, (i64, Vec<String>)> = BTreeMap::new();
    let points: Vec<PointsRow> = given
        .iter()
        .map(|a| {
            let e = changed.entry(a.player.to_string()).or_default();
            e.0 += a.points;
            e.1.push(a.rule.to_string());
            *run.totals.entry(a.player.to_string()).or_insert(0) += a.points;
            PointsRow {
                player: a.player.to_string(),
                at,
                points: a.points,
                rule: match a.rule {
                    PointsRule::Adopted203 => PointsCause::Adopted203,
                    PointsRule::Against205 => PointsCause::Against205,
                    PointsRule::Defeated207 => PointsCause::Defeated207,
                },
                proposal: Some(i64::from(number)),
            }
        })
        .collect();
    let lines = run
        .totals
        .iter()
        .map(|(p, total)| PointsLine {
            player: p.clone(),
            total: *total,
            change: changed.get(p).map(|c| c.0),
            why: changed.get(p).map(|c| c.1.join("; ")).unwrap_or_default(),
        })
        .collect();
    let view = ResultView {
        game: f.g.id.clone(),
        number,
        proposer,
        adopted: passed,
        written: o.payload.written.clone(),
        threshold: threshold_words(&o.poll.proposal().rule),
        yes,
        no,
        not_counted,
        silent,
        changes,
        notes,
        points: lines,
        winner: winner.as_ref().map(|w| w.join(" and ")),
        completed_at: at,
    };
    Ok(Completion {
        row_id: o.row.id,
        adopted: passed,
        at,
        revisions,
        house,
        points,
        to_confirm,
        winner,
        view,
    })
}

/// Nomic 110: each renumbering an adoption made rewrites the references to the old number in
/// the text of the rules that refer to it (the file's links, which follow their rules, and
/// "rule N" in a text): an amendment of each, made by the same proposal.
fn rewrite_renumbered(before: &RuleSet, next: &mut RuleSet, number: u32, at: Ts) {
    let renumbered: Vec<(u32, u32)> = next.revisions()[before.revisions().len()..]
        .iter()
        .filter_map(|r| match r.change {
            Change::Renumber { from, to } => Some((from, to)),
            _ => None,
        })
        .collect();
    let mut links = super::links_now(before);
    for (from, to) in renumbered {
        let rewrites: Vec<(u32, Vec<String>)> = references_to(next.current(), &links, from)
            .into_iter()
            .filter(|r| r.found != Found::Link)
            .filter_map(|r| {
                let rule = next.current().get(&r.rule)?;
                let text: Vec<String> = rule
                    .text
                    .iter()
                    .map(|p| rewrite_references(p, from, to))
                    .collect();
                (text != rule.text).then_some((r.rule, text))
            })
            .collect();
        links.renumber(from, to);
        for (rule, text) in rewrites {
            // The office refuses to amend an immutable rule: its reference is left as written
            // (the link itself follows the rule: `links_now`).
            let _ = next.apply(at, Change::Amend { number: rule, text }, Some(number));
        }
    }
}

/// One revision as the result mail shows it: a heading and the diff of the text.
fn rule_diff(before: &RuleSet, r: &Revision) -> RuleDiff {
    let old = |n: u32| {
        before
            .current()
            .get(&n)
            .map(|r| r.text.clone())
            .unwrap_or_default()
    };
    let (heading, lines): (String, Vec<DiffLine>) = match &r.change {
        Change::Enact { number, text, .. } => (format!("Rule {number} enacted:"), diff(&[], text)),
        Change::Amend { number, text } => {
            (format!("Rule {number} amended:"), diff(&old(*number), text))
        }
        Change::Repeal { number } => (format!("Rule {number} repealed:"), diff(&old(*number), &[])),
        Change::Renumber { from, to } => (
            format!("Rule {from} is now rule {to} (Nomic 109, 110)."),
            Vec::new(),
        ),
        Change::Transmute { number, to } => (
            format!(
                "Rule {number} is now {} (Nomic 103).",
                match to {
                    Mutability::Mutable => "mutable",
                    Mutability::Immutable => "immutable",
                }
            ),
            Vec::new(),
        ),
    };
    RuleDiff { heading, lines }
}

/// A game's decisions written, and its mails queued.
async fn write_game(c: &mut Conn, env: &Env, f: &Facts, d: Decision, now: Ts) -> Result<()> {
    let g = &f.g;
    let mut finished = false;
    for done in &d.completions {
        if !store::record_decision(c, done.row_id, done.adopted, done.at).await? {
            continue;
        }
        store::append_rule_revisions(c, &g.id, &done.revisions).await?;
        if done.adopted && !done.to_confirm {
            store::mark_applied(c, done.row_id, done.at).await?;
        }
        if let Some(h) = &done.house {
            store::set_rules(c, &g.id, &serde_json::to_string(h)?).await?;
        }
        store::add_points(c, &g.id, &done.points).await?;
        if let Some(w) = &done.winner {
            store::set_winner(c, &g.id, &serde_json::to_string(w)?, done.at).await?;
            finished = true;
        }
        let v = &done.view;
        crate::engine::announce::tell_each(c, env, g, now, |to| compose::result(env, g, to, v))
            .await?;
    }
    // The points of order's clocks: each open one told what the clock did.
    let seats = &f.seats;
    let settings = &f.house.settings;
    for (p, rows) in &f.points_of_order {
        if p.settled_at.is_none() {
            order::advance(c, env, g, p, rows, seats, settings, now).await?;
        }
    }
    if finished {
        store::set_game_status(c, &g.id, GameStatus::Finished).await?;
        store::set_due(c, &[(g.id.as_str(), None)]).await?;
        return Ok(());
    }
    // Never later than needed: the next vote's close, or a point of order's next moment.
    store::set_due(c, &[(g.id.as_str(), d.due)]).await?;
    Ok(())
}
