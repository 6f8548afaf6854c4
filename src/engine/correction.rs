//! The masters' commands on the board and on the game's course that are not about the clock:
//! CORRECT (WM D.VIII(1)-(3)), AGREE to a house-rule proposal (WM IX(5); Maharajiad X(3)),
//! REFUSE a repetitive one (Maharajiad X(2)) and DECLARE DRAW (Agora BT9). Each runs in the caller's transaction, through
//! `command::execute`, so each is audited.

use super::command::{Actor, Done, announce};
use super::*;
use crate::commands::format_gmt;
use crate::correction::Correction;
use crate::votes::{self, Proposal};

/// CORRECT: the GM puts right the board the players now give orders for (WM D.VIII(1)); a unit
/// whose right space is taken goes off the board (D.VIII(2)); an extra unit that has stood
/// through more than one adjudication stays until the next adjustments (D.VIII(3)). Every
/// player is told.
pub(super) async fn correct(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    current: Option<&PhaseRow>,
    text: &str,
    now: Ts,
) -> Result<Done> {
    let Some(p) = current else {
        return Ok(Done::refused("the game has no open phase"));
    };
    let map = map_of(g)?;
    let correction = match Correction::parse(map, text) {
        Ok(x) => x,
        Err(why) => return Ok(Done::refused(why)),
    };
    let board = board_from_json(map, &p.board, &p.phase)?;
    let (fixed, told) = match correction.apply(map, &board) {
        Ok(x) => x,
        Err(why) => return Ok(Done::refused(why)),
    };
    if fixed != board {
        let json = serde_json::to_string(&json::board_output(map, &fixed))?;
        store::set_board(c, &g.id, p.seq, &json).await?;
    }
    let text = format!(
        "The GM has corrected the board of {} (an error in the published adjudication): {told}\n\
         Orders already sent for the units concerned should be checked, and sent again if need \
         be.",
        p.phase
    );
    announce(
        c,
        env,
        g,
        &format!(
            "{}|correct|{}|{now}",
            g.id,
            crate::outgoing::ids::short_hash(&text)
        ),
        "a correction of the adjudication",
        &text,
        Some(p.deadline),
        now,
    )
    .await?;
    Ok(Done::ok(format!("{told} Every player was told.")))
}

/// AGREE: the GM's agreement to a house-rule proposal, which passes only if the GM and every
/// player remaining agree by the deadline (WM IX(5); Maharajiad X(3)). Recorded as the GM's
/// ballot of the phase, counted and spent with the players'.
pub(super) async fn agree(
    c: &mut SqliteConnection,
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

/// REFUSE: the GM refuses a repetitive proposal (Maharajiad X(2); under WM, as the GM's
/// practice): the votes on it are dropped and later ones not counted; every player is told.
/// It is read as the players' votes are, so that every spelling of it is refused.
pub(super) async fn refuse(
    c: &mut SqliteConnection,
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
    let text = format!(
        "The GM has refused the proposal {proposal} as repetitive (Maharajiad X(2)): votes on \
         it are not counted."
    );
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

/// DECLARE DRAW (Agora BT9): "If in the past three game-years, no province has changed
/// ownership, the Gamemaster CAN declare the game a draw, with 2 days notice". The game ends in
/// a draw of every player remaining at its first deadline two days or more from now, instead
/// of that adjudication; every player is told now.
pub(super) async fn declare_draw(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    now: Ts,
) -> Result<Done> {
    let rules = rules_of(g)?;
    let Some(years) = rules.gm_draw_years else {
        return Ok(Done::refused(
            "this game's rules do not let the GM declare a draw (Agora BT9: the gm_draw_years \
             option); the players may vote one (VOTE DRAW YES)",
        ));
    };
    if let Some(at) = g.declared_end_at {
        return Ok(Done::refused(format!(
            "a draw is declared already: the game ends at its first deadline at or after {}",
            format_gmt(at)
        )));
    }
    let ends = store::year_ends(c, &g.id).await?;
    let owners: Vec<&[store::CentreOwner]> = ends.iter().map(|e| e.owners.as_slice()).collect();
    if !votes::stalemate(&owners, years) {
        return Ok(Done::refused(format!(
            "a supply centre has changed owner in the past {years} game years, or fewer have \
             been played: the GM may not declare a draw yet (Agora BT9)"
        )));
    }
    let at = now + crate::rules::GM_DRAW_NOTICE_HOURS * 3600;
    store::declare_end(c, &g.id, at).await?;
    let text = format!(
        "No supply centre has changed owner in the past {years} game years, and the GM declares \
         the game a draw (Agora BT9), with two days' notice: the game ends at its first deadline \
         at or after {}, in a draw of every player then remaining.",
        format_gmt(at)
    );
    announce(
        c,
        env,
        g,
        &format!("{}|declared-draw", g.id),
        "the GM declares a draw",
        &text,
        None,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "the game ends in a draw at its first deadline at or after {}; every player was told",
        format_gmt(at)
    )))
}
