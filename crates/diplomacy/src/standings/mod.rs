//! A tournament's standings after a round, as its rulebook says (WM 2004 B.4, C.6-C.15;
//! Maharajiad I A.16-A.24): each finished game scored ([`crate::scoring`]), each player's round
//! score (prorated, C.14; only the first permanent game counts for advancement, C.15), team
//! credits and team standings, the ranking with every tie-break, who advances (declines
//! included), and the best countries. Pure: the games' facts are passed in; the same input gives
//! the same output, byte for byte, dice included (a published seed).
//!
//! This file holds what both rulebooks share: the types in and out, the ranking (one helper for
//! every list), the games scored and what a round's list is made of, and the best countries.
//! Each rulebook's rounds are in a file of its own (`wm2004.rs`: WM 2004 B.4, C.6-C.12;
//! `maharajiad.rs`: Maharajiad I A.16-A.21); the CSV is in `csv.rs`, the `chancery score`
//! contract in [`contract`], the unit tests' fixtures in `fixtures.rs`.

use crate::map::{Map, Power};
use crate::phase::Phase;
use crate::scoring::{self, CountryGame, PowerScore};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

pub use crate::scoring::{End, Rulebook, Stint};

pub mod contract;
mod csv;
#[cfg(test)]
mod fixtures;
mod maharajiad;
mod wm2004;

pub use csv::csv;
pub use wm2004::{wm_round_two_boards, wm_round_two_boards_for};

/// One entrant of the tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// The entrant's key (their address); unique.
    pub name: String,
    /// Their team (WM B.2); None for a reserve outside any team, or under the Maharajiad.
    pub team: Option<String>,
}

/// One power's position in a game: who played it, in order (the first from the start).
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    pub power: Power,
    pub stints: Vec<Stint>,
}

/// One finished game of a round.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// 1-based round number.
    pub round: u8,
    /// 1-based board number within the round.
    pub board: u32,
    pub start_year: u16,
    /// None: played until the victory criterion (Maharajiad A.10's second round).
    pub final_year: Option<u16>,
    /// The last phase played.
    pub ended_after: Phase,
    pub end: End,
    /// Each power's centres at the end.
    pub centres: Vec<(Power, u32)>,
    /// Each power's centres at the end of each year played, oldest first.
    pub history: Vec<(u16, Vec<(Power, u32)>)>,
    pub positions: Vec<Position>,
}

impl GameResult {
    /// The year the count-backs start after: the final year, or, without one, the last year
    /// played.
    pub fn last_year(&self) -> u16 {
        self.final_year.unwrap_or(self.ended_after.year)
    }
}

/// WM B.4: what the second round of a WM tournament is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundTwo {
    /// B.1: the second team round (C.8, C.12), then the semi-final and the final.
    #[default]
    TeamRound,
    /// B.4: "where less than 42 teams enter the tournament, the second round will become the
    /// semi-final and will no longer apply to the team competition": round two is scored as
    /// the semi-final (C.9-C.10), round three is the final (C.11), and the team competition is
    /// round one's alone (C.12).
    SemiFinal,
}

impl RoundTwo {
    /// B.4's rule from the number of teams entered.
    pub fn by_b4(teams: usize) -> RoundTwo {
        if teams < 42 {
            RoundTwo::SemiFinal
        } else {
            RoundTwo::TeamRound
        }
    }
}

/// What the standings are computed from.
#[derive(Clone, Debug)]
pub struct TournamentIn<'a> {
    pub rulebook: Rulebook,
    pub map: &'a Map,
    /// The published seed of the dice (for example the tournament id).
    pub seed: String,
    pub entrants: Vec<Entrant>,
    /// Every finished game of every round so far.
    pub games: Vec<GameResult>,
    /// Entrants who declined to play the next round (WM C.10, Maharajiad A.21).
    pub declined: Vec<String>,
    /// How many players advance from each round (index 0: round one); None: the rulebook's
    /// default (WM B.4 for round one, 49 for round two, one per board for the semi-final;
    /// Maharajiad A.16: each board's best plus one).
    pub advance: Vec<Option<usize>>,
    /// WM B.4: whether round two is a team round or the semi-final (the Maharajiad ignores it).
    pub round_two: RoundTwo,
}

