//! REFUSE <proposal> (Maharajiad X(2); under WM, as the GM's practice): the GM refuses a
//! repetitive proposal; the votes on it are not counted.

use crate::config::Env;
use crate::engine::Result;
use crate::engine::announce::announce;
use crate::engine::office::{Actor, Done};
use crate::games::diplomacy::store::{self, GameRow};
use crate::games::diplomacy::{map_of, rules_of};
use crate::outgoing::diplomacy::notices;
use crate::store::Conn;
use crate::time::Ts;
use crate::votes;

/// REFUSE: the GM refuses a repetitive proposal (Maharajiad X(2); under WM, as the GM's
/// practice): the votes on it are dropped and later ones not counted; every player is told.
/// It is read as the players' votes are, so that every spelling of it is refused.
pub async fn refuse(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    proposal: &str,
    now: Ts,
) -> Result<Done> {
    let (rules, map) = (rules_of(g)?, map_of(g)?);
    let proposal = match votes::read_proposal(map, &rules, proposal) {
        Ok(p) => p.canonical(map),
        Err(why) => return Ok(Done::refused(why)),
    };
    if !store::refuse_proposal(c, &g.id, &proposal, actor.who, now).await? {
        return Ok(Done::refused(format!("{proposal} was refused already")));
    }
    let text = notices::proposal_refused(&notices::ProposalRefused {
        proposal: &proposal,
    })?;
    announce(
        c,
        env,
        g,
        &format!("{}|refuse|{proposal}", g.id),
        "a proposal is refused",
        &text,
        None,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "{proposal} is refused; votes on it are not counted; every player was told"
    )))
}
