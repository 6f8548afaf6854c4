//! Scoring one finished game as the tournament rulebooks say (WM 2004 section C; Maharajiad I
//! section A). Pure: the final centre counts, how the game ended, the centre history and who
//! played each power when are passed in.

use crate::map::{Map, Power};
use crate::phase::{Phase, PhaseKind, Season};
use serde::{Deserialize, Serialize};

/// WM C.2: the positional bonuses, first to sixth place.
pub const WM_BONUS: [f64; 6] = [32.0, 16.0, 8.0, 4.0, 2.0, 1.0];

/// WM C.4: a solo counts as a win with this many centres (all others eliminated).
pub const WM_SOLO_CENTRES: u32 = 34;

/// Maharajiad A.16-A.17: a solo counts as a win with this many centres.
pub const MAHARAJIAD_SOLO_CENTRES: u32 = 37;

/// The rulebook a game or a tournament is scored by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rulebook {
    #[serde(rename = "wm2004")]
    Wm2004,
    #[serde(rename = "maharajiad")]
    Maharajiad,
}

impl Rulebook {
    /// Every rulebook.
    pub const ALL: [Rulebook; 2] = [Rulebook::Wm2004, Rulebook::Maharajiad];

    /// Its name as written and stored (`wm2004`, `maharajiad`).
    pub fn name(self) -> &'static str {
        match self {
            Rulebook::Wm2004 => "wm2004",
            Rulebook::Maharajiad => "maharajiad",
        }
    }

    /// What a solo counts as (WM C.4: 34 centres; Maharajiad A.16-A.17: 37).
    pub fn solo_centres(self) -> u32 {
        match self {
            Rulebook::Wm2004 => WM_SOLO_CENTRES,
            Rulebook::Maharajiad => MAHARAJIAD_SOLO_CENTRES,
        }
    }

    /// The clause that makes a majority of the centres a solo, for messages.
    fn solo_clause(self) -> &'static str {
        match self {
            Rulebook::Wm2004 => "WM C.4",
            Rulebook::Maharajiad => "Maharajiad A.16, B.I(1)",
        }
    }

    /// The rulebook's own map.
    pub fn variant(self) -> &'static str {
        match self {
            Rulebook::Wm2004 => "standard",
            Rulebook::Maharajiad => "maharajah",
        }
    }
}

impl std::fmt::Display for Rulebook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A rulebook no one knows: its name, and the ones there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRulebook(pub String);

impl std::fmt::Display for UnknownRulebook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown rulebook '{}' (wm2004, maharajiad)", self.0)
    }
}

impl std::error::Error for UnknownRulebook {}

impl std::str::FromStr for Rulebook {
    type Err = UnknownRulebook;

    /// A rulebook by its name; an unknown name is an error naming it, never a default.
    fn from_str(s: &str) -> Result<Rulebook, UnknownRulebook> {
        Rulebook::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownRulebook(s.to_string()))
    }
}

impl TryFrom<String> for Rulebook {
    type Error = UnknownRulebook;

    fn try_from(s: String) -> Result<Rulebook, UnknownRulebook> {
        s.parse()
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Played to its final year (WM B.3, Maharajiad A.10): the counts stand.
    Played,
    /// Maharajiad B.X(1): "If, after a period of three game years, no Supply Centers have
    /// changed ownership, the game will automatically conclude": the counts stand, and (as after
    /// a vote, A.18) are carried to the final year for the count-back.
    Stalemate,
    /// A power reached the victory count (a majority of the centres: WM C.4, Maharajiad B.I(1)).
    Solo(Power),
    /// A solo conceded by vote (WM C.5, D.IX(3); Maharajiad A.18).
    ConcededSolo(Power),
    /// Any other result accepted by vote (a draw: WM C.5, Maharajiad A.18). `excluded`: the
    /// survivors the accepted proposal left out, "presumed eliminated" (WM D.IX(4)): they score
    /// as eliminated, and nobody's centre count changes ("SC counts may not be changed by
    /// vote").
    Vote { excluded: Vec<Power> },
}

impl End {
    /// The power that won alone, if any.
    pub fn winner(&self) -> Option<Power> {
        match self {
            End::Solo(p) | End::ConcededSolo(p) => Some(*p),
            End::Played | End::Stalemate | End::Vote { .. } => None,
        }
    }
}

/// Who played a position from which phase on (WM B.7, C.14; Maharajiad A.12, A.23).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stint {
    pub player: String,
    /// The first phase this player played.
    pub from: Phase,
    /// The initial player or a permanent replacement (WM B.7); false for a temporary one.
    pub permanent: bool,
}

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

