//! The Antichess World Championship's office by mail (issue 26): one championship a game, its
//! entrants as seats, its rounds as turns. Its pure rules are `crates/acwc`; this folder is the
//! thin layer over the store and the mail:
//!
//! - [`admin`]: a championship made from its preset, entries by mail ([`entry`], while it
//!   forms) approved by the TD (`APPROVE`), started: the Swiss's first round published;
//! - [`mail`]: an entrant's mail once it runs: results reported, confirmed or disputed (ACWC
//!   "Match rules"), and the match's time negotiated ([`negotiate`], ACWC "Match
//!   negotiations": offers, acceptances, the opponent's choice, the arbiter's finding and
//!   assignment);
//! - [`rounds`]: a Swiss round paired from the results before it (ACWC "Pairing details"),
//!   stored with its transcript and mailed to everyone; the Swiss's end and who proceeds;
//! - [`tick`]: a report unanswered for 48 hours stands, and the next round is published as soon
//!   as every match of the last one is decided (ACWC "Timeline"); the negotiations' reminders
//!   and turns (Wednesday's deadline, the weekend) are told;
//! - [`stages`]: the Candidates and the Final after the Swiss, the sealed Armageddon bids;
//! - [`forfeits`]: no-show claims (`NOSHOW`, `CLAIM`, `RESCHEDULE`) and forfeits, two of which
//!   disqualify; [`departures`]: withdrawals and disqualifications, each stage's rule;
//! - [`reminders`]: unresponsive players reminded, the TD told of a match undecided at the
//!   round's deadline;
//! - [`commands`]: the TD's commands (`APPROVE`, `RULING`, `ASSIGN`, `FINDING`, `FORFEIT`,
//!   `WITHDRAW`, `DISQUALIFY`, `STATUS` with the standings);
//! - [`house`]: what the shared steps ask of a championship.

pub mod admin;
pub mod commands;
mod departures;
pub mod entry;
mod forfeits;
pub mod house;
pub mod mail;
mod matches;
mod negotiate;
mod reminders;
mod rounds;
mod stages;
mod tick;

pub use house::AcwcHouse;
pub use tick::Tick;

use crate::acwc::Player;
use crate::acwc::house::HouseRules;
use crate::acwc::seeding::swiss_field;
use crate::acwc::seeding::{Entrant, FixedQualifiers, Seeding};
use crate::acwc::swiss::{self, Standing, rank_cmp};
use crate::acwc::swiss::{Match, Outcome, Round};
use crate::engine::{EngineError, Result};
use store::{Conn, GameRow, MatchRow, StageRow};

pub(crate) mod store {
    pub use crate::store::acwc::*;
    pub use crate::store::*;
}

/// The championship's house rules, as stored in its row.
pub fn rules_of(g: &GameRow) -> Result<HouseRules> {
    Ok(serde_json::from_str(&g.rules)?)
}

/// ACWC "Format": the players the settings send past the Swiss.
pub(crate) fn fixed(rules: &HouseRules) -> FixedQualifiers {
    FixedQualifiers {
        to_final: rules.settings.holder.clone().map(Player),
        to_candidates: rules
            .settings
            .runner_up
            .clone()
            .map(Player)
            .into_iter()
            .collect(),
    }
}

/// Every approved entrant with their seeding.
pub(crate) async fn approved(c: &mut Conn, game: &str) -> Result<Vec<Entrant>> {
    Ok(store::entrants(c, game)
        .await?
        .into_iter()
        .filter(|e| e.approved_at.is_some())
        .map(|e| Entrant {
            player: Player(e.account),
            seeding: Seeding {
                cutoff: u32::try_from(e.cutoff).unwrap_or(0),
                peak: u32::try_from(e.peak).unwrap_or(0),
            },
        })
        .collect())
}

