//! ACWC Final: "A 12-game match between arimakat and the Candidates winner will be played. To
//! win the match, the leading player must be ahead by two points. If neither player achieves
//! this, the match gets extended by two games. If, after 24 games, there is still no winner
//! decided, the 'must be ahead by two points' restriction gets dropped. If the score is equal
//! still, extensions proceed but with 2+0 as time control instead of 2+5, until the tie is
//! broken (after an even number of games). If there is still no winner after 30 games total,
//! an Armageddon game will be played": the match as a state machine over its games, the
//! Armageddon's sealed bids, and who the finalists are (ACWC Disqualification and withdrawals,
//! "Finals").
//!
//! Decisions where the rules are silent, each documented where it is made:
//! - the match is judged at the end of each block: after game 12, 14, ..., 22 the leader must
//!   be two points ahead; after game 24 the two-point rule is gone and any lead wins ("If the
//!   score is equal still" is the only case that goes on); after 26, 28 and 30 any lead wins;
//!   the score is never judged after an odd number of games;
//! - by default ([`EarlyEnd::AsSoonAsCertain`]) the match ends as soon as no result of the
//!   block's remaining games can change the verdict at the block's end (8-2 after ten games:
//!   the last two cannot bring the lead under two), as the Swiss's stop at 5.5 ends a match
//!   its remaining games cannot change; nothing in the Final needs the exact score. Only the
//!   first twelve games and game 23 (two ahead, and any lead wins after 24) can end so. A TD
//!   who reads the rule as "play the block out" sets [`EarlyEnd::AtBlockEnd`];
//! - games 1 to 24 are at 2+5, games 25 to 30 at 2+0 (ACWC Format: "All games [...] have 2+5",
//!   and the Final's 2+0 for the extensions after 24);
//! - the Armageddon (the Atomic World Championship's): each finalist sends a sealed bid, a
//!   whole number of seconds on White's clock, 1 to 180 (White bids time away for the move;
//!   Black's 3 minutes, with draw odds, are the most an offer can sensibly give White, and a
//!   cap keeps "the lowest offer" meaningful); a sealed bid cannot be changed or withdrawn (a
//!   sealed envelope, once posted, is final: no argument over which of two mails counted);
//!   the bids are revealed together, only once both are in; the lower bid plays White with that many seconds, Black has 180,
//!   no increment; equal bids: the higher seed plays White, the higher seed being the higher
//!   seeding rating, and on equal ratings the first-named finalist (the title holder);
//! - the Armageddon is game 31: [`FinalState::Won::after_games`] counts it;
//! - a game result is always the first-named finalist's (as in every ACWC match); in the
//!   Armageddon a draw is Black's win ("if draw, black wins");
//! - the finalists: the holder and the Challenger; a finalist who is out is replaced by the next
//!   remaining Candidate in the Candidates' final order: the holder out, the Challenger plays the
//!   runner-up; the Challenger out, the runner-up is the new Challenger; both out, the
//!   runner-up and the third (each rule applied in turn). Withdrawal during the Final is not
//!   modelled here (the TD's call).

use crate::Player;
use crate::matches::{GameResult, MatchScore, Side};
use serde::{Deserialize, Serialize};
use std::fmt;

/// ACWC Final: "A 12-game match".
pub const REGULAR_GAMES: u16 = 12;
/// ACWC Final: "the leading player must be ahead by two points".
pub const LEAD_TO_WIN: u16 = 2;
/// ACWC Final: "after 24 games [...] the 'must be ahead by two points' restriction gets
/// dropped", and the 2+0 control begins.
pub const TWO_POINT_RULE_UNTIL: u16 = 24;
/// ACWC Final: "If there is still no winner after 30 games total, an Armageddon game".
pub const LAST_GAME: u16 = 30;
/// ACWC Final: "Black gets 3 minutes on the clock", in seconds; also the highest bid (decided).
pub const ARMAGEDDON_BLACK_SECONDS: u16 = 180;
/// Decided: the lowest bid, in seconds.
pub const MIN_BID_SECONDS: u16 = 1;

