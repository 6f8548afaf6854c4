//! A proposal's properness and number: Nomic 107 (submitted with `Rule-change:`), 201 (the
//! players' days; weekend messages void), 202 ("Players may only propose rule-changes on their
//! allocated day ... before 7pm on their allocated day ... Only the first rule change submitted
//! on a given day is considered proper"), 103 (what a rule-change is), 109 (numbered from 301),
//! 111 (a transmutation stated explicitly, adopted only unanimously), 211.
//!
//! Decision on Nomic 202's "the first rule change submitted on a given day": the first that
//! player (whose day it is) submitted that UK day. A day is allocated to one player (Nomic 201,
//! 214), and a submission by anyone else that day is no proposal at all (202's first sentence),
//! so it does not use the day up: the first of the day that can count is the allocated
//! player's first.

use crate::Ts;
use crate::circuit::{Adoption204, Seats};
use crate::grammar::RuleChange;
use crate::rules::{TooManyMutable, check_211};
use crate::settings::Settings;
use crate::uk_time::{UkDate, Weekday, to_uk};
use chancery_office::ballot::{Disclosure, Revision, Threshold, VoterId, VotingRule};
use chancery_office::ruleset::{Change, ChangeError, Mutability, RuleSet};
use std::fmt;

/// Nomic 109: "The numbers shall begin with 301".
pub const FIRST_NUMBER_109: u32 = 301;
/// Nomic 202: "before 7pm", UK time (Nomic 106), in minutes after midnight: the Initial Set's
/// deadline; the game's is [`Settings::proposal_deadline_minutes`].
pub const DEADLINE_MINUTES_202: u32 = 19 * 60;

/// A rule-change submitted earlier: who, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    pub player: VoterId,
    pub at: Ts,
}

/// Why a submission is not a proper proposal; it gets no number (Nomic 109) and is not voted on
/// (Nomic 104).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Improper {
    /// Nomic 101, 105: the sender is no player of the game.
    NotAPlayer,
    /// Nomic 101: the game has not begun.
    BeforeTheGame,
    /// Nomic 201: a Saturday or Sunday (UK time).
    Weekend { day: Weekday },
    /// Nomic 202: not the proposer's allocated day.
    NotTheirDay { allocated: Weekday, today: Weekday },
    /// Nomic 202: at or after the deadline (19:00 UK time in the Initial Set).
    TooLate { day: UkDate, deadline_minutes: u32 },
    /// Nomic 202: the player submitted a rule-change earlier that day.
    NotFirst { first: Ts },
    /// Nomic 103, 108, 111: no rule-change of the rules as they stand (an immutable rule
    /// amended or repealed, a rule that is not there, a number taken).
    NotARuleChange(ChangeError),
    /// Nomic 211.
    TooManyMutable(TooManyMutable),
}

