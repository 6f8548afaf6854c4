//! A Diplomacy game's house, as the shared steps ask it (`engine::house::House`): its house
//! rules (`Rules`, read from the game's row) answer through the pure `policy` and `acceptance`,
//! its phases are `Phase`s, its seats the map's powers, and its own mails (the start mail, a
//! seat handed over, the SUMMARY) are composed here.

use super::{board_from_json, summary};
use crate::config::Env;
use crate::engine::house::{Changed, Handover, House, OrdersIn, Refusal, Step, Timeliness};
use crate::engine::{EngineError, Result};
use crate::games::diplomacy::store::{self, GameRow, PhaseRow};
use crate::map::Map;
use crate::outgoing::diplomacy::compose::{self, Composed};
use crate::outgoing::diplomacy::render::TakeoverView;
use crate::phase::Phase;
use crate::policy;
use crate::rules::Rules;
use crate::settings::{Authentication, GmAddress};
use crate::store::Conn;
use crate::time::format_gmt;
use crate::time::{Ts, Window};

/// A Diplomacy game's house rules, and where to find its map.
pub struct DiplomacyHouse {
    pub(super) rules: Rules,
    /// The game (or tournament) and its variant, to name in an error.
    id: String,
    variant: String,
}

impl DiplomacyHouse {
    /// The house of game `g`: its house rules as stored.
    pub fn of(g: &GameRow) -> Result<DiplomacyHouse> {
        Ok(DiplomacyHouse::new(super::rules_of(g)?, &g.id, &g.variant))
    }

    /// The house of house rules `rules`, on the map of `variant` (a tournament's preset).
    pub fn new(rules: Rules, id: &str, variant: &str) -> DiplomacyHouse {
        DiplomacyHouse {
            rules,
            id: id.to_string(),
            variant: variant.to_string(),
        }
    }

    /// The map, looked up only by the questions that need it.
    fn map(&self) -> Result<&'static Map> {
        Map::variant(&self.variant).ok_or_else(|| EngineError::UnknownVariant {
            game: self.id.clone(),
            variant: self.variant.clone(),
        })
    }
}

/// The pure core's decision in the shared layer's words (the engine does not name `policy`).
fn timeliness(t: policy::Timeliness) -> Timeliness {
    match t {
        policy::Timeliness::OnTime => Timeliness::OnTime,
        policy::Timeliness::LateAccepted => Timeliness::LateAccepted,
        policy::Timeliness::LateRefused => Timeliness::LateRefused,
        policy::Timeliness::Replacement => Timeliness::Replacement,
    }
}

/// The kind of a stored phase.
fn phase_of(p: &PhaseRow) -> Result<Phase> {
    Ok(p.phase.parse::<Phase>()?)
}

/// Why a dated unavailable period is refused: the rule it breaks (WM D.VII(2)). A second period
/// in a week names the other one's dates (the core writes no times).
#[derive(Debug)]
struct PeriodRefused(policy::UnavailableRefused);

impl std::fmt::Display for PeriodRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            e @ policy::UnavailableRefused::SecondInAWeek {
                other,
                weekly: false,
            } => write!(
                f,
                "{e} (from {} to {})",
                format_gmt(other.from),
                format_gmt(other.to)
            ),
            e => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PeriodRefused {}

impl House for DiplomacyHouse {
    fn acceptance(&self) -> (GmAddress, Authentication) {
        (self.rules.gm_address, self.rules.authentication)
    }

    fn timeliness(&self, submitted: Ts, deadline: Ts, adjudication_started: bool) -> Timeliness {
        timeliness(policy::timeliness(
            &self.rules,
            submitted,
            deadline,
            adjudication_started,
        ))
    }

    fn timeliness_held(&self, submitted: Ts, deadline: Ts, replaced_at: Option<Ts>) -> Timeliness {
        timeliness(policy::timeliness_held(
            &self.rules,
            submitted,
            deadline,
            replaced_at,
        ))
    }

    fn turn_deadline(&self, phase: &PhaseRow, start: Ts, windows: &[Window]) -> Result<Ts> {
        let kind = phase_of(phase)?.kind;
        Ok(policy::deadline(&self.rules, start, kind, windows))
    }

