//! Diplomacy's server part: its mail (orders, press, votes), its tick step (adjudicating at the
//! deadline) and its own commands, over what every kind shares (`crate::engine`). Its pure part
//! is the `chancery_core` crate (maps, orders, the adjudicator, the house rules).
