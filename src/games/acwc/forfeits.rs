//! No-shows and forfeits by mail (ACWC "Match rules"): the appearing player's `NOSHOW`
//! messages, timed by the receiving server, checked by `chancery_acwc::conduct::no_show` (the
//! first at or after the agreed time, the second 10 minutes or more after it); then their
//! `CLAIM` (the match forfeited to them) or `RESCHEDULE` (the TD assigns a new time with
//! `ASSIGN`, from which a new claim counts, or forfeits the match with `FORFEIT <absent>
//! RESCHEDULING` if it fails). The TD
//! forfeits a match with `FORFEIT <account> <why>`. "If a player gets forfeited in two different
//! matches, they get disqualified from the ACWC": after each forfeit the championship's
//! forfeits are counted (`conduct::two_forfeits`) and a player with two is disqualified
//! ([`super::departures`]).

use super::departures;
use super::matches::tell_match;
use super::store::{self, Conn, ForfeitNote, GameRow, MatchEventKind, MatchEventRow, MatchRow};
use super::store::{DisqualifiedRow, StageRow};
use crate::acwc::Player;
use crate::acwc::conduct::{self, Forfeit, ForfeitWhy, MatchRef, NoShowChoice, NoShowClaim};
use crate::acwc::conduct::{NoShowOutcome, Stage};
use crate::acwc::mail::Line;
use crate::acwc::negotiation::Pairing;
use crate::config::Env;
use crate::engine::Result;
use crate::outgoing::acwc::compose;
use crate::time::{Ts, format_gmt};

/// A match as the no-show rule names it.
fn match_ref(m: &MatchRow) -> MatchRef {
    MatchRef {
        stage: match m.stage {
            StageRow::Swiss => Stage::Qualification,
            StageRow::Candidates => Stage::Candidates,
            StageRow::Final => Stage::Final,
        },
        round: u32::try_from(m.round).unwrap_or(0),
    }
}

fn note_of(why: ForfeitWhy) -> ForfeitNote {
    match why {
        ForfeitWhy::NoShow => ForfeitNote::NoShow,
        ForfeitWhy::ReschedulingFailed => ForfeitNote::ReschedulingFailed,
        ForfeitWhy::LeftTheMatch => ForfeitNote::LeftTheMatch,
        ForfeitWhy::NoRematch => ForfeitNote::NoRematch,
    }
}

fn why_of(note: Option<ForfeitNote>) -> ForfeitWhy {
    match note {
        Some(ForfeitNote::NoShow) | None => ForfeitWhy::NoShow,
        Some(ForfeitNote::ReschedulingFailed) => ForfeitWhy::ReschedulingFailed,
        Some(ForfeitNote::LeftTheMatch) => ForfeitWhy::LeftTheMatch,
        Some(ForfeitNote::NoRematch) => ForfeitWhy::NoRematch,
    }
}

/// The claimant's no-show claim as kept, with this mail's line added; whether they chose
/// already.
async fn claim_of(
    c: &mut Conn,
    g: &GameRow,
    m: &MatchRow,
    me: &Player,
    agreed: Ts,
    line: &Line,
    at: Ts,
) -> Result<(NoShowClaim, bool)> {
    let mut claim = NoShowClaim {
        claimant: me.clone(),
        agreed,
        messages: Vec::new(),
        choice: None,
    };
    let mut chosen = false;
    for e in store::match_events(c, &g.id, m).await? {
        // A claim counts from the time now agreed: after a rescheduling (the arbiter's new
        // `ASSIGN`), the messages and the choice about the old time are spent.
        if e.by.as_deref() != Some(me.as_str()) || e.at < agreed {
            continue;
        }
        match e.event {
            MatchEventKind::NoShow => claim.messages.push(e.at),
            MatchEventKind::Claim | MatchEventKind::Reschedule => chosen = true,
            _ => {}
        }
    }
    match line {
        Line::NoShow => claim.messages.push(at),
        Line::Claim => claim.choice = Some(NoShowChoice::ClaimWin),
        _ => claim.choice = Some(NoShowChoice::Reschedule),
    }
    Ok((claim, chosen))
}

/// A `NOSHOW`, `CLAIM` or `RESCHEDULE` line from `me`, a player of match `m`: kept and told, or
/// refused with why (nothing kept).
pub(super) async fn no_show_line(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    (m, p): (&MatchRow, &Pairing),
    me: &Player,
    line: &Line,
    at: Ts,
) -> Result<std::result::Result<(), String>> {
    let Some(agreed) = m.agreed_at else {
        return Ok(Err(
            "your match has no agreed time: a no-show counts from the time agreed, chosen or \
             assigned (ACWC Match rules)"
                .to_string(),
        ));
    };
    let (claim, chosen) = claim_of(c, g, m, me, agreed, line, at).await?;
    if chosen && *line != Line::NoShow {
        return Ok(Err(
            "you have chosen already: the TD assigns the new time or forfeits the match (ACWC \
             Match rules)"
                .to_string(),
        ));
    }
    let outcome = match conduct::no_show(p, match_ref(m), &claim) {
        Ok(o) => o,
        Err(why) => return Ok(Err(why.to_string())),
    };
    let event = match (line, &outcome) {
        (Line::NoShow, _) => MatchEventKind::NoShow,
        (_, NoShowOutcome::AwaitingSecond { .. }) => {
            return Ok(Err(
                "a no-show is claimed with two NOSHOW messages 10 minutes apart first (ACWC \
                 Match rules)"
                    .to_string(),
            ));
        }
        (Line::Claim, _) => MatchEventKind::Claim,
        _ => MatchEventKind::Reschedule,
    };
    store::add_match_event(c, &g.id, m, &row(event, me, at, None)).await?;
    let absent = p.opponent(me).cloned().unwrap_or_else(|| me.clone());
    let (headline, text, only) = match outcome {
        NoShowOutcome::AwaitingSecond { from, by } => (
            "a no-show message".to_string(),
            format!(
                "{me}'s message of {} that {absent} did not show up is with the TD. If {absent} \
                 still has not shown up, send NOSHOW again between {} and {} (ACWC Match rules: \
                 again 10 minutes afterwards).",
                format_gmt(at),
                format_gmt(from),
                format_gmt(by)
            ),
            Some(me),
        ),
        NoShowOutcome::AwaitingChoice => (
            "a no-show".to_string(),
            format!(
                "{absent} did not show up for the match agreed at {}: {me} messaged the TD at \
                 the time and again 10 minutes afterwards. {me} chooses: CLAIM (the match \
                 forfeited to {me}) or RESCHEDULE (ACWC Match rules).",
                format_gmt(agreed)
            ),
            None,
        ),
        NoShowOutcome::Reschedule { .. } => (
            "to be rescheduled".to_string(),
            format!(
                "{me} chooses to reschedule the match {absent} did not show up for. The match \
                 arbiter assigns the new time (ASSIGN); if rescheduling fails, the match is \
                 forfeited to {me} (ACWC Match rules)."
            ),
            None,
        ),
        NoShowOutcome::Win(f) => {
            forfeit(c, env, g, (m, p), &f, at).await?;
            return Ok(Ok(()));
        }
    };
    tell(c, env, g, (m, p), only, &headline, text, at).await?;
    Ok(Ok(()))
}

