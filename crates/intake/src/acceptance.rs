//! Whether a mail is acceptable at all: the GM's address where the house rules want it, the
//! subject in the game's format, and the sender recognised (registered address, then the secret
//! and/or our own server's DKIM/DMARC pass). Pure: every input is passed in.

use chancery_diplomacy::phase::Phase;
use chancery_diplomacy::rules::{Authentication, GmAddress, Rules};

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

/// Is the GM's address where the house rules want it?
pub fn check_addressing(
    rules: &Rules,
    gm: &str,
    to: &[String],
    cc: &[String],
) -> Result<(), AddressingError> {
    let has = |list: &[String]| list.iter().any(|a| a.eq_ignore_ascii_case(gm));
    let gm = gm.to_string();
    match rules.gm_address {
        GmAddress::To if has(to) => Ok(()),
        GmAddress::To if has(cc) => Err(AddressingError::InCcNotTo { gm }),
        GmAddress::To => Err(AddressingError::NotInTo { gm }),
        GmAddress::ToOrCc if has(to) || has(cc) => Ok(()),
        GmAddress::ToOrCc => Err(AddressingError::NotInToOrCc { gm }),
    }
}

/// Does the subject match the game's format? "Re:" and "Fwd:" prefixes are allowed, and case,
/// extra spaces and a trailing secret do not matter.
pub fn check_subject(
    rules: &Rules,
    subject: &str,
    game: &str,
    power: &str,
    phase: Phase,
) -> Result<(), SubjectError> {
    let expected = rules
        .subject_format
        .replace("{game}", game)
        .replace("{power}", power)
        .replace("{phase}", &phase.to_string());
    let norm = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_lowercase).collect() };
    let mut words = norm(subject);
    while words
        .first()
        .is_some_and(|w| matches!(w.as_str(), "re:" | "fwd:" | "fw:" | "aw:" | "tr:"))
    {
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
/// and/or a DKIM/DMARC pass, per the house rules.
pub fn authenticate(
    rules: &Rules,
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
    match rules.authentication {
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

    fn wm() -> Rules {
        Rules::preset("wm2004").expect("wm2004")
    }
    fn mj() -> Rules {
        Rules::preset("maharajiad").expect("maharajiad")
    }

    #[test]
    fn addressing_per_policy() {
        let gm = "gm@example.test";
        let to = vec![gm.to_string()];
        let none: Vec<String> = Vec::new();
        assert!(
            check_addressing(&wm(), gm, &none, &to).is_ok(),
            "WM D.II(2): CC is fine"
        );
        assert!(
            check_addressing(&mj(), gm, &none, &to).is_err(),
            "Maharajiad B.III(2): To only"
        );
        assert!(check_addressing(&mj(), gm, &to, &none).is_ok());
        assert!(check_addressing(&wm(), gm, &none, &none).is_err());
    }

    #[test]
    fn subjects() {
        let r = wm();
        let p: Phase = "S1901M".parse().expect("phase");
        assert!(check_subject(&r, "wm1 FRANCE S1901M", "wm1", "FRANCE", p).is_ok());
        assert!(check_subject(&r, "Re: WM1 france s1901m", "wm1", "FRANCE", p).is_ok());
        assert!(check_subject(&r, "wm1 FRANCE S1901M secret", "wm1", "FRANCE", p).is_ok());
        let e = check_subject(&r, "orders", "wm1", "FRANCE", p).unwrap_err();
        assert_eq!(e.expected, "wm1 FRANCE S1901M");
        assert!(e.to_string().contains("\"wm1 FRANCE S1901M\""), "{e}");
        assert!(check_subject(&r, "wm1 FRANCE F1901M", "wm1", "FRANCE", p).is_err());
    }

    #[test]
    fn tournament_presets_require_the_secret_even_with_a_dkim_pass() {
        // WM D.X(6), Maharajiad B.XI(7): in a tournament the GM must know who sent the orders;
        // a DKIM pass alone (which a forged header once faked) is not enough.
        let ours = "mx.example.test";
        let pass = vec!["mx.example.test; dkim=pass header.d=example.test".to_string()];
        let me = "player3@example.test";
        for name in ["wm2004", "maharajiad"] {
            let r = Rules::preset(name).expect("preset");
            assert_eq!(r.authentication, Authentication::Secret, "{name}");
            assert!(authenticate(&r, me, me, None, "s3cret", &pass, ours).is_err());
            assert_eq!(
                authenticate(&r, me, me, Some("s3cret"), "s3cret", &[], ours),
                Ok(Authenticated::Secret)
            );
        }
    }

    #[test]
    fn authentication_by_secret_or_dkim() {
        let mut r = wm();
        r.authentication = Authentication::SecretOrDkim;
        let ours = "mx.example.test";
        let pass = vec!["mx.example.test; dkim=pass header.d=example.test header.s=s1; dmarc=pass header.from=example.test".to_string()];
        let forged = vec!["evil.test; dkim=pass header.d=example.test".to_string()];
        let me = "player3@example.test";
        assert_eq!(
            authenticate(&r, me, me, None, "s3cret", &pass, ours),
            Ok(Authenticated::Dkim)
        );
        assert!(
            authenticate(&r, me, me, None, "s3cret", &forged, ours).is_err(),
            "another server's results are not trusted"
        );
        assert_eq!(
            authenticate(&r, me, me, Some("s3cret"), "s3cret", &[], ours),
            Ok(Authenticated::Secret)
        );
        assert_eq!(
            authenticate(&r, me, me, Some("guess"), "s3cret", &pass, ours),
            Err(AuthError::WrongSecret),
            "a wrong secret is refused even with DKIM"
        );
        // Another address with the right secret: refused as not the registered address, never
        // counted as a wrong secret (the digest counts those, WM D.X(6)).
        assert_eq!(
            authenticate(
                &r,
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
        let mut secret_only = r.clone();
        secret_only.authentication = Authentication::Secret;
        assert!(authenticate(&secret_only, me, me, None, "s3cret", &pass, ours).is_err());
    }
}