/// One player's place in a round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerPlace {
    pub place: usize,
    pub player: String,
    pub team: Option<String>,
    /// The power and board of the game that counts (C.15), if any.
    pub power: Option<String>,
    pub board: Option<u32>,
    /// The score the ranking is by (WM round one: with team credits; round two: the aggregate
    /// of C.8; the final: centres, C.11).
    pub score: f64,
    /// The game's score alone (prorated).
    pub game_score: f64,
    pub credits: f64,
    pub bonus: f64,
    /// What separated this place from the next one down, naming its clause: "score",
    /// "WM C.7(a) least successful country", "WM C.7(d) count-back 1907", "d100 (37 to 12)",
    /// or "tied" when nothing did.
    pub decided_by: String,
    pub advances: bool,
    pub declined: bool,
}

/// One team's place (WM C.6, C.12).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamPlace {
    pub place: usize,
    pub team: String,
    pub score: f64,
    /// Round one credits each of its players gets (C.6): 10 for the first team to 1 for the
    /// tenth.
    pub credits: f64,
    pub decided_by: String,
}

/// The best game of one power (WM C.13, Maharajiad A.22).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BestCountry {
    pub power: String,
    pub player: String,
    pub round: u8,
    pub board: u32,
    pub score: f64,
    pub decided_by: String,
}

/// The standings after a round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standings {
    pub round: u8,
    pub players: Vec<PlayerPlace>,
    pub teams: Vec<TeamPlace>,
    pub best_country: Vec<BestCountry>,
    /// Who advances to the next round, in order; empty after the last round.
    pub advancing: Vec<String>,
    /// The tournament's winner after its last round (WM C.11, Maharajiad A.17).
    pub winner: Option<String>,
    /// The team winner (WM C.12), after round two.
    pub team_winner: Option<String>,
}

/// The seed of the dice of a round's last tie-break (WM C.7(f), Maharajiad A.19(c)):
/// `"<tournament seed> round <n>"`, for example `"wm2004 round 1"`. Each player's roll is
/// [`scoring::d100`]`(that seed, the player's name)`, so anyone can check it.
pub fn dice_seed(seed: &str, round: u8) -> String {
    format!("{seed} round {round}")
}

/// The seed of the best-country dice (WM C.13(c), Maharajiad A.22(b)):
/// `"<tournament seed> best country"`; each game's roll is [`scoring::d100`]`(that seed, its
/// player's name)`.
pub fn best_country_seed(seed: &str) -> String {
    format!("{seed} best country")
}

// ---------------------------------------------------------------------------------------------
// The ranking: one helper for every list (players and teams, every round, both rulebooks).

/// How a criterion says what it decided.
#[derive(Clone)]
enum Detail {
    /// By its label alone.
    Plain,
    /// A count-back: the label and the year of the first element that differs (`years[i]` is
    /// the year of the key's element i).
    Years(Vec<u16>),
    /// A dice roll: the label and both rolls, "(83 to 41)".
    Rolls,
}

/// One criterion of a ranking, in the rulebook's order; its label names the clause.
#[derive(Clone)]
struct Criterion {
    label: String,
    detail: Detail,
}

impl Criterion {
    fn plain(label: &str) -> Criterion {
        Criterion {
            label: label.to_string(),
            detail: Detail::Plain,
        }
    }

    fn years(label: &str, years: &[u16]) -> Criterion {
        Criterion {
            label: label.to_string(),
            detail: Detail::Years(years.to_vec()),
        }
    }

    fn rolls(label: &str) -> Criterion {
        Criterion {
            label: label.to_string(),
            detail: Detail::Rolls,
        }
    }

    /// What this criterion decided between `a` (ranked higher) and `b`, which first differ at
    /// element `at`.
    fn describe(&self, a: &[f64], b: &[f64], at: usize) -> String {
        match &self.detail {
            Detail::Plain => self.label.clone(),
            Detail::Years(years) => match years.get(at) {
                Some(y) => format!("{} {y}", self.label),
                None => self.label.clone(),
            },
            Detail::Rolls => {
                let roll = |k: &[f64]| k.first().map_or(0.0, |x| *x);
                format!("{} ({:.0} to {:.0})", self.label, roll(a), roll(b))
            }
        }
    }
}

