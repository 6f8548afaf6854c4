//! The Gamemaster's commands on contestants, for a game whose players enter by announcement
//! (`open_entry`, Agora BT1): `ENTRY UNTIL <date>` (BT1's close of entry), `DRAW` (BT2, BT6:
//! the powers drawn now with those who have entered), `ADD <address>` (BT2: "cause any
//! consenting person to become a Contestant") and `REMOVE <address or power>` (BT2: "cause any
//! person to cease to be a Contestant"). Substituting one contestant for another is `REPLACE`
//! (`engine::office::replace`).
//!
//! Decisions where the regulations are silent:
//! - `DRAW` with fewer than seven: the powers left without a contestant are drawn too (which
//!   ones is part of the published draw, `chancery_diplomacy::entry::draw`) and stand in civil
//!   disorder from the start (BT24: their units hold, nothing is built), as a removed
//!   contestant's power does. Two contestants at least (BT3: the victor is the last one left).
//! - `ADD` records an invitation and mails it to the person; they become a Contestant when
//!   they consent by mailing `<game> ENTER`, even after the close of entry, while fewer than
//!   seven have entered (the seventh draws the powers, as any seventh entry does). After the
//!   draw a person takes a power only by `REPLACE` (substitution).
//! - `REMOVE` before the draw drops the entry (or an invitation not yet taken up); after the
//!   draw the power's player row goes, so that the person gets no more of the game's mail and
//!   no mail of theirs is taken for it, its orders for the turn are dropped, and the power is
//!   in civil disorder (BT24). The person and every player and master are told.

use super::super::entry::{draw_and_start, random_seed};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::office::Done;
use crate::engine::receive::{compose_failed_mails, masters_for};
use crate::entry::{self, DrawRefused};
use crate::games::diplomacy::store::{self, GameRow, GameStatus};
use crate::games::diplomacy::{map_of, rules_of};
use crate::outgoing::compose;
use crate::store::Conn;
use crate::time::{Ts, format_gmt};

/// Why a command on entries is refused before it is looked at: the game takes no entries, or
/// (`forming_only`) the powers are drawn.
fn not_for_entries(g: &GameRow, forming_only: bool) -> Result<Option<Done>> {
    if !rules_of(g)?.open_entry {
        return Ok(Some(Done::refused(DrawRefused::NotOpen.to_string())));
    }
    Ok(match g.status {
        GameStatus::Forming => None,
        GameStatus::Active if !forming_only => None,
        GameStatus::Active => Some(Done::refused(
            "the powers are drawn and the game has started: entry is over (Agora BT1, BT6)",
        )),
        GameStatus::Finished => Some(Done::refused(format!("game {} is over", g.id))),
    })
}

/// ENTRY UNTIL (Agora BT1): the masters' close of entry; the later of it and 7 days after the
/// regulations were published (the game's creation) counts.
pub async fn entry_until(c: &mut Conn, g: &GameRow, until: Ts) -> Result<Done> {
    if let Some(refused) = not_for_entries(g, true)? {
        return Ok(refused);
    }
    store::set_entry_until(c, &g.id, until).await?;
    let (created, _) = store::entry_dates(c, &g.id).await?;
    let closes = entry::entry_closes(created, Some(until));
    let note = if closes > until {
        " (Agora BT1: 7 days after the regulations were published is later, and counts)"
    } else {
        ""
    };
    Ok(Done::ok(format!(
        "entry closes {}{note}; persons you ADD may still consent after it (Agora BT2)",
        format_gmt(closes)
    )))
}

