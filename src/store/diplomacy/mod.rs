//! Diplomacy's store: its own tables and the queries of them, and every row type that names a
//! type of Diplomacy's crate. Only Diplomacy's code reads these: the store does not re-export
//! them, so a caller names `store::diplomacy::name` (Diplomacy's folder of `src/games` reads
//! both under one path, its own `store` module), and `scripts/check-purity` fails on that name
//! outside Diplomacy's folders and the few places that serve Diplomacy alone. What every kind
//! of game shares is in the store's other files.

mod page;
mod phases;
mod players;
mod tick;
mod tournaments;
mod votes;

pub use page::*;
pub use phases::*;
pub use players::*;
pub use tick::*;
pub use tournaments::*;
pub use votes::*;
