//! Diplomacy's votes, kept in the office's proposals and ballots (`office_proposals`,
//! `office_ballots`, `store/ballots.rs`): a proposal of a phase is one row, by game, phase and
//! the proposal in its one spelling (WM IX(4): a draw is a set of powers, whatever its words),
//! and each voter's last ballot on it one row (WM IX(2): "players may submit revised votes").
//! They are due with the phase's deadline, which moves (extensions, an NMR's hold), and taken
//! until the phase is adjudicated, so they close with the phase (`phase`), not at `closes_at`;
//! Diplomacy's tick counts them (`games/diplomacy/votes.rs`: every spelling of one proposal
//! together, the players remaining, an NMR's uncast vote), and the count is recorded here: the
//! proposals decided, the ballots an NMR is deemed to have cast (WM IX(1)). A refused proposal
//! (Maharajiad X(2)) and the votes of a phase a rollback undoes (WM D.VIII(1)) count for nothing.
//!
//! An open proposal's row: its phase not yet adjudicated, nor it refused or voided; each
//! statement says so in full, for the `office_proposals_open` index to serve it.
//!
//! Secret: a ballot leaves the store only for the tick's count (`VoteRow`), never in a mail.

use crate::map::Map;
use crate::rules::Rules;
use crate::store::ballots::stored_threshold;
use crate::store::*;
use crate::votes::{self, Ballot, Proposal};
use chancery_office::ballot::Threshold;

/// Who may vote on `proposal` in `game` and the threshold, as the game's map and house rules
/// say (`votes::electorate`: the game's powers, and the GM on a house-rule change, WM IX(5);
/// `votes::threshold`: WM IX(1), Maharajiad X(1)). The rules are read in Rust, never in SQL.
async fn put_to_vote(c: &mut Conn, game: &str, proposal: &str) -> Result<PutToVote> {
    let row = sqlx::query("SELECT variant, rules FROM games WHERE id = $1")
        .bind(game)
        .fetch_one(&mut *c)
        .await?;
    let variant: String = row.try_get("variant")?;
    let map = Map::variant(&variant)
        .ok_or_else(|| StoreError::Inconsistent(format!("game {game}: no variant {variant}")))?;
    let rules: Rules = serde_json::from_str(&row.try_get::<String, _>("rules")?)?;
    // Stored in its one spelling, it reads back; were it not, the powers alone vote.
    let read = Proposal::parse(map, proposal).unwrap_or(Proposal::Draw(Vec::new()));
    let mut electorate = votes::electorate(map, &read);
    electorate.sort();
    Ok(PutToVote {
        kind: kind_of(&read),
        electorate,
        threshold: votes::threshold(&rules),
    })
}

/// A proposal as the office files it: its kind, who may vote, and the threshold.
struct PutToVote {
    kind: ProposalKind,
    electorate: Vec<String>,
    threshold: Threshold,
}

/// A Diplomacy ballot as the office keeps it.
fn choice_of(b: Ballot) -> BallotChoice {
    match b {
        Ballot::Yes => BallotChoice::Yes,
        Ballot::No => BallotChoice::No,
        Ballot::Abstain => BallotChoice::Abstain,
    }
}

/// A ballot the office keeps as Diplomacy counts it.
pub(super) fn ballot_of(c: BallotChoice) -> Ballot {
    match c {
        BallotChoice::Yes => Ballot::Yes,
        BallotChoice::No => Ballot::No,
        BallotChoice::Abstain => Ballot::Abstain,
    }
}

/// What a proposal is filed as: the office's kind of the proposal as read.
fn kind_of(proposal: &Proposal) -> ProposalKind {
    match proposal {
        Proposal::Draw(_) => ProposalKind::Draw,
        Proposal::Concede(_) => ProposalKind::Concession,
        Proposal::Continue => ProposalKind::Continue,
        Proposal::Rule { .. } => ProposalKind::HouseRule,
    }
}

/// The proposal's payload as stored: its one spelling, as a JSON string.
fn payload(proposal: &str) -> Result<String> {
    Ok(serde_json::to_string(proposal)?)
}

