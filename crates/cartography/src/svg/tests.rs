//! The renderer on a made-up drawing of the standard board (each Province a square of a grid,
//! the split coasts at its corners), so that every Order can be placed whatever the state of
//! the real geometry.

use super::arrows::P;
use super::orders::{HEAD_TO_HEAD, Paths};
use super::places::Places;
use super::{draw, escape};
use crate::geometry::{Geometry, ProvinceShape};
use crate::scene::Scene;
use chancery_diplomacy::adjudicator::adjudicate;
use chancery_diplomacy::json::{PhaseInput, prepare};
use chancery_diplomacy::map::{Coast, Map};
use std::collections::BTreeMap;

/// A grid of 60×60 squares, ten a row, one per Province in index order.
pub fn grid(map: &Map) -> Geometry {
    let mut provinces = BTreeMap::new();
    for p in map.all_provinces() {
        let info = map.info(p);
        let (x, y) = (i32::from(p.0 % 10) * 60, i32::from(p.0 / 10) * 60);
        let coasts = info
            .coasts
            .iter()
            .map(|c| {
                let at = match c {
                    Coast::North => [x + 30, y + 8],
                    Coast::South => [x + 30, y + 52],
                    Coast::East => [x + 52, y + 30],
                    Coast::West => [x + 8, y + 30],
                };
                (c.code().to_string(), at)
            })
            .collect();
        let shape = ProvinceShape {
            rings: vec![vec![[x, y], [x + 60, y], [x + 60, y + 60], [x, y + 60]]],
            label: [x + 30, y + 48],
            unit: [x + 30, y + 30],
            centre: info.supply_center.then_some([x + 10, y + 10]),
            coasts,
        };
        provinces.insert(info.code.clone(), shape);
    }
    Geometry {
        variant: map.name.clone(),
        width: 600,
        height: 60 * (map.province_count() as i32 + 9) / 10,
        land: Vec::new(),
        provinces,
    }
}

/// A standard phase (the `chancery adjudicate` input, its orders included), adjudicated.
pub fn adjudicated(input: &str) -> Scene<'static> {
    let input: PhaseInput = serde_json::from_str(input).expect("input");
    let p = prepare(&input).expect("prepared");
    let adj = adjudicate(p.map, &p.rules, &p.board, &p.orders);
    Scene::adjudicated(p.map, &p.board, &adj)
}

/// A standard movement phase: units and orders, adjudicated.
pub fn movement(units: &str, orders: &str) -> Scene<'static> {
    adjudicated(&format!(
        r#"{{"phase": "S1901M", "units": {units}, "orders": {orders}}}"#
    ))
}

fn province(map: &Map, code: &str) -> chancery_diplomacy::map::Province {
    map.province_by_code(code).expect("province")
}

/// The classes of the order groups and marks of a drawing.
fn classes(svg: &str) -> Vec<&str> {
    svg.split(r#"class=""#)
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect()
}

#[test]
fn every_kind_of_order_draws_with_its_own_class() {
    let g = grid(Map::standard());
    let moves = movement(
        r#"{"FRANCE": ["A PAR", "A MAR", "F BRE", "F MAO"], "ENGLAND": ["A LON", "F NTH", "F ENG"],
            "GERMANY": ["A MUN"]}"#,
        r#"{"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE S F MAO", "F MAO H"],
            "ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL", "F ENG - MAO"],
            "GERMANY": ["A MUN - BUR", "A KIE - HOL"]}"#,
    );
    let retreats = adjudicated(
        r#"{"phase": "F1901R", "units": {"GERMANY": ["A BUR", "A HOL"]},
            "dislodged": {"FRANCE": [{"unit": "A BUR", "attacker_from": "MUN"}],
                          "ENGLAND": [{"unit": "A HOL", "attacker_from": "KIE"}]},
            "orders": {"FRANCE": ["A BUR R PIC"], "ENGLAND": ["A HOL D"]}}"#,
    );
    let adjustments = adjudicated(
        r#"{"phase": "W1901A", "units": {"FRANCE": ["A PAR"], "ENGLAND": ["F LON", "F EDI", "A LVP", "A YOR"]},
            "orders": {"FRANCE": ["BUILD F BRE", "BUILD A MAR"], "ENGLAND": ["REMOVE A YOR"]}}"#,
    );
    let mut seen = Vec::new();
    for scene in [&moves, &retreats, &adjustments] {
        let svg = draw(scene, Some(&g));
        seen.extend(classes(&svg).into_iter().map(str::to_string));
    }
    for class in [
        "move",
        "support-move",
        "support-hold",
        "convoy",
        "hold",
        "retreat",
        "build",
        "disband",
        "move failed",
        "failed",
        "move invalid",
        "unit dislodged",
        "dislodged",
    ] {
        assert!(seen.iter().any(|c| c == class), "{class} in {seen:?}");
    }
}

