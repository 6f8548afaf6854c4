//! An order mail to the GM box: acceptance, the orders read, combined with what stands, stored,
//! acknowledged.

use super::*;

/// Whom a message is for: the power (named in the subject, else the sender's), the current
/// phase, and the game's players as they were read to find the power.
pub(super) struct Addressed {
    pub(super) power: Power,
    pub(super) phase: PhaseRow,
    pub(super) players: Vec<store::PlayerRow>,
}

/// The power a message is for (named in the subject, else the sender's), and the current phase.
pub(super) async fn power_and_phase(
    c: &mut SqliteConnection,
    g: &GameRow,
    msg: &ReadMessage,
    from: &str,
) -> Result<Option<Addressed>> {
    let map = map_of(g)?;
    let players = store::players(c, &g.id).await?;
    let named = msg
        .subject
        .split_whitespace()
        .find_map(|w| map.power_by_name(w.trim_matches(|ch: char| !ch.is_alphanumeric())));
    let power = named.or_else(|| {
        players
            .iter()
            .find(|p| p.address == from)
            .and_then(|p| map.power_by_name(&p.power))
    });
    let Some(power) = power else {
        return Ok(None);
    };
    let Some(phase) = store::current_phase(c, &g.id).await? else {
        return Ok(None);
    };
    Ok(Some(Addressed {
        power,
        phase,
        players,
    }))
}

/// Read a mail's body for `power` against `board` (the stored board of the phase, read once a
/// mail: the acknowledgement shows it too).
pub(super) fn read_with(
    map: &'static Map,
    rules: &Rules,
    power: Power,
    board: &Board,
    msg: &ReadMessage,
    abbreviations: &HashMap<String, crate::map::Province>,
) -> MailRead {
    let ctx = ReadContext {
        map,
        rules,
        power,
        phase: board.phase.kind,
        board: Some(board),
        abbreviations,
    };
    read_body(&ctx, msg)
}

