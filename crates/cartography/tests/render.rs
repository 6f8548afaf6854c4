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

#[test]
fn text_is_drawn_in_the_bundled_font() {
    // A word and no word must give different pixels: a font family the bundled font does not
    // answer to draws nothing, silently.
    let page = |text: &str| {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" font-family="{}"><rect width="120" height="40" fill="white"/><text x="10" y="30" font-size="20">{text}</text></svg>"#,
            chancery_cartography::png::FONT_FAMILY
        )
    };
    let word = chancery_cartography::png(&page("Vienna")).expect("drawn");
    let blank = chancery_cartography::png(&page("")).expect("drawn");
    assert_ne!(word, blank);
}
