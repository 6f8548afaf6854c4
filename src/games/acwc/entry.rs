//! An entry by mail while the championship forms (ACWC "Player eligibility"): `ACCOUNT`,
//! `RATING` (at the cut-off) and `PEAK` (the year's highest) lines, kept for the TD to approve
//! (`APPROVE <account>`). The sender is no player yet: they are answered within the limits a
//! stranger gets, and a mail without a sender is dropped.

use super::store::{Conn, EntrantRow, GameRow};
use crate::acwc::mail::{Line, read};
use crate::acwc::seeding::Seeding;
use crate::config::Env;
use crate::engine::receive::{Ctx, Tag, alert_masters, answer, drop_mail, recipient_kind};
use crate::engine::{Processed, Result};
use crate::message::ReadMessage;
use crate::outgoing::acwc::compose;
use crate::outgoing::acwc::render::EntryView;
use crate::outgoing::compose::rejection;

/// What an entry mail gives: the account and both ratings, or why it is no entry.
fn entry_of(msg: &ReadMessage) -> std::result::Result<(String, u32, u32), String> {
    let body: String = msg.lines.iter().map(|l| format!("{}\n", l.text)).collect();
    let (mut account, mut rating, mut peak) = (None, None, None);
    for (_, line) in read(&body).lines {
        match line {
            Line::Account(a) => account = Some(a),
            Line::Rating(r) => rating = Some(r),
            Line::Peak(p) => peak = Some(p),
            _ => {}
        }
    }
    match (account, rating, peak) {
        (Some(a), Some(r), Some(p)) => Ok((a, r, p)),
        _ => Err(
            "an entry gives three lines: ACCOUNT <your Lichess account>, RATING <your Antichess \
             rating at the cut-off> and PEAK <your highest in the year before it> (ACWC Player \
             eligibility, Format)"
                .to_string(),
        ),
    }
}

/// A mail to a championship that forms: an entry, acknowledged, or refused with why.
pub async fn forming_mail(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
) -> Result<(Processed, Tag)> {
    let tag = Tag::of(g);
    let Some(from) = msg.from_address.clone().filter(|f| !f.is_empty()) else {
        drop_mail(c, ctx, None, Some(&g.id), "no sender to answer").await?;
        return Ok((Processed::Dropped, tag));
    };
    let who = recipient_kind(c, env, &from, &msg.authentication_results).await?;
    let entered = match entry_of(msg) {
        Err(why) => Err(why),
        Ok((account, cutoff, peak)) => {
            let e = EntrantRow {
                account,
                address: from.clone(),
                cutoff: i64::from(cutoff),
                peak: i64::from(peak),
                entered_at: ctx.arrived,
                approved_at: None,
                withdrawn_at: None,
            };
            super::admin::enter(c, g, &e).await?.map(|()| e)
        }
    };
    let (mail, outcome) = match entered {
        Ok(e) => {
            let seeding = Seeding {
                cutoff: u32::try_from(e.cutoff).unwrap_or(0),
                peak: u32::try_from(e.peak).unwrap_or(0),
            };
            let v = EntryView {
                game: g.id.clone(),
                account: e.account.clone(),
                cutoff: seeding.cutoff,
                peak: seeding.peak,
                seeding: seeding.rating().to_string(),
            };
            tell_director(c, env, ctx, g, &from, &v).await?;
            let mail = compose::entry(env, g, &from, msg, ctx.key, &v);
            (mail, Processed::Accepted)
        }
        Err(why) => {
            let mail = rejection(env, &g.gm_address, &from, msg, ctx.key, &[why], ctx.now);
            (mail, Processed::Rejected)
        }
    };
    answer(c, env, ctx, mail, who, Some(g)).await?;
    Ok((outcome, tag))
}

/// The TD told of an entry that waits for approval (ACWC Player eligibility: the TD checks each
/// entry), once an account: what to check and the command that approves it.
async fn tell_director(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    g: &GameRow,
    from: &str,
    v: &EntryView,
) -> Result<()> {
    let subject = format!("{}: entry of {} to approve", g.id, v.account);
    let body = format!(
        "{account} has entered {game} from {from}:\n\n  \
         Rating at cut-off {cutoff}, peak {peak}: seeding rating {seeding}\n\n\
         Check the account and its ratings on Lichess (ACWC Player eligibility), then approve \
         it with APPROVE {account} in a command mail, or at the console:\n  \
         chancery acwc approve --id {game} {account}\n",
        account = v.account,
        game = g.id,
        cutoff = v.cutoff,
        peak = v.peak,
        seeding = v.seeding,
    );
    let key = format!("acwc-entry|{}|{}", g.id, v.account.to_lowercase());
    alert_masters(c, env, Some(g), &key, &subject, &body, ctx.now).await
}
