//! The development stack: [`localstack`] (a private Dovecot and Postfix on loopback, started by
//! scripts/mailstack), [`demo`] (1901 played by seven scripted players) and [`bench`] (receipt
//! latency, ingestion, the deadline storm over the real stack).

pub mod bench;
pub mod demo;
pub mod localstack;
mod smtp_baseline;
