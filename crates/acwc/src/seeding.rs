//! Entries and seeding (ACWC 2019, "Format"): "Your seeding rating ... is equal to the average
//! of your Antichess rating at September 1, 2019, 00:00 UTC and your highest Antichess rating
//! between September 1, 2018, 00:00 UTC and September 1, 2019"; "arimakat, as 2018 winner,
//! automatically proceeds to the final. Ogul1, as 2018 runner-up, automatically proceeds to the
//! Candidates"; and "Qualification": the Swiss "will be played between all entrants (except for
//! arimakat and Ogul1)".
//!
//! Decisions where the rules are silent, each documented where it is made:
//! - the seeding rating is kept exact, as the doubled sum of the two ratings ([`SeedingRating`]):
//!   the average of two whole ratings may end in .5, and nothing is rounded;
//! - a peak below the cut-off rating is refused ([`SeedingError::PeakBelowCutoff`]): the rating
//!   at the cut-off moment is one the player held within the peak's window, so the peak is at
//!   least that rating, and a lower one is a typing mistake;
//! - the seed order is by seeding rating, highest first, then by the Lichess name compared
//!   without regard to case (Lichess names are case-insensitive), then exactly: the rules give
//!   no tie-break, and the name is the one deterministic key every entrant can check;
//! - the fixed qualifiers (the previous winner to the Final, the runner-up to the Candidates)
//!   are settings ([`FixedQualifiers`]), not names in the code; a fixed qualifier who did not
//!   enter is simply not among the entrants;
//! - one account entered twice (by a name equal without regard to case) is refused: the rules
//!   disqualify both ("Player eligibility"), which is the TD's call, not the pairing's.

use crate::Player;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// "Format": the two Lichess Antichess ratings a seeding rating averages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seeding {
    /// The rating at the cut-off moment (September 1, 2019, 00:00 UTC in 2019).
    pub cutoff: u32,
    /// The highest rating in the year before the cut-off.
    pub peak: u32,
}

impl Seeding {
    /// "Format": the seeding rating, the average of the two, exact.
    pub fn rating(&self) -> SeedingRating {
        SeedingRating::from_doubled(self.doubled())
    }

    /// "Format": twice the seeding rating (the sum of the two ratings), a whole number.
    pub fn doubled(&self) -> u32 {
        self.cutoff.saturating_add(self.peak)
    }

    /// "Format": the peak is the highest rating over a window the cut-off rating was held in,
    /// so it is never below it.
    pub fn check(&self) -> Result<(), SeedingError> {
        if self.peak < self.cutoff {
            return Err(SeedingError::PeakBelowCutoff {
                player: None,
                cutoff: self.cutoff,
                peak: self.peak,
            });
        }
        Ok(())
    }
}

/// "Format": a seeding rating, exact: kept doubled, so an average ending in .5 stays exact.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct SeedingRating {
    doubled: u32,
}

impl SeedingRating {
    pub const fn from_doubled(doubled: u32) -> SeedingRating {
        SeedingRating { doubled }
    }

    /// Twice the rating: a whole number.
    pub const fn doubled(self) -> u32 {
        self.doubled
    }
}

impl fmt::Display for SeedingRating {
    /// `1834` or `1834.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_halves(f, u64::from(self.doubled))
    }
}

/// A number of halves as a decimal: `1834` or `1834.5`.
pub(crate) fn write_halves(f: &mut fmt::Formatter<'_>, halves: u64) -> fmt::Result {
    if halves.is_multiple_of(2) {
        write!(f, "{}", halves / 2)
    } else {
        write!(f, "{}.5", halves / 2)
    }
}

/// An entrant with their seeding.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entrant {
    pub player: Player,
    #[serde(flatten)]
    pub seeding: Seeding,
}

/// "Format": the players who skip a stage, as the year's settings name them (2019: arimakat,
/// the 2018 winner, to the Final; Ogul1, the 2018 runner-up, to the Candidates).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixedQualifiers {
    /// The previous winner: straight to the Final.
    #[serde(default, rename = "final")]
    pub to_final: Option<Player>,
    /// The previous runner-up (or others the settings name): straight to the Candidates.
    #[serde(default, rename = "candidates")]
    pub to_candidates: Vec<Player>,
}

impl FixedQualifiers {
    /// "Qualification": whether `p` is excepted from the Swiss.
    pub fn skips_swiss(&self, p: &Player) -> bool {
        self.to_final.as_ref().is_some_and(|f| same_account(f, p))
            || self.to_candidates.iter().any(|c| same_account(c, p))
    }
}

/// Why an entry list is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeedingError {
    /// "Format": a peak below the cut-off rating.
    PeakBelowCutoff {
        player: Option<Player>,
        cutoff: u32,
        peak: u32,
    },
    /// "Player eligibility": one account entered twice.
    Twice(Player),
}

