//! A tournament's standings after a round, as its rulebook says (WM 2004 B.4, C.6-C.15;
//! Maharajiad I A.16-A.24): each finished game scored ([`crate::scoring`]), each player's round
//! score (prorated, C.14; only the first permanent game counts for advancement, C.15), team
//! credits and team standings, the ranking with every tie-break, who advances (declines
//! included), and the best countries. Pure: the games' facts are passed in; the same input gives
//! the same output, byte for byte, dice included (a published seed).

use crate::map::{Map, Power};
use crate::phase::Phase;
use crate::scoring::{self, CountryGame, PowerScore};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

pub use crate::scoring::{End, Rulebook, Stint};

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

// ---------------------------------------------------------------------------------------------
// WM B.4: the size of round two.

/// WM B.4: how many boards round two has, given the number of teams of round one (seven players
/// a team, B.2): [`wm_round_two_boards_for`] their players.
pub fn wm_round_two_boards(teams: usize) -> usize {
    wm_round_two_boards_for(teams * SEATS)
}

/// Players a board, and so a team (WM B.2).
const SEATS: usize = 7;

/// WM B.4: how many boards round two has, given the number of round one's players. "The second
/// round will be 28 boards, except where this leads to greater than one half advancement from
/// Round 1 to Round 2 or less than one third advancement ..., in which case the respective
/// percentage will be applied (rounded down where advancement would otherwise exceed one half,
/// and rounded up where advancement would otherwise not exceed one third, to the nearest whole
/// number of boards)": more than one half, floor(players / 2 / 7) boards; less than one third,
/// ceil(players / 3 / 7) boards. "More than 147 teams" (1,029 players): 49 boards. Advancement
/// is a share of the players, so a round without teams sends on as many as one with them.
///
/// "Less than 42 teams": round two "will become the semi-final and will no longer apply to the
/// team competition" ([`RoundTwo::SemiFinal`]); the count is still the one the percentages give
/// (for example 17 boards for 35 teams).
pub fn wm_round_two_boards_for(players: usize) -> usize {
    const BOARDS: usize = 28;
    const MOST_BOARDS: usize = 49;
    const MOST_TEAMS: usize = 147;
    if players > MOST_TEAMS * SEATS {
        return MOST_BOARDS;
    }
    let advancing = BOARDS * SEATS;
    if advancing * 2 > players {
        // More than one half would advance: one half, rounded down to whole boards.
        players / 2 / SEATS
    } else if advancing * 3 < players {
        // Less than one third would advance: one third, rounded up to whole boards.
        players.div_ceil(3 * SEATS)
    } else {
        BOARDS
    }
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

/// The clauses' labels, as `decided_by` shows them.
const C6A: &str = "WM C.6(a) total without the highest individual scores";
const C6B: &str = "WM C.6(b) highest ranking player";
const C7A: &str = "WM C.7(a) least successful country";
const C7B: &str = "WM C.7(b) score without credits";
const C7C: &str = "WM C.7(c) positional bonus";
const C7D: &str = "WM C.7(d) count-back";
const C7E: &str = "WM C.7(e) highest ranking team";
const C7F: &str = "WM C.7(f) d100";
const C8A: &str = "WM C.8(a) least successful country";
const C8B: &str = "WM C.8(b) positional bonus";
const C8C: &str = "WM C.8(c) count-back";
const C8D: &str = "WM C.8(d) highest ranking team";
const C8E: &str = "WM C.8(e) round one ranking";
const C9: &str = "WM C.9 best on board";
const C9A: &str = "WM C.9(a) least successful country";
const C9B: &str = "WM C.9(b) count-back";
const C9C: &str = "WM C.9(c) round two ranking";
/// C.9(c) when round two is the semi-final (B.4): the round before it is round one, ranked by
/// C.7, which brought the players there.
const C9C_ONE: &str = "WM C.9(c) round one ranking";
const C10: &str = "WM C.10 positional bonus";
const C10A: &str = "WM C.10(a) score";
const C10B: &str = "WM C.10(b) semi-final ranking";
const C11A: &str = "WM C.11(a) count-back";
const C11B: &str = "WM C.11(b) semi-final ranking";
const C12A: &str = "WM C.12(a) players in round two";
const C12B: &str = "WM C.12(b) total without the highest round two scores";
const C12C: &str = "WM C.12(c) total without the highest round one scores";
const C12D: &str = "WM C.12(d) round one team place";
const A19A: &str = "Maharajiad A.19(a) least successful country";
const A19B: &str = "Maharajiad A.19(b) count-back";
const A19C: &str = "Maharajiad A.19(c) d100";
const A20A: &str = "Maharajiad A.20(a) least successful country";
const A20B: &str = "Maharajiad A.20(b) count-back";
const A20C: &str = "Maharajiad A.20(c) round one ranking";

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
    // WM 2004.

    /// Round one: team scores and credits (C.6), the players by C.7, the top N advance.
    fn wm_one(&self) -> WmOne {
        const R: u8 = 1;
        let seats = self.seats(R, self.round_players(R, &[]));
        let totals = self.power_totals(&[R]);
        let years = self.countback_years(R);
        let dice = dice_seed(&self.t.seed, R);
        // C.7(a): "Great power with lowest total score across the boards in Round 1" ranks higher.
        let least = |s: &Seat<'_>| vec![-totals.get(&s.pos.power).copied().unwrap_or(0.0)];
        let roll = |n: &str| vec![f64::from(scoring::d100(&dice, n))];

        // C.6(b) ranks tied teams by their "highest ranking individual player based on criterion
        // set out in Rule C.7"; but C.7 ranks with the credits and by the team ranking (e), both
        // of which C.6 is making. So this ranking is C.7 without the credits (its score is the
        // game score, which makes C.7(b) moot) and without (e).
        let lite_criteria = [
            Criterion::plain("score"),
            Criterion::plain(C7A),
            Criterion::plain(C7C),
            Criterion::years(C7D, &years),
            Criterion::rolls(C7F),
        ];
        let lite_entries: Vec<Entry> = seats
            .iter()
            .map(|(n, s)| {
                let keyed = s.map(|s| {
                    let rest = vec![
                        least(&s),
                        vec![s.share.bonus],
                        Self::countback_key(&s, &years),
                        roll(n),
                    ];
                    (s.share.score, rest)
                });
                player_entry(n, keyed)
            })
            .collect();
        let lite_place: BTreeMap<&str, usize> = rank(&lite_criteria, &lite_entries)
            .iter()
            .filter_map(|r| Some((seats.get(r.index)?.0.as_str(), r.place)))
            .collect();

        // C.6: a team's score is the full scores of its positions (C.14), forfeits out (B.8(e)).
        let credited = self.team_scores(R);
        let width = credited.values().map(Vec::len).max().unwrap_or(0);
        let unranked = (seats.len() + 1) as f64;
        let team_totals: Vec<f64> = self
            .teams
            .iter()
            .map(|team| credited.get(team).map_or(0.0, |s| s.iter().sum()))
            .collect();
        let team_entries: Vec<Entry> = self
            .teams
            .iter()
            .zip(&team_totals)
            .map(|(team, total)| {
                let scores = credited.get(team).cloned().unwrap_or_default();
                let best = seats
                    .iter()
                    .filter(|(n, _)| self.team(n) == Some(*team))
                    .filter_map(|(n, _)| lite_place.get(n.as_str()))
                    .min()
                    .map_or(unranked, |p| *p as f64);
                Entry {
                    name: team.to_string(),
                    keys: vec![
                        vec![*total],
                        removal_key(*total, &scores, width),
                        vec![-best],
                    ],
                }
            })
            .collect();
        let team_criteria = [
            Criterion::plain("score"),
            Criterion::plain(C6A),
            Criterion::plain(C6B),
        ];
        // C.6: "10 points for each player on the top team, 9 points for each player on the
        // second team, etc.", to the tenth.
        let teams: Vec<TeamPlace> = rank(&team_criteria, &team_entries)
            .iter()
            .enumerate()
            .map(|(k, r)| TeamPlace {
                place: r.place,
                team: self
                    .teams
                    .get(r.index)
                    .map_or_else(String::new, |t| t.to_string()),
                score: team_totals.get(r.index).copied().unwrap_or(0.0),
                credits: 10usize.saturating_sub(k) as f64,
                decided_by: r.decided_by.clone(),
            })
            .collect();
        let team_place: BTreeMap<String, usize> =
            teams.iter().map(|t| (t.team.clone(), t.place)).collect();
        let team_credits: BTreeMap<&str, f64> =
            teams.iter().map(|t| (t.team.as_str(), t.credits)).collect();

        // C.7: "the highest first round score with team credits applied", then (a)-(f). A
        // player with no counting game gets no credits (they rank last, score 0).
        let no_team = (teams.len() + 1) as f64;
        let cands: Vec<Cand<'_>> = seats
            .iter()
            .map(|(n, s)| {
                let credits = match (s, self.team(n)) {
                    (Some(_), Some(team)) => team_credits.get(team).copied().unwrap_or(0.0),
                    _ => 0.0,
                };
                Cand {
                    name: n.clone(),
                    seat: *s,
                    score: s.map_or(0.0, |s| s.share.score + credits),
                    credits,
                }
            })
            .collect();
        let criteria = [
            Criterion::plain("score"),
            Criterion::plain(C7A),
            Criterion::plain(C7B),
            Criterion::plain(C7C),
            Criterion::years(C7D, &years),
            Criterion::plain(C7E),
            Criterion::rolls(C7F),
        ];
        let entries: Vec<Entry> = cands
            .iter()
            .map(|c| {
                let keyed = c.seat.map(|s| {
                    // C.7(e): "Highest ranking team (with non-associated players ranking last)".
                    let team = self
                        .team(&c.name)
                        .and_then(|t| team_place.get(t))
                        .map_or(no_team, |p| *p as f64);
                    let rest = vec![
                        least(&s),
                        vec![s.share.score],
                        vec![s.share.bonus],
                        Self::countback_key(&s, &years),
                        vec![-team],
                        roll(&c.name),
                    ];
                    (c.score, rest)
                });
                player_entry(&c.name, keyed)
            })
            .collect();
        let ranked = rank(&criteria, &entries);
        let mut players = self.rows(R, &cands, &ranked, true);
        // B.4 sets round two's size from round one's players: the top N advance; a player who
        // declines is passed over and the next ranked player takes the place (C.10's rule is
        // for the final only).
        let n = self
            .advance(R)
            .unwrap_or_else(|| wm_round_two_boards_for(self.round_one_players()) * SEATS);
        take_top(&mut players, n);
        WmOne {
            game_score: cands
                .iter()
                .map(|c| (c.name.clone(), c.seat.map_or(0.0, |s| s.share.score)))
                .collect(),
            out: round_out(players),
            teams,
            team_place,
        }
    }

    /// The team standings (C.12): round one's and round two's points together, forfeits out
    /// (B.8), or round one's alone when round two is the semi-final (B.4).
    fn wm_teams(&self, one: &WmOne) -> Vec<TeamPlace> {
        let s1 = self.team_scores(1);
        let s2 = match self.t.round_two {
            RoundTwo::TeamRound => self.team_scores(2),
            RoundTwo::SemiFinal => BTreeMap::new(),
        };
        let (w1, w2) = (
            s1.values().map(Vec::len).max().unwrap_or(0),
            s2.values().map(Vec::len).max().unwrap_or(0),
        );
        let unplaced = (self.teams.len() + 1) as f64;
        let mut team_totals = Vec::new();
        let team_entries: Vec<Entry> = self
            .teams
            .iter()
            .map(|team| {
                let one_scores = s1.get(team).cloned().unwrap_or_default();
                let two_scores = s2.get(team).cloned().unwrap_or_default();
                let total: f64 = one_scores.iter().sum::<f64>() + two_scores.iter().sum::<f64>();
                team_totals.push(total);
                let advanced = one
                    .out
                    .advancing
                    .iter()
                    .filter(|p| self.team(p) == Some(*team))
                    .count();
                let first_place = one.team_place.get(*team).map_or(unplaced, |p| *p as f64);
                Entry {
                    name: team.to_string(),
                    keys: vec![
                        vec![total],
                        vec![advanced as f64],
                        removal_key(total, &two_scores, w2),
                        removal_key(total, &one_scores, w1),
                        vec![-first_place],
                    ],
                }
            })
            .collect();
        let team_criteria = [
            Criterion::plain("score"),
            Criterion::plain(C12A),
            Criterion::plain(C12B),
            Criterion::plain(C12C),
            Criterion::plain(C12D),
        ];
        let round_one_credits: BTreeMap<&str, f64> = one
            .teams
            .iter()
            .map(|t| (t.team.as_str(), t.credits))
            .collect();
        rank(&team_criteria, &team_entries)
            .iter()
            .map(|r| {
                let team = self.teams.get(r.index).copied().unwrap_or_default();
                TeamPlace {
                    place: r.place,
                    team: team.to_string(),
                    score: team_totals.get(r.index).copied().unwrap_or(0.0),
                    credits: round_one_credits.get(team).copied().unwrap_or(0.0),
                    decided_by: r.decided_by.clone(),
                }
            })
            .collect()
    }

    /// Round two as a team round: the players by C.8 (C.8(d) by the team standings); the top N
    /// advance.
    fn wm_two(&self, one: &WmOne, teams: &[TeamPlace]) -> RoundOut {
        const R: u8 = 2;
        let seats = self.seats(R, self.round_players(R, &one.out.advancing));
        let unplaced = (self.teams.len() + 1) as f64;
        let team_place: BTreeMap<&str, usize> =
            teams.iter().map(|t| (t.team.as_str(), t.place)).collect();

        // C.8: "the highest aggregate of round two score plus one half of round one score" (the
        // credits are lost after round one, C.6).
        let totals = self.power_totals(&[R]);
        let years = self.countback_years(R);
        let unranked = (one.out.rank.len() + 1) as f64;
        let cands: Vec<Cand<'_>> = seats
            .iter()
            .map(|(n, s)| Cand {
                name: n.clone(),
                seat: *s,
                score: s.map_or(0.0, |s| {
                    s.share.score + one.game_score.get(n).copied().unwrap_or(0.0) / 2.0
                }),
                credits: 0.0,
            })
            .collect();
        let criteria = [
            Criterion::plain("score"),
            Criterion::plain(C8A),
            Criterion::plain(C8B),
            Criterion::years(C8C, &years),
            Criterion::plain(C8D),
            Criterion::plain(C8E),
        ];
        let entries: Vec<Entry> = cands
            .iter()
            .map(|c| {
                let keyed = c.seat.map(|s| {
                    let team = self
                        .team(&c.name)
                        .and_then(|t| team_place.get(t))
                        .map_or(unplaced, |p| *p as f64);
                    let first = one.out.rank.get(&c.name).map_or(unranked, |p| *p as f64);
                    let rest = vec![
                        vec![-totals.get(&s.pos.power).copied().unwrap_or(0.0)],
                        vec![s.share.bonus],
                        Self::countback_key(&s, &years),
                        vec![-team],
                        vec![-first],
                    ];
                    (c.score, rest)
                });
                player_entry(&c.name, keyed)
            })
            .collect();
        let ranked = rank(&criteria, &entries);
        let mut players = self.rows(R, &cands, &ranked, true);
        // 49 players (seven boards) go to the semi-final; declines are passed over.
        take_top(&mut players, self.advance(R).unwrap_or(49));
        round_out(players)
    }

    /// The semi-final: each board's best advances (C.9); a qualifier who declines is replaced
    /// by the best positional bonus (C.10).
    /// `round`: three, or two when it is the semi-final (B.4); `two`: the round before,
    /// whose ranking C.9(c) refers to (`c9c` names it).
    fn wm_three(&self, two: &RoundOut, round: u8, c9c: &str) -> RoundOut {
        let seats = self.seats(round, self.round_players(round, &two.advancing));
        let totals = self.power_totals(&[round]);
        let years = self.countback_years(round);
        let unranked = (two.rank.len() + 1) as f64;
        let cands: Vec<Cand<'_>> = seats
            .iter()
            .map(|(n, s)| Cand {
                name: n.clone(),
                seat: *s,
                score: s.map_or(0.0, |s| s.share.score),
                credits: 0.0,
            })
            .collect();
        // C.9: the score, then (a) least successful country across the semi-final boards, (b)
        // the count-back from 1911, (c) the round before's ranking (C.8; C.7 when round two is
        // the semi-final, B.4).
        let c9_criteria = [
            Criterion::plain("score"),
            Criterion::plain(C9A),
            Criterion::years(C9B, &years),
            Criterion::plain(c9c),
        ];
        let c9_entries: Vec<Entry> = cands
            .iter()
            .map(|c| {
                let keyed = c.seat.map(|s| {
                    let rest = vec![
                        vec![-totals.get(&s.pos.power).copied().unwrap_or(0.0)],
                        Self::countback_key(&s, &years),
                        vec![-two.rank.get(&c.name).map_or(unranked, |p| *p as f64)],
                    ];
                    (c.score, rest)
                });
                player_entry(&c.name, keyed)
            })
            .collect();
        let c9 = rank(&c9_criteria, &c9_entries);
        let c9_place: BTreeMap<String, usize> = c9
            .iter()
            .filter_map(|r| Some((cands.get(r.index)?.name.clone(), r.place)))
            .collect();
        // "Highest scoring player from each semi-final board": the first of each board in the
        // C.9 order.
        let mut boards = BTreeSet::new();
        let mut winner = vec![false; cands.len()];
        for r in &c9 {
            if let Some(s) = cands.get(r.index).and_then(|c| c.seat)
                && boards.insert(s.game.board)
            {
                winner[r.index] = true;
            }
        }
        // The list: the board winners first, then the others, each by C.9.
        let criteria: Vec<Criterion> = std::iter::once(Criterion::plain(C9))
            .chain(c9_criteria.iter().cloned())
            .collect();
        let entries: Vec<Entry> = c9_entries
            .iter()
            .zip(&winner)
            .map(|(e, w)| Entry {
                name: e.name.clone(),
                keys: std::iter::once(vec![if *w { 1.0 } else { 0.0 }])
                    .chain(e.keys.iter().cloned())
                    .collect(),
            })
            .collect();
        let mut ranked = rank(&criteria, &entries);
        // A board's winner just above the player it beat on that board: what made it the best
        // on the board is the C.9 criterion that separates the two (the score, or a tie-break).
        for k in 0..ranked.len().saturating_sub(1) {
            let (i, j) = (ranked[k].index, ranked[k + 1].index);
            let board = |x: usize| cands.get(x).and_then(|c| c.seat).map(|s| s.game.board);
            if ranked[k].decided_by == C9
                && board(i).is_some()
                && board(i) == board(j)
                && let (Some(a), Some(b)) = (c9_entries.get(i), c9_entries.get(j))
            {
                ranked[k].decided_by = separation(&c9_criteria, a, b);
            }
        }
        let mut players = self.rows(round, &cands, &ranked, true);
        // One finalist a board (or the director's number, down the list); those who decline
        // are replaced by C.10.
        let n = self.advance(round).unwrap_or_else(|| {
            self.of_round(round)
                .map(|g| g.game.board)
                .collect::<BTreeSet<_>>()
                .len()
        });
        let qualifiers: Vec<usize> = (0..players.len())
            .filter(|&k| players[k].board.is_some())
            .take(n)
            .collect();
        let declining = qualifiers.iter().filter(|&&k| players[k].declined).count();
        for &k in &qualifiers {
            players[k].advances = !players[k].declined;
        }
        // C.10: "the otherwise non-qualifying player with the highest overall Round 3
        // positional bonus qualifies in his place", ties (a) the round-three score, (b) C.9.
        let c10_criteria = [
            Criterion::plain(C10),
            Criterion::plain(C10A),
            Criterion::plain(C10B),
        ];
        let open: Vec<usize> = (0..players.len())
            .filter(|&k| {
                !qualifiers.contains(&k) && players[k].board.is_some() && !players[k].declined
            })
            .collect();
        let c10_entries: Vec<Entry> = open
            .iter()
            .map(|&k| {
                let p = &players[k];
                let c9 = c9_place.get(&p.player).map_or(unranked, |x| *x as f64);
                Entry {
                    name: p.player.clone(),
                    keys: vec![vec![p.bonus], vec![p.game_score], vec![-c9]],
                }
            })
            .collect();
        for r in rank(&c10_criteria, &c10_entries).iter().take(declining) {
            if let Some(&k) = open.get(r.index) {
                players[k].advances = true;
            }
        }
        let mut out = round_out(players);
        // Later tie-breaks (C.10(b), C.11(b)) refer to the C.9 ranking itself.
        out.rank = c9_place;
        out
    }

    /// The final: the most centres wins (C.11).
    /// `round`: four, or three after a semi-final in round two (B.4).
    fn wm_four(&self, three: &RoundOut, round: u8) -> RoundOut {
        let seats = self.seats(round, self.round_players(round, &three.advancing));
        let years = self.countback_years(round);
        let unranked = (three.rank.len() + 1) as f64;
        // C.11: "the highest number of supply centers at the end of the final game": the
        // scored centres (a solo is 34, C.4), prorated like points (C.14) when the position
        // changed hands.
        let cands: Vec<Cand<'_>> = seats
            .iter()
            .map(|(n, s)| Cand {
                name: n.clone(),
                seat: *s,
                score: s.map_or(0.0, |s| s.share.centres),
                credits: 0.0,
            })
            .collect();
        let criteria = [
            Criterion::plain("score"),
            Criterion::years(C11A, &years),
            Criterion::plain(C11B),
        ];
        let entries: Vec<Entry> = cands
            .iter()
            .map(|c| {
                let keyed = c.seat.map(|s| {
                    let semi = three.rank.get(&c.name).map_or(unranked, |p| *p as f64);
                    (c.score, vec![Self::countback_key(&s, &years), vec![-semi]])
                });
                player_entry(&c.name, keyed)
            })
            .collect();
        let ranked = rank(&criteria, &entries);
        round_out(self.rows(round, &cands, &ranked, false))
    }

    fn wm(&self, round: u8) -> Standings {
        let mut s = self.empty(round);
        if round == 0 {
            return s;
        }
        let one = self.wm_one();
        // C.12: the team tournament is decided by rounds one and two, or by round one alone
        // when round two is the semi-final (B.4).
        let teams = self.wm_teams(&one);
        let small = self.t.round_two == RoundTwo::SemiFinal;
        if round == 1 {
            if small {
                s.team_winner = teams.first().map(|t| t.team.clone());
            }
            s.teams = one.teams;
            s.players = one.out.players;
            s.advancing = one.out.advancing;
            return s;
        }
        s.team_winner = teams.first().map(|t| t.team.clone());
        s.teams = teams;
        // B.1's four rounds, or B.4's three: round one, the semi-final, the final.
        let (semi, last) = if small {
            (self.wm_three(&one.out, 2, C9C_ONE), 3)
        } else {
            let two = self.wm_two(&one, &s.teams);
            if round == 2 {
                s.players = two.players;
                s.advancing = two.advancing;
                return s;
            }
            (self.wm_three(&two, 3, C9C), 4)
        };
        if round + 1 == last {
            s.players = semi.players;
            s.advancing = semi.advancing;
            return s;
        }
        let four = self.wm_four(&semi, last);
        s.winner = winner_of(&four.players);
        if round == last {
            s.players = four.players;
        }
        s
    }

    // -----------------------------------------------------------------------------------------
    // Maharajiad I.

    /// Round one: each board's most centres, then the best of the rest (A.16), by A.19.
    fn maharajiad_one(&self) -> RoundOut {
        const R: u8 = 1;
        let seats = self.seats(R, self.round_players(R, &[]));
        let totals = self.power_totals(&[R]);
        let years = self.countback_years(R);
        let dice = dice_seed(&self.t.seed, R);
        // A.16: the score is the centre count, prorated (A.23), a solo 37.
        let cands: Vec<Cand<'_>> = seats
            .iter()
            .map(|(n, s)| Cand {
                name: n.clone(),
                seat: *s,
                score: s.map_or(0.0, |s| s.share.score),
                credits: 0.0,
            })
            .collect();
        // A.19: (a) "the Power with lowest total number of Supply Centers across all boards in
        // the first round" ranks higher, (b) the count-back from 1509, (c) the dice.
        let criteria = [
            Criterion::plain("score"),
            Criterion::plain(A19A),
            Criterion::years(A19B, &years),
            Criterion::rolls(A19C),
        ];
        let entries: Vec<Entry> = cands
            .iter()
            .map(|c| {
                let keyed = c.seat.map(|s| {
                    let rest = vec![
                        vec![-totals.get(&s.pos.power).copied().unwrap_or(0.0)],
                        Self::countback_key(&s, &years),
                        vec![f64::from(scoring::d100(&dice, &c.name))],
                    ];
                    (c.score, rest)
                });
                player_entry(&c.name, keyed)
            })
            .collect();
        let ranked = rank(&criteria, &entries);
        let mut players = self.rows(R, &cands, &ranked, true);
        // A.16: each board's best advances, then "the remaining player having the highest
        // score in the tournament as a whole"; A.21: one who declines is replaced by "the
        // otherwise non-qualifying player with the highest overall first round score
        // (including tie break calculation)", that is the next one down the list.
        let mut boards = BTreeSet::new();
        let (mut winners, mut rest) = (Vec::new(), Vec::new());
        for (k, p) in players.iter().enumerate() {
            match p.board {
                Some(b) if boards.insert(b) => winners.push(k),
                _ => rest.push(k),
            }
        }
        let n = self.advance(R).unwrap_or(boards.len() + 1);
        let chosen: Vec<usize> = winners
            .into_iter()
            .chain(rest)
            .filter(|&k| players[k].board.is_some() && !players[k].declined)
            .take(n)
            .collect();
        for k in chosen {
            players[k].advances = true;
        }
        round_out(players)
    }

    /// Round two: the most centres wins (A.17), by A.20.
    fn maharajiad_two(&self, one: &RoundOut) -> RoundOut {
        const R: u8 = 2;
        let seats = self.seats(R, self.round_players(R, &one.advancing));
        // A.20(a): "the Power with lowest total number of Supply Centers across all boards in
        // the first and second rounds".
        let totals = self.power_totals(&[1, R]);
        let years = self.countback_years(R);
        let unranked = (one.rank.len() + 1) as f64;
        let cands: Vec<Cand<'_>> = seats
            .iter()
            .map(|(n, s)| Cand {
                name: n.clone(),
                seat: *s,
                score: s.map_or(0.0, |s| s.share.score),
                credits: 0.0,
            })
            .collect();
        let criteria = [
            Criterion::plain("score"),
            Criterion::plain(A20A),
            Criterion::years(A20B, &years),
            Criterion::plain(A20C),
        ];
        let entries: Vec<Entry> = cands
            .iter()
            .map(|c| {
                let keyed = c.seat.map(|s| {
                    let first = one.rank.get(&c.name).map_or(unranked, |p| *p as f64);
                    let rest = vec![
                        vec![-totals.get(&s.pos.power).copied().unwrap_or(0.0)],
                        Self::countback_key(&s, &years),
                        vec![-first],
                    ];
                    (c.score, rest)
                });
                player_entry(&c.name, keyed)
            })
            .collect();
        let ranked = rank(&criteria, &entries);
        round_out(self.rows(R, &cands, &ranked, false))
    }

    fn maharajiad(&self, round: u8) -> Standings {
        let mut s = self.empty(round);
        if round == 0 {
            return s;
        }
        let one = self.maharajiad_one();
        if round == 1 {
            s.players = one.players;
            s.advancing = one.advancing;
            return s;
        }
        let two = self.maharajiad_two(&one);
        s.winner = winner_of(&two.players);
        if round == 2 {
            s.players = two.players;
        }
        s
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

/// What round one leaves for round two.
struct WmOne {
    out: RoundOut,
    /// Each player's round-one game score (C.8: half of it counts in round two).
    game_score: BTreeMap<String, f64>,
    /// The team ranking of C.6.
    teams: Vec<TeamPlace>,
    team_place: BTreeMap<String, usize>,
}

/// The first `n` players down the list who have a game that counts and have not declined
/// advance.
fn take_top(players: &mut [PlayerPlace], n: usize) {
    for p in players
        .iter_mut()
        .filter(|p| p.board.is_some() && !p.declined)
        .take(n)
    {
        p.advances = true;
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

/// A number to three decimals, trailing zeros trimmed: `22`, `10.667`.
fn number(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".to_string() } else { s }
}

/// An RFC 4180 field: quoted when it holds a comma, a quote or a line break, inner quotes
/// doubled.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The standings as CSV (one row a player; `chancery tournament standings --csv`): a header,
/// then one line a player in order, fields quoted as RFC 4180 says, numbers to three decimals.
/// Lines end with `\n`.
pub fn csv(s: &Standings) -> String {
    let mut out = String::from(
        "place,player,team,power,board,score,game_score,credits,bonus,decided_by,advances\n",
    );
    for p in &s.players {
        let row = [
            p.place.to_string(),
            field(&p.player),
            field(p.team.as_deref().unwrap_or("")),
            field(p.power.as_deref().unwrap_or("")),
            p.board.map_or_else(String::new, |b| b.to_string()),
            number(p.score),
            number(p.game_score),
            number(p.credits),
            number(p.bonus),
            field(&p.decided_by),
            p.advances.to_string(),
        ];
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// The `chancery score` contract for a whole round (docs/score.md): the tournament's rulebook,
/// its seed and entrants, and the finished games in; the standings out, as the directors' mail
/// shows them. Each game is read and checked as the one-game contract reads it
/// ([`scoring::contract::read_game`]).
pub mod contract {
    use super::*;
    use crate::scoring::contract::{EndIn, GameFields, StintIn, map_of, read_game};
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct RoundIn {
        /// `wm2004` or `maharajiad`.
        pub rulebook: Rulebook,
        /// Absent: the rulebook's map.
        #[serde(default)]
        pub variant: Option<String>,
        /// The published seed of the dice.
        pub seed: String,
        /// The round whose standings are wanted (1-based).
        pub round: u8,
        /// Every entrant with their team; absent: each game's first players, without teams.
        #[serde(default)]
        pub entrants: Vec<EntrantIn>,
        /// Every finished game so far, of this round and the earlier ones.
        pub games: Vec<BoardIn>,
        /// Entrants who declined the next round (WM C.10, Maharajiad A.21).
        #[serde(default)]
        pub declined: Vec<String>,
        /// How many advance from each round; absent or null: the rulebook's number.
        #[serde(default)]
        pub advance: Vec<Option<usize>>,
        /// WM B.4: `team_round` or `semi_final`; absent: B.4's rule from the teams entered
        /// (fewer than 42: the semi-final), or a team round when no entrant has a team.
        #[serde(default)]
        pub round_two: Option<RoundTwo>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct EntrantIn {
        pub name: String,
        #[serde(default)]
        pub team: Option<String>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct BoardIn {
        pub round: u8,
        pub board: u32,
        pub start_year: u16,
        /// Absent or null: played until the victory criterion (Maharajiad A.10's second round).
        #[serde(default)]
        pub final_year: Option<u16>,
        /// The last phase played (`F1909M`).
        pub ended_after: String,
        /// `played`, `stalemate`, `solo`, `conceded_solo` or `vote`.
        pub end: EndIn,
        #[serde(default)]
        pub winner: Option<String>,
        /// The powers of a draw accepted by vote; survivors left out are presumed eliminated
        /// (WM D.IX(4)). Absent: every survivor.
        #[serde(default)]
        pub draw: Option<Vec<String>>,
        pub centres: BTreeMap<String, u32>,
        #[serde(default)]
        pub history: BTreeMap<u16, BTreeMap<String, u32>>,
        /// Who played each power from which phase, in order (the first from the start).
        pub players: BTreeMap<String, Vec<StintIn>>,
    }

    /// The standings of a round given as JSON, as JSON; or why the input is wrong.
    pub fn standings_json(text: &str) -> Result<String, String> {
        let r: RoundIn = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut out = standings_of(&r)?;
        // Shown to three decimals, as the single-game contract (a shared bonus may be a third).
        let shown = |x: &mut f64| *x = (*x * 1000.0).round() / 1000.0;
        for p in &mut out.players {
            for x in [
                &mut p.score,
                &mut p.game_score,
                &mut p.credits,
                &mut p.bonus,
            ] {
                shown(x);
            }
        }
        for t in &mut out.teams {
            shown(&mut t.score);
            shown(&mut t.credits);
        }
        for b in &mut out.best_country {
            shown(&mut b.score);
        }
        serde_json::to_string_pretty(&out).map_err(|e| e.to_string())
    }

    /// One board read and checked, or why not (naming the board).
    fn board_of(rulebook: Rulebook, map: &Map, g: &BoardIn) -> Result<GameResult, String> {
        // Maharajiad A.10: "The six first round games will be played until Fall 1910".
        if rulebook == Rulebook::Maharajiad && g.round == 1 && g.final_year.is_none() {
            return Err(format!(
                "board {}: a first-round game has a final year (Maharajiad A.10: 1510)",
                g.board
            ));
        }
        let game = read_game(
            rulebook,
            map,
            &GameFields {
                start_year: g.start_year,
                final_year: g.final_year,
                ended_after: &g.ended_after,
                end: g.end,
                winner: g.winner.as_deref(),
                draw: g.draw.as_deref(),
                centres: &g.centres,
                history: &g.history,
                players: &g.players,
            },
        )
        .map_err(|e| format!("board {}: {e}", g.board))?;
        Ok(GameResult {
            round: g.round,
            board: g.board,
            start_year: game.start_year,
            final_year: game.final_year,
            ended_after: game.ended_after,
            end: game.end,
            centres: game.centres,
            history: game.history,
            positions: game
                .positions
                .into_iter()
                .map(|(power, stints)| Position { power, stints })
                .collect(),
        })
    }

    pub fn standings_of(r: &RoundIn) -> Result<Standings, String> {
        let map = map_of(r.rulebook, r.variant.as_deref())?;
        let games = r
            .games
            .iter()
            .map(|g| board_of(r.rulebook, map, g))
            .collect::<Result<Vec<_>, String>>()?;
        let entrants: Vec<Entrant> = if r.entrants.is_empty() {
            let names: BTreeSet<String> = games
                .iter()
                .flat_map(|g| g.positions.iter().filter_map(|p| p.stints.first()))
                .map(|s| s.player.clone())
                .collect();
            names
                .into_iter()
                .map(|name| Entrant { name, team: None })
                .collect()
        } else {
            r.entrants
                .iter()
                .map(|e| Entrant {
                    name: e.name.clone(),
                    team: e.team.clone(),
                })
                .collect()
        };
        let teams: BTreeSet<&str> = entrants.iter().filter_map(|e| e.team.as_deref()).collect();
        let round_two = match (r.rulebook, r.round_two) {
            (Rulebook::Maharajiad, Some(_)) => {
                return Err("round_two is WM B.4's; the Maharajiad has two rounds (A.9)".into());
            }
            (_, Some(given)) => given,
            // B.4 decides from the teams entered; without teams there is no team competition
            // to leave, and the rounds are B.1's four.
            (_, None) if teams.is_empty() => RoundTwo::TeamRound,
            (_, None) => RoundTwo::by_b4(teams.len()),
        };
        let t = TournamentIn {
            rulebook: r.rulebook,
            map,
            seed: r.seed.clone(),
            entrants,
            games,
            declined: r.declined.clone(),
            advance: r.advance.clone(),
            round_two,
        };
        Ok(standings(&t, r.round))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phase::{PhaseKind, Season};

    const WM_POWERS: [&str; 7] = [
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
    ];
    const MH_POWERS: [&str; 7] = [
        "BAHMANA",
        "DELHI",
        "GONDWANA",
        "MUGHALISTAN",
        "PERSIA",
        "RAJPUTANA",
        "VIJAYANAGAR",
    ];

    fn wm_map() -> &'static Map {
        Map::variant("standard").expect("standard map")
    }

    fn mh_map() -> &'static Map {
        Map::variant("maharajah").expect("maharajah map")
    }

    fn ph(s: &str) -> Phase {
        s.parse().expect("phase")
    }

    fn power(map: &Map, name: &str) -> Power {
        map.power_by_name(name).expect("power")
    }

    /// One seat of a game: (power, player, centres at the end).
    type SeatSpec = (String, String, u32);

    fn seat(power: &str, player: &str, centres: u32) -> SeatSpec {
        (power.to_string(), player.to_string(), centres)
    }

    /// A board of seven: each power's player named by the power's initial and `tag` ("A1" is
    /// Austria on a board tagged 1), with the centres in map order.
    fn board7(powers: [&str; 7], tag: &str, centres: [u32; 7]) -> Vec<SeatSpec> {
        powers
            .iter()
            .zip(centres)
            .map(|(p, c)| seat(p, &format!("{}{tag}", &p[..1]), c))
            .collect()
    }

    /// A game played out from `years.0` to `years.1`, each power held by one player from the
    /// start; the final counts are also those at the end of the year before.
    fn game(map: &Map, round: u8, board: u32, years: (u16, u16), seats: &[SeatSpec]) -> GameResult {
        let (start, last) = years;
        let counts: Vec<(Power, u32)> = seats.iter().map(|s| (power(map, &s.0), s.2)).collect();
        GameResult {
            round,
            board,
            start_year: start,
            final_year: Some(last),
            ended_after: Phase::new(Season::Fall, last, PhaseKind::Movement),
            end: End::Played,
            centres: counts.clone(),
            history: vec![(last - 1, counts.clone()), (last, counts)],
            positions: seats
                .iter()
                .map(|s| Position {
                    power: power(map, &s.0),
                    stints: vec![Stint {
                        player: s.1.clone(),
                        from: Phase::new(Season::Spring, start, PhaseKind::Movement),
                        permanent: true,
                    }],
                })
                .collect(),
        }
    }

    /// A WM game: rounds one and two to 1909 (B.3), the semi-final to 1912, the final to 1915.
    fn wm_game(round: u8, board: u32, seats: &[SeatSpec]) -> GameResult {
        let last = match round {
            3 => 1912,
            4 => 1915,
            _ => 1909,
        };
        game(wm_map(), round, board, (1901, last), seats)
    }

    /// A Maharajiad game, 1501 to 1510 (A.10).
    fn mh_game(round: u8, board: u32, seats: &[SeatSpec]) -> GameResult {
        game(mh_map(), round, board, (1501, 1510), seats)
    }

    /// Sets a power's centres at the end of `year` (the row copied from the final counts if
    /// the game has none for that year yet).
    fn set_year(map: &Map, g: &mut GameResult, year: u16, power_name: &str, centres: u32) {
        if !g.history.iter().any(|h| h.0 == year) {
            g.history.push((year, g.centres.clone()));
            g.history.sort_by_key(|h| h.0);
        }
        let p = power(map, power_name);
        for (y, row) in g.history.iter_mut() {
            if *y == year {
                for (q, c) in row.iter_mut() {
                    if *q == p {
                        *c = centres;
                    }
                }
            }
        }
    }

    /// Replaces who played a power: (player, first phase, permanent).
    fn set_stints(map: &Map, g: &mut GameResult, power_name: &str, stints: &[(&str, &str, bool)]) {
        let p = power(map, power_name);
        for pos in g.positions.iter_mut().filter(|pos| pos.power == p) {
            pos.stints = stints
                .iter()
                .map(|(player, from, permanent)| Stint {
                    player: player.to_string(),
                    from: ph(from),
                    permanent: *permanent,
                })
                .collect();
        }
    }

    /// A tournament of these games: every player of them an entrant (by name), on the team
    /// `teams` gives (player, team), with the seed "t".
    fn tournament(
        rulebook: Rulebook,
        games: Vec<GameResult>,
        teams: &[(&str, &str)],
    ) -> TournamentIn<'static> {
        let mut names: BTreeSet<String> = games
            .iter()
            .flat_map(|g| g.positions.iter().flat_map(|p| p.stints.iter()))
            .map(|s| s.player.clone())
            .collect();
        names.extend(teams.iter().map(|t| t.0.to_string()));
        let entrants = names
            .into_iter()
            .map(|name| Entrant {
                team: teams.iter().find(|t| t.0 == name).map(|t| t.1.to_string()),
                name,
            })
            .collect();
        TournamentIn {
            rulebook,
            map: match rulebook {
                Rulebook::Wm2004 => wm_map(),
                Rulebook::Maharajiad => mh_map(),
            },
            seed: "t".to_string(),
            entrants,
            games,
            declined: Vec::new(),
            advance: Vec::new(),
            round_two: RoundTwo::TeamRound,
        }
    }

    fn row<'s>(s: &'s Standings, player: &str) -> &'s PlayerPlace {
        s.players
            .iter()
            .find(|p| p.player == player)
            .unwrap_or_else(|| panic!("{player} not listed: {:?}", names(s)))
    }

    fn names(s: &Standings) -> Vec<&str> {
        s.players.iter().map(|p| p.player.as_str()).collect()
    }

    /// The index of a player in the list.
    fn at(s: &Standings, player: &str) -> usize {
        s.players
            .iter()
            .position(|p| p.player == player)
            .unwrap_or_else(|| panic!("{player} not listed"))
    }

    fn team<'s>(s: &'s Standings, name: &str) -> &'s TeamPlace {
        s.teams
            .iter()
            .find(|t| t.team == name)
            .unwrap_or_else(|| panic!("team {name} not listed"))
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    // --- WM B.4 ---------------------------------------------------------------------------

    #[test]
    fn wm_b4_round_two_is_28_boards_from_56_to_84_teams() {
        // 56 teams: 392 players, 196 advance = exactly one half (not "greater than").
        assert_eq!(wm_round_two_boards(56), 28);
        assert_eq!(wm_round_two_boards(70), 28);
        // 84 teams: 588 players, 196 = exactly one third (not "less than").
        assert_eq!(wm_round_two_boards(84), 28);
    }

    #[test]
    fn wm_b4_more_than_one_half_rounds_down_to_one_half() {
        // 55 teams: 385 players; 196 > 192.5; one half is 27.5 boards, rounded down.
        assert_eq!(wm_round_two_boards(55), 27);
        // 43 teams: 301 players, 150.5 = 21.5 boards -> 21.
        assert_eq!(wm_round_two_boards(43), 21);
        assert_eq!(wm_round_two_boards(42), 21);
    }

    #[test]
    fn wm_b4_less_than_one_third_rounds_up_to_one_third() {
        // 85 teams: 595 players; 196 < 198.3; one third is 28.3 boards, rounded up.
        assert_eq!(wm_round_two_boards(85), 29);
        // 100 teams: 700 players, 233.3 = 33.3 boards -> 34.
        assert_eq!(wm_round_two_boards(100), 34);
        // 147 teams: 1029 players, 343 = 49 boards exactly.
        assert_eq!(wm_round_two_boards(147), 49);
    }

    #[test]
    fn wm_b4_more_than_147_teams_is_49_boards() {
        // 148 teams would give ceil(1036 / 21) = 50 by the percentage.
        assert_eq!(wm_round_two_boards(148), 49);
        assert_eq!(wm_round_two_boards(400), 49);
    }

    #[test]
    fn wm_b4_fewer_than_42_teams_gives_the_percentage_count_for_the_semi_final() {
        // 35 teams: 245 players; 28 boards would be 80%; one half is 17.5 boards -> 17.
        assert_eq!(wm_round_two_boards(35), 17);
        assert_eq!(wm_round_two_boards(41), 20);
        assert_eq!(wm_round_two_boards(1), 0);
        assert_eq!(wm_round_two_boards(0), 0);
    }

    // --- WM C.6 ---------------------------------------------------------------------------

    #[test]
    fn wm_c_6_top_ten_teams_credit_10_to_1_each_player() {
        // Fourteen teams of one (team "t-X1" for player X1). Board 1 scores 42, 24, 14, 8, 5,
        // 3, 1; board 2 43, 25, 15, 7, 4, 1.5, 1.5 (Russia and Turkey share sixth).
        let b1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        let b2 = wm_game(1, 2, &board7(WM_POWERS, "2", [11, 9, 7, 3, 2, 1, 1]));
        let players = [
            "A1", "E1", "F1", "G1", "I1", "R1", "T1", "A2", "E2", "F2", "G2", "I2", "R2", "T2",
        ];
        let team_names: Vec<String> = players.iter().map(|p| format!("t-{p}")).collect();
        let teams: Vec<(&str, &str)> = players
            .iter()
            .zip(&team_names)
            .map(|(p, t)| (*p, t.as_str()))
            .collect();
        let t = tournament(Rulebook::Wm2004, vec![b1, b2], &teams);
        let s = standings(&t, 1);
        let order: Vec<&str> = s.teams.iter().map(|t| t.team.as_str()).collect();
        // R2 and T2 tie at 1.5; C.6(b): T2 is the better player (Turkey's total 2.5 is lower
        // than Russia's 4.5, C.7(a)).
        assert_eq!(
            order,
            [
                "t-A2", "t-A1", "t-E2", "t-E1", "t-F2", "t-F1", "t-G1", "t-G2", "t-I1", "t-I2",
                "t-R1", "t-T2", "t-R2", "t-T1"
            ]
        );
        let credits: Vec<f64> = s.teams.iter().map(|t| t.credits).collect();
        assert_eq!(
            credits,
            [
                10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0, 0.0, 0.0, 0.0
            ]
        );
        assert_eq!(team(&s, "t-T2").decided_by, C6B);
        // C.7: the score with credits: I2 (tenth team) 4 + 1; R1 (eleventh) 3 + 0.
        let i2 = row(&s, "I2");
        assert_eq!((i2.game_score, i2.credits, i2.score), (4.0, 1.0, 5.0));
        let r1 = row(&s, "R1");
        assert_eq!((r1.game_score, r1.credits, r1.score), (3.0, 0.0, 3.0));
        assert_eq!(row(&s, "A2").score, 53.0);
        assert!(
            s.team_winner.is_none(),
            "the team winner comes after round two"
        );
    }

    #[test]
    fn wm_c_6_a_tied_teams_by_total_without_the_highest_score() {
        // Scores 42 (A), 24 (E), 14 (F), 8 (G), 5 (I), 3 (R), 1 (T). X = A + T = 43; Y = E + F + I
        // = 43; without the highest: X 1, Y 19.
        let b1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        let teams = [
            ("A1", "x"),
            ("T1", "x"),
            ("E1", "y"),
            ("F1", "y"),
            ("I1", "y"),
            ("G1", "z"),
            ("R1", "z"),
        ];
        let s = standings(&tournament(Rulebook::Wm2004, vec![b1], &teams), 1);
        let order: Vec<(&str, f64, f64)> = s
            .teams
            .iter()
            .map(|t| (t.team.as_str(), t.score, t.credits))
            .collect();
        assert_eq!(
            order,
            [("y", 43.0, 10.0), ("x", 43.0, 9.0), ("z", 11.0, 8.0)]
        );
        assert_eq!(s.teams[0].decided_by, C6A);
        assert_eq!(s.teams[1].decided_by, "score");
    }

    #[test]
    fn wm_c_6_b_tied_teams_by_their_highest_ranking_player() {
        // Twin boards: Austria 42 on each, one player a team; level after C.6(a). C.6(b): A1
        // ranks above A2 by C.7(d) (Austria had 10 centres at the end of 1908 on board 1, 9 on
        // board 2), so A1's team is ahead though its name sorts last.
        let b1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        let mut b2 = wm_game(1, 2, &board7(WM_POWERS, "2", [10, 8, 6, 4, 3, 2, 1]));
        set_year(wm_map(), &mut b2, 1908, "AUSTRIA", 9);
        let s = standings(
            &tournament(
                Rulebook::Wm2004,
                vec![b1, b2],
                &[("A1", "zulu"), ("A2", "alpha")],
            ),
            1,
        );
        assert_eq!(s.teams[0].team, "zulu");
        assert_eq!(s.teams[0].decided_by, C6B);
        assert_eq!((s.teams[0].score, s.teams[1].score), (42.0, 42.0));
        assert_eq!((s.teams[0].credits, s.teams[1].credits), (10.0, 9.0));
    }

    // --- WM C.7 ---------------------------------------------------------------------------

    #[test]
    fn wm_c_7_a_least_successful_country() {
        // Board 1: England and France share second and third with 5 centres: 12 + 5 = 17 each.
        // Board 2: England 4, France 23. England's total 21 < France's 40: E1 ranks higher.
        let b1 = wm_game(1, 1, &board7(WM_POWERS, "1", [9, 5, 5, 4, 3, 2, 0]));
        let b2 = wm_game(1, 2, &board7(WM_POWERS, "2", [9, 3, 7, 6, 5, 4, 0]));
        let s = standings(&tournament(Rulebook::Wm2004, vec![b1, b2], &[]), 1);
        assert_eq!((row(&s, "E1").score, row(&s, "F1").score), (17.0, 17.0));
        assert_eq!(at(&s, "E1") + 1, at(&s, "F1"));
        assert_eq!(
            row(&s, "E1").decided_by,
            "WM C.7(a) least successful country"
        );
    }

    #[test]
    fn wm_c_7_b_score_without_credits() {
        // Team one (E1 14, A1 42: 56) credits 10; team two (E2 15, F2 24: 39) credits 9.
        // E1 14 + 10 = E2 15 + 9 = F1 24 (no team). (a): England (29) before France (48); (b):
        // E2's 15 before E1's 14.
        let b1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 6, 8, 4, 3, 2, 1]));
        let b2 = wm_game(1, 2, &board7(WM_POWERS, "2", [10, 7, 8, 4, 3, 2, 0]));
        let teams = [("E1", "one"), ("A1", "one"), ("E2", "two"), ("F2", "two")];
        let s = standings(&tournament(Rulebook::Wm2004, vec![b1, b2], &teams), 1);
        for p in ["E1", "E2", "F1"] {
            assert_eq!(row(&s, p).score, 24.0, "{p}");
        }
        assert_eq!((row(&s, "E1").credits, row(&s, "E2").credits), (10.0, 9.0));
        let (e2, e1, f1) = (at(&s, "E2"), at(&s, "E1"), at(&s, "F1"));
        assert_eq!((e1, f1), (e2 + 1, e2 + 2));
        assert_eq!(row(&s, "E2").decided_by, "WM C.7(b) score without credits");
        assert_eq!(
            row(&s, "E1").decided_by,
            "WM C.7(a) least successful country"
        );
    }

    #[test]
    fn wm_c_7_c_positional_bonus() {
        // England scores 4 on both boards: fifth with 2 centres (bonus 2) on board 1, sixth with
        // 3 (bonus 1) on board 2.
        let b1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 2, 9, 7, 4, 1, 1]));
        let b2 = wm_game(1, 2, &board7(WM_POWERS, "2", [8, 3, 7, 6, 5, 4, 1]));
        let s = standings(&tournament(Rulebook::Wm2004, vec![b1, b2], &[]), 1);
        let (e1, e2) = (row(&s, "E1"), row(&s, "E2"));
        assert_eq!(
            (e1.score, e1.bonus, e2.score, e2.bonus),
            (4.0, 2.0, 4.0, 1.0)
        );
        assert_eq!(at(&s, "E1") + 1, at(&s, "E2"));
        assert_eq!(e1.decided_by, "WM C.7(c) positional bonus");
    }

    /// Twin round-one boards, no teams: every power scores the same on both.
    fn twins() -> (GameResult, GameResult) {
        (
            wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1])),
            wm_game(1, 2, &board7(WM_POWERS, "2", [10, 8, 6, 4, 3, 2, 1])),
        )
    }

    #[test]
    fn wm_c_7_d_count_back_from_1908() {
        // Level at the end of 1908 (8 each); at the end of 1907 England had 5 on board 2 and 4
        // on board 1: E2 first, though E1 sorts first by name.
        let (mut b1, mut b2) = twins();
        set_year(wm_map(), &mut b1, 1907, "ENGLAND", 4);
        set_year(wm_map(), &mut b2, 1907, "ENGLAND", 5);
        let s = standings(&tournament(Rulebook::Wm2004, vec![b1, b2], &[]), 1);
        assert_eq!(at(&s, "E2") + 1, at(&s, "E1"));
        assert_eq!(row(&s, "E2").decided_by, "WM C.7(d) count-back 1907");
    }

    #[test]
    fn wm_c_7_e_highest_ranking_team_non_associated_last() {
        // Eleven teams of one (A1..T1, A2, F2, G2, I2); T1's team is eleventh: no credits.
        // T1 and T2 (no team) both score 1 with no credits, level on (a)-(d): T1's team ranks.
        let (b1, b2) = twins();
        let players = [
            "A1", "E1", "F1", "G1", "I1", "R1", "T1", "A2", "F2", "G2", "I2",
        ];
        let team_names: Vec<String> = players.iter().map(|p| format!("t-{p}")).collect();
        let teams: Vec<(&str, &str)> = players
            .iter()
            .zip(&team_names)
            .map(|(p, t)| (*p, t.as_str()))
            .collect();
        let s = standings(&tournament(Rulebook::Wm2004, vec![b1, b2], &teams), 1);
        assert_eq!(team(&s, "t-T1").place, 11);
        assert_eq!(team(&s, "t-T1").credits, 0.0);
        assert_eq!((row(&s, "T1").score, row(&s, "T2").score), (1.0, 1.0));
        assert_eq!(at(&s, "T1") + 1, at(&s, "T2"));
        assert_eq!(row(&s, "T1").decided_by, "WM C.7(e) highest ranking team");
        assert_eq!(names(&s).last(), Some(&"T2"));
    }

    #[test]
    fn wm_c_7_f_the_dice_from_the_published_seed() {
        // A1 and A2 level on everything: the dice, seed "t round 1".
        let (b1, b2) = twins();
        let s = standings(&tournament(Rulebook::Wm2004, vec![b1, b2], &[]), 1);
        let seed = dice_seed("t", 1);
        assert_eq!(seed, "t round 1");
        let (r1, r2) = (scoring::d100(&seed, "A1"), scoring::d100(&seed, "A2"));
        assert_ne!(r1, r2, "the test needs different rolls");
        let (hi, lo, first) = if r1 > r2 {
            (r1, r2, "A1")
        } else {
            (r2, r1, "A2")
        };
        assert_eq!(s.players[0].player, first);
        assert_eq!(
            s.players[0].decided_by,
            format!("WM C.7(f) d100 ({hi} to {lo})")
        );
    }

    #[test]
    fn wm_c_7_a_player_who_declines_round_two_is_passed_over() {
        // Two advance; A1 (first) declines: A2 and the next, E1 or E2, go.
        let (b1, b2) = twins();
        let mut t = tournament(Rulebook::Wm2004, vec![b1, b2], &[]);
        t.advance = vec![Some(2)];
        let before = standings(&t, 1);
        let top: Vec<String> = before
            .players
            .iter()
            .take(3)
            .map(|p| p.player.clone())
            .collect();
        assert_eq!(before.advancing, top[..2]);
        t.declined = vec![top[0].clone()];
        let s = standings(&t, 1);
        assert_eq!(s.advancing, top[1..]);
        assert!(row(&s, &top[0]).declined && !row(&s, &top[0]).advances);
        assert_eq!(
            s.players[0].player, top[0],
            "the ranking itself is unchanged"
        );
    }

    // --- WM C.8 ---------------------------------------------------------------------------

    /// Round one of 14 players, seven advance; round two on one board.
    fn wm_two_rounds() -> TournamentIn<'static> {
        // Round one: A2 43, A1 42, E2 25, E1 24, F2 15, F1 14, G1 8 advance.
        let b1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        let b2 = wm_game(1, 2, &board7(WM_POWERS, "2", [11, 9, 7, 3, 2, 1, 1]));
        // Round two: 42, 25, 14, 8, 5, 3, 0.
        let r2 = wm_game(
            2,
            1,
            &[
                seat("AUSTRIA", "A2", 10),
                seat("ENGLAND", "A1", 9),
                seat("FRANCE", "E2", 6),
                seat("GERMANY", "F1", 4),
                seat("ITALY", "F2", 3),
                seat("RUSSIA", "E1", 2),
                seat("TURKEY", "G1", 0),
            ],
        );
        let mut t = tournament(Rulebook::Wm2004, vec![b1, b2, r2], &[]);
        t.advance = vec![Some(7), Some(3)];
        t
    }

    #[test]
    fn wm_c_8_aggregate_is_round_two_plus_half_round_one_and_least_successful_country() {
        let t = wm_two_rounds();
        assert_eq!(
            standings(&t, 1).advancing,
            ["A2", "A1", "E2", "E1", "F2", "F1", "G1"]
        );
        let s = standings(&t, 2);
        let a2 = row(&s, "A2");
        assert_eq!((a2.game_score, a2.score), (42.0, 42.0 + 43.0 / 2.0));
        assert_eq!(a2.credits, 0.0, "C.6: credits are lost after round one");
        // E1: 3 + 24 / 2 = 15; F1: 8 + 14 / 2 = 15. C.8(a): Russia's round-two total (3) is
        // lower than Germany's (8): E1 first.
        assert_eq!((row(&s, "E1").score, row(&s, "F1").score), (15.0, 15.0));
        assert_eq!(at(&s, "E1") + 1, at(&s, "F1"));
        assert_eq!(
            row(&s, "E1").decided_by,
            "WM C.8(a) least successful country"
        );
        assert_eq!(
            names(&s),
            ["A2", "A1", "E2", "E1", "F1", "F2", "G1"],
            "63.5, 46, 26.5, 15, 15, 12.5, 4"
        );
        assert_eq!(s.advancing, ["A2", "A1", "E2"]);
    }

    /// C.8's pairs: amy (England) and zed (France) level on a round-one board (6 centres each,
    /// sharing second and third: 18 points, 9 towards the aggregate), `ahead` in front of the
    /// other by C.7(d) (7 centres at the end of 1908 against 6); in round two each plays
    /// England, amy on board 1 ending with `one`, zed on board 2 ending with `two`, so C.8(a)
    /// (one power, one total) is always level.
    fn wm_c8_pair(ahead: &str, one: [u32; 7], two: [u32; 7]) -> Vec<GameResult> {
        let mut r1 = wm_game(1, 1, &board7(WM_POWERS, "r", [10, 6, 6, 4, 3, 2, 1]));
        set_stints(wm_map(), &mut r1, "ENGLAND", &[("amy", "S1901M", true)]);
        set_stints(wm_map(), &mut r1, "FRANCE", &[("zed", "S1901M", true)]);
        let ahead_power = if ahead == "amy" { "ENGLAND" } else { "FRANCE" };
        set_year(wm_map(), &mut r1, 1908, ahead_power, 7);
        let mut b1 = wm_game(2, 1, &board7(WM_POWERS, "1", one));
        set_stints(wm_map(), &mut b1, "ENGLAND", &[("amy", "S1901M", true)]);
        let mut b2 = wm_game(2, 2, &board7(WM_POWERS, "2", two));
        set_stints(wm_map(), &mut b2, "ENGLAND", &[("zed", "S1901M", true)]);
        vec![r1, b1, b2]
    }

    /// Round one of [`wm_c8_pair`]: `first` directly above `second`.
    fn assert_round_one_order(t: &TournamentIn<'_>, first: &str, second: &str) {
        let one = standings(t, 1);
        assert_eq!(at(&one, first) + 1, at(&one, second), "{:?}", names(&one));
    }

    #[test]
    fn wm_c_8_b_round_two_positional_bonus() {
        // C.8(b): "Highest positional Bonus in Round 2". amy's England is sixth with 3 centres
        // (bonus 1, score 4), zed's fifth with 2 (bonus 2, score 4): both 4 + 18 / 2 = 13.
        // zed is first, though the count-back (3 to 2 at the end of 1908, C.8(c)), round one
        // (C.8(e)) and the name would all put amy first.
        let games = wm_c8_pair("amy", [8, 3, 7, 6, 5, 4, 1], [10, 2, 9, 7, 4, 1, 1]);
        let t = tournament(Rulebook::Wm2004, games, &[]);
        assert_round_one_order(&t, "amy", "zed");
        let s = standings(&t, 2);
        let (zed, amy) = (row(&s, "zed"), row(&s, "amy"));
        assert_eq!((zed.score, amy.score), (13.0, 13.0));
        assert_eq!((zed.bonus, amy.bonus), (2.0, 1.0));
        assert_eq!(at(&s, "zed") + 1, at(&s, "amy"));
        assert_eq!(zed.decided_by, "WM C.8(b) positional bonus");
    }

    #[test]
    fn wm_c_8_c_round_two_count_back() {
        // C.8(c): "Count-back of Round 2(ie. highest total centres held at the end of 1908
        // then, if further tiebreak is required, highest total centres held at the end of 1907
        // etc.)". Twin round-two boards: amy and zed both England, 8 centres (24 + 9 = 33), 8
        // at the end of 1908; at the end of 1907 amy had 6, zed 7. zed is first, though round
        // one (C.8(e)) and the name would put amy first.
        let mut games = wm_c8_pair("amy", [10, 8, 6, 4, 3, 2, 1], [10, 8, 6, 4, 3, 2, 1]);
        set_year(wm_map(), &mut games[1], 1907, "ENGLAND", 6);
        set_year(wm_map(), &mut games[2], 1907, "ENGLAND", 7);
        let t = tournament(Rulebook::Wm2004, games, &[]);
        assert_round_one_order(&t, "amy", "zed");
        let s = standings(&t, 2);
        let (zed, amy) = (row(&s, "zed"), row(&s, "amy"));
        assert_eq!((zed.score, amy.score), (33.0, 33.0));
        assert_eq!((zed.bonus, amy.bonus), (16.0, 16.0));
        assert_eq!(at(&s, "zed") + 1, at(&s, "amy"));
        assert_eq!(zed.decided_by, "WM C.8(c) count-back 1907");
    }

    #[test]
    fn wm_c_8_d_highest_ranking_team() {
        // C.8(d): "Highest ranking team", the team standings after round two (C.12). Round
        // one: team lo (Ar's Austria 42 and amy's 18: 60) is first, credits 10; hi (zed's 18)
        // second, credits 9: amy 28 ranks above zed 27. Round two, twin boards: amy and zed
        // both England (24 + 9 = 33, level on C.8(a)-(c)); hi's A1 (42) and F2 (14) make it
        // 98 to lo's 84: zed is first, though round one (C.8(e)) and the name would put amy
        // first.
        let games = wm_c8_pair("amy", [10, 8, 6, 4, 3, 2, 1], [10, 8, 6, 4, 3, 2, 1]);
        let teams = [
            ("amy", "lo"),
            ("Ar", "lo"),
            ("zed", "hi"),
            ("A1", "hi"),
            ("F2", "hi"),
        ];
        let t = tournament(Rulebook::Wm2004, games, &teams);
        assert_round_one_order(&t, "amy", "zed");
        assert_eq!(standings(&t, 1).teams[0].team, "lo");
        let s = standings(&t, 2);
        let order: Vec<(&str, f64)> = s.teams.iter().map(|t| (t.team.as_str(), t.score)).collect();
        assert_eq!(order, [("hi", 98.0), ("lo", 84.0)]);
        let (zed, amy) = (row(&s, "zed"), row(&s, "amy"));
        assert_eq!((zed.score, amy.score), (33.0, 33.0));
        assert_eq!(at(&s, "zed") + 1, at(&s, "amy"));
        assert_eq!(zed.decided_by, "WM C.8(d) highest ranking team");
    }

    #[test]
    fn wm_c_8_e_round_one_ranking() {
        // C.8(e): "Highest Round 1 ranking based on criterion set out in Rule C.7". zed is
        // ahead of amy in round one by C.7(d); in round two, twin boards, both England (24 + 9
        // = 33), level on C.8(a)-(d) (no teams): zed is first, though amy sorts first.
        let games = wm_c8_pair("zed", [10, 8, 6, 4, 3, 2, 1], [10, 8, 6, 4, 3, 2, 1]);
        let t = tournament(Rulebook::Wm2004, games, &[]);
        assert_round_one_order(&t, "zed", "amy");
        assert_eq!(
            row(&standings(&t, 1), "zed").decided_by,
            "WM C.7(d) count-back 1908"
        );
        let s = standings(&t, 2);
        let (zed, amy) = (row(&s, "zed"), row(&s, "amy"));
        assert_eq!((zed.score, amy.score), (33.0, 33.0));
        assert_eq!(at(&s, "zed") + 1, at(&s, "amy"));
        assert_eq!(zed.decided_by, "WM C.8(e) round one ranking");
    }

    // --- WM C.9, C.10 ---------------------------------------------------------------------

    #[test]
    fn wm_c_9_each_board_best_advances_ties_by_least_successful_country() {
        // Board 1: A1 42 wins. Board 2: A2 and E2 share first with 9 (33 each); C.9(a):
        // England's semi-final total (14 + 33) is below Austria's (42 + 33): E2 wins.
        let b1 = wm_game(3, 1, &board7(WM_POWERS, "1", [10, 6, 8, 4, 3, 2, 1]));
        let b2 = wm_game(3, 2, &board7(WM_POWERS, "2", [9, 9, 6, 4, 3, 2, 1]));
        let s = standings(&tournament(Rulebook::Wm2004, vec![b1, b2], &[]), 3);
        assert_eq!(s.advancing, ["A1", "E2"]);
        assert_eq!(names(&s)[..3], ["A1", "E2", "A2"]);
        assert_eq!(
            row(&s, "E2").decided_by,
            "WM C.9(a) least successful country"
        );
        assert_eq!(row(&s, "A1").decided_by, "score");
        assert!(!row(&s, "A2").advances);
    }

    #[test]
    fn wm_c_9_b_count_back_from_1911_not_1912() {
        // France scores 9 on both semi-final boards: third with 1 centre (8 + 1) on board 1,
        // fourth with 5 (4 + 5) on board 2; C.9(a) is level (one power). At the end of 1911
        // France had 6 on board 1 and 5 on board 2 (from 1912 the order would be the other way).
        let mut b1 = wm_game(3, 1, &board7(WM_POWERS, "1", [17, 16, 1, 0, 0, 0, 0]));
        let b2 = wm_game(3, 2, &board7(WM_POWERS, "2", [8, 7, 5, 6, 4, 3, 1]));
        set_year(wm_map(), &mut b1, 1911, "FRANCE", 6);
        let s = standings(&tournament(Rulebook::Wm2004, vec![b1, b2], &[]), 3);
        assert_eq!((row(&s, "F1").score, row(&s, "F2").score), (9.0, 9.0));
        assert_eq!(at(&s, "F1") + 1, at(&s, "F2"));
        assert_eq!(row(&s, "F1").decided_by, "WM C.9(b) count-back 1911");
    }

    #[test]
    fn wm_c_10_a_declining_finalist_is_replaced_by_the_best_positional_bonus() {
        // Board 1: A1, E1, F1 share first with 8 (bonus 18.667, score 26.667); C.9(a): France
        // has the lowest total, F1 wins. Board 2: A2 45 wins; E2 28 (bonus 16).
        let b1 = wm_game(3, 1, &board7(WM_POWERS, "1", [8, 8, 8, 7, 2, 1, 0]));
        let b2 = wm_game(3, 2, &board7(WM_POWERS, "2", [13, 12, 3, 3, 2, 1, 0]));
        let mut t = tournament(Rulebook::Wm2004, vec![b1, b2], &[]);
        assert_eq!(standings(&t, 3).advancing, ["A2", "F1"]);
        // A2 declines: not E2 (the higher score) but the higher bonus, E1 or A1 (level on the
        // bonus and on C.10(a) the score); C.10(b): E1 ranks above A1 by C.9 (England's total
        // is the lower).
        t.declined = vec!["A2".to_string()];
        let s = standings(&t, 3);
        assert_eq!(s.advancing, ["F1", "E1"]);
        let a2 = row(&s, "A2");
        assert!(a2.declined && !a2.advances);
        assert!(!row(&s, "E2").advances && !row(&s, "A1").advances);
        assert!(close(row(&s, "E1").bonus, 56.0 / 3.0));
        assert_eq!(row(&s, "E2").bonus, 16.0);
    }

    #[test]
    fn wm_c_9_c_round_two_ranking() {
        // C.9(c): "Highest ranking based on Round 2 criterion set out in rule C8." Round two:
        // zed (Austria, 42) first, amy (England, 24) second. The semi-final, one board: amy
        // (Austria) and zed (England) share first with 9 (33 each); with one board each power's
        // total is its own score (C.9(a) level), and both had 9 at the end of 1911 (C.9(b)
        // level): zed wins the board, though amy sorts first.
        let mut r2 = wm_game(2, 1, &board7(WM_POWERS, "2", [10, 8, 6, 4, 3, 2, 1]));
        set_stints(wm_map(), &mut r2, "AUSTRIA", &[("zed", "S1901M", true)]);
        set_stints(wm_map(), &mut r2, "ENGLAND", &[("amy", "S1901M", true)]);
        let mut sf = wm_game(3, 1, &board7(WM_POWERS, "s", [9, 9, 6, 4, 3, 2, 1]));
        set_stints(wm_map(), &mut sf, "AUSTRIA", &[("amy", "S1901M", true)]);
        set_stints(wm_map(), &mut sf, "ENGLAND", &[("zed", "S1901M", true)]);
        let t = tournament(Rulebook::Wm2004, vec![r2, sf], &[]);
        assert_eq!(names(&standings(&t, 2))[..2], ["zed", "amy"]);
        let s = standings(&t, 3);
        assert_eq!(s.advancing, ["zed"]);
        assert_eq!(names(&s)[..2], ["zed", "amy"]);
        assert_eq!((row(&s, "zed").score, row(&s, "amy").score), (33.0, 33.0));
        assert_eq!(row(&s, "zed").decided_by, "WM C.9(c) round two ranking");
    }

    #[test]
    fn wm_c_10_b_level_replacements_by_the_semi_final_ranking() {
        // C.10: "the otherwise non-qualifying player with the highest overall Round 3
        // positional bonus qualifies in his place with the tiebreaks as follows: a) highest
        // overall Round 3 score b) highest ranking based on Round 3 criterion set out in Clause
        // C9". Twin semi-final boards: A1 and A2 win (42); E1 and E2, second on each (bonus 16,
        // score 24), have the best bonus of the rest, level on it and on C.10(a). By C.9 E2 is
        // ahead: England's total is one, but it had 9 centres at the end of 1911 on board 2
        // and 8 on board 1 (C.9(b)). A1 declines: E2 qualifies, though E1 sorts first.
        let b1 = wm_game(3, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        let mut b2 = wm_game(3, 2, &board7(WM_POWERS, "2", [10, 8, 6, 4, 3, 2, 1]));
        set_year(wm_map(), &mut b2, 1911, "ENGLAND", 9);
        let mut t = tournament(Rulebook::Wm2004, vec![b1, b2], &[]);
        assert_eq!(standings(&t, 3).advancing, ["A1", "A2"]);
        t.declined = vec!["A1".to_string()];
        let s = standings(&t, 3);
        assert_eq!(s.advancing, ["A2", "E2"]);
        let (e2, e1) = (row(&s, "E2"), row(&s, "E1"));
        assert_eq!(
            (e2.bonus, e2.game_score, e1.bonus, e1.game_score),
            (16.0, 24.0, 16.0, 24.0)
        );
        // The C.9 ranking C.10(b) goes by.
        assert_eq!(names(&s)[2..4], ["E2", "E1"]);
        assert_eq!(e2.decided_by, "WM C.9(b) count-back 1911");
        assert!(e2.advances && !e1.advances);
    }

    // --- WM C.11 --------------------------------------------------------------------------

    #[test]
    fn wm_c_11_the_final_is_won_on_centres_with_the_count_back() {
        // A4 and E4 end with 10 centres each and 10 at the end of 1914; at the end of 1913
        // Austria had 9, England 8.
        let mut f = wm_game(4, 1, &board7(WM_POWERS, "4", [10, 10, 5, 4, 3, 1, 1]));
        set_year(wm_map(), &mut f, 1913, "AUSTRIA", 9);
        set_year(wm_map(), &mut f, 1913, "ENGLAND", 8);
        let s = standings(&tournament(Rulebook::Wm2004, vec![f], &[]), 4);
        assert_eq!(s.winner.as_deref(), Some("A4"));
        let a4 = row(&s, "A4");
        assert_eq!(
            (a4.score, a4.game_score),
            (10.0, 34.0),
            "centres; the points aside"
        );
        assert_eq!(a4.decided_by, "WM C.11(a) count-back 1913");
        assert!(s.advancing.is_empty(), "nobody advances from the final");
        // A solo counts as 34 centres (C.4).
        let mut solo = wm_game(4, 1, &board7(WM_POWERS, "4", [4, 18, 5, 4, 1, 1, 1]));
        solo.end = End::Solo(power(wm_map(), "ENGLAND"));
        solo.ended_after = ph("F1912M");
        let s = standings(&tournament(Rulebook::Wm2004, vec![solo], &[]), 4);
        assert_eq!(s.winner.as_deref(), Some("E4"));
        assert_eq!(row(&s, "E4").score, 34.0);
    }

    #[test]
    fn wm_c_11_b_a_level_final_goes_to_the_better_semi_finalist() {
        // Semi-final board winners: zara 44, adam 42 (C.9 places 1 and 2). In the final both
        // end with 10 centres, level every year: C.11(b) the semi-final ranking, not the name.
        let s1 = wm_game(
            3,
            1,
            &[seat("AUSTRIA", "zara", 12), seat("ENGLAND", "p2", 4)],
        );
        let s2 = wm_game(
            3,
            2,
            &[seat("AUSTRIA", "adam", 10), seat("ENGLAND", "q2", 4)],
        );
        let f = wm_game(
            4,
            1,
            &[
                seat("ENGLAND", "adam", 10),
                seat("FRANCE", "zara", 10),
                seat("TURKEY", "p2", 4),
            ],
        );
        let t = tournament(Rulebook::Wm2004, vec![s1, s2, f], &[]);
        assert_eq!(standings(&t, 3).advancing, ["zara", "adam"]);
        let s = standings(&t, 4);
        assert_eq!(s.winner.as_deref(), Some("zara"));
        assert_eq!(s.players[0].decided_by, "WM C.11(b) semi-final ranking");
    }

    // --- WM C.12 --------------------------------------------------------------------------

    #[test]
    fn wm_c_12_team_winner_ties_by_players_in_round_two() {
        // Round one (42, 24, 14, 8, 5, 3, 1): x = E1 + F1 = 38 (credits 9), y = A1 + T1 = 43
        // (credits 10); A1 52, E1 33, F1 23 advance (three).
        let r1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        // Round two with four reserves: E1 8, F1 0 (x: 38 + 8 = 46); A1 3 (y: 43 + 3 = 46).
        let r2 = wm_game(
            2,
            1,
            &[
                seat("AUSTRIA", "r1", 10),
                seat("ENGLAND", "r2", 9),
                seat("FRANCE", "r3", 6),
                seat("GERMANY", "E1", 4),
                seat("ITALY", "r4", 3),
                seat("RUSSIA", "A1", 2),
                seat("TURKEY", "F1", 0),
            ],
        );
        let teams = [("E1", "x"), ("F1", "x"), ("A1", "y"), ("T1", "y")];
        let mut t = tournament(Rulebook::Wm2004, vec![r1, r2], &teams);
        t.advance = vec![Some(3)];
        let one = standings(&t, 1);
        assert_eq!(one.advancing, ["A1", "E1", "F1"]);
        assert_eq!(one.teams[0].team, "y");
        let s = standings(&t, 2);
        let order: Vec<(&str, f64)> = s.teams.iter().map(|t| (t.team.as_str(), t.score)).collect();
        assert_eq!(order, [("x", 46.0), ("y", 46.0)]);
        assert_eq!(s.teams[0].decided_by, "WM C.12(a) players in round two");
        assert_eq!(s.team_winner.as_deref(), Some("x"));
        assert_eq!(team(&s, "y").credits, 10.0, "round one's credits shown");
    }

    /// A WM board of seven ending 10, 8, 6, 4, 3, 2 and `last` centres (42, 24, 14, 8, 5, 3
    /// and `last` points), each power's player named by [`board7`] with the tag
    /// "<round><board>" ("E21"), or as `named` gives (power, player).
    fn wm_board(round: u8, board: u32, last: u32, named: &[(&str, &str)]) -> GameResult {
        let tag = format!("{round}{board}");
        let seats: Vec<SeatSpec> = board7(WM_POWERS, &tag, [10, 8, 6, 4, 3, 2, last])
            .into_iter()
            .map(|(p, n, c)| {
                let n = named
                    .iter()
                    .find(|x| x.0 == p)
                    .map_or(n, |x| x.1.to_string());
                (p, n, c)
            })
            .collect();
        wm_game(round, board, &seats)
    }

    /// The team standings after round two: (team, score, decided_by).
    fn team_order(s: &Standings) -> Vec<(&str, f64, &str)> {
        s.teams
            .iter()
            .map(|t| (t.team.as_str(), t.score, t.decided_by.as_str()))
            .collect()
    }

    #[test]
    fn wm_c_12_b_total_without_the_highest_round_two_score() {
        // C.12(b): "Total score with the highest individual round two score removed from the
        // calculation (or with further scores removed until a result is achieved)". zulu:
        // round one 24 + 0, round two 14 + 14; alpha: round one 14 + 14, round two 24 + 0.
        // Both 52, both with two players advanced (everyone does). Without the highest round
        // two score: zulu 38, alpha 28. zulu wins, though C.12(c) (zulu 28, alpha 38), the
        // round one team place (alpha 28 to 24, C.12(d)) and the name would all give alpha.
        let games = vec![
            wm_board(
                1,
                1,
                0,
                &[("ENGLAND", "z1"), ("TURKEY", "z2"), ("FRANCE", "a1")],
            ),
            wm_board(1, 2, 0, &[("FRANCE", "a2")]),
            wm_board(2, 1, 0, &[("FRANCE", "z1"), ("ENGLAND", "a1")]),
            wm_board(2, 2, 0, &[("FRANCE", "z2"), ("TURKEY", "a2")]),
        ];
        let teams = [
            ("z1", "zulu"),
            ("z2", "zulu"),
            ("a1", "alpha"),
            ("a2", "alpha"),
        ];
        let mut t = tournament(Rulebook::Wm2004, games, &teams);
        t.advance = vec![Some(14)];
        let one = standings(&t, 1);
        assert!(
            ["z1", "z2", "a1", "a2"]
                .iter()
                .all(|p| row(&one, p).advances)
        );
        assert_eq!(team_order(&one)[0], ("alpha", 28.0, "score"));
        let s = standings(&t, 2);
        assert_eq!(
            team_order(&s),
            [
                (
                    "zulu",
                    52.0,
                    "WM C.12(b) total without the highest round two scores"
                ),
                ("alpha", 52.0, "score"),
            ]
        );
        assert_eq!(s.team_winner.as_deref(), Some("zulu"));
    }

    #[test]
    fn wm_c_12_c_total_without_the_highest_round_one_score() {
        // C.12(c): "Total score with the highest individual round one score removed from the
        // calculation (or with further scores removed until a result is achieved)". zulu:
        // round one 14 + 14 + 0, round two 8; alpha: round one 24 + 3 + 1, round two 8. Both
        // 36, three players advanced each, level on C.12(b) (36 - 8). Without the highest
        // round one score: zulu 22, alpha 12: zulu wins, though alpha sorts first. (C.12(d)
        // agrees, as it must: equal round one totals are ranked by C.6(a), the same removal.)
        let games = vec![
            wm_board(
                1,
                1,
                1,
                &[
                    ("ENGLAND", "a1"),
                    ("RUSSIA", "a2"),
                    ("TURKEY", "a3"),
                    ("FRANCE", "z1"),
                ],
            ),
            wm_board(1, 2, 0, &[("FRANCE", "z2"), ("TURKEY", "z3")]),
            wm_board(2, 1, 0, &[("GERMANY", "z1")]),
            wm_board(2, 2, 0, &[("GERMANY", "a1")]),
        ];
        let teams = [
            ("z1", "zulu"),
            ("z2", "zulu"),
            ("z3", "zulu"),
            ("a1", "alpha"),
            ("a2", "alpha"),
            ("a3", "alpha"),
        ];
        let mut t = tournament(Rulebook::Wm2004, games, &teams);
        t.advance = vec![Some(14)];
        let s = standings(&t, 2);
        assert_eq!(
            team_order(&s),
            [
                (
                    "zulu",
                    36.0,
                    "WM C.12(c) total without the highest round one scores"
                ),
                ("alpha", 36.0, "score"),
            ]
        );
        assert_eq!(s.team_winner.as_deref(), Some("zulu"));
    }

    #[test]
    fn wm_c_12_d_round_one_team_place() {
        // C.12(d): "Highest ranking team at the end of round one." Twin boards each round:
        // zulu's z1 and alpha's a1 play Austria in round one (42 each) and England in round
        // two (24 each): 66 each, level on C.12(a)-(c). Round one ranked zulu first by C.6(b):
        // z1 had 11 centres at the end of 1908, a1 10 (C.7(d)). zulu wins, though alpha sorts
        // first.
        let mut z = wm_board(1, 1, 1, &[("AUSTRIA", "z1")]);
        set_year(wm_map(), &mut z, 1908, "AUSTRIA", 11);
        let games = vec![
            z,
            wm_board(1, 2, 1, &[("AUSTRIA", "a1")]),
            wm_board(2, 1, 1, &[("ENGLAND", "z1")]),
            wm_board(2, 2, 1, &[("ENGLAND", "a1")]),
        ];
        let mut t = tournament(Rulebook::Wm2004, games, &[("z1", "zulu"), ("a1", "alpha")]);
        t.advance = vec![Some(14)];
        assert_eq!(
            team_order(&standings(&t, 1))[0],
            ("zulu", 42.0, "WM C.6(b) highest ranking player")
        );
        let s = standings(&t, 2);
        assert_eq!(
            team_order(&s),
            [
                ("zulu", 66.0, "WM C.12(d) round one team place"),
                ("alpha", 66.0, "score"),
            ]
        );
        assert_eq!(s.team_winner.as_deref(), Some("zulu"));
    }

    // --- WM C.13 --------------------------------------------------------------------------

    #[test]
    fn wm_c_13_best_country_over_rounds_one_and_two() {
        let r1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        let r2 = wm_game(2, 3, &board7(WM_POWERS, "x", [11, 8, 6, 4, 3, 2, 0]));
        let r3 = wm_game(3, 1, &board7(WM_POWERS, "s", [4, 17, 6, 4, 1, 1, 1]));
        let t = tournament(Rulebook::Wm2004, vec![r1, r2, r3], &[]);
        for round in [2, 3] {
            let s = standings(&t, round);
            let of = |p: &str| {
                s.best_country
                    .iter()
                    .find(|b| b.power == p)
                    .unwrap_or_else(|| panic!("{p}"))
            };
            // England 24 in both rounds: (a) round 2 outranks round 1; the semi-final's 49
            // does not count.
            let e = of("ENGLAND");
            assert_eq!(
                (e.player.as_str(), e.round, e.board, e.score),
                ("Ex", 2, 3, 24.0)
            );
            assert_eq!(e.decided_by, "WM C.13(a) round 2 outranks round 1");
            assert_eq!(
                (
                    of("AUSTRIA").player.as_str(),
                    of("AUSTRIA").decided_by.as_str()
                ),
                ("Ax", "score")
            );
            assert_eq!(of("TURKEY").player, "T1");
            assert_eq!(s.best_country.len(), 7);
            assert_eq!(s.best_country[0].power, "AUSTRIA", "map order");
        }
        // After round one, round one's games only.
        let s = standings(&t, 1);
        assert!(s.best_country.iter().all(|b| b.round == 1));
    }

    // --- WM C.14, C.15, B.8(e) ------------------------------------------------------------

    #[test]
    fn wm_c_14_a_replaced_player_scores_a_prorated_share_and_the_team_the_full_score() {
        // C.14's example: Fred replaces Wendy from the Winter 1906 builds and solos in Fall
        // 1908: Wendy 66 x 12 / 18 = 44, Fred 66 x 6 / 18 = 22; the team 66.
        let mut g = wm_game(1, 1, &board7(WM_POWERS, "1", [5, 18, 4, 3, 2, 1, 1]));
        g.end = End::Solo(power(wm_map(), "ENGLAND"));
        g.ended_after = ph("F1908M");
        set_stints(
            wm_map(),
            &mut g,
            "ENGLAND",
            &[("wendy", "S1901M", true), ("fred", "W1906A", true)],
        );
        set_stints(wm_map(), &mut g, "FRANCE", &[("alice", "S1901M", true)]);
        let teams = [("wendy", "T"), ("fred", "T"), ("alice", "T")];
        let s = standings(&tournament(Rulebook::Wm2004, vec![g], &teams), 1);
        assert_eq!(row(&s, "wendy").game_score, 44.0);
        assert_eq!(row(&s, "fred").game_score, 22.0);
        assert_eq!(row(&s, "fred").power.as_deref(), Some("ENGLAND"));
        assert_eq!(team(&s, "T").score, 66.0);
    }

    #[test]
    fn wm_b_8_e_an_outside_permanent_replacement_forfeits_the_position() {
        // England (42) passes to fred, on no team, permanently: team T loses it, keeping
        // alice's France (14). Germany (8) had an outside temporary replacement for one season:
        // team U keeps it (and victor his full points, C.14).
        let mut g = wm_game(1, 1, &board7(WM_POWERS, "1", [8, 10, 6, 4, 3, 2, 1]));
        set_stints(
            wm_map(),
            &mut g,
            "ENGLAND",
            &[("wendy", "S1901M", true), ("fred", "W1906A", true)],
        );
        set_stints(wm_map(), &mut g, "FRANCE", &[("alice", "S1901M", true)]);
        set_stints(
            wm_map(),
            &mut g,
            "GERMANY",
            &[
                ("victor", "S1901M", true),
                ("sub", "S1905M", false),
                ("victor", "F1905M", true),
            ],
        );
        let teams = [("wendy", "T"), ("alice", "T"), ("victor", "U")];
        let s = standings(&tournament(Rulebook::Wm2004, vec![g], &teams), 1);
        assert_eq!(team(&s, "T").score, 14.0);
        assert_eq!(team(&s, "U").score, 8.0);
        // The players' own shares stand (C.14): wendy 42 x 12 / 18, fred 42 x 6 / 18.
        assert_eq!(row(&s, "wendy").game_score, 28.0);
        assert_eq!(row(&s, "fred").game_score, 14.0);
        assert_eq!(row(&s, "victor").game_score, 8.0);
        // The temporary replacement has no advancement score.
        assert_eq!(row(&s, "sub").board, None);
    }

    #[test]
    fn wm_c_15_only_the_first_permanent_game_counts() {
        // rex replaces England on board 1 from the Winter 1904 builds (24 x 10 / 18 = 13.333)
        // and France on board 2 from Spring 1903 (14 x 14 / 18 = 10.889): board 2 is his first
        // permanent game, so it counts, though its share is smaller. tim only stood in for
        // Germany on board 1 for a season; zed played nothing: both rank last, level.
        let mut b1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        let mut b2 = wm_game(1, 2, &board7(WM_POWERS, "2", [10, 8, 6, 4, 3, 2, 1]));
        set_stints(
            wm_map(),
            &mut b1,
            "ENGLAND",
            &[("E1", "S1901M", true), ("rex", "W1904A", true)],
        );
        set_stints(
            wm_map(),
            &mut b1,
            "GERMANY",
            &[
                ("G1", "S1901M", true),
                ("tim", "S1902M", false),
                ("G1", "F1902M", true),
            ],
        );
        set_stints(
            wm_map(),
            &mut b2,
            "FRANCE",
            &[("F2", "S1901M", true), ("rex", "S1903M", true)],
        );
        let mut t = tournament(Rulebook::Wm2004, vec![b1, b2], &[]);
        t.entrants.push(Entrant {
            name: "zed".into(),
            team: None,
        });
        let s = standings(&t, 1);
        let rex = row(&s, "rex");
        assert_eq!((rex.board, rex.power.as_deref()), (Some(2), Some("FRANCE")));
        assert!(close(rex.game_score, 14.0 * 14.0 / 18.0));
        assert!(close(row(&s, "E1").game_score, 24.0 * 8.0 / 18.0));
        let n = s.players.len();
        assert_eq!(names(&s)[n - 2..], ["tim", "zed"]);
        let (tim, zed) = (row(&s, "tim"), row(&s, "zed"));
        assert_eq!((tim.score, tim.board, zed.score), (0.0, None, 0.0));
        assert_eq!(tim.decided_by, "tied");
        assert_eq!(tim.place, zed.place, "a tie shares the place");
        assert_eq!(zed.decided_by, "score");
    }

    #[test]
    fn wm_c_14_a_player_stood_in_for_a_single_turn_keeps_full_points() {
        // "A player who is replaced for more than one turn due to arranged absence ... will
        // receive pro-rated points": so one replaced for a single turn keeps the full points.
        let mut g = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        // England (24): Spring 1905 alone.
        set_stints(
            wm_map(),
            &mut g,
            "ENGLAND",
            &[
                ("E1", "S1901M", true),
                ("s1", "S1905M", false),
                ("E1", "F1905M", true),
            ],
        );
        // France (14): the Winter 1904 builds and Spring 1905, one counted turn.
        set_stints(
            wm_map(),
            &mut g,
            "FRANCE",
            &[
                ("F1", "S1901M", true),
                ("s2", "W1904A", false),
                ("F1", "F1905M", true),
            ],
        );
        // Germany (8): Spring and Fall 1903, two turns.
        set_stints(
            wm_map(),
            &mut g,
            "GERMANY",
            &[
                ("G1", "S1901M", true),
                ("s3", "S1903M", false),
                ("G1", "S1904M", true),
            ],
        );
        // Italy (5): twice a single turn, two in all.
        set_stints(
            wm_map(),
            &mut g,
            "ITALY",
            &[
                ("I1", "S1901M", true),
                ("s4", "S1903M", false),
                ("I1", "F1903M", true),
                ("s4", "S1906M", false),
                ("I1", "F1906M", true),
            ],
        );
        // Russia (3): the last turn, the game ending during the stand-in.
        set_stints(
            wm_map(),
            &mut g,
            "RUSSIA",
            &[("R1", "S1901M", true), ("s5", "F1909M", false)],
        );
        let s = standings(&tournament(Rulebook::Wm2004, vec![g], &[]), 1);
        assert_eq!(row(&s, "E1").game_score, 24.0);
        assert_eq!(row(&s, "F1").game_score, 14.0);
        assert!(close(row(&s, "G1").game_score, 8.0 * 16.0 / 18.0));
        assert!(close(row(&s, "I1").game_score, 5.0 * 16.0 / 18.0));
        assert_eq!(row(&s, "R1").game_score, 3.0);
        // The stand-ins never count for advancement (C.15).
        assert_eq!(row(&s, "s1").board, None);
    }

    #[test]
    fn wm_b_4_a_round_without_teams_sends_on_a_share_of_its_players() {
        // Four boards, no teams: 28 players; 28 boards would send on more than one half, so one
        // half, two boards, 14 players.
        let games: Vec<GameResult> = (1..=4)
            .map(|b| {
                wm_game(
                    1,
                    b,
                    &board7(WM_POWERS, &b.to_string(), [10, 8, 6, 4, 3, 2, 1]),
                )
            })
            .collect();
        let s = standings(&tournament(Rulebook::Wm2004, games, &[]), 1);
        assert_eq!(s.advancing.len(), 14);
        assert_eq!(s.players.iter().filter(|p| p.advances).count(), 14);
    }

    /// Two teams in round one (X on board 1, Y on board 2): Y wins round one; in a round two
    /// where X scores far more, as the semi-final (to 1912) of a small tournament (B.4).
    fn wm_small() -> TournamentIn<'static> {
        let b1 = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 0]));
        let b2 = wm_game(1, 2, &board7(WM_POWERS, "2", [12, 9, 7, 3, 2, 1, 0]));
        let semi = game(
            wm_map(),
            2,
            1,
            (1901, 1912),
            &[
                seat("AUSTRIA", "A1", 12),
                seat("ENGLAND", "E1", 8),
                seat("FRANCE", "F1", 6),
                seat("GERMANY", "G1", 4),
                seat("ITALY", "A2", 2),
                seat("RUSSIA", "E2", 1),
                seat("TURKEY", "F2", 1),
            ],
        );
        let last = game(
            wm_map(),
            3,
            1,
            (1901, 1915),
            &[
                seat("AUSTRIA", "x1", 7),
                seat("ENGLAND", "x2", 6),
                seat("FRANCE", "x3", 4),
                seat("GERMANY", "x4", 3),
                seat("ITALY", "x5", 2),
                seat("RUSSIA", "A1", 11),
                seat("TURKEY", "x7", 1),
            ],
        );
        let teams: Vec<(String, &str)> = WM_POWERS
            .iter()
            .flat_map(|p| {
                [
                    (format!("{}1", &p[..1]), "X"),
                    (format!("{}2", &p[..1]), "Y"),
                ]
            })
            .collect();
        let teams: Vec<(&str, &str)> = teams.iter().map(|(p, t)| (p.as_str(), *t)).collect();
        let mut t = tournament(Rulebook::Wm2004, vec![b1, b2, semi, last], &teams);
        t.round_two = RoundTwo::SemiFinal;
        t
    }

    #[test]
    fn wm_b_4_fewer_than_42_teams_round_two_is_the_semi_final() {
        let mut t = wm_small();
        assert_eq!(RoundTwo::by_b4(2), RoundTwo::SemiFinal);
        assert_eq!(RoundTwo::by_b4(41), RoundTwo::SemiFinal);
        assert_eq!(RoundTwo::by_b4(42), RoundTwo::TeamRound);
        // Round one: 14 players, one half advance (B.4); the team competition is round one's
        // alone, so it is decided now: Y (97 points to 96).
        let one = standings(&t, 1);
        assert_eq!(one.advancing.len(), 7);
        assert_eq!(one.team_winner.as_deref(), Some("Y"));
        // Round two is the semi-final: the board's best goes to the final (C.9); X's big
        // round-two scores do not count for the teams ("will no longer apply to the team
        // competition").
        let two = standings(&t, 2);
        assert_eq!(two.advancing, ["A1"]);
        assert_eq!(two.team_winner.as_deref(), Some("Y"));
        assert_eq!(team(&two, "Y").score, 97.0);
        // Round three is the final (C.11).
        let three = standings(&t, 3);
        assert_eq!(three.winner.as_deref(), Some("A1"));
        assert_eq!(row(&three, "A1").score, 11.0, "the final's centres");
        assert!(standings(&t, 4).players.is_empty(), "no fourth round");
        // B.1's four rounds: round two is a team round (C.8), and it counts for the teams.
        t.round_two = RoundTwo::TeamRound;
        let two = standings(&t, 2);
        assert_eq!(two.advancing.len(), 7, "C.8: 49 at most");
        assert_eq!(two.team_winner.as_deref(), Some("X"));
        assert_eq!(standings(&t, 1).team_winner, None);
    }

    #[test]
    fn wm_c_13_a_split_position_is_the_best_country_of_who_played_most_of_it() {
        // England passed to rex from Spring 1903: E1 played 4 seasons, rex 14; France passed
        // to fay from Fall 1905: 9 seasons each, and fay held it at the end.
        let mut g = wm_game(1, 1, &board7(WM_POWERS, "1", [10, 8, 6, 4, 3, 2, 1]));
        set_stints(
            wm_map(),
            &mut g,
            "ENGLAND",
            &[("E1", "S1901M", true), ("rex", "S1903M", true)],
        );
        set_stints(
            wm_map(),
            &mut g,
            "FRANCE",
            &[("F1", "S1901M", true), ("fay", "F1905M", true)],
        );
        let s = standings(&tournament(Rulebook::Wm2004, vec![g], &[]), 1);
        let best = |power: &str| {
            s.best_country
                .iter()
                .find(|b| b.power == power)
                .map(|b| (b.player.as_str(), b.score))
                .expect("best")
        };
        assert_eq!(best("ENGLAND"), ("rex", 24.0), "the position's full score");
        assert_eq!(best("FRANCE"), ("fay", 14.0));
        assert_eq!(best("GERMANY"), ("G1", 8.0));
    }

    // --- Maharajiad -----------------------------------------------------------------------

    #[test]
    fn maharajiad_a_16_each_board_best_and_one_more_advance_a_solo_is_37() {
        // Board 1: Bahmana solos (19). Board 2: Delhi 12 wins; Gondwana's 10 is the best left.
        let mut b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [19, 6, 5, 3, 2, 1, 1]));
        b1.end = End::Solo(power(mh_map(), "BAHMANA"));
        b1.ended_after = ph("F1507M");
        let b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [5, 12, 10, 4, 3, 2, 1]));
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        assert_eq!(s.advancing, ["B1", "D2", "G2"]);
        let b = row(&s, "B1");
        assert_eq!((b.score, b.bonus, b.credits), (37.0, 0.0, 0.0));
        assert_eq!(row(&s, "D1").score, 0.0, "all others eliminated");
        assert!(s.teams.is_empty() && s.team_winner.is_none());
    }

    #[test]
    fn maharajiad_a_19_a_least_successful_country() {
        // B1 and D1 have 8; Bahmana's round total 10 is below Delhi's 18.
        let b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [8, 8, 7, 5, 4, 3, 2]));
        let b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [2, 10, 9, 7, 5, 3, 1]));
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        assert_eq!(at(&s, "B1") + 1, at(&s, "D1"));
        assert_eq!(
            row(&s, "B1").decided_by,
            "Maharajiad A.19(a) least successful country"
        );
    }

    #[test]
    fn maharajiad_a_19_c_the_dice() {
        let b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [10, 8, 7, 5, 4, 2, 1]));
        let b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [10, 8, 7, 5, 4, 2, 1]));
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        let seed = dice_seed("t", 1);
        let (r1, r2) = (scoring::d100(&seed, "B1"), scoring::d100(&seed, "B2"));
        assert_ne!(r1, r2, "the test needs different rolls");
        let (hi, lo, first) = if r1 > r2 {
            (r1, r2, "B1")
        } else {
            (r2, r1, "B2")
        };
        assert_eq!(s.players[0].player, first);
        assert_eq!(
            s.players[0].decided_by,
            format!("Maharajiad A.19(c) d100 ({hi} to {lo})")
        );
    }

    #[test]
    fn maharajiad_a_19_b_count_back_from_1509() {
        let b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [10, 8, 7, 5, 4, 2, 1]));
        let mut b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [10, 8, 7, 5, 4, 2, 1]));
        set_year(mh_map(), &mut b2, 1509, "BAHMANA", 11);
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        assert_eq!(names(&s)[..2], ["B2", "B1"]);
        assert_eq!(
            s.players[0].decided_by,
            "Maharajiad A.19(b) count-back 1509"
        );
    }

    #[test]
    fn maharajiad_a_20_the_final_tie_by_least_successful_country_over_both_rounds() {
        // Round one: g1 (Gondwana 10) and d1 (Delhi 9) advance. Round two: d1 (Bahmana) and g1
        // (Delhi) end with 12; Bahmana's total over both rounds (2 + 12) is below Delhi's
        // (9 + 12): d1 wins, though g1 ranked higher in round one.
        let r1 = mh_game(
            1,
            1,
            &[
                seat("BAHMANA", "b1", 2),
                seat("DELHI", "d1", 9),
                seat("GONDWANA", "g1", 10),
                seat("MUGHALISTAN", "m1", 6),
                seat("PERSIA", "p1", 5),
                seat("RAJPUTANA", "r1", 3),
                seat("VIJAYANAGAR", "v1", 1),
            ],
        );
        let r2 = mh_game(
            2,
            1,
            &[
                seat("BAHMANA", "d1", 12),
                seat("DELHI", "g1", 12),
                seat("GONDWANA", "x3", 5),
                seat("MUGHALISTAN", "x4", 4),
                seat("PERSIA", "x5", 2),
                seat("RAJPUTANA", "x6", 1),
                seat("VIJAYANAGAR", "x7", 1),
            ],
        );
        let t = tournament(Rulebook::Maharajiad, vec![r1, r2], &[]);
        assert_eq!(standings(&t, 1).advancing, ["g1", "d1"]);
        let s = standings(&t, 2);
        assert_eq!(s.winner.as_deref(), Some("d1"));
        assert_eq!(names(&s)[..2], ["d1", "g1"]);
        assert_eq!(
            s.players[0].decided_by,
            "Maharajiad A.20(a) least successful country"
        );
        assert!(s.advancing.is_empty());
    }

    #[test]
    fn maharajiad_a_20_b_count_back_in_the_second_round() {
        // A.20(b): "Count-back (i.e. greatest number of SCs held at the end of 1509, then if a
        // further tie-break is required, the greatest number of SCs held at the end of 1508,
        // etc.)". Round one: g1 (Gondwana 10) wins the board; amy (Bahmana) and zed (Delhi)
        // have 9, level over the round, amy ahead by A.19(b) (zed's Delhi had 8 at the end of
        // 1509); three advance.
        let mut r1 = mh_game(
            1,
            1,
            &[
                seat("BAHMANA", "amy", 9),
                seat("DELHI", "zed", 9),
                seat("GONDWANA", "g1", 10),
                seat("MUGHALISTAN", "m1", 3),
            ],
        );
        set_year(mh_map(), &mut r1, 1509, "DELHI", 8);
        // Round two: zed (Bahmana) and amy (Delhi) end with 12; each power totals 21 over the
        // two rounds (A.20(a) level). At the end of 1509 zed had 12, amy 11: zed wins, though
        // round one (A.20(c)) and the name would give amy.
        let mut r2 = mh_game(
            2,
            1,
            &[
                seat("BAHMANA", "zed", 12),
                seat("DELHI", "amy", 12),
                seat("GONDWANA", "g1", 5),
            ],
        );
        set_year(mh_map(), &mut r2, 1509, "DELHI", 11);
        let mut t = tournament(Rulebook::Maharajiad, vec![r1, r2], &[]);
        t.advance = vec![Some(3)];
        let one = standings(&t, 1);
        assert_eq!(one.advancing, ["g1", "amy", "zed"]);
        assert_eq!(
            row(&one, "amy").decided_by,
            "Maharajiad A.19(b) count-back 1509"
        );
        let s = standings(&t, 2);
        assert_eq!(s.winner.as_deref(), Some("zed"));
        assert_eq!(names(&s)[..2], ["zed", "amy"]);
        assert_eq!((row(&s, "zed").score, row(&s, "amy").score), (12.0, 12.0));
        assert_eq!(
            s.players[0].decided_by,
            "Maharajiad A.20(b) count-back 1509"
        );
    }

    #[test]
    fn maharajiad_a_20_c_a_level_final_goes_to_the_better_first_round_player() {
        // Round one: g1 (10) wins the board; d1 and b1 have 9, Delhi and Bahmana level over the
        // round, and d1 is ahead by the count-back (9 to 8 at the end of 1509): g1 and d1 go.
        let mut r1 = mh_game(
            1,
            1,
            &[
                seat("BAHMANA", "b1", 9),
                seat("DELHI", "d1", 9),
                seat("GONDWANA", "g1", 10),
                seat("MUGHALISTAN", "m1", 3),
            ],
        );
        set_year(mh_map(), &mut r1, 1509, "BAHMANA", 8);
        // Round two: d1 (Bahmana) and g1 (Delhi) end with 12, both powers total 21 over the
        // two rounds, level every year: A.20(c), g1's better round-one place.
        let r2 = mh_game(
            2,
            1,
            &[
                seat("BAHMANA", "d1", 12),
                seat("DELHI", "g1", 12),
                seat("GONDWANA", "x3", 5),
            ],
        );
        let t = tournament(Rulebook::Maharajiad, vec![r1, r2], &[]);
        let one = standings(&t, 1);
        assert_eq!(one.advancing, ["g1", "d1"]);
        assert_eq!(
            row(&one, "d1").decided_by,
            "Maharajiad A.19(b) count-back 1509"
        );
        let s = standings(&t, 2);
        assert_eq!(s.winner.as_deref(), Some("g1"));
        assert_eq!(
            s.players[0].decided_by,
            "Maharajiad A.20(c) round one ranking"
        );
    }

    #[test]
    fn maharajiad_a_21_a_decline_is_replaced_by_the_best_first_round_score() {
        // Winners B1 (12) and B2 (9), and D1 (10) the best of the rest. B1 declines: D2 (8).
        let b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [12, 10, 5, 4, 3, 2, 1]));
        let b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [9, 8, 7, 6, 4, 2, 1]));
        let mut t = tournament(Rulebook::Maharajiad, vec![b1, b2], &[]);
        assert_eq!(standings(&t, 1).advancing, ["B1", "D1", "B2"]);
        t.declined = vec!["B1".into()];
        let s = standings(&t, 1);
        assert_eq!(s.advancing, ["D1", "B2", "D2"]);
        assert!(row(&s, "B1").declined && !row(&s, "B1").advances);
    }

    #[test]
    fn maharajiad_a_22_best_country_on_round_one_with_the_count_back() {
        // Bahmana 12 on both first-round boards, 12 at the end of 1509; at the end of 1508, 10
        // on board 1 and 11 on board 2. The second round's 18 does not count.
        let mut b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [12, 8, 7, 5, 4, 2, 1]));
        let mut b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [12, 8, 7, 5, 4, 2, 1]));
        set_year(mh_map(), &mut b1, 1508, "BAHMANA", 10);
        set_year(mh_map(), &mut b2, 1508, "BAHMANA", 11);
        let f = mh_game(2, 1, &board7(MH_POWERS, "f", [18, 6, 5, 4, 2, 1, 1]));
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2, f], &[]), 2);
        let b = s
            .best_country
            .iter()
            .find(|b| b.power == "BAHMANA")
            .expect("Bahmana");
        assert_eq!(
            (b.player.as_str(), b.round, b.board, b.score),
            ("B2", 1, 2, 12.0)
        );
        assert_eq!(b.decided_by, "Maharajiad A.22(a) count-back 1508");
    }

    #[test]
    fn maharajiad_a_23_a_24_the_first_permanent_game_counts_prorated() {
        // rex replaces Delhi on board 2 from Fall 1502 (17 of 20 movement turns: 10 x 17 / 20
        // = 8.5) and Bahmana on board 1 from Spring 1505 (12 of 20: 12 x 12 / 20 = 7.2); board
        // 2 is his first permanent game.
        let mut b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [12, 8, 7, 5, 4, 2, 1]));
        let mut b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [3, 10, 7, 5, 4, 2, 1]));
        set_stints(
            mh_map(),
            &mut b1,
            "BAHMANA",
            &[("B1", "S1501M", true), ("rex", "S1505M", true)],
        );
        set_stints(
            mh_map(),
            &mut b2,
            "DELHI",
            &[("D2", "S1501M", true), ("rex", "F1502M", true)],
        );
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        let rex = row(&s, "rex");
        assert_eq!((rex.board, rex.power.as_deref()), (Some(2), Some("DELHI")));
        assert!(close(rex.score, 8.5));
        assert!(close(row(&s, "B1").score, 12.0 * 8.0 / 20.0));
    }

    #[test]
    fn maharajiad_a_23_a_player_stood_in_for_a_single_turn_keeps_full_points() {
        // A.23 has C.14's words: "A player who is was replaced for more than one turn due to
        // arranged absence ... shall receive pro-rated points".
        let mut b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [12, 8, 7, 5, 4, 2, 1]));
        set_stints(
            mh_map(),
            &mut b1,
            "BAHMANA",
            &[
                ("B1", "S1501M", true),
                ("sub", "S1505M", false),
                ("B1", "F1505M", true),
            ],
        );
        set_stints(
            mh_map(),
            &mut b1,
            "DELHI",
            &[
                ("D1", "S1501M", true),
                ("sub", "S1507M", false),
                ("D1", "S1508M", true),
            ],
        );
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1], &[]), 1);
        assert_eq!(row(&s, "B1").score, 12.0);
        assert!(close(row(&s, "D1").score, 8.0 * 18.0 / 20.0), "two turns");
    }

    #[test]
    fn maharajiad_a_10_a_23_the_second_round_has_no_final_year() {
        // The final is played "until a player has met the victory criterion": Bahmana's solo
        // after Fall 1514, 28 movement turns; rex took Bahmana over from Spring 1511 (8).
        let r1 = mh_game(1, 1, &board7(MH_POWERS, "1", [12, 10, 7, 5, 4, 2, 1]));
        let mut r2 = mh_game(2, 1, &board7(MH_POWERS, "1", [19, 6, 5, 3, 2, 1, 1]));
        r2.final_year = None;
        r2.ended_after = ph("F1514M");
        r2.end = End::Solo(power(mh_map(), "BAHMANA"));
        set_stints(
            mh_map(),
            &mut r2,
            "BAHMANA",
            &[("B1", "S1501M", true), ("rex", "S1511M", true)],
        );
        let t = tournament(Rulebook::Maharajiad, vec![r1, r2], &[]);
        let s = standings(&t, 2);
        assert!(close(row(&s, "B1").score, 37.0 * 20.0 / 28.0));
        assert!(close(row(&s, "rex").score, 37.0 * 8.0 / 28.0));
        assert_eq!(s.winner.as_deref(), Some("B1"));
    }

    #[test]
    fn maharajiad_b_x_1_a_stalemated_board_counts_back_on_its_counts_carried() {
        // Board 1 stopped after Fall 1507 (no centre changed hands in three years): its counts
        // stand to 1510. B1 and B2 (Bahmana, 10 each) are level on score and country; at the
        // end of 1509 B1's carried 10 beat B2's 9.
        let mut b1 = mh_game(1, 1, &board7(MH_POWERS, "1", [10, 8, 7, 5, 4, 2, 1]));
        b1.ended_after = ph("F1507M");
        b1.end = End::Stalemate;
        b1.history = vec![(1507, b1.centres.clone())];
        let mut b2 = mh_game(1, 2, &board7(MH_POWERS, "2", [10, 8, 7, 5, 4, 2, 1]));
        set_year(mh_map(), &mut b2, 1509, "BAHMANA", 9);
        let s = standings(&tournament(Rulebook::Maharajiad, vec![b1, b2], &[]), 1);
        assert_eq!(names(&s)[..2], ["B1", "B2"]);
        assert_eq!(
            s.players[0].decided_by,
            "Maharajiad A.19(b) count-back 1509"
        );
    }

    // --- Determinism, CSV, odd input --------------------------------------------------------

    #[test]
    fn the_same_input_gives_the_same_csv_in_any_order() {
        let t = wm_two_rounds();
        let a = csv(&standings(&t, 2));
        assert_eq!(a, csv(&standings(&t, 2)));
        let mut shuffled = t.clone();
        shuffled.games.reverse();
        shuffled.entrants.reverse();
        assert_eq!(a, csv(&standings(&shuffled, 2)));
        assert_eq!(standings(&t, 1), standings(&shuffled, 1));
        assert!(a.starts_with("place,player,team,power,board,score,game_score,credits,bonus,decided_by,advances\n1,A2,,AUSTRIA,1,63.5,42,0,32,score,true\n"), "{a}");
    }

    #[test]
    fn csv_quotes_as_rfc_4180_and_rounds_to_three_decimals() {
        let place = |player: &str, score: f64, decided_by: &str| PlayerPlace {
            place: 1,
            player: player.to_string(),
            team: Some("the \"best\" team".to_string()),
            power: Some("ENGLAND".to_string()),
            board: Some(3),
            score,
            game_score: 22.0,
            credits: 0.0,
            bonus: 56.0 / 3.0,
            decided_by: decided_by.to_string(),
            advances: true,
            declined: false,
        };
        let s = Standings {
            round: 1,
            players: vec![
                place("smith, jo", 32.0 / 3.0, "WM C.7(f) d100 (83 to 41)"),
                place("line\nbreak", 22.5, "score"),
            ],
            teams: Vec::new(),
            best_country: Vec::new(),
            advancing: Vec::new(),
            winner: None,
            team_winner: None,
        };
        assert_eq!(
            csv(&s),
            "place,player,team,power,board,score,game_score,credits,bonus,decided_by,advances\n\
             1,\"smith, jo\",\"the \"\"best\"\" team\",ENGLAND,3,10.667,22,0,18.667,WM C.7(f) d100 (83 to 41),true\n\
             1,\"line\nbreak\",\"the \"\"best\"\" team\",ENGLAND,3,22.5,22,0,18.667,score,true\n"
        );
        assert_eq!(number(-0.0001), "0");
    }

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
