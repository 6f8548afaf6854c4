//! `AcwcHouse`, a championship's house (`engine::house::House`): what the shared steps ask of
//! it. Its house rules answer for proof and addressing; a championship's rounds keep their own
//! weeks (ACWC "Timeline", `chancery_acwc::week`), not a phase's deadline, so the questions about
//! phases, deadlines and extensions are answered so, and the shared commands that need them are
//! refused before they ask (`commands::takes`).

use super::store::{Conn, GameRow, PhaseRow};
use crate::acwc::house::HouseRules;
use crate::config::Env;
use crate::engine::Result;
use crate::engine::house::{Changed, House, Refusal, Step};
use crate::outgoing::compose::Composed;
use crate::settings::{Authentication, GmAddress};

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

impl House for AcwcHouse {
    fn acceptance(&self) -> (GmAddress, Authentication) {
        (self.rules.gm_address, self.rules.authentication)
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

    fn summary<'a>(&'a self, c: &'a mut Conn, g: &'a GameRow) -> Step<'a, String> {
        Box::pin(async move { super::rounds::summary(c, g).await })
    }

    fn turnless(&self) -> &'static str {
        "a championship's rounds keep their own weeks (ACWC Timeline): no phase, deadline or \
         extension to change"
    }
}
