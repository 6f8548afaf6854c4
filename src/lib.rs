//! Chancery: a play-by-email Diplomacy game-master server.
//!
//! The core is pure: [`map`] (variants as data), [`order`] (typed orders and their canonical
//! notation), [`rules`] (house rules and presets), [`phase`] and [`adjudicator`]. The
//! `chancery adjudicate` contract is in [`json`].

pub mod adjudicator;
pub mod authres;
#[cfg(feature = "service")]
pub mod bench;
#[cfg(feature = "service")]
pub mod config;
#[cfg(feature = "service")]
pub mod demo;
#[cfg(feature = "service")]
pub mod digest;
#[cfg(feature = "service")]
pub mod engine;
pub mod game;
pub mod json;
#[cfg(feature = "service")]
pub mod localstack;
#[cfg(feature = "service")]
pub mod mails;
pub mod map;
pub mod message;
pub mod order;
pub mod orderset;
pub mod phase;
pub mod reader;
#[cfg(feature = "service")]
pub mod render;
pub mod rules;
#[cfg(feature = "service")]
pub mod secret;
pub mod sections;
#[cfg(feature = "service")]
pub mod service;
#[cfg(feature = "service")]
pub mod store;
#[cfg(feature = "service")]
pub mod transport;
