//! A scene as SVG, deterministic to the byte: the same scene gives the same text. The layers,
//! bottom up: the sea, the land and the Provinces (`provinces`), the rivers (`rivers`), the
//! supply centres and the names, the Units (`units`), the Orders over them (`orders`), and the
//! legend in a strip beneath the map (`legend`). Every number is written by `arrows::N` (one
//! decimal at most), and everything is drawn in the order of the scene's lists or of the
//! Provinces' indices, never of a hash.

mod arrows;
mod legend;
mod orders;
mod palette;
mod places;
mod provinces;
mod rivers;
mod units;

#[cfg(test)]
mod tests;

use crate::geometry::{Geometry, Ring};
use crate::png::FONT_FAMILY;
use crate::scene::Scene;
use places::Places;
use std::fmt::Write;

/// The frame of a board with no geometry.
const BLANK: (i32, i32) = (1000, 800);

/// The SVG of a scene. A board with no geometry draws as an empty frame with its legend.
pub fn svg(scene: &Scene<'_>) -> String {
    draw(scene, Geometry::for_variant(&scene.map.name))
}

/// The SVG of a scene on a given drawing of its board.
pub(crate) fn draw(scene: &Scene<'_>, geometry: Option<&Geometry>) -> String {
    let (w, h) = geometry.map_or(BLANK, |g| (g.width, g.height));
    let (legend, legend_height) = legend::legend(scene, f64::from(w), f64::from(h));
    let total = h + legend_height.ceil() as i32;
    let mut out = String::with_capacity(96 * 1024);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{total}" viewBox="0 0 {w} {total}" font-family="{FONT_FAMILY}">"##
    );
    let _ = write!(
        out,
        r#"<rect width="{w}" height="{h}" fill="{}"/>"#,
        palette::SEA
    );
    if let Some(g) = geometry {
        let places = Places::new(scene, g);
        provinces::fills(&mut out, scene, &places);
        rivers::all(&mut out, &places);
        provinces::centres(&mut out, scene, &places);
        provinces::labels(&mut out, scene, &places);
        units::all(&mut out, scene, &places);
        orders::all(&mut out, scene, &places);
    }
    out.push_str(&legend);
    out.push_str("</svg>");
    out
}

/// Rings as one path's data.
pub(crate) fn path(rings: &[Ring]) -> String {
    let mut d = String::new();
    for ring in rings {
        for (i, [x, y]) in ring.iter().enumerate() {
            let _ = write!(d, "{}{x} {y}", if i == 0 { "M" } else { "L" });
        }
        d.push('Z');
    }
    d
}

/// Text made safe inside an XML element or attribute.
pub(crate) fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c => s.push(c),
        }
    }
    s
}

/// The tint a power's supply-centre provinces are filled with, as RGB (`None`: no such board or
/// power): what a test looks for in a screenshot of a map.
pub fn owner_colour(variant: &str, power: &str) -> Option<[u8; 3]> {
    let map = chancery_diplomacy::map::Map::variant(variant)?;
    let power = map.power_by_name(power)?;
    let hex = palette::of(map, power).tint.strip_prefix('#')?;
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}
