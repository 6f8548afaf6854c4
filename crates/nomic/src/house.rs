//! A Nomic's house rules as the server keeps them in the game's row: the game's parameters
//! ([`Settings`], each naming its rule) and the settings a mail's acceptance reads, which the
//! 2019 rules (played in chat threads) never needed: where the GM's address goes and how a
//! sender proves who they are. And the initial rule set, embedded.

use crate::settings::{Settings, SettingsError};
use chancery_office::settings::{Authentication, GmAddress};
use serde::{Deserialize, Serialize};

/// Suber's Initial Set as the 2019 game edited it (`rulebooks/`, the file the rulebook gives:
/// `{"rules": {key: {"label", "text", ...}}, "date", "author"}`), enacted when a game begins.
pub const INITIAL_RULES_2019: &str = include_str!("../rulebooks/nomic-initial-rules-2019.json");

/// A Nomic game's house rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseRules {
    /// The game's numbers, each naming its rule (Nomic 202-214).
    pub settings: Settings,
    /// Where the GM's address must be on a player's mail: To or CC (the rules are silent: the
    /// lenient choice).
    pub gm_address: GmAddress,
    /// How a player proves who they are: the secret or our server's DKIM pass.
    pub authentication: Authentication,
}

impl HouseRules {
    /// The house rules of preset `name` (`Settings::PRESETS`).
    pub fn preset(name: &str) -> Result<HouseRules, SettingsError> {
        Ok(HouseRules {
            settings: Settings::preset(name)?,
            gm_address: GmAddress::ToOrCc,
            authentication: Authentication::SecretOrDkim,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_office::ruleset::read_initial_set;

    #[test]
    fn nomic_102_the_embedded_initial_set_reads_with_its_immutable_and_mutable_rules() {
        let set = read_initial_set(INITIAL_RULES_2019).expect("reads");
        let numbers: Vec<u32> = set.rules.iter().map(|r| r.number).collect();
        assert!(numbers.contains(&101) && numbers.contains(&118));
        assert!(numbers.contains(&201) && numbers.contains(&215));
        assert_eq!(set.rules.len(), 33);
    }

    #[test]
    fn the_preset_round_trips_as_the_row_stores_it() {
        let rules = HouseRules::preset("nomic2019").expect("preset");
        let json = serde_json::to_string(&rules).expect("json");
        assert_eq!(
            serde_json::from_str::<HouseRules>(&json).expect("back"),
            rules
        );
    }
}
