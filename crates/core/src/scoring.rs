//! Scoring one finished game as the tournament rulebooks say (WM 2004 section C; Maharajiad I
//! section A). Pure: the final centre counts, how the game ended, the centre history and who
//! played each power when are passed in.

use crate::map::Power;
use crate::phase::{Phase, PhaseKind, Season};

/// WM C.2: the positional bonuses, first to sixth place.
pub const WM_BONUS: [f64; 6] = [32.0, 16.0, 8.0, 4.0, 2.0, 1.0];

/// WM C.4: a solo counts as a win with this many centres (all others eliminated).
pub const WM_SOLO_CENTRES: u32 = 34;

/// Maharajiad A.16-A.17: a solo counts as a win with this many centres.
pub const MAHARAJIAD_SOLO_CENTRES: u32 = 37;

/// One power's score in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct PowerScore {
    pub power: Power,
    /// The centres the score counts (a solo's counts as the whole board).
    pub centres: u32,
    /// The positional bonus (WM C.2-C.3; none under the Maharajiad).
    pub bonus: f64,
    pub score: f64,
}

/// WM C.1-C.4: "a positional bonus plus the current SC count with eliminated players scoring
/// zero"; tied positions share their bonuses (C.3); "a solo win ... will be considered to be a
/// 34 SC win with all other players eliminated" (C.4). `counts`: each power's final centres;
/// `solo`: the power that won alone (reached the victory count, or had it conceded: C.5).
pub fn wm(counts: &[(Power, u32)], solo: Option<Power>) -> Vec<PowerScore> {
    let effective: Vec<(Power, u32)> = counts
        .iter()
        .map(|&(p, c)| match solo {
            Some(s) if s == p => (p, WM_SOLO_CENTRES),
            Some(_) => (p, 0),
            None => (p, c),
        })
        .collect();
    let mut out = Vec::with_capacity(effective.len());
    for &(power, centres) in &effective {
        // C.1: eliminated players score zero, bonus included.
        if centres == 0 {
            out.push(PowerScore {
                power,
                centres,
                bonus: 0.0,
                score: 0.0,
            });
            continue;
        }
        // C.3: the places this power shares with those level with it, their bonuses pooled.
        let above = effective.iter().filter(|(_, c)| *c > centres).count();
        let level = effective.iter().filter(|(_, c)| *c == centres).count();
        let pooled: f64 = (above..above + level)
            .map(|place| WM_BONUS.get(place).copied().unwrap_or(0.0))
            .sum();
        let bonus = pooled / level as f64;
        out.push(PowerScore {
            power,
            centres,
            bonus,
            score: bonus + f64::from(centres),
        });
    }
    out
}

/// Maharajiad A.16-A.17: the score is the centre count; "a solo win (19 Supply Centers) will be
/// considered to be a 37 SC win with all other players eliminated".
pub fn maharajiad(counts: &[(Power, u32)], solo: Option<Power>) -> Vec<PowerScore> {
    counts
        .iter()
        .map(|&(power, c)| {
            let centres = match solo {
                Some(s) if s == power => MAHARAJIAD_SOLO_CENTRES,
                Some(_) => 0,
                None => c,
            };
            PowerScore {
                power,
                centres,
                bonus: 0.0,
                score: f64::from(centres),
            }
        })
        .collect()
}

/// How a game ended early by vote (WM C.5; Maharajiad A.18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VotedEnd {
    /// A solo conceded to this power.
    ConcededSolo(Power),
    /// Any other result accepted by vote (a draw).
    Other,
}

/// The centres per power at the end of each year up to the final year, for the count-backs:
/// WM C.5, "In the event of a solo conceded by vote, the SC counts at time of concession will be
/// carried to the penultimate year and the solo will only be applied in the final year. Any
/// other result accepted by vote will have the current SC counts applied to all remaining
/// years." `history`: the years played, oldest first (the last one the counts at the vote).
pub fn years_to_final(
    history: &[(u16, Vec<(Power, u32)>)],
    final_year: u16,
    end: VotedEnd,
    solo_centres: u32,
) -> Vec<(u16, Vec<(Power, u32)>)> {
    let mut out = history.to_vec();
    let Some((last_year, last)) = history.last().cloned() else {
        return out;
    };
    for year in last_year + 1..=final_year {
        let counts = match end {
            VotedEnd::ConcededSolo(winner) if year == final_year => last
                .iter()
                .map(|&(p, _)| (p, if p == winner { solo_centres } else { 0 }))
                .collect(),
            _ => last.clone(),
        };
        out.push((year, counts));
    }
    // A solo conceded in the final year itself is applied to that year.
    if let VotedEnd::ConcededSolo(winner) = end
        && last_year == final_year
        && let Some((_, counts)) = out.last_mut()
    {
        for (p, c) in counts.iter_mut() {
            *c = if *p == winner { solo_centres } else { 0 };
        }
    }
    out
}

