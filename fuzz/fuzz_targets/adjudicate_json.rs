//! Arbitrary UTF-8 as `chancery adjudicate` input: it must answer Ok or Err, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = chancery_diplomacy::json::adjudicate_json(text);
});
