//! After the Swiss: the Candidates and the Final by mail (ACWC "Candidates", "Final").
//!
//! - The Candidates: the previous runner-up and the Swiss's three (`candidates_field`), a round
//!   robin by the Berger table, one round published as soon as the last is decided; each match
//!   ten games, no early stop; the Challenger by points, then the sum of the sub-scores.
//! - The Final: the holder and the Challenger. By mail it is reported a block at a time: the
//!   first 12 games, then each two-game extension, then the Armageddon's one game; the match is
//!   judged at each block's end ([`EarlyEnd::AtBlockEnd`]: by mail a block is reported whole,
//!   so the match cannot end inside one). At Armageddon each finalist sends a sealed
//!   `BID <seconds>`; the bids are revealed together once both are in (never one before), the
//!   lower bid plays White, equal bids go to the higher seed; a draw is Black's.

use super::ranked;
use super::store::{self, Conn, GameRow, GameStatus, MatchEventKind, MatchRow, RoundRow, StageRow};
use crate::acwc::Player;
use crate::acwc::candidates::{Candidates, CandidatesOutcome, SwissLine, candidates_field};
use crate::acwc::conduct::{FinalChange, Finalists, final_departure};
use crate::acwc::crosstable::halves;
use crate::acwc::final_match::{
    ArmageddonState, EarlyEnd, Final, FinalState, Finalist, block_games,
};
use crate::acwc::matches::{MatchOutcome, MatchScore, Side};
use crate::config::Env;
use crate::engine::announce::tell_each;
use crate::engine::{EngineError, Result};
use crate::outgoing::acwc::compose;
use crate::outgoing::acwc::render::{PairingsView, ResultView};
use crate::time::Ts;

fn refused(what: &str, e: impl std::fmt::Display) -> EngineError {
    EngineError::Refused(format!("{what}: {e}"))
}

/// ACWC "Qualification": the previous runner-up and the Swiss's three, in Berger order.
pub(super) async fn field(c: &mut Conn, g: &GameRow) -> Result<[Player; 4]> {
    let rules = super::rules_of(g)?;
    let runner_up = rules
        .settings
        .runner_up
        .clone()
        .map(Player)
        .ok_or_else(|| refused("the Candidates", "the settings name no runner-up"))?;
    let lines: Vec<SwissLine> = ranked(c, g)
        .await?
        .iter()
        .map(|s| SwissLine {
            player: s.player.clone(),
            points_halves: u16::try_from(s.score.halves()).unwrap_or(u16::MAX),
            opponents_seeding_x2: s.opponents.iter().map(|o| o.rating.doubled()).collect(),
            seeding_x2: s.rating.doubled(),
            out: false,
        })
        .collect();
    Ok(candidates_field(&lines, &runner_up)
        .map_err(|e| refused("the Candidates", format!("{e:?}")))?
        .players)
}

/// The Candidates with every decided match recorded.
async fn candidates(c: &mut Conn, g: &GameRow) -> Result<Candidates> {
    let mut cand = Candidates::new(field(c, g).await?)
        .map_err(|e| refused("the Candidates", format!("{e:?}")))?;
    for m in store::matches(c, &g.id, StageRow::Candidates).await? {
        let Some(b) = &m.b else { continue };
        let outcome = match (&m.forfeit_to, m.score_a, m.score_b) {
            (Some(w), _, _) => MatchOutcome::Forfeit {
                winner: if w == &m.a { Side::First } else { Side::Second },
            },
            (None, Some(sa), Some(sb)) => MatchOutcome::Played(MatchScore {
                first: u16::try_from(sa).unwrap_or(0),
                second: u16::try_from(sb).unwrap_or(0),
            }),
            // Undecided, or disregarded after a departure.
            _ => continue,
        };
        cand.record(&Player(m.a.clone()), &Player(b.clone()), outcome)
            .map_err(|e| refused("a Candidates result", format!("{e:?}")))?;
    }
    // ACWC Disqualification and withdrawals, Candidates: "all of their games will be
    // disregarded".
    for d in store::departures(c, &g.id).await? {
        let p = Player(d.account);
        if d.left_stage == StageRow::Candidates && cand.field().contains(&p) {
            cand.withdraw(&p)
                .map_err(|e| refused("a Candidates departure", format!("{e:?}")))?;
        }
    }
    Ok(cand)
}

