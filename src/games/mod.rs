//! The kinds of game Chancery serves, and the entry points that choose between them.
//!
//! A kind is anything with seats, a clock and mail of its own (Diplomacy today; the Nomic and the
//! ACWC office next). This file names every kind and is the only place that matches on one:
//! each entry point (a mail to a game, a game's tick, a master's command) reads the game's
//! [`store::Kind`](crate::store) and hands over to the kind's folder.
//!
//! The layering (docs/architecture.md, enforced by `scripts/check-purity`):
//! - `src/service` and `src/cli` call these entry points;
//! - a kind's folder (`src/games/<kind>/`) uses what every kind shares (`src/engine`, `src/store`,
//!   `src/outgoing`) and its own pure crate, and never imports another kind;
//! - `src/engine` (what every kind shares: routing, dedup, answer limits, authentication,
//!   timeliness, extensions, members, the office commands, the tick's batching) never imports a
//!   kind: where it needs a kind's part it asks through a trait implemented here
//!   ([`Boxes`](crate::engine::receive::Boxes) for the mail, [`Execute`](crate::engine::office::Execute)
//!   for a command, [`Houses`](crate::engine::house::Houses) for a game's house) or in the
//!   kind's folder (`TickStep` for the tick, `House` for a game's house rules and own mails).

pub mod acwc;
pub mod diplomacy;
pub mod nomic;

use crate::commands::GmCommand;
use crate::config::Env;
use crate::engine::house::{House, Houses};
use crate::engine::office::{self, Actor, Done, Situation};
use crate::engine::receive::{self, BatchRun, Boxes, Ctx, Queued, Tag};
use crate::engine::route::{self, Routed};
use crate::engine::{
    self, EngineError, Incoming, Processed, Reading, Result, TickReport, gm_mail, receipt,
};
use crate::message::ReadMessage;
use crate::store::{self, GameRow, Kind, MemberRow, Role, Via};
use crate::store::{Conn, Pool};
use crate::time::Ts;

/// Process one received message: its effects, its answers (through the outbox, within the
/// limits) and its ledger row, in one transaction (`engine::receive`).
pub async fn process_message(
    pool: &Pool,
    env: &Env,
    inc: &Incoming<'_>,
    reading: &Reading,
    now: Ts,
) -> Result<Processed> {
    receive::handle_message(pool, env, inc, reading, now, &Kinds).await
}

