//! ACWC Match rules, Disqualification and withdrawals, Reporting cheats: no-show claims ("If a
//! player is offline at the time of the match, they have a 10 minute grace period to come
//! online and start the game. The appearing player has to message the TD that their opponent
//! did not show up and again 10 minutes afterwards if the opponent still didn't show up. The
//! appearing player has the choice to reschedule or claim a win. If the appearing player does
//! not claim a win and rescheduling fails, the match will be forfeited in favor of the
//! appearing player"), forfeits ("If a player gets forfeited in two different matches, they get
//! disqualified from the ACWC"), what a withdrawal or a disqualification changes in each stage,
//! and a match's result as reported and confirmed ("After a match, either player must post the
//! results").
//!
//! Decisions where the rules are silent:
//! - a no-show claim's first message must reach the TD's server at or after the agreed time and
//!   no later than [`FIRST_WITHIN`] (30 minutes) after it; the second is the first later
//!   message at least 10 minutes after the first, and no later than [`SECOND_WITHIN`] (30
//!   minutes) after it: the times are the receiving server's, passed in. A later message
//!   sent less than 10 minutes after the first, with no valid second, is refused with the
//!   reason (the claimant may send again);
//! - a forfeit counts against the player forfeited whether the appearing player claimed the win
//!   or the rescheduling failed, or the player left and did not come back, or failed to offer
//!   or accept the rematch: each is "forfeited in ... a match". Two forfeits in different
//!   matches, in any stages, disqualify;
//! - in the Qualification, "their opponent wins this game" is read as the match (a pairing is a
//!   10-game match); an engine mark turns every finished match the player did not lose into a
//!   won match for the opponent; the game score of an adjudicated match is the TD's; a bye has
//!   no opponent and is not in the records here;
//! - in the Final, the substitutions apply as written whenever a finalist leaves; whether they
//!   apply to a Final already under way is the TD's call (the rules do not say);
//! - a result: either player reports; the other confirms (or reports the same score) or
//!   disputes (or reports another score), and a dispute goes to the TD, whose ruling is final.
//!   The reporter may correct their report until the other answers. An unanswered report is
//!   reminded to the other player after [`CONFIRM_REMINDER`] (24 hours) and stands after
//!   [`CONFIRM_WITHIN`] (48 hours): the rules had one player post the result, and the TD can
//!   check the games on Lichess. A result not reported [`REPORT_REMINDER`] (24 hours) after the
//!   agreed time is reminded to both players.

use crate::negotiation::Pairing;
use crate::{Player, Ts};
use chancery_office::time::{HOUR, MINUTE, format_gmt};
use std::fmt;

/// ACWC Match rules: "a 10 minute grace period".
pub const GRACE: Ts = 10 * MINUTE;
/// ACWC Match rules: "and again 10 minutes afterwards".
pub const SECOND_AFTER: Ts = 10 * MINUTE;
/// ACWC Match rules: how long after the agreed time the first no-show message may come (module
/// docs).
pub const FIRST_WITHIN: Ts = 30 * MINUTE;
/// ACWC Match rules: how long after the first no-show message the second may come (module
/// docs).
pub const SECOND_WITHIN: Ts = 30 * MINUTE;
/// ACWC Match rules: "either player must post the results": the reminder to the other player.
pub const CONFIRM_REMINDER: Ts = 24 * HOUR;
/// ACWC Match rules: an unanswered report stands after this (module docs).
pub const CONFIRM_WITHIN: Ts = 48 * HOUR;
/// ACWC Match rules: a result not reported this long after the agreed time is reminded.
pub const REPORT_REMINDER: Ts = 24 * HOUR;
/// ACWC Match rules: "If a player gets forfeited in two different matches".
pub const FORFEITS_TO_DISQUALIFY: usize = 2;

/// ACWC Format: the three stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Qualification,
    Candidates,
    Final,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Qualification => "the Qualification",
            Stage::Candidates => "the Candidates",
            Stage::Final => "the Final",
        })
    }
}

/// One match: its stage and round (the Final is round 1); a player plays one match a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MatchRef {
    pub stage: Stage,
    pub round: u32,
}

// ---------------------------------------------------------------------------------------------
// No-shows and forfeits
// ---------------------------------------------------------------------------------------------

/// ACWC Match rules: "The appearing player has the choice to reschedule or claim a win".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoShowChoice {
    Reschedule,
    ClaimWin,
}

/// ACWC Match rules: a no-show claim: the appearing player's messages to the TD, each timed by
/// the receiving server, and their choice once made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoShowClaim {
    pub claimant: Player,
    pub agreed: Ts,
    pub messages: Vec<Ts>,
    pub choice: Option<NoShowChoice>,
}