    fn deadline_too_soon(&self, phase: &PhaseRow, deadline: Ts) -> Result<Option<String>> {
        let kind = phase_of(phase)?.kind;
        let started = phase.started_at;
        Ok(policy::deadline_too_soon(
            &self.rules,
            started,
            kind,
            deadline,
        ))
    }

    fn past_windows(&self, t: Ts, windows: &[Window]) -> Ts {
        policy::past_windows(t, windows)
    }

    fn extend(
        &self,
        deadline: Ts,
        asked: Ts,
        days: u32,
        used_days: u32,
        windows: &[Window],
    ) -> std::result::Result<Ts, Refusal> {
        // The core's refusal is only displayed: its words are the answer.
        policy::extend(&self.rules, deadline, asked, days, used_days, windows)
            .map_err(|e| Refusal::from(e.to_string()))
    }

    fn extension_is_guaranteed(&self, granted_before: u32) -> bool {
        policy::extension_is_guaranteed(&self.rules, granted_before)
    }

    fn holiday_extension(&self, deadline: Ts, from: Ts, to: Ts, windows: &[Window]) -> (u32, Ts) {
        policy::holiday_extension(deadline, from, to, windows)
    }

    fn extension_notice_hours(&self) -> u32 {
        self.rules.extension_notice_hours
    }

    fn unavailable_hours_max(&self) -> u32 {
        self.rules.unavailable_hours_max
    }

    fn unavailable_window(
        &self,
        from: Ts,
        to: Ts,
        now: Ts,
        nearest: Option<(Window, bool)>,
        ahead: u32,
    ) -> std::result::Result<Window, Refusal> {
        let own = policy::OwnPeriods { nearest, ahead };
        policy::unavailable_window(&self.rules, from, to, now, &own)
            .map_err(|e| Refusal::from(PeriodRefused(e)))
    }

    fn weekly_occurrences(&self, occurrences: Vec<Window>, now: Ts, own: &[Window]) -> Vec<Window> {
        policy::weekly_occurrences(&self.rules, occurrences, now, own)
    }

    fn set(
        &self,
        option: &str,
        value: &str,
        running: bool,
    ) -> Result<std::result::Result<Changed, Refusal>> {
        let new = match self.rules.set(option, value) {
            Ok(r) => r,
            Err(e) => return Ok(Err(e.into())),
        };
        if running && let Some(why) = self.rules.forbidden_change(&new) {
            return Ok(Err(why.into()));
        }
        let shown = new
            .options()
            .into_iter()
            .find(|o| o.0 == option)
            .map_or_else(|| value.to_string(), |o| o.1);
        Ok(Ok(Changed {
            stored: serde_json::to_string(&new)?,
            shown,
            clause: Rules::clause(option).unwrap_or(""),
        }))
    }

    fn is_phase(&self, word: &str) -> bool {
        word.parse::<Phase>().is_ok()
    }

    fn draws_maps(&self) -> bool {
        crate::map::Map::variant(&self.variant).is_some_and(super::maps::drawn)
    }

    fn map_key(&self, g: &GameRow, phase: &str) -> Option<String> {
        let phase = phase.parse::<Phase>().ok()?;
        self.draws_maps().then(|| super::maps::key(g, phase))
    }

    fn phase_title(&self, phase: &str) -> String {
        // The report has always named the season as the standard map does, Monsoon or not.
        crate::outgoing::diplomacy::render::phase_title(phase, false)
    }

    fn seat_name(&self, written: &str) -> Result<Option<String>> {
        let map = self.map()?;
        Ok(map
            .power_by_name(written)
            .map(|pw| map.power_name(pw).to_string()))
    }

    fn welcome_observer(
        &self,
        env: &Env,
        g: &GameRow,
        phase: Option<&PhaseRow>,
        address: &str,
        tz: &str,
    ) -> Option<Composed> {
        // Between turns there is nothing to show: the next start or results mail tells them.
        let phase = phase?;
        let reader = compose::StartReader {
            address,
            tz,
            power: "",
            role: "observer",
            secret: "",
            takeover: None,
            joined: true,
        };
        Some(compose::start(
            env,
            g,
            &self.rules,
            &phase.phase,
            phase.deadline,
            &reader,
        ))
    }

