//! Entry by announcement and the draw of powers (Agora BT1, BT6): who may still enter a game
//! whose players enter themselves, when the entry closes, and which power each contestant gets
//! from a seed published with the draw, so that anyone can recompute it. Pure: the clock, the
//! entrants and the seed are passed in.

use crate::policy::DAY;
use crate::rng::SplitMix64;

/// Agora BT1: "as long as no more than six other persons have already done so".
pub const MAX_CONTESTANTS: usize = 7;

/// Agora BT1: entry stays open "until July 7 or 7 days after the promulgation of these
/// regulations, whichever is later".
pub const ENTRY_DAYS_AFTER_PROMULGATION: i64 = 7;

/// When entry closes (Agora BT1): the later of the date the masters set (`until`, none: no
/// date) and seven days after the regulations were published (`promulgated`: the game's
/// creation, when its regulations were stored and could be read).
pub fn entry_closes(promulgated: i64, until: Option<i64>) -> i64 {
    let week = promulgated + ENTRY_DAYS_AFTER_PROMULGATION * DAY;
    until.map_or(week, |u| u.max(week))
}

/// Why an entry is refused (Agora BT1), in words for the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryRefused {
    /// The game takes no entries (its players are registered by the masters).
    NotOpen,
    /// Past the close (the time it closed).
    Closed { at: i64 },
    /// Seven have entered.
    Full,
    /// This address has entered already.
    AlreadyEntered,
    /// The game has started (the powers were drawn).
    Started,
}

impl std::fmt::Display for EntryRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EntryRefused::NotOpen => {
                f.write_str("this game takes no entries by mail: its masters register the players")
            }
            EntryRefused::Closed { .. } => f.write_str(
                "the entry has closed (Agora BT1: until the date set or 7 days after the \
                 regulations were published, whichever is later)",
            ),
            EntryRefused::Full => write!(
                f,
                "{MAX_CONTESTANTS} contestants have entered already, the most the game takes \
                 (Agora BT1)"
            ),
            EntryRefused::AlreadyEntered => f.write_str("you have entered this game already"),
            EntryRefused::Started => f.write_str("the game has started: the powers are drawn"),
        }
    }
}

/// How a person comes to enter (Agora BT1, BT2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entrant {
    /// By announcement, acting as emself (BT1): until the close.
    Announcing,
    /// Consenting to the Gamemaster's invitation (BT2: "The Gamemaster CAN cause any
    /// consenting person to become a Contestant"): after the close too, seven at most still.
    Invited,
}

/// May `address` enter now (Agora BT1, BT2)? `entered`: the addresses that have, compared
/// ignoring case.
pub fn may_enter(
    now: i64,
    closes: i64,
    entered: &[String],
    address: &str,
    how: Entrant,
) -> Result<(), EntryRefused> {
    if entered.iter().any(|e| e.eq_ignore_ascii_case(address)) {
        return Err(EntryRefused::AlreadyEntered);
    }
    if now >= closes && how == Entrant::Announcing {
        return Err(EntryRefused::Closed { at: closes });
    }
    if entered.len() >= MAX_CONTESTANTS {
        return Err(EntryRefused::Full);
    }
    Ok(())
}

/// Does this entry fill the game (Agora BT1: the seventh), so that the powers are drawn now?
pub fn full_after(entered_before: usize) -> bool {
    entered_before + 1 >= MAX_CONTESTANTS
}

/// The fewest contestants the Gamemaster draws the powers for (Agora BT3: the victor is the
/// last contestant remaining, so a game needs two).
pub const MIN_CONTESTANTS: usize = 2;

/// Why the Gamemaster's DRAW is refused (Agora BT1, BT2, BT6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawRefused {
    /// The game takes no entries: its masters register the players.
    NotOpen,
    /// The powers were drawn already.
    Started,
    /// Fewer than two have entered.
    TooFew { entered: usize },
}

