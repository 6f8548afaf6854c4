//! The time to draw a full standard phase (the opening, every Unit ordered): the SVG, its PNG,
//! and both, as a results mail needs them.

use chancery_cartography::{Scene, png, svg};
use chancery_diplomacy::adjudicator::adjudicate;
use chancery_diplomacy::json::{PhaseInput, prepare};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const OPENING: &str = include_str!("../tests/scenes/std-opening.json");

fn render(c: &mut Criterion) {
    let input: PhaseInput = serde_json::from_str(OPENING).expect("scene");
    let p = prepare(&input).expect("prepared");
    let adj = adjudicate(p.map, &p.rules, &p.board, &p.orders);
    let scene = Scene::adjudicated(p.map, &p.board, &adj);
    let text = svg(&scene);
    let image = png(&text).expect("png");
    eprintln!("SVG {} bytes, PNG {} bytes", text.len(), image.len());
    c.bench_function("svg", |b| b.iter(|| svg(black_box(&scene))));
    c.bench_function("png", |b| b.iter(|| png(black_box(&text))));
    c.bench_function("svg+png", |b| {
        b.iter(|| png(&svg(black_box(&scene))).expect("png"))
    });
}

criterion_group!(benches, render);
criterion_main!(benches);
