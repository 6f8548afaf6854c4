//! Nomic 201: "Each player is allocated one day a week"; the circuit of turns those days make;
//! Nomic 204: "If this rule is not amended by the end of the second complete circuit of turns,
//! it automatically changes to require only a simple majority of the votes cast".
//!
//! Decisions where the rules are silent, each documented where it is made:
//! - a player's day is a weekday, Monday to Friday (Nomic 201 voids the weekend's messages, so
//!   a Saturday or Sunday player could never propose), and no two players share one (Nomic 214
//!   names "the player whose allocated day preceded the current day": one a day);
//! - a circuit is one UK week (Monday 00:00 to Monday 00:00, Nomic 106) and its turns are the
//!   players' days in it, in the order of Nomic 201 (Monday first); circuit 1 is the week the
//!   game began in;
//! - a circuit is complete when the game had begun by the start (00:00 UK) of its first turn:
//!   a game begun mid-week has an incomplete first circuit;
//! - it ends at the end (24:00 UK) of its last turn's day.

use crate::Ts;
use crate::uk_time::{UkDate, Weekday, end_of_uk_day, start_of_uk_day, to_uk};
use chancery_office::ballot::{Threshold, VoterId};
use std::fmt;

/// One player and their allocated day (Nomic 201).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub player: VoterId,
    pub day: Weekday,
}

/// Every player of a game with their day, in the order of Nomic 201 (Monday first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seats {
    seats: Vec<Seat>,
}

/// Why an allocation of days is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatError {
    /// Nomic 201: no player.
    NoPlayers,
    /// Nomic 201: a weekend day, on which every message is void.
    Weekend { player: VoterId, day: Weekday },
    /// Nomic 201, 214: two players on one day.
    DayTaken { day: Weekday, player: VoterId },
    /// Nomic 201, 208: one player allocated twice.
    Twice(VoterId),
    /// Nomic 201's text: a line naming no weekday where a player's was expected.
    NoDays,
}

impl fmt::Display for SeatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatError::NoPlayers => f.write_str("a game has players (Nomic 201)"),
            SeatError::Weekend { player, day } => write!(
                f,
                "{player} cannot be allocated {day}: messages on a Saturday or Sunday are void (Nomic 201)"
            ),
            SeatError::DayTaken { day, player } => write!(
                f,
                "{day} is allocated twice, to {player} among others: one player a day (Nomic 201, 214)"
            ),
            SeatError::Twice(p) => write!(f, "{p} is allocated more than one day (Nomic 201)"),
            SeatError::NoDays => f.write_str("rule 201's text allocates no day (Nomic 201)"),
        }
    }
}

impl std::error::Error for SeatError {}

impl Seats {
    /// Nomic 201: the players and their days, checked.
    pub fn new(seats: impl IntoIterator<Item = Seat>) -> Result<Seats, SeatError> {
        let mut out: Vec<Seat> = Vec::new();
        for s in seats {
            if s.day.is_weekend() {
                return Err(SeatError::Weekend {
                    player: s.player,
                    day: s.day,
                });
            }
            if out.iter().any(|o| o.player == s.player) {
                return Err(SeatError::Twice(s.player));
            }
            if out.iter().any(|o| o.day == s.day) {
                return Err(SeatError::DayTaken {
                    day: s.day,
                    player: s.player,
                });
            }
            out.push(s);
        }
        if out.is_empty() {
            return Err(SeatError::NoPlayers);
        }
        out.sort_by_key(|s| s.day);
        Ok(Seats { seats: out })
    }

    /// Nomic 201 as its text gives the allocation: a paragraph per player, the player's name
    /// then the day (`Chris B Monday`); the other paragraphs are left alone.
    pub fn from_rule_201(text: &[String]) -> Result<Seats, SeatError> {
        let seats: Vec<Seat> = text
            .iter()
            .filter_map(|p| {
                let p = p.trim();
                let (name, day) = p.rsplit_once(char::is_whitespace)?;
                let day = Weekday::parse(day)?;
                let name = name.trim();
                (!name.is_empty() && name.split_whitespace().count() <= 4).then(|| Seat {
                    player: VoterId::new(name),
                    day,
                })
            })
            .collect();
        if seats.is_empty() {
            return Err(SeatError::NoDays);
        }
        Seats::new(seats)
    }

    /// In the order of Nomic 201.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// Nomic 201: a player's allocated day.
    pub fn day_of(&self, player: &VoterId) -> Option<Weekday> {
        self.seats
            .iter()
            .find(|s| &s.player == player)
            .map(|s| s.day)
    }