/// DRAW (Agora BT2, BT6): the powers drawn now from the game's seed with those who have
/// entered, and the game started; the powers left without a contestant are in civil disorder.
pub async fn draw(c: &mut Conn, env: &Env, g: &GameRow, now: Ts) -> Result<Done> {
    if let Some(refused) = not_for_entries(g, true)? {
        return Ok(refused);
    }
    let map = map_of(g)?;
    let entrants = store::game_entries(c, &g.id).await?;
    let empty = match entry::may_draw(entrants.len(), map.powers.len()) {
        Ok(empty) => empty,
        Err(why) => return Ok(Done::refused(why.to_string())),
    };
    let seed = match store::draw_seed(c, &g.id).await? {
        Some(seed) => seed,
        None => store::fix_draw_seed(c, &g.id, &entry::seed_text(random_seed()?)).await?,
    };
    draw_and_start(c, env, g, &seed, now).await?;
    let players = store::players(c, &g.id).await?;
    let drawn: Vec<String> = players
        .iter()
        .map(|p| format!("{} {}", p.power, p.address))
        .collect();
    let disorder = if empty == 0 {
        String::new()
    } else {
        let none: Vec<&str> = map
            .powers
            .iter()
            .map(|p| p.name.as_str())
            .filter(|n| !players.iter().any(|p| p.power == *n))
            .collect();
        format!(
            "; {} without a contestant, in civil disorder (Agora BT24): {}",
            none.len(),
            none.join(", ")
        )
    };
    Ok(Done::ok(format!(
        "the powers are drawn (Agora BT6) from seed {seed} and the game has started: {}{disorder}",
        drawn.join(", ")
    )))
}

/// ADD (Agora BT2): the person is invited, and becomes a Contestant on consenting by mail.
pub async fn add(c: &mut Conn, env: &Env, g: &GameRow, address: &str, now: Ts) -> Result<Done> {
    if g.status == GameStatus::Active && rules_of(g)?.open_entry {
        return Ok(Done::refused(
            "the powers are drawn: a consenting person takes a power by REPLACE <power> \
             <address> (Agora BT2: substituting one Contestant for another)",
        ));
    }
    if let Some(refused) = not_for_entries(g, true)? {
        return Ok(refused);
    }
    if let Some(why) = not_addable(c, env, g, address).await? {
        return Ok(Done::refused(why));
    }
    store::invite(c, &g.id, address, now).await?;
    let text = format!(
        "The Gamemaster of {game} invites you to become a Contestant (Agora BT2: the \
         Gamemaster can cause any consenting person to become one). To consent, mail \
         {gm} with the subject \"{game} ENTER\" (a line NAME <your name> if you wish). You \
         may do so after the close of entry too, as long as fewer than {max} have entered. If \
         you do not wish to, do nothing.",
        game = g.id,
        gm = g.gm_address,
        max = entry::MAX_CONTESTANTS,
    );
    let key = format!("invite|{address}|{now}");
    tell(
        c,
        env,
        g,
        &[address.to_string()],
        &key,
        "an invitation",
        &text,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "{address} is invited, and was mailed how to consent: they become a Contestant when \
         they mail \"{} ENTER\" (Agora BT2), after the close of entry too",
        g.id
    )))
}

/// Why `address` cannot be invited: a master (BT0), or a contestant already.
async fn not_addable(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    address: &str,
) -> Result<Option<String>> {
    let masters = masters_for(c, env, Some(g)).await?;
    if masters
        .iter()
        .chain(std::iter::once(&g.gm_address))
        .any(|m| m.eq_ignore_ascii_case(address))
    {
        return Ok(Some(
            "a master of the game cannot become a contestant (Agora BT0)".into(),
        ));
    }
    let entered = store::game_entries(c, &g.id).await?;
    if entered
        .iter()
        .any(|e| e.address.eq_ignore_ascii_case(address))
    {
        return Ok(Some(format!("{address} is a contestant already")));
    }
    if entered.len() >= entry::MAX_CONTESTANTS {
        return Ok(Some(entry::EntryRefused::Full.to_string()));
    }
    Ok(None)
}

