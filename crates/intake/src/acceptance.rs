//! Whether a mail is acceptable at all: the GM's address where the house rules want it, the
//! subject in the game's format, and the sender recognised (registered address, then the secret
//! and/or our own server's DKIM/DMARC pass). Pure: every input is passed in.

use chancery_diplomacy::phase::Phase;
use chancery_diplomacy::rules::{Authentication, GmAddress, Rules};

/// Is the GM's address where the house rules want it?
pub fn check_addressing(
    rules: &Rules,
    gm: &str,
    to: &[String],
    cc: &[String],
) -> Result<(), String> {
    let has = |list: &[String]| list.iter().any(|a| a.eq_ignore_ascii_case(gm));
    match rules.gm_address {
        GmAddress::To if has(to) => Ok(()),
        GmAddress::To if has(cc) => Err(format!(
            "the GM's address {gm} must be in \"To\", not in \"CC\" (Maharajiad B.III(2)); this mail is not accepted"
        )),
        GmAddress::To => Err(format!(
            "the GM's address {gm} must be in \"To\" (Maharajiad B.III(2)); this mail is not accepted"
        )),
        GmAddress::ToOrCc if has(to) || has(cc) => Ok(()),
        GmAddress::ToOrCc => Err(format!(
            "the GM's address {gm} must be in \"To\" or \"CC\" (WM D.II(2)); this mail is not accepted"
        )),
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
) -> Result<(), String> {
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
        Err(format!(
            "the subject must be \"{expected}\" (the game, your power and the phase); it was \"{}\"",
            subject.trim()
        ))
    }
}

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
) -> Result<Authenticated, String> {
    if !from.eq_ignore_ascii_case(registered) {
        return Err(format!(
            "orders for this power are accepted only from its registered address; {from} is not it"
        ));
    }
    let secret_ok = secret_given.is_some_and(|s| !secret.is_empty() && s == secret);
    let dkim_ok = dkim_pass(auth_results, authserv_id, from);
    let wrong_secret = secret_given.is_some() && !secret_ok;
    match rules.authentication {
        _ if wrong_secret => Err("the secret is wrong".into()),
        Authentication::Secret | Authentication::SecretOrDkim if secret_ok => {
            Ok(Authenticated::Secret)
        }
        Authentication::Dkim | Authentication::SecretOrDkim if dkim_ok => Ok(Authenticated::Dkim),
        Authentication::Secret => Err("put your secret in the mail: a line SECRET <your secret>".into()),
        Authentication::Dkim => Err(
            "your mail could not be verified (no DKIM or DMARC pass for your domain); send it from your registered mail service".into(),
        ),
        Authentication::SecretOrDkim => Err(
            "your mail could not be verified: put your secret in it (a line SECRET <your secret>), or send it from a mail service that signs it (DKIM)".into(),
        ),
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
        assert!(e.contains("\"wm1 FRANCE S1901M\""), "{e}");
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
        assert!(
            authenticate(&r, me, me, Some("guess"), "s3cret", &pass, ours).is_err(),
            "a wrong secret is refused even with DKIM"
        );
        assert!(
            authenticate(
                &r,
                "other@example.test",
                me,
                Some("s3cret"),
                "s3cret",
                &pass,
                ours
            )
            .is_err()
        );
        let mut secret_only = r.clone();
        secret_only.authentication = Authentication::Secret;
        assert!(authenticate(&secret_only, me, me, None, "s3cret", &pass, ours).is_err());
    }
}
