//! The sender of a player's mail: answered before it is proven who sent it (as a registered
//! address only if it is one), proven to be the seat's registered player by secret or DKIM (WM
//! D.X(6)), and answered after. What every kind of game does with its players' mail before its
//! own reading.

use super::Result;
use super::house::{House, Proof};
use super::receive::{Ctx, Recipient, answer, masters_for, recipient_kind};
use crate::acceptance::AuthError;
use crate::config::Env;
use crate::message::ReadMessage;
use crate::outgoing::compose;
use crate::store::Conn;
use crate::store::{self, GameRow, PlayerRow};

/// A seat a mail is for: its registered player, and the game's players (to name the sender's
/// own seat in a report of a forgery), in the phase the mail came in.
pub struct Seat<'a> {
    pub player: &'a PlayerRow,
    pub players: &'a [PlayerRow],
    pub phase: &'a str,
}

/// Refuse a mail whose sender is not yet proven: From is answered as registered only if it is
/// (a stranger gets the limits a stranger gets).
pub async fn refuse_unproven(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
    why: String,
) -> Result<()> {
    let from = msg.from_address.clone().unwrap_or_default();
    let sender = recipient_kind(c, env, &from, &msg.authentication_results).await?;
    let mail = compose::rejection(env, &g.gm_address, &from, msg, ctx.key, &[why], ctx.now);
    answer(c, env, ctx, mail, sender, Some(g)).await?;
    Ok(())
}

/// Refuse a mail from the seat's proven player, answered at their registered address.
pub async fn refuse(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
    player: &PlayerRow,
    why: String,
) -> Result<()> {
    let to = &player.address;
    let mail = compose::rejection(env, &g.gm_address, to, msg, ctx.key, &[why], ctx.now);
    answer(c, env, ctx, mail, Recipient::Registered, Some(g)).await?;
    Ok(())
}

/// Whether the seat's registered player sent the mail, proven by the secret it gives
/// (`secret`) or our server's DKIM pass, as the house rules want. If not, nothing of it is
/// used: the player is told at the registered address, and the masters get a report (WM
/// D.X(6)); a wrong secret is counted for the masters' digest, never a lockout (a forger could
/// use one to lock the real player out, and 64 random bits make guessing hopeless).
#[allow(clippy::too_many_arguments)]
pub async fn proven(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
    house: &dyn House,
    seat: &Seat<'_>,
    secret: Option<&str>,
) -> Result<bool> {
    let player = seat.player;
    let from = msg.from_address.clone().unwrap_or_default();
    let Err(e) = house.authenticate(&Proof {
        from: &from,
        registered: &player.address,
        secret_given: secret,
        secret: &player.secret,
        auth_results: &msg.authentication_results,
        authserv_id: &env.authserv_id,
    }) else {
        return Ok(true);
    };
    if e == AuthError::WrongSecret {
        store::add_wrong_secret(c, &g.id, &player.power).await?;
    }
    let why = e.to_string();
    let to_player = compose::auth_rejection(
        env,
        g,
        &player.power,
        &player.address,
        ctx.key,
        &why,
        ctx.arrived,
    );
    answer(c, env, ctx, Ok(to_player), Recipient::Registered, Some(g)).await?;
    report_to_masters(c, env, ctx, msg, g, house, seat, &why).await?;
    Ok(false)
}

/// Tell each master of a mail for a seat that did not prove it came from its player: it may
/// be a forgery.
#[allow(clippy::too_many_arguments)]
async fn report_to_masters(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
    house: &dyn House,
    seat: &Seat<'_>,
    why: &str,
) -> Result<()> {
    let from = msg.from_address.clone().unwrap_or_default();
    for to in masters_for(c, env, Some(g)).await? {
        let sender_power = seat
            .players
            .iter()
            .find(|p| p.address.eq_ignore_ascii_case(&from))
            .map(|p| p.power.clone());
        let report = compose::impersonation(
            env,
            &to,
            &g.id,
            seat.phase,
            &house.phase_title(seat.phase),
            seat.player,
            sender_power,
            msg,
            ctx.key,
            why,
            ctx.now,
        );
        // Through the limits: a forger must not be able to flood the masters either.
        answer(c, env, ctx, report, Recipient::Registered, Some(g)).await?;
    }
    Ok(())
}

/// The secret a mail gives (a `SECRET` or `PASSWORD` line, or the subject's) and its lines
/// without it.
pub fn split_secret(msg: &ReadMessage) -> (Option<String>, String) {
    let mut secret = crate::sections::secret_in_subject(&msg.subject);
    let mut body = String::new();
    for l in &msg.lines {
        let mut words = l.text.split_whitespace();
        let first = words.next().unwrap_or("").trim_end_matches(':');
        if first.eq_ignore_ascii_case("secret") || first.eq_ignore_ascii_case("password") {
            let given: Vec<&str> = words.collect();
            if !given.is_empty() {
                secret = Some(given.join(" "));
            }
            continue;
        }
        body.push_str(&l.text);
        body.push('\n');
    }
    (secret, body)
}

/// A player's mail to a running game whose seat is its sender's address (a kind whose subject
/// names no seat: the Nomic, the ACWC office): addressed as the house rules want, from a
/// registered player's address (else refused with `stranger`, answered as a stranger is),
/// proven by its secret or our server's DKIM pass. The player and the mail's lines without the
/// secret; None if refused (and answered).
pub async fn proven_player(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
    house: &dyn House,
    stranger: String,
) -> Result<Option<(PlayerRow, String)>> {
    if let Err(e) = house.check_addressing(&g.gm_address, &msg.to, &msg.cc) {
        refuse_unproven(c, env, ctx, msg, g, e.to_string()).await?;
        return Ok(None);
    }
    let from = msg.from_address.clone().unwrap_or_default();
    let players = store::players(c, &g.id).await?;
    let Some(player) = players
        .iter()
        .find(|p| p.address.eq_ignore_ascii_case(&from))
        .cloned()
    else {
        refuse_unproven(c, env, ctx, msg, g, stranger).await?;
        return Ok(None);
    };
    tracing::Span::current().record("power", player.power.as_str());
    let (secret, body) = split_secret(msg);
    let seat = Seat {
        player: &player,
        players: &players,
        phase: "",
    };
    if !proven(c, env, ctx, msg, g, house, &seat, secret.as_deref()).await? {
        return Ok(None);
    }
    Ok(Some((player, body)))
}
