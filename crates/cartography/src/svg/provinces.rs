//! The board beneath the pieces: the sea, the land, each Province filled by its kind (sea
//! blue, land beige, a supply centre tinted by its owner), the coastline, the supply-centre
//! marks and the Provinces' names.

use super::arrows::{N, P};
use super::palette::{self, Colours};
use super::places::Places;
use super::{escape, path};
use crate::scene::Scene;
use chancery_diplomacy::map::Province;
use std::fmt::Write;

/// What an area of the board is filled as: the land beneath the Provinces, or one Province.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    Land,
    Province(Province),
}

/// The Provinces, filled: sea blue, land beige, a supply centre tinted by its owner. The fills
/// are drawn without anti-aliasing and the borders over them with it: the same look, and a PNG
/// a good deal smaller (the fills' edges, all under a border, no longer blend in a hundred
/// shades).
pub fn fills(out: &mut String, scene: &Scene<'_>, places: &Places<'_>) {
    areas(out, scene, places, |area| fill(scene, area).to_string());
}

/// The colour an area is filled with in a scene.
pub fn fill(scene: &Scene<'_>, area: Area) -> &'static str {
    match area {
        Area::Land => palette::LAND,
        Area::Province(p) if scene.map.is_sea(p) => palette::SEA,
        Area::Province(p) => owner(scene, p.0 as usize).map_or(palette::LAND, |c| c.tint),
    }
}

/// Every area of the board filled with the colour given for it, in the order the fills are
/// drawn (the land, then each Province by its index): with crisp edges, each pixel of the
/// drawing is the colour of the one area that covers it last (`raster` reads the areas so).
pub fn areas(
    out: &mut String,
    scene: &Scene<'_>,
    places: &Places<'_>,
    colour: impl Fn(Area) -> String,
) {
    let g = places.geometry;
    let _ = write!(
        out,
        r#"<g class="land" fill="{}" shape-rendering="crispEdges">"#,
        colour(Area::Land)
    );
    for ring in &g.land {
        let _ = write!(out, r#"<path d="{}"/>"#, path(std::slice::from_ref(ring)));
    }
    out.push_str(r#"</g><g class="provinces" shape-rendering="crispEdges">"#);
    for p in scene.map.all_provinces() {
        let Some(shape) = places.shape(p) else {
            continue;
        };
        let fill = colour(Area::Province(p));
        let _ = write!(out, r#"<path d="{}" fill="{fill}"/>"#, path(&shape.rings));
    }
    out.push_str("</g>");
}

/// The Provinces' borders, the seas' paler than the land's, and the coastline over them.
pub fn borders(out: &mut String, scene: &Scene<'_>, places: &Places<'_>) {
    let g = places.geometry;
    for (sea, border) in [(true, palette::SEA_BORDER), (false, palette::BORDER)] {
        let _ = write!(
            out,
            r#"<g class="borders" fill="none" stroke="{border}" stroke-width="0.8" stroke-linejoin="round">"#
        );
        for p in scene.map.all_provinces() {
            if scene.map.is_sea(p) != sea {
                continue;
            }
            if let Some(shape) = places.shape(p) {
                let _ = write!(out, r#"<path d="{}"/>"#, path(&shape.rings));
            }
        }
        out.push_str("</g>");
    }
    // The coastline last, so that it reads stronger than a border.
    let _ = write!(
        out,
        r#"<g class="coastline" fill="none" stroke="{}" stroke-width="1.3" stroke-linejoin="round">"#,
        palette::COASTLINE
    );
    for ring in &g.land {
        let _ = write!(out, r#"<path d="{}"/>"#, path(std::slice::from_ref(ring)));
    }
    out.push_str("</g>");
}

/// The colours of a supply centre's owner, if it has one.
fn owner(scene: &Scene<'_>, index: usize) -> Option<Colours> {
    let power = scene.owners.get(index).copied().flatten()?;
    Some(palette::of(scene.map, power))
}

/// Each supply centre's mark: a disc of its owner's colour, or white when neutral.
pub fn centres(out: &mut String, scene: &Scene<'_>, places: &Places<'_>) {
    let _ = write!(
        out,
        r#"<g class="centres" stroke="{}" stroke-width="1">"#,
        palette::OUTLINE
    );
    for p in scene.map.all_provinces() {
        if !scene.map.info(p).supply_center {
            continue;
        }
        let Some(at) = places.shape(p).and_then(|s| s.centre) else {
            continue;
        };
        let fill = owner(scene, p.0 as usize).map_or(palette::NEUTRAL_CENTRE, |c| c.unit);
        let at = P::of(at);
        let _ = write!(
            out,
            r#"<circle cx="{}" cy="{}" r="4.5" fill="{fill}"/>"#,
            N(at.x),
            N(at.y)
        );
    }
    out.push_str("</g>");
}

/// The Provinces' codes at their label points, in the bundled font.
pub fn labels(out: &mut String, scene: &Scene<'_>, places: &Places<'_>) {
    out.push_str(r#"<g class="labels" font-size="10" text-anchor="middle">"#);
    for p in scene.map.all_provinces() {
        let Some(shape) = places.shape(p) else {
            continue;
        };
        let info = scene.map.info(p);
        let fill = if scene.map.is_sea(p) {
            palette::SEA_LABEL
        } else {
            palette::LABEL
        };
        // The label point is the middle of the word; the baseline sits a third of the size
        // lower.
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" fill="{fill}">{}</text>"#,
            shape.label[0],
            shape.label[1] + 4,
            escape(&info.code)
        );
    }
    out.push_str("</g>");
}