/// One entry to rank: its name (the last order, for a stable output: by name) and one key per
/// criterion, each compared element by element, higher first. A missing key is empty.
#[derive(Clone)]
struct Entry {
    name: String,
    keys: Vec<Vec<f64>>,
}

/// An entry ranked: its index in the input, its place (shared with the entry above when nothing
/// separated them) and what separated it from the next one down.
struct Ranked {
    index: usize,
    place: usize,
    decided_by: String,
}

/// Keys compare to the millionth: scores are sums of fractions (a shared bonus, a prorated
/// share, half a score), and one value reached by two paths may differ in its last bit. The
/// true values are fractions with small denominators, far apart at this grid. -0 is 0.
fn grid(x: f64) -> f64 {
    let g = (x * 1e6).round();
    if g == 0.0 { 0.0 } else { g }
}

/// Where two keys first differ (an element, or the end of the shorter one).
fn first_difference(a: &[f64], b: &[f64]) -> Option<usize> {
    let common = a.len().min(b.len());
    (0..common)
        .find(|&i| grid(a[i]).total_cmp(&grid(b[i])) != Ordering::Equal)
        .or((a.len() != b.len()).then_some(common))
}

fn cmp_key(a: &[f64], b: &[f64]) -> Ordering {
    match first_difference(a, b) {
        None => Ordering::Equal,
        Some(i) => match (a.get(i), b.get(i)) {
            (Some(x), Some(y)) => grid(*x).total_cmp(&grid(*y)),
            _ => a.len().cmp(&b.len()),
        },
    }
}

fn key_of(e: &Entry, c: usize) -> &[f64] {
    e.keys.get(c).map_or(&[], Vec::as_slice)
}

/// How `a` and `b` compare by `criteria` in order (each key higher first), then by name.
fn compare(criteria: &[Criterion], a: &Entry, b: &Entry) -> Ordering {
    (0..criteria.len())
        .map(|c| cmp_key(key_of(b, c), key_of(a, c)))
        .find(|o| *o != Ordering::Equal)
        .unwrap_or_else(|| a.name.cmp(&b.name))
}

/// What separates `a` from `b` (ranked next below it): the first criterion that differs, said
/// with its clause, or "tied".
fn separation(criteria: &[Criterion], a: &Entry, b: &Entry) -> String {
    criteria
        .iter()
        .enumerate()
        .find_map(|(c, criterion)| {
            let (x, y) = (key_of(a, c), key_of(b, c));
            first_difference(x, y).map(|at| criterion.describe(x, y, at))
        })
        .unwrap_or_else(|| "tied".to_string())
}

/// Ranks `entries` by `criteria` in order (each key higher first), then by name. Every list of
/// the standings is made by this.
fn rank(criteria: &[Criterion], entries: &[Entry]) -> Vec<Ranked> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&i, &j| compare(criteria, &entries[i], &entries[j]));
    let mut out: Vec<Ranked> = Vec::with_capacity(order.len());
    for (k, &i) in order.iter().enumerate() {
        let decided_by = match order.get(k + 1) {
            None => "score".to_string(),
            Some(&j) => separation(criteria, &entries[i], &entries[j]),
        };
        let place = match out.last() {
            Some(above) if above.decided_by == "tied" => above.place,
            _ => k + 1,
        };
        out.push(Ranked {
            index: i,
            place,
            decided_by,
        });
    }
    out
}

/// A player's entry whose first criterion is the score: a player with no game that counts ("who
/// plays in no game") ranks after every player with one, level with the others like them on
/// every criterion (so by name, "tied"). `seated`: the score and the other criteria's keys.
fn player_entry(name: &str, seated: Option<(f64, Vec<Vec<f64>>)>) -> Entry {
    let keys = match seated {
        Some((score, rest)) => std::iter::once(vec![1.0, score]).chain(rest).collect(),
        None => vec![vec![0.0, 0.0]],
    };
    Entry {
        name: name.to_string(),
        keys,
    }
}

