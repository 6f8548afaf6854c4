//! The PNG of a map's SVG, drawn by resvg with the one bundled font and no other: the same
//! SVG gives the same pixels on every machine.

use resvg::{tiny_skia, usvg};
use std::collections::HashMap;
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

/// An opaque pixmap as an 8-bit palette PNG: a map is flat colours and their anti-aliased
/// edges, so its 256 most frequent colours are kept exactly (every fill, tint and mark: a test
/// may look for a power's tint) and each other colour (an edge pixel) takes the nearest of
/// them. About a third of the RGB file's bytes, and so of every results mail that carries it.
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, ::png::EncodingError> {
    let colours: Vec<u32> = pixmap
        .data()
        .chunks_exact(4)
        .map(|p| u32::from_be_bytes([0, p[0], p[1], p[2]]))
        .collect();
    let (palette, index) = palette_of(&colours);
    let mut out = Vec::with_capacity(colours.len() / 8);
    let mut encoder = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(::png::ColorType::Indexed);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_palette(
        palette
            .iter()
            .flat_map(|c| {
                let [_, r, g, b] = c.to_be_bytes();
                [r, g, b]
            })
            .collect::<Vec<u8>>(),
    );
    encoder.set_compression(::png::Compression::Balanced);
    encoder.set_filter(::png::Filter::NoFilter);
    let mut writer = encoder.write_header()?;
    // Runs of one colour are the rule on a map: one lookup a run, not a pixel.
    let mut pixels = Vec::with_capacity(colours.len());
    let mut last = (u32::MAX, 0u8);
    for c in &colours {
        if *c != last.0 {
            last = (*c, index[c]);
        }
        pixels.push(last.1);
    }
    writer.write_image_data(&pixels)?;
    writer.finish()?;
    Ok(out)
}

/// The palette (the 256 most frequent colours, the more frequent first, ties by colour) and
/// each colour's index in it: its own, or the nearest colour's.
fn palette_of(colours: &[u32]) -> (Vec<u32>, HashMap<u32, u8>) {
    let mut counts: HashMap<u32, u32> = HashMap::new();
    for run in colours.chunk_by(|a, b| a == b) {
        *counts.entry(run[0]).or_default() += run.len() as u32;
    }
    let mut by_count: Vec<(u32, u32)> = counts.iter().map(|(c, n)| (*c, *n)).collect();
    by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<u32> = by_count.iter().take(256).map(|(c, _)| *c).collect();
    let rgb: Vec<[i32; 3]> = palette.iter().map(|c| channels(*c)).collect();
    let own: HashMap<u32, u8> = palette
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, u8::try_from(i).unwrap_or(u8::MAX)))
        .collect();
    let index = counts
        .keys()
        .map(|c| (*c, own.get(c).copied().unwrap_or_else(|| nearest(&rgb, *c))))
        .collect();
    (palette, index)
}

fn channels(c: u32) -> [i32; 3] {
    let [_, r, g, b] = c.to_be_bytes();
    [i32::from(r), i32::from(g), i32::from(b)]
}

/// The index of the palette's colour nearest to `c` (squared distance in RGB; the first of
/// equals).
fn nearest(palette: &[[i32; 3]], c: u32) -> u8 {
    let [r, g, b] = channels(c);
    let mut best = (i32::MAX, 0usize);
    for (i, [pr, pg, pb]) in palette.iter().enumerate() {
        let d = (pr - r) * (pr - r) + (pg - g) * (pg - g) + (pb - b) * (pb - b);
        if d < best.0 {
            best = (d, i);
        }
    }
    u8::try_from(best.1).unwrap_or(u8::MAX)
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
    fn the_palette_keeps_the_frequent_colours_exactly_and_maps_the_rest_to_the_nearest() {
        // 300 colours (0x000000 to 0x00012b), colour k present 1000 - k times (the first 256
        // most frequent), then a rare near-white edge pixel.
        let mut colours = Vec::new();
        for k in 0..300u32 {
            colours.extend(std::iter::repeat_n(k, (1000 - k) as usize));
        }
        colours.push(0x00fe_fefe);
        let (palette, index) = palette_of(&colours);
        assert_eq!(palette.len(), 256);
        assert_eq!(palette[0], 0, "the most frequent first");
        for k in 0..256u32 {
            assert_eq!(palette[usize::from(index[&k])], k, "{k} kept exactly");
        }
        // 299 is 0x00012b: green 1, blue 43; the nearest kept is 0x00002b.
        assert_eq!(palette[usize::from(index[&299])], 43);
        assert_eq!(palette[usize::from(index[&0x00fe_fefe])], 254);
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
