//! Player secrets: random words from the operating system's generator.
//!
//! A secret proves who sent a mail (WM D.X(6)), so it must not be guessable: four words of
//! three consonant-vowel syllables each, 80 syllables to choose from, give 80^12 ≈ 2^75.9
//! possibilities, more than the 64 bits asked for, in lower-case letters a player can type
//! and read aloud ("kovali-tesumo-rabike-dunoza").

/// Consonants and vowels of the syllables: no letters that are easily confused (c/k, q, w, x,
/// y) and no capitals.
const CONSONANTS: &[u8; 16] = b"bdfghjklmnprstvz";
const VOWELS: &[u8; 5] = b"aeiou";
const WORDS: usize = 4;
const SYLLABLES: usize = 3;

/// The OS random generator failed: no secret can be made (nothing else is tried: a secret
/// from a weaker source would be guessable).
#[derive(Debug, thiserror::Error)]
#[error("the OS random generator failed: {0}")]
pub struct SecretError(getrandom::Error);

/// Bits of randomness in one secret.
pub fn entropy_bits() -> f64 {
    ((CONSONANTS.len() * VOWELS.len()) as f64).log2() * (WORDS * SYLLABLES) as f64
}

/// A fresh secret from the OS random generator.
pub fn generate() -> Result<String, SecretError> {
    let mut words = Vec::with_capacity(WORDS);
    for _ in 0..WORDS {
        let mut w = String::with_capacity(SYLLABLES * 2);
        for _ in 0..SYLLABLES {
            let s = uniform(CONSONANTS.len() * VOWELS.len())?;
            w.push(char::from(CONSONANTS[s / VOWELS.len()]));
            w.push(char::from(VOWELS[s % VOWELS.len()]));
        }
        words.push(w);
    }
    Ok(words.join("-"))
}

/// A uniform number below `n` (n ≤ 256), by rejection: no modulo bias.
fn uniform(n: usize) -> Result<usize, SecretError> {
    let limit = 256 - 256 % n;
    loop {
        let mut b = [0u8; 1];
        getrandom::getrandom(&mut b).map_err(SecretError)?;
        if usize::from(b[0]) < limit {
            return Ok(usize::from(b[0]) % n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn secrets_have_at_least_64_bits_and_can_be_typed() {
        assert!(entropy_bits() >= 64.0, "{} bits", entropy_bits());
        let s = generate().expect("rng");
        let words: Vec<&str> = s.split('-').collect();
        assert_eq!(words.len(), WORDS);
        for w in words {
            assert_eq!(w.len(), SYLLABLES * 2);
            assert!(w.bytes().all(|b| b.is_ascii_lowercase()), "{w}");
        }
    }

    #[test]
    fn secrets_differ() {
        let all: HashSet<String> = (0..1000).map(|_| generate().expect("rng")).collect();
        assert_eq!(all.len(), 1000);
    }

    #[test]
    fn every_syllable_can_come_up() {
        // 80 syllables: 20,000 draws miss one with probability about 80 * (79/80)^20000 ≈ 0.
        let mut seen = HashSet::new();
        for _ in 0..2000 {
            let s = generate().expect("rng");
            for w in s.split('-') {
                for pair in w.as_bytes().chunks(2) {
                    seen.insert(pair.to_vec());
                }
            }
        }
        assert_eq!(seen.len(), CONSONANTS.len() * VOWELS.len());
    }
}
