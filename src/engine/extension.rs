//! Extensions and unavailable periods (WM D.VII(2), D.VII(5); Maharajiad B.VIII(2), (5)): a
//! player's requests in an order mail, and the GM's answer to an extension beyond the
//! guaranteed ones. Each runs in the caller's transaction.

use super::command::{Done, announce};
use super::*;
use crate::commands::format_gmt;
use crate::orderset::RequestOut;
use crate::store::{ExtensionRequest, PlayerRow};

/// A player's requests from an order mail: what the acknowledgement says of each, and the
/// deadline after them.
#[allow(clippy::too_many_arguments)]
pub(super) async fn player_requests(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    rules: &Rules,
    phase: &PhaseRow,
    player: &PlayerRow,
    requests: &[RequestOut],
    abbreviations: Option<&str>,
    now: Ts,
) -> Result<(Vec<String>, Ts)> {
    let mut notes = Vec::new();
    let mut deadline = phase.deadline;
    // The game's periods that can still hold a deadline back: read once for the whole mail, and
    // kept up to date as its lines add to them.
    let needs_periods = requests.iter().any(|r| {
        matches!(
            r,
            RequestOut::Extension { .. }
                | RequestOut::Weekly { .. }
                | RequestOut::HolidayExtension { .. }
                | RequestOut::Unavailable { .. }
        )
    });
    let mut periods = if needs_periods {
        store::unavailable_after(c, &g.id, now).await?
    } else {
        Vec::new()
    };
    for r in requests {
        match r {
            RequestOut::Extension { days, .. } => {
                let wins = period_windows(&periods);
                let used = u32::try_from(player.extension_days_used).unwrap_or(u32::MAX);
                if let Err(e) = policy::extend(rules, deadline, now, *days, used, &wins) {
                    notes.push(format!("extension of {days} day(s) refused: {e}"));
                    continue;
                }
                let granted = store::extensions_granted(c, &g.id, &player.power).await?;
                if policy::extension_is_guaranteed(rules, granted) {
                    deadline = grant(
                        c,
                        env,
                        g,
                        phase,
                        (&player.power, &player.address),
                        (*days, "guaranteed"),
                        &wins,
                        now,
                    )
                    .await?;
                    notes.push(format!(
                        "extension of {days} day(s) granted (guaranteed: WM D.VII(5)): the \
                         deadline is now {}; every player was told",
                        format_gmt(deadline)
                    ));
                } else {
                    ask_gm(c, env, g, phase, &player.power, *days, now).await?;
                    notes.push(format!(
                        "extension of {days} day(s) asked of the GM: your guaranteed extension \
                         has been used, and further ones are at the GM's discretion (WM \
                         D.VII(5)); you will be told the answer"
                    ));
                }
            }
            RequestOut::Weekly { period, .. } => {
                let asked = Asked {
                    phase,
                    player,
                    deadline,
                    now,
                };
                let note = weekly(c, env, g, rules, &asked, period.as_ref(), &mut periods).await?;
                if let Ok((_, Some(moved))) = &note {
                    deadline = *moved;
                }
                notes.push(match note {
                    Ok((text, _)) => text,
                    Err(why) => format!("weekly unavailable period refused: {why}"),
                });
            }
            // WM D.II(5): kept for the retreat or adjustment phase after this movement phase.
            RequestOut::Conditional { text, entries, .. } => {
                let movement = phase
                    .phase
                    .parse::<crate::phase::Phase>()
                    .is_ok_and(|p| p.kind == crate::phase::PhaseKind::Movement);
                notes.push(if movement {
                    store::set_conditional(c, &g.id, &player.power, &phase.phase, text, now)
                        .await?;
                    format!(
                        "kept ({entries} line(s)): used, first possible choice first, for the \
                         retreat or adjustment phase that follows if you send no orders for it \
                         (WM D.II(5))"
                    )
                } else {
                    "refused: conditional orders come with movement orders (WM D.II(5)); in \
                     this phase, send the orders themselves"
                        .to_string()
                });
            }
            // Registered before the orders were read (src/engine/abbreviations.rs).
            RequestOut::Abbreviations { .. } => {
                notes.push(abbreviations.unwrap_or("not read").to_string());
            }
            RequestOut::HolidayExtension { .. } => {
                let wins = period_windows(&periods);
                let who = (player.power.as_str(), player.address.as_str());
                notes.push(
                    match take_holiday(c, env, g, phase, who, &wins, now).await? {
                        Ok(moved) => {
                            deadline = moved;
                            format!(
                                "holiday extension granted (WM D.VII(5); not charged): the \
                             deadline is now {}; every player was told",
                                format_gmt(deadline)
                            )
                        }
                        Err(why) => format!("holiday extension refused: {why}"),
                    },
                );
            }
            RequestOut::Unavailable { from: f, to: t, .. } => {
                let (Some(a), Some(b)) = (compose::parse_gmt(f), compose::parse_gmt(t)) else {
                    notes.push("unavailable period refused: the dates could not be read".into());
                    continue;
                };
                let asked = Asked {
                    phase,
                    player,
                    deadline,
                    now,
                };
                let note = dated(c, env, g, rules, &asked, (a, b), &mut periods).await?;
                notes.push(match note {
                    Ok(moved) => {
                        let mut note = format!("unavailable from {f} to {t} GMT: recorded");
                        if let Some(m) = moved {
                            deadline = m;
                            note.push_str(&format!(
                                "; the deadline fell in this period and is now {}; every \
                                 player was told",
                                format_gmt(m)
                            ));
                        }
                        note
                    }
                    Err(why) => format!("unavailable period refused: {why}"),
                });
            }
        }
    }
    Ok((notes, deadline))
}

