//! The PNG of a map's SVG, drawn by resvg with the one bundled font and no other: the same
//! SVG gives the same pixels on every machine.

use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// The bundled font (DejaVu Sans Condensed, Bitstream Vera licence: `fonts/LICENSE-DejaVu.txt`).
pub const FONT: &[u8] = include_bytes!("../fonts/DejaVuSansCondensed.ttf");
/// The family name the SVG asks for: the font's own (its name table calls it "DejaVu Sans",
/// condensed); every other family falls back to it.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// A map that could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the SVG cannot be read: {0}")]
    Svg(#[from] usvg::Error),
    #[error("the map has no area ({0} x {1})")]
    Size(u32, u32),
    #[error("the PNG cannot be written: {0}")]
    Encode(String),
}

/// The options every drawing uses: the bundled font as the only one, and as every fallback.
fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(FONT.to_vec());
        fonts.set_sans_serif_family(FONT_FAMILY);
        fonts.set_serif_family(FONT_FAMILY);
        fonts.set_monospace_family(FONT_FAMILY);
        usvg::Options {
            font_family: FONT_FAMILY.to_string(),
            fontdb: Arc::new(fonts),
            ..usvg::Options::default()
        }
    })
}

/// Draw an SVG (one of ours) as a PNG at its own size.
pub fn png(svg: &str) -> Result<Vec<u8>, RenderError> {
    let tree = usvg::Tree::from_str(svg, options())?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or(RenderError::Size(size.width(), size.height()))?;
    // On white, every pixel is opaque, and its premultiplied colour is its colour.
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    encode(&pixmap).map_err(|e| RenderError::Encode(e.to_string()))
}

/// An opaque pixmap as an RGB PNG: a quarter smaller than RGBA before compression. Balanced
/// compression with the "up" filter: measured on a full standard map, as small as any other
/// setting (`High` is no smaller and four times slower) and about 20 ms.
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, ::png::EncodingError> {
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let mut out = Vec::with_capacity(rgb.len() / 8);
    let mut encoder = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(::png::ColorType::Rgb);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_compression(::png::Compression::Balanced);
    encoder.set_filter(::png::Filter::Up);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    Ok(out)
}

/// A PNG decoded (any PNG, for checking pictures: a screenshot, a map): its width, height and
/// RGBA pixels (not premultiplied); None when it is no PNG.
pub fn decode_png(png: &[u8]) -> Option<(u32, u32, Vec<u8>)> {
    let pixmap = tiny_skia::Pixmap::decode_png(png).ok()?;
    let mut rgba = Vec::with_capacity(pixmap.data().len());
    for p in pixmap.pixels() {
        let c = p.demultiply();
        rgba.extend([c.red(), c.green(), c.blue(), c.alpha()]);
    }
    Some((pixmap.width(), pixmap.height(), rgba))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dark pixels of a drawing (all three channels under 100).
    fn dark_pixels(svg: &str) -> usize {
        let png = png(svg).expect("drawn");
        let pixmap = tiny_skia::Pixmap::decode_png(&png).expect("decoded");
        pixmap
            .pixels()
            .iter()
            .filter(|p| p.alpha() == 255 && p.red() < 100 && p.green() < 100 && p.blue() < 100)
            .count()
    }

    #[test]
    fn text_is_drawn_with_the_bundled_font_whatever_family_is_asked_for() {
        for family in [FONT_FAMILY, "serif", "No Such Font"] {
            let svg = format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><rect width="200" height="40" fill="white"/><text x="5" y="30" font-size="24" font-family="{family}">Munich</text></svg>"#
            );
            assert!(dark_pixels(&svg) > 100, "{family}: the text was not drawn");
        }
        let blank = r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><rect width="200" height="40" fill="white"/></svg>"#;
        assert_eq!(dark_pixels(blank), 0);
    }
}
