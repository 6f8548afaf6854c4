//! Extensions and unavailable periods (WM D.VII(2), D.VII(5); Maharajiad B.VIII(2), (5)): the
//! requests a player makes in their mail, and what the GM's and TD's commands on them use
//! (`office/extension.rs`, `office/holiday.rs`). Each runs in the caller's transaction.

use super::Result;
use super::announce::announce;
use super::house::House;
use super::receive::alert_masters;
use super::windows;
use crate::config::Env;
use crate::outgoing::notices;
use crate::sections::WeeklyPeriod;
use crate::store::Conn;
use crate::store::{self, ExtensionKind, ExtensionRequest, GameRow, PhaseRow, PlayerRow};
use crate::time::{Ts, Window};
use crate::time::{format_gmt, parse_gmt};

/// A request in a player's mail that every kind of game answers alike, as the kind read it.
#[derive(Clone, Copy, Debug)]
pub enum Request<'r> {
    /// EXTEND <days> (WM D.VII(5)).
    Extension { days: u32 },
    /// A weekly unavailable period (WM D.VII(2)), or None: the weekly one withdrawn.
    Weekly { period: Option<&'r WeeklyPeriod> },
    /// EXTEND HOLIDAY (WM D.VII(5)).
    HolidayExtension,
    /// UNAVAILABLE <from> TO <to>, the dates as written (WM D.VII(2)).
    Unavailable { from: &'r str, to: &'r str },
}

/// A player's requests from one mail (extensions, holidays, unavailable periods), answered in
/// turn: each one sees the deadline and the periods as the ones before it left them.
pub struct Requests<'a> {
    env: &'a Env,
    g: &'a GameRow,
    house: &'a dyn House,
    phase: &'a PhaseRow,
    player: &'a PlayerRow,
    now: Ts,
    /// The deadline after the requests answered so far.
    pub deadline: Ts,
    /// The game's periods that can still hold a deadline back: read once for the whole mail,
    /// and kept up to date as its lines add to them.
    periods: Vec<store::UnavailableRow>,
}

impl<'a> Requests<'a> {
    #[allow(clippy::too_many_arguments)]
    pub async fn new(
        c: &mut Conn,
        env: &'a Env,
        g: &'a GameRow,
        house: &'a dyn House,
        phase: &'a PhaseRow,
        player: &'a PlayerRow,
        requests: &[Request<'_>],
        now: Ts,
    ) -> Result<Requests<'a>> {
        // Every request here looks at the game's periods: read them only for a mail with one.
        let periods = if !requests.is_empty() {
            store::unavailable_after(c, &g.id, now).await?
        } else {
            Vec::new()
        };
        Ok(Requests {
            env,
            g,
            house,
            phase,
            player,
            now,
            deadline: phase.deadline,
            periods,
        })
    }

    /// What the acknowledgement says of request `r`.
    pub async fn answer(&mut self, c: &mut Conn, r: Request<'_>) -> Result<String> {
        Ok(match r {
            Request::Extension { days } => self.extension(c, days).await?,
            Request::Weekly { period } => match self.weekly(c, period).await? {
                Ok(text) => text,
                Err(why) => format!("weekly unavailable period refused: {why}"),
            },
            Request::HolidayExtension => self.holiday(c).await?,
            Request::Unavailable { from, to } => self.dated(c, from, to).await?,
        })
    }

