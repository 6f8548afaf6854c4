//! From the engine's decisions to outgoing mail: fill the views, render the templates, and
//! address and thread the result. Message-IDs are derived from what caused the mail, so the same
//! cause always gives the same Message-ID (a retry is recognisably the same mail).

use crate::adjudicator::{Adjudication, Board};
use crate::engine::{Env, StandingOrder};
use crate::game::Ts;
use crate::map::{Map, Power};
use crate::message::ReadMessage;
use crate::orderset::MailRead;
use crate::render::{self, Reader, Rendered};
use crate::store::{GameRow, NewMail, PlayerRow};
use std::collections::HashMap;

/// `Tuesday 24 November 2026, 20:00 GMT`.
pub fn gmt(ts: Ts) -> String {
    render::gmt_human(ts).unwrap_or_else(|_| format!("{ts} (unix time)"))
}

/// `2026-12-01` or `2026-12-01 18:00`, GMT.
pub fn parse_gmt(s: &str) -> Option<Ts> {
    let s = s.trim();
    let (date, time) = s.split_once(' ').unwrap_or((s, "00:00"));
    let d = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").ok()?;
    let t = chrono::NaiveTime::parse_from_str(time, "%H:%M").ok()?;
    Some(d.and_time(t).and_utc().timestamp())
}

fn id(env: &Env, kind: &str, seed: &str) -> String {
    crate::engine::new_message_id(env, kind, seed)
}

/// A rendering failure must not lose the mail: send the facts plainly.
fn or_plain(r: Result<Rendered, render::RenderError>, subject: &str, facts: &str) -> Rendered {
    r.unwrap_or_else(|e| Rendered {
        subject: subject.to_string(),
        body: format!("{facts}\n\n(The full text could not be produced: {e}.)\n"),
    })
}

#[allow(clippy::too_many_arguments)]
fn reply(
    env: &Env,
    kind: &'static str,
    from: &str,
    to: &str,
    msg: Option<&ReadMessage>,
    r: Rendered,
    auto: &'static str,
    seed: &str,
) -> NewMail {
    let in_reply_to = msg.and_then(|m| m.message_id.clone());
    NewMail {
        kind,
        message_id: id(env, kind, seed),
        from: from.to_string(),
        to: to.to_string(),
        subject: r.subject,
        body: r.body,
        refs: in_reply_to.iter().cloned().collect(),
        in_reply_to,
        auto_submitted: auto,
    }
}

fn seed_of(msg: &ReadMessage, extra: &str) -> String {
    format!(
        "{}|{}|{}",
        msg.message_id.as_deref().unwrap_or(""),
        msg.from_address.as_deref().unwrap_or(""),
        extra
    )
}

pub fn unreadable(env: &Env, gm: &str, to: &str, why: &str, now: Ts) -> NewMail {
    let v = render::RejectionView {
        from: to.to_string(),
        received_at: now,
        reasons: vec![render::RejectReason::Unreadable {
            detail: why.to_string(),
        }],
        tz: "UTC".into(),
        ..Default::default()
    };
    let r = or_plain(render::rejection(&v), "Your mail could not be read", why);
    reply(
        env,
        "rejection",
        gm,
        to,
        None,
        r,
        "auto-replied",
        &format!("unreadable|{to}|{now}|{why}"),
    )
}

#[allow(clippy::too_many_arguments)]
pub fn receipt(
    env: &Env,
    confirm: &str,
    gm: &str,
    to: &str,
    msg: &ReadMessage,
    sha256: &str,
    size: u64,
    orders: &[String],
    addressing: Option<String>,
    now: Ts,
) -> NewMail {
    let v = render::ReceiptView {
        mailbox: confirm.to_string(),
        game: None,
        received_at: now,
        message_id: msg.message_id.clone(),
        from: to.to_string(),
        subject: msg.subject.clone(),
        to: msg.to.clone(),
        cc: msg.cc.clone(),
        gm_address: gm.to_string(),
        gm_addressed: addressing.is_none(),
        gm_in_to_only: false,
        orders: orders.to_vec(),
        sha256: sha256.to_string(),
        size,
    };
    let facts = format!(
        "Received {} GMT, Message-ID {}.{}",
        gmt(now),
        msg.message_id.as_deref().unwrap_or("(none)"),
        addressing.map(|a| format!("\n{a}")).unwrap_or_default()
    );
    let r = or_plain(render::receipt(&v), "Receipt", &facts);
    reply(
        env,
        "receipt",
        confirm,
        to,
        Some(msg),
        r,
        "auto-replied",
        &seed_of(msg, "receipt"),
    )
}

