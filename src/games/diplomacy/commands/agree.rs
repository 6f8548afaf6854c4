//! AGREE RULE <option> <value> (WM IX(5); Maharajiad X(3)): the GM's agreement to a house-rule
//! proposal, which passes only if the GM and every player remaining agree by the deadline.

use crate::engine::Result;
use crate::engine::office::Done;
use crate::games::diplomacy::store::{self, GameRow, PhaseRow};
use crate::games::diplomacy::{map_of, rules_of};
use crate::store::Conn;
use crate::time::Ts;
use crate::time::format_gmt;
use crate::votes::{self, Proposal};

/// AGREE: the GM's agreement to a house-rule proposal, which passes only if the GM and every
/// player remaining agree by the deadline (WM IX(5); Maharajiad X(3)). Recorded as the GM's
/// ballot of the phase, counted and spent with the players'.
pub async fn agree(
    c: &mut Conn,
    g: &GameRow,
    current: Option<&PhaseRow>,
    proposal: &str,
    now: Ts,
) -> Result<Done> {
    let Some(p) = current else {
        return Ok(Done::refused("the game has no open phase"));
    };
    let (rules, map) = (rules_of(g)?, map_of(g)?);
    // The proposal in its one spelling, as the players' votes on it are stored (WM IX(5)).
    let parsed = match votes::read_proposal(map, &rules, proposal) {
        Ok(p @ Proposal::Rule { .. }) => p,
        Ok(_) => {
            return Ok(Done::refused(
                "write AGREE RULE <option> <value>, as the players vote on it",
            ));
        }
        Err(why) => return Ok(Done::refused(why)),
    };
    let proposal = parsed.canonical(map);
    if store::proposal_refused(c, &g.id, &proposal).await? {
        return Ok(Done::refused(format!(
            "{proposal} was refused as repetitive"
        )));
    }
    store::cast_vote(c, &g.id, &p.phase, votes::GM_BALLOT, &proposal, "yes", now).await?;
    Ok(Done::ok(format!(
        "you agree to {}: it passes if every player remaining votes VOTE {proposal} YES by \
         the deadline of {} ({}) (WM IX(5))",
        parsed.describe(map),
        p.phase,
        format_gmt(p.deadline)
    )))
}
