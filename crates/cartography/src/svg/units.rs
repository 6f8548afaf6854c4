//! The Units: an Army is a disc with an "A", a Fleet a hull with an "F", both in their Power's
//! colour; a dislodged Unit is set aside and ringed in red.

use super::arrows::{N, P, Xy};
use super::palette;
use super::places::Places;
use crate::scene::Scene;
use chancery_diplomacy::map::{Map, Power, UnitType};
use std::fmt::Write;

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
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" fill="{}" stroke="none">{}</text></g>"#,
        N(at.x),
        N(at.y + 4.0),
        c.ink,
        unit_type.letter()
    );
}
