//! A rule set as versioned text: the Nomic's rules (Suber's Initial Set and every rule-change
//! after it), the Agora Birthday Tournament's regulations (BT8: a proposal passes by
//! "publishing the new text of the regulations").
//!
//! Rules are numbered, each with its text (paragraphs) and whether it is mutable (Suber's rule
//! 102; a kind of game without the distinction makes every rule mutable). Every change (an
//! enactment, an amendment, a repeal, a renumbering, a transmutation) is a dated [`Revision`],
//! kept in order; the rule set can be read as it stood at any moment ([`RuleSet::as_of`]), the
//! moment passed in. A change is checked against the rules as they stand before it is kept, so
//! a kept history always replays.

use crate::Ts;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

/// Whether a rule may be amended or repealed: Suber's rules 102 ("Initially rules in the 100's
/// are immutable and rules in the 200's are mutable"), 103 (a rule-change amends or repeals a
/// mutable rule, or transmutes one), 112 (in a conflict the immutable rule takes precedence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutability {
    Mutable,
    Immutable,
}

/// One rule as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub number: u32,
    /// Its paragraphs, as enacted.
    pub text: Vec<String>,
    pub mutability: Mutability,
}

/// One change to a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A new rule under a number no rule holds (Suber's rule 103(1), "the enactment ... of a
    /// mutable rule"; rule 102: an enacted rule "may be immutable or mutable regardless of
    /// [its number]").
    Enact {
        number: u32,
        text: Vec<String>,
        mutability: Mutability,
    },
    /// New text for a mutable rule (Suber's rule 103(1)-(2): an amendment, or an amendment of
    /// an amendment; Agora BT8: "the new text of the regulations").
    Amend { number: u32, text: Vec<String> },
    /// A mutable rule repealed (Suber's rule 103(1)).
    Repeal { number: u32 },
    /// A rule moved to a number no rule holds (Suber's rule 109: "If a rule is amended or
    /// transmuted, it receives the number of the proposal to amend or transmute it"; rule 110:
    /// references to it change with it).
    Renumber { from: u32, to: u32 },
    /// A rule made mutable or immutable (Suber's rules 103(3), 111: "Transmutation shall not be
    /// implied, but must be stated explicitly in a proposal").
    Transmute { number: u32, to: Mutability },
}

/// One change as kept: when it took effect, and the proposal that made it, if any (the Initial
/// Set has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Revision {
    /// 1 for the first revision of the rule set, then each next one.
    pub seq: u32,
    /// When it took effect (Suber's rule 206: "at the moment of the completion of the vote that
    /// adopted it").
    pub at: Ts,
    pub change: Change,
    pub proposal: Option<u32>,
}

/// Why a change cannot be made; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChangeError {
    /// No rule has that number.
    NoSuchRule(u32),
    /// A rule has that number already.
    NumberTaken(u32),
    /// Suber's rule 103: only a mutable rule is amended or repealed; an immutable one must be
    /// transmuted first (rule 111).
    Immutable(u32),
    /// The rule is already what the transmutation would make it, or a renumbering keeps its
    /// number.
    NothingChanges(u32),
    /// A rule has no text.
    NoText(u32),
    /// Suber's rule 108: "No rule-change may have retroactive application": a change takes
    /// effect no earlier than the last one kept.
    Retroactive { at: Ts, last: Ts },
    /// A kept history out of sequence (a revision missing or twice).
    Sequence { expected: u32, found: u32 },
}

impl fmt::Display for ChangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChangeError::NoSuchRule(n) => write!(f, "there is no rule {n}"),
            ChangeError::NumberTaken(n) => write!(f, "rule {n} exists already"),
            ChangeError::Immutable(n) => write!(
                f,
                "rule {n} is immutable: it must be transmuted before it is amended or repealed \
                 (Nomic rules 103, 111)"
            ),
            ChangeError::NothingChanges(n) => write!(f, "the change leaves rule {n} as it is"),
            ChangeError::NoText(n) => write!(f, "rule {n} would have no text"),
            ChangeError::Retroactive { .. } => f.write_str(
                "a rule-change may not take effect before the last one (Nomic rule 108)",
            ),
            ChangeError::Sequence { expected, found } => write!(
                f,
                "the rule set's revisions are out of sequence: {found} where {expected} was due"
            ),
        }
    }
}

