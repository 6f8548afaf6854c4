//! The confirmation mailbox: a timestamped receipt for a registered player's mail (WM D.VII(1),
//! D.VII(7)). Only registered players get receipts: anyone else's mail is recorded and not
//! answered (a forged From would otherwise make the box mail anyone). The time vouches for the
//! GM's copy of the same mail only: this copy's Message-ID, sender, game and a digest of what
//! it says, which the game's kind reads (`src/games`).

use super::house::House;
use super::receive::{Ctx, Recipient, answer, drop_mail};
use super::{Processed, Result};
use crate::config::Env;
use crate::message::ReadMessage;
use crate::outgoing::compose;
use crate::store::Conn;
use crate::store::{self, GameRow};

/// What the receipt says of a copy for no game this server knows of.
const NO_GAME: &str = "no game of this server is named in the subject or plays from this address";

/// What a game's kind read in a copy sent to the confirmation box.
pub struct CopyRead {
    /// What was understood, as the receipt shows it (a Diplomacy mail: its orders).
    pub shown: Vec<String>,
    /// A digest of what the copy says, which the GM's copy of the same mail must match.
    pub digest: String,
}

/// The registered sender of a mail to the confirmation box; None if it has none, or one with
/// no part in any game (the mail is recorded and dropped).
pub async fn sender(c: &mut Conn, ctx: &Ctx<'_>, msg: &ReadMessage) -> Result<Option<String>> {
    let Some(from) = msg.from_address.clone() else {
        drop_mail(c, ctx, None, None, "confirmation box: no sender").await?;
        return Ok(None);
    };
    if !store::is_registered(c, &from).await? {
        let why = "confirmation box: the sender plays in no game";
        drop_mail(c, ctx, Some(&from), None, why).await?;
        return Ok(None);
    }
    Ok(Some(from))
}

/// The copy of a registered player's mail to `game` (if found, with its house), as its kind
/// read it (if it could): its time recorded when it can vouch for the GM's copy, and the
/// receipt sent.
#[allow(clippy::too_many_arguments)]
pub async fn receipt(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    size: u64,
    from: &str,
    game: Option<(&GameRow, &dyn House)>,
    copy: Option<CopyRead>,
) -> Result<Processed> {
    // What the receipt says is wrong with the addressing (nothing if the GM is addressed as the
    // game's rules require), in the game's own words (WM D.II(2): To or CC; Maharajiad
    // B.III(2): To).
    let (misaddressed, to_only) = match game {
        Some((g, house)) => {
            let to_only = house.gm_in_to_only();
            let checked = house.check_addressing(&g.gm_address, &msg.to, &msg.cc);
            (checked.err().map(|e| e.to_string()), to_only)
        }
        None => (Some(NO_GAME.to_string()), false),
    };
    let game = game.map(|(g, _)| g);
    // The time is kept only for a copy the GM's copy can be matched with: the GM addressed as
    // the rules require (WM D.VII(7)), and what it says.
    if let (Some(g), Some(copy), None) = (game, &copy, &misaddressed) {
        record(c, ctx, g, from, msg, &copy.digest).await?;
    }
    let confirm = match game {
        Some(g) if !g.confirm_address.is_empty() => g.confirm_address.clone(),
        _ => env.confirm_from.clone(),
    };
    let gm_address = game.map(|g| g.gm_address.clone()).unwrap_or_default();
    let shown = copy.map(|c| c.shown).unwrap_or_default();
    let mail = compose::receipt(
        env,
        &confirm,
        &gm_address,
        from,
        msg,
        ctx.sha256,
        ctx.arrived,
        size,
        &shown,
        misaddressed,
        to_only,
    );
    answer(c, env, ctx, mail, Recipient::Registered, game).await?;
    Ok(Processed::Receipted)
}

/// Record when the box received this copy (WM D.VII(1)), with what vouches for it: its
/// Message-ID, sender, game and a digest of what it says.
async fn record(
    c: &mut Conn,
    ctx: &Ctx<'_>,
    g: &GameRow,
    from: &str,
    msg: &ReadMessage,
    digest: &str,
) -> Result<()> {
    let Some(id) = &msg.message_id else {
        return Ok(());
    };
    let copy = store::Confirmation {
        message_id: id,
        from,
        game: &g.id,
        read_digest: digest,
    };
    Ok(store::record_confirmation(c, &copy, ctx.arrived).await?)
}
