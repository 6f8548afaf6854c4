//! A master's command on a game, from a command mail or the console: checked, done in the
//! caller's transaction, written to the audit log, and announced to the players where it
//! changes what they see (WM A, D.VIII). The command itself is read by
//! `chancery_intake::commands`.

use super::*;
use crate::commands::{GmCommand, format_duration, format_gmt};
use crate::store::{MemberRow, Role};

/// Who gave a command, and how.
#[derive(Clone, Copy, Debug)]
pub struct Actor<'a> {
    /// The master's address, or `console`.
    pub who: &'a str,
    /// `mail` or `console`.
    pub via: &'a str,
    /// The master's part (GM or TD). At the console: `Some(Td)` only when the TD's consent is
    /// given on the command line, else None.
    pub role: Option<Role>,
}

/// What a command did: its answer to the master, whether it was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Done {
    pub ok: bool,
    pub answer: String,
}

impl Done {
    pub(super) fn ok(answer: impl Into<String>) -> Done {
        Done {
            ok: true,
            answer: answer.into(),
        }
    }
    pub(super) fn refused(answer: impl Into<String>) -> Done {
        Done {
            ok: false,
            answer: answer.into(),
        }
    }
}

/// Do one command on game `g`, inside the caller's transaction. Refusals change nothing; every
/// command, done or refused, is written to the audit log.
pub async fn execute(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    cmd: &GmCommand,
    now: Ts,
) -> Result<Done> {
    let done = run(c, env, g, actor, cmd, now).await?;
    let effect = if done.ok {
        done.answer.clone()
    } else {
        format!("refused: {}", done.answer)
    };
    store::audit(
        c,
        &g.id,
        now,
        actor.who,
        actor.via,
        &cmd.canonical(),
        &effect,
    )
    .await?;
    Ok(done)
}

