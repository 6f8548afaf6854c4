//! Nomic 106: "All times specified in rules in UK time. Days are considered to start and end in
//! UK time."
//!
//! UK time is GMT in winter and BST (GMT+1) in summer, from the last Sunday of March at 01:00
//! UTC to the last Sunday of October at 01:00 UTC (the UK and EU rule since 1996; earlier years
//! are counted by the same rule, which the game, begun in 2019, never reaches). Computed on the
//! office's civil calendar, without chrono and without a clock: every moment is passed in.

use chancery_office::Ts;
pub use chancery_office::time::Weekday;
use chancery_office::time::{DAY, HOUR, civil_from_days, days_from_civil, days_in_month};
use std::fmt;

/// A calendar date in the UK (Nomic 106: "Days are considered to start and end in UK time").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UkDate {
    pub year: i64,
    pub month: i64,
    pub day: i64,
}

impl UkDate {
    /// Days since 1970-01-01.
    pub fn days(self) -> i64 {
        days_from_civil(self.year, self.month, self.day)
    }

    pub fn from_days(days: i64) -> UkDate {
        let (year, month, day) = civil_from_days(days);
        UkDate { year, month, day }
    }

    /// Nomic 106, 201: the date's weekday.
    pub fn weekday(self) -> Weekday {
        Weekday::of_days(self.days())
    }

    /// The date `n` days later (earlier if negative).
    pub fn plus_days(self, n: i64) -> UkDate {
        UkDate::from_days(self.days().saturating_add(n))
    }
}

impl fmt::Display for UkDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// A moment as UK clocks show it (Nomic 106).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct UkTime {
    pub date: UkDate,
    /// Seconds since the UK midnight that began `date`, as the clock shows them (0 to 86 399).
    pub second_of_day: i64,
    /// BST (GMT+1) rather than GMT.
    pub summer: bool,
}

impl UkTime {
    pub fn hour(self) -> i64 {
        self.second_of_day / HOUR
    }

    pub fn minute(self) -> i64 {
        (self.second_of_day % HOUR) / 60
    }
}

/// A UK clock time turned back into a moment: once, twice (the hour repeated when BST ends), or
/// never (the hour skipped when it begins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UkLocal {
    Unique(Ts),
    /// Nomic 106 at the end of BST: 01:00 to 02:00 UK time happens twice, in BST then in GMT.
    Twice {
        first: Ts,
        second: Ts,
    },
    /// Nomic 106 at the start of BST: 01:00 to 02:00 UK time does not happen.
    Skipped,
}

impl UkLocal {
    /// The first moment the UK clock shows that time, if it does.
    pub fn earliest(self) -> Option<Ts> {
        match self {
            UkLocal::Unique(t) | UkLocal::Twice { first: t, .. } => Some(t),
            UkLocal::Skipped => None,
        }
    }
}

/// The day count of the last Sunday of `month` in `year`.
fn last_sunday(year: i64, month: i64) -> i64 {
    let last = days_from_civil(year, month, days_in_month(year, month));
    last - (Weekday::of_days(last).index() - Weekday::Sunday.index()).rem_euclid(7)
}

/// Nomic 106: when BST begins in `year`: the last Sunday of March, 01:00 UTC.
pub fn bst_begins(year: i64) -> Ts {
    last_sunday(year, 3)
        .saturating_mul(DAY)
        .saturating_add(HOUR)
}

/// Nomic 106: when BST ends in `year`: the last Sunday of October, 01:00 UTC.
pub fn bst_ends(year: i64) -> Ts {
    last_sunday(year, 10)
        .saturating_mul(DAY)
        .saturating_add(HOUR)
}

/// Nomic 106: whether UK clocks show BST at `t`.
pub fn is_bst(t: Ts) -> bool {
    let (year, _, _) = civil_from_days(t.div_euclid(DAY));
    bst_begins(year) <= t && t < bst_ends(year)
}