    /// EXTEND <days>: granted at once while guaranteed (WM D.VII(5)), else asked of the GM.
    async fn extension(&mut self, c: &mut Conn, days: u32) -> Result<String> {
        let (g, player, now) = (self.g, self.player, self.now);
        let wins = period_windows(&self.periods);
        let used = u32::try_from(player.extension_days_used).unwrap_or(u32::MAX);
        if let Err(e) = self.house.extend(self.deadline, now, days, used, &wins) {
            return Ok(format!("extension of {days} day(s) refused: {e}"));
        }
        let granted = store::extensions_granted(c, &g.id, &player.power).await?;
        if !self.house.extension_is_guaranteed(granted) {
            ask_gm(c, self.env, g, self.phase, &player.power, days, now).await?;
            return Ok(format!(
                "extension of {days} day(s) asked of the GM: your guaranteed extension \
                 has been used, and further ones are at the GM's discretion (WM \
                 D.VII(5)); you will be told the answer"
            ));
        }
        let who = (player.power.as_str(), player.address.as_str());
        let days = (days, ExtensionKind::Guaranteed);
        let house = self.house;
        self.deadline = grant(c, self.env, g, house, self.phase, who, days, &wins, now).await?;
        Ok(format!(
            "extension of {} day(s) granted (guaranteed: WM D.VII(5)): the \
             deadline is now {}; every player was told",
            days.0,
            format_gmt(self.deadline)
        ))
    }

    /// EXTEND HOLIDAY: the extension of a holiday the TD declared (WM D.VII(5)).
    async fn holiday(&mut self, c: &mut Conn) -> Result<String> {
        let wins = period_windows(&self.periods);
        let who = (self.player.power.as_str(), self.player.address.as_str());
        let (env, g, house, phase, now) = (self.env, self.g, self.house, self.phase, self.now);
        let taken = take_holiday(c, env, g, house, phase, who, &wins, now).await?;
        Ok(match taken {
            Ok(moved) => {
                self.deadline = moved;
                format!(
                    "holiday extension granted (WM D.VII(5); not charged): the \
                 deadline is now {}; every player was told",
                    format_gmt(moved)
                )
            }
            Err(why) => format!("holiday extension refused: {why}"),
        })
    }

    /// UNAVAILABLE <from> TO <to>: a dated period (WM D.VII(2)), checked against the player's
    /// own periods, recorded, and a deadline it covers moves out.
    async fn dated(&mut self, c: &mut Conn, f: &str, t: &str) -> Result<String> {
        let (Some(a), Some(b)) = (parse_gmt(f), parse_gmt(t)) else {
            return Ok("unavailable period refused: the dates could not be read".into());
        };
        let power = &self.player.power;
        let own = store::unavailable_near(c, &self.g.id, power, a, self.now).await?;
        let w = match self
            .house
            .unavailable_window(a, b, self.now, own.nearest, own.ahead)
        {
            Ok(w) => w,
            Err(e) => return Ok(format!("unavailable period refused: {e}")),
        };
        store::add_unavailable(c, &self.g.id, power, w.from, w.to).await?;
        self.periods.push(store::UnavailableRow {
            power: power.clone(),
            from_ts: w.from,
            to_ts: w.to,
            weekly: false,
        });
        // WM D.VII(2): no deadline inside a declared period, even one set before it was declared.
        let mut note = format!("unavailable from {f} to {t} GMT: recorded");
        if let Some(m) = self.move_out(c).await? {
            note.push_str(&format!(
                "; the deadline fell in this period and is now {}; every \
                                 player was told",
                format_gmt(m)
            ));
        }
        Ok(note)
    }