impl fmt::Display for Improper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Improper::NotAPlayer => f.write_str("only a player may propose (Nomic 105, 201)"),
            Improper::BeforeTheGame => f.write_str("the game has not begun (Nomic 101)"),
            Improper::Weekend { day } => write!(
                f,
                "messages on a Saturday or Sunday are void, and it is {day} (Nomic 201)"
            ),
            Improper::NotTheirDay { allocated, today } => write!(
                f,
                "you may only propose on your allocated day, {allocated}, and it is {today} (Nomic 202)"
            ),
            Improper::TooLate {
                day,
                deadline_minutes,
            } => write!(
                f,
                "a proposal must be submitted before {:02}:{:02} UK time on your day, and {day} is past it (Nomic 202)",
                deadline_minutes / 60,
                deadline_minutes % 60
            ),
            Improper::NotFirst { .. } => f.write_str(
                "only the first rule-change submitted on a given day is proper (Nomic 202)",
            ),
            Improper::NotARuleChange(e) => write!(f, "{e} (Nomic 103)"),
            Improper::TooManyMutable(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Improper {}

/// Nomic 109: the next proposal's number, the last proper one's being `last`.
pub fn next_number_109(last: Option<u32>) -> u32 {
    last.map_or(FIRST_NUMBER_109, |n| n.saturating_add(1))
}

/// Nomic 201, 202: may `player` propose at `at`, having submitted `earlier` (that day's or any
/// other's: only the same player's on the same UK day count) in the game begun at `start`,
/// before the game's deadline ([`Settings::proposal_deadline_minutes`])?
pub fn check_timing(
    seats: &Seats,
    start: Ts,
    player: &VoterId,
    at: Ts,
    earlier: &[Submission],
    settings: &Settings,
) -> Result<(), Improper> {
    let allocated = seats.day_of(player).ok_or(Improper::NotAPlayer)?;
    if at < start {
        return Err(Improper::BeforeTheGame);
    }
    let uk = to_uk(at);
    let today = uk.date.weekday();
    if today.is_weekend() {
        return Err(Improper::Weekend { day: today });
    }
    if today != allocated {
        return Err(Improper::NotTheirDay { allocated, today });
    }
    let deadline_minutes = settings.proposal_deadline_minutes;
    if uk.second_of_day >= i64::from(deadline_minutes).saturating_mul(60) {
        return Err(Improper::TooLate {
            day: uk.date,
            deadline_minutes,
        });
    }
    let first = earlier
        .iter()
        .filter(|s| &s.player == player && s.at <= at && to_uk(s.at).date == uk.date)
        .map(|s| s.at)
        .min();
    match first {
        Some(first) => Err(Improper::NotFirst { first }),
        None => Ok(()),
    }
}

/// Nomic 103, 109: the changes an adopted proposal numbered `number` makes to the rule set: an
/// amended or transmuted rule takes the proposal's number, as does an enacted one (the number
/// written after `enact` is the proposer's; Nomic 109 gives the rule the proposal's). A `set`
/// or free text changes no rule's text here: the game's master applies it.
pub fn changes_109(change: &RuleChange, rules: &RuleSet, number: u32) -> Vec<Change> {
    let renumber = |from: u32| Change::Renumber { from, to: number };
    match change {
        RuleChange::Enact { text, .. } => vec![Change::Enact {
            number,
            text: vec![text.clone()],
            mutability: Mutability::Mutable,
        }],
        RuleChange::Amend { number: n, text } => vec![
            Change::Amend {
                number: *n,
                text: vec![text.clone()],
            },
            renumber(*n),
        ],
        RuleChange::Repeal { number: n } => vec![Change::Repeal { number: *n }],
        RuleChange::Transmute { number: n } => {
            let to = match rules.current().get(n).map(|r| r.mutability) {
                Some(Mutability::Mutable) => Mutability::Immutable,
                _ => Mutability::Mutable,
            };
            vec![Change::Transmute { number: *n, to }, renumber(*n)]
        }
        RuleChange::Renumber { from, to } => vec![Change::Renumber {
            from: *from,
            to: *to,
        }],
        RuleChange::Set { .. } | RuleChange::FreeText(_) => Vec::new(),
    }
}

/// Nomic 103, 109, 206, 211: the adopted proposal's changes made at `at`, all or none: the rule
/// set as it then stands, or why it cannot change (211: more than the game's
/// [`Settings::max_mutable_rules`]).
pub fn adopt(
    rules: &RuleSet,
    change: &RuleChange,
    number: u32,
    at: Ts,
    settings: &Settings,
) -> Result<RuleSet, Improper> {
    let mut next = rules.clone();
    for c in changes_109(change, rules, number) {
        next.apply(at, c, Some(number))
            .map_err(Improper::NotARuleChange)?;
    }
    let max = usize::try_from(settings.max_mutable_rules).unwrap_or(usize::MAX);
    check_211(next.current(), max).map_err(Improper::TooManyMutable)?;
    Ok(next)
}

/// A proper proposal: its number and how it is voted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proper {
    pub number: u32,
    /// None where rule 204 was amended and its new text decides ([`Adoption204::AsAmended`]).
    pub voting: Option<VotingRule>,
}

