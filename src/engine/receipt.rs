//! The confirmation mailbox: a timestamped receipt for a registered player's mail (WM D.VII(1)).

use super::*;

/// The confirmation mailbox (WM D.VII(7)): record the time, answer with a receipt. Only
/// registered players get receipts: anyone else's mail is recorded and not answered (a forged
/// From would otherwise make the box mail anyone). The time vouches for the GM's copy of the
/// same mail only (`order_mail::confirmed_at`).
pub(super) async fn receipt(
    c: &mut SqliteConnection,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    size: u64,
) -> Result<Processed> {
    let Some(from) = msg.from_address.clone() else {
        drop_mail(c, ctx, None, None, "confirmation box: no sender").await?;
        return Ok(Processed::Dropped);
    };
    if !store::is_registered(c, &from).await? {
        let why = "confirmation box: the sender plays in no game";
        drop_mail(c, ctx, Some(&from), None, why).await?;
        return Ok(Processed::Dropped);
    }
    let game = find_game(c, msg).await?;
    let gm_address = game
        .as_ref()
        .map(|g| g.gm_address.clone())
        .unwrap_or_default();
    let mut to_only = false;
    let (addressing, orders, confirm) = match &game {
        Some(g) => {
            let rules = rules_of(g)?;
            // The wording follows the game's own addressing rule (WM D.II(2): To or CC;
            // Maharajiad B.III(2): To).
            to_only = rules.gm_address == crate::rules::GmAddress::To;
            let addressing = acceptance::check_addressing(&rules, &g.gm_address, &msg.to, &msg.cc);
            let orders = match power_and_phase(c, g, msg, &from).await? {
                Some(Addressed {
                    power,
                    phase: current,
                    ..
                }) => {
                    // Read against the phase the subject names, when the game has it: a receipt
                    // read late (an outage) must not read the orders against a later board.
                    let phase_row = match subject_phase(c, g, &msg.subject).await? {
                        Some(p) => p,
                        None => current,
                    };
                    let map = map_of(g)?;
                    let own =
                        super::abbreviations::stored(c, g, map, map.power_name(power)).await?;
                    let board = board_from_json(map, &phase_row.board, &phase_row.phase)?;
                    let read = read_with(map, &rules, power, &board, msg, &own);
                    // The time is kept only for a copy the GM's copy can be matched with: the
                    // GM addressed as the rules require (WM D.VII(7)), and what it says.
                    if addressing.is_ok() {
                        record(c, ctx, g, map, &from, msg, &read).await?;
                    }
                    read.understood()
                        .iter()
                        .map(|o| o.display(map).to_string())
                        .collect()
                }
                None => Vec::new(),
            };
            (addressing, orders, g.confirm_address.clone())
        }
        None => (
            Err("no game of this server is named in the subject or plays from this address".into()),
            Vec::new(),
            String::new(),
        ),
    };
    let confirm = if confirm.is_empty() {
        env.confirm_from.clone()
    } else {
        confirm
    };
    let mail = compose::receipt(
        env,
        &confirm,
        &gm_address,
        &from,
        msg,
        ctx.sha256,
        ctx.arrived,
        size,
        &orders,
        addressing.err(),
        to_only,
    );
    answer(c, env, ctx, mail, Recipient::Registered, game.as_ref()).await?;
    Ok(Processed::Receipted)
}

/// Record when the box received this copy (WM D.VII(1)), with what vouches for it: its
/// Message-ID, sender, game and a digest of what it says (`order_mail::read_digest`).
async fn record(
    c: &mut SqliteConnection,
    ctx: &Ctx<'_>,
    g: &GameRow,
    map: &Map,
    from: &str,
    msg: &ReadMessage,
    read: &MailRead,
) -> Result<()> {
    let Some(id) = &msg.message_id else {
        return Ok(());
    };
    let digest = read_digest(map, read)?;
    let copy = store::Confirmation {
        message_id: id,
        from,
        game: &g.id,
        read_digest: &digest,
    };
    Ok(store::record_confirmation(c, &copy, ctx.arrived).await?)
}

/// The phase of game `g` the subject names (`S1901M`), if the game has played or plays it.
async fn subject_phase(
    c: &mut SqliteConnection,
    g: &GameRow,
    subject: &str,
) -> Result<Option<PhaseRow>> {
    let named = subject
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|ch: char| !ch.is_alphanumeric())
                .to_ascii_uppercase()
        })
        .find(|w| w.parse::<Phase>().is_ok());
    match named {
        Some(p) => Ok(store::phase_named(c, &g.id, &p).await?),
        None => Ok(None),
    }
}
