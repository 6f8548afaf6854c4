//! Whether a mail is acceptable at all: the GM's address where the house rules want it, the
//! subject in the game's format, and the sender recognised (registered address, then the secret
//! and/or our own server's DKIM/DMARC pass). Pure: every input is passed in, the house rules'
//! settings as plain values (the office's [`GmAddress`] and [`Authentication`], the subject's
//! format), so that every kind of game uses these checks with its own rules.

use chancery_office::settings::{Authentication, GmAddress};
use std::fmt::Display;

/// The GM's address is not where the house rules want it (`gm`: the game's GM address).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddressingError {
    /// Maharajiad B.III(2): in "To", and it is in "CC".
    InCcNotTo { gm: String },
    /// Maharajiad B.III(2): in "To", and it is not.
    NotInTo { gm: String },
    /// WM D.II(2): in "To" or "CC", and it is in neither.
    NotInToOrCc { gm: String },
}

impl std::fmt::Display for AddressingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AddressingError::InCcNotTo { gm } => write!(
                f,
                "the GM's address {gm} must be in \"To\", not in \"CC\" (Maharajiad B.III(2)); this mail is not accepted"
            ),
            AddressingError::NotInTo { gm } => write!(
                f,
                "the GM's address {gm} must be in \"To\" (Maharajiad B.III(2)); this mail is not accepted"
            ),
            AddressingError::NotInToOrCc { gm } => write!(
                f,
                "the GM's address {gm} must be in \"To\" or \"CC\" (WM D.II(2)); this mail is not accepted"
            ),
        }
    }
}

impl std::error::Error for AddressingError {}

/// Is the GM's address where the house rules want it (`wanted`)?
pub fn check_addressing(
    wanted: GmAddress,
    gm: &str,
    to: &[String],
    cc: &[String],
) -> Result<(), AddressingError> {
    let has = |list: &[String]| list.iter().any(|a| a.eq_ignore_ascii_case(gm));
    let gm = gm.to_string();
    match wanted {
        GmAddress::To if has(to) => Ok(()),
        GmAddress::To if has(cc) => Err(AddressingError::InCcNotTo { gm }),
        GmAddress::To => Err(AddressingError::NotInTo { gm }),
        GmAddress::ToOrCc if has(to) || has(cc) => Ok(()),
        GmAddress::ToOrCc => Err(AddressingError::NotInToOrCc { gm }),
    }
}

/// Is this word of a subject a reply's or a forward's prefix (`Re:`, `Fwd:`, `FW:`, and the German
/// `AW:` and French `TR:`), in any case? Such words name no game and are not the format's.
pub fn is_reply_prefix(word: &str) -> bool {
    word.strip_suffix(':').is_some_and(is_reply_word)
}

/// [`is_reply_prefix`]'s word without its colon (`Re`, `Fwd`, ...), in any case: what a
/// subject's head reads once its punctuation is trimmed.
pub fn is_reply_word(word: &str) -> bool {
    ["re", "fwd", "fw", "aw", "tr"]
        .iter()
        .any(|p| word.eq_ignore_ascii_case(p))
}

/// Does the subject match the game's format (`format`, with `{game}`, `{power}` and `{phase}`
/// to fill in)? "Re:" and "Fwd:" prefixes are allowed, and case, extra spaces and a trailing
/// secret do not matter. The phase is the kind's own, written as it writes it.
pub fn check_subject(
    format: &str,
    subject: &str,
    game: &str,
    power: &str,
    phase: impl Display,
) -> Result<(), SubjectError> {
    let expected = format
        .replace("{game}", game)
        .replace("{power}", power)
        .replace("{phase}", &phase.to_string());
    let norm = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_lowercase).collect() };
    let mut words = norm(subject);
    while words.first().is_some_and(|w| is_reply_prefix(w)) {
        words.remove(0);
    }
    let want = norm(&expected);
    if words.len() >= want.len() && words[..want.len()] == want[..] {
        Ok(())
    } else {
        Err(SubjectError {
            expected,
            given: subject.trim().to_string(),
        })
    }
}

/// The subject is not in the game's format: the one to use, and the one given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubjectError {
    pub expected: String,
    pub given: String,
}

impl std::fmt::Display for SubjectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the subject must be \"{}\" (the game, your power and the phase); it was \"{}\"",
            self.expected, self.given
        )
    }
}

impl std::error::Error for SubjectError {}

/// How a sender was recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Authenticated {
    Secret,
    Dkim,
}

/// Did our own receiving server (`authserv_id`) record a DMARC pass for the sender's domain, or
/// a DKIM pass aligned with it? Only the topmost Authentication-Results header counts, and only
/// when it is ours (RFC 8601 §5): any other can be forged (see `authres`).
pub fn dkim_pass(auth_results: &[String], authserv_id: &str, from: &str) -> bool {
    crate::authres::dkim_pass(auth_results, authserv_id, from)
}

/// Why a sender is not taken for the registered player (or master). A typed reason, so that a
/// caller acts on the kind (a wrong secret is counted for the masters' digest) and never on the
/// words; the words are what the sender is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthError {
    /// From is not the registered address.
    NotRegistered { from: String },
    /// A secret was given, and it is not the registered one.
    WrongSecret,
    /// The house rules want the secret, and none was given.
    NoSecret,
    /// The house rules want a DKIM or DMARC pass, and our server recorded none.
    NotVerified,
    /// Either would do, and neither was there.
    NeitherSecretNorDkim,
}