/// Nomic 106: a moment as UK clocks show it.
pub fn to_uk(t: Ts) -> UkTime {
    let summer = is_bst(t);
    let local = t.saturating_add(if summer { HOUR } else { 0 });
    UkTime {
        date: UkDate::from_days(local.div_euclid(DAY)),
        second_of_day: local.rem_euclid(DAY),
        summer,
    }
}

/// Nomic 106: the moment(s) UK clocks show `second_of_day` on `date` (0 to 86 399; outside it
/// counts into the next or previous day).
pub fn from_uk(date: UkDate, second_of_day: i64) -> UkLocal {
    let local = date
        .days()
        .saturating_mul(DAY)
        .saturating_add(second_of_day);
    let in_bst = local.saturating_sub(HOUR);
    let bst = is_bst(in_bst).then_some(in_bst);
    let gmt = (!is_bst(local)).then_some(local);
    match (bst, gmt) {
        (Some(first), Some(second)) => UkLocal::Twice { first, second },
        (Some(t), None) | (None, Some(t)) => UkLocal::Unique(t),
        (None, None) => UkLocal::Skipped,
    }
}

/// Nomic 106: the moment a UK day begins (00:00 UK time; the clocks change at 01:00 UTC, so
/// midnight always happens once).
pub fn start_of_uk_day(date: UkDate) -> Ts {
    let local = date.days().saturating_mul(DAY);
    from_uk(date, 0).earliest().unwrap_or(local)
}

/// Nomic 106, 113 ("Voting is completed at the end of the day"): 24:00 UK time of the UK day
/// `t` falls in, which is the next day's 00:00.
pub fn end_of_uk_day(t: Ts) -> Ts {
    start_of_uk_day(to_uk(t).date.plus_days(1))
}

