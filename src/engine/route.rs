//! The GM box's router: which game (or tournament) a mail is for, and what kind of mail it is.
//! A mail for no game, a player's query and a mail to a game that is not running are answered
//! here (a query in the words of the game's house); a director's command mail, a master's
//! command mail and a player's mail to a running game go back to `src/games`, which knows what
//! executes a game's or a tournament's commands and what a kind of game does with its players'
//! mail.

use super::house::Houses;
use super::query_mail::{query_mail, query_of};
use super::receive::{Ctx, Recipient, Tag, answer, drop_mail, recipient_kind, take_game};
use super::{Processed, Result, gm_mail};
use crate::config::Env;
use crate::message::ReadMessage;
use crate::outgoing::compose;
use crate::store::Conn;
use crate::store::{self, GameRow, GameStatus};

/// Where a mail to the GM box goes.
pub enum Routed {
    /// Answered (or dropped) here: what became of it.
    Answered(Processed, Tag),
    /// A master's command mail for this game (`<game> GM`).
    Commands(GameRow),
    /// A player's mail to this running game: the game's kind handles it.
    Player(GameRow),
    /// A mail to this game before it has started: the game's kind handles it (an entry, Agora
    /// BT1) or answers it with [`not_running`].
    Forming(GameRow),
}

/// Where a mail to the GM box goes; `houses` gives a game's house, in whose words a query is
/// read and answered.
pub async fn route(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    houses: &impl Houses,
) -> Result<Routed> {
    let g = match take_game(c, msg, ctx.inc).await? {
        store::Taken::Game(g) => g,
        store::Taken::Absent => {
            no_game(c, env, ctx, msg).await?;
            return Ok(Routed::Answered(Processed::Rejected, Tag::default()));
        }
        // Another instance's mail or a tick has the game now (issue 28).
        store::Taken::Held(_) => {
            return Ok(Routed::Answered(Processed::Claimed, Tag::default()));
        }
    };
    if gm_mail::is_command_subject(&msg.subject, &g.id) {
        return Ok(Routed::Commands(g));
    }
    // A house that cannot be read names no phase: the mail is then no query.
    let is_phase = |p: &str| houses.house(&g).is_ok_and(|h| h.is_phase(p));
    if let Some(q) = query_of(&msg.subject, &g.id, is_phase) {
        let house = houses.house(&g)?;
        let (outcome, tag) = query_mail(c, env, ctx, msg, &g, &*house, &q).await?;
        return Ok(Routed::Answered(outcome, tag));
    }
    if g.status == GameStatus::Forming {
        return Ok(Routed::Forming(g));
    }
    if g.status != GameStatus::Active {
        not_running(c, env, ctx, msg, &g).await?;
        return Ok(Routed::Answered(Processed::Rejected, Tag::of(&g)));
    }
    Ok(Routed::Player(g))
}

/// A mail for no game this server knows of: the sender is told how to name one (within the
/// limits a stranger gets), or nothing if there is no sender.
async fn no_game(c: &mut Conn, env: &Env, ctx: &Ctx<'_>, msg: &ReadMessage) -> Result<()> {
    let from = msg.from_address.clone().unwrap_or_default();
    if from.is_empty() {
        return drop_mail(c, ctx, None, None, "no sender to answer").await;
    }
    let who = recipient_kind(c, env, &from, &msg.authentication_results).await?;
    let mine = store::active_games_of(c, &from).await?;
    let why = if mine.len() > 1 {
        let names: Vec<&str> = mine.iter().map(|g| g.id.as_str()).collect();
        format!(
            "you play in several games ({}); put the game's name in the subject",
            names.join(", ")
        )
    } else if who == Recipient::Registered {
        "no active game of this server is named in the subject; put the game's name in it"
            .to_string()
    } else {
        "no game of this server is named in the subject, and this address plays in none".to_string()
    };
    let mail = compose::rejection(env, &env.alert_from, &from, msg, ctx.key, &[why], ctx.now);
    answer(c, env, ctx, mail, who, None).await?;
    Ok(())
}

/// A player's mail to a game that has not started or is over: a polite answer saying so.
pub(crate) async fn not_running(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
) -> Result<()> {
    let why = match g.status {
        GameStatus::Finished => format!(
            "game {} is over: nothing more is played in it. Thank you for playing",
            g.id
        ),
        _ => format!(
            "game {} has not started yet; its mail is taken once it has",
            g.id
        ),
    };
    let from = msg.from_address.clone().unwrap_or_default();
    let sender = recipient_kind(c, env, &from, &msg.authentication_results).await?;
    let mail = compose::rejection(env, &g.gm_address, &from, msg, ctx.key, &[why], ctx.now);
    answer(c, env, ctx, mail, sender, Some(g)).await?;
    Ok(())
}