async fn run(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    cmd: &GmCommand,
    now: Ts,
) -> Result<Done> {
    if g.status != store::GameStatus::Active
        && !matches!(
            cmd,
            GmCommand::Status
                | GmCommand::Set { .. }
                | GmCommand::ObserverAdd(_)
                | GmCommand::Rollback(_)
                | GmCommand::ConsentRollback(_)
        )
    {
        return Ok(Done::refused(format!(
            "game {} is {}, not running",
            g.id, g.status
        )));
    }
    let current = store::current_phase(c, &g.id).await?;
    let paused = store::paused_remaining(c, &g.id).await?;
    let key = |what: &str| format!("{}|{what}|{now}", g.id);
    match cmd {
        GmCommand::Deadline(t) | GmCommand::Extend(t) => {
            let Some(p) = current else {
                return Ok(Done::refused("the game has no open phase"));
            };
            if paused.is_some() {
                return Ok(Done::refused("the game is paused: RESUME it first"));
            }
            let new = match cmd {
                GmCommand::Extend(by) => p.deadline.saturating_add(*by),
                _ => *t,
            };
            if new <= now {
                return Ok(Done::refused(format!(
                    "{} has already passed (use PROCESS to adjudicate now)",
                    format_gmt(new)
                )));
            }
            let kind = p.phase.parse::<Phase>()?.kind;
            if let Some(why) = policy::deadline_too_soon(&rules_of(g)?, p.started_at, kind, new) {
                return Ok(Done::refused(why));
            }
            store::set_deadline(c, &g.id, p.seq, new).await?;
            let text = match cmd {
                GmCommand::Extend(by) => format!(
                    "The GM has extended the deadline of {} by {}.",
                    p.phase,
                    format_duration(*by)
                ),
                _ => format!("The GM has moved the deadline of {}.", p.phase),
            };
            announce(
                c,
                env,
                g,
                &key("deadline"),
                "the deadline has moved",
                &text,
                Some(new),
                now,
            )
            .await?;
            Ok(Done::ok(format!(
                "the deadline of {} is now {} (was {}); every player was told",
                p.phase,
                format_gmt(new),
                format_gmt(p.deadline)
            )))
        }
        GmCommand::Pause => {
            let Some(p) = current else {
                return Ok(Done::refused("the game has no open phase"));
            };
            let left = (p.deadline - now).max(0);
            if !store::pause(c, &g.id, left).await? {
                return Ok(Done::refused("the game is already paused"));
            }
            let text = format!(
                "The GM has paused the game in {}. Nothing is adjudicated while it is paused; \
                 the {} that were left before the deadline are kept, and a new deadline will be \
                 announced when the game resumes.",
                p.phase,
                format_duration(left)
            );
            announce(
                c,
                env,
                g,
                &key("pause"),
                "the game is paused",
                &text,
                None,
                now,
            )
            .await?;
            Ok(Done::ok(format!(
                "paused with {} left before the deadline; every player was told",
                format_duration(left)
            )))
        }
        GmCommand::Resume => {
            let Some(p) = current else {
                return Ok(Done::refused("the game has no open phase"));
            };
            let Some(left) = store::resume(c, &g.id).await? else {
                return Ok(Done::refused("the game is not paused"));
            };
            let new = now + left;
            store::set_deadline(c, &g.id, p.seq, new).await?;
            let text = format!(
                "The GM has resumed the game in {}, with the {} that were left when it was paused.",
                p.phase,
                format_duration(left)
            );
            announce(
                c,
                env,
                g,
                &key("resume"),
                "the game resumes",
                &text,
                Some(new),
                now,
            )
            .await?;
            Ok(Done::ok(format!(
                "resumed; the deadline is {}; every player was told",
                format_gmt(new)
            )))
        }
        GmCommand::Process => {
            let Some(p) = current else {
                return Ok(Done::refused("the game has no open phase"));
            };
            if paused.is_some() {
                return Ok(Done::refused("the game is paused: RESUME it first"));
            }
            store::set_deadline(c, &g.id, p.seq, now).await?;
            Ok(Done::ok(format!(
                "{} is adjudicated as soon as every mailbox has been read up to now",
                p.phase
            )))
        }
        GmCommand::Preview => match super::deadline::preview(c, env, &g.id, now).await? {
            Ok(mails) => {
                store::enqueue_many(c, &mails, now).await?;
                Ok(Done::ok(format!(
                    "the results as if adjudicated now were mailed to the masters ({}); nothing changed",
                    mails
                        .iter()
                        .map(|m| m.to.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
            Err(why) => Ok(Done::refused(why)),
        },
        GmCommand::Status => Ok(Done::ok(
            status_text(c, g, current.as_ref(), paused, StatusFor::Masters).await?,
        )),
        GmCommand::Set { option, value } => {
            let rules = rules_of(g)?;
            let new = match rules.set(option, value) {
                Ok(r) => r,
                Err(e) => return Ok(Done::refused(e.to_string())),
            };
            // Before the start the GM sets the game up freely; once it runs, the rulebook's
            // limits hold.
            if g.status == store::GameStatus::Active
                && let Some(why) = rules.forbidden_change(&new)
            {
                return Ok(Done::refused(why));
            }
            let shown = new
                .options()
                .into_iter()
                .find(|o| o.0 == option.as_str())
                .map_or_else(|| value.clone(), |o| o.1);
            store::set_rules(c, &g.id, &serde_json::to_string(&new)?).await?;
            let clause = crate::rules::Rules::clause(option).unwrap_or("");
            let text = format!(
                "The GM has changed a house rule of this game: {option} is now {shown} ({clause})."
            );
            announce(
                c,
                env,
                g,
                &key(&format!("set|{option}")),
                "a house rule has changed",
                &text,
                None,
                now,
            )
            .await?;
            Ok(Done::ok(format!(
                "{option} = {shown} ({clause}); every player was told"
            )))
        }
        GmCommand::ObserverAdd(address) => {
            let m = MemberRow {
                role: Role::Observer,
                address: address.clone(),
                name: String::new(),
                tz: "UTC".into(),
                secret: secret::generate().map_err(EngineError::Refused)?,
            };
            match store::add_member(c, &g.id, &m, now).await {
                Ok(()) => {
                    // They did not ask for the mails to come: the first one says how to stop.
                    let told = if super::admin::welcome_observer(c, env, g, address, &m.tz, now)
                        .await?
                    {
                        "they were sent a first mail saying how to stop being sent the game's mail"
                    } else {
                        "their start mail will say how to stop being sent the game's mail"
                    };
                    Ok(Done::ok(format!("{address} observes {}; {told}", g.id)))
                }
                Err(StoreError::MemberExists { .. }) => Ok(Done::refused(format!(
                    "{address} already has a part in {}",
                    g.id
                ))),
                Err(e) => Err(e.into()),
            }
        }
        GmCommand::Broadcast(message) => {
            let text = format!("A message from the GM of game {}:", g.id);
            announce_with(
                c,
                env,
                g,
                &key(&format!(
                    "broadcast|{}",
                    crate::outgoing::ids::short_hash(message)
                )),
                "a message from the GM",
                &text,
                message,
                None,
                now,
            )
            .await?;
            Ok(Done::ok("sent to every player and observer"))
        }
        GmCommand::Replace {
            power,
            address,
            permanent,
        } => replace(c, env, g, current.as_ref(), power, address, *permanent, now).await,
        GmCommand::ConsentRollback(phase) => {
            if actor.role != Some(Role::Td) {
                return Ok(Done::refused(
                    "only the TD consents to a rollback (WM D.VIII(1))",
                ));
            }
            store::consent(c, &g.id, &format!("ROLLBACK {phase}"), actor.who, now).await?;
            Ok(Done::ok(format!(
                "the GM may now roll {} back to {phase} (once)",
                g.id
            )))
        }
        GmCommand::Rollback(phase) => rollback(c, env, g, actor, phase, now).await,
        GmCommand::Correct(text) => {
            super::correction::correct(c, env, g, current.as_ref(), text, now).await
        }
        GmCommand::Agree(proposal) => {
            super::correction::agree(c, g, current.as_ref(), proposal, now).await
        }
        GmCommand::DeclareDraw => super::correction::declare_draw(c, env, g, now).await,
        GmCommand::VetoAbbreviations { power, entries } => {
            super::abbreviations::veto(c, env, g, current.as_ref(), power, entries, now).await
        }
        GmCommand::DeclareHoliday { from, to, name } => {
            let holiday = store::Holiday {
                name: name.clone(),
                from_ts: *from,
                to_ts: *to,
                taken_at: None,
            };
            // At the console the operator stands for the TD.
            let td = actor.role == Some(Role::Td) || actor.via == "console";
            super::extension::declare_holiday(c, env, g, td, holiday, now).await
        }
        GmCommand::HolidayExtension => {
            let Some(p) = current.as_ref() else {
                return Ok(Done::refused("the game has no open phase"));
            };
            let wins = super::extension::game_windows(c, g, now).await?;
            match super::extension::take_holiday(c, env, g, p, ("GM", ""), &wins, now).await? {
                Ok(deadline) => Ok(Done::ok(format!(
                    "holiday extension taken (not charged): the deadline is now {}; every \
                     player was told",
                    format_gmt(deadline)
                ))),
                Err(why) => Ok(Done::refused(why)),
            }
        }
        GmCommand::GrantExtension(power) | GmCommand::RefuseExtension(power) => {
            let granted = matches!(cmd, GmCommand::GrantExtension(_));
            super::extension::answer_request(c, env, g, current.as_ref(), power, granted, now).await
        }
        GmCommand::RefuseProposal(proposal) => {
            super::correction::refuse(c, env, g, actor, proposal, now).await
        }
        GmCommand::ObserverRemove(address) => {
            if store::remove_member(c, &g.id, address, Role::Observer).await? {
                Ok(Done::ok(format!("{address} no longer observes {}", g.id)))
            } else {
                Ok(Done::refused(format!(
                    "{address} is no observer of {}",
                    g.id
                )))
            }
        }
    }
}

/// ROLLBACK (WM D.VIII(1)): by the TD, or by a GM with the TD's consent. The phase's orders
/// are open again with a new deadline; the phases after it are undone; every player is told.
async fn rollback(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    phase: &str,
    now: Ts,
) -> Result<Done> {
    let Some(p) = store::phase_named(c, &g.id, phase).await? else {
        return Ok(Done::refused(format!("game {} has no phase {phase}", g.id)));
    };
    if p.adjudicated_at.is_none() {
        return Ok(Done::refused(format!(
            "{phase} has not been adjudicated: there is nothing to roll back"
        )));
    }
    let consent = if actor.role == Some(Role::Td) {
        format!("by the TD ({})", actor.who)
    } else {
        match store::use_consent(c, &g.id, &format!("ROLLBACK {phase}"), now).await? {
            Some(td) => format!("with the TD's consent ({td})"),
            None => {
                return Ok(Done::refused(format!(
                    "a rollback needs the TD's consent (WM D.VIII(1)): the TD sends \
                     CONSENT ROLLBACK {phase} first"
                )));
            }
        }
    };
    let rules = rules_of(g)?;
    let kind = phase.parse::<Phase>()?.kind;
    let wins = super::extension::game_windows(c, g, now).await?;
    let deadline = policy::deadline(&rules, now, kind, &wins);
    store::roll_back(c, &g.id, p.seq, deadline, now).await?;
    let text = format!(
        "The game has been rolled back to {phase} (WM D.VIII(1)): its results and everything \
         after them no longer stand, and the orders of {phase} are open again. The orders that \
         stood for it still stand unless you send new ones."
    );
    announce(
        c,
        env,
        g,
        &format!("{}|rollback|{phase}|{now}", g.id),
        &format!("rolled back to {phase}"),
        &text,
        Some(deadline),
        now,
    )
    .await?;
    Ok(Done::ok(format!(
        "rolled back to {phase} {consent}; new deadline {}; every player was told",
        format_gmt(deadline)
    )))
}

/// REPLACE (WM B.8): the power gets a new player from this phase on, with a new secret and a
/// welcome (the position, the standing orders, the deadline); the player replaced is told.
#[allow(clippy::too_many_arguments)]
async fn replace(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    current: Option<&PhaseRow>,
    power: &str,
    address: &str,
    permanent: bool,
    now: Ts,
) -> Result<Done> {
    let map = map_of(g)?;
    let Some(pw) = map.power_by_name(power) else {
        return Ok(Done::refused(format!(
            "there is no power {power} in this game"
        )));
    };
    let name = map.power_name(pw).to_string();
    let Some(p) = current else {
        return Ok(Done::refused("the game has no open phase"));
    };
    let players = store::players(c, &g.id).await?;
    let Some(old) = players.iter().find(|x| x.power == name).cloned() else {
        return Ok(Done::refused(format!("{name} has no player to replace")));
    };
    if let Some(other) = players
        .iter()
        .find(|x| x.address.eq_ignore_ascii_case(address))
    {
        return Ok(Done::refused(format!(
            "{address} already plays {} in this game",
            other.power
        )));
    }
    let secret = secret::generate().map_err(EngineError::Refused)?;
    store::replace_player(c, &g.id, &name, &p.phase, address, &secret, permanent, now).await?;
    store::forget_player_choices(c, &g.id, &name).await?;
    let board = board_from_json(map, &p.board, &p.phase)?;
    let standing: Vec<String> = store::standing_orders(c, &g.id, &p.phase)
        .await?
        .into_iter()
        .filter(|s| s.power == name)
        .flat_map(|s| s.orders.into_iter().map(|o| o.order))
        .collect();
    let kind = if permanent { "permanent" } else { "temporary" };
    let mut takeover = crate::outgoing::render::TakeoverView {
        kind: kind.to_string(),
        units: board
            .units
            .iter()
            .filter(|u| u.power == pw)
            .map(|u| map.unit_name(u.unit_type, u.location))
            .collect(),
        centres: map
            .supply_centers()
            .filter(|sc| board.owner(*sc) == Some(pw))
            .map(|sc| map.info(sc).code.clone())
            .collect(),
        standing,
    };
    takeover.units.sort();
    takeover.centres.sort();
    let rules = rules_of(g)?;
    let reader = compose::StartReader {
        address,
        tz: "UTC",
        power: &name,
        role: "player",
        secret: &secret,
        takeover: Some(takeover),
        joined: false,
    };
    let welcome = compose::start(env, g, &rules, &p.phase, p.deadline, &reader);
    let told = compose::announcement(
        env,
        g,
        &old.address,
        &old.tz,
        &format!("{}|replaced|{name}|{now}", g.id),
        &format!("you no longer play {name}"),
        &format!(
            "The GM has given {name} to another player from {} on. Thank you for playing. Mail \
             from your address is no longer taken for {name}.",
            p.phase
        ),
        "",
        None,
    );
    let mut mails = Vec::new();
    for m in [welcome, told] {
        match m {
            Ok(m) => mails.push(m),
            Err(e) => {
                let masters = masters_for(c, env, Some(g)).await?;
                mails.extend(compose_failed_mails(env, Some(g), &masters, &e, &name));
            }
        }
    }
    store::enqueue_many(c, &mails, now).await?;
    Ok(Done::ok(format!(
        "{address} plays {name} from {} on ({kind} replacement of {}); they were sent a welcome \
         with a new secret, and {} was told. The abbreviations, unavailable periods, conditional \
         orders and votes of {name} were cleared: the new player makes their own",
        p.phase, old.address, old.address
    )))
}

/// Who a STATUS is for: per-power facts (who has orders in, who used extension days) go to
/// the masters only (issue 21.3: the docs promise an extension "without saying who asked");
/// a player hears of their own power only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StatusFor<'a> {
    Masters,
    /// A player (their power) or an observer (none).
    Reader(Option<&'a str>),
}

/// The phase, the deadline and who has orders in (never what they are).
pub(super) async fn status_text(
    c: &mut SqliteConnection,
    g: &GameRow,
    current: Option<&PhaseRow>,
    paused: Option<Ts>,
    to: StatusFor<'_>,
) -> Result<String> {
    let Some(p) = current else {
        return Ok(format!("game {} is {}; no open phase", g.id, g.status));
    };
    let standing = store::standing_orders(c, &g.id, &p.phase).await?;
    let players = store::players(c, &g.id).await?;
    // An NMR is judged by the orders, not by the mail.
    let state = |power: &str| match standing
        .iter()
        .find(|s| s.power == power && !s.orders.is_empty())
    {
        Some(s) if s.final_ => "final",
        Some(_) => "in",
        None => "none",
    };
    let when = match paused {
        Some(left) => format!("paused, {} left", format_duration(left)),
        None if p.held_until.is_some() && to == StatusFor::Masters => format!(
            "deadline {}, results held for an NMR: only a replacement you name may send orders \
             (WM D.VII(6)(b))",
            format_gmt(p.deadline)
        ),
        None if p.held_until.is_some() => format!(
            "deadline {}, passed; the results are held (WM D.VII(6)(b))",
            format_gmt(p.deadline)
        ),
        None => format!("deadline {}", format_gmt(p.deadline)),
    };
    let own = match to {
        StatusFor::Masters => None,
        StatusFor::Reader(None) => return Ok(format!("{} {}, {when}", g.id, p.phase)),
        StatusFor::Reader(Some(power)) => Some(power),
    };
    if let Some(power) = own {
        return Ok(format!(
            "{} {}, {when}; your orders ({power}): {}",
            g.id,
            p.phase,
            state(power)
        ));
    }
    let parts: Vec<String> = players
        .iter()
        .map(|pl| format!("{} {}", pl.power, state(&pl.power)))
        .collect();
    // WM D.VII(5): the days of extension each position has used (the allowance is per game).
    let used: Vec<String> = players
        .iter()
        .filter(|pl| pl.extension_days_used > 0)
        .map(|pl| format!("{} {}d", pl.power, pl.extension_days_used))
        .collect();
    Ok(format!(
        "{} {}, {when}; orders: {}; extension days used: {}",
        g.id,
        p.phase,
        parts.join(", "),
        if used.is_empty() {
            "none".to_string()
        } else {
            used.join(", ")
        }
    ))
}

/// Tell every player and observer of a change, each in their own zone. `key` names the change:
/// each reader gets one mail for it.
#[allow(clippy::too_many_arguments)]
pub(super) async fn announce(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    key: &str,
    headline: &str,
    text: &str,
    deadline: Option<Ts>,
    now: Ts,
) -> Result<()> {
    announce_with(c, env, g, key, headline, text, "", deadline, now).await
}

/// [`announce`], with a master's own words quoted after the text.
#[allow(clippy::too_many_arguments)]
pub(super) async fn announce_with(
    c: &mut SqliteConnection,
    env: &Env,
    g: &GameRow,
    key: &str,
    headline: &str,
    text: &str,
    message: &str,
    deadline: Option<Ts>,
    now: Ts,
) -> Result<()> {
    let players = store::players(c, &g.id).await?;
    let observers: Vec<MemberRow> = store::members(c, &g.id)
        .await?
        .into_iter()
        .filter(|m| m.role == Role::Observer)
        .collect();
    let readers = players
        .iter()
        .map(|p| (p.address.as_str(), p.tz.as_str()))
        .chain(
            observers
                .iter()
                .map(|m| (m.address.as_str(), m.tz.as_str())),
        );
    // What the announcement says is part of its cause: two announcements in one second (a
    // command mail with DEADLINE then EXTEND, or PAUSE, RESUME, EXTEND 1d, EXTEND 2d) are
    // different mails, and each must reach every player (WM D.VII(4)(b), issue 21.5).
    let key = format!(
        "{key}|{}",
        crate::outgoing::ids::short_hash(&format!("{headline}|{text}|{message}|{deadline:?}"))
    );
    let key = key.as_str();
    let mut mails = Vec::new();
    for (to, tz) in readers {
        match compose::announcement(env, g, to, tz, key, headline, text, message, deadline) {
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