fn row(event: MatchEventKind, by: &Player, at: Ts, note: Option<ForfeitNote>) -> MatchEventRow {
    MatchEventRow {
        event,
        by: Some(by.to_string()),
        at,
        times: Vec::new(),
        score_a: None,
        score_b: None,
        note,
    }
}

/// A step of a match told to its players (or one) and the masters.
#[allow(clippy::too_many_arguments)]
async fn tell(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    (m, p): (&MatchRow, &Pairing),
    only: Option<&Player>,
    headline: &str,
    text: String,
    at: Ts,
) -> Result<()> {
    let v = super::matches::view(g, m, p, headline, text);
    let seed = format!("{:?}|{}|{}|{headline}|{at}", m.stage, m.round, m.board);
    tell_match(c, env, g, [&p.a, &p.b], only, at, |to| {
        compose::result(env, g, to, &seed, &v)
    })
    .await
}

/// `FORFEIT <account> <why>`: the TD forfeits the account's match of the current round.
pub(super) async fn forfeit_by_td(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    account: &str,
    why: ForfeitWhy,
    now: Ts,
) -> Result<std::result::Result<String, String>> {
    let Some(m) = super::matches::open_match(c, g, account).await? else {
        return Ok(Err(format!(
            "{account} has no undecided match in the current round"
        )));
    };
    let Some(p) = super::matches::pairing(&m) else {
        return Ok(Err("a bye is not forfeited".to_string()));
    };
    let forfeited = if p.a.as_str().eq_ignore_ascii_case(account) {
        p.a.clone()
    } else {
        p.b.clone()
    };
    let Some(winner) = p.opponent(&forfeited).cloned() else {
        return Ok(Err(format!("{account} does not play this match")));
    };
    let f = Forfeit {
        at_match: match_ref(&m),
        winner,
        forfeited,
        why,
    };
    forfeit(c, env, g, (&m, &p), &f, now).await?;
    Ok(Ok(format!(
        "{} v {}: forfeited by {} to {}",
        p.a, p.b, f.forfeited, f.winner
    )))
}

/// Match `m` forfeited: kept, given to the winner, told; a second forfeit disqualifies; the next
/// round published once every match is decided.
async fn forfeit(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    (m, p): (&MatchRow, &Pairing),
    f: &Forfeit,
    now: Ts,
) -> Result<()> {
    let note = note_of(f.why);
    let event = row(MatchEventKind::Forfeit, &f.forfeited, now, Some(note));
    store::add_match_event(c, &g.id, m, &event).await?;
    store::give_match(c, &g.id, m, f.winner.as_str(), now).await?;
    let text = format!(
        "{} {}: the match is forfeited in favour of {} (ACWC Match rules). Two forfeits \
         disqualify.",
        f.forfeited, f.why, f.winner
    );
    tell(c, env, g, (m, p), None, "forfeited", text, now).await?;
    for d in conduct::two_forfeits(&forfeits(c, g).await?) {
        let gone = departures::Leaving {
            account: d.player.to_string(),
            disqualified: Some(DisqualifiedRow::TwoForfeits),
        };
        // A player disqualified by an earlier forfeit is refused as "left already".
        let _told_or_left_already = departures::depart(c, env, g, &gone, now).await?;
    }
    super::rounds::advance(c, env, g, now).await?;
    Ok(())
}

/// Every forfeit kept, as the pure rules count them.
async fn forfeits(c: &mut Conn, g: &GameRow) -> Result<Vec<Forfeit>> {
    let all = store::all_matches(c, &g.id).await?;
    let mut out = Vec::new();
    for f in store::forfeits(c, &g.id).await? {
        let m = all
            .iter()
            .find(|m| m.stage == f.stage && m.round == f.round && m.board == f.board);
        let Some(p) = m.and_then(super::matches::pairing) else {
            continue;
        };
        let forfeited = Player(f.by);
        let Some(winner) = p.opponent(&forfeited).cloned() else {
            continue;
        };
        out.push(Forfeit {
            at_match: m.map(match_ref).unwrap_or(MatchRef {
                stage: Stage::Qualification,
                round: 0,
            }),
            winner,
            forfeited,
            why: why_of(f.note),
        });
    }
    Ok(out)
}
