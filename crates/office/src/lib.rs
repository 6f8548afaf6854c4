//! Chancery's office: what every kind of game needs besides its own rules, with no I/O.
//!
//! - [`ballot`]: proposals and secret ballots. A proposal names who may vote, when the vote
//!   opens and closes, and the threshold its rule sets (every threshold names the clause that
//!   uses it); a ballot is yes, no or abstain, and a later one replaces an earlier one where the
//!   rule allows it. What comes out is whether it passed and, where a rule requires them, the
//!   counts: never who voted how.
//! - [`ruleset`]: a rule set as versioned text. Rules are numbered, each with its text (and, for
//!   the Nomic, whether it is mutable); every enactment, amendment, repeal, renumbering or
//!   transmutation is a dated revision, and the rule set can be read as it stood at any time.
//! - [`settings`]: the settings a mail's acceptance reads (where the GM's address must be, how a
//!   sender proves who they are), kept by each kind in its house rules.
//!
//! Times are passed in ([`Ts`]: seconds since the Unix epoch, UTC, as the rest of Chancery
//! counts them); nothing here reads a clock. Diplomacy's crate (`chancery-diplomacy`) is not a
//! dependency: every kind of game uses this one.

pub mod ballot;
pub mod ruleset;
pub mod settings;
pub mod time;

pub use time::Ts;
