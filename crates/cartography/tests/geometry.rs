//! The drawing of each board against its graph: two provinces share a border (a segment of
//! one's rings is a segment of the other's) exactly when a unit can move between them. A
//! corner touching is no border. Every province is drawn, with its places inside its rings.

use chancery_cartography::Geometry;
use chancery_cartography::geometry::{Point, Ring};
use chancery_diplomacy::map::{Map, Province};
use std::collections::{BTreeSet, HashMap};

/// A segment, its ends in order so that both directions are the same segment.
fn segment(a: Point, b: Point) -> (Point, Point) {
    if a <= b { (a, b) } else { (b, a) }
}

fn segments(rings: &[Ring]) -> impl Iterator<Item = (Point, Point)> + '_ {
    rings
        .iter()
        .flat_map(|r| (0..r.len()).map(move |i| segment(r[i], r[(i + 1) % r.len()])))
}

/// The pairs of provinces (codes, in order) that share a border in the drawing.
fn drawn_borders(g: &Geometry) -> BTreeSet<(String, String)> {
    let mut owners: HashMap<(Point, Point), BTreeSet<&str>> = HashMap::new();
    for (code, shape) in &g.provinces {
        for s in segments(&shape.rings) {
            owners.entry(s).or_default().insert(code);
        }
    }
    let mut pairs = BTreeSet::new();
    for codes in owners.values() {
        let codes: Vec<&&str> = codes.iter().collect();
        for (i, a) in codes.iter().enumerate() {
            for b in &codes[i + 1..] {
                pairs.insert((a.to_string(), b.to_string()));
            }
        }
    }
    pairs
}

/// The pairs of provinces (codes, in order) a unit can move between.
fn graph_borders(map: &Map) -> BTreeSet<(String, String)> {
    let code = |p: Province| map.info(p).code.clone();
    let mut pairs = BTreeSet::new();
    for p in map.all_provinces() {
        let near = map
            .army_neighbours(p)
            .union(map.fleet_province_neighbours(p));
        for q in near.iter().filter(|q| *q != p) {
            let (a, b) = (code(p), code(q));
            pairs.insert(if a < b { (a, b) } else { (b, a) });
        }
    }
    pairs
}

/// Even-odd: is the point inside the rings (a province's holes are rings too)?
fn inside(rings: &[Ring], [x, y]: Point) -> bool {
    let (x, y) = (f64::from(x), f64::from(y));
    let mut inside = false;
    for r in rings {
        for i in 0..r.len() {
            let ([x1, y1], [x2, y2]) = (r[i], r[(i + 1) % r.len()]);
            let (x1, y1, x2, y2) = (f64::from(x1), f64::from(y1), f64::from(x2), f64::from(y2));
            if (y1 > y) != (y2 > y) && x < x1 + (y - y1) * (x2 - x1) / (y2 - y1) {
                inside = !inside;
            }
        }
    }
    inside
}

fn check(variant: &str) {
    let map = Map::variant(variant).expect("the board");
    let g = Geometry::for_variant(variant).expect("the board's drawing reads");
    assert_eq!(g.variant, variant);
    let codes: BTreeSet<String> = map
        .all_provinces()
        .map(|p| map.info(p).code.clone())
        .collect();
    let drawn: BTreeSet<String> = g.provinces.keys().cloned().collect();
    assert_eq!(drawn, codes, "every province drawn, and no other");
    let (want, have) = (graph_borders(map), drawn_borders(g));
    let missing: Vec<_> = want.difference(&have).collect();
    let extra: Vec<_> = have.difference(&want).collect();
    assert!(
        missing.is_empty(),
        "{variant}: adjacent but no border drawn: {missing:?}"
    );
    assert!(
        extra.is_empty(),
        "{variant}: a border drawn between provinces not adjacent: {extra:?}"
    );
    for p in map.all_provinces() {
        let info = map.info(p);
        let shape = &g.provinces[&info.code];
        let mut places = vec![("label", shape.label), ("unit", shape.unit)];
        places.extend(shape.centre.map(|c| ("centre", c)));
        places.extend(shape.coasts.values().map(|c| ("coast", *c)));
        for (what, at) in places {
            assert!(
                inside(&shape.rings, at),
                "{}: its {what} {at:?} is outside it",
                info.code
            );
        }
        assert_eq!(
            shape.centre.is_some(),
            info.supply_center,
            "{}: a centre mark",
            info.code
        );
        let coasts: BTreeSet<&str> = info.coasts.iter().map(|c| c.code()).collect();
        let drawn: BTreeSet<&str> = shape.coasts.keys().map(String::as_str).collect();
        assert_eq!(drawn, coasts, "{}: a place for each coast", info.code);
    }
}

#[test]
fn the_standard_boards_drawing_matches_its_graph() {
    check("standard");
}

#[test]
fn the_maharajah_boards_drawing_matches_its_graph() {
    check("maharajah");
}

#[test]
fn the_check_sees_a_border_too_many_and_one_missing() {
    // The test of the test: take the standard drawing and move one province's border.
    let map = Map::standard();
    let g = Geometry::for_variant("standard").expect("drawing");
    let mut have = drawn_borders(g);
    have.remove(&("BUR".to_string(), "PAR".to_string()));
    have.insert(("BUR".to_string(), "LON".to_string()));
    let want = graph_borders(map);
    assert_eq!(want.difference(&have).count(), 1);
    assert_eq!(have.difference(&want).count(), 1);
}
