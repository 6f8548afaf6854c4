//! Withdrawals and disqualifications (ACWC "Disqualification and withdrawals"): a player's
//! `WITHDRAW <own account>` by mail, the TD's `WITHDRAW <account>` or `DISQUALIFY <account>
//! <why>`, or two forfeits ([`super::forfeits`]). What it changes is the stage's rule, from
//! `chancery_acwc::conduct`:
//!
//! - the Qualification: "they will not be included in later pairings" (the Swiss's history
//!   lists them from the next round), "if they still have an uncompleted pairing, their
//!   opponent wins", and an engine mark gives every finished match they did not lose to the
//!   opponent;
//! - the Candidates: "all of their games will be disregarded" (their match under way is
//!   disregarded too, and their later pairings are not published);
//! - the Final: before it starts, the substitutions as written (`conduct::final_departure`,
//!   applied by `stages::finalists`); once under way, the rules are silent: the other
//!   finalist wins the match under way, as in the Qualification, and with it the Final.
//!
//! Everyone is told (the forum post of the day), and the next round is published if the last
//! one is now decided.

use super::matches::current;
use super::store::{self, Conn, DepartureRow, DisqualifiedRow, GameRow, MatchRow, StageRow};
use crate::acwc::Player;
use crate::acwc::conduct::{self, Adjudication, Departure, Disqualification, MatchRecord, Score};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::tell_each;
use crate::outgoing::acwc::compose;
use crate::outgoing::acwc::render::ResultView;
use crate::time::Ts;

/// Who leaves, and why (none: a withdrawal).
pub(super) struct Leaving {
    pub account: String,
    pub disqualified: Option<DisqualifiedRow>,
}

fn departure(d: Option<DisqualifiedRow>) -> Departure {
    match d {
        None => Departure::Withdrawal,
        Some(r) => Departure::Disqualified(match r {
            DisqualifiedRow::Engine => Disqualification::Engine,
            DisqualifiedRow::Booster => Disqualification::Booster,
            DisqualifiedRow::TwoForfeits => Disqualification::TwoForfeits,
            DisqualifiedRow::PublicAccusation => Disqualification::PublicAccusation,
            DisqualifiedRow::Other => Disqualification::Other,
        }),
    }
}

/// A player leaves: kept, the stage's rule applied, everyone told, and the next round
/// published if due. The answer, or why not.
pub(super) async fn depart(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    who: &Leaving,
    now: Ts,
) -> Result<std::result::Result<String, String>> {
    let Some(e) = store::entrants(c, &g.id)
        .await?
        .into_iter()
        .find(|e| e.approved_at.is_some() && e.account.eq_ignore_ascii_case(&who.account))
    else {
        return Ok(Err(format!(
            "{} is no approved entrant of {}",
            who.account, g.id
        )));
    };
    if e.withdrawn_at.is_some() {
        return Ok(Err(format!(
            "{} has left the championship already",
            e.account
        )));
    }
    let Some((stage, _)) = current(c, g).await? else {
        return Ok(Err(format!(
            "{} has not started: an entry is withdrawn by not approving it",
            g.id
        )));
    };
    let swiss_rounds = store::rounds(c, &g.id)
        .await?
        .iter()
        .filter(|r| r.stage == StageRow::Swiss)
        .count();
    let row = DepartureRow {
        account: e.account.clone(),
        withdrawn_at: now,
        left_after_round: i64::try_from(swiss_rounds).unwrap_or(i64::MAX),
        left_stage: stage,
        disqualified: who.disqualified,
    };
    if !store::depart(c, &g.id, &row).await? {
        return Ok(Err(format!(
            "{} has left the championship already",
            e.account
        )));
    }
    let player = Player(e.account.clone());
    let why = departure(who.disqualified);
    let changes = match stage {
        StageRow::Swiss => qualification(c, g, &player, why, now).await?,
        StageRow::Candidates => candidates(c, g, &player, now).await?,
        StageRow::Final => final_under_way(c, g, &player, now).await?,
    };
    let (title, headline) = match why {
        Departure::Withdrawal => ("A withdrawal", format!("{player} withdraws")),
        Departure::Disqualified(d) => (
            "A disqualification",
            format!("{player} is disqualified: {d}"),
        ),
    };
    let mut lines = vec![format!(
        "{headline} (ACWC Disqualification and withdrawals)."
    )];
    lines.extend(changes);
    let v = ResultView {
        game: g.id.clone(),
        title: title.to_string(),
        a: player.to_string(),
        b: String::new(),
        headline: headline.clone(),
        lines,
    };
    let seed = format!("departure|{player}");
    tell_each(c, env, g, now, |to| compose::result(env, g, to, &seed, &v)).await?;
    super::rounds::advance(c, env, g, now).await?;
    Ok(Ok(headline))
}

