//! A championship's house rules as the server keeps them in its row: the championship's
//! settings (the fixed qualifiers, how many the Swiss sends on, the rating cut-off), each
//! naming its clause, and the settings a mail's acceptance reads (where the TD's address goes,
//! how a sender proves who they are), which the 2019 rules (played in forum posts) never
//! needed. Preset `acwc2019` (`config/presets/acwc2019.toml`).

use chancery_office::settings::{Authentication, GmAddress};
use chancery_office::time::parse_gmt;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The championship's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// ACWC "Format": the previous winner, who proceeds to the Final.
    pub holder: Option<String>,
    /// ACWC "Format": the previous runner-up, who proceeds to the Candidates.
    pub runner_up: Option<String>,
    /// ACWC "Qualification": how many of the Swiss proceed to the Candidates (3).
    pub from_swiss: u32,
    /// ACWC "Format": the seeding rating's cut-off (`YYYY-MM-DD HH:MM`, GMT): the rating then,
    /// averaged with the highest rating of the year before.
    pub rating_cutoff: String,
}

/// The presets, by name.
pub const PRESETS: &[&str] = &["acwc2019"];

/// Why a preset or a setting is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    UnknownPreset(String),
    BadPreset(String),
    /// ACWC "Candidates": four players meet in the round robin; the Swiss sends 1 to 4.
    FromSwiss(u32),
    /// The cut-off is no GMT date.
    Cutoff(String),
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::UnknownPreset(p) => {
                write!(f, "no preset '{p}' (the presets: {})", PRESETS.join(", "))
            }
            SettingsError::BadPreset(e) => write!(f, "the preset does not read: {e}"),
            SettingsError::FromSwiss(n) => write!(
                f,
                "{n} players cannot proceed from the Swiss: the Candidates is a four-player round \
                 robin (ACWC Candidates)"
            ),
            SettingsError::Cutoff(s) => write!(
                f,
                "'{s}' is no GMT date (YYYY-MM-DD HH:MM) for the rating cut-off (ACWC Format)"
            ),
        }
    }
}

impl std::error::Error for SettingsError {}

impl Settings {
    /// Preset `name`, read from its file and checked.
    pub fn preset(name: &str) -> Result<Settings, SettingsError> {
        let text = match name {
            "acwc2019" => include_str!("../../../config/presets/acwc2019.toml"),
            other => return Err(SettingsError::UnknownPreset(other.to_string())),
        };
        let s: Settings =
            toml::from_str(text).map_err(|e| SettingsError::BadPreset(e.to_string()))?;
        s.check()?;
        Ok(s)
    }

    /// The settings hold together: 1 to 4 proceed from the Swiss, with the runner-up making at
    /// most four Candidates; the cut-off is a date.
    pub fn check(&self) -> Result<(), SettingsError> {
        let seats = self.from_swiss + u32::from(self.runner_up.is_some());
        if self.from_swiss == 0 || seats > 4 {
            return Err(SettingsError::FromSwiss(self.from_swiss));
        }
        self.cutoff().map(|_| ())
    }

    /// The rating cut-off, as a moment.
    pub fn cutoff(&self) -> Result<chancery_office::Ts, SettingsError> {
        parse_gmt(&self.rating_cutoff)
            .ok_or_else(|| SettingsError::Cutoff(self.rating_cutoff.clone()))
    }
}

/// A championship's house rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseRules {
    pub settings: Settings,
    /// Where the TD's address must be on an entrant's mail: To or CC (the lenient choice).
    pub gm_address: GmAddress,
    /// How an entrant proves who they are: the secret or our server's DKIM pass.
    pub authentication: Authentication,
}

impl HouseRules {
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

    #[test]
    fn acwc_format_the_2019_preset_names_the_fixed_qualifiers() {
        let s = Settings::preset("acwc2019").expect("preset");
        assert_eq!(s.holder.as_deref(), Some("arimakat"));
        assert_eq!(s.runner_up.as_deref(), Some("Ogul1"));
        assert_eq!(s.from_swiss, 3);
        assert_eq!(s.cutoff(), Ok(parse_gmt("2019-09-01 00:00").expect("date")));
        let rules = HouseRules::preset("acwc2019").expect("rules");
        let json = serde_json::to_string(&rules).expect("json");
        assert_eq!(
            serde_json::from_str::<HouseRules>(&json).expect("back"),
            rules
        );
    }

    #[test]
    fn acwc_candidates_four_seats_at_most() {
        let mut s = Settings::preset("acwc2019").expect("preset");
        s.from_swiss = 4;
        assert_eq!(s.check(), Err(SettingsError::FromSwiss(4)));
        s.runner_up = None;
        assert_eq!(s.check(), Ok(()));
        assert!(Settings::preset("wm2004").is_err());
    }
}
