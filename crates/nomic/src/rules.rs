//! The rule set's own limits and references: Nomic 211 ("At no time may there be more than 25
//! mutable rules") and Nomic 110 ("If the number of a rule is changed, due to Rule 109 or
//! otherwise, any reference to that rule number is also changed").
//!
//! The rules themselves are the office's ([`chancery_office::ruleset`], which reads the Initial
//! Set's file); the file's cross-references (`linksto`), which the office's reader leaves out,
//! are read here ([`read_links`]), so a renumbering can find every rule that refers to the old
//! number: by the file's links, and by `Rule N` in the text ([`references_to`]).

use chancery_office::ruleset::{Mutability, Rule};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Nomic 211: "At no time may there be more than 25 mutable rules."
pub const MAX_MUTABLE_211: usize = 25;

/// Nomic 211: too many mutable rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyMutable {
    pub count: usize,
    /// The most there may be: 25 in the Initial Set, the game's `max-mutable-rules` since.
    pub max: usize,
}

impl fmt::Display for TooManyMutable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "there would be {} mutable rules, and there may be no more than {} (Nomic 211)",
            self.count, self.max
        )
    }
}

impl std::error::Error for TooManyMutable {}

/// Nomic 211: the mutable rules among `rules`.
pub fn mutable_count(rules: &BTreeMap<u32, Rule>) -> usize {
    rules
        .values()
        .filter(|r| r.mutability == Mutability::Mutable)
        .count()
}

/// Nomic 211: are there no more than `max` mutable rules (25 in the Initial Set; the game's
/// [`crate::settings::Settings::max_mutable_rules`] once a `set` changed it)?
pub fn check_211(rules: &BTreeMap<u32, Rule>, max: usize) -> Result<(), TooManyMutable> {
    let count = mutable_count(rules);
    if count > max {
        Err(TooManyMutable { count, max })
    } else {
        Ok(())
    }
}

/// The file's cross-references, by rule number: each rule's `linksto`, its keys turned into the
/// numbers of the rules they name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Links {
    links: BTreeMap<u32, BTreeSet<u32>>,
}

/// Why the file's links cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    Json(String),
    /// A rule's label is no number (with `[I]` for an immutable rule).
    Label {
        key: String,
        label: String,
    },
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::Json(e) => write!(f, "not a rule set's JSON: {e}"),
            LinkError::Label { key, label } => write!(f, "rule {key}: \"{label}\" is no number"),
        }
    }
}

impl std::error::Error for LinkError {}

#[derive(Deserialize)]
struct FileIn {
    rules: BTreeMap<String, RuleIn>,
}

#[derive(Deserialize)]
struct RuleIn {
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    ineffect: Option<String>,
    #[serde(default)]
    linksto: Vec<String>,
}

fn label_number(label: &str) -> Option<u32> {
    let digits = label.trim();
    let digits = digits.strip_suffix("[I]").unwrap_or(digits);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Nomic 110: the links of the Initial Set's file (the format the office reads). A link to a key
/// that is no rule in effect is left out, as is every link of a rule no longer in effect.
pub fn read_links(json: &str) -> Result<Links, LinkError> {
    let file: FileIn = serde_json::from_str(json).map_err(|e| LinkError::Json(e.to_string()))?;
    let mut numbers = BTreeMap::new();
    for (key, r) in &file.rules {
        if r.ineffect.as_deref().map(str::trim) == Some("0") {
            continue;
        }
        let label = r.label.clone().unwrap_or_else(|| key.clone());
        let Some(n) = label_number(&label) else {
            return Err(LinkError::Label {
                key: key.clone(),
                label,
            });
        };
        numbers.insert(key.as_str(), n);
    }
    let mut links = BTreeMap::new();
    for (key, r) in &file.rules {
        let Some(&from) = numbers.get(key.as_str()) else {
            continue;
        };
        let to: BTreeSet<u32> = r
            .linksto
            .iter()
            .filter_map(|k| numbers.get(k.as_str()).copied())
            .filter(|&n| n != from)
            .collect();
        links.insert(from, to);
    }
    Ok(Links { links })
}

impl Links {
    /// The rules `number` links to.
    pub fn of(&self, number: u32) -> Option<&BTreeSet<u32>> {
        self.links.get(&number)
    }

    /// Nomic 110: rule `from` is now `to`: its own links, and every link to it, follow it.
    pub fn renumber(&mut self, from: u32, to: u32) {
        if let Some(own) = self.links.remove(&from) {
            self.links.insert(to, own);
        }
        for set in self.links.values_mut() {
            if set.remove(&from) {
                set.insert(to);
            }
        }
    }
}

/// Where a reference to a rule was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// `Rule N` in the rule's text.
    Text,
    /// The file's `linksto` only.
    Link,
    Both,
}

