//! A proven player's mail as each of its lines' files sees it (`propose`, `vote`, `order`,
//! `record`): its game, its player, when it arrived, and how to answer it. Below `mail`, which
//! proves the sender and hands the lines over.

use super::store::{Conn, GameRow, PlayerRow};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::receive::{Ctx, Recipient, answer};
use crate::message::ReadMessage;
use crate::outgoing::compose;
use crate::time::Ts;

/// The mail being handled: its game, its proven player, and when it arrived (the moment every
/// rule counts from: Nomic 106, 113, 202).
pub(super) struct PlayerMail<'a> {
    pub env: &'a Env,
    pub ctx: &'a Ctx<'a>,
    pub msg: &'a ReadMessage,
    pub g: &'a GameRow,
    pub player: PlayerRow,
    pub at: Ts,
}

impl PlayerMail<'_> {
    /// An answer to this mail, at the player's registered address, within the limits.
    pub async fn answer(&self, c: &mut Conn, mail: compose::Composed) -> Result<()> {
        answer(
            c,
            self.env,
            self.ctx,
            mail,
            Recipient::Registered,
            Some(self.g),
        )
        .await?;
        Ok(())
    }
}

/// What became of one line.
pub(super) type Verdict = std::result::Result<(), String>;