    /// Nomic 201, 215: whose allocated day `day` is.
    pub fn player_on(&self, day: Weekday) -> Option<&VoterId> {
        self.seats.iter().find(|s| s.day == day).map(|s| &s.player)
    }

    /// Nomic 105: every player is an eligible voter.
    pub fn electorate(&self) -> std::collections::BTreeSet<VoterId> {
        self.seats.iter().map(|s| s.player.clone()).collect()
    }

    fn first_day(&self) -> Weekday {
        self.seats.first().map_or(Weekday::Monday, |s| s.day)
    }

    fn last_day(&self) -> Weekday {
        self.seats.last().map_or(Weekday::Friday, |s| s.day)
    }
}

/// One circuit of turns (Nomic 201, 204): one UK week's turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Circuit {
    /// 1 for the week the game began in, then each next week.
    pub index: i64,
    /// The game had begun by the start of its first turn.
    pub complete: bool,
    /// The start (00:00 UK) of its first turn's day.
    pub begins: Ts,
    /// The end (24:00 UK) of its last turn's day.
    pub ends: Ts,
}

/// The Monday of the UK week `date` is in.
fn monday_of(date: UkDate) -> UkDate {
    date.plus_days(-date.weekday().index())
}

/// Nomic 201, 204: the circuit of the week whose Monday is `monday`, the game begun at `start`.
fn circuit_of_week(seats: &Seats, start: Ts, monday: UkDate) -> Circuit {
    let start_monday = monday_of(to_uk(start).date);
    let begins = start_of_uk_day(monday.plus_days(seats.first_day().index()));
    let last = start_of_uk_day(monday.plus_days(seats.last_day().index()));
    Circuit {
        index: (monday.days() - start_monday.days()).div_euclid(7) + 1,
        complete: start <= begins,
        begins,
        ends: end_of_uk_day(last),
    }
}

/// Nomic 201, 204: the circuit (UK week) `at` falls in, the game begun at `start`; none before
/// the game began.
pub fn circuit_at(seats: &Seats, start: Ts, at: Ts) -> Option<Circuit> {
    (at >= start).then(|| circuit_of_week(seats, start, monday_of(to_uk(at).date)))
}

/// Nomic 201: whose turn (allocated day) it is at `at`, if anyone's.
pub fn turn_at(seats: &Seats, at: Ts) -> Option<&VoterId> {
    seats.player_on(to_uk(at).date.weekday())
}

/// Nomic 204: the end of the `n`th complete circuit of turns, the game begun at `start` ("the
/// second" in the Initial Set; the game's [`crate::settings::Settings::circuits_to_majority`]
/// since). The end of no circuit (`n` = 0, which the settings refuse) is the start itself.
pub fn nth_complete_circuit_ends(seats: &Seats, start: Ts, n: u32) -> Ts {
    if n == 0 {
        return start;
    }
    let start_monday = monday_of(to_uk(start).date);
    let first = circuit_of_week(seats, start, start_monday);
    let weeks = i64::from(n) - if first.complete { 1 } else { 0 };
    let monday = start_monday.plus_days(weeks.saturating_mul(7));
    circuit_of_week(seats, start, monday).ends
}

/// Nomic 204: "the end of the second complete circuit of turns", the game begun at `start`.
pub fn second_complete_circuit_ends(seats: &Seats, start: Ts) -> Ts {
    nth_complete_circuit_ends(seats, start, 2)
}

/// The threshold Nomic 204 sets for a vote completed at a given moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adoption204 {
    /// "unanimous among the votes cast at the completion of the vote".
    UnanimityOfVotesCast,
    /// After "the end of the second complete circuit of turns": "a simple majority of the votes
    /// cast".
    SimpleMajority,
    /// Rule 204 was amended before the vote completed: its new text decides, as the game's
    /// master reads it.
    AsAmended,
}

impl Adoption204 {
    /// The office's threshold, where rule 204 still says it.
    pub fn threshold(self) -> Option<Threshold> {
        match self {
            Adoption204::UnanimityOfVotesCast => Some(Threshold::UnanimityOfVotesCast),
            Adoption204::SimpleMajority => Some(Threshold::SimpleMajority),
            Adoption204::AsAmended => None,
        }
    }

    /// Nomic 205: "If and when rule-changes can be adopted without unanimity".
    pub fn without_unanimity(self) -> bool {
        self == Adoption204::SimpleMajority
    }
}

