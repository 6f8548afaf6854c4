//! Proposals and the counting of votes (WM IX; Maharajiad X). Pure: the engine passes the
//! ballots cast for the phase, the board and who NMRed; only the result is ever published.

use crate::adjudicator::Board;
use crate::map::{Map, Power};
use crate::rules::{Rules, VoteRule};

/// A proposal players vote on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proposal {
    /// `DRAW` (all survivors) or `DRAW FRANCE ENGLAND` (those named; the others are presumed
    /// eliminated: WM IX(4)).
    Draw(Vec<Power>),
    /// `CONCEDE FRANCE`: a win conceded to one power (WM IX(3)).
    Concede(Power),
    /// `CONTINUE`: play on although no centre has changed owner for years (Maharajiad X(1)).
    Continue,
    /// `RULE <option> <value>`: change a house rule (WM IX(5); Maharajiad X(3)). It also needs
    /// the GM's agreement ([`rule_change_passes`]). Kept as written (upper case); the engine
    /// reads the option and value with the game's rules.
    Rule { option: String, value: String },
}

/// The name under which the GM's agreement to a house-rule proposal is kept with the players'
/// ballots (WM IX(5)): no power is called so.
pub const GM_BALLOT: &str = "GM";

/// A ballot as cast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ballot {
    Yes,
    No,
    Abstain,
}

impl Ballot {
    /// `yes`, `no`, `abstain`, as stored.
    pub fn from_stored(s: &str) -> Option<Ballot> {
        match s {
            "yes" => Some(Ballot::Yes),
            "no" => Some(Ballot::No),
            "abstain" => Some(Ballot::Abstain),
            _ => None,
        }
    }
}

impl Proposal {
    /// Read a proposal as written on a VOTE line (`DRAW`, `DRAW FRANCE ENGLAND`,
    /// `CONCEDE FRANCE`); None if it is none of these.
    pub fn parse(map: &Map, text: &str) -> Option<Proposal> {
        let mut words = text.split_whitespace();
        let head = words.next()?.to_ascii_uppercase();
        let rest: Vec<&str> = words.collect();
        match head.as_str() {
            "DRAW" => {
                let mut powers = Vec::new();
                for w in rest {
                    let p = map.power_by_name(w)?;
                    if !powers.contains(&p) {
                        powers.push(p);
                    }
                }
                Some(Proposal::Draw(powers))
            }
            "CONTINUE" if rest.is_empty() => Some(Proposal::Continue),
            "RULE" | "SET" => match rest.as_slice() {
                [option, value @ ..] if !value.is_empty() => Some(Proposal::Rule {
                    option: option.trim_end_matches(['=', ':']).to_ascii_lowercase(),
                    value: value.join(" "),
                }),
                _ => None,
            },
            "CONCEDE" | "CONCESSION" => match rest.as_slice() {
                [w] | ["TO", w] | ["to", w] => map.power_by_name(w).map(Proposal::Concede),
                _ => None,
            },
            _ => None,
        }
    }

