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
pub(crate) fn options() -> &'static usvg::Options<'static> {
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
pub(crate) fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, ::png::EncodingError> {
    // Runs of one colour are the rule on a map: the colours are counted, and looked up, a run
    // at a time.
    let runs = runs(pixmap.data());
    let (palette, index) = palette_of(&runs);
    let mut out = Vec::with_capacity(pixmap.data().len() / 32);
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
    encoder.set_deflate_compression(::png::DeflateCompression::Level(DEFLATE_LEVEL));
    encoder.set_filter(::png::Filter::NoFilter);
    let mut writer = encoder.write_header()?;
    let mut pixels = Vec::with_capacity(pixmap.data().len() / 4);
    for (colour, n) in &runs {
        let i = index.get(colour).copied().unwrap_or(0);
        pixels.resize(pixels.len() + *n as usize, i);
    }
    writer.write_image_data(&pixels)?;
    writer.finish()?;
    Ok(out)
}

/// zlib's level for the pixels: on a map's palette indices, level 6 took four times as long
/// as this for a fifth fewer bytes (crates/cartography/benches/render.rs).
const DEFLATE_LEVEL: u8 = 2;

/// A colour's runs in a row of RGBA pixels: each colour (as 0x00RRGGBB) and how many pixels.
fn runs(rgba: &[u8]) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::with_capacity(rgba.len() / 32);
    let (pixels, _) = rgba.as_chunks::<4>();
    let mut rest = pixels;
    while let Some(first) = rest.first() {
        // The pixmap is opaque: the whole pixel compared is its colour compared.
        let n = rest.iter().take_while(|p| *p == first).count();
        runs.push((
            u32::from_be_bytes([0, first[0], first[1], first[2]]),
            n as u32,
        ));
        rest = &rest[n..];
    }
    runs
}

/// Colours as keys: hashed fast and the same way every run (no secret to keep from anyone).
type Colours<V> = HashMap<u32, V, foldhash::fast::FixedState>;

/// The palette (the 256 most frequent colours, the more frequent first, ties by colour) and
/// each colour's index in it: its own, or the nearest colour's.
fn palette_of(runs: &[(u32, u32)]) -> (Vec<u32>, Colours<u8>) {
    let mut counts: Colours<u32> = Colours::default();
    for (colour, n) in runs {
        *counts.entry(*colour).or_default() += n;
    }
    let mut by_count: Vec<(u32, u32)> = counts.iter().map(|(c, n)| (*c, *n)).collect();
    by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<u32> = by_count.iter().take(256).map(|(c, _)| *c).collect();
    let nearest = Nearest::new(&palette);
    let own: Colours<u8> = palette
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, u8::try_from(i).unwrap_or(u8::MAX)))
        .collect();
    let index = counts
        .keys()
        .map(|c| (*c, own.get(c).copied().unwrap_or_else(|| nearest.of(*c))))
        .collect();
    (palette, index)
}

fn channels(c: u32) -> [i32; 3] {
    let [_, r, g, b] = c.to_be_bytes();
    [i32::from(r), i32::from(g), i32::from(b)]
}

/// The palette sorted by red, to find a colour's nearest by looking outward from its own red
/// and stopping where the red alone is farther than the best found: a few entries a lookup,
/// not 256, for the thousands of edge colours of a map.
struct Nearest(Vec<([i32; 3], u8)>);

impl Nearest {
    fn new(palette: &[u32]) -> Nearest {
        let mut by_red: Vec<([i32; 3], u8)> = palette
            .iter()
            .enumerate()
            .map(|(i, c)| (channels(*c), u8::try_from(i).unwrap_or(u8::MAX)))
            .collect();
        by_red.sort_unstable_by_key(|(rgb, i)| (rgb[0], *i));
        Nearest(by_red)
    }

    /// The index of the palette's colour nearest to `c` (squared distance in RGB; the first
    /// of equals).
    fn of(&self, c: u32) -> u8 {
        let rgb = channels(c);
        let start = self.0.partition_point(|(p, _)| p[0] < rgb[0]);
        let mut best = (i32::MAX, u8::MAX);
        let consider = |best: &mut (i32, u8), (p, i): &([i32; 3], u8)| {
            let d = (0..3).map(|k| (p[k] - rgb[k]).pow(2)).sum::<i32>();
            if (d, *i) < *best {
                *best = (d, *i);
            }
        };
        // Upward from the first as red as `c`, then downward: in either direction the red's
        // distance only grows, so once it alone passes the best, nothing farther is nearer.
        for entry in &self.0[start..] {
            if (entry.0[0] - rgb[0]).pow(2) > best.0 {
                break;
            }
            consider(&mut best, entry);
        }
        for entry in self.0[..start].iter().rev() {
            if (entry.0[0] - rgb[0]).pow(2) > best.0 {
                break;
            }
            consider(&mut best, entry);
        }
        best.1
    }
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
        let mut runs: Vec<(u32, u32)> = (0..300u32).map(|k| (k, 1000 - k)).collect();
        runs.push((0x00fe_fefe, 1));
        let (palette, index) = palette_of(&runs);
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
    fn the_nearest_colour_is_the_one_every_entry_compared_would_give() {
        // Every entry compared, the first of equals: what the sorted search must agree with.
        let by_all = |palette: &[u32], c: u32| -> u8 {
            let [r, g, b] = channels(c);
            let mut best = (i32::MAX, 0usize);
            for (i, p) in palette.iter().enumerate() {
                let [pr, pg, pb] = channels(*p);
                let d = (pr - r).pow(2) + (pg - g).pow(2) + (pb - b).pow(2);
                if d < best.0 {
                    best = (d, i);
                }
            }
            u8::try_from(best.1).expect("an index")
        };
        // A palette with equal reds, equal distances and far colours, and every colour of a
        // coarse grid asked for.
        let palette: Vec<u32> = (0..256u32)
            .map(|i| (i * 0x0009_3b27 + (i % 7) * 0x0001_0000) & 0x00ff_ffff)
            .collect();
        let nearest = Nearest::new(&palette);
        for r in (0..=255u32).step_by(15) {
            for g in (0..=255u32).step_by(17) {
                for b in (0..=255u32).step_by(51) {
                    let c = (r << 16) | (g << 8) | b;
                    assert_eq!(nearest.of(c), by_all(&palette, c), "{c:06x}");
                }
            }
        }
        let ties = [0x0010_0000, 0x0000_0010, 0x0008_0008];
        assert_eq!(Nearest::new(&ties).of(0x0008_0008), 2);
        assert_eq!(
            Nearest::new(&ties[..2]).of(0x0008_0008),
            0,
            "the first of equals"
        );
    }

    #[test]
    fn runs_count_each_colour_where_it_repeats() {
        let px = |c: u8| [c, c, c, 255];
        let rgba: Vec<u8> = [px(1), px(1), px(2), px(1), px(1), px(1)].concat();
        assert_eq!(
            runs(&rgba),
            vec![(0x0001_0101, 2), (0x0002_0202, 1), (0x0001_0101, 3)]
        );
        assert!(runs(&[]).is_empty());
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
