//! Diplomacy's store: its own tables and the queries of them, and every row type that names a
//! type of Diplomacy's crate. Only Diplomacy's code reads these (the shared layers still reach
//! some through `store::`, the paths they have always used, until the seam gets to them). What
//! every kind of game shares is in the store's other files.

mod phases;
mod players;
mod tick;
mod tournaments;
mod votes;

pub use phases::*;
pub use players::*;
pub use tick::*;
pub use tournaments::*;
pub use votes::*;