    /// The proposal in words, for the published result (never who voted how).
    pub fn describe(&self, map: &Map) -> String {
        match self {
            Proposal::Draw(p) if p.is_empty() => "a draw of all survivors".to_string(),
            Proposal::Draw(p) => format!(
                "a draw of {}",
                p.iter()
                    .map(|x| map.power_name(*x))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Proposal::Concede(p) => format!("conceding the win to {}", map.power_name(*p)),
            Proposal::Continue => "continuing the game".to_string(),
            Proposal::Rule { option, value } => {
                format!(
                    "changing the house rule {option} to {}",
                    value.to_lowercase()
                )
            }
        }
    }

    /// Whether the proposal ends the game when it passes.
    pub fn ends_game(&self) -> bool {
        matches!(self, Proposal::Draw(_) | Proposal::Concede(_))
    }
}

/// Does a house-rule proposal pass? The GM and every player remaining must agree; an uncast
/// vote is a no, for "all house rules are presumed to remain unchanged" (WM IX(5)), and under
/// the Maharajiad's count those who abstain are left out (Maharajiad X(3)).
pub fn rule_change_passes(
    rules: &Rules,
    proposal: &Proposal,
    survivors: &[Power],
    ballots: &[(Power, Ballot)],
    gm_agrees: bool,
) -> bool {
    // Not a game-end proposal: the NMR exception of WM IX(1) never applies.
    gm_agrees
        && matches!(proposal, Proposal::Rule { .. })
        && passes(rules, proposal, survivors, ballots, &[], false)
}

/// The rules a house-rule proposal would make, or why it may not make them: an option the
/// rules do not know, a value it cannot take, or a change the tournament rules forbid (WM
/// IX(5), "no changes may be made that contradict/violate the Tournament Rules"). The value is
/// read as written, then in lower case (players write `VOTE RULE SUBMISSIONS MERGE_PER_UNIT`).
pub fn changed_rules(rules: &Rules, option: &str, value: &str) -> Result<Rules, String> {
    let new = rules
        .set(option, value)
        .or_else(|_| rules.set(option, &value.to_lowercase()))
        .map_err(|e| e.to_string())?;
    match rules.forbidden_by_vote(&new) {
        Some(why) => Err(why),
        None => Ok(new),
    }
}

/// The powers still in the game: those with a centre or a unit.
pub fn survivors(map: &Map, board: &Board) -> Vec<Power> {
    map.all_powers()
        .filter(|p| board.center_count(*p) > 0 || board.unit_count(*p) > 0)
        .collect()
}

/// Does the proposal pass? `ballots`: the last ballot of each power that voted on it;
/// `nmr`: the powers that sent no orders this phase; `movement`: the vote deadline is a
/// movement deadline.
///
/// - WM IX(1): unanimity of the players remaining; an abstention, a no or an uncast vote defeats
///   it, except that for a game-end proposal at a movement deadline, the uncast vote of a
///   player who also NMRed counts as yes.
/// - Maharajiad X(1): unanimity of the players remaining except those who abstain; an uncast
///   vote is a no.
pub fn passes(
    rules: &Rules,
    proposal: &Proposal,
    survivors: &[Power],
    ballots: &[(Power, Ballot)],
    nmr: &[Power],
    movement: bool,
) -> bool {
    if survivors.is_empty() {
        return false;
    }
    // A draw naming a power that is out, or conceding to one, is not a valid proposal.
    let named_ok = match proposal {
        Proposal::Draw(p) => p.iter().all(|x| survivors.contains(x)),
        Proposal::Concede(p) => survivors.contains(p),
        Proposal::Continue | Proposal::Rule { .. } => true,
    };
    if !named_ok {
        return false;
    }
    let ballot_of = |p: Power| ballots.iter().find(|b| b.0 == p).map(|b| b.1);
    let mut yes = 0;
    for &p in survivors {
        let counts_yes = match (rules.votes, ballot_of(p)) {
            (_, Some(Ballot::Yes)) => true,
            (_, Some(Ballot::No)) => false,
            (VoteRule::Wm, Some(Ballot::Abstain)) => false,
            (VoteRule::Maharajiad, Some(Ballot::Abstain)) => continue,
            (VoteRule::Wm, None) => proposal.ends_game() && movement && nmr.contains(&p),
            (VoteRule::Maharajiad, None) => false,
        };
        if !counts_yes {
            return false;
        }
        yes += 1;
    }
    yes > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> &'static Map {
        Map::variant("standard").expect("standard")
    }

    fn p(name: &str) -> Power {
        map().power_by_name(name).expect("power")
    }

    fn all() -> Vec<Power> {
        map().all_powers().collect()
    }

    #[test]
    fn proposals_are_read() {
        let m = map();
        assert_eq!(Proposal::parse(m, "DRAW"), Some(Proposal::Draw(vec![])));
        assert_eq!(
            Proposal::parse(m, "DRAW FRANCE england"),
            Some(Proposal::Draw(vec![p("FRANCE"), p("ENGLAND")]))
        );
        assert_eq!(
            Proposal::parse(m, "CONCEDE TO TURKEY"),
            Some(Proposal::Concede(p("TURKEY")))
        );
        assert_eq!(Proposal::parse(m, "continue"), Some(Proposal::Continue));
        assert_eq!(Proposal::parse(m, "DRAW NARNIA"), None);
        assert_eq!(Proposal::parse(m, "PIZZA"), None);
    }

    #[test]
    fn wm_ix_1_unanimity_and_the_nmr_exception() {
        let wm = Rules::preset("wm2004").expect("wm");
        let draw = Proposal::Draw(vec![]);
        let yes_all: Vec<(Power, Ballot)> = all().into_iter().map(|x| (x, Ballot::Yes)).collect();
        assert!(passes(&wm, &draw, &all(), &yes_all, &[], true));
        let mut one_no = yes_all.clone();
        one_no[3].1 = Ballot::No;
        assert!(!passes(&wm, &draw, &all(), &one_no, &[], true));
        let mut one_abstains = yes_all.clone();
        one_abstains[3].1 = Ballot::Abstain;
        assert!(
            !passes(&wm, &draw, &all(), &one_abstains, &[], true),
            "abstain = no"
        );
        let uncast: Vec<(Power, Ballot)> = yes_all[1..].to_vec();
        assert!(
            !passes(&wm, &draw, &all(), &uncast, &[], true),
            "uncast = no"
        );
        // The uncast player also NMRed at a movement deadline: counted as yes.
        assert!(passes(&wm, &draw, &all(), &uncast, &[yes_all[0].0], true));
        assert!(
            !passes(&wm, &draw, &all(), &uncast, &[yes_all[0].0], false),
            "not at a retreat"
        );
    }