/// Each power's score in a game that ended as `end`, by `rulebook`: a solo (conceded or not)
/// by WM C.4 / Maharajiad A.16-A.17; the survivors a draw left out scored as eliminated (WM
/// D.IX(4): "presumes the elimination of the players not included"), the others placed among
/// themselves (C.1-C.3) on their own, unchanged, counts.
pub fn scores(rulebook: Rulebook, centres: &[(Power, u32)], end: &End) -> Vec<PowerScore> {
    let counts: Vec<(Power, u32)> = match end {
        End::Vote { excluded } => centres
            .iter()
            .map(|&(p, c)| (p, if excluded.contains(&p) { 0 } else { c }))
            .collect(),
        _ => centres.to_vec(),
    };
    match rulebook {
        Rulebook::Wm2004 => wm(&counts, end.winner()),
        Rulebook::Maharajiad => maharajiad(&counts, end.winner()),
    }
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

/// The years a game's count-backs read, by how it ended: a vote's counts carried to the final
/// year (WM C.5, Maharajiad A.18), and so a stalemate's (Maharajiad B.X(1): no centre changed
/// hands, so the counts of the remaining years are those of the end). A game without a final
/// year (Maharajiad A.10's second round) carries nothing past the year it ended in.
pub fn years_scored(
    rulebook: Rulebook,
    history: &[(u16, Vec<(Power, u32)>)],
    final_year: Option<u16>,
    ended_after: Phase,
    end: &End,
) -> Vec<(u16, Vec<(Power, u32)>)> {
    let carried = match end {
        End::Played | End::Solo(_) => return history.to_vec(),
        End::Stalemate | End::Vote { .. } => VotedEnd::Other,
        End::ConcededSolo(p) => VotedEnd::ConcededSolo(*p),
    };
    let last = final_year.unwrap_or(ended_after.year);
    years_to_final(history, last, carried, rulebook.solo_centres())
}

/// The movement turns a game counts, in order (WM C.14: "Summer and Winter turns will not be
/// considered"; Maharajiad A.23: "movement turns"): those from its first year to its final
/// year; for a game without a final year (Maharajiad A.10: the second round "will be played
/// until a player has met the victory criterion"), those actually played, to `ended_after`.
fn counted_turns(
    start_year: u16,
    final_year: Option<u16>,
    ended_after: Phase,
) -> impl Iterator<Item = Phase> {
    let last = final_year.unwrap_or(ended_after.year);
    (start_year..=last)
        .flat_map(|year| {
            [Season::Spring, Season::Fall].map(|s| Phase::new(s, year, PhaseKind::Movement))
        })
        .filter(move |turn| final_year.is_some() || *turn <= ended_after)
}

/// WM C.14, Maharajiad A.23: "Total number of seasons in the game": the Spring and Fall
/// movement turns from `start_year` to `final_year` (18 for 1901-1909), or, without a final
/// year, the movement turns played to `ended_after` (Maharajiad A.10, A.23).
pub fn seasons_in_game(start_year: u16, final_year: Option<u16>, ended_after: Phase) -> u32 {
    counted_turns(start_year, final_year, ended_after).count() as u32
}

/// WM C.14 (Maharajiad A.23): how many counted seasons each stint played. `stints`: who played
/// the position from which phase on, in order (the first from the game's first phase);
/// `ended_after`: the last phase played. Only Spring and Fall movement turns count, and
/// "seasons unplayed due to early termination will be credited to the player active at the
/// time of the termination". Returns (stint index, seasons), one per stint.
pub fn seasons_played(
    start_year: u16,
    final_year: Option<u16>,
    stints: &[Phase],
    ended_after: Phase,
) -> Vec<(usize, u32)> {
    // The counted seasons, in order, each given to the stint active at its start.
    let mut out: Vec<(usize, u32)> = (0..stints.len()).map(|i| (i, 0)).collect();
    for turn in counted_turns(start_year, final_year, ended_after) {
        // After an early end, the player active at the end is credited (C.14).
        let at = turn.min(ended_after);
        if let Some(i) = stints.iter().rposition(|s| *s <= at) {
            out[i].1 += 1;
        }
    }
    out
}

/// The seasons each stint of a position is credited with (WM C.14, Maharajiad A.23), one per
/// stint: those it played ([`seasons_played`]), and, for a player stood in for one movement turn
/// at most in the whole game, the turns of the stand-ins too.
///
/// WM C.14: "A player who is replaced for more than one turn due to arranged absence, or a
/// player who took over a position as a standby, will receive pro-rated points" (Maharajiad
/// A.23 has the same words). So a player whose temporary stand-ins (WM B.7, Maharajiad A.12)
/// played one movement turn or none in all keeps the full points: the stand-ins' seasons are
/// credited to them as well, and the stand-in, who "took over a position as a standby", is
/// still pro-rated by the seasons they played. A turn here is a counted turn (Spring or Fall
/// movement), C.14's own unit: a stand-in for a Winter adjustment and the Spring after it has
/// replaced the player for one turn. An absence is a run of temporary stints after the player's
/// own, ended by the player's return (or by the end of the game); a player who is then
/// replaced permanently was not absent but replaced, and is pro-rated.
pub fn credited_seasons(
    start_year: u16,
    final_year: Option<u16>,
    stints: &[Stint],
    ended_after: Phase,
) -> Vec<u32> {
    let froms: Vec<Phase> = stints.iter().map(|s| s.from).collect();
    let mut credited = vec![0u32; stints.len()];
    for (i, n) in seasons_played(start_year, final_year, &froms, ended_after) {
        credited[i] = n;
    }
    // The movement turns each stint actually played (the unplayed seasons after an early end
    // are credited, not played).
    let mut played = vec![0u32; stints.len()];
    for turn in counted_turns(start_year, final_year, ended_after).filter(|t| *t <= ended_after) {
        if let Some(i) = froms.iter().rposition(|f| *f <= turn) {
            played[i] += 1;
        }
    }
    // Each absence: the stint of the player stood in for, and the run of stand-ins after it.
    let mut absences: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    let mut i = 1;
    while i < stints.len() {
        if stints[i].permanent {
            i += 1;
            continue;
        }
        let holder = i - 1;
        let mut j = i;
        while stints.get(j).is_some_and(|s| !s.permanent) {
            j += 1;
        }
        let back = stints
            .get(j)
            .is_none_or(|s| s.player == stints[holder].player);
        if back {
            absences.push((holder, i..j));
        }
        i = j;
    }
    let mut seen: Vec<&str> = Vec::new();
    for (holder, _) in &absences {
        let player = stints[*holder].player.as_str();
        if seen.contains(&player) {
            continue;
        }
        seen.push(player);
        let mine: Vec<&(usize, std::ops::Range<usize>)> = absences
            .iter()
            .filter(|(h, _)| stints[*h].player == player)
            .collect();
        let turns: u32 = mine
            .iter()
            .flat_map(|(_, run)| run.clone())
            .map(|k| played[k])
            .sum();
        if turns <= 1 {
            for (h, run) in mine {
                credited[*h] += run.clone().map(|k| credited[k]).sum::<u32>();
            }
        }
    }
    credited
}

/// WM C.14, Maharajiad A.23: "Total score x Number of seasons played / Total number of seasons
/// in the game"; never more than the whole score.
pub fn prorate(total: f64, played: u32, seasons: u32) -> f64 {
    if seasons == 0 {
        return 0.0;
    }
    total * f64::from(played.min(seasons)) / f64::from(seasons)
}

/// Why a game's facts cannot be scored: they contradict each other or the rulebook.
fn refuse(why: String) -> Result<(), String> {
    Err(why)
}

/// One finished game's facts, as a contract gives them, to check against each other before
/// scoring ([`check`]).
pub struct Facts<'a> {
    pub start_year: u16,
    pub final_year: Option<u16>,
    pub ended_after: Phase,
    pub end: &'a End,
    pub centres: &'a [(Power, u32)],
    pub history: &'a [(u16, Vec<(Power, u32)>)],
    pub positions: &'a [(Power, Vec<Stint>)],
}

