//! ACWC "Pairing details": the Swiss's standings as a crosstable, so every player can check the
//! ranking and the pairings by hand: each player still in, ranked by the three keys (score,
//! the average of the opponents' seeding ratings with byes left out, the own seeding rating),
//! and each round's result against the opponent's seed number; then those who left.
//!
//! Seed numbers, not ranks, name the opponents: a seed never changes, and a player who left has
//! one too.

use crate::Player;
use crate::seeding::Entrant;
use crate::swiss::{self, Outcome, Round, SwissError, rank_cmp};

/// One round's cell for one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Won, drawn or lost against the seed, or not yet decided.
    Won(u32),
    Tied(u32),
    Lost(u32),
    Pending(u32),
    /// "Pairing details": a bye counts as a win.
    Bye,
    /// Not paired (had left).
    Out,
}

impl Cell {
    fn text(&self) -> String {
        match self {
            Cell::Won(s) => format!("+{s}"),
            Cell::Tied(s) => format!("={s}"),
            Cell::Lost(s) => format!("-{s}"),
            Cell::Pending(s) => format!("?{s}"),
            Cell::Bye => "bye".to_string(),
            Cell::Out => ".".to_string(),
        }
    }
}

/// One player's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The place in the ranking; none for a player who left.
    pub rank: Option<usize>,
    pub seed: u32,
    pub player: Player,
    /// Half points.
    pub score_halves: u32,
    /// The opponents' average seeding rating, as the ranking shows it.
    pub average: String,
    pub rating: String,
    pub cells: Vec<Cell>,
}

/// The crosstable after `rounds` (the last may be under way), the players who left in
/// `withdrawn_now` or in a round's `withdrawn` listed after the ranked ones.
pub fn crosstable(
    field: &[Entrant],
    rounds: &[Round],
    withdrawn_now: &[Player],
) -> Result<Vec<Row>, SwissError> {
    let finished: Vec<Round> = rounds
        .iter()
        .filter(|r| r.matches.iter().all(|m| m.outcome.is_some()))
        .cloned()
        .collect();
    // The ranking counts the finished rounds only; a round under way shows as pending.
    let mut gone = withdrawn_now.to_vec();
    let played = if finished.len() == rounds.len() {
        rounds
    } else {
        // Who left before the round under way was paired is out of the ranking already.
        gone.extend(rounds[rounds.len() - 1].withdrawn.iter().cloned());
        &rounds[..rounds.len() - 1]
    };
    let mut standings = swiss::standings(field, played, &gone)?;
    standings.sort_by(rank_cmp);
    let seed_of = |p: &Player| {
        field
            .iter()
            .position(|e| &e.player == p)
            .map_or(0, |k| u32::try_from(k + 1).unwrap_or(u32::MAX))
    };
    let cells = |p: &Player| rounds.iter().map(|r| cell(r, p, &seed_of)).collect();
    let mut rows: Vec<Row> = standings
        .iter()
        .enumerate()
        .map(|(k, s)| Row {
            rank: Some(k + 1),
            seed: s.seed,
            player: s.player.clone(),
            score_halves: s.score.halves(),
            average: s.average().to_string(),
            rating: s.rating.to_string(),
            cells: cells(&s.player),
        })
        .collect();
    let all = swiss::standings(field, played, &[])?;
    for e in field {
        if rows.iter().any(|r| r.player == e.player) {
            continue;
        }
        let s = all.iter().find(|s| s.player == e.player);
        rows.push(Row {
            rank: None,
            seed: seed_of(&e.player),
            player: e.player.clone(),
            score_halves: s.map_or(0, |s| s.score.halves()),
            average: s.map_or_else(String::new, |s| s.average().to_string()),
            rating: e.seeding.rating().to_string(),
            cells: cells(&e.player),
        });
    }
    Ok(rows)
}

fn cell(r: &Round, p: &Player, seed_of: &impl Fn(&Player) -> u32) -> Cell {
    if r.bye.as_ref() == Some(p) {
        return Cell::Bye;
    }
    let Some(m) = r.matches.iter().find(|m| &m.first == p || &m.second == p) else {
        return Cell::Out;
    };
    let first = &m.first == p;
    let opp = seed_of(if first { &m.second } else { &m.first });
    match (m.outcome, first) {
        (None, _) => Cell::Pending(opp),
        (Some(Outcome::Tie), _) => Cell::Tied(opp),
        (Some(Outcome::FirstWon), true) | (Some(Outcome::SecondWon), false) => Cell::Won(opp),
        _ => Cell::Lost(opp),
    }
}

