//! REPLACE <power> <address> [PERMANENT] (WM B.8): the power gets a new player from this phase
//! on, with a new secret and a welcome (what the seat holds, as the game's kind shows it: the
//! position, the standing orders, the deadline); the player replaced is told. A power with no
//! player (removed, or left empty by a draw of fewer contestants: Agora BT2, BT24) is seated the
//! same way ("the Gamemaster SHALL attempt to replace em with a new Contestant").

use super::{Done, Situation};
use crate::config::Env;
use crate::engine::house::{Handover, House, Tenure};
use crate::engine::receive::{compose_failed_mails, masters_for};
use crate::engine::{Result, secret};
use crate::outgoing::compose;
use crate::outgoing::notices;
use crate::store::Conn;
use crate::store::{self, GameRow, PhaseRow, PlayerRow};
use crate::time::Ts;

/// Who is replaced, by whom, and in which phase.
pub struct Replacement<'a> {
    /// The power as the GM wrote it.
    pub power: &'a str,
    pub address: &'a str,
    pub permanent: bool,
}

pub async fn replace(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    s: &Situation,
    r: &Replacement<'_>,
    now: Ts,
) -> Result<Done> {
    let seat = match seat(c, g, house, s.current.as_ref(), r).await? {
        Ok(seat) => seat,
        Err(refused) => return Ok(refused),
    };
    let (name, p) = (&seat.name, seat.phase);
    let secret = secret::generate()?;
    let kind = Tenure::of(r.permanent);
    let Some(old) = &seat.old else {
        return seat_empty(c, env, g, house, p, name, r.address, &secret, now).await;
    };
    store::replace_player(c, &g.id, name, &p.phase, r.address, &secret, kind, now).await?;
    store::forget_unavailable(c, &g.id, name).await?;
    house.forget_choices(c, g, name).await?;
    let handover = Handover {
        seat: name,
        address: r.address,
        secret: &secret,
        tenure: kind,
    };
    let welcome = house.handover(c, env, g, p, &handover).await?;
    let told = farewell(env, g, p, old, name, now);
    let mut mails = Vec::new();
    for m in [welcome, told] {
        match m {
            Ok(m) => mails.push(m),
            Err(e) => {
                let masters = masters_for(c, env, Some(g)).await?;
                mails.extend(compose_failed_mails(env, Some(g), &masters, &e, name));
            }
        }
    }
    store::enqueue_many(c, &mails, now).await?;
    Ok(Done::ok(format!(
        "{} plays {name} from {} on ({kind} replacement of {}); they were sent a welcome \
         with a new secret, and {} was told. The abbreviations, unavailable periods, conditional \
         orders and votes of {name} were cleared: the new player makes their own",
        r.address, p.phase, old.address, old.address
    )))
}

/// The seat handed over.
struct Seat<'p> {
    /// The power's name as the game's kind spells it.
    name: String,
    /// The open phase: the new player plays from it on.
    phase: &'p PhaseRow,
    /// The player leaving it; none when the seat is empty (Agora BT2, BT24).
    old: Option<PlayerRow>,
}

/// An empty seat given a player: registered with a new secret and welcomed (Agora BT2: the
/// Gamemaster "CAN cause any consenting person to become a Contestant"; BT24: a power whose
/// player left is replaced if a new one can be found).
#[allow(clippy::too_many_arguments)]
async fn seat_empty(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    p: &PhaseRow,
    name: &str,
    address: &str,
    secret: &str,
    now: Ts,
) -> Result<Done> {
    let player = PlayerRow {
        power: name.to_string(),
        address: address.to_string(),
        name: String::new(),
        tz: "UTC".into(),
        secret: secret.to_string(),
        extension_days_used: 0,
    };
    store::add_player(c, &g.id, &player).await?;
    let handover = Handover {
        seat: name,
        address,
        secret,
        tenure: Tenure::Permanent,
    };
    let mails = match house.handover(c, env, g, p, &handover).await? {
        Ok(m) => vec![m],
        Err(e) => {
            let masters = masters_for(c, env, Some(g)).await?;
            compose_failed_mails(env, Some(g), &masters, &e, name)
        }
    };
    store::enqueue_many(c, &mails, now).await?;
    Ok(Done::ok(format!(
        "{address} plays {name}, which had no player, from {} on; they were sent a welcome \
         with a new secret",
        p.phase
    )))
}

/// The seat to hand over, or why not (no such power, no open phase, no player, the address
/// plays another power already).
async fn seat<'p>(
    c: &mut Conn,
    g: &GameRow,
    house: &dyn House,
    current: Option<&'p PhaseRow>,
    r: &Replacement<'_>,
) -> Result<std::result::Result<Seat<'p>, Done>> {
    let Some(name) = house.seat_name(r.power)? else {
        return Ok(Err(Done::refused(format!(
            "there is no power {} in this game",
            r.power
        ))));
    };
    let Some(p) = current else {
        return Ok(Err(Done::refused("the game has no open phase")));
    };
    let players = store::players(c, &g.id).await?;
    let old = players.iter().find(|x| x.power == name).cloned();
    if let Some(other) = players
        .iter()
        .find(|x| x.address.eq_ignore_ascii_case(r.address))
    {
        return Ok(Err(Done::refused(format!(
            "{} already plays {} in this game",
            r.address, other.power
        ))));
    }
    Ok(Ok(Seat {
        name,
        phase: p,
        old,
    }))
}

/// The mail to the player replaced.
fn farewell(
    env: &Env,
    g: &GameRow,
    p: &PhaseRow,
    old: &PlayerRow,
    name: &str,
    now: Ts,
) -> compose::Composed {
    let headline = format!("you no longer play {name}");
    // A text that cannot be rendered is a mail that cannot be composed: the caller alerts the
    // masters with the facts, as for any other.
    let text = notices::seat_taken(&notices::SeatTaken {
        name,
        phase: &p.phase,
    })
    .map_err(|e| compose::ComposeError {
        kind: store::MailKind::Announcement,
        to: old.address.clone(),
        error: e.to_string(),
        facts: format!("{}: {headline}", g.id),
    })?;
    compose::announcement(
        env,
        g,
        &old.address,
        &old.tz,
        &format!("{}|replaced|{name}|{now}", g.id),
        &headline,
        &text,
        "",
        None,
    )
}
