//! Keeps `docs/rules-traceability.md` honest: the page that traces every clause of the WM 2004,
//! Maharajiad I and Agora Birthday Tournament 2020 texts to what enforces it and the test that
//! proves it (issue 12, point 9).
//!
//! Every code span of the page of the form `path/to/file.rs::name` names a test: the file must
//! exist (the path is from the repository root) and hold `fn name(` under `#[test]` or
//! `#[tokio::test]`, or hand `name` to a macro of that file which defines `#[test]` functions
//! (the DATC sections of `tests/datc.rs`). The page must name at least [`MIN_TESTS`] tests, have
//! a section for each rulebook, and give every table row a status whose tests match it: an
//! **Enforced** row names a test, a row that is not enforced or has no test yet names none.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const DOC: &str = "docs/rules-traceability.md";

/// The page may not pass by naming (almost) nothing.
const MIN_TESTS: usize = 40;

/// Each rulebook's section heading, with the subsection headings it must have.
const SECTIONS: &[(&str, &[&str])] = &[
    (
        "## World Masters 2004 house rules",
        &["### A. ", "### B. ", "### C. ", "### D. "],
    ),
    ("## Maharajiad I rules", &["### A. ", "### B. "]),
    ("## Agora Birthday Tournament 2020", &[]),
];

/// How the "Enforced by" cell of a row begins.
const ENFORCED: &str = "**Enforced**";
const NO_TEST_YET: &str = "**Enforced, no test yet**";
const PARTLY: &str = "**Partly**";
const NOT_ENFORCED: &str = "**Not enforced**";
const NOT_A_RULE: &str = "Not a rule";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn doc() -> String {
    let path = root().join(DOC);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A test named on the page: (file, function).
type TestRef = (String, String);

/// `path/to/file.rs::name` as a test reference; None if the span is no such reference.
fn test_ref(span: &str) -> Option<TestRef> {
    let (path, name) = span.split_once("::")?;
    let ident = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let file = path.ends_with(".rs")
        && !path.starts_with('/')
        && !path.split('/').any(|part| part.is_empty() || part == "..")
        && !path.contains(char::is_whitespace);
    (ident && file).then(|| (path.to_string(), name.to_string()))
}

/// Every code span that looks like a test reference (it holds `.rs::`), each parsed or, if it
/// is malformed, its text.
fn references(text: &str) -> Vec<Result<TestRef, String>> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| span.contains(".rs::"))
        .map(|span| test_ref(span).ok_or_else(|| span.to_string()))
        .collect()
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Does `source` define the test `name`: `fn name(` (possibly `pub`, `async`) with `#[test]` or
/// `#[tokio::test...]` among the attributes right above it?
fn has_test_fn(source: &str, name: &str) -> bool {
    let needle = format!("fn {name}(");
    let lines: Vec<&str> = source.lines().collect();
    lines.iter().enumerate().any(|(i, line)| {
        let mut head = line.trim_start();
        for prefix in ["pub ", "async "] {
            head = head.strip_prefix(prefix).unwrap_or(head);
        }
        if !head.starts_with(&needle) {
            return false;
        }
        lines[..i]
            .iter()
            .rev()
            .map(|l| l.trim())
            .take_while(|l| l.is_empty() || l.starts_with("//") || l.starts_with("#["))
            .any(|l| l.starts_with("#[test]") || l.starts_with("#[tokio::test"))
    })
}

/// Is `name` handed to a macro of `source` that defines `#[test] fn $...` functions, as in
/// `section!(section_6a, section_6b, ...)` in `tests/datc.rs`?
fn has_macro_test(source: &str, name: &str) -> bool {
    source
        .split("macro_rules!")
        .skip(1)
        .filter(|def| {
            // The definition runs to the first line that closes it at the left margin.
            let body = def.split("\n}").next().unwrap_or(def);
            body.contains("#[test] fn $")
        })
        .filter_map(|def| {
            let macro_name: String = def
                .trim_start()
                .chars()
                .take_while(|c| is_ident_char(*c))
                .collect();
            (!macro_name.is_empty()).then(|| format!("{macro_name}!("))
        })
        .any(|call| {
            source.match_indices(&call).any(|(at, _)| {
                let args = &source[at + call.len()..];
                let args = args.split(')').next().unwrap_or("");
                args.split(',').any(|a| a.trim() == name)
            })
        })
}

/// The cells of a table row, split on the pipes that are not escaped (`\|`).
fn cells(row: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut escaped = false;
    for c in row.trim().chars() {
        if c == '|' && !escaped {
            out.push(cell.trim().to_string());
            cell.clear();
        } else {
            cell.push(c);
        }
        escaped = c == '\\';
    }
    out.push(cell.trim().to_string());
    // "| a | b |" splits into "", "a", "b", "".
    if out.len() >= 2 && out[0].is_empty() && out[out.len() - 1].is_empty() {
        out[1..out.len() - 1].to_vec()
    } else {
        out
    }
}

