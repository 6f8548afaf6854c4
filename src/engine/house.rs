//! A game's house, as the shared steps ask it: the questions every kind of game answers in its
//! own words. Its house rules on time (whether a mail is late, how long a turn runs, what an
//! extension or an unavailable period may be), on proof and addressing, the options SET
//! changes, its phases and seats, and the mails of its own that a shared command sends (a
//! start mail, a seat handed over, the SUMMARY).
//!
//! `src/games/<kind>/` implements [`House`] for its games (Diplomacy's delegates to its pure
//! `policy` and `Rules`); `src/games` gives the shared steps a game's house ([`Houses`]), the one
//! place that matches on the kind. What crosses this seam is plain values (times, names, the
//! store's rows) and the shared layers' own types, so the engine never names a kind's types.
//! Where a step needs a kind's phase, the kind reads it from the store's row itself.

use super::Result;
use crate::acceptance::{self, AddressingError, AuthError};
use crate::config::Env;
use crate::outgoing::compose::Composed;
use crate::settings::{Authentication, GmAddress};
use crate::store::Conn;
use crate::store::{GameRow, PhaseRow};
use crate::time::{Ts, Window};
use std::future::Future;
use std::pin::Pin;

/// Why a kind's house rules refuse a request or an option: in its own words, which the answer
/// quotes as they are.
pub type Refusal = Box<dyn std::error::Error + Send + Sync>;

/// A kind's step that reads the store. Boxed: a [`House`] is used behind `dyn`, as the kind of
/// a game is known only once its row is read.
pub type Step<'a, T> = Pin<Box<dyn Future<Output = Result<T>> + Send + 'a>>;

/// How a mail stands against its phase's deadline (WM D.VII(3), D.VII(6)(b)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timeliness {
    OnTime,
    /// After the deadline, but accepted until adjudication starts (Maharajiad B.VIII(3)).
    LateAccepted,
    /// After the deadline and refused (WM D.VII(3)).
    LateRefused,
    /// After the deadline, while an NMR holds the results, from the replacement the GM named
    /// since the deadline: the only orders a held phase takes (WM D.VII(6)(b)).
    Replacement,
}

/// What may prove who sent a mail (WM D.X(6)): the secret it gives, and what our receiving
/// server recorded of the sender's domain.
pub struct Proof<'a> {
    /// The mail's From.
    pub from: &'a str,
    /// The address registered for the seat or the desk.
    pub registered: &'a str,
    /// The secret the mail gives, if any.
    pub secret_given: Option<&'a str>,
    /// The secret registered with the address.
    pub secret: &'a str,
    /// The mail's Authentication-Results fields.
    pub auth_results: &'a [String],
    /// Our receiving server's id in them.
    pub authserv_id: &'a str,
}

/// A house rule as SET changed it.
pub struct Changed {
    /// The game's house rules as the store keeps them (`games.rules`).
    pub stored: String,
    /// The option's new value, as the players are told it.
    pub shown: String,
    /// The rulebook's clause for the option.
    pub clause: &'static str,
}

/// A seat REPLACE hands over: the new player's welcome shows what they take over.
pub struct Handover<'a> {
    /// The seat's name, as the kind spells it ([`House::seat_name`]).
    pub seat: &'a str,
    pub address: &'a str,
    /// The new player's secret.
    pub secret: &'a str,
    pub tenure: Tenure,
}

// Whether a replacement is for good or until the player returns: the store keeps it with the
// replacement (`replacements.kind`), so the type is the store's.
pub use crate::store::Tenure;

/// One game's house, as its kind reads it (from the game's row: its house rules, its map or
/// board). Each method is one question a shared step asks; none writes to the store.
pub trait House: Send + Sync {
    /// The settings a mail's acceptance reads, as the game's house rules keep them: where the
    /// GM's address must be, and how a sender proves who they are.
    fn acceptance(&self) -> (GmAddress, Authentication);