    #[test]
    fn maharajiad_x_1_abstainers_are_left_out_and_uncast_is_no() {
        let mut mj = Rules::preset("wm2004").expect("wm");
        mj.votes = VoteRule::Maharajiad;
        let draw = Proposal::Draw(vec![]);
        let mut ballots: Vec<(Power, Ballot)> =
            all().into_iter().map(|x| (x, Ballot::Yes)).collect();
        ballots[2].1 = Ballot::Abstain;
        assert!(passes(&mj, &draw, &all(), &ballots, &[], true));
        ballots.remove(4);
        assert!(!passes(&mj, &draw, &all(), &ballots, &[ballots[0].0], true));
    }

    #[test]
    fn wm_ix_5_and_maharajiad_x_3_a_rule_change_needs_the_gm_and_every_player() {
        let wm = Rules::preset("wm2004").expect("wm");
        let rule = Proposal::parse(map(), "RULE SUBMISSIONS MERGE_PER_UNIT").expect("read");
        assert_eq!(
            rule,
            Proposal::Rule {
                option: "submissions".into(),
                value: "MERGE_PER_UNIT".into()
            }
        );
        assert!(!rule.ends_game());
        assert!(
            rule.describe(map())
                .contains("submissions to merge_per_unit")
        );
        let two = vec![p("FRANCE"), p("ENGLAND")];
        let yes = vec![(p("FRANCE"), Ballot::Yes), (p("ENGLAND"), Ballot::Yes)];
        assert!(rule_change_passes(&wm, &rule, &two, &yes, true));
        assert!(
            !rule_change_passes(&wm, &rule, &two, &yes, false),
            "without the GM"
        );
        // An uncast vote is a no even at a movement deadline (not a game-end proposal).
        assert!(!rule_change_passes(&wm, &rule, &two, &yes[..1], true));
        // Maharajiad X(3): those who abstain are left out; an uncast vote is still a no.
        let mj = Rules::preset("maharajiad").expect("mj");
        let abstain = vec![(p("FRANCE"), Ballot::Yes), (p("ENGLAND"), Ballot::Abstain)];
        assert!(rule_change_passes(&mj, &rule, &two, &abstain, true));
        assert!(!rule_change_passes(&wm, &rule, &two, &abstain, true));
        assert!(!rule_change_passes(&mj, &rule, &two, &yes[..1], true));
        // Only a rule proposal passes this way.
        assert!(!rule_change_passes(
            &wm,
            &Proposal::Draw(vec![]),
            &two,
            &yes,
            true
        ));
        assert_eq!(Proposal::parse(map(), "RULE PRESS"), None);
        let merged = changed_rules(&wm, "submissions", "MERGE_PER_UNIT").expect("allowed");
        assert_eq!(merged.submissions, crate::rules::Submissions::MergePerUnit);
        let e = changed_rules(&wm, "final_year", "1912").expect_err("fixed");
        assert!(e.contains("WM IX(5)"), "{e}");
        assert!(changed_rules(&wm, "frobnicate", "1").is_err());
    }

    #[test]
    fn only_survivors_vote_and_may_be_named() {
        let wm = Rules::preset("wm2004").expect("wm");
        let two = vec![p("FRANCE"), p("ENGLAND")];
        let ballots = vec![(p("FRANCE"), Ballot::Yes), (p("ENGLAND"), Ballot::Yes)];
        assert!(passes(
            &wm,
            &Proposal::Draw(vec![]),
            &two,
            &ballots,
            &[],
            true
        ));
        assert!(!passes(
            &wm,
            &Proposal::Concede(p("TURKEY")),
            &two,
            &ballots,
            &[],
            true
        ));
    }
}

/// Maharajiad X(1): has no supply centre changed owner in the last `years` game years? `ends`:
/// who owned each centre at the end of each year, oldest first, the year just ended last.
pub fn stalemate(ends: &[&[(String, Option<String>)]], years: u16) -> bool {
    let n = usize::from(years);
    n > 0 && ends.len() > n && ends[ends.len() - n - 1..].windows(2).all(|w| w[0] == w[1])
}

#[cfg(test)]
mod stalemate_tests {
    use super::stalemate;

    #[test]
    fn maharajiad_x_1_three_years_without_a_change() {
        let a = vec![("DEL".to_string(), Some("DELHI".to_string()))];
        let b = vec![("DEL".to_string(), Some("PERSIA".to_string()))];
        assert!(stalemate(&[&a, &a, &a, &a], 3));
        assert!(!stalemate(&[&a, &a, &a], 3), "only two years compared");
        assert!(!stalemate(&[&b, &a, &a, &b], 3));
        assert!(stalemate(&[&b, &a, &a, &a, &a], 3));
        assert!(!stalemate(&[&a, &a, &a, &a], 0));
    }
}
