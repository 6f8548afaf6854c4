//! Every time zone (issue 29, campaign 5): every IANA zone chrono-tz knows, and every change of
//! its offset from 2026 to 2035, against the times Chancery computes and shows.
//!
//! - WM D.VII(2): a player's weekly unavailable period keeps its local hours every week, never
//!   lasts more than 64 real hours, and no week is lost (a skipped local hour included);
//! - deadlines as the players read them: the GMT time (canonical) and the local time beside
//!   it, at the right offset on both sides of each change;
//! - Nomic 106: the Nomic's own UK calendar (computed without chrono) against Europe/London,
//!   every hour and every midnight of the ten years.
//!
//! Deadlines, reminders and extensions are GMT arithmetic (seconds, never local days), so the
//! local side of them is the text shown, checked here at every change.

use chancery::engine::extension::weekly_windows;
use chancery::outgoing::time::{deadline_text, gmt_human};
use chancery_intake::sections::WeeklyPeriod;
use chancery_nomic::uk_time;
use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Offset, TimeZone, Timelike, Utc};
use chrono_tz::{TZ_VARIANTS, Tz};

const HOUR: i64 = 3600;
const DAY: i64 = 86_400;
const WEEK: i64 = 7 * DAY;
/// WM D.VII(2): "a specific 64 hour period during each week".
const MAX_REAL: i64 = 64 * HOUR;

fn at(s: &str) -> i64 {
    DateTime::parse_from_rfc3339(s).expect("date").timestamp()
}

/// 2026-01-01 to 2036-01-01, GMT.
fn span() -> (i64, i64) {
    (at("2026-01-01T00:00:00Z"), at("2036-01-01T00:00:00Z"))
}

fn offset(tz: Tz, t: i64) -> i32 {
    let utc = DateTime::from_timestamp(t, 0).expect("t").naive_utc();
    tz.offset_from_utc_datetime(&utc).fix().local_minus_utc()
}

fn local(tz: Tz, t: i64) -> NaiveDateTime {
    DateTime::from_timestamp(t, 0)
        .expect("t")
        .with_timezone(&tz)
        .naive_local()
}

/// The moments from 2026 to 2035 at which `tz`'s offset changes (each the first second of the
/// new offset): found a day at a time, then to the second.
fn changes(tz: Tz) -> Vec<i64> {
    let (from, to) = span();
    let mut out = Vec::new();
    let mut t = from;
    while t < to {
        if offset(tz, t) != offset(tz, t + DAY) {
            let (mut lo, mut hi) = (t, t + DAY);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if offset(tz, mid) == offset(tz, lo) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            out.push(hi);
        }
        t += DAY;
    }
    out
}

/// The weekly periods tried in every zone: the WM example, two more of 64 local hours, one
/// over the hours the clocks usually change in, and one across the week's end.
fn periods() -> Vec<WeeklyPeriod> {
    let p = |from_day, from_h: u16, from_m: u16, to_day, to_h: u16| WeeklyPeriod {
        from_day,
        from_minute: from_h * 60 + from_m,
        to_day,
        to_minute: to_h * 60,
        zone: None,
    };
    vec![
        // "5pm Friday to 9am Monday".
        p(4, 17, 0, 0, 9),
        // Thursday 23:00 to Sunday 15:00.
        p(3, 23, 0, 6, 15),
        // Saturday 01:30 to Monday 17:00 (begins in many zones' skipped or repeated hour once a
        // year, when their change falls on a Saturday night).
        p(5, 1, 30, 0, 17),
        // Sunday 01:30 to 04:00: the hours the clocks change in, in most zones.
        p(6, 1, 30, 6, 4),
        // Sunday 20:00 to Tuesday 12:00, across the week's end.
        p(6, 20, 0, 1, 12),
    ]
}

fn local_minutes(p: &WeeklyPeriod) -> i64 {
    let at = |d: u8, m: u16| i64::from(d) * 1440 + i64::from(m);
    (at(p.to_day, p.to_minute) - at(p.from_day, p.from_minute)).rem_euclid(7 * 1440)
}