/// WM C.14: the Spring and Fall movement turns of a game from `start_year` to `final_year`
/// (Summer and Winter turns are not counted).
pub fn seasons_in_game(start_year: u16, final_year: u16) -> u32 {
    u32::from(final_year.saturating_sub(start_year) + 1) * 2
}

/// WM C.14 (Maharajiad A.23): how many counted seasons each stint played. `stints`: who played
/// the position from which phase on, in order (the first from the game's first phase);
/// `ended_after`: the last phase played. Only Spring and Fall movement turns count, and
/// "seasons unplayed due to early termination will be credited to the player active at the
/// time of the termination". Returns (stint index, seasons), one per stint.
pub fn seasons_played(
    start_year: u16,
    final_year: u16,
    stints: &[Phase],
    ended_after: Phase,
) -> Vec<(usize, u32)> {
    // The counted seasons, in order, each given to the stint active at its start.
    let mut out: Vec<(usize, u32)> = (0..stints.len()).map(|i| (i, 0)).collect();
    for year in start_year..=final_year {
        for season in [Season::Spring, Season::Fall] {
            let turn = Phase::new(season, year, PhaseKind::Movement);
            // After an early end, the player active at the end is credited (C.14).
            let at = if turn > ended_after {
                ended_after
            } else {
                turn
            };
            if let Some(i) = stints.iter().rposition(|s| *s <= at) {
                out[i].1 += 1;
            }
        }
    }
    out
}

/// WM C.14, Maharajiad A.23: "Total score x Number of seasons played / Total number of seasons
/// in the game".
pub fn prorate(total: f64, played: u32, seasons: u32) -> f64 {
    if seasons == 0 {
        return 0.0;
    }
    total * f64::from(played) / f64::from(seasons)
}

/// WM C.7(f), C.13(c); Maharajiad A.19(c), A.22(b): "Highest roll on 100-sided dice", made
/// reproducible: the roll for `who` is drawn from a seed published before the round (for
/// example the tournament id and the round), so anyone can check it. 1 to 100.
pub fn d100(seed: &str, who: &str) -> u32 {
    // Over the seed, a separator and the name.
    let mut h = fnv1a(seed.bytes().chain(std::iter::once(0)).chain(who.bytes()));
    // Fold the high bits in, so that the low digits depend on every byte.
    h ^= h >> 33;
    (h % 100) as u32 + 1
}

