//! A contestant's lines on the regulations, from an order mail (Agora BT8): a proposal
//! submitted and announced, a proposal withdrawn by its proposer, a vote sent privately to the
//! Judge (a later ballot replaces the earlier one; `VOTE n WITHDRAW` withdraws it). What each
//! line did is told in the acknowledgement, to its sender alone.

use super::enact;
use crate::config::Env;
use crate::engine::Result;
use crate::games::diplomacy::rules_of;
use crate::games::diplomacy::store::{self, GameRow};
use crate::regulations::{self, Action, ActionLine, Motion, VoteChoice};
use crate::store::Conn;
use crate::time::{Ts, format_gmt};
use chancery_office::ballot::{
    Choice, Disclosure, Outcome, Poll, Proposal, Recorded, Refused, Revision, Threshold, VoterId,
    VotingRule,
};

/// Who sent the lines: a power, and the contestants (the powers still in the game: Agora BT16,
/// "all other Contestants cease to be Contestants").
pub struct Contestant<'a> {
    pub power: &'a str,
    pub contestants: Vec<String>,
}

/// Each regulation line of a mail done in turn: what the acknowledgement says of it.
pub async fn handle(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    who: &Contestant<'_>,
    actions: &[ActionLine],
    now: Ts,
) -> Result<Vec<String>> {
    let mut notes = Vec::with_capacity(actions.len());
    for a in actions {
        let note = match &a.read {
            Err(why) => format!("not understood: {why}"),
            Ok(Action::Propose(m)) => propose(c, env, g, who, m, now).await?,
            Ok(Action::Withdraw(n)) => withdraw(c, env, g, who, *n, now).await?,
            Ok(Action::Vote { proposal, choice }) => {
                vote(c, env, g, who, *proposal, *choice, now).await?
            }
        };
        notes.push(note);
    }
    Ok(notes)
}

/// Agora BT8: "any Contestant CAN submit a Proposal to change these regulations by
/// announcement": numbered in the game, put to the vote of every other contestant, passed by
/// more than half the number of contestants, and announced.
async fn propose(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    who: &Contestant<'_>,
    motion: &Motion,
    now: Ts,
) -> Result<String> {
    if !who.contestants.iter().any(|p| p == who.power) {
        return Ok("refused: only a Contestant may submit a proposal (Agora BT8)".into());
    }
    let current = store::rule_set(c, &g.id).await?;
    if let Err(why) = motion.check(&rules_of(g)?, current.current()) {
        return Ok(format!("refused: {why}"));
    }
    let number = store::last_proposal_number(c, &g.id).await?.unwrap_or(0) + 1;
    let of = u32::try_from(who.contestants.len()).unwrap_or(u32::MAX);
    let proposal = Proposal {
        number: u32::try_from(number).unwrap_or(u32::MAX),
        payload: serde_json::to_value(motion)?,
        electorate: who
            .contestants
            .iter()
            .filter(|p| *p != who.power)
            .map(|p| VoterId::new(p.as_str()))
            .collect(),
        rule: VotingRule {
            threshold: Threshold::MoreThanHalf { of },
            revision: Revision::Replaces,
            disclosure: Disclosure::Counts,
        },
        opens: now,
        closes: None,
    };
    let poll = match Poll::new(proposal) {
        Ok(p) => p,
        Err(why) => return Ok(format!("refused: {why}")),
    };
    let proposer = VoterId::new(who.power);
    let kind = store::ProposalKind::RuleChange;
    store::insert_proposal(c, &g.id, kind, Some(&proposer), &poll, now).await?;
    let headline = format!("Proposal {number}: {}", motion.describe());
    let text = format!(
        "{} submits Proposal {number} to change the regulations (Agora BT8): {}. Any \
         Contestant other than the proposer may vote on it privately, in a mail to the game: \
         VOTE {number} FOR or VOTE {number} AGAINST. It is enacted as soon as more than half of \
         the {of} Contestants have voted for it; no vote is ever published, only the numbers \
         for and against once it is enacted.",
        who.power,
        motion.describe()
    );
    enact::publish(
        c,
        env,
        g,
        &format!("proposal|{number}"),
        &headline,
        &text,
        "",
        now,
    )
    .await?;
    Ok(format!(
        "submitted as Proposal {number}; every Contestant and the Gamemaster are told"
    ))
}

/// Agora BT8: "Any Contestant CAN withdraw any Proposal e has submitted by announcement."
async fn withdraw(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    who: &Contestant<'_>,
    number: u32,
    now: Ts,
) -> Result<String> {
    let n = i64::from(number);
    let Some(row) = regulation_proposal(c, g, n).await? else {
        return Ok(format!("refused: there is no Proposal {number}"));
    };
    if row.proposer.as_deref() != Some(who.power) {
        return Ok(format!(
            "refused: only its proposer may withdraw Proposal {number} (Agora BT8)"
        ));
    }
    match store::withdraw_proposal(c, &g.id, n, now).await? {
        store::Withdrawal::Withdrawn => {}
        store::Withdrawal::Refused(why) => return Ok(format!("refused: {why}")),
        store::Withdrawal::NoSuchProposal => {
            return Ok(format!("refused: there is no Proposal {number}"));
        }
    }
    let headline = format!("Proposal {number} is withdrawn");
    let text = format!(
        "{} withdraws Proposal {number} (Agora BT8); it takes no more votes.",
        who.power
    );
    let key = format!("withdrawn|{number}");
    enact::publish(c, env, g, &key, &headline, &text, "", now).await?;
    Ok(format!("Proposal {number} is withdrawn; everyone is told"))
}