/// An order mail to the GM address.
pub(super) async fn order_mail(
    c: &mut SqliteConnection,
    env: &Env,
    ctx: &Ctx<'_>,
    msg: &ReadMessage,
) -> Result<(Processed, Tag)> {
    let now = ctx.now;
    let from = msg.from_address.clone().unwrap_or_default();
    // A tournament director's command mail names the tournament, not a game.
    if let Some(t) = super::td_mail::tournament_of(c, &msg.subject).await? {
        return super::td_mail::command_mail(c, env, ctx, msg, &t).await;
    }
    let Some(g) = find_game(c, msg).await? else {
        if from.is_empty() {
            drop_mail(c, ctx, None, None, "no sender to answer").await?;
        } else {
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
                "no game of this server is named in the subject, and this address plays in none"
                    .to_string()
            };
            let mail = compose::rejection(env, &env.alert_from, &from, msg, ctx.key, &[why], now);
            answer(c, env, ctx, mail, who, None).await?;
        }
        return Ok((Processed::Rejected, Tag::default()));
    };
    if super::gm_mail::is_command_subject(&msg.subject, &g.id) {
        return super::gm_mail::command_mail(c, env, ctx, msg, &g).await;
    }
    if let Some(q) = super::query_mail::query_of(&msg.subject, &g.id) {
        return super::query_mail::query_mail(c, env, ctx, msg, &g, &q).await;
    }
    if g.status != store::GameStatus::Active {
        let why = match g.status {
            store::GameStatus::Finished => format!(
                "game {} is over: it takes no more orders. Thank you for playing",
                g.id
            ),
            _ => format!(
                "game {} has not started yet; orders are taken once it has",
                g.id
            ),
        };
        let sender = recipient_kind(c, env, &from, &msg.authentication_results).await?;
        let mail = compose::rejection(env, &g.gm_address, &from, msg, ctx.key, &[why], now);
        answer(c, env, ctx, mail, sender, Some(&g)).await?;
        let tag = Tag {
            game: Some(g.id.clone()),
            ..Tag::default()
        };
        return Ok((Processed::Rejected, tag));
    }
    let rules = rules_of(&g)?;
    let map = map_of(&g)?;
    let mut tag = Tag {
        game: Some(g.id.clone()),
        ..Tag::default()
    };
    let reject = |reasons: Vec<String>, to: &str| {
        compose::rejection(env, &g.gm_address, to, msg, ctx.key, &reasons, now)
    };

    if let Err(e) = acceptance::check_addressing(&rules, &g.gm_address, &msg.to, &msg.cc) {
        // Before the sender is proven, From is answered as registered only if it is.
        let sender = recipient_kind(c, env, &from, &msg.authentication_results).await?;
        answer(c, env, ctx, reject(vec![e], &from), sender, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    }
    let found = power_and_phase(c, &g, msg, &from).await?;
    if let Some(a) = &found {
        tracing::Span::current().record("power", map_of(&g)?.power_name(a.power));
    }
    let Some(Addressed {
        power,
        phase: phase_row,
        players,
    }) = found
    else {
        let e = format!(
            "the subject must name your power, as in \"{}\"",
            rules.subject_format.replace("{game}", &g.id)
        );
        // Before the sender is proven, From is answered as registered only if it is.
        let sender = recipient_kind(c, env, &from, &msg.authentication_results).await?;
        answer(c, env, ctx, reject(vec![e], &from), sender, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    };
    let power_name = map.power_name(power).to_string();
    tag.power = Some(power_name.clone());
    tag.phase = Some(phase_row.phase.clone());
    let Some(player) = players.iter().find(|p| p.power == power_name).cloned() else {
        let e = format!("{power_name} has no player in this game");
        // Before the sender is proven, From is answered as registered only if it is.
        let sender = recipient_kind(c, env, &from, &msg.authentication_results).await?;
        answer(c, env, ctx, reject(vec![e], &from), sender, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    };
    let phase: Phase = phase_row.phase.parse()?;
    let own = super::abbreviations::stored(c, &g, map, &power_name).await?;
    let board = board_from_json(map, &phase_row.board, &phase_row.phase)?;
    let mut read = read_with(map, &rules, power, &board, msg, &own);
    // Who sent it: the registered player, proven by secret or DKIM (a failure is answered at the
    // registered address, and reported to the GM: WM D.X(6)).
    if let Err(e) = acceptance::authenticate(
        &rules,
        &from,
        &player.address,
        read.secret.as_deref(),
        &player.secret,
        &msg.authentication_results,
        &env.authserv_id,
    ) {
        // Counted for the masters' digest; never a lockout (a forger could use one to lock the
        // real player out, and 64 random bits make guessing hopeless).
        if read.secret.is_some() && e.contains("secret is wrong") {
            store::add_wrong_secret(c, &g.id, &power_name).await?;
        }
        let to_player = compose::auth_rejection(
            env,
            &g,
            &power_name,
            &player.address,
            ctx.key,
            &e,
            ctx.arrived,
        );
        answer(c, env, ctx, Ok(to_player), Recipient::Registered, Some(&g)).await?;
        for to in masters_for(c, env, Some(&g)).await? {
            let sender_power = players
                .iter()
                .find(|p| p.address.eq_ignore_ascii_case(&from))
                .map(|p| p.power.clone());
            let report = compose::impersonation(
                env,
                &to,
                &g.id,
                &phase_row.phase,
                &player,
                sender_power,
                msg,
                ctx.key,
                &e,
                now,
            );
            // Through the limits: a forger must not be able to flood the masters either.
            answer(c, env, ctx, report, Recipient::Registered, Some(&g)).await?;
        }
        return Ok((Processed::Rejected, tag));
    }
    if let Err(e) = acceptance::check_subject(&rules, &msg.subject, &g.id, &power_name, phase) {
        let mail = reject(vec![e], &player.address);
        answer(c, env, ctx, mail, Recipient::Registered, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    }
    // A signed copy (or one with the secret) sent again must not undo newer orders.
    let dated = dated_at(msg, ctx.arrived);
    if let Some(e) = replayed(c, &g, &power_name, msg, dated).await? {
        let mail = reject(vec![e], &player.address);
        answer(c, env, ctx, mail, Recipient::Registered, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    }
    // WM D.III(1): a list of the player's own abbreviations, once proven who sent it; this
    // mail's orders are read again with it.
    let listed = read.requests.iter().find_map(|r| match r {
        crate::orderset::RequestOut::Abbreviations { text, .. } => Some(text.clone()),
        _ => None,
    });
    let mut abbreviations_note = None;
    if let Some(text) = listed {
        let (note, list) =
            super::abbreviations::register(c, env, &g, map, &phase_row, &player, &text, now)
                .await?;
        abbreviations_note = Some(note);
        if let Some(list) = list {
            read = read_with(map, &rules, power, &board, msg, &list);
        }
    }
    // `from` as the reader wrote it (lower case), as the confirmation box recorded it.
    let confirm_time = confirmed_at(c, map, &g, &from, msg, &read).await?;
    // When the receiving server got it (WM D.VII(1)), or the confirmation box if earlier.
    let submitted = policy::submission_time(&rules, ctx.arrived, confirm_time);
    let timeliness = timeliness(c, &g, &rules, &phase_row, &power_name, submitted).await?;
    let held = phase_row.held_until.is_some();
    // Late orders feed the player's reliability record, refused or not (a replacement's orders
    // in a held phase are the first they could send: not late).
    if matches!(
        timeliness,
        policy::Timeliness::LateAccepted | policy::Timeliness::LateRefused
    ) {
        store::record_late(
            c,
            &g.id,
            &power_name,
            &player.address,
            &phase_row.phase,
            timeliness == policy::Timeliness::LateAccepted,
            now,
        )
        .await?;
    }
    if timeliness == policy::Timeliness::LateRefused {
        let mut e = format!(
            "these orders arrived after the deadline ({}), and late orders are not accepted (WM D.VII(3))",
            compose::gmt(phase_row.deadline)
        );
        if held {
            e.push_str(
                "; the results are held for an NMR, and until they go out only the replacement \
                 the GM names may send orders (WM D.VII(6)(b))",
            );
        }
        let mail = reject(vec![e], &player.address);
        answer(c, env, ctx, mail, Recipient::Registered, Some(&g)).await?;
        return Ok((Processed::Rejected, tag));
    }

    // Press beyond the server's cap for a player and a phase is refused, and the reply says so.
    if read.press.iter().any(|p| p.status == "accepted") {
        let sent = store::press_sent(c, &g.id, &phase_row.phase, &power_name).await?;
        cap_press(&mut read, sent, &env.limits);
    }
    let kept = Kept {
        g: &g,
        map,
        rules: &rules,
        phase: &phase_row.phase,
        power: &power_name,
        message_id: msg.message_id.as_deref(),
        submitted,
        dated,
        late: timeliness == policy::Timeliness::LateAccepted,
        now,
    };
    let (combined, final_) = record_effects(c, &kept, &read).await?;
    // The replacement's orders for a held phase: the tick looks at it again at once.
    if timeliness == policy::Timeliness::Replacement {
        store::wake_held(c, &g.id, phase_row.seq, now).await?;
    }
    // Any authenticated mail from the player is contact with the GM (WM D.VII(6)(a)).
    store::nmr_contact(c, &g.id, &power_name, now).await?;
    // Requests: extensions move the deadline; unavailable periods are recorded.
    let (request_notes, deadline) = super::extension::player_requests(
        c,
        env,
        &g,
        &rules,
        &phase_row,
        &player,
        &read.requests,
        abbreviations_note.as_deref(),
        now,
    )
    .await?;
    let ack = compose::acknowledgement(
        env,
        &g,
        map,
        &player,
        msg,
        ctx.key,
        &read,
        &combined,
        final_,
        &board,
        power,
        &phase_row.phase,
        deadline,
        timeliness == policy::Timeliness::LateAccepted,
        &request_notes,
        ctx.arrived,
    );
    answer(c, env, ctx, ack, Recipient::Registered, Some(&g)).await?;
    Ok((Processed::Accepted, tag))
}

/// Whether orders submitted at `submitted` are in time (WM D.VII(3)). A phase whose results an
/// NMR holds is closed to all but the replacement the GM named after the deadline (WM
/// D.VII(6)(b)).
async fn timeliness(
    c: &mut SqliteConnection,
    g: &GameRow,
    rules: &Rules,
    phase: &PhaseRow,
    power: &str,
    submitted: Ts,
) -> Result<policy::Timeliness> {
    Ok(if phase.held_until.is_some() {
        let replaced = store::replaced_at(c, &g.id, power, &phase.phase).await?;
        policy::timeliness_held(rules, submitted, phase.deadline, replaced)
    } else {
        policy::timeliness(
            rules,
            submitted,
            phase.deadline,
            phase.adjudication_started_at.is_some(),
        )
    })
}

/// What an accepted mail is stored as: its game, phase and power, and its times.
struct Kept<'a> {
    g: &'a GameRow,
    map: &'static Map,
    rules: &'a Rules,
    phase: &'a str,
    power: &'a str,
    message_id: Option<&'a str>,
    submitted: Ts,
    dated: Ts,
    late: bool,
    now: Ts,
}

/// Store what an accepted mail does: the standing order set combined with its orders (WM
/// D.III(3)), the submission as read, its accepted press and its votes. Returns the order set
/// that now stands and whether it is final.
async fn record_effects(
    c: &mut SqliteConnection,
    k: &Kept<'_>,
    read: &MailRead,
) -> Result<(Vec<StandingOrder>, bool)> {
    let (g, map) = (k.g, k.map);
    let standing_rows = store::standing_orders(c, &g.id, k.phase).await?;
    let mine = standing_rows.iter().find(|r| r.power == k.power);
    let standing: Vec<StandingOrder> = mine.map(|r| r.orders.clone()).unwrap_or_default();
    let new: Vec<StandingOrder> = read
        .orders
        .iter()
        .filter_map(|l| {
            l.typed.as_ref().map(|o| StandingOrder {
                order: o.display(map).to_string(),
                written: l.text.clone(),
            })
        })
        .collect();
    let combined = if new.is_empty() {
        standing.clone()
    } else {
        combine_standing(map, k.rules, &standing, &new)
    };
    // A mail with only press, a vote or FINAL gives no orders: the power stays without any
    // (an NMR is judged by the orders, not by the mail), and there is nothing to mark final.
    let final_ =
        !combined.is_empty() && (read.final_ || (new.is_empty() && mine.is_some_and(|r| r.final_)));
    if !combined.is_empty() || mine.is_some() {
        store::set_standing_orders(c, &g.id, k.phase, k.power, &combined, final_, k.now).await?;
    }
    let read_json = serde_json::to_string(read)?;
    let submission = store::NewSubmission {
        game: &g.id,
        phase: k.phase,
        power: k.power,
        message_id: k.message_id,
        submitted_at: k.submitted,
        dated_at: k.dated,
        final_: read.final_,
        late: k.late,
        read_json: &read_json,
    };
    store::insert_submission(c, &submission).await?;
    for p in read.press.iter().filter(|p| p.status == "accepted") {
        let recipients =
            serde_json::to_string(&p.to.iter().filter(|t| *t != "ALL").collect::<Vec<_>>())?;
        let press = store::NewPress {
            author: k.power,
            recipients_json: &recipients,
            grey: p.grey,
            signature: p.signature.as_deref(),
            attributed: p.as_power.as_deref(),
            body: &p.body,
        };
        store::insert_press(c, &g.id, k.phase, &press, k.now).await?;
    }
    for v in &read.votes {
        // A proposal the GM refused as repetitive is not voted on (Maharajiad X(2)); the players
        // were told when it was refused.
        if store::proposal_refused(c, &g.id, &v.proposal).await? {
            continue;
        }
        store::cast_vote(c, &g.id, k.phase, k.power, &v.proposal, v.vote, k.now).await?;
    }
    Ok((combined, final_))
}

/// When a mail says it was written: its Date, never later than its arrival (a sender's clock
/// ahead of ours must not date it in the future), or its arrival when it has no Date.
fn dated_at(msg: &ReadMessage, arrived: Ts) -> Ts {
    msg.dated.map_or(arrived, |d| d.min(arrived))
}

/// Why a mail is refused as a replay, if it is (issue 21, point 8): a copy of a mail already
/// accepted (its Message-ID), or a mail dated before the power's newest accepted one. A signed
/// mail copied to an ally, or one carrying the secret, could otherwise be sent to the GM again
/// later to put back the orders it held. The rulebooks are silent; a careful GM takes the
/// newest orders a player wrote, never an older mail that turns up again (WM D.III(3)).
async fn replayed(
    c: &mut SqliteConnection,
    g: &GameRow,
    power: &str,
    msg: &ReadMessage,
    dated: Ts,
) -> Result<Option<String>> {
    let id = msg.message_id.as_deref();
    let (newest, seen) = store::submissions_before(c, &g.id, power, id).await?;
    if seen {
        return Ok(Some(format!(
            "this mail (Message-ID {}) was accepted already: a copy of it sent again changes \
             nothing. To change your orders, write a new mail",
            id.unwrap_or_default()
        )));
    }
    Ok(match newest {
        Some(newest) if dated < newest => Some(format!(
            "this mail is dated {}, before your newest accepted mail ({}): an older mail sent \
             again must not undo newer orders, so nothing in it was used. To change your \
             orders, write a new mail",
            compose::gmt(dated),
            compose::gmt(newest)
        )),
        _ => None,
    })
}

/// When the confirmation box received this very mail (WM D.VII(1), D.VII(7)): a copy with the
/// same Message-ID, from the same sender, in the same game, with the GM addressed as the rules
/// require (the receipt recorded only such copies) and saying the same. A copy that shares only
/// the Message-ID (a dummy sent before the deadline) lends its time to nothing.
async fn confirmed_at(
    c: &mut SqliteConnection,
    map: &Map,
    g: &GameRow,
    from: &str,
    msg: &ReadMessage,
    read: &MailRead,
) -> Result<Option<Ts>> {
    let Some(id) = &msg.message_id else {
        return Ok(None);
    };
    let digest = read_digest(map, read)?;
    let copy = store::Confirmation {
        message_id: id,
        from,
        game: &g.id,
        read_digest: &digest,
    };
    Ok(store::confirmation_time(c, &copy).await?)
}

/// A digest of what a mail says, read for one power: its orders (canonical), the Final
/// marker, its votes and its press, but not what became of them (the press cap depends on the
/// press before it). The GM's copy and the confirmation box's copy of one mail digest alike.
pub(super) fn read_digest(map: &Map, read: &MailRead) -> Result<String> {
    let orders: Vec<String> = read
        .understood()
        .iter()
        .map(|o| o.display(map).to_string())
        .collect();
    let votes: Vec<(&str, &str)> = read
        .votes
        .iter()
        .map(|v| (v.proposal.as_str(), v.vote))
        .collect();
    let press: Vec<_> = read
        .press
        .iter()
        .map(|p| (&p.to, p.grey, &p.signature, &p.as_power, &p.body))
        .collect();
    let said = serde_json::to_string(&(orders, read.final_, votes, press))?;
    Ok(sha256_hex(said.as_bytes()))
}

/// Refuse the press of this mail beyond the server's cap for one player in one phase
/// (`[limits] press_per_phase`, `press_bytes_per_phase`): `sent`, the pieces and bytes accepted
/// before it. Pieces are taken in the order written until one would pass either cap; it and
/// every later piece are refused, and the acknowledgement says why. The rulebooks set no cap;
/// this keeps one player from burying the results (and everyone's mailbox) in press.
pub(super) fn cap_press(read: &mut MailRead, sent: (i64, i64), limits: &Limits) {
    let (mut pieces, mut bytes) = sent;
    let mut full = false;
    for p in read.press.iter_mut().filter(|p| p.status == "accepted") {
        let size = i64::try_from(p.body.len()).unwrap_or(i64::MAX);
        full = full
            || pieces >= limits.press_per_phase
            || bytes.saturating_add(size) > limits.press_bytes_per_phase;
        if full {
            p.status = "refused";
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

/// Combine the standing orders with a new set, per the submissions rule (WM D.III(3)).
pub(super) fn combine_standing(
    map: &Map,
    rules: &Rules,
    standing: &[StandingOrder],
    new: &[StandingOrder],
) -> Vec<StandingOrder> {
    let parse = |s: &[StandingOrder]| -> Vec<Order> {
        s.iter()
            .filter_map(|o| parse_order(map, &o.order).ok())
            .collect()
    };
    let combined = policy::combine(rules, &parse(standing), &parse(new));
    // Keep the written text: from the new set where the order came from it, else the old.
    combined
        .iter()
        .filter_map(|o| {
            let text = o.display(map).to_string();
            new.iter()
                .chain(standing.iter())
                .find(|s| s.order == text)
                .cloned()
        })
        .collect()
}
