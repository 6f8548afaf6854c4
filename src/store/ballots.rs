//! The office's proposals and their secret ballots (`office_proposals`, `office_ballots`), for
//! every kind of game. The counting is the pure [`chancery_office::ballot`]: a ballot is taken
//! only once its [`Poll`] counts it ([`cast_ballot`]), and the ballots leave this file only
//! inside a `Poll`, which gives out whether a proposal passed and, where a rule requires them,
//! the counts, never who voted how. No function here returns a voter's ballot.
//!
//! A kind whose votes are due with its turns (Diplomacy: WM IX(2)) keeps them here too, each
//! proposal with its turn (`phase`), and counts them itself when the turn is decided
//! (`diplomacy/votes.rs`); such a proposal has no `closes_at`, so it is never in
//! [`proposals_due`]. A proposal a master refused (`refused_at`) or whose turn a rollback undid
//! (`voided_at`) is never due either.

use super::*;
use chancery_office::ballot::{
    Choice, Disclosure, Poll, Proposal, Recorded, Refused, Revision, Threshold, VoterId, VotingRule,
};
use std::collections::{BTreeSet, HashMap};

/// What a proposal is about, as its kind of game files it (the payload says the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProposalKind {
    /// A change to the game's rule set: a Nomic rule-change (Suber's rule 103), an Agora BT8
    /// proposal to change the regulations.
    RuleChange,
    /// A draw (WM IX(4)).
    Draw,
    /// A win conceded (WM IX(3)).
    Concession,
    /// Play on through a stalemate (Maharajiad X(1)).
    Continue,
    /// A house-rule change (WM IX(5), Maharajiad X(3)).
    HouseRule,
}

/// [`Threshold`] as stored; `more_than_half` keeps its number in `majority_of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteThreshold {
    Unanimity,
    UnanimityBarAbstentions,
    UnanimityOfVotesCast,
    SimpleMajority,
    MoreThanHalf,
}

/// [`Revision`] as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteRevision {
    Replaces,
    Final,
}

/// [`Disclosure`] as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteDisclosure {
    Outcome,
    Counts,
}

/// [`Choice`] as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BallotChoice {
    Yes,
    No,
    Abstain,
}

impl From<Choice> for BallotChoice {
    fn from(c: Choice) -> BallotChoice {
        match c {
            Choice::Yes => BallotChoice::Yes,
            Choice::No => BallotChoice::No,
            Choice::Abstain => BallotChoice::Abstain,
        }
    }
}

impl From<BallotChoice> for Choice {
    fn from(c: BallotChoice) -> Choice {
        match c {
            BallotChoice::Yes => Choice::Yes,
            BallotChoice::No => Choice::No,
            BallotChoice::Abstain => Choice::Abstain,
        }
    }
}

/// A threshold as stored: its kind, and for `more_than_half` the number it is half of.
pub(super) fn stored_threshold(t: Threshold) -> (VoteThreshold, Option<i64>) {
    match t {
        Threshold::Unanimity => (VoteThreshold::Unanimity, None),
        Threshold::UnanimityBarAbstentions => (VoteThreshold::UnanimityBarAbstentions, None),
        Threshold::UnanimityOfVotesCast => (VoteThreshold::UnanimityOfVotesCast, None),
        Threshold::SimpleMajority => (VoteThreshold::SimpleMajority, None),
        Threshold::MoreThanHalf { of } => (VoteThreshold::MoreThanHalf, Some(i64::from(of))),
    }
}

/// One proposal's row. It holds no ballot.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ProposalRow {
    pub id: i64,
    pub game_id: String,
    pub number: i64,
    pub kind: ProposalKind,
    /// JSON: what is proposed.
    pub payload: String,
    pub proposer: Option<String>,
    /// JSON array of the voters who may vote.
    pub electorate: String,
    pub threshold: VoteThreshold,
    pub majority_of: Option<i64>,
    pub revision: VoteRevision,
    pub disclosure: VoteDisclosure,
    pub opens_at: Ts,
    pub closes_at: Option<Ts>,
    pub withdrawn_at: Option<Ts>,
    /// When its result was acted on (announced, applied), and what it was.
    pub decided_at: Option<Ts>,
    #[sqlx(try_from = "crate::store::dialect::MaybeFlag")]
    pub passed: Option<bool>,
    pub created_at: Ts,
}

