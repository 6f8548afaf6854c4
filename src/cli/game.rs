//! `chancery game ...`: a Master's commands on one game.

use super::{ConfigArg, load_config, runtime};
use chancery::commands::{self, GmCommand};
use chancery::engine;
use chancery::engine::admin;
use chancery::engine::house::OrdersIn;
use chancery::games;
use chancery::games::diplomacy::admin::{NewGame, NewPlayer, add_player, create_game};
use chancery::outgoing::time::gmt;
use chancery::store;

/// The part `add-master` gives (`--role`): a master's roles of `store::Role`, written as the
/// store writes them.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum MasterRole {
    Gm,
    Td,
}

#[derive(clap::Subcommand)]
pub enum Command {
    /// Create a game (then add the players, then start it).
    Create {
        #[command(flatten)]
        config: ConfigArg,
        /// The game's name, as players write it in the subject.
        #[arg(long)]
        id: String,
        /// The house rules (`chancery presets` lists them).
        #[arg(long, default_value = "dpv2023")]
        preset: String,
        /// The map.
        #[arg(long, default_value = "standard")]
        variant: String,
        /// The address players send orders to.
        #[arg(long)]
        gm: String,
        /// The confirmation mailbox players may CC.
        #[arg(long)]
        confirm: String,
        /// One house-rule option changed from the preset, as OPTION=VALUE (repeatable;
        /// `chancery presets --show PRESET` lists the options).
        #[arg(long = "set", value_name = "OPTION=VALUE")]
        set: Vec<String>,
    },
    /// Register a player for a power (a Diplomacy game), or seat a Nomic's player on their
    /// day (`--name` and `--day`, Nomic 201).
    AddPlayer {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        /// The power (a Diplomacy game).
        #[arg(long, default_value = "")]
        power: String,
        /// A Nomic player's allocated day, Monday to Friday (Nomic 201); the player is named by
        /// `--name`.
        #[arg(long)]
        day: Option<String>,
        /// The player's registered address: orders come from it only.
        #[arg(long)]
        address: String,
        #[arg(long, default_value = "")]
        name: String,
        /// The player's time zone (IANA name), for the local times shown beside GMT.
        #[arg(long, default_value = "UTC")]
        tz: String,
        /// The player's secret, at least 8 characters (default: a fresh one from the OS random
        /// generator).
        #[arg(long)]
        secret: Option<String>,
    },
    /// Start a game whose every power has a player: the first deadline is set.
    Start {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
    /// The phase, the deadline and whose orders are in.
    Status {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
    /// Add a master (the GM, or the TD above the GM): digests, alerts and reports go to them,
    /// and they may send command mails (subject `<game> GM`).
    AddMaster {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        /// gm or td.
        #[arg(long, value_enum)]
        role: MasterRole,
        #[arg(long)]
        address: String,
        /// The master's time zone (IANA name).
        #[arg(long, default_value = "UTC")]
        tz: String,
    },
    /// Add an observer: results and public press only.
    AddObserver {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(long)]
        address: String,
        #[arg(long, default_value = "UTC")]
        tz: String,
    },
    /// Set the deadline of the current phase (GMT, `2026-12-01 18:00`); every player is told.
    Deadline {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(long, value_name = "YYYY-MM-DD HH:MM")]
        at: String,
    },
    /// Move the deadline later (`2d`, `36h`, `1d 12h`); every player is told.
    Extend {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(long, value_name = "DURATION")]
        by: String,
    },
    /// Pause the game: the time left is kept, nothing is adjudicated or reminded.
    Pause {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
    /// Resume a paused game with the time that was left.
    Resume {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
    /// Adjudicate now (as soon as every mailbox has been read up to now).
    Process {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
    /// Give a power to a new player from this phase on (WM B.8): a welcome with the position,
    /// the standing orders, the deadline and a new secret; the player replaced is told.
    Replace {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(long)]
        power: String,
        /// The new player's address.
        #[arg(long)]
        address: String,
        /// A temporary replacement (the default is permanent).
        #[arg(long)]
        temporary: bool,
    },
    /// Roll the game back to a phase (WM D.VIII(1)): its orders are open again with a new
    /// deadline, and every player is told. Needs the TD's consent: `--td-consent` here, or a
    /// TD's `CONSENT ROLLBACK <phase>` mail first.
    Rollback {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(long)]
        phase: String,
        /// The TD consents (the audit log says so).
        #[arg(long)]
        td_consent: bool,
    },
    /// Adjudicate as if now and mail the result to the masters only; nothing changes.
    Preview {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
    /// Change one house-rule option (`chancery presets --show` lists them); every player is told.
    Set {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(value_name = "OPTION=VALUE")]
        option: String,
    },
    /// Correct the board after an error in a published adjudication (WM D.VIII(1)-(3)):
    /// `MOVE A PAR BUR`, `PLACE FRANCE A PAR`, `REMOVE A PAR`, `OWNER BEL FRANCE|NONE`,
    /// `EXTRA A PAR` (a Flying Dutchman, left to the next adjustments). Every player is told.
    Correct {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(value_name = "CORRECTION", required = true, num_args = 1..)]
        words: Vec<String>,
    },
    /// Agree, as the GM, to the players' house-rule proposal `VOTE RULE <option> <value>`
    /// (WM IX(5); Maharajiad X(3)): it passes if every player remaining votes yes by the deadline.
    Agree {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(value_name = "OPTION=VALUE")]
        option: String,
    },
    /// Declare the game a draw after years with no centre changing owner (Agora BT9, the
    /// `gm_draw_years` option): it ends at its first deadline two days or more from now.
    DeclareDraw {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
    /// Refuse a repetitive proposal (Maharajiad X(2)): its votes are not counted; every player is told.
    Refuse {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        /// The proposal as the players vote on it, as in `DRAW FRANCE ENGLAND`.
        #[arg(value_name = "PROPOSAL", required = true, num_args = 1..)]
        words: Vec<String>,
    },
    /// Send a message from the GM to every player and observer.
    Broadcast {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        /// The message.
        #[arg(long)]
        text: String,
    },
    /// Stop an observer's mails.
    RemoveObserver {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(long)]
        address: String,
    },
    /// Grant a position's waiting request for an extension beyond its guaranteed one (WM
    /// D.VII(5)); every player is told.
    GrantExtension {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(long)]
        power: String,
    },
    /// Refuse a position's waiting extension request (WM D.VII(5)); the player is told.
    RefuseExtension {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(long)]
        power: String,
    },
    /// Declare, as the TD, a holiday eligible for an extension charged to nobody (WM D.VII(5)):
    /// its first and last day (GMT) and its name.
    Holiday {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        /// The first day, as 2026-12-24.
        #[arg(long)]
        from: String,
        /// The last day, as 2026-12-26.
        #[arg(long)]
        to: String,
        #[arg(long)]
        name: String,
    },
    /// Take, as the GM, the holiday extension of a holiday that falls in this turn (WM D.VII(5)).
    HolidayExtension {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
    /// Veto entries of a player's own abbreviations list (all if none is named) before the
    /// first deadline (WM D.III(1)); every player is told.
    VetoAbbreviations {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(long)]
        power: String,
        /// The abbreviations to strike.
        #[arg(value_name = "ABBREVIATION")]
        entries: Vec<String>,
    },
    /// Print the link of the game's read-only web page (made the first time; docs/maps.md):
    /// give it to the players. `chancery serve` serves it when `[web]` is configured.
    Page {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
    /// Print the audit log: every master's command, by mail or here, and what it did.
    Log {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
}

pub fn run(cmd: Command) -> anyhow::Result<()> {
    let config = match &cmd {
        Command::Create { config, .. }
        | Command::AddPlayer { config, .. }
        | Command::Start { config, .. }
        | Command::Status { config, .. }
        | Command::AddMaster { config, .. }
        | Command::AddObserver { config, .. }
        | Command::Deadline { config, .. }
        | Command::Extend { config, .. }
        | Command::Pause { config, .. }
        | Command::Resume { config, .. }
        | Command::Process { config, .. }
        | Command::Preview { config, .. }
        | Command::Replace { config, .. }
        | Command::Rollback { config, .. }
        | Command::Set { config, .. }
        | Command::Correct { config, .. }
        | Command::Agree { config, .. }
        | Command::DeclareDraw { config, .. }
        | Command::Refuse { config, .. }
        | Command::Broadcast { config, .. }
        | Command::RemoveObserver { config, .. }
        | Command::GrantExtension { config, .. }
        | Command::RefuseExtension { config, .. }
        | Command::Holiday { config, .. }
        | Command::HolidayExtension { config, .. }
        | Command::VetoAbbreviations { config, .. }
        | Command::Page { config, .. }
        | Command::Log { config, .. } => config,
    };
    let (cfg, base) = load_config(config)?;
    runtime()?.block_on(async {
        let pool = store::open_database(&store::Database::at(&base, &cfg.database)).await?;
        let now = chrono::Utc::now().timestamp();
        match &cmd {
            Command::Create {
                id,
                preset,
                variant,
                gm,
                confirm,
                set,
                ..
            } => {
                let mut options = Vec::new();
                for s in set {
                    let (k, v) = s
                        .split_once('=')
                        .ok_or_else(|| anyhow::anyhow!("--set takes OPTION=VALUE, not '{s}'"))?;
                    options.push((k.trim().to_string(), v.trim().to_string()));
                }
                if chancery::acwc::house::PRESETS.contains(&preset.as_str()) {
                    create_championship(&pool, id, preset, gm, confirm, now).await?;
                    outln!(
                        "championship {id} created ({preset}); entries come by mail (ACCOUNT, \
                         RATING, PEAK); APPROVE them, then start it"
                    )?;
                    return Ok(());
                }
                if chancery::nomic::settings::PRESETS.contains(&preset.as_str()) {
                    create_nomic(&pool, id, preset, gm, confirm, &options, now).await?;
                    outln!("game {id} created ({preset}, a Nomic); seat the players, then start it")?;
                    return Ok(());
                }
                let rules = create_game(
                    &pool,
                    &NewGame {
                        id,
                        preset,
                        variant,
                        gm_address: gm,
                        confirm_address: confirm,
                        options: &options,
                    },
                    now,
                )
                .await?;
                outln!("game {id} created ({preset}); add the players, then start it")?;
                for (k, _) in &options {
                    if let Some((_, v)) = rules.options().into_iter().find(|o| o.0 == k) {
                        outln!("  {k} = {v} (changed from the preset)")?;
                    }
                }
            }
            Command::AddPlayer {
                id,
                power,
                address,
                name,
                tz,
                secret,
                day,
                ..
            } => {
                if let Some(day) = day {
                    let seat = nomic_seat(name, address, day, tz, secret.as_deref())?;
                    let p = add_nomic_player(&pool, id, &seat, now).await?;
                    outln!(
                        "{} plays in {id} as {} on {} (secret: {})",
                        p.address, p.power, seat.day, p.secret
                    )?;
                    return Ok(());
                }
                let p = add_player(
                    &pool,
                    &NewPlayer {
                        game: id,
                        power,
                        address,
                        name,
                        tz,
                        secret: secret.as_deref(),
                    },
                )
                .await?;
                outln!(
                    "{} plays {} in {id} (secret: {})",
                    p.address, p.power, p.secret
                )?;
            }
            Command::Start { id, .. } => {
                let env = engine::env(&pool, &cfg, now).await?;
                let deadline = games::start_game_and_tell(&pool, &env, id, now).await?;
                outln!("game {id} started; first deadline {}", gmt(deadline))?;
            }
            Command::Status { id, .. } => status(&pool, id).await?,
            Command::Page { id, .. } => {
                let token = games::page_token(&pool, id, now).await?;
                match &cfg.web {
                    Some(w) => outln!("{}", w.link(&token))?,
                    None => outln!(
                        "/g/{token}\n(no [web] in the configuration: `chancery serve` does not serve the pages until it has one)"
                    )?,
                }
            }
            Command::AddMaster {
                id,
                role,
                address,
                tz,
                ..
            } => {
                let role = match role {
                    MasterRole::Gm => store::Role::Gm,
                    MasterRole::Td => store::Role::Td,
                };
                let m = admin::add_member(&pool, id, role, address, tz, now).await?;
                outln!(
                    "{} is {} of {id} (secret for command mails: {})",
                    m.address,
                    m.role.as_str().to_uppercase(),
                    m.secret
                )?;
            }
            Command::AddObserver {
                id, address, tz, ..
            } => {
                let env = engine::env(&pool, &cfg, now).await?;
                let m = games::add_observer(&pool, &env, id, address, tz, now).await?;
                outln!(
                    "{} observes {id}; their first mail says how to stop being sent the game's mail",
                    m.address
                )?;
            }
            Command::Deadline { id, at, .. } => {
                let t = chancery::time::parse_gmt(at).ok_or_else(|| {
                    anyhow::anyhow!("--at takes a GMT time as 2026-12-01 18:00, not '{at}'")
                })?;
                console(&pool, &cfg, id, &GmCommand::Deadline(t), now).await?;
            }
            Command::Extend { id, by, .. } => {
                let d = commands::parse_duration(by)
                    .filter(|d| *d > 0)
                    .ok_or_else(|| anyhow::anyhow!("--by takes 2d, 36h or 1d 12h, not '{by}'"))?;
                console(&pool, &cfg, id, &GmCommand::Extend(d), now).await?;
            }
            Command::Pause { id, .. } => console(&pool, &cfg, id, &GmCommand::Pause, now).await?,
            Command::Resume { id, .. } => console(&pool, &cfg, id, &GmCommand::Resume, now).await?,
            Command::Process { id, .. } => {
                console(&pool, &cfg, id, &GmCommand::Process, now).await?
            }
            Command::Replace {
                id,
                power,
                address,
                temporary,
                ..
            } => {
                let cmd = GmCommand::Replace {
                    power: power.to_ascii_uppercase(),
                    address: address.to_ascii_lowercase(),
                    permanent: !temporary,
                };
                console(&pool, &cfg, id, &cmd, now).await?
            }
            Command::Rollback {
                id,
                phase,
                td_consent,
                ..
            } => {
                let cmd = GmCommand::Rollback(phase.to_ascii_uppercase());
                let done = games::console_command_as(
                    &pool,
                    &engine::env(&pool, &cfg, now).await?,
                    id,
                    &cmd,
                    *td_consent,
                    now,
                )
                .await?;
                if !done.ok {
                    anyhow::bail!("{}: refused: {}", cmd.canonical(), done.answer);
                }
                outln!("{}: {}", cmd.canonical(), done.answer)?;
            }
            Command::Preview { id, .. } => {
                console(&pool, &cfg, id, &GmCommand::Preview, now).await?
            }
            Command::Set { id, option, .. } => {
                let (k, v) = option
                    .split_once('=')
                    .ok_or_else(|| anyhow::anyhow!("takes OPTION=VALUE, not '{option}'"))?;
                let cmd = GmCommand::Set {
                    option: k.trim().to_string(),
                    value: v.trim().to_string(),
                };
                console(&pool, &cfg, id, &cmd, now).await?;
            }
            Command::Correct { id, words, .. } => {
                let cmd = GmCommand::Correct(words.join(" ").to_ascii_uppercase());
                console(&pool, &cfg, id, &cmd, now).await?;
            }
            Command::Agree { id, option, .. } => {
                let (k, v) = option
                    .split_once('=')
                    .ok_or_else(|| anyhow::anyhow!("takes OPTION=VALUE, not '{option}'"))?;
                let cmd = commands::read_command(&format!("AGREE RULE {} {}", k.trim(), v.trim()))
                    .map_err(|e| anyhow::anyhow!(e))?;
                console(&pool, &cfg, id, &cmd, now).await?;
            }
            Command::DeclareDraw { id, .. } => {
                console(&pool, &cfg, id, &GmCommand::DeclareDraw, now).await?
            }
            Command::Refuse { id, words, .. } => {
                let cmd = commands::read_command(&format!("REFUSE {}", words.join(" ")))
                    .map_err(|e| anyhow::anyhow!(e))?;
                console(&pool, &cfg, id, &cmd, now).await?;
            }
            Command::Broadcast { id, text, .. } => {
                let cmd = GmCommand::Broadcast(text.clone());
                console(&pool, &cfg, id, &cmd, now).await?;
            }
            Command::RemoveObserver { id, address, .. } => {
                let cmd = GmCommand::ObserverRemove(address.to_ascii_lowercase());
                console(&pool, &cfg, id, &cmd, now).await?;
            }
            Command::GrantExtension { id, power, .. } => {
                let cmd = GmCommand::GrantExtension(power.to_ascii_uppercase());
                console(&pool, &cfg, id, &cmd, now).await?;
            }
            Command::RefuseExtension { id, power, .. } => {
                let cmd = GmCommand::RefuseExtension(power.to_ascii_uppercase());
                console(&pool, &cfg, id, &cmd, now).await?;
            }
            Command::Holiday {
                id, from, to, name, ..
            } => {
                let cmd = commands::read_command(&format!("HOLIDAY {from} TO {to} {name}"))
                    .map_err(|e| anyhow::anyhow!(e))?;
                console(&pool, &cfg, id, &cmd, now).await?;
            }
            Command::HolidayExtension { id, .. } => {
                console(&pool, &cfg, id, &GmCommand::HolidayExtension, now).await?
            }
            Command::VetoAbbreviations {
                id, power, entries, ..
            } => {
                let cmd = GmCommand::VetoAbbreviations {
                    power: power.to_ascii_uppercase(),
                    entries: entries.clone(),
                };
                console(&pool, &cfg, id, &cmd, now).await?;
            }
            Command::Log { id, .. } => {
                let mut c = pool.acquire().await?;
                let g = store::game(&mut c, id)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("no game '{id}'"))?;
                for a in store::audit_log(&mut c, &g.id).await? {
                    outln!(
                        "{}  {} ({})  {}  ->  {}",
                        gmt(a.at),
                        a.actor,
                        a.via,
                        a.command,
                        a.effect
                    )?;
                }
            }
        }
        Ok(())
    })
}

