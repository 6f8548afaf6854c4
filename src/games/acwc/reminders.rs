//! Unresponsive players (ACWC "Match rules": "either player must post the results";
//! "Timeline": every match done by Sunday 23:59:59 UTC), as the best league offices handle
//! them: a result not reported [`REPORT_REMINDER`] after the agreed time is reminded to both
//! players; a report unanswered for [`CONFIRM_REMINDER`] is reminded to the other player (it
//! stands after 48 hours); a match not decided at its round's deadline is told to the TD, who
//! decides it (`RULING`, `FORFEIT`), and to both players. Each is told once: the tick tells only
//! what fell due since the moment it last told through.

use super::matches::tell_match;
use super::store::{Conn, GameRow, MatchRow};
use crate::acwc::Player;
use crate::acwc::conduct::{REPORT_REMINDER, ResultEvent, ResultState, result_state};
use crate::acwc::negotiation::Pairing;
use crate::config::Env;
use crate::engine::Result;
use crate::outgoing::acwc::compose;
use crate::time::{Ts, format_gmt};

/// A nudge the clock brought to an undecided match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Nudge {
    /// Nothing reported a day after the agreed time: both players.
    Report { agreed: Ts, at: Ts },
    /// A report unanswered for a day: the other player.
    Answer { to: Player, stands_at: Ts, at: Ts },
    /// Undecided at the round's deadline: the TD and both players.
    Overdue { deadline: Ts },
}

impl Nudge {
    fn at(&self) -> Ts {
        match self {
            Nudge::Report { at, .. } | Nudge::Answer { at, .. } => *at,
            Nudge::Overdue { deadline } => *deadline,
        }
    }
}

/// The nudges of match `m` (its result's `events`, its round's `deadline`) that fall in
/// (`from`, `now`], and the next moment one falls due after `now`. Pure.
pub(super) fn due(
    m: &MatchRow,
    p: &Pairing,
    events: &[ResultEvent],
    deadline: Option<Ts>,
    from: Ts,
    now: Ts,
) -> (Vec<Nudge>, Option<Ts>) {
    let mut all = Vec::new();
    let state = result_state(p, events, now);
    let decided = matches!(state, ResultState::Final { .. });
    match state {
        ResultState::Awaiting => {
            if let Some(agreed) = m.agreed_at {
                all.push(Nudge::Report {
                    agreed,
                    at: agreed.saturating_add(REPORT_REMINDER),
                });
            }
        }
        ResultState::Reported {
            by,
            remind_at,
            stands_at,
            ..
        } => {
            if let Some(to) = p.opponent(&by) {
                all.push(Nudge::Answer {
                    to: to.clone(),
                    stands_at,
                    at: remind_at,
                });
            }
        }
        ResultState::Final { .. } | ResultState::Disputed { .. } => {}
    }
    if !decided && let Some(deadline) = deadline {
        all.push(Nudge::Overdue { deadline });
    }
    let next = all.iter().map(Nudge::at).filter(|&t| t > now).min();
    let now_due = all
        .into_iter()
        .filter(|n| n.at() > from && n.at() <= now)
        .collect();
    (now_due, next)
}

/// A nudge told: to its player or players, and for an overdue match to the masters too.
pub(super) async fn tell(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    (m, p): (&MatchRow, &Pairing),
    nudge: &Nudge,
    now: Ts,
) -> Result<()> {
    let (headline, text, only) = match nudge {
        Nudge::Report { agreed, .. } => (
            "the result is due",
            format!(
                "The match agreed at {} has no result yet. After a match, either player must \
                 post the result (ACWC Match rules): write RESULT and your score first, as in \
                 RESULT 6.5-3.5. If the match was not played, tell the TD (NOSHOW at the time, \
                 or a reply to this mail).",
                format_gmt(*agreed)
            ),
            None,
        ),
        Nudge::Answer { to, stands_at, .. } => (
            "your answer is due",
            format!(
                "Your opponent reported the result a day ago. Answer CONFIRM or DISPUTE: \
                 unanswered, the report stands at {} (ACWC Match rules).",
                format_gmt(*stands_at)
            ),
            Some(to),
        ),
        Nudge::Overdue { deadline } => (
            "not decided by the deadline",
            format!(
                "The match was not decided by the round's deadline, {} (ACWC Timeline: every \
                 match done by Sunday 23:59:59 UTC). The Tournament Director decides it: RULING \
                 <account> <score> or FORFEIT <account> <why>.",
                format_gmt(*deadline)
            ),
            None,
        ),
    };
    let v = super::matches::view(g, m, p, headline, text);
    let seed = format!(
        "nudge|{:?}|{}|{}|{headline}|{}",
        m.stage,
        m.round,
        m.board,
        nudge.at()
    );
    tell_match(c, env, g, [&p.a, &p.b], only, now, |to| {
        compose::reminder(env, g, to, &seed, &v)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::acwc::conduct::Score;
    use crate::games::acwc::store::StageRow;

    fn m(agreed: Option<Ts>) -> MatchRow {
        MatchRow {
            stage: StageRow::Swiss,
            round: 1,
            board: 1,
            a: "alice".into(),
            b: Some("bob".into()),
            agreed_at: agreed,
            score_a: None,
            score_b: None,
            forfeit_to: None,
            decided_at: None,
        }
    }

    fn p() -> Pairing {
        Pairing {
            a: Player::new("alice"),
            b: Player::new("bob"),
        }
    }

    const H: Ts = 3600;

    /// ACWC Match rules and Timeline: a result unreported a day after the agreed time is
    /// reminded once; an unanswered report is reminded to the other player; an undecided
    /// match at the deadline goes to the TD; each falls due once, in its window.
    #[test]
    fn acwc_match_rules_unresponsive_players_are_reminded_then_the_td_told() {
        let (agreed, deadline) = (100 * H, 200 * H);
        let (due_now, next) = due(&m(Some(agreed)), &p(), &[], Some(deadline), 0, agreed);
        assert!(due_now.is_empty());
        assert_eq!(next, Some(agreed + 24 * H));
        let (due_now, next) = due(&m(Some(agreed)), &p(), &[], Some(deadline), agreed, 130 * H);
        assert_eq!(
            due_now,
            vec![Nudge::Report {
                agreed,
                at: agreed + 24 * H
            }]
        );
        assert_eq!(next, Some(deadline));
        // Told through 130h: nothing again at 131h.
        let (due_now, _) = due(
            &m(Some(agreed)),
            &p(),
            &[],
            Some(deadline),
            130 * H,
            131 * H,
        );
        assert!(due_now.is_empty());
        // A report at 140h: bob is reminded at 164h; it stands at 188h, before the deadline.
        let report = ResultEvent::Report {
            by: Player::new("alice"),
            at: 140 * H,
            score: Score { a: 13, b: 7 },
        };
        let (due_now, _) = due(
            &m(Some(agreed)),
            &p(),
            std::slice::from_ref(&report),
            Some(deadline),
            131 * H,
            170 * H,
        );
        assert_eq!(
            due_now,
            vec![Nudge::Answer {
                to: Player::new("bob"),
                stands_at: 188 * H,
                at: 164 * H
            }]
        );
        // Never agreed, never reported: the TD is told at the deadline.
        let (due_now, next) = due(&m(None), &p(), &[], Some(deadline), 170 * H, 201 * H);
        assert_eq!(due_now, vec![Nudge::Overdue { deadline }]);
        assert_eq!(next, None);
    }
}
