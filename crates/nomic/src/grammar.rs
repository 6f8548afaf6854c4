//! Nomic 107: "A rule-change is proposed by submitting it in text form preceded by the words
//! 'Rule-change:'". By mail, the line `Rule-change:` and what follows it, read as one of:
//!
//! - `enact N "text"`: a new rule (Nomic 103(1); new rules are mutable, rule 103's note);
//! - `amend N "text"`: rule N's new text (Nomic 103(1)-(2));
//! - `repeal N` (Nomic 103(1));
//! - `transmute N`: rule N made mutable if immutable, or immutable if mutable (Nomic 103(3);
//!   Nomic 111: "Transmutation shall not be implied, but must be stated explicitly");
//! - `renumber N M` (Nomic 110);
//! - `set <parameter> <value>`: one of the game's numbers ([`Parameter`]);
//! - anything else, or one of the above not in its exact form, is free text: Nomic 107, "The
//!   proposer decides the form of the proposal", and the game's master reads it.
//!
//! The words are read in any case; the text is between straight or curly double quotes.

use std::fmt;

/// One of the game's numbers a `set` changes, each naming the rule that holds it. Stored as
/// JSON with a proposal (its `set` word, e.g. `"winning-score"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Parameter {
    /// Nomic 210: the points that win (200).
    WinningScore,
    /// Nomic 207: the points a defeated proposal's proposer loses (10).
    DefeatPenalty,
    /// Nomic 205: the points each player who voted against an adopted proposal gains (10).
    DissentBonus,
    /// Nomic 202: the UK time of day before which a proposal is proper (19:00), in minutes.
    ProposalDeadline,
    /// Nomic 211: the most mutable rules there may be (25).
    MaxMutableRules,
    /// Nomic 203: the least a proposal's full points can be, the 10 of `max(10, R-290)`.
    PointsFloor,
    /// Nomic 203: what is taken from the highest rule's number, the 290 of `max(10, R-290)`.
    PointsOffset,
    /// Nomic 204: the complete circuits of turns after which a simple majority adopts (2).
    CircuitsToMajority,
    /// Nomic 214: the minutes after a Judgement in which it may be disputed (60).
    DisputeMinutes,
    /// Nomic 214: the minutes after a dispute in which players agree or disagree (60).
    OpinionMinutes,
    /// Nomic 214: the most active Points of Order one player may have (3).
    MaxOpenPointsOfOrder,
}

impl Parameter {
    /// The parameter's word in a `set` line.
    pub fn word(self) -> &'static str {
        match self {
            Parameter::WinningScore => "winning-score",
            Parameter::DefeatPenalty => "defeat-penalty",
            Parameter::DissentBonus => "dissent-bonus",
            Parameter::ProposalDeadline => "proposal-deadline",
            Parameter::MaxMutableRules => "max-mutable-rules",
            Parameter::PointsFloor => "points-floor",
            Parameter::PointsOffset => "points-offset",
            Parameter::CircuitsToMajority => "circuits-to-majority",
            Parameter::DisputeMinutes => "dispute-minutes",
            Parameter::OpinionMinutes => "opinion-minutes",
            Parameter::MaxOpenPointsOfOrder => "max-open-points-of-order",
        }
    }

    /// The rule of the 2019 Initial Set that holds the number.
    pub fn rule(self) -> u32 {
        match self {
            Parameter::WinningScore => 210,
            Parameter::DefeatPenalty => 207,
            Parameter::DissentBonus => 205,
            Parameter::ProposalDeadline => 202,
            Parameter::MaxMutableRules => 211,
            Parameter::PointsFloor | Parameter::PointsOffset => 203,
            Parameter::CircuitsToMajority => 204,
            Parameter::DisputeMinutes
            | Parameter::OpinionMinutes
            | Parameter::MaxOpenPointsOfOrder => 214,
        }
    }

    const ALL: [Parameter; 11] = [
        Parameter::WinningScore,
        Parameter::DefeatPenalty,
        Parameter::DissentBonus,
        Parameter::ProposalDeadline,
        Parameter::MaxMutableRules,
        Parameter::PointsFloor,
        Parameter::PointsOffset,
        Parameter::CircuitsToMajority,
        Parameter::DisputeMinutes,
        Parameter::OpinionMinutes,
        Parameter::MaxOpenPointsOfOrder,
    ];

    /// Every parameter a `set` may change (for a mail that lists them, and for the tests that
    /// each is read, stored and enforced).
    pub fn all() -> &'static [Parameter] {
        &Parameter::ALL
    }

    fn parse(word: &str) -> Option<Parameter> {
        Parameter::ALL
            .into_iter()
            .find(|p| p.word().eq_ignore_ascii_case(word))
    }

    /// The value as written: a number, or `HH:MM` for the deadline (in minutes).
    fn value(self, s: &str) -> Option<u32> {
        match self {
            Parameter::ProposalDeadline => {
                let (h, m) = s.split_once(':')?;
                let two = m.trim().len() == 2;
                let (h, m): (u32, u32) = (digits(h)?, digits(m)?);
                (two && h < 24 && m < 60).then_some(h * 60 + m)
            }
            _ => digits(s),
        }
    }
}

