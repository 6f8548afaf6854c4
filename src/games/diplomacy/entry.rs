//! Entry by announcement (Agora BT1) and the draw of powers (BT6), for a game whose rules say
//! `open_entry`: a person enters by a mail to the game with the subject `<game> ENTER` (a line
//! `NAME <name>` in the body is kept as their name). Entry stays open until the later of the
//! date the masters set and 7 days after the game (and its regulations) was created, for seven
//! at most; the seventh entry draws the powers from the game's seed and starts the game in the
//! same transaction. The seed is fixed from the OS random generator at the first entry; every
//! entry's acknowledgement gives its SHA-256, and the draw's mail gives the seed and the method,
//! so that anyone can check the draw (`chancery_diplomacy::entry::draw`).
//!
//! An entry proves nothing about its sender: the acknowledgement goes to the From address, and
//! the power and secret go there at the draw, so that a forged entry plays no one's game but
//! the real owner's, who is told of it.

use super::*;
use crate::engine::receive::{Ctx, Tag, answer, recipient_kind};
use crate::engine::{Processed, route};
use crate::message::ReadMessage;
use crate::outgoing::compose;
use crate::store::Conn;
use chancery_diplomacy::entry::{self, Entrant, EntryRefused};

/// A mail to a game that has not started: an entry if the game takes them and the subject
/// says so, else the answer that the game has not started.
pub async fn forming_mail(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
) -> Result<(Processed, Tag)> {
    let rules = rules_of(g)?;
    if !rules.open_entry || !is_entry(&msg.subject, &g.id) {
        route::not_running(c, env, ctx, msg, g).await?;
        return Ok((Processed::Rejected, Tag::of(g)));
    }
    let from = msg.from_address.clone().unwrap_or_default();
    if from.is_empty() {
        drop_no_sender(c, ctx, g).await?;
        return Ok((Processed::Dropped, Tag::of(g)));
    }
    let outcome = match may_enter(c, g, &from, ctx.now).await? {
        Err(why) => {
            refuse(c, env, ctx, msg, g, &from, &why).await?;
            Processed::Rejected
        }
        Ok(before) => {
            enter(c, env, ctx, msg, g, &from, before).await?;
            Processed::Accepted
        }
    };
    Ok((outcome, Tag::of(g)))
}

/// An entry to a game that has started (Agora BT1: the seventh entry drew the powers): refused
/// with the reason, rather than read as orders. None: not an entry.
pub async fn after_start(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
) -> Result<Option<(Processed, Tag)>> {
    if !is_entry(&msg.subject, &g.id) || !rules_of(g)?.open_entry {
        return Ok(None);
    }
    let Some(from) = msg.from_address.clone().filter(|f| !f.is_empty()) else {
        drop_no_sender(c, ctx, g).await?;
        return Ok(Some((Processed::Dropped, Tag::of(g))));
    };
    let players = store::players(&mut *c, &g.id).await?;
    let why = if players
        .iter()
        .any(|p| p.address.eq_ignore_ascii_case(&from))
    {
        EntryRefused::AlreadyEntered
    } else if players.len() >= entry::MAX_CONTESTANTS {
        EntryRefused::Full
    } else {
        EntryRefused::Started
    };
    refuse(c, env, ctx, msg, g, &from, &why.to_string()).await?;
    Ok(Some((Processed::Rejected, Tag::of(g))))
}

/// `<game> ENTER`, any case, spaces around it ignored.
fn is_entry(subject: &str, game: &str) -> bool {
    let mut words = subject.split_whitespace();
    matches!(
        (words.next(), words.next(), words.next()),
        (Some(g), Some(w), None) if g.eq_ignore_ascii_case(game) && w.eq_ignore_ascii_case("ENTER")
    )
}

/// The name a `NAME <name>` line gives, cut to a line of 60 characters.
fn name_of(msg: &ReadMessage) -> String {
    msg.lines
        .iter()
        .find_map(|l| {
            let t = l.text.trim();
            let head = t.get(..5)?;
            head.eq_ignore_ascii_case("NAME ")
                .then(|| t[5..].trim().chars().take(60).collect::<String>())
        })
        .unwrap_or_default()
}