/// ACWC Format, Final: a game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TimeControl {
    /// 2+5: "All games are rated and have 2+5 as time control" (games 1 to 24).
    Blitz2Plus5,
    /// 2+0: "extensions proceed but with 2+0 as time control" (games 25 to 30).
    Blitz2Plus0,
}

impl TimeControl {
    /// ACWC Final: the control of game `number` (1-based).
    pub fn of_game(number: u16) -> TimeControl {
        if number <= TWO_POINT_RULE_UNTIL {
            TimeControl::Blitz2Plus5
        } else {
            TimeControl::Blitz2Plus0
        }
    }
}

/// ACWC Final, decided: when a block's verdict is taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EarlyEnd {
    /// As soon as the block's remaining games cannot change it.
    #[default]
    AsSoonAsCertain,
    /// Only once the block is played out.
    AtBlockEnd,
}

/// ACWC Final: a finalist and their seeding rating (doubled), which decides the higher seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finalist {
    pub player: Player,
    pub seeding_x2: u32,
}

/// ACWC Final: the verdict after a number of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    Continue,
    Won(Side),
    Armageddon,
}

/// ACWC Final: the verdict after `games` games with the first-named finalist's lead `lead`
/// (wins minus losses: game points always differ by a whole number).
pub fn verdict(games: u16, lead: i32, early: EarlyEnd) -> Verdict {
    // The block's end: 12, then every even number.
    let end = if games < REGULAR_GAMES {
        REGULAR_GAMES
    } else {
        games + games % 2
    };
    let need = if end < TWO_POINT_RULE_UNTIL {
        LEAD_TO_WIN
    } else {
        1
    };
    let room = match early {
        EarlyEnd::AsSoonAsCertain => end - games,
        EarlyEnd::AtBlockEnd if end == games => 0,
        EarlyEnd::AtBlockEnd => return Verdict::Continue,
    };
    if lead.unsigned_abs() >= u32::from(need) + u32::from(room) {
        Verdict::Won(if lead > 0 { Side::First } else { Side::Second })
    } else if games >= LAST_GAME && lead == 0 {
        Verdict::Armageddon
    } else {
        Verdict::Continue
    }
}

/// ACWC Final: a block reported by its score (first-named's half points, then the other's) as
/// games the state machine plays: the wins of each, and a draw for an odd half each. With
/// [`EarlyEnd::AtBlockEnd`] the match is judged only at a block's end, where only the totals
/// count, so the order of the games does not matter.
pub fn block_games(first_halves: u16, second_halves: u16) -> Vec<GameResult> {
    let wins = usize::from(first_halves / 2);
    let losses = usize::from(second_halves / 2);
    let draws = usize::from(first_halves % 2);
    std::iter::repeat_n(GameResult::Win, wins)
        .chain(std::iter::repeat_n(GameResult::Loss, losses))
        .chain(std::iter::repeat_n(GameResult::Draw, draws))
        .collect()
}

/// ACWC Final: the Armageddon game, once the bids are revealed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmageddonGame {
    pub white: Player,
    pub black: Player,
    /// White's clock: the winning (lower) bid. No increment.
    pub white_seconds: u16,
    /// "Black gets 3 minutes on the clock".
    pub black_seconds: u16,
    /// The two bids, the first-named finalist's first.
    pub bids: (u16, u16),
    /// "In case of identical offers, the higher seed plays White."
    pub by_seed: bool,
}

/// ACWC Final: where the Armageddon stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArmageddonState {
    /// Sealed bids awaited: who has not bid yet (empty: both in, to reveal).
    Bidding { waiting_for: Vec<Player> },
    /// The bids are revealed; the game is to be played.
    Revealed(ArmageddonGame),
}

/// ACWC Final: where the match stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FinalState {
    NextGame {
        number: u16,
        control: TimeControl,
    },
    Armageddon(ArmageddonState),
    /// `after_games` counts the Armageddon as game 31.
    Won {
        winner: Player,
        after_games: u16,
    },
}

/// After a sealed bid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BidState {
    Waiting { for_player: Player },
    BothIn,
}

/// Why a bid is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BidRefused {
    NotAFinalist(Player),
    /// Decided: a sealed bid cannot be changed.
    AlreadyBid(Player),
    /// Decided: 1 to 180 seconds.
    OutOfRange {
        seconds: u16,
    },
    /// ACWC Final: only "If there is still no winner after 30 games total".
    NotAtArmageddon,
}