    /// A weekly unavailable period declared or withdrawn (WM D.VII(2)): its occurrences replace
    /// the player's earlier weekly ones not yet begun, from the first that comes with notice and
    /// leaving the weeks of the player's other periods alone (one period a week); a deadline it
    /// covers moves out; the masters are warned when the game's periods leave no time in a
    /// week. The note, or why the period is refused.
    async fn weekly(
        &mut self,
        c: &mut Conn,
        period: Option<&WeeklyPeriod>,
    ) -> Result<std::result::Result<String, WeeklyRefused>> {
        let (g, player, now) = (self.g, self.player, self.now);
        let Some(p) = period else {
            self.withdraw_weekly(c).await?;
            return Ok(Ok("your weekly unavailable period is withdrawn".into()));
        };
        let zone = p.zone.as_deref().unwrap_or(&player.tz);
        let Ok(tz) = zone.parse::<chrono_tz::Tz>() else {
            return Ok(Err(WeeklyRefused::NoSuchZone(zone.to_string())));
        };
        let minutes = weekly_minutes(p);
        let max_hours = self.house.unavailable_hours_max();
        if minutes == 0 || minutes > i64::from(max_hours) * 60 {
            return Ok(Err(WeeklyRefused::TooLong {
                max_hours,
                hours: (minutes + 59) / 60,
            }));
        }
        self.withdraw_weekly(c).await?;
        // The player's other periods: dated ones to come, and any begun in the past week.
        let since = now - crate::time::WEEK;
        let own = windows(&store::unavailable_since(c, &g.id, &player.power, since).await?);
        let max_real = i64::from(max_hours) * crate::time::HOUR;
        let ahead = weekly_windows(p, tz, now, WEEKLY_AHEAD, max_real);
        let occurrences = self.house.weekly_occurrences(ahead, now, &own);
        let Some(first) = occurrences.first().copied() else {
            return Ok(Err(WeeklyRefused::NoWeekLeft));
        };
        let rows: Vec<(Ts, Ts)> = occurrences.iter().map(|w| (w.from, w.to)).collect();
        store::add_weekly(c, &g.id, &player.power, &rows).await?;
        self.periods
            .extend(occurrences.iter().map(|w| store::UnavailableRow {
                power: player.power.clone(),
                from_ts: w.from,
                to_ts: w.to,
                weekly: true,
            }));
        let mut note = format!(
            "recorded, in {zone} time, every week until withdrawn, the first from {} (WM D.VII(2): \
             declared {} hours ahead at least, and one period a week)",
            format_gmt(first.from),
            self.house.extension_notice_hours()
        );
        if let Some(m) = self.move_out(c).await? {
            note.push_str(&format!(
                "; the deadline fell in it and is now {}; every player was told",
                format_gmt(m)
            ));
        }
        self.warn_if_no_time(c).await?;
        Ok(Ok(note))
    }

    /// The player's weekly period, withdrawn from the occurrences not yet begun.
    async fn withdraw_weekly(&mut self, c: &mut Conn) -> Result<()> {
        let (player, now) = (self.player, self.now);
        store::withdraw_weekly(c, &self.g.id, &player.power, now).await?;
        self.periods
            .retain(|r| !(r.power == player.power && r.weekly && r.from_ts > now));
        Ok(())
    }

    /// The deadline moved out of the periods (WM D.VII(2)), if it fell in one.
    async fn move_out(&mut self, c: &mut Conn) -> Result<Option<Ts>> {
        let wins = period_windows(&self.periods);
        let (env, g, house, phase, now) = (self.env, self.g, self.house, self.phase, self.now);
        let at = (house, phase);
        let moved = move_out_of_periods(c, env, g, at, self.deadline, &wins, now).await?;
        if let Some(m) = moved {
            self.deadline = m;
        }
        Ok(moved)
    }

    /// WM D.VII(2): "If several players state different unavailable periods such that the GM
    /// thinks significant problems will arise, the GM must warn the TD": a week with no time
    /// left for a deadline is such a problem.
    async fn warn_if_no_time(&self, c: &mut Conn) -> Result<()> {
        let (g, now) = (self.g, self.now);
        if !no_time_in_a_week(&period_windows(&self.periods), now) {
            return Ok(());
        }
        alert_masters(
            c,
            self.env,
            Some(g),
            &format!("weekly-blocked|{}|{now}", g.id),
            &format!(
                "{}: the players' unavailable periods leave no time in a week",
                g.id
            ),
            &notices::weekly_blocked(&notices::WeeklyBlocked {
                game: &g.id,
                power: &self.player.power,
            })?,
            now,
        )
        .await
    }
}