/// Nomic 106, 201: the weekday of the UK day `t` falls in.
pub fn uk_weekday(t: Ts) -> Weekday {
    to_uk(t).date.weekday()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_office::time::parse_gmt;

    fn gmt(s: &str) -> Ts {
        parse_gmt(s).expect("a GMT date")
    }

    fn date(year: i64, month: i64, day: i64) -> UkDate {
        UkDate { year, month, day }
    }

    #[test]
    fn nomic_106_bst_begins_and_ends_on_the_last_sundays_at_0100_utc() {
        assert_eq!(bst_begins(2019), gmt("2019-03-31 01:00"));
        assert_eq!(bst_ends(2019), gmt("2019-10-27 01:00"));
        assert_eq!(bst_begins(2026), gmt("2026-03-29 01:00"));
        assert_eq!(bst_ends(2026), gmt("2026-10-25 01:00"));
        // A year whose last day of March is itself a Sunday (2024-03-31).
        assert_eq!(bst_begins(2024), gmt("2024-03-31 01:00"));
        assert!(!is_bst(gmt("2019-03-31 00:59")));
        assert!(is_bst(gmt("2019-03-31 01:00")));
        assert!(is_bst(gmt("2019-10-27 00:59")));
        assert!(!is_bst(gmt("2019-10-27 01:00")));
        assert!(!is_bst(gmt("2019-01-01 12:00")));
        assert!(is_bst(gmt("2019-07-01 12:00")));
    }

    #[test]
    fn nomic_106_uk_time_across_the_spring_switch() {
        // 00:59 UTC is 00:59 GMT; 01:00 UTC is 02:00 BST: 01:00-02:00 UK time is skipped.
        let before = to_uk(gmt("2019-03-31 00:59"));
        assert_eq!(
            (before.date, before.hour(), before.minute()),
            (date(2019, 3, 31), 0, 59)
        );
        let after = to_uk(gmt("2019-03-31 01:00"));
        assert_eq!(
            (after.date, after.hour(), after.summer),
            (date(2019, 3, 31), 2, true)
        );
        assert_eq!(from_uk(date(2019, 3, 31), 3600 + 1800), UkLocal::Skipped);
        assert_eq!(
            from_uk(date(2019, 3, 31), 19 * HOUR),
            UkLocal::Unique(gmt("2019-03-31 18:00"))
        );
        // The day before the switch is GMT: 23:30 UTC is still that day.
        assert_eq!(to_uk(gmt("2019-03-30 23:30")).date, date(2019, 3, 30));
        // In summer, 23:30 UTC is the next UK day.
        assert_eq!(to_uk(gmt("2019-06-03 23:30")).date, date(2019, 6, 4));
        assert_eq!(uk_weekday(gmt("2019-06-03 23:30")), Weekday::Tuesday);
    }

    #[test]
    fn nomic_106_uk_time_across_the_autumn_switch() {
        // 00:30 UTC is 01:30 BST; 01:30 UTC is 01:30 GMT: that UK time happens twice.
        assert_eq!(
            from_uk(date(2019, 10, 27), HOUR + 1800),
            UkLocal::Twice {
                first: gmt("2019-10-27 00:30"),
                second: gmt("2019-10-27 01:30")
            }
        );
        assert_eq!(to_uk(gmt("2019-10-27 00:30")).hour(), 1);
        assert_eq!(to_uk(gmt("2019-10-27 01:30")).hour(), 1);
        assert!(!to_uk(gmt("2019-10-27 01:30")).summer);
        for t in (gmt("2019-01-01")..gmt("2020-01-01")).step_by(3 * 3600 + 7) {
            let uk = to_uk(t);
            let back = from_uk(uk.date, uk.second_of_day);
            assert!(
                matches!(back, UkLocal::Unique(u) if u == t)
                    || matches!(back, UkLocal::Twice { first, second } if first == t || second == t),
                "{t}: {back:?}"
            );
        }
    }

    #[test]
    fn nomic_106_113_the_end_of_the_uk_day() {
        // Winter: midnight GMT.
        assert_eq!(
            end_of_uk_day(gmt("2019-02-11 10:00")),
            gmt("2019-02-12 00:00")
        );
        // Summer: 24:00 BST is 23:00 UTC, and a moment after it is in the next day.
        assert_eq!(
            end_of_uk_day(gmt("2019-06-03 10:00")),
            gmt("2019-06-03 23:00")
        );
        assert_eq!(
            end_of_uk_day(gmt("2019-06-03 23:00")),
            gmt("2019-06-04 23:00")
        );
        // The day BST begins is 23 hours long, the day it ends 25.
        let spring = start_of_uk_day(date(2019, 3, 31));
        assert_eq!(spring, gmt("2019-03-31 00:00"));
        assert_eq!(end_of_uk_day(spring) - spring, 23 * HOUR);
        let autumn = start_of_uk_day(date(2019, 10, 27));
        assert_eq!(autumn, gmt("2019-10-26 23:00"));
        assert_eq!(end_of_uk_day(autumn) - autumn, 25 * HOUR);
    }

    #[test]
    fn nomic_106_201_weekdays_of_uk_dates() {
        assert_eq!(date(2019, 2, 11).weekday(), Weekday::Monday);
        assert_eq!(date(1970, 1, 1).weekday(), Weekday::Thursday);
        assert_eq!(date(2019, 3, 31).weekday(), Weekday::Sunday);
        assert!(Weekday::Saturday.is_weekend() && !Weekday::Friday.is_weekend());
        assert_eq!(Weekday::parse(" wednesday"), Some(Weekday::Wednesday));
        assert_eq!(Weekday::parse("Thu"), Some(Weekday::Thursday));
        assert_eq!(Weekday::parse("Th"), None);
        assert_eq!(Weekday::of_days(-1), Weekday::Wednesday);
        // Any input, no panic.
        for t in [i64::MIN, i64::MIN / 2, -1, 0, i64::MAX / 2, i64::MAX] {
            let _ = (to_uk(t), end_of_uk_day(t), uk_weekday(t));
        }
    }
}
