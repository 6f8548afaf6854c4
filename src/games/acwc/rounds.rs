//! A Swiss round published (ACWC "Pairing details", "Timeline"): paired from the results before
//! it by `chancery_acwc::swiss` (literal Monrad, with its documented fallback), stored with its
//! transcript, and mailed to every entrant, master and observer, so anyone can check it by
//! hand. When every round of the Swiss is decided, its end is announced with the final ranking
//! and who proceeds to the Candidates (ACWC "Qualification").

use super::store::{self, Conn, GameRow, MatchRow, RoundRow, StageRow};
use crate::acwc::candidates::{SwissLine, swiss_advancement_order};
use crate::acwc::seeding::swiss_field;
use crate::acwc::swiss;
use crate::acwc::week::round_week;
use crate::config::Env;
use crate::engine::announce::tell_each;
use crate::engine::{EngineError, Result};
use crate::outgoing::acwc::compose;
use crate::outgoing::acwc::render::{PairingsView, SwissDoneView};
use crate::time::Ts;

/// Where the Swiss stands: the rounds it has, those published, and whether the last one
/// published is decided.
struct Progress {
    due: u32,
    published: u32,
    last_decided: bool,
}

async fn progress(c: &mut Conn, g: &GameRow) -> Result<Progress> {
    let rules = super::rules_of(g)?;
    let field = swiss_field(&super::approved(c, &g.id).await?, &super::fixed(&rules))
        .map_err(|e| EngineError::Refused(format!("the Swiss's field: {e}")))?;
    let matches = store::matches(c, &g.id, StageRow::Swiss).await?;
    let published = matches.iter().map(|m| m.round).max().unwrap_or(0);
    let last_decided = matches
        .iter()
        .filter(|m| m.round == published)
        .all(|m| m.decided_at.is_some());
    Ok(Progress {
        due: swiss::rounds(field.len()),
        published: u32::try_from(published).unwrap_or(0),
        last_decided,
    })
}

/// ACWC "Timeline": the next round published as soon as every match of the last one is
/// decided, or the Swiss's end announced after its last round. Whether anything was published.
pub(super) async fn advance(c: &mut Conn, env: &Env, g: &GameRow, now: Ts) -> Result<bool> {
    let p = progress(c, g).await?;
    if !p.last_decided {
        return Ok(false);
    }
    if p.published < p.due {
        publish(c, env, g, p.published + 1, now).await?;
        return Ok(true);
    }
    if store::swiss_done(c, &g.id).await?.is_none() {
        announce_end(c, env, g, p.due, now).await?;
    }
    // ACWC "Candidates", "Final": the stages after the Swiss.
    super::stages::advance(c, env, g, now).await?;
    Ok(true)
}

/// Swiss round `round` paired, stored and mailed.
async fn publish(c: &mut Conn, env: &Env, g: &GameRow, round: u32, now: Ts) -> Result<()> {
    let rules = super::rules_of(g)?;
    let field = swiss_field(&super::approved(c, &g.id).await?, &super::fixed(&rules))
        .map_err(|e| EngineError::Refused(format!("the Swiss's field: {e}")))?;
    let history = super::swiss_history(c, &g.id).await?;
    let standings = super::standings(&field, &history)?;
    let pairings = swiss::pair_next(&field, &history.rounds, &history.withdrawn_now)
        .map_err(|e| EngineError::Refused(format!("Swiss round {round}: {e}")))?;
    let week = round_week(now);
    let transcript = pairings.transcript.lines();
    let row = RoundRow {
        stage: StageRow::Swiss,
        round: i64::from(round),
        published_at: now,
        deadline: Some(week.deadline),
    };
    store::add_round(c, &g.id, &row, &transcript).await?;
    let mut lines = Vec::new();
    for (k, (a, b)) in pairings.pairs.iter().enumerate() {
        let m = MatchRow {
            stage: StageRow::Swiss,
            round: i64::from(round),
            board: i64::try_from(k + 1).unwrap_or(i64::MAX),
            a: a.to_string(),
            b: Some(b.to_string()),
            agreed_at: None,
            score_a: None,
            score_b: None,
            forfeit_to: None,
            decided_at: None,
        };
        store::add_match(c, &g.id, &m).await?;
        lines.push(format!("Board {}: {a} v {b}", k + 1));
    }
    if let Some(bye) = &pairings.bye {
        let m = MatchRow {
            stage: StageRow::Swiss,
            round: i64::from(round),
            board: i64::try_from(pairings.pairs.len() + 1).unwrap_or(i64::MAX),
            a: bye.to_string(),
            b: None,
            agreed_at: None,
            score_a: None,
            score_b: None,
            forfeit_to: None,
            decided_at: Some(now),
        };
        store::add_match(c, &g.id, &m).await?;
    }
    let v = PairingsView {
        game: g.id.clone(),
        title: format!("Swiss round {round}"),
        pairs: lines,
        bye: pairings.bye.as_ref().map(ToString::to_string),
        transcript,
        deadline: week.deadline,
        standings,
    };
    let seed = format!("swiss{round}");
    tell_each(c, env, g, now, |to| {
        compose::pairings(env, g, to, &seed, &v)
    })
    .await
}

/// ACWC "Qualification": the Swiss's end, its final ranking and who proceeds.
async fn announce_end(c: &mut Conn, env: &Env, g: &GameRow, rounds: u32, now: Ts) -> Result<()> {
    let rules = super::rules_of(g)?;
    let standings = super::ranked(c, g).await?;
    let ranking = super::standings_of(c, g).await?;
    let lines: Vec<SwissLine> = standings
        .iter()
        .map(|s| SwissLine {
            player: s.player.clone(),
            points_halves: u16::try_from(s.score.halves()).unwrap_or(u16::MAX),
            opponents_seeding_x2: s.opponents.iter().map(|o| o.rating.doubled()).collect(),
            seeding_x2: s.rating.doubled(),
            out: false,
        })
        .collect();
    let from_swiss = usize::try_from(rules.settings.from_swiss).unwrap_or(3);
    let mut candidates: Vec<String> = swiss_advancement_order(&lines)
        .into_iter()
        .take(from_swiss)
        .map(|l| l.player.to_string())
        .collect();
    if let Some(r) = &rules.settings.runner_up {
        candidates.insert(0, format!("{r} (the previous runner-up: ACWC Format)"));
    }
    let v = SwissDoneView {
        game: g.id.clone(),
        rounds,
        ranking,
        candidates,
    };
    store::set_swiss_done(c, &g.id, now).await?;
    tell_each(c, env, g, now, |to| compose::swiss_done(env, g, to, &v)).await
}

/// The STATUS: where the Swiss stands, with its standings and crosstable.
pub(super) async fn summary(c: &mut Conn, g: &GameRow) -> Result<String> {
    let p = progress(c, g).await?;
    let state = if p.last_decided {
        "decided"
    } else {
        "under way"
    };
    let mut out = format!(
        "{}: Swiss round {} of {} published, {state}.\n",
        g.id, p.published, p.due
    );
    for l in super::standings_of(c, g).await? {
        out.push_str(&l);
        out.push('\n');
    }
    Ok(out)
}
