//! Seating players on the boards of a tournament round under WM B.6's constraints, "applied
//! wherever possible": (a) no two players from the same team play the same power in a team
//! round; (b) no two players from the same team play on the same board; (c) no player plays the
//! same great power twice in the tournament; (d) no two players play against each other twice.
//! A small local search from a reproducible seed; it reports the constraints it could not meet.
//! Pure: the seed is given, and the same input and seed give the same seating.

use crate::rng::SplitMix64;

/// A player to be seated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The player's team (B.2: every player is on one).
    pub team: usize,
    /// The power the team gave this player (B.5: the first round), or None: any.
    pub power: Option<usize>,
    /// The powers the player has played in earlier rounds (B.6 c).
    pub played: Vec<usize>,
    /// The players (indexes into the round's list) already met on a board (B.6 d).
    pub met: Vec<usize>,
}

/// A round's seating: for each board, the player (index) at each power.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    pub boards: Vec<Vec<usize>>,
    /// The constraints left unmet, in words with their clause; empty when all are met.
    pub unmet: Vec<String>,
}

/// SplitMix64 (`crate::rng`), with the draws the seating makes of it.
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// In [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The seating's cost: one for every broken constraint (pairs of players, or a player).
struct Costs<'a> {
    seats: &'a [Seat],
    powers: usize,
}

impl Costs<'_> {
    /// B.6 (b), (c), (d) on one board: team-mates together, opponents met before, a power
    /// played before.
    fn board(&self, board: &[usize]) -> u64 {
        let mut c = 0;
        for (k, &a) in board.iter().enumerate() {
            if self.seats[a].played.contains(&k) {
                c += 1;
            }
            for &b in &board[k + 1..] {
                if self.seats[a].team == self.seats[b].team {
                    c += 1;
                }
                if self.seats[a].met.contains(&b) || self.seats[b].met.contains(&a) {
                    c += 1;
                }
            }
        }
        c
    }

    /// B.6 (a) in one power's column: pairs of team-mates at that power.
    fn column(&self, boards: &[Vec<usize>], k: usize) -> u64 {
        let mut teams: Vec<usize> = boards.iter().map(|b| self.seats[b[k]].team).collect();
        teams.sort_unstable();
        teams.windows(2).filter(|w| w[0] == w[1]).count() as u64
    }

    /// The cost of the boards and columns of two seats (board, power): what a swap changes.
    fn around(
        &self,
        boards: &[Vec<usize>],
        (b1, k1): (usize, usize),
        (b2, k2): (usize, usize),
    ) -> u64 {
        let two_boards =
            self.board(&boards[b1]) + if b1 != b2 { self.board(&boards[b2]) } else { 0 };
        let two_columns =
            self.column(boards, k1) + if k1 != k2 { self.column(boards, k2) } else { 0 };
        two_boards + two_columns
    }

    fn total(&self, boards: &[Vec<usize>]) -> u64 {
        boards.iter().map(|b| self.board(b)).sum::<u64>()
            + (0..self.powers)
                .map(|k| self.column(boards, k))
                .sum::<u64>()
    }
}

