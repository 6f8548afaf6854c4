//! `NomicHouse`, a Nomic game's house (`engine::house::House`): what the shared steps ask of
//! it. Its house rules answer for proof and addressing and for SET (a parameter of the game,
//! Nomic 202-214); the Nomic has no phases, deadlines or extensions (its clock is the UK day,
//! Nomic 106, 113), so the questions about them are answered so, and the shared commands that
//! need them are refused before they ask (`commands`).

use super::store::{Conn, GameRow, PhaseRow};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::house::{Changed, House, Refusal, Step};
use crate::nomic::grammar::{RuleChange, read_rule_change};
use crate::nomic::house::HouseRules;
use crate::outgoing::compose::Composed;
use crate::settings::{Authentication, GmAddress};

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

impl House for NomicHouse {
    fn acceptance(&self) -> (GmAddress, Authentication) {
        (self.rules.gm_address, self.rules.authentication)
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

    fn summary<'a>(&'a self, c: &'a mut Conn, g: &'a GameRow) -> Step<'a, String> {
        Box::pin(async move { super::record::summary(c, g).await })
    }

    fn turnless(&self) -> &'static str {
        "a Nomic has no phases or deadlines: its days are UK days (Nomic 106, 113), and nothing \
         is undone (Nomic 212)"
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
