//! Diplomacy's mails from the engine's decisions: the start mail, the acknowledgement of an
//! order set, the results of an adjudication, the NMR hold, the GM's digest, the reminder and
//! the impersonation report. The shared helpers (addressing, threading, Message-IDs, the
//! outbox's mail shape) and the mails every kind sends are [`crate::outgoing::compose`]'s,
//! re-exported here so that a Diplomacy file names one compose module.

pub use crate::outgoing::compose::*;

use crate::adjudicator::{Adjudication, Board};
use crate::config::Env;
use crate::map::{Map, Power};
use crate::message::ReadMessage;
use crate::orderset::MailRead;
use crate::outgoing::diplomacy::render::{self, Reader};
use crate::outgoing::time::gmt;
use crate::store::diplomacy::{PressRow, StandingOrder, TournamentRow};
use crate::store::{GameRow, MailKind, NewMail, PlayerRow};
use crate::time::Ts;
use std::collections::HashMap;

/// Who a start mail is for.
pub struct StartReader<'a> {
    pub address: &'a str,
    pub tz: &'a str,
    /// The power played; empty for masters and observers.
    pub power: &'a str,
    /// `player`, `GM`, `TD` or `observer`.
    pub role: &'a str,
    /// The reader's own secret; empty for observers.
    pub secret: &'a str,
    /// Set when the reader replaces a player mid-game.
    pub takeover: Option<render::TakeoverView>,
    /// The reader joins a game under way (an observer added mid-game).
    pub joined: bool,
}

/// The start mail of a game to one reader: the power, the first deadline, the secret, how to
/// send orders, and the house rules in plain words with their clauses (WM D.I(1)(b)).
pub fn start(
    env: &Env,
    g: &GameRow,
    rules: &crate::rules::Rules,
    phase: &str,
    deadline: Ts,
    reader: &StartReader<'_>,
) -> Composed {
    let v = render::StartView {
        game: g.id.clone(),
        variant: capitalise(&g.variant),
        preset: rules.name.clone(),
        power: reader.power.to_string(),
        role: reader.role.to_string(),
        phase: phase.to_string(),
        deadline,
        tz: reader.tz.to_string(),
        secret: reader.secret.to_string(),
        gm_address: g.gm_address.clone(),
        confirm_address: g.confirm_address.clone(),
        subject_example: rules
            .subject_format
            .replace("{game}", &g.id)
            .replace("{power}", reader.power)
            .replace("{phase}", phase),
        policies: rules
            .policies()
            .into_iter()
            .map(|(clause, text)| render::PolicyView {
                clause: clause.to_string(),
                // The subject format, as this reader writes it.
                text: text
                    .replace("{game}", &g.id)
                    .replace(
                        "{power}",
                        if reader.power.is_empty() {
                            "<power>"
                        } else {
                            reader.power
                        },
                    )
                    .replace("{phase}", "<phase>"),
            })
            .collect(),
        changed: rules
            .changed_from_preset()
            .into_iter()
            .map(|(option, value, clause)| render::ChangedOption {
                option: option.to_string(),
                value,
                clause: clause.to_string(),
            })
            .collect(),
        takeover: reader.takeover.clone(),
        address: reader.address.to_string(),
        joined: reader.joined,
    };
    let r = rendered(
        render::start(&v),
        MailKind::Start,
        reader.address,
        &format!(
            "{} has started; {} {}; first deadline {}",
            g.id,
            reader.role,
            reader.power,
            gmt(deadline)
        ),
    )?;
    Ok(game_mail(
        env,
        g,
        MailKind::Start,
        &match &reader.takeover {
            // The new secret is part of the cause: a player replaced, replaced back and so on
            // in one phase gets each welcome (issue 21.5). The seed is keyed, so the id does
            // not reveal the secret.
            Some(_) => format!(
                "{}|takeover|{phase}|{}|{}",
                g.id, reader.address, reader.secret
            ),
            // An observer added mid-game (again after a removal, perhaps): one a phase.
            None if reader.joined => format!("{}|joined|{phase}|{}", g.id, reader.address),
            None => format!("{}|start|{}", g.id, reader.address),
        },
        &g.gm_address,
        reader.address,
        r,
    ))
}

/// Whether the game calls its adjustment phase Monsoon (Maharajiad B.I(5)).
fn monsoon(g: &GameRow) -> bool {
    serde_json::from_str::<crate::rules::Rules>(&g.rules).is_ok_and(|r| r.monsoon)
}