/// Why a weekly unavailable period is refused (WM D.VII(2)).
#[derive(Debug, thiserror::Error)]
pub enum WeeklyRefused {
    #[error("'{0}' is not a time zone (write one such as America/New_York)")]
    NoSuchZone(String),
    #[error(
        "a weekly period lasts at most {max_hours} hours (WM D.VII(2)); this one lasts {hours} hours"
    )]
    TooLong { max_hours: u32, hours: i64 },
    #[error(
        "every week ahead already has one of your unavailable periods (WM D.VII(2): one a \
         week); your earlier weekly period is withdrawn"
    )]
    NoWeekLeft,
}

/// Why a holiday extension cannot be taken (WM D.VII(5)).
#[derive(Debug, thiserror::Error)]
#[error("no holiday the TD declared falls in this turn, or its extension has been taken")]
pub struct NoHoliday;

/// The game's unavailable periods not over at `now`: those that can hold a deadline back.
pub async fn game_windows(c: &mut Conn, g: &GameRow, now: Ts) -> Result<Vec<Window>> {
    Ok(period_windows(
        &store::unavailable_after(c, &g.id, now).await?,
    ))
}

/// The windows of a game's periods.
fn period_windows(periods: &[store::UnavailableRow]) -> Vec<Window> {
    periods
        .iter()
        .map(|p| Window {
            from: p.from_ts,
            to: p.to_ts,
        })
        .collect()
}

/// A deadline that falls in a declared unavailable period moves to its end (WM D.VII(2)), and
/// every player is told. The new deadline, if it moved.
async fn move_out_of_periods(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    (house, phase): (&dyn House, &PhaseRow),
    deadline: Ts,
    wins: &[Window],
    now: Ts,
) -> Result<Option<Ts>> {
    let moved = house.past_windows(deadline, wins);
    if moved == deadline {
        return Ok(None);
    }
    store::set_deadline(c, &g.id, phase.seq, moved).await?;
    let text = notices::deadline_out_of_period(&notices::DeadlineOutOfPeriod {
        phase: &phase.phase,
    })?;
    announce(
        c,
        env,
        g,
        &format!("{}|unavailable|{}|{moved}", g.id, phase.phase),
        "the deadline has moved",
        &text,
        Some(moved),
        now,
    )
    .await?;
    Ok(Some(moved))
}

/// How many weeks of a weekly period are kept ahead (a tournament game lasts less).
const WEEKLY_AHEAD: i64 = 104;

/// The length of a weekly period in minutes (it may run over the week's end).
fn weekly_minutes(p: &WeeklyPeriod) -> i64 {
    let at = |day: u8, minute: u16| i64::from(day) * 1440 + i64::from(minute);
    (at(p.to_day, p.to_minute) - at(p.from_day, p.from_minute)).rem_euclid(7 * 1440)
}