/// FNV-1a (64 bits) of `bytes`: a hash anyone can recompute, stable across platforms and
/// versions, for draws from a published seed (the dice, a round's seating).
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// WM C.7(d), C.8(c), C.9(b), C.11(a), C.13(b); Maharajiad A.19(b): the count-back, "highest
/// total centres held at the end of 1908 then, if further tiebreak is required, ... 1907 etc.":
/// compares two players' centres year by year, from `from_year` back. `Greater` means `a`
/// ranks higher.
pub fn count_back(a: &[(u16, u32)], b: &[(u16, u32)], from_year: u16) -> std::cmp::Ordering {
    let at = |h: &[(u16, u32)], y: u16| h.iter().find(|(year, _)| *year == y).map_or(0, |x| x.1);
    let first = a
        .iter()
        .chain(b)
        .map(|(y, _)| *y)
        .min()
        .unwrap_or(from_year);
    for year in (first..=from_year).rev() {
        let o = at(a, year).cmp(&at(b, year));
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}

/// One player's game for the best-country trophy: the power played, the round, the score, the
/// centres at the end of each year (for the count-back) and the player.
#[derive(Clone, Debug, PartialEq)]
pub struct CountryGame {
    pub power: Power,
    pub round: u8,
    pub score: f64,
    pub history: Vec<(u16, u32)>,
    pub player: String,
}

/// WM C.13: "The best country trophies will be based only on games in the first two rounds. Tie
/// breakers are as follows: a) Round 2 outranks Round 1 b) Count-back ... c) Highest roll on
/// 100-sided dice" (Maharajiad A.22: the first round, count-back, then the dice). The best game
/// of `power` among `games`, and what decided it against the runner-up: `score`, `round`,
/// `count-back <year>` or `d100`. `last_year`: where the count-back starts; `seed`: the
/// published seed of the dice.
pub fn best_country<'a>(
    games: &'a [CountryGame],
    power: Power,
    last_year: u16,
    seed: &str,
) -> Option<(&'a CountryGame, String)> {
    use std::cmp::Ordering;
    let mut of: Vec<&CountryGame> = games
        .iter()
        .filter(|g| g.power == power && g.round <= 2)
        .collect();
    let cmp = |a: &&CountryGame, b: &&CountryGame| -> (Ordering, &'static str) {
        let by_score = a.score.total_cmp(&b.score);
        if by_score != Ordering::Equal {
            return (by_score, "score");
        }
        if a.round != b.round {
            return (a.round.cmp(&b.round), "round");
        }
        let back = count_back(&a.history, &b.history, last_year);
        if back != Ordering::Equal {
            return (back, "count-back");
        }
        (d100(seed, &a.player).cmp(&d100(seed, &b.player)), "d100")
    };
    of.sort_by(|a, b| cmp(b, a).0);
    let best = *of.first()?;
    let why = match of.get(1) {
        None => "score".to_string(),
        Some(next) => match cmp(&best, next) {
            (_, "count-back") => {
                let year = (0..=last_year)
                    .rev()
                    .find(|y| {
                        let at = |h: &[(u16, u32)]| h.iter().find(|x| x.0 == *y).map_or(0, |x| x.1);
                        at(&best.history) != at(&next.history)
                    })
                    .unwrap_or(last_year);
                format!("count-back {year}")
            }
            (_, why) => why.to_string(),
        },
    };
    Some((best, why))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(i: u8) -> Power {
        Power(i)
    }

    fn score_of(s: &[PowerScore], i: u8) -> f64 {
        s.iter().find(|x| x.power == p(i)).expect("power").score
    }

    #[test]
    fn wm_c_1_and_c_2_bonus_plus_centres_eliminated_score_zero() {
        let s = wm(
            &[
                (p(0), 10),
                (p(1), 8),
                (p(2), 6),
                (p(3), 4),
                (p(4), 3),
                (p(5), 2),
                (p(6), 0),
            ],
            None,
        );
        assert_eq!(score_of(&s, 0), 42.0);
        assert_eq!(score_of(&s, 1), 24.0);
        assert_eq!(score_of(&s, 2), 14.0);
        assert_eq!(score_of(&s, 3), 8.0);
        assert_eq!(score_of(&s, 4), 5.0);
        assert_eq!(score_of(&s, 5), 3.0);
        assert_eq!(score_of(&s, 6), 0.0, "eliminated: no bonus, no centres");
    }

    #[test]
    fn wm_c_3_three_players_tied_at_8_share_first_to_third() {
        let s = wm(
            &[
                (p(0), 8),
                (p(1), 8),
                (p(2), 8),
                (p(3), 6),
                (p(4), 4),
                (p(5), 0),
                (p(6), 0),
            ],
            None,
        );
        let shared = (32.0 + 16.0 + 8.0) / 3.0;
        for i in 0..3 {
            let x = s.iter().find(|x| x.power == p(i)).expect("power");
            assert!((x.bonus - shared).abs() < 1e-9, "{x:?}");
            assert!((x.score - (shared + 8.0)).abs() < 1e-9, "{x:?}");
        }
        assert_eq!(score_of(&s, 3), 4.0 + 6.0, "fourth place");
        assert_eq!(score_of(&s, 4), 2.0 + 4.0, "fifth place");
    }

    #[test]
    fn wm_c_4_a_solo_is_a_34_centre_win_with_all_others_eliminated() {
        let s = wm(
            &[
                (p(0), 18),
                (p(1), 8),
                (p(2), 8),
                (p(3), 0),
                (p(4), 0),
                (p(5), 0),
                (p(6), 0),
            ],
            Some(p(0)),
        );
        assert_eq!(score_of(&s, 0), 34.0 + 32.0);
        for i in 1..7 {
            assert_eq!(score_of(&s, i), 0.0);
        }
    }

    #[test]
    fn wm_c_5_a_conceded_solo_is_applied_in_the_final_year_and_a_draw_carries_the_counts() {
        let at_vote = vec![(p(0), 15), (p(1), 10), (p(2), 9)];
        let history = vec![
            (1906, vec![(p(0), 12), (p(1), 11), (p(2), 11)]),
            (1907, at_vote.clone()),
        ];
        let solo = years_to_final(
            &history,
            1909,
            VotedEnd::ConcededSolo(p(0)),
            WM_SOLO_CENTRES,
        );
        assert_eq!(solo.len(), 4);
        assert_eq!(
            solo[2],
            (1908, at_vote.clone()),
            "carried to the penultimate year"
        );
        assert_eq!(solo[3], (1909, vec![(p(0), 34), (p(1), 0), (p(2), 0)]));
        let draw = years_to_final(&history, 1909, VotedEnd::Other, WM_SOLO_CENTRES);
        assert_eq!(draw[2], (1908, at_vote.clone()));
        assert_eq!(draw[3], (1909, at_vote));
    }

    #[test]
    fn wm_c_14_the_worked_example() {
        // "Fred replaces Wendy in a second round game starting with the Fall '06 builds and
        // continues until Fall 1908 when he scores a solo": 1901-1909, 18 seasons; Fred from the
        // Winter 1906 builds, the game over after Fall 1908.
        let stints = [
            "S1901M".parse::<Phase>().expect("phase"),
            "W1906A".parse::<Phase>().expect("phase"),
        ];
        let ended = "F1908M".parse::<Phase>().expect("phase");
        let seasons = seasons_in_game(1901, 1909);
        assert_eq!(seasons, 18);
        let played = seasons_played(1901, 1909, &stints, ended);
        assert_eq!(played, vec![(0, 12), (1, 6)], "Wendy S01-F06, Fred S07-F09");
        let total = wm(&[(p(0), 18), (p(1), 5)], Some(p(0)))[0].score;
        assert_eq!(total, 66.0);
        assert_eq!(prorate(total, 6, seasons), 22.0, "Fred: 66 x 6 / 18");
        assert_eq!(prorate(total, 12, seasons), 44.0, "Wendy: 66 x 12 / 18");
        assert_eq!(
            prorate(total, 6, seasons) + prorate(total, 12, seasons),
            66.0,
            "the team"
        );
    }

    #[test]
    fn wm_c_7_f_the_dice_roll_is_reproducible_from_a_published_seed() {
        let a = d100("wm2004/round1", "player1@example.test");
        assert_eq!(
            a,
            d100("wm2004/round1", "player1@example.test"),
            "the same seed, the same roll"
        );
        assert!((1..=100).contains(&a));
        // Different seeds and names give different rolls (not all the same).
        let rolls: std::collections::HashSet<u32> = (0..50)
            .map(|i| d100("wm2004/round1", &format!("player{i}@example.test")))
            .collect();
        assert!(rolls.len() > 25, "{rolls:?}");
        assert!(rolls.iter().all(|r| (1..=100).contains(r)));
    }

    #[test]
    fn wm_c_7_d_the_count_back_goes_year_by_year_from_the_latest() {
        use std::cmp::Ordering;
        let a = [(1906, 5), (1907, 6), (1908, 7)];
        let b = [(1906, 9), (1907, 5), (1908, 7)];
        // Level in 1908; a leads in 1907.
        assert_eq!(count_back(&a, &b, 1908), Ordering::Greater);
        assert_eq!(count_back(&b, &a, 1908), Ordering::Less);
        // From 1906 back, b leads.
        assert_eq!(count_back(&a, &b, 1906), Ordering::Less);
        assert_eq!(count_back(&a, &a, 1908), Ordering::Equal);
    }

    #[test]
    fn wm_c_13_best_country_score_then_round_two_then_count_back_then_dice() {
        let game = |round: u8, score: f64, history: Vec<(u16, u32)>, player: &str| CountryGame {
            power: p(2),
            round,
            score,
            history,
            player: player.into(),
        };
        let games = vec![
            game(1, 40.0, vec![(1908, 9)], "a"),
            game(2, 40.0, vec![(1908, 8)], "b"),
            game(1, 30.0, vec![(1908, 12)], "c"),
            game(3, 90.0, vec![(1908, 18)], "semi-final: not counted"),
        ];
        let (best, why) = best_country(&games, p(2), 1909, "seed").expect("best");
        assert_eq!(
            (best.player.as_str(), why.as_str()),
            ("b", "round"),
            "(a) round 2 outranks round 1"
        );
        let same_round = vec![
            game(1, 40.0, vec![(1907, 5), (1908, 9)], "a"),
            game(1, 40.0, vec![(1907, 7), (1908, 9)], "b"),
        ];
        let (best, why) = best_country(&same_round, p(2), 1908, "seed").expect("best");
        assert_eq!(
            (best.player.as_str(), why.as_str()),
            ("b", "count-back 1907"),
            "(b)"
        );
        let level = vec![
            game(1, 40.0, vec![(1908, 9)], "a"),
            game(1, 40.0, vec![(1908, 9)], "b"),
        ];
        let (best, why) = best_country(&level, p(2), 1908, "seed").expect("best");
        assert_eq!(why, "d100", "(c)");
        let winner = if d100("seed", "a") >= d100("seed", "b") {
            "a"
        } else {
            "b"
        };
        assert_eq!(best.player, winner);
        assert!(
            best_country(&games, p(3), 1909, "seed").is_none(),
            "nobody played it"
        );
    }

    #[test]
    fn maharajiad_a_16_a_solo_is_a_37_centre_win() {
        let s = maharajiad(&[(p(0), 19), (p(1), 9), (p(2), 9)], Some(p(0)));
        assert_eq!(score_of(&s, 0), 37.0);
        assert_eq!(score_of(&s, 1), 0.0);
        // Without a solo, the score is the centre count (no positional bonus).
        let s = maharajiad(&[(p(0), 12), (p(1), 9)], None);
        assert_eq!((score_of(&s, 0), score_of(&s, 1)), (12.0, 9.0));
    }

    #[test]
    fn maharajiad_a_23_proration_by_movement_turns() {
        // A first-round game 1501-1510: 20 movement turns; a replacement from Spring 1506.
        let stints = [
            "S1501M".parse::<Phase>().expect("phase"),
            "S1506M".parse::<Phase>().expect("phase"),
        ];
        let played = seasons_played(1501, 1510, &stints, "F1510M".parse().expect("phase"));
        assert_eq!(played, vec![(0, 10), (1, 10)]);
        assert_eq!(prorate(14.0, 10, seasons_in_game(1501, 1510)), 7.0);
    }
}

