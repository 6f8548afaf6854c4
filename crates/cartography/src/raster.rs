//! The PNG of a scene, drawn in layers. Most of a map is its board: the borders, the
//! coastline, the rivers, the names and the legend's keys are the same on every map of a board,
//! and drawing them (the paths' parsing, the text's shaping, the strokes' anti-aliasing) was
//! most of a drawing's time. So each board's own layers are drawn once and kept ([`Board`]):
//! which area every pixel belongs to, and the lines and the names as the pixels they cover.
//! A scene then costs its tints (a table lookup a pixel), its centres and its pieces (a small
//! SVG each, drawn by resvg over the rest) and the encoding. The pixels are those of the whole
//! SVG drawn at once, to a rounding in the blends (the tests hold the two together).

use crate::geometry::Geometry;
use crate::png::{RenderError, encode, options};
use crate::scene::Scene;
use crate::svg::Layers;
use crate::svg::palette;
use crate::svg::places::Places;
use crate::svg::provinces::{self, Area};
use resvg::{tiny_skia, usvg};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The PNG of a scene on its board's geometry, from its layers (the scene's own at least:
/// [`Layers::of_scene`]).
pub(crate) fn png(
    scene: &Scene<'_>,
    geometry: &Geometry,
    layers: &Layers,
) -> Result<Vec<u8>, RenderError> {
    let board = Board::of(scene, geometry)?;
    let mut pixmap = board.fills(scene)?;
    board.lines.paint(&mut pixmap);
    draw_over(&mut pixmap, &layers.alone(&layers.centres))?;
    board.names.paint(&mut pixmap);
    draw_over(&mut pixmap, &layers.alone(&layers.pieces))?;
    encode(&pixmap).map_err(|e| RenderError::Encode(e.to_string()))
}

/// What every map of one board shares, drawn once.
struct Board {
    width: u32,
    height: u32,
    /// Each pixel's area ([`BACKGROUND`], [`SEA`], [`LAND`] or a Province's number), as runs
    /// along the rows: an area and how many pixels in a row are of it.
    areas: Vec<(u16, u32)>,
    /// The borders, the coastline and the rivers.
    lines: Overlay,
    /// The Provinces' names and the legend's strip and keys.
    names: Overlay,
}

/// An area's number in [`Board::areas`]: 0 for what no fill covers (the legend's margin), 1
/// the sea, 2 the land, then each Province by its index.
const BACKGROUND: u16 = 0;
const SEA: u16 = 1;
const LAND: u16 = 2;
const FIRST_PROVINCE: u16 = 3;

impl Board {
    /// The board of a scene's map, drawn the first time it is asked for and kept.
    fn of(scene: &Scene<'_>, geometry: &Geometry) -> Result<Arc<Board>, RenderError> {
        static BOARDS: OnceLock<Mutex<HashMap<String, Arc<Board>>>> = OnceLock::new();
        let boards = BOARDS.get_or_init(|| Mutex::new(HashMap::new()));
        // A poisoned lock only means another drawing panicked: what it holds is still whole.
        let mut boards = boards.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(board) = boards.get(&scene.map.name) {
            return Ok(Arc::clone(board));
        }
        let board = Arc::new(Board::draw(scene, geometry)?);
        boards.insert(scene.map.name.clone(), Arc::clone(&board));
        Ok(board)
    }

    /// The board's own layers, from any scene on it (they show nothing of the scene).
    fn draw(scene: &Scene<'_>, geometry: &Geometry) -> Result<Board, RenderError> {
        let layers = Layers::of(scene, Some(geometry));
        let areas = Board::areas(scene, geometry, &layers)?;
        Ok(Board {
            width: areas.width(),
            height: areas.height(),
            areas: runs(areas.pixels().iter().map(|p| {
                match u32::from_be_bytes([0, p.red(), p.green(), p.blue()]) {
                    0x00ff_ffff => BACKGROUND,
                    code => u16::try_from(code).unwrap_or(BACKGROUND),
                }
            })),
            lines: Overlay::of(&layers.alone(&layers.lines))?,
            names: Overlay::of(&layers.alone(&layers.names))?,
        })
    }

    /// The fills with each area in a colour of its own (its code), on white: with crisp edges,
    /// each pixel is exactly the code of the area drawn over it last, as in the map.
    fn areas(
        scene: &Scene<'_>,
        geometry: &Geometry,
        layers: &Layers,
    ) -> Result<tiny_skia::Pixmap, RenderError> {
        let code = |n: u16| format!("#{n:06x}");
        let mut svg = format!(
            r#"<rect width="{}" height="{}" fill="{}"/>"#,
            geometry.width,
            geometry.height,
            code(SEA)
        );
        let places = Places::new(scene, geometry);
        provinces::areas(&mut svg, scene, &places, |area| match area {
            Area::Land => code(LAND),
            Area::Province(p) => code(FIRST_PROVINCE + u16::from(p.0)),
        });
        let mut pixmap = blank(layers)?;
        pixmap.fill(tiny_skia::Color::WHITE);
        draw_over(&mut pixmap, &layers.alone(&svg))?;
        Ok(pixmap)
    }

