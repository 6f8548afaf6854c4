//! Votes: Nomic 113 ("A vote is cast by replying with either the message 'Vote: Yes' or
//! 'Vote: No' ... A vote may not be withdrawn. Any messages sent after the player has already
//! used their vote(s) are not counted ... Voting is completed at the end of the day the proposal
//! was submitted"), 201 (weekend messages void), 105 (every player votes), 204 (the threshold,
//! passed in), counted by the office's [`Poll`] with final ballots and the counts disclosed.
//!
//! The Nomic's votes are public (posted in the voting thread), so [`tally`] names who voted
//! against: Nomic 205 pays them.

use crate::Ts;
use crate::circuit::Seats;
use crate::uk_time::{Weekday, end_of_uk_day, uk_weekday};
use chancery_office::ballot::{
    Choice, Outcome, Poll, Proposal, ProposalError, Recorded, Refused, VoterId, VotingRule,
};
use std::fmt;

/// Nomic 113: `Vote: Yes` or `Vote: No` (the words in any case, spaces around them, a full stop
/// after); none for any other line.
pub fn read_vote(line: &str) -> Option<Choice> {
    let line = line.trim().trim_end_matches('.').trim_end();
    let (head, choice) = line.split_once(':')?;
    if !head.trim().eq_ignore_ascii_case("vote") {
        return None;
    }
    match choice.trim().to_ascii_lowercase().as_str() {
        "yes" => Some(Choice::Yes),
        "no" => Some(Choice::No),
        _ => None,
    }
}

/// Nomic 105, 113: a proper proposal put to the vote at `at`: every player votes, the vote opens
/// at once and closes at the end of that UK day.
pub fn put_to_vote<P>(
    number: u32,
    payload: P,
    seats: &Seats,
    at: Ts,
    rule: VotingRule,
) -> Result<Poll<P>, ProposalError> {
    Poll::new(Proposal {
        number,
        payload,
        electorate: seats.electorate(),
        rule,
        opens: at,
        closes: Some(end_of_uk_day(at)),
    })
}

/// Why a vote does not count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteRefused {
    /// Nomic 201: posted on a Saturday or Sunday (UK time), void.
    Weekend { day: Weekday },
    /// Posted after the moment the vote is counted at ([`tally`]'s `now`): not read yet.
    Later,
    /// Nomic 105, 113: the office's reason (not a player, the vote closed, already voted).
    Ballot(Refused),
}

impl fmt::Display for VoteRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VoteRefused::Weekend { day } => write!(
                f,
                "messages on a Saturday or Sunday are void, and it is {day} (Nomic 201)"
            ),
            VoteRefused::Later => f.write_str("not read yet"),
            VoteRefused::Ballot(Refused::AlreadyVoted) => {
                f.write_str("you have voted already, and a vote may not be withdrawn (Nomic 113)")
            }
            VoteRefused::Ballot(Refused::Closed) => f.write_str(
                "voting was completed at the end of the day the proposal was submitted (Nomic 113)",
            ),
            VoteRefused::Ballot(r) => write!(f, "{r} (Nomic 105, 113)"),
        }
    }
}

impl std::error::Error for VoteRefused {}

/// Nomic 113, 201: `voter`'s vote at `at`, counted or refused (and nothing changes).
pub fn cast<P>(
    poll: &mut Poll<P>,
    voter: &VoterId,
    choice: Choice,
    at: Ts,
) -> Result<Recorded, VoteRefused> {
    let day = uk_weekday(at);
    if day.is_weekend() {
        return Err(VoteRefused::Weekend { day });
    }
    poll.cast(voter, choice, at).map_err(VoteRefused::Ballot)
}

/// One vote message of the voting thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoteMessage {
    pub voter: VoterId,
    pub at: Ts,
    pub choice: Choice,
}

/// A vote counted from the thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Where the vote stands at the moment asked (the result once it closed).
    pub outcome: Outcome,
    /// Each message's verdict, in the order given.
    pub verdicts: Vec<Result<Recorded, VoteRefused>>,
    /// Who voted `Vote: No` in a vote that counted (Nomic 205).
    pub against: Vec<VoterId>,
}

