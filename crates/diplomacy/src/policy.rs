//! The game rules around the adjudicator: deadlines, extensions, unavailable periods, early
//! adjudication, late orders, how order sets combine, NMRs. (Whether a mail is acceptable at all
//! is chancery-intake's `acceptance`.) All pure: times are seconds since the Unix epoch, in GMT,
//! and the clock is always passed in, so that any past incident can be replayed in a test.

use crate::map::Power;
use crate::order::Order;
use crate::phase::{Phase, PhaseKind};
use crate::rules::{LateOrders, Rules, Submissions};
use crate::timetable;

pub use chancery_office::time::{DAY, HOUR, Ts, WEEK, Window};

/// "One period during each week" (WM D.VII(2)): two of a player's periods are in one week when
/// they start less than a week apart. A weekly period keeps its local hours across daylight-saving
/// changes, so its occurrences are a week give or take an hour apart: that hour is allowed.
const WEEK_SLACK: Ts = HOUR;

/// Whether periods starting at `a` and `b` fall in one week (WM D.VII(2)).
pub fn same_week(a: Ts, b: Ts) -> bool {
    (a - b).abs() < WEEK - WEEK_SLACK
}

/// The dated unavailable periods a player may have declared and not yet over. A limit of the
/// server, not a house rule: neither rulebook counts them beyond "one period a week" (WM
/// D.VII(2); Maharajiad B.VIII(2)), which bounds how often, not how far ahead; this bounds the
/// rows one player can add.
pub const UNAVAILABLE_AHEAD_MAX: u32 = 8;

/// What the store found of a player's own periods around a new one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwnPeriods {
    /// The player's period (dated or an occurrence of the weekly one) that starts nearest the
    /// new one within a week either side, and whether it is weekly.
    pub nearest: Option<(Window, bool)>,
    /// The player's dated periods not yet over.
    pub ahead: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnavailableRefused {
    EndsBeforeStart,
    /// WM D.VII(2): "a specific 64 hour period".
    TooLong {
        max_hours: u32,
        hours: i64,
    },
    /// Declared in advance, with the notice an extension needs (WM D.VII(2) read with
    /// D.VII(5)): never in the past, and never at the last minute to move a deadline.
    TooSoon {
        notice_hours: u32,
    },
    /// WM D.VII(2): one period a week; `other` is the player's period in that week.
    SecondInAWeek {
        other: Window,
        weekly: bool,
    },
    /// [`UNAVAILABLE_AHEAD_MAX`].
    TooMany {
        max: u32,
    },
}

impl std::fmt::Display for UnavailableRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnavailableRefused::EndsBeforeStart => write!(f, "the period ends before it starts"),
            UnavailableRefused::TooLong { max_hours, hours } => write!(
                f,
                "an unavailable period may last at most {max_hours} hours (WM D.VII(2)); this one \
                 lasts {hours} hours"
            ),
            UnavailableRefused::TooSoon { notice_hours } => write!(
                f,
                "an unavailable period must be declared at least {notice_hours} hours before it \
                 starts, as an extension must be asked (WM D.VII(2), D.VII(5))"
            ),
            UnavailableRefused::SecondInAWeek { weekly: true, .. } => write!(
                f,
                "you have a weekly unavailable period, and a player has one period a week (WM \
                 D.VII(2)): change the weekly one, or withdraw it with UNAVAILABLE WEEKLY NONE"
            ),
            // The engine names the other period (times are written outside the core).
            UnavailableRefused::SecondInAWeek { .. } => write!(
                f,
                "a player has one unavailable period a week (WM D.VII(2)), and you have another \
                 that starts less than a week from this one"
            ),
            UnavailableRefused::TooMany { max } => write!(
                f,
                "you have {max} dated unavailable periods to come already, the most this server \
                 keeps for a player"
            ),
        }
    }
}

