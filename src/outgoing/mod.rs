//! Everything Chancery sends, up to the outbox: [`ids`] (Message-IDs and digests),
//! [`compose`] (one function per kind of mail), [`render`] (views, templates, time formatting).
//! Nothing here reads the store or the engine: callers pass in what a mail needs.

pub mod compose;
pub mod ids;
pub mod render;
