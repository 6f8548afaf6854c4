//! A scene as SVG, deterministic to the byte: the same scene gives the same text. The layers,
//! bottom up: the sea, the land and the Provinces (`provinces`), the rivers (`rivers`), the
//! supply centres and the names, the Units (`units`), the Orders over them (`orders`), and the
//! legend in a strip beneath the map (`legend`). Every number is written by `arrows::N` (one
//! decimal at most), and everything is drawn in the order of the scene's lists or of the
//! Provinces' indices, never of a hash.

mod arrows;
mod legend;
mod orders;
pub(crate) mod palette;
pub(crate) mod places;
pub(crate) mod provinces;
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
    Layers::of(scene, Geometry::for_variant(&scene.map.name)).svg()
}

/// The SVG of a scene on a given drawing of its board.
#[cfg(test)]
pub(crate) fn draw(scene: &Scene<'_>, geometry: Option<&Geometry>) -> String {
    Layers::of(scene, geometry).svg()
}

/// A scene's drawing as its layers, bottom up: what the scene decides (the fills, the centres,
/// the pieces) between what its board always shows (the lines, the names). The SVG is the
/// layers in turn; the PNG draws a board's own layers once and the scene's over them (`raster`).
pub(crate) struct Layers {
    pub width: i32,
    /// The whole drawing's height, the legend's strip included.
    pub height: i32,
    /// The sea, the land and the Provinces, tinted by the centres' owners.
    pub fills: String,
    /// The borders, the coastline and the rivers.
    pub lines: String,
    /// The supply centres' marks, in their owners' colours.
    pub centres: String,
    /// The Provinces' names and the legend's strip with its keys.
    pub names: String,
    /// The Units, the Orders and the scene's title.
    pub pieces: String,
}

impl Layers {
    pub fn of(scene: &Scene<'_>, geometry: Option<&Geometry>) -> Layers {
        Layers::made(scene, geometry, true)
    }

    /// The layers a scene decides alone (the fills', the lines' and the names' left empty):
    /// what a PNG needs over its board's own layers, drawn once (`raster`).
    pub fn of_scene(scene: &Scene<'_>, geometry: Option<&Geometry>) -> Layers {
        Layers::made(scene, geometry, false)
    }

    fn made(scene: &Scene<'_>, geometry: Option<&Geometry>, whole: bool) -> Layers {
        let (w, h) = geometry.map_or(BLANK, |g| (g.width, g.height));
        let legend = legend::legend(scene, f64::from(w), f64::from(h));
        let mut layers = Layers {
            width: w,
            height: h + legend.height.ceil() as i32,
            fills: if whole {
                format!(
                    r#"<rect width="{w}" height="{h}" fill="{}"/>"#,
                    palette::SEA
                )
            } else {
                String::new()
            },
            lines: String::new(),
            centres: String::new(),
            names: String::new(),
            pieces: String::new(),
        };
        if let Some(g) = geometry {
            let places = Places::new(scene, g);
            if whole {
                provinces::fills(&mut layers.fills, scene, &places);
                provinces::borders(&mut layers.lines, scene, &places);
                rivers::all(&mut layers.lines, &places);
                provinces::labels(&mut layers.names, scene, &places);
            }
            provinces::centres(&mut layers.centres, scene, &places);
            units::all(&mut layers.pieces, scene, &places);
            orders::all(&mut layers.pieces, scene, &places);
        }
        if whole {
            layers.names.push_str(&legend.keys);
        }
        layers.pieces.push_str(&legend.title);
        layers
    }

    /// The whole drawing.
    pub fn svg(&self) -> String {
        let parts = [
            &self.fills,
            &self.lines,
            &self.centres,
            &self.names,
            &self.pieces,
        ];
        let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum::<usize>() + 256);
        out.push_str(&self.open());
        for part in parts {
            out.push_str(part);
        }
        out.push_str("</svg>");
        out
    }

    /// One layer alone, as an SVG of the drawing's size.
    pub fn alone(&self, layer: &str) -> String {
        format!("{}{layer}</svg>", self.open())
    }

    fn open(&self) -> String {
        let (w, h) = (self.width, self.height);
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}">"##
        )
    }
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
    palette::rgb(palette::of(map, power).tint)
}
