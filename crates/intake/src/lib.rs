//! Chancery's mail reading, shared by every kind of game, with no I/O: a raw mail in, what it
//! says out. A kind's own words (Diplomacy's orders, phases and powers) are the kind's: its
//! crate reads them on top of this one (`chancery_diplomacy::reader`, `orderset`), and hands
//! this crate what it needs of them through traits ([`sections::Powers`],
//! [`commands::CommandSyntax`]) or as plain values ([`acceptance`]). This crate depends on no
//! kind's crate (scripts/check-purity proves it).
//!
//! - [`message`]: MIME, charsets, HTML, quotes and signatures, the head of a mail even when its
//!   body is refused.
//! - [`authres`]: Authentication-Results (RFC 8601), trusted only from our own server.
//! - [`sections`]: a body split into orders, press, secret, votes and requests.
//! - [`acceptance`]: addressing, subject and sender checks.
//! - [`commands`], [`td_commands`]: a master's and a tournament director's command mail.

pub mod acceptance;
pub mod authres;
pub mod commands;
pub mod message;
pub mod sections;
pub mod td_commands;