/// Why the bids cannot be revealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RevealRefused {
    NotAtArmageddon,
    /// Revealed together: not before both are in.
    Waiting {
        for_players: Vec<Player>,
    },
    AlreadyRevealed,
}

/// Why a game cannot be added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayRefused {
    /// The match has a winner.
    Won(Player),
    /// The Armageddon's colours are not known yet.
    BidsNotRevealed,
}

impl fmt::Display for BidRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BidRefused::NotAFinalist(p) => write!(f, "{p} is not in the Final"),
            BidRefused::AlreadyBid(p) => {
                write!(f, "{p} has bid already: a sealed bid cannot be changed")
            }
            BidRefused::OutOfRange { seconds } => write!(
                f,
                "{seconds} seconds is not a bid: White's time is 1 to 180 seconds (ACWC Final)"
            ),
            BidRefused::NotAtArmageddon => {
                f.write_str("there is no Armageddon to bid for (ACWC Final)")
            }
        }
    }
}

impl fmt::Display for RevealRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RevealRefused::NotAtArmageddon => {
                f.write_str("there is no Armageddon to reveal bids for (ACWC Final)")
            }
            RevealRefused::Waiting { for_players } => {
                let names: Vec<&str> = for_players.iter().map(Player::as_str).collect();
                write!(
                    f,
                    "the bids are revealed together, once {} has bid",
                    names.join(" and ")
                )
            }
            RevealRefused::AlreadyRevealed => f.write_str("the bids are revealed already"),
        }
    }
}

impl fmt::Display for PlayRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayRefused::Won(p) => write!(f, "the Final is over: {p} won it"),
            PlayRefused::BidsNotRevealed => {
                f.write_str("the Armageddon's bids are not revealed yet: no colours (ACWC Final)")
            }
        }
    }
}

impl std::error::Error for BidRefused {}
impl std::error::Error for RevealRefused {}
impl std::error::Error for PlayRefused {}

/// Why a Final cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FinalistsError {
    /// ACWC Final: two players.
    SamePlayer(Player),
    /// ACWC Disqualification and withdrawals: fewer than two finalists remain.
    TooFewRemaining,
}

impl fmt::Display for FinalistsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FinalistsError::SamePlayer(p) => {
                write!(f, "{p} cannot play the Final against themself")
            }
            FinalistsError::TooFewRemaining => f.write_str(
                "fewer than two finalists remain (ACWC Disqualification and withdrawals)",
            ),
        }
    }
}

impl std::error::Error for FinalistsError {}

/// ACWC Final: the two finalists, the first-named first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finalists {
    /// The title holder (arimakat in 2019), or the Challenger when the holder is out.
    pub first: Player,
    /// The Challenger, or the Candidates runner-up when the holder is out.
    pub second: Player,
}

/// ACWC Disqualification and withdrawals, Finals: "If arimakat withdraws or gets disqualified,
/// the Challenger plays the Candidates runner-up in the Final. If the Challenger withdraws or
/// gets disqualified, the Candidates runner-up becomes the new Challenger." `candidates` is the
/// Candidates' final order (the Challenger, the runner-up, ...); `out` those who withdrew or
/// were disqualified. The next remaining Candidate fills each place.
pub fn finalists(
    holder: &Player,
    candidates: &[Player],
    out: &[Player],
) -> Result<Finalists, FinalistsError> {
    let mut remaining = candidates
        .iter()
        .filter(|p| !out.contains(p) && *p != holder);
    let challenger = remaining.next().ok_or(FinalistsError::TooFewRemaining)?;
    let second = if out.contains(holder) {
        let opponent = remaining.next().ok_or(FinalistsError::TooFewRemaining)?;
        return Ok(Finalists {
            first: challenger.clone(),
            second: opponent.clone(),
        });
    } else {
        challenger
    };
    Ok(Finalists {
        first: holder.clone(),
        second: second.clone(),
    })
}

