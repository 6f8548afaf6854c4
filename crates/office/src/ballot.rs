//! Proposals and secret ballots, for every kind of game: Diplomacy's draws and house-rule
//! changes (WM IX; Maharajiad X), the Nomic's rule-changes (Suber's rules 105, 111, 113, 203,
//! 204), the Agora Birthday Tournament's proposals to change its regulations (BT8).
//!
//! A [`Poll`] holds one [`Proposal`] and its ballots. The ballots never leave it: there is no
//! accessor to them, its `Debug` leaves them out, and what it answers ([`Outcome`]) holds whether
//! the proposal passed and, where its rule requires them ([`Disclosure::Counts`]), how many voted
//! for and against; never who voted how (WM IX(2): "the GM will not reveal any information
//! regarding the specific votes of an individual power"; Agora BT8: "The Judge SHALL NOT reveal
//! the votes of specific Contestants"). A voter is told only what became of their own ballot
//! ([`Recorded`], [`Refused`]), when they cast it.

use crate::Ts;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Who may vote: a seat of the game, as the game names it (a Diplomacy power, a Nomic player's
/// seat, a tournament's contestant).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VoterId(pub String);

impl VoterId {
    pub fn new(id: impl Into<String>) -> VoterId {
        VoterId(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for VoterId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A ballot as cast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Yes,
    No,
    /// Cast, but neither for nor against. Where a rule counts "the votes cast" (Nomic 204), an
    /// abstention is none of them (rule 113's note: "Players may abstain by not submitting a
    /// vote").
    Abstain,
}

/// What passes a proposal. A proposal never passes without one vote in favour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threshold {
    /// Every voter entitled votes yes: a no, an abstention or an uncast vote defeats it.
    /// WM IX(1) ("All players remaining in the game must agree upon a proposal unanimously ...
    /// Either an abstention or an unclear vote counts as a negative vote"), IX(4) (game-end
    /// proposals), IX(5) (house-rule changes, with the GM's agreement besides); Suber's Nomic
    /// rule 111 (a transmutation: "unanimous among the eligible voters").
    Unanimity,
    /// Every voter entitled votes and every one who does not abstain votes yes: an abstainer is
    /// left out, an uncast vote is a no. Maharajiad X(1), X(3).
    UnanimityBarAbstentions,
    /// Every vote cast is yes: Suber's Nomic rule 204 as the Initial Set has it ("adopted if and
    /// only if the vote is unanimous among the votes cast at the completion of the vote"). An
    /// abstention or an uncast vote is no vote cast.
    UnanimityOfVotesCast,
    /// More votes cast for than against: Suber's Nomic rule 204 after "the second complete
    /// circuit of turns" ("a simple majority of the votes cast"). An abstention or an uncast
    /// vote is no vote cast.
    SimpleMajority,
    /// More votes in favour than half of `of`: Agora BT8 ("a number of non-withdrawn votes in
    /// favor greater than half the number of Contestants"), `of` being the number of
    /// Contestants, the proposer included though e may not vote on eir own proposal. For a
    /// rule that says "more than half of those entitled", `of` is the electorate's size.
    MoreThanHalf { of: u32 },
}

/// Whether a later ballot of the same voter counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revision {
    /// It replaces the earlier one, until the vote closes: WM IX(2) ("players may submit revised
    /// votes"); Agora BT8 (only "non-withdrawn votes" count). Nothing is then decided before
    /// the vote closes, for any ballot may still change.
    Replaces,
    /// The first one stands and a later one is refused: Suber's Nomic rule 113 ("A vote may not
    /// be withdrawn. Any messages sent after the player has already used their vote(s) are not
    /// counted").
    Final,
}

/// What the result says besides pass or fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disclosure {
    /// Nothing: WM IX(2) ("the GM will not reveal ... the total of votes for or against any
    /// proposal"); Maharajiad X.
    Outcome,
    /// The votes for and against: Agora BT8 ("publishing the new text of the regulations and
    /// the number of votes in favor and against"); Suber's Nomic rule 203, whose points are
    /// counted from them ("Y=number of 'Vote: Yes' votes, and V=total number of votes cast").
    Counts,
}

/// How a proposal is voted on: its rule's threshold, whether a ballot may be revised, and what
/// its result says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VotingRule {
    pub threshold: Threshold,
    pub revision: Revision,
    pub disclosure: Disclosure,
}