/// The `chancery score` contract (docs/score.md): one finished game in, each power's and each
/// player's score out, ranked, with what decided each place.
pub mod contract {
    use super::*;
    use crate::map::Map;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct GameIn {
        /// `wm2004` or `maharajiad`.
        pub rulebook: String,
        /// Absent: the rulebook's (standard for wm2004, maharajah for the Maharajiad).
        #[serde(default)]
        pub variant: Option<String>,
        pub start_year: u16,
        pub final_year: u16,
        /// The last phase played (`F1908M`).
        pub ended_after: String,
        /// `played` (to the final year), `solo`, `conceded_solo` or `vote` (any other result).
        pub end: String,
        /// The power that won alone (`solo`, `conceded_solo`).
        #[serde(default)]
        pub winner: Option<String>,
        /// Each power's centres at the end.
        pub centres: BTreeMap<String, u32>,
        /// Each power's centres at the end of each year played, for the count-back.
        #[serde(default)]
        pub history: BTreeMap<u16, BTreeMap<String, u32>>,
        /// Who played each power from which phase (absent: one player named after the power).
        #[serde(default)]
        pub players: BTreeMap<String, Vec<StintIn>>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct StintIn {
        pub name: String,
        pub from: String,
    }

    #[derive(Serialize, Debug)]
    pub struct GameOut {
        pub rulebook: String,
        pub seasons: u32,
        pub powers: Vec<PowerOut>,
    }

    #[derive(Serialize, Debug)]
    pub struct PowerOut {
        pub power: String,
        pub rank: usize,
        /// What decided this place against the power ranked next to it: `score`, `count-back
        /// <year>`, or `tied`.
        pub decided_by: String,
        pub centres: u32,
        pub bonus: f64,
        pub score: f64,
        pub players: Vec<PlayerOut>,
    }

    #[derive(Serialize, Debug)]
    pub struct PlayerOut {
        pub name: String,
        pub seasons: u32,
        pub score: f64,
    }

    /// Score one game given as JSON; the result as JSON, or why the input is wrong.
    pub fn score_json(text: &str) -> Result<String, String> {
        let g: GameIn = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let out = score(&g)?;
        serde_json::to_string_pretty(&out).map_err(|e| e.to_string())
    }

    /// Scores are shown to three decimals (a shared bonus may be a third).
    fn shown(x: f64) -> f64 {
        (x * 1000.0).round() / 1000.0
    }

    fn phase(s: &str) -> Result<Phase, String> {
        s.parse::<Phase>().map_err(|e| e.to_string())
    }

    pub fn score(g: &GameIn) -> Result<GameOut, String> {
        let wm_book = match g.rulebook.as_str() {
            "wm2004" => true,
            "maharajiad" => false,
            r => return Err(format!("unknown rulebook '{r}' (wm2004, maharajiad)")),
        };
        let variant = g
            .variant
            .clone()
            .unwrap_or_else(|| if wm_book { "standard" } else { "maharajah" }.into());
        let map = Map::variant(&variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
        let power = |name: &str| {
            map.power_by_name(name)
                .ok_or_else(|| format!("unknown power '{name}'"))
        };
        let mut counts = Vec::new();
        for (name, c) in &g.centres {
            counts.push((power(name)?, *c));
        }
        let winner = match g.end.as_str() {
            "played" | "vote" => None,
            "solo" | "conceded_solo" => Some(power(
                g.winner.as_deref().ok_or("a solo needs its winner")?,
            )?),
            e => {
                return Err(format!(
                    "unknown end '{e}' (played, solo, conceded_solo, vote)"
                ));
            }
        };
        let scores = if wm_book {
            wm(&counts, winner)
        } else {
            maharajiad(&counts, winner)
        };
        // The years to the final year, for the count-back (WM C.5).
        let mut history: Vec<(u16, Vec<(Power, u32)>)> = Vec::new();
        for (year, row) in &g.history {
            let mut r = Vec::new();
            for (name, c) in row {
                r.push((power(name)?, *c));
            }
            history.push((*year, r));
        }
        if g.end == "vote" || g.end == "conceded_solo" {
            let end = match winner {
                Some(w) => VotedEnd::ConcededSolo(w),
                None => VotedEnd::Other,
            };
            let solo = if wm_book {
                WM_SOLO_CENTRES
            } else {
                MAHARAJIAD_SOLO_CENTRES
            };
            history = years_to_final(&history, g.final_year, end, solo);
        }
        let of = |p: Power| -> Vec<(u16, u32)> {
            history
                .iter()
                .map(|(y, row)| (*y, row.iter().find(|x| x.0 == p).map_or(0, |x| x.1)))
                .collect()
        };
        let mut ranked: Vec<&PowerScore> = scores.iter().collect();
        ranked.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| count_back(&of(b.power), &of(a.power), g.final_year))
        });
        let seasons = seasons_in_game(g.start_year, g.final_year);
        let ended = phase(&g.ended_after)?;
        let mut powers = Vec::new();
        for (i, s) in ranked.iter().enumerate() {
            let name = map.power_name(s.power).to_string();
            // What separates this place from the next one down.
            let decided_by = match ranked.get(i + 1) {
                None => "score".to_string(),
                Some(next) if next.score != s.score => "score".to_string(),
                Some(next) => {
                    let (a, b) = (of(s.power), of(next.power));
                    let first = a.iter().map(|x| x.0).min().unwrap_or(g.final_year);
                    (first..=g.final_year)
                        .rev()
                        .find(|y| {
                            let at =
                                |h: &[(u16, u32)]| h.iter().find(|x| x.0 == *y).map_or(0, |x| x.1);
                            at(&a) != at(&b)
                        })
                        .map_or("tied".to_string(), |y| format!("count-back {y}"))
                }
            };
            let stints: Vec<(String, Phase)> = match g.players.get(&name) {
                Some(list) if !list.is_empty() => list
                    .iter()
                    .map(|st| Ok((st.name.clone(), phase(&st.from)?)))
                    .collect::<Result<_, String>>()?,
                _ => vec![(
                    name.clone(),
                    Phase::new(Season::Spring, g.start_year, PhaseKind::Movement),
                )],
            };
            let starts: Vec<Phase> = stints.iter().map(|x| x.1).collect();
            let played = seasons_played(g.start_year, g.final_year, &starts, ended);
            let players = played
                .into_iter()
                .map(|(k, n)| PlayerOut {
                    name: stints[k].0.clone(),
                    seasons: n,
                    score: shown(prorate(s.score, n, seasons)),
                })
                .collect();
            powers.push(PowerOut {
                power: name,
                rank: i + 1,
                decided_by,
                centres: s.centres,
                bonus: shown(s.bonus),
                score: shown(s.score),
                players,
            });
        }
        // Places shared outright keep one rank.
        for i in 1..powers.len() {
            if powers[i - 1].decided_by == "tied" {
                powers[i].rank = powers[i - 1].rank;
            }
        }
        Ok(GameOut {
            rulebook: g.rulebook.clone(),
            seasons,
            powers,
        })
    }
}
