//! ACWC Matches: the 10-game match every Qualification round and Candidates round is made of
//! ("Qualification", "Candidates"): its games, its score, when it is complete, its result
//! ("A won match gives 1 point, a tie (5-5) gives 0.5 points, a lost match gives 0 points"),
//! a reported score read back, and a forfeit ("Match rules").
//!
//! Every score is in half points (a win 2, a draw 1, a loss 0), so no float ever appears: a
//! 10-game match holds 20 half points between its two players. Every game and score is the
//! first-named player's (the one named first in the pairing).
//!
//! Decisions where the rules are silent, each documented where it is made:
//! - a Swiss match may stop at any moment once either player has 5.5 ("the players are allowed
//!   to stop there"): the rule allows the stop and does not oblige it at that game, so a
//!   reported `6-1` (seven games, the leader past 5.5) is a stopped match, and the players may
//!   also play on to the tenth game; a Candidates match is always ten games;
//! - a reported score names both players' game points; the games played are their sum, which
//!   must be whole (`5.5-2` is 7.5 games: refused);
//! - a forfeit is recorded as a forfeit, not as games: a won match for the appearing (or
//!   remaining) player; where its game points are needed (the Candidates' sub-scores) it counts
//!   as the whole match, 10-0 ([`FORFEIT_SUB_SCORES`]), the absent player having given up every
//!   game, as the Qualification's engine adjudication gives the opponent everything.

use serde::{Deserialize, Serialize};
use std::fmt;

/// ACWC Qualification, Candidates: "Each participant plays a 10-game match per round."
pub const GAMES_PER_MATCH: u16 = 10;
/// ACWC Qualification: "Once either player reaches 5.5 in a match, the players are allowed to
/// stop there", in half points.
pub const SWISS_STOP_HALVES: u16 = 11;
/// ACWC Match rules (a forfeit), decided: the sub-scores a forfeit counts as where game points
/// are needed, in half points, the winner's first: the whole match, 10-0.
pub const FORFEIT_SUB_SCORES: (u16, u16) = (2 * GAMES_PER_MATCH, 0);

/// ACWC Format: the stage a match is played in, which decides whether it may stop early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    /// ACWC Qualification: may stop once either player reaches 5.5.
    Swiss,
    /// ACWC Candidates: "Players are not allowed to stop the match once either player reaches
    /// 5.5, because the exact scores may need to be used as tiebreaker."
    Candidates,
}

/// One game, for the first-named player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// Every result, for enumerations.
    pub const ALL: [GameResult; 3] = [GameResult::Win, GameResult::Draw, GameResult::Loss];

    /// The game points it gives (first, second), in half points.
    pub fn halves(self) -> (u16, u16) {
        match self {
            GameResult::Win => (2, 0),
            GameResult::Draw => (1, 1),
            GameResult::Loss => (0, 2),
        }
    }

    /// The same game for the second-named player.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// One of a match's two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// A match's score in game points, as half points (`6½-3½` is 13-7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchScore {
    pub first: u16,
    pub second: u16,
}

/// ACWC Qualification, Candidates: a match's result in match points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchResult {
    FirstWon,
    /// "a tie (5-5)".
    Tied,
    SecondWon,
}

impl MatchResult {
    /// ACWC Qualification, Candidates: "A won match gives 1 point, a tie (5-5) gives 0.5
    /// points, a lost match gives 0 points", in half points (first, second).
    pub fn points_halves(self) -> (u16, u16) {
        match self {
            MatchResult::FirstWon => (2, 0),
            MatchResult::Tied => (1, 1),
            MatchResult::SecondWon => (0, 2),
        }
    }
}

/// Where a match stands after its games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchStatus {
    /// More games are required.
    InProgress,
    /// ACWC Qualification: a Swiss match in which a player reached 5.5: the result stands and
    /// the players may stop, or play on to the tenth game.
    MayStop,
    /// Ten games played.
    Complete,
}