/// Nomic 111, 113, 203, 204: how a rule-change is voted on: final ballots (113), the counts
/// given (203); unanimity among the eligible voters to make an immutable rule mutable (111),
/// else rule 204's threshold.
pub fn voting_rule(
    change: &RuleChange,
    rules: &RuleSet,
    adoption: Adoption204,
) -> Option<VotingRule> {
    let makes_mutable = matches!(change, RuleChange::Transmute { number }
        if rules.current().get(number).is_some_and(|r| r.mutability == Mutability::Immutable));
    let threshold = if makes_mutable {
        Threshold::Unanimity
    } else {
        adoption.threshold()?
    };
    Some(VotingRule {
        threshold,
        revision: Revision::Final,
        disclosure: Disclosure::Counts,
    })
}

/// Everything a submission is checked against.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub seats: &'a Seats,
    /// When the game began (Nomic 101).
    pub start: Ts,
    /// The rule-changes submitted before (Nomic 202).
    pub earlier: &'a [Submission],
    /// The last proper proposal's number (Nomic 109).
    pub last_number: Option<u32>,
    /// The rules as they stand.
    pub rules: &'a RuleSet,
    /// Nomic 204's threshold for a vote completing at the end of this UK day.
    pub adoption: Adoption204,
    /// The game's numbers (Nomic 202's deadline, 211's limit) as they stand.
    pub settings: &'a Settings,
}