    /// Why this kind of game has no phases, deadlines or extensions, in its own words with its
    /// clause: the answer of the turn questions' default methods below, which a kind of game
    /// without turns (the Nomic, the ACWC office) keeps and a kind with turns (Diplomacy)
    /// answers each itself.
    fn turnless(&self) -> &'static str {
        "this kind of game has no phases or deadlines"
    }

    /// [`House::turnless`] as the error a turn question gets.
    fn no_turns(&self) -> super::EngineError {
        super::EngineError::Refused(self.turnless().to_string())
    }

    /// Whether the mail comes from the registered address, proven by its secret or our
    /// server's DKIM pass, as the house rules want (WM D.X(6)).
    fn authenticate(&self, p: &Proof<'_>) -> std::result::Result<(), AuthError> {
        acceptance::authenticate(
            self.acceptance().1,
            p.from,
            p.registered,
            p.secret_given,
            p.secret,
            p.auth_results,
            p.authserv_id,
        )
        .map(|_| ())
    }
    /// Whether the GM's address `gm` is where the house rules want it (WM D.II(2)).
    fn check_addressing(
        &self,
        gm: &str,
        to: &[String],
        cc: &[String],
    ) -> std::result::Result<(), AddressingError> {
        acceptance::check_addressing(self.acceptance().0, gm, to, cc)
    }
    /// Whether the GM must be addressed in To only (Maharajiad B.III(2)), as a receipt says.
    fn gm_in_to_only(&self) -> bool {
        self.acceptance().0 == GmAddress::To
    }

    /// A mail submitted at `submitted` against a phase's `deadline` (WM D.VII(3)).
    #[allow(unused_variables)]
    fn timeliness(&self, submitted: Ts, deadline: Ts, adjudication_started: bool) -> Timeliness {
        Timeliness::OnTime
    }
    /// The same in a phase whose results an NMR holds (WM D.VII(6)(b)); `replaced_at`: when the
    /// seat's player was last replaced in it.
    #[allow(unused_variables)]
    fn timeliness_held(&self, submitted: Ts, deadline: Ts, replaced_at: Option<Ts>) -> Timeliness {
        Timeliness::OnTime
    }

    /// The deadline of the turn of stored phase `phase` begun at `start`, out of `windows`.
    #[allow(unused_variables)]
    fn turn_deadline(&self, phase: &PhaseRow, start: Ts, windows: &[Window]) -> Result<Ts> {
        Err(self.no_turns())
    }
    /// Why `deadline` is too soon for stored phase `phase`, if it is (WM D.VII(4)(a)).
    #[allow(unused_variables)]
    fn deadline_too_soon(&self, phase: &PhaseRow, deadline: Ts) -> Result<Option<String>> {
        Err(self.no_turns())
    }
    /// `t` moved out of every unavailable period it falls in (WM D.VII(2)).
    #[allow(unused_variables)]
    fn past_windows(&self, t: Ts, windows: &[Window]) -> Ts {
        t
    }

    /// An extension of `days` asked at `asked` by a seat that has used `used_days`: the new
    /// deadline, or why not (WM D.VII(5)).
    #[allow(unused_variables)]
    fn extend(
        &self,
        deadline: Ts,
        asked: Ts,
        days: u32,
        used_days: u32,
        windows: &[Window],
    ) -> std::result::Result<Ts, Refusal> {
        Err(self.turnless().into())
    }
    /// Whether the next extension a seat asks is granted as of right (WM D.VII(5)).
    #[allow(unused_variables)]
    fn extension_is_guaranteed(&self, granted_before: u32) -> bool {
        false
    }
    /// A holiday's extension: its days, and the deadline it gives (WM D.VII(5)).
    #[allow(unused_variables)]
    fn holiday_extension(&self, deadline: Ts, from: Ts, to: Ts, windows: &[Window]) -> (u32, Ts) {
        (0, deadline)
    }
    /// The notice an extension or an unavailable period needs, in hours (WM D.VII(5)).
    #[allow(unused_variables)]
    fn extension_notice_hours(&self) -> u32 {
        0
    }
    /// The longest unavailable period, in hours (WM D.VII(2)).
    #[allow(unused_variables)]
    fn unavailable_hours_max(&self) -> u32 {
        0
    }
    /// A dated unavailable period declared at `now`, or why not (WM D.VII(2)). `nearest`: the
    /// player's period nearest it within a week either side, and whether it is weekly;
    /// `ahead`: how many dated ones they have to come.
    #[allow(unused_variables)]
    fn unavailable_window(
        &self,
        from: Ts,
        to: Ts,
        now: Ts,
        nearest: Option<(Window, bool)>,
        ahead: u32,
    ) -> std::result::Result<Window, Refusal> {
        Err(self.turnless().into())
    }
    /// The occurrences of a weekly period declared at `now` that stand (WM D.VII(2)); `own`:
    /// the player's other periods.
    #[allow(unused_variables)]
    fn weekly_occurrences(&self, occurrences: Vec<Window>, now: Ts, own: &[Window]) -> Vec<Window> {
        Vec::new()
    }

    /// SET `option` `value`: the house rules changed, or why not (`running`: the game has
    /// started, and the rulebook's limits hold).
    fn set(
        &self,
        option: &str,
        value: &str,
        running: bool,
    ) -> Result<std::result::Result<Changed, Refusal>>;

    /// Whether `word` names a phase of this kind of game (a `HISTORY <phase>` query).
    #[allow(unused_variables)]
    fn is_phase(&self, word: &str) -> bool {
        false
    }
    /// Whether this game's results mails show a map (the reader may say MAP OFF and MAP ON).
    fn draws_maps(&self) -> bool {
        false
    }
    /// The key of the map of game `g` in phase `phase` (`outbox_pictures`), for a
    /// `HISTORY <phase>` answer to show; None if the kind draws none.
    #[allow(unused_variables)]
    fn map_key(&self, g: &GameRow, phase: &str) -> Option<String> {
        None
    }
    /// Stored phase `phase` in the kind's own words, as a report to the masters names it.
    #[allow(unused_variables)]
    fn phase_title(&self, phase: &str) -> String {
        phase.to_string()
    }
    /// The seat `written` names (a power, however the master wrote it), as the kind spells it;
    /// None if the game has no such seat.
    #[allow(unused_variables)]
    fn seat_name(&self, written: &str) -> Result<Option<String>> {
        Ok(None)
    }

    /// The first mail of an observer added to the game under way, in `phase` if the kind has
    /// turns: the game so far, and how to stop its mail. None if the kind sends none then (a
    /// game of turns between them).
    fn welcome_observer(
        &self,
        env: &Env,
        g: &GameRow,
        phase: Option<&PhaseRow>,
        address: &str,
        tz: &str,
    ) -> Option<Composed>;
    /// The welcome of a seat's new player in `phase`, with what they take over (the seat's
    /// position and standing orders, as the kind keeps them).
    #[allow(unused_variables)]
    fn handover<'a>(
        &'a self,
        c: &'a mut Conn,
        env: &'a Env,
        g: &'a GameRow,
        phase: &'a PhaseRow,
        h: &'a Handover<'a>,
    ) -> Step<'a, Composed> {
        Box::pin(async move { Err(self.no_turns()) })
    }
    /// The SUMMARY query's answer: the game's course in the kind's own terms.
    fn summary<'a>(&'a self, c: &'a mut Conn, g: &'a GameRow) -> Step<'a, String>;

    /// Where each seat's orders stand for stored turn `phase` (STATUS says which seats have
    /// orders in, never what they are): (seat, state), the seats that have sent any.
    #[allow(unused_variables)]
    fn orders_in<'a>(
        &'a self,
        c: &'a mut Conn,
        g: &'a GameRow,
        phase: &'a PhaseRow,
    ) -> Step<'a, Vec<(String, OrdersIn)>> {
        Box::pin(async move { Ok(Vec::new()) })
    }
    /// Who sent the accepted order mails of `seat` in stored turn `phase`, and when they were
    /// submitted, in that order (Agora BT7: `<game> SUBMITTED`, the seat's player asking).
    #[allow(unused_variables)]
    fn submitters<'a>(
        &'a self,
        c: &'a mut Conn,
        g: &'a GameRow,
        phase: &'a PhaseRow,
        seat: &'a str,
    ) -> Step<'a, Vec<(String, Ts)>> {
        Box::pin(async move { Ok(Vec::new()) })
    }
    /// Roll game `g` back to stored turn `phase`, to be played again by `deadline` (WM
    /// D.VIII(1)): what the kind stored of the turns after it is undone.
    #[allow(unused_variables)]
    fn roll_back<'a>(
        &'a self,
        c: &'a mut Conn,
        g: &'a GameRow,
        phase: &'a PhaseRow,
        deadline: Ts,
        now: Ts,
    ) -> Step<'a, ()> {
        Box::pin(async move { Err(self.no_turns()) })
    }
    /// What seat `seat`'s player chose for themselves in the kind's own terms, forgotten when
    /// another player takes the seat over (REPLACE).
    #[allow(unused_variables)]
    fn forget_choices<'a>(
        &'a self,
        c: &'a mut Conn,
        g: &'a GameRow,
        seat: &'a str,
    ) -> Step<'a, ()> {
        Box::pin(async move { Ok(()) })
    }
}

/// Where a seat's orders stand for a turn (STATUS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrdersIn {
    /// Orders are in, and may still change.
    In,
    /// The seat marked them final.
    Final,
}

impl OrdersIn {
    pub fn as_str(self) -> &'static str {
        match self {
            OrdersIn::In => "in",
            OrdersIn::Final => "final",
        }
    }
}

/// Each game's house, as its kind reads it from the game's row: `src/games` implements it, the
/// one place that knows the kinds of game.
pub trait Houses: Sync {
    fn house(&self, g: &GameRow) -> Result<Box<dyn House>>;
}