/// Process messages in order in one transaction, each in a savepoint of its own, with one
/// commit for all of them (`engine::receive::handle_batch`).
pub async fn process_batch(
    pool: &Pool,
    env: &Env,
    batch: &[Queued<'_>],
    now: Ts,
) -> Result<BatchRun> {
    receive::handle_batch(pool, env, batch, now, &Kinds).await
}

/// One tick of every kind of game: each game whose kind says it needs the clock by `now` and
/// whose mail has been read through `read_through` (every mailbox had a successful poll that
/// started at or after it). The scheduler calls it; each kind's step runs in the engine's
/// batching loop (`engine::tick::run`).
pub async fn tick_with(pool: &Pool, env: &Env, now: Ts, read_through: Ts) -> Result<TickReport> {
    let mut report = TickReport::default();
    for kind in Kind::ALL {
        let done = match kind {
            Kind::Diplomacy => {
                engine::tick::run(pool, env, &diplomacy::Tick, now, read_through).await?
            }
            Kind::Nomic => engine::tick::run(pool, env, &nomic::Tick, now, read_through).await?,
            Kind::Acwc => engine::tick::run(pool, env, &acwc::Tick, now, read_through).await?,
        };
        report.add(done);
    }
    Ok(report)
}

/// One tick with every mailbox taken as read through `now` (tests and tools that drive the
/// clock themselves): how many games were adjudicated. A game that fails is an error here, so
/// that tests see it.
pub async fn tick(pool: &Pool, env: &Env, now: Ts) -> Result<usize> {
    tick_with(pool, env, now, now)
        .await?
        .adjudicated_or_failure()
}

/// The house of game `g`, as its kind reads it from the row: what the shared steps ask about
/// the game (its house rules, phases and seats, its own mails).
pub fn house_of(g: &GameRow) -> Result<Box<dyn House>> {
    Ok(match g.kind {
        Kind::Diplomacy => Box::new(diplomacy::DiplomacyHouse::of(g)?),
        Kind::Nomic => Box::new(nomic::NomicHouse::of(g)?),
        Kind::Acwc => Box::new(acwc::AcwcHouse::of(g)?),
    })
}

/// Start a game: its kind's opening (Diplomacy's: the opening board and its first deadline),
/// the game goes active, and every player, master and observer is mailed a start mail, in one
/// transaction. The first deadline.
pub async fn start_game_and_tell(pool: &Pool, env: &Env, game_id: &str, now: Ts) -> Result<Ts> {
    start(pool, Some(env), game_id, now).await
}

/// Start a game without mailing anyone: test fixtures and the bench, whose players need no
/// start mail.
pub async fn start_game(pool: &Pool, game_id: &str, now: Ts) -> Result<Ts> {
    start(pool, None, game_id, now).await
}

async fn start(pool: &Pool, tell: Option<&Env>, game_id: &str, now: Ts) -> Result<Ts> {
    let mut tx = crate::store::begin_write(pool).await?;
    let g = store::take_game_waiting(&mut tx, game_id)
        .await?
        .ok_or_else(|| EngineError::NoGame(game_id.to_string()))?;
    let deadline = match g.kind {
        Kind::Diplomacy => diplomacy::admin::start_in(&mut tx, tell, &g, now).await?,
        Kind::Nomic => nomic::admin::start_in(&mut tx, tell, &g, now).await?,
        Kind::Acwc => acwc::admin::start_in(&mut tx, tell, &g, now).await?,
    };
    tx.commit().await?;
    Ok(deadline)
}

/// Add an observer at the console (`engine::admin::add_observer`), welcomed in the words of the
/// game's kind if it is under way.
pub async fn add_observer(
    pool: &Pool,
    env: &Env,
    game: &str,
    address: &str,
    tz: &str,
    now: Ts,
) -> Result<MemberRow> {
    engine::admin::add_observer(pool, env, &Kinds, game, address, tz, now).await
}

/// Do one master's command on game `g`, inside the caller's transaction, and write its audit
/// row: the one way in for the command mail and the console alike. Refusals change nothing,
/// and are audited too.
pub async fn execute(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    cmd: &GmCommand,
    now: Ts,
) -> Result<Done> {
    let done = match office::refused_when_not_running(g, cmd) {
        Some(refused) => refused,
        None => {
            let s = office::situation(c, g).await?;
            dispatch(c, env, g, actor, &s, cmd, now).await?
        }
    };
    office::audit(c, g, actor, cmd, &done, now).await?;
    Ok(done)
}

/// A master's command at the console: done in one transaction, audited as `console`.
pub async fn console_command(
    pool: &Pool,
    env: &Env,
    game: &str,
    cmd: &GmCommand,
    now: Ts,
) -> Result<Done> {
    console_command_as(pool, env, game, cmd, false, now).await
}

/// [`console_command`], with the TD's consent given on the command line (`--td-consent`):
/// audited as such.
pub async fn console_command_as(
    pool: &Pool,
    env: &Env,
    game: &str,
    cmd: &GmCommand,
    td_consent: bool,
    now: Ts,
) -> Result<Done> {
    let mut tx = crate::store::begin_write(pool).await?;
    let g = store::take_game_waiting(&mut tx, game)
        .await?
        .ok_or_else(|| EngineError::NoGame(game.to_string()))?;
    let actor = Actor {
        who: if td_consent {
            "console (TD consent)"
        } else {
            "console"
        },
        via: Via::Console,
        role: td_consent.then_some(Role::Td),
    };
    let done = execute(&mut tx, env, &g, actor, cmd, now).await?;
    tx.commit().await?;
    Ok(done)
}

/// Which command it is: one of the office's (every kind has them), or the game's kind's own.
async fn dispatch(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    s: &Situation,
    cmd: &GmCommand,
    now: Ts,
) -> Result<Done> {
    use office::deadline::{Move, move_deadline};
    if g.kind == Kind::Acwc && !acwc::commands::takes(cmd) {
        return Ok(Done::refused(format!(
            "{} is not a command of a championship: its rounds keep their weeks (ACWC \
             Timeline)",
            cmd.canonical()
        )));
    }
    if g.kind == Kind::Nomic && !nomic::commands::takes(cmd) {
        return Ok(Done::refused(format!(
            "{} is not a command of a Nomic: its days are UK days (Nomic 106, 113) and nothing \
             is undone (Nomic 212)",
            cmd.canonical()
        )));
    }
    // The office commands that ask the game's house: read from the row when one is given.
    let house = || house_of(g);
    match cmd {
        GmCommand::Status if g.kind == Kind::Nomic => nomic::commands::status(c, g).await,
        GmCommand::Status if g.kind == Kind::Acwc => acwc::commands::status(c, g).await,
        GmCommand::Approve(account) => match g.kind {
            Kind::Acwc => acwc::commands::approve(c, env, g, account, now).await,
            _ => Ok(Done::refused("APPROVE is a championship's command (ACWC)")),
        },
        GmCommand::Ruling { account, score } => match g.kind {
            Kind::Acwc => acwc::commands::ruling(c, env, g, account, score, now).await,
            _ => Ok(Done::refused("RULING is a championship's command (ACWC)")),
        },
        GmCommand::Assign { account, time } => match g.kind {
            Kind::Acwc => acwc::commands::assign(c, env, g, account, *time, now).await,
            _ => Ok(Done::refused("ASSIGN is a championship's command (ACWC)")),
        },
        GmCommand::Finding { account, at_fault } => match g.kind {
            Kind::Acwc => {
                acwc::commands::finding(c, env, g, account, at_fault.as_deref(), now).await
            }
            _ => Ok(Done::refused("FINDING is a championship's command (ACWC)")),
        },
        GmCommand::Forfeit { account, why } => match g.kind {
            Kind::Acwc => acwc::commands::forfeit(c, env, g, account, *why, now).await,
            _ => Ok(Done::refused("FORFEIT is a championship's command (ACWC)")),
        },
        GmCommand::Withdraw(account) => match g.kind {
            Kind::Acwc => acwc::commands::depart(c, env, g, account, None, now).await,
            _ => Ok(Done::refused("WITHDRAW is a championship's command (ACWC)")),
        },
        GmCommand::Disqualify { account, why } => match g.kind {
            Kind::Acwc => acwc::commands::depart(c, env, g, account, Some(*why), now).await,
            _ => Ok(Done::refused(
                "DISQUALIFY is a championship's command (ACWC)",
            )),
        },
        GmCommand::Deadline(t) => move_deadline(c, env, g, &*house()?, s, Move::To(*t), now).await,
        GmCommand::Extend(by) => move_deadline(c, env, g, &*house()?, s, Move::By(*by), now).await,
        GmCommand::Pause => office::pause::pause(c, env, g, s, now).await,
        GmCommand::Resume => office::pause::resume(c, env, g, s, now).await,
        GmCommand::Status => office::status::status(c, g, &*house()?, s).await,
        GmCommand::Set { option, value } => {
            office::set::set(c, env, g, &*house()?, option, value, now).await
        }
        GmCommand::ObserverAdd(address) => {
            office::observers::add(c, env, g, &*house()?, address, now).await
        }
        GmCommand::ObserverRemove(address) => office::observers::remove(c, g, address).await,
        GmCommand::Broadcast(message) => {
            office::broadcast::broadcast(c, env, g, message, now).await
        }
        GmCommand::Replace {
            power,
            address,
            permanent,
        } => {
            let r = office::replace::Replacement {
                power,
                address,
                permanent: *permanent,
            };
            office::replace::replace(c, env, g, &*house()?, s, &r, now).await
        }
        GmCommand::ConsentRollback(phase) => {
            office::rollback::consent(c, g, actor, phase, now).await
        }
        GmCommand::Rollback(phase) => {
            office::rollback::rollback(c, env, g, &*house()?, actor, phase, now).await
        }
        GmCommand::DeclareHoliday { from, to, name } => {
            let holiday = store::Holiday {
                name: name.clone(),
                from_ts: *from,
                to_ts: *to,
                taken_at: None,
            };
            office::holiday::declare(c, env, g, actor, holiday, now).await
        }
        GmCommand::HolidayExtension => office::holiday::take(c, env, g, &*house()?, s, now).await,
        GmCommand::GrantExtension(power) => {
            office::extension::answer(c, env, g, &*house()?, s, power, true, now).await
        }
        GmCommand::RefuseExtension(power) => {
            office::extension::answer(c, env, g, &*house()?, s, power, false, now).await
        }
        GmCommand::Process
        | GmCommand::Preview
        | GmCommand::Correct(_)
        | GmCommand::Agree(_)
        | GmCommand::RefuseProposal(_)
        | GmCommand::DeclareDraw
        | GmCommand::Winners(_)
        | GmCommand::VetoAbbreviations { .. }
        | GmCommand::AmendRule { .. }
        | GmCommand::ConfirmProposal { .. }
        | GmCommand::EntryUntil(_)
        | GmCommand::DrawPowers
        | GmCommand::AddContestant(_)
        | GmCommand::RemoveContestant(_) => match g.kind {
            Kind::Diplomacy => diplomacy_command(c, env, g, actor, s, cmd, now).await,
            Kind::Nomic => nomic_command(c, env, g, actor, cmd, now).await,
            Kind::Acwc => Ok(Done::refused(format!(
                "{} is not a command of a championship",
                cmd.canonical()
            ))),
        },
        GmCommand::AddPlayer { .. } => match g.kind {
            Kind::Nomic => nomic_command(c, env, g, actor, cmd, now).await,
            Kind::Diplomacy | Kind::Acwc => Ok(Done::refused(
                "ADD PLAYER seats a Nomic's player on a weekday; a Diplomacy game's players are \
                 registered for their powers at the console",
            )),
        },
    }
}

/// A Nomic's own commands (`nomic::commands`); the office's it takes are the shared arms.
async fn nomic_command(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    cmd: &GmCommand,
    now: Ts,
) -> Result<Done> {
    use nomic::commands;
    match cmd {
        GmCommand::AddPlayer { address, day, name } => {
            commands::add_player(c, env, g, address, *day, name, now).await
        }
        GmCommand::ConfirmProposal { number, done } => {
            commands::confirm(c, env, g, actor.who, *number, done, now).await
        }
        // Not reached: `dispatch` refuses what a Nomic does not take.
        _ => Ok(Done::refused(format!(
            "{} is not a command of a Nomic",
            cmd.canonical()
        ))),
    }
}

/// Diplomacy's own commands (`diplomacy::commands`).
async fn diplomacy_command(
    c: &mut Conn,
    env: &Env,
    g: &GameRow,
    actor: Actor<'_>,
    s: &Situation,
    cmd: &GmCommand,
    now: Ts,
) -> Result<Done> {
    use diplomacy::commands::{
        agree, amend, confirm, contestants, correct, draw, preview, process, refuse, veto, winners,
    };
    let current = s.current.as_ref();
    match cmd {
        GmCommand::Process => process::process(c, g, s, now).await,
        GmCommand::Preview => preview::preview(c, env, g, now).await,
        GmCommand::Correct(text) => correct::correct(c, env, g, current, text, now).await,
        GmCommand::Agree(proposal) => agree::agree(c, g, current, proposal, now).await,
        GmCommand::RefuseProposal(proposal) => {
            refuse::refuse(c, env, g, actor, proposal, now).await
        }
        GmCommand::DeclareDraw => draw::declare_draw(c, env, g, now).await,
        GmCommand::Winners(seats) => winners::winners(c, env, g, seats, now).await,
        GmCommand::VetoAbbreviations { power, entries } => {
            veto::veto(c, env, g, current, power, entries, now).await
        }
        GmCommand::AmendRule { rule, text } => {
            amend::amend(c, env, g, actor, rule, text, now).await
        }
        GmCommand::ConfirmProposal { number, done } => {
            confirm::confirm(c, env, g, actor, *number, done, now).await
        }
        GmCommand::EntryUntil(until) => contestants::entry_until(c, g, *until).await,
        GmCommand::DrawPowers => contestants::draw(c, env, g, now).await,
        GmCommand::AddContestant(address) => contestants::add(c, env, g, address, now).await,
        GmCommand::RemoveContestant(who) => contestants::remove(c, env, g, who, now).await,
        // Not reached: `dispatch` hands over only Diplomacy's commands. Refused, never a panic.
        _ => Ok(Done::refused(format!(
            "{} is not a command of this kind of game",
            cmd.canonical()
        ))),
    }
}

/// The kinds of game, as the shared steps see them: what a mail to each box does once they
/// have let it through, what executes a game's command, and each game's house. (The tick's
/// steps are each kind's own: `diplomacy::Tick`.)
struct Kinds;

impl Boxes for Kinds {
    async fn gm_box(
        &self,
        c: &mut Conn,
        env: &Env,
        ctx: &Ctx<'_>,
        msg: &ReadMessage,
    ) -> Result<(Processed, Tag)> {
        // A tournament director's command mail names the tournament, not a game; tournaments
        // of boards are Diplomacy's.
        if let Some(t) = diplomacy::tournament::td_mail::addressed(c, &msg.subject).await? {
            return diplomacy::tournament::td_mail::command_mail(c, env, ctx, msg, &t).await;
        }
        match route::route(c, env, ctx, msg, self).await? {
            Routed::Answered(outcome, tag) => Ok((outcome, tag)),
            Routed::Commands(g) => gm_mail::command_mail(c, env, ctx, msg, &g, self).await,
            Routed::Player(g) => match g.kind {
                Kind::Diplomacy => match diplomacy::entry::after_start(c, env, ctx, msg, &g).await?
                {
                    Some(done) => Ok(done),
                    None => diplomacy::orders::order_mail(c, env, ctx, msg, &g).await,
                },
                Kind::Nomic => nomic::mail::player_mail(c, env, ctx, msg, &g).await,
                Kind::Acwc => acwc::mail::player_mail(c, env, ctx, msg, &g).await,
            },
            Routed::Forming(g) => match g.kind {
                Kind::Diplomacy => diplomacy::entry::forming_mail(c, env, ctx, msg, &g).await,
                Kind::Nomic => {
                    route::not_running(c, env, ctx, msg, &g).await?;
                    Ok((Processed::Rejected, Tag::of(&g)))
                }
                Kind::Acwc => acwc::entry::forming_mail(c, env, ctx, msg, &g).await,
            },
        }
    }

    async fn confirm_box(
        &self,
        c: &mut Conn,
        env: &Env,
        ctx: &Ctx<'_>,
        msg: &ReadMessage,
        size: u64,
    ) -> Result<Processed> {
        let Some(from) = receipt::sender(c, ctx, msg).await? else {
            return Ok(Processed::Dropped);
        };
        let game = match receive::take_game(c, msg, ctx.inc).await? {
            store::Taken::Game(g) => Some(g),
            store::Taken::Absent => None,
            // Another instance's mail or a tick has the game now (issue 28).
            store::Taken::Held(_) => return Ok(Processed::Claimed),
        };
        let copy = match &game {
            Some(g) => match g.kind {
                Kind::Diplomacy => diplomacy::receipt::read_copy(c, g, msg, &from).await?,
                Kind::Nomic | Kind::Acwc => None,
            },
            None => None,
        };
        let house = game.as_ref().map(house_of).transpose()?;
        let g = game.as_ref().zip(house.as_deref());
        receipt::receipt(c, env, ctx, msg, size, &from, g, copy).await
    }
}

impl Houses for Kinds {
    fn house(&self, g: &GameRow) -> Result<Box<dyn House>> {
        house_of(g)
    }
}

impl office::Execute for Kinds {
    async fn execute(
        &self,
        c: &mut Conn,
        env: &Env,
        g: &GameRow,
        actor: Actor<'_>,
        cmd: &GmCommand,
        now: Ts,
    ) -> Result<Done> {
        execute(c, env, g, actor, cmd, now).await
    }
}

/// What a game's web page is asked for (issue 27).
pub use diplomacy::page::PageAsk;

/// The game a page's token opens, if it has a page (a Diplomacy game; the other kinds have
/// none yet).
async fn paged_game(c: &mut Conn, token: &str) -> Result<Option<GameRow>> {
    let Some(id) = store::game_of_page(c, token).await? else {
        return Ok(None);
    };
    Ok(store::game(c, &id)
        .await?
        .filter(|g| g.kind == Kind::Diplomacy))
}

/// A game's read-only page by its token, as HTML; None for no such page.
pub async fn page(pool: &Pool, token: &str, ask: &PageAsk<'_>) -> Result<Option<String>> {
    let mut c = pool.acquire().await.map_err(store::StoreError::from)?;
    match paged_game(&mut c, token).await? {
        Some(g) => diplomacy::page::page(&mut c, &g, ask).await,
        None => Ok(None),
    }
}

/// A map on a game's page (`now`, or an adjudicated phase), as SVG; None for no such map.
pub async fn page_map(pool: &Pool, token: &str, which: &str) -> Result<Option<String>> {
    let mut c = pool.acquire().await.map_err(store::StoreError::from)?;
    match paged_game(&mut c, token).await? {
        Some(g) => diplomacy::page::map_svg(&mut c, &g, which).await,
        None => Ok(None),
    }
}

/// The link of a game's page, made when first asked for (`chancery game page`).
pub async fn page_token(pool: &Pool, game: &str, now: Ts) -> Result<String> {
    let mut c = pool.acquire().await.map_err(store::StoreError::from)?;
    let g = store::game(&mut c, game)
        .await?
        .ok_or_else(|| EngineError::NoGame(game.to_string()))?;
    if g.kind != Kind::Diplomacy {
        return Err(EngineError::Refused(format!(
            "{game} is not a Diplomacy game: only Diplomacy games have a page"
        )));
    }
    Ok(store::page_token(&mut c, game, now).await?)
}

/// A picture a mail shows, read from the store and ready to draw (a Diplomacy phase's map).
pub use diplomacy::maps::Drawing;

/// The drawing of a game's phase, for the picture the outbox is about to send; None when the
/// game or phase is gone or its kind draws none.
pub async fn drawing(c: &mut Conn, game: &str, phase: &str) -> Result<Option<Drawing>> {
    match store::game(c, game).await? {
        Some(g) if g.kind == Kind::Diplomacy => diplomacy::maps::drawing(c, &g, phase).await,
        _ => Ok(None),
    }
}