/// ACWC Final: the match, game by game, then its Armageddon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Final {
    first: Finalist,
    second: Finalist,
    early: EarlyEnd,
    games: Vec<GameResult>,
    /// The first-named's wins minus losses.
    lead: i32,
    /// Sealed: the first-named's, the second-named's.
    bids: (Option<u16>, Option<u16>),
    armageddon: Option<ArmageddonGame>,
    winner: Option<(Side, u16)>,
}

impl Final {
    /// ACWC Final: a match between `first` (the holder, see [`finalists`]) and `second`.
    pub fn new(
        first: Finalist,
        second: Finalist,
        early: EarlyEnd,
    ) -> Result<Final, FinalistsError> {
        if first.player == second.player {
            return Err(FinalistsError::SamePlayer(first.player));
        }
        Ok(Final {
            first,
            second,
            early,
            games: Vec::new(),
            lead: 0,
            bids: (None, None),
            armageddon: None,
            winner: None,
        })
    }

    pub fn first(&self) -> &Finalist {
        &self.first
    }

    pub fn second(&self) -> &Finalist {
        &self.second
    }

    /// The games played (the Armageddon is not among them).
    pub fn games(&self) -> &[GameResult] {
        &self.games
    }

    /// The game points of the games played, first-named first.
    pub fn score(&self) -> MatchScore {
        MatchScore::from_games(&self.games)
    }

    fn player(&self, side: Side) -> &Player {
        match side {
            Side::First => &self.first.player,
            Side::Second => &self.second.player,
        }
    }

    fn games_played(&self) -> u16 {
        u16::try_from(self.games.len()).unwrap_or(u16::MAX)
    }

    /// ACWC Final: "In case of identical offers, the higher seed plays White": the higher
    /// seeding rating, the first-named on equal ratings (decided).
    pub fn higher_seed(&self) -> Side {
        if self.second.seeding_x2 > self.first.seeding_x2 {
            Side::Second
        } else {
            Side::First
        }
    }

    /// ACWC Final: where the match stands.
    pub fn state(&self) -> FinalState {
        if let Some((side, after_games)) = self.winner {
            return FinalState::Won {
                winner: self.player(side).clone(),
                after_games,
            };
        }
        let n = self.games_played();
        match verdict(n, self.lead, self.early) {
            // A won verdict is recorded in `winner` when the game is played.
            Verdict::Continue | Verdict::Won(_) => FinalState::NextGame {
                number: n + 1,
                control: TimeControl::of_game(n + 1),
            },
            Verdict::Armageddon => FinalState::Armageddon(match &self.armageddon {
                Some(g) => ArmageddonState::Revealed(g.clone()),
                None => ArmageddonState::Bidding {
                    waiting_for: self.waiting_for(),
                },
            }),
        }
    }

    fn waiting_for(&self) -> Vec<Player> {
        let mut w = Vec::new();
        if self.bids.0.is_none() {
            w.push(self.first.player.clone());
        }
        if self.bids.1.is_none() {
            w.push(self.second.player.clone());
        }
        w
    }

    fn at_armageddon(&self) -> bool {
        self.winner.is_none()
            && verdict(self.games_played(), self.lead, self.early) == Verdict::Armageddon
    }

    /// ACWC Final: the next game's result, the first-named's; in the Armageddon a draw is
    /// Black's win.
    pub fn play(&mut self, result: GameResult) -> Result<FinalState, PlayRefused> {
        if let Some((side, _)) = self.winner {
            return Err(PlayRefused::Won(self.player(side).clone()));
        }
        if self.at_armageddon() {
            let Some(g) = &self.armageddon else {
                return Err(PlayRefused::BidsNotRevealed);
            };
            let white = if g.white == self.first.player {
                Side::First
            } else {
                Side::Second
            };
            let white_won = match result {
                GameResult::Win => white == Side::First,
                GameResult::Loss => white == Side::Second,
                GameResult::Draw => false,
            };
            let winner = if white_won { white } else { white.other() };
            self.winner = Some((winner, LAST_GAME + 1));
            return Ok(self.state());
        }
        self.games.push(result);
        self.lead += match result {
            GameResult::Win => 1,
            GameResult::Draw => 0,
            GameResult::Loss => -1,
        };
        if let Verdict::Won(side) = verdict(self.games_played(), self.lead, self.early) {
            self.winner = Some((side, self.games_played()));
        }
        Ok(self.state())
    }

