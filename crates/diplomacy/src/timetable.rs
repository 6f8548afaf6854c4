//! Agora BT15's daily UTC timetable (`Rules::utc_turns`): "At the beginning of each turn, there
//! is a period, lasting from 0:00 UTC until 24:00 UTC on the same calendar day, in which
//! negotiations should occur. Following this, there is a period until 12:00 UTC on the
//! following day, during which orders CAN be submitted privately to the Gamemaster. The next
//! turn will begin at 24:00 UTC on that day, by which time the Gamemaster SHALL have resolved
//! the orders ... and announced the new state of the game."
//!
//! Pure: times are seconds since the epoch, UTC, and the clock is passed in.
//!
//! Decisions where BT15 is silent, each named in a test below:
//! - A turn always begins at 00:00 UTC. A turn opened off the timetable's course (a game started
//!   mid-day, a turn put back by a rollback) begins at the next 00:00 UTC: its orders are due
//!   `negotiation_hours + ordering_hours` after that midnight, and the hours before it are
//!   negotiation too (orders are accepted from the moment the turn is opened; BT15 lets orders
//!   be sent during negotiation).
//! - The next turn begins `resolution_hours` after the deadline, at the first 00:00 UTC at or
//!   after that (hours a proposal changed to something other than whole days still start the
//!   turn at midnight). The orders are adjudicated at the deadline and the new state announced
//!   at once, which is before the next turn begins, as "by which time" asks.
//! - The hours are read from the rules in force when the turn is opened: hours a proposal
//!   changed hold from the next turn on.
//! - A turn whose deadline would already have passed when it is opened (the server was down
//!   through a whole turn) begins at the next 00:00 UTC instead, so that no turn is played
//!   without its ordering period.

use crate::rules::Rules;
use chancery_office::time::{DAY, HOUR, Ts};

/// One turn of the timetable (Agora BT15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtcTurn {
    /// 00:00 UTC: the turn begins, with its negotiation period; orders may be sent from now on.
    pub begins: Ts,
    /// The negotiation period ends (24:00 UTC the same day with the defaults); the ordering
    /// period follows.
    pub negotiation_ends: Ts,
    /// Orders are due (12:00 UTC the day after the turn began, with the defaults): the turn's
    /// deadline, when it is adjudicated.
    pub deadline: Ts,
    /// The next turn begins (24:00 UTC the day after, with the defaults), the new state
    /// announced by then.
    pub next_begins: Ts,
}

/// The first 00:00 UTC at or after `t`.
pub fn midnight_at_or_after(t: Ts) -> Ts {
    t.div_euclid(DAY) * DAY + if t.rem_euclid(DAY) == 0 { 0 } else { DAY }
}

fn hours(h: u32) -> Ts {
    Ts::from(h) * HOUR
}

/// Agora BT15: the turn that begins at `begins` (a 00:00 UTC), under `rules`' hours.
pub fn turn(rules: &Rules, begins: Ts) -> UtcTurn {
    let negotiation_ends = begins + hours(rules.negotiation_hours);
    let deadline = negotiation_ends + hours(rules.ordering_hours);
    UtcTurn {
        begins,
        negotiation_ends,
        deadline,
        next_begins: midnight_at_or_after(deadline + hours(rules.resolution_hours)),
    }
}

/// Agora BT15: a turn opened at `opened` off the timetable's course (a game's start, a
/// rollback): it begins at the next 00:00 UTC.
pub fn opened_at(rules: &Rules, opened: Ts) -> UtcTurn {
    turn(rules, midnight_at_or_after(opened))
}

