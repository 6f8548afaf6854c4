//! The Units: an Army is a disc with an "A", a Fleet a hull with an "F", both in their Power's
//! colour; a dislodged Unit is set aside and ringed in red.

use super::arrows::{N, P, Xy};
use super::palette;
use super::places::Places;
use crate::png::FONT_FAMILY;
use crate::scene::Scene;
use chancery_diplomacy::map::{Map, Power, UnitType};
use resvg::usvg::tiny_skia_path;
use std::fmt::Write;
use std::sync::OnceLock;

/// How far from a Unit's point its drawing reaches: arrows start and stop there.
pub const RADIUS: f64 = 11.0;
/// The red ring round a dislodged Unit.
pub const DISLODGED_RING: f64 = 14.0;

/// Every Unit of the scene: the standing and the retreating ones, then the ones built.
pub fn all(out: &mut String, scene: &Scene<'_>, places: &Places<'_>) {
    let _ = write!(
        out,
        r#"<g class="units" stroke="{}" stroke-width="1.2" font-size="11" text-anchor="middle">"#,
        palette::OUTLINE
    );
    for s in places.all() {
        let class = if s.dislodged {
            "unit dislodged"
        } else {
            "unit"
        };
        piece(out, scene.map, s.unit.power, s.unit.unit_type, s.at, class);
        if s.dislodged {
            let _ = write!(
                out,
                r#"<circle class="dislodged" cx="{}" cy="{}" r="{DISLODGED_RING}" fill="none" stroke="{}" stroke-width="2.2"/>"#,
                N(s.at.x),
                N(s.at.y),
                palette::FAILED
            );
        }
    }
    for u in &scene.built {
        if let Some(at) = places.location(u.location) {
            piece(out, scene.map, u.power, u.unit_type, at, "unit built");
        }
    }
    out.push_str("</g>");
}

/// One Unit at a point.
pub fn piece(out: &mut String, map: &Map, power: Power, unit_type: UnitType, at: P, class: &str) {
    let c = palette::of(map, power);
    let _ = write!(out, r#"<g class="{class}" fill="{}">"#, c.unit);
    match unit_type {
        UnitType::Army => {
            let _ = write!(out, r#"<circle cx="{}" cy="{}" r="9"/>"#, N(at.x), N(at.y));
        }
        UnitType::Fleet => {
            // A hull: the deck wide above, the keel narrow below.
            let _ = write!(
                out,
                r#"<path d="M{}L{}L{}L{}Z"/>"#,
                Xy(at.add(P::new(-12.0, -6.0))),
                Xy(at.add(P::new(12.0, -6.0))),
                Xy(at.add(P::new(7.0, 7.0))),
                Xy(at.add(P::new(-7.0, 7.0)))
            );
        }
    }
    // The letter as its glyph's outline, not as text: shaping a word is most of what a few
    // dozen Units cost to draw, and the outline is the same every time.
    let _ = write!(
        out,
        r#"<path d="{}" transform="translate({} {})" fill="{}" stroke="none"/></g>"#,
        letter(unit_type),
        N(at.x),
        N(at.y + 4.0),
        c.ink
    );
}

/// The outline of a Unit's letter in the bundled font at the Units' size (11), centred on the
/// origin's x with its baseline on the origin's y: drawn by usvg from the text once, kept.
fn letter(unit_type: UnitType) -> &'static str {
    static LETTERS: OnceLock<[String; 2]> = OnceLock::new();
    let [army, fleet] = LETTERS.get_or_init(|| {
        [UnitType::Army, UnitType::Fleet].map(|u| outline(u.letter()).unwrap_or_default())
    });
    match unit_type {
        UnitType::Army => army,
        UnitType::Fleet => fleet,
    }
}

/// The outline of a text at size 11, centred on x = 0, its baseline on y = 0, as path data.
fn outline(text: &str) -> Option<String> {
    // Drawn at (20, 20) on a page of its own, then moved back to the origin.
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" font-family="{FONT_FAMILY}"><text x="20" y="20" font-size="11" text-anchor="middle">{text}</text></svg>"#
    );
    let tree = resvg::usvg::Tree::from_str(&svg, crate::png::options()).ok()?;
    let mut d = String::new();
    for node in tree.root().children() {
        let resvg::usvg::Node::Text(t) = node else {
            continue;
        };
        for glyph in t.flattened().children() {
            if let resvg::usvg::Node::Path(p) = glyph {
                segments(&mut d, p.data(), p.abs_transform());
            }
        }
    }
    (!d.is_empty()).then_some(d)
}

/// A path's segments as path data, mapped by `transform` and moved by (-20, -20).
fn segments(d: &mut String, path: &tiny_skia_path::Path, transform: tiny_skia_path::Transform) {
    use tiny_skia_path::PathSegment;
    let xy = |p: tiny_skia_path::Point| {
        let mut q = [p];
        transform.map_points(&mut q);
        format!(
            "{} {}",
            N(f64::from(q[0].x) - 20.0),
            N(f64::from(q[0].y) - 20.0)
        )
    };
    for segment in path.segments() {
        let _ = match segment {
            PathSegment::MoveTo(p) => write!(d, "M{}", xy(p)),
            PathSegment::LineTo(p) => write!(d, "L{}", xy(p)),
            PathSegment::QuadTo(a, p) => write!(d, "Q{} {}", xy(a), xy(p)),
            PathSegment::CubicTo(a, b, p) => write!(d, "C{} {} {}", xy(a), xy(b), xy(p)),
            PathSegment::Close => write!(d, "Z"),
        };
    }
}
