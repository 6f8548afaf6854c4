//! The Swiss (ACWC 2019, "Qualification" and "Pairing details"): "A Swiss tournament (with a
//! pairing system based on the Monrad system)"; "The Swiss will consist of at least 5 rounds. If
//! there are more than 32 participants, the number of rounds will be the base-2 logarithm of
//! the number of participants, rounded up"; "After each round, the players are ranked based on
//! score, then the average of their opponents' seeding ratings, then their own seeding rating.
//! If there is an odd number of players, the lowest-ranked player (who has not received a bye
//! yet) receives a bye ... assigned a win. This win does not count towards the average of their
//! opponents' seeding ratings. If a player has one win because of a bye, the average opponent
//! seeding rating is considered to be zero. The highest-ranked unpaired player gets paired with
//! the player closest to them (in ranking) that they have not played yet. This process gets
//! repeated until all players are paired"; and "Disqualification and withdrawals": a player who
//! withdraws or is disqualified "will not be included in later pairings".
//!
//! Every pairing comes with its [`Transcript`]: the ranking with its three keys, the bye and
//! each step, so that anyone can check it by hand, as the rules want ("so everyone can
//! independently verify the pairings without requiring specialized software").
//!
//! Decisions where the rules are silent, each documented where it is made:
//! - the number of rounds counts the Swiss's participants when it starts (the field, the fixed
//!   qualifiers left out): 5 up to 32, `ceil(log2 n)` above ([`rounds`]);
//! - scores are kept in half points ([`Score`]): a match won 1 (2 halves), tied 0.5, lost 0, a
//!   bye a win;
//! - the average of the opponents' seeding ratings is exact (a fraction compared by
//!   cross-multiplication, [`OpponentAverage`]); a player with no opponent yet (the first round,
//!   or a bye-only record) averages 0, as the rule says of a bye-only record; an opponent who
//!   withdrew later still counts (the match was played), and a match a withdrawal left unplayed
//!   counts as played with the result the TD recorded ("their opponent wins");
//! - after the three keys, the seed order (by seeding rating, then name) breaks the last ties:
//!   the rule gives none, and it is deterministic and public;
//! - the bye: the lowest-ranked player who has not had one; if every player has had one, the
//!   lowest-ranked. The bye is never moved to make the pairing easier: the rule fixes it before
//!   the pairing starts, and admits the pairing may then need a rematch;
//! - where the literal process dead-ends (the highest-ranked unpaired player has met everyone
//!   still unpaired; the rule admits it: "I'm not sure if this prevents the last two players to
//!   face each other more than once"), the round is paired again from the start by the same
//!   steps, the highest-ranked unpaired player taking the closest-ranked player not yet met
//!   *with whom everyone else can still be paired without a rematch*. That is the literal
//!   process with backtracking: the first rematch-free pairing in the literal order of choices.
//!   It is the literal pairing whenever the literal process completes (it is then never used),
//!   and it finds a rematch-free pairing whenever one exists;
//! - where no rematch-free pairing exists, the fewest rematches, by the same steps: the
//!   highest-ranked unpaired player takes the closest-ranked player (met or not) with whom the
//!   rest can be paired with the fewest rematches still possible;
//! - the players are named exactly as in the field (the entry list): the history is checked
//!   against it and refused where it names someone else ([`SwissError`]).

use crate::Player;
use crate::seeding::{Entrant, SeedingRating, write_halves};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// "Qualification": the number of rounds for `participants` players: "at least 5 rounds. If
/// there are more than 32 participants, the number of rounds will be the base-2 logarithm of
/// the number of participants, rounded up" (6 rounds for 33-64 players, 7 for 65-128). Up to
/// 32 it is 5: "at least 5" sets no other number, and `ceil(log2 32)` is 5 too.
pub fn rounds(participants: usize) -> u32 {
    if participants <= 32 {
        return 5;
    }
    // ceil(log2 n) for n > 1: the number of bits of n - 1.
    let bits = usize::BITS - (participants - 1).leading_zeros();
    bits.max(5)
}

/// "Qualification": a score in half points (a won match 1 point, a tie 0.5, a loss 0; a bye a
/// win).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Score(pub u32);