/// Half points as written: `3`, `2.5`.
pub fn halves(h: u32) -> String {
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

/// The crosstable as lines of text: a key, a header and a line a player.
pub fn lines(rows: &[Row]) -> Vec<String> {
    let rounds = rows.first().map_or(0, |r| r.cells.len());
    let width = rows
        .iter()
        .map(|r| r.player.as_str().chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 30);
    let mut out = vec![
        "Ranked by score, then the average of the opponents' seeding ratings (byes left out), \
         then the own seeding rating (ACWC Pairing details). Each round: +N won, =N drawn, -N \
         lost, ?N not yet decided, against seed N; bye a bye (a win); . not paired."
            .to_string(),
        String::new(),
    ];
    let mut head = format!(
        "{:>4} {:>4}  {:<width$}  {:>5}  {:>8}  {:>7}",
        "Rank", "Seed", "Player", "Score", "Opp avg", "Rating"
    );
    for k in 1..=rounds {
        head.push_str(&format!("  {:>4}", format!("R{k}")));
    }
    out.push(head);
    for r in rows {
        let rank = r.rank.map_or_else(|| "left".to_string(), |k| k.to_string());
        let mut line = format!(
            "{rank:>4} {:>4}  {:<width$}  {:>5}  {:>8}  {:>7}",
            r.seed,
            r.player.as_str(),
            halves(r.score_halves),
            r.average,
            r.rating
        );
        for c in &r.cells {
            line.push_str(&format!("  {:>4}", c.text()));
        }
        out.push(line.trim_end().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeding::Seeding;
    use crate::swiss::Match;

    fn entrant(name: &str, rating: u32) -> Entrant {
        Entrant {
            player: Player::new(name),
            seeding: Seeding {
                cutoff: rating,
                peak: rating,
            },
        }
    }

    fn m(a: &str, b: &str, o: Option<Outcome>) -> Match {
        Match {
            first: Player::new(a),
            second: Player::new(b),
            outcome: o,
        }
    }

    /// ACWC Pairing details: the ranking's keys and each round's cell by seed; a player who
    /// left is listed after the ranked ones, unranked, with no cell for the rounds after.
    #[test]
    fn acwc_pairing_details_crosstable_ranks_and_cells() {
        let field = [
            entrant("a", 2000),
            entrant("b", 1900),
            entrant("c", 1800),
            entrant("d", 1700),
            entrant("e", 1600),
        ];
        let r1 = Round {
            withdrawn: vec![],
            bye: Some(Player::new("e")),
            matches: vec![
                m("a", "c", Some(Outcome::FirstWon)),
                m("b", "d", Some(Outcome::Tie)),
            ],
        };
        let r2 = Round {
            withdrawn: vec![Player::new("d")],
            bye: None,
            matches: vec![m("e", "a", None), m("b", "c", Some(Outcome::SecondWon))],
        };
        let rows = crosstable(&field, &[r1, r2], &[]).unwrap();
        let names: Vec<&str> = rows.iter().map(|r| r.player.as_str()).collect();
        // After round 1: a 1 (avg 1800), e 1 (bye, avg 0), b 0.5, then c 0 (avg 2000) ahead of
        // d... d left before round 2 and is listed last.
        assert_eq!(names, ["a", "e", "b", "c", "d"]);
        assert_eq!(rows[0].cells, vec![Cell::Won(3), Cell::Pending(5)]);
        assert_eq!(rows[1].cells, vec![Cell::Bye, Cell::Pending(1)]);
        assert_eq!(rows[2].cells, vec![Cell::Tied(4), Cell::Lost(3)]);
        assert_eq!(rows[4].rank, None);
        assert_eq!(rows[4].cells, vec![Cell::Tied(2), Cell::Out]);
        let text = lines(&rows);
        assert!(text[2].starts_with("Rank Seed  Player"), "{}", text[2]);
        assert!(
            text[3].contains("+3") && text[3].ends_with("?5"),
            "{}",
            text[3]
        );
        assert!(text[7].starts_with("left"), "{}", text[7]);
    }
}