/// Seat `seats` on `seats.len() / powers` boards of `powers` each. A player whose power is
/// fixed keeps it. `rounds`: how many swaps to try at most (the search stops at a seating that
/// breaks nothing).
pub fn seat(seats: &[Seat], powers: usize, seed: u64, rounds: u64) -> Result<Seating, String> {
    if powers == 0 || !seats.len().is_multiple_of(powers) {
        return Err(format!(
            "{} players do not fill boards of {powers}",
            seats.len()
        ));
    }
    let n_boards = seats.len() / powers;
    let mut rng = Rng(SplitMix64(seed));
    // Each power's column: the players fixed to it, then the free ones, shuffled.
    let mut columns: Vec<Vec<usize>> = vec![Vec::new(); powers];
    let mut free: Vec<usize> = Vec::new();
    for (i, s) in seats.iter().enumerate() {
        match s.power {
            Some(k) if k < powers => columns[k].push(i),
            Some(k) => return Err(format!("player {i}: no power {k} on these boards")),
            None => free.push(i),
        }
    }
    for i in (1..free.len()).rev() {
        free.swap(i, rng.below(i + 1));
    }
    for col in columns.iter_mut() {
        while col.len() < n_boards {
            match free.pop() {
                Some(p) => col.push(p),
                None => break,
            }
        }
        if col.len() != n_boards {
            return Err(format!(
                "{} players are fixed to one power, for {n_boards} boards",
                col.len()
            ));
        }
        for i in (1..col.len()).rev() {
            col.swap(i, rng.below(i + 1));
        }
    }
    let mut boards: Vec<Vec<usize>> = (0..n_boards)
        .map(|b| (0..powers).map(|k| columns[k][b]).collect())
        .collect();
    let costs = Costs { seats, powers };
    let mut cost = costs.total(&boards);
    let mut tried = 0;
    while cost > 0 && tried < rounds {
        tried += 1;
        // Swap two seats: within a column if either player's power is fixed, else anywhere.
        let (b1, k1) = (rng.below(n_boards), rng.below(powers));
        let b2 = rng.below(n_boards);
        let a = boards[b1][k1];
        let k2 = if seats[a].power.is_some() {
            k1
        } else {
            rng.below(powers)
        };
        let b = boards[b2][k2];
        if (b1, k1) == (b2, k2) || (k1 != k2 && seats[b].power.is_some()) {
            continue;
        }
        let before = costs.around(&boards, (b1, k1), (b2, k2));
        boards[b1][k1] = b;
        boards[b2][k2] = a;
        let after = costs.around(&boards, (b1, k1), (b2, k2));
        // Keep what does not make it worse (sideways moves let the search wander), and now and
        // then, early on, what does: simulated annealing, so that the search leaves a local
        // minimum. The temperature falls from 1 to nearly 0 over the rounds.
        let temperature = 1.0 - tried as f64 / rounds as f64;
        let worse = after.saturating_sub(before) as f64;
        if after <= before || rng.unit() < (-worse / (0.3 * temperature + 1e-9)).exp() {
            cost = cost + after - before;
        } else {
            boards[b1][k1] = a;
            boards[b2][k2] = b;
        }
    }
    let unmet = describe(seats, &boards, powers);
    Ok(Seating { boards, unmet })
}

/// The first round's seats of `teams` full teams: each team's players given the powers in turn,
/// as the person completing the team sign-up assigns them (WM B.5).
pub fn first_round(teams: usize, powers: usize) -> Vec<Seat> {
    (0..teams)
        .flat_map(|team| {
            (0..powers).map(move |k| Seat {
                team,
                power: Some(k),
                played: Vec::new(),
                met: Vec::new(),
            })
        })
        .collect()
}

/// The seats of the next round: the `advancing` players (indexes into `previous`) with the
/// powers they played and the players they met in `seating` (B.6 c, d), and their teams; the
/// powers free (B.5: assigned at random after the first round). What they played and met before
/// `previous` is kept.
pub fn next_round(previous: &[Seat], seating: &Seating, advancing: &[usize]) -> Vec<Seat> {
    let mut played: Vec<Vec<usize>> = previous.iter().map(|s| s.played.clone()).collect();
    let mut met: Vec<Vec<usize>> = previous.iter().map(|s| s.met.clone()).collect();
    for b in &seating.boards {
        for (k, &p) in b.iter().enumerate() {
            played[p].push(k);
            met[p].extend(b.iter().copied().filter(|q| *q != p));
        }
    }
    let index = |old: usize| advancing.iter().position(|a| *a == old);
    advancing
        .iter()
        .map(|&old| Seat {
            team: previous[old].team,
            power: None,
            played: played[old].clone(),
            met: met[old].iter().filter_map(|m| index(*m)).collect(),
        })
        .collect()
}

/// What a seating breaks, in words with the clause (players and powers by number).
pub fn describe(seats: &[Seat], boards: &[Vec<usize>], powers: usize) -> Vec<String> {
    describe_with(
        seats,
        boards,
        powers,
        |a| format!("player {a}"),
        |k| format!("power {k}"),
    )
}