/// A stored match's outcome, the first-named player's view; none while undecided. A match
/// given to a player (a forfeit, a departure, an engine mark) is theirs whatever its score.
fn outcome(m: &MatchRow) -> Option<Outcome> {
    if let Some(w) = &m.forfeit_to {
        return Some(if w == &m.a {
            Outcome::FirstWon
        } else {
            Outcome::SecondWon
        });
    }
    let (a, b) = (m.score_a?, m.score_b?);
    Some(match a.cmp(&b) {
        std::cmp::Ordering::Greater => Outcome::FirstWon,
        std::cmp::Ordering::Equal => Outcome::Tie,
        std::cmp::Ordering::Less => Outcome::SecondWon,
    })
}

/// The Swiss as played: its rounds, and who left since the last one was paired.
pub(crate) struct History {
    pub rounds: Vec<Round>,
    /// ACWC Disqualification and withdrawals: "will not be included in later pairings".
    pub withdrawn_now: Vec<Player>,
}

/// The Swiss's rounds as played, from the stored pairings: each round's bye and matches, and
/// each player who left the Swiss in the round after the last one paired when they left.
pub(crate) async fn swiss_history(c: &mut Conn, game: &str) -> Result<History> {
    let mut rounds: Vec<Round> = Vec::new();
    for m in store::matches(c, game, StageRow::Swiss).await? {
        let k = usize::try_from(m.round - 1).unwrap_or(0);
        while rounds.len() <= k {
            rounds.push(Round::default());
        }
        match &m.b {
            None => rounds[k].bye = Some(Player(m.a.clone())),
            Some(b) => rounds[k].matches.push(Match {
                first: Player(m.a.clone()),
                second: Player(b.clone()),
                outcome: outcome(&m),
            }),
        }
    }
    let mut withdrawn_now = Vec::new();
    for d in store::departures(c, game).await? {
        if d.left_stage != StageRow::Swiss {
            continue;
        }
        let p = Player(d.account);
        match rounds.get_mut(usize::try_from(d.left_after_round).unwrap_or(usize::MAX)) {
            Some(r) => r.withdrawn.push(p),
            None => withdrawn_now.push(p),
        }
    }
    Ok(History {
        rounds,
        withdrawn_now,
    })
}

/// The Swiss's standings, ranked (ACWC "Pairing details": score, the opponents' average seeding
/// rating, the own seeding rating).
pub(crate) async fn ranked(c: &mut Conn, g: &GameRow) -> Result<Vec<Standing>> {
    let rules = rules_of(g)?;
    let field = swiss_field(&approved(c, &g.id).await?, &fixed(&rules))
        .map_err(|e| EngineError::Refused(format!("the Swiss's field: {e}")))?;
    let history = swiss_history(c, &g.id).await?;
    let mut standings = swiss::standings(&field, &history.rounds, &history.withdrawn_now)
        .map_err(|e| EngineError::Refused(format!("the Swiss's standings: {e}")))?;
    standings.sort_by(rank_cmp);
    Ok(standings)
}

/// ACWC "Pairing details": the standings and crosstable of the Swiss as played, as lines of
/// text; none before the first round is played.
pub(crate) fn standings(field: &[Entrant], history: &History) -> Result<Vec<String>> {
    if history.rounds.is_empty() {
        return Ok(Vec::new());
    }
    let rows = crate::acwc::crosstable::crosstable(field, &history.rounds, &history.withdrawn_now)
        .map_err(|e| EngineError::Refused(format!("the Swiss's standings: {e}")))?;
    Ok(crate::acwc::crosstable::lines(&rows))
}

/// [`standings`] of a stored championship (its STATUS, the console, the Swiss's end).
pub async fn standings_of(c: &mut Conn, g: &GameRow) -> Result<Vec<String>> {
    let rules = rules_of(g)?;
    let field = swiss_field(&approved(c, &g.id).await?, &fixed(&rules))
        .map_err(|e| EngineError::Refused(format!("the Swiss's field: {e}")))?;
    let history = swiss_history(c, &g.id).await?;
    standings(&field, &history)
}