#[test]
fn each_kind_of_order_has_its_own_shapes() {
    // The same two places, each kind of order between them: no two kinds draw alike.
    let g = grid(Map::standard());
    let orders = [
        r#"["A PAR - BUR"]"#,
        r#"["A PAR S A MAR - BUR"]"#,
        r#"["A PAR S A BUR"]"#,
        r#"["A PAR H"]"#,
    ];
    let mut drawn: Vec<String> = Vec::new();
    for o in orders {
        let s = movement(
            r#"{"FRANCE": ["A PAR", "A BUR", "A MAR"]}"#,
            &format!(r#"{{"FRANCE": {o}}}"#),
        );
        let svg = draw(&s, Some(&g));
        let start = svg.find(r#"<g class="orders""#).expect("orders");
        // The orders end where the title, the last thing drawn, begins.
        let end = svg.find(r#"<text class="title""#).expect("title");
        drawn.push(svg[start..end].to_string());
    }
    for (i, a) in drawn.iter().enumerate() {
        for b in &drawn[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn head_to_head_moves_are_set_apart_and_a_lone_move_is_not() {
    let map = Map::standard();
    let g = grid(map);
    let s = movement(
        r#"{"FRANCE": ["A PAR"], "GERMANY": ["A BUR"], "ITALY": ["A PIE"]}"#,
        r#"{"FRANCE": ["A PAR - BUR"], "GERMANY": ["A BUR - PAR"], "ITALY": ["A PIE - MAR"]}"#,
    );
    let places = Places::new(&s, &g);
    let paths = Paths::new(&s, &places);
    let (par, bur, pie, mar) = (
        province(map, "PAR"),
        province(map, "BUR"),
        province(map, "PIE"),
        province(map, "MAR"),
    );
    let there = paths.of(&places, par, bur, None).expect("PAR-BUR");
    let back = paths.of(&places, bur, par, None).expect("BUR-PAR");
    // Parallel and opposite, each set HEAD_TO_HEAD to its own right: 2×HEAD_TO_HEAD apart.
    let gap = there.from.sub(back.to);
    assert!((gap.len() - 2.0 * HEAD_TO_HEAD).abs() < 1e-6, "{gap:?}");
    let lone = paths.of(&places, pie, mar, None).expect("PIE-MAR");
    assert_eq!(lone.from, places.point(pie, None).expect("PIE"));
    assert_eq!(lone.to, places.point(mar, None).expect("MAR"));
}

#[test]
fn a_move_to_a_coast_ends_at_that_coast_and_its_support_on_that_path() {
    let map = Map::standard();
    let g = grid(map);
    let s = movement(
        r#"{"FRANCE": ["F MAO", "F GAS"]}"#,
        r#"{"FRANCE": ["F MAO - SPA/NC", "F GAS S F MAO - SPA/NC"]}"#,
    );
    let places = Places::new(&s, &g);
    let paths = Paths::new(&s, &places);
    let (mao, spa) = (province(map, "MAO"), province(map, "SPA"));
    let path = paths.of(&places, mao, spa, None).expect("MAO-SPA");
    let nc = places.point(spa, Some(Coast::North)).expect("SPA/NC");
    assert_eq!(path.to, nc);
    assert_ne!(nc, places.point(spa, None).expect("SPA"));
    // The support's dot is the middle of that path.
    let mid = path.at(0.5);
    let svg = draw(&s, Some(&g));
    let dot = format!(
        r#"cx="{}" cy="{}" r="3.2""#,
        super::arrows::N(mid.x),
        super::arrows::N(mid.y)
    );
    assert!(svg.contains(&dot), "{dot} in {svg}");
}

#[test]
fn several_supports_to_one_move_end_apart() {
    let g = grid(Map::standard());
    let s = movement(
        r#"{"FRANCE": ["A PAR", "A MAR", "A GAS", "A PIC"]}"#,
        r#"{"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "A GAS S A PAR - BUR", "A PIC S A PAR - BUR"]}"#,
    );
    let svg = draw(&s, Some(&g));
    let start = svg.find(r#"<g class="orders""#).expect("orders");
    let orders = &svg[start..svg.find(r#"<text class="title""#).expect("title")];
    let dots: Vec<&str> = orders
        .split(r#"<circle "#)
        .filter(|c| c.contains(r#"r="3.2""#))
        .collect();
    assert_eq!(dots.len(), 3);
    assert!(dots[0] != dots[1] && dots[1] != dots[2] && dots[0] != dots[2]);
}

#[test]
fn a_dislodged_unit_is_set_aside_and_ringed() {
    let map = Map::standard();
    let g = grid(map);
    let s = movement(
        r#"{"FRANCE": ["A PAR", "A PIC"], "GERMANY": ["A BUR"]}"#,
        r#"{"FRANCE": ["A PAR - BUR", "A PIC S A PAR - BUR"]}"#,
    );
    assert_eq!(s.dislodged.len(), 1);
    let places = Places::new(&s, &g);
    let bur = province(map, "BUR");
    let at = places.standing(bur).expect("BUR").at;
    assert_eq!(
        at,
        places
            .point(bur, None)
            .expect("BUR")
            .add(super::places::DISLODGED_OFFSET)
    );
    let svg = draw(&s, Some(&g));
    let ring = format!(
        r#"<circle class="dislodged" cx="{}" cy="{}""#,
        super::arrows::N(at.x),
        super::arrows::N(at.y)
    );
    assert!(svg.contains(&ring), "{ring}");
    // The unit beside it is not dislodged.
    let par = places.standing(province(map, "PAR")).expect("PAR");
    assert!(!par.dislodged);
}

#[test]
fn a_convoy_attacked_but_not_dislodged_is_drawn_as_succeeding() {
    let g = grid(Map::standard());
    let s = movement(
        r#"{"ENGLAND": ["A LON", "F NTH"], "GERMANY": ["F HEL"]}"#,
        r#"{"ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL"], "GERMANY": ["F HEL - NTH"]}"#,
    );
    let svg = draw(&s, Some(&g));
    assert!(svg.contains(r#"<g class="convoy">"#), "{svg}");
    assert!(!svg.contains(r#"class="convoy failed""#));
    assert!(svg.contains(r#"class="move failed""#));
}

#[test]
fn the_same_scene_draws_to_the_same_bytes() {
    let g = grid(Map::standard());
    let make = || {
        movement(
            r#"{"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]}"#,
            r#"{"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}"#,
        )
    };
    assert_eq!(draw(&make(), Some(&g)), draw(&make(), Some(&g)));
}

#[test]
fn text_is_escaped_for_xml() {
    assert_eq!(
        escape(r#"<a & 'b' "c">"#),
        "&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;"
    );
    let mut s = movement("{}", "{}");
    s.title = "Spring <1901> & more".into();
    let svg = draw(&s, None);
    assert!(svg.contains("Spring &lt;1901&gt; &amp; more"));
    assert!(!svg.contains("<1901>"));
}

#[test]
fn a_centre_is_tinted_by_its_owner_and_a_sea_is_blue() {
    let map = Map::standard();
    let g = grid(map);
    let s = movement("{}", "{}");
    let svg = draw(&s, Some(&g));
    let france = map.power_by_name("FRANCE").expect("France");
    let par = g.province("PAR").expect("PAR");
    let tinted = format!(
        r#"<path d="{}" fill="{}"/>"#,
        super::path(&par.rings),
        super::palette::of(map, france).tint
    );
    assert!(svg.contains(&tinted), "{tinted}");
    let nth = g.province("NTH").expect("NTH");
    let sea = format!(
        r#"<path d="{}" fill="{}"/>"#,
        super::path(&nth.rings),
        super::palette::SEA
    );
    assert!(svg.contains(&sea), "{sea}");
    let _ = P::new(0.0, 0.0);
}

#[test]
fn every_river_border_of_the_maharajah_board_is_drawn_beneath_the_units() {
    let map = Map::variant("maharajah").expect("maharajah");
    let g = grid(map);
    let scene = Scene::position(map, &chancery_diplomacy::adjudicator::Board::initial(map));
    let svg = draw(&scene, Some(&g));
    let rivers = svg.find(r#"<g class="rivers""#).expect("rivers drawn");
    assert!(rivers < svg.find(r#"<g class="units""#).expect("units"));
    let group = &svg[rivers..];
    let group = &group[..group.find("</g>").expect("closed")];
    // One curve a pair of river Provinces next to each other for fleets (a river's mouth is a
    // straight line, not counted here).
    let mut pairs = 0;
    for a in map.all_provinces().filter(|&p| map.info(p).river) {
        for l in map.fleet_neighbours(chancery_diplomacy::map::Location::new(a)) {
            if map.info(l.province).river && l.province > a {
                pairs += 1;
            }
        }
    }
    assert!(pairs >= 8, "{pairs}");
    assert_eq!(group.matches("Q").count(), pairs);
    let standard = draw(&movement("{}", "{}"), Some(&grid(Map::standard())));
    assert!(!standard.contains(r#"class="rivers""#));
}
