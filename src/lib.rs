//! Chancery: a play-by-email Diplomacy game-master server. See docs/architecture.md.
//!
//! Mail flows one way: mail in ([`transport`]) → intake (the pure `chancery-intake` crate) →
//! [`engine`] (one transaction per message or tick) → [`store`] → the scheduler ([`service`]) →
//! the adjudicator (the pure `chancery-diplomacy` crate) → [`outgoing`] (compose, templates) → the
//! outbox → mail out ([`transport`]).
//!
//! The pure crates' modules are re-exported here under their own names, so that
//! `chancery::map`, `chancery::reader` or `chancery::ballot` is the same module as in its crate
//! (`chancery::commands` alone joins two: the shared commands and Diplomacy's reading of them).

pub use chancery_diplomacy::{
    adjudicator, assignment, assistants, conditional, correction, entry, json, map, order,
    orderset, phase, policy, reader, regulations, rules, scoring, standings, timetable, votes,
};
pub use chancery_intake::{acceptance, authres, message, sections, td_commands};
pub use chancery_office::{ballot, ruleset, settings, time};

/// The Nomic's pure rules (`chancery-nomic`), under one name: its modules (`rules`, `votes`...)
/// share names with Diplomacy's.
pub use chancery_nomic as nomic;

/// The Antichess World Championship office's pure rules (`chancery-acwc`), under one name.
pub use chancery_acwc as acwc;

/// A master's command mail: the shared commands and reader (`chancery_intake::commands`), with
/// `read_command` and `read_commands` reading Diplomacy's words (its phases, its corrections:
/// `chancery_diplomacy::commands`), as every game is Diplomacy today.
pub mod commands {
    pub use chancery_diplomacy::commands::{read_command, read_commands};
    pub use chancery_intake::commands::*;
}

pub mod config;
pub mod engine;
pub mod games;
pub mod outgoing;
pub mod service;
pub mod store;
pub mod transport;

/// The development stack: a private mail server, the scripted demo game and the benchmarks.
/// Not part of the server; `chancery demo` and `chancery bench` run it.
#[doc(hidden)]
pub mod dev;
