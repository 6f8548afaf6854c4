//! Nomic 101, 110, 201, 211 on the 2019 game's own file, which lies beside the repository
//! (`../shared/rules/`) and is not copied in: `scripts/test` runs this with `--ignored` where it
//! is present.

use chancery_nomic::circuit::Seats;
use chancery_nomic::rules::{
    Found, MAX_MUTABLE_211, Reference, check_211, mutable_count, read_links, references_to,
};
use chancery_nomic::uk_time::Weekday;
use chancery_office::ballot::VoterId;
use chancery_office::ruleset::{RuleSet, read_initial_set};
use std::path::Path;

const FILE: &str = "../../../shared/rules/nomic-initial-rules-2019.json";

#[test]
#[ignore = "reads ../shared/rules/ beside the repository, which a clean clone lacks; scripts/test runs it with --ignored where the file is present"]
fn nomic_101_110_201_211_the_initial_rules_from_the_real_file() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let set = read_initial_set(&json).expect("reads");
    let rules = RuleSet::from_initial(&set, 1_549_843_200).expect("enacts");
    // Nomic 211: the Initial Set's 15 mutable rules.
    assert_eq!(mutable_count(rules.current()), 15);
    assert_eq!(check_211(rules.current(), MAX_MUTABLE_211), Ok(()));
    // Nomic 201: the days, as the rule gives them.
    let seats = Seats::from_rule_201(&rules.current()[&201].text).expect("rule 201's days");
    assert_eq!(seats.seats().len(), 5);
    assert_eq!(
        seats.day_of(&VoterId::new("Ben P")),
        Some(Weekday::Wednesday)
    );
    assert_eq!(
        seats.player_on(Weekday::Friday),
        Some(&VoterId::new("Alex W"))
    );
    // Nomic 110: the file's links by rule number; renumbering 109 or 214 finds what refers to it.
    let links = read_links(&json).expect("links");
    assert!(links.of(109).is_some_and(|l| l.contains(&110)));
    let to_109 = references_to(rules.current(), &links, 109);
    assert!(
        to_109.contains(&Reference {
            rule: 110,
            found: Found::Both
        }),
        "{to_109:?}"
    );
    let to_214 = references_to(rules.current(), &links, 214);
    assert!(
        to_214
            .iter()
            .any(|r| r.rule == 206 && r.found == Found::Both),
        "{to_214:?}"
    );
    assert!(to_214.iter().any(|r| r.rule == 201), "{to_214:?}");
}