    fn handover<'a>(
        &'a self,
        c: &'a mut Conn,
        env: &'a Env,
        g: &'a GameRow,
        phase: &'a PhaseRow,
        h: &'a Handover<'a>,
    ) -> Step<'a, Composed> {
        Box::pin(async move {
            let takeover = takeover(c, self.map()?, g, phase, h).await?;
            let reader = compose::StartReader {
                address: h.address,
                tz: "UTC",
                power: h.seat,
                role: "player",
                secret: h.secret,
                takeover: Some(takeover),
                joined: false,
            };
            Ok(compose::start(
                env,
                g,
                &self.rules,
                &phase.phase,
                phase.deadline,
                &reader,
            ))
        })
    }

    fn summary<'a>(&'a self, c: &'a mut Conn, g: &'a GameRow) -> Step<'a, String> {
        Box::pin(async move { summary::summary(c, g, self.map()?).await })
    }

    fn orders_in<'a>(
        &'a self,
        c: &'a mut Conn,
        g: &'a GameRow,
        phase: &'a PhaseRow,
    ) -> Step<'a, Vec<(String, OrdersIn)>> {
        Box::pin(async move {
            let standing = store::standing_orders(c, &g.id, &phase.phase).await?;
            // An NMR is judged by the orders, not by the mail.
            Ok(standing
                .into_iter()
                .filter(|s| !s.orders.is_empty())
                .map(|s| {
                    let state = if s.final_ {
                        OrdersIn::Final
                    } else {
                        OrdersIn::In
                    };
                    (s.power, state)
                })
                .collect())
        })
    }

    fn submitters<'a>(
        &'a self,
        c: &'a mut Conn,
        g: &'a GameRow,
        phase: &'a PhaseRow,
        seat: &'a str,
    ) -> Step<'a, Vec<(String, Ts)>> {
        Box::pin(async move { Ok(store::submitters(c, &g.id, &phase.phase, seat).await?) })
    }

    fn roll_back<'a>(
        &'a self,
        c: &'a mut Conn,
        g: &'a GameRow,
        phase: &'a PhaseRow,
        deadline: Ts,
        now: Ts,
    ) -> Step<'a, ()> {
        Box::pin(async move {
            store::roll_back(c, &g.id, phase.seq, deadline, now).await?;
            Ok(())
        })
    }

    fn forget_choices<'a>(
        &'a self,
        c: &'a mut Conn,
        g: &'a GameRow,
        seat: &'a str,
    ) -> Step<'a, ()> {
        Box::pin(async move {
            store::forget_player_choices(c, &g.id, seat).await?;
            Ok(())
        })
    }
}

/// What the new player takes over: the power's units, centres and standing orders.
async fn takeover(
    c: &mut Conn,
    map: &Map,
    g: &GameRow,
    p: &PhaseRow,
    h: &Handover<'_>,
) -> Result<TakeoverView> {
    let name = h.seat;
    let Some(pw) = map.power_by_name(name) else {
        return Err(EngineError::StoredBoard(format!("unknown power '{name}'")));
    };
    let board = board_from_json(map, &p.board, &p.phase)?;
    let standing: Vec<String> = store::standing_orders(c, &g.id, &p.phase)
        .await?
        .into_iter()
        .filter(|s| s.power == name)
        .flat_map(|s| s.orders.into_iter().map(|o| o.order))
        .collect();
    let mut takeover = TakeoverView {
        kind: h.tenure.to_string(),
        units: board
            .units
            .iter()
            .filter(|u| u.power == pw)
            .map(|u| map.unit_name(u.unit_type, u.location))
            .collect(),
        centres: map
            .supply_centers()
            .filter(|sc| board.owner(*sc) == Some(pw))
            .map(|sc| map.info(sc).code.clone())
            .collect(),
        standing,
    };
    takeover.units.sort();
    takeover.centres.sort();
    Ok(takeover)
}
