//! The renderer end to end: a board's scene drawn as SVG and PNG.

use chancery_cartography::{Scene, render};
use chancery_diplomacy::adjudicator::Board;
use chancery_diplomacy::map::Map;

#[test]
fn the_opening_position_draws_as_svg_and_png() {
    let map = Map::standard();
    let scene = Scene::position(map, &Board::initial(map));
    let (svg, png) = render(&scene).expect("drawn");
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("Spring 1901, movement"));
    assert_eq!(&png[1..4], b"PNG");
}