/// Whether `from` may enter now (Agora BT1), and if so how many had entered before. A master
/// of the game may not (BT0: the Gamemaster cannot become a Contestant).
async fn may_enter(
    c: &mut Conn,
    g: &GameRow,
    from: &str,
    now: Ts,
) -> Result<std::result::Result<usize, String>> {
    let masters = store::members(&mut *c, &g.id).await?;
    if masters
        .iter()
        .any(|m| m.role != store::Role::Observer && m.address.eq_ignore_ascii_case(from))
    {
        return Ok(Err(
            "a master of the game cannot become a contestant (Agora BT0)".to_string(),
        ));
    }
    let (created, until) = store::entry_dates(&mut *c, &g.id).await?;
    let closes = entry::entry_closes(created, until);
    let entered: Vec<String> = store::game_entries(&mut *c, &g.id)
        .await?
        .into_iter()
        .map(|e| e.address)
        .collect();
    // Agora BT2: a person the Gamemaster invited consents by entering, after the close too.
    let how = if store::is_invited(&mut *c, &g.id, from).await? {
        Entrant::Invited
    } else {
        Entrant::Announcing
    };
    Ok(entry::may_enter(now, closes, &entered, from, how)
        .map(|()| entered.len())
        .map_err(|e: EntryRefused| e.to_string()))
}

async fn refuse(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
    from: &str,
    why: &str,
) -> Result<()> {
    let who = recipient_kind(c, env, from, &msg.authentication_results).await?;
    let mail = compose::rejection(
        env,
        &g.gm_address,
        from,
        msg,
        ctx.key,
        &[why.to_string()],
        ctx.now,
    );
    answer(c, env, ctx, mail, who, Some(g)).await?;
    Ok(())
}

async fn drop_no_sender(c: &mut Conn, ctx: &Ctx<'_>, g: &GameRow) -> Result<()> {
    crate::engine::receive::drop_mail(c, ctx, None, Some(&g.id), "no sender to answer").await
}

/// Record the entry, acknowledge it with the seed's digest, and draw the powers if it is the
/// seventh (Agora BT1, BT6).
async fn enter(
    c: &mut Conn,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
    g: &GameRow,
    from: &str,
    before: usize,
) -> Result<()> {
    let seed = store::fix_draw_seed(&mut *c, &g.id, &entry::seed_text(random_seed()?)).await?;
    store::add_game_entry(&mut *c, &g.id, from, &name_of(msg), ctx.now).await?;
    let (created, until) = store::entry_dates(&mut *c, &g.id).await?;
    let closes = entry::entry_closes(created, until);
    let body = format!(
        "You have entered {game} as contestant {n} of at most {max} (Agora BT1).\n\n\
         Entry closes {closes} or when {max} have entered. The Great Powers are then drawn at\n\
         random (Agora BT6) from a seed fixed now, whose SHA-256 is\n  {digest}\n\
         The draw's mail gives the seed itself and how the draw is made, so that anyone can\n\
         check that the seed matches this digest and that the draw follows from it.\n",
        game = g.id,
        n = before + 1,
        max = entry::MAX_CONTESTANTS,
        closes = crate::outgoing::time::gmt(closes),
        digest = crate::outgoing::ids::sha256_hex(seed.as_bytes()),
    );
    let who = recipient_kind(c, env, from, &msg.authentication_results).await?;
    let mail = compose::query_reply(env, g, from, msg, ctx.key, "ENTER", &body);
    answer(c, env, ctx, mail, who, Some(g)).await?;
    if entry::full_after(before) {
        draw_and_start(c, env, g, &seed, ctx.now).await?;
    }
    Ok(())
}

/// 64 bits from the OS random generator.
pub(crate) fn random_seed() -> Result<u64> {
    let mut b = [0u8; 8];
    getrandom::getrandom(&mut b)
        .map_err(|e| EngineError::Refused(format!("the OS random generator failed: {e}")))?;
    Ok(u64::from_le_bytes(b))
}