impl std::fmt::Display for DrawRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawRefused::NotOpen => f.write_str(
                "this game takes no entries (Agora BT1): its masters register the players",
            ),
            DrawRefused::Started => f.write_str("the powers are drawn already (Agora BT6)"),
            DrawRefused::TooFew { entered } => write!(
                f,
                "{entered} contestant(s) have entered: the powers are drawn for                  {MIN_CONTESTANTS} at least (Agora BT3: the victor is the last contestant                  remaining); ADD a consenting person (Agora BT2) or wait for entries"
            ),
        }
    }
}

/// May the Gamemaster draw the powers now, with `entered` contestants (Agora BT2, BT6)? The
/// powers left without a contestant (fewer than seven) are drawn too, and stand in civil
/// disorder (BT24). Returns how many powers are left without one.
pub fn may_draw(entered: usize, powers: usize) -> Result<usize, DrawRefused> {
    if entered < MIN_CONTESTANTS {
        return Err(DrawRefused::TooFew { entered });
    }
    Ok(powers.saturating_sub(entered))
}

/// The draw of powers (Agora BT6: "an equitable and random method"): the contestants sorted
/// by address (lower case), then shuffled by Fisher-Yates with SplitMix64 from `seed`, each
/// position drawn without modulo bias; the i-th of the shuffled list gets the i-th power in
/// the map's order. Every assignment is equally likely for a random seed, and the published
/// seed and this method give the same result to anyone. Returns (power, contestant) pairs in
/// the powers' order. With fewer contestants than powers, the list is first filled up with
/// empty names (which sort first), so that which powers are left without a contestant is
/// drawn too; those powers are left out of the result.
pub fn draw<'a>(seed: u64, contestants: &[&'a str], powers: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    let mut order: Vec<&str> = contestants.to_vec();
    order.resize(order.len().max(powers.len()), "");
    order.sort_by_key(|a| a.to_ascii_lowercase());
    let mut rng = SplitMix64(seed);
    for i in (1..order.len()).rev() {
        let j = below(&mut rng, i as u64 + 1) as usize;
        order.swap(i, j);
    }
    powers
        .iter()
        .copied()
        .zip(order)
        .filter(|(_, who)| !who.is_empty())
        .collect()
}

/// A seed as published: 16 hex digits.
pub fn seed_text(seed: u64) -> String {
    format!("{seed:016x}")
}

/// A published seed read back.
pub fn parse_seed(text: &str) -> Option<u64> {
    u64::from_str_radix(text.trim(), 16).ok()
}