/// What an acknowledgement of an order mail says: the mail as read, the set that now stands,
/// the position it is for and the deadline.
pub struct Ack<'a> {
    pub game: &'a GameRow,
    pub map: &'a Map,
    pub player: &'a PlayerRow,
    pub msg: &'a ReadMessage,
    /// The received mail's content digest: seeds the acknowledgement's Message-ID, so that a
    /// redelivery's answer is the same mail.
    pub key: &'a str,
    pub read: &'a MailRead,
    /// The order set that now stands for the power, and whether it is final.
    pub standing: &'a [StandingOrder],
    pub final_: bool,
    pub board: &'a Board,
    pub power: Power,
    pub phase: &'a str,
    pub deadline: Ts,
    pub late: bool,
    /// What became of each request of the mail, in its order.
    pub request_notes: &'a [String],
    /// What became of each line on the regulations (Agora BT8), in its order.
    pub regulation_notes: &'a [String],
    /// Notes under the orders that stand (Agora BT15: the conditionals the set lacks).
    pub standing_notes: &'a [String],
    /// What became of each assistant the mail announced (Agora BT7), in its order.
    pub assistant_notes: &'a [String],
    /// Who sent the orders, when not the power's player: an announced assistant (Agora BT7).
    pub submitted_by: Option<&'a str>,
    /// When the mail arrived.
    pub received_at: Ts,
}

pub fn acknowledgement(env: &Env, a: &Ack<'_>) -> Composed {
    let (g, player) = (a.game, a.player);
    let mut v = render::AckView {
        monsoon: monsoon(g),
        game: g.id.clone(),
        power: player.power.clone(),
        phase: a.phase.to_string(),
        received_at: a.received_at,
        deadline: a.deadline,
        tz: player.tz.clone(),
        late: a.late,
        ..Default::default()
    };
    v.set_read(a.read);
    v.subject = echo_subject(&v.subject);
    v.is_final = a.final_;
    v.requests = a
        .read
        .requests
        .iter()
        .zip(a.request_notes.iter())
        .map(|(r, note)| render::RequestAck::new(r, note.clone()))
        .collect();
    v.regulations = a
        .read
        .regulations
        .iter()
        .zip(a.regulation_notes.iter())
        .map(|(l, note)| render::RegulationAck {
            line: l.line,
            text: l
                .read
                .as_ref()
                .map_or_else(|_| l.text.clone(), |r| r.describe()),
            outcome: note.clone(),
        })
        .collect();
    v.assistants = a
        .read
        .assistants
        .iter()
        .zip(a.assistant_notes.iter())
        .map(|(l, note)| render::RegulationAck {
            line: l.line,
            text: l.text.clone(),
            outcome: note.clone(),
        })
        .collect();
    v.submitted_by = a.submitted_by.map(str::to_string);
    v.standing = standing_rows(a.map, a.board, a.power, a.standing);
    v.standing_notes = a.standing_notes.to_vec();
    let facts = format!(
        "{} {} {}: {} order(s) stand; deadline {}",
        g.id,
        player.power,
        a.phase,
        a.standing.len(),
        gmt(a.deadline)
    );
    let r = rendered(
        render::acknowledgement(&v),
        MailKind::Ack,
        &player.address,
        &facts,
    )?;
    Ok(game_answer(
        env,
        g,
        MailKind::Ack,
        &player.address,
        a.msg,
        a.key,
        r,
    ))
}

/// The whole set as it will be adjudicated: every unit of `power`, ordered or not (in an
/// adjustment phase, the orders themselves).
fn standing_rows(
    map: &Map,
    board: &Board,
    power: Power,
    standing: &[StandingOrder],
) -> Vec<render::StandingOrder> {
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
    rows
}

/// What an adjudication says, for everyone: built once a phase, rendered for each reader by
/// [`results`].
#[allow(clippy::too_many_arguments)]
pub fn results_view(
    g: &GameRow,
    map: &Map,
    adj: &Adjudication,
    before: &Board,
    written: &HashMap<String, Vec<StandingOrder>>,
    missing: &[String],
    press: &[PressRow],
    press_key: &[u8],
    told: Option<String>,
    next_deadline: Option<Ts>,
) -> render::ResultsView {
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
    // Never in the order it came (WM D.X(2); Maharajiad B.XI(2)): black or grey press sent in
    // one mail with its author's white press would sit right beside it. A secret key orders
    // the phase's press; every reader gets the same order, none can work it out.
    let context = format!("press|{}|{}", g.id, adj.phase);
    for p in keyed_order(press_key, &context, press.len())
        .into_iter()
        .filter_map(|i| press.get(i))
    {
        // Press whose recipients cannot be read is never published (to all, as it once was).
        let Ok(to) = serde_json::from_str::<Vec<String>>(&p.recipients) else {
            continue;
        };
        if let Some(shown) = &p.attributed {
            // Black press (Maharajiad B.XI(1)): printed exactly as white press of the power
            // named; the real author stays here.
            white.push(render::WhitePress {
                author: shown.clone(),
                to,
                body: p.body.clone(),
            });
        } else if p.grey {
            // The author stays here: grey and dark grey press leave the engine without it.
            grey.push(render::GreyPress {
                to,
                body: p.body.clone(),
                signature: p.signature.clone(),
            });
        } else {
            white.push(render::WhitePress {
                author: p.author.clone(),
                to,
                body: p.body.clone(),
            });
        }
    }
    render::ResultsView {
        monsoon: monsoon(g),
        judge: "CHAN".into(),
        game: g.id.clone(),
        variant: capitalise(&g.variant),
        phase: adj.phase.to_string(),
        // No next deadline: the game is over.
        next_phase: next_deadline.map(|_| adj.next.phase.to_string()),
        deadline: next_deadline,
        powers,
        retreats,
        centres,
        unowned_centres: unowned,
        white_press: white,
        grey_press: grey,
        // Set by the caller from the rules (WM D.X(1); Maharajiad B.XI(1)).
        white_press_with_orders: false,
        vote_result: told,
        centre_history: None,
    }
}