/// WM D.VII(2) in every zone, every week of 2026 to 2035.
#[test]
fn wm_d_vii_2_weekly_periods_in_every_zone_keep_their_hours_and_never_pass_64_real_hours() {
    let (from, to) = span();
    let weeks = (to - from) / WEEK + 1;
    let mut checked = 0usize;
    let mut capped = 0usize;
    let mut skipped_starts = 0usize;
    for tz in TZ_VARIANTS {
        for p in periods() {
            let ws = weekly_windows(&p, tz, from, weeks, MAX_REAL);
            assert!(
                ws.len() as i64 >= weeks - 1,
                "{tz:?}: {} windows for {weeks} weeks",
                ws.len()
            );
            let length = local_minutes(&p) * 60;
            for (k, w) in ws.iter().enumerate() {
                let real = w.to - w.from;
                assert!(
                    real > 0 && real <= MAX_REAL,
                    "{tz:?} {p:?}: {} lasts {real} s",
                    gmt_human(w.from).unwrap_or_default()
                );
                // Offsets change by at most 2 hours (Antarctica/Troll), so the real length is
                // the local one give or take that, or cut at 64 hours.
                assert!(
                    (real - length).abs() <= 2 * HOUR || real == MAX_REAL,
                    "{tz:?} {p:?}: {real} s for {length} local s"
                );
                // Cut: 64 real hours with the clocks put back inside it.
                let cut = real == MAX_REAL && offset(tz, w.from) != offset(tz, w.to - 1);
                capped += usize::from(cut);
                // It begins at its local hours on its weekday; a local time the clocks skipped
                // that day is read at the offset before the skip, so it begins right after it.
                let starts = local(tz, w.from);
                let declared_day = starts.date()
                    - chrono::Duration::days(
                        (i64::from(starts.weekday().num_days_from_monday())
                            - i64::from(p.from_day))
                        .rem_euclid(7),
                    );
                let declared = declared_day
                    .and_hms_opt(
                        u32::from(p.from_minute / 60),
                        u32::from(p.from_minute % 60),
                        0,
                    )
                    .expect("time");
                if starts != declared {
                    skipped_starts += 1;
                    assert!(
                        tz.from_local_datetime(&declared).earliest().is_none(),
                        "{tz:?} {p:?}: begins at {starts}, not {declared}, which exists"
                    );
                    let late = (starts - declared).num_seconds();
                    assert!(late > 0 && late <= 2 * HOUR, "{tz:?} {p:?}: {starts}");
                }
                // It ends at its local hours too, unless cut, or the clocks skipped them.
                let declared_end = declared + chrono::Duration::seconds(length);
                let ends = local(tz, w.to);
                if ends != declared_end && !cut {
                    assert!(
                        tz.from_local_datetime(&declared_end).earliest().is_none(),
                        "{tz:?} {p:?}: ends at {ends}, not {declared_end}, which exists"
                    );
                    let late = (ends - declared_end).num_seconds();
                    assert!(late > 0 && late <= 2 * HOUR, "{tz:?} {p:?}: ends {ends}");
                }
                // One occurrence a week, none lost, none overlapping the next.
                if let Some(next) = ws.get(k + 1) {
                    let gap = next.from - w.from;
                    assert!(
                        (gap - WEEK).abs() <= 2 * HOUR,
                        "{tz:?} {p:?}: {} then {}",
                        gmt_human(w.from).unwrap_or_default(),
                        gmt_human(next.from).unwrap_or_default()
                    );
                    assert!(w.to <= next.from, "{tz:?} {p:?}: overlaps the next");
                }
                checked += 1;
            }
        }
    }
    eprintln!(
        "{} zones, {checked} weekly occurrences: {capped} cut at 64 real hours, {skipped_starts} begun after a skipped local time",
        TZ_VARIANTS.len()
    );
    assert!(TZ_VARIANTS.len() > 400 && checked > 1_000_000);
    assert!(capped > 0 && skipped_starts > 0, "the cases were reached");
}

/// The clock time and zone abbreviation shown beside the GMT time, read back.
fn shown_local(text: &str, zone: &str) -> Option<(u32, u32)> {
    let inner = text
        .split_once(" (")?
        .1
        .strip_suffix(&format!(", {zone})"))?;
    let clock = inner.rsplit(", ").next()?.split(' ').next()?;
    let mut hm = clock.split(':');
    Some((hm.next()?.parse().ok()?, hm.next()?.parse().ok()?))
}