/// The data rows of the page's tables (not their header or separator lines), with their line
/// numbers.
fn rows(text: &str) -> Vec<(usize, Vec<String>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with('|'))
        .filter(|(_, l)| !l.starts_with("| Clause |") && !l.starts_with("|---"))
        .map(|(i, l)| (i + 1, cells(l)))
        .collect()
}

#[test]
fn every_test_the_page_names_exists() {
    let text = doc();
    let mut sources: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut found: BTreeSet<TestRef> = BTreeSet::new();
    let mut failures: BTreeSet<String> = BTreeSet::new();
    for r in references(&text) {
        let (path, name) = match r {
            Ok(t) => t,
            Err(span) => {
                failures.insert(format!(
                    "`{span}` is not a test reference (path/to/file.rs::test_name)"
                ));
                continue;
            }
        };
        let source = sources
            .entry(path.clone())
            .or_insert_with(|| std::fs::read_to_string(root().join(&path)).ok());
        let missing = match source {
            None => Some(format!("{path}::{name}: there is no file {path}")),
            Some(s) if has_test_fn(s, &name) || has_macro_test(s, &name) => None,
            Some(_) => Some(format!("{path}::{name}: {path} has no test {name}")),
        };
        failures.extend(missing);
        found.insert((path, name));
    }
    assert!(
        failures.is_empty(),
        "{DOC} names tests that do not exist:\n{}",
        failures.into_iter().collect::<Vec<_>>().join("\n")
    );
    assert!(
        found.len() >= MIN_TESTS,
        "{DOC} names only {} tests (at least {MIN_TESTS} expected)",
        found.len()
    );
}

#[test]
fn every_rulebook_has_its_section() {
    let text = doc();
    let lines: Vec<&str> = text.lines().collect();
    for (heading, subsections) in SECTIONS {
        let start = lines
            .iter()
            .position(|l| l == heading)
            .unwrap_or_else(|| panic!("{DOC} has no section {heading:?}"));
        let body: Vec<&str> = lines[start + 1..]
            .iter()
            .take_while(|l| !l.starts_with("## "))
            .copied()
            .collect();
        let table_rows = rows(&body.join("\n")).len();
        assert!(table_rows > 0, "{heading}: no clause rows");
        for sub in *subsections {
            assert!(
                body.iter().any(|l| l.starts_with(sub)),
                "{heading}: no subsection {sub:?}"
            );
        }
    }
    // The Agora regulations are numbered BT0 to BT25: each has its row.
    let clauses: BTreeSet<String> = rows(&text)
        .into_iter()
        .filter_map(|(_, c)| c.first().cloned())
        .collect();
    for n in 0..=25 {
        assert!(
            clauses.contains(&format!("BT{n}")),
            "{DOC}: no row for BT{n}"
        );
    }
}

#[test]
fn every_row_has_a_status_and_tests_to_match() {
    let text = doc();
    let mut failures = Vec::new();
    let all = rows(&text);
    assert!(!all.is_empty(), "{DOC} has no table rows");
    for (line, c) in all {
        let [clause, says, enforced, tests] = c.as_slice() else {
            failures.push(format!(
                "line {line}: {} cells, not 4 (Clause, What it says, Enforced by, Test)",
                c.len()
            ));
            continue;
        };
        if clause.is_empty() || says.is_empty() {
            failures.push(format!("line {line}: the clause or what it says is empty"));
        }
        let named: Vec<&str> = if tests == "–" {
            Vec::new()
        } else {
            tests
                .split("<br>")
                .flat_map(|t| t.split(", "))
                .map(str::trim)
                .collect()
        };
        for t in &named {
            let plain = t.strip_prefix('`').and_then(|t| t.strip_suffix('`'));
            if plain.and_then(test_ref).is_none() {
                failures.push(format!(
                    "line {line} ({clause}): {t:?} in the Test column is not a test reference"
                ));
            }
        }
        let status = [NO_TEST_YET, ENFORCED, PARTLY, NOT_ENFORCED, NOT_A_RULE]
            .into_iter()
            .find(|s| enforced.starts_with(s));
        match status {
            None => failures.push(format!(
                "line {line} ({clause}): \"Enforced by\" does not start with a status"
            )),
            Some(ENFORCED) if named.is_empty() => failures.push(format!(
                "line {line} ({clause}): enforced, but no test is named (say \"{NO_TEST_YET}\")"
            )),
            Some(s) if s != ENFORCED && s != PARTLY && !named.is_empty() => {
                failures.push(format!("line {line} ({clause}): {s}, but a test is named"));
            }
            Some(_) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{DOC} has rows to fix:\n{}",
        failures.join("\n")
    );
}
