//! The game's numbers as one typed struct: the numbers rules 202-205, 207, 210, 211 and 214 of
//! the 2019 Initial Set write into their text, which an adopted `Rule-change: set <parameter>
//! <value>` changes (issue 25: "When an adopted rule changes a parameter Chancery enforces (the
//! win score, the voting thresholds, the hours, the points), the game follows it from then
//! on"). The server stores a game's [`Settings`] as JSON in the game's row; every function of
//! this crate that enforces one of these numbers takes them.
//!
//! The named presets live in `config/presets/*.toml` ([`PRESETS`]), embedded at build time:
//! `nomic2019` is the 2019 game's numbers, each commented with its rule.
//!
//! Decisions where the rules are silent:
//! - a `set` refuses a value that would make its rule meaningless rather than merely different
//!   ([`SettingsError`]): a winning score of 0 (every player would win at the start, Nomic 201,
//!   210), a deadline at or after 24:00 (no such time of the day, Nomic 106, 202), 0 complete
//!   circuits (Nomic 204 counts circuits that end), 0 minutes to dispute or to give an opinion
//!   (Nomic 214 gives "a period"), at most 0 mutable rules (no rule-change could be adopted,
//!   Nomic 103, 211), at most 0 open Points of Order (Nomic 214: "any player may call for a
//!   Judgement"). Penalties, bonuses and the points' floor and offset may be 0.
//! - numbers read from a stored row or a preset are checked the same way ([`Settings::check`]),
//!   and a negative amount of points is refused there (a `set` cannot write one).

use crate::grammar::Parameter;
use crate::points::{DEFEAT_PENALTY_207, DISSENT_BONUS_205, WINNING_SCORE_210};
use crate::proposal::DEADLINE_MINUTES_202;
use std::fmt;

/// The named presets, each a file `config/presets/<name>.toml`.
pub const PRESETS: &[&str] = &["nomic2019"];

/// Nomic 202, 203, 204, 205, 207, 210, 211, 214: the game's numbers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Nomic 210: "The winner is the first player to achieve 200 (positive) points."
    pub winning_score: i64,
    /// Nomic 207: "When a proposed rule-change is defeated, the player who proposed it loses 10
    /// points."
    pub defeat_penalty: i64,
    /// Nomic 205: "the players who vote against winning proposals shall receive 10 points each".
    pub dissent_bonus: i64,
    /// Nomic 203: the 10 of `Floor((max{10, R-290})*Y/V)`.
    pub points_floor: i64,
    /// Nomic 203: the 290 of `Floor((max{10, R-290})*Y/V)`.
    pub points_offset: i64,
    /// Nomic 202: "before 7pm on their allocated day", in minutes after UK midnight (1140).
    pub proposal_deadline_minutes: u32,
    /// Nomic 211: "At no time may there be more than 25 mutable rules."
    pub max_mutable_rules: u32,
    /// Nomic 204: "by the end of the second complete circuit of turns" (2), after which a
    /// simple majority adopts.
    pub circuits_to_majority: u32,
    /// Nomic 214: "a one hour period in which any of the other players may dispute the
    /// decision" (60).
    pub dispute_minutes: u32,
    /// Nomic 214: "Players other than the Judge then have one hour to each type either 'I agree
    /// with Judgement...' or 'I disagree with Judgement...'" (60).
    pub opinion_minutes: u32,
    /// Nomic 214: "No player may have more than three active points of order at any one time."
    pub max_open_points_of_order: u32,
}