/// A deadline at every offset change of every zone (and a second and an hour either side):
/// the GMT time is the canonical one, and the local time beside it is the one that instant
/// has there, on the right side of the change.
#[test]
fn deadlines_show_gmt_and_the_local_time_of_the_instant_at_every_change_in_every_zone() {
    let mut checked = 0usize;
    let mut zones_with_changes = 0usize;
    for tz in TZ_VARIANTS {
        let name = tz.name();
        if name.eq_ignore_ascii_case("UTC") || name.starts_with("Etc/") || name == "GMT" {
            continue;
        }
        let cs = changes(tz);
        zones_with_changes += usize::from(!cs.is_empty());
        for c in cs {
            for t in [c - HOUR, c - 1, c, c + 1, c + HOUR] {
                let text = deadline_text(t, name).expect("deadline text");
                let gmt = gmt_human(t).expect("gmt");
                assert!(text.starts_with(&gmt), "{name}: {text}");
                let Some((h, m)) = shown_local(&text, name) else {
                    panic!("{name}: no local time in {text}");
                };
                let l = local(tz, t);
                assert_eq!(
                    (h, m),
                    (l.hour(), l.minute()),
                    "{name} at {t} (offset {}): {text}",
                    offset(tz, t)
                );
                // The date is shown when it is not the GMT date.
                let utc = DateTime::<Utc>::from_timestamp(t, 0).expect("t");
                if l.date() != utc.date_naive() {
                    let day = l.format("%A %-d %B %Y").to_string();
                    assert!(text.contains(&day), "{name}: {text} lacks {day}");
                }
                checked += 1;
            }
        }
    }
    eprintln!(
        "{zones_with_changes} zones change offset from 2026 to 2035; {checked} deadlines shown"
    );
    assert!(zones_with_changes > 100 && checked > 10_000);
}

/// Nomic 106 ("All times specified in rules in UK time"): the Nomic's own UK calendar against
/// chrono-tz's Europe/London, every hour and every midnight from 2026 to 2035.
#[test]
fn nomic_106_uk_time_is_europe_london_every_hour_from_2026_to_2035() {
    let london = chrono_tz::Europe::London;
    let (from, to) = span();
    let mut t = from;
    while t < to {
        for s in [t, t + 1799] {
            let ours = uk_time::to_uk(s);
            let theirs = local(london, s);
            assert_eq!(
                (
                    ours.date.year,
                    ours.date.month,
                    ours.date.day,
                    ours.hour(),
                    ours.minute()
                ),
                (
                    i64::from(theirs.year()),
                    i64::from(theirs.month()),
                    i64::from(theirs.day()),
                    i64::from(theirs.hour()),
                    i64::from(theirs.minute())
                ),
                "at {s}"
            );
            assert_eq!(ours.summer, offset(london, s) == 3600, "at {s}");
        }
        t += HOUR;
    }
    let mut day = NaiveDate::from_ymd_opt(2026, 1, 1).expect("date");
    while day < NaiveDate::from_ymd_opt(2036, 1, 1).expect("date") {
        let date = uk_time::UkDate {
            year: i64::from(day.year()),
            month: i64::from(day.month()),
            day: i64::from(day.day()),
        };
        let midnight = london
            .from_local_datetime(&day.and_hms_opt(0, 0, 0).expect("midnight"))
            .earliest()
            .expect("midnight exists in London")
            .timestamp();
        assert_eq!(uk_time::start_of_uk_day(date), midnight, "{day}");
        assert_eq!(
            uk_time::end_of_uk_day(midnight),
            london
                .from_local_datetime(
                    &(day + chrono::Duration::days(1))
                        .and_hms_opt(0, 0, 0)
                        .expect("t")
                )
                .earliest()
                .expect("t")
                .timestamp(),
            "{day}"
        );
        day += chrono::Duration::days(1);
    }
    assert_eq!(changes(london).len(), 20, "two changes a year");
}