/// WM C.6(a), C.12(b)-(c): "Total score with the highest individual score removed from the
/// calculation (or with further scores removed until a result is achieved)": the total less the
/// highest one, the highest two, ... (`width` steps, the same for every team).
fn removal_key(total: f64, scores: &[f64], width: usize) -> Vec<f64> {
    let mut sorted = scores.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let mut left = total;
    (0..width)
        .map(|k| {
            left -= sorted.get(k).copied().unwrap_or(0.0);
            left
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The games scored.

/// One player's part of a position (WM C.14, Maharajiad A.23): their stints in it, summed.
struct Share {
    player: String,
    /// The prorated score, bonus and scored centres.
    score: f64,
    bonus: f64,
    centres: f64,
    /// The seasons credited (C.14), and the last stint of theirs (for the best country).
    seasons: u32,
    last_stint: usize,
    /// The first phase from which they held the position permanently (C.15), if ever.
    permanent_from: Option<Phase>,
}

/// One power's position in a scored game.
struct Pos {
    power: Power,
    /// The position's full score (WM: bonus and centres; Maharajiad: the scored centres).
    score: f64,
    /// The power's centres at the end of each year, for the count-backs (C.5, A.18 applied).
    history: Vec<(u16, u32)>,
    /// The player who started the position: C.14, "the team will be credited the full" score.
    initial: Option<String>,
    /// WM B.8(e): a player from outside the initial player's team took the position over
    /// permanently, so the team loses its points.
    forfeited: bool,
    shares: Vec<Share>,
}

impl Pos {
    /// Who the position's game is credited to for the best country (WM C.13, Maharajiad A.22)
    /// when it changed hands: the player credited with the most seasons (C.14, A.23), level
    /// ones by who held it last. One player per game, whose game it mostly was: a player who
    /// left after two seasons of a game another went on to win is not its best country.
    fn best_country_player(&self) -> Option<&str> {
        self.shares
            .iter()
            .max_by_key(|s| (s.seasons, s.last_stint))
            .map(|s| s.player.as_str())
    }
}

struct Scored<'t> {
    game: &'t GameResult,
    positions: Vec<Pos>,
}

/// Scores one finished game: each position by WM C.1-C.4 or Maharajiad A.16-A.17 (a draw's
/// left-out survivors eliminated, WM D.IX(4)), its count-back years by C.5 / A.18, and each
/// player's prorated share by C.14 / A.23.
fn score_game<'t>(
    rulebook: Rulebook,
    g: &'t GameResult,
    team_of: &BTreeMap<&str, Option<&str>>,
) -> Scored<'t> {
    let scores = scoring::scores(rulebook, &g.centres, &g.end);
    // C.5 / A.18: a game ended by vote has its counts carried to the final year.
    let history = scoring::years_scored(rulebook, &g.history, g.final_year, g.ended_after, &g.end);
    let seasons = scoring::seasons_in_game(g.start_year, g.final_year, g.ended_after);
    let team = |p: &str| team_of.get(p).copied().flatten();
    let positions = g
        .positions
        .iter()
        .map(|pos| {
            let scored: Option<&PowerScore> = scores.iter().find(|s| s.power == pos.power);
            let (score, bonus, centres) = scored.map_or((0.0, 0.0, 0.0), |s| {
                (s.score, s.bonus, f64::from(s.centres))
            });
            let credited =
                scoring::credited_seasons(g.start_year, g.final_year, &pos.stints, g.ended_after);
            let mut shares: Vec<Share> = Vec::new();
            for (i, (stint, played)) in pos.stints.iter().zip(credited).enumerate() {
                let k = match shares.iter().position(|s| s.player == stint.player) {
                    Some(k) => k,
                    None => {
                        shares.push(Share {
                            player: stint.player.clone(),
                            score: 0.0,
                            bonus: 0.0,
                            centres: 0.0,
                            seasons: 0,
                            last_stint: i,
                            permanent_from: None,
                        });
                        shares.len() - 1
                    }
                };
                let s = &mut shares[k];
                s.seasons += played;
                s.last_stint = i;
                if stint.permanent {
                    s.permanent_from = Some(match s.permanent_from {
                        Some(f) => f.min(stint.from),
                        None => stint.from,
                    });
                }
            }
            // C.14: "Total number of points" x "Number of seasons played" / "Total number of
            // seasons in the game"; the bonus and the centres in the same proportion.
            for s in &mut shares {
                s.score = scoring::prorate(score, s.seasons, seasons);
                s.bonus = scoring::prorate(bonus, s.seasons, seasons);
                s.centres = scoring::prorate(centres, s.seasons, seasons);
            }
            let initial = pos.stints.first().map(|s| s.player.clone());
            let initial_team = initial.as_deref().and_then(team);
            // B.8(e): "Where a captain or team fail to provide a replacement, they will lose any
            // points given to the position"; a permanent replacement from outside the team is
            // such a failure (a temporary one is not: the position stays the team's).
            let forfeited = initial_team.is_some()
                && pos
                    .stints
                    .iter()
                    .skip(1)
                    .any(|s| s.permanent && team(&s.player) != initial_team);
            let history = history
                .iter()
                .map(|(y, row)| {
                    let c = row.iter().find(|x| x.0 == pos.power).map_or(0, |x| x.1);
                    (*y, c)
                })
                .collect();
            Pos {
                power: pos.power,
                score,
                history,
                initial,
                forfeited,
                shares,
            }
        })
        .collect();
    Scored { game: g, positions }
}

