//! Chancery: a play-by-email Diplomacy game-master server.
//!
//! The core is pure: [`map`] (variants as data), [`order`] (typed orders and their canonical
//! notation), [`rules`] (house rules and presets), [`phase`] and [`adjudicator`]. The
//! `chancery adjudicate` contract is in [`json`].

pub mod adjudicator;
pub mod config;
pub mod digest;
pub mod engine;
pub mod game;
pub mod json;
pub mod mails;
pub mod map;
pub mod message;
pub mod order;
pub mod orderset;
pub mod phase;
pub mod reader;
pub mod render;
pub mod rules;
pub mod sections;
pub mod service;
pub mod store;
pub mod transport;
