//! Time as every kind of game counts it: a moment is seconds since the Unix epoch, UTC (GMT is
//! canonical; local time is only ever shown beside it). Nothing here reads a clock: the moment
//! is always passed in.

/// A moment: seconds since the Unix epoch, UTC.
pub type Ts = i64;

pub const MINUTE: Ts = 60;
pub const HOUR: Ts = 60 * MINUTE;
pub const DAY: Ts = 24 * HOUR;
pub const WEEK: Ts = 7 * DAY;

/// A period in which a player is unavailable (WM D.VII(2), and any kind's house rule like it):
/// nothing is published in it, and no deadline falls in it. `to` is exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub from: Ts,
    pub to: Ts,
}

impl Window {
    pub fn contains(&self, t: Ts) -> bool {
        self.from <= t && t < self.to
    }
}