impl std::fmt::Display for AuthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuthError::NotRegistered { from } => write!(
                f,
                "orders for this power are accepted only from its registered address; {from} is not it"
            ),
            AuthError::WrongSecret => f.write_str("the secret is wrong"),
            AuthError::NoSecret => {
                f.write_str("put your secret in the mail: a line SECRET <your secret>")
            }
            AuthError::NotVerified => f.write_str(
                "your mail could not be verified (no DKIM or DMARC pass for your domain); send it from your registered mail service",
            ),
            AuthError::NeitherSecretNorDkim => f.write_str(
                "your mail could not be verified: put your secret in it (a line SECRET <your secret>), or send it from a mail service that signs it (DKIM)",
            ),
        }
    }
}

impl std::error::Error for AuthError {}

/// Is the sender the registered player? `from` must be the registered address; then the secret
/// and/or a DKIM/DMARC pass, as the house rules want (`wanted`).
pub fn authenticate(
    wanted: Authentication,
    from: &str,
    registered: &str,
    secret_given: Option<&str>,
    secret: &str,
    auth_results: &[String],
    authserv_id: &str,
) -> Result<Authenticated, AuthError> {
    if !from.eq_ignore_ascii_case(registered) {
        return Err(AuthError::NotRegistered {
            from: from.to_string(),
        });
    }
    let secret_ok = secret_given.is_some_and(|s| !secret.is_empty() && s == secret);
    let dkim_ok = dkim_pass(auth_results, authserv_id, from);
    let wrong_secret = secret_given.is_some() && !secret_ok;
    match wanted {
        _ if wrong_secret => Err(AuthError::WrongSecret),
        Authentication::Secret | Authentication::SecretOrDkim if secret_ok => {
            Ok(Authenticated::Secret)
        }
        Authentication::Dkim | Authentication::SecretOrDkim if dkim_ok => Ok(Authenticated::Dkim),
        Authentication::Secret => Err(AuthError::NoSecret),
        Authentication::Dkim => Err(AuthError::NotVerified),
        Authentication::SecretOrDkim => Err(AuthError::NeitherSecretNorDkim),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subject format of every preset (`subject_format`, WM D.II(2), Maharajiad B.III(2)).
    const FORMAT: &str = "{game} {power} {phase}";

    #[test]
    fn reply_prefixes_with_their_colon_in_any_case() {
        for w in ["Re:", "RE:", "fwd:", "FW:", "AW:", "tr:"] {
            assert!(is_reply_prefix(w), "{w}");
        }
        for w in ["Re", "re-", "wm1", ":", "Reply:", ""] {
            assert!(!is_reply_prefix(w), "{w}");
        }
    }

    #[test]
    fn addressing_per_policy() {
        // The wm2004 preset's `gm_address` is `to_or_cc`, the maharajiad preset's `to`.
        let (wm, mj) = (GmAddress::ToOrCc, GmAddress::To);
        let gm = "gm@example.test";
        let to = vec![gm.to_string()];
        let none: Vec<String> = Vec::new();
        assert!(
            check_addressing(wm, gm, &none, &to).is_ok(),
            "WM D.II(2): CC is fine"
        );
        assert!(
            check_addressing(mj, gm, &none, &to).is_err(),
            "Maharajiad B.III(2): To only"
        );
        assert!(check_addressing(mj, gm, &to, &none).is_ok());
        assert!(check_addressing(wm, gm, &none, &none).is_err());
    }

    #[test]
    fn subjects() {
        let r = FORMAT;
        // The phase is the kind's own; anything written as the kind writes it will do.
        let p = "S1901M";
        assert!(check_subject(r, "wm1 FRANCE S1901M", "wm1", "FRANCE", p).is_ok());
        assert!(check_subject(r, "Re: WM1 france s1901m", "wm1", "FRANCE", p).is_ok());
        assert!(check_subject(r, "wm1 FRANCE S1901M secret", "wm1", "FRANCE", p).is_ok());
        let e = check_subject(r, "orders", "wm1", "FRANCE", p).unwrap_err();
        assert_eq!(e.expected, "wm1 FRANCE S1901M");
        assert!(e.to_string().contains("\"wm1 FRANCE S1901M\""), "{e}");
        assert!(check_subject(r, "wm1 FRANCE F1901M", "wm1", "FRANCE", p).is_err());
    }

    #[test]
    fn authentication_by_secret_or_dkim() {
        let r = Authentication::SecretOrDkim;
        let ours = "mx.example.test";
        let pass = vec!["mx.example.test; dkim=pass header.d=example.test header.s=s1; dmarc=pass header.from=example.test".to_string()];
        let forged = vec!["evil.test; dkim=pass header.d=example.test".to_string()];
        let me = "player3@example.test";
        assert_eq!(
            authenticate(r, me, me, None, "s3cret", &pass, ours),
            Ok(Authenticated::Dkim)
        );
        assert!(
            authenticate(r, me, me, None, "s3cret", &forged, ours).is_err(),
            "another server's results are not trusted"
        );
        assert_eq!(
            authenticate(r, me, me, Some("s3cret"), "s3cret", &[], ours),
            Ok(Authenticated::Secret)
        );
        assert_eq!(
            authenticate(r, me, me, Some("guess"), "s3cret", &pass, ours),
            Err(AuthError::WrongSecret),
            "a wrong secret is refused even with DKIM"
        );
        // Another address with the right secret: refused as not the registered address, never
        // counted as a wrong secret (the digest counts those, WM D.X(6)).
        assert_eq!(
            authenticate(
                r,
                "other@example.test",
                me,
                Some("s3cret"),
                "s3cret",
                &pass,
                ours
            ),
            Err(AuthError::NotRegistered {
                from: "other@example.test".into()
            })
        );
        let secret_only = Authentication::Secret;
        assert!(authenticate(secret_only, me, me, None, "s3cret", &pass, ours).is_err());
    }
}
