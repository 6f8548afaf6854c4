//! Reading a mail (MIME, quotes, sections) must take time linear in its size: one mail can
//! never hold up the others. Issue 9 found the body cleaning quadratic in the number of lines
//! (80,000 blank lines took 12 s).
//!
//! `cargo bench --bench read_mail --no-default-features`

use chancery_intake::message::{read_head, read_message};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn blank_lines(n: usize) -> Vec<u8> {
    format!(
        "From: p@x.test\r\nSubject: wm1 FRANCE S1901M\r\n\r\nA Par - Bur\r\n{}A Mar - Spa\r\n",
        "\r\n".repeat(n)
    )
    .into_bytes()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("read_mail");
    g.sample_size(10);
    for n in [10_000, 80_000, 200_000] {
        let raw = blank_lines(n);
        g.bench_function(format!("{n} blank lines between two orders"), |b| {
            b.iter(|| read_message(black_box(&raw)).expect("readable"))
        });
    }
    let corpus = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/corpus/001-gmail-web-reply-final.eml"
    ))
    .expect("corpus");
    g.bench_function("a Gmail reply (corpus 001)", |b| {
        b.iter(|| read_message(black_box(&corpus)).expect("readable"))
    });
    let mut big = b"Cc: \xc3\xa9va <x@example.test>\r\nFrom: p@x.test\r\n\r\n".to_vec();
    big.resize(5_400_000, b'x');
    g.bench_function("the header block of a 5.4 MB mail", |b| {
        b.iter(|| read_head(black_box(&big)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