impl fmt::Display for Parameter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (Nomic {})", self.word(), self.rule())
    }
}

/// A proposed rule-change as read from its line. Stored as JSON with its proposal (the server
/// keeps a proposal's change until the vote completes, Nomic 206).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleChange {
    Enact {
        number: u32,
        text: String,
    },
    Amend {
        number: u32,
        text: String,
    },
    Repeal {
        number: u32,
    },
    Transmute {
        number: u32,
    },
    Renumber {
        from: u32,
        to: u32,
    },
    Set {
        parameter: Parameter,
        value: u32,
    },
    /// Nomic 107: the proposer's own words, for the game's master.
    FreeText(String),
}

/// A number of plain digits (no sign), small enough.
fn digits(s: &str) -> Option<u32> {
    let s = s.trim();
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The text between the first and the last double quote (straight or curly), with nothing
/// outside them; none if empty.
fn quoted(s: &str) -> Option<String> {
    let s = s.trim();
    let inner = s
        .strip_prefix(['"', '\u{201c}'])?
        .strip_suffix(['"', '\u{201d}'])?;
    let inner = inner.trim();
    (!inner.is_empty()).then(|| inner.to_string())
}

/// Nomic 107: the rule-change of a line beginning `Rule-change:` (in any case); none if the line
/// does not begin so.
pub fn read_rule_change_line(line: &str) -> Option<RuleChange> {
    let line = line.trim_start();
    let prefix = "rule-change:";
    let head = line.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| read_rule_change(&line[prefix.len()..]))
}

