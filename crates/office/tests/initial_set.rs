//! Suber's Initial Set as the 2019 game edited it, read from the rulebook's own file.
//!
//! The rulebooks lie beside the repository (`../shared/rules/`, as docs/rules-traceability.md
//! names them) and are not copied in: no licence is given next to this one. `scripts/test` runs
//! this test with `--ignored` where the file is present.

use chancery_office::ruleset::{Mutability, RuleSet, read_initial_set};
use std::path::Path;

const FILE: &str = "../../../shared/rules/nomic-initial-rules-2019.json";

#[test]
#[ignore = "reads ../shared/rules/ beside the repository, which a clean clone lacks; scripts/test runs it with --ignored where the file is present"]
fn nomic_101_102_the_initial_set_loads_from_the_real_file() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let set = read_initial_set(&json).expect("reads");
    assert_eq!(set.date, "2019-02-11");
    assert_eq!(set.author, "Ben");
    // Rule 101: "The Initial Set consists of Rules 101-118 (immutable) and 201-215
    // (mutable)"; rule 102: the 100s immutable, the 200s mutable.
    let numbers: Vec<u32> = set.rules.iter().map(|r| r.number).collect();
    let expected: Vec<u32> = (101..=118).chain(201..=215).collect();
    assert_eq!(numbers, expected);
    for r in &set.rules {
        assert_eq!(
            r.mutability == Mutability::Immutable,
            r.number < 200,
            "rule {}",
            r.number
        );
        assert!(!r.text.is_empty(), "rule {} has text", r.number);
    }
    let start = 1_549_843_200; // 2019-02-11T00:00:00Z
    let rules = RuleSet::from_initial(&set, start).expect("it enacts");
    let r109 = &rules.current()[&109];
    assert_eq!(r109.text.len(), 2, "two paragraphs");
    assert!(
        r109.text[0].starts_with("Each proposed rule-change shall be given a number"),
        "{:?}",
        r109.text
    );
    assert!(rules.current()[&208].text[0].contains("exactly one vote"));
    assert_eq!(rules.as_of(start).len(), 33);
}
