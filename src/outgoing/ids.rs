//! Digests: the SHA-256 a receipt gives for a message, and Message-IDs keyed with the server's
//! secret.

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
/// again (after a crash) keeps its id and the archive can tell whether it went. The seed is
/// keyed with the server's secret (HMAC-SHA-256, 128 bits kept): seeds are made of guessable
/// facts (game, phase, power, address), and a reader who could try them against a Message-ID
/// would learn what the mail does not say, such as who asked for an extension.
pub fn new_message_id(env: &crate::config::Env, kind: &str, seed: &str) -> String {
    let mac = env.key.mac_hex(seed.as_bytes());
    format!("{kind}.{}@{}", &mac[..32], env.message_id_domain)
}

/// Characters of a game's id kept in its mails' Message-IDs (the rest is encoded).
const GAME_PART_CHARS: usize = 48;

/// A Message-ID for a mail about game `game`: as [`new_message_id`], with the game's id (as
/// Message-ID characters) before the keyed digest. The outbox's unique index on Message-IDs
/// then keeps a game's mails, and a tick's batch of games (read in the order of their ids),
/// side by side: with the digest first, a deadline storm's 80,000 inserts each landed on a page
/// of their own, and a tick's per-game cost grew with the number of mails already queued (issue
/// 22: 1.3x at 10,000 games against 1,000; 1.0x with the game first). The game's id is no
/// secret from the mail's reader: its subject names the game.
pub fn game_message_id(env: &crate::config::Env, kind: &str, game: &str, seed: &str) -> String {
    let mac = env.key.mac_hex(seed.as_bytes());
    format!(
        "{kind}.{}.{}@{}",
        id_part(game),
        &mac[..32],
        env.message_id_domain
    )
}

/// `s` as the left part of a Message-ID allows (RFC 5322 dot-atom-text): ASCII letters, digits,
/// `-` and `_` kept, every other byte `=XX`; cut to [`GAME_PART_CHARS`] characters (the digest
/// after it keeps Message-IDs apart).
fn id_part(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            out.push(b as char);
        } else {
            out.push_str(&format!("={b:02X}"));
        }
    }
    out.truncate(GAME_PART_CHARS);
    out
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

    /// RFC 4231 test case 2: the key really is an HMAC key, not a prefix of the hash input.
    #[test]
    fn hmac_sha256_known_vector() {
        let key = crate::config::ServerKey::new(b"Jefe");
        assert_eq!(
            key.mac_hex(b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    /// A game's mails carry its id, encoded as a Message-ID allows, before their digest.
    #[test]
    fn game_message_ids_lead_with_the_game() {
        let env = crate::config::Env {
            message_id_domain: "x.test".into(),
            key: crate::config::ServerKey::new(b"k"),
            ..Default::default()
        };
        let a = super::game_message_id(&env, "results", "wm-1", "wm-1|S1901M|a@b");
        assert!(a.starts_with("results.wm-1."), "{a}");
        assert!(a.ends_with("@x.test"));
        let odd = super::game_message_id(&env, "results", "a b.ü<>", "s");
        assert!(odd.starts_with("results.a=20b=2E=C3=BC=3C=3E."), "{odd}");
        let left = odd.split('@').next().unwrap();
        assert!(
            left.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.=".contains(c)),
            "{odd}"
        );
        let long = super::game_message_id(&env, "results", &"x".repeat(500), "s");
        assert!(long.len() < 120, "{long}");
        assert_ne!(a, super::game_message_id(&env, "results", "wm-1", "other"));
    }

    /// A Message-ID cannot be recomputed from its seed without the key (issue 21.3: the
    /// extension announcement's id named the requester to anyone who tried seven powers).
    #[test]
    fn message_ids_depend_on_the_server_key() {
        let env = |k: &[u8]| crate::config::Env {
            message_id_domain: "x.test".into(),
            key: crate::config::ServerKey::new(k),
            ..Default::default()
        };
        let seed = "wm1|extension|S1901M|FRANCE|1795000000";
        let a = super::new_message_id(&env(b"one"), "announcement", seed);
        assert_eq!(a, super::new_message_id(&env(b"one"), "announcement", seed));
        assert_ne!(a, super::new_message_id(&env(b"two"), "announcement", seed));
        assert!(!a.contains(&super::short_hash(seed)));
    }
}
