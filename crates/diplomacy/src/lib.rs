//! Chancery's pure core: everything a game is, with no I/O.
//!
//! - [`map`]: variants as data (provinces, coasts, adjacencies, powers), embedded in the binary.
//! - [`phase`], [`order`]: phases and typed orders with their canonical notation.
//! - [`reader`]: the forgiving order-line reader; [`orderset`]: a whole order mail read, on
//!   the shared reading of a mail (`chancery-intake`: MIME, quotes, sections).
//! - [`commands`]: a master's command mail read with Diplomacy's phases and corrections.
//! - [`rules`]: the house rules, one typed settings struct, and the presets.
//! - [`adjudicator`]: the DATC-compliant judge.
//! - [`json`]: the `chancery adjudicate` contract.
//! - [`assignment`]: seating a tournament round's players on boards (WM B.6).
//! - [`conditional`]: conditional retreat and adjustment orders (WM D.II(5)).
//! - [`entry`]: entry by announcement and the seeded draw of powers (Agora BT1, BT6).
//! - [`correction`]: corrections of a published adjudication (WM D.VIII).
//! - [`scoring`]: scoring a finished game as the tournament rulebooks say (WM C, Maharajiad A).
//! - [`policy`]: the game rules around the adjudicator (deadlines, extensions, timeliness, how
//!   order sets combine, NMR), with the clock always passed in.
//! - [`timetable`]: Agora BT15's daily UTC turns.

pub mod adjudicator;
pub mod assignment;
pub mod assistants;
pub mod commands;
pub mod conditional;
pub mod correction;
pub mod entry;
pub mod json;
pub mod map;
pub mod order;
pub mod orderset;
pub mod phase;
pub mod policy;
pub mod reader;
pub mod regulations;
mod rng;
pub mod rules;
pub mod scoring;
pub mod standings;
pub mod timetable;
pub mod votes;