/// `voter`'s ballot (`yes`, `no`, `abstain`) on `proposal` (in its one spelling,
/// `votes::Proposal::canonical`) of the phase, cast at `now`: the proposal's row is opened if it
/// is not yet, and a revised ballot replaces the earlier one (WM IX(2)). `voter`: a power, or
/// the GM agreeing to a house-rule change (`votes::GM_BALLOT`, WM IX(5)). A ballot that is none
/// of these is not kept (it would never be counted).
pub async fn cast_vote(
    c: &mut Conn,
    game: &str,
    phase: &str,
    voter: &str,
    proposal: &str,
    ballot: &str,
    now: Ts,
) -> Result<()> {
    let Some(choice) = Ballot::from_stored(&ballot.to_ascii_lowercase()).map(choice_of) else {
        return Ok(());
    };
    let PutToVote {
        kind,
        electorate,
        threshold,
    } = put_to_vote(c, game, proposal).await?;
    let (threshold, majority_of) = stored_threshold(threshold);
    let row = sqlx::query(
        "INSERT INTO office_proposals (game_id, number, kind, payload, electorate, threshold,
             majority_of, revision, disclosure, opens_at, created_at, phase)
         VALUES ($1, (SELECT coalesce(max(number), 0) + 1 FROM office_proposals WHERE game_id = $1),
             $2, $3, $4, $5, $6, 'replaces', 'outcome', $7, $7, $8)
         ON CONFLICT (game_id, phase, payload) WHERE phase IS NOT NULL AND decided_at IS NULL
             AND withdrawn_at IS NULL AND refused_at IS NULL AND voided_at IS NULL
         DO UPDATE SET electorate = excluded.electorate, threshold = excluded.threshold,
             majority_of = excluded.majority_of
         RETURNING id",
    )
    .bind(game)
    .bind(kind)
    .bind(payload(proposal)?)
    .bind(serde_json::to_string(&electorate)?)
    .bind(threshold)
    .bind(majority_of)
    .bind(now)
    .bind(phase)
    .fetch_one(&mut *c)
    .await?;
    let id: i64 = row.try_get("id")?;
    sqlx::query(
        "INSERT INTO office_ballots (proposal_id, voter, choice, cast_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (proposal_id, voter) DO UPDATE SET choice = excluded.choice,
             cast_at = excluded.cast_at",
    )
    .bind(id)
    .bind(voter)
    .bind(choice)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Has the GM refused this proposal (Maharajiad X(2))?
pub async fn proposal_refused(c: &mut Conn, game: &str, proposal: &str) -> Result<bool> {
    Ok(sqlx::query(
        "SELECT 1 FROM office_proposals
         WHERE game_id = $1 AND payload = $2 AND refused_at IS NOT NULL",
    )
    .bind(game)
    .bind(payload(proposal)?)
    .fetch_optional(&mut *c)
    .await?
    .is_some())
}

/// Refuse a proposal as repetitive (Maharajiad X(2)): the votes cast on it are dropped, and later
/// ones are not recorded. Whether it was not refused already.
pub async fn refuse_proposal(
    c: &mut Conn,
    game: &str,
    proposal: &str,
    by: &str,
    now: Ts,
) -> Result<bool> {
    if proposal_refused(c, game, proposal).await? {
        return Ok(false);
    }
    let payload = payload(proposal)?;
    sqlx::query(
        "DELETE FROM office_ballots WHERE proposal_id IN (
             SELECT id FROM office_proposals WHERE game_id = $1 AND payload = $2
                 AND phase IS NOT NULL AND decided_at IS NULL AND withdrawn_at IS NULL
                 AND refused_at IS NULL AND voided_at IS NULL)",
    )
    .bind(game)
    .bind(&payload)
    .execute(&mut *c)
    .await?;
    let open = sqlx::query(
        "UPDATE office_proposals SET refused_at = $3, refused_by = $4
         WHERE game_id = $1 AND payload = $2 AND phase IS NOT NULL AND decided_at IS NULL
             AND withdrawn_at IS NULL AND refused_at IS NULL AND voided_at IS NULL",
    )
    .bind(game)
    .bind(&payload)
    .bind(now)
    .bind(by)
    .execute(&mut *c)
    .await?;
    if open.rows_affected() == 0 {
        // Refused before anyone voted on it: a row of no phase says so.
        let kind = put_to_vote(c, game, proposal).await?.kind;
        sqlx::query(
            "INSERT INTO office_proposals (game_id, number, kind, payload, electorate, threshold,
                 revision, disclosure, opens_at, created_at, refused_at, refused_by)
             VALUES ($1, (SELECT coalesce(max(number), 0) + 1 FROM office_proposals
                          WHERE game_id = $1),
                 $2, $3, '[]', 'unanimity', 'replaces', 'outcome', $4, $4, $4, $5)",
        )
        .bind(game)
        .bind(kind)
        .bind(&payload)
        .bind(now)
        .bind(by)
        .execute(&mut *c)
        .await?;
    }
    Ok(true)
}

