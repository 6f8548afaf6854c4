//! `chancery game ...`: a Master's commands on one game.

use super::{ConfigArg, load_config, runtime};
use chancery::engine::admin::{self, NewGame, NewPlayer};
use chancery::outgoing::compose::gmt;
use chancery::store;

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
    /// Register a player for a power.
    AddPlayer {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        #[arg(long)]
        power: String,
        /// The player's registered address: orders come from it only.
        #[arg(long)]
        address: String,
        #[arg(long, default_value = "")]
        name: String,
        /// The player's time zone (IANA name), for the local times shown beside GMT.
        #[arg(long, default_value = "UTC")]
        tz: String,
        /// The player's secret (default: a fresh one from the OS random generator).
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
}

pub fn run(cmd: Command) -> anyhow::Result<()> {
    let config = match &cmd {
        Command::Create { config, .. }
        | Command::AddPlayer { config, .. }
        | Command::Start { config, .. }
        | Command::Status { config, .. } => config,
    };
    let (cfg, base) = load_config(config)?;
    runtime()?.block_on(async {
        let pool = store::open(&base.join(&cfg.database)).await?;
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
                let rules = admin::create_game(
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
                println!("game {id} created ({preset}); add the players, then start it");
                for (k, _) in &options {
                    if let Some((_, v)) = rules.options().into_iter().find(|o| o.0 == k) {
                        println!("  {k} = {v} (changed from the preset)");
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
                ..
            } => {
                let p = admin::add_player(
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
                println!(
                    "{} plays {} in {id} (secret: {})",
                    p.address, p.power, p.secret
                );
            }
            Command::Start { id, .. } => {
                let deadline = chancery::engine::start_game(&pool, id, now).await?;
                println!("game {id} started; first deadline {}", gmt(deadline));
            }
            Command::Status { id, .. } => status(&pool, id).await?,
        }
        Ok(())
    })
}

async fn status(pool: &sqlx::SqlitePool, id: &str) -> anyhow::Result<()> {
    let mut c = pool.acquire().await?;
    let g = store::game(&mut c, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no game '{id}'"))?;
    println!("game {} ({}), {}", g.id, g.variant, g.status);
    if let Some(p) = store::current_phase(&mut c, &g.id).await? {
        println!("phase {}, deadline {}", p.phase, gmt(p.deadline));
        let standing = store::standing_orders(&mut c, &g.id, &p.phase).await?;
        for pl in store::players(&mut c, &g.id).await? {
            let s = standing.iter().find(|s| s.power == pl.power);
            println!(
                "  {:8} {:28} {}",
                pl.power,
                pl.address,
                match s {
                    Some(s) if s.final_ => "orders in, Final",
                    Some(_) => "orders in",
                    None => "no orders",
                }
            );
        }
    }
    let (pending, sent, failed) = store::outbox_counts(&mut c).await?;
    println!("outbox: {pending} pending, {sent} sent, {failed} failed");
    Ok(())
}