/// Nomic 204: the threshold of a vote completed at `completes`, the game begun at `start`, rule
/// 204 amended at `amended_204` if ever, majority coming after `circuits` complete circuits
/// (2, "the second", in the Initial Set; the game's `circuits_to_majority`). A vote completed
/// at the very end of that circuit (the last turn's proposal, closing at 24:00) is still one of
/// the circuit and needs unanimity: the rule changes once the circuit has ended.
pub fn adoption_204(
    seats: &Seats,
    start: Ts,
    completes: Ts,
    amended_204: Option<Ts>,
    circuits: u32,
) -> Adoption204 {
    if amended_204.is_some_and(|a| a <= completes) {
        Adoption204::AsAmended
    } else if completes <= nth_complete_circuit_ends(seats, start, circuits) {
        Adoption204::UnanimityOfVotesCast
    } else {
        Adoption204::SimpleMajority
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use chancery_office::time::parse_gmt;

    pub(crate) fn gmt(s: &str) -> Ts {
        parse_gmt(s).expect("a GMT date")
    }

    /// Nomic 201's allocation in the 2019 game.
    pub(crate) fn seats_2019() -> Seats {
        let text: Vec<String> = [
            "Each player is allocated one day a week. These days are\n",
            "Chris B Monday\n",
            "Dave M Tuesday\n",
            "Ben P Wednesday\n",
            "Alex T Thursday\n",
            "Alex W Friday\n",
            "Any message posted in the voting thread on a Saturday or Sunday is to be considered void. All\nplayers begin with zero points.\n",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        Seats::from_rule_201(&text).expect("rule 201 allocates the days")
    }

    #[test]
    fn nomic_201_the_allocation_is_read_from_the_rule_in_its_order() {
        let seats = seats_2019();
        let names: Vec<&str> = seats.seats().iter().map(|s| s.player.as_str()).collect();
        assert_eq!(names, ["Chris B", "Dave M", "Ben P", "Alex T", "Alex W"]);
        assert_eq!(
            seats.day_of(&VoterId::new("Ben P")),
            Some(Weekday::Wednesday)
        );
        assert_eq!(
            seats.player_on(Weekday::Friday),
            Some(&VoterId::new("Alex W"))
        );
        assert_eq!(seats.player_on(Weekday::Saturday), None);
        assert_eq!(seats.electorate().len(), 5);
    }

    #[test]
    fn nomic_201_weekends_shared_days_and_doubles_are_refused() {
        let seat = |p: &str, day| Seat {
            player: VoterId::new(p),
            day,
        };
        assert_eq!(
            Seats::new([seat("A", Weekday::Saturday)]),
            Err(SeatError::Weekend {
                player: VoterId::new("A"),
                day: Weekday::Saturday
            })
        );
        assert_eq!(
            Seats::new([seat("A", Weekday::Monday), seat("B", Weekday::Monday)]),
            Err(SeatError::DayTaken {
                day: Weekday::Monday,
                player: VoterId::new("B")
            })
        );
        assert_eq!(
            Seats::new([seat("A", Weekday::Monday), seat("A", Weekday::Friday)]),
            Err(SeatError::Twice(VoterId::new("A")))
        );
        assert_eq!(Seats::new([]), Err(SeatError::NoPlayers));
        assert_eq!(
            Seats::from_rule_201(&["Nothing here.".into()]),
            Err(SeatError::NoDays)
        );
    }

    #[test]
    fn nomic_201_204_circuits_from_the_start() {
        let seats = seats_2019();
        // The 2019 game began on Monday 2019-02-11: its first circuit is complete.
        let start = gmt("2019-02-11 00:00");
        let c1 = circuit_at(&seats, start, gmt("2019-02-13 12:00")).expect("after the start");
        assert_eq!(
            c1,
            Circuit {
                index: 1,
                complete: true,
                begins: start,
                ends: gmt("2019-02-16 00:00")
            }
        );
        // The weekend belongs to the week's circuit, after its last turn.
        let weekend = circuit_at(&seats, start, gmt("2019-02-17 12:00")).expect("in");
        assert_eq!(weekend.index, 1);
        assert_eq!(
            circuit_at(&seats, start, gmt("2019-02-18 00:00")).map(|c| c.index),
            Some(2)
        );
        assert_eq!(circuit_at(&seats, start, start - 1), None);
        assert_eq!(
            second_complete_circuit_ends(&seats, start),
            gmt("2019-02-23 00:00")
        );
        assert_eq!(
            turn_at(&seats, gmt("2019-02-14 09:00")),
            Some(&VoterId::new("Alex T"))
        );
        assert_eq!(turn_at(&seats, gmt("2019-02-16 09:00")), None);
    }

    #[test]
    fn nomic_204_a_game_begun_mid_week_counts_complete_circuits_from_the_next_monday() {
        let seats = seats_2019();
        let start = gmt("2019-02-13 10:00"); // a Wednesday
        let first = circuit_at(&seats, start, start).expect("in");
        assert!(!first.complete);
        // Complete circuits: 18-22 February and 25 February-1 March.
        assert_eq!(
            second_complete_circuit_ends(&seats, start),
            gmt("2019-03-02 00:00")
        );
        // Begun at 00:00 UK on the first turn's day, the circuit is complete.
        assert!(
            circuit_at(&seats, gmt("2019-02-11 00:00"), gmt("2019-02-11 00:00"))
                .is_some_and(|c| c.complete)
        );
    }

    #[test]
    fn nomic_106_204_a_circuit_in_summer_ends_at_midnight_bst() {
        let seats = seats_2019();
        let start = gmt("2019-05-31 12:00"); // a Friday, in BST
        // Complete circuits: 3-7 June and 10-14 June; the last ends 24:00 BST on the 14th.
        assert_eq!(
            second_complete_circuit_ends(&seats, start),
            gmt("2019-06-14 23:00")
        );
    }

    #[test]
    fn nomic_204_unanimity_until_the_second_complete_circuit_ends_then_simple_majority() {
        let seats = seats_2019();
        let start = gmt("2019-02-11 00:00");
        let end = gmt("2019-02-23 00:00");
        let at = |t| adoption_204(&seats, start, t, None, 2);
        assert_eq!(at(end - 1), Adoption204::UnanimityOfVotesCast);
        assert_eq!(at(end), Adoption204::UnanimityOfVotesCast);
        assert_eq!(at(gmt("2019-02-26 00:00")), Adoption204::SimpleMajority);
        assert_eq!(
            Adoption204::SimpleMajority.threshold(),
            Some(Threshold::SimpleMajority)
        );
        // Amended before: its new text decides, before and after the circuit's end.
        assert_eq!(
            adoption_204(&seats, start, gmt("2019-02-26 00:00"), Some(end - 1), 2),
            Adoption204::AsAmended
        );
        assert_eq!(
            adoption_204(&seats, start, end - 10, Some(end - 1), 2),
            Adoption204::UnanimityOfVotesCast
        );
        assert_eq!(Adoption204::AsAmended.threshold(), None);
        assert!(Adoption204::SimpleMajority.without_unanimity());
        assert!(!Adoption204::UnanimityOfVotesCast.without_unanimity());
    }

    #[test]
    fn nomic_204_the_nth_complete_circuit_ends_each_week_later() {
        let seats = seats_2019();
        let start = gmt("2019-02-11 00:00"); // a Monday: the first circuit is complete
        assert_eq!(
            nth_complete_circuit_ends(&seats, start, 1),
            gmt("2019-02-16 00:00")
        );
        assert_eq!(
            nth_complete_circuit_ends(&seats, start, 2),
            second_complete_circuit_ends(&seats, start)
        );
        assert_eq!(
            nth_complete_circuit_ends(&seats, start, 3),
            gmt("2019-03-02 00:00")
        );
        assert_eq!(nth_complete_circuit_ends(&seats, start, 0), start);
        // Begun mid-week, the first complete circuit is the next week's.
        let wednesday = gmt("2019-02-13 10:00");
        assert_eq!(
            nth_complete_circuit_ends(&seats, wednesday, 1),
            gmt("2019-02-23 00:00")
        );
        // Any count, no panic.
        let _ = nth_complete_circuit_ends(&seats, start, u32::MAX);
    }

    #[test]
    fn nomic_204_circuits_to_majority_set_to_3_keeps_unanimity_a_week_longer() {
        let seats = seats_2019();
        let start = gmt("2019-02-11 00:00");
        let completes = gmt("2019-02-26 00:00"); // in the third circuit
        assert_eq!(
            adoption_204(&seats, start, completes, None, 2),
            Adoption204::SimpleMajority
        );
        assert_eq!(
            adoption_204(&seats, start, completes, None, 3),
            Adoption204::UnanimityOfVotesCast
        );
        assert_eq!(
            adoption_204(&seats, start, gmt("2019-03-04 00:00"), None, 3),
            Adoption204::SimpleMajority
        );
    }
}