/// A dated unavailable period declared at `now` (WM D.VII(2); Maharajiad B.VIII(2)): at most
/// `unavailable_hours_max` hours, declared with the notice an extension needs
/// (`extension_notice_hours`, D.VII(5)), the player's only one in its week, and within the
/// limit of periods to come. `own`: what the store found of the player's periods around it.
pub fn unavailable_window(
    rules: &Rules,
    from: Ts,
    to: Ts,
    now: Ts,
    own: &OwnPeriods,
) -> Result<Window, UnavailableRefused> {
    if to <= from {
        return Err(UnavailableRefused::EndsBeforeStart);
    }
    let max = Ts::from(rules.unavailable_hours_max) * HOUR;
    if to - from > max {
        return Err(UnavailableRefused::TooLong {
            max_hours: rules.unavailable_hours_max,
            hours: (to - from + HOUR - 1) / HOUR,
        });
    }
    if from < now + unavailable_notice(rules) {
        return Err(UnavailableRefused::TooSoon {
            notice_hours: rules.extension_notice_hours,
        });
    }
    if own.ahead >= UNAVAILABLE_AHEAD_MAX {
        return Err(UnavailableRefused::TooMany {
            max: UNAVAILABLE_AHEAD_MAX,
        });
    }
    // One period a week: this also keeps periods from being chained into a longer one, however
    // close (a minute apart is one period).
    if let Some((other, weekly)) = own.nearest.filter(|(w, _)| same_week(w.from, from)) {
        return Err(UnavailableRefused::SecondInAWeek { other, weekly });
    }
    Ok(Window { from, to })
}

/// How long before it starts an unavailable period must be declared: the notice an extension
/// needs (WM D.VII(2) is silent; D.VII(5) gives extensions 12 hours, and a period that covers a
/// deadline moves it as an extension would).
pub fn unavailable_notice(rules: &Rules) -> Ts {
    Ts::from(rules.extension_notice_hours) * HOUR
}

/// The occurrences of a weekly period declared at `now` that stand (WM D.VII(2)): those that
/// start with the notice of [`unavailable_notice`], and none in a week that already has one of
/// the player's other periods (`own`: dated ones, and weekly ones already begun).
pub fn weekly_occurrences(
    rules: &Rules,
    occurrences: Vec<Window>,
    now: Ts,
    own: &[Window],
) -> Vec<Window> {
    let earliest = now + unavailable_notice(rules);
    occurrences
        .into_iter()
        .filter(|w| w.from >= earliest && !own.iter().any(|o| same_week(o.from, w.from)))
        .collect()
}

/// The time allowed for a turn of this kind (WM D.VII(4)(a)).
pub fn turn_length(rules: &Rules, kind: PhaseKind) -> Ts {
    let days = match kind {
        PhaseKind::Movement => rules.movement_days,
        PhaseKind::Retreat => rules.retreat_days,
        PhaseKind::Adjustment => rules.adjustment_days,
    };
    Ts::from(days) * DAY
}

/// Why a deadline the GM sets for a phase that started at `started` is too soon, if it is: in a
/// tournament game the turn may not be shorter than the rulebook's minimum without the
/// surviving players' consent (WM D.VII(4)(a); Maharajiad B.VIII(4)(a)).
pub fn deadline_too_soon(
    rules: &Rules,
    started: Ts,
    kind: PhaseKind,
    deadline: Ts,
) -> Option<String> {
    // The rulebook's minimum, or less if the players have consented to shorter turns (a passed
    // house-rule proposal); a GM who made turns longer may still go back to the minimum.
    let own = turn_length(rules, kind);
    let minimum = Rules::preset(&rules.name).map_or(own, |book| turn_length(&book, kind).min(own));
    (rules.binds_gm() && deadline < started + minimum).then(|| {
        format!(
            "a turn may not be shorter than {} day(s) without the players' consent (WM \
             D.VII(4)(a)): the earliest deadline for this phase is {} hours after it began",
            minimum / DAY,
            minimum / HOUR
        )
    })
}

/// Move `t` out of every unavailable period it falls in (to the end of the period).
pub fn past_windows(t: Ts, windows: &[Window]) -> Ts {
    let mut t = t;
    // Periods may overlap or chain; each pass moves forward, so this ends.
    for _ in 0..=windows.len() {
        match windows.iter().filter(|w| w.contains(t)).map(|w| w.to).max() {
            Some(end) => t = end,
            None => break,
        }
    }
    t
}

