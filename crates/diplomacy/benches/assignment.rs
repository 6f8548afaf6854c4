//! Seating a WM 2004 tournament (issue 14, WM B.6): 245 players (35 teams of seven) on 35
//! boards in round one, then 196 of them on 28 boards in round two avoiding repeat powers and
//! opponents. `cargo bench -p chancery-diplomacy --bench assignment` prints the time of each.

use chancery_diplomacy::assignment::{first_round, next_round, seat};
use std::time::Instant;

fn main() {
    let first = first_round(35, 7);
    let t = Instant::now();
    let r1 = seat(&first, 7, 2004, 2_000_000).expect("round one");
    let t1 = t.elapsed();
    let advancing: Vec<usize> = (0..196).map(|i| (i * 3) % first.len()).collect();
    let second = next_round(&first, &r1, &advancing);
    let t = Instant::now();
    let r2 = seat(&second, 7, 2005, 5_000_000).expect("round two");
    let t2 = t.elapsed();
    println!(
        "round one: 245 players on 35 boards in {:.1} ms, {} constraint(s) unmet",
        t1.as_secs_f64() * 1000.0,
        r1.unmet.len()
    );
    println!(
        "round two: 196 players on 28 boards in {:.1} ms, {} constraint(s) unmet",
        t2.as_secs_f64() * 1000.0,
        r2.unmet.len()
    );
}
