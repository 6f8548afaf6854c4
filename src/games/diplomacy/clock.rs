//! When a Diplomacy game next needs the clock (`games.due_at`): its deadline (or the end of an
//! NMR hold), the day before it while nobody was reminded, and at once while the phase may go
//! early. The scheduler only asks `due_at <= now`; the store never reads a phase or the house
//! rules to decide it.

use super::turn::Decision;
use super::*;

/// When the tick must look at the game again after `decision` (None: never, the game is over).
/// A game may be looked at before it needs to be (the tick then does nothing), never after.
pub(super) fn due_after(f: &GameFacts, rules: &Rules, decision: &Decision) -> Result<Option<Ts>> {
    // Agora BT3: the winners announced are declared when the notice has passed.
    let concluded = match decision {
        Decision::Adjudicated { record, .. } => record.winners_announced.as_ref().map(|w| w.1),
        _ => None,
    }
    .or(f.game.declared_winners.as_ref().and(f.game.declared_end_at));
    Ok(phase_due(f, rules, decision)?.map(|due| concluded.map_or(due, |at| due.min(at))))
}

/// When the phase's own clock needs the tick again.
fn phase_due(f: &GameFacts, rules: &Rules, decision: &Decision) -> Result<Option<Ts>> {
    let current = Clock {
        kind: f.phase.phase.parse::<Phase>()?.kind,
        deadline: f.phase.deadline,
        held_until: f.phase.held_until,
        reminded: f.phase.reminded_at.is_some(),
        any_final: f.standing.iter().any(|s| s.final_),
        conditional: !f.conditional.is_empty(),
    };
    Ok(match decision {
        Decision::Idle | Decision::Waiting => Some(current.due(rules)),
        Decision::Remind(_) => Some(
            Clock {
                reminded: true,
                ..current
            }
            .due(rules),
        ),
        Decision::Hold { until, .. } => Some(
            Clock {
                held_until: Some(*until),
                ..current
            }
            .due(rules),
        ),
        Decision::Adjudicated { record, .. } => match &record.next {
            store::Next::Finished { .. } => None,
            store::Next::Phase {
                phase, deadline, ..
            } => Some(
                Clock {
                    kind: phase.parse::<Phase>()?.kind,
                    deadline: *deadline,
                    held_until: None,
                    reminded: false,
                    any_final: false,
                    // The movement phase just adjudicated may have brought conditional orders
                    // for this one: the tick looks once (WM D.II(5)).
                    conditional: true,
                }
                // House rules a passed proposal changed hold from the next phase on.
                .due(record.rules.as_ref().unwrap_or(rules)),
            ),
        },
    })
}

/// What a phase's clock depends on.
struct Clock {
    kind: PhaseKind,
    deadline: Ts,
    /// An NMR holds the results until then (WM D.VII(6)(b)).
    held_until: Option<Ts>,
    /// The players were reminded and the masters sent the digest.
    reminded: bool,
    /// Some power marked its orders final.
    any_final: bool,
    /// Conditional orders were sent for this phase (or may have been).
    conditional: bool,
}

impl Clock {
    fn due(&self, rules: &Rules) -> Ts {
        // Orders marked final may let the phase go early (WM D.VII(2)), and so may conditional
        // orders a retreat or adjustment phase (`conditional_early`, WM D.II(5)): whether they
        // do depends on the clock and the other powers, so the tick looks each time.
        // Agora BT15's timetable never goes early: only its deadline matters.
        if (self.any_final && !rules.utc_turns)
            || (self.kind != PhaseKind::Movement && rules.conditional_early && self.conditional)
        {
            return store::AT_ONCE;
        }
        let closes = self.held_until.unwrap_or(self.deadline);
        if self.reminded {
            closes
        } else {
            closes.min(self.deadline.saturating_sub(reminders::DIGEST_BEFORE))
        }
    }
}