/// What the count of a phase's votes decided, as the store records it (never published): the
/// proposals that passed, in their stored spellings, and the ballots deemed cast, (proposal,
/// power): WM IX(1), an NMR's uncast vote on a game-end proposal at a movement deadline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    pub passed: Vec<String>,
    pub deemed: Vec<(String, String)>,
}

/// The votes of the phases adjudicated (`done`: (game, what the count decided)) are spent (WM
/// IX(2)): the ballots deemed cast recorded, each open proposal of those games decided, passed
/// or not. Deemed ballots and passed proposals are rare: one statement each.
pub(super) async fn decide_votes(c: &mut Conn, done: &[(&str, &Counted)], now: Ts) -> Result<()> {
    for (game, counted) in done {
        for (proposal, power) in &counted.deemed {
            sqlx::query(
                "INSERT INTO office_ballots (proposal_id, voter, choice, cast_at, deemed)
                 SELECT id, $3, 'yes', $4, 1 FROM office_proposals
                 WHERE game_id = $1 AND payload = $2 AND phase IS NOT NULL
                     AND decided_at IS NULL AND withdrawn_at IS NULL AND refused_at IS NULL
                     AND voided_at IS NULL
                 ON CONFLICT (proposal_id, voter) DO NOTHING",
            )
            .bind(*game)
            .bind(payload(proposal)?)
            .bind(power)
            .bind(now)
            .execute(&mut *c)
            .await?;
        }
        for proposal in &counted.passed {
            sqlx::query(
                "UPDATE office_proposals SET decided_at = $3, passed = 1
                 WHERE game_id = $1 AND payload = $2 AND phase IS NOT NULL
                     AND decided_at IS NULL AND withdrawn_at IS NULL AND refused_at IS NULL
                     AND voided_at IS NULL",
            )
            .bind(*game)
            .bind(payload(proposal)?)
            .bind(now)
            .execute(&mut *c)
            .await?;
        }
    }
    let games: Vec<&str> = done.iter().map(|(g, _)| *g).collect();
    sqlx::query(crate::store::dialect::sql!(
        c,
        concat!(
            "UPDATE office_proposals SET decided_at = $2, passed = 0
         WHERE game_id IN (SELECT value FROM ",
            json_values!(1),
            ") AND phase IS NOT NULL AND decided_at IS NULL AND withdrawn_at IS NULL
             AND refused_at IS NULL AND voided_at IS NULL",
        )
    ))
    .bind(serde_json::to_string(&games)?)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// A rollback to the phase `seq` (WM D.VIII(1)) undoes it and the phases after it: their votes
/// count for nothing, decided or still open, and their ballots are dropped.
pub(super) async fn void_votes(c: &mut Conn, game: &str, seq: i64, now: Ts) -> Result<()> {
    sqlx::query(
        "DELETE FROM office_ballots WHERE proposal_id IN (
             SELECT id FROM office_proposals WHERE game_id = $1 AND voided_at IS NULL
                 AND phase IN (SELECT phase FROM phases WHERE game_id = $1 AND seq >= $2))",
    )
    .bind(game)
    .bind(seq)
    .execute(&mut *c)
    .await?;
    sqlx::query(
        "UPDATE office_proposals SET voided_at = $3
         WHERE game_id = $1 AND voided_at IS NULL
             AND phase IN (SELECT phase FROM phases WHERE game_id = $1 AND seq >= $2)",
    )
    .bind(game)
    .bind(seq)
    .bind(now)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The ballots a power's player cast on the proposals still open, forgotten when another takes
/// the power over (WM D.IX; Maharajiad B.X: the new player makes their own).
pub(super) async fn forget_votes(c: &mut Conn, game: &str, power: &str) -> Result<()> {
    sqlx::query(
        "DELETE FROM office_ballots WHERE voter = $2 AND proposal_id IN (
             SELECT id FROM office_proposals WHERE game_id = $1 AND phase IS NOT NULL
                 AND decided_at IS NULL AND withdrawn_at IS NULL AND refused_at IS NULL
                 AND voided_at IS NULL)",
    )
    .bind(game)
    .bind(power)
    .execute(&mut *c)
    .await?;
    Ok(())
}