impl Score {
    /// "A won match gives 1 point"; "Pairing details": a bye is "assigned a win".
    pub const WIN: Score = Score(2);
    /// "a tie (5-5) gives 0.5 points".
    pub const TIE: Score = Score(1);
    /// "a lost match gives 0 points".
    pub const LOSS: Score = Score(0);

    pub fn halves(self) -> u32 {
        self.0
    }
}

impl fmt::Display for Score {
    /// `3` or `2.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_halves(f, u64::from(self.0))
    }
}

/// "Pairing details": the average of a player's opponents' seeding ratings, exact: the sum of
/// their doubled ratings over their number. No opponent (a bye-only record, or the first round)
/// averages 0. Equal and ordered as the averages are (2/1 equals 4/2).
#[derive(Clone, Copy, Debug, Default)]
pub struct OpponentAverage {
    /// The sum of the opponents' seeding ratings, doubled.
    pub doubled_sum: u64,
    /// The number of opponents (byes not counted).
    pub count: u32,
}

impl OpponentAverage {
    /// The fraction compared: `doubled_sum / (2 * count)`, 0 over 1 without opponents.
    fn fraction(self) -> (u128, u128) {
        if self.count == 0 {
            (0, 1)
        } else {
            (u128::from(self.doubled_sum), u128::from(self.count))
        }
    }
}

impl Ord for OpponentAverage {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.fraction(), other.fraction());
        (a.0 * b.1).cmp(&(b.0 * a.1))
    }
}

impl PartialOrd for OpponentAverage {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for OpponentAverage {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for OpponentAverage {}

impl fmt::Display for OpponentAverage {
    /// `0 (no opponent)`, `2150.5` (one opponent), `6451.5/3 = 2150.5`, or
    /// `6452/3 ~ 2150.67` where the decimal would not end: the fraction is exact, the
    /// decimal for the eye.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return f.write_str("0 (no opponent)");
        }
        let den = 2 * u128::from(self.count);
        let num = u128::from(self.doubled_sum);
        if self.count > 1 {
            write_halves(f, self.doubled_sum)?;
            write!(f, "/{} ", self.count)?;
        }
        let hundredths = num * 100 / den;
        let exact = (num * 100) % den == 0;
        let sep = if self.count > 1 {
            if exact { "= " } else { "~ " }
        } else {
            ""
        };
        let (int, frac) = (hundredths / 100, hundredths % 100);
        match (frac, exact) {
            (0, true) => write!(f, "{sep}{int}"),
            (f10, true) if f10 % 10 == 0 => write!(f, "{sep}{int}.{}", f10 / 10),
            _ => {
                // Rounded to the nearest hundredth where the decimal does not end.
                let rounded = (num * 1000 / den + 5) / 10;
                write!(f, "{sep}{}.{:02}", rounded / 100, rounded % 100)
            }
        }
    }
}

/// One opponent a player has met, with their seeding rating (an opponent who withdrew since
/// still counts in the average).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opponent {
    pub player: Player,
    /// Their place in the seed order (a hint: the name decides).
    pub seed: u32,
    pub rating: SeedingRating,
}

/// One active player as a round's pairing needs them ("Pairing details").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub player: Player,
    /// The place in the seed order, 1 the top seed: the last tie-break.
    pub seed: u32,
    pub rating: SeedingRating,
    pub score: Score,
    /// Every match's opponent so far (byes are not matches).
    pub opponents: Vec<Opponent>,
    pub had_bye: bool,
}

impl Standing {
    /// "Pairing details": the average of the opponents' seeding ratings, byes left out.
    pub fn average(&self) -> OpponentAverage {
        OpponentAverage {
            doubled_sum: self
                .opponents
                .iter()
                .map(|o| u64::from(o.rating.doubled()))
                .sum(),
            count: u32::try_from(self.opponents.len()).unwrap_or(u32::MAX),
        }
    }

    pub fn has_met(&self, p: &Player) -> bool {
        self.opponents.iter().any(|o| &o.player == p)
    }
}

