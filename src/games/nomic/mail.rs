//! A player's mail to a running Nomic: addressed as the house rules want, from a player's
//! registered address, proven (secret or DKIM), read into its lines (`nomic::mail`), and each
//! line handed to its file. Each line that does something answers for itself (a proposal is
//! put to every player, a vote is acknowledged, a Point of Order is told to all); the lines
//! refused and those not read are answered together, each with why. Nothing of a mail that
//! is not proven is used.

use super::house::NomicHouse;
use super::proven::PlayerMail;
use super::store::{Conn, GameRow};
use super::{order, propose, record, vote};
use crate::config::Env;
use crate::engine::receive::{Ctx, Tag};
use crate::engine::seat;
use crate::engine::{Processed, Result};
use crate::message::ReadMessage;
use crate::nomic::mail::{Item, read_mail};
use crate::outgoing::compose;
use crate::outgoing::nomic::compose as nomic_compose;
use crate::outgoing::nomic::render::RefusedView;

/// A player's mail to running Nomic `g`.
pub async fn player_mail(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
) -> Result<(Processed, Tag)> {
    let mut tag = Tag::of(g);
    let house = NomicHouse::of(g)?;
    let stranger = format!(
        "this address plays no part in game {}: players join by the GM's command",
        g.id
    );
    let Some((player, body)) = seat::proven_player(c, env, ctx, msg, g, &house, stranger).await?
    else {
        return Ok((Processed::Rejected, tag));
    };
    tag.power = Some(player.power.clone());
    let m = PlayerMail {
        env,
        ctx,
        msg,
        g,
        player,
        at: ctx.arrived,
    };
    Ok((read_lines(c, &m, &body).await?, tag))
}

/// Each line of a proven mail done, and the refused and unread ones answered together.
async fn read_lines(c: &mut Conn, m: &PlayerMail<'_>, body: &str) -> Result<Processed> {
    let read = read_mail(body);
    let mut refused: Vec<String> = Vec::new();
    let mut done = 0usize;
    let mut records = Vec::new();
    for (line, item) in &read.items {
        let verdict = match item {
            Item::RuleChange(change) => propose::propose(c, m, change).await?,
            Item::Vote(choice) => vote::vote(c, m, *choice).await?,
            Item::PointOfOrder { question } => order::raise(c, m, question).await?,
            Item::Judgement { point, text } => order::judgement(c, m, *point, text).await?,
            Item::Dispute { point } => order::dispute(c, m, *point).await?,
            Item::Opinion { point, agree } => order::opinion(c, m, *point, *agree).await?,
            Item::Rules => {
                records.push(record::Asked::Rules);
                Ok(())
            }
            Item::History => {
                records.push(record::Asked::History);
                Ok(())
            }
            Item::Points => {
                records.push(record::Asked::Points);
                Ok(())
            }
        };
        match verdict {
            Ok(()) => done += 1,
            Err(why) => refused.push(format!("line {line}: {why}")),
        }
    }
    for asked in records {
        record::answer(c, m, asked).await?;
    }
    for (line, text) in &read.unread {
        refused.push(format!(
            "line {line} is not read: \"{}\". A Nomic mail's lines begin \"Rule-change:\", \
             \"Vote:\", \"Point of Order:\", \"Judgement:\", \"Dispute:\", \"I agree with \
             Judgement\" or \"I disagree with Judgement\", or are RULES, HISTORY or POINTS",
            compose::echo_subject(text)
        ));
    }
    if read.items.is_empty() && refused.is_empty() {
        refused.push(
            "this mail has no Nomic line: a proposal begins \"Rule-change:\" (Nomic 107), a \
             vote is \"Vote: Yes\" or \"Vote: No\" (Nomic 113)"
                .to_string(),
        );
    }
    if !refused.is_empty() {
        let v = RefusedView {
            game: m.g.id.clone(),
            subject: compose::echo_subject(&m.msg.subject),
            message_id: m.msg.message_id.clone(),
            received_at: m.at,
            done,
            reasons: refused,
        };
        let mail = nomic_compose::refused(m.env, m.g, &m.player.address, m.msg, m.ctx.key, &v);
        m.answer(c, mail).await?;
    }
    Ok(if done > 0 {
        Processed::Accepted
    } else {
        Processed::Rejected
    })
}