    /// The scene's fills: each pixel its area's colour in the scene.
    fn fills(&self, scene: &Scene<'_>) -> Result<tiny_skia::Pixmap, RenderError> {
        let colour = |hex: &str| {
            let [r, g, b] = palette::rgb(hex).unwrap_or([255, 255, 255]);
            [r, g, b, 255]
        };
        let first = usize::from(FIRST_PROVINCE);
        let mut table = vec![[255u8; 4]; first + scene.map.province_count()];
        table[usize::from(SEA)] = colour(palette::SEA);
        table[usize::from(LAND)] = colour(palette::LAND);
        for p in scene.map.all_provinces() {
            if let Some(slot) = table.get_mut(first + p.0 as usize) {
                *slot = colour(provinces::fill(scene, Area::Province(p)));
            }
        }
        let mut pixmap = tiny_skia::Pixmap::new(self.width, self.height)
            .ok_or(RenderError::Size(self.width, self.height))?;
        let (pixels, _) = pixmap.data_mut().as_chunks_mut::<4>();
        let mut at = 0;
        for (area, n) in &self.areas {
            let end = (at + *n as usize).min(pixels.len());
            let colour = table.get(usize::from(*area)).copied().unwrap_or([255; 4]);
            pixels[at..end].fill(colour);
            at = end;
        }
        Ok(pixmap)
    }
}

/// Runs of equal values: each value and how many times it repeats.
fn runs<T: PartialEq>(values: impl Iterator<Item = T>) -> Vec<(T, u32)> {
    let mut runs: Vec<(T, u32)> = Vec::new();
    for v in values {
        match runs.last_mut() {
            Some((last, n)) if *last == v => *n += 1,
            _ => runs.push((v, 1)),
        }
    }
    runs
}

/// A layer drawn on nothing, kept as the pixels it covers: each pixel's index and its colour
/// (premultiplied, as tiny-skia keeps them).
struct Overlay(Vec<(u32, [u8; 4])>);

impl Overlay {
    fn of(svg: &str) -> Result<Overlay, RenderError> {
        let tree = usvg::Tree::from_str(svg, options())?;
        let size = tree.size().to_int_size();
        let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
            .ok_or(RenderError::Size(size.width(), size.height()))?;
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        Ok(Overlay(
            pixmap
                .data()
                .chunks_exact(4)
                .enumerate()
                .filter(|(_, p)| p[3] > 0)
                .map(|(i, p)| {
                    (
                        u32::try_from(i).unwrap_or(u32::MAX),
                        [p[0], p[1], p[2], p[3]],
                    )
                })
                .collect(),
        ))
    }

    /// The layer over an opaque pixmap ("source over"): each covered pixel becomes the layer's
    /// colour plus what its transparency lets through.
    fn paint(&self, pixmap: &mut tiny_skia::Pixmap) {
        let data = pixmap.data_mut();
        for (i, src) in &self.0 {
            let at = *i as usize * 4;
            let Some(dst) = data.get_mut(at..at + 4) else {
                continue;
            };
            if src[3] == 255 {
                dst.copy_from_slice(src);
                continue;
            }
            let through = 255 - u32::from(src[3]);
            for (d, s) in dst.iter_mut().zip(src) {
                *d = s.saturating_add(div255(u32::from(*d) * through));
            }
        }
    }
}

/// x / 255, rounded, for x at most 255 * 255.
fn div255(x: u32) -> u8 {
    let x = x + 128;
    u8::try_from((x + (x >> 8)) >> 8).unwrap_or(u8::MAX)
}

/// A transparent pixmap of the drawing's size.
fn blank(layers: &Layers) -> Result<tiny_skia::Pixmap, RenderError> {
    let (w, h) = (
        u32::try_from(layers.width).unwrap_or(0),
        u32::try_from(layers.height).unwrap_or(0),
    );
    tiny_skia::Pixmap::new(w, h).ok_or(RenderError::Size(w, h))
}

/// An SVG (one layer of ours, at the drawing's size) drawn over a pixmap.
fn draw_over(pixmap: &mut tiny_skia::Pixmap, svg: &str) -> Result<(), RenderError> {
    let tree = usvg::Tree::from_str(svg, options())?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(())
}