/// A proposal put to the vote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proposal<P> {
    /// Its number in the game (Suber's Nomic rule 109: from 301, "the next successive integer"
    /// for each proper proposal, "whether or not the proposal is adopted").
    pub number: u32,
    /// What is proposed, as its kind of game reads it (a rule-change, a draw ...).
    pub payload: P,
    /// Who may vote on it: Nomic rule 105 ("Every player is an eligible voter"); Agora BT8
    /// ("any Contestant other than the Proposer"); WM IX(1) ("All players remaining").
    pub electorate: BTreeSet<VoterId>,
    pub rule: VotingRule,
    /// When the vote opens (Nomic rule 113: "Immediately after a proposal is submitted").
    pub opens: Ts,
    /// When it closes and is counted (Nomic rule 113: "at the end of the day the proposal was
    /// submitted"; WM IX(2): "Votes will be due simultaneously with the next due date for
    /// orders"). None: it stays open until it passes, the moment its threshold is met, or is
    /// withdrawn (Agora BT8: "When a Proposal has received [enough votes] ..., the Judge SHALL,
    /// in a timely fashion, and CAN enact the proposal").
    pub closes: Option<Ts>,
}

/// Why a proposal cannot be put to the vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProposalError {
    /// Its vote would close before it opens.
    ClosesBeforeItOpens,
    /// Nobody may vote on it.
    NobodyMayVote,
}

impl fmt::Display for ProposalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProposalError::ClosesBeforeItOpens => "the vote would close before it opens",
            ProposalError::NobodyMayVote => "nobody may vote on it",
        })
    }
}

impl std::error::Error for ProposalError {}

/// What became of a ballot that counts (told to its voter alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// The voter's first ballot on the proposal.
    First,
    /// It replaces the voter's earlier ballot ([`Revision::Replaces`]).
    Replaced,
}

/// Why a ballot does not count (told to its voter alone); nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The voter may not vote on this proposal.
    NotEntitled,
    /// The vote opens later.
    NotOpen { opens: Ts },
    /// The vote is closed: its deadline passed, or it passed already (Agora BT8).
    Closed,
    /// The proposer withdrew it (Agora BT8).
    Withdrawn,
    /// The voter has voted, and the first ballot stands (Nomic rule 113).
    AlreadyVoted,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::NotEntitled => f.write_str("you may not vote on this proposal"),
            Refused::NotOpen { .. } => f.write_str("the vote on this proposal is not open yet"),
            Refused::Closed => f.write_str("the vote on this proposal is closed"),
            Refused::Withdrawn => f.write_str("this proposal was withdrawn"),
            Refused::AlreadyVoted => f.write_str(
                "you have voted on this proposal already, and a vote may not be changed",
            ),
        }
    }
}

impl std::error::Error for Refused {}

/// The votes for and against, where a rule requires them ([`Disclosure::Counts`]). Abstentions
/// and uncast votes are no votes cast and are not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    pub yes: u32,
    pub no: u32,
}

impl Counts {
    /// The votes cast (Nomic rule 203's V).
    pub fn cast(&self) -> u32 {
        self.yes + self.no
    }
}

/// Where a vote stands. It names nobody: no variant holds a voter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The vote is not open yet.
    NotOpen,
    /// Open, and what is still to come (uncast votes, and revised ones where a ballot may be
    /// revised) could pass or defeat it.
    Open,
    /// Open, but nothing still to come can change whether it passes: the result may be
    /// announced early. Ballots are taken until it closes (Nomic rule 113: voting "is completed
    /// at the end of the day"), so the counts are not given yet.
    Settled { passes: bool },
    /// Closed and counted; the counts where the rule requires them.
    Closed {
        passed: bool,
        counts: Option<Counts>,
    },
    /// Withdrawn by its proposer before it closed (Agora BT8).
    Withdrawn,
}

/// How many of the electorate stand where.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Count {
    yes: u32,
    no: u32,
    abstain: u32,
    uncast: u32,
}

impl Threshold {
    /// Does a vote with these numbers pass, counted as it closes?
    fn passes(self, c: Count) -> bool {
        if c.yes == 0 {
            return false;
        }
        match self {
            Threshold::Unanimity => c.no == 0 && c.abstain == 0 && c.uncast == 0,
            Threshold::UnanimityBarAbstentions => c.no == 0 && c.uncast == 0,
            Threshold::UnanimityOfVotesCast => c.no == 0,
            Threshold::SimpleMajority => c.yes > c.no,
            Threshold::MoreThanHalf { of } => 2 * u64::from(c.yes) > u64::from(of),
        }
    }
}