/// Refuses a game whose facts contradict each other or the rulebook, saying which and why,
/// rather than scoring something else silently: the phases against the years (WM B.3,
/// Maharajiad A.10: no phase after the final year; a game `played` reached it), the centres
/// against the board and the end (a power holding a majority is a solo: WM C.4, Maharajiad
/// A.16, B.I(1)), a draw's powers (WM D.IX(4)), and who played when.
pub fn check(rulebook: Rulebook, map: &Map, f: &Facts<'_>) -> Result<(), String> {
    check_years(rulebook, f)?;
    check_centres(rulebook, map, f)?;
    for (power, stints) in f.positions {
        check_stints(map.power_name(*power), stints, f)?;
    }
    Ok(())
}

/// The phases and years against each other and the end.
fn check_years(rulebook: Rulebook, f: &Facts<'_>) -> Result<(), String> {
    let first = Phase::new(Season::Spring, f.start_year, PhaseKind::Movement);
    if f.ended_after < first {
        return refuse(format!(
            "ended_after {} is before the game's first phase {first}",
            f.ended_after
        ));
    }
    if let Some(last) = f.final_year {
        if last < f.start_year {
            return refuse(format!(
                "the final year {last} is before the first year {}",
                f.start_year
            ));
        }
        // Nothing is played after the final year (WM B.3, Maharajiad A.10); a later phase is an
        // error in the input, never scored as if the game had stopped in time.
        if f.ended_after.year > last {
            return refuse(format!(
                "ended_after {} is after the final year {last}: a game ends with its final \
                 year (WM B.3, Maharajiad A.10); give the right final year, or none for a game \
                 played until the victory criterion",
                f.ended_after
            ));
        }
    }
    let end_of_final = f
        .final_year
        .map(|y| Phase::new(Season::Fall, y, PhaseKind::Movement));
    match (f.end, end_of_final) {
        (End::Played, None) => refuse(
            "a game without a final year (Maharajiad A.10) is never played to it: it ends by a \
             solo, a vote or a stalemate (end solo, conceded_solo, vote or stalemate)"
                .to_string(),
        ),
        (End::Played, Some(fall)) if f.ended_after < fall => refuse(format!(
            "end played means played to the final year, but the game ended after {}, before \
             {fall}: a game stopped early ended by a solo, a vote{}",
            f.ended_after,
            match rulebook {
                Rulebook::Wm2004 => "",
                Rulebook::Maharajiad => " or a stalemate (Maharajiad B.X(1))",
            }
        )),
        (End::Stalemate, _) if rulebook == Rulebook::Wm2004 => refuse(
            "WM 2004 has no stalemate ending (it is Maharajiad B.X(1)): a WM game ends at its \
             final year, by a solo or by a vote"
                .to_string(),
        ),
        _ => {
            if let Some((year, _)) = f.history.iter().find(|(y, _)| *y > f.ended_after.year) {
                return refuse(format!(
                    "history has the year {year}, after the game ended ({})",
                    f.ended_after
                ));
            }
            Ok(())
        }
    }
}