/// A rule that refers to another (Nomic 110).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reference {
    pub rule: u32,
    pub found: Found,
}

/// The rule numbers a text names: `Rule 109`, `Rules 101-118`, `Rule 201, 202 and 203` (the
/// words in any case), each with its byte span; bare numbers (`7pm`, `10 points`) are not rules.
pub fn rule_numbers_in(text: &str) -> Vec<(usize, usize, u32)> {
    let bytes = text.as_bytes();
    // ASCII lowercasing keeps every byte where it was.
    let lower = text.to_ascii_lowercase();
    let blank = |b: u8| matches!(b, b' ' | b'\n' | b'\t');
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = lower[from..].find("rule") {
        let word = from + found;
        from = word + 4;
        if word > 0 && bytes[word - 1].is_ascii_alphanumeric() {
            continue;
        }
        let mut i = word + 4;
        if bytes.get(i) == Some(&b's') {
            i += 1;
        }
        let mut first = true;
        loop {
            let sep = i;
            while i < bytes.len() && (blank(bytes[i]) || matches!(bytes[i], b',' | b'-')) {
                i += 1;
            }
            if !first {
                for joiner in ["and", "or"] {
                    if lower[i..].starts_with(joiner)
                        && bytes.get(i + joiner.len()).copied().is_some_and(blank)
                    {
                        i += joiner.len();
                        while i < bytes.len() && blank(bytes[i]) {
                            i += 1;
                        }
                    }
                }
            }
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if sep == start || start == i || bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
                break;
            }
            let Ok(n) = text[start..i].parse::<u32>() else {
                break;
            };
            out.push((start, i, n));
            from = i;
            first = false;
        }
    }
    out
}

/// Nomic 110: the rules (other than `old` itself) that refer to rule `old`, by their text or the
/// file's links, before it is renumbered.
pub fn references_to(rules: &BTreeMap<u32, Rule>, links: &Links, old: u32) -> Vec<Reference> {
    rules
        .values()
        .filter(|r| r.number != old)
        .filter_map(|r| {
            let text = r
                .text
                .iter()
                .any(|p| rule_numbers_in(p).iter().any(|&(_, _, n)| n == old));
            let link = links.of(r.number).is_some_and(|l| l.contains(&old));
            let found = match (text, link) {
                (true, true) => Found::Both,
                (true, false) => Found::Text,
                (false, true) => Found::Link,
                (false, false) => return None,
            };
            Some(Reference {
                rule: r.number,
                found,
            })
        })
        .collect()
}