impl std::error::Error for ChangeError {}

/// A rule set and its whole history.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSet {
    revisions: Vec<Revision>,
    /// The rules after the last revision.
    current: BTreeMap<u32, Rule>,
}

impl RuleSet {
    /// A rule set with no rule yet.
    pub fn new() -> RuleSet {
        RuleSet::default()
    }

    /// A set of initial rules enacted at `at` (Suber's rule 101: "The rules in the Initial Set
    /// are in effect whenever a game begins": `at` is the game's start).
    pub fn from_initial(set: &InitialSet, at: Ts) -> Result<RuleSet, ChangeError> {
        let mut rules = RuleSet::new();
        for r in &set.rules {
            rules.apply(
                at,
                Change::Enact {
                    number: r.number,
                    text: r.text.clone(),
                    mutability: r.mutability,
                },
                None,
            )?;
        }
        Ok(rules)
    }

    /// A rule set from its kept history, checked again change by change.
    pub fn from_revisions(
        revisions: impl IntoIterator<Item = Revision>,
    ) -> Result<RuleSet, ChangeError> {
        let mut rules = RuleSet::new();
        for r in revisions {
            let expected = rules.next_seq();
            if r.seq != expected {
                return Err(ChangeError::Sequence {
                    expected,
                    found: r.seq,
                });
            }
            rules.apply(r.at, r.change, r.proposal)?;
        }
        Ok(rules)
    }

    /// Make `change` at `at` (by `proposal`, if a proposal made it): the revision kept, or why
    /// the change cannot be made, and nothing changes.
    pub fn apply(
        &mut self,
        at: Ts,
        change: Change,
        proposal: Option<u32>,
    ) -> Result<&Revision, ChangeError> {
        if let Some(last) = self.revisions.last().map(|r| r.at)
            && at < last
        {
            return Err(ChangeError::Retroactive { at, last });
        }
        step(&mut self.current, &change)?;
        let seq = self.next_seq();
        self.revisions.push(Revision {
            seq,
            at,
            change,
            proposal,
        });
        Ok(&self.revisions[self.revisions.len() - 1])
    }

    /// Every revision, oldest first.
    pub fn revisions(&self) -> &[Revision] {
        &self.revisions
    }

    /// The rules as they stand now (after the last revision), by number.
    pub fn current(&self) -> &BTreeMap<u32, Rule> {
        &self.current
    }

    /// The rules as they stood at `at`: every revision that took effect at or before it.
    pub fn as_of(&self, at: Ts) -> BTreeMap<u32, Rule> {
        let mut rules = BTreeMap::new();
        for r in self.revisions.iter().take_while(|r| r.at <= at) {
            // Each kept revision was checked against exactly these rules when it was made
            // (`apply`), so it applies again.
            let _ = step(&mut rules, &r.change);
        }
        rules
    }

    fn next_seq(&self) -> u32 {
        u32::try_from(self.revisions.len()).map_or(u32::MAX, |n| n.saturating_add(1))
    }
}