/// A master's command at the console: printed as the reply to a command mail would say it; a
/// refusal is a failure (exit 1).
pub(super) async fn console(
    pool: &chancery::store::Pool,
    cfg: &chancery::config::Config,
    id: &str,
    cmd: &GmCommand,
    now: i64,
) -> anyhow::Result<()> {
    let done =
        games::console_command(pool, &engine::env(pool, cfg, now).await?, id, cmd, now).await?;
    if done.ok {
        outln!("{}: {}", cmd.canonical(), done.answer)?;
        Ok(())
    } else {
        anyhow::bail!("{}: refused: {}", cmd.canonical(), done.answer)
    }
}

async fn status(pool: &chancery::store::Pool, id: &str) -> anyhow::Result<()> {
    let mut c = pool.acquire().await?;
    let g = store::game(&mut c, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no game '{id}'"))?;
    outln!("game {} ({}), {}", g.id, g.variant, g.status)?;
    for m in store::members(&mut c, &g.id).await? {
        outln!("  {:8} {}", m.role.as_str().to_uppercase(), m.address)?;
    }
    let paused = store::paused_remaining(&mut c, &g.id).await?;
    if let Some(p) = store::current_phase(&mut c, &g.id).await? {
        match paused {
            Some(left) => outln!(
                "phase {}, paused with {} left",
                p.phase,
                commands::format_duration(left)
            )?,
            None => outln!("phase {}, deadline {}", p.phase, gmt(p.deadline))?,
        }
        // Who has orders in is the game's kind's to say, as for a STATUS by mail.
        let orders_in = games::house_of(&g)?.orders_in(&mut c, &g, &p).await?;
        for pl in store::players(&mut c, &g.id).await? {
            let state = orders_in.iter().find(|(seat, _)| *seat == pl.power);
            outln!(
                "  {:8} {:28} {:17} extension days used: {}",
                pl.power,
                pl.address,
                match state {
                    Some((_, OrdersIn::Final)) => "orders in, Final",
                    Some((_, OrdersIn::In)) => "orders in",
                    None => "no orders",
                },
                pl.extension_days_used
            )?;
        }
    }
    let (pending, sent, failed) = store::outbox_counts(&mut c).await?;
    outln!("outbox: {pending} pending, {sent} sent, {failed} failed")?;
    Ok(())
}

/// A Nomic's player to seat, from the command line (Nomic 201).
fn nomic_seat<'a>(
    name: &'a str,
    address: &'a str,
    day: &str,
    tz: &'a str,
    secret: Option<&'a str>,
) -> anyhow::Result<chancery::games::nomic::admin::NewSeat<'a>> {
    let day = chancery::time::Weekday::parse(day)
        .ok_or_else(|| anyhow::anyhow!("--day takes a weekday, Monday to Friday, not '{day}'"))?;
    if name.trim().is_empty() {
        anyhow::bail!("a Nomic's player is named by --name (Nomic 201 lists each by name)");
    }
    Ok(chancery::games::nomic::admin::NewSeat {
        name,
        address,
        day,
        tz,
        secret,
    })
}