/// Why a forfeit was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForfeitWhy {
    /// ACWC Match rules: a no-show, the appearing player claiming the win.
    NoShow,
    /// ACWC Match rules: "rescheduling fails".
    ReschedulingFailed,
    /// ACWC Match rules: left the match and did not come back within 10 minutes.
    LeftTheMatch,
    /// ACWC Match rules: "Repeated failure" to offer or accept the rematch.
    NoRematch,
}

impl fmt::Display for ForfeitWhy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ForfeitWhy::NoShow => "did not show up",
            ForfeitWhy::ReschedulingFailed => "did not show up, and rescheduling failed",
            ForfeitWhy::LeftTheMatch => "left the match and did not come back within 10 minutes",
            ForfeitWhy::NoRematch => "repeatedly failed to offer or accept the rematch",
        })
    }
}

/// ACWC Match rules: a match forfeited by `forfeited` in favour of `winner`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub at_match: MatchRef,
    pub winner: Player,
    pub forfeited: Player,
    pub why: ForfeitWhy,
}

/// ACWC Match rules: where a no-show claim stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoShowOutcome {
    /// One message so far: the second is due from `from` to `by`.
    AwaitingSecond { from: Ts, by: Ts },
    /// Both messages in time: the appearing player is to choose.
    AwaitingChoice,
    /// The appearing player claimed the win: the match is forfeited.
    Win(Forfeit),
    /// The appearing player chose to reschedule; if it fails, [`rescheduling_failed`].
    Reschedule { appearing: Player, absent: Player },
}

/// Why a no-show claim is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoShowRefused {
    NotInMatch {
        player: Player,
    },
    NoMessage,
    /// The first message came before the agreed time.
    BeforeTheTime {
        first: Ts,
        agreed: Ts,
    },
    /// The first message came more than [`FIRST_WITHIN`] after the agreed time.
    FirstTooLate {
        first: Ts,
        latest: Ts,
    },
    /// ACWC Match rules: "again 10 minutes afterwards": a second message too soon.
    SecondTooSoon {
        second: Ts,
        earliest: Ts,
    },
    /// The second message came more than [`SECOND_WITHIN`] after the first.
    SecondTooLate {
        second: Ts,
        latest: Ts,
    },
}

impl fmt::Display for NoShowRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = |t: &Ts| format_gmt(*t);
        match self {
            NoShowRefused::NotInMatch { player } => {
                write!(f, "{player} does not play this match")
            }
            NoShowRefused::NoMessage => f.write_str("a no-show claim is a message to the TD"),
            NoShowRefused::BeforeTheTime { first, agreed } => write!(
                f,
                "your message of {} came before the match time, {} (ACWC Match rules)",
                g(first),
                g(agreed)
            ),
            NoShowRefused::FirstTooLate { first, latest } => write!(
                f,
                "your message of {} came too long after the match time: it was due by {} (ACWC Match rules)",
                g(first),
                g(latest)
            ),
            NoShowRefused::SecondTooSoon { second, earliest } => write!(
                f,
                "your second message of {} came less than 10 minutes after the first: send it again from {} if your opponent still has not shown up (ACWC Match rules)",
                g(second),
                g(earliest)
            ),
            NoShowRefused::SecondTooLate { second, latest } => write!(
                f,
                "your second message of {} came too late: it was due by {} (ACWC Match rules)",
                g(second),
                g(latest)
            ),
        }
    }
}

impl std::error::Error for NoShowRefused {}

/// ACWC Match rules: a no-show claim in `at_match` of `pairing`, the messages timed by the TD's
/// receiving server (module docs for the windows).
pub fn no_show(
    pairing: &Pairing,
    at_match: MatchRef,
    claim: &NoShowClaim,
) -> Result<NoShowOutcome, NoShowRefused> {
    let absent = pairing
        .opponent(&claim.claimant)
        .ok_or_else(|| NoShowRefused::NotInMatch {
            player: claim.claimant.clone(),
        })?;
    let mut messages = claim.messages.clone();
    messages.sort_unstable();
    let first = *messages.first().ok_or(NoShowRefused::NoMessage)?;
    if first < claim.agreed {
        return Err(NoShowRefused::BeforeTheTime {
            first,
            agreed: claim.agreed,
        });
    }
    let latest = claim.agreed.saturating_add(FIRST_WITHIN);
    if first > latest {
        return Err(NoShowRefused::FirstTooLate { first, latest });
    }
    let earliest = first.saturating_add(SECOND_AFTER);
    let by = first.saturating_add(SECOND_WITHIN);
    match messages.iter().copied().find(|&m| m >= earliest) {
        Some(second) if second > by => Err(NoShowRefused::SecondTooLate { second, latest: by }),
        Some(_) => Ok(match claim.choice {
            None => NoShowOutcome::AwaitingChoice,
            Some(NoShowChoice::ClaimWin) => NoShowOutcome::Win(Forfeit {
                at_match,
                winner: claim.claimant.clone(),
                forfeited: absent.clone(),
                why: ForfeitWhy::NoShow,
            }),
            Some(NoShowChoice::Reschedule) => NoShowOutcome::Reschedule {
                appearing: claim.claimant.clone(),
                absent: absent.clone(),
            },
        }),
        None => match messages.get(1) {
            Some(&second) => Err(NoShowRefused::SecondTooSoon { second, earliest }),
            None => Ok(NoShowOutcome::AwaitingSecond { from: earliest, by }),
        },
    }
}