/// One change made to `rules`, or why it cannot be (and `rules` is as it was).
fn step(rules: &mut BTreeMap<u32, Rule>, change: &Change) -> Result<(), ChangeError> {
    let mutable = |rules: &BTreeMap<u32, Rule>, n: u32| match rules.get(&n) {
        None => Err(ChangeError::NoSuchRule(n)),
        Some(r) if r.mutability == Mutability::Immutable => Err(ChangeError::Immutable(n)),
        Some(_) => Ok(()),
    };
    let has_text = |n: u32, text: &[String]| {
        if text.iter().all(|p| p.trim().is_empty()) {
            Err(ChangeError::NoText(n))
        } else {
            Ok(())
        }
    };
    match change {
        Change::Enact {
            number,
            text,
            mutability,
        } => {
            if rules.contains_key(number) {
                return Err(ChangeError::NumberTaken(*number));
            }
            has_text(*number, text)?;
            rules.insert(
                *number,
                Rule {
                    number: *number,
                    text: text.clone(),
                    mutability: *mutability,
                },
            );
        }
        Change::Amend { number, text } => {
            mutable(rules, *number)?;
            has_text(*number, text)?;
            if let Some(r) = rules.get_mut(number) {
                r.text = text.clone();
            }
        }
        Change::Repeal { number } => {
            mutable(rules, *number)?;
            rules.remove(number);
        }
        Change::Renumber { from, to } => {
            if from == to {
                return Err(ChangeError::NothingChanges(*from));
            }
            if rules.contains_key(to) {
                return Err(ChangeError::NumberTaken(*to));
            }
            let mut rule = rules.remove(from).ok_or(ChangeError::NoSuchRule(*from))?;
            rule.number = *to;
            rules.insert(*to, rule);
        }
        Change::Transmute { number, to } => {
            let rule = rules
                .get_mut(number)
                .ok_or(ChangeError::NoSuchRule(*number))?;
            if rule.mutability == *to {
                return Err(ChangeError::NothingChanges(*number));
            }
            rule.mutability = *to;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// An initial rule set from its JSON file.

/// A rule set as its JSON file gives it (`../shared/rules/nomic-initial-rules-2019.json`):
/// `{"rules": {key: {"text": [paragraph, ...], "label": "101[I]", "ineffect": "1", ...}},
/// "date": "2019-02-11", "author": "..."}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitialSet {
    /// The file's date, as written (`2019-02-11`).
    pub date: String,
    pub author: String,
    /// The rules in effect, by number.
    pub rules: Vec<Rule>,
}

/// Why a rule set's file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// It is not the JSON the format says.
    Json(String),
    /// A rule's number (its `label`, or its key without one) is not a number, with `[I]` after
    /// it for an immutable rule.
    Label { key: String, label: String },
    /// A rule's `ineffect` is neither `"1"` nor `"0"`.
    InEffect { key: String, value: String },
    /// Two rules in effect have one number.
    Duplicate(u32),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Json(e) => write!(f, "not a rule set's JSON: {e}"),
            LoadError::Label { key, label } => write!(
                f,
                "rule {key}: \"{label}\" is no rule number (a number, then [I] if immutable)"
            ),
            LoadError::InEffect { key, value } => {
                write!(f, "rule {key}: ineffect is \"{value}\", not \"1\" or \"0\"")
            }
            LoadError::Duplicate(n) => write!(f, "two rules in effect are numbered {n}"),
        }
    }
}

impl std::error::Error for LoadError {}

#[derive(Deserialize)]
struct FileIn {
    rules: BTreeMap<String, RuleIn>,
    date: String,
    author: String,
}

/// One rule of the file. Its other fields (`notes`, the editor's commentary; `linksto`,
/// `proplinks`, cross-references; `date`) are not rule text and are not kept.
#[derive(Deserialize)]
struct RuleIn {
    text: Vec<String>,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    ineffect: Option<String>,
}

