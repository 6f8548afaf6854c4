//! A scene as SVG, deterministic to the byte: the same scene gives the same text.

use crate::geometry::{Geometry, Ring};
use crate::png::FONT_FAMILY;
use crate::scene::Scene;
use std::fmt::Write;

/// The SVG of a scene. A board with no geometry draws as an empty frame with its title.
pub fn svg(scene: &Scene<'_>) -> String {
    let g = Geometry::for_variant(&scene.map.name);
    let (w, h) = g.map_or((1000, 800), |g| (g.width, g.height));
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}">"##
    );
    let _ = write!(out, r##"<rect width="{w}" height="{h}" fill="#b9d3e6"/>"##);
    if let Some(g) = g {
        for ring in &g.land {
            let _ = write!(
                out,
                r##"<path d="{}" fill="#e8e0c8"/>"##,
                path(std::slice::from_ref(ring))
            );
        }
        for p in scene.map.all_provinces() {
            let info = scene.map.info(p);
            if let Some(shape) = g.province(&info.code) {
                let _ = write!(
                    out,
                    r##"<path d="{}" fill="none" stroke="#555"/>"##,
                    path(&shape.rings)
                );
            }
        }
    }
    let _ = write!(
        out,
        r##"<text x="10" y="24" font-size="18">{}</text>"##,
        scene.title
    );
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
