//! The fallbacks where the literal process dead-ends (the module's docs above): the literal
//! order of choices with backtracking, computed without trying every branch. Whether the
//! players still unpaired can all be paired without a rematch is a perfect-matching question
//! on the graph of pairs who have not met, which Edmonds' blossom algorithm answers; each step
//! then keeps the closest-ranked candidate that leaves such a matching. That is exactly the
//! first complete pairing a backtracking search in the literal order would find, in polynomial
//! time however many players there are.

use super::{Skip, SkipReason, Step, Table};

const NONE: usize = usize::MAX;

/// The pairs (by rank) and the steps that made them.
pub(super) type Paired = (Vec<(usize, usize)>, Vec<Step>);

/// Edmonds' blossom algorithm on the players `live` with an edge between two who have not met
/// (or, with `any`, between any two).
struct Blossom<'a> {
    t: &'a Table<'a>,
    any: bool,
    live: Vec<bool>,
    mate: Vec<usize>,
}

impl Blossom<'_> {
    fn edge(&self, a: usize, b: usize) -> bool {
        a != b && self.live[a] && self.live[b] && (self.any || !self.t.met(a, b))
    }

    /// An augmenting path from the unmatched `root`: its far end and the tree's parents.
    fn find_path(&self, root: usize) -> Option<(usize, Vec<usize>)> {
        let n = self.live.len();
        let mut used = vec![false; n];
        let mut parent = vec![NONE; n];
        let mut base: Vec<usize> = (0..n).collect();
        let mut queue = std::collections::VecDeque::from([root]);
        used[root] = true;
        while let Some(v) = queue.pop_front() {
            for to in 0..n {
                if !self.edge(v, to) || base[v] == base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && parent[self.mate[to]] != NONE) {
                    let cur = self.lca(&base, &parent, v, to);
                    let mut blossom = vec![false; n];
                    self.mark_path(&base, &mut parent, &mut blossom, v, cur, to);
                    self.mark_path(&base, &mut parent, &mut blossom, to, cur, v);
                    for i in 0..n {
                        if blossom[base[i]] {
                            base[i] = cur;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to] == NONE {
                    parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some((to, parent));
                    }
                    used[self.mate[to]] = true;
                    queue.push_back(self.mate[to]);
                }
            }
        }
        None
    }

    fn lca(&self, base: &[usize], parent: &[usize], a: usize, b: usize) -> usize {
        let mut seen = vec![false; base.len()];
        let mut a = a;
        loop {
            a = base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = parent[self.mate[a]];
        }
        let mut b = b;
        loop {
            b = base[b];
            if seen[b] {
                return b;
            }
            b = parent[self.mate[b]];
        }
    }

    fn mark_path(
        &self,
        base: &[usize],
        parent: &mut [usize],
        blossom: &mut [bool],
        v: usize,
        b: usize,
        child: usize,
    ) {
        let (mut v, mut child) = (v, child);
        while base[v] != b {
            blossom[base[v]] = true;
            blossom[base[self.mate[v]]] = true;
            parent[v] = child;
            child = self.mate[v];
            v = parent[self.mate[v]];
        }
    }

    fn augment(&mut self, end: usize, parent: &[usize]) {
        let mut v = end;
        while v != NONE {
            let pv = parent[v];
            let next = self.mate[pv];
            self.mate[v] = pv;
            self.mate[pv] = v;
            v = next;
        }
    }

    /// Augments from every unmatched live player: a maximum matching.
    fn maximise(&mut self) {
        for v in 0..self.live.len() {
            if self.live[v]
                && self.mate[v] == NONE
                && let Some((end, parent)) = self.find_path(v)
            {
                self.augment(end, &parent);
            }
        }
    }

    fn size(&self) -> usize {
        (0..self.live.len())
            .filter(|&v| self.live[v] && self.mate[v] != NONE)
            .count()
            / 2
    }

    /// With the matching perfect on the live players: whether the others can still be paired
    /// perfectly once `p` and `q` are paired together; if so, they are, and the matching stays
    /// perfect on the rest.
    fn take(&mut self, p: usize, q: usize) -> bool {
        let (pp, qq) = (self.mate[p], self.mate[q]);
        self.live[p] = false;
        self.live[q] = false;
        if pp == q {
            return true;
        }
        self.mate[p] = q;
        self.mate[q] = p;
        if self.edge(pp, qq) {
            // Their partners pair with each other: the shortest way round.
            self.mate[pp] = qq;
            self.mate[qq] = pp;
            return true;
        }
        self.mate[pp] = NONE;
        self.mate[qq] = NONE;
        // pp and qq are the only unmatched live players: a path from one ends at the other.
        if let Some((end, parent)) = self.find_path(pp) {
            self.augment(end, &parent);
            return true;
        }
        self.live[p] = true;
        self.live[q] = true;
        self.mate[p] = pp;
        self.mate[pp] = p;
        self.mate[q] = qq;
        self.mate[qq] = q;
        false
    }
}