/// Why a preset cannot be had or a number is refused; each names its rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    /// No preset of that name ([`PRESETS`]).
    UnknownPreset(String),
    /// The preset's file is not a full set of the game's numbers.
    BadPreset { preset: String, message: String },
    /// Nomic 201, 210: a winning score of 0 or less, which every player has at the start.
    NoWinningScore { value: i64 },
    /// Nomic 106, 202: a deadline that is no time of the day (24:00 or later).
    DeadlineNotInTheDay { minutes: u32 },
    /// Nomic 204, 211, 214: a count or period of nothing, which leaves its rule meaningless.
    Zero(Parameter),
    /// Nomic 203, 205, 207: a negative amount of points (only a stored row can hold one).
    Negative { parameter: Parameter, value: i64 },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::UnknownPreset(p) => write!(
                f,
                "unknown Nomic preset '{p}' (known: {})",
                PRESETS.join(", ")
            ),
            SettingsError::BadPreset { preset, message } => {
                write!(f, "Nomic preset '{preset}' is invalid: {message}")
            }
            SettingsError::NoWinningScore { value } => write!(
                f,
                "the winning score must be at least 1, not {value}: all players begin with zero points, so every one of them would have won at once (Nomic 201, 210)"
            ),
            SettingsError::DeadlineNotInTheDay { minutes } => write!(
                f,
                "the proposal deadline must be a time of the allocated day, before 24:00, and {} is not (Nomic 106, 202)",
                clock(*minutes)
            ),
            SettingsError::Zero(p) => {
                write!(f, "{} must be at least 1: {}", p.word(), zero_reason(*p))
            }
            SettingsError::Negative { parameter, value } => write!(
                f,
                "{} cannot be negative ({value}): it is an amount of points (Nomic {})",
                parameter.word(),
                parameter.rule()
            ),
        }
    }
}

impl std::error::Error for SettingsError {}

/// Why a parameter may not be 0, in the words of its rule.
fn zero_reason(p: Parameter) -> &'static str {
    match p {
        Parameter::CircuitsToMajority => {
            "rule 204 changes at the end of a complete circuit of turns, and there is no end of none (Nomic 204)"
        }
        Parameter::DisputeMinutes => {
            "there is a period after a Judgement in which the other players may dispute it (Nomic 214)"
        }
        Parameter::OpinionMinutes => {
            "after a dispute the players other than the Judge have a period to agree or disagree (Nomic 214)"
        }
        Parameter::MaxMutableRules => {
            "with no mutable rule allowed, no rule-change could ever be adopted (Nomic 103, 211)"
        }
        Parameter::MaxOpenPointsOfOrder => {
            "any player may call for a Judgement with a Point of Order (Nomic 214)"
        }
        _ => "the rule needs a number above zero",
    }
}