/// The game that counts for a player in a round (C.15), with their share of it.
#[derive(Clone, Copy)]
struct Seat<'c> {
    game: &'c GameResult,
    pos: &'c Pos,
    share: &'c Share,
}

/// A player of a round, with the numbers their row shows.
struct Cand<'c> {
    name: String,
    seat: Option<Seat<'c>>,
    /// What the ranking is by (with credits, the aggregate, the centres...).
    score: f64,
    credits: f64,
}

/// One round's list, and what later rounds need of it.
struct RoundOut {
    players: Vec<PlayerPlace>,
    advancing: Vec<String>,
    /// Each player's place by this round's criterion (C.7, C.8, C.9, A.19), for the tie-break of
    /// a later round that refers to it.
    rank: BTreeMap<String, usize>,
}

/// The tournament with its games scored.
struct Ctx<'t> {
    t: &'t TournamentIn<'t>,
    /// By round, then board.
    games: Vec<Scored<'t>>,
    /// Each entrant's team (the first entry of a name, if it is given twice).
    team_of: BTreeMap<&'t str, Option<&'t str>>,
    /// The teams, by name.
    teams: Vec<&'t str>,
}

impl<'t> Ctx<'t> {
    fn new(t: &'t TournamentIn<'t>) -> Ctx<'t> {
        let mut team_of: BTreeMap<&str, Option<&str>> = BTreeMap::new();
        for e in &t.entrants {
            team_of.entry(e.name.as_str()).or_insert(e.team.as_deref());
        }
        let teams: BTreeSet<&str> = team_of.values().flatten().copied().collect();
        let mut games: Vec<&GameResult> = t.games.iter().collect();
        games.sort_by_key(|g| (g.round, g.board));
        let games = games
            .into_iter()
            .map(|g| score_game(t.rulebook, g, &team_of))
            .collect();
        Ctx {
            t,
            games,
            team_of,
            teams: teams.into_iter().collect(),
        }
    }

    fn team(&self, player: &str) -> Option<&'t str> {
        self.team_of.get(player).copied().flatten()
    }

    fn of_round(&self, round: u8) -> impl Iterator<Item = &Scored<'t>> + '_ {
        self.games.iter().filter(move |g| g.game.round == round)
    }

    /// How many advance from round `round` (1-based) if the director set it.
    fn advance(&self, round: u8) -> Option<usize> {
        self.t
            .advance
            .get(usize::from(round).saturating_sub(1))
            .copied()
            .flatten()
    }

    /// The players of a round: round one's entrants, or those who advanced to it; and anyone
    /// holding a position of the round permanently (a replacement from the reserves).
    fn round_players(&self, round: u8, advanced: &[String]) -> Vec<String> {
        let first: Vec<&str> = if round == 1 {
            self.t.entrants.iter().map(|e| e.name.as_str()).collect()
        } else {
            advanced.iter().map(String::as_str).collect()
        };
        let permanent = self.of_round(round).flat_map(|g| {
            g.positions.iter().flat_map(|p| {
                p.shares
                    .iter()
                    .filter(|s| s.permanent_from.is_some())
                    .map(|s| s.player.as_str())
            })
        });
        let mut seen = BTreeSet::new();
        first
            .into_iter()
            .chain(permanent)
            .filter(|p| seen.insert(*p))
            .map(String::from)
            .collect()
    }

    /// WM C.15, Maharajiad A.24: "A player may only qualify for advancement ... based on their
    /// score, pro-rated or otherwise, in the first game (chronologically) for which they are
    /// permanent, either as the initial player or as a permanent replacement": of the round's
    /// games where the player held a position permanently, the one where that began earliest
    /// (level: the lower board). Games played only as a temporary replacement do not count.
    fn counting_seat(&self, round: u8, player: &str) -> Option<Seat<'_>> {
        let mut best: Option<Seat<'_>> = None;
        for g in self.of_round(round) {
            for pos in &g.positions {
                for share in &pos.shares {
                    if share.player != player || share.permanent_from.is_none() {
                        continue;
                    }
                    let seat = Seat {
                        game: g.game,
                        pos,
                        share,
                    };
                    let key = |s: &Seat<'_>| (s.share.permanent_from, s.game.board, s.pos.power);
                    if best.as_ref().is_none_or(|b| key(&seat) < key(b)) {
                        best = Some(seat);
                    }
                }
            }
        }
        best
    }

    /// How many played round one, for WM B.4's share advancing: the entrants on a team, if
    /// there are teams (B.2: every player is on one; the others are reserves); without teams,
    /// everyone who started a position of round one.
    fn round_one_players(&self) -> usize {
        let on_teams = self.team_of.values().filter(|t| t.is_some()).count();
        if on_teams > 0 {
            return on_teams;
        }
        self.of_round(1)
            .flat_map(|g| g.positions.iter().filter_map(|p| p.initial.as_deref()))
            .collect::<BTreeSet<&str>>()
            .len()
    }

    /// The players of a round, each with the game that counts.
    fn seats(&self, round: u8, names: Vec<String>) -> Vec<(String, Option<Seat<'_>>)> {
        names
            .into_iter()
            .map(|n| {
                let seat = self.counting_seat(round, &n);
                (n, seat)
            })
            .collect()
    }

    /// "Least successful country": each power's total across the boards of `rounds` (WM: the
    /// scores, C.7(a); Maharajiad: the centres, A.19(a), which are its scores).
    fn power_totals(&self, rounds: &[u8]) -> BTreeMap<Power, f64> {
        let mut out = BTreeMap::new();
        for g in self.games.iter().filter(|g| rounds.contains(&g.game.round)) {
            for p in &g.positions {
                *out.entry(p.power).or_insert(0.0) += p.score;
            }
        }
        out
    }

    /// The count-back's years for a round, latest first: "the end of 1908 then ... 1907 etc."
    /// for a game to 1909, that is from the year before the final year (C.7(d), C.9(b), C.11(a),
    /// A.19(b)), down to the first year any game of the round recorded.
    fn countback_years(&self, round: u8) -> Vec<u16> {
        let Some(last) = self.of_round(round).map(|g| g.game.last_year()).max() else {
            return Vec::new();
        };
        let from = last.saturating_sub(1);
        let years: BTreeSet<u16> = self
            .of_round(round)
            .flat_map(|g| {
                g.positions
                    .iter()
                    .flat_map(|p| p.history.iter().map(|h| h.0))
            })
            .filter(|y| *y <= from)
            .collect();
        years.into_iter().rev().collect()
    }

    /// The power's centres at the end of each of `years`: compared element by element, this
    /// orders exactly as [`scoring::count_back`] from the first of them.
    fn countback_key(seat: &Seat<'_>, years: &[u16]) -> Vec<f64> {
        years
            .iter()
            .map(|y| {
                let c = seat
                    .pos
                    .history
                    .iter()
                    .find(|h| h.0 == *y)
                    .map_or(0, |h| h.1);
                f64::from(c)
            })
            .collect()
    }

    /// The full scores of the positions credited to each team in a round (C.6, C.12, C.14: the
    /// initial player's team gets the full score), forfeits left out (B.8(e)).
    fn team_scores(&self, round: u8) -> BTreeMap<&'t str, Vec<f64>> {
        let mut out: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
        for g in self.of_round(round) {
            for p in &g.positions {
                if p.forfeited {
                    continue;
                }
                if let Some(team) = p.initial.as_deref().and_then(|i| self.team(i)) {
                    out.entry(team).or_default().push(p.score);
                }
            }
        }
        out
    }

    /// Whether a player declined to play the round after `round` (C.10, A.21). `declined` lists
    /// the entrants who declined at some point; the decline is the one after the last round
    /// they started, so it applies to `round` unless they started a game of a later round (and
    /// the standings of earlier rounds stay as they were).
    fn declines(&self, player: &str, round: u8) -> bool {
        self.t.declined.iter().any(|d| d == player)
            && !self.games.iter().any(|g| {
                g.game.round > round
                    && g.positions
                        .iter()
                        .any(|p| p.initial.as_deref() == Some(player))
            })
    }

    fn power_name(&self, p: Power) -> String {
        if self.t.map.all_powers().any(|q| q == p) {
            self.t.map.power_name(p).to_string()
        } else {
            format!("power {}", p.0)
        }
    }

    /// The rows of a round's list, in ranked order; nobody advances yet.
    fn rows(
        &self,
        round: u8,
        cands: &[Cand<'_>],
        ranked: &[Ranked],
        next: bool,
    ) -> Vec<PlayerPlace> {
        ranked
            .iter()
            .filter_map(|r| {
                let c = cands.get(r.index)?;
                Some(PlayerPlace {
                    place: r.place,
                    player: c.name.clone(),
                    team: self.team(&c.name).map(String::from),
                    power: c.seat.map(|s| self.power_name(s.pos.power)),
                    board: c.seat.map(|s| s.game.board),
                    score: c.score,
                    game_score: c.seat.map_or(0.0, |s| s.share.score),
                    credits: c.credits,
                    bonus: c.seat.map_or(0.0, |s| s.share.bonus),
                    decided_by: r.decided_by.clone(),
                    advances: false,
                    declined: next && self.declines(&c.name, round),
                })
            })
            .collect()
    }

    // -----------------------------------------------------------------------------------------
    // Both.

    /// The standings with no list yet: the best countries so far.
    fn empty(&self, round: u8) -> Standings {
        Standings {
            round,
            players: Vec::new(),
            teams: Vec::new(),
            best_country: self.best_countries(round),
            advancing: Vec::new(),
            winner: None,
            team_winner: None,
        }
    }

    /// WM C.13 ("based only on games in the first two rounds") and Maharajiad A.22 ("based on
    /// the results of the first round games"), by [`scoring::best_country`]: each game of a
    /// power is its position's full score (the trophy goes to a country's game; a replacement's
    /// share is not a game of its own), under the name of the player credited with most of its
    /// seasons ([`Pos::best_country_player`]).
    fn best_countries(&self, round: u8) -> Vec<BestCountry> {
        let (last_round, clause) = match self.t.rulebook {
            Rulebook::Wm2004 => (2, "WM C.13"),
            Rulebook::Maharajiad => (1, "Maharajiad A.22"),
        };
        let rounds = 1..=round.min(last_round);
        let mut games: Vec<CountryGame> = Vec::new();
        let mut boards: Vec<u32> = Vec::new();
        for g in self.games.iter().filter(|g| rounds.contains(&g.game.round)) {
            for p in &g.positions {
                let Some(player) = p.best_country_player() else {
                    continue;
                };
                games.push(CountryGame {
                    power: p.power,
                    round: g.game.round,
                    score: p.score,
                    history: p.history.clone(),
                    player: player.to_string(),
                });
                boards.push(g.game.board);
            }
        }
        // The count-back from the year before the final year (1908; Maharajiad 1509).
        let last_year = self
            .games
            .iter()
            .filter(|g| rounds.contains(&g.game.round))
            .map(|g| g.game.last_year())
            .max()
            .unwrap_or(0)
            .saturating_sub(1);
        let seed = best_country_seed(&self.t.seed);
        let wm = self.t.rulebook == Rulebook::Wm2004;
        self.t
            .map
            .all_powers()
            .filter_map(|power| {
                let (best, why) = scoring::best_country(&games, power, last_year, &seed)?;
                let k = games.iter().position(|g| std::ptr::eq(g, best))?;
                // What decided it, with its clause: WM (a) round, (b) count-back, (c) dice;
                // Maharajiad (a) count-back, (b) dice.
                let decided_by = if why == "score" {
                    why
                } else if why == "round" {
                    format!("{clause}(a) round 2 outranks round 1")
                } else if why == "d100" {
                    format!("{clause}({}) d100", if wm { 'c' } else { 'b' })
                } else {
                    format!("{clause}({}) {why}", if wm { 'b' } else { 'a' })
                };
                Some(BestCountry {
                    power: self.power_name(power),
                    player: best.player.clone(),
                    round: best.round,
                    board: boards.get(k).copied().unwrap_or(0),
                    score: best.score,
                    decided_by,
                })
            })
            .collect()
    }
}

