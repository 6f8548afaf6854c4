//! GRANT EXTENSION <power> and REFUSE EXTENSION <power>: the GM's answer to a player's request
//! for an extension beyond the guaranteed ones (WM D.VII(5): at the GM's discretion). A grant
//! is still held to the request's notice and the position's allowance.

use super::{Done, Situation};
use crate::config::Env;
use crate::engine::Result;
use crate::engine::extension::{game_windows, grant};
use crate::engine::house::House;
use crate::engine::receive::{compose_failed_mails, masters_for};
use crate::outgoing::compose;
use crate::outgoing::notices;
use crate::store::Conn;
use crate::store::{self, ExtensionKind, ExtensionRequest, GameRow, PhaseRow, PlayerRow};
use crate::time::Ts;
use crate::time::format_gmt;

/// GRANT EXTENSION (`granted`) or REFUSE EXTENSION.
#[allow(clippy::too_many_arguments)]
pub async fn answer(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    s: &Situation,
    power: &str,
    granted: bool,
    now: Ts,
) -> Result<Done> {
    let asked = match waiting(c, g, house, s.current.as_ref(), power).await? {
        Ok(asked) => asked,
        Err(refused) => return Ok(refused),
    };
    if granted {
        grant_request(c, env, g, house, &asked, now).await
    } else {
        refuse_request(c, env, g, &asked, now).await
    }
}

/// A request waiting for the GM's answer, in the phase it was made in.
struct Asked<'a> {
    /// The power's name as the game's kind spells it.
    name: String,
    request: ExtensionRequest,
    phase: &'a PhaseRow,
    player: PlayerRow,
}

impl Asked<'_> {
    fn days(&self) -> u32 {
        u32::try_from(self.request.days).unwrap_or(u32::MAX)
    }
}

/// The power's waiting request (taken: answered once), or why there is none to answer.
async fn waiting<'p>(
    c: &mut Conn,
    g: &GameRow,
    house: &dyn House,
    current: Option<&'p PhaseRow>,
    power: &str,
) -> Result<std::result::Result<Asked<'p>, Done>> {
    let Some(name) = house.seat_name(power)? else {
        return Ok(Err(Done::refused(format!(
            "there is no power {power} in this game"
        ))));
    };
    let Some(request) = store::take_extension_request(c, &g.id, &name).await? else {
        return Ok(Err(Done::refused(format!(
            "{name} has no extension request waiting"
        ))));
    };
    let Some(phase) = current.filter(|p| p.phase == request.phase) else {
        return Ok(Err(Done::refused(format!(
            "{name} asked in {}, which is over; the request is dropped",
            request.phase
        ))));
    };
    let players = store::players(c, &g.id).await?;
    let Some(player) = players.into_iter().find(|x| x.power == name) else {
        return Ok(Err(Done::refused(format!("{name} has no player"))));
    };
    Ok(Ok(Asked {
        name,
        request,
        phase,
        player,
    }))
}

/// REFUSE EXTENSION: the deadline stands; the player is told.
async fn refuse_request(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    a: &Asked<'_>,
    now: Ts,
) -> Result<Done> {
    let (name, days, p) = (&a.name, a.days(), a.phase);
    let told = compose::announcement(
        env,
        g,
        &a.player.address,
        &a.player.tz,
        &format!("{}|extension-refused|{name}|{now}", g.id),
        "your extension request",
        &notices::extension_refused(&notices::ExtensionRefused {
            days,
            phase: &p.phase,
        })?,
        "",
        Some(p.deadline),
    );
    let masters = masters_for(c, env, Some(g)).await?;
    let mails = match told {
        Ok(m) => vec![m],
        Err(e) => compose_failed_mails(env, Some(g), &masters, &e, name),
    };
    store::enqueue_many(c, &mails, now).await?;
    Ok(Done::ok(format!(
        "{name}'s request for {days} day(s) is refused; {name} was told"
    )))
}

/// GRANT EXTENSION: the deadline moves for everybody, charged to the position.
async fn grant_request(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    house: &dyn House,
    a: &Asked<'_>,
    now: Ts,
) -> Result<Done> {
    let (name, days, p) = (&a.name, a.days(), a.phase);
    let wins = game_windows(c, g, now).await?;
    let used = u32::try_from(a.player.extension_days_used).unwrap_or(u32::MAX);
    if let Err(e) = house.extend(p.deadline, a.request.asked_at, days, used, &wins) {
        return Ok(Done::refused(e.to_string()));
    }
    let who = (name.as_str(), a.player.address.as_str());
    let deadline = grant(
        c,
        env,
        g,
        house,
        p,
        who,
        (days, ExtensionKind::Discretionary),
        &wins,
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "{name} has an extension of {days} day(s): the deadline is now {}; every player was told",
        format_gmt(deadline)
    )))
}
