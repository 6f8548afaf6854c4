//! Times as mails show them: GMT is canonical (WM D.VII(4)(b), Maharajiad B.VIII(4)(b)); a
//! reader's own time zone (an IANA name) is shown beside it in brackets, and an unknown name
//! falls back to GMT with a note. These need chrono and the zone database, so they live here,
//! in the server; the pure calendar (GMT dates as people write them, `2026-12-01 18:00 GMT`) is
//! the office's, [`crate::time`]. Nothing here panics: a time out of range is
//! [`RenderError::Time`].

use crate::outgoing::render::{RenderError, one_line};
use crate::time::Ts;
use chrono::{DateTime, SecondsFormat, Utc};
use chrono_tz::Tz;
use serde::Serialize;

fn utc(ts: Ts) -> Result<DateTime<Utc>, RenderError> {
    DateTime::from_timestamp(ts, 0).ok_or(RenderError::Time(ts))
}

fn clock_fmt(seconds: u32) -> &'static str {
    if seconds == 0 { "%H:%M" } else { "%H:%M:%S" }
}

/// `2026-11-24T20:00:00Z`.
pub fn rfc3339(ts: Ts) -> Result<String, RenderError> {
    Ok(utc(ts)?.to_rfc3339_opts(SecondsFormat::Secs, true))
}

/// `Tuesday 24 November 2026, 20:00 GMT` (seconds shown when not zero).
pub fn gmt_human(ts: Ts) -> Result<String, RenderError> {
    use chrono::Timelike;
    let t = utc(ts)?;
    let f = format!("%A %-d %B %Y, {} GMT", clock_fmt(t.second()));
    Ok(t.format(&f).to_string())
}

/// `Tuesday 24 November 2026, 20:00 GMT`, or the unix time itself when it is out of range (for
/// texts that cannot fail: command answers, alerts, the console).
pub fn gmt(ts: Ts) -> String {
    gmt_human(ts).unwrap_or_else(|_| format!("{ts} (unix time)"))
}

/// njudge's time format, in GMT: `Tue Nov 24 2026 20:00:00 GMT`.
pub fn njudge_time(ts: Ts) -> Result<String, RenderError> {
    Ok(utc(ts)?.format("%a %b %d %Y %H:%M:%S GMT").to_string())
}

/// A player's time zone, looked up once.
#[derive(Clone, Debug)]
pub struct Zone {
    tz: Option<Tz>,
    name: String,
    /// Set when the name is not a known zone: times are then in GMT only.
    pub note: Option<String>,
}

impl Zone {
    pub fn new(name: &str) -> Zone {
        let name = name.trim();
        let gmt_only = name.is_empty()
            || [
                "GMT", "UTC", "Z", "Etc/UTC", "Etc/GMT", "Etc/Zulu", "Etc/UCT", "UCT",
            ]
            .iter()
            .any(|g| g.eq_ignore_ascii_case(name));
        if gmt_only {
            return Zone {
                tz: None,
                name: String::new(),
                note: None,
            };
        }
        match name.parse::<Tz>() {
            Ok(tz) => Zone {
                tz: Some(tz),
                name: name.to_string(),
                note: None,
            },
            Err(_) => Zone {
                tz: None,
                name: String::new(),
                note: Some(format!(
                    "Your time zone \"{}\" is not known, so times are given in GMT only.",
                    one_line(name)
                )),
            },
        }
    }

    /// The local time for `ts`, `21:00 CET, Europe/Paris`, with the date when it is not the
    /// GMT date: `Wednesday 25 November 2026, 07:00 AEDT, Australia/Sydney`. `None` for GMT.
    pub fn local(&self, ts: Ts) -> Result<Option<String>, RenderError> {
        use chrono::Timelike;
        let Some(tz) = self.tz else { return Ok(None) };
        let t = utc(ts)?;
        let l = t.with_timezone(&tz);
        let clock = clock_fmt(l.second());
        let f = if l.date_naive() == t.date_naive() {
            format!("{clock} %Z")
        } else {
            format!("%A %-d %B %Y, {clock} %Z")
        };
        Ok(Some(format!("{}, {}", l.format(&f), self.name)))
    }
}

/// A time in every form a template may want.
#[derive(Serialize, Clone, Debug)]
pub(crate) struct TimeCtx {
    /// `2026-11-24T20:00:00Z`.
    pub(crate) rfc3339: String,
    /// `Tuesday 24 November 2026, 20:00 GMT`.
    pub(crate) gmt: String,
    /// `21:00 CET, Europe/Paris`, or none.
    pub(crate) local: Option<String>,
    /// `Tuesday 24 November 2026, 20:00 GMT (21:00 CET, Europe/Paris)`.
    pub(crate) full: String,
    /// `Tue Nov 24 2026 20:00:00 GMT`.
    pub(crate) njudge: String,
    /// `2026-11-24 20:00 GMT`.
    pub(crate) short: String,
}

pub(crate) fn time_ctx(ts: Ts, zone: &Zone) -> Result<TimeCtx, RenderError> {
    let gmt = gmt_human(ts)?;
    let local = zone.local(ts)?;
    let full = match &local {
        Some(l) => format!("{gmt} ({l})"),
        None => gmt.clone(),
    };
    Ok(TimeCtx {
        rfc3339: rfc3339(ts)?,
        gmt,
        local,
        full,
        njudge: njudge_time(ts)?,
        short: utc(ts)?.format("%Y-%m-%d %H:%M GMT").to_string(),
    })
}

/// A deadline as players read it: `Tuesday 24 November 2026, 20:00 GMT (21:00 CET,
/// Europe/Paris)`. An unknown zone gives the GMT time alone.
pub fn deadline_text(ts: Ts, tz: &str) -> Result<String, RenderError> {
    Ok(time_ctx(ts, &Zone::new(tz))?.full)
}

/// `2 days 3 hours`, `45 minutes`, or `0 minutes` for the past.
pub(crate) fn duration_text(secs: Ts) -> String {
    let secs = secs.max(0);
    let (d, h, m) = (secs / 86_400, secs % 86_400 / 3600, secs % 3600 / 60);
    let unit = |n: Ts, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(unit(d, "day"));
    }
    if h > 0 {
        parts.push(unit(h, "hour"));
    }
    if d == 0 && (m > 0 || h == 0) {
        parts.push(unit(m, "minute"));
    }
    parts.join(" ")
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration_text(0), "0 minutes");
        assert_eq!(duration_text(-5), "0 minutes");
        assert_eq!(duration_text(45 * 60), "45 minutes");
        assert_eq!(duration_text(3600 + 60), "1 hour 1 minute");
        assert_eq!(duration_text(2 * 86_400 + 3 * 3600 + 59), "2 days 3 hours");
    }

    #[test]
    fn out_of_range_time_is_an_error() {
        assert_eq!(gmt_human(i64::MAX), Err(RenderError::Time(i64::MAX)));
        assert!(deadline_text(i64::MIN, "Europe/Paris").is_err());
        assert_eq!(gmt(i64::MAX), format!("{} (unix time)", i64::MAX));
    }
}
