//! A championship's match as stored, as the pure rules see it: its pairing, its result's
//! events, the match an entrant plays in the round published last, and a reported score read
//! as its stage wants it. Below the files that read a mail or a command about a match.

use super::store::{self, Conn, GameRow, MatchEventKind, MatchEventRow, MatchRow, StageRow};
use crate::acwc::Player;
use crate::acwc::conduct::{ResultEvent, Score};
use crate::acwc::matches::{Stage, parse_score};
use crate::acwc::negotiation::Pairing;
use crate::engine::Result;
use crate::outgoing::acwc::render::ResultView;

/// A stored match as the pure rules see it.
pub(super) fn pairing(m: &MatchRow) -> Option<Pairing> {
    Some(Pairing {
        a: Player(m.a.clone()),
        b: Player(m.b.clone()?),
    })
}

/// A stored mail about a match as the pure rules replay it (the result's events only).
pub(super) fn result_event(e: &MatchEventRow) -> Option<ResultEvent> {
    let by = e.by.clone().map(Player);
    let score = || {
        Some(Score {
            a: u32::try_from(e.score_a?).ok()?,
            b: u32::try_from(e.score_b?).ok()?,
        })
    };
    Some(match e.event {
        MatchEventKind::Report => ResultEvent::Report {
            by: by?,
            at: e.at,
            score: score()?,
        },
        MatchEventKind::Confirm => ResultEvent::Confirm { by: by?, at: e.at },
        MatchEventKind::Dispute => ResultEvent::Dispute { by: by?, at: e.at },
        MatchEventKind::Ruling => ResultEvent::Ruling {
            at: e.at,
            score: score()?,
        },
        _ => return None,
    })
}

/// A match's round as its mails name it.
pub(super) fn title(m: &MatchRow) -> String {
    match m.stage {
        StageRow::Swiss => format!("Swiss round {}", m.round),
        StageRow::Candidates => format!("Candidates round {}", m.round),
        StageRow::Final => format!("The Final, block {}", m.round),
    }
}

/// A step of match `m` as its players and the masters read it.
pub(super) fn view(
    g: &GameRow,
    m: &MatchRow,
    p: &Pairing,
    headline: &str,
    text: String,
) -> ResultView {
    ResultView {
        game: g.id.clone(),
        title: title(m),
        a: p.a.to_string(),
        b: p.b.to_string(),
        headline: headline.to_string(),
        lines: vec![text],
    }
}

/// The stage and round published last.
pub(super) async fn current(c: &mut Conn, g: &GameRow) -> Result<Option<(StageRow, i64)>> {
    Ok(store::rounds(c, &g.id)
        .await?
        .last()
        .map(|r| (r.stage, r.round)))
}

/// The sender's match of the round published last, if it is undecided.
pub(super) async fn open_match(
    c: &mut Conn,
    g: &GameRow,
    player: &str,
) -> Result<Option<MatchRow>> {
    let Some((stage, round)) = current(c, g).await? else {
        return Ok(None);
    };
    let all = store::matches(c, &g.id, stage).await?;
    Ok(all.into_iter().find(|m| {
        m.round == round
            && m.decided_at.is_none()
            && m.b.is_some()
            && (m.a.eq_ignore_ascii_case(player)
                || m.b
                    .as_deref()
                    .is_some_and(|b| b.eq_ignore_ascii_case(player)))
    }))
}

/// A reported score read as the match's stage wants it (ACWC "Qualification": a Swiss match
/// may stop at 5.5; "Candidates": ten games; "Final": a whole block).
pub(super) async fn read_score(
    c: &mut Conn,
    g: &GameRow,
    m: &MatchRow,
    text: &str,
) -> Result<std::result::Result<crate::acwc::matches::MatchScore, String>> {
    let parsed = match m.stage {
        StageRow::Swiss => parse_score(Stage::Swiss, text),
        StageRow::Candidates => parse_score(Stage::Candidates, text),
        StageRow::Final => {
            let games = if m.round == 1 {
                12
            } else if matches!(
                super::stages::final_match(c, g).await?.state(),
                crate::acwc::final_match::FinalState::Armageddon(_)
            ) {
                1
            } else {
                2
            };
            crate::acwc::matches::parse_block(text, games)
        }
    };
    Ok(parsed.map_err(|e| format!("the result \"{text}\" cannot be: {e}")))
}

/// Who reads a match's step, each with their zone: its players (or one of them, `only`) and,
/// unless `only`, each master, each address once.
pub(super) async fn match_readers(
    c: &mut Conn,
    g: &GameRow,
    players: [&Player; 2],
    only: Option<&Player>,
) -> Result<Vec<(String, String)>> {
    let mut to: Vec<(String, String)> = Vec::new();
    for pl in store::players(c, &g.id).await? {
        let ours = players.iter().any(|p| p.as_str() == pl.power);
        if ours && only.is_none_or(|o| o.as_str() == pl.power) {
            to.push((pl.address, pl.tz));
        }
    }
    if only.is_none() {
        for m in store::members(c, &g.id).await? {
            if m.role.is_master() && !to.iter().any(|(a, _)| a.eq_ignore_ascii_case(&m.address)) {
                to.push((m.address, m.tz));
            }
        }
    }
    Ok(to)
}

/// A mail composed for each player of a match (or one of them, `only`) and, unless `only`, each
/// master, and queued; one that cannot be composed alerts the masters instead. A match's steps
/// go to its players and the masters; everyone reads the results in the next round's pairings
/// and standings.
pub(super) async fn tell_match(
    c: &mut Conn,
    env: &crate::config::Env,
    g: &GameRow,
    players: [&Player; 2],
    only: Option<&Player>,
    now: crate::time::Ts,
    compose: impl Fn(&str) -> crate::outgoing::compose::Composed,
) -> Result<()> {
    let to = match_readers(c, g, players, only).await?;
    let mut mails = Vec::new();
    for (addr, _) in &to {
        match compose(addr) {
            Ok(m) => mails.push(m),
            Err(e) => crate::engine::compose_failed(c, env, Some(g), &e, now).await?,
        }
    }
    store::enqueue_many(c, &mails, now).await?;
    Ok(())
}
