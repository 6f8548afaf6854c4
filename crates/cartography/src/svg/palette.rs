//! The colours of the drawing. Fixed values, never computed: the tests and a player's eye may
//! rely on a Power's colour and on the tint of its centres staying what they are.

use chancery_diplomacy::map::{Map, Power};

/// How one Power is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Colours {
    /// Its units and its centres' marks.
    pub unit: &'static str,
    /// The letter on its units: dark on a light colour, white on a dark one.
    pub ink: &'static str,
    /// Its orders' lines: the unit colour, darkened where the unit colour would vanish on the
    /// beige land (Russia's white, Turkey's gold).
    pub line: &'static str,
    /// The lighter tint its supply-centre provinces are filled with.
    pub tint: &'static str,
}

const fn c(
    unit: &'static str,
    ink: &'static str,
    line: &'static str,
    tint: &'static str,
) -> Colours {
    Colours {
        unit,
        ink,
        line,
        tint,
    }
}

/// The standard board's Powers, by name: the colours players know from the boxed game.
const STANDARD: [(&str, Colours); 7] = [
    ("AUSTRIA", c("#c8302a", "#ffffff", "#b3261f", "#efb9b4")),
    ("ENGLAND", c("#1f2f7a", "#ffffff", "#1f2f7a", "#b9c0e0")),
    ("FRANCE", c("#5aa9e6", "#0d2a44", "#2f86c9", "#c4e1f6")),
    ("GERMANY", c("#4a4a4a", "#ffffff", "#3a3a3a", "#c9c9c9")),
    ("ITALY", c("#2e9440", "#ffffff", "#237a33", "#bfe3bf")),
    ("RUSSIA", c("#f1ecfa", "#2a2340", "#7a68b3", "#dcd2f0")),
    ("TURKEY", c("#e6b422", "#2e2410", "#b58a00", "#f5e2a0")),
];

/// Seven Powers of any other board, by their index: distinct in hue and in lightness.
const OTHERS: [Colours; 7] = [
    c("#7b3fa0", "#ffffff", "#6a3190", "#dcc4ea"),
    c("#c8302a", "#ffffff", "#b3261f", "#efb9b4"),
    c("#2e8a44", "#ffffff", "#237a33", "#c0e2c3"),
    c("#e07a1f", "#2e1a05", "#c0620c", "#f6d2ae"),
    c("#2466a8", "#ffffff", "#1d5690", "#bcd3ec"),
    c("#e6c21e", "#2e2410", "#b08f00", "#f4e7a6"),
    c("#6b4a2b", "#ffffff", "#5a3c20", "#dccab4"),
];

/// A Power's colours: the standard board's by name, any other board's by index (an eighth
/// Power would share the first's: no board of ours has one).
pub fn of(map: &Map, power: Power) -> Colours {
    let name = map.power_name(power);
    if map.name == "standard"
        && let Some((_, c)) = STANDARD.iter().find(|(n, _)| *n == name)
    {
        return *c;
    }
    OTHERS[power.0 as usize % OTHERS.len()]
}

/// A colour of ours ("#rrggbb") as its three channels; None for anything else.
pub fn rgb(hex: &str) -> Option<[u8; 3]> {
    let hex = hex.strip_prefix('#').filter(|h| h.len() == 6)?;
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

pub const SEA: &str = "#b5d0e6";
pub const SEA_BORDER: &str = "#8fb2cf";
pub const LAND: &str = "#ede4c8";
pub const COASTLINE: &str = "#6f6650";
pub const BORDER: &str = "#8c8168";
pub const LABEL: &str = "#3a3426";
pub const SEA_LABEL: &str = "#2f5577";
pub const RIVER: &str = "#3f86c4";
pub const NEUTRAL_CENTRE: &str = "#ffffff";
pub const OUTLINE: &str = "#222222";
/// The ✕ of a failed order and the ring of a dislodged unit.
pub const FAILED: &str = "#d0021b";
/// Neutral ink of the legend's symbols.
pub const LEGEND_INK: &str = "#333333";
/// The legend's strip and its text.
pub const LEGEND_PAPER: &str = "#faf7ef";
pub const LEGEND_TEXT: &str = "#222222";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_power_of_every_board_has_its_own_colour_and_tint() {
        for name in Map::VARIANTS {
            let map = Map::variant(name).expect("variant");
            let all: Vec<Colours> = map.all_powers().map(|p| of(map, p)).collect();
            for (i, a) in all.iter().enumerate() {
                for b in &all[i + 1..] {
                    assert_ne!(a.unit, b.unit, "{name}");
                    assert_ne!(a.tint, b.tint, "{name}");
                }
            }
        }
    }

    #[test]
    fn the_standard_powers_keep_their_colours() {
        let map = Map::standard();
        let france = map.power_by_name("FRANCE").expect("France");
        assert_eq!(of(map, france).tint, "#c4e1f6");
    }
}