/// "Pairing details": the ranking, best first: score, then the opponents' average seeding
/// rating, then the own seeding rating, then the seed order (the rules' keys exhausted), then
/// the name (only for a caller's standings with a seed twice).
pub fn rank_cmp(a: &Standing, b: &Standing) -> Ordering {
    b.score
        .cmp(&a.score)
        .then_with(|| b.average().cmp(&a.average()))
        .then_with(|| b.rating.cmp(&a.rating))
        .then_with(|| a.seed.cmp(&b.seed))
        .then_with(|| a.player.cmp(&b.player))
}

/// A match's result, the first-named player's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    FirstWon,
    Tie,
    SecondWon,
}

impl Outcome {
    /// "Qualification": the points each player gets (in half points), the first's first.
    pub fn scores(self) -> (Score, Score) {
        match self {
            Outcome::FirstWon => (Score::WIN, Score::LOSS),
            Outcome::Tie => (Score::TIE, Score::TIE),
            Outcome::SecondWon => (Score::LOSS, Score::WIN),
        }
    }
}

/// One match of a round as it was paired, and its result once known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    pub first: Player,
    pub second: Player,
    /// None while the match is unplayed (only a round not yet finished).
    #[serde(default)]
    pub outcome: Option<Outcome>,
}

/// One round as it was played: who had withdrawn or been disqualified before it was paired, its
/// bye and its matches.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// Withdrawn or disqualified since the previous round was paired ("will not be included in
    /// later pairings").
    #[serde(default)]
    pub withdrawn: Vec<Player>,
    #[serde(default)]
    pub bye: Option<Player>,
    #[serde(default)]
    pub matches: Vec<Match>,
}

/// Why a history or a round's standings cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwissError {
    /// A name not in the field.
    UnknownPlayer { round: u32, player: Player },
    /// A player twice in one round (in two matches, or in a match and the bye).
    Twice { round: u32, player: Player },
    /// "will not be included in later pairings": a withdrawn player paired or given a bye.
    Withdrawn { round: u32, player: Player },
    /// A match of a finished round with no result.
    MissingResult {
        round: u32,
        first: Player,
        second: Player,
    },
    /// The standings of one round name a player twice.
    DuplicateStanding(Player),
}

impl fmt::Display for SwissError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwissError::UnknownPlayer { round, player } => {
                write!(f, "round {round}: {player} is not in the Swiss")
            }
            SwissError::Twice { round, player } => {
                write!(f, "round {round}: {player} is paired twice")
            }
            SwissError::Withdrawn { round, player } => write!(
                f,
                "round {round}: {player} had withdrawn and is not included in later pairings"
            ),
            SwissError::MissingResult {
                round,
                first,
                second,
            } => write!(f, "round {round}: {first} v {second} has no result"),
            SwissError::DuplicateStanding(p) => write!(f, "{p} is in the standings twice"),
        }
    }
}

impl std::error::Error for SwissError {}

/// The field by name: each player's index in seed order.
fn field_index(field: &[Entrant]) -> BTreeMap<&Player, usize> {
    field
        .iter()
        .enumerate()
        .map(|(i, e)| (&e.player, i))
        .collect()
}

/// Checks one round's names against the field and the withdrawals, and gives each match's
/// players' indices.
fn check_round(
    number: u32,
    round: &Round,
    index: &BTreeMap<&Player, usize>,
    out: &BTreeSet<usize>,
    finished: bool,
) -> Result<Vec<(usize, usize, Option<Outcome>)>, SwissError> {
    let mut seen = vec![false; index.len()];
    let mut take = |p: &Player| -> Result<usize, SwissError> {
        let i = *index.get(p).ok_or_else(|| SwissError::UnknownPlayer {
            round: number,
            player: p.clone(),
        })?;
        if out.contains(&i) {
            return Err(SwissError::Withdrawn {
                round: number,
                player: p.clone(),
            });
        }
        if std::mem::replace(&mut seen[i], true) {
            return Err(SwissError::Twice {
                round: number,
                player: p.clone(),
            });
        }
        Ok(i)
    };
    if let Some(b) = &round.bye {
        take(b)?;
    }
    let mut matches = Vec::with_capacity(round.matches.len());
    for m in &round.matches {
        let (a, b) = (take(&m.first)?, take(&m.second)?);
        if finished && m.outcome.is_none() {
            return Err(SwissError::MissingResult {
                round: number,
                first: m.first.clone(),
                second: m.second.clone(),
            });
        }
        matches.push((a, b, m.outcome));
    }
    Ok(matches)
}