/// Nomic 110: `text` with every reference to rule `old` changed to `new`.
pub fn rewrite_references(text: &str, old: u32, new: u32) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (start, end, n) in rule_numbers_in(text) {
        if n == old {
            out.push_str(&text[last..start]);
            out.push_str(&new.to_string());
            last = end;
        }
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(number: u32, text: &str, mutability: Mutability) -> Rule {
        Rule {
            number,
            text: vec![text.to_string()],
            mutability,
        }
    }

    #[test]
    fn nomic_211_no_more_than_25_mutable_rules() {
        let mut rules: BTreeMap<u32, Rule> = (101..=118)
            .map(|n| (n, rule(n, "x", Mutability::Immutable)))
            .chain((201..=225).map(|n| (n, rule(n, "x", Mutability::Mutable))))
            .collect();
        assert_eq!(mutable_count(&rules), 25);
        assert_eq!(check_211(&rules, MAX_MUTABLE_211), Ok(()));
        rules.insert(301, rule(301, "x", Mutability::Mutable));
        assert_eq!(
            check_211(&rules, MAX_MUTABLE_211),
            Err(TooManyMutable { count: 26, max: 25 })
        );
        assert!(
            check_211(&rules, MAX_MUTABLE_211)
                .is_err_and(|e| e.to_string().contains("no more than 25 (Nomic 211)"))
        );
        // A game that set max-mutable-rules to 30 allows the 26th.
        assert_eq!(check_211(&rules, 30), Ok(()));
    }

    #[test]
    fn nomic_110_rule_numbers_in_a_text() {
        let nums = |t: &str| -> Vec<u32> { rule_numbers_in(t).iter().map(|x| x.2).collect() };
        assert_eq!(nums("due to Rule 109 or otherwise"), [109]);
        assert_eq!(
            nums("The Initial Set consists of\nRules 101-118 (immutable) and 201-215"),
            [101, 118]
        );
        assert_eq!(nums("rules 201, 202 and 203 apply"), [201, 202, 203]);
        assert_eq!(nums("before 7pm, 10 points, 200 points"), Vec::<u32>::new());
        assert_eq!(nums("Rule-changes that transmute"), Vec::<u32>::new());
        assert_eq!(nums("This is subject to Rule 214."), [214]);
        assert_eq!(nums("overrule 12"), Vec::<u32>::new());
        assert_eq!(nums("Rule 2x"), Vec::<u32>::new());
        assert_eq!(nums("Rule"), Vec::<u32>::new());
        assert_eq!(nums("é rule é 5"), Vec::<u32>::new());
    }

    #[test]
    fn nomic_110_a_renumbering_rewrites_the_references() {
        assert_eq!(
            rewrite_references("subject to Rule 214. See rule 2140 and Rule 214", 214, 305),
            "subject to Rule 305. See rule 2140 and Rule 305"
        );
        assert_eq!(rewrite_references("10 points", 10, 11), "10 points");
    }

    const FILE: &str = r#"{"rules": {
        "8": {"label": "109[I]", "text": ["x"], "ineffect": "1", "linksto": ["9"]},
        "9": {"label": "110[I]", "text": ["due to Rule 109 or otherwise"], "ineffect": "1", "linksto": ["8"]},
        "23": {"label": "206", "text": ["This is subject to Rule 214."], "ineffect": "1", "linksto": ["31"]},
        "18": {"label": "201", "text": ["days"], "ineffect": "1", "linksto": ["31", "77"]},
        "31": {"label": "214", "text": ["the order of Rule 201"], "ineffect": "1", "linksto": ["23", "18"]},
        "40": {"label": "216", "text": ["Rule 214 again"], "ineffect": "0", "linksto": ["31"]}
        }, "date": "2019-02-11", "author": "Ben"}"#;

    #[test]
    fn nomic_110_the_files_links_are_read_by_rule_number() {
        let links = read_links(FILE).expect("reads");
        assert_eq!(links.of(109), Some(&BTreeSet::from([110])));
        assert_eq!(
            links.of(201),
            Some(&BTreeSet::from([214])),
            "key 77 is no rule"
        );
        assert_eq!(links.of(214), Some(&BTreeSet::from([201, 206])));
        assert_eq!(links.of(216), None, "not in effect");
        let mut moved = links.clone();
        moved.renumber(214, 305);
        assert_eq!(moved.of(305), Some(&BTreeSet::from([201, 206])));
        assert_eq!(moved.of(201), Some(&BTreeSet::from([305])));
        assert!(matches!(read_links("[]"), Err(LinkError::Json(_))));
        assert!(matches!(
            read_links(r#"{"rules": {"a": {"label": "x1"}}}"#),
            Err(LinkError::Label { .. })
        ));
    }

    #[test]
    fn nomic_110_the_rules_that_refer_to_a_renumbered_rule() {
        let links = read_links(FILE).expect("reads");
        let rules: BTreeMap<u32, Rule> = [
            rule(109, "x", Mutability::Immutable),
            rule(110, "due to Rule 109 or otherwise", Mutability::Immutable),
            rule(201, "days", Mutability::Mutable),
            rule(206, "This is subject to Rule 214.", Mutability::Mutable),
            rule(214, "the order of Rule 201", Mutability::Mutable),
        ]
        .into_iter()
        .map(|r| (r.number, r))
        .collect();
        assert_eq!(
            references_to(&rules, &links, 214),
            vec![
                Reference {
                    rule: 201,
                    found: Found::Link
                },
                Reference {
                    rule: 206,
                    found: Found::Both
                },
            ]
        );
        assert_eq!(
            references_to(&rules, &links, 201),
            vec![Reference {
                rule: 214,
                found: Found::Both
            }]
        );
        assert_eq!(
            references_to(&rules, &links, 109),
            vec![Reference {
                rule: 110,
                found: Found::Both
            }]
        );
        assert_eq!(references_to(&rules, &links, 999), vec![]);
    }
}
