//! Proposals and the counting of votes (WM IX; Maharajiad X). Pure: the engine passes the
//! ballots cast for the phase, the board and who NMRed; only the result is ever published.

use crate::adjudicator::Board;
use crate::map::{Map, Power};
use crate::rules::{Rules, VoteRule};
use chancery_office::ballot::Threshold;

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
    /// Read a proposal as written on a VOTE line (`DRAW`, `DIAS`, `DRAW FRANCE ENGLAND`,
    /// `CONCEDE FRANCE`, `CONTINUE`, `RULE <option> <value>`); None if it is none of these.
    pub fn parse(map: &Map, text: &str) -> Option<Proposal> {
        Proposal::read(map, text).ok()
    }

    /// Read a proposal as written, or say why it is none. A draw is a set of powers: the
    /// powers named are kept once each, in the map's order, so `DRAW FRANCE ENGLAND` and
    /// `DRAW ENGLAND, FRANCE` are one proposal (WM IX(4)); `DIAS` ("draw including all
    /// survivors") is `DRAW`.
    pub fn read(map: &Map, text: &str) -> Result<Proposal, String> {
        let mut words = text.split_whitespace();
        let head = words.next().unwrap_or_default().to_ascii_uppercase();
        let rest: Vec<&str> = words.collect();
        match head.as_str() {
            "DRAW" | "DIAS" => {
                let mut powers = Vec::new();
                // `DRAW FRANCE AND ENGLAND`, `DRAW FRANCE & ENGLAND` (commas are gone already).
                for w in rest
                    .iter()
                    .map(|w| w.trim_matches(','))
                    .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case("and") && *w != "&")
                {
                    if head == "DIAS" {
                        return Err(
                            "DIAS is a draw of all survivors and names no power: write DIAS, or \
                             DRAW and the powers"
                                .into(),
                        );
                    }
                    let p = map
                        .power_by_name(w)
                        .ok_or_else(|| format!("{w} is no power of this game"))?;
                    if !powers.contains(&p) {
                        powers.push(p);
                    }
                }
                powers.sort();
                Ok(Proposal::Draw(powers))
            }
            "CONTINUE" if rest.is_empty() => Ok(Proposal::Continue),
            "RULE" | "SET" => match rest.as_slice() {
                [option, value @ ..] if !value.is_empty() => Ok(Proposal::Rule {
                    option: option.trim_end_matches(['=', ':']).to_ascii_lowercase(),
                    value: value.join(" "),
                }),
                _ => Err(
                    "write RULE, the option, then its new value (RULE submissions \
                          merge_per_unit)"
                        .into(),
                ),
            },
            "CONCEDE" | "CONCESSION" => match rest.as_slice() {
                [w] | ["TO" | "to" | "To", w] => map
                    .power_by_name(w)
                    .map(Proposal::Concede)
                    .ok_or_else(|| format!("{w} is no power of this game")),
                _ => Err("a win is conceded to one power only: CONCEDE FRANCE (WM IX(3))".into()),
            },
            _ => Err(format!(
                "\"{}\" is no proposal: write DRAW (all survivors), DIAS, DRAW and the powers, \
                 CONCEDE and a power, CONTINUE, or RULE and an option and its value",
                text.trim()
            )),
        }
    }

    /// The proposal as it is stored, agreed to, refused and voted on: one spelling for each
    /// proposal, whatever the words and their order on the VOTE line.
    pub fn canonical(&self, map: &Map) -> String {
        match self {
            Proposal::Draw(p) if p.is_empty() => "DRAW".to_string(),
            Proposal::Draw(p) => format!(
                "DRAW {}",
                p.iter()
                    .map(|x| map.power_name(*x))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Proposal::Concede(p) => format!("CONCEDE {}", map.power_name(*p)),
            Proposal::Continue => "CONTINUE".to_string(),
            Proposal::Rule { option, value } => format!("RULE {option} {value}"),
        }
    }

    /// The same proposal with a draw that names every power remaining read as the draw of all
    /// survivors, which it is (WM IX(4)).
    pub fn resolved(self, survivors: &[Power]) -> Proposal {
        match self {
            Proposal::Draw(p)
                if !p.is_empty()
                    && p.len() == survivors.len()
                    && survivors.iter().all(|s| p.contains(s)) =>
            {
                Proposal::Draw(Vec::new())
            }
            other => other,
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
            // The value is the option's own, as `read_proposal` checked it: never free text.
            Proposal::Rule { option, value } => {
                format!("changing the house rule {option} to {value}")
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
/// read in lower case, then as written (players write `VOTE RULE SUBMISSIONS MERGE_PER_UNIT`,
/// and a VOTE line reaches here in upper case).
pub fn changed_rules(rules: &Rules, option: &str, value: &str) -> Result<Rules, String> {
    let new = rules
        .set(option, &value.to_lowercase())
        .or_else(|_| rules.set(option, value))
        .map_err(|e| e.to_string())?;
    if let Some(why) = rules.forbidden_by_vote(&new) {
        return Err(why);
    }
    if let Some(why) = free_text_by_vote(option, &new) {
        return Err(why);
    }
    Ok(new)
}

/// The one option that takes free text, the subject format (WM D.II(2)), may be proposed by
/// vote only as an arrangement of its fields: a house-rule proposal is published to every
/// player with the results, and must not carry anyone's words anonymously. (The rulebooks
/// are silent; a careful GM would not publish a player's text under cover of a vote.)
fn free_text_by_vote(option: &str, new: &Rules) -> Option<String> {
    if option != "subject_format" {
        return None;
    }
    let format = &new.subject_format;
    let mut rest = format.clone();
    for field in ["{game}", "{power}", "{phase}"] {
        if rest.matches(field).count() != 1 {
            return Some(format!(
                "a subject format must name {{game}}, {{power}} and {{phase}} once each; \
                 {field} is not there once"
            ));
        }
        rest = rest.replace(field, "");
    }
    let separators = |c: char| c.is_whitespace() || "-_:/.#".contains(c);
    if !rest.chars().all(separators) || format.chars().count() > 60 {
        return Some(
            "a subject format proposed by vote holds only {game}, {power}, {phase} and the \
             separators - _ : / . # (WM IX(5))"
                .into(),
        );
    }
    None
}

/// The office's threshold for a proposal under these rules, as its row records it: unanimity
/// of the players remaining (WM IX(1)), or unanimity of those who do not abstain (Maharajiad
/// X(1)). The counting itself is [`passes`] (and [`rule_change_passes`]), which also knows
/// which players remain and who NMRed.
pub fn threshold(rules: &Rules) -> Threshold {
    match rules.votes {
        VoteRule::Wm => Threshold::Unanimity,
        VoteRule::Maharajiad => Threshold::UnanimityBarAbstentions,
    }
}

/// Who may vote on a proposal: every power of the game (WM IX(1): "All players remaining in
/// the game"; a ballot of a power no longer remaining is kept but not counted), and on a
/// house-rule change the GM too, whose agreement is its ballot (WM IX(5); [`GM_BALLOT`]).
pub fn electorate(map: &Map, proposal: &Proposal) -> Vec<String> {
    let mut voters: Vec<String> = map
        .all_powers()
        .map(|p| map.power_name(p).to_string())
        .collect();
    if matches!(proposal, Proposal::Rule { .. }) {
        voters.push(GM_BALLOT.to_string());
    }
    voters
}

/// Read a proposal as a player votes on it (VOTE), or the GM agrees to (AGREE) or refuses it
/// (REFUSE), against the game's rules: the proposal in its one spelling ([`Proposal::canonical`]),
/// or why it is none. A house-rule proposal must name an option of these rules and a value it
/// can take by vote (WM IX(5); Maharajiad X(3)); its value is then the option's own spelling of
/// it, so that `merge_per_unit` and `MERGE_PER_UNIT` are one proposal, and nothing else is ever
/// published.
pub fn read_proposal(map: &Map, rules: &Rules, text: &str) -> Result<Proposal, String> {
    match Proposal::read(map, text)? {
        Proposal::Rule { option, value } => {
            let new = changed_rules(rules, &option, &value)?;
            let spelled = new
                .options()
                .into_iter()
                .find(|(name, _)| *name == option)
                .map(
                    |(_, v)| match serde_json::from_str::<serde_json::Value>(&v) {
                        Ok(serde_json::Value::String(s)) => s,
                        _ => v,
                    },
                )
                .ok_or_else(|| format!("unknown option '{option}'"))?;
            Ok(Proposal::Rule {
                option,
                value: spelled,
            })
        }
        other => Ok(other),
    }
}

/// The ballots cast on one proposal, as counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pub proposal: Proposal,
    /// Each power's last ballot on it.
    pub ballots: Vec<(Power, Ballot)>,
    /// The GM's agreement, for a house-rule proposal (WM IX(5)).
    pub gm_agrees: bool,
}

/// The ballots of a phase grouped by proposal. `cast`: (who: a power's name or [`GM_BALLOT`],
/// the proposal as stored, the ballot), oldest first. Each is read again as its canonical
/// proposal, a draw naming every power remaining being the draw of all survivors, so that
/// every spelling of one proposal is counted together and a power's last ballot on it is the
/// one that counts (WM IX(2): "players may submit revised votes"). A ballot on something that
/// is no proposal under these rules is not counted (its voter was told when it was cast).
/// The proposals come in the order they were first voted on.
pub fn tally(
    map: &Map,
    rules: &Rules,
    survivors: &[Power],
    cast: &[(&str, &str, Ballot)],
) -> Vec<Tally> {
    let mut out: Vec<Tally> = Vec::new();
    for (who, text, ballot) in cast {
        let Ok(proposal) = read_proposal(map, rules, text) else {
            continue;
        };
        let proposal = proposal.resolved(survivors);
        let i = match out.iter().position(|t| t.proposal == proposal) {
            Some(i) => i,
            None => {
                out.push(Tally {
                    proposal,
                    ballots: Vec::new(),
                    gm_agrees: false,
                });
                out.len() - 1
            }
        };
        let t = &mut out[i];
        if *who == GM_BALLOT {
            t.gm_agrees = *ballot == Ballot::Yes;
        } else if let Some(p) = map.power_by_name(who) {
            t.ballots.retain(|b| b.0 != p);
            t.ballots.push((p, *ballot));
        }
    }
    out
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
            Some(Proposal::Draw(vec![p("ENGLAND"), p("FRANCE")])),
            "a set of powers, in the map's order"
        );
        assert_eq!(
            Proposal::parse(m, "CONCEDE TO TURKEY"),
            Some(Proposal::Concede(p("TURKEY")))
        );
        assert_eq!(Proposal::parse(m, "continue"), Some(Proposal::Continue));
        assert_eq!(Proposal::parse(m, "DRAW NARNIA"), None);
        assert_eq!(Proposal::parse(m, "PIZZA"), None);
        assert_eq!(Proposal::parse(m, ""), None);
    }

    #[test]
    fn wm_ix_4_a_draw_is_a_set_of_powers_whatever_its_spelling() {
        // Issue 21, point 9: `DRAW FRANCE ENGLAND` and `DRAW ENGLAND FRANCE` were two proposals,
        // and `DIAS` was acknowledged and never counted.
        let m = map();
        let fe = Proposal::Draw(vec![p("ENGLAND"), p("FRANCE")]);
        for text in [
            "DRAW FRANCE ENGLAND",
            "DRAW ENGLAND FRANCE",
            "draw france and england",
            "DRAW FRANCE & ENGLAND FRANCE",
            "DRAW English French",
        ] {
            assert_eq!(Proposal::parse(m, text), Some(fe.clone()), "{text}");
        }
        assert_eq!(fe.canonical(m), "DRAW ENGLAND FRANCE");
        assert_eq!(fe.describe(m), "a draw of ENGLAND, FRANCE");
        assert_eq!(Proposal::parse(m, "DIAS"), Some(Proposal::Draw(vec![])));
        assert!(Proposal::read(m, "DIAS FRANCE").is_err());
        let e = Proposal::read(m, "DRAW FRANCE NARNIA").expect_err("no such power");
        assert!(e.contains("NARNIA is no power"), "{e}");
        // A draw naming everyone remaining is the draw of all survivors.
        let two = [p("ENGLAND"), p("FRANCE")];
        assert_eq!(fe.clone().resolved(&two), Proposal::Draw(vec![]));
        assert_eq!(fe.clone().resolved(&all()), fe);
        // Every canonical spelling reads back as itself.
        for prop in [
            fe.clone(),
            Proposal::Draw(vec![]),
            Proposal::Concede(p("TURKEY")),
            Proposal::Continue,
        ] {
            assert_eq!(Proposal::parse(m, &prop.canonical(m)), Some(prop));
        }
    }

    #[test]
    fn wm_ix_2_every_spelling_of_a_proposal_is_counted_together_and_the_last_ballot_counts() {
        // Issue 21, point 9: a unanimous draw failed when the players wrote it differently.
        let m = map();
        let wm = Rules::preset("wm2004").expect("wm");
        let two = [p("ENGLAND"), p("FRANCE")];
        let cast = [
            ("FRANCE", "DRAW FRANCE ENGLAND", Ballot::Yes),
            ("ENGLAND", "DRAW ENGLAND FRANCE", Ballot::No),
            ("ENGLAND", "DIAS", Ballot::Yes),
            ("GERMANY", "PIZZA", Ballot::Yes),
            ("ENGLAND", "RULE submissions merge_per_unit", Ballot::Yes),
            (GM_BALLOT, "RULE SUBMISSIONS MERGE_PER_UNIT", Ballot::Yes),
        ];
        let t = tally(m, &wm, &two, &cast);
        assert_eq!(t.len(), 2, "{t:?}");
        assert_eq!(t[0].proposal, Proposal::Draw(vec![]));
        assert_eq!(
            t[0].ballots,
            vec![(p("FRANCE"), Ballot::Yes), (p("ENGLAND"), Ballot::Yes)]
        );
        assert!(passes(&wm, &t[0].proposal, &two, &t[0].ballots, &[], true));
        assert!(t[1].gm_agrees && !t[0].gm_agrees);
        assert_eq!(t[1].ballots, vec![(p("ENGLAND"), Ballot::Yes)]);
    }

    #[test]
    fn wm_ix_5_a_rule_proposal_names_an_option_and_a_value_it_can_take() {
        // Issue 21, point 9: `VOTE RULE <any text>` published the text in every results mail.
        let m = map();
        let wm = Rules::preset("wm2004").expect("wm");
        let read = |t: &str| read_proposal(m, &wm, t);
        let merged = read("RULE SUBMISSIONS MERGE_PER_UNIT").expect("an option and a value");
        assert_eq!(
            merged,
            read("rule submissions merge_per_unit").expect("same")
        );
        assert_eq!(merged.canonical(m), "RULE submissions merge_per_unit");
        assert_eq!(
            read("RULE MOVEMENT_DAYS 2").expect("days").canonical(m),
            "RULE movement_days 2"
        );
        assert!(
            read("RULE VISIT WWW.SPAM.EXAMPLE NOW").is_err(),
            "no such option"
        );
        assert!(
            read("RULE SUBMISSIONS BUY CHEAP WATCHES").is_err(),
            "no such value"
        );
        assert!(
            read("RULE FINAL_YEAR 1912").is_err(),
            "fixed by the rulebook"
        );
        // The subject format, the one free-text option: only its fields and separators.
        assert_eq!(
            read("RULE SUBJECT_FORMAT {GAME}-{POWER}-{PHASE}")
                .expect("fields")
                .canonical(m),
            "RULE subject_format {game}-{power}-{phase}"
        );
        let e = read("RULE SUBJECT_FORMAT {GAME} {POWER} {PHASE} FRANCE LIES").expect_err("text");
        assert!(e.contains("WM IX(5)"), "{e}");
        assert!(read("RULE SUBJECT_FORMAT HELLO").is_err());
        // The other proposals are read as ever.
        assert_eq!(read("DIAS"), Ok(Proposal::Draw(vec![])));
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
        let read = read_proposal(map(), &wm, "RULE SUBMISSIONS MERGE_PER_UNIT").expect("read");
        assert!(
            read.describe(map())
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
    fn wm_ix_1_maharajiad_x_1_and_wm_ix_5_the_threshold_and_who_may_vote() {
        let wm = Rules::preset("wm2004").expect("wm");
        let mj = Rules::preset("maharajiad").expect("mj");
        assert_eq!(threshold(&wm), Threshold::Unanimity);
        assert_eq!(threshold(&mj), Threshold::UnanimityBarAbstentions);
        let draw = electorate(map(), &Proposal::Draw(vec![]));
        assert_eq!(draw.len(), 7);
        assert!(draw.iter().any(|v| v == "FRANCE") && !draw.iter().any(|v| v == GM_BALLOT));
        let rule = Proposal::Rule {
            option: "submissions".into(),
            value: "merge_per_unit".into(),
        };
        let with_gm = electorate(map(), &rule);
        assert_eq!(with_gm.len(), 8);
        assert!(
            with_gm.iter().any(|v| v == GM_BALLOT),
            "WM IX(5): the GM agrees"
        );
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
/// who owned each centre at the end of each year, oldest first, the year just ended last (each
/// year's owners in one order, whatever the caller keeps them as).
pub fn stalemate<Owner: PartialEq>(ends: &[&[Owner]], years: u16) -> bool {
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
