//! A Nomic made at the console from its preset, its players seated by the GM on their days
//! (Nomic 201), and started: the initial rule set enacted (Nomic 101, 102), rule 201's
//! allocation written in, every player mailed their day and secret.

use super::store::{self, Conn, GameRow, GameStatus, Kind, PlayerRow, SeatDay};
use crate::config::Env;
use crate::engine::{self, EngineError, Result};
use crate::nomic::house::{HouseRules, INITIAL_RULES_2019};
use crate::nomic::uk_time::end_of_uk_day;
use crate::outgoing::nomic::compose;
use crate::outgoing::nomic::render::{SeatLine, StartView};
use crate::ruleset::{Change, RuleSet, read_initial_set};
use crate::time::Ts;
use crate::time::Weekday;

/// The initial rule set's name, kept as the game's `variant`.
pub const RULE_SET_2019: &str = "nomic-2019";

/// A Nomic to make.
pub struct NewNomic<'a> {
    pub id: &'a str,
    /// `nomic2019` (`chancery presets`).
    pub preset: &'a str,
    pub gm_address: &'a str,
    pub confirm_address: &'a str,
}

/// Make a Nomic game from its preset, forming: its players are seated next.
pub async fn create_game(c: &mut Conn, n: &NewNomic<'_>, now: Ts) -> Result<HouseRules> {
    let rules = HouseRules::preset(n.preset).map_err(|e| EngineError::Refused(e.to_string()))?;
    let json = serde_json::to_string(&rules)?;
    store::create_game(
        c,
        n.id,
        RULE_SET_2019,
        &json,
        n.gm_address,
        n.confirm_address,
        now,
    )
    .await?;
    store::set_kind(c, n.id, Kind::Nomic).await?;
    store::create_nomic(c, n.id).await?;
    Ok(rules)
}

/// A player to seat (Nomic 201).
pub struct NewSeat<'a> {
    /// How the rules and the mails name the player (`Ben P`).
    pub name: &'a str,
    pub address: &'a str,
    pub day: Weekday,
    pub tz: &'a str,
    /// None: a fresh one from the OS random generator.
    pub secret: Option<&'a str>,
}

/// Why a seat is refused, in words for the GM.
fn seat_refused(s: &NewSeat<'_>) -> Option<String> {
    let words = s.name.split_whitespace().count();
    if words == 0 || words > 4 || s.name.chars().count() > 40 {
        return Some(format!(
            "'{}' is no player's name: one to four words, at most 40 characters (Nomic 201 \
             lists each player by name)",
            s.name
        ));
    }
    if s.name.chars().any(|ch| ch.is_control() || ch == '"') {
        return Some(format!("'{}' is no player's name", s.name));
    }
    if s.day.is_weekend() {
        return Some(format!(
            "{} cannot be a player's day: messages on a Saturday or Sunday are void (Nomic 201)",
            s.day
        ));
    }
    None
}

/// Seat a player on their day (Nomic 201), in the caller's transaction. In a game under way
/// rule 201's allocation is written again and the player is mailed their start mail.
pub async fn add_player(
    c: &mut Conn,
    tell: Option<&Env>,
    g: &GameRow,
    s: &NewSeat<'_>,
    now: Ts,
) -> Result<PlayerRow> {
    if let Some(why) = seat_refused(s) {
        return Err(EngineError::Refused(why));
    }
    if g.status == GameStatus::Finished {
        return Err(EngineError::Refused(format!("game {} is over", g.id)));
    }
    let day = SeatDay::of(s.day).ok_or_else(|| EngineError::Refused(s.day.to_string()))?;
    let secret = match s.secret {
        Some(secret) => secret.to_string(),
        None => engine::secret::generate()?,
    };
    let player = PlayerRow {
        power: s.name.trim().to_string(),
        address: s.address.to_string(),
        name: s.name.trim().to_string(),
        tz: s.tz.to_string(),
        secret,
        extension_days_used: 0,
    };
    if !store::add_seat(c, &g.id, &player.power, day).await? {
        let taken = store::seats(c, &g.id)
            .await?
            .into_iter()
            .find(|r| r.day == day)
            .map_or_else(|| player.power.clone(), |r| r.player);
        return Err(EngineError::Refused(format!(
            "{} is taken by {taken}, or {} plays already: one player a day (Nomic 201, 214)",
            s.day, player.power
        )));
    }
    store::add_player(c, &g.id, &player).await?;
    if g.status == GameStatus::Active {
        write_allocation(c, g, now, "GM").await?;
        if let Some(env) = tell {
            start_mails(c, env, g, now, Some(&player.power)).await?;
        }
    }
    Ok(player)
}