/// Marks `withdrawn` out, by the field's names.
fn withdraw(
    number: u32,
    withdrawn: &[Player],
    index: &BTreeMap<&Player, usize>,
    out: &mut BTreeSet<usize>,
) -> Result<(), SwissError> {
    for p in withdrawn {
        let i = index.get(p).ok_or_else(|| SwissError::UnknownPlayer {
            round: number,
            player: p.clone(),
        })?;
        out.insert(*i);
    }
    Ok(())
}

/// The Swiss's records as its rounds are played: each player of the field (in seed order) with
/// their score, opponents and bye, and who has withdrawn. Built one round at a time, so that a
/// whole tournament is read once.
#[derive(Clone, Debug)]
pub struct Ledger<'a> {
    field: &'a [Entrant],
    index: BTreeMap<&'a Player, usize>,
    table: Vec<Standing>,
    out: BTreeSet<usize>,
    played: u32,
}

impl<'a> Ledger<'a> {
    /// Before the first round: the field, in seed order.
    pub fn new(field: &'a [Entrant]) -> Ledger<'a> {
        let table = field
            .iter()
            .enumerate()
            .map(|(i, e)| Standing {
                player: e.player.clone(),
                seed: u32::try_from(i + 1).unwrap_or(u32::MAX),
                rating: e.seeding.rating(),
                score: Score::LOSS,
                opponents: Vec::new(),
                had_bye: false,
            })
            .collect();
        Ledger {
            field,
            index: field_index(field),
            table,
            out: BTreeSet::new(),
            played: 0,
        }
    }

    /// The number of rounds recorded.
    pub fn played(&self) -> u32 {
        self.played
    }

    /// "Qualification", "Pairing details": one finished round's withdrawals, bye and results,
    /// checked against the field (every match needs its result). A refused round changes
    /// nothing.
    pub fn record(&mut self, round: &Round) -> Result<(), SwissError> {
        let number = self.played + 1;
        let mut out = self.out.clone();
        withdraw(number, &round.withdrawn, &self.index, &mut out)?;
        let matches = check_round(number, round, &self.index, &out, true)?;
        self.out = out;
        self.played = number;
        if let Some(i) = round.bye.as_ref().and_then(|b| self.index.get(b)) {
            self.table[*i].score.0 += Score::WIN.0;
            self.table[*i].had_bye = true;
        }
        for (a, b, outcome) in matches {
            let (sa, sb) = outcome.map_or((Score::LOSS, Score::LOSS), Outcome::scores);
            self.table[a].score.0 += sa.0;
            self.table[b].score.0 += sb.0;
            let (oa, ob) = (opponent(self.field, b), opponent(self.field, a));
            self.table[a].opponents.push(oa);
            self.table[b].opponents.push(ob);
        }
        Ok(())
    }

    /// "Disqualification and withdrawals": the standings of the players to be paired next, the
    /// field less everyone withdrawn before or in `withdrawn_now`.
    pub fn standings(&self, withdrawn_now: &[Player]) -> Result<Vec<Standing>, SwissError> {
        Ok(self.active(withdrawn_now)?.into_iter().cloned().collect())
    }

    fn active(&self, withdrawn_now: &[Player]) -> Result<Vec<&Standing>, SwissError> {
        let mut out = self.out.clone();
        withdraw(self.played + 1, withdrawn_now, &self.index, &mut out)?;
        Ok(self
            .table
            .iter()
            .enumerate()
            .filter(|(i, _)| !out.contains(i))
            .map(|(_, s)| s)
            .collect())
    }

    /// "Pairing details": the next round's pairing.
    pub fn pair_next(&self, withdrawn_now: &[Player]) -> Result<Pairings, SwissError> {
        pair_refs(self.played.saturating_add(1), self.active(withdrawn_now)?)
    }
}

/// "Pairing details", "Disqualification and withdrawals": the standings of the players to be
/// paired in the round after `history` (its number `history.len() + 1`): the field (in seed
/// order) less everyone withdrawn in the history or in `withdrawn_now`, each with their score,
/// opponents and bye from the finished rounds. Every finished match needs its result.
pub fn standings(
    field: &[Entrant],
    history: &[Round],
    withdrawn_now: &[Player],
) -> Result<Vec<Standing>, SwissError> {
    let mut ledger = Ledger::new(field);
    for round in history {
        ledger.record(round)?;
    }
    ledger.standings(withdrawn_now)
}

fn opponent(field: &[Entrant], i: usize) -> Opponent {
    let e = &field[i];
    Opponent {
        player: e.player.clone(),
        seed: u32::try_from(i + 1).unwrap_or(u32::MAX),
        rating: e.seeding.rating(),
    }
}

/// A player and their place in the round's ranking (1 the best), as the transcript names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranked {
    pub player: Player,
    pub rank: usize,
}

