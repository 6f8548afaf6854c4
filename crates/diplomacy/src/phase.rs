//! Phases: season, year and kind, written `S1901M`, `F1901R`, `W1901A`.

use std::fmt;
use std::str::FromStr;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Season {
    Spring,
    Fall,
    Winter,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PhaseKind {
    Movement,
    Retreat,
    Adjustment,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Phase {
    pub year: u16,
    pub season: Season,
    pub kind: PhaseKind,
}

impl Phase {
    pub fn new(season: Season, year: u16, kind: PhaseKind) -> Phase {
        Phase { year, season, kind }
    }

    /// The phase that follows in the calendar, before any skipping.
    pub fn successor(self) -> Phase {
        use PhaseKind::*;
        use Season::*;
        match (self.season, self.kind) {
            (Spring, Movement) => Phase::new(Spring, self.year, Retreat),
            (Spring, _) => Phase::new(Fall, self.year, Movement),
            (Fall, Movement) => Phase::new(Fall, self.year, Retreat),
            (Fall, _) => Phase::new(Winter, self.year, Adjustment),
            (Winter, _) => Phase::new(Spring, self.year.saturating_add(1), Movement),
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.season {
            Season::Spring => 'S',
            Season::Fall => 'F',
            Season::Winter => 'W',
        };
        let k = match self.kind {
            PhaseKind::Movement => 'M',
            PhaseKind::Retreat => 'R',
            PhaseKind::Adjustment => 'A',
        };
        write!(f, "{s}{}{k}", self.year)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseError(pub String);

impl fmt::Display for PhaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad phase '{}': expected a season (S, F or W), a year and M, R or A, as in S1901M",
            self.0
        )
    }
}

impl std::error::Error for PhaseError {}

impl FromStr for Phase {
    type Err = PhaseError;
    fn from_str(s: &str) -> Result<Phase, PhaseError> {
        let err = || PhaseError(s.to_string());
        let t = s.trim().to_ascii_uppercase();
        if !t.is_ascii() || t.len() < 3 {
            return Err(err());
        }
        let season = match &t[..1] {
            "S" => Season::Spring,
            "F" => Season::Fall,
            // Maharajiad B.I(5): the adjustment phase "may be called Monsoon" (M1501A).
            "W" => Season::Winter,
            "M" if t.ends_with(['A', 'B']) => Season::Winter,
            _ => return Err(err()),
        };
        let kind = match &t[t.len() - 1..] {
            "M" => PhaseKind::Movement,
            "R" => PhaseKind::Retreat,
            "A" | "B" => PhaseKind::Adjustment,
            _ => return Err(err()),
        };
        let year: u16 = t[1..t.len() - 1].parse().map_err(|_| err())?;
        let ok = matches!(
            (season, kind),
            (
                Season::Spring | Season::Fall,
                PhaseKind::Movement | PhaseKind::Retreat
            ) | (Season::Winter, PhaseKind::Adjustment)
        );
        if !ok {
            return Err(err());
        }
        Ok(Phase { year, season, kind })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for s in ["S1901M", "F1901R", "W1901A", "S2024M"] {
            assert_eq!(s.parse::<Phase>().map(|p| p.to_string()), Ok(s.to_string()));
        }
        assert!("W1901M".parse::<Phase>().is_err());
        assert!("X1901M".parse::<Phase>().is_err());
        assert!("S19é1M".parse::<Phase>().is_err());
        assert!("".parse::<Phase>().is_err());
    }

    #[test]
    fn calendar() {
        let p: Phase = "F1901R".parse().unwrap();
        assert_eq!(p.successor().to_string(), "W1901A");
        assert_eq!(p.successor().successor().to_string(), "S1902M");
    }

    #[test]
    fn maharajiad_b_i_5_monsoon_is_the_adjustment_phase() {
        let m: Phase = "M1501A".parse().unwrap();
        assert_eq!(m.to_string(), "W1501A");
        assert!(
            "M1501M".parse::<Phase>().is_err(),
            "M is Monsoon, never a movement season"
        );
    }
}
