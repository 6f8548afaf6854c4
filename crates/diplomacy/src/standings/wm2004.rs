//! WM 2004's rounds (B.1, B.4): round one with its team credits (C.6, C.7), the second team round
//! (C.8) or, with fewer than 42 teams, the semi-final in its place (B.4), the semi-final (C.9,
//! C.10), the final (C.11) and the team standings (C.12).

use super::*;

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

impl<'t> Ctx<'t> {
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

    pub(super) fn wm(&self, round: u8) -> Standings {
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

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::*;

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
}
