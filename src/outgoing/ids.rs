//! Digests: the SHA-256 a receipt gives for a message, and short stable hashes for Message-IDs.

use sha2::{Digest, Sha256};

pub fn sha256_hex(data: &[u8]) -> String {
    let d = Sha256::digest(data);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// 16 hex digits of SHA-256: stable across restarts, so a re-enqueued mail keeps its Message-ID.
pub fn short_hash(seed: &str) -> String {
    sha256_hex(seed.as_bytes())[..16].to_string()
}

/// A Message-ID for a mail Chancery makes: stable for the same seed, so that a mail enqueued
/// again (after a crash) keeps its id and the archive can tell whether it went.
pub fn new_message_id(env: &crate::config::Env, kind: &str, seed: &str) -> String {
    format!("{kind}.{}@{}", short_hash(seed), env.message_id_domain)
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_vector() {
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(super::short_hash("x"), super::short_hash("x"));
        assert_ne!(super::short_hash("x"), super::short_hash("y"));
    }
}
