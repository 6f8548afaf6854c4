//! Arbitrary bytes as a mail: the MIME reader (`message::read_message`), then the body reader for
//! FRANCE in S1901M on the opening board, under the dpv2023 and maharajiad presets.
//!
//! `orderset::read_mail(ctx, raw)` is `read_message(raw)` then `read_body(ctx, &msg)` (or the
//! error); the message is parsed once here and its body read under each context, which is the
//! same code for a third of the cost.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    common::let_through_the_mail_parsers_debug_assertion();
    // Only the mail parser's own debug assertion unwinds to here (see common.rs); every other
    // panic aborts in libFuzzer's hook, a crash as before.
    let _ = std::panic::catch_unwind(|| read(data));
});

fn read(data: &[u8]) {
    let contexts = &*common::MAIL_CONTEXTS;
    // The header block alone, as the engine reads every mail first (and mail too large or
    // broken to read at all).
    let head = chancery_intake::message::read_head(data);
    assert_eq!(
        chancery_intake::message::sender_of_raw(data),
        head.from_address
    );
    match chancery_intake::message::read_message(data) {
        Ok(msg) => {
            for ctx in contexts {
                let read = chancery_diplomacy::orderset::read_body(ctx, &msg);
                let _ = read.understood();
            }
        }
        Err(_) => {
            let read = chancery_diplomacy::orderset::read_mail(&contexts[0], data);
            assert!(
                read.error.is_some(),
                "read_mail accepted what read_message refused"
            );
        }
    }
}
