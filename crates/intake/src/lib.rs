//! Chancery's mail reading, with no I/O: a raw mail in, what it says out.
//!
//! - [`message`]: MIME, charsets, HTML, quotes and signatures, the head of a mail even when its
//!   body is refused.
//! - [`authres`]: Authentication-Results (RFC 8601), trusted only from our own server.
//! - [`sections`]: a body split into orders, press, secret, votes and requests.
//! - [`reader`]: the forgiving order-line reader.
//! - [`orderset`]: a whole mail read into a [`orderset::MailRead`].
//! - [`acceptance`]: addressing, subject and sender checks.

pub mod acceptance;
pub mod authres;
pub mod commands;
pub mod message;
pub mod orderset;
pub mod reader;
pub mod sections;
pub mod td_commands;
