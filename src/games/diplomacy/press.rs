//! Press in an order mail: capped per player and phase by the server, and stored once the mail
//! is accepted (published with the results, as the house rules say: white, grey, black).

use crate::config::Limits;
use crate::engine::Result;
use crate::games::diplomacy::store::{self, GameRow};
use crate::orderset::{MailRead, PressStatus};
use crate::store::Conn;
use crate::time::Ts;

/// Refuse the press of this mail beyond the server's cap for one player in one phase
/// (`[limits] press_per_phase`, `press_bytes_per_phase`): the pieces and bytes accepted before
/// it are read from the store. Pieces are taken in the order written until one would pass
/// either cap; it and every later piece are refused, and the acknowledgement says why. The
/// rulebooks set no cap; this keeps one player from burying the results (and everyone's
/// mailbox) in press.
pub async fn cap(
    c: &mut Conn,
    g: &GameRow,
    phase: &str,
    power: &str,
    read: &mut MailRead,
    limits: &Limits,
) -> Result<()> {
    if read.press.iter().any(|p| p.status == PressStatus::Accepted) {
        let sent = store::press_sent(c, &g.id, phase, power).await?;
        cap_press(read, sent, limits);
    }
    Ok(())
}

/// [`cap`], given `sent`: the pieces and bytes accepted before this mail.
pub fn cap_press(read: &mut MailRead, sent: (i64, i64), limits: &Limits) {
    let (mut pieces, mut bytes) = sent;
    let mut full = false;
    for p in read
        .press
        .iter_mut()
        .filter(|p| p.status == PressStatus::Accepted)
    {
        let size = i64::try_from(p.body.len()).unwrap_or(i64::MAX);
        full = full
            || pieces >= limits.press_per_phase
            || bytes.saturating_add(size) > limits.press_bytes_per_phase;
        if full {
            p.status = PressStatus::Refused;
            p.message = Some(format!(
                "refused: this server takes at most {} pieces of press, {} bytes in all, from \
                 a player in a phase, and this piece would pass it; send it with the next phase",
                limits.press_per_phase, limits.press_bytes_per_phase
            ));
            continue;
        }
        pieces += 1;
        bytes += size;
    }
}

/// Store the accepted press of a mail from `power` in `phase`.
pub async fn store(
    c: &mut Conn,
    g: &GameRow,
    phase: &str,
    power: &str,
    read: &MailRead,
    now: Ts,
) -> Result<()> {
    for p in read
        .press
        .iter()
        .filter(|p| p.status == PressStatus::Accepted)
    {
        let recipients =
            serde_json::to_string(&p.to.iter().filter(|t| *t != "ALL").collect::<Vec<_>>())?;
        let press = store::NewPress {
            author: power,
            recipients_json: &recipients,
            grey: p.grey,
            signature: p.signature.as_deref(),
            attributed: p.as_power.as_deref(),
            body: &p.body,
        };
        store::insert_press(c, &g.id, phase, &press, now).await?;
    }
    Ok(())
}
