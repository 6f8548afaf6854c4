//! Arbitrary UTF-8 as the JSON the scoring tools read: `chancery score` (one game scored), the
//! round's standings, the ACWC checker's tournament, the office's initial rule set and the
//! Nomic's rule links. Each must answer Ok or Err, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = chancery_diplomacy::scoring::contract::score_json(text);
    let _ = chancery_diplomacy::standings::contract::standings_json(text);
    let _ = chancery_acwc::checker::check_json(text);
    let _ = chancery_office::ruleset::read_initial_set(text);
    let _ = chancery_nomic::rules::read_links(text);
});