/// Who asks for an unavailable period, in which phase, with what deadline, and when.
struct Asked<'a> {
    phase: &'a PhaseRow,
    player: &'a PlayerRow,
    deadline: Ts,
    now: Ts,
}

/// The game's unavailable periods not over at `now`: those that can hold a deadline back.
pub(super) async fn game_windows(
    c: &mut SqliteConnection,
    g: &GameRow,
    now: Ts,
) -> Result<Vec<Window>> {
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

/// A dated unavailable period (WM D.VII(2)): checked against the player's own periods in one
/// statement, recorded, and a deadline it covers moves out. The new deadline if it moved, or
/// why the period is refused.
async fn dated(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    rules: &Rules,
    asked: &Asked<'_>,
    (from, to): (Ts, Ts),
    periods: &mut Vec<store::UnavailableRow>,
) -> Result<std::result::Result<Option<Ts>, String>> {
    let power = &asked.player.power;
    let own = store::unavailable_near(c, &g.id, power, from, asked.now).await?;
    let w = match policy::unavailable_window(rules, from, to, asked.now, &own) {
        Ok(w) => w,
        Err(
            e @ policy::UnavailableRefused::SecondInAWeek {
                other,
                weekly: false,
            },
        ) => {
            return Ok(Err(format!(
                "{e} (from {} to {})",
                format_gmt(other.from),
                format_gmt(other.to)
            )));
        }
        Err(e) => return Ok(Err(e.to_string())),
    };
    store::add_unavailable(c, &g.id, power, w.from, w.to).await?;
    periods.push(store::UnavailableRow {
        power: power.clone(),
        from_ts: w.from,
        to_ts: w.to,
        weekly: false,
    });
    // WM D.VII(2): no deadline inside a declared period, even one set before it was declared.
    let wins = period_windows(periods);
    Ok(Ok(move_out_of_periods(
        c,
        env,
        g,
        asked.phase,
        asked.deadline,
        &wins,
        asked.now,
    )
    .await?))
}

/// A deadline that falls in a declared unavailable period moves to its end (WM D.VII(2)), and
/// every player is told. The new deadline, if it moved.
async fn move_out_of_periods(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    phase: &PhaseRow,
    deadline: Ts,
    wins: &[Window],
    now: Ts,
) -> Result<Option<Ts>> {
    let moved = policy::past_windows(deadline, wins);
    if moved == deadline {
        return Ok(None);
    }
    store::set_deadline(c, &g.id, phase.seq, moved).await?;
    let text = format!(
        "The deadline of {} fell in a period when a player is unavailable, so it moves to the \
         end of that period (WM D.VII(2)).",
        phase.phase
    );
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

/// A weekly unavailable period declared or withdrawn (WM D.VII(2)): its occurrences replace the
/// player's earlier weekly ones not yet begun, from the first that comes with notice and leaving
/// the weeks of the player's other periods alone (one period a week); a deadline it covers
/// moves out; the masters are warned when the game's periods leave no time in a week. The
/// note, and the deadline if it moved.
async fn weekly(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    rules: &Rules,
    asked: &Asked<'_>,
    period: Option<&crate::sections::WeeklyPeriod>,
    periods: &mut Vec<store::UnavailableRow>,
) -> Result<std::result::Result<(String, Option<Ts>), String>> {
    let (player, now) = (asked.player, asked.now);
    let withdraw = |periods: &mut Vec<store::UnavailableRow>| {
        periods.retain(|r| !(r.power == player.power && r.weekly && r.from_ts > now));
    };
    let Some(p) = period else {
        store::withdraw_weekly(c, &g.id, &player.power, now).await?;
        withdraw(periods);
        return Ok(Ok((
            "your weekly unavailable period is withdrawn".into(),
            None,
        )));
    };
    let zone = p.zone.as_deref().unwrap_or(&player.tz);
    let Ok(tz) = zone.parse::<chrono_tz::Tz>() else {
        return Ok(Err(format!(
            "'{zone}' is not a time zone (write one such as America/New_York)"
        )));
    };
    let minutes = weekly_minutes(p);
    let max = i64::from(rules.unavailable_hours_max) * 60;
    if minutes == 0 || minutes > max {
        return Ok(Err(format!(
            "a weekly period lasts at most {} hours (WM D.VII(2)); this one lasts {} hours",
            rules.unavailable_hours_max,
            (minutes + 59) / 60
        )));
    }
    store::withdraw_weekly(c, &g.id, &player.power, now).await?;
    withdraw(periods);
    // The player's other periods: dated ones to come, and any begun in the past week.
    let own =
        windows(&store::unavailable_since(c, &g.id, &player.power, now - policy::WEEK).await?);
    let occurrences =
        policy::weekly_occurrences(rules, weekly_windows(p, tz, now, WEEKLY_AHEAD), now, &own);
    let Some(first) = occurrences.first().copied() else {
        return Ok(Err(
            "every week ahead already has one of your unavailable periods (WM D.VII(2): one a \
             week); your earlier weekly period is withdrawn"
                .into(),
        ));
    };
    let rows: Vec<(Ts, Ts)> = occurrences.iter().map(|w| (w.from, w.to)).collect();
    store::add_weekly(c, &g.id, &player.power, &rows).await?;
    periods.extend(occurrences.iter().map(|w| store::UnavailableRow {
        power: player.power.clone(),
        from_ts: w.from,
        to_ts: w.to,
        weekly: true,
    }));
    let mut note = format!(
        "recorded, in {zone} time, every week until withdrawn, the first from {} (WM D.VII(2): \
         declared {} hours ahead at least, and one period a week)",
        format_gmt(first.from),
        rules.extension_notice_hours
    );
    let wins = period_windows(periods);
    let moved = move_out_of_periods(c, env, g, asked.phase, asked.deadline, &wins, now).await?;
    if let Some(m) = moved {
        note.push_str(&format!(
            "; the deadline fell in it and is now {}; every player was told",
            format_gmt(m)
        ));
    }
    // WM D.VII(2): "If several players state different unavailable periods such that the GM
    // thinks significant problems will arise, the GM must warn the TD": a week with no time
    // left for a deadline is such a problem.
    if no_time_in_a_week(&wins, now) {
        alert_masters(
            c,
            env,
            Some(g),
            &format!("weekly-blocked|{}|{now}", g.id),
            &format!(
                "{}: the players' unavailable periods leave no time in a week",
                g.id
            ),
            &format!(
                "Game {}: after {}'s weekly period, the players' unavailable periods cover a\n\
                 whole week: no deadline can be set outside them. A compromise must be found\n\
                 with the players (WM D.VII(2)).\n",
                g.id, player.power
            ),
            now,
        )
        .await?;
    }
    Ok(Ok((note, moved)))
}

/// The length of a weekly period in minutes (it may run over the week's end).
fn weekly_minutes(p: &crate::sections::WeeklyPeriod) -> i64 {
    let at = |day: u8, minute: u16| i64::from(day) * 1440 + i64::from(minute);
    (at(p.to_day, p.to_minute) - at(p.from_day, p.from_minute)).rem_euclid(7 * 1440)
}

/// The occurrences of a weekly period as GMT windows, from the week of `now` on for `weeks`
/// weeks (those already over left out). Each starts and ends at its local hours in `tz`, so it
/// keeps them across daylight-saving changes (WM D.VII(2): "5pm Friday to 9am Monday US
/// Eastern").
fn weekly_windows(
    p: &crate::sections::WeeklyPeriod,
    tz: chrono_tz::Tz,
    now: Ts,
    weeks: i64,
) -> Vec<Window> {
    use chrono::{Datelike, Duration, TimeZone};
    let Some(utc_now) = chrono::DateTime::from_timestamp(now, 0) else {
        return Vec::new();
    };
    let local = utc_now.with_timezone(&tz).naive_local();
    let monday = local.date() - Duration::days(i64::from(local.weekday().num_days_from_monday()));
    // A local time that does not exist (the hour skipped in spring) is taken an hour later.
    let to_utc = |t: chrono::NaiveDateTime| {
        tz.from_local_datetime(&t)
            .earliest()
            .or_else(|| tz.from_local_datetime(&(t + Duration::hours(1))).earliest())
            .map(|d| d.timestamp())
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
            Some(Window {
                from: to_utc(start)?,
                to: to_utc(start + length)?,
            })
        })
        .filter(|w| w.to > now)
        .collect()
}

/// Whether the periods leave no time at all in some week from now: merged, one lasts a week.
fn no_time_in_a_week(windows: &[Window], now: Ts) -> bool {
    let mut ws: Vec<Window> = windows
        .iter()
        .filter(|w| w.to > now && w.from < now + 21 * policy::DAY)
        .copied()
        .collect();
    ws.sort_by_key(|w| w.from);
    let mut run: Option<(Ts, Ts)> = None;
    for w in ws {
        run = match run {
            Some((a, b)) if w.from <= b => Some((a, b.max(w.to))),
            _ => Some((w.from, w.to)),
        };
        if run.is_some_and(|(a, b)| b - a >= 7 * policy::DAY) {
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
async fn grant(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    phase: &PhaseRow,
    who: (&str, &str),
    (days, kind): (u32, &str),
    wins: &[Window],
    now: Ts,
) -> Result<Ts> {
    let power = who.0;
    let current = store::current_phase(c, &g.id)
        .await?
        .map_or(phase.deadline, |p| p.deadline);
    let deadline = policy::past_windows(current + Ts::from(days) * policy::DAY, wins);
    store::set_deadline(c, &g.id, phase.seq, deadline).await?;
    store::record_extension(c, &g.id, who, &phase.phase, i64::from(days), kind, now).await?;
    let text = if kind == "holiday" {
        format!(
            "A holiday extension of {days} day(s) has been taken in {} (WM D.VII(5)); it is \
             charged to nobody.",
            phase.phase
        )
    } else {
        format!(
            "An extension of {days} day(s) has been granted in {} (WM D.VII(5)).",
            phase.phase
        )
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
pub(super) async fn take_holiday(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    phase: &PhaseRow,
    who: (&str, &str),
    wins: &[Window],
    now: Ts,
) -> Result<std::result::Result<Ts, String>> {
    let current = store::current_phase(c, &g.id)
        .await?
        .map_or(phase.deadline, |p| p.deadline);
    let Some(h) = store::take_holiday(c, &g.id, now, current, now).await? else {
        return Ok(Err(
            "no holiday the TD declared falls in this turn, or its extension has been taken".into(),
        ));
    };
    let (days, _) = policy::holiday_extension(current, h.from_ts, h.to_ts, wins);
    Ok(Ok(grant(
        c,
        env,
        g,
        phase,
        who,
        (days, "holiday"),
        wins,
        now,
    )
    .await?))
}

/// HOLIDAY <from> TO <to> <name>: the TD declares a holiday eligible for extensions that are
/// never charged (WM D.VII(5)); every player is told how to take it.
pub(super) async fn declare_holiday(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    td: bool,
    holiday: store::Holiday,
    now: Ts,
) -> Result<Done> {
    if !td {
        return Ok(Done::refused(
            "only the TD declares holidays eligible for extensions (WM D.VII(5))",
        ));
    }
    let name = holiday.name.clone();
    let (from, to) = (holiday.from_ts, holiday.to_ts);
    if !store::declare_holiday(c, &g.id, &holiday).await? {
        return Ok(Done::refused(format!("{name} is declared already")));
    }
    let text = format!(
        "The TD has declared {name} ({} to {}) a holiday eligible for an extension that is \
         charged to nobody (WM D.VII(5)). If a deadline falls while it lasts, any player may take \
         it by a line EXTEND HOLIDAY in an order mail (or the GM by command), and it must be \
         granted: the deadline then moves by the holiday's length, once for this game.",
        format_gmt(from),
        format_gmt(to)
    );
    announce(
        c,
        env,
        g,
        &format!("{}|holiday|{name}", g.id),
        "a holiday extension",
        &text,
        None,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "{name} is a holiday for extensions; every player was told"
    )))
}

/// An extension beyond the guaranteed ones waits for the GM, who is asked by mail.
async fn ask_gm(
    c: &mut SqliteConnection,
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
    let body = format!(
        "{power} asks for an extension of {days} day(s) in {} of game {}, after its guaranteed\n\
         extension. Further extensions are at your discretion (WM D.VII(5)). Answer with a\n\
         command mail (subject \"{} GM\"):\n\n    GRANT EXTENSION {power}\nor\n    REFUSE EXTENSION {power}\n",
        phase.phase, g.id, g.id
    );
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

/// GRANT EXTENSION <power> / REFUSE EXTENSION <power>: the GM's answer to a waiting request.
/// A grant is still held to the request's notice and the position's allowance (WM D.VII(5)).
pub(super) async fn answer_request(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    current: Option<&PhaseRow>,
    power: &str,
    granted: bool,
    now: Ts,
) -> Result<Done> {
    let map = map_of(g)?;
    let Some(pw) = map.power_by_name(power) else {
        return Ok(Done::refused(format!(
            "there is no power {power} in this game"
        )));
    };
    let name = map.power_name(pw).to_string();
    let Some(r) = store::take_extension_request(c, &g.id, &name).await? else {
        return Ok(Done::refused(format!(
            "{name} has no extension request waiting"
        )));
    };
    let Some(p) = current.filter(|p| p.phase == r.phase) else {
        return Ok(Done::refused(format!(
            "{name} asked in {}, which is over; the request is dropped",
            r.phase
        )));
    };
    let players = store::players(c, &g.id).await?;
    let Some(player) = players.iter().find(|x| x.power == name) else {
        return Ok(Done::refused(format!("{name} has no player")));
    };
    let days = u32::try_from(r.days).unwrap_or(u32::MAX);
    if !granted {
        let told = compose::announcement(
            env,
            g,
            &player.address,
            &player.tz,
            &format!("{}|extension-refused|{name}|{now}", g.id),
            "your extension request",
            &format!(
                "The GM has refused your request for an extension of {days} day(s) in {} (WM \
                 D.VII(5): extensions after the guaranteed one are at the GM's discretion). The \
                 deadline stands.",
                p.phase
            ),
            "",
            Some(p.deadline),
        );
        let masters = masters_for(c, env, Some(g)).await?;
        let mails = match told {
            Ok(m) => vec![m],
            Err(e) => compose_failed_mails(env, Some(g), &masters, &e, &name),
        };
        store::enqueue_many(c, &mails, now).await?;
        return Ok(Done::ok(format!(
            "{name}'s request for {days} day(s) is refused; {name} was told"
        )));
    }
    let rules = rules_of(g)?;
    let wins = game_windows(c, g, now).await?;
    let used = u32::try_from(player.extension_days_used).unwrap_or(u32::MAX);
    if let Err(e) = policy::extend(&rules, p.deadline, r.asked_at, days, used, &wins) {
        return Ok(Done::refused(e.to_string()));
    }
    let deadline = grant(
        c,
        env,
        g,
        p,
        (&name, &player.address),
        (days, "discretionary"),
        &wins,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "{name} has an extension of {days} day(s): the deadline is now {}; every player was told",
        format_gmt(deadline)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sections::WeeklyPeriod;

    #[test]
    fn wm_d_vii_2_a_weekly_period_keeps_its_local_hours_across_dst() {
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
        let ws = weekly_windows(&p, chrono_tz::America::New_York, now, 3);
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
                // Over the change: leaves at 21:00 GMT (EDT), returns at 14:00 GMT (EST).
                (
                    "2026-10-30T21:00:00+00:00".into(),
                    "2026-11-02T14:00:00+00:00".into()
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
        let day = policy::DAY;
        let w = |a: Ts, b: Ts| Window { from: a, to: b };
        assert!(!no_time_in_a_week(&[w(0, 3 * day), w(4 * day, 6 * day)], 0));
        assert!(no_time_in_a_week(&[w(0, 3 * day), w(3 * day, 7 * day)], 0));
    }
}