/// A round of a stage after the Swiss, to publish.
struct Published<'a> {
    stage: StageRow,
    round: i64,
    pairs: &'a [(Player, Player)],
    title: &'a str,
    notes: Vec<String>,
}

/// A stage's round published: its matches stored and the pairings mailed.
async fn publish(c: &mut Conn, env: &Env, g: &GameRow, p: Published<'_>, now: Ts) -> Result<()> {
    let Published {
        stage,
        round,
        pairs,
        title,
        notes,
    } = p;
    let week = crate::acwc::week::round_week(now);
    let deadline = (stage != StageRow::Final).then_some(week.deadline);
    let row = RoundRow {
        stage,
        round,
        published_at: now,
        deadline,
    };
    store::add_round(c, &g.id, &row, &notes).await?;
    let mut lines = Vec::new();
    for (k, (a, b)) in pairs.iter().enumerate() {
        let m = MatchRow {
            stage,
            round,
            board: i64::try_from(k + 1).unwrap_or(i64::MAX),
            a: a.to_string(),
            b: Some(b.to_string()),
            agreed_at: None,
            score_a: None,
            score_b: None,
            forfeit_to: None,
            decided_at: None,
        };
        store::add_match(c, &g.id, &m).await?;
        lines.push(format!("Board {}: {a} v {b}", k + 1));
    }
    let v = PairingsView {
        game: g.id.clone(),
        title: title.to_string(),
        pairs: lines,
        bye: None,
        transcript: notes,
        deadline: deadline.unwrap_or(now),
        standings: Vec::new(),
    };
    let seed = format!("{stage:?}{round}");
    tell_each(c, env, g, now, |to| {
        compose::pairings(env, g, to, &seed, &v)
    })
    .await
}

/// After the Swiss's end: the next step of the Candidates or the Final, as soon as every match
/// published is decided.
pub(super) async fn advance(c: &mut Conn, env: &Env, g: &GameRow, now: Ts) -> Result<bool> {
    let cand = store::matches(c, &g.id, StageRow::Candidates).await?;
    if cand.iter().any(|m| m.decided_at.is_none()) {
        return Ok(false);
    }
    let played = cand.iter().map(|m| m.round).max().unwrap_or(0);
    let all = candidates(c, g).await?;
    // A round whose every pairing has a player who left is not published (ACWC
    // Disqualification and withdrawals: "all of their games will be disregarded").
    let next = (played + 1..=3).find_map(|round| {
        let pairs: Vec<(Player, Player)> = all
            .pairings()
            .into_iter()
            .filter(|p| i64::from(p.round) == round)
            .filter(|p| !all.is_out(&p.first) && !all.is_out(&p.second))
            .map(|p| (p.first, p.second))
            .collect();
        (!pairs.is_empty()).then_some((round, pairs))
    });
    if let Some((round, pairs)) = next {
        let notes = vec![format!(
            "The Berger table for four, round {round} of 3 (ACWC Candidates): every match ten \
             games, no early stop; ties by the sum of the sub-scores."
        )];
        let title = format!("Candidates round {round}");
        let p = Published {
            stage: StageRow::Candidates,
            round,
            pairs: &pairs,
            title: &title,
            notes,
        };
        publish(c, env, g, p, now).await?;
        return Ok(true);
    }
    advance_final(c, env, g, now).await
}