/// [`describe`], each player and power named by `player` and `power` (for the director, who
/// knows them by address and name, not by number).
pub fn describe_with(
    seats: &[Seat],
    boards: &[Vec<usize>],
    powers: usize,
    player: impl Fn(usize) -> String,
    power: impl Fn(usize) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    for (j, board) in boards.iter().enumerate() {
        for (k, &a) in board.iter().enumerate() {
            if seats[a].played.contains(&k) {
                out.push(format!(
                    "board {}: {} plays {} a second time (WM B.6 c)",
                    j + 1,
                    player(a),
                    power(k)
                ));
            }
            for &b in &board[k + 1..] {
                if seats[a].team == seats[b].team {
                    out.push(format!(
                        "board {}: {} and {} are team-mates (WM B.6 b)",
                        j + 1,
                        player(a),
                        player(b)
                    ));
                }
                if seats[a].met.contains(&b) || seats[b].met.contains(&a) {
                    out.push(format!(
                        "board {}: {} and {} have met before (WM B.6 d)",
                        j + 1,
                        player(a),
                        player(b)
                    ));
                }
            }
        }
    }
    for k in 0..powers {
        let mut seen: Vec<(usize, usize)> =
            boards.iter().map(|b| (seats[b[k]].team, b[k])).collect();
        seen.sort_unstable();
        for w in seen.windows(2) {
            if w[0].0 == w[1].0 {
                out.push(format!(
                    "{}: {} and {} are team-mates (WM B.6 a)",
                    power(k),
                    player(w[0].1),
                    player(w[1].1)
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 35 teams of seven, each player given a power by the team (B.5).
    fn round_one() -> Vec<Seat> {
        first_round(35, 7)
    }

    #[test]
    fn wm_b_6_a_b_round_one_team_mates_never_meet_nor_share_a_power() {
        let seats = round_one();
        let s = seat(&seats, 7, 2004, 2_000_000).expect("seated");
        assert_eq!(s.boards.len(), 35);
        assert!(s.unmet.is_empty(), "{:?}", s.unmet);
        for b in &s.boards {
            let mut teams: Vec<usize> = b.iter().map(|p| seats[*p].team).collect();
            teams.sort_unstable();
            teams.dedup();
            assert_eq!(teams.len(), 7, "team-mates on one board");
            for (k, p) in b.iter().enumerate() {
                assert_eq!(seats[*p].power, Some(k), "the team's power kept");
            }
        }
        // Reproducible: the same seed, the same seating.
        assert_eq!(seat(&seats, 7, 2004, 2_000_000).expect("seated"), s);
    }

    #[test]
    fn wm_b_6_c_d_round_two_avoids_repeat_powers_and_opponents() {
        let first = round_one();
        let r1 = seat(&first, 7, 2004, 2_000_000).expect("round one");
        // 196 different players (3 is prime to 245) go on to 28 boards.
        let advancing: Vec<usize> = (0..196).map(|i| (i * 3) % first.len()).collect();
        let second = next_round(&first, &r1, &advancing);
        assert_eq!(second.len(), 196);
        let s = seat(&second, 7, 2005, 5_000_000).expect("round two");
        assert_eq!(s.boards.len(), 28);
        assert!(s.unmet.is_empty(), "{:?}", s.unmet);
    }

    #[test]
    fn what_cannot_be_met_is_reported() {
        // Two teams of seven on two boards: team-mates must share boards.
        let seats: Vec<Seat> = (0..14)
            .map(|i| Seat {
                team: i % 2,
                power: None,
                played: Vec::new(),
                met: Vec::new(),
            })
            .collect();
        let s = seat(&seats, 7, 1, 10_000).expect("seated");
        assert!(
            s.unmet.iter().any(|u| u.contains("WM B.6 b")),
            "{:?}",
            s.unmet
        );
        assert!(
            seat(&seats[..13], 7, 1, 10).is_err(),
            "13 players fill no boards of 7"
        );
    }
}
