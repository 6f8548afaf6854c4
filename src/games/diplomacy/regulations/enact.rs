//! A proposal enacted (Agora BT8: "the Judge SHALL ... enact the proposal by publishing the
//! new text of the regulations and the number of votes in favor and against"): its revisions
//! kept, a setting carried out on the house rules (at once while the turn's orders are open;
//! else once the turn is adjudicated, under the regulations as they were at the end of its
//! ordering period: Agora BT15), a free text left to the Gamemaster to carry out and confirm;
//! and the Gamemaster's own amendments (Agora BT2).

use super::motion_of;
use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce_with;
use crate::engine::office::Done;
use crate::engine::receive::masters_for;
use crate::games::diplomacy::rules_of;
use crate::games::diplomacy::store::{self, GameRow};
use crate::outgoing::diplomacy::compose;
use crate::regulations::{self, Motion, label};
use crate::store::Conn;
use crate::time::Ts;
use chancery_office::ballot::Counts;
use chancery_office::ruleset::{Change, Mutability, Revision, RuleSet};

/// Publish a change of the regulations to every contestant and observer, and to the masters:
/// `text` in words, `message` quoted as written (the new text of the regulations). It names
/// no voter: `key` names the change, never a ballot or the mail that cast it.
#[allow(clippy::too_many_arguments)]
pub(super) async fn publish(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    key: &str,
    headline: &str,
    text: &str,
    message: &str,
    now: Ts,
) -> Result<()> {
    let key = format!("{}|regulations|{key}", g.id);
    announce_with(c, env, g, &key, headline, text, message, None, now).await?;
    let players = store::players(c, &g.id).await?;
    let mut mails = Vec::new();
    for master in masters_for(c, env, Some(g)).await? {
        if players.iter().any(|p| p.address == master) {
            continue;
        }
        let m = compose::announcement(env, g, &master, "UTC", &key, headline, text, message, None);
        // A mail that does not compose is one the players' announcement failed on too.
        if let Ok(m) = m {
            mails.push(m);
        }
    }
    store::enqueue_many(c, &mails, now).await?;
    Ok(())
}

/// A change in words: `BT17 amended`.
pub(super) fn change_words(change: &Change) -> String {
    match change {
        Change::Enact { number, .. } => format!("{} enacted", label(*number)),
        Change::Amend { number, .. } => format!("{} amended", label(*number)),
        Change::Repeal { number } => format!("{} repealed", label(*number)),
        Change::Renumber { from, to } => {
            format!("{} renumbered {}", label(*from), label(*to))
        }
        Change::Transmute { number, to } => format!(
            "{} made {}",
            label(*number),
            match to {
                Mutability::Mutable => "mutable",
                Mutability::Immutable => "immutable",
            }
        ),
    }
}

/// The new text of what `revisions` changed, as published: each regulation as it now stands,
/// or that it is repealed.
fn new_text(rules: &RuleSet, revisions: &[Revision]) -> String {
    let mut out = Vec::new();
    let mut shown: Vec<u32> = Vec::new();
    for r in revisions {
        let number = match &r.change {
            Change::Enact { number, .. }
            | Change::Amend { number, .. }
            | Change::Repeal { number }
            | Change::Transmute { number, .. } => *number,
            Change::Renumber { to, .. } => *to,
        };
        if shown.contains(&number) {
            continue;
        }
        shown.push(number);
        out.push(match rules.current().get(&number) {
            Some(rule) => regulations::show(rule),
            None => format!("Regulation {} is repealed.\n", label(number)),
        });
    }
    out.join("\n")
}

/// Make `changes` at `now` (by `proposal`, if one made them): the revisions kept, and the rule
/// set after them; or why not, and nothing is kept.
async fn revise(
    c: &mut Conn,
    g: &GameRow,
    changes: Vec<Change>,
    proposal: Option<u32>,
    now: Ts,
) -> Result<std::result::Result<(RuleSet, Vec<Revision>), String>> {
    let mut rules = store::rule_set(c, &g.id).await?;
    let before = rules.revisions().len();
    for change in changes {
        if let Err(why) = rules.apply(now, change, proposal) {
            return Ok(Err(why.to_string()));
        }
    }
    let new = rules.revisions()[before..].to_vec();
    store::append_rule_revisions(c, &g.id, &new).await?;
    Ok(Ok((rules, new)))
}