/// ACWC Match rules: "If the appearing player does not claim a win and rescheduling fails, the
/// match will be forfeited in favor of the appearing player".
pub fn rescheduling_failed(at_match: MatchRef, appearing: &Player, absent: &Player) -> Forfeit {
    Forfeit {
        at_match,
        winner: appearing.clone(),
        forfeited: absent.clone(),
        why: ForfeitWhy::ReschedulingFailed,
    }
}

/// ACWC Disqualification: why a player is disqualified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disqualification {
    /// ACWC Reporting cheats: marked as engine on Lichess (found guilty of engine use, or marked
    /// for non-ACWC games during the ACWC).
    Engine,
    /// ACWC Reporting cheats: marked as booster.
    Booster,
    /// ACWC Match rules: "forfeited in two different matches".
    TwoForfeits,
    /// ACWC Reporting cheats: "Any accusation in public will result in a disqualification of
    /// the accuser".
    PublicAccusation,
    /// Anything else the TD decides (two accounts, a cheat found otherwise).
    Other,
}

impl fmt::Display for Disqualification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Disqualification::Engine => "an engine mark (ACWC Reporting cheats)",
            Disqualification::Booster => "a booster mark (ACWC Reporting cheats)",
            Disqualification::TwoForfeits => {
                "forfeited in two different matches (ACWC Match rules)"
            }
            Disqualification::PublicAccusation => {
                "an accusation of cheating made in public (ACWC Reporting cheats)"
            }
            Disqualification::Other => "the TD's decision (ACWC Organization)",
        })
    }
}

/// ACWC Disqualification and withdrawals: a player leaving a stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Departure {
    Withdrawal,
    Disqualified(Disqualification),
}

/// ACWC Match rules: a player disqualified for two forfeits, and the two matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoForfeits {
    pub player: Player,
    pub matches: [MatchRef; 2],
}

/// ACWC Match rules: "If a player gets forfeited in two different matches, they get
/// disqualified from the ACWC": each such player, with their first two matches forfeited, in
/// the order of the second forfeit. Two forfeits in one match count once.
pub fn two_forfeits(forfeits: &[Forfeit]) -> Vec<TwoForfeits> {
    let mut out: Vec<TwoForfeits> = Vec::new();
    let mut first: Vec<(&Player, MatchRef)> = Vec::new();
    for f in forfeits {
        if out.iter().any(|d| d.player == f.forfeited) {
            continue;
        }
        match first.iter().find(|(p, _)| *p == &f.forfeited) {
            Some((_, m)) if *m != f.at_match => out.push(TwoForfeits {
                player: f.forfeited.clone(),
                matches: [*m, f.at_match],
            }),
            Some(_) => {}
            None => first.push((&f.forfeited, f.at_match)),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Withdrawals and disqualifications, stage by stage
// ---------------------------------------------------------------------------------------------

/// A match's score in half-points, `a`'s then `b`'s (10 games: 5½–4½ is 11–9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub a: u32,
    pub b: u32,
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let half = |h: u32| format!("{}{}", h / 2, if h % 2 == 1 { "½" } else { "" });
        write!(f, "{}–{}", half(self.a), half(self.b))
    }
}

/// One match of a stage: its round, its players, and its score once finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    pub round: u32,
    pub a: Player,
    pub b: Player,
    pub score: Option<Score>,
}

impl MatchRecord {
    fn involves(&self, p: &Player) -> bool {
        &self.a == p || &self.b == p
    }

    fn opponent_of(&self, p: &Player) -> &Player {
        if &self.a == p { &self.b } else { &self.a }
    }

    /// Did `p` lose it (a finished match only)?
    fn lost_by(&self, p: &Player) -> bool {
        match self.score {
            Some(s) if &self.a == p => s.a < s.b,
            Some(s) if &self.b == p => s.b < s.a,
            _ => false,
        }
    }
}

/// ACWC Disqualification and withdrawals: one match's result changed, won by `winner`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Adjudication {
    /// "If they still have an uncompleted pairing, their opponent wins".
    UncompletedWonByOpponent { round: u32, winner: Player },
    /// "all of their finished games in the Qualification will be adjudicated in favor of their
    /// opponents" (an engine mark): the score it had.
    FinishedToOpponent {
        round: u32,
        winner: Player,
        was: Score,
    },
}