/// Uniform in [0, n), n >= 1: draws past the largest multiple of n are drawn again.
fn below(rng: &mut SplitMix64, n: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next();
        if x < zone {
            return x % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POWERS: [&str; 7] = [
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
    ];

    fn people(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("p{i}@example.test")).collect()
    }

    #[test]
    fn agora_bt1_entry_closes_at_the_later_of_the_date_and_seven_days_after_promulgation() {
        let t = 1_790_000_000;
        assert_eq!(entry_closes(t, None), t + 7 * DAY);
        assert_eq!(entry_closes(t, Some(t + DAY)), t + 7 * DAY);
        assert_eq!(entry_closes(t, Some(t + 10 * DAY)), t + 10 * DAY);
    }

    const A: Entrant = Entrant::Announcing;

    #[test]
    fn agora_bt1_at_most_seven_enter_and_none_after_the_close() {
        let closes = 2_000;
        let six = people(6);
        assert_eq!(may_enter(1_000, closes, &six, "p7@example.test", A), Ok(()));
        assert!(full_after(six.len()));
        assert!(!full_after(5));
        let seven = people(7);
        assert_eq!(
            may_enter(1_000, closes, &seven, "p8@example.test", A),
            Err(EntryRefused::Full)
        );
        assert_eq!(
            may_enter(1_000, closes, &six, "P3@Example.test", A),
            Err(EntryRefused::AlreadyEntered)
        );
        assert_eq!(
            may_enter(2_000, closes, &six, "p7@example.test", A),
            Err(EntryRefused::Closed { at: 2_000 })
        );
        assert!(EntryRefused::Full.to_string().contains("Agora BT1"));
    }

    #[test]
    fn agora_bt6_the_draw_is_reproducible_from_its_seed_and_ignores_entry_order() {
        let p = people(7);
        let a: Vec<&str> = p.iter().map(String::as_str).collect();
        let mut b = a.clone();
        b.reverse();
        let one = draw(0x1234_5678_9abc_def0, &a, &POWERS);
        assert_eq!(one, draw(0x1234_5678_9abc_def0, &b, &POWERS));
        assert_eq!(one.len(), 7);
        let mut given: Vec<&str> = one.iter().map(|x| x.1).collect();
        given.sort_unstable();
        assert_eq!(given, a, "every contestant gets exactly one power");
        assert_ne!(one, draw(0x1234_5678_9abc_def1, &a, &POWERS));
        assert_eq!(parse_seed(&seed_text(0xabc)), Some(0xabc));
    }

    /// Agora BT6 "equitable": over many seeds each contestant gets each power about equally
    /// often (7 x 7 cells of about 1,000 draws in 7,000).
    #[test]
    fn agora_bt6_the_draw_is_equitable() {
        let p = people(7);
        let a: Vec<&str> = p.iter().map(String::as_str).collect();
        let mut counts = [[0u32; 7]; 7];
        for seed in 0..7_000u64 {
            for (k, (_, who)) in draw(seed.wrapping_mul(0x2545_F491_4F6C_DD1D), &a, &POWERS)
                .iter()
                .enumerate()
            {
                let i = a.iter().position(|x| x == who).unwrap_or(0);
                counts[i][k] += 1;
            }
        }
        for row in counts {
            for n in row {
                assert!((850..=1150).contains(&n), "{counts:?}");
            }
        }
    }

    #[test]
    fn agora_bt2_an_invited_person_consents_after_the_close_but_not_past_seven() {
        let closes = 2_000;
        let six = people(6);
        let inv = Entrant::Invited;
        assert_eq!(
            may_enter(5_000, closes, &six, "p7@example.test", inv),
            Ok(())
        );
        assert_eq!(
            may_enter(5_000, closes, &people(7), "p8@example.test", inv),
            Err(EntryRefused::Full)
        );
        assert_eq!(
            may_enter(5_000, closes, &six, "p1@example.test", inv),
            Err(EntryRefused::AlreadyEntered)
        );
    }

    #[test]
    fn agora_bt2_bt6_the_gm_draws_for_two_or_more_and_the_empty_powers_are_drawn_too() {
        assert_eq!(may_draw(1, 7), Err(DrawRefused::TooFew { entered: 1 }));
        assert_eq!(may_draw(2, 7), Ok(5));
        assert_eq!(may_draw(7, 7), Ok(0));
        assert!(
            DrawRefused::TooFew { entered: 0 }
                .to_string()
                .contains("BT2")
        );
        let p = people(3);
        let a: Vec<&str> = p.iter().map(String::as_str).collect();
        // Over seeds, the three get different powers, and every power is sometimes empty.
        let mut seated = [0u32; 7];
        for seed in 0..700u64 {
            let d = draw(seed.wrapping_mul(0x2545_F491_4F6C_DD1D), &a, &POWERS);
            assert_eq!(d.len(), 3);
            let mut who: Vec<&str> = d.iter().map(|x| x.1).collect();
            who.sort_unstable();
            assert_eq!(who, a);
            for (power, _) in d {
                let k = POWERS.iter().position(|x| *x == power).unwrap_or(0);
                seated[k] += 1;
            }
        }
        for n in seated {
            assert!((200..=400).contains(&n), "{seated:?}");
        }
    }
}
