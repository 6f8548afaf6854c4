//! What Diplomacy's tick reads of one game's phase ([`Turn`]) and what it decides for it
//! ([`Decision`]): the types the tick's steps (`tick.rs` and the files it calls) share, in a
//! file of their own so that those steps import them without importing each other.

use super::*;
use super::{board_from_json, map_of};

/// What the tick decided for one game. Pure: made from the game's facts and the clock.
pub enum Decision {
    Idle,
    /// The deadline has passed, but a mailbox has not been read through it yet.
    Waiting,
    /// The day before the deadline: reminders and the digest.
    Remind(Vec<NewMail>),
    /// An NMR holds the results (WM D.VII(6)(b)): the masters are told; the phase stays closed
    /// at its deadline, and the tick looks again at `until` (or when the replacement's orders
    /// come).
    Hold {
        mails: Vec<NewMail>,
        until: Ts,
        /// The powers without orders.
        missing: Vec<String>,
    },
    Adjudicated {
        /// Boxed: far larger than the other decisions (the house rules a vote changed).
        record: Box<store::Adjudicated>,
        mails: Vec<NewMail>,
        /// The maps the results mails show, one a phase.
        maps: Vec<super::maps::PhaseMap>,
    },
}

impl Decision {
    /// The decision with what the count of the phase's votes decided, for the store's record:
    /// the votes are spent (WM IX(2)) whether the phase is adjudicated or the game ends instead.
    pub fn counted(mut self, votes: store::Counted) -> Decision {
        if let Decision::Adjudicated { record, .. } = &mut self {
            record.votes = votes;
        }
        self
    }
}

/// One game's phase as the tick reads it: the facts, the house rules, the map and the board
/// (parsed once, typed), and the powers that owe orders in it.
pub(super) struct Turn<'a> {
    pub env: &'a Env,
    pub f: &'a GameFacts,
    pub rules: &'a Rules,
    pub map: &'static Map,
    pub board: Board,
    /// The powers with something to order in this phase.
    pub due: Vec<Power>,
    pub now: Ts,
}

impl<'a> Turn<'a> {
    pub fn read(env: &'a Env, f: &'a GameFacts, rules: &'a Rules, now: Ts) -> Result<Turn<'a>> {
        let map = map_of(&f.game)?;
        let board = board_from_json(map, &f.phase.board, &f.phase.phase)?;
        let due = powers_with_orders_due(map, &board);
        Ok(Turn {
            env,
            f,
            rules,
            map,
            board,
            due,
            now,
        })
    }

    /// The phase that follows on `board`, read in the same tick (Agora BT15, `one_order_set`:
    /// a retreat or adjustment phase resolved at once): the powers due are that board's.
    pub fn on_board(&self, board: Board) -> Turn<'a> {
        Turn {
            env: self.env,
            f: self.f,
            rules: self.rules,
            map: self.map,
            due: powers_with_orders_due(self.map, &board),
            board,
            now: self.now,
        }
    }

    /// The same phase under other house rules (a preview without the NMR hold).
    pub fn with_rules<'b>(&'b self, rules: &'b Rules) -> Turn<'b> {
        Turn {
            env: self.env,
            f: self.f,
            rules,
            map: self.map,
            board: self.board.clone(),
            due: self.due.clone(),
            now: self.now,
        }
    }
}