/// The occurrences of a weekly period as GMT windows, from the week of `now` on for `weeks`
/// weeks (those already over left out). Each starts and ends at its local hours in `tz`, so it
/// keeps them across daylight-saving changes (WM D.VII(2): "5pm Friday to 9am Monday US
/// Eastern"), except that none lasts more than `max_real` seconds: WM D.VII(2) allows "a
/// specific 64 hour period", and the week the clocks go back, 5pm Friday to 9am Monday is 65
/// real hours (it then ends 64 hours after it began, at 8am). Public for the property test over
/// every time zone (tests/time_zones.rs).
pub fn weekly_windows(
    p: &WeeklyPeriod,
    tz: chrono_tz::Tz,
    now: Ts,
    weeks: i64,
    max_real: Ts,
) -> Vec<Window> {
    use chrono::{Datelike, Duration, TimeZone};
    let Some(utc_now) = chrono::DateTime::from_timestamp(now, 0) else {
        return Vec::new();
    };
    let local = utc_now.with_timezone(&tz).naive_local();
    let monday = local.date() - Duration::days(i64::from(local.weekday().num_days_from_monday()));
    // A local time that does not exist (the clocks skip it in spring) is read at the offset in
    // force before the skip, so it lands as far after the skip as it was into it: 02:30 in a
    // skipped 02:00-03:00 is 03:30, 01:30 in Troll's skipped 01:00-03:00 is 03:30 (an hour
    // later would still be skipped there, and the week's period was lost).
    let to_utc = |t: chrono::NaiveDateTime| {
        use chrono::Offset;
        tz.from_local_datetime(&t)
            .earliest()
            .map(|d| d.timestamp())
            .or_else(|| {
                let before = tz.offset_from_utc_datetime(&(t - Duration::days(1)));
                Some(
                    (t - Duration::seconds(i64::from(before.fix().local_minus_utc())))
                        .and_utc()
                        .timestamp(),
                )
            })
    };
    let length = Duration::minutes(weekly_minutes(p));
    (-1..weeks)
        .filter_map(|k| {
            let day = monday + Duration::days(7 * k + i64::from(p.from_day));
            let start = day.and_hms_opt(
                u32::from(p.from_minute / 60),
                u32::from(p.from_minute % 60),
                0,
            )?;
            let from = to_utc(start)?;
            Some(Window {
                from,
                to: to_utc(start + length)?.min(from + max_real),
            })
        })
        .filter(|w| w.to > now)
        .collect()
}

/// Whether the periods leave no time at all in some week from now: merged, one lasts a week.
fn no_time_in_a_week(windows: &[Window], now: Ts) -> bool {
    let mut ws: Vec<Window> = windows
        .iter()
        .filter(|w| w.to > now && w.from < now + 21 * crate::time::DAY)
        .copied()
        .collect();
    ws.sort_by_key(|w| w.from);
    let mut run: Option<(Ts, Ts)> = None;
    for w in ws {
        run = match run {
            Some((a, b)) if w.from <= b => Some((a, b.max(w.to))),
            _ => Some((w.from, w.to)),
        };
        if run.is_some_and(|(a, b)| b - a >= 7 * crate::time::DAY) {
            return true;
        }
    }
    false
}

/// Grant an extension: the game's deadline moves for everybody, the days are charged to the
/// position (`who`: the power and its player's address, for the reliability record), and every
/// player is told (without saying who asked). Returns the new deadline.
/// `wins`: the game's unavailable periods, which the new deadline is kept out of.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn grant(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    phase: &PhaseRow,
    who: (&str, &str),
    (days, kind): (u32, ExtensionKind),
    wins: &[Window],
    now: Ts,
) -> Result<Ts> {
    let power = who.0;
    let current = store::current_phase(c, &g.id)
        .await?
        .map_or(phase.deadline, |p| p.deadline);
    let deadline = house.past_windows(current + Ts::from(days) * crate::time::DAY, wins);
    store::set_deadline(c, &g.id, phase.seq, deadline).await?;
    store::record_extension(c, &g.id, who, &phase.phase, i64::from(days), kind, now).await?;
    let text = if kind == ExtensionKind::Holiday {
        notices::holiday_extension_taken(&notices::HolidayExtensionTaken {
            days,
            phase: &phase.phase,
        })?
    } else {
        notices::extension_granted(&notices::ExtensionGranted {
            days,
            phase: &phase.phase,
        })?
    };
    announce(
        c,
        env,
        g,
        &format!("{}|extension|{}|{power}|{now}", g.id, phase.phase),
        "the deadline has moved",
        &text,
        Some(deadline),
        now,
    )
    .await?;
    Ok(deadline)
}