/// The deadline of a turn that starts at `start`. Agora BT15 (`utc_turns`): the timetable's
/// fixed times, which no unavailable period moves; a turn opened at `start` begins at the next
/// 00:00 UTC ([`timetable::opened_at`]).
pub fn deadline(rules: &Rules, start: Ts, kind: PhaseKind, windows: &[Window]) -> Ts {
    if rules.utc_turns {
        return timetable::opened_at(rules, start).deadline;
    }
    past_windows(start + turn_length(rules, kind), windows)
}

/// The deadline of the turn that follows one whose deadline was `passed`, adjudicated at `now`:
/// a turn's length from now, or (Agora BT15, `utc_turns`) the timetable's next turn, which
/// begins `resolution_hours` after the deadline passed, at 00:00 UTC
/// ([`timetable::following`]).
pub fn next_deadline(
    rules: &Rules,
    passed: Ts,
    now: Ts,
    kind: PhaseKind,
    windows: &[Window],
) -> Ts {
    if rules.utc_turns {
        return timetable::following(rules, passed, now).deadline;
    }
    deadline(rules, now, kind, windows)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExtensionRefused {
    /// WM D.VII(5): asked less than 12 hours before the deadline.
    TooLate {
        notice_hours: u32,
    },
    /// WM D.VII(5): more than the days the position has left.
    OverAllowance {
        left_days: u32,
    },
    NoDays,
    /// Agora BT15: the turns keep a fixed daily timetable; only the GM moves a deadline.
    FixedTimetable,
}

impl std::fmt::Display for ExtensionRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExtensionRefused::TooLate { notice_hours } => write!(
                f,
                "extensions must be asked at least {notice_hours} hours before the deadline (WM D.VII(5)); it may be asked again for a later turn"
            ),
            ExtensionRefused::OverAllowance { left_days } => write!(
                f,
                "this position has {left_days} day(s) of extension left in this game (WM D.VII(5))"
            ),
            ExtensionRefused::NoDays => write!(f, "ask for at least one day"),
            ExtensionRefused::FixedTimetable => write!(
                f,
                "this game's turns keep a fixed daily UTC timetable (Agora BT15): there are no \
                 extensions"
            ),
        }
    }
}

/// Is the next extension a position asks granted as of right? WM D.VII(5): one guaranteed
/// extension per player per game, further ones at the GM's discretion; Maharajiad B.VIII(5):
/// every extension within the allowance is guaranteed (`guaranteed_extensions` unset).
pub fn extension_is_guaranteed(rules: &Rules, granted_before: u32) -> bool {
    rules
        .guaranteed_extensions
        .is_none_or(|n| granted_before < n)
}

/// A holiday extension (WM D.VII(5); Maharajiad B.VIII(5)): the deadline moves by the
/// holiday's length in whole days (a part of a day counts as a day), out of any unavailable
/// period. It must be granted, and it is never charged.
pub fn holiday_extension(
    deadline: Ts,
    holiday_from: Ts,
    holiday_to: Ts,
    windows: &[Window],
) -> (u32, Ts) {
    let days = ((holiday_to - holiday_from).max(0) + DAY - 1) / DAY;
    let days = days.max(1);
    let days = u32::try_from(days).unwrap_or(u32::MAX);
    (days, past_windows(deadline + Ts::from(days) * DAY, windows))
}

/// An extension of `days`, asked at `asked`, for a position that has used `used_days`: the new
/// deadline, or why not.
pub fn extend(
    rules: &Rules,
    deadline: Ts,
    asked: Ts,
    days: u32,
    used_days: u32,
    windows: &[Window],
) -> Result<Ts, ExtensionRefused> {
    if rules.utc_turns {
        return Err(ExtensionRefused::FixedTimetable);
    }
    if days == 0 {
        return Err(ExtensionRefused::NoDays);
    }
    if deadline - asked < Ts::from(rules.extension_notice_hours) * HOUR {
        return Err(ExtensionRefused::TooLate {
            notice_hours: rules.extension_notice_hours,
        });
    }
    let left = rules.extension_days_total.saturating_sub(used_days);
    if days > left {
        return Err(ExtensionRefused::OverAllowance { left_days: left });
    }
    Ok(past_windows(deadline + Ts::from(days) * DAY, windows))
}

