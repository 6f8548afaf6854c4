//! `Authentication-Results` (RFC 8601): what the receiving server found when it checked SPF,
//! DKIM and DMARC.
//!
//! Anyone can write such a header into a mail. Only the one our own border MX added can be
//! trusted, and a correct MX (RFC 8601 §5) removes any that claim its authserv-id before it adds
//! its own at the top. So only the topmost header counts, and only when it names our
//! authserv-id. docs/deploying.md says what the MX must do.

#![deny(clippy::string_slice)]

/// One header, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthResults {
    /// Lower case.
    pub authserv_id: String,
    pub results: Vec<MethodResult>,
}

/// One `method=result` with its reason and properties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodResult {
    /// Lower case, without a version (`dkim/1` is `dkim`).
    pub method: String,
    /// Lower case (`pass`, `fail`, `softfail`, `none`, ...).
    pub result: String,
    pub reason: Option<String>,
    /// `ptype.property` (lower case) and value, as written (`header.d`, `example.test`).
    pub props: Vec<(String, String)>,
}

impl MethodResult {
    pub fn prop(&self, name: &str) -> Option<&str> {
        self.props
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Headers longer than this are not parsed (an MX writes a few hundred bytes).
pub const MAX_HEADER: usize = 16 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Quoted(String),
    Semi,
}

/// Tokens of a header value: comments (nested, with quoted pairs) dropped, quoted strings kept
/// whole, `=` kept inside words (values such as SRS addresses hold it). `None` for an
/// unterminated comment or quoted string.
fn tokens(value: &str) -> Option<Vec<Token>> {
    let mut out = Vec::new();
    let mut chars = value.chars();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        if !word.is_empty() {
            out.push(Token::Word(std::mem::take(word)));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '(' => {
                flush(&mut word, &mut out);
                let mut depth = 1usize;
                while depth > 0 {
                    match chars.next()? {
                        '\\' => {
                            chars.next()?;
                        }
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                }
            }
            '"' => {
                flush(&mut word, &mut out);
                let mut q = String::new();
                loop {
                    match chars.next()? {
                        '\\' => q.push(chars.next()?),
                        '"' => break,
                        c => q.push(c),
                    }
                }
                out.push(Token::Quoted(q));
            }
            ';' => {
                flush(&mut word, &mut out);
                out.push(Token::Semi);
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    Some(out)
}

/// One item of a result: `key=value`, or a lone word.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Pair(String, String),
    Bare(String),
}

/// Pair up `key=value`, allowing spaces (CFWS) around the first `=` and any `=` in the value.
/// `None` when a key has no value.
fn items(seg: &[Token]) -> Option<Vec<Item>> {
    let mut out = Vec::new();
    let mut i = 0;
    let value_at = |j: usize| match seg.get(j) {
        Some(Token::Word(w) | Token::Quoted(w)) => Some(w.clone()),
        _ => None,
    };
    while let Some(t) = seg.get(i) {
        let Token::Word(w) = t else {
            i += 1;
            continue;
        };
        if let Some((k, v)) = w.split_once('=') {
            if k.is_empty() {
                return None;
            }
            if v.is_empty() {
                out.push(Item::Pair(k.to_string(), value_at(i + 1)?));
                i += 2;
            } else {
                out.push(Item::Pair(k.to_string(), v.to_string()));
                i += 1;
            }
        } else if let Some(Token::Word(next)) = seg.get(i + 1)
            && let Some(rest) = next.strip_prefix('=')
        {
            if rest.is_empty() {
                out.push(Item::Pair(w.clone(), value_at(i + 2)?));
                i += 3;
            } else {
                out.push(Item::Pair(w.clone(), rest.to_string()));
                i += 2;
            }
        } else {
            out.push(Item::Bare(w.clone()));
            i += 1;
        }
    }
    Some(out)
}

/// Parse one `Authentication-Results` value (with or without the field name). `None` when it is
/// not a well-formed header. Unknown keys (`action=none`) are skipped.
pub fn parse(value: &str) -> Option<AuthResults> {
    if value.len() > MAX_HEADER {
        return None;
    }
    let v = value.trim_start();
    let v = match v.split_once(':') {
        Some((name, rest)) if name.eq_ignore_ascii_case("authentication-results") => rest,
        _ => v,
    };
    let toks = tokens(v)?;
    let mut segments = toks.split(|t| *t == Token::Semi);
    // authserv-id [version]
    let head = segments.next()?;
    let authserv_id = match head.first()? {
        Token::Word(w) | Token::Quoted(w) if !w.is_empty() && !w.contains('=') => {
            w.to_ascii_lowercase()
        }
        _ => return None,
    };
    if head.len() > 2 || head.get(1).is_some_and(|t| !matches!(t, Token::Word(_))) {
        return None;
    }
    let mut results = Vec::new();
    for seg in segments {
        let items = items(seg)?;
        let Some(first) = items.first() else {
            continue;
        };
        let (method, result) = match first {
            Item::Bare(w) if w.eq_ignore_ascii_case("none") && items.len() == 1 => continue,
            Item::Pair(m, r) => (m, r),
            Item::Bare(_) => return None,
        };
        let mut r = MethodResult {
            method: method.split('/').next().unwrap_or("").to_ascii_lowercase(),
            result: result.to_ascii_lowercase(),
            reason: None,
            props: Vec::new(),
        };
        for item in items.iter().skip(1) {
            if let Item::Pair(k, v) = item {
                let k = k.to_ascii_lowercase();
                if k == "reason" {
                    r.reason = Some(v.clone());
                } else if k.contains('.') {
                    r.props.push((k, v.clone()));
                }
            }
        }
        results.push(r);
    }
    Some(AuthResults {
        authserv_id,
        results,
    })
}

/// The results our own receiving server recorded: the topmost header (the first in header
/// order), if it names our authserv-id. Any other header, above or below, is ignored.
pub fn trusted(headers: &[String], authserv_id: &str) -> Option<AuthResults> {
    let top = parse(headers.first()?)?;
    top.authserv_id
        .eq_ignore_ascii_case(authserv_id)
        .then_some(top)
}

fn domain_of(from: &str) -> Option<String> {
    from.rsplit_once('@')
        .map(|(_, d)| d.trim_end_matches('>').to_ascii_lowercase())
        .filter(|d| !d.is_empty())
}

/// The domain part of an `smtp.mailfrom` or `header.from` value (`user@d`, or `d`).
fn value_domain(v: &str) -> String {
    v.rsplit_once('@')
        .map_or(v, |(_, d)| d)
        .trim_end_matches('>')
        .to_ascii_lowercase()
}

/// Did our receiving server record a DMARC pass for the sender's domain, or a DKIM pass aligned
/// with it (the signing domain is the sender's domain or a parent of it)?
pub fn dkim_pass(headers: &[String], authserv_id: &str, from: &str) -> bool {
    let (Some(ar), Some(domain)) = (trusted(headers, authserv_id), domain_of(from)) else {
        return false;
    };
    ar.results.iter().any(|r| {
        r.result == "pass"
            && match r.method.as_str() {
                "dmarc" => r.prop("header.from").map(value_domain).as_deref() == Some(&domain),
                "dkim" => r
                    .prop("header.d")
                    .map(value_domain)
                    .is_some_and(|d| d == domain || domain.ends_with(&format!(".{d}"))),
                _ => false,
            }
    })
}

/// Did our receiving server record an SPF, DKIM or DMARC failure for the sender's domain, with
/// no aligned DKIM or DMARC pass to outweigh it (forwarded mail fails SPF and passes DKIM)?
/// Mail from a stranger with such a failure is never answered: its From is likely forged.
pub fn sender_auth_failed(headers: &[String], authserv_id: &str, from: &str) -> bool {
    let (Some(ar), Some(domain)) = (trusted(headers, authserv_id), domain_of(from)) else {
        return false;
    };
    if dkim_pass(headers, authserv_id, from) {
        return false;
    }
    ar.results.iter().any(|r| {
        r.result == "fail"
            && match r.method.as_str() {
                "spf" => r
                    .prop("smtp.mailfrom")
                    .is_none_or(|v| value_domain(v) == domain),
                "dkim" => r.prop("header.d").is_none_or(|d| value_domain(d) == domain),
                "dmarc" => r
                    .prop("header.from")
                    .is_none_or(|v| value_domain(v) == domain),
                _ => false,
            }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OURS: &str = "mx.example.test";

    fn h(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn an_empty_authserv_id_is_no_header() {
        // Found by the property test: `""` parsed as a header with an empty authserv-id.
        assert!(parse("\"\"").is_none());
        assert!(parse("\"\"; dkim=pass header.d=a.test").is_none());
    }

    #[test]
    fn parses_comments_quotes_versions_and_several_results() {
        let ar = parse(
            "mx.example.test 1 (our MX); spf=pass (sender is allowed) smtp.mailfrom=p@a.test;\r\n \
             dkim/1=pass reason=\"good (signature)\" header.d=a.test header.s=\"k1\";\r\n \
             dmarc=pass (p=none) header.from=a.test",
        )
        .expect("parsed");
        assert_eq!(ar.authserv_id, "mx.example.test");
        assert_eq!(ar.results.len(), 3);
        assert_eq!(ar.results[0].method, "spf");
        assert_eq!(ar.results[0].prop("smtp.mailfrom"), Some("p@a.test"));
        assert_eq!(ar.results[1].method, "dkim");
        assert_eq!(ar.results[1].reason.as_deref(), Some("good (signature)"));
        assert_eq!(ar.results[1].prop("header.s"), Some("k1"));
        assert_eq!(ar.results[2].prop("header.from"), Some("a.test"));
        let none = parse("Authentication-Results: mx.example.test; none").expect("none");
        assert!(none.results.is_empty());
        let nested = parse("mx (a (nested) comment) ; dkim=fail (x \\) y) header.d=b").expect("p");
        assert_eq!(nested.results[0].result, "fail");
        // Values may hold '=' (SRS senders, signatures); unknown keys are skipped.
        let srs = parse(
            "mx.example.test; spf=fail smtp.mailfrom=SRS0=AbCd=XY=a.test=p@fwd.test; dkim=pass header.d=a.test header.b=abc= action = none",
        )
        .expect("srs");
        assert_eq!(srs.results.len(), 2);
        assert_eq!(
            srs.results[0].prop("smtp.mailfrom"),
            Some("SRS0=AbCd=XY=a.test=p@fwd.test")
        );
        assert_eq!(srs.results[1].prop("header.b"), Some("abc="));
        let spaced = parse("mx; dkim = pass header.d = a.test").expect("spaced");
        assert_eq!(spaced.results[0].prop("header.d"), Some("a.test"));
        for bad in [
            "",
            "mx; dkim",
            "mx; dkim=pass header.d=",
            "mx (open",
            "mx; dkim=\"x",
        ] {
            assert!(parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn only_the_topmost_header_of_our_own_server_is_trusted() {
        // Issue 9, point 4: a forged header naming our authserv-id anywhere was trusted.
        let forged = "mx.example.test; dkim=pass header.d=victim.test";
        let real = "mx.example.test; dkim=none";
        assert!(
            dkim_pass(&h(&[forged]), OURS, "p@victim.test"),
            "topmost: trusted"
        );
        assert!(
            !dkim_pass(&h(&[real, forged]), OURS, "p@victim.test"),
            "below ours: ignored"
        );
        assert!(
            !dkim_pass(&h(&["other.mx; spf=pass", forged]), OURS, "p@victim.test"),
            "the topmost is not ours: nothing is trusted"
        );
        assert!(!dkim_pass(
            &h(&["mx.example.test.evil; dkim=pass header.d=victim.test"]),
            OURS,
            "p@victim.test"
        ));
    }

    #[test]
    fn dkim_and_dmarc_passes_must_align_with_the_sender() {
        let ok = |hdr: &str, from: &str| dkim_pass(&h(&[hdr]), OURS, from);
        assert!(ok(
            "mx.example.test; dmarc=pass header.from=a.test",
            "p@a.test"
        ));
        assert!(!ok(
            "mx.example.test; dmarc=pass header.from=b.test",
            "p@a.test"
        ));
        assert!(ok(
            "mx.example.test; dkim=pass header.d=a.test",
            "p@mail.a.test"
        ));
        assert!(!ok(
            "mx.example.test; dkim=pass header.d=evila.test",
            "p@a.test"
        ));
        assert!(!ok(
            "mx.example.test; dkim=fail header.d=a.test",
            "p@a.test"
        ));
        assert!(!ok(
            "mx.example.test; spf=pass smtp.mailfrom=a.test",
            "p@a.test"
        ));
    }

    #[test]
    fn authentication_failures_for_the_sender() {
        let failed = |hdr: &str| sender_auth_failed(&h(&[hdr]), OURS, "boss@bank.test");
        assert!(failed(
            "mx.example.test; spf=fail smtp.mailfrom=boss@bank.test"
        ));
        assert!(failed(
            "mx.example.test; dmarc=fail (p=reject) header.from=bank.test"
        ));
        assert!(failed("mx.example.test; dkim=fail header.d=bank.test"));
        assert!(!failed("mx.example.test; dkim=fail header.d=list.test"));
        assert!(!failed(
            "mx.example.test; spf=softfail smtp.mailfrom=bank.test"
        ));
        assert!(!failed("mx.example.test; spf=pass smtp.mailfrom=bank.test"));
        assert!(!failed("other.mx; spf=fail smtp.mailfrom=bank.test"));
        // Forwarded mail: SPF fails at the forwarder, DKIM still passes. Not a forgery.
        assert!(!failed(
            "mx.example.test; spf=fail smtp.mailfrom=fwd.test; dkim=pass header.d=bank.test"
        ));
    }
}
