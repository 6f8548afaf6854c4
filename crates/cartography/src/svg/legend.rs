//! The legend, in a strip beneath the map: the scene's title, the symbol of each kind of Order
//! and of a failed, invalid or dislodged one, and each Power's colour.

use super::arrows::{P, Segment};
use super::escape;
use super::orders;
use super::palette::{self, Colours};
use super::units;
use crate::scene::Scene;
use chancery_diplomacy::map::{Power, UnitType};
use std::fmt::Write;

/// The height of one row of the legend.
const ROW: f64 = 30.0;
/// Room for the title above the rows.
const TITLE: f64 = 34.0;
/// The width a symbol takes before its caption.
const SYMBOL: f64 = 46.0;
/// A caption's width per character at the legend's size, generous for the condensed font.
const CHAR: f64 = 5.6;

/// The ink of the legend's symbols: one neutral colour, not a Power's.
const INK: Colours = Colours {
    unit: palette::LEGEND_INK,
    ink: "#ffffff",
    line: palette::LEGEND_INK,
    tint: palette::LAND,
};

/// One entry: its symbol (drawn with its left end at the point given) and its caption.
enum Symbol {
    Kind(&'static str),
    Power(Power),
}

const KINDS: [(&str, &str); 11] = [
    ("move", "move"),
    ("retreat", "retreat"),
    ("support-hold", "supports hold"),
    ("support-move", "supports move"),
    ("convoy", "convoys"),
    ("hold", "holds"),
    ("build", "build"),
    ("disband", "disband, removal"),
    ("failed", "failed"),
    ("invalid", "invalid"),
    ("dislodged", "dislodged"),
];

/// The legend at the foot of a map: its frame and keys (the same on every map of a board) and
/// the scene's title, apart, so that a board's unchanging part can be drawn once (`raster`).
pub struct Legend {
    /// The strip and its keys: each kind of Order and each Power's colour.
    pub keys: String,
    /// The scene's title, at the strip's top left.
    pub title: String,
    pub height: f64,
}

/// The legend of a scene at the foot of a map `width` wide whose map part ends at `top`.
pub fn legend(scene: &Scene<'_>, width: f64, top: f64) -> Legend {
    let mut entries: Vec<(Symbol, String)> = KINDS
        .iter()
        .map(|(k, caption)| (Symbol::Kind(k), (*caption).to_string()))
        .collect();
    entries.extend(
        scene
            .map
            .all_powers()
            .map(|p| (Symbol::Power(p), scene.map.power_name(p).to_string())),
    );
    let mut body = String::new();
    let (mut x, mut row) = (12.0, 0.0);
    let mut first_power = true;
    for (symbol, caption) in &entries {
        let w = SYMBOL + CHAR * caption.chars().count() as f64 + 16.0;
        // The Powers begin a row of their own.
        let new_power_row = matches!(symbol, Symbol::Power(_)) && first_power;
        if new_power_row || x + w > width - 8.0 {
            x = 12.0;
            row += 1.0;
        }
        if let Symbol::Power(_) = symbol {
            first_power = false;
        }
        let y = top + TITLE + ROW * row + ROW / 2.0;
        entry(&mut body, scene, symbol, P::new(x, y));
        let _ = write!(
            body,
            r#"<text x="{}" y="{}">{}</text>"#,
            super::arrows::N(x + SYMBOL),
            super::arrows::N(y + 4.0),
            escape(caption)
        );
        x += w;
    }
    let height = TITLE + ROW * (row + 1.0) + 6.0;
    let keys = format!(
        r##"<g class="legend"><rect x="0" y="{}" width="{}" height="{}" fill="{}" stroke="#8c8168"/><g font-size="11" fill="{}">{body}</g></g>"##,
        super::arrows::N(top),
        super::arrows::N(width),
        super::arrows::N(height),
        palette::LEGEND_PAPER,
        palette::LEGEND_TEXT,
    );
    let title = format!(
        r#"<text class="title" x="12" y="{}" font-size="18" fill="{}">{}</text>"#,
        super::arrows::N(top + 24.0),
        palette::LEGEND_TEXT,
        escape(&scene.title)
    );
    Legend {
        keys,
        title,
        height,
    }
}

/// One entry's symbol, at `at` (its left end, its middle height).
fn entry(out: &mut String, scene: &Scene<'_>, symbol: &Symbol, at: P) {
    let line = Segment::new(at, at.add(P::new(32.0, 0.0)));
    let mid = at.add(P::new(16.0, 0.0));
    let mut s = String::new();
    match symbol {
        Symbol::Power(p) => {
            units::piece(&mut s, scene.map, *p, UnitType::Army, mid, "unit");
            let _ = write!(
                out,
                r#"<g stroke="{}" stroke-width="1.2" font-size="11" text-anchor="middle">{s}</g>"#,
                palette::OUTLINE
            );
            return;
        }
        Symbol::Kind(kind) => {
            orders::sample(&mut s, kind, line, INK);
        }
    }
    let _ = write!(
        out,
        r#"<g fill="none" stroke-linecap="round" stroke-linejoin="round">{s}</g>"#
    );
}