/// The finalists: the holder (first) and the Challenger.
async fn finalists(c: &mut Conn, g: &GameRow) -> Result<(Finalist, Finalist)> {
    let rules = super::rules_of(g)?;
    let holder = rules
        .settings
        .holder
        .clone()
        .map(Player)
        .ok_or_else(|| refused("the Final", "the settings name no holder"))?;
    let outcome = candidates(c, g)
        .await?
        .outcome()
        .ok_or_else(|| refused("the Final", "the Candidates are not decided"))?;
    let (holder, challenger) = substituted(c, g, holder, outcome).await?;
    let seeding = super::approved(c, &g.id).await?;
    let x2 = |p: &Player| {
        seeding
            .iter()
            .find(|e| &e.player == p)
            .map_or(0, |e| e.seeding.doubled())
    };
    Ok((
        Finalist {
            seeding_x2: x2(&holder),
            player: holder,
        },
        Finalist {
            seeding_x2: x2(&challenger),
            player: challenger,
        },
    ))
}

/// ACWC Disqualification and withdrawals, Finals: the finalists after everyone who left before
/// the Final began ("the Challenger plays the Candidates runner-up", "the Candidates runner-up
/// becomes the new Challenger").
async fn substituted(
    c: &mut Conn,
    g: &GameRow,
    holder: Player,
    outcome: CandidatesOutcome,
) -> Result<(Player, Player)> {
    let began = store::rounds(c, &g.id)
        .await?
        .into_iter()
        .find(|r| r.stage == StageRow::Final)
        .map(|r| r.published_at);
    let mut seats = Finalists {
        holder,
        challenger: outcome.challenger,
        runner_up: outcome.runner_up.unwrap_or_else(|| Player::new("")),
    };
    for d in store::departures(c, &g.id).await? {
        if began.is_some_and(|b| d.withdrawn_at >= b) {
            continue;
        }
        seats = match final_departure(&seats, &Player(d.account)) {
            Ok(FinalChange::ChallengerPlaysRunnerUp {
                challenger,
                runner_up,
            }) => Finalists {
                holder: challenger,
                challenger: runner_up,
                runner_up: Player::new(""),
            },
            Ok(FinalChange::RunnerUpBecomesChallenger { holder, challenger }) => Finalists {
                holder,
                challenger,
                runner_up: Player::new(""),
            },
            Ok(FinalChange::NoSubstitute) => Finalists {
                runner_up: Player::new(""),
                ..seats
            },
            Err(_) => seats,
        };
    }
    if seats.challenger.as_str().is_empty() {
        return Err(refused("the Final", "no finalist is left to play it"));
    }
    Ok((seats.holder, seats.challenger))
}

/// The Final as its decided blocks and its sealed bids make it.
pub(super) async fn final_match(c: &mut Conn, g: &GameRow) -> Result<Final> {
    let (first, second) = finalists(c, g).await?;
    let mut f = Final::new(first, second, EarlyEnd::AtBlockEnd)
        .map_err(|e| refused("the Final", format!("{e:?}")))?;
    for m in store::matches(c, &g.id, StageRow::Final).await? {
        let (Some(sa), Some(sb)) = (m.score_a, m.score_b) else {
            continue;
        };
        let (sa, sb) = (
            u16::try_from(sa).unwrap_or(0),
            u16::try_from(sb).unwrap_or(0),
        );
        if matches!(f.state(), FinalState::Armageddon(_)) {
            bids(c, g, &mut f, &m).await?;
            let r = block_games(sa, sb).into_iter().next();
            if let Some(r) = r {
                f.play(r)
                    .map_err(|e| refused("the Armageddon", format!("{e:?}")))?;
            }
            continue;
        }
        for r in block_games(sa, sb) {
            f.play(r)
                .map_err(|e| refused("a Final block", format!("{e:?}")))?;
        }
    }
    if matches!(f.state(), FinalState::Armageddon(_)) {
        let pending = store::matches(c, &g.id, StageRow::Final).await?;
        if let Some(m) = pending.last() {
            bids(c, g, &mut f, m).await?;
        }
    }
    Ok(f)
}