/// Take the holiday extension of a holiday the TD declared that falls in this turn (WM
/// D.VII(5): "Should any one player in a game or the GM wish to exercise such an extension, it
/// must be granted"; once a holiday, for the whole game). `wins`: the game's unavailable
/// periods. The new deadline, or why not.
#[allow(clippy::too_many_arguments)]
pub async fn take_holiday(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    phase: &PhaseRow,
    who: (&str, &str),
    wins: &[Window],
    now: Ts,
) -> Result<std::result::Result<Ts, NoHoliday>> {
    let current = store::current_phase(c, &g.id)
        .await?
        .map_or(phase.deadline, |p| p.deadline);
    let Some(h) = store::take_holiday(c, &g.id, now, current, now).await? else {
        return Ok(Err(NoHoliday));
    };
    let (days, _) = house.holiday_extension(current, h.from_ts, h.to_ts, wins);
    let days = (days, ExtensionKind::Holiday);
    Ok(Ok(
        grant(c, env, g, house, phase, who, days, wins, now).await?
    ))
}

/// An extension beyond the guaranteed ones waits for the GM, who is asked by mail.
async fn ask_gm(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    phase: &PhaseRow,
    power: &str,
    days: u32,
    now: Ts,
) -> Result<()> {
    let request = ExtensionRequest {
        power: power.to_string(),
        phase: phase.phase.clone(),
        days: i64::from(days),
        asked_at: now,
    };
    store::ask_extension(c, &g.id, &request).await?;
    let body = notices::extension_request(&notices::ExtensionRequest {
        power,
        days,
        phase: &phase.phase,
        game: &g.id,
    })?;
    alert_masters(
        c,
        env,
        Some(g),
        &format!("extension-request|{}|{power}|{now}", g.id),
        &format!("{} {}: {power} asks for an extension", g.id, phase.phase),
        &body,
        now,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wm_d_vii_2_a_weekly_period_keeps_its_local_hours_across_dst_and_never_lasts_over_64_hours() {
        // Friday 17:00 to Monday 09:00 US Eastern, from Wednesday 2026-10-21 (EDT, UTC-4);
        // daylight saving ends on Sunday 2026-11-01 (EST, UTC-5).
        let p = WeeklyPeriod {
            from_day: 4,
            from_minute: 17 * 60,
            to_day: 0,
            to_minute: 9 * 60,
            zone: None,
        };
        let now = chrono::DateTime::parse_from_rfc3339("2026-10-21T12:00:00Z")
            .expect("date")
            .timestamp();
        let ws = weekly_windows(
            &p,
            chrono_tz::America::New_York,
            now,
            3,
            64 * crate::time::HOUR,
        );
        let gmt = |t: Ts| {
            chrono::DateTime::from_timestamp(t, 0)
                .expect("t")
                .to_rfc3339()
        };
        let got: Vec<(String, String)> = ws.iter().map(|w| (gmt(w.from), gmt(w.to))).collect();
        assert_eq!(
            got,
            vec![
                // EDT: 17:00 is 21:00 GMT.
                (
                    "2026-10-23T21:00:00+00:00".into(),
                    "2026-10-26T13:00:00+00:00".into()
                ),
                // Over the change: leaves at 21:00 GMT (EDT); 9am EST would be 65 real hours
                // later, so it ends after 64 (WM D.VII(2)), at 13:00 GMT, 8am EST.
                (
                    "2026-10-30T21:00:00+00:00".into(),
                    "2026-11-02T13:00:00+00:00".into()
                ),
                (
                    "2026-11-06T22:00:00+00:00".into(),
                    "2026-11-09T14:00:00+00:00".into()
                ),
            ]
        );
        assert_eq!(weekly_minutes(&p), 64 * 60);
    }

    #[test]
    fn wm_d_vii_2_periods_that_cover_a_week_leave_no_time() {
        let day = crate::time::DAY;
        let w = |a: Ts, b: Ts| Window { from: a, to: b };
        assert!(!no_time_in_a_week(&[w(0, 3 * day), w(4 * day, 6 * day)], 0));
        assert!(no_time_in_a_week(&[w(0, 3 * day), w(3 * day, 7 * day)], 0));
    }
}
