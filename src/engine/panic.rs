//! A caught panic, in words: what the mailbox reader, the batch of messages and the tick say
//! of a message or a game they set aside because its handling panicked. A leaf: it imports
//! nothing of the engine, so that the receiving and the tick can both use it.

/// The text of a panic's payload.
pub fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}
