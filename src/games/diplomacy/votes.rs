//! The votes of a phase, due with its deadline (WM IX(2); Maharajiad X): a game-end proposal
//! that passes is published instead of the adjudication, one that fails with it, a house-rule
//! change that passes holds from the next phase on. Never a tally or a name.

use super::turn::{Decision, Turn};
use super::*;
use crate::games::diplomacy::store::EndKind;
use crate::rules::VoteRule;
use crate::votes::{
    Ballot, Proposal, Tally, changed_rules, passes, read_proposal, rule_change_passes, survivors,
    tally,
};

/// What the votes of a phase decided: the proposal that passed, if any (it ends the game), the
/// house rules a passed proposal changed, and a sentence for each other result. Only these
/// results are ever published; `counted` is the store's record of the count.
pub(super) struct Votes {
    pub passed: Option<Proposal>,
    /// Everyone voted to play on (Maharajiad X(1)).
    pub continue_passed: bool,
    /// The rules as passed house-rule proposals changed them (WM IX(5); Maharajiad X(3)).
    pub rules: Option<Rules>,
    pub told: Vec<String>,
    /// What the store records of the count (never published): the proposals that passed, the
    /// ballots deemed cast (WM IX(1)).
    pub counted: store::Counted,
}

/// Count the phase's votes. `nmr`: the powers without orders; `movement`: a movement phase.
pub(super) fn count(t: &Turn<'_>, nmr: &[Power], movement: bool) -> Votes {
    let (rules, map) = (t.rules, t.map);
    let alive = survivors(map, &t.board);
    let mut out = Votes {
        passed: None,
        continue_passed: false,
        rules: None,
        told: Vec::new(),
        counted: store::Counted::default(),
    };
    // Every spelling of a proposal is counted together, each power's last ballot on it
    // (WM IX(2), IX(4)); the ballots come oldest first.
    let cast: Vec<(&str, &str, Ballot)> =
        t.f.votes
            .iter()
            .map(|v| (v.power.as_str(), v.proposal.as_str(), v.ballot))
            .collect();
    let tallies = tally(map, rules, &alive, &cast);
    let mut passed: Vec<&Proposal> = Vec::new();
    for tallied in &tallies {
        let proposal = &tallied.proposal;
        if let Proposal::Rule { option, value } = proposal {
            // WM IX(5): the GM and every player remaining; each passed change builds on the
            // ones before it.
            let base = out.rules.as_ref().unwrap_or(rules);
            match changed_rules(base, option, value) {
                Err(why) => out.told.push(format!(
                    "The proposal of {} failed: {why}.",
                    proposal.describe(map)
                )),
                Ok(new)
                    if rule_change_passes(
                        rules,
                        proposal,
                        &alive,
                        &tallied.ballots,
                        tallied.gm_agrees,
                    ) =>
                {
                    out.told.push(format!(
                        "The proposal of {} has passed, with the GM's agreement (WM IX(5)): it \
                         holds from the next phase on.",
                        proposal.describe(map)
                    ));
                    out.rules = Some(new);
                    passed.push(proposal);
                }
                Ok(_) => out.told.push(failed(map, proposal)),
            }
            continue;
        }
        let passing = passes(rules, proposal, &alive, &tallied.ballots, nmr, movement);
        if passing && !proposal.ends_game() {
            out.continue_passed = true;
            passed.push(proposal);
        } else if passing && out.passed.is_none() {
            out.passed = Some(proposal.clone());
            passed.push(proposal);
        } else {
            out.told.push(failed(map, proposal));
        }
    }
    out.counted = counted(t, &alive, nmr, movement, &tallies, &passed);
    out
}

/// What the store records of a count (never published): every stored spelling of a proposal
/// that passed, and the ballots deemed cast, on the proposal's first spelling: WM IX(1), "for a
/// game end proposal when the vote deadline coincides with a movement deadline and the player
/// also NMRs ... an uncast vote will be deemed to be a vote in favour of the proposal".
fn counted(
    t: &Turn<'_>,
    alive: &[Power],
    nmr: &[Power],
    movement: bool,
    tallies: &[Tally],
    passed: &[&Proposal],
) -> store::Counted {
    let (rules, map) = (t.rules, t.map);
    // Each stored spelling, in the order first voted on, read as the tally read it.
    let mut spellings: Vec<(&str, Proposal)> = Vec::new();
    for v in &t.f.votes {
        if spellings.iter().any(|(s, _)| *s == v.proposal) {
            continue;
        }
        if let Ok(p) = read_proposal(map, rules, &v.proposal) {
            spellings.push((v.proposal.as_str(), p.resolved(alive)));
        }
    }
    let mut out = store::Counted::default();
    for (text, proposal) in &spellings {
        if passed.contains(&proposal) {
            out.passed.push(text.to_string());
        }
    }
    if rules.votes != VoteRule::Wm || !movement {
        return out;
    }
    for tallied in tallies.iter().filter(|x| x.proposal.ends_game()) {
        let Some((first, _)) = spellings.iter().find(|(_, p)| *p == tallied.proposal) else {
            continue;
        };
        for &p in alive.iter().filter(|p| nmr.contains(p)) {
            if !tallied.ballots.iter().any(|b| b.0 == p) {
                out.deemed
                    .push((first.to_string(), map.power_name(p).to_string()));
            }
        }
    }
    out
}

/// A proposal that failed, as published: no tally.
fn failed(map: &Map, proposal: &Proposal) -> String {
    format!(
        "The proposal of {} failed (WM IX(2): no tally is published).",
        proposal.describe(map)
    )
}

/// A game-end proposal passed: instead of the adjudication, every player, observer and master
/// is told that the game has ended, and how, with the final supply centre counts.
pub(super) fn ended_by_vote(t: &Turn<'_>, passed: &Proposal) -> Result<Decision> {
    let map = t.map;
    let how = match passed {
        Proposal::Draw(named) if named.is_empty() => {
            "The proposal of a draw of all survivors has passed: the game ends in a draw \
             (WM IX(4))."
                .to_string()
        }
        Proposal::Draw(named) => {
            let out: Vec<&str> = survivors(map, &t.board)
                .into_iter()
                .filter(|p| !named.contains(p))
                .map(|p| map.power_name(p))
                .collect();
            format!(
                "The proposal of {} has passed: the game ends in that draw, and {} {} presumed \
                 eliminated (WM IX(4)).",
                passed.describe(map),
                if out.is_empty() {
                    "no one".to_string()
                } else {
                    out.join(", ")
                },
                if out.len() == 1 { "is" } else { "are" }
            )
        }
        Proposal::Concede(p) => format!(
            "The proposal of conceding the win to {} has passed: {} wins the game by concession \
             (WM IX(3)).",
            map.power_name(*p),
            map.power_name(*p)
        ),
        // Never passed here: they do not end the game.
        Proposal::Continue | Proposal::Rule { .. } => "The game continues.".to_string(),
    };
    let (end, winner) = match passed {
        Proposal::Concede(p) => (EndKind::ConcededSolo, Some(*p)),
        _ => (EndKind::Vote, None),
    };
    let ended = ended::record(map, &t.board, end, winner, t.board.phase);
    ended::instead(t, &how, ended)
}
