//! Everything Chancery sends, up to the outbox: [`ids`] (Message-IDs and digests),
//! [`compose`] (one function per kind of mail), [`render`] (views, templates, time formatting),
//! [`centres`] (the table of supply centres by year), [`notices`] (the bodies of notices, alerts
//! and answers of several lines the engine and the kinds of game send, one template each).
//! Nothing here reads the store or the engine: callers pass in what a mail needs.

pub mod centres;
pub mod compose;
pub mod ids;
pub mod notices;
pub mod render;