/// Why a reported score is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreError {
    /// Not two game-point totals joined by a dash.
    Malformed(String),
    /// A total not in halves (`6.3`).
    NotInHalves(String),
    /// The two totals do not add up to whole games (`5.5-2`).
    NotWholeGames(MatchScore),
    /// ACWC Qualification, Candidates: more than the match's 10 games.
    TooManyGames(MatchScore),
    /// ACWC Candidates: fewer than 10 games ("not allowed to stop the match").
    CandidatesStoppedEarly(MatchScore),
    /// ACWC Qualification: fewer than 10 games with neither player at 5.5.
    SwissStoppedBeforeDecided(MatchScore),
    /// ACWC Final: a block is reported once all its games are played.
    BlockNotFinished { score: MatchScore, games: u16 },
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreError::Malformed(s) => write!(
                f,
                "{s:?} is not a match score: two game-point totals joined by a dash, e.g. 6.5-3.5"
            ),
            ScoreError::NotInHalves(s) => {
                write!(f, "{s:?} is not in halves: a game gives 1, ½ or 0")
            }
            ScoreError::NotWholeGames(s) => write!(
                f,
                "{s} is not a whole number of games: each game gives out exactly one point"
            ),
            ScoreError::TooManyGames(s) => write!(
                f,
                "{s} is more than the 10 games of a match (ACWC Qualification, Candidates)"
            ),
            ScoreError::CandidatesStoppedEarly(s) => write!(
                f,
                "{s} is fewer than 10 games: a Candidates match may not stop early (ACWC Candidates)"
            ),
            ScoreError::SwissStoppedBeforeDecided(s) => write!(
                f,
                "{s} is fewer than 10 games with neither player at 5.5 (ACWC Qualification)"
            ),
            ScoreError::BlockNotFinished { score, games } => write!(
                f,
                "{score} is fewer than the block's {games} games: report it once all are \
                 played (ACWC Final)"
            ),
        }
    }
}

impl std::error::Error for ScoreError {}

/// Half points as a forum post writes them: `6½`, `½`, `5`.
fn show_halves(h: u16) -> String {
    match (h / 2, h % 2) {
        (0, 1) => "½".to_string(),
        (w, 1) => format!("{w}½"),
        (w, _) => w.to_string(),
    }
}

impl fmt::Display for MatchScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}",
            show_halves(self.first),
            show_halves(self.second)
        )
    }
}

impl MatchScore {
    /// The score of a match's games.
    pub fn from_games(games: &[GameResult]) -> MatchScore {
        games.iter().fold(MatchScore::default(), |s, g| {
            let (a, b) = g.halves();
            MatchScore {
                first: s.first.saturating_add(a),
                second: s.second.saturating_add(b),
            }
        })
    }

    /// The same score seen from the second-named player.
    pub fn reversed(self) -> MatchScore {
        MatchScore {
            first: self.second,
            second: self.first,
        }
    }

    /// The games played (each gives out one point, two halves); rounded down for a score that
    /// [`MatchScore::check`] refuses.
    pub fn games(self) -> u16 {
        (u32::from(self.first) + u32::from(self.second))
            .div_euclid(2)
            .try_into()
            .unwrap_or(u16::MAX)
    }

    /// ACWC Qualification, Candidates: where a match with this score stands.
    pub fn status(self, stage: Stage) -> MatchStatus {
        let games = self.games();
        if games >= GAMES_PER_MATCH {
            MatchStatus::Complete
        } else if stage == Stage::Swiss && self.first.max(self.second) >= SWISS_STOP_HALVES {
            MatchStatus::MayStop
        } else {
            MatchStatus::InProgress
        }
    }

    /// ACWC Qualification, Candidates: whether a match may end with this score (its result
    /// stands).
    pub fn is_complete(self, stage: Stage) -> bool {
        self.status(stage) != MatchStatus::InProgress
    }

    /// ACWC Qualification, Candidates: whether this can be a finished match's score.
    pub fn check(self, stage: Stage) -> Result<(), ScoreError> {
        if (u32::from(self.first) + u32::from(self.second)) % 2 != 0 {
            return Err(ScoreError::NotWholeGames(self));
        }
        if self.games() > GAMES_PER_MATCH {
            return Err(ScoreError::TooManyGames(self));
        }
        match (self.status(stage), stage) {
            (MatchStatus::InProgress, Stage::Candidates) => {
                Err(ScoreError::CandidatesStoppedEarly(self))
            }
            (MatchStatus::InProgress, Stage::Swiss) => {
                Err(ScoreError::SwissStoppedBeforeDecided(self))
            }
            _ => Ok(()),
        }
    }

    /// ACWC Qualification, Candidates: the result once the match may end (a win, "a tie
    /// (5-5)", a loss); `None` while games are still required.
    pub fn result(self, stage: Stage) -> Option<MatchResult> {
        if !self.is_complete(stage) {
            return None;
        }
        Some(match self.first.cmp(&self.second) {
            std::cmp::Ordering::Greater => MatchResult::FirstWon,
            std::cmp::Ordering::Equal => MatchResult::Tied,
            std::cmp::Ordering::Less => MatchResult::SecondWon,
        })
    }
}

