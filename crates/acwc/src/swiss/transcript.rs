//! The transcript as plain lines for a pairings mail: short lines, exact numbers (the
//! opponents' average as its fraction where it has more than one opponent), so that anyone can
//! redo the ranking and the steps by hand.

use super::{
    ByeLine, DeadEnd, Method, OpponentAverage, RankRow, Skip, SkipReason, Step, Transcript,
};

impl Transcript {
    /// "Pairing details", for the mail: the ranking, the bye, each step.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.ranking.len() + self.literal.len() + 8);
        out.push(format!("Round {}: the ranking", self.round));
        out.push("(score; opponents' average seeding rating; own seeding rating; seed)".into());
        out.extend(self.ranking.iter().map(rank_line));
        out.push(String::new());
        out.extend(bye_lines(&self.bye));
        out.push(String::new());
        out.push("Pairing: the highest-ranked unpaired player with the".into());
        out.push("closest-ranked one not yet met.".into());
        out.extend(
            self.literal
                .iter()
                .enumerate()
                .flat_map(|(i, s)| step_lines(i, s)),
        );
        if let Some(d) = &self.dead_end {
            out.extend(dead_end_lines(d));
        }
        if self.method != Method::Literal {
            out.push(String::new());
            out.extend(fallback_header(self.method));
            out.extend(
                self.fallback
                    .iter()
                    .enumerate()
                    .flat_map(|(i, s)| step_lines(i, s)),
            );
        }
        out
    }
}

fn rank_line(r: &RankRow) -> String {
    let avg = OpponentAverage::from(r.average);
    let bye = if r.had_bye { "; had a bye" } else { "" };
    format!(
        "{}. {}: {}; {}; {}; seed {}{}",
        r.rank, r.player, r.score, avg, r.rating, r.seed, bye
    )
}

fn bye_lines(b: &ByeLine) -> Vec<String> {
    match b {
        ByeLine::None => vec!["An even number of players: no bye.".into()],
        ByeLine::Lowest { player, passed } if passed.is_empty() => {
            vec![format!("Bye: {player}, the lowest-ranked.")]
        }
        ByeLine::Lowest { player, passed } => {
            let mut v = vec![format!(
                "Bye: {player}, the lowest-ranked without a bye; had one:"
            )];
            v.extend(passed.iter().map(|p| format!("  {p}")));
            v
        }
        ByeLine::EveryoneHadOne { player } => vec![format!(
            "Bye: {player}: everyone has had a bye, so the lowest-ranked."
        )],
    }
}

fn skip_phrase(s: &Skip) -> String {
    match s.reason {
        SkipReason::AlreadyMet => format!("{} already met", s.player),
        SkipReason::RestNeedsRematch => format!("{} would leave a rematch", s.player),
        SkipReason::MoreRematches => format!("{} would need more rematches", s.player),
    }
}

/// A step on one line, or, when it passed over several players, one line each.
fn step_lines(i: usize, s: &Step) -> Vec<String> {
    let mut line = format!("{}. {} v {}", i + 1, s.top, s.with);
    if s.rematch {
        line.push_str(" (a rematch)");
    }
    match s.skipped.as_slice() {
        [] => vec![line],
        [one] => vec![format!("{line}: {}", skip_phrase(one))],
        many => {
            line.push(':');
            let mut v = vec![line];
            v.extend(many.iter().map(|k| format!("   {}", skip_phrase(k))));
            v
        }
    }
}

fn dead_end_lines(d: &DeadEnd) -> Vec<String> {
    let mut v = vec![format!(
        "Dead end: {} has met every unpaired player:",
        d.player
    )];
    v.extend(d.unpaired.iter().map(|p| format!("  {p}")));
    v
}

fn fallback_header(m: Method) -> Vec<String> {
    match m {
        Method::Literal => Vec::new(),
        Method::RematchFree => vec![
            "Fallback: again from the top, each takes the closest-ranked".into(),
            "not yet met with whom all the rest can still be paired".into(),
            "without a rematch (the literal order, backtracking).".into(),
        ],
        Method::FewestRematches => vec![
            "No pairing without a rematch exists. Fallback: again from".into(),
            "the top, each takes the closest-ranked player (met or not)".into(),
            "that still allows the fewest rematches.".into(),
        ],
    }
}