/// ACWC Disqualification and withdrawals, Qualifications: what a departure changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QualificationDeparture {
    /// "they will not be included in later pairings".
    pub excluded: Player,
    pub adjudications: Vec<Adjudication>,
}

/// ACWC Disqualification and withdrawals, Qualifications: `player` leaves for `departure`; the
/// stage's `matches` so far. Only an engine mark (not a booster mark) reverses finished
/// matches, and only those the player did not lose.
pub fn qualification_departure(
    player: &Player,
    departure: Departure,
    matches: &[MatchRecord],
) -> QualificationDeparture {
    let engine = departure == Departure::Disqualified(Disqualification::Engine);
    let adjudications = matches
        .iter()
        .filter(|m| m.involves(player))
        .filter_map(|m| {
            let winner = m.opponent_of(player).clone();
            match m.score {
                None => Some(Adjudication::UncompletedWonByOpponent {
                    round: m.round,
                    winner,
                }),
                Some(was) if engine && !m.lost_by(player) => {
                    Some(Adjudication::FinishedToOpponent {
                        round: m.round,
                        winner,
                        was,
                    })
                }
                Some(_) => None,
            }
        })
        .collect();
    QualificationDeparture {
        excluded: player.clone(),
        adjudications,
    }
}

/// ACWC Disqualification and withdrawals, Candidates: "all of their games will be
/// disregarded": the matches of `player` among `matches`, finished or not, whatever the
/// departure.
pub fn candidates_departure(player: &Player, matches: &[MatchRecord]) -> Vec<MatchRecord> {
    matches
        .iter()
        .filter(|m| m.involves(player))
        .cloned()
        .collect()
}

/// ACWC Format, Final: the previous winner, the Challenger (the Candidates' winner) and the
/// Candidates' runner-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finalists {
    pub holder: Player,
    pub challenger: Player,
    pub runner_up: Player,
}

/// ACWC Disqualification and withdrawals, Finals: the Final after a departure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FinalChange {
    /// "If arimakat withdraws or gets disqualified, the Challenger plays the Candidates
    /// runner-up in the Final".
    ChallengerPlaysRunnerUp {
        challenger: Player,
        runner_up: Player,
    },
    /// "If the Challenger withdraws or gets disqualified, the Candidates runner-up becomes the
    /// new Challenger".
    RunnerUpBecomesChallenger { holder: Player, challenger: Player },
    /// The runner-up left: the Final is unchanged, with no one to substitute.
    NoSubstitute,
}

/// Not one of the three players the Final's rule names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAFinalist(pub Player);

impl fmt::Display for NotAFinalist {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is neither a finalist nor the Candidates' runner-up (ACWC Disqualification and withdrawals)",
            self.0
        )
    }
}

impl std::error::Error for NotAFinalist {}

/// ACWC Disqualification and withdrawals, Finals: the Final after `who` withdraws or is
/// disqualified.
pub fn final_departure(seats: &Finalists, who: &Player) -> Result<FinalChange, NotAFinalist> {
    if who == &seats.holder {
        Ok(FinalChange::ChallengerPlaysRunnerUp {
            challenger: seats.challenger.clone(),
            runner_up: seats.runner_up.clone(),
        })
    } else if who == &seats.challenger {
        Ok(FinalChange::RunnerUpBecomesChallenger {
            holder: seats.holder.clone(),
            challenger: seats.runner_up.clone(),
        })
    } else if who == &seats.runner_up {
        Ok(FinalChange::NoSubstitute)
    } else {
        Err(NotAFinalist(who.clone()))
    }
}

// ---------------------------------------------------------------------------------------------
// Results: reported, confirmed or disputed
// ---------------------------------------------------------------------------------------------

/// ACWC Match rules ("either player must post the results"): what happens to a match's result,
/// every `at` the receiving server's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultEvent {
    Report {
        by: Player,
        at: Ts,
        score: Score,
    },
    Confirm {
        by: Player,
        at: Ts,
    },
    Dispute {
        by: Player,
        at: Ts,
    },
    /// ACWC Organization: the TD's final call on a disputed result.
    Ruling {
        at: Ts,
        score: Score,
    },
}

impl ResultEvent {
    pub fn at(&self) -> Ts {
        match self {
            ResultEvent::Report { at, .. }
            | ResultEvent::Confirm { at, .. }
            | ResultEvent::Dispute { at, .. }
            | ResultEvent::Ruling { at, .. } => *at,
        }
    }
}

/// How a result became final.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settled {
    /// The other player confirmed it (or reported the same score).
    Confirmed { by: Player },
    /// Unanswered for [`CONFIRM_WITHIN`]: the report stands.
    Unanswered,
    /// The TD ruled.
    Ruled,
}