/// One proposal and its secret ballots.
#[derive(Clone)]
pub struct Poll<P> {
    proposal: Proposal<P>,
    /// Each voter's ballot that counts. Private, and never handed out.
    ballots: BTreeMap<VoterId, Choice>,
    withdrawn: Option<Ts>,
}

/// The proposal and how many ballots it has; never whose they are or what they say.
impl<P: fmt::Debug> fmt::Debug for Poll<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Poll")
            .field("number", &self.proposal.number)
            .field("payload", &self.proposal.payload)
            .field("rule", &self.proposal.rule)
            .field("ballots", &self.ballots.len())
            .field("withdrawn", &self.withdrawn)
            .finish()
    }
}

impl<P> Poll<P> {
    /// A proposal put to the vote, with no ballot yet.
    pub fn new(proposal: Proposal<P>) -> Result<Poll<P>, ProposalError> {
        Poll::restore(proposal, std::iter::empty(), None)
    }

    /// A vote as it was kept: the ballots that counted, each voter's last, and when the
    /// proposal was withdrawn if it was. A ballot of someone outside the electorate is not
    /// counted (`cast` never took one).
    pub fn restore(
        proposal: Proposal<P>,
        ballots: impl IntoIterator<Item = (VoterId, Choice)>,
        withdrawn: Option<Ts>,
    ) -> Result<Poll<P>, ProposalError> {
        if proposal.closes.is_some_and(|c| c <= proposal.opens) {
            return Err(ProposalError::ClosesBeforeItOpens);
        }
        if proposal.electorate.is_empty() {
            return Err(ProposalError::NobodyMayVote);
        }
        let ballots = ballots
            .into_iter()
            .filter(|(voter, _)| proposal.electorate.contains(voter))
            .collect();
        Ok(Poll {
            proposal,
            ballots,
            withdrawn,
        })
    }

    pub fn proposal(&self) -> &Proposal<P> {
        &self.proposal
    }

    /// When it was withdrawn, if it was.
    pub fn withdrawn(&self) -> Option<Ts> {
        self.withdrawn
    }

    /// How many ballots count (for a "N voted" line; never whose).
    pub fn ballots_cast(&self) -> usize {
        self.ballots.len()
    }

    /// Take `voter`'s ballot, cast at `at`: counted, replacing their earlier one where the rule
    /// allows it; or refused, and nothing changes.
    pub fn cast(&mut self, voter: &VoterId, choice: Choice, at: Ts) -> Result<Recorded, Refused> {
        if !self.proposal.electorate.contains(voter) {
            return Err(Refused::NotEntitled);
        }
        match self.outcome(at) {
            Outcome::NotOpen => {
                return Err(Refused::NotOpen {
                    opens: self.proposal.opens,
                });
            }
            Outcome::Withdrawn => return Err(Refused::Withdrawn),
            Outcome::Closed { .. } => return Err(Refused::Closed),
            Outcome::Open | Outcome::Settled { .. } => {}
        }
        match (self.ballots.get(voter), self.proposal.rule.revision) {
            (Some(_), Revision::Final) => Err(Refused::AlreadyVoted),
            (Some(_), Revision::Replaces) => {
                self.ballots.insert(voter.clone(), choice);
                Ok(Recorded::Replaced)
            }
            (None, _) => {
                self.ballots.insert(voter.clone(), choice);
                Ok(Recorded::First)
            }
        }
    }

    /// `voter` withdraws their ballot at `at` (Agora BT8 counts "non-withdrawn votes"): true if
    /// they had one, false if they had none; refused, and nothing changes, where a ballot may
    /// not be revised ([`Revision::Final`]) or the vote is no longer open.
    pub fn withdraw_ballot(&mut self, voter: &VoterId, at: Ts) -> Result<bool, Refused> {
        if !self.proposal.electorate.contains(voter) {
            return Err(Refused::NotEntitled);
        }
        match self.outcome(at) {
            Outcome::NotOpen => {
                return Err(Refused::NotOpen {
                    opens: self.proposal.opens,
                });
            }
            Outcome::Withdrawn => return Err(Refused::Withdrawn),
            Outcome::Closed { .. } => return Err(Refused::Closed),
            Outcome::Open | Outcome::Settled { .. } => {}
        }
        if self.proposal.rule.revision == Revision::Final && self.ballots.contains_key(voter) {
            return Err(Refused::AlreadyVoted);
        }
        Ok(self.ballots.remove(voter).is_some())
    }