/// A stored Swiss match as the departure rule reads it: a match given to a player counts as
/// won by them.
fn record(m: &MatchRow) -> Option<MatchRecord> {
    let b = m.b.clone()?;
    let score = match (&m.forfeit_to, m.score_a, m.score_b) {
        (Some(w), _, _) if w == &m.a => Some(Score { a: 20, b: 0 }),
        (Some(_), _, _) => Some(Score { a: 0, b: 20 }),
        (None, Some(a), Some(b)) => Some(Score {
            a: u32::try_from(a).unwrap_or(0),
            b: u32::try_from(b).unwrap_or(0),
        }),
        _ => None,
    };
    Some(MatchRecord {
        round: u32::try_from(m.round).unwrap_or(0),
        a: Player(m.a.clone()),
        b: Player(b),
        score,
    })
}

/// ACWC Disqualification and withdrawals, Qualifications: the uncompleted pairing to the
/// opponent, and an engine mark's finished matches.
async fn qualification(
    c: &mut Conn,
    g: &GameRow,
    player: &Player,
    why: Departure,
    now: Ts,
) -> Result<Vec<String>> {
    let matches = store::matches(c, &g.id, StageRow::Swiss).await?;
    let records: Vec<MatchRecord> = matches.iter().filter_map(record).collect();
    let d = conduct::qualification_departure(player, why, &records);
    let mut lines = vec![format!(
        "{player} is not included in later pairings (ACWC Disqualification and withdrawals)."
    )];
    for a in d.adjudications {
        let (round, winner, text) = match &a {
            Adjudication::UncompletedWonByOpponent { round, winner } => (
                *round,
                winner,
                format!("Swiss round {round}: the uncompleted match is won by {winner}."),
            ),
            Adjudication::FinishedToOpponent { round, winner, was } => (
                *round,
                winner,
                format!("Swiss round {round}: the match ({was}) is adjudicated to {winner}."),
            ),
        };
        let m = matches.iter().find(|m| {
            m.round == i64::from(round)
                && (m.a == player.as_str() || m.b.as_deref() == Some(player.as_str()))
        });
        if let Some(m) = m {
            store::give_match(c, &g.id, m, winner.as_str(), now).await?;
            lines.push(text);
        }
    }
    Ok(lines)
}

/// ACWC Disqualification and withdrawals, Candidates: their games disregarded, the one under
/// way too.
async fn candidates(c: &mut Conn, g: &GameRow, player: &Player, now: Ts) -> Result<Vec<String>> {
    let field = super::stages::field(c, g).await?;
    if !field.contains(player) {
        return Ok(Vec::new());
    }
    for m in store::matches(c, &g.id, StageRow::Candidates).await? {
        let theirs = m.a == player.as_str() || m.b.as_deref() == Some(player.as_str());
        if theirs && m.decided_at.is_none() {
            store::void_match(c, &g.id, &m, now).await?;
        }
    }
    Ok(vec![format!(
        "All of {player}'s Candidates games are disregarded (ACWC Disqualification and \
         withdrawals)."
    )])
}

/// The Final under way: the other finalist wins the match under way (the rules are silent).
async fn final_under_way(
    c: &mut Conn,
    g: &GameRow,
    player: &Player,
    now: Ts,
) -> Result<Vec<String>> {
    let open = store::matches(c, &g.id, StageRow::Final)
        .await?
        .into_iter()
        .find(|m| m.decided_at.is_none());
    let Some(m) = open else {
        return Ok(Vec::new());
    };
    let Some(b) = m.b.clone() else {
        return Ok(Vec::new());
    };
    let winner = if m.a == player.as_str() {
        b
    } else if b == player.as_str() {
        m.a.clone()
    } else {
        return Ok(Vec::new());
    };
    store::give_match(c, &g.id, &m, &winner, now).await?;
    Ok(vec![format!(
        "The Final under way is won by {winner} (the rules are silent once it has begun: the \
         uncompleted match goes to the opponent, as in the Qualification)."
    )])
}