/// One side's game points as written: `6`, `6.5`, `6,5`, `6½`, `½`, `6.50`.
fn parse_halves(s: &str) -> Result<u16, ScoreError> {
    let malformed = || ScoreError::Malformed(s.to_string());
    let whole = |w: &str| -> Result<u16, ScoreError> {
        if w.is_empty() || w.len() > 4 || !w.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        w.parse::<u16>().map(|n| n * 2).map_err(|_| malformed())
    };
    if let Some(w) = s.strip_suffix('½') {
        let w = w.trim_end();
        return if w.is_empty() {
            Ok(1)
        } else {
            Ok(whole(w)? + 1)
        };
    }
    let Some((w, frac)) = s.split_once(['.', ',']) else {
        return whole(s);
    };
    if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(malformed());
    }
    let w = if w.is_empty() { 0 } else { whole(w)? };
    match frac.trim_end_matches('0') {
        "" => Ok(w),
        "5" => Ok(w + 1),
        _ => Err(ScoreError::NotInHalves(s.to_string())),
    }
}

/// ACWC Qualification, Candidates, Match rules ("either player must post the results"): a
/// reported match score, the first-named player's first (`6.5-3.5`, `6½-3½`, `5-5`,
/// `5.5 - 2.5` for a stopped Swiss match), checked for the stage.
pub fn parse_score(stage: Stage, text: &str) -> Result<MatchScore, ScoreError> {
    let t = text.trim();
    let Some((a, b)) = t.split_once(['-', '–', '—', ':']) else {
        return Err(ScoreError::Malformed(t.to_string()));
    };
    let (a, b) = (a.trim(), b.trim());
    if a.is_empty() || b.is_empty() {
        return Err(ScoreError::Malformed(t.to_string()));
    }
    let score = MatchScore {
        first: parse_halves(a)?,
        second: parse_halves(b)?,
    };
    score.check(stage)?;
    Ok(score)
}

/// ACWC Final: a block of the Final reported by mail (its first 12 games, then each two-game
/// extension, then the Armageddon's one game), the reporter's score first: exactly `games`
/// games (`7-5` for the first block, `1.5-0.5` for an extension, `1-0` for the Armageddon).
pub fn parse_block(text: &str, games: u16) -> Result<MatchScore, ScoreError> {
    let t = text.trim();
    let Some((a, b)) = t.split_once(['-', '–', '—', ':']) else {
        return Err(ScoreError::Malformed(t.to_string()));
    };
    let score = MatchScore {
        first: parse_halves(a.trim())?,
        second: parse_halves(b.trim())?,
    };
    match u32::from(score.first) + u32::from(score.second) {
        n if n % 2 != 0 => Err(ScoreError::NotWholeGames(score)),
        n if n / 2 > u32::from(games) => Err(ScoreError::TooManyGames(score)),
        n if n / 2 < u32::from(games) => Err(ScoreError::BlockNotFinished { score, games }),
        _ => Ok(score),
    }
}

/// ACWC Qualification, Candidates, Match rules: how a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchOutcome {
    /// Played, with its final score.
    Played(MatchScore),
    /// ACWC Match rules: "the match will be forfeited in favor of the appearing player" (or a
    /// player who left and did not come back, or a withdrawn Swiss player's pending opponent):
    /// recorded as a forfeit, not as games.
    Forfeit { winner: Side },
}

impl MatchOutcome {
    /// ACWC Qualification, Candidates: the result, once the match may end.
    pub fn result(self, stage: Stage) -> Option<MatchResult> {
        match self {
            MatchOutcome::Played(s) => s.result(stage),
            MatchOutcome::Forfeit {
                winner: Side::First,
            } => Some(MatchResult::FirstWon),
            MatchOutcome::Forfeit {
                winner: Side::Second,
            } => Some(MatchResult::SecondWon),
        }
    }

    /// ACWC Candidates: the sub-scores (game points, in half points) this match adds, a forfeit
    /// counting as [`FORFEIT_SUB_SCORES`].
    pub fn sub_scores(self) -> MatchScore {
        let (w, l) = FORFEIT_SUB_SCORES;
        match self {
            MatchOutcome::Played(s) => s,
            MatchOutcome::Forfeit {
                winner: Side::First,
            } => MatchScore {
                first: w,
                second: l,
            },
            MatchOutcome::Forfeit {
                winner: Side::Second,
            } => MatchScore {
                first: l,
                second: w,
            },
        }
    }