/// The centres against the board and the end.
fn check_centres(rulebook: Rulebook, map: &Map, f: &Facts<'_>) -> Result<(), String> {
    let board = map.supply_centers().count() as u32;
    let total: u32 = f.centres.iter().map(|(_, c)| *c).sum();
    if total > board {
        return refuse(format!(
            "the centres add up to {total}, more than the {board} of the board"
        ));
    }
    let name = |p: Power| map.power_name(p);
    let centres_of = |p: Power| f.centres.iter().find(|x| x.0 == p).map_or(0, |x| x.1);
    // A majority of the centres is the victory criterion: the game ended there as a solo.
    let majority = f.centres.iter().find(|(_, c)| c * 2 > board);
    match (f.end, majority) {
        (End::Solo(w), _) if centres_of(*w) * 2 <= board => refuse(format!(
            "a solo is a majority of the centres ({} of {board}, {}); {} has {}: a win \
             conceded by vote is end conceded_solo",
            board / 2 + 1,
            rulebook.solo_clause(),
            name(*w),
            centres_of(*w)
        )),
        (End::Solo(_), _) => Ok(()),
        (_, Some((p, c))) => refuse(format!(
            "{} holds {c} of the {board} centres: that is a solo ({}), so the end is solo \
             with winner {}, not {}",
            name(*p),
            rulebook.solo_clause(),
            name(*p),
            end_name(f.end)
        )),
        (End::ConcededSolo(w), None) if centres_of(*w) == 0 => refuse(format!(
            "a win is conceded to a player remaining in the game (WM D.IX(3)); {} holds no \
             centre",
            name(*w)
        )),
        (End::Vote { excluded }, None) if !excluded.is_empty() => match rulebook {
            Rulebook::Maharajiad => refuse(
                "a Maharajiad draw includes every survivor: its rules have no game end that \
                 presumes survivors eliminated (that is WM D.IX(4))"
                    .to_string(),
            ),
            Rulebook::Wm2004 => Ok(()),
        },
        _ => Ok(()),
    }
}

/// The contract's word for an end, for messages.
pub fn end_name(end: &End) -> &'static str {
    match end {
        End::Played => "played",
        End::Stalemate => "stalemate",
        End::Solo(_) => "solo",
        End::ConcededSolo(_) => "conceded_solo",
        End::Vote { .. } => "vote",
    }
}