fn round_out(players: Vec<PlayerPlace>) -> RoundOut {
    RoundOut {
        advancing: players
            .iter()
            .filter(|p| p.advances)
            .map(|p| p.player.clone())
            .collect(),
        rank: players
            .iter()
            .map(|p| (p.player.clone(), p.place))
            .collect(),
        players,
    }
}

/// The first of the last round's list, if they played it.
fn winner_of(players: &[PlayerPlace]) -> Option<String> {
    players
        .first()
        .filter(|p| p.board.is_some())
        .map(|p| p.player.clone())
}

/// The standings after `round` (1-based), from the games finished so far.
///
/// Each game is scored by its rulebook (WM C.1-C.5, Maharajiad A.16-A.18) and each player's
/// share prorated by the seasons played (C.14, A.23). A player's round score is their share of
/// the first game of the round they held permanently (C.15, A.24); a player of the round with no
/// such game scores 0 and is listed last. The rounds are WM B.1's four (team rounds one and two,
/// the semi-final, the final) or the Maharajiad's two (A.9); a round outside them gives no list.
/// `declined` (C.10, A.21) applies to a player's last round: a decline is passed over in the
/// standings of a round after which the player started a game of a later round.
///
/// The dice (WM C.7(f), Maharajiad A.19(c)) are [`scoring::d100`] with the seed
/// `"<seed> round <n>"` ([`dice_seed`]) and the player's name; the best-country dice use
/// `"<seed> best country"` ([`best_country_seed`]). The same input gives the same output.
pub fn standings(t: &TournamentIn<'_>, round: u8) -> Standings {
    let ctx = Ctx::new(t);
    match t.rulebook {
        Rulebook::Wm2004 => ctx.wm(round),
        Rulebook::Maharajiad => ctx.maharajiad(round),
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::*;
    use super::*;

    #[test]
    fn odd_input_gives_standings_without_panicking() {
        let mut g = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        g.positions[0].stints.clear();
        g.positions[1].power = Power(99);
        g.final_year = Some(1800);
        g.history.clear();
        let mut t = tournament(Rulebook::Wm2004, vec![g], &[]);
        t.advance = vec![Some(100), None, Some(0)];
        for round in [0, 1, 2, 3, 4, 5, 200] {
            let s = standings(&t, round);
            assert_eq!(s.round, round);
            let _ = csv(&s);
        }
        assert!(standings(&t, 0).players.is_empty());
        assert!(standings(&t, 5).players.is_empty());
        let empty = tournament(Rulebook::Maharajiad, Vec::new(), &[]);
        assert_eq!(standings(&empty, 2).winner, None);
    }
}