    /// The same outcome seen from the second-named player.
    pub fn reversed(self) -> MatchOutcome {
        match self {
            MatchOutcome::Played(s) => MatchOutcome::Played(s.reversed()),
            MatchOutcome::Forfeit {
                winner: Side::First,
            } => MatchOutcome::Forfeit {
                winner: Side::Second,
            },
            MatchOutcome::Forfeit {
                winner: Side::Second,
            } => MatchOutcome::Forfeit {
                winner: Side::First,
            },
        }
    }
}

/// Why a game cannot be added to a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchOver {
    /// ACWC Qualification, Candidates: the match's 10 games are played.
    TenGamesPlayed,
}

impl fmt::Display for MatchOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the match's 10 games are played (ACWC Qualification, Candidates)")
    }
}

impl std::error::Error for MatchOver {}

/// ACWC Qualification, Candidates: a match game by game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    stage: Stage,
    games: Vec<GameResult>,
}

impl Match {
    pub fn new(stage: Stage) -> Match {
        Match {
            stage,
            games: Vec::new(),
        }
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    pub fn games(&self) -> &[GameResult] {
        &self.games
    }

    pub fn score(&self) -> MatchScore {
        MatchScore::from_games(&self.games)
    }

    /// ACWC Qualification, Candidates: where the match stands.
    pub fn status(&self) -> MatchStatus {
        self.score().status(self.stage)
    }

    /// ACWC Qualification, Candidates: the next game; refused after the tenth. A Swiss match
    /// past 5.5 may go on (the stop is allowed, not required).
    pub fn play(&mut self, game: GameResult) -> Result<MatchStatus, MatchOver> {
        if self.games.len() >= usize::from(GAMES_PER_MATCH) {
            return Err(MatchOver::TenGamesPlayed);
        }
        self.games.push(game);
        Ok(self.status())
    }

    /// ACWC Qualification, Candidates: the result once the match may end.
    pub fn result(&self) -> Option<MatchResult> {
        self.score().result(self.stage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{Draw, Loss, Win};

    fn sc(first: u16, second: u16) -> MatchScore {
        MatchScore { first, second }
    }

    #[test]
    fn acwc_qualification_a_won_match_1_a_tie_half_a_loss_0() {
        let s = Stage::Swiss;
        assert_eq!(sc(13, 7).result(s), Some(MatchResult::FirstWon));
        assert_eq!(sc(10, 10).result(s), Some(MatchResult::Tied));
        assert_eq!(sc(7, 13).result(s), Some(MatchResult::SecondWon));
        assert_eq!(MatchResult::FirstWon.points_halves(), (2, 0));
        assert_eq!(MatchResult::Tied.points_halves(), (1, 1));
        assert_eq!(MatchResult::SecondWon.points_halves(), (0, 2));
        assert_eq!(sc(6, 6).result(s), None, "six games, nobody at 5.5");
    }

    #[test]
    fn acwc_qualification_a_swiss_match_may_stop_at_5_5() {
        let mut m = Match::new(Stage::Swiss);
        for g in [Win, Win, Win, Win, Win] {
            assert_eq!(m.play(g), Ok(MatchStatus::InProgress));
        }
        assert_eq!(m.play(Draw), Ok(MatchStatus::MayStop));
        assert_eq!(m.score(), sc(11, 1));
        assert_eq!(m.result(), Some(MatchResult::FirstWon));
        // The stop is allowed, not required: play on to ten.
        for g in [Loss, Loss, Loss] {
            assert_eq!(m.play(g), Ok(MatchStatus::MayStop));
        }
        assert_eq!(m.play(Loss), Ok(MatchStatus::Complete));
        assert_eq!(m.play(Win), Err(MatchOver::TenGamesPlayed));
        assert_eq!(m.score(), sc(11, 9));
    }

    #[test]
    fn acwc_candidates_a_match_never_stops_before_ten_games() {
        let mut m = Match::new(Stage::Candidates);
        for _ in 0..9 {
            assert_eq!(m.play(Win), Ok(MatchStatus::InProgress));
        }
        assert_eq!(m.result(), None);
        assert_eq!(m.play(Draw), Ok(MatchStatus::Complete));
        assert_eq!(m.result(), Some(MatchResult::FirstWon));
        assert_eq!(m.score().to_string(), "9½-½");
    }

    #[test]
    fn acwc_match_rules_a_reported_score_is_read_in_its_usual_spellings() {
        let s = Stage::Swiss;
        assert_eq!(parse_score(s, "6.5-3.5"), Ok(sc(13, 7)));
        assert_eq!(parse_score(s, "6½-3½"), Ok(sc(13, 7)));
        assert_eq!(parse_score(s, " 6½ – 3½ "), Ok(sc(13, 7)));
        assert_eq!(parse_score(s, "5-5"), Ok(sc(10, 10)));
        assert_eq!(parse_score(s, "5.5 - 2.5"), Ok(sc(11, 5)));
        assert_eq!(parse_score(s, "½-5½"), Ok(sc(1, 11)));
        assert_eq!(parse_score(s, "0.5-9.50"), Ok(sc(1, 19)));
        assert_eq!(parse_score(s, "6,5:3,5"), Ok(sc(13, 7)));
        assert_eq!(
            parse_score(s, "6-1"),
            Ok(sc(12, 2)),
            "past 5.5, then stopped"
        );
        assert_eq!(parse_score(Stage::Candidates, "10-0"), Ok(sc(20, 0)));
    }

    #[test]
    fn acwc_match_rules_an_impossible_score_is_refused_with_its_reason() {
        let s = Stage::Swiss;
        assert_eq!(
            parse_score(s, "5.5 - 2"),
            Err(ScoreError::NotWholeGames(sc(11, 4))),
            "7.5 games"
        );
        assert_eq!(
            parse_score(s, "6.3-3.7"),
            Err(ScoreError::NotInHalves("6.3".into()))
        );
        assert_eq!(
            parse_score(s, "7-5"),
            Err(ScoreError::TooManyGames(sc(14, 10)))
        );
        assert_eq!(
            parse_score(s, "3-3"),
            Err(ScoreError::SwissStoppedBeforeDecided(sc(6, 6)))
        );
        assert_eq!(
            parse_score(Stage::Candidates, "5.5-2.5"),
            Err(ScoreError::CandidatesStoppedEarly(sc(11, 5)))
        );
        for bad in [
            "", "6.5", "-3", "a-b", "6.-3", "6.5.5-3", "99999-0", "-1-11", "6 ½ x-3",
        ] {
            assert!(
                matches!(parse_score(s, bad), Err(ScoreError::Malformed(_))),
                "{bad:?}: {:?}",
                parse_score(s, bad)
            );
        }
    }

    #[test]
    fn acwc_match_rules_a_forfeit_wins_the_match_and_counts_ten_nil_in_sub_scores() {
        let f = MatchOutcome::Forfeit {
            winner: Side::Second,
        };
        assert_eq!(f.result(Stage::Candidates), Some(MatchResult::SecondWon));
        assert_eq!(f.sub_scores(), sc(0, 20));
        assert_eq!(
            f.reversed().result(Stage::Swiss),
            Some(MatchResult::FirstWon)
        );
        let p = MatchOutcome::Played(sc(13, 7));
        assert_eq!(p.reversed(), MatchOutcome::Played(sc(7, 13)));
        assert_eq!(p.sub_scores(), sc(13, 7));
    }

    #[test]
    fn acwc_qualification_every_ten_game_sequence_is_a_valid_report() {
        // 3^10 sequences: the score of every one parses back for both stages.
        let mut games = Vec::with_capacity(10);
        fn walk(games: &mut Vec<GameResult>) {
            if games.len() == 10 {
                let s = MatchScore::from_games(games);
                for st in [Stage::Swiss, Stage::Candidates] {
                    assert_eq!(parse_score(st, &s.to_string()), Ok(s));
                }
                return;
            }
            for g in GameResult::ALL {
                games.push(g);
                walk(games);
                games.pop();
            }
        }
        walk(&mut games);
    }

    #[test]
    fn acwc_final_a_block_is_reported_whole() {
        assert_eq!(
            parse_block("7-5", 12),
            Ok(MatchScore {
                first: 14,
                second: 10
            })
        );
        assert!(parse_block("1.5-0.5", 2).is_ok());
        assert!(parse_block("1-0", 1).is_ok());
        assert!(matches!(
            parse_block("6-5", 12),
            Err(ScoreError::BlockNotFinished { .. })
        ));
        assert!(matches!(
            parse_block("2-1", 2),
            Err(ScoreError::TooManyGames(_))
        ));
    }
}