    /// ACWC Final: a finalist's sealed bid, seconds on White's clock.
    pub fn bid(&mut self, player: &Player, seconds: u16) -> Result<BidState, BidRefused> {
        let side = if player == &self.first.player {
            Side::First
        } else if player == &self.second.player {
            Side::Second
        } else {
            return Err(BidRefused::NotAFinalist(player.clone()));
        };
        if !self.at_armageddon() {
            return Err(BidRefused::NotAtArmageddon);
        }
        let slot = match side {
            Side::First => &mut self.bids.0,
            Side::Second => &mut self.bids.1,
        };
        if slot.is_some() {
            return Err(BidRefused::AlreadyBid(player.clone()));
        }
        if !(MIN_BID_SECONDS..=ARMAGEDDON_BLACK_SECONDS).contains(&seconds) {
            return Err(BidRefused::OutOfRange { seconds });
        }
        *slot = Some(seconds);
        Ok(match self.waiting_for().into_iter().next() {
            Some(p) => BidState::Waiting { for_player: p },
            None => BidState::BothIn,
        })
    }

    /// ACWC Final: both bids revealed together; "The lowest offer plays White. In case of
    /// identical offers, the higher seed plays White."
    pub fn reveal(&mut self) -> Result<ArmageddonGame, RevealRefused> {
        if !self.at_armageddon() {
            return Err(RevealRefused::NotAtArmageddon);
        }
        if self.armageddon.is_some() {
            return Err(RevealRefused::AlreadyRevealed);
        }
        let (Some(a), Some(b)) = self.bids else {
            return Err(RevealRefused::Waiting {
                for_players: self.waiting_for(),
            });
        };
        let white = match a.cmp(&b) {
            std::cmp::Ordering::Less => Side::First,
            std::cmp::Ordering::Greater => Side::Second,
            std::cmp::Ordering::Equal => self.higher_seed(),
        };
        let black = white.other();
        let g = ArmageddonGame {
            white: self.player(white).clone(),
            black: self.player(black).clone(),
            white_seconds: a.min(b),
            black_seconds: ARMAGEDDON_BLACK_SECONDS,
            bids: (a, b),
            by_seed: a == b,
        };
        self.armageddon = Some(g.clone());
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{Draw, Loss, Win};

    fn p(s: &str) -> Player {
        Player::new(s)
    }

    fn final_(early: EarlyEnd, seeds: (u32, u32)) -> Final {
        Final::new(
            Finalist {
                player: p("arimakat"),
                seeding_x2: seeds.0,
            },
            Finalist {
                player: p("Challenger"),
                seeding_x2: seeds.1,
            },
            early,
        )
        .unwrap()
    }

    fn play_all(f: &mut Final, games: &[GameResult]) -> FinalState {
        let mut last = f.state();
        for &g in games {
            last = f.play(g).unwrap();
        }
        last
    }

    fn next(number: u16) -> FinalState {
        FinalState::NextGame {
            number,
            control: TimeControl::of_game(number),
        }
    }

    fn won(name: &str, after_games: u16) -> FinalState {
        FinalState::Won {
            winner: p(name),
            after_games,
        }
    }

    /// 30 games, level: alternate a win each.
    fn level_thirty(f: &mut Final) {
        for _ in 0..15 {
            f.play(Win).unwrap();
            f.play(Loss).unwrap();
        }
    }

    #[test]
    fn acwc_final_twelve_games_at_2_plus_5_two_points_ahead_wins() {
        let mut f = final_(EarlyEnd::AtBlockEnd, (0, 0));
        assert_eq!(f.state(), next(1));
        assert_eq!(TimeControl::of_game(1), TimeControl::Blitz2Plus5);
        // 7-5: W W then ten draws.
        let mut games = vec![Win, Win];
        games.extend([Draw; 10]);
        assert_eq!(play_all(&mut f, &games[..11]), next(12));
        assert_eq!(f.play(Draw), Ok(won("arimakat", 12)));
        assert_eq!(f.play(Draw), Err(PlayRefused::Won(p("arimakat"))));
        assert_eq!(
            f.score(),
            MatchScore {
                first: 14,
                second: 10
            }
        );
    }

    #[test]
    fn acwc_final_one_point_ahead_extends_by_two_games() {
        let mut f = final_(EarlyEnd::AtBlockEnd, (0, 0));
        let mut games = vec![Loss];
        games.extend([Draw; 11]);
        assert_eq!(play_all(&mut f, &games), next(13));
        assert_eq!(
            f.play(Loss),
            Ok(next(14)),
            "two ahead after 13: judged at 14"
        );
        assert_eq!(f.play(Draw), Ok(won("Challenger", 14)));
    }

    #[test]
    fn acwc_final_as_soon_as_certain_the_twelve_games_may_end_early() {
        // Four ahead after ten: the last two cannot bring the lead under two.
        let mut games = vec![Win; 4];
        games.extend([Draw; 6]);
        let mut f = final_(EarlyEnd::AsSoonAsCertain, (0, 0));
        assert_eq!(play_all(&mut f, &games), won("arimakat", 10));
        let mut f = final_(EarlyEnd::AtBlockEnd, (0, 0));
        assert_eq!(play_all(&mut f, &games), next(11));
        // Seven straight wins: 7 - 5 remaining = 2.
        let mut f = final_(EarlyEnd::AsSoonAsCertain, (0, 0));
        assert_eq!(play_all(&mut f, &[Loss; 6]), next(7));
        assert_eq!(f.play(Loss), Ok(won("Challenger", 7)));
    }

    #[test]
    fn acwc_final_after_24_any_lead_wins() {
        let mut f = final_(EarlyEnd::AtBlockEnd, (0, 0));
        play_all(&mut f, &[Draw; 23]);
        assert_eq!(f.state(), next(24));
        assert_eq!(f.play(Win), Ok(won("arimakat", 24)), "one ahead after 24");
        // As soon as certain: two ahead after 23 wins at 24 whatever happens.
        let mut f = final_(EarlyEnd::AsSoonAsCertain, (0, 0));
        play_all(&mut f, &[Draw; 21]);
        assert_eq!(f.play(Loss), Ok(next(23)), "one ahead after 22: not two");
        assert_eq!(f.play(Loss), Ok(won("Challenger", 23)));
    }

    #[test]
    fn acwc_final_level_after_24_extensions_at_2_plus_0_judged_after_even_games() {
        let mut f = final_(EarlyEnd::AtBlockEnd, (0, 0));
        play_all(&mut f, &[Draw; 24]);
        assert_eq!(
            f.state(),
            FinalState::NextGame {
                number: 25,
                control: TimeControl::Blitz2Plus0
            }
        );
        assert_eq!(
            f.play(Win),
            Ok(next(26)),
            "never judged after an odd number"
        );
        assert_eq!(f.play(Loss), Ok(next(27)));
        assert_eq!(f.play(Draw), Ok(next(28)));
        assert_eq!(f.play(Loss), Ok(won("Challenger", 28)));
    }

    #[test]
    fn acwc_final_level_after_30_an_armageddon() {
        let mut f = final_(EarlyEnd::AsSoonAsCertain, (0, 0));
        level_thirty(&mut f);
        assert_eq!(
            f.state(),
            FinalState::Armageddon(ArmageddonState::Bidding {
                waiting_for: vec![p("arimakat"), p("Challenger")]
            })
        );
        assert_eq!(f.play(Win), Err(PlayRefused::BidsNotRevealed));
    }

    #[test]
    fn acwc_final_armageddon_the_lower_bid_plays_white_and_a_draw_is_blacks() {
        let mut f = final_(EarlyEnd::AsSoonAsCertain, (4000, 4200));
        level_thirty(&mut f);
        assert_eq!(
            f.bid(&p("Challenger"), 100),
            Ok(BidState::Waiting {
                for_player: p("arimakat")
            })
        );
        assert_eq!(
            f.reveal(),
            Err(RevealRefused::Waiting {
                for_players: vec![p("arimakat")]
            })
        );
        assert_eq!(
            f.state(),
            FinalState::Armageddon(ArmageddonState::Bidding {
                waiting_for: vec![p("arimakat")]
            })
        );
        assert_eq!(f.bid(&p("arimakat"), 95), Ok(BidState::BothIn));
        let g = f.reveal().unwrap();
        assert_eq!(
            g,
            ArmageddonGame {
                white: p("arimakat"),
                black: p("Challenger"),
                white_seconds: 95,
                black_seconds: 180,
                bids: (95, 100),
                by_seed: false,
            }
        );
        assert_eq!(f.reveal(), Err(RevealRefused::AlreadyRevealed));
        assert_eq!(
            f.state(),
            FinalState::Armageddon(ArmageddonState::Revealed(g))
        );
        assert_eq!(f.play(Draw), Ok(won("Challenger", 31)), "draw odds");
    }

    #[test]
    fn acwc_final_armageddon_equal_bids_the_higher_seed_plays_white() {
        for (seeds, white) in [
            ((4000, 4200), "Challenger"),
            ((4300, 4200), "arimakat"),
            ((4200, 4200), "arimakat"),
        ] {
            let mut f = final_(EarlyEnd::AtBlockEnd, seeds);
            level_thirty(&mut f);
            f.bid(&p("arimakat"), 60).unwrap();
            f.bid(&p("Challenger"), 60).unwrap();
            let g = f.reveal().unwrap();
            assert_eq!(
                (g.white.as_str(), g.by_seed, g.white_seconds),
                (white, true, 60)
            );
            // White wins: the first-named's result, translated.
            let r = if white == "arimakat" { Win } else { Loss };
            assert_eq!(f.play(r), Ok(won(white, 31)));
        }
    }

    #[test]
    fn acwc_final_a_bid_is_refused_when_it_cannot_be() {
        let mut f = final_(EarlyEnd::AtBlockEnd, (0, 0));
        assert_eq!(f.bid(&p("arimakat"), 60), Err(BidRefused::NotAtArmageddon));
        assert_eq!(f.reveal(), Err(RevealRefused::NotAtArmageddon));
        level_thirty(&mut f);
        assert_eq!(
            f.bid(&p("Ogul1"), 60),
            Err(BidRefused::NotAFinalist(p("Ogul1")))
        );
        for bad in [0, 181, u16::MAX] {
            assert_eq!(
                f.bid(&p("arimakat"), bad),
                Err(BidRefused::OutOfRange { seconds: bad })
            );
        }
        f.bid(&p("arimakat"), 180).unwrap();
        assert_eq!(
            f.bid(&p("arimakat"), 1),
            Err(BidRefused::AlreadyBid(p("arimakat"))),
            "sealed: not changed"
        );
        f.bid(&p("Challenger"), 1).unwrap();
        assert_eq!(f.reveal().unwrap().white, p("Challenger"));
        f.play(Draw).unwrap();
        assert_eq!(f.bid(&p("arimakat"), 5), Err(BidRefused::NotAtArmageddon));
        assert!(matches!(
            Final::new(f.first().clone(), f.first().clone(), EarlyEnd::AtBlockEnd),
            Err(FinalistsError::SamePlayer(_))
        ));
    }

    #[test]
    fn acwc_disqualification_and_withdrawals_finals_the_runner_up_steps_in() {
        let holder = p("arimakat");
        let order = [p("C1"), p("C2"), p("C3"), p("C4")];
        let fin = |out: &[Player]| finalists(&holder, &order, out);
        let pair = |a: &str, b: &str| {
            Ok(Finalists {
                first: p(a),
                second: p(b),
            })
        };
        assert_eq!(fin(&[]), pair("arimakat", "C1"));
        assert_eq!(fin(&[p("arimakat")]), pair("C1", "C2"), "holder out");
        assert_eq!(fin(&[p("C1")]), pair("arimakat", "C2"), "Challenger out");
        assert_eq!(fin(&[p("arimakat"), p("C1")]), pair("C2", "C3"));
        assert_eq!(
            finalists(&holder, &[p("C1")], &[p("arimakat")]),
            Err(FinalistsError::TooFewRemaining)
        );
        assert_eq!(
            finalists(&holder, &[], &[]),
            Err(FinalistsError::TooFewRemaining)
        );
    }
}
