//! The Agora Birthday Tournament's regulations in a game run under them (`regulations =
//! "agora_bt2020"`): the rulebook enacted as the game's rule set when it starts
//! (`rule_revisions`, no proposal: Agora BT5, BT8), the contestants' proposals, withdrawals
//! and private votes read from their order mails (`lines.rs`, Agora BT8), a proposal enacted
//! by the tick at the full hour after more than half the contestants voted for it (if they
//! still do then; `enact.rs`), a setting of the game carried out on its house rules when the
//! ordering period allows it (`enact.rs`, Agora BT15), the
//! Gamemaster's own amendments (Agora BT2) and confirmations (`commands/amend.rs`,
//! `commands/confirm.rs`), and what the SUMMARY lists of them.
//!
//! Secret: a ballot goes to the office's tables and nowhere else; what is published is a
//! proposal, its proposer (proposing is by announcement), the new text and the number of votes
//! for and against (Agora BT8: "The Judge SHALL NOT reveal the votes of specific Contestants").

mod enact;
mod lines;

pub(crate) use enact::{amend_by_gm, confirm};
pub(super) use enact::{apply_pending, enact_due, lapse_open};
pub(super) use lines::{Contestant, handle};

use crate::engine::Result;
use crate::games::diplomacy::store::{self, GameRow};
use crate::regulations::{self, Motion};
use crate::rules::Rules;
use crate::store::{Conn, StoreError};
use crate::time::{Ts, format_gmt};
use chancery_office::ruleset::{InitialSet, RuleSet};

/// Agora BT8: when a proposal that a vote brought over its threshold is counted again and, if
/// it still passes, enacted: the next full hour ("in a timely fashion"), so that every vote of
/// the hour could have been the deciding one and the enactment's time names none of them.
pub(super) fn enactment_hour(now: Ts) -> Ts {
    (now.div_euclid(crate::time::HOUR) + 1) * crate::time::HOUR
}

/// Agora BT5, BT8: a game run under regulations starts with them as its rule set, enacted at
/// its start, no proposal's.
pub(super) async fn start(c: &mut Conn, g: &GameRow, rules: &Rules, now: Ts) -> Result<()> {
    let Some(which) = rules.regulations else {
        return Ok(());
    };
    let bad = |e: String| StoreError::Inconsistent(format!("the regulations of {}: {e}", g.id));
    let set = InitialSet {
        date: String::new(),
        author: String::new(),
        rules: regulations::initial(which).map_err(bad)?,
    };
    let rules = RuleSet::from_initial(&set, now).map_err(|e| bad(e.to_string()))?;
    store::append_rule_revisions(c, &g.id, rules.revisions()).await?;
    Ok(())
}

/// What a proposal's stored payload proposes.
fn motion_of(payload: &str) -> Option<Motion> {
    serde_json::from_str(payload).ok()
}

/// Agora BT8: the masters' open items: each enacted free text still to be carried out and
/// confirmed (`CONFIRM PROPOSAL n <what was done>`); a free text is never executed.
pub(super) fn open_items(unconfirmed: &[store::UnconfirmedRow]) -> Vec<String> {
    unconfirmed
        .iter()
        .filter_map(|u| match motion_of(&u.payload)? {
            m @ Motion::Text { .. } => Some(format!(
                "Proposal {n} ({}) is enacted as text: carry it out and confirm it with CONFIRM \
                 PROPOSAL {n} <what was done> (Agora BT8)",
                m.describe(),
                n = u.number
            )),
            _ => None,
        })
        .collect()
}

/// The SUMMARY's part on the regulations (Agora BT8): the open proposals (number, proposer,
/// what is proposed; never a vote), the enacted ones waiting for the Gamemaster or for the
/// turn's adjudication, and every change since the start. Empty for a game without them.
pub(super) async fn summary(c: &mut Conn, g: &GameRow, rules: &Rules) -> Result<String> {
    if rules.regulations.is_none() {
        return Ok(String::new());
    }
    let mut out = String::from("\nRegulations (Agora BT8)\n\nOpen proposals:\n");
    let open = store::open_rule_changes(c, &g.id).await?;
    if open.is_empty() {
        out.push_str("  none\n");
    }
    for p in &open {
        let what = motion_of(&p.payload).map_or_else(|| p.payload.clone(), |m| m.describe());
        let by = p.proposer.as_deref().unwrap_or("?");
        out.push_str(&format!("  Proposal {} by {by}: {what}\n", p.number));
    }
    for p in store::passed_rule_changes(c, &g.id).await? {
        let Some(m) = motion_of(&p.payload) else {
            continue;
        };
        match (&m, p.applied_at, p.confirmed_at) {
            (Motion::Text { .. }, _, None) => out.push_str(&format!(
                "Enacted, to be carried out and confirmed by the Gamemaster: Proposal {} ({})\n",
                p.number,
                m.describe()
            )),
            (Motion::Set { .. }, None, _) => out.push_str(&format!(
                "Enacted, holding once the turn is adjudicated (Agora BT15): Proposal {} ({})\n",
                p.number,
                m.describe()
            )),
            _ => {}
        }
    }
    out.push_str(&changes_since_start(c, g).await?);
    Ok(out)
}

/// Every revision after the initial set, in order: when, what, and by which proposal or
/// master.
async fn changes_since_start(c: &mut Conn, g: &GameRow) -> Result<String> {
    let set = store::rule_set(c, &g.id).await?;
    let authors = store::revision_authors(c, &g.id).await?;
    let mut out = String::from("Changes since the start:\n");
    let mut any = false;
    for r in set.revisions() {
        let author = authors
            .iter()
            .find(|(s, _)| *s == i64::from(r.seq))
            .map(|(_, who)| who);
        let by = match (r.proposal, author) {
            (Some(n), _) => format!("Proposal {n}"),
            (None, Some(who)) => format!("the Gamemaster ({who}, Agora BT2)"),
            // The regulations as the game started.
            (None, None) => continue,
        };
        out.push_str(&format!(
            "  {}: {} by {by}\n",
            format_gmt(r.at),
            enact::change_words(&r.change)
        ));
        any = true;
    }
    if !any {
        out.push_str("  none\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn agora_bt8_a_passing_proposal_is_enacted_at_the_next_full_hour() {
        let hour = crate::time::HOUR;
        assert_eq!(super::enactment_hour(10 * hour), 11 * hour);
        assert_eq!(super::enactment_hour(10 * hour + 1), 11 * hour);
        assert_eq!(super::enactment_hour(11 * hour - 1), 11 * hour);
    }
}
