//! The supply centres each power held at the end of each year, as a table: in the mail that
//! tells a Diplomacy game's end and in its SUMMARY.

use crate::map::{Map, Power};
use crate::store::diplomacy::YearEnd;

/// The supply centres of each power at the end of each year, as a table: the years recorded,
/// then `current` (the year just ended) if given.
pub fn centre_history(map: &Map, ends: &[YearEnd], current: Option<&YearEnd>) -> String {
    let powers: Vec<Power> = map.all_powers().collect();
    let head: Vec<String> = powers
        .iter()
        .map(|p| map.power_name(*p).chars().take(3).collect())
        .collect();
    let mut out = format!(
        "Supply centres at the end of each year:\nYear  {}\n",
        head.join("  ")
    );
    let rows = ends
        .iter()
        .filter(|e| current.is_none_or(|c| c.year != e.year))
        .chain(current);
    let mut any = false;
    for end in rows {
        any = true;
        let cells: Vec<String> = powers
            .iter()
            .map(|p| {
                let n = end
                    .owners
                    .iter()
                    .filter(|o| o.owner.as_deref() == Some(map.power_name(*p)))
                    .count();
                format!("{n:>3}")
            })
            .collect();
        out.push_str(&format!("{}  {}\n", end.year, cells.join("  ")));
    }
    if !any {
        out.push_str("(no year was completed)\n");
    }
    out
}
