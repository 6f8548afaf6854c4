//! A reference for the Swiss's fallbacks by brute force ("Pairing details"), for small rounds:
//! every pairing tried in the literal order of choices (the highest-ranked unpaired player with
//! each lower-ranked unpaired player, closest first), so the first one found that satisfies a
//! test is the one the literal process with backtracking gives. The office never calls it: the
//! property tests compare [`crate::swiss::pair`] with it. The work grows as `(n - 1)!!` (10,395
//! pairings of 12 players), so it is meant for at most 16 players.
//!
//! Players are numbered by rank, 0 the best; `met(a, b)` says whether two have played.

/// Brute force: the players `live` (by rank) paired, the first pairing in the literal order of
/// choices that has no rematch; none if every pairing has one (or `live` is odd).
pub fn first_rematch_free(
    live: &[bool],
    met: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<(usize, usize)>> {
    let mut live = live.to_vec();
    let mut pairs = Vec::new();
    search_free(&mut live, met, &mut pairs).then_some(pairs)
}

fn search_free(
    live: &mut [bool],
    met: &dyn Fn(usize, usize) -> bool,
    pairs: &mut Vec<(usize, usize)>,
) -> bool {
    let Some(p) = live.iter().position(|&l| l) else {
        return true;
    };
    live[p] = false;
    for q in p + 1..live.len() {
        if !live[q] || met(p, q) {
            continue;
        }
        live[q] = false;
        pairs.push((p, q));
        if search_free(live, met, pairs) {
            return true;
        }
        pairs.pop();
        live[q] = true;
    }
    live[p] = true;
    false
}

/// Brute force: whether the players `live` can all be paired without a rematch.
pub fn rematch_free_exists(live: &[bool], met: &dyn Fn(usize, usize) -> bool) -> bool {
    first_rematch_free(live, met).is_some()
}

/// Brute force: the first pairing in the literal order of choices among those with the fewest
/// rematches, and that number; none if `live` is odd.
pub fn fewest_rematches(
    live: &[bool],
    met: &dyn Fn(usize, usize) -> bool,
) -> Option<(usize, Vec<(usize, usize)>)> {
    let mut live = live.to_vec();
    let mut best: Option<(usize, Vec<(usize, usize)>)> = None;
    search_fewest(&mut live, met, &mut Vec::new(), 0, &mut best);
    best
}

fn search_fewest(
    live: &mut [bool],
    met: &dyn Fn(usize, usize) -> bool,
    pairs: &mut Vec<(usize, usize)>,
    rematches: usize,
    best: &mut Option<(usize, Vec<(usize, usize)>)>,
) {
    if best.as_ref().is_some_and(|(b, _)| rematches >= *b) {
        return;
    }
    let Some(p) = live.iter().position(|&l| l) else {
        *best = Some((rematches, pairs.clone()));
        return;
    };
    live[p] = false;
    for q in p + 1..live.len() {
        if !live[q] {
            continue;
        }
        live[q] = false;
        pairs.push((p, q));
        search_fewest(live, met, pairs, rematches + usize::from(met(p, q)), best);
        pairs.pop();
        live[q] = true;
    }
    live[p] = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acwc_pairing_brute_force_in_the_literal_order() {
        // 0-1 met: 0 takes 2 first, then 1-3.
        let met = |a: usize, b: usize| (a.min(b), a.max(b)) == (0, 1);
        assert_eq!(
            first_rematch_free(&[true; 4], &met),
            Some(vec![(0, 2), (1, 3)])
        );
        // Everyone met 0: no rematch-free pairing; the fewest is one, 0-1 first.
        let met = |a: usize, b: usize| a.min(b) == 0;
        assert!(!rematch_free_exists(&[true; 4], &met));
        assert_eq!(
            fewest_rematches(&[true; 4], &met),
            Some((1, vec![(0, 1), (2, 3)]))
        );
        assert_eq!(fewest_rematches(&[true; 3], &met), None);
    }
}