    /// The proposer withdraws it at `at` (Agora BT8: "Any Contestant CAN withdraw any Proposal
    /// e has submitted"); not once it is closed.
    pub fn withdraw(&mut self, at: Ts) -> Result<(), Refused> {
        match self.outcome(at) {
            Outcome::Withdrawn => Err(Refused::Withdrawn),
            Outcome::Closed { .. } => Err(Refused::Closed),
            Outcome::NotOpen | Outcome::Open | Outcome::Settled { .. } => {
                self.withdrawn = Some(at);
                Ok(())
            }
        }
    }

    /// Count the uncast votes of `voters` as `choice`, as a rule deems them when the vote closes:
    /// WM IX(1), "for a game end proposal when the vote deadline coincides with a movement
    /// deadline and the player also NMRs ... an uncast vote will be deemed to be a vote in
    /// favour of the proposal". A voter who cast a ballot, or may not vote, is left alone.
    pub fn deem_uncast(&mut self, voters: &[VoterId], choice: Choice) {
        for v in voters {
            if self.proposal.electorate.contains(v) && !self.ballots.contains_key(v) {
                self.ballots.insert(v.clone(), choice);
            }
        }
    }

    /// Where the vote stands at `now`: the result once it is closed, or as soon as nothing
    /// still to come can change it ([`Outcome::Settled`]). `now` is not before the last ballot
    /// taken.
    pub fn outcome(&self, now: Ts) -> Outcome {
        if self.withdrawn.is_some_and(|w| now >= w) {
            return Outcome::Withdrawn;
        }
        if now < self.proposal.opens {
            return Outcome::NotOpen;
        }
        let count = self.count();
        let threshold = self.proposal.rule.threshold;
        let closed = |passed: bool| Outcome::Closed {
            passed,
            counts: match self.proposal.rule.disclosure {
                Disclosure::Outcome => None,
                Disclosure::Counts => Some(Counts {
                    yes: count.yes,
                    no: count.no,
                }),
            },
        };
        match self.proposal.closes {
            Some(closes) if now >= closes => return closed(threshold.passes(count)),
            // Agora BT8: it passes the moment its threshold is met.
            None if threshold.passes(count) => return closed(true),
            _ => {}
        }
        // Every threshold passes with more votes in favour and fails with more against, so
        // the best and the worst that is still to come bound the result.
        let (best, worst) = self.bounds(count);
        match (threshold.passes(best), threshold.passes(worst)) {
            (false, _) => Outcome::Settled { passes: false },
            (true, true) => Outcome::Settled { passes: true },
            (true, false) => Outcome::Open,
        }
    }

    /// The electorate's ballots, counted.
    fn count(&self) -> Count {
        let mut c = Count::default();
        for voter in &self.proposal.electorate {
            match self.ballots.get(voter) {
                Some(Choice::Yes) => c.yes += 1,
                Some(Choice::No) => c.no += 1,
                Some(Choice::Abstain) => c.abstain += 1,
                None => c.uncast += 1,
            }
        }
        c
    }

    /// The count if everything still to come (the uncast votes, and the cast ones where a
    /// ballot may be revised) went for the proposal, and if it all went against it.
    fn bounds(&self, c: Count) -> (Count, Count) {
        let (fixed, open) = match self.proposal.rule.revision {
            Revision::Final => (Count { uncast: 0, ..c }, c.uncast),
            Revision::Replaces => (Count::default(), c.yes + c.no + c.abstain + c.uncast),
        };
        let best = Count {
            yes: fixed.yes + open,
            ..fixed
        };
        let worst = Count {
            no: fixed.no + open,
            ..fixed
        };
        (best, worst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: Ts = 3600;
    const OPENS: Ts = 1_000_000;

    fn voters(names: &[&str]) -> BTreeSet<VoterId> {
        names.iter().map(|n| VoterId::new(*n)).collect()
    }

    fn v(name: &str) -> VoterId {
        VoterId::new(name)
    }

    fn poll(
        names: &[&str],
        threshold: Threshold,
        revision: Revision,
        disclosure: Disclosure,
        closes: Option<Ts>,
    ) -> Poll<&'static str> {
        Poll::new(Proposal {
            number: 301,
            payload: "a rule-change",
            electorate: voters(names),
            rule: VotingRule {
                threshold,
                revision,
                disclosure,
            },
            opens: OPENS,
            closes,
        })
        .expect("a proposal")
    }

    /// A Diplomacy vote: WM IX, every power remaining, revisable, counted at the deadline.
    fn wm(names: &[&str]) -> Poll<&'static str> {
        poll(
            names,
            Threshold::Unanimity,
            Revision::Replaces,
            Disclosure::Outcome,
            Some(OPENS + 24 * HOUR),
        )
    }