impl ProposalRow {
    /// The proposal as the office counts it, or why the row does not read back.
    pub fn proposal(&self) -> Result<Proposal<serde_json::Value>> {
        let bad = |what: &str| {
            StoreError::Inconsistent(format!(
                "proposal {} of {}: {what}",
                self.number, self.game_id
            ))
        };
        let threshold = match (self.threshold, self.majority_of) {
            (VoteThreshold::Unanimity, None) => Threshold::Unanimity,
            (VoteThreshold::UnanimityBarAbstentions, None) => Threshold::UnanimityBarAbstentions,
            (VoteThreshold::UnanimityOfVotesCast, None) => Threshold::UnanimityOfVotesCast,
            (VoteThreshold::SimpleMajority, None) => Threshold::SimpleMajority,
            (VoteThreshold::MoreThanHalf, Some(of)) => Threshold::MoreThanHalf {
                of: u32::try_from(of).map_err(|_| bad("majority_of out of range"))?,
            },
            _ => return Err(bad("threshold and majority_of disagree")),
        };
        let electorate: BTreeSet<String> = serde_json::from_str(&self.electorate)?;
        Ok(Proposal {
            number: u32::try_from(self.number).map_err(|_| bad("number out of range"))?,
            payload: serde_json::from_str(&self.payload)?,
            electorate: electorate.into_iter().map(VoterId).collect(),
            rule: VotingRule {
                threshold,
                revision: match self.revision {
                    VoteRevision::Replaces => Revision::Replaces,
                    VoteRevision::Final => Revision::Final,
                },
                disclosure: match self.disclosure {
                    VoteDisclosure::Outcome => Disclosure::Outcome,
                    VoteDisclosure::Counts => Disclosure::Counts,
                },
            },
            opens: self.opens_at,
            closes: self.closes_at,
        })
    }
}

/// A proposal put to the vote in `game`, as `kind`, by `proposer` if a voter proposed it: its
/// row's id. It comes as a [`Poll`], so it was checked ([`Poll::new`]); its ballots, if it has
/// any, are not written here.
pub async fn insert_proposal(
    c: &mut Conn,
    game: &str,
    kind: ProposalKind,
    proposer: Option<&VoterId>,
    poll: &Poll<serde_json::Value>,
    now: Ts,
) -> Result<i64> {
    let p = poll.proposal();
    let (threshold, majority_of) = stored_threshold(p.rule.threshold);
    let electorate: Vec<&str> = p.electorate.iter().map(VoterId::as_str).collect();
    let row = sqlx::query(
        "INSERT INTO office_proposals (game_id, number, kind, payload, proposer, electorate,
             threshold, majority_of, revision, disclosure, opens_at, closes_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         RETURNING id",
    )
    .bind(game)
    .bind(i64::from(p.number))
    .bind(kind)
    .bind(serde_json::to_string(&p.payload)?)
    .bind(proposer.map(VoterId::as_str))
    .bind(serde_json::to_string(&electorate)?)
    .bind(threshold)
    .bind(majority_of)
    .bind(match p.rule.revision {
        Revision::Replaces => VoteRevision::Replaces,
        Revision::Final => VoteRevision::Final,
    })
    .bind(match p.rule.disclosure {
        Disclosure::Outcome => VoteDisclosure::Outcome,
        Disclosure::Counts => VoteDisclosure::Counts,
    })
    .bind(p.opens)
    .bind(p.closes)
    .bind(now)
    .fetch_one(&mut *c)
    .await?;
    Ok(sqlx::Row::try_get(&row, "id")?)
}

/// The highest number a proposal of `game` has, if any (Nomic rule 109: the next proposal
/// takes the next integer, "whether or not the proposal is adopted").
pub async fn last_proposal_number(c: &mut Conn, game: &str) -> Result<Option<i64>> {
    Ok(
        sqlx::query_scalar("SELECT max(number) FROM office_proposals WHERE game_id = $1")
            .bind(game)
            .fetch_one(&mut *c)
            .await?,
    )
}

/// Proposal `number` of `game`, if there is one.
pub async fn proposal(c: &mut Conn, game: &str, number: i64) -> Result<Option<ProposalRow>> {
    Ok(
        sqlx::query_as("SELECT * FROM office_proposals WHERE game_id = $1 AND number = $2")
            .bind(game)
            .bind(number)
            .fetch_optional(&mut *c)
            .await?,
    )
}

