//! The rivers of boards that have them (Maharajiad B.I(2)): a river is not a space but the
//! fleet borders between river Provinces, drawn as a blue curve from one Province's unit point
//! through the middle of the border they share to the other's (two quadratic halves); and where a river Province
//! touches a sea, the river's mouth, from its unit point to the middle of that coast. Drawn
//! beneath the Units.

use super::arrows::{P, Xy};
use super::palette;
use super::places::Places;
use crate::geometry::{Point, ProvinceShape};
use chancery_diplomacy::map::{Location, Province};
use std::collections::BTreeSet;
use std::fmt::Write;

/// The river lines of the board, if it has rivers.
pub fn all(out: &mut String, places: &Places<'_>) {
    let map = places.map;
    let rivers: Vec<Province> = map.all_provinces().filter(|&p| map.info(p).river).collect();
    if rivers.is_empty() {
        return;
    }
    let _ = write!(
        out,
        r#"<g class="rivers" fill="none" stroke="{}" stroke-width="2" stroke-linecap="round">"#,
        palette::RIVER
    );
    for &a in &rivers {
        let Some(sa) = places.shape(a) else { continue };
        let mut mouth: Option<(f64, P)> = None;
        for l in map.fleet_neighbours(Location::new(a)) {
            let b = l.province;
            let Some(sb) = places.shape(b) else { continue };
            if map.info(b).river && b > a {
                let (pa, pb) = (P::of(sa.unit), P::of(sb.unit));
                let m = shared_border(sa, sb).map_or(pa.lerp(pb, 0.5), |(_, m)| m);
                // Two quadratic halves meeting at the border's middle, the river running there
                // along the way from one unit point to the other: smooth, and never thrown
                // wide as one curve through that point would be when it lies off that way.
                let c = m.sub(pb.sub(pa).scale(0.25));
                let _ = write!(
                    out,
                    r#"<path d="M{}Q{} {}T{}"/>"#,
                    Xy(pa),
                    Xy(c),
                    Xy(m),
                    Xy(pb)
                );
            } else if map.is_sea(b)
                && let Some((len, m)) = shared_border(sa, sb)
                && mouth.is_none_or(|(best, _)| len > best)
            {
                mouth = Some((len, m));
            }
        }
        // One mouth a river Province: into the sea it shares the longest coast with.
        if let Some((_, m)) = mouth {
            let _ = write!(out, r#"<path d="M{}L{}"/>"#, Xy(P::of(sa.unit)), Xy(m));
        }
    }
    out.push_str("</g>");
}

/// The segments of a shape's rings, each with its ends in a fixed order so that the same
/// segment of two rings compares equal whichever way each ring runs.
fn segments(shape: &ProvinceShape) -> Vec<(Point, Point)> {
    let mut all = Vec::new();
    for ring in &shape.rings {
        for (i, &a) in ring.iter().enumerate() {
            let b = ring[(i + 1) % ring.len()];
            all.push((a, b));
        }
    }
    all
}

fn key((a, b): (Point, Point)) -> (Point, Point) {
    if a <= b { (a, b) } else { (b, a) }
}

/// The length of the border two Provinces share and the point halfway along it (walking its
/// segments in the first one's ring order); nothing if they share no segment.
pub fn shared_border(a: &ProvinceShape, b: &ProvinceShape) -> Option<(f64, P)> {
    let theirs: BTreeSet<(Point, Point)> = segments(b).into_iter().map(key).collect();
    let shared: Vec<(P, P)> = segments(a)
        .into_iter()
        .filter(|s| theirs.contains(&key(*s)))
        .map(|(x, y)| (P::of(x), P::of(y)))
        .collect();
    let total: f64 = shared.iter().map(|(x, y)| y.sub(*x).len()).sum();
    if shared.is_empty() || total <= 0.0 {
        return None;
    }
    let mut left = total / 2.0;
    for (x, y) in &shared {
        let l = y.sub(*x).len();
        if left <= l {
            return Some((total, x.lerp(*y, left / l.max(1e-9))));
        }
        left -= l;
    }
    shared.last().map(|(_, y)| (total, *y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn square(x: i32, y: i32, s: i32) -> ProvinceShape {
        ProvinceShape {
            rings: vec![vec![[x, y], [x + s, y], [x + s, y + s], [x, y + s]]],
            label: [x + s / 2, y + s / 2],
            unit: [x + s / 2, y + s / 2],
            centre: None,
            coasts: BTreeMap::new(),
        }
    }

    #[test]
    fn two_squares_side_by_side_share_the_middle_of_their_common_side() {
        // The right side of the first, from (100,0) to (100,100), run the other way round by
        // the second: halfway is (100,50).
        let a = square(0, 0, 100);
        let b = square(100, 0, 100);
        assert_eq!(shared_border(&a, &b), Some((100.0, P::new(100.0, 50.0))));
        assert_eq!(shared_border(&a, &square(300, 0, 100)), None);
    }

    #[test]
    fn a_border_of_several_segments_is_halved_along_its_length() {
        let a = ProvinceShape {
            rings: vec![vec![[0, 0], [100, 0], [100, 40], [100, 100], [0, 100]]],
            ..square(0, 0, 100)
        };
        let b = ProvinceShape {
            rings: vec![vec![[100, 0], [200, 0], [200, 100], [100, 100], [100, 40]]],
            ..square(100, 0, 100)
        };
        assert_eq!(shared_border(&a, &b), Some((100.0, P::new(100.0, 50.0))));
    }
}
