//! A game's end: how it is stored for scoring, and the mail that tells it when it ends instead
//! of an adjudication (a passed vote, a draw the GM declared).

use super::turn::{Decision, Turn};
use super::*;
use crate::games::diplomacy::store::{EndKind, GameEnded};
use crate::outgoing::diplomacy::centres::centre_history;
use crate::outgoing::diplomacy::notices;

/// How a game ended, as stored for scoring (`games.ended`): the kind of end, the winner of a
/// solo, the last phase played and each power's centres on `board`.
pub(super) fn record(
    map: &Map,
    board: &Board,
    end: EndKind,
    winner: Option<Power>,
    after: Phase,
) -> GameEnded {
    GameEnded {
        end,
        winner: winner.map(|w| map.power_name(w).to_string()),
        after: after.to_string(),
        centres: map
            .all_powers()
            .map(|p| (map.power_name(p).to_string(), board.center_count(p) as u32))
            .collect(),
    }
}

/// Agora BT9: a draw the GM declared, with notice, ends the game at its first deadline at or
/// after the notice ran out, instead of the adjudication.
pub(super) fn declared_draw(t: &Turn<'_>) -> Result<Decision> {
    let names: Vec<&str> = crate::votes::survivors(t.map, &t.board)
        .into_iter()
        .map(|p| t.map.power_name(p))
        .collect();
    let how = format!(
        "The draw the GM declared has taken effect (Agora BT9): the game ends in a draw of {}.",
        names.join(", ")
    );
    let ended = record(t.map, &t.board, EndKind::Vote, None, t.board.phase);
    instead(t, &how, ended)
}

/// Agora BT3: the winners announced with notice, once it has passed: "whereupon they win the
/// tournament and the tournament is concluded". One winner is a solo; several share the win
/// as a draw does (`EndKind::Vote`, no single winner stored).
pub(super) fn declared_winners(t: &Turn<'_>) -> Result<Decision> {
    let seats: Vec<String> =
        serde_json::from_str(t.f.game.declared_winners.as_deref().unwrap_or("[]"))?;
    let powers: Vec<Power> = seats
        .iter()
        .filter_map(|s| t.map.power_by_name(s))
        .collect();
    let how = format!(
        "The notice has passed: {} {} the tournament, and the tournament is concluded (Agora \
         BT3).",
        seats.join(" and "),
        if seats.len() == 1 { "wins" } else { "win" }
    );
    let (end, winner) = match powers.as_slice() {
        [one] => (EndKind::Solo, Some(*one)),
        _ => (EndKind::Vote, None),
    };
    let ended = record(t.map, &t.board, end, winner, t.board.phase);
    instead(t, &how, ended)
}

/// The game ends instead of this adjudication (a passed vote, a declared draw): every player,
/// observer and master is told how, with the final supply centre counts and their history.
pub(super) fn instead(t: &Turn<'_>, how: &str, ended: GameEnded) -> Result<Decision> {
    let (env, f, map) = (t.env, t.f, t.map);
    let g = &f.game;
    let counts: Vec<String> = map
        .all_powers()
        .map(|p| format!("{:10} {:>2}", map.power_name(p), t.board.center_count(p)))
        .collect();
    let history = centre_history(map, &f.year_ends, None);
    let message = notices::game_ended(&notices::GameEnded {
        counts: &counts,
        history: &history,
    })?;
    let key = format!("{}|ended|{}", g.id, f.phase.phase);
    let readers = f
        .players
        .iter()
        .map(|p| (p.address.as_str(), p.tz.as_str()))
        .chain(
            f.observers
                .iter()
                .map(|o| (o.address.as_str(), o.tz.as_str())),
        );
    let mut mails = Vec::new();
    let masters = masters_of(env, Some(g), &f.masters);
    for (to, tz) in readers.chain(masters.iter().map(|m| (m.as_str(), "UTC"))) {
        let mail = compose::announcement(
            env,
            g,
            to,
            tz,
            &key,
            "the game has ended",
            how,
            &message,
            None,
        );
        mails.extend(or_alert(env, f, mail, &key));
    }
    let record = store::Adjudicated {
        game: g.id.clone(),
        seq: f.phase.seq,
        results: serde_json::to_string(&serde_json::json!({ "ended": how }))?,
        next: store::Next::Finished { ended },
        year_end: None,
        rules: None,
        nmrs: Vec::new(),
        // The votes counted before the game ended this way: the caller's
        // (`Decision::counted`).
        votes: store::Counted::default(),
        resolved: Vec::new(),
        winners_announced: None,
    };
    Ok(Decision::Adjudicated {
        record: Box::new(record),
        mails,
        maps: Vec::new(),
    })
}