/// A ballot as kept: never handed out of this file.
#[derive(sqlx::FromRow)]
struct BallotRow {
    voter: String,
    choice: BallotChoice,
}

/// Proposal `number` of `game` with its ballots, as the office counts them; None if there is
/// no such proposal.
pub async fn poll(
    c: &mut Conn,
    game: &str,
    number: i64,
) -> Result<Option<(ProposalRow, Poll<serde_json::Value>)>> {
    let Some(row) = proposal(c, game, number).await? else {
        return Ok(None);
    };
    let ballots: Vec<BallotRow> =
        sqlx::query_as("SELECT voter, choice FROM office_ballots WHERE proposal_id = $1")
            .bind(row.id)
            .fetch_all(&mut *c)
            .await?;
    let poll = Poll::restore(
        row.proposal()?,
        ballots
            .into_iter()
            .map(|b| (VoterId(b.voter), Choice::from(b.choice))),
        row.withdrawn_at,
    )
    .map_err(|e| StoreError::Inconsistent(format!("proposal {number} of {game}: {e}")))?;
    Ok(Some((row, poll)))
}

/// What became of a ballot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cast {
    /// Counted (and kept), as the voter's first ballot or replacing their earlier one.
    Recorded(Recorded),
    /// Not counted, and nothing written.
    Refused(Refused),
    /// The game has no such proposal.
    NoSuchProposal,
}

/// `voter`'s ballot on proposal `number` of `game`, cast at `at`: kept if the office counts it
/// (a revised ballot replaces the earlier one: one row a voter), else nothing is written.
pub async fn cast_ballot(
    c: &mut Conn,
    game: &str,
    number: i64,
    voter: &VoterId,
    choice: Choice,
    at: Ts,
) -> Result<Cast> {
    let Some((row, mut poll)) = poll(c, game, number).await? else {
        return Ok(Cast::NoSuchProposal);
    };
    let recorded = match poll.cast(voter, choice, at) {
        Ok(r) => r,
        Err(refused) => return Ok(Cast::Refused(refused)),
    };
    sqlx::query(
        "INSERT INTO office_ballots (proposal_id, voter, choice, cast_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (proposal_id, voter) DO UPDATE SET choice = excluded.choice,
             cast_at = excluded.cast_at",
    )
    .bind(row.id)
    .bind(voter.as_str())
    .bind(BallotChoice::from(choice))
    .bind(at)
    .execute(&mut *c)
    .await?;
    Ok(Cast::Recorded(recorded))
}

/// What became of a withdrawal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withdrawal {
    Withdrawn,
    /// Too late (closed) or done already; nothing written.
    Refused(Refused),
    NoSuchProposal,
}

/// Proposal `number` of `game` withdrawn at `at` (Agora BT8), unless it is closed.
pub async fn withdraw_proposal(
    c: &mut Conn,
    game: &str,
    number: i64,
    at: Ts,
) -> Result<Withdrawal> {
    let Some((row, mut poll)) = poll(c, game, number).await? else {
        return Ok(Withdrawal::NoSuchProposal);
    };
    if let Err(refused) = poll.withdraw(at) {
        return Ok(Withdrawal::Refused(refused));
    }
    sqlx::query("UPDATE office_proposals SET withdrawn_at = $1 WHERE id = $2")
        .bind(at)
        .bind(row.id)
        .execute(&mut *c)
        .await?;
    Ok(Withdrawal::Withdrawn)
}

/// What became of a ballot withdrawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BallotWithdrawal {
    /// The voter's ballot no longer counts (Agora BT8: "non-withdrawn votes").
    Withdrawn,
    /// The voter had no ballot on it; nothing written.
    HadNone,
    /// Not open, or not the voter's to vote on; nothing written.
    Refused(Refused),
    NoSuchProposal,
}

