//! Diplomacy's server part: its mail (orders, press, votes, abbreviations, the confirmation
//! box's copies), its own commands, and (with the tick) adjudicating at the deadline, over what
//! every kind shares (`crate::engine`). Its pure part is the `chancery_core` crate (maps,
//! orders, the adjudicator, the house rules).

pub mod abbreviations;
pub mod commands;
pub mod orders;
pub mod press;
pub mod reading;
pub mod receipt;