impl fmt::Display for SeedingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeedingError::PeakBelowCutoff {
                player,
                cutoff,
                peak,
            } => {
                if let Some(p) = player {
                    write!(f, "{p}: ")?;
                }
                write!(
                    f,
                    "the year's peak ({peak}) is below the cut-off rating ({cutoff}) (ACWC Format)"
                )
            }
            SeedingError::Twice(p) => write!(f, "{p} is entered twice (ACWC Player eligibility)"),
        }
    }
}

impl std::error::Error for SeedingError {}

/// Lichess account names are case-insensitive.
pub(crate) fn same_account(a: &Player, b: &Player) -> bool {
    a.as_str().to_lowercase() == b.as_str().to_lowercase()
}

/// "Format": the seed order, the highest seeding rating first; ties by the name without regard
/// to case, then exactly (the rules give no tie-break).
pub fn seed_cmp(a: &Entrant, b: &Entrant) -> Ordering {
    b.seeding
        .doubled()
        .cmp(&a.seeding.doubled())
        .then_with(|| {
            a.player
                .as_str()
                .to_lowercase()
                .cmp(&b.player.as_str().to_lowercase())
        })
        .then_with(|| a.player.cmp(&b.player))
}

/// "Format", "Qualification": the Swiss's field in seed order, the fixed qualifiers left out;
/// every seeding checked, and an account entered twice refused.
pub fn swiss_field(
    entrants: &[Entrant],
    fixed: &FixedQualifiers,
) -> Result<Vec<Entrant>, SeedingError> {
    for (i, e) in entrants.iter().enumerate() {
        if let Err(SeedingError::PeakBelowCutoff { cutoff, peak, .. }) = e.seeding.check() {
            return Err(SeedingError::PeakBelowCutoff {
                player: Some(e.player.clone()),
                cutoff,
                peak,
            });
        }
        if entrants[..i]
            .iter()
            .any(|o| same_account(&o.player, &e.player))
        {
            return Err(SeedingError::Twice(e.player.clone()));
        }
    }
    let mut field: Vec<Entrant> = entrants
        .iter()
        .filter(|e| !fixed.skips_swiss(&e.player))
        .cloned()
        .collect();
    // seed_cmp, with each name lowered once.
    field.sort_by_cached_key(|e| {
        (
            std::cmp::Reverse(e.seeding.doubled()),
            e.player.as_str().to_lowercase(),
            e.player.clone(),
        )
    });
    Ok(field)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(name: &str, cutoff: u32, peak: u32) -> Entrant {
        Entrant {
            player: Player::new(name),
            seeding: Seeding { cutoff, peak },
        }
    }

    #[test]
    fn acwc_format_the_seeding_rating_is_the_average_exact() {
        let s = Seeding {
            cutoff: 2101,
            peak: 2250,
        };
        assert_eq!(s.doubled(), 4351);
        assert_eq!(s.rating().to_string(), "2175.5");
        let s = Seeding {
            cutoff: 2100,
            peak: 2250,
        };
        assert_eq!(s.rating().to_string(), "2175");
        assert!(
            Seeding {
                cutoff: 2101,
                peak: 2250
            }
            .rating()
                > s.rating()
        );
    }

    #[test]
    fn acwc_format_a_peak_below_the_cutoff_is_refused() {
        assert!(
            Seeding {
                cutoff: 2000,
                peak: 2000
            }
            .check()
            .is_ok()
        );
        let err = swiss_field(&[e("a", 2000, 1999)], &FixedQualifiers::default());
        assert_eq!(
            err,
            Err(SeedingError::PeakBelowCutoff {
                player: Some(Player::new("a")),
                cutoff: 2000,
                peak: 1999
            })
        );
        assert!(err.unwrap_err().to_string().contains("peak (1999)"));
    }

    #[test]
    fn acwc_format_seed_order_by_rating_then_name() {
        let field = swiss_field(
            &[
                e("zed", 2000, 2100),
                e("Bob", 2000, 2100),
                e("alice", 2000, 2100),
                e("top", 2300, 2300),
            ],
            &FixedQualifiers::default(),
        )
        .expect("a field");
        let names: Vec<&str> = field.iter().map(|e| e.player.as_str()).collect();
        assert_eq!(names, ["top", "alice", "Bob", "zed"]);
    }

    #[test]
    fn acwc_qualification_the_fixed_qualifiers_skip_the_swiss() {
        let fixed = FixedQualifiers {
            to_final: Some(Player::new("arimakat")),
            to_candidates: vec![Player::new("Ogul1")],
        };
        let field = swiss_field(
            &[
                e("Arimakat", 2400, 2500),
                e("ogul1", 2300, 2400),
                e("x", 2000, 2000),
            ],
            &fixed,
        )
        .expect("a field");
        assert_eq!(field, vec![e("x", 2000, 2000)]);
    }

    #[test]
    fn acwc_eligibility_one_account_entered_twice_is_refused() {
        let err = swiss_field(
            &[e("Same", 2000, 2000), e("same", 2000, 2000)],
            &FixedQualifiers::default(),
        );
        assert_eq!(err, Err(SeedingError::Twice(Player::new("same"))));
    }
}