/// The sealed bids kept for the Final's last block, given to the state machine (revealed only
/// once both are in).
async fn bids(c: &mut Conn, g: &GameRow, f: &mut Final, m: &MatchRow) -> Result<()> {
    for e in store::match_events(c, &g.id, m).await? {
        if e.event != MatchEventKind::Bid {
            continue;
        }
        let (Some(by), Some(s)) = (e.by, e.score_a) else {
            continue;
        };
        let _ = f.bid(&Player(by), u16::try_from(s).unwrap_or(0));
    }
    if let FinalState::Armageddon(ArmageddonState::Bidding { waiting_for }) = f.state()
        && waiting_for.is_empty()
    {
        let _ = f.reveal();
    }
    Ok(())
}

/// The Final's next block, its Armageddon, or its end.
async fn advance_final(c: &mut Conn, env: &Env, g: &GameRow, now: Ts) -> Result<bool> {
    let blocks = store::matches(c, &g.id, StageRow::Final).await?;
    if blocks.iter().any(|m| m.decided_at.is_none()) {
        return Ok(false);
    }
    // A finalist who left once the Final had begun: the other wins it (`departures`).
    if let Some(winner) = blocks.iter().find_map(|m| m.forfeit_to.clone()) {
        let games = blocks
            .iter()
            .filter_map(|m| Some(m.score_a? + m.score_b?))
            .sum::<i64>()
            / 2;
        champion(
            c,
            env,
            g,
            &Player(winner),
            u16::try_from(games).unwrap_or(0),
            now,
        )
        .await?;
        return Ok(true);
    }
    let f = final_match(c, g).await?;
    let next = i64::try_from(blocks.len()).unwrap_or(0) + 1;
    let pair = [(f.first().player.clone(), f.second().player.clone())];
    match f.state() {
        FinalState::NextGame { number, .. } => {
            let games = if number == 1 { 12 } else { 2 };
            let title = format!("The Final, games {number}-{}", number + games - 1);
            let notes = vec![format!(
                "Report the block when all {games} games are played, your score first: RESULT \
                 {}-{} (ACWC Final: judged at the block's end; two ahead to win until game 24, \
                 then any lead; games 25-30 at 2+0; level after 30, an Armageddon). Score so \
                 far: {} {}-{} {}.",
                games,
                0,
                f.first().player,
                halves(u32::from(f.score().first)),
                halves(u32::from(f.score().second)),
                f.second().player
            )];
            let p = Published {
                stage: StageRow::Final,
                round: next,
                pairs: &pair,
                title: &title,
                notes,
            };
            publish(c, env, g, p, now).await?;
            Ok(true)
        }
        FinalState::Armageddon(ArmageddonState::Bidding { .. }) => {
            if store::rounds(c, &g.id)
                .await?
                .iter()
                .any(|r| r.stage == StageRow::Final && r.round == next)
            {
                return Ok(false);
            }
            let notes = vec![
                "Level after 30 games: an Armageddon (ACWC Final). Each finalist sends a sealed \
                 bid, BID <seconds> (1 to 180), White's time: the lower bid plays White, equal \
                 bids go to the higher seed; Black has 3 minutes and draw odds. The bids are \
                 revealed together once both are in; then report the game, your score first \
                 (RESULT 1-0, 0-1 or 0.5-0.5)."
                    .to_string(),
            ];
            let p = Published {
                stage: StageRow::Final,
                round: next,
                pairs: &pair,
                title: "The Final's Armageddon",
                notes,
            };
            publish(c, env, g, p, now).await?;
            Ok(true)
        }
        FinalState::Armageddon(ArmageddonState::Revealed(_)) => Ok(false),
        FinalState::Won {
            winner,
            after_games,
        } => {
            champion(c, env, g, &winner, after_games, now).await?;
            Ok(true)
        }
    }
}