/// Agora BT8: proposal `row` has more votes in favour than half the contestants: it is decided,
/// its revisions kept, its effect carried out (or left waiting), and the new text published
/// with the number of votes for and against.
async fn enact(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    row: &store::ProposalRow,
    counts: Counts,
    now: Ts,
) -> Result<()> {
    if !store::record_decision(c, row.id, true, now).await? {
        return Ok(());
    }
    let number = u32::try_from(row.number).unwrap_or(u32::MAX);
    let motion = motion_of(&row.payload);
    let current = store::rule_set(c, &g.id).await?;
    let changes = motion
        .as_ref()
        .map(|m| m.changes(number, current.current()))
        .unwrap_or_default();
    let tally = format!(
        "with {} vote(s) in favour and {} against (Agora BT8)",
        counts.yes, counts.no
    );
    let what = motion.as_ref().map_or_else(String::new, Motion::describe);
    let headline = format!("Proposal {number} is enacted");
    let (rules, revisions) = match revise(c, g, changes, Some(number), now).await? {
        Ok(done) => done,
        Err(why) => {
            let text = format!(
                "Proposal {number} ({what}) passed {tally}, but the regulations as they now \
                 stand do not allow it ({why}): nothing changed. The Gamemaster is told."
            );
            let key = format!("enacted|{number}");
            let headline = format!("Proposal {number} cannot be enacted");
            return publish(c, env, g, &key, &headline, &text, "", now).await;
        }
    };
    let effect = carry_out(c, g, row, motion.as_ref(), now).await?;
    let text = format!(
        "Proposal {number} ({what}), submitted by {}, is enacted {tally}. {effect} The new \
         text of the regulations follows.",
        row.proposer.as_deref().unwrap_or("a Contestant")
    );
    let message = new_text(&rules, &revisions);
    let key = format!("enacted|{number}");
    publish(c, env, g, &key, &headline, &text, &message, now).await
}

/// What an enacted proposal does besides its text, in words: a setting carried out on the
/// house rules now, if the turn's ordering period is still open, else once the turn is
/// adjudicated (Agora BT15); a free text left to the Gamemaster.
async fn carry_out(
    c: &mut Conn,
    g: &GameRow,
    row: &store::ProposalRow,
    motion: Option<&Motion>,
    now: Ts,
) -> Result<String> {
    match motion {
        Some(Motion::Set { option, value }) => {
            let phase = store::current_phase(c, &g.id).await?;
            match phase {
                Some(p) if now >= p.deadline => Ok(format!(
                    "The ordering period of {} has ended: that turn is resolved under the \
                     regulations as they were at its end, and {option} = {value} holds from \
                     its adjudication on (Agora BT15).",
                    p.phase
                )),
                _ => {
                    let done = set_now(c, g, row.id, option, value, now).await?;
                    Ok(done)
                }
            }
        }
        Some(Motion::Text { .. }) => Ok(format!(
            "It is enacted as text: the Gamemaster carries it out and confirms it \
             (CONFIRM PROPOSAL {} <what was done>).",
            row.number
        )),
        _ => {
            store::mark_applied(c, row.id, now).await?;
            Ok(String::new())
        }
    }
}

/// A setting carried out on the game's house rules at `now`: what the mail says of it.
async fn set_now(
    c: &mut Conn,
    g: &GameRow,
    id: i64,
    option: &str,
    value: &str,
    now: Ts,
) -> Result<String> {
    // The game's row as it stands in this transaction (an earlier SET may have changed it).
    let fresh = store::game(c, &g.id).await?;
    let rules = rules_of(fresh.as_ref().unwrap_or(g))?;
    store::mark_applied(c, id, now).await?;
    match regulations::settable(&rules, option, value) {
        Ok(new) => {
            store::set_rules(c, &g.id, &serde_json::to_string(&new)?).await?;
            Ok(format!("{option} = {value} holds from now on."))
        }
        Err(why) => Ok(format!(
            "The setting could not be carried out ({why}); the Gamemaster is told."
        )),
    }
}

/// Agora BT8: the proposals of `games` whose count is due (a vote brought them over their
/// threshold in the hour before): counted again, and enacted if they still pass (a vote
/// withdrawn or changed since may have taken them back under it).
pub async fn enact_due(c: &mut Conn, env: &Env, games: &[&str], now: Ts) -> Result<()> {
    if games.is_empty() {
        return Ok(());
    }
    let list = serde_json::to_string(games).map_err(crate::store::StoreError::from)?;
    for (game, number) in store::checks_due(c, &list, now).await? {
        let (Some(g), Some((row, poll))) = (
            store::game(c, &game).await?,
            store::poll(c, &game, number).await?,
        ) else {
            continue;
        };
        match poll.outcome(now) {
            chancery_office::ballot::Outcome::Closed {
                passed: true,
                counts: Some(counts),
            } => enact(c, env, &g, &row, counts, now).await?,
            _ => store::clear_check(c, row.id).await?,
        }
    }
    Ok(())
}

/// Agora BT15: the settings enacted after a turn's ordering period ended, carried out once
/// that turn is adjudicated (`games`: the games just adjudicated, under regulations), and
/// announced.
pub async fn apply_pending(c: &mut Conn, env: &Env, games: &[String], now: Ts) -> Result<()> {
    for game in games {
        let Some(g) = store::game(c, game).await? else {
            continue;
        };
        for p in store::passed_rule_changes(c, game).await? {
            let Some(Motion::Set { option, value }) = motion_of(&p.payload) else {
                continue;
            };
            if p.applied_at.is_some() {
                continue;
            }
            let done = set_now(c, &g, p.id, &option, &value, now).await?;
            let text = format!(
                "Proposal {} ({}) was enacted after the ordering period ended; the turn was \
                 resolved under the regulations as they were at its end (Agora BT15). {done}",
                p.number,
                Motion::Set { option, value }.describe()
            );
            let headline = format!("Proposal {} now holds", p.number);
            let key = format!("applied|{}", p.number);
            publish(c, env, &g, &key, &headline, &text, "", now).await?;
        }
    }
    Ok(())
}