/// Seat a Nomic's player in one transaction.
async fn add_nomic_player(
    pool: &chancery::store::Pool,
    id: &str,
    seat: &chancery::games::nomic::admin::NewSeat<'_>,
    now: i64,
) -> anyhow::Result<chancery::store::PlayerRow> {
    let mut tx = pool.begin().await?;
    let g = chancery::store::take_game_waiting(&mut tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no game '{id}'"))?;
    if g.kind != chancery::store::Kind::Nomic {
        anyhow::bail!("game {id} is no Nomic: --day seats a Nomic's player; give --power");
    }
    let p = chancery::games::nomic::admin::add_player(&mut tx, None, &g, seat, now).await?;
    tx.commit().await?;
    Ok(p)
}

/// Make a Nomic from its preset, with `options` (a parameter and its value, as `SET` takes
/// them) changed.
async fn create_nomic(
    pool: &chancery::store::Pool,
    id: &str,
    preset: &str,
    gm: &str,
    confirm: &str,
    options: &[(String, String)],
    now: i64,
) -> anyhow::Result<()> {
    use chancery::games::nomic::admin::{NewNomic, create_game};
    use chancery::nomic::grammar::{RuleChange, read_rule_change};
    let mut tx = pool.begin().await?;
    let n = NewNomic {
        id,
        preset,
        gm_address: gm,
        confirm_address: confirm,
    };
    let mut rules = create_game(&mut tx, &n, now).await?;
    for (k, v) in options {
        let RuleChange::Set { parameter, value } = read_rule_change(&format!("set {k} {v}")) else {
            anyhow::bail!(
                "{k}={v} is no parameter of a Nomic (`chancery presets --show {preset}`)"
            );
        };
        rules.settings.set(parameter, value)?;
    }
    chancery::store::set_rules(&mut tx, id, &serde_json::to_string(&rules)?).await?;
    tx.commit().await?;
    Ok(())
}

/// Make an ACWC championship from its preset, open for entries.
async fn create_championship(
    pool: &chancery::store::Pool,
    id: &str,
    preset: &str,
    gm: &str,
    confirm: &str,
    now: i64,
) -> anyhow::Result<()> {
    use chancery::games::acwc::admin::{NewChampionship, create};
    let mut tx = pool.begin().await?;
    let n = NewChampionship {
        id,
        preset,
        gm_address: gm,
        confirm_address: confirm,
    };
    create(&mut tx, &n, now).await?;
    tx.commit().await?;
    Ok(())
}
