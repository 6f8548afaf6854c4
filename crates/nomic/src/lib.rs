//! The Nomic by mail (issue 25), pure: Suber's Initial Set as the 2019 game edited it
//! (`../shared/rules/nomic-initial-rules-2019.json`), its rules 101-118 and 201-215 as
//! functions. Nothing here reads a clock or a file: every moment is passed in ([`Ts`], UTC).
//!
//! - [`settings`]: the game's numbers (Nomic 202-205, 207, 210, 211, 214) as one typed struct,
//!   the `nomic2019` preset (`config/presets/nomic2019.toml`), and an adopted `set` applied to
//!   them; every function below that enforces one of these numbers takes them.
//! - [`uk_time`]: Nomic 106, UK time with daylight saving, a UK day's weekday and its end.
//! - [`circuit`]: Nomic 201, each player's allocated weekday; the circuit of turns; Nomic 204's
//!   "end of the second complete circuit" and the threshold it sets.
//! - [`grammar`]: Nomic 107's `Rule-change:` line read as a typed rule-change.
//! - [`proposal`]: Nomic 107, 109, 111, 201, 202: is a proposal proper, its number, how it is
//!   voted on, and the changes it makes to the rule set once adopted.
//! - [`votes`]: Nomic 113, 201, 204: `Vote: Yes` / `Vote: No`, the first vote final, the vote
//!   closing at the end of the UK day, weekend votes void; counted by the office's `Poll`.
//! - [`points`]: Nomic 203, 205, 207, 210: points for and against, and the winner.
//! - [`mail`]: a player's mail body read into typed items (a rule-change, a vote, a Point of
//!   Order, a Judgement, a dispute, an opinion, a request for the rules, history or points).
//! - [`point_of_order`]: Nomic 214's Points of Order as a state machine replayed from the
//!   stored messages: the Judge, forfeits, Judgements, disputes, opinions, overruling and
//!   invoking, what is allowed and when the clock next matters.
//! - [`rules`]: Nomic 211 (at most 25 mutable rules, or the game's number) and Nomic 110 (a renumbered rule's
//!   references): the file's `linksto` and the references in the rules' text.
//!
//! The Nomic is a kind of game of its own: it builds on the office (`chancery-office`) and never
//! on another kind's crate.

pub mod circuit;
pub mod grammar;
pub mod house;
pub mod mail;
pub mod point_of_order;
pub mod points;
pub mod proposal;
pub mod rules;
pub mod settings;
pub mod uk_time;
pub mod votes;

pub use chancery_office::Ts;