/// Who a results mail goes to, and what press they may see.
pub struct ResultsReader<'a> {
    pub address: &'a str,
    pub tz: &'a str,
    pub reader: Reader<'a>,
}

/// The results mail of each reader, in their order.
pub fn results(
    env: &Env,
    g: &GameRow,
    v: &render::ResultsView,
    readers: &[ResultsReader<'_>],
) -> Vec<Composed> {
    let who: Vec<(Reader<'_>, &str)> = readers.iter().map(|r| (r.reader, r.tz)).collect();
    let facts = format!("{} {} has been adjudicated.", g.id, v.phase);
    render::results_for(v, &who)
        .into_iter()
        .zip(readers)
        .map(|(r, reader)| {
            let r = rendered(r, MailKind::Results, reader.address, &facts)?;
            Ok(game_mail(
                env,
                g,
                MailKind::Results,
                &format!("{}|{}|{}", g.id, v.phase, reader.address),
                &g.gm_address,
                reader.address,
                r,
            ))
        })
        .collect()
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `until`: when the masters are reminded if the results are still held.
pub fn nmr_hold(
    env: &Env,
    to: &str,
    g: &GameRow,
    phase: &str,
    missing: &[String],
    until: Ts,
    now: Ts,
) -> NewMail {
    let example = missing.first().map_or("<power>", String::as_str);
    let body = format!(
        "{game} {phase}: no orders from {who} at the deadline.\n\n\
         No NMR is allowed in this phase (WM D.VII(6)(b)): the results are held back and the\n\
         player(s) must be replaced at once. The phase stays closed at its deadline: no player\n\
         may send or change orders, except the replacement you name now, with a command mail\n\
         (subject \"{game} GM\"):\n\n    REPLACE {example} <address>\n\n\
         The replacement is sent the position and a new secret. The results go out as soon as\n\
         every power has orders. PREVIEW shows what they would be. If they are still held at\n\
         {next}, you will be reminded.\n",
        game = g.id,
        who = missing.join(", "),
        next = gmt(until),
    );
    NewMail {
        kind: MailKind::Alert,
        message_id: id(
            env,
            MailKind::Alert,
            &format!("nmr|{}|{phase}|{now}|{to}", g.id),
        ),
        from: env.alert_from.clone(),
        to: to.to_string(),
        subject: format!(
            "{} {phase}: results held, NMR by {}",
            g.id,
            missing.join(", ")
        ),
        body,
        in_reply_to: None,
        refs: Vec::new(),
        auto_submitted: "auto-generated",
        game: Some(g.id.clone()),
        picture: None,
    }
}

/// The GM's deadline digest (one per phase: the Message-ID is fixed by game and phase).
#[allow(clippy::too_many_arguments)]
pub fn digest(
    env: &Env,
    to: &str,
    g: &GameRow,
    phase: &str,
    deadline: Ts,
    powers: Vec<render::DigestPower>,
    extension_days_allowed: u32,
    drops: Vec<render::DropCount>,
    open_items: Vec<String>,
    now: Ts,
) -> Composed {
    let v = render::DigestView {
        monsoon: monsoon(g),
        drops,
        open_items,
        game: g.id.clone(),
        phase: phase.to_string(),
        deadline,
        generated_at: now,
        tz: "UTC".into(),
        extension_days_allowed,
        powers,
    };
    let r = rendered(
        render::digest(&v),
        MailKind::Digest,
        to,
        &format!("{} {phase}: deadline {}", g.id, gmt(deadline)),
    )?;
    Ok(game_mail(
        env,
        g,
        MailKind::Digest,
        &format!("{}|{phase}|{to}", g.id),
        &env.alert_from,
        to,
        r,
    ))
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
) -> Composed {
    let v = render::ReminderView {
        monsoon: rules.monsoon,
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
    let r = rendered(
        render::reminder(&v),
        MailKind::Reminder,
        &p.address,
        &format!(
            "{} {phase}: no orders yet for {}; the deadline is {}.",
            g.id,
            p.power,
            gmt(deadline)
        ),
    )?;
    Ok(game_mail(
        env,
        g,
        MailKind::Reminder,
        &format!("{}|{phase}|{}", g.id, p.power),
        &g.gm_address,
        &p.address,
        r,
    ))
}

/// The answer to a tournament director's command mail: each line, done or refused, and why.
pub fn td_reply(
    env: &Env,
    t: &TournamentRow,
    to: &str,
    msg: &ReadMessage,
    key: &str,
    lines: Vec<crate::outgoing::render::CommandReplyLine>,
) -> Composed {
    let r = command_reply_rendered(&t.id, to, lines, crate::outgoing::render::td_reply)?;
    Ok(reply(
        env,
        MailKind::CommandReply,
        &t.gm_address,
        to,
        Some(msg),
        r,
        "auto-replied",
        &seed_of(key, "td-reply"),
    ))
}
