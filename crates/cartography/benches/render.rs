//! The time to draw a full standard phase (the opening, every Unit ordered): the SVG, its PNG
//! drawn whole from the SVG, and the PNG drawn in layers as a results mail gets it (the board's
//! own layers drawn once, `raster`), with and without the SVG beside it.

use chancery_cartography::{Scene, png, png_of, svg};
use chancery_diplomacy::adjudicator::adjudicate;
use chancery_diplomacy::json::{PhaseInput, prepare};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const OPENING: &str = include_str!("../tests/scenes/std-opening.json");

fn drawing(c: &mut Criterion) {
    let input: PhaseInput = serde_json::from_str(OPENING).expect("scene");
    let p = prepare(&input).expect("prepared");
    let adj = adjudicate(p.map, &p.rules, &p.board, &p.orders);
    let scene = Scene::adjudicated(p.map, &p.board, &adj);
    let text = svg(&scene);
    let whole = png(&text).expect("png");
    let layered = png_of(&scene).expect("png");
    eprintln!(
        "SVG {} bytes, PNG {} bytes (drawn whole: {} bytes)",
        text.len(),
        layered.len(),
        whole.len()
    );
    c.bench_function("svg", |b| b.iter(|| svg(black_box(&scene))));
    c.bench_function("png whole", |b| b.iter(|| png(black_box(&text))));
    c.bench_function("png", |b| b.iter(|| png_of(black_box(&scene))));
    c.bench_function("svg+png", |b| {
        b.iter(|| chancery_cartography::render(black_box(&scene)))
    });
}

criterion_group!(benches, drawing);
criterion_main!(benches);
