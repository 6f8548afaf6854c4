//! `NomicHouse`, a Nomic game's house (`engine::house::House`): what the shared steps ask of
//! it. Its house rules answer for proof and addressing and for SET (a parameter of the game,
//! Nomic 202-214); the Nomic has no phases, deadlines or extensions (its clock is the UK day,
//! Nomic 106, 113), so the questions about them are answered so, and the shared commands that
//! need them are refused before they ask (`commands`).

use super::store::{Conn, GameRow, PhaseRow};
use crate::config::Env;
use crate::engine::house::{Changed, Handover, House, OrdersIn, Refusal, Step, Timeliness};
use crate::engine::{EngineError, Result};
use crate::nomic::grammar::{RuleChange, read_rule_change};
use crate::nomic::house::HouseRules;
use crate::outgoing::compose::Composed;
use crate::settings::{Authentication, GmAddress};
use crate::time::{Ts, Window};

/// A Nomic game's house: its house rules, read from the game's row.
pub struct NomicHouse {
    pub rules: HouseRules,
}

impl NomicHouse {
    pub fn of(g: &GameRow) -> Result<NomicHouse> {
        Ok(NomicHouse {
            rules: super::rules_of(g)?,
        })
    }
}

/// What a Nomic says to a question about turns it does not have.
fn no_turns() -> EngineError {
    EngineError::Refused(
        "a Nomic has no phases or deadlines: its days are UK days (Nomic 106, 113)".to_string(),
    )
}

impl House for NomicHouse {
    fn acceptance(&self) -> (GmAddress, Authentication) {
        (self.rules.gm_address, self.rules.authentication)
    }

    fn timeliness(&self, _: Ts, _: Ts, _: bool) -> Timeliness {
        Timeliness::OnTime
    }

    fn timeliness_held(&self, _: Ts, _: Ts, _: Option<Ts>) -> Timeliness {
        Timeliness::OnTime
    }

    fn turn_deadline(&self, _: &PhaseRow, _: Ts, _: &[Window]) -> Result<Ts> {
        Err(no_turns())
    }

    fn deadline_too_soon(&self, _: &PhaseRow, _: Ts) -> Result<Option<String>> {
        Err(no_turns())
    }

    fn past_windows(&self, t: Ts, _: &[Window]) -> Ts {
        t
    }

    fn extend(
        &self,
        _: Ts,
        _: Ts,
        _: u32,
        _: u32,
        _: &[Window],
    ) -> std::result::Result<Ts, Refusal> {
        Err("a Nomic has no deadlines to extend (Nomic 113: a vote closes with its day)".into())
    }

    fn extension_is_guaranteed(&self, _: u32) -> bool {
        false
    }

    fn holiday_extension(&self, deadline: Ts, _: Ts, _: Ts, _: &[Window]) -> (u32, Ts) {
        (0, deadline)
    }

    fn extension_notice_hours(&self) -> u32 {
        0
    }

    fn unavailable_hours_max(&self) -> u32 {
        0
    }

    fn unavailable_window(
        &self,
        _: Ts,
        _: Ts,
        _: Ts,
        _: Option<(Window, bool)>,
        _: u32,
    ) -> std::result::Result<Window, Refusal> {
        Err(
            "a Nomic takes no unavailable periods: every player votes on their own (Nomic 105)"
                .into(),
        )
    }

    fn weekly_occurrences(&self, _: Vec<Window>, _: Ts, _: &[Window]) -> Vec<Window> {
        Vec::new()
    }

    /// SET `parameter` `value`: one of the game's numbers, as a `set` rule-change would write
    /// it (Nomic 202-214: each names its rule).
    fn set(
        &self,
        option: &str,
        value: &str,
        _running: bool,
    ) -> Result<std::result::Result<Changed, Refusal>> {
        let RuleChange::Set { parameter, value } =
            read_rule_change(&format!("set {option} {value}"))
        else {
            let words: Vec<&str> = crate::nomic::grammar::Parameter::all()
                .iter()
                .map(|p| p.word())
                .collect();
            return Ok(Err(format!(
                "{option} {value} is no setting of a Nomic; the settings are {}",
                words.join(", ")
            )
            .into()));
        };
        let mut rules = self.rules.clone();
        if let Err(e) = rules.settings.set(parameter, value) {
            return Ok(Err(e.to_string().into()));
        }
        Ok(Ok(Changed {
            stored: serde_json::to_string(&rules)?,
            shown: rules.settings.shown(parameter),
            clause: rule_clause(parameter.rule()),
        }))
    }

    fn is_phase(&self, _: &str) -> bool {
        false
    }

    fn phase_title(&self, phase: &str) -> String {
        phase.to_string()
    }

    fn seat_name(&self, _: &str) -> Result<Option<String>> {
        Ok(None)
    }

    fn welcome_observer(
        &self,
        env: &Env,
        g: &GameRow,
        _: Option<&PhaseRow>,
        address: &str,
        _: &str,
    ) -> Option<Composed> {
        Some(crate::outgoing::nomic::compose::observer(
            env, g, address, true,
        ))
    }

    fn handover<'a>(
        &'a self,
        _: &'a mut Conn,
        _: &'a Env,
        _: &'a GameRow,
        _: &'a PhaseRow,
        _: &'a Handover<'a>,
    ) -> Step<'a, Composed> {
        Box::pin(async move { Err(no_turns()) })
    }

    fn summary<'a>(&'a self, c: &'a mut Conn, g: &'a GameRow) -> Step<'a, String> {
        Box::pin(async move { super::record::summary(c, g).await })
    }

    fn orders_in<'a>(
        &'a self,
        _: &'a mut Conn,
        _: &'a GameRow,
        _: &'a PhaseRow,
    ) -> Step<'a, Vec<(String, OrdersIn)>> {
        Box::pin(async move { Ok(Vec::new()) })
    }

    fn submitters<'a>(
        &'a self,
        _: &'a mut Conn,
        _: &'a GameRow,
        _: &'a PhaseRow,
        _: &'a str,
    ) -> Step<'a, Vec<(String, Ts)>> {
        Box::pin(async move { Ok(Vec::new()) })
    }

    fn roll_back<'a>(
        &'a self,
        _: &'a mut Conn,
        _: &'a GameRow,
        _: &'a PhaseRow,
        _: Ts,
        _: Ts,
    ) -> Step<'a, ()> {
        // Nomic 212: nothing is deleted or edited.
        Box::pin(async move { Err(no_turns()) })
    }

    fn forget_choices<'a>(&'a self, _: &'a mut Conn, _: &'a GameRow, _: &'a str) -> Step<'a, ()> {
        Box::pin(async move { Ok(()) })
    }
}

/// The clause a parameter names, as `Changed` keeps it (a `'static` text).
fn rule_clause(rule: u32) -> &'static str {
    match rule {
        202 => "Nomic 202",
        203 => "Nomic 203",
        204 => "Nomic 204",
        205 => "Nomic 205",
        207 => "Nomic 207",
        210 => "Nomic 210",
        211 => "Nomic 211",
        214 => "Nomic 214",
        _ => "Nomic",
    }
}