/// Agora BT15: the turn that follows one whose deadline was `deadline`, adjudicated at `now`:
/// it begins `resolution_hours` after that deadline, at 00:00 UTC, under `rules` (the rules in
/// force now: hours changed by a proposal hold from this turn on). One whose deadline would
/// already have passed begins at the next 00:00 UTC instead.
pub fn following(rules: &Rules, deadline: Ts, now: Ts) -> UtcTurn {
    let next = turn(
        rules,
        midnight_at_or_after(deadline + hours(rules.resolution_hours)),
    );
    if next.deadline > now {
        next
    } else {
        opened_at(rules, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_office::time::days_from_civil;

    /// 2020-07-08 at `h`:00 UTC (the 2020 tournament's first week).
    fn july(day: i64, h: i64) -> Ts {
        days_from_civil(2020, 7, day) * DAY + h * HOUR
    }

    fn agora() -> Rules {
        Rules::preset("agora2020").expect("agora2020")
    }

    #[test]
    fn agora_bt15_orders_are_due_at_noon_utc_the_day_after_the_turn_begins() {
        let t = turn(&agora(), july(8, 0));
        assert_eq!(t.begins, july(8, 0));
        // Negotiation from 0:00 until 24:00 UTC on the same calendar day...
        assert_eq!(t.negotiation_ends, july(9, 0));
        // ...then orders until 12:00 UTC on the following day...
        assert_eq!(t.deadline, july(9, 12));
        // ...and the next turn begins at 24:00 UTC on that day.
        assert_eq!(t.next_begins, july(10, 0));
        let next = following(&agora(), t.deadline, t.deadline);
        assert_eq!(next.begins, july(10, 0));
        assert_eq!(next.deadline, july(11, 12));
    }

    #[test]
    fn agora_bt15_the_next_turn_follows_the_deadline_even_when_the_tick_is_late() {
        // Adjudicated three hours late (mail not yet read through the deadline): the next turn
        // still begins at 24:00 UTC of the deadline's day.
        let next = following(&agora(), july(9, 12), july(9, 15));
        assert_eq!((next.begins, next.deadline), (july(10, 0), july(11, 12)));
        // A GM's DEADLINE at 15:00 instead of noon: the next turn begins at the next midnight
        // 12 hours after it, the day after.
        let next = following(&agora(), july(9, 15), july(9, 15));
        assert_eq!(next.begins, july(11, 0));
    }

    #[test]
    fn agora_bt15_a_game_started_mid_day_begins_its_first_turn_at_the_next_midnight_utc() {
        let t = opened_at(&agora(), july(7, 17) + 23 * 60);
        assert_eq!(t.begins, july(8, 0));
        assert_eq!(t.deadline, july(9, 12));
        // Started at midnight exactly: the turn begins then.
        assert_eq!(opened_at(&agora(), july(8, 0)).deadline, july(9, 12));
    }

    #[test]
    fn agora_bt15_hours_changed_mid_game_hold_from_the_next_turn() {
        // A proposal passed during the turn that began on the 8th: negotiation 48 hours,
        // orders 24, resolution 24.
        let changed = Rules {
            negotiation_hours: 48,
            ordering_hours: 24,
            resolution_hours: 24,
            ..agora()
        };
        let first = turn(&agora(), july(8, 0));
        let next = following(&changed, first.deadline, first.deadline);
        // 24 hours after noon on the 9th: the next turn begins at the next midnight, the 11th.
        assert_eq!(next.begins, july(11, 0));
        assert_eq!(next.negotiation_ends, july(13, 0));
        assert_eq!(next.deadline, july(14, 0));
        assert_eq!(next.next_begins, july(15, 0));
        // Hours that are not whole days still begin each turn at 00:00 UTC.
        let odd = Rules {
            resolution_hours: 5,
            ..agora()
        };
        assert_eq!(
            following(&odd, july(9, 12), july(9, 12)).begins,
            july(10, 0)
        );
    }

    #[test]
    fn agora_bt15_a_turn_missed_while_the_server_was_down_begins_at_the_next_midnight() {
        let next = following(&agora(), july(9, 12), july(12, 9));
        assert_eq!((next.begins, next.deadline), (july(13, 0), july(14, 12)));
    }
}
