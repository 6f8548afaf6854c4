//! `Vote: Yes` / `Vote: No` (Nomic 113), replying to a proposal: the proposal is the one the
//! subject names (`Proposal 301`, as the reply to its mail keeps it), or the only one open.
//! Every vote mail goes into the voting thread (`nomic_votes`, public in the Nomic), counted
//! or with why not: on a Saturday or Sunday it is void (Nomic 201); the first vote counts and
//! a later one is not counted (Nomic 113, the office's final ballots); after the end of the
//! proposal's day voting is completed (Nomic 113). A counted vote is acknowledged.

use super::proven::{PlayerMail, Verdict};
use super::store::{self, Cast, Conn, VoteChoice, VoteRow};
use crate::ballot::{Choice, VoterId};
use crate::engine::Result;
use crate::nomic::uk_time::uk_weekday;
use crate::nomic::votes::VoteRefused;
use crate::outgoing::nomic::compose;
use crate::outgoing::nomic::render::VoteView;

/// The proposal a subject names: `Proposal 301` (any case), the first such.
pub(super) fn proposal_in_subject(subject: &str) -> Option<i64> {
    let words: Vec<String> = subject
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|ch: char| !ch.is_alphanumeric())
                .to_ascii_lowercase()
        })
        .collect();
    words.windows(2).find_map(|w| {
        (w[0] == "proposal" && !w[1].is_empty() && w[1].len() <= 9)
            .then(|| w[1].parse::<i64>().ok())
            .flatten()
    })
}

/// `Vote: Yes|No` from the mail's player.
pub(super) async fn vote(c: &mut Conn, m: &PlayerMail<'_>, choice: Choice) -> Result<Verdict> {
    let (g, at) = (m.g, m.at);
    let number = match proposal_in_subject(&m.msg.subject) {
        Some(n) => n,
        None => {
            let open = store::open_rule_changes(c, &g.id).await?;
            match open.as_slice() {
                [only] => only.number,
                [] => return Ok(Err("there is no proposal open to vote on".to_string())),
                _ => {
                    return Ok(Err(
                        "several proposals are open: reply to the proposal's own mail, whose \
                         subject names it (\"Proposal 301\")"
                            .to_string(),
                    ));
                }
            }
        }
    };
    let voter = VoterId::new(m.player.power.clone());
    let day = uk_weekday(at);
    let verdict = if day.is_weekend() {
        Err(VoteRefused::Weekend { day }.to_string())
    } else {
        match store::cast_ballot(c, &g.id, number, &voter, choice, at).await? {
            Cast::Recorded(_) => Ok(()),
            Cast::Refused(r) => Err(VoteRefused::Ballot(r).to_string()),
            Cast::NoSuchProposal => {
                return Ok(Err(format!(
                    "there is no proposal {number} in game {}",
                    g.id
                )));
            }
        }
    };
    let stored = match choice {
        Choice::Yes => VoteChoice::Yes,
        _ => VoteChoice::No,
    };
    let row = VoteRow {
        number,
        voter: m.player.power.clone(),
        at,
        choice: stored,
        refused: verdict.as_ref().err().cloned(),
    };
    store::record_vote(c, &g.id, &row).await?;
    if let Err(why) = verdict {
        return Ok(Err(format!(
            "your vote on proposal {number} is not counted: {why}"
        )));
    }
    let closes = store::proposal(c, &g.id, number)
        .await?
        .and_then(|p| p.closes_at)
        .unwrap_or(at);
    let v = VoteView {
        game: g.id.clone(),
        number: u32::try_from(number).unwrap_or(0),
        choice: choice_word(choice).to_string(),
        cast_at: at,
        closes_at: closes,
    };
    let mail = compose::vote(m.env, g, &m.player.address, m.msg, m.ctx.key, &v);
    m.answer(c, mail).await?;
    Ok(Ok(()))
}

/// A choice as the voting thread writes it.
pub(super) fn choice_word(choice: Choice) -> &'static str {
    match choice {
        Choice::Yes => "Yes",
        Choice::No => "No",
        Choice::Abstain => "Abstain",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nomic_113_the_subject_of_a_reply_names_the_proposal() {
        assert_eq!(
            proposal_in_subject("Re: n1: Proposal 301 by Ben P"),
            Some(301)
        );
        assert_eq!(proposal_in_subject("RE: PROPOSAL 17"), Some(17));
        assert_eq!(proposal_in_subject("n1 vote"), None);
        assert_eq!(proposal_in_subject("proposal x"), None);
    }
}