/// Nomic 113: the vote on `poll`'s proposal from its thread's messages, taken in the order they
/// were posted (the first of a player's counts), as it stands at `now`.
pub fn tally<P: Clone>(poll: &Poll<P>, messages: &[VoteMessage], now: Ts) -> Tally {
    let mut poll = poll.clone();
    let mut order: Vec<usize> = (0..messages.len()).collect();
    order.sort_by_key(|&i| messages[i].at);
    let mut verdicts = vec![Err(VoteRefused::Ballot(Refused::Closed)); messages.len()];
    let mut against = Vec::new();
    for i in order {
        let m = &messages[i];
        let verdict = if m.at > now {
            Err(VoteRefused::Later)
        } else {
            cast(&mut poll, &m.voter, m.choice, m.at)
        };
        if verdict.is_ok() && m.choice == Choice::No {
            against.push(m.voter.clone());
        }
        verdicts[i] = verdict;
    }
    Tally {
        outcome: poll.outcome(now),
        verdicts,
        against,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::tests::{gmt, seats_2019};
    use chancery_office::ballot::{Counts, Disclosure, Revision, Threshold};

    fn rule(threshold: Threshold) -> VotingRule {
        VotingRule {
            threshold,
            revision: Revision::Final,
            disclosure: Disclosure::Counts,
        }
    }

    fn v(s: &str) -> VoterId {
        VoterId::new(s)
    }

    fn msg(voter: &str, at: &str, choice: Choice) -> VoteMessage {
        VoteMessage {
            voter: v(voter),
            at: gmt(at),
            choice,
        }
    }

    #[test]
    fn nomic_113_vote_yes_and_vote_no() {
        assert_eq!(read_vote("Vote: Yes"), Some(Choice::Yes));
        assert_eq!(read_vote("  vote:no. "), Some(Choice::No));
        assert_eq!(read_vote("VOTE : YES"), Some(Choice::Yes));
        for other in [
            "Vote: Maybe",
            "Yes",
            "Vote Yes",
            "Rule-change: x",
            "",
            "Vote: Yes please",
        ] {
            assert_eq!(read_vote(other), None, "{other:?}");
        }
    }

    #[test]
    fn nomic_113_the_first_vote_counts_and_voting_closes_at_the_end_of_the_uk_day() {
        let seats = seats_2019();
        let at = gmt("2019-02-13 10:00");
        let poll = put_to_vote(
            301,
            "amend 203",
            &seats,
            at,
            rule(Threshold::UnanimityOfVotesCast),
        )
        .expect("a vote");
        assert_eq!(poll.proposal().closes, Some(gmt("2019-02-14 00:00")));
        let messages = [
            msg("Ben P", "2019-02-13 10:05", Choice::Yes),
            msg("Dave M", "2019-02-13 11:00", Choice::Yes),
            msg("Dave M", "2019-02-13 12:00", Choice::No),
            msg("Chris B", "2019-02-14 00:00", Choice::No),
            msg("Eve", "2019-02-13 12:00", Choice::No),
        ];
        let t = tally(&poll, &messages, gmt("2019-02-14 00:00"));
        assert_eq!(
            t.verdicts,
            vec![
                Ok(Recorded::First),
                Ok(Recorded::First),
                Err(VoteRefused::Ballot(Refused::AlreadyVoted)),
                Err(VoteRefused::Ballot(Refused::Closed)),
                Err(VoteRefused::Ballot(Refused::NotEntitled)),
            ]
        );
        assert_eq!(
            t.outcome,
            Outcome::Closed {
                passed: true,
                counts: Some(Counts { yes: 2, no: 0 })
            }
        );
        assert!(t.against.is_empty());
        assert!(
            VoteRefused::Ballot(Refused::AlreadyVoted)
                .to_string()
                .contains("Nomic 113")
        );
    }

    #[test]
    fn nomic_201_a_vote_posted_on_a_weekend_is_void() {
        let seats = seats_2019();
        // A proposal on Friday 2019-06-07, in BST: voting closes at 23:00 UTC. A vote at 23:30
        // UTC is on Saturday, UK time.
        let at = gmt("2019-06-07 12:00");
        let mut poll =
            put_to_vote(302, (), &seats, at, rule(Threshold::SimpleMajority)).expect("ok");
        assert_eq!(
            cast(&mut poll, &v("Ben P"), Choice::Yes, gmt("2019-06-07 23:30")),
            Err(VoteRefused::Weekend {
                day: Weekday::Saturday
            })
        );
        assert_eq!(
            cast(&mut poll, &v("Ben P"), Choice::Yes, gmt("2019-06-07 22:59")),
            Ok(Recorded::First)
        );
        assert!(
            VoteRefused::Weekend {
                day: Weekday::Sunday
            }
            .to_string()
            .contains("Nomic 201")
        );
    }

    #[test]
    fn nomic_204_205_unanimity_of_the_votes_cast_then_simple_majority_naming_those_against() {
        let seats = seats_2019();
        let at = gmt("2019-03-06 10:00");
        let messages = [
            msg("Ben P", "2019-03-06 10:05", Choice::Yes),
            msg("Dave M", "2019-03-06 11:00", Choice::Yes),
            msg("Chris B", "2019-03-06 12:00", Choice::No),
        ];
        let closes = gmt("2019-03-07 00:00");
        let unanimity =
            put_to_vote(303, (), &seats, at, rule(Threshold::UnanimityOfVotesCast)).expect("ok");
        assert!(matches!(
            tally(&unanimity, &messages, closes).outcome,
            Outcome::Closed { passed: false, .. }
        ));
        let majority =
            put_to_vote(303, (), &seats, at, rule(Threshold::SimpleMajority)).expect("ok");
        let t = tally(&majority, &messages, closes);
        assert_eq!(
            t.outcome,
            Outcome::Closed {
                passed: true,
                counts: Some(Counts { yes: 2, no: 1 })
            }
        );
        assert_eq!(t.against, vec![v("Chris B")]);
        // Before it closes, a message from later is not yet read.
        let early = tally(&majority, &messages, gmt("2019-03-06 11:30"));
        assert_eq!(early.outcome, Outcome::Open);
        assert!(early.against.is_empty());
    }
}