/// Nomic 107, 109, 111, 201, 202, 103, 211: is `change`, submitted by `player` at `at`, a proper
/// proposal? Its number and voting rule, or why not.
pub fn check_proposal(
    ctx: &Context<'_>,
    player: &VoterId,
    at: Ts,
    change: &RuleChange,
) -> Result<Proper, Improper> {
    check_timing(ctx.seats, ctx.start, player, at, ctx.earlier, ctx.settings)?;
    let number = next_number_109(ctx.last_number);
    adopt(ctx.rules, change, number, at, ctx.settings)?;
    Ok(Proper {
        number,
        voting: voting_rule(change, ctx.rules, ctx.adoption),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::tests::{gmt, seats_2019};
    use crate::grammar::Parameter;
    use chancery_office::ruleset::{InitialSet, Rule};

    fn initial() -> RuleSet {
        let rules = (101..=118)
            .map(|n| (n, Mutability::Immutable))
            .chain((201..=215).map(|n| (n, Mutability::Mutable)))
            .map(|(number, mutability)| Rule {
                number,
                text: vec![format!("Rule {number}.")],
                mutability,
            })
            .collect();
        let set = InitialSet {
            date: "2019-02-11".into(),
            author: "test".into(),
            rules,
        };
        RuleSet::from_initial(&set, gmt("2019-02-11 00:00")).expect("enacts")
    }

    fn ben() -> VoterId {
        VoterId::new("Ben P")
    }

    const AMEND: fn() -> RuleChange = || RuleChange::Amend {
        number: 203,
        text: "Ten points.".into(),
    };

    const S: Settings = Settings::nomic2019();

    fn check(at: Ts, earlier: &[Submission], change: &RuleChange) -> Result<Proper, Improper> {
        check_with(&S, at, earlier, change)
    }

    fn check_with(
        settings: &Settings,
        at: Ts,
        earlier: &[Submission],
        change: &RuleChange,
    ) -> Result<Proper, Improper> {
        let (seats, rules) = (seats_2019(), initial());
        let ctx = Context {
            seats: &seats,
            start: gmt("2019-02-11 00:00"),
            earlier,
            last_number: None,
            rules: &rules,
            adoption: Adoption204::UnanimityOfVotesCast,
            settings,
        };
        check_proposal(&ctx, &ben(), at, change)
    }

    #[test]
    fn nomic_109_202_a_proper_proposal_on_the_players_day_before_7pm_is_numbered_from_301() {
        // Ben P's day is Wednesday; 2019-02-13 is one.
        let got = check(gmt("2019-02-13 18:59"), &[], &AMEND()).expect("proper");
        assert_eq!(got.number, 301);
        assert_eq!(
            got.voting.map(|v| (v.threshold, v.revision, v.disclosure)),
            Some((
                Threshold::UnanimityOfVotesCast,
                Revision::Final,
                Disclosure::Counts
            ))
        );
        assert_eq!(next_number_109(Some(307)), 308);
        assert_eq!(next_number_109(Some(u32::MAX)), u32::MAX);
    }

    #[test]
    fn nomic_201_202_the_wrong_day_the_weekend_7pm_and_a_second_proposal_are_improper() {
        assert_eq!(
            check(gmt("2019-02-14 10:00"), &[], &AMEND()),
            Err(Improper::NotTheirDay {
                allocated: Weekday::Wednesday,
                today: Weekday::Thursday
            })
        );
        assert_eq!(
            check(gmt("2019-02-16 10:00"), &[], &AMEND()),
            Err(Improper::Weekend {
                day: Weekday::Saturday
            })
        );
        assert_eq!(
            check(gmt("2019-02-13 19:00"), &[], &AMEND()),
            Err(Improper::TooLate {
                day: UkDate {
                    year: 2019,
                    month: 2,
                    day: 13
                },
                deadline_minutes: 19 * 60
            })
        );
        // In summer, 7pm UK time is 18:00 UTC.
        assert!(matches!(
            check(gmt("2019-06-05 18:00"), &[], &AMEND()),
            Err(Improper::TooLate { .. })
        ));
        assert!(check(gmt("2019-06-05 17:59"), &[], &AMEND()).is_ok());
        let earlier = [Submission {
            player: ben(),
            at: gmt("2019-02-13 09:00"),
        }];
        assert_eq!(
            check(gmt("2019-02-13 10:00"), &earlier, &AMEND()),
            Err(Improper::NotFirst {
                first: gmt("2019-02-13 09:00")
            })
        );
        // Someone else's submission that day, or Ben's the week before, does not use it up.
        let others = [
            Submission {
                player: VoterId::new("Dave M"),
                at: gmt("2019-02-13 08:00"),
            },
            Submission {
                player: ben(),
                at: gmt("2019-02-06 09:00"),
            },
        ];
        assert!(check(gmt("2019-02-13 10:00"), &others, &AMEND()).is_ok());
        assert_eq!(
            check(gmt("2019-02-06 10:00"), &[], &AMEND()),
            Err(Improper::BeforeTheGame)
        );
        let (seats, rules) = (seats_2019(), initial());
        let ctx = Context {
            seats: &seats,
            start: 0,
            earlier: &[],
            last_number: Some(301),
            rules: &rules,
            adoption: Adoption204::SimpleMajority,
            settings: &S,
        };
        assert_eq!(
            check_proposal(
                &ctx,
                &VoterId::new("Eve"),
                gmt("2019-02-13 10:00"),
                &AMEND()
            ),
            Err(Improper::NotAPlayer)
        );
        assert!(
            Improper::TooLate {
                day: UkDate {
                    year: 2019,
                    month: 2,
                    day: 13
                },
                deadline_minutes: 19 * 60
            }
            .to_string()
            .contains("before 19:00 UK time on your day, and 2019-02-13 is past it (Nomic 202)")
        );
    }

    #[test]
    fn nomic_103_111_an_immutable_rule_is_amended_only_after_an_explicit_transmutation() {
        let at = gmt("2019-02-13 10:00");
        let amend = RuleChange::Amend {
            number: 101,
            text: "x".into(),
        };
        assert_eq!(
            check(at, &[], &amend),
            Err(Improper::NotARuleChange(ChangeError::Immutable(101)))
        );
        let got = check(at, &[], &RuleChange::Transmute { number: 101 }).expect("proper");
        assert_eq!(
            got.voting.map(|v| v.threshold),
            Some(Threshold::Unanimity),
            "Nomic 111: unanimous among the eligible voters"
        );
        // Making a mutable rule immutable follows rule 204.
        let got = check(at, &[], &RuleChange::Transmute { number: 201 }).expect("proper");
        assert_eq!(
            got.voting.map(|v| v.threshold),
            Some(Threshold::UnanimityOfVotesCast)
        );
        assert_eq!(
            voting_rule(&AMEND(), &initial(), Adoption204::AsAmended),
            None,
            "rule 204 as amended decides"
        );
    }

    #[test]
    fn nomic_109_206_an_adopted_change_takes_the_proposals_number() {
        let rules = initial();
        let at = gmt("2019-02-14 00:00");
        let after = adopt(&rules, &AMEND(), 301, at, &S).expect("adopted");
        assert!(!after.current().contains_key(&203));
        assert_eq!(after.current()[&301].text, vec!["Ten points.".to_string()]);
        let enacted = adopt(
            &rules,
            &RuleChange::Enact {
                number: 999,
                text: "New.".into(),
            },
            302,
            at,
            &S,
        )
        .expect("enacted");
        assert_eq!(enacted.current()[&302].mutability, Mutability::Mutable);
        let transmuted =
            adopt(&rules, &RuleChange::Transmute { number: 101 }, 303, at, &S).expect("ok");
        assert_eq!(transmuted.current()[&303].mutability, Mutability::Mutable);
        let free = adopt(&rules, &RuleChange::FreeText("hats".into()), 304, at, &S).expect("ok");
        assert_eq!(free.current(), rules.current());
        assert_eq!(
            adopt(&rules, &RuleChange::Repeal { number: 999 }, 305, at, &S).err(),
            Some(Improper::NotARuleChange(ChangeError::NoSuchRule(999)))
        );
    }

    #[test]
    fn nomic_211_a_proposal_that_would_make_a_26th_mutable_rule_is_improper() {
        let mut rules = initial();
        let at = gmt("2019-02-12 00:00");
        for n in 0..10 {
            rules
                .apply(
                    at,
                    Change::Enact {
                        number: 400 + n,
                        text: vec!["x".into()],
                        mutability: Mutability::Mutable,
                    },
                    None,
                )
                .expect("enacted");
        }
        // 15 + 10 = 25 mutable rules.
        let enact = RuleChange::Enact {
            number: 1,
            text: "y".into(),
        };
        assert_eq!(
            adopt(&rules, &enact, 301, at, &S).err(),
            Some(Improper::TooManyMutable(TooManyMutable {
                count: 26,
                max: 25
            }))
        );
        assert!(adopt(&rules, &RuleChange::Repeal { number: 400 }, 301, at, &S).is_ok());
        // A game that set max-mutable-rules to 26 adopts it; one that set 20 adopts nothing
        // that keeps 25 mutable rules.
        let mut more = S;
        more.set(Parameter::MaxMutableRules, 26).expect("ok");
        assert!(adopt(&rules, &enact, 301, at, &more).is_ok());
        let mut fewer = S;
        fewer.set(Parameter::MaxMutableRules, 20).expect("ok");
        assert_eq!(
            adopt(&rules, &AMEND(), 301, at, &fewer).err(),
            Some(Improper::TooManyMutable(TooManyMutable {
                count: 25,
                max: 20
            }))
        );
    }

    #[test]
    fn nomic_202_a_deadline_set_to_18_00_refuses_an_18_30_proposal() {
        let mut settings = S;
        settings
            .set(Parameter::ProposalDeadline, 18 * 60)
            .expect("a time of day");
        let at = gmt("2019-02-13 18:30"); // Ben P's Wednesday, GMT
        assert!(check(at, &[], &AMEND()).is_ok(), "before 19:00");
        assert_eq!(
            check_with(&settings, at, &[], &AMEND()),
            Err(Improper::TooLate {
                day: UkDate {
                    year: 2019,
                    month: 2,
                    day: 13
                },
                deadline_minutes: 18 * 60
            })
        );
        assert!(check_with(&settings, gmt("2019-02-13 17:59"), &[], &AMEND()).is_ok());
        // A later deadline admits what 19:00 refused.
        settings
            .set(Parameter::ProposalDeadline, 21 * 60)
            .expect("a time of day");
        assert!(check(gmt("2019-02-13 20:00"), &[], &AMEND()).is_err());
        assert!(check_with(&settings, gmt("2019-02-13 20:00"), &[], &AMEND()).is_ok());
    }
}