/// ACWC Match rules: where a match's result stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultState {
    /// Nothing reported yet.
    Awaiting,
    /// Reported by `by`; the other player is reminded at `remind_at`, and it stands at
    /// `stands_at`.
    Reported {
        by: Player,
        score: Score,
        remind_at: Ts,
        stands_at: Ts,
    },
    Final {
        score: Score,
        how: Settled,
    },
    /// Disputed: the TD decides.
    Disputed {
        reported: Score,
        by: Player,
        disputed_by: Player,
    },
}

/// Why a result event is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultRefused {
    NotInMatch {
        player: Player,
    },
    OutOfOrder {
        at: Ts,
        last: Ts,
    },
    NothingReported,
    /// The reporter cannot confirm or dispute their own report.
    OwnReport,
    AlreadyFinal {
        score: Score,
    },
    WithTheTd,
    /// Only a disputed result is ruled on.
    NoDispute,
}

impl fmt::Display for ResultRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultRefused::NotInMatch { player } => write!(f, "{player} does not play this match"),
            ResultRefused::OutOfOrder { at, last } => write!(
                f,
                "received at {} but the result already has a message of {}",
                format_gmt(*at),
                format_gmt(*last)
            ),
            ResultRefused::NothingReported => f.write_str("no result has been reported yet"),
            ResultRefused::OwnReport => {
                f.write_str("the other player confirms or disputes your report, not you")
            }
            ResultRefused::AlreadyFinal { score } => write!(f, "the result is final: {score}"),
            ResultRefused::WithTheTd => f.write_str(
                "the result is disputed: the TD makes the final call (ACWC Organization)",
            ),
            ResultRefused::NoDispute => f.write_str("the TD rules only on a disputed result"),
        }
    }
}

impl std::error::Error for ResultRefused {}

fn result_step(
    pairing: &Pairing,
    state: ResultState,
    e: &ResultEvent,
) -> Result<ResultState, ResultRefused> {
    let report = |by: &Player, at: Ts, score: Score| ResultState::Reported {
        by: by.clone(),
        score,
        remind_at: at.saturating_add(CONFIRM_REMINDER),
        stands_at: at.saturating_add(CONFIRM_WITHIN),
    };
    let player = match e {
        ResultEvent::Report { by, .. }
        | ResultEvent::Confirm { by, .. }
        | ResultEvent::Dispute { by, .. } => Some(by),
        ResultEvent::Ruling { .. } => None,
    };
    if let Some(p) = player.filter(|p| pairing.opponent(p).is_none()) {
        return Err(ResultRefused::NotInMatch { player: p.clone() });
    }
    match (state, e) {
        (ResultState::Final { score, .. }, _) => Err(ResultRefused::AlreadyFinal { score }),
        (ResultState::Disputed { .. }, ResultEvent::Ruling { score, .. }) => {
            Ok(ResultState::Final {
                score: *score,
                how: Settled::Ruled,
            })
        }
        (ResultState::Disputed { .. }, _) => Err(ResultRefused::WithTheTd),
        (_, ResultEvent::Ruling { .. }) => Err(ResultRefused::NoDispute),
        (ResultState::Awaiting, ResultEvent::Report { by, at, score }) => {
            Ok(report(by, *at, *score))
        }
        (ResultState::Awaiting, _) => Err(ResultRefused::NothingReported),
        (ResultState::Reported { by, score, .. }, e) => answer(by, score, e, report),
    }
}

/// The answer to a pending report by `reporter` of `score`.
fn answer(
    reporter: Player,
    score: Score,
    e: &ResultEvent,
    report: impl Fn(&Player, Ts, Score) -> ResultState,
) -> Result<ResultState, ResultRefused> {
    match e {
        ResultEvent::Report { by, at, score: s } if by == &reporter => Ok(report(by, *at, *s)),
        ResultEvent::Report { by, score: s, .. } if *s == score => Ok(ResultState::Final {
            score,
            how: Settled::Confirmed { by: by.clone() },
        }),
        ResultEvent::Confirm { by, .. } | ResultEvent::Dispute { by, .. } if by == &reporter => {
            Err(ResultRefused::OwnReport)
        }
        ResultEvent::Confirm { by, .. } => Ok(ResultState::Final {
            score,
            how: Settled::Confirmed { by: by.clone() },
        }),
        ResultEvent::Report { by, .. } | ResultEvent::Dispute { by, .. } => {
            Ok(ResultState::Disputed {
                reported: score,
                by: reporter,
                disputed_by: by.clone(),
            })
        }
        ResultEvent::Ruling { .. } => Err(ResultRefused::NoDispute),
    }
}