/// REMOVE (Agora BT2): the person ceases to be a Contestant: before the draw their entry (or
/// invitation) is dropped, after it their power is in civil disorder.
pub async fn remove(c: &mut Conn, env: &Env, g: &GameRow, who: &str, now: Ts) -> Result<Done> {
    if let Some(refused) = not_for_entries(g, false)? {
        return Ok(refused);
    }
    if g.status == GameStatus::Forming {
        return remove_entry(c, env, g, who, now).await;
    }
    let map = map_of(g)?;
    let players = store::players(c, &g.id).await?;
    let named = map
        .power_by_name(who)
        .map(|p| map.power_name(p).to_string());
    let Some(player) = players
        .iter()
        .find(|p| named.as_deref() == Some(p.power.as_str()) || p.address.eq_ignore_ascii_case(who))
        .cloned()
    else {
        return Ok(Done::refused(format!(
            "{who} is no contestant of this game (a power with a player, or a player's address)"
        )));
    };
    let power = &player.power;
    store::remove_player(c, &g.id, power).await?;
    store::forget_unavailable(c, &g.id, power).await?;
    if let Some(phase) = store::current_phase(c, &g.id).await? {
        store::drop_standing_orders(c, &g.id, &phase.phase, power).await?;
    }
    store::forget_player_choices(c, &g.id, power).await?;
    let text = format!(
        "The Gamemaster has caused {} to cease to be a Contestant (Agora BT2). {power} has no \
         player from now on: it is in civil disorder (Agora BT24), its units hold and it \
         builds nothing, as a power that sends no orders.",
        player.address
    );
    let mut readers: Vec<String> = players.iter().map(|p| p.address.clone()).collect();
    readers.extend(masters_for(c, env, Some(g)).await?);
    let key = format!("removed|{power}|{now}");
    tell(
        c,
        env,
        g,
        &readers,
        &key,
        "a contestant removed",
        &text,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "{} ceased to be a Contestant (Agora BT2); {power} is in civil disorder (Agora BT24). \
         They, every player and the masters were told",
        player.address
    )))
}

/// REMOVE before the draw: the entry, or an invitation not taken up, dropped; the person told.
async fn remove_entry(c: &mut Conn, env: &Env, g: &GameRow, who: &str, now: Ts) -> Result<Done> {
    if !who.contains('@') {
        return Ok(Done::refused(format!(
            "the powers are not drawn yet: name the contestant's address, not {who}"
        )));
    }
    let entered = store::remove_game_entry(c, &g.id, who).await?;
    let invited = store::uninvite(c, &g.id, who).await?;
    if !entered && !invited {
        return Ok(Done::refused(format!(
            "{who} has not entered this game and is not invited"
        )));
    }
    let text = format!(
        "The Gamemaster has caused you to cease to be a Contestant of {} (Agora BT2): your \
         entry{} is withdrawn.",
        g.id,
        if entered { "" } else { " invitation" }
    );
    let key = format!("removed|{who}|{now}");
    tell(
        c,
        env,
        g,
        &[who.to_string()],
        &key,
        "you are removed",
        &text,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "{who} ceased to be a Contestant (Agora BT2): their {} is withdrawn, and they were told",
        if entered { "entry" } else { "invitation" }
    )))
}

/// Mail `readers` (each once) an announcement of the game, in UTC.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn tell(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    readers: &[String],
    key: &str,
    headline: &str,
    text: &str,
    now: Ts,
) -> Result<()> {
    let mut seen: Vec<String> = Vec::new();
    let mut mails = Vec::new();
    for to in readers {
        if seen.iter().any(|s| s.eq_ignore_ascii_case(to)) {
            continue;
        }
        seen.push(to.clone());
        match compose::announcement(env, g, to, "UTC", key, headline, text, "", None) {
            Ok(m) => mails.push(m),
            Err(e) => {
                let masters = masters_for(c, env, Some(g)).await?;
                mails.extend(compose_failed_mails(env, Some(g), &masters, &e, key));
            }
        }
    }
    store::enqueue_many(c, &mails, now).await?;
    Ok(())
}