/// Nomic 107: what follows `Rule-change:`, read; free text unless it is exactly one of the forms.
pub fn read_rule_change(body: &str) -> RuleChange {
    let body = body.trim();
    let free = || RuleChange::FreeText(body.to_string());
    let (verb, rest) = body
        .split_once(char::is_whitespace)
        .map_or((body, ""), |(v, r)| (v, r.trim()));
    let number_then = |rest: &str| {
        let (n, tail) = rest
            .split_once(char::is_whitespace)
            .map_or((rest, ""), |(n, t)| (n, t.trim()));
        digits(n).map(|n| (n, tail.to_string()))
    };
    let read = match verb.to_ascii_lowercase().as_str() {
        "enact" | "amend" => number_then(rest).and_then(|(number, tail)| {
            let text = quoted(&tail)?;
            Some(if verb.eq_ignore_ascii_case("enact") {
                RuleChange::Enact { number, text }
            } else {
                RuleChange::Amend { number, text }
            })
        }),
        "repeal" => digits(rest).map(|number| RuleChange::Repeal { number }),
        "transmute" => digits(rest).map(|number| RuleChange::Transmute { number }),
        "renumber" => number_then(rest).and_then(|(from, tail)| {
            let to = digits(&tail)?;
            Some(RuleChange::Renumber { from, to })
        }),
        "set" => rest.split_once(char::is_whitespace).and_then(|(p, v)| {
            let parameter = Parameter::parse(p)?;
            let value = parameter.value(v.trim())?;
            Some(RuleChange::Set { parameter, value })
        }),
        _ => None,
    };
    read.unwrap_or_else(free)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Option<RuleChange> {
        read_rule_change_line(s)
    }

    #[test]
    fn nomic_107_103_each_form_of_a_rule_change() {
        assert_eq!(
            read(r#"Rule-change: enact 301 "Players may pass.""#),
            Some(RuleChange::Enact {
                number: 301,
                text: "Players may pass.".into()
            })
        );
        assert_eq!(
            read("rule-change:  AMEND 203 \u{201c}Ten points a proposal.\u{201d}"),
            Some(RuleChange::Amend {
                number: 203,
                text: "Ten points a proposal.".into()
            })
        );
        assert_eq!(
            read("Rule-change: repeal 215"),
            Some(RuleChange::Repeal { number: 215 })
        );
        assert_eq!(
            read("Rule-Change: renumber 203 310"),
            Some(RuleChange::Renumber { from: 203, to: 310 })
        );
    }

    #[test]
    fn nomic_111_a_transmutation_is_stated_explicitly() {
        assert_eq!(
            read("Rule-change: transmute 101"),
            Some(RuleChange::Transmute { number: 101 })
        );
        // Said in other words, it is free text: no transmutation is implied.
        assert_eq!(
            read("Rule-change: make 101 mutable"),
            Some(RuleChange::FreeText("make 101 mutable".into()))
        );
    }

    #[test]
    fn nomic_202_205_207_210_211_set_a_parameter() {
        let set = |parameter, value| Some(RuleChange::Set { parameter, value });
        assert_eq!(
            read("Rule-change: set winning-score 150"),
            set(Parameter::WinningScore, 150)
        );
        assert_eq!(
            read("Rule-change: set Proposal-Deadline 18:30"),
            set(Parameter::ProposalDeadline, 18 * 60 + 30)
        );
        assert_eq!(
            read("Rule-change: set max-mutable-rules 30"),
            set(Parameter::MaxMutableRules, 30)
        );
        assert_eq!(
            read("Rule-change: set defeat-penalty 5"),
            set(Parameter::DefeatPenalty, 5)
        );
        assert_eq!(
            read("Rule-change: set dissent-bonus 0"),
            set(Parameter::DissentBonus, 0)
        );
        assert_eq!(
            Parameter::WinningScore.to_string(),
            "winning-score (Nomic 210)"
        );
        assert_eq!(
            read("Rule-change: set points-floor 12"),
            set(Parameter::PointsFloor, 12)
        );
        assert_eq!(
            read("Rule-change: set POINTS-OFFSET 280"),
            set(Parameter::PointsOffset, 280)
        );
        for bad in [
            "set proposal-deadline 25:00",
            "set proposal-deadline 19",
            "set winning-score -5",
            "set colour blue",
            "set winning-score",
        ] {
            assert_eq!(
                read(&format!("Rule-change: {bad}")),
                Some(RuleChange::FreeText(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn nomic_107_anything_else_is_free_text_and_other_lines_are_none() {
        for free in [
            "Every player gets a hat.",
            "enact 301 no quotes",
            r#"amend two "x""#,
            r#"enact 301 """#,
            "repeal 215 and 214",
            "renumber 203",
            "transmute",
            "",
        ] {
            assert_eq!(
                read(&format!("Rule-change: {free}")),
                Some(RuleChange::FreeText(free.into())),
                "{free:?}"
            );
        }
        assert_eq!(read("Vote: Yes"), None);
        assert_eq!(read("Rule-chang"), None);
        assert_eq!(read("é"), None);
        assert_eq!(read("Rule-change\u{e9}: x"), None);
    }

    #[test]
    fn nomic_203_204_214_the_new_parameters_are_read_by_their_words() {
        let set = |parameter, value| Some(RuleChange::Set { parameter, value });
        assert_eq!(
            read("Rule-change: set circuits-to-majority 3"),
            set(Parameter::CircuitsToMajority, 3)
        );
        assert_eq!(
            read("Rule-change: set dispute-minutes 30"),
            set(Parameter::DisputeMinutes, 30)
        );
        assert_eq!(
            read("Rule-change: set opinion-minutes 90"),
            set(Parameter::OpinionMinutes, 90)
        );
        assert_eq!(
            read("Rule-change: set max-open-points-of-order 2"),
            set(Parameter::MaxOpenPointsOfOrder, 2)
        );
        // Every parameter is read back from its own word, and names a rule of the 200s.
        assert_eq!(Parameter::all().len(), 11);
        for &p in Parameter::all() {
            assert_eq!(Parameter::parse(p.word()), Some(p));
            assert!((201..=215).contains(&p.rule()), "{p}");
        }
    }

    #[test]
    fn nomic_107_206_a_rule_change_is_stored_as_json_and_read_back() {
        let changes = [
            RuleChange::Enact {
                number: 301,
                text: "Players may pass.".into(),
            },
            RuleChange::Amend {
                number: 203,
                text: "Ten \"points\".".into(),
            },
            RuleChange::Repeal { number: 215 },
            RuleChange::Transmute { number: 101 },
            RuleChange::Renumber { from: 203, to: 310 },
            RuleChange::Set {
                parameter: Parameter::MaxOpenPointsOfOrder,
                value: 2,
            },
            RuleChange::FreeText("Every player gets a hat.".into()),
        ];
        for c in changes {
            let json = serde_json::to_string(&c).expect("serialises");
            let back: RuleChange = serde_json::from_str(&json).expect("reads back");
            assert_eq!(back, c, "{json}");
        }
        // A parameter is stored by its `set` word.
        for &p in Parameter::all() {
            let json = serde_json::to_string(&p).expect("serialises");
            assert_eq!(json, format!("\"{}\"", p.word()));
            assert_eq!(serde_json::from_str::<Parameter>(&json).ok(), Some(p));
        }
        assert!(serde_json::from_str::<Parameter>("\"colour\"").is_err());
    }
}