/// A report unanswered at `now` stands once [`CONFIRM_WITHIN`] has passed.
fn lapse(state: ResultState, now: Ts) -> ResultState {
    match state {
        ResultState::Reported {
            score, stands_at, ..
        } if now >= stands_at => ResultState::Final {
            score,
            how: Settled::Unanswered,
        },
        s => s,
    }
}

/// Replays the valid events up to `upto` (inclusive); refused ones are skipped.
fn result_replay(pairing: &Pairing, events: &[ResultEvent], upto: Ts) -> (ResultState, Option<Ts>) {
    let mut state = ResultState::Awaiting;
    let mut last = None;
    for e in events.iter().filter(|e| e.at() <= upto) {
        if last.is_some_and(|l| e.at() < l) {
            continue;
        }
        if let Ok(next) = result_step(pairing, lapse(state.clone(), e.at()), e) {
            state = next;
            last = Some(e.at());
        }
    }
    (state, last)
}

/// ACWC Match rules: may `new` be appended to the result's log `events`?
pub fn check_result(
    pairing: &Pairing,
    events: &[ResultEvent],
    new: &ResultEvent,
) -> Result<(), ResultRefused> {
    let (state, last) = result_replay(pairing, events, Ts::MAX);
    if let Some(last) = last.filter(|&l| new.at() < l) {
        return Err(ResultRefused::OutOfOrder { at: new.at(), last });
    }
    result_step(pairing, lapse(state, new.at()), new).map(|_| ())
}

/// ACWC Match rules: where the result of `pairing`'s match stands at `now`.
pub fn result_state(pairing: &Pairing, events: &[ResultEvent], now: Ts) -> ResultState {
    lapse(result_replay(pairing, events, now).0, now)
}

/// What is due next for a match's result (module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultDue {
    /// Remind both players to report the result.
    RemindToReport { at: Ts },
    /// Remind `to` to confirm or dispute the report.
    RemindToConfirm { to: Player, at: Ts },
    /// The unanswered report stands.
    Stands { at: Ts },
}