    /// A Nomic vote: rule 113's final ballots, counted at the end of the day, with the counts
    /// rule 203 needs.
    fn nomic(names: &[&str], threshold: Threshold) -> Poll<&'static str> {
        poll(
            names,
            threshold,
            Revision::Final,
            Disclosure::Counts,
            Some(OPENS + 12 * HOUR),
        )
    }

    fn cast(p: &mut Poll<&'static str>, ballots: &[(&str, Choice)]) {
        for (i, (who, choice)) in ballots.iter().enumerate() {
            p.cast(&v(who), *choice, OPENS + i as Ts + 1)
                .expect("counted");
        }
    }

    #[test]
    fn wm_ix_1_unanimity_an_abstention_a_no_or_an_uncast_vote_defeats_it() {
        let end = OPENS + 24 * HOUR;
        let mut p = wm(&["ENGLAND", "FRANCE", "GERMANY"]);
        cast(&mut p, &[("ENGLAND", Choice::Yes), ("FRANCE", Choice::Yes)]);
        assert_eq!(
            p.outcome(end),
            Outcome::Closed {
                passed: false,
                counts: None
            },
            "an uncast vote defeats it"
        );
        let mut abstains = p.clone();
        abstains
            .cast(&v("GERMANY"), Choice::Abstain, OPENS + 10)
            .expect("counted");
        assert!(matches!(
            abstains.outcome(end),
            Outcome::Closed { passed: false, .. }
        ));
        p.cast(&v("GERMANY"), Choice::Yes, OPENS + 10)
            .expect("counted");
        assert_eq!(
            p.outcome(end),
            Outcome::Closed {
                passed: true,
                counts: None
            },
            "WM IX(2): no totals are revealed"
        );
    }

    #[test]
    fn wm_ix_2_a_revised_ballot_replaces_the_earlier_one_and_nothing_is_decided_before_the_deadline()
     {
        let end = OPENS + 24 * HOUR;
        let mut p = wm(&["ENGLAND", "FRANCE"]);
        assert_eq!(
            p.cast(&v("FRANCE"), Choice::No, OPENS + 1),
            Ok(Recorded::First)
        );
        assert_eq!(
            p.outcome(OPENS + 2),
            Outcome::Open,
            "the no may still be revised"
        );
        assert_eq!(
            p.cast(&v("FRANCE"), Choice::Yes, OPENS + 2),
            Ok(Recorded::Replaced)
        );
        p.cast(&v("ENGLAND"), Choice::Yes, OPENS + 3)
            .expect("counted");
        assert_eq!(p.ballots_cast(), 2, "one ballot a voter");
        assert_eq!(
            p.outcome(OPENS + 4),
            Outcome::Open,
            "every ballot may still be revised until the deadline"
        );
        assert!(matches!(
            p.outcome(end),
            Outcome::Closed { passed: true, .. }
        ));
        assert_eq!(
            p.cast(&v("ENGLAND"), Choice::No, end),
            Err(Refused::Closed),
            "too late: nothing changes"
        );
        assert!(matches!(
            p.outcome(end + 1),
            Outcome::Closed { passed: true, .. }
        ));
    }

    #[test]
    fn wm_ix_1_the_uncast_vote_of_a_player_who_also_nmred_is_deemed_a_yes() {
        let end = OPENS + 24 * HOUR;
        let mut p = wm(&["ENGLAND", "FRANCE", "GERMANY"]);
        cast(&mut p, &[("ENGLAND", Choice::Yes), ("FRANCE", Choice::No)]);
        let mut deemed = p.clone();
        deemed.deem_uncast(&[v("GERMANY"), v("FRANCE"), v("ITALY")], Choice::Yes);
        assert!(
            matches!(deemed.outcome(end), Outcome::Closed { passed: false, .. }),
            "France's no stands"
        );
        p.cast(&v("FRANCE"), Choice::Yes, OPENS + 5)
            .expect("revised");
        assert!(matches!(
            p.outcome(end),
            Outcome::Closed { passed: false, .. }
        ));
        p.deem_uncast(&[v("GERMANY")], Choice::Yes);
        assert!(matches!(
            p.outcome(end),
            Outcome::Closed { passed: true, .. }
        ));
    }

    #[test]
    fn maharajiad_x_1_abstainers_are_left_out_and_an_uncast_vote_is_a_no() {
        let end = OPENS + HOUR;
        let mahar = |ballots: &[(&str, Choice)]| {
            let mut p = poll(
                &["DELHI", "PERSIA", "BAHMANA"],
                Threshold::UnanimityBarAbstentions,
                Revision::Replaces,
                Disclosure::Outcome,
                Some(end),
            );
            cast(&mut p, ballots);
            p.outcome(end)
        };
        use Choice::*;
        let passed = |o: Outcome| matches!(o, Outcome::Closed { passed: true, .. });
        assert!(passed(mahar(&[
            ("DELHI", Yes),
            ("PERSIA", Abstain),
            ("BAHMANA", Yes)
        ])));
        assert!(!passed(mahar(&[("DELHI", Yes), ("PERSIA", Abstain)])));
        assert!(!passed(mahar(&[
            ("DELHI", Abstain),
            ("PERSIA", Abstain),
            ("BAHMANA", Abstain)
        ])));
        assert!(!passed(mahar(&[
            ("DELHI", Yes),
            ("PERSIA", No),
            ("BAHMANA", Yes)
        ])));
    }

    #[test]
    fn nomic_204_unanimity_of_the_votes_cast_settles_on_the_first_no() {
        let end = OPENS + 12 * HOUR;
        let mut p = nomic(
            &["Alex T", "Alex W", "Ben P", "Chris B", "Dave M"],
            Threshold::UnanimityOfVotesCast,
        );
        cast(&mut p, &[("Alex T", Choice::Yes), ("Ben P", Choice::Yes)]);
        assert_eq!(p.outcome(OPENS + 10), Outcome::Open);
        p.cast(&v("Dave M"), Choice::No, OPENS + 11)
            .expect("counted");
        assert_eq!(
            p.outcome(OPENS + 12),
            Outcome::Settled { passes: false },
            "nothing to come can undo a no"
        );
        // Rule 113: the vote goes on to the end of the day, and rule 203 counts every vote.
        p.cast(&v("Alex W"), Choice::Yes, OPENS + 13)
            .expect("still open");
        assert_eq!(
            p.outcome(end),
            Outcome::Closed {
                passed: false,
                counts: Some(Counts { yes: 3, no: 1 })
            }
        );
        // An abstention or an uncast vote is no vote cast: two yes and nothing else pass.
        let mut q = nomic(
            &["Alex T", "Alex W", "Ben P", "Chris B", "Dave M"],
            Threshold::UnanimityOfVotesCast,
        );
        cast(
            &mut q,
            &[
                ("Alex T", Choice::Yes),
                ("Ben P", Choice::Yes),
                ("Dave M", Choice::Abstain),
            ],
        );
        assert_eq!(
            q.outcome(end),
            Outcome::Closed {
                passed: true,
                counts: Some(Counts { yes: 2, no: 0 })
            }
        );
    }

    #[test]
    fn nomic_204_a_simple_majority_of_the_votes_cast_settles_when_the_rest_cannot_change_it() {
        let end = OPENS + 12 * HOUR;
        let mut p = nomic(&["A", "B", "C", "D", "E"], Threshold::SimpleMajority);
        cast(&mut p, &[("A", Choice::Yes), ("B", Choice::Yes)]);
        assert_eq!(
            p.outcome(OPENS + 10),
            Outcome::Open,
            "three votes to come could defeat it"
        );
        p.cast(&v("C"), Choice::Yes, OPENS + 11).expect("counted");
        assert_eq!(
            p.outcome(OPENS + 12),
            Outcome::Settled { passes: true },
            "3 for; 2 against at most"
        );
        p.cast(&v("D"), Choice::No, OPENS + 13).expect("counted");
        assert_eq!(
            p.outcome(end),
            Outcome::Closed {
                passed: true,
                counts: Some(Counts { yes: 3, no: 1 })
            }
        );
        assert_eq!(Counts { yes: 3, no: 1 }.cast(), 4, "rule 203's V");
        // A tie is no majority.
        let mut tie = nomic(&["A", "B", "C", "D"], Threshold::SimpleMajority);
        cast(
            &mut tie,
            &[
                ("A", Choice::Yes),
                ("B", Choice::No),
                ("C", Choice::Abstain),
            ],
        );
        assert!(matches!(
            tie.outcome(end),
            Outcome::Closed { passed: false, .. }
        ));
    }

    #[test]
    fn nomic_113_a_vote_may_not_be_withdrawn_and_voting_ends_with_the_day() {
        let end = OPENS + 12 * HOUR;
        let mut p = nomic(&["A", "B", "C"], Threshold::SimpleMajority);
        assert_eq!(p.cast(&v("A"), Choice::No, OPENS + 1), Ok(Recorded::First));
        assert_eq!(
            p.cast(&v("A"), Choice::Yes, OPENS + 2),
            Err(Refused::AlreadyVoted)
        );
        assert_eq!(p.cast(&v("B"), Choice::Yes, end), Err(Refused::Closed));
        assert_eq!(
            p.cast(&v("B"), Choice::Yes, OPENS - 1),
            Err(Refused::NotOpen { opens: OPENS })
        );
        assert_eq!(
            p.outcome(end),
            Outcome::Closed {
                passed: false,
                counts: Some(Counts { yes: 0, no: 1 })
            },
            "the first ballot stands"
        );
    }

    #[test]
    fn nomic_111_a_transmutation_needs_every_eligible_voter() {
        let end = OPENS + 12 * HOUR;
        let mut p = nomic(&["A", "B", "C"], Threshold::Unanimity);
        cast(&mut p, &[("A", Choice::Yes), ("B", Choice::Yes)]);
        assert_eq!(p.outcome(OPENS + 5), Outcome::Open);
        assert!(matches!(
            p.outcome(end),
            Outcome::Closed { passed: false, .. }
        ));
        p.cast(&v("C"), Choice::Yes, OPENS + 6).expect("counted");
        assert_eq!(
            p.outcome(OPENS + 7),
            Outcome::Settled { passes: true },
            "every eligible voter is in"
        );
    }

    #[test]
    fn agora_bt8_more_than_half_the_contestants_enacts_the_moment_it_is_reached() {
        // Six contestants; the proposer (F) may not vote on eir own proposal, but counts in
        // "the number of Contestants": four votes in favour are needed, where more than half
        // of the five who may vote would be three.
        let mut p = poll(
            &["A", "B", "C", "D", "E"],
            Threshold::MoreThanHalf { of: 6 },
            Revision::Replaces,
            Disclosure::Counts,
            None,
        );
        assert_eq!(
            p.cast(&v("F"), Choice::Yes, OPENS + 1),
            Err(Refused::NotEntitled)
        );
        cast(
            &mut p,
            &[("A", Choice::Yes), ("B", Choice::No), ("C", Choice::Yes)],
        );
        p.cast(&v("D"), Choice::Yes, OPENS + 10).expect("counted");
        assert_eq!(p.outcome(OPENS + 11), Outcome::Open, "three of six");
        p.cast(&v("B"), Choice::Yes, OPENS + 12)
            .expect("a vote may be revised until then");
        assert_eq!(
            p.outcome(OPENS + 13),
            Outcome::Closed {
                passed: true,
                counts: Some(Counts { yes: 4, no: 0 })
            },
            "the Judge publishes the number of votes in favor and against"
        );
        assert_eq!(
            p.cast(&v("A"), Choice::No, OPENS + 14),
            Err(Refused::Closed),
            "enacted: nothing changes it"
        );
        assert_eq!(p.withdraw(OPENS + 15), Err(Refused::Closed));
    }

    #[test]
    fn agora_bt8_a_withdrawn_vote_no_longer_counts() {
        let mut p = poll(
            &["A", "B", "C"],
            Threshold::MoreThanHalf { of: 4 },
            Revision::Replaces,
            Disclosure::Counts,
            None,
        );
        cast(&mut p, &[("A", Choice::Yes), ("B", Choice::Yes)]);
        assert_eq!(p.withdraw_ballot(&v("B"), OPENS + 10), Ok(true));
        assert_eq!(
            p.withdraw_ballot(&v("B"), OPENS + 11),
            Ok(false),
            "none left"
        );
        assert_eq!(
            p.withdraw_ballot(&v("Z"), OPENS + 11),
            Err(Refused::NotEntitled)
        );
        p.cast(&v("C"), Choice::Yes, OPENS + 12).expect("counted");
        assert_eq!(
            p.outcome(OPENS + 13),
            Outcome::Open,
            "two of four: not more than half"
        );
        p.cast(&v("B"), Choice::Yes, OPENS + 14).expect("counted");
        assert_eq!(
            p.outcome(OPENS + 15),
            Outcome::Closed {
                passed: true,
                counts: Some(Counts { yes: 3, no: 0 })
            }
        );
        assert_eq!(p.withdraw_ballot(&v("A"), OPENS + 16), Err(Refused::Closed));
    }

    #[test]
    fn agora_bt8_a_withdrawn_proposal_takes_no_more_votes() {
        let mut p = poll(
            &["A", "B", "C", "D"],
            Threshold::MoreThanHalf { of: 5 },
            Revision::Replaces,
            Disclosure::Counts,
            None,
        );
        cast(&mut p, &[("A", Choice::Yes), ("B", Choice::Yes)]);
        assert_eq!(p.withdraw(OPENS + 20), Ok(()));
        assert_eq!(p.withdrawn(), Some(OPENS + 20));
        assert_eq!(p.outcome(OPENS + 21), Outcome::Withdrawn);
        assert_eq!(
            p.cast(&v("C"), Choice::Yes, OPENS + 21),
            Err(Refused::Withdrawn)
        );
        assert_eq!(p.withdraw(OPENS + 22), Err(Refused::Withdrawn));
    }

    #[test]
    fn no_threshold_passes_without_a_vote_in_favour() {
        for threshold in [
            Threshold::Unanimity,
            Threshold::UnanimityBarAbstentions,
            Threshold::UnanimityOfVotesCast,
            Threshold::SimpleMajority,
            Threshold::MoreThanHalf { of: 0 },
        ] {
            let mut p = poll(
                &["A", "B"],
                threshold,
                Revision::Final,
                Disclosure::Outcome,
                Some(OPENS + HOUR),
            );
            assert!(
                matches!(
                    p.outcome(OPENS + HOUR),
                    Outcome::Closed { passed: false, .. }
                ),
                "{threshold:?} with no ballot"
            );
            cast(&mut p, &[("A", Choice::Abstain), ("B", Choice::Abstain)]);
            assert_eq!(
                p.outcome(OPENS + 10),
                Outcome::Settled { passes: false },
                "{threshold:?}: every ballot is in"
            );
        }
    }

    #[test]
    fn the_result_and_the_poll_name_no_voter() {
        // WM IX(2), Agora BT8: the only way out of a poll is its outcome, which holds no voter;
        // even its debugging form leaves the ballots out.
        let mut p = poll(
            &["FRANCE", "ENGLAND"],
            Threshold::MoreThanHalf { of: 1 },
            Revision::Replaces,
            Disclosure::Counts,
            None,
        );
        cast(&mut p, &[("FRANCE", Choice::No), ("ENGLAND", Choice::Yes)]);
        let shown = format!("{p:?} {:?}", p.outcome(OPENS + 10));
        // Closed, with the counts BT8 publishes, and nothing else.
        assert!(shown.contains("Closed { passed: true, counts: Some(Counts { yes: 1, no: 1 }) }"));
        for secret in ["FRANCE", "ENGLAND", "Yes"] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        assert!(shown.contains("ballots: 2"), "{shown}");
    }

    #[test]
    fn a_proposal_closes_after_it_opens_and_someone_may_vote() {
        let proposal = |electorate: &[&str], closes: Option<Ts>| Proposal {
            number: 1,
            payload: (),
            electorate: voters(electorate),
            rule: VotingRule {
                threshold: Threshold::Unanimity,
                revision: Revision::Final,
                disclosure: Disclosure::Outcome,
            },
            opens: OPENS,
            closes,
        };
        assert_eq!(
            Poll::new(proposal(&["A"], Some(OPENS))).err(),
            Some(ProposalError::ClosesBeforeItOpens)
        );
        assert_eq!(
            Poll::new(proposal(&[], None)).err(),
            Some(ProposalError::NobodyMayVote)
        );
        // A kept ballot of someone outside the electorate is not counted.
        let p = Poll::restore(
            proposal(&["A"], Some(OPENS + 1)),
            [(v("A"), Choice::Yes), (v("Z"), Choice::No)],
            None,
        )
        .expect("restored");
        assert_eq!(p.ballots_cast(), 1);
        assert_eq!(p.outcome(OPENS), Outcome::Settled { passes: true });
    }
}
