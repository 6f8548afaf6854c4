//! The day before a deadline: a reminder to each player who owes orders and has none in, and
//! the masters' digest of the phase.

use super::turn::Turn;
use super::*;
use crate::outgoing::diplomacy::render::{DigestPower, DropCount};

/// The GM's digest and the players' reminders go out this long before a deadline.
pub const DIGEST_BEFORE: Ts = crate::time::DAY;

/// The GM's deadline digest, and a reminder to each player who owes orders and has none in.
/// Sent once a phase (the phase is marked reminded), each with a Message-ID fixed by game,
/// phase (and power), so that even a repeat is sent once.
pub(super) fn remind(t: &Turn<'_>) -> Vec<NewMail> {
    let (powers, mut mails) = reminders(t);
    mails.extend(digests(t, powers));
    mails
}

/// Each power due, for the digest, and a reminder to each of their players who has no orders in.
fn reminders(t: &Turn<'_>) -> (Vec<DigestPower>, Vec<NewMail>) {
    let (f, g, phase) = (t.f, &t.f.game, &t.f.phase);
    let mut powers = Vec::new();
    let mut mails = Vec::new();
    for p in &f.players {
        let Some(pw) = t.map.power_by_name(&p.power) else {
            continue;
        };
        if !t.due.contains(&pw) {
            continue;
        }
        let s = orders_of(f, &p.power);
        powers.push(DigestPower {
            power: p.power.clone(),
            player: p.address.clone(),
            orders_in: s.is_some(),
            is_final: s.is_some_and(|s| s.final_),
            order_count: s.map_or(0, |s| s.orders.len()),
            last_submission: s.map(|s| s.updated_at),
            extension_days_used: u32::try_from(p.extension_days_used).unwrap_or(u32::MAX),
            wrong_secrets: f
                .wrong_secrets
                .iter()
                .find(|w| w.power == p.power)
                .map_or(0, |w| w.count),
        });
        if s.is_none() {
            let mail = compose::reminder(t.env, g, t.rules, p, &phase.phase, phase.deadline, t.now);
            let key = format!("reminder|{}|{}|{}", g.id, phase.phase, p.power);
            mails.extend(or_alert(t.env, f, mail, &key));
        }
    }
    (powers, mails)
}

/// The masters' digest of the phase: each power due, and the mail dropped silently.
fn digests(t: &Turn<'_>, powers: Vec<DigestPower>) -> Vec<NewMail> {
    let (f, g, phase) = (t.f, &t.f.game, &t.f.phase);
    let drops: Vec<DropCount> = f
        .drops
        .iter()
        .map(|d| DropCount {
            reason: d.reason.clone(),
            count: d.count,
        })
        .collect();
    let open_items = super::regulations::open_items(&f.unconfirmed);
    let mut mails = Vec::new();
    for to in masters_of(t.env, Some(g), &f.masters) {
        let mail = compose::digest(
            t.env,
            &to,
            g,
            &phase.phase,
            phase.deadline,
            powers.clone(),
            t.rules.extension_days_total,
            drops.clone(),
            open_items.clone(),
            t.now,
        );
        let key = format!("digest|{}|{}", g.id, phase.phase);
        mails.extend(or_alert(t.env, f, mail, &key));
    }
    mails
}