/// ACWC Match rules ("Unresponsive players get reminders"): the next thing due after `now` for
/// the result of the match agreed for `agreed`; None when final or with the TD.
pub fn result_due(
    pairing: &Pairing,
    events: &[ResultEvent],
    agreed: Ts,
    now: Ts,
) -> Option<ResultDue> {
    match result_state(pairing, events, now) {
        ResultState::Awaiting => Some(agreed.saturating_add(REPORT_REMINDER))
            .filter(|&at| at > now)
            .map(|at| ResultDue::RemindToReport { at }),
        ResultState::Reported { by, remind_at, .. } if remind_at > now => {
            Some(ResultDue::RemindToConfirm {
                to: pairing.opponent(&by).cloned().unwrap_or(by),
                at: remind_at,
            })
        }
        ResultState::Reported { stands_at, .. } => Some(ResultDue::Stands { at: stands_at }),
        ResultState::Final { .. } | ResultState::Disputed { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_office::time::parse_gmt;

    fn t(s: &str) -> Ts {
        parse_gmt(s).unwrap_or(0)
    }
    fn p(name: &str) -> Player {
        Player::new(name)
    }
    fn pairing() -> Pairing {
        Pairing {
            a: p("Alice"),
            b: p("Bob"),
        }
    }
    const R3: MatchRef = MatchRef {
        stage: Stage::Qualification,
        round: 3,
    };
    fn claim(messages: &[Ts], choice: Option<NoShowChoice>) -> NoShowClaim {
        NoShowClaim {
            claimant: p("Alice"),
            agreed: t("2019-10-10 18:00"),
            messages: messages.to_vec(),
            choice,
        }
    }

    #[test]
    fn acwc_match_rules_a_no_show_second_message_9_minutes_later_is_refused_10_accepted() {
        let first = t("2019-10-10 18:02");
        let got = no_show(&pairing(), R3, &claim(&[first, first + 9 * MINUTE], None));
        assert_eq!(
            got,
            Err(NoShowRefused::SecondTooSoon {
                second: first + 9 * MINUTE,
                earliest: first + 10 * MINUTE,
            })
        );
        assert!(
            got.map_err(|e| e.to_string())
                .unwrap_err()
                .contains("less than 10 minutes")
        );
        let ok = claim(&[first, first + 10 * MINUTE], Some(NoShowChoice::ClaimWin));
        assert_eq!(
            no_show(&pairing(), R3, &ok),
            Ok(NoShowOutcome::Win(Forfeit {
                at_match: R3,
                winner: p("Alice"),
                forfeited: p("Bob"),
                why: ForfeitWhy::NoShow,
            }))
        );
        // A message in between does not spoil a valid second.
        let between = claim(&[first, first + 5 * MINUTE, first + 11 * MINUTE], None);
        assert_eq!(
            no_show(&pairing(), R3, &between),
            Ok(NoShowOutcome::AwaitingChoice)
        );
    }

    #[test]
    fn acwc_match_rules_a_no_show_claim_is_timed_from_the_agreed_time() {
        let agreed = t("2019-10-10 18:00");
        assert_eq!(
            no_show(&pairing(), R3, &claim(&[agreed], None)),
            Ok(NoShowOutcome::AwaitingSecond {
                from: agreed + 10 * MINUTE,
                by: agreed + 30 * MINUTE,
            })
        );
        assert!(matches!(
            no_show(&pairing(), R3, &claim(&[agreed - MINUTE], None)),
            Err(NoShowRefused::BeforeTheTime { .. })
        ));
        assert!(matches!(
            no_show(&pairing(), R3, &claim(&[agreed + 31 * MINUTE], None)),
            Err(NoShowRefused::FirstTooLate { .. })
        ));
        assert!(matches!(
            no_show(
                &pairing(),
                R3,
                &claim(&[agreed, agreed + 31 * MINUTE], None)
            ),
            Err(NoShowRefused::SecondTooLate { .. })
        ));
        assert_eq!(
            no_show(&pairing(), R3, &claim(&[], None)),
            Err(NoShowRefused::NoMessage)
        );
        let mut stranger = claim(&[agreed], None);
        stranger.claimant = p("Carol");
        assert!(matches!(
            no_show(&pairing(), R3, &stranger),
            Err(NoShowRefused::NotInMatch { .. })
        ));
    }

    #[test]
    fn acwc_match_rules_rescheduling_that_fails_forfeits_in_favour_of_the_appearing_player() {
        let agreed = t("2019-10-10 18:00");
        let c = claim(
            &[agreed, agreed + 10 * MINUTE],
            Some(NoShowChoice::Reschedule),
        );
        assert_eq!(
            no_show(&pairing(), R3, &c),
            Ok(NoShowOutcome::Reschedule {
                appearing: p("Alice"),
                absent: p("Bob"),
            })
        );
        let f = rescheduling_failed(R3, &p("Alice"), &p("Bob"));
        assert_eq!(f.winner, p("Alice"));
        assert_eq!(f.forfeited, p("Bob"));
        assert_eq!(f.why, ForfeitWhy::ReschedulingFailed);
    }

    #[test]
    fn acwc_match_rules_two_forfeits_in_different_matches_disqualify() {
        let r5 = MatchRef {
            stage: Stage::Qualification,
            round: 5,
        };
        let forfeit = |m: MatchRef, winner: &str, loser: &str| Forfeit {
            at_match: m,
            winner: p(winner),
            forfeited: p(loser),
            why: ForfeitWhy::NoShow,
        };
        let one = [forfeit(R3, "Alice", "Bob"), forfeit(R3, "Alice", "Bob")];
        assert_eq!(two_forfeits(&one), Vec::new());
        let two = [
            forfeit(R3, "Alice", "Bob"),
            forfeit(R3, "Dan", "Carol"),
            forfeit(r5, "Eve", "Bob"),
        ];
        assert_eq!(
            two_forfeits(&two),
            vec![TwoForfeits {
                player: p("Bob"),
                matches: [R3, r5],
            }]
        );
        assert_eq!(
            Disqualification::TwoForfeits.to_string(),
            "forfeited in two different matches (ACWC Match rules)"
        );
    }

    fn record(round: u32, a: &str, b: &str, score: Option<(u32, u32)>) -> MatchRecord {
        MatchRecord {
            round,
            a: p(a),
            b: p(b),
            score: score.map(|(a, b)| Score { a, b }),
        }
    }

    #[test]
    fn acwc_disqualification_and_withdrawals_qualification_engine_mark_reverses_finished_matches() {
        let matches = [
            record(1, "Bob", "Alice", Some((11, 3))),  // Bob won
            record(2, "Carol", "Bob", Some((10, 10))), // tie
            record(3, "Bob", "Dan", Some((4, 11))),    // Bob lost
            record(4, "Eve", "Bob", None),             // uncompleted
            record(4, "Alice", "Dan", Some((11, 0))),  // not Bob's
        ];
        let engine = qualification_departure(
            &p("Bob"),
            Departure::Disqualified(Disqualification::Engine),
            &matches,
        );
        assert_eq!(engine.excluded, p("Bob"));
        assert_eq!(
            engine.adjudications,
            vec![
                Adjudication::FinishedToOpponent {
                    round: 1,
                    winner: p("Alice"),
                    was: Score { a: 11, b: 3 },
                },
                Adjudication::FinishedToOpponent {
                    round: 2,
                    winner: p("Carol"),
                    was: Score { a: 10, b: 10 },
                },
                Adjudication::UncompletedWonByOpponent {
                    round: 4,
                    winner: p("Eve"),
                },
            ]
        );
        // A booster mark or a withdrawal: only the uncompleted pairing goes to the opponent.
        for d in [
            Departure::Disqualified(Disqualification::Booster),
            Departure::Withdrawal,
        ] {
            assert_eq!(
                qualification_departure(&p("Bob"), d, &matches).adjudications,
                vec![Adjudication::UncompletedWonByOpponent {
                    round: 4,
                    winner: p("Eve"),
                }]
            );
        }
    }

    #[test]
    fn acwc_disqualification_and_withdrawals_candidates_games_are_disregarded() {
        let matches = [
            record(1, "Bob", "Alice", Some((11, 9))),
            record(1, "Carol", "Dan", Some((10, 10))),
            record(2, "Dan", "Bob", None),
        ];
        assert_eq!(
            candidates_departure(&p("Bob"), &matches),
            vec![matches[0].clone(), matches[2].clone()]
        );
    }

    #[test]
    fn acwc_disqualification_and_withdrawals_finals_substitutions() {
        let seats = Finalists {
            holder: p("arimakat"),
            challenger: p("Alice"),
            runner_up: p("Bob"),
        };
        assert_eq!(
            final_departure(&seats, &p("arimakat")),
            Ok(FinalChange::ChallengerPlaysRunnerUp {
                challenger: p("Alice"),
                runner_up: p("Bob"),
            })
        );
        assert_eq!(
            final_departure(&seats, &p("Alice")),
            Ok(FinalChange::RunnerUpBecomesChallenger {
                holder: p("arimakat"),
                challenger: p("Bob"),
            })
        );
        assert_eq!(
            final_departure(&seats, &p("Bob")),
            Ok(FinalChange::NoSubstitute)
        );
        assert_eq!(
            final_departure(&seats, &p("Carol")),
            Err(NotAFinalist(p("Carol")))
        );
    }

    #[test]
    fn acwc_match_rules_a_result_reported_then_confirmed_disputed_or_left_unanswered() {
        let pr = pairing();
        let at = t("2019-10-10 20:00");
        let score = Score { a: 11, b: 7 };
        assert_eq!(score.to_string(), "5½–3½");
        let report = ResultEvent::Report {
            by: p("Alice"),
            at,
            score,
        };
        assert_eq!(
            check_result(&pr, &[], &ResultEvent::Confirm { by: p("Bob"), at }),
            Err(ResultRefused::NothingReported)
        );
        let log = vec![report];
        assert_eq!(
            check_result(&pr, &log, &ResultEvent::Confirm { by: p("Alice"), at }),
            Err(ResultRefused::OwnReport)
        );
        // Confirmed.
        let confirmed = [
            log.clone(),
            vec![ResultEvent::Confirm {
                by: p("Bob"),
                at: at + HOUR,
            }],
        ]
        .concat();
        assert_eq!(
            result_state(&pr, &confirmed, at + HOUR),
            ResultState::Final {
                score,
                how: Settled::Confirmed { by: p("Bob") }
            }
        );
        // Disputed by another score: the TD rules.
        let other = Score { a: 10, b: 8 };
        let disputed = [
            log.clone(),
            vec![ResultEvent::Report {
                by: p("Bob"),
                at: at + HOUR,
                score: other,
            }],
        ]
        .concat();
        assert_eq!(
            result_state(&pr, &disputed, at + HOUR),
            ResultState::Disputed {
                reported: score,
                by: p("Alice"),
                disputed_by: p("Bob"),
            }
        );
        let ruling = ResultEvent::Ruling {
            at: at + 2 * HOUR,
            score: other,
        };
        assert_eq!(check_result(&pr, &disputed, &ruling), Ok(()));
        assert_eq!(
            check_result(&pr, &log, &ruling),
            Err(ResultRefused::NoDispute)
        );
        // Unanswered: a reminder to Bob after 24 hours, and the report stands after 48.
        assert_eq!(
            result_due(&pr, &log, at - 2 * HOUR, at),
            Some(ResultDue::RemindToConfirm {
                to: p("Bob"),
                at: at + 24 * HOUR
            })
        );
        assert_eq!(
            result_due(&pr, &log, at - 2 * HOUR, at + 25 * HOUR),
            Some(ResultDue::Stands { at: at + 48 * HOUR })
        );
        assert_eq!(
            result_state(&pr, &log, at + 48 * HOUR),
            ResultState::Final {
                score,
                how: Settled::Unanswered
            }
        );
        let late = ResultEvent::Dispute {
            by: p("Bob"),
            at: at + 49 * HOUR,
        };
        assert_eq!(
            check_result(&pr, &log, &late),
            Err(ResultRefused::AlreadyFinal { score })
        );
        // Nothing reported a day after the match: both reminded.
        assert_eq!(
            result_due(&pr, &[], at - 2 * HOUR, at),
            Some(ResultDue::RemindToReport { at: at + 22 * HOUR })
        );
    }
}