/// Start a forming Nomic: the initial rule set enacted, rule 201's allocation written with the
/// game's own players, the game active, and with `tell` every player mailed their day and
/// secret. When the first day ends (the answer of `start`).
pub async fn start_in(c: &mut Conn, tell: Option<&Env>, g: &GameRow, now: Ts) -> Result<Ts> {
    if g.status != GameStatus::Forming {
        return Err(EngineError::Refused(format!(
            "game '{}' is already {}",
            g.id, g.status
        )));
    }
    // Nomic 201: at least one player, one a day.
    super::seats_of(c, &g.id).await?;
    let set = read_initial_set(INITIAL_RULES_2019)
        .map_err(|e| EngineError::Refused(format!("the initial rule set: {e}")))?;
    let rules = RuleSet::from_initial(&set, now)
        .map_err(|e| EngineError::Refused(format!("the initial rule set: {e}")))?;
    store::append_rule_revisions(c, &g.id, rules.revisions()).await?;
    write_allocation(c, g, now, "GM").await?;
    store::set_started(c, &g.id, now).await?;
    store::set_game_status(c, &g.id, GameStatus::Active).await?;
    store::need_clock_by(c, &g.id, end_of_uk_day(now)).await?;
    if let Some(env) = tell {
        start_mails(c, env, g, now, None).await?;
    }
    Ok(end_of_uk_day(now))
}

/// Nomic 201's allocation as the game's players make it: the rule's paragraphs that name a
/// player and a day replaced by the game's own, the others kept, amended by the GM (`by`) at
/// `at` (no proposal made it: the rulebook's players are not this game's).
async fn write_allocation(c: &mut Conn, g: &GameRow, at: Ts, by: &str) -> Result<()> {
    let mut rules = store::rule_set(c, &g.id).await?;
    let Some(rule) = rules.current().get(&201).cloned() else {
        // Rule 201 was repealed or renumbered: the seats stand on their own.
        return Ok(());
    };
    let seats = super::seats_of(c, &g.id).await?;
    let names_a_day = |p: &String| {
        p.trim()
            .rsplit_once(char::is_whitespace)
            .is_some_and(|(_, day)| crate::time::Weekday::parse(day).is_some())
    };
    let mut text: Vec<String> = Vec::new();
    let mut written = false;
    for p in &rule.text {
        if names_a_day(p) {
            if !written {
                text.extend(
                    seats
                        .seats()
                        .iter()
                        .map(|s| format!("{} {}", s.player, s.day)),
                );
                written = true;
            }
        } else {
            text.push(p.clone());
        }
    }
    if text == rule.text {
        return Ok(());
    }
    let seq = rules
        .apply(at, Change::Amend { number: 201, text }, None)
        .map_err(|e| EngineError::Refused(format!("rule 201's allocation: {e}")))?
        .seq;
    let made = rules
        .revisions()
        .last()
        .cloned()
        .into_iter()
        .collect::<Vec<_>>();
    store::append_rule_revisions(c, &g.id, &made).await?;
    store::set_revision_author(c, &g.id, seq, by).await?;
    Ok(())
}

/// The start mail to every player (or to `only` that one): their day, their secret and
/// everyone's days.
async fn start_mails(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    now: Ts,
    only: Option<&str>,
) -> Result<()> {
    let house = super::rules_of(g)?;
    let seats = store::seats(c, &g.id).await?;
    let started = store::nomic_game(c, &g.id)
        .await?
        .and_then(|n| n.started_at)
        .unwrap_or(now);
    let rules = store::rule_set(c, &g.id).await?.current().len();
    let mut lines: Vec<SeatLine> = seats
        .iter()
        .map(|s| SeatLine {
            player: s.player.clone(),
            day: s.day.weekday().to_string(),
        })
        .collect();
    lines.sort_by_key(|l| crate::time::Weekday::parse(&l.day).map(|d| d.index()));
    let mut mails = Vec::new();
    for p in store::players(c, &g.id).await? {
        if only.is_some_and(|o| o != p.power) {
            continue;
        }
        let day = seats
            .iter()
            .find(|s| s.player == p.power)
            .map(|s| s.day.weekday().to_string())
            .unwrap_or_default();
        let v = StartView {
            game: g.id.clone(),
            player: p.power.clone(),
            day,
            secret: p.secret.clone(),
            seats: lines.clone(),
            started_at: started,
            rules,
            winning_score: house.settings.winning_score,
        };
        match compose::start(env, g, &p.address, &v) {
            Ok(m) => mails.push(m),
            Err(e) => engine::compose_failed(c, env, Some(g), &e, now).await?,
        }
    }
    // The observers added before the start: their first mail says how to stop.
    if only.is_none() {
        for m in store::members(c, &g.id).await? {
            if m.role != store::Role::Observer {
                continue;
            }
            match compose::observer(env, g, &m.address, false) {
                Ok(mail) => mails.push(mail),
                Err(e) => engine::compose_failed(c, env, Some(g), &e, now).await?,
            }
        }
    }
    store::enqueue_many(c, &mails, now).await?;
    Ok(())
}