/// A proposal of the regulations (no turn's vote), by number.
async fn regulation_proposal(
    c: &mut Conn,
    g: &GameRow,
    number: i64,
) -> Result<Option<store::ProposalRow>> {
    Ok(store::proposal(c, &g.id, number)
        .await?
        .filter(|r| r.kind == store::ProposalKind::RuleChange))
}

/// Agora BT8: "any Contestant other than the Proposer CAN privately send a vote to the
/// Judge": kept secret, a later ballot replacing the earlier one; once its votes in favour
/// exceed half the number of contestants, the proposal is counted again and enacted by the
/// tick at the next full hour (`enact_due`), never as the deciding vote arrives.
async fn vote(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    who: &Contestant<'_>,
    number: u32,
    choice: VoteChoice,
    now: Ts,
) -> Result<String> {
    let n = i64::from(number);
    let Some(row) = regulation_proposal(c, g, n).await? else {
        return Ok(format!("refused: there is no Proposal {number}"));
    };
    if row.proposer.as_deref() == Some(who.power) {
        return Ok(format!(
            "refused: you may not vote on your own proposal (Agora BT8: \"any Contestant other \
             than the Proposer\"); to take it back, WITHDRAW PROPOSAL {number}"
        ));
    }
    let voter = VoterId::new(who.power);
    let recorded = match choice {
        VoteChoice::For | VoteChoice::Against => {
            let ballot = if choice == VoteChoice::For {
                Choice::Yes
            } else {
                Choice::No
            };
            match store::cast_ballot(c, &g.id, n, &voter, ballot, now).await? {
                store::Cast::Recorded(Recorded::First) => "recorded",
                store::Cast::Recorded(Recorded::Replaced) => {
                    "recorded, in place of your earlier vote"
                }
                store::Cast::Refused(why) => return Ok(refused(why)),
                store::Cast::NoSuchProposal => {
                    return Ok(format!("refused: there is no Proposal {number}"));
                }
            }
        }
        VoteChoice::Withdraw => match store::withdraw_ballot(c, &g.id, n, &voter, now).await? {
            store::BallotWithdrawal::Withdrawn => "withdrawn: it no longer counts",
            store::BallotWithdrawal::HadNone => "nothing to withdraw: you had not voted",
            store::BallotWithdrawal::Refused(why) => return Ok(refused(why)),
            store::BallotWithdrawal::NoSuchProposal => {
                return Ok(format!("refused: there is no Proposal {number}"));
            }
        },
    };
    let mut note = format!(
        "your vote {choice} on Proposal {number}: {recorded} (secret: acknowledged to you \
         alone, never published; Agora BT8)"
    );
    note.push_str(&after_vote(c, env, g, n, now).await?);
    Ok(note)
}

/// Agora BT8: where a proposal stands after a vote, in the voter's acknowledgement: carried
/// (more than half the contestants in favour: counted again and enacted by the tick at the next
/// full hour, never as this vote arrives, so that the enactment's time does not tell whose
/// vote carried it), closed unenacted if it can no longer pass
/// (too few may vote on it), or open, said so (votes may change until it is enacted, so votes
/// against never defeat it; it lapses if the tournament is concluded first:
/// `enact::lapse_open`).
async fn after_vote(c: &mut Conn, env: &Env, g: &GameRow, n: i64, now: Ts) -> Result<String> {
    let Some((row, poll)) = store::poll(c, &g.id, n).await? else {
        return Ok(String::new());
    };
    let number = u32::try_from(n).unwrap_or(u32::MAX);
    Ok(match poll.outcome(now) {
        Outcome::Closed { passed: true, .. } => {
            let at = super::enactment_hour(now);
            store::set_check_at(c, row.id, at).await?;
            store::need_clock_by(c, &g.id, at).await?;
            format!(
                ". Proposal {number} is carried: it is enacted at {}, when everyone is told",
                format_gmt(at)
            )
        }
        Outcome::Settled { passes: false } => {
            enact::lapse(c, env, g, &row, false, now).await?;
            format!(". Proposal {number} can no longer pass and lapses; everyone is told")
        }
        Outcome::Open => {
            let of = match poll.proposal().rule.threshold {
                Threshold::MoreThanHalf { of } => of,
                _ => u32::try_from(poll.proposal().electorate.len() + 1).unwrap_or(u32::MAX),
            };
            format!(". {}", regulations::stays_open(number, of))
        }
        _ => String::new(),
    })
}

/// A refused ballot in words.
fn refused(why: Refused) -> String {
    match why {
        Refused::NotEntitled => {
            "refused: only a Contestant other than the proposer may vote on it (Agora BT8)".into()
        }
        other => format!("refused: {other}"),
    }
}