/// Minutes after midnight as a UK clock shows them (`19:00`); 24:00 and later as they are.
fn clock(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// A number of the rules that may not be 0.
fn at_least_one(p: Parameter, value: u32) -> Result<u32, SettingsError> {
    if value == 0 {
        Err(SettingsError::Zero(p))
    } else {
        Ok(value)
    }
}

/// An amount of points that may not be negative.
fn not_negative(parameter: Parameter, value: i64) -> Result<(), SettingsError> {
    if value < 0 {
        Err(SettingsError::Negative { parameter, value })
    } else {
        Ok(())
    }
}

impl Default for Settings {
    /// The 2019 game's numbers ([`Settings::nomic2019`]).
    fn default() -> Settings {
        Settings::nomic2019()
    }
}

impl Settings {
    /// The numbers the 2019 Initial Set's rules write (the `nomic2019` preset says the same).
    pub const fn nomic2019() -> Settings {
        Settings {
            winning_score: WINNING_SCORE_210,
            defeat_penalty: DEFEAT_PENALTY_207,
            dissent_bonus: DISSENT_BONUS_205,
            points_floor: 10,
            points_offset: 290,
            proposal_deadline_minutes: DEADLINE_MINUTES_202,
            max_mutable_rules: 25,
            circuits_to_majority: 2,
            dispute_minutes: 60,
            opinion_minutes: 60,
            max_open_points_of_order: 3,
        }
    }

    /// A named preset ([`PRESETS`], in any case), read from its embedded file and checked.
    pub fn preset(name: &str) -> Result<Settings, SettingsError> {
        let key = name.trim().to_ascii_lowercase();
        let text = match key.as_str() {
            "nomic2019" => include_str!("../../../config/presets/nomic2019.toml"),
            _ => return Err(SettingsError::UnknownPreset(name.to_string())),
        };
        Settings::from_toml(&key, text)
    }

    /// A full set of the game's numbers as a preset file writes them, checked.
    pub fn from_toml(preset: &str, text: &str) -> Result<Settings, SettingsError> {
        let s: Settings = toml::from_str(text).map_err(|e| SettingsError::BadPreset {
            preset: preset.to_string(),
            message: e.to_string(),
        })?;
        s.check()?;
        Ok(s)
    }

    /// Every number checked as a `set` would check it (for numbers read from a stored row).
    pub fn check(&self) -> Result<(), SettingsError> {
        let mut probe = self.clone();
        for &p in Parameter::all() {
            match p {
                Parameter::WinningScore if self.winning_score < 1 => {
                    return Err(SettingsError::NoWinningScore {
                        value: self.winning_score,
                    });
                }
                Parameter::DefeatPenalty
                | Parameter::DissentBonus
                | Parameter::PointsFloor
                | Parameter::PointsOffset => not_negative(p, self.get(p))?,
                _ => {
                    let value = u32::try_from(self.get(p)).unwrap_or(u32::MAX);
                    probe.set(p, value)?;
                }
            }
        }
        Ok(())
    }

    /// Nomic 202-214: a parameter changed by an adopted `set`, or why the value is refused (and
    /// nothing changes).
    pub fn set(&mut self, p: Parameter, value: u32) -> Result<(), SettingsError> {
        let points = i64::from(value);
        match p {
            Parameter::WinningScore => {
                if value == 0 {
                    return Err(SettingsError::NoWinningScore { value: 0 });
                }
                self.winning_score = points;
            }
            Parameter::DefeatPenalty => self.defeat_penalty = points,
            Parameter::DissentBonus => self.dissent_bonus = points,
            Parameter::PointsFloor => self.points_floor = points,
            Parameter::PointsOffset => self.points_offset = points,
            Parameter::ProposalDeadline => {
                if value >= 24 * 60 {
                    return Err(SettingsError::DeadlineNotInTheDay { minutes: value });
                }
                self.proposal_deadline_minutes = value;
            }
            Parameter::MaxMutableRules => self.max_mutable_rules = at_least_one(p, value)?,
            Parameter::CircuitsToMajority => self.circuits_to_majority = at_least_one(p, value)?,
            Parameter::DisputeMinutes => self.dispute_minutes = at_least_one(p, value)?,
            Parameter::OpinionMinutes => self.opinion_minutes = at_least_one(p, value)?,
            Parameter::MaxOpenPointsOfOrder => {
                self.max_open_points_of_order = at_least_one(p, value)?;
            }
        }
        Ok(())
    }

    /// Nomic 202-214: a parameter's value (the deadline in minutes after UK midnight).
    pub fn get(&self, p: Parameter) -> i64 {
        match p {
            Parameter::WinningScore => self.winning_score,
            Parameter::DefeatPenalty => self.defeat_penalty,
            Parameter::DissentBonus => self.dissent_bonus,
            Parameter::PointsFloor => self.points_floor,
            Parameter::PointsOffset => self.points_offset,
            Parameter::ProposalDeadline => i64::from(self.proposal_deadline_minutes),
            Parameter::MaxMutableRules => i64::from(self.max_mutable_rules),
            Parameter::CircuitsToMajority => i64::from(self.circuits_to_majority),
            Parameter::DisputeMinutes => i64::from(self.dispute_minutes),
            Parameter::OpinionMinutes => i64::from(self.opinion_minutes),
            Parameter::MaxOpenPointsOfOrder => i64::from(self.max_open_points_of_order),
        }
    }

    /// A parameter's value as a mail shows it: the deadline as a UK clock time (`19:00`, Nomic
    /// 106, 202), the others as numbers.
    pub fn shown(&self, p: Parameter) -> String {
        match p {
            Parameter::ProposalDeadline => clock(self.proposal_deadline_minutes),
            _ => self.get(p).to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nomic_202_203_204_205_207_210_211_214_the_2019_preset_is_the_rules_numbers() {
        let s = Settings::preset("nomic2019").expect("the embedded preset reads");
        assert_eq!(s, Settings::nomic2019());
        assert_eq!(s, Settings::default());
        assert_eq!(Settings::preset(" NOMIC2019 ").as_ref(), Ok(&s));
        // Each as its rule writes it.
        assert_eq!(s.winning_score, 200, "Nomic 210");
        assert_eq!(s.defeat_penalty, 10, "Nomic 207");
        assert_eq!(s.dissent_bonus, 10, "Nomic 205");
        assert_eq!((s.points_floor, s.points_offset), (10, 290), "Nomic 203");
        assert_eq!(s.proposal_deadline_minutes, 19 * 60, "Nomic 202: 7pm");
        assert_eq!(s.max_mutable_rules, 25, "Nomic 211");
        assert_eq!(
            usize::try_from(s.max_mutable_rules).ok(),
            Some(crate::rules::MAX_MUTABLE_211)
        );
        assert_eq!(s.circuits_to_majority, 2, "Nomic 204");
        assert_eq!(
            (s.dispute_minutes, s.opinion_minutes),
            (60, 60),
            "Nomic 214"
        );
        assert_eq!(s.max_open_points_of_order, 3, "Nomic 214");
        for name in PRESETS {
            assert!(Settings::preset(name).is_ok(), "{name}");
        }
        assert_eq!(
            Settings::preset("agora2020"),
            Err(SettingsError::UnknownPreset("agora2020".into()))
        );
        assert!(
            SettingsError::UnknownPreset("x".into())
                .to_string()
                .contains("nomic2019")
        );
    }

    #[test]
    fn nomic_202_214_set_get_and_shown_for_every_parameter() {
        let mut s = Settings::nomic2019();
        assert_eq!(s.shown(Parameter::ProposalDeadline), "19:00");
        assert_eq!(s.shown(Parameter::WinningScore), "200");
        for &p in Parameter::all() {
            s.set(p, 7).expect("7 is a fine value for every parameter");
            assert_eq!(s.get(p), 7, "{p}");
        }
        assert_eq!(s.shown(Parameter::ProposalDeadline), "00:07");
        s.set(Parameter::ProposalDeadline, 18 * 60 + 30)
            .expect("ok");
        assert_eq!(s.shown(Parameter::ProposalDeadline), "18:30");
        s.set(Parameter::DefeatPenalty, 0)
            .expect("no penalty is a rule");
        assert_eq!(s.check(), Ok(()));
    }

    #[test]
    fn nomic_201_202_204_210_211_214_nonsense_values_are_refused_with_their_rule() {
        let mut s = Settings::nomic2019();
        let refused = [
            (Parameter::WinningScore, 0, "Nomic 201, 210"),
            (Parameter::ProposalDeadline, 24 * 60, "Nomic 106, 202"),
            (Parameter::ProposalDeadline, u32::MAX, "Nomic 106, 202"),
            (Parameter::CircuitsToMajority, 0, "Nomic 204"),
            (Parameter::DisputeMinutes, 0, "Nomic 214"),
            (Parameter::OpinionMinutes, 0, "Nomic 214"),
            (Parameter::MaxMutableRules, 0, "Nomic 103, 211"),
            (Parameter::MaxOpenPointsOfOrder, 0, "Nomic 214"),
        ];
        for (p, value, rule) in refused {
            let e = s.set(p, value).expect_err("refused");
            assert!(e.to_string().contains(rule), "{p}: {e}");
        }
        assert_eq!(s, Settings::nomic2019(), "nothing changed");
        assert_eq!(
            s.set(Parameter::ProposalDeadline, 1440)
                .map_err(|e| e.to_string()),
            Err("the proposal deadline must be a time of the allocated day, before 24:00, and 24:00 is not (Nomic 106, 202)".into())
        );
    }

    #[test]
    fn nomic_203_210_stored_settings_are_read_back_and_checked() {
        let s = Settings::nomic2019();
        let json = serde_json::to_string(&s).expect("serialises");
        assert_eq!(
            serde_json::from_str::<Settings>(&json).ok(),
            Some(s.clone())
        );
        // An unknown key (a typo in a stored row) is refused, not ignored.
        let typo = json.replace("winning_score", "winning_scor");
        assert!(serde_json::from_str::<Settings>(&typo).is_err());
        let mut bad = s.clone();
        bad.winning_score = -5;
        assert_eq!(
            bad.check(),
            Err(SettingsError::NoWinningScore { value: -5 })
        );
        let mut bad = s.clone();
        bad.dissent_bonus = -1;
        assert!(
            bad.check()
                .is_err_and(|e| e.to_string().contains("Nomic 205"))
        );
        let mut bad = s;
        bad.dispute_minutes = 0;
        assert_eq!(
            bad.check(),
            Err(SettingsError::Zero(Parameter::DisputeMinutes))
        );
        assert!(matches!(
            Settings::from_toml("x", "winning_score = 200"),
            Err(SettingsError::BadPreset { .. })
        ));
    }
}
