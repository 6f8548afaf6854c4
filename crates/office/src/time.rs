//! Time as every kind of game counts it: a moment is seconds since the Unix epoch, UTC (GMT is
//! canonical; local time is only ever shown beside it). Nothing here reads a clock: the moment
//! is always passed in.

use std::fmt;

/// A moment: seconds since the Unix epoch, UTC.
pub type Ts = i64;

pub const MINUTE: Ts = 60;
pub const HOUR: Ts = 60 * MINUTE;
pub const DAY: Ts = 24 * HOUR;
pub const WEEK: Ts = 7 * DAY;

/// A period in which a player is unavailable (WM D.VII(2), and any kind's house rule like it):
/// nothing is published in it, and no deadline falls in it. `to` is exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub from: Ts,
    pub to: Ts,
}

impl Window {
    pub fn contains(&self, t: Ts) -> bool {
        self.from <= t && t < self.to
    }
}

// ---------------------------------------------------------------------------------------------
// The calendar: GMT dates as people write them, without a calendar crate (this crate has no
// clock and no chrono; the formats shown beside local time are the server's, src/outgoing/time.rs)
// ---------------------------------------------------------------------------------------------

/// `2026-12-01 18:00`, `2026-12-01 18:00 GMT`, `2026-12-01T18:00Z` or `2026-12-01` (midnight):
/// the moment, GMT. Years 1970 to 9999 only.
pub fn parse_gmt(s: &str) -> Option<Ts> {
    let s = s.trim();
    let s = s
        .strip_suffix("GMT")
        .or_else(|| s.strip_suffix("UTC"))
        .or_else(|| s.strip_suffix('Z'))
        .unwrap_or(s)
        .trim();
    let (date, time) = s
        .split_once(['T', ' '])
        .map_or((s, "00:00"), |(d, t)| (d, t.trim()));
    let mut d = date.split('-');
    let y: i64 = d.next()?.parse().ok()?;
    let m: i64 = d.next()?.parse().ok()?;
    let day: i64 = d.next()?.parse().ok()?;
    if d.next().is_some() || !(1970..=9999).contains(&y) || !(1..=12).contains(&m) {
        return None;
    }
    if day < 1 || day > days_in_month(y, m) {
        return None;
    }
    let mut t = time.split(':');
    let hh: i64 = t.next()?.parse().ok()?;
    let mm: i64 = t.next().unwrap_or("0").parse().ok()?;
    if t.next().is_some() || !(0..24).contains(&hh) || !(0..60).contains(&mm) {
        return None;
    }
    Some(days_from_civil(y, m, day) * DAY + hh * HOUR + mm * MINUTE)
}

/// `2026-12-01 18:00 GMT`.
pub fn format_gmt(t: Ts) -> String {
    let days = t.div_euclid(DAY);
    let secs = t.rem_euclid(DAY);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} GMT",
        secs / HOUR,
        (secs % HOUR) / MINUTE
    )
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

/// The days of month `m` (1 to 12) of year `y`, proleptic Gregorian.
pub fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date (year, month, day) of a count of days since 1970-01-01: the
/// inverse of [`days_from_civil`].
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A day of the week (the Nomic allocates one to each player, Nomic 201).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

impl Weekday {
    pub const ALL: [Weekday; 7] = [
        Weekday::Monday,
        Weekday::Tuesday,
        Weekday::Wednesday,
        Weekday::Thursday,
        Weekday::Friday,
        Weekday::Saturday,
        Weekday::Sunday,
    ];

    /// 0 for Monday to 6 for Sunday.
    pub fn index(self) -> i64 {
        match self {
            Weekday::Monday => 0,
            Weekday::Tuesday => 1,
            Weekday::Wednesday => 2,
            Weekday::Thursday => 3,
            Weekday::Friday => 4,
            Weekday::Saturday => 5,
            Weekday::Sunday => 6,
        }
    }

    /// The weekday of a count of days since 1970-01-01 (a Thursday).
    pub fn of_days(days: i64) -> Weekday {
        Weekday::ALL[usize::try_from((days + 3).rem_euclid(7)).unwrap_or(0)]
    }

    /// Saturday or Sunday (Nomic 201: "Any message posted in the voting thread on a Saturday
    /// or Sunday is to be considered void").
    pub fn is_weekend(self) -> bool {
        matches!(self, Weekday::Saturday | Weekday::Sunday)
    }

    /// `Monday`, `monday`, `Mon`: the day, in English.
    pub fn parse(s: &str) -> Option<Weekday> {
        let s = s.trim().to_ascii_lowercase();
        Weekday::ALL.into_iter().find(|d| {
            let name = d.to_string().to_ascii_lowercase();
            s == name || (s.len() == 3 && name.starts_with(&s))
        })
    }
}

impl fmt::Display for Weekday {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Weekday::Monday => "Monday",
            Weekday::Tuesday => "Tuesday",
            Weekday::Wednesday => "Wednesday",
            Weekday::Thursday => "Thursday",
            Weekday::Friday => "Friday",
            Weekday::Saturday => "Saturday",
            Weekday::Sunday => "Sunday",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_gmt_and_round_trip() {
        // 2026-12-01 18:00 GMT.
        assert_eq!(parse_gmt("2026-12-01 18:00"), Some(1_796_148_000));
        assert_eq!(parse_gmt("2026-12-01T18:00Z"), Some(1_796_148_000));
        assert_eq!(parse_gmt("2026-12-01 18:00 GMT"), Some(1_796_148_000));
        assert_eq!(format_gmt(1_796_148_000), "2026-12-01 18:00 GMT");
        assert_eq!(parse_gmt("2028-02-29"), Some(1_835_395_200));
        assert_eq!(parse_gmt("2027-02-29"), None);
        assert_eq!(parse_gmt("2026-13-01"), None);
        assert_eq!(parse_gmt("tomorrow"), None);
        for t in [0, 951_782_400, 1_796_148_000, 4_102_444_800] {
            assert_eq!(parse_gmt(&format_gmt(t)), Some(t));
        }
    }

    #[test]
    fn the_civil_calendar_round_trips() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(days_in_month(2000, 2), 29);
        assert_eq!(days_in_month(1900, 2), 28);
        assert_eq!(days_in_month(2026, 11), 30);
        for z in (-800_000..3_000_000).step_by(997) {
            let (y, m, d) = civil_from_days(z);
            assert!((1..=days_in_month(y, m)).contains(&d), "{z}");
            assert_eq!(days_from_civil(y, m, d), z);
        }
    }
}
