//! An arbitrary UTF-8 line as an order (`reader::read_line`: the line read whole with
//! `reader::read_order`, then, when it holds several orders separated by `,` or `;`, each part), for
//! FRANCE, in a movement, retreat or adjustment phase, with or without a board (see
//! `common::ORDER_CONTEXTS`).
//!
//! Each input is read in one context, `ORDER_CONTEXTS[line.len() % ORDER_CONTEXTS.len()]`, so
//! that a run costs one line's reading (province typo-matching dominates), and a mutation that
//! changes the length moves the line to another context. A crash file reproduces in the same
//! context.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|line: &str| {
    let contexts = &*common::ORDER_CONTEXTS;
    let ctx = &contexts[line.len() % contexts.len()];
    let _ = chancery_diplomacy::reader::read_line(ctx, line);
});