/// Agora BT8: proposal `row` fails, not enacted: the tournament was concluded (BT3) while it
/// was still open (`concluded`), or too few may vote on it for it ever to pass. It is decided
/// as not passed and everyone is told, without its counts (`regulations::lapsed`).
pub(super) async fn lapse(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    row: &store::ProposalRow,
    concluded: bool,
    now: Ts,
) -> Result<()> {
    if !store::record_decision(c, row.id, false, now).await? {
        return Ok(());
    }
    let number = u32::try_from(row.number).unwrap_or(u32::MAX);
    let what = motion_of(&row.payload).map_or_else(String::new, |m| m.describe());
    let proposer = row.proposer.as_deref().unwrap_or("a Contestant");
    let text = regulations::lapsed(number, &what, proposer, concluded);
    let headline = format!("Proposal {number} lapses");
    let key = format!("lapsed|{number}");
    publish(c, env, g, &key, &headline, &text, "", now).await
}

/// Agora BT3, BT8: the games just concluded (`games`, run under regulations or not): their
/// proposals still open lapse, not enacted, and everyone is told. BT8 closes a proposal only
/// by its enactment or its withdrawal; once the tournament is concluded nothing more can be
/// enacted, so that is when a proposal short of a majority has failed.
pub async fn lapse_open(c: &mut Conn, env: &Env, games: &[&str], now: Ts) -> Result<()> {
    for game in games {
        let Some(g) = store::game(c, game).await? else {
            continue;
        };
        if rules_of(&g).map_or(true, |r| r.regulations.is_none()) {
            continue;
        }
        for row in store::open_rule_changes(c, game).await? {
            lapse(c, env, &g, &row, true, now).await?;
        }
    }
    Ok(())
}

/// Agora BT2: "The Gamemaster CAN amend the text of these regulations arbitrarily" (and BT5:
/// BT0-BT5 too, "according to the procedures established by Section 2"): a revision of no
/// proposal, noted as the master's, published. An immutable regulation is made mutable,
/// amended and made immutable again, three revisions at one moment.
pub async fn amend_by_gm(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    who: &str,
    number: u32,
    text: Vec<String>,
    now: Ts,
) -> Result<Done> {
    let current = store::rule_set(c, &g.id).await?;
    let Some(rule) = current.current().get(&number) else {
        return Ok(Done::refused(format!(
            "there is no regulation {}",
            label(number)
        )));
    };
    let amend = Change::Amend { number, text };
    let changes = if rule.mutability == Mutability::Immutable {
        let to = |to| Change::Transmute { number, to };
        vec![to(Mutability::Mutable), amend, to(Mutability::Immutable)]
    } else {
        vec![amend]
    };
    let (rules, revisions) = match revise(c, g, changes, None, now).await? {
        Ok(done) => done,
        Err(why) => return Ok(Done::refused(why)),
    };
    for r in &revisions {
        store::set_revision_author(c, &g.id, r.seq, who).await?;
    }
    let name = label(number);
    let text = format!("The Gamemaster amends {name} (Agora BT2). Its new text follows.");
    let message = new_text(&rules, &revisions);
    let key = format!("amended|{}", revisions.first().map_or(0, |r| r.seq));
    let headline = format!("the Gamemaster amends {name}");
    publish(c, env, g, &key, &headline, &text, &message, now).await?;
    Ok(Done::ok(format!(
        "{name} amended (Agora BT2); everyone was told"
    )))
}

/// The Gamemaster confirms that enacted proposal `number` was carried out, and how: no longer
/// an open item; everyone is told.
pub async fn confirm(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    who: &str,
    number: u32,
    what: &str,
    now: Ts,
) -> Result<Done> {
    let passed = store::passed_rule_changes(c, &g.id).await?;
    let Some(p) = passed.iter().find(|p| p.number == i64::from(number)) else {
        return Ok(Done::refused(format!(
            "Proposal {number} has not been enacted (Agora BT8)"
        )));
    };
    if !store::confirm_proposal(c, p.id, who, what, now).await? {
        return Ok(Done::refused(format!(
            "Proposal {number} was confirmed already"
        )));
    }
    let text =
        format!("The Gamemaster confirms that enacted Proposal {number} was carried out: {what}");
    let key = format!("confirmed|{number}");
    let headline = format!("Proposal {number} is carried out");
    publish(c, env, g, &key, &headline, &text, "", now).await?;
    Ok(Done::ok(format!(
        "Proposal {number} is confirmed as carried out; everyone was told"
    )))
}
