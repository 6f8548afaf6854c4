//! The kinds of game Chancery serves, and the entry points that choose between them.
//!
//! A kind is anything with seats, a clock and mail of its own (Diplomacy today; the Nomic and the
//! ACWC office next). This file names every kind and is the only place that matches on one:
//! each entry point (a mail to a game, a game's tick, a master's command) reads the game's
//! [`store::Kind`](crate::store) and hands over to the kind's folder.
//!
//! The layering (docs/architecture.md, enforced by `scripts/check-purity`):
//! - `src/service` and `src/cli` call these entry points;
//! - a kind's folder (`src/games/<kind>/`) uses what every kind shares (`src/engine`, `src/store`,
//!   `src/outgoing`) and its own pure crate, and never imports another kind;
//! - `src/engine` (what every kind shares: routing, dedup, answer limits, authentication,
//!   timeliness, extensions, members, the office commands, the tick's batching) never imports a
//!   kind.

pub mod diplomacy;