/// May the GM adjudicate before the deadline? Only when every power is Final, the minimum gap
/// since the last adjudication has passed, and nobody is in an unavailable period
/// (WM D.VII(2), Maharajiad B.VIII(2)). Never on Agora BT15's timetable (`utc_turns`): its
/// times are fixed, and orders may be changed until the deadline.
pub fn may_adjudicate_early(
    rules: &Rules,
    now: Ts,
    last_published: Option<Ts>,
    all_final: bool,
    windows: &[Window],
) -> bool {
    let gap = Ts::from(rules.early_adjudication_gap_hours) * HOUR;
    !rules.utc_turns
        && all_final
        && last_published.is_none_or(|t| now - t >= gap)
        && !windows.iter().any(|w| w.contains(now))
}

/// When an order mail counts as submitted: the GM's receipt, or the confirmation box's when it
/// is earlier and the house rules allow it (WM D.VII(1)).
pub fn submission_time(rules: &Rules, gm_received: Ts, confirm_received: Option<Ts>) -> Ts {
    match confirm_received {
        Some(c) if rules.confirmation_time_counts && c < gm_received => c,
        _ => gm_received,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timeliness {
    OnTime,
    /// After the deadline, but accepted until adjudication starts (Maharajiad B.VIII(3)).
    LateAccepted,
    /// After the deadline and refused (WM D.VII(3)).
    LateRefused,
    /// After the deadline, while an NMR holds the results, from the replacement the GM named
    /// since the deadline: the only orders a held phase takes (WM D.VII(6)(b)).
    Replacement,
}

pub fn timeliness(
    rules: &Rules,
    submitted: Ts,
    deadline: Ts,
    adjudication_started: bool,
) -> Timeliness {
    if submitted <= deadline {
        Timeliness::OnTime
    } else if rules.late_orders == LateOrders::UntilAdjudication && !adjudication_started {
        Timeliness::LateAccepted
    } else {
        Timeliness::LateRefused
    }
}

/// Orders in a phase whose results an NMR holds (WM D.VII(6)(b): "Any player who does not turn
/// in orders for these seasons will be replaced immediately. The GM will not release results
/// during either of these seasons if there is an NMR"). The phase stays closed as at its
/// deadline, to everyone: the hold is the start of adjudication for D.VII(3)'s Alternative Rule,
/// and no grace period opens. Only the replacement the GM named after the deadline
/// (`replaced_at`: when the power's player was last replaced in this phase) may send orders,
/// until the results go out.
pub fn timeliness_held(
    rules: &Rules,
    submitted: Ts,
    deadline: Ts,
    replaced_at: Option<Ts>,
) -> Timeliness {
    match timeliness(rules, submitted, deadline, true) {
        Timeliness::LateRefused if replaced_at.is_some_and(|t| t >= deadline) => {
            Timeliness::Replacement
        }
        t => t,
    }
}

fn unit_of(order: &Order) -> Option<crate::map::Province> {
    match order {
        Order::Build { .. } | Order::Waive => None,
        o => o.unit().map(|u| u.province),
    }
}

/// The order set that stands after a new one arrives: the new set alone (WM D.III(3)), or the
/// most recent order for each unit across both (the Alternative Rule). Builds, removals and
/// waives are a set of their own and are always replaced as a whole.
pub fn combine(rules: &Rules, standing: &[Order], new: &[Order]) -> Vec<Order> {
    match rules.submissions {
        Submissions::Replace => new.to_vec(),
        Submissions::MergePerUnit => {
            let mut out: Vec<Order> = standing
                .iter()
                .filter(|o| unit_of(o).is_some_and(|u| !new.iter().any(|n| unit_of(n) == Some(u))))
                .cloned()
                .collect();
            out.extend(new.iter().cloned());
            out
        }
    }
}

/// Has the game played its final year (WM B(3))? True once the phase that follows is that
/// year's Winter or any later phase: the Fall turn (with its retreats) is the last one played,
/// and the centre counts then stand.
pub fn final_year_played(rules: &Rules, next: Phase) -> bool {
    rules
        .final_year
        .is_some_and(|y| next.year > y || (next.year == y && next.kind == PhaseKind::Adjustment))
}

/// Whether the period `from..to` includes any part of a Saturday or a Sunday (GMT).
pub fn includes_weekend(from: Ts, to: Ts) -> bool {
    // 1970-01-01 was a Thursday: day 0 is weekday 4, counting Sunday as 0.
    let (first, last) = (from.div_euclid(DAY), (to - 1).div_euclid(DAY));
    (first..=last.min(first + 7)).any(|d| matches!((d + 4).rem_euclid(7), 0 | 6))
}

/// When the contact window of a player who NMRed in results published at `published` closes
/// (WM D.VII(6)(a); Maharajiad B.VIII(6)(a)): "within 48 hours [or 96 hours if the period
/// includes a weekend] of the publication of the adjudication". None: the game has none.
pub fn nmr_contact_deadline(rules: &Rules, published: Ts) -> Option<Ts> {
    let hours = Ts::from(rules.nmr_contact_hours?);
    let end = published + hours * HOUR;
    Some(if includes_weekend(published, end) {
        published + 2 * hours * HOUR
    } else {
        end
    })
}

/// An NMR in this phase holds the results back and the player is replaced (WM D.VII(6)(b)).
pub fn nmr_holds_results(rules: &Rules, phase: Phase, missing: &[Power]) -> bool {
    !missing.is_empty() && rules.no_nmr_phases.iter().any(|p| *p == phase.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;
    use crate::order::parse_order;

    fn wm() -> Rules {
        Rules::preset("wm2004").expect("wm2004")
    }
    fn mj() -> Rules {
        Rules::preset("maharajiad").expect("maharajiad")
    }

    const T0: Ts = 1_795_000_000; // a Sunday in November 2026, 08:26:40 GMT

    #[test]
    fn wm_b_3_the_final_year_ends_after_its_fall_turn() {
        let p = |s: &str| s.parse::<Phase>().expect("phase");
        let wm = wm();
        assert_eq!(wm.final_year, Some(1909));
        assert!(!final_year_played(&wm, p("F1909M")));
        assert!(
            !final_year_played(&wm, p("F1909R")),
            "Fall retreats are still played"
        );
        assert!(final_year_played(&wm, p("W1909A")));
        assert!(
            final_year_played(&wm, p("S1910M")),
            "no adjustments were due"
        );
        let final_round = wm.set("final_year", "1915").expect("set");
        assert!(!final_year_played(&final_round, p("W1909A")));
        assert!(
            !final_year_played(&Rules::default(), p("S1999M")),
            "no final year"
        );
    }

    #[test]
    fn wm_d_vii_4_turn_lengths() {
        assert_eq!(deadline(&wm(), T0, PhaseKind::Movement, &[]), T0 + 3 * DAY);
        assert_eq!(deadline(&wm(), T0, PhaseKind::Retreat, &[]), T0 + DAY);
        assert_eq!(deadline(&mj(), T0, PhaseKind::Movement, &[]), T0 + 4 * DAY);
        assert_eq!(
            deadline(&mj(), T0, PhaseKind::Adjustment, &[]),
            T0 + 2 * DAY
        );
    }

    #[test]
    fn wm_d_vii_2_no_deadline_in_an_unavailable_period() {
        let none = OwnPeriods::default();
        let w = unavailable_window(&wm(), T0 + 2 * DAY, T0 + 2 * DAY + 64 * HOUR, T0, &none)
            .expect("64 h");
        assert_eq!(deadline(&wm(), T0, PhaseKind::Movement, &[w]), w.to);
        assert_eq!(
            unavailable_window(&wm(), T0 + DAY, T0 + DAY + 65 * HOUR, T0, &none),
            Err(UnavailableRefused::TooLong {
                max_hours: 64,
                hours: 65
            })
        );
        // Periods of several players that chain are all skipped.
        let w2 = Window {
            from: w.to - HOUR,
            to: w.to + 10 * HOUR,
        };
        assert_eq!(deadline(&wm(), T0, PhaseKind::Movement, &[w, w2]), w2.to);
    }

    #[test]
    fn wm_d_vii_2_one_period_a_week_declared_with_notice() {
        let r = wm();
        let none = OwnPeriods::default();
        // Never in the past, nor at the last minute: the 12 hours an extension needs.
        let e = unavailable_window(&r, T0 - HOUR, T0 + 40 * HOUR, T0, &none).expect_err("past");
        assert_eq!(e, UnavailableRefused::TooSoon { notice_hours: 12 });
        assert!(e.to_string().contains("WM D.VII(2), D.VII(5)"), "{e}");
        assert!(unavailable_window(&r, T0 + 11 * HOUR, T0 + 40 * HOUR, T0, &none).is_err());
        assert!(unavailable_window(&r, T0 + 12 * HOUR, T0 + 40 * HOUR, T0, &none).is_ok());
        // One a week: right after another (a minute apart or abutting), or six days later, is
        // a second period in that week, whether the other is dated or weekly.
        let first = Window {
            from: T0 + DAY,
            to: T0 + DAY + 40 * HOUR,
        };
        for weekly in [false, true] {
            let own = OwnPeriods {
                nearest: Some((first, weekly)),
                ahead: 1,
            };
            for start in [first.to, first.to + 60, first.from + 6 * DAY] {
                assert_eq!(
                    unavailable_window(&r, start, start + 10 * HOUR, T0, &own),
                    Err(UnavailableRefused::SecondInAWeek {
                        other: first,
                        weekly
                    }),
                    "{weekly} {start}"
                );
            }
            // A week after the other began, it is the next week's period.
            let next = first.from + WEEK;
            assert!(unavailable_window(&r, next, next + 64 * HOUR, T0, &own).is_ok());
        }
        // The limit on periods to come.
        let many = OwnPeriods {
            nearest: None,
            ahead: UNAVAILABLE_AHEAD_MAX,
        };
        assert_eq!(
            unavailable_window(&r, T0 + DAY, T0 + 2 * DAY, T0, &many),
            Err(UnavailableRefused::TooMany {
                max: UNAVAILABLE_AHEAD_MAX
            })
        );
    }

    #[test]
    fn wm_d_vii_2_a_weekly_period_starts_with_notice_and_leaves_dated_weeks_alone() {
        let r = wm();
        let occ = |k: i64| Window {
            from: T0 + k * WEEK + HOUR,
            to: T0 + k * WEEK + 10 * HOUR,
        };
        // This week's begins within the notice; the player's dated period, midweek, is less
        // than a week from the occurrences before and after it.
        let dated = Window {
            from: T0 + 2 * WEEK + 3 * DAY,
            to: T0 + 2 * WEEK + 4 * DAY,
        };
        let kept = weekly_occurrences(&r, (0..5).map(occ).collect(), T0, &[dated]);
        assert_eq!(kept, vec![occ(1), occ(4)]);
        // Across a change of daylight saving an occurrence is an hour off the week.
        assert!(!same_week(T0, T0 + WEEK - HOUR));
        assert!(same_week(T0, T0 + WEEK - HOUR - 60));
    }

    #[test]
    fn wm_d_vii_6_a_48_hours_to_make_contact_or_96_over_a_weekend() {
        // Monday 2026-11-23 12:00 GMT: to Wednesday noon, no weekend.
        let monday = 1_795_435_200;
        assert!(!includes_weekend(monday, monday + 48 * HOUR));
        assert_eq!(
            nmr_contact_deadline(&wm(), monday),
            Some(monday + 48 * HOUR)
        );
        // Thursday noon: the 48 hours reach Saturday, so 96.
        let thursday = monday + 3 * DAY;
        assert!(includes_weekend(thursday, thursday + 48 * HOUR));
        assert_eq!(
            nmr_contact_deadline(&wm(), thursday),
            Some(thursday + 96 * HOUR)
        );
        // Wednesday noon to Friday noon: no weekend.
        assert_eq!(
            nmr_contact_deadline(&wm(), monday + 2 * DAY),
            Some(monday + 2 * DAY + 48 * HOUR)
        );
        assert_eq!(
            nmr_contact_deadline(&mj(), monday),
            Some(monday + 48 * HOUR)
        );
        let own = Rules::preset("dpv2023").expect("dpv");
        assert_eq!(nmr_contact_deadline(&own, monday), None);
    }

    #[test]
    fn wm_d_vii_4_a_the_gm_may_not_undercut_the_minimum_turn() {
        let r = wm();
        let e = deadline_too_soon(&r, T0, PhaseKind::Movement, T0 + 2 * DAY).expect("too soon");
        assert!(
            e.contains("WM D.VII(4)(a)") && e.contains("3 day(s)"),
            "{e}"
        );
        assert_eq!(
            deadline_too_soon(&r, T0, PhaseKind::Movement, T0 + 3 * DAY),
            None
        );
        assert_eq!(
            deadline_too_soon(&r, T0, PhaseKind::Retreat, T0 + DAY),
            None
        );
        // A game on the GM's own rules: the GM decides.
        let own = Rules::preset("dpv2023").expect("dpv");
        assert_eq!(
            deadline_too_soon(&own, T0, PhaseKind::Movement, T0 + HOUR),
            None
        );
    }

    #[test]
    fn wm_d_vii_5_a_holiday_extension_lasts_the_holiday() {
        let dl = T0 + 3 * DAY;
        assert_eq!(
            holiday_extension(dl, T0, T0 + 3 * DAY, &[]),
            (3, dl + 3 * DAY)
        );
        assert_eq!(
            holiday_extension(dl, T0, T0 + 3 * DAY + HOUR, &[]),
            (4, dl + 4 * DAY)
        );
        assert_eq!(holiday_extension(dl, T0, T0, &[]).0, 1, "at least a day");
    }

    #[test]
    fn wm_d_vii_5_one_guaranteed_extension_then_the_gms_discretion() {
        assert!(extension_is_guaranteed(&wm(), 0));
        assert!(!extension_is_guaranteed(&wm(), 1));
        // Maharajiad B.VIII(5): every extension within the 8 days is guaranteed.
        assert!(extension_is_guaranteed(&mj(), 5));
    }

    #[test]
    fn wm_d_vii_2_early_adjudication() {
        let r = wm();
        assert!(!may_adjudicate_early(
            &r,
            T0,
            Some(T0 - 23 * HOUR),
            true,
            &[]
        ));
        assert!(may_adjudicate_early(
            &r,
            T0,
            Some(T0 - 24 * HOUR),
            true,
            &[]
        ));
        assert!(!may_adjudicate_early(
            &r,
            T0,
            Some(T0 - 48 * HOUR),
            false,
            &[]
        ));
        let w = Window {
            from: T0 - HOUR,
            to: T0 + HOUR,
        };
        assert!(!may_adjudicate_early(&r, T0, None, true, &[w]));
    }

    #[test]
    fn agora_bt15_fixed_times_no_early_adjudication_no_extensions_no_unavailable_shift() {
        let r = Rules::preset("agora2020").expect("agora2020");
        assert!(r.utc_turns);
        // All orders final: still the deadline (orders may be changed until then).
        assert!(!may_adjudicate_early(&r, T0, None, true, &[]));
        assert_eq!(
            extend(&r, T0 + 5 * DAY, T0, 1, 0, &[]),
            Err(ExtensionRefused::FixedTimetable)
        );
        // A turn opened mid-day: due at noon UTC the day after the next midnight, whatever
        // unavailable period covers it.
        let midnight = crate::timetable::midnight_at_or_after(T0);
        let due = midnight + 36 * HOUR;
        let w = Window {
            from: due - HOUR,
            to: due + DAY,
        };
        assert_eq!(deadline(&r, T0, PhaseKind::Movement, &[w]), due);
        assert_eq!(deadline(&r, T0, PhaseKind::Retreat, &[]), due);
        // The next turn: 48 hours on, whatever the tick's lateness.
        assert_eq!(
            next_deadline(&r, due, due + 2 * HOUR, PhaseKind::Movement, &[w]),
            due + 2 * DAY
        );
        // Off the timetable, a turn's length from now, out of the windows.
        let wm = wm();
        assert_eq!(
            next_deadline(&wm, due, due + 2 * HOUR, PhaseKind::Retreat, &[]),
            due + 2 * HOUR + DAY
        );
    }

    #[test]
    fn wm_d_vii_5_extensions() {
        let r = wm();
        let dl = T0 + 3 * DAY;
        assert_eq!(extend(&r, dl, dl - 13 * HOUR, 2, 0, &[]), Ok(dl + 2 * DAY));
        assert_eq!(
            extend(&r, dl, dl - 11 * HOUR, 1, 0, &[]),
            Err(ExtensionRefused::TooLate { notice_hours: 12 })
        );
        assert_eq!(
            extend(&r, dl, dl - DAY, 3, 5, &[]),
            Err(ExtensionRefused::OverAllowance { left_days: 2 })
        );
        assert_eq!(extend(&mj(), dl, dl - DAY, 8, 0, &[]), Ok(dl + 8 * DAY));
    }

    #[test]
    fn wm_d_vii_1_confirmation_time_counts_when_earlier() {
        assert_eq!(submission_time(&wm(), T0, Some(T0 - 30)), T0 - 30);
        assert_eq!(submission_time(&wm(), T0, Some(T0 + 30)), T0);
        // Maharajiad B.VIII(1): only the GM's receipt counts.
        assert_eq!(submission_time(&mj(), T0, Some(T0 - 30)), T0);
    }

    #[test]
    fn wm_d_vii_3_late_orders() {
        assert_eq!(
            timeliness(&wm(), T0 + 1, T0, false),
            Timeliness::LateRefused
        );
        assert_eq!(timeliness(&wm(), T0, T0, false), Timeliness::OnTime);
        assert_eq!(
            timeliness(&mj(), T0 + 1, T0, false),
            Timeliness::LateAccepted
        );
        assert_eq!(timeliness(&mj(), T0 + 1, T0, true), Timeliness::LateRefused);
    }

    #[test]
    fn wm_d_vii_6_b_a_held_phase_takes_only_the_replacements_orders() {
        let dl = T0;
        for r in [wm(), mj()] {
            // Everyone is late, under either rule on late orders: the hold began adjudication.
            assert_eq!(
                timeliness_held(&r, dl + HOUR, dl, None),
                Timeliness::LateRefused
            );
            // A replacement named before the deadline had the deadline like everyone.
            assert_eq!(
                timeliness_held(&r, dl + HOUR, dl, Some(dl - HOUR)),
                Timeliness::LateRefused
            );
            assert_eq!(
                timeliness_held(&r, dl + 2 * HOUR, dl, Some(dl + HOUR)),
                Timeliness::Replacement
            );
            // Orders that reached the confirmation box in time are on time (WM D.VII(1)).
            assert_eq!(timeliness_held(&r, dl - 60, dl, None), Timeliness::OnTime);
        }
    }

    #[test]
    fn wm_d_iii_3_replace_or_merge() {
        let map = Map::standard();
        let o = |s: &str| parse_order(map, s).expect("order");
        let standing = vec![o("A PAR - BUR"), o("A MAR H"), o("F BRE - MAO")];
        let new = vec![o("A PAR - PIC")];
        assert_eq!(combine(&wm(), &standing, &new), new);
        let mut merge = wm();
        merge.submissions = Submissions::MergePerUnit;
        assert_eq!(
            combine(&merge, &standing, &new),
            vec![o("A MAR H"), o("F BRE - MAO"), o("A PAR - PIC")]
        );
    }

    #[test]
    fn wm_d_vii_6_b_no_nmr_in_1901() {
        let s: Phase = "S1901M".parse().expect("phase");
        let f2: Phase = "F1902M".parse().expect("phase");
        assert!(nmr_holds_results(&wm(), s, &[Power(1)]));
        assert!(!nmr_holds_results(&wm(), s, &[]));
        assert!(!nmr_holds_results(&wm(), f2, &[Power(1)]));
        assert!(!nmr_holds_results(&Rules::default(), s, &[Power(1)]));
    }
}
