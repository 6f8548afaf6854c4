//! Diplomacy's maps, pure: the geometry of each board as data (`geometry/`, drawn by the
//! project from public-domain coastlines, see `geometry/PROVENANCE.md`), a renderer of one
//! phase (the position, the orders and what became of them) to SVG, deterministic to the
//! byte, and its PNG, drawn with the one bundled font (`fonts/`, DejaVu Sans Condensed) so
//! that the pixels do not depend on the machine. No I/O: the service stores and mails what
//! this crate returns.

pub mod geometry;
pub mod png;
pub mod scene;
pub mod svg;

pub use geometry::Geometry;
pub use png::{RenderError, decode_png, png};
pub use scene::{Drawn, Results, Scene, SceneError};
pub use svg::{owner_colour, svg};

/// The SVG and the PNG of one scene: what a results mail, `HISTORY` and the game's page show.
pub fn render(scene: &Scene<'_>) -> Result<(String, Vec<u8>), RenderError> {
    let text = svg(scene);
    let image = png(&text)?;
    Ok((text, image))
}