/// Draw the powers from the seed (Agora BT6), register each contestant with a fresh secret,
/// tell everyone how the draw fell and how to check it, and start the game (its start mails
/// carry each player's power and secret).
pub async fn draw_and_start(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    seed: &str,
    now: Ts,
) -> Result<()> {
    let map = map_of(g)?;
    let entrants = store::game_entries(&mut *c, &g.id).await?;
    let seed_value = entry::parse_seed(seed)
        .ok_or_else(|| EngineError::Refused(format!("the draw's seed '{seed}' is not hex")))?;
    let who: Vec<&str> = entrants.iter().map(|e| e.address.as_str()).collect();
    let powers: Vec<&str> = map.powers.iter().map(|p| p.name.as_str()).collect();
    let drawn = entry::draw(seed_value, &who, &powers);
    for (power, address) in &drawn {
        let name = entrants
            .iter()
            .find(|e| e.address == *address)
            .map_or("", |e| e.name.as_str());
        let player = store::PlayerRow {
            power: power.to_string(),
            address: address.to_string(),
            name: name.to_string(),
            tz: "UTC".into(),
            secret: crate::engine::secret::generate()
                .map_err(|e| EngineError::Refused(e.to_string()))?,
            extension_days_used: 0,
        };
        store::add_player(&mut *c, &g.id, &player).await?;
    }
    let empty: Vec<&str> = powers
        .iter()
        .copied()
        .filter(|p| !drawn.iter().any(|(d, _)| d == p))
        .collect();
    announce_draw(c, env, g, seed, &drawn, &empty, now).await?;
    // Agora BT2, BT6: drawn by the Gamemaster among fewer than seven, the powers left without
    // a contestant start in civil disorder.
    admin::start_seated(c, Some(env), g, now).await?;
    Ok(())
}

/// The draw's mail to every contestant and master: the seed, the method and the result.
async fn announce_draw(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    seed: &str,
    drawn: &[(&str, &str)],
    empty: &[&str],
    now: Ts,
) -> Result<()> {
    let text = "The Great Powers have been drawn (Agora BT6) from the seed below, whose \
        SHA-256 was given with every entry. The method: the contestants' addresses in lower \
        case, sorted; shuffled by Fisher-Yates from the last place to the first, each place's \
        pick drawn from SplitMix64 seeded with the seed read as a hexadecimal number (a draw at \
        or past the largest multiple of the places left is drawn again); the first address of \
        the shuffled list plays the first power in the map's order, and so on. With fewer \
        contestants than powers, the list is first filled up with empty names (which sort \
        first): a power drawn an empty name has no contestant, and is in civil disorder \
        (Agora BT24).";
    let mut table = format!(
        "seed: {seed}\nSHA-256: {}\n",
        crate::outgoing::ids::sha256_hex(seed.as_bytes())
    );
    for (power, address) in drawn {
        table.push_str(&format!("\n{power:<8} {address}"));
    }
    for power in empty {
        table.push_str(&format!("\n{power:<8} (no contestant: civil disorder)"));
    }
    let mut readers: Vec<String> = drawn.iter().map(|(_, a)| a.to_string()).collect();
    readers.extend(
        store::members(&mut *c, &g.id)
            .await?
            .into_iter()
            .map(|m| m.address),
    );
    let mut mails = Vec::new();
    for to in &readers {
        match compose::announcement(
            env,
            g,
            to,
            "UTC",
            "draw",
            "the powers are drawn",
            text,
            &table,
            None,
        ) {
            Ok(m) => mails.push(m),
            Err(e) => crate::engine::receive::compose_failed(c, env, Some(g), &e, now).await?,
        }
    }
    store::enqueue_many(&mut *c, &mails, now).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agora_bt1_an_entry_is_the_game_and_enter_in_the_subject() {
        assert!(is_entry("bt2020 ENTER", "bt2020"));
        assert!(is_entry("  BT2020   enter ", "bt2020"));
        assert!(!is_entry("bt2020 ENTER now", "bt2020"));
        assert!(!is_entry("other ENTER", "bt2020"));
        assert!(!is_entry("bt2020", "bt2020"));
    }

    #[test]
    fn agora_bt1_an_entrys_name_line_is_kept_on_one_line() {
        let msg = ReadMessage {
            lines: vec![
                crate::message::BodyLine {
                    number: 1,
                    text: "hello".into(),
                },
                crate::message::BodyLine {
                    number: 2,
                    text: "name  Ada Lovelace ".into(),
                },
            ],
            ..Default::default()
        };
        assert_eq!(name_of(&msg), "Ada Lovelace");
        assert_eq!(name_of(&ReadMessage::default()), "");
    }
}