/// `voter` withdraws their ballot on proposal `number` of `game` at `at` (Agora BT8), if the
/// office lets them.
pub async fn withdraw_ballot(
    c: &mut Conn,
    game: &str,
    number: i64,
    voter: &VoterId,
    at: Ts,
) -> Result<BallotWithdrawal> {
    let Some((row, mut poll)) = poll(c, game, number).await? else {
        return Ok(BallotWithdrawal::NoSuchProposal);
    };
    match poll.withdraw_ballot(voter, at) {
        Err(refused) => Ok(BallotWithdrawal::Refused(refused)),
        Ok(false) => Ok(BallotWithdrawal::HadNone),
        Ok(true) => {
            sqlx::query("DELETE FROM office_ballots WHERE proposal_id = $1 AND voter = $2")
                .bind(row.id)
                .bind(voter.as_str())
                .execute(&mut *c)
                .await?;
            Ok(BallotWithdrawal::Withdrawn)
        }
    }
}

/// The rule-change proposals of `game` voted on outside its turns (no phase) that are still
/// open: not decided, withdrawn, refused or voided; by number. No ballot.
pub async fn open_rule_changes(c: &mut Conn, game: &str) -> Result<Vec<ProposalRow>> {
    Ok(sqlx::query_as(
        "SELECT * FROM office_proposals
         WHERE game_id = $1 AND kind = 'rule_change' AND phase IS NULL AND decided_at IS NULL
             AND withdrawn_at IS NULL AND refused_at IS NULL AND voided_at IS NULL
         ORDER BY number",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// A passed rule-change proposal and what became of its effect: when it was carried out (a
/// setting waits for the turn's adjudication: Agora BT15) and the masters' confirmation of a
/// free text.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PassedProposal {
    pub id: i64,
    pub game_id: String,
    pub number: i64,
    /// JSON: what was proposed.
    pub payload: String,
    pub proposer: Option<String>,
    pub decided_at: Option<Ts>,
    pub applied_at: Option<Ts>,
    pub confirmed_at: Option<Ts>,
    pub confirmed_by: Option<String>,
    pub confirmation: Option<String>,
}

/// The rule-change proposals of `game` that passed outside its turns, by number.
pub async fn passed_rule_changes(c: &mut Conn, game: &str) -> Result<Vec<PassedProposal>> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, number, payload, proposer, decided_at, applied_at, confirmed_at,
                confirmed_by, confirmation
         FROM office_proposals
         WHERE game_id = $1 AND kind = 'rule_change' AND phase IS NULL AND passed = 1
         ORDER BY number",
    )
    .bind(game)
    .fetch_all(&mut *c)
    .await?)
}

/// Proposal `id`'s effect carried out at `at`.
pub async fn mark_applied(c: &mut Conn, id: i64, at: Ts) -> Result<()> {
    sqlx::query("UPDATE office_proposals SET applied_at = $1 WHERE id = $2")
        .bind(at)
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// A master confirms at `at` that passed proposal `id` was carried out, and how; false if it
/// was confirmed already.
pub async fn confirm_proposal(c: &mut Conn, id: i64, by: &str, what: &str, at: Ts) -> Result<bool> {
    let r = sqlx::query(
        "UPDATE office_proposals SET confirmed_at = $1, confirmed_by = $2, confirmation = $3
         WHERE id = $4 AND confirmed_at IS NULL",
    )
    .bind(at)
    .bind(by)
    .bind(what)
    .bind(id)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Up to `limit` proposals whose vote closed at or before `now` and whose result has not been
/// acted on yet, the earliest first (a tick's list: by index).
pub async fn proposals_due(c: &mut Conn, now: Ts, limit: i64) -> Result<Vec<ProposalRow>> {
    Ok(sqlx::query_as(
        "SELECT * FROM office_proposals
         WHERE closes_at <= $1 AND decided_at IS NULL AND withdrawn_at IS NULL
             AND closes_at IS NOT NULL AND refused_at IS NULL AND voided_at IS NULL
         ORDER BY closes_at, id LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&mut *c)
    .await?)
}

/// The result of proposal `id` acted on at `at`; false if it was already.
pub async fn record_decision(c: &mut Conn, id: i64, passed: bool, at: Ts) -> Result<bool> {
    let r = sqlx::query(
        "UPDATE office_proposals SET decided_at = $1, passed = $2
         WHERE id = $3 AND decided_at IS NULL",
    )
    .bind(at)
    .bind(dialect::Flag(passed))
    .bind(id)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Drop the ballots of the proposals decided before `before`: what each voter chose is kept no
/// longer than what they wrote (`raw_retention_days`); the proposals and their results stay.
pub async fn purge_ballots(c: &mut Conn, before: Ts) -> Result<u64> {
    let r = sqlx::query(
        "DELETE FROM office_ballots WHERE proposal_id IN (
             SELECT id FROM office_proposals WHERE decided_at < $1)",
    )
    .bind(before)
    .execute(&mut *c)
    .await?;
    Ok(r.rows_affected())
}

/// Agora BT8: proposal `id` is to be counted again, and enacted if it still passes, at `at`
/// (an earlier time already set stands).
pub async fn set_check_at(c: &mut Conn, id: i64, at: Ts) -> Result<()> {
    sqlx::query("UPDATE office_proposals SET check_at = coalesce(check_at, $2) WHERE id = $1")
        .bind(id)
        .bind(at)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// A proposal no longer waiting to be counted again (it did not pass after all).
pub async fn clear_check(c: &mut Conn, id: i64) -> Result<()> {
    sqlx::query("UPDATE office_proposals SET check_at = NULL WHERE id = $1")
        .bind(id)
        .execute(&mut *c)
        .await?;
    Ok(())
}

/// The proposals of `games` (a JSON array of ids) still open whose count is due by `now`:
/// (game, number), in order.
pub async fn checks_due(c: &mut Conn, games: &str, now: Ts) -> Result<Vec<(String, i64)>> {
    let rows = sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT p.game_id, p.number FROM ",
            json_values!(1),
            " j JOIN office_proposals p ON p.game_id = j.value
         WHERE p.check_at <= $2 AND p.decided_at IS NULL AND p.withdrawn_at IS NULL
         ORDER BY p.game_id, p.number",
        )
    ))
    .bind(games)
    .bind(now)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("game_id")?, r.try_get("number")?)))
        .collect()
}