impl fmt::Display for Ranked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (rank {})", self.player, self.rank)
    }
}

/// One line of the ranking with the rule's three keys and the seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankRow {
    pub rank: usize,
    pub player: Player,
    pub score: Score,
    pub average: OpponentAverageRow,
    pub rating: SeedingRating,
    pub seed: u32,
    pub had_bye: bool,
}

/// [`OpponentAverage`] as a transcript keeps it (serialisable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpponentAverageRow {
    pub doubled_sum: u64,
    pub count: u32,
}

impl From<OpponentAverage> for OpponentAverageRow {
    fn from(a: OpponentAverage) -> Self {
        OpponentAverageRow {
            doubled_sum: a.doubled_sum,
            count: a.count,
        }
    }
}

impl From<OpponentAverageRow> for OpponentAverage {
    fn from(a: OpponentAverageRow) -> Self {
        OpponentAverage {
            doubled_sum: a.doubled_sum,
            count: a.count,
        }
    }
}

/// "Pairing details": who has the bye and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ByeLine {
    /// An even number of players: no bye.
    None,
    /// The lowest-ranked player who has not had a bye; `passed` are the players ranked below
    /// them, who all had one already.
    Lowest { player: Ranked, passed: Vec<Ranked> },
    /// Every player has had a bye: the lowest-ranked has another (the rules are silent).
    EveryoneHadOne { player: Ranked },
}

/// Why a pairing step passed over a player ranked closer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SkipReason {
    /// "that they have not played yet": they have.
    AlreadyMet,
    /// The fallback: with this pairing the others could not all be paired without a rematch.
    RestNeedsRematch,
    /// The fewest-rematches fallback: with this pairing the round would need more rematches
    /// than the fewest possible.
    MoreRematches,
}

/// A player passed over in a step, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skip {
    pub player: Ranked,
    pub reason: SkipReason,
}

/// One pairing step: the highest-ranked unpaired player, who they were paired with, and who was
/// passed over on the way (closest first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub top: Ranked,
    pub with: Ranked,
    pub skipped: Vec<Skip>,
    /// Only in the fewest-rematches fallback: the two had met.
    pub rematch: bool,
}

/// Where the literal process stopped: `player` has met every player still unpaired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeadEnd {
    pub player: Ranked,
    pub unpaired: Vec<Ranked>,
}

/// How a round was paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Method {
    /// The rule as written completed.
    Literal,
    /// The literal process dead-ended; the first rematch-free pairing in its order of choices.
    RematchFree,
    /// No rematch-free pairing exists; the fewest rematches, in the literal order of choices.
    FewestRematches,
}

/// Every pairings mail's transcript: the ranking with its three keys, the bye and each step,
/// so anyone can check the pairing by hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transcript {
    pub round: u32,
    pub ranking: Vec<RankRow>,
    pub bye: ByeLine,
    /// The literal process's steps, up to its dead end if it had one.
    pub literal: Vec<Step>,
    pub dead_end: Option<DeadEnd>,
    /// The fallback's steps, from the start, where the literal process dead-ended.
    pub fallback: Vec<Step>,
    pub method: Method,
}