/// ACWC "Final": the champion announced, and the championship over.
async fn champion(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    winner: &Player,
    after_games: u16,
    now: Ts,
) -> Result<()> {
    let v = ResultView {
        game: g.id.clone(),
        title: "The Final".to_string(),
        a: winner.to_string(),
        b: String::new(),
        headline: "the champion".to_string(),
        lines: vec![format!(
            "{winner} wins the Final after {after_games} games{} and is the Antichess World \
             Champion.",
            if after_games > 30 {
                " (the Armageddon)"
            } else {
                ""
            }
        )],
    };
    store::set_game_status(c, &g.id, GameStatus::Finished).await?;
    store::set_due(c, &[(g.id.as_str(), None)]).await?;
    tell_each(c, env, g, now, |to| {
        compose::result(env, g, to, "champion", &v)
    })
    .await
}

/// `BID <seconds>` from a finalist at the Armageddon: kept sealed; the sender alone is told it
/// is in; once both are in, both bids and the colours are told to everyone together.
pub(super) async fn bid(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    player: &str,
    seconds: u16,
    now: Ts,
) -> Result<std::result::Result<(), String>> {
    let mut f = final_match(c, g).await?;
    let Some(m) = store::matches(c, &g.id, StageRow::Final).await?.pop() else {
        return Ok(Err("the Final has not begun (ACWC Final)".to_string()));
    };
    let state = f.bid(&Player(player.to_string()), seconds);
    if let Err(why) = state {
        return Ok(Err(format!(
            "{why:?} (ACWC Final: a sealed bid, 1 to 180 seconds, once)"
        )));
    }
    let row = store::MatchEventRow {
        event: MatchEventKind::Bid,
        by: Some(player.to_string()),
        at: now,
        score_a: Some(i64::from(seconds)),
        score_b: None,
        times: Vec::new(),
        note: None,
    };
    store::add_match_event(c, &g.id, &m, &row).await?;
    let revealed = match f.state() {
        FinalState::Armageddon(ArmageddonState::Bidding { waiting_for })
            if waiting_for.is_empty() =>
        {
            f.reveal().ok()
        }
        _ => None,
    };
    let (to, headline, lines) = match revealed {
        None => (
            Some(player.to_string()),
            "your sealed bid is in".to_string(),
            vec![format!(
                "Your bid of {seconds} seconds is sealed; both bids are revealed together once \
                 your opponent's is in (ACWC Final)."
            )],
        ),
        Some(game) => (
            None,
            "the bids revealed".to_string(),
            vec![format!(
                "The bids: {} {}, {} {} seconds. {} plays White with {} seconds{}; {} plays \
                 Black with 3 minutes and draw odds (ACWC Final).",
                f.first().player,
                game.bids.0,
                f.second().player,
                game.bids.1,
                game.white,
                game.white_seconds,
                if game.by_seed {
                    " (equal bids: the higher seed)"
                } else {
                    ""
                },
                game.black
            )],
        ),
    };
    let v = ResultView {
        game: g.id.clone(),
        title: "The Final's Armageddon".to_string(),
        a: f.first().player.to_string(),
        b: f.second().player.to_string(),
        headline,
        lines,
    };
    let seed = format!("bid|{player}|{}", to.is_some());
    match to {
        Some(p) => {
            let address = store::players(c, &g.id)
                .await?
                .into_iter()
                .find(|x| x.power == p)
                .map(|x| x.address)
                .unwrap_or_default();
            let mail = compose::result(env, g, &address, &seed, &v);
            match mail {
                Ok(m) => {
                    store::enqueue(c, &m, now).await?;
                }
                Err(e) => crate::engine::compose_failed(c, env, Some(g), &e, now).await?,
            }
        }
        None => tell_each(c, env, g, now, |to| compose::result(env, g, to, &seed, &v)).await?,
    }
    Ok(Ok(()))
}
