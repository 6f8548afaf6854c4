//! Diplomacy's maps, pure: the geometry of each board as data (`geometry/`, drawn by the
//! project from public-domain coastlines, see `geometry/PROVENANCE.md`), a renderer of one
//! phase (the position, the orders and what became of them) to SVG, deterministic to the
//! byte, and its PNG, drawn with the one bundled font (`fonts/`, DejaVu Sans Condensed) so
//! that the pixels do not depend on the machine. No I/O: the service stores and mails what
//! this crate returns.

pub mod geometry;
pub mod png;
mod raster;
pub mod scene;
pub mod svg;

pub use geometry::Geometry;
pub use png::{RenderError, decode_png, png};
pub use scene::{Drawn, Results, Scene, SceneError};
pub use svg::{owner_colour, svg};

/// The SVG and the PNG of one scene: what a results mail, `HISTORY` and the game's page show.
pub fn render(scene: &Scene<'_>) -> Result<(String, Vec<u8>), RenderError> {
    let geometry = Geometry::for_variant(&scene.map.name);
    let layers = svg::Layers::of(scene, geometry);
    let text = layers.svg();
    let image = match geometry {
        Some(g) => raster::png(scene, g, &layers)?,
        None => png(&text)?,
    };
    Ok((text, image))
}

/// The PNG of one scene, drawn in layers (a board's own layers drawn once, `raster`): the
/// pixels of its SVG drawn whole, in a fraction of the time.
pub fn png_of(scene: &Scene<'_>) -> Result<Vec<u8>, RenderError> {
    match Geometry::for_variant(&scene.map.name) {
        Some(g) => raster::png(scene, g, &svg::Layers::of_scene(scene, Some(g))),
        None => png(&svg(scene)),
    }
}