pub fn rejection(
    env: &Env,
    gm: &str,
    to: &str,
    msg: &ReadMessage,
    reasons: &[String],
    now: Ts,
) -> NewMail {
    let v = render::RejectionView {
        from: msg.from_address.clone().unwrap_or_default(),
        subject: msg.subject.clone(),
        message_id: msg.message_id.clone(),
        received_at: now,
        reasons: reasons
            .iter()
            .map(|d| render::RejectReason::Other { detail: d.clone() })
            .collect(),
        tz: "UTC".into(),
        ..Default::default()
    };
    let r = or_plain(
        render::rejection(&v),
        "Your mail was not accepted",
        &reasons.join("\n"),
    );
    reply(
        env,
        "rejection",
        gm,
        to,
        Some(msg),
        r,
        "auto-replied",
        &seed_of(msg, &format!("rejection|{to}")),
    )
}

pub fn impersonation(
    env: &Env,
    gm: &str,
    game: &str,
    power: &str,
    msg: &ReadMessage,
    why: &str,
    now: Ts,
) -> NewMail {
    let v = render::ImpersonationView {
        game: game.to_string(),
        claimed_power: power.to_string(),
        why: why.to_string(),
        from: msg.from_address.clone().unwrap_or_default(),
        subject: msg.subject.clone(),
        message_id: msg.message_id.clone(),
        received_at: now,
        authentication_results: msg.authentication_results.clone(),
        ..Default::default()
    };
    let r = or_plain(
        render::impersonation_report(&v),
        &format!("{game}: possible impersonation of {power}"),
        why,
    );
    reply(
        env,
        "report",
        gm,
        gm,
        Some(msg),
        r,
        "auto-generated",
        &seed_of(msg, "impersonation"),
    )
}

#[allow(clippy::too_many_arguments)]
pub fn acknowledgement(
    env: &Env,
    g: &GameRow,
    map: &Map,
    player: &PlayerRow,
    msg: &ReadMessage,
    read: &MailRead,
    standing: &[StandingOrder],
    final_: bool,
    board: &Board,
    power: Power,
    phase: &str,
    deadline: Ts,
    late: bool,
    request_notes: &[String],
    now: Ts,
) -> NewMail {
    let mut v = render::AckView {
        game: g.id.clone(),
        power: player.power.clone(),
        phase: phase.to_string(),
        received_at: now,
        deadline,
        tz: player.tz.clone(),
        late,
        ..Default::default()
    };
    v.set_read(read);
    v.is_final = final_;
    v.requests = read
        .requests
        .iter()
        .zip(request_notes.iter())
        .map(|(r, note)| render::RequestAck::new(r, note.clone()))
        .collect();
    // The whole set as it will be adjudicated: every unit, ordered or not.
    let mut rows: Vec<render::StandingOrder> = Vec::new();
    let ordered = |unit_prov: &str| {
        standing.iter().find(|s| {
            s.order
                .split_whitespace()
                .nth(1)
                .is_some_and(|p| p.starts_with(unit_prov))
        })
    };
    let units: Vec<String> = match board.phase.kind {
        crate::phase::PhaseKind::Retreat => board
            .dislodged
            .iter()
            .filter(|d| d.unit.power == power)
            .map(|d| map.unit_name(d.unit.unit_type, d.unit.location))
            .collect(),
        _ => board
            .units
            .iter()
            .filter(|u| u.power == power)
            .map(|u| map.unit_name(u.unit_type, u.location))
            .collect(),
    };
    if board.phase.kind == crate::phase::PhaseKind::Adjustment {
        for s in standing {
            rows.push(render::StandingOrder {
                unit: String::new(),
                order: Some(s.order.clone()),
            });
        }
    } else {
        for u in &units {
            let prov = u
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .split('/')
                .next()
                .unwrap_or("");
            rows.push(render::StandingOrder {
                unit: u.clone(),
                order: ordered(prov).map(|s| s.order.clone()),
            });
        }
    }
    v.standing = rows;
    let facts = format!(
        "{} {} {}: {} order(s) stand; deadline {}",
        g.id,
        player.power,
        phase,
        standing.len(),
        gmt(deadline)
    );
    let r = or_plain(
        render::acknowledgement(&v),
        &format!("Re: {}", msg.subject),
        &facts,
    );
    reply(
        env,
        "ack",
        &g.gm_address,
        &player.address,
        Some(msg),
        r,
        "auto-replied",
        &seed_of(msg, "ack"),
    )
}

