//! `Rule-change:` (Nomic 107): a proposal checked (Nomic 103, 109, 111, 201, 202, 211 in
//! `nomic::proposal`), kept as submitted whether proper or not (Nomic 202 counts only the day's
//! first), and, if proper, numbered (Nomic 109), put to the vote in the office's tables with
//! the threshold Nomic 204 and 111 give it, and mailed to every player; if not, the proposer
//! is told why, and it has no number.

use super::proven::{PlayerMail, Verdict};
use super::store::{self, Conn, ProposalKind};
use crate::ballot::{Threshold, VoterId, VotingRule};
use crate::engine::{EngineError, Result};
use crate::nomic::circuit::adoption_204;
use crate::nomic::grammar::RuleChange;
use crate::nomic::proposal::{Context, Improper, Submission, check_proposal};
use crate::nomic::uk_time::{end_of_uk_day, start_of_uk_day, to_uk};
use crate::nomic::votes::put_to_vote;
use crate::outgoing::nomic::compose;
use crate::outgoing::nomic::render::ProposalView;
use crate::ruleset::RuleSet;
use serde::{Deserialize, Serialize};

/// What a Nomic proposal's row keeps as its payload: the change read, and as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Payload {
    pub change: RuleChange,
    pub written: Vec<String>,
}

/// The rule-change as its proposer's line gives it, a paragraph a line.
pub(super) fn written(change: &RuleChange) -> Vec<String> {
    vec![match change {
        RuleChange::Enact { number, text } => format!("Rule-change: enact {number} \"{text}\""),
        RuleChange::Amend { number, text } => format!("Rule-change: amend {number} \"{text}\""),
        RuleChange::Repeal { number } => format!("Rule-change: repeal {number}"),
        RuleChange::Transmute { number } => format!("Rule-change: transmute {number}"),
        RuleChange::Renumber { from, to } => format!("Rule-change: renumber {from} {to}"),
        RuleChange::Set { parameter, value } => {
            format!("Rule-change: set {} {value}", parameter.word())
        }
        RuleChange::FreeText(text) => format!("Rule-change: {text}"),
    }]
}

/// What the change does once adopted, in words (Nomic 103, 109, 110, 111).
pub(super) fn effect(change: &RuleChange, number: u32, rules: &RuleSet) -> Vec<String> {
    let mutable = |n: u32| {
        rules
            .current()
            .get(&n)
            .map(|r| r.mutability == crate::ruleset::Mutability::Mutable)
    };
    vec![match change {
        RuleChange::Enact { .. } => {
            format!("If adopted, it enacts a new mutable rule, numbered {number} (Nomic 103, 109).")
        }
        RuleChange::Amend { number: n, .. } => format!(
            "If adopted, it amends rule {n}, which then takes this proposal's number, {number} \
             (Nomic 109)."
        ),
        RuleChange::Repeal { number: n } => format!("If adopted, it repeals rule {n} (Nomic 103)."),
        RuleChange::Transmute { number: n } => match mutable(*n) {
            Some(false) => format!(
                "If adopted, it transmutes immutable rule {n} into a mutable rule numbered \
                 {number}: this needs every eligible vote (Nomic 111)."
            ),
            _ => format!(
                "If adopted, it transmutes mutable rule {n} into an immutable rule numbered \
                 {number} (Nomic 103, 109)."
            ),
        },
        RuleChange::Renumber { from, to } => format!(
            "If adopted, rule {from} becomes rule {to}, and every reference to it is rewritten \
             (Nomic 110)."
        ),
        RuleChange::Set { parameter, value } => format!(
            "If adopted, the game's {} becomes {value}, and the game follows it from then on.",
            parameter
        ),
        RuleChange::FreeText(_) => "Its effect is not one of the forms the GM's software reads: \
             if adopted, the GM carries it out and confirms it (Nomic 107: the proposer decides \
             the form of the proposal)."
            .to_string(),
    }]
}