/// The first rematch-free pairing in the literal order of choices (the literal process with
/// backtracking), none if no rematch-free pairing exists; `start` (the literal process's pairs
/// before its dead end) seeds the matching.
pub(super) fn rematch_free(t: &Table, live: &[bool], start: &[(usize, usize)]) -> Option<Paired> {
    let m = t.len();
    let mut b = Blossom {
        t,
        any: false,
        live: live.to_vec(),
        mate: vec![NONE; m],
    };
    for &(p, q) in start {
        b.mate[p] = q;
        b.mate[q] = p;
    }
    b.maximise();
    let players = live.iter().filter(|&&l| l).count();
    if b.size() * 2 != players {
        return None;
    }
    let (mut pairs, mut steps) = (Vec::new(), Vec::new());
    while let Some(p) = (0..m).find(|&i| b.live[i]) {
        let mut skipped = Vec::new();
        let mut with = NONE;
        for q in p + 1..m {
            if !b.live[q] {
                continue;
            }
            let reason = if t.met(p, q) {
                SkipReason::AlreadyMet
            } else if b.take(p, q) {
                with = q;
                break;
            } else {
                SkipReason::RestNeedsRematch
            };
            skipped.push(Skip {
                player: t.ranked_at(q),
                reason,
            });
        }
        // The matching is perfect on the live players: p's mate is always acceptable.
        if with == NONE {
            return None;
        }
        pairs.push((p, with));
        steps.push(Step {
            top: t.ranked_at(p),
            with: t.ranked_at(with),
            skipped,
            rematch: false,
        });
    }
    Some((pairs, steps))
}

/// The most pairs of players who have not met among `live`.
fn most_fresh_pairs(t: &Table, live: &[bool]) -> usize {
    let mut b = Blossom {
        t,
        any: false,
        live: live.to_vec(),
        mate: vec![NONE; t.len()],
    };
    b.maximise();
    b.size()
}

/// No rematch-free pairing exists: the fewest rematches, in the literal order of choices (the
/// highest-ranked unpaired player with the closest-ranked player, met or not, that still allows
/// the fewest rematches).
pub(super) fn fewest_rematches(t: &Table, live: &[bool]) -> Paired {
    let m = t.len();
    let mut live = live.to_vec();
    let (mut pairs, mut steps) = (Vec::new(), Vec::new());
    let mut fresh = most_fresh_pairs(t, &live);
    while let Some(p) = (0..m).find(|&i| live[i]) {
        live[p] = false;
        let mut skipped = Vec::new();
        let mut chosen = None;
        for q in p + 1..m {
            if !live[q] {
                continue;
            }
            live[q] = false;
            let here = usize::from(!t.met(p, q));
            let rest = most_fresh_pairs(t, &live);
            if here + rest == fresh {
                chosen = Some((q, rest));
                break;
            }
            live[q] = true;
            skipped.push(Skip {
                player: t.ranked_at(q),
                reason: SkipReason::MoreRematches,
            });
        }
        // Some partner of p's in a best pairing always keeps the best.
        let Some((q, rest)) = chosen else { break };
        fresh = rest;
        pairs.push((p, q));
        steps.push(Step {
            top: t.ranked_at(p),
            with: t.ranked_at(q),
            skipped,
            rematch: t.met(p, q),
        });
    }
    (pairs, steps)
}
