//! `AcwcHouse`, a championship's house (`engine::house::House`): what the shared steps ask of
//! it. Its house rules answer for proof and addressing; a championship's rounds keep their own
//! weeks (ACWC "Timeline", `chancery_acwc::week`), not a phase's deadline, so the questions about
//! phases, deadlines and extensions are answered so, and the shared commands that need them are
//! refused before they ask (`commands::takes`).

use super::store::{Conn, GameRow, PhaseRow};
use crate::acwc::house::HouseRules;
use crate::config::Env;
use crate::engine::house::{Changed, Handover, House, OrdersIn, Refusal, Step, Timeliness};
use crate::engine::{EngineError, Result};
use crate::outgoing::compose::Composed;
use crate::settings::{Authentication, GmAddress};
use crate::time::{Ts, Window};

/// A championship's house: its house rules, read from the game's row.
pub struct AcwcHouse {
    pub rules: HouseRules,
}

impl AcwcHouse {
    pub fn of(g: &GameRow) -> Result<AcwcHouse> {
        Ok(AcwcHouse {
            rules: super::rules_of(g)?,
        })
    }
}

/// What a championship says to a question about turns it does not have.
fn no_turns() -> EngineError {
    EngineError::Refused(
        "a championship's rounds keep their own weeks (ACWC Timeline): no phase or deadline to \
         change"
            .to_string(),
    )
}

impl House for AcwcHouse {
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
        Err("a round's week is fixed (ACWC Timeline: every match by Sunday 23:59:59 UTC)".into())
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
            "the office takes no unavailable periods: players agree their match times (ACWC \
             Match negotiations)"
                .into(),
        )
    }

    fn weekly_occurrences(&self, _: Vec<Window>, _: Ts, _: &[Window]) -> Vec<Window> {
        Vec::new()
    }

    fn set(
        &self,
        option: &str,
        _value: &str,
        _running: bool,
    ) -> Result<std::result::Result<Changed, Refusal>> {
        Ok(Err(format!(
            "{option} is no setting a championship changes under way: its settings are its \
             rulebook's (ACWC Format)"
        )
        .into()))
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
        Some(crate::outgoing::acwc::compose::observer(env, g, address))
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
        Box::pin(async move { super::rounds::summary(c, g).await })
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
        // A round's results are the players' reports: nothing is rolled back.
        Box::pin(async move { Err(no_turns()) })
    }

    fn forget_choices<'a>(&'a self, _: &'a mut Conn, _: &'a GameRow, _: &'a str) -> Step<'a, ()> {
        Box::pin(async move { Ok(()) })
    }
}