/// A rule's number and mutability from its label: `101[I]` is rule 101, immutable (Suber's
/// rule 102: the Initial Set's 100s); `201` is rule 201, mutable.
fn number_of(label: &str) -> Option<(u32, Mutability)> {
    let label = label.trim();
    let (digits, mutability) = match label.strip_suffix("[I]") {
        Some(d) => (d, Mutability::Immutable),
        None => (label, Mutability::Mutable),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().map(|n| (n, mutability))
}

/// Read a rule set's JSON file. A rule's number is its `label` (its key when it has none, as
/// in `{"rules": {"101": {"text": [...]}}}`); a rule whose `ineffect` is `"0"` is left out.
pub fn read_initial_set(json: &str) -> Result<InitialSet, LoadError> {
    let file: FileIn = serde_json::from_str(json).map_err(|e| LoadError::Json(e.to_string()))?;
    let mut rules: BTreeMap<u32, Rule> = BTreeMap::new();
    for (key, r) in file.rules {
        match r.ineffect.as_deref().map(str::trim) {
            None | Some("1") => {}
            Some("0") => continue,
            Some(other) => {
                return Err(LoadError::InEffect {
                    key,
                    value: other.to_string(),
                });
            }
        }
        let label = r.label.unwrap_or_else(|| key.clone());
        let Some((number, mutability)) = number_of(&label) else {
            return Err(LoadError::Label { key, label });
        };
        let rule = Rule {
            number,
            text: r.text,
            mutability,
        };
        if rules.insert(number, rule).is_some() {
            return Err(LoadError::Duplicate(number));
        }
    }
    Ok(InitialSet {
        date: file.date,
        author: file.author,
        rules: rules.into_values().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule set in the format of the Nomic rulebook's JSON file (internal keys, the number and
    /// `[I]` for immutable in `label`, `ineffect`, `notes`), with Suber's numbering (101-118
    /// immutable, 201-215 mutable) and placeholder texts: the real file lies beside the
    /// repository and is not copied in (no licence is given next to it), so it is read by
    /// `tests/initial_set.rs` where it is present.
    fn initial_json() -> String {
        let mut rules = Vec::new();
        let numbers = (101..=118)
            .map(|n| (n, "[I]"))
            .chain((201..=215).map(|n| (n, "")));
        for (i, (n, flag)) in numbers.enumerate() {
            rules.push(format!(
                r#""{}": {{"label": "{n}{flag}", "text": ["Rule {n}, first paragraph.", "Rule {n}, second."], "ineffect": "1", "notes": []}}"#,
                i + 1
            ));
        }
        // A rule no longer in effect is left out.
        rules.push(r#""99": {"label": "216", "text": ["Repealed."], "ineffect": "0"}"#.into());
        format!(
            r#"{{"rules": {{{}}}, "date": "2019-02-11", "author": "fixture"}}"#,
            rules.join(", ")
        )
    }

    const START: Ts = 1_549_843_200; // 2019-02-11T00:00:00Z
    const DAY: Ts = 86_400;

    fn nomic() -> RuleSet {
        let set = read_initial_set(&initial_json()).expect("the Initial Set reads");
        RuleSet::from_initial(&set, START).expect("it enacts")
    }

    fn text(s: &str) -> Vec<String> {
        vec![s.to_string()]
    }

    #[test]
    fn nomic_101_102_an_initial_set_loads_numbered_by_label_immutable_by_flag() {
        let set = read_initial_set(&initial_json()).expect("reads");
        assert_eq!(
            (set.date.as_str(), set.author.as_str()),
            ("2019-02-11", "fixture")
        );
        // Rule 101: the Initial Set is Rules 101-118 (immutable) and 201-215 (mutable); the
        // rule no longer in effect (216) is left out.
        let numbers: Vec<u32> = set.rules.iter().map(|r| r.number).collect();
        let expected: Vec<u32> = (101..=118).chain(201..=215).collect();
        assert_eq!(numbers, expected);
        for r in &set.rules {
            let immutable = r.number < 200;
            assert_eq!(
                r.mutability == Mutability::Immutable,
                immutable,
                "rule {}",
                r.number
            );
            assert_eq!(r.text.len(), 2, "rule {} keeps its paragraphs", r.number);
        }
        let rules = nomic();
        assert_eq!(rules.revisions().len(), 33);
        assert!(
            rules
                .revisions()
                .iter()
                .all(|r| r.at == START && r.proposal.is_none())
        );
        assert!(rules.as_of(START - 1).is_empty(), "before the game begins");
        assert_eq!(rules.as_of(START).len(), 33);
    }

    #[test]
    fn nomic_109_an_amended_rule_takes_the_number_of_the_proposal_that_amended_it() {
        let mut rules = nomic();
        let adopted = START + 2 * DAY;
        let before = rules.current()[&203].text.clone();
        // Proposal 301 amends rule 203; rule 109 renumbers it 301, at the same moment.
        rules
            .apply(
                adopted,
                Change::Amend {
                    number: 203,
                    text: text("Points: 10 a proposal."),
                },
                Some(301),
            )
            .expect("203 is mutable");
        let r = rules
            .apply(adopted, Change::Renumber { from: 203, to: 301 }, Some(301))
            .expect("301 is free");
        assert_eq!((r.seq, r.at, r.proposal), (35, adopted, Some(301)));
        let now = rules.as_of(adopted);
        assert!(!now.contains_key(&203));
        assert_eq!(now[&301].text, text("Points: 10 a proposal."));
        assert_eq!(now[&301].mutability, Mutability::Mutable);
        // As of the day before, the rule stood as enacted.
        let then = rules.as_of(adopted - 1);
        assert_eq!(then[&203].text, before);
        assert!(!then.contains_key(&301));
        // "If a rule is repealed and reenacted, it receives the number of the proposal to
        // reenact it."
        let later = adopted + DAY;
        rules
            .apply(later, Change::Repeal { number: 301 }, Some(302))
            .expect("repealed");
        rules
            .apply(
                later + DAY,
                Change::Enact {
                    number: 303,
                    text: before.clone(),
                    mutability: Mutability::Mutable,
                },
                Some(303),
            )
            .expect("reenacted");
        assert!(!rules.as_of(later).contains_key(&301));
        assert_eq!(rules.as_of(later + DAY)[&303].text, before);
        assert_eq!(rules.current().len(), 33);
    }

    #[test]
    fn nomic_103_111_an_immutable_rule_is_amended_or_repealed_only_once_transmuted() {
        let mut rules = nomic();
        let at = START + DAY;
        assert_eq!(
            rules
                .apply(
                    at,
                    Change::Amend {
                        number: 101,
                        text: text("Anything goes.")
                    },
                    Some(301)
                )
                .err(),
            Some(ChangeError::Immutable(101))
        );
        assert_eq!(
            rules
                .apply(at, Change::Repeal { number: 116 }, Some(301))
                .err(),
            Some(ChangeError::Immutable(116))
        );
        assert_eq!(rules.revisions().len(), 33, "a refused change is not kept");
        rules
            .apply(
                at,
                Change::Transmute {
                    number: 101,
                    to: Mutability::Mutable,
                },
                Some(301),
            )
            .expect("a transmutation");
        assert_eq!(
            rules
                .apply(
                    at,
                    Change::Transmute {
                        number: 101,
                        to: Mutability::Mutable
                    },
                    Some(302)
                )
                .err(),
            Some(ChangeError::NothingChanges(101))
        );
        rules
            .apply(
                at + 1,
                Change::Amend {
                    number: 101,
                    text: text("Anything goes."),
                },
                Some(302),
            )
            .expect("mutable now");
        assert_eq!(rules.as_of(at)[&101].mutability, Mutability::Mutable);
        assert_eq!(rules.as_of(at - 1)[&101].mutability, Mutability::Immutable);
        assert_eq!(rules.as_of(at + 1)[&101].text, text("Anything goes."));
    }

    #[test]
    fn nomic_108_no_rule_change_is_retroactive() {
        let mut rules = nomic();
        rules
            .apply(START + DAY, Change::Repeal { number: 215 }, Some(301))
            .expect("repealed");
        assert_eq!(
            rules
                .apply(START, Change::Repeal { number: 214 }, Some(302))
                .err(),
            Some(ChangeError::Retroactive {
                at: START,
                last: START + DAY
            })
        );
        assert!(rules.current().contains_key(&214));
    }

    #[test]
    fn changes_to_rules_that_are_not_there_or_numbers_that_are_taken_are_refused() {
        let mut rules = nomic();
        let at = START + DAY;
        let refused = [
            (Change::Repeal { number: 999 }, ChangeError::NoSuchRule(999)),
            (
                Change::Amend {
                    number: 999,
                    text: text("x"),
                },
                ChangeError::NoSuchRule(999),
            ),
            (
                Change::Renumber { from: 999, to: 998 },
                ChangeError::NoSuchRule(999),
            ),
            (
                Change::Renumber { from: 201, to: 202 },
                ChangeError::NumberTaken(202),
            ),
            (
                Change::Renumber { from: 201, to: 201 },
                ChangeError::NothingChanges(201),
            ),
            (
                Change::Enact {
                    number: 201,
                    text: text("x"),
                    mutability: Mutability::Mutable,
                },
                ChangeError::NumberTaken(201),
            ),
            (
                Change::Amend {
                    number: 201,
                    text: vec![" \n".to_string()],
                },
                ChangeError::NoText(201),
            ),
        ];
        for (change, why) in refused {
            assert_eq!(
                rules.apply(at, change.clone(), None).err(),
                Some(why),
                "{change:?}"
            );
        }
        assert_eq!(rules, nomic(), "nothing changed");
    }

    #[test]
    fn a_kept_history_replays_and_one_out_of_sequence_is_refused() {
        let mut rules = nomic();
        rules
            .apply(
                START + DAY,
                Change::Renumber { from: 215, to: 301 },
                Some(301),
            )
            .expect("renumbered");
        let replayed =
            RuleSet::from_revisions(rules.revisions().to_vec()).expect("the history replays");
        assert_eq!(replayed, rules);
        let mut gap = rules.revisions().to_vec();
        gap.remove(3);
        assert_eq!(
            RuleSet::from_revisions(gap).err(),
            Some(ChangeError::Sequence {
                expected: 4,
                found: 5
            })
        );
        // A history whose change no longer applies (edited by hand) is refused, not half read.
        let mut edited = rules.revisions().to_vec();
        if let Some(last) = edited.last_mut() {
            last.change = Change::Renumber { from: 999, to: 301 };
        }
        assert_eq!(
            RuleSet::from_revisions(edited).err(),
            Some(ChangeError::NoSuchRule(999))
        );
    }

    #[test]
    fn a_rule_set_file_is_read_or_refused_with_the_reason() {
        let set = read_initial_set(
            r#"{"rules": {"301": {"text": ["Be nice."]}, "101": {"text": ["Obey."], "label": "101[I]"},
               "7": {"text": ["Gone."], "label": "117[I]", "ineffect": "0"}},
               "date": "2020-01-01", "author": "Ann"}"#,
        )
        .expect("keys as numbers, and labels");
        assert_eq!(
            set.rules,
            vec![
                Rule {
                    number: 101,
                    text: text("Obey."),
                    mutability: Mutability::Immutable
                },
                Rule {
                    number: 301,
                    text: text("Be nice."),
                    mutability: Mutability::Mutable
                },
            ]
        );
        let bad = |json: &str| read_initial_set(json).expect_err("refused");
        assert!(matches!(bad("[]"), LoadError::Json(_)));
        assert_eq!(
            bad(
                r#"{"rules": {"a": {"text": ["x"], "label": "10x[I]"}}, "date": "", "author": ""}"#
            ),
            LoadError::Label {
                key: "a".into(),
                label: "10x[I]".into()
            }
        );
        assert_eq!(
            bad(r#"{"rules": {"a": {"text": ["x"], "label": "-1"}}, "date": "", "author": ""}"#),
            LoadError::Label {
                key: "a".into(),
                label: "-1".into()
            }
        );
        assert_eq!(
            bad(
                r#"{"rules": {"a": {"text": ["x"], "label": "1", "ineffect": "yes"}}, "date": "", "author": ""}"#
            ),
            LoadError::InEffect {
                key: "a".into(),
                value: "yes".into()
            }
        );
        assert_eq!(
            bad(
                r#"{"rules": {"a": {"text": ["x"], "label": "1"}, "b": {"text": ["y"], "label": "1[I]"}}, "date": "", "author": ""}"#
            ),
            LoadError::Duplicate(1)
        );
        let empty = read_initial_set(r#"{"rules": {"1": {"text": []}}, "date": "", "author": ""}"#)
            .expect("reads");
        assert_eq!(
            RuleSet::from_initial(&empty, START).err(),
            Some(ChangeError::NoText(1))
        );
    }
}