/// A threshold in words, with its rule.
pub(super) fn threshold_words(rule: &VotingRule) -> String {
    match rule.threshold {
        Threshold::Unanimity => {
            "It is adopted only if every player votes for it (Nomic 111).".to_string()
        }
        Threshold::UnanimityOfVotesCast => {
            "It is adopted if the votes cast are unanimous (Nomic 204).".to_string()
        }
        Threshold::SimpleMajority => {
            "It is adopted by a simple majority of the votes cast (Nomic 204).".to_string()
        }
        other => format!("Threshold: {other:?}."),
    }
}

/// `Rule-change:` from the mail's player.
pub(super) async fn propose(
    c: &mut Conn,
    m: &PlayerMail<'_>,
    change: &RuleChange,
) -> Result<Verdict> {
    let (g, at) = (m.g, m.at);
    let house = super::rules_of(g)?;
    let seats = super::seats_of(c, &g.id).await?;
    let start = super::started_at(c, &g.id).await?;
    let today = start_of_uk_day(to_uk(at).date);
    let earlier: Vec<Submission> = store::submissions_of(c, &g.id, &m.player.power, today)
        .await?
        .into_iter()
        .map(|s| Submission {
            player: VoterId::new(s.player),
            at: s.at,
        })
        .collect();
    let last = store::last_proposal_number(c, &g.id)
        .await?
        .and_then(|n| u32::try_from(n).ok());
    let rules = store::rule_set(c, &g.id).await?;
    let closes = end_of_uk_day(at);
    let circuits = house.settings.circuits_to_majority;
    let adoption = adoption_204(&seats, start, closes, super::amended_204(&rules), circuits);
    let ctx = Context {
        seats: &seats,
        start,
        earlier: &earlier,
        last_number: last,
        rules: &rules,
        adoption,
        settings: &house.settings,
    };
    let voter = VoterId::new(m.player.power.clone());
    let written = written(change);
    let text = written.join("\n");
    let proper = match check_proposal(&ctx, &voter, at, change) {
        Ok(p) => p,
        Err(why) => {
            let why = improper(&why);
            store::add_submission(c, &g.id, &m.player.power, at, &text, Err(&why)).await?;
            return Ok(Err(format!(
                "your rule-change is not a proper proposal: {why}"
            )));
        }
    };
    let mut effect = effect(change, proper.number, &rules);
    // Nomic 204 amended: its new text decides, as the GM reads it; until the GM sets the
    // game's numbers otherwise, the threshold is the one the settings give.
    let rule = match proper.voting {
        Some(rule) => rule,
        None => {
            effect.push(
                "Rule 204 has been changed by a proposal: the threshold is the one the game's \
                 settings give (circuits-to-majority), which the GM SETs to follow the rule's \
                 new text."
                    .to_string(),
            );
            let fallback = adoption_204(&seats, start, closes, None, circuits);
            crate::nomic::proposal::voting_rule(change, &rules, fallback).ok_or_else(|| {
                EngineError::Refused("no threshold for a proposal (Nomic 204)".to_string())
            })?
        }
    };
    let payload = serde_json::to_value(Payload {
        change: change.clone(),
        written: written.clone(),
    })?;
    let poll = put_to_vote(proper.number, payload, &seats, at, rule)
        .map_err(|e| EngineError::Refused(format!("proposal {}: {e}", proper.number)))?;
    store::insert_proposal(c, &g.id, ProposalKind::RuleChange, Some(&voter), &poll, at).await?;
    let number = i64::from(proper.number);
    store::add_submission(c, &g.id, &m.player.power, at, &text, Ok(number)).await?;
    store::need_clock_by(c, &g.id, closes).await?;
    let v = ProposalView {
        game: g.id.clone(),
        number: proper.number,
        proposer: m.player.power.clone(),
        written,
        effect,
        threshold: threshold_words(&rule),
        made_at: at,
        closes_at: closes,
    };
    crate::engine::announce::tell_each(c, m.env, g, m.ctx.now, |to| {
        compose::proposal(m.env, g, to, &v)
    })
    .await?;
    Ok(Ok(()))
}

/// Why a submission is no proper proposal, in the words the proposer is told.
fn improper(why: &Improper) -> String {
    why.to_string()
}