/// A round's pairing ("Pairing details").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairings {
    pub round: u32,
    pub bye: Option<Player>,
    /// In the order paired, the higher-ranked player first.
    pub pairs: Vec<(Player, Player)>,
    pub transcript: Transcript,
    /// The literal process dead-ended and the documented fallback paired the round.
    pub fallback_used: bool,
    /// Pairs who had met before (only when no rematch-free pairing exists).
    pub rematches: usize,
}

/// The round's players in ranking order, and who has met whom (by rank).
pub(crate) struct Table<'a> {
    pub(crate) ranked: Vec<&'a Standing>,
    pub(crate) averages: Vec<OpponentAverage>,
    pub(crate) met: Vec<bool>,
}

impl<'a> Table<'a> {
    pub(crate) fn new(standings: Vec<&'a Standing>) -> Result<Table<'a>, SwissError> {
        let mut keyed: Vec<(OpponentAverage, &Standing)> =
            standings.into_iter().map(|s| (s.average(), s)).collect();
        // rank_cmp, with each average summed once.
        keyed.sort_by(|(aa, a), (ab, b)| {
            b.score
                .cmp(&a.score)
                .then_with(|| ab.cmp(aa))
                .then_with(|| b.rating.cmp(&a.rating))
                .then_with(|| a.seed.cmp(&b.seed))
                .then_with(|| a.player.cmp(&b.player))
        });
        let (averages, ranked): (Vec<_>, Vec<_>) = keyed.into_iter().unzip();
        let m = ranked.len();
        let mut names: Vec<(&Player, usize)> = ranked
            .iter()
            .enumerate()
            .map(|(i, s)| (&s.player, i))
            .collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(SwissError::DuplicateStanding(w[0].0.clone()));
        }
        let by_name = |p: &Player| {
            names
                .binary_search_by(|(n, _)| (*n).cmp(p))
                .ok()
                .map(|k| names[k].1)
        };
        // Each opponent's rank by their seed, checked by name; by name where the seed misleads.
        // Seeds run to the field's size (withdrawals leave gaps); a bounded table, whatever the
        // caller's seeds.
        let top = ranked.iter().map(|s| s.seed as usize).max().unwrap_or(0);
        let mut rank_of_seed = vec![usize::MAX; top.min(4 * m + 8) + 1];
        for (i, s) in ranked.iter().enumerate() {
            if let Some(r) = rank_of_seed.get_mut(s.seed as usize) {
                *r = i;
            }
        }
        let rank_of = |o: &Opponent| match rank_of_seed.get(o.seed as usize) {
            Some(&r) if r != usize::MAX && ranked[r].player == o.player => Some(r),
            _ => by_name(&o.player),
        };
        let mut met = vec![false; m * m];
        for (i, s) in ranked.iter().enumerate() {
            for o in &s.opponents {
                if let Some(j) = rank_of(o) {
                    met[i * m + j] = true;
                    met[j * m + i] = true;
                }
            }
        }
        Ok(Table {
            ranked,
            averages,
            met,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.ranked.len()
    }

    pub(crate) fn met(&self, a: usize, b: usize) -> bool {
        self.met[a * self.len() + b]
    }

    fn ranked_at(&self, i: usize) -> Ranked {
        Ranked {
            player: self.ranked[i].player.clone(),
            rank: i + 1,
        }
    }
}

/// "Pairing details": the bye's rank (0-based) and its line; none for an even number.
fn choose_bye(t: &Table) -> (Option<usize>, ByeLine) {
    let m = t.len();
    if m.is_multiple_of(2) {
        return (None, ByeLine::None);
    }
    match (0..m).rev().find(|&i| !t.ranked[i].had_bye) {
        Some(i) => (
            Some(i),
            ByeLine::Lowest {
                player: t.ranked_at(i),
                passed: (i + 1..m).map(|j| t.ranked_at(j)).collect(),
            },
        ),
        None => (
            Some(m - 1),
            ByeLine::EveryoneHadOne {
                player: t.ranked_at(m - 1),
            },
        ),
    }
}

/// "Pairing details", as written: the highest-ranked unpaired player with the closest-ranked
/// unpaired player they have not played; the steps taken, and the dead end if there was one.
fn literal(t: &Table, live: &[bool]) -> (Vec<(usize, usize)>, Vec<Step>, Option<DeadEnd>) {
    let m = t.len();
    let mut live = live.to_vec();
    let (mut pairs, mut steps) = (Vec::new(), Vec::new());
    while let Some(p) = (0..m).find(|&i| live[i]) {
        live[p] = false;
        let mut skipped = Vec::new();
        let mut with = None;
        for q in (p + 1..m).filter(|&q| live[q]) {
            if t.met(p, q) {
                skipped.push(Skip {
                    player: t.ranked_at(q),
                    reason: SkipReason::AlreadyMet,
                });
            } else {
                with = Some(q);
                break;
            }
        }
        let Some(q) = with else {
            let dead = DeadEnd {
                player: t.ranked_at(p),
                unpaired: skipped.into_iter().map(|s| s.player).collect(),
            };
            return (pairs, steps, Some(dead));
        };
        live[q] = false;
        pairs.push((p, q));
        steps.push(Step {
            top: t.ranked_at(p),
            with: t.ranked_at(q),
            skipped,
            rematch: false,
        });
    }
    (pairs, steps, None)
}

/// "Pairing details": the round `round`'s pairing of `standings` (the active players, in any
/// order), with its transcript; the documented fallbacks where the literal process
/// dead-ends (see the module's docs).
pub fn pair(round: u32, standings: &[Standing]) -> Result<Pairings, SwissError> {
    pair_refs(round, standings.iter().collect())
}

fn pair_refs(round: u32, standings: Vec<&Standing>) -> Result<Pairings, SwissError> {
    let t = Table::new(standings)?;
    let m = t.len();
    let (bye, bye_line) = choose_bye(&t);
    let mut live = vec![true; m];
    if let Some(b) = bye {
        live[b] = false;
    }
    let (lit_pairs, lit_steps, dead_end) = literal(&t, &live);
    let (pairs, fallback, method) = if dead_end.is_none() {
        (lit_pairs, Vec::new(), Method::Literal)
    } else {
        match fallback::rematch_free(&t, &live, &lit_pairs) {
            Some((pairs, steps)) => (pairs, steps, Method::RematchFree),
            None => {
                let (pairs, steps) = fallback::fewest_rematches(&t, &live);
                (pairs, steps, Method::FewestRematches)
            }
        }
    };
    let rematches = pairs.iter().filter(|&&(a, b)| t.met(a, b)).count();
    let name = |i: usize| t.ranked[i].player.clone();
    let ranking = (0..m).map(|i| rank_row(&t, i)).collect();
    Ok(Pairings {
        round,
        bye: bye.map(name),
        pairs: pairs.iter().map(|&(a, b)| (name(a), name(b))).collect(),
        transcript: Transcript {
            round,
            ranking,
            bye: bye_line,
            literal: lit_steps,
            dead_end,
            fallback,
            method,
        },
        fallback_used: method != Method::Literal,
        rematches,
    })
}

fn rank_row(t: &Table, i: usize) -> RankRow {
    let s = &t.ranked[i];
    RankRow {
        rank: i + 1,
        player: s.player.clone(),
        score: s.score,
        average: t.averages[i].into(),
        rating: s.rating,
        seed: s.seed,
        had_bye: s.had_bye,
    }
}

/// "Pairing details": the pairing of the round after `history`, the field in seed order and
/// `withdrawn_now` the players withdrawn or disqualified since the last round was paired.
pub fn pair_next(
    field: &[Entrant],
    history: &[Round],
    withdrawn_now: &[Player],
) -> Result<Pairings, SwissError> {
    let mut ledger = Ledger::new(field);
    for round in history {
        ledger.record(round)?;
    }
    ledger.pair_next(withdrawn_now)
}

mod fallback;
mod transcript;

#[cfg(test)]
mod tests;
