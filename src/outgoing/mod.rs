//! Everything Chancery sends, up to the outbox. What every kind of game shares: [`ids`]
//! (Message-IDs and digests), [`compose`] (addressing, threading, the outbox's mail shape, and
//! the mails every kind sends), [`render`] (the template engine and the shared views),
//! [`notices`] (the bodies of the shared notices, alerts and answers of several lines, one
//! template each), [`time`] (times shown in GMT and the reader's zone). One folder per kind of
//! game for its own mails (Diplomacy's today): the shared files never name it
//! (`scripts/check-purity`). Nothing here reads the store or the engine: callers pass in what a
//! mail needs.

pub mod acwc;
pub mod compose;
pub mod diplomacy;
pub mod html;
pub mod ids;
pub mod nomic;
pub mod notices;
pub mod render;
pub mod time;