#[allow(clippy::too_many_arguments)]
pub fn results(
    env: &Env,
    g: &GameRow,
    map: &Map,
    adj: &Adjudication,
    before: &Board,
    written: &HashMap<String, Vec<StandingOrder>>,
    missing: &[String],
    press: &[(String, String, bool, String)],
    reader: &PlayerRow,
    winner: Option<String>,
    next_deadline: Ts,
) -> NewMail {
    let mut powers: Vec<render::PowerResult> = Vec::new();
    for p in map.all_powers() {
        let name = map.power_name(p).to_string();
        let mine = written.get(&name);
        let orders: Vec<render::ResultOrder> = adj
            .results
            .iter()
            .filter(|r| r.power == p)
            .map(|r| {
                let canon = r.order.display(map).to_string();
                let as_written = mine
                    .and_then(|w| w.iter().find(|s| s.order == canon))
                    .map(|s| s.written.clone())
                    .unwrap_or_else(|| canon.clone());
                render::ResultOrder::from_result(map, r, as_written)
            })
            .collect();
        let ordered: Vec<String> = adj
            .results
            .iter()
            .filter(|r| r.power == p)
            .filter_map(|r| r.order.unit().map(|u| map.info(u.province).code.clone()))
            .collect();
        // Units that had no order: they held (WM D.III(4)).
        let unordered: Vec<String> = if adj.phase.kind == crate::phase::PhaseKind::Movement {
            before
                .units
                .iter()
                .filter(|u| u.power == p)
                .filter(|u| !ordered.contains(&map.info(u.location.province).code))
                .map(|u| map.unit_name(u.unit_type, u.location))
                .collect()
        } else {
            Vec::new()
        };
        let disbanded: Vec<String> = adj
            .disbanded
            .iter()
            .filter(|u| u.power == p)
            .map(|u| map.unit_name(u.unit_type, u.location))
            .collect();
        if orders.is_empty()
            && unordered.is_empty()
            && disbanded.is_empty()
            && !missing.contains(&name)
        {
            continue;
        }
        powers.push(render::PowerResult {
            power: name.clone(),
            nmr: missing.contains(&name),
            orders,
            unordered,
            disbanded,
        });
    }
    let retreats = adj
        .retreats
        .iter()
        .map(|r| render::RetreatView::from_options(map, r))
        .collect();
    let (centres, unowned) = render::centre_views(map, &adj.next);
    let mut white = Vec::new();
    let mut grey = Vec::new();
    for (author, recipients, is_grey, body) in press {
        let to: Vec<String> = serde_json::from_str(recipients).unwrap_or_default();
        if *is_grey {
            // The author stays here: grey press leaves the engine without it.
            grey.push(render::GreyPress {
                to,
                body: body.clone(),
            });
        } else {
            white.push(render::WhitePress {
                author: author.clone(),
                to,
                body: body.clone(),
            });
        }
    }
    let v = render::ResultsView {
        judge: "CHAN".into(),
        game: g.id.clone(),
        variant: capitalise(&g.variant),
        phase: adj.phase.to_string(),
        next_phase: if winner.is_some() {
            None
        } else {
            Some(adj.next.phase.to_string())
        },
        deadline: if winner.is_some() {
            None
        } else {
            Some(next_deadline)
        },
        powers,
        retreats,
        centres,
        unowned_centres: unowned,
        white_press: white,
        grey_press: grey,
        white_press_with_orders: false,
        vote_result: winner
            .map(|w| format!("{w} holds a majority of the supply centres and wins the game.")),
    };
    let who = if reader.power.is_empty() {
        Reader::Gm
    } else {
        Reader::Power(&reader.power)
    };
    let r = or_plain(
        render::results(&v, who, &reader.tz),
        &format!("{} {} results", g.id, adj.phase),
        &format!("{} {} has been adjudicated.", g.id, adj.phase),
    );
    NewMail {
        kind: "results",
        message_id: id(
            env,
            "results",
            &format!("{}|{}|{}", g.id, adj.phase, reader.address),
        ),
        from: g.gm_address.clone(),
        to: reader.address.clone(),
        subject: r.subject,
        body: r.body,
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-generated",
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

pub fn nmr_hold(env: &Env, g: &GameRow, phase: &str, missing: &[String], now: Ts) -> NewMail {
    let body = format!(
        "{game} {phase}: no orders from {who} at the deadline.\n\n\
         No NMR is allowed in this phase (WM D.VII(6)(b)): the results are held back and the\n\
         player(s) must be replaced. The deadline has moved 24 hours, to {next}.\n",
        game = g.id,
        who = missing.join(", "),
        next = gmt(now + crate::game::DAY),
    );
    NewMail {
        kind: "report",
        message_id: id(env, "nmr", &format!("{}|{phase}|{now}", g.id)),
        from: g.gm_address.clone(),
        to: g.gm_address.clone(),
        subject: format!(
            "{} {phase}: results held, NMR by {}",
            g.id,
            missing.join(", ")
        ),
        body,
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-generated",
    }
}

/// The GM's deadline digest (one per phase: the Message-ID is fixed by game and phase).
pub fn digest(
    env: &Env,
    g: &GameRow,
    phase: &str,
    deadline: Ts,
    powers: Vec<render::DigestPower>,
    extension_days_allowed: u32,
    now: Ts,
) -> NewMail {
    let v = render::DigestView {
        game: g.id.clone(),
        phase: phase.to_string(),
        deadline,
        generated_at: now,
        tz: "UTC".into(),
        extension_days_allowed,
        powers,
    };
    let r = or_plain(
        render::digest(&v),
        &format!("{} {phase} deadline digest", g.id),
        &format!("Deadline {}", gmt(deadline)),
    );
    NewMail {
        kind: "digest",
        message_id: id(env, "digest", &format!("{}|{phase}", g.id)),
        from: g.gm_address.clone(),
        to: g.gm_address.clone(),
        subject: r.subject,
        body: r.body,
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-generated",
    }
}

/// A reminder to a player with no orders in (one per player and phase).
pub fn reminder(
    env: &Env,
    g: &GameRow,
    rules: &crate::rules::Rules,
    p: &PlayerRow,
    phase: &str,
    deadline: Ts,
    now: Ts,
) -> NewMail {
    let v = render::ReminderView {
        game: g.id.clone(),
        power: p.power.clone(),
        phase: phase.to_string(),
        deadline,
        sent_at: now,
        tz: p.tz.clone(),
        expected_subject: rules
            .subject_format
            .replace("{game}", &g.id)
            .replace("{power}", &p.power)
            .replace("{phase}", phase),
        gm_address: g.gm_address.clone(),
        gm_in_to_only: rules.gm_address == crate::rules::GmAddress::To,
    };
    let r = or_plain(
        render::reminder(&v),
        &format!("{} {phase}: no orders yet for {}", g.id, p.power),
        &format!("The deadline is {}.", gmt(deadline)),
    );
    NewMail {
        kind: "reminder",
        message_id: id(env, "reminder", &format!("{}|{phase}|{}", g.id, p.power)),
        from: g.gm_address.clone(),
        to: p.address.clone(),
        subject: r.subject,
        body: r.body,
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-generated",
    }
}