/// Who played a position when: the initial player from the first phase, then each later
/// player from a later phase, none after the end.
fn check_stints(power: &str, stints: &[Stint], f: &Facts<'_>) -> Result<(), String> {
    let first = Phase::new(Season::Spring, f.start_year, PhaseKind::Movement);
    let Some(initial) = stints.first() else {
        return refuse(format!("{power} has no player"));
    };
    if initial.from != first || !initial.permanent {
        return refuse(format!(
            "{power}: the first player is the initial player, from the first phase {first} \
             (not {}{})",
            initial.from,
            if initial.permanent { "" } else { ", temporary" }
        ));
    }
    for pair in stints.windows(2) {
        if pair[1].from <= pair[0].from {
            return refuse(format!(
                "{power}: {} from {} does not come after {} from {}: list the players in order",
                pair[1].player, pair[1].from, pair[0].player, pair[0].from
            ));
        }
    }
    if let Some(late) = stints.iter().find(|s| s.from > f.ended_after) {
        return refuse(format!(
            "{power}: {} from {} starts after the game ended ({})",
            late.player, late.from, f.ended_after
        ));
    }
    Ok(())
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
    fn a_rulebook_is_read_by_its_name_and_an_unknown_one_is_an_error_naming_it() {
        for r in Rulebook::ALL {
            assert_eq!(r.name().parse::<Rulebook>(), Ok(r));
            assert_eq!(r.to_string(), r.name());
        }
        let e = "wm2005".parse::<Rulebook>().expect_err("unknown");
        assert_eq!(
            e.to_string(),
            "unknown rulebook 'wm2005' (wm2004, maharajiad)"
        );
        assert!(
            Rulebook::try_from(String::new()).is_err(),
            "never a silent WM"
        );
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
        let seasons = seasons_in_game(1901, Some(1909), ended);
        assert_eq!(seasons, 18);
        let played = seasons_played(1901, Some(1909), &stints, ended);
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
        let ended: Phase = "F1510M".parse().expect("phase");
        let played = seasons_played(1501, Some(1510), &stints, ended);
        assert_eq!(played, vec![(0, 10), (1, 10)]);
        assert_eq!(
            prorate(14.0, 10, seasons_in_game(1501, Some(1510), ended)),
            7.0
        );
    }

    fn stint(player: &str, from: &str, permanent: bool) -> Stint {
        Stint {
            player: player.to_string(),
            from: from.parse().expect("phase"),
            permanent,
        }
    }

    fn credited(stints: &[Stint], ended_after: &str) -> Vec<u32> {
        credited_seasons(
            1901,
            Some(1909),
            stints,
            ended_after.parse().expect("phase"),
        )
    }

    #[test]
    fn wm_c_14_a_player_stood_in_for_one_turn_only_is_credited_that_turn() {
        // "A player who is replaced for more than one turn due to arranged absence ... will
        // receive pro-rated points": a stand-in for Spring 1905 alone leaves Vic all 18 seasons;
        // the stand-in, "a player who took over a position as a standby", has the one.
        let one = [
            stint("vic", "S1901M", true),
            stint("sub", "S1905M", false),
            stint("vic", "F1905M", true),
        ];
        assert_eq!(credited(&one, "F1909M"), vec![9, 1, 9]);
        // From the Winter 1904 builds to Spring 1905: one counted turn (C.14 counts no Winter).
        let winter = [
            stint("vic", "S1901M", true),
            stint("sub", "W1904A", false),
            stint("vic", "F1905M", true),
        ];
        assert_eq!(credited(&winter, "F1909M"), vec![9, 1, 9]);
        // Two turns: pro-rated.
        let two = [
            stint("vic", "S1901M", true),
            stint("sub", "S1905M", false),
            stint("vic", "S1906M", true),
        ];
        assert_eq!(credited(&two, "F1909M"), vec![8, 2, 8]);
        // Two absences of one turn each: replaced for two turns in all, pro-rated.
        let twice = [
            stint("vic", "S1901M", true),
            stint("sub", "S1903M", false),
            stint("vic", "F1903M", true),
            stint("sub", "S1906M", false),
            stint("vic", "F1906M", true),
        ];
        assert_eq!(credited(&twice, "F1909M"), vec![4, 1, 5, 1, 7]);
        // A stand-in for one turn, then a permanent replacement: Vic did not come back, so he
        // was replaced, not absent, and is pro-rated.
        let gone = [
            stint("vic", "S1901M", true),
            stint("sub", "S1905M", false),
            stint("pat", "F1905M", true),
        ];
        assert_eq!(credited(&gone, "F1909M"), vec![8, 1, 9]);
        // The game ends during a one-turn stand-in (a draw after Fall 1907): the unplayed
        // seasons go to the player active at the end (C.14), and Vic keeps the full points.
        let ended = [stint("vic", "S1901M", true), stint("sub", "F1907M", false)];
        assert_eq!(credited(&ended, "F1907M"), vec![18, 5]);
        assert_eq!(prorate(24.0, 18, 18), 24.0);
    }

    #[test]
    fn maharajiad_a_10_a_23_a_game_without_a_final_year_counts_the_turns_played() {
        // The second round "will be played until a player has met the victory criterion": its
        // "Total number of movement turns in the game" are those played.
        let ph = |s: &str| s.parse::<Phase>().expect("phase");
        assert_eq!(seasons_in_game(1501, None, ph("F1514M")), 28);
        assert_eq!(seasons_in_game(1501, None, ph("F1514R")), 28);
        assert_eq!(seasons_in_game(1501, None, ph("S1514M")), 27);
        // With a final year, the turns to it, however early the end (C.14's example).
        assert_eq!(seasons_in_game(1501, Some(1510), ph("F1507M")), 20);
        let stints = [stint("amy", "S1501M", true), stint("rex", "S1511M", true)];
        assert_eq!(
            credited_seasons(1501, None, &stints, ph("S1514M")),
            vec![20, 7]
        );
    }

    /// A WM game as the contract reads it, 1901-1909: `extra` fields spliced in.
    fn wm_json(end: &str, centres: &str, extra: &str) -> String {
        format!(
            r#"{{"rulebook": "wm2004", "start_year": 1901, "final_year": 1909,
                "ended_after": "F1909M", "end": "{end}", "centres": {{{centres}}}{extra}}}"#
        )
    }

    fn scored(json: &str) -> serde_json::Value {
        let out = contract::score_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"));
        serde_json::from_str(&out).expect("json out")
    }

    fn power_out<'v>(v: &'v serde_json::Value, name: &str) -> &'v serde_json::Value {
        v["powers"]
            .as_array()
            .and_then(|a| a.iter().find(|p| p["power"] == name))
            .unwrap_or_else(|| panic!("{name} in {v}"))
    }

    #[test]
    fn wm_c_14_a_one_turn_stand_in_through_the_contract() {
        // England 10 centres (42 points): eve stood in for by sub in Spring 1905 only keeps
        // 42; France's ben stood in for two turns is pro-rated (14 x 16 / 18).
        let json = wm_json(
            "played",
            r#""AUSTRIA": 8, "ENGLAND": 10, "FRANCE": 6, "GERMANY": 4"#,
            r#", "players": {
                "ENGLAND": [{"name": "eve", "from": "S1901M"},
                            {"name": "sub", "from": "S1905M", "permanent": false},
                            {"name": "eve", "from": "F1905M"}],
                "FRANCE": [{"name": "ben", "from": "S1901M"},
                           {"name": "sub", "from": "S1906M", "permanent": false},
                           {"name": "ben", "from": "S1907M"}]}"#,
        );
        let v = scored(&json);
        let england = &power_out(&v, "ENGLAND")["players"];
        assert_eq!(england[0]["seasons"], 9);
        assert_eq!(england[0]["score"], 42.0 * 9.0 / 18.0);
        assert_eq!(england[1]["seasons"], 1, "the stand-in is pro-rated");
        assert_eq!(england[2]["seasons"], 9);
        let france = &power_out(&v, "FRANCE")["players"];
        let ben: f64 = [&france[0], &france[2]]
            .iter()
            .map(|p| p["score"].as_f64().expect("score"))
            .sum();
        assert!((ben - 14.0 * 16.0 / 18.0).abs() < 1e-3, "{france}");
    }

    #[test]
    fn wm_b_3_an_ended_after_past_the_final_year_is_refused() {
        let json = wm_json("played", r#""FRANCE": 12"#, "").replace("F1909M", "F1911M");
        let err = contract::score_json(&json).expect_err("refused");
        assert!(err.contains("after the final year 1909"), "{err}");
        // A game "played" that stopped before its final year is not played to it.
        let early = wm_json("played", r#""FRANCE": 12"#, "").replace("F1909M", "F1906M");
        let err = contract::score_json(&early).expect_err("refused");
        assert!(
            err.contains("end played means played to the final year"),
            "{err}"
        );
        // And a WM game has a final year.
        let none = wm_json("vote", r#""FRANCE": 12"#, "").replace(r#""final_year": 1909,"#, "");
        let err = contract::score_json(&none).expect_err("refused");
        assert!(err.contains("WM B.3"), "{err}");
    }

    #[test]
    fn maharajiad_a_10_a_final_game_without_a_final_year_is_scored_by_the_turns_played() {
        // The final, won by Delhi's solo after Fall 1514: 28 movement turns; amy held Delhi to
        // the end of 1510 (20 turns), rex after (8).
        let json = r#"{"rulebook": "maharajiad", "start_year": 1501, "ended_after": "F1514M",
            "end": "solo", "winner": "DELHI",
            "centres": {"DELHI": 19, "BAHMANA": 8, "PERSIA": 5},
            "players": {"DELHI": [{"name": "amy", "from": "S1501M"},
                                  {"name": "rex", "from": "S1511M"}]}}"#;
        let v = scored(json);
        assert_eq!(v["seasons"], 28);
        let delhi = &power_out(&v, "DELHI")["players"];
        assert_eq!(delhi[0]["seasons"], 20);
        assert_eq!(delhi[0]["score"], 26.429, "37 x 20 / 28");
        assert_eq!(delhi[1]["seasons"], 8);
        assert_eq!(delhi[1]["score"], 10.571, "37 x 8 / 28");
        // Without a final year the game is never "played" to it.
        let played = json
            .replace(r#""end": "solo", "winner": "DELHI""#, r#""end": "played""#)
            .replace(r#""DELHI": 19"#, r#""DELHI": 12"#);
        let err = contract::score_json(&played).expect_err("refused");
        assert!(err.contains("without a final year"), "{err}");
    }

    #[test]
    fn wm_c_4_a_played_game_where_a_power_holds_18_is_a_solo_and_refused() {
        let json = wm_json("played", r#""FRANCE": 18, "ENGLAND": 8"#, "");
        let err = contract::score_json(&json).expect_err("refused");
        assert!(
            err.contains("FRANCE holds 18 of the 34 centres: that is a solo (WM C.4)"),
            "{err}"
        );
        let vote = wm_json("vote", r#""FRANCE": 18, "ENGLAND": 8"#, "");
        assert!(contract::score_json(&vote).is_err(), "a vote too");
        // A solo below the majority is not one.
        let short = wm_json("solo", r#""FRANCE": 15"#, r#", "winner": "FRANCE""#);
        let err = contract::score_json(&short).expect_err("refused");
        assert!(err.contains("conceded_solo"), "{err}");
        // Nor do the centres exceed the board.
        let many = wm_json("played", r#""FRANCE": 17, "ENGLAND": 17, "ITALY": 1"#, "");
        let err = contract::score_json(&many).expect_err("refused");
        assert!(err.contains("more than the 34"), "{err}");
    }

    #[test]
    fn maharajiad_a_16_a_played_game_where_a_power_holds_19_is_a_solo_and_refused() {
        let json = r#"{"rulebook": "maharajiad", "start_year": 1501, "final_year": 1510,
            "ended_after": "F1510M", "end": "played", "centres": {"DELHI": 19, "PERSIA": 9}}"#;
        let err = contract::score_json(json).expect_err("refused");
        assert!(err.contains("DELHI holds 19 of the 37 centres"), "{err}");
        // 18 of 37 is no majority: scored as played.
        let v = scored(&json.replace(r#""DELHI": 19"#, r#""DELHI": 18"#));
        assert_eq!(power_out(&v, "DELHI")["score"], 18.0);
    }

    #[test]
    fn wm_d_ix_4_a_draw_leaving_out_a_survivor_scores_it_as_eliminated() {
        // A draw of France and England after 1906; Italy (5) is left out: "presumes the
        // elimination of the players not included", and "SC counts may not be changed by
        // vote": France 9 and England 8 keep their counts, first and second; Italy scores 0.
        let json = wm_json(
            "vote",
            r#""FRANCE": 9, "ENGLAND": 8, "ITALY": 5"#,
            r#", "draw": ["FRANCE", "ENGLAND"]"#,
        )
        .replace("F1909M", "F1906M");
        let v = scored(&json);
        assert_eq!(power_out(&v, "FRANCE")["score"], 41.0);
        assert_eq!(power_out(&v, "ENGLAND")["score"], 24.0);
        assert_eq!(power_out(&v, "ITALY")["score"], 0.0);
        assert_eq!(power_out(&v, "ITALY")["centres"], 0);
        // Without `draw`, every survivor is in it.
        let all = scored(&json.replace(r#", "draw": ["FRANCE", "ENGLAND"]"#, ""));
        assert_eq!(power_out(&all, "ITALY")["score"], 13.0);
        // A draw names survivors only, and only a vote has one.
        let dead = json.replace(r#"["FRANCE", "ENGLAND"]"#, r#"["FRANCE", "TURKEY"]"#);
        let err = contract::score_json(&dead).expect_err("refused");
        assert!(err.contains("TURKEY, which holds no centre"), "{err}");
        let played = wm_json("played", r#""FRANCE": 9"#, r#", "draw": ["FRANCE"]"#);
        assert!(contract::score_json(&played).is_err());
    }

    #[test]
    fn maharajiad_b_x_1_a_stalemate_ends_the_game_with_its_counts() {
        // No centre changed hands in 1505-1507: the game concluded after Fall 1507; the counts
        // stand, carried to 1510 for the count-back; the seasons unplayed are credited as
        // after any early end.
        let json = r#"{"rulebook": "maharajiad", "start_year": 1501, "final_year": 1510,
            "ended_after": "F1507M", "end": "stalemate",
            "centres": {"DELHI": 12, "PERSIA": 12, "BAHMANA": 5},
            "history": {"1506": {"DELHI": 11, "PERSIA": 12, "BAHMANA": 6},
                        "1507": {"DELHI": 12, "PERSIA": 12, "BAHMANA": 5}}}"#;
        let v = scored(json);
        assert_eq!(v["seasons"], 20);
        // Level in 1510 to 1507 (carried, then played); Persia led at the end of 1506.
        assert_eq!(v["powers"][0]["power"], "PERSIA");
        assert_eq!(v["powers"][0]["decided_by"], "count-back 1506");
        assert_eq!(power_out(&v, "PERSIA")["score"], 12.0);
        assert_eq!(power_out(&v, "DELHI")["players"][0]["seasons"], 20);
        // WM has no such ending.
        let wm = json
            .replace("maharajiad", "wm2004")
            .replace("1501", "1901")
            .replace("1510", "1909")
            .replace("F1507M", "F1907M")
            .replace("DELHI", "FRANCE")
            .replace("PERSIA", "ITALY")
            .replace("BAHMANA", "TURKEY")
            .replace("1506", "1906")
            .replace("1507", "1907");
        let err = contract::score_json(&wm).expect_err("refused");
        assert!(err.contains("Maharajiad B.X(1)"), "{err}");
    }

    #[test]
    fn wm_b_7_a_temporary_replacement_in_a_single_game_and_stints_in_order() {
        // The one-game contract says who stood in temporarily (WM B.7): Fred's two turns are
        // pro-rated either way, and the players must be listed in order.
        let json = wm_json(
            "played",
            r#""FRANCE": 10"#,
            r#", "players": {"FRANCE": [{"name": "wendy", "from": "S1901M"},
                {"name": "fred", "from": "S1903M", "permanent": false},
                {"name": "wendy", "from": "S1904M"}]}"#,
        );
        let v = scored(&json);
        let france = &power_out(&v, "FRANCE")["players"];
        assert_eq!(france[1]["seasons"], 2);
        assert_eq!(france[0]["seasons"].as_u64(), Some(4));
        let unordered = json.replace(r#""from": "S1904M""#, r#""from": "S1902M""#);
        let err = contract::score_json(&unordered).expect_err("refused");
        assert!(err.contains("list the players in order"), "{err}");
        let late = json.replace(r#""from": "S1904M""#, r#""from": "S1910M""#);
        assert!(contract::score_json(&late).is_err(), "after the end");
    }
}

/// The `chancery score` contract (docs/score.md): one finished game in, each power's and each
/// player's score out, ranked, with what decided each place. The game's facts are read and
/// checked here for both contracts (one game, and each game of a round in
/// [`crate::standings::contract`]).
pub mod contract {
    use super::*;
    use crate::map::Map;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    /// How the game ended, as the contract says it.
    #[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub enum EndIn {
        /// Played to its final year.
        Played,
        /// Maharajiad B.X(1): three game years without a centre changing owner.
        Stalemate,
        Solo,
        ConcededSolo,
        /// Any other result accepted by vote (a draw).
        Vote,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct GameIn {
        pub rulebook: Rulebook,
        /// Absent: the rulebook's (standard for wm2004, maharajah for the Maharajiad).
        #[serde(default)]
        pub variant: Option<String>,
        pub start_year: u16,
        /// Absent or null: a game without a final year (Maharajiad A.10's second round).
        #[serde(default)]
        pub final_year: Option<u16>,
        /// The last phase played (`F1908M`).
        pub ended_after: String,
        pub end: EndIn,
        /// The power that won alone (`solo`, `conceded_solo`).
        #[serde(default)]
        pub winner: Option<String>,
        /// The powers an accepted draw includes (`vote`); absent: every survivor. Survivors
        /// left out are presumed eliminated (WM D.IX(4)).
        #[serde(default)]
        pub draw: Option<Vec<String>>,
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
        /// False for a temporary replacement (WM B.7, Maharajiad A.12).
        #[serde(default = "yes")]
        pub permanent: bool,
    }

    fn yes() -> bool {
        true
    }

    /// One game's facts as either contract gives them (the round's boards add their round and
    /// number).
    pub struct GameFields<'a> {
        pub start_year: u16,
        pub final_year: Option<u16>,
        pub ended_after: &'a str,
        pub end: EndIn,
        pub winner: Option<&'a str>,
        pub draw: Option<&'a [String]>,
        pub centres: &'a BTreeMap<String, u32>,
        pub history: &'a BTreeMap<u16, BTreeMap<String, u32>>,
        pub players: &'a BTreeMap<String, Vec<StintIn>>,
    }

    /// One game's facts read against the map and checked ([`check`]).
    pub struct Game {
        pub start_year: u16,
        pub final_year: Option<u16>,
        pub ended_after: Phase,
        pub end: End,
        pub centres: Vec<(Power, u32)>,
        pub history: Vec<(u16, Vec<(Power, u32)>)>,
        /// The powers whose players were given, each with its stints in order.
        pub positions: Vec<(Power, Vec<Stint>)>,
    }

    fn phase(s: &str) -> Result<Phase, String> {
        s.parse::<Phase>().map_err(|e| e.to_string())
    }

    fn power(map: &Map, name: &str) -> Result<Power, String> {
        map.power_by_name(name)
            .ok_or_else(|| format!("unknown power '{name}'"))
    }

    /// The map a rulebook's game is on: `variant`, or the rulebook's own.
    pub fn map_of(rulebook: Rulebook, variant: Option<&str>) -> Result<&'static Map, String> {
        let variant = variant.unwrap_or(rulebook.variant());
        Map::variant(variant).ok_or_else(|| format!("unknown variant '{variant}'"))
    }

    /// How the game ended, typed: the winner named for a solo, and only then; a draw's powers
    /// (WM D.IX(4)) only for a vote, every one of them a survivor.
    fn end_of(map: &Map, g: &GameFields<'_>, centres: &[(Power, u32)]) -> Result<End, String> {
        let winner = g.winner.map(|w| power(map, w)).transpose()?;
        if g.draw.is_some() && g.end != EndIn::Vote {
            return Err("draw names the powers of a draw accepted by vote: the end is vote".into());
        }
        let holds = |p: Power| centres.iter().find(|x| x.0 == p).map_or(0, |x| x.1);
        match (g.end, winner) {
            (EndIn::Solo, Some(w)) => Ok(End::Solo(w)),
            (EndIn::ConcededSolo, Some(w)) => Ok(End::ConcededSolo(w)),
            (EndIn::Solo | EndIn::ConcededSolo, None) => Err("a solo needs its winner".into()),
            (e, Some(w)) => Err(format!(
                "winner {} is for a solo, but the end is {}",
                map.power_name(w),
                match e {
                    EndIn::Played => "played",
                    EndIn::Stalemate => "stalemate",
                    _ => "vote",
                }
            )),
            (EndIn::Played, None) => Ok(End::Played),
            (EndIn::Stalemate, None) => Ok(End::Stalemate),
            (EndIn::Vote, None) => {
                let mut included = Vec::new();
                for name in g.draw.unwrap_or_default() {
                    let p = power(map, name)?;
                    if holds(p) == 0 {
                        return Err(format!(
                            "the draw includes {name}, which holds no centre: a draw is among \
                             survivors (WM D.IX(4))"
                        ));
                    }
                    included.push(p);
                }
                if g.draw.is_some_and(|d| d.is_empty()) {
                    return Err("a draw includes at least one power".into());
                }
                let excluded = match g.draw {
                    None => Vec::new(),
                    Some(_) => centres
                        .iter()
                        .filter(|(p, c)| *c > 0 && !included.contains(p))
                        .map(|(p, _)| *p)
                        .collect(),
                };
                Ok(End::Vote { excluded })
            }
        }
    }

    /// Reads one game's facts against `map` and checks them against each other and the
    /// rulebook ([`check`]); a contradiction is refused, never scored.
    pub fn read_game(rulebook: Rulebook, map: &Map, g: &GameFields<'_>) -> Result<Game, String> {
        if rulebook == Rulebook::Wm2004 && g.final_year.is_none() {
            return Err("a WM game has a final year (WM B.3: 1909, 1912, 1915)".into());
        }
        let mut centres = Vec::new();
        for (name, c) in g.centres {
            centres.push((power(map, name)?, *c));
        }
        let mut history = Vec::new();
        for (year, row) in g.history {
            let mut counts = Vec::new();
            for (name, c) in row {
                counts.push((power(map, name)?, *c));
            }
            history.push((*year, counts));
        }
        let mut positions = Vec::new();
        for (name, list) in g.players {
            let mut stints = Vec::new();
            for s in list {
                stints.push(Stint {
                    player: s.name.clone(),
                    from: phase(&s.from)?,
                    permanent: s.permanent,
                });
            }
            positions.push((power(map, name)?, stints));
        }
        let game = Game {
            start_year: g.start_year,
            final_year: g.final_year,
            ended_after: phase(g.ended_after)?,
            end: end_of(map, g, &centres)?,
            centres,
            history,
            positions,
        };
        check(
            rulebook,
            map,
            &Facts {
                start_year: game.start_year,
                final_year: game.final_year,
                ended_after: game.ended_after,
                end: &game.end,
                centres: &game.centres,
                history: &game.history,
                positions: &game.positions,
            },
        )?;
        Ok(game)
    }

    #[derive(Serialize, Debug)]
    pub struct GameOut {
        pub rulebook: Rulebook,
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

    pub fn score(g: &GameIn) -> Result<GameOut, String> {
        let map = map_of(g.rulebook, g.variant.as_deref())?;
        let game = read_game(
            g.rulebook,
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
        )?;
        let scores = scores(g.rulebook, &game.centres, &game.end);
        // The years to the final year, for the count-back (WM C.5, Maharajiad A.18, B.X(1)).
        let history = years_scored(
            g.rulebook,
            &game.history,
            game.final_year,
            game.ended_after,
            &game.end,
        );
        let last_year = game.final_year.unwrap_or(game.ended_after.year);
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
                .then_with(|| count_back(&of(b.power), &of(a.power), last_year))
        });
        let seasons = seasons_in_game(game.start_year, game.final_year, game.ended_after);
        let first = Phase::new(Season::Spring, game.start_year, PhaseKind::Movement);
        let mut powers = Vec::new();
        for (i, s) in ranked.iter().enumerate() {
            let name = map.power_name(s.power).to_string();
            // What separates this place from the next one down.
            let decided_by = match ranked.get(i + 1) {
                None => "score".to_string(),
                Some(next) if next.score != s.score => "score".to_string(),
                Some(next) => {
                    let (a, b) = (of(s.power), of(next.power));
                    let first = a.iter().map(|x| x.0).min().unwrap_or(last_year);
                    (first..=last_year)
                        .rev()
                        .find(|y| {
                            let at =
                                |h: &[(u16, u32)]| h.iter().find(|x| x.0 == *y).map_or(0, |x| x.1);
                            at(&a) != at(&b)
                        })
                        .map_or("tied".to_string(), |y| format!("count-back {y}"))
                }
            };
            let stints: Vec<Stint> = match game.positions.iter().find(|x| x.0 == s.power) {
                Some((_, list)) => list.clone(),
                None => vec![Stint {
                    player: name.clone(),
                    from: first,
                    permanent: true,
                }],
            };
            let credited =
                credited_seasons(game.start_year, game.final_year, &stints, game.ended_after);
            let players = stints
                .iter()
                .zip(credited)
                .map(|(st, n)| PlayerOut {
                    name: st.player.clone(),
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
            rulebook: g.rulebook,
            seasons,
            powers,
        })
    }
}