/// For each of `games` (a JSON array of ids), the earliest count still to come, if any.
pub async fn next_checks(c: &mut Conn, games: &str) -> Result<HashMap<String, Ts>> {
    let rows = sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "SELECT p.game_id, min(p.check_at) AS at FROM ",
            json_values!(1),
            " j JOIN office_proposals p ON p.game_id = j.value
         WHERE p.check_at IS NOT NULL AND p.decided_at IS NULL AND p.withdrawn_at IS NULL
         GROUP BY p.game_id",
        )
    ))
    .bind(games)
    .fetch_all(&mut *c)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("game_id")?, r.try_get("at")?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_threshold_reads_back_as_it_was_stored() {
        for t in [
            Threshold::Unanimity,
            Threshold::UnanimityBarAbstentions,
            Threshold::UnanimityOfVotesCast,
            Threshold::SimpleMajority,
            Threshold::MoreThanHalf { of: 6 },
        ] {
            let (threshold, majority_of) = stored_threshold(t);
            let row = ProposalRow {
                id: 1,
                game_id: "g".into(),
                number: 301,
                kind: ProposalKind::RuleChange,
                payload: "null".into(),
                proposer: None,
                electorate: r#"["A"]"#.into(),
                threshold,
                majority_of,
                revision: VoteRevision::Final,
                disclosure: VoteDisclosure::Counts,
                opens_at: 0,
                closes_at: None,
                withdrawn_at: None,
                decided_at: None,
                passed: None,
                created_at: 0,
            };
            let p = row.proposal().expect("reads back");
            assert_eq!(p.rule.threshold, t);
            assert_eq!(
                (p.rule.revision, p.rule.disclosure),
                (Revision::Final, Disclosure::Counts)
            );
        }
        for c in [Choice::Yes, Choice::No, Choice::Abstain] {
            assert_eq!(Choice::from(BallotChoice::from(c)), c);
        }
    }
}

crate::store::dialect::text_type!(ProposalKind { RuleChange = "rule_change", Draw = "draw", Concession = "concession", Continue = "continue", HouseRule = "house_rule" });

crate::store::dialect::text_type!(VoteThreshold { Unanimity = "unanimity", UnanimityBarAbstentions = "unanimity_bar_abstentions", UnanimityOfVotesCast = "unanimity_of_votes_cast", SimpleMajority = "simple_majority", MoreThanHalf = "more_than_half" });

crate::store::dialect::text_type!(VoteRevision { Replaces = "replaces", Final = "final" });

crate::store::dialect::text_type!(VoteDisclosure { Outcome = "outcome", Counts = "counts" });

crate::store::dialect::text_type!(BallotChoice { Yes = "yes", No = "no", Abstain = "abstain" });
