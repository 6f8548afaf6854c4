//! `chancery tournament ...`: a tournament director's commands (docs/tournaments.md). The same
//! commands go by mail, subject `<tournament> TD`.

use super::{load_config, runtime};
use chancery::games::diplomacy::tournament::{self, NewTournament};
use chancery::store;
use chancery::store::diplomacy::EntrantRow;
use chancery::td_commands::TdCommand;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The server's configuration file.
    #[arg(long, global = true, default_value = "config/chancery.toml")]
    pub config: PathBuf,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Subcommand)]
pub enum Command {
    /// Create a tournament (then add its directors and entrants, then make round one).
    Create {
        /// The tournament's name, as directors write it in the subject (`<id> TD`); its games
        /// are named `<id>r<round>b<board>`.
        #[arg(long)]
        id: String,
        /// `wm2004` or `maharajiad`: how it is seated, scored and ranked.
        #[arg(long, value_parser = ["wm2004", "maharajiad"])]
        rulebook: String,
        /// The house rules of its games (default: the rulebook's preset).
        #[arg(long)]
        preset: Option<String>,
        /// The map (default: the rulebook's).
        #[arg(long)]
        variant: Option<String>,
        /// The address players send orders to.
        #[arg(long)]
        gm: String,
        /// The confirmation mailbox players may CC.
        #[arg(long)]
        confirm: String,
        /// The published seed of the seating and the dice (default: the id). Publish it before
        /// round one: anyone can then redo every draw.
        #[arg(long)]
        seed: Option<String>,
        /// A house-rule option set in every game, as OPTION=VALUE (repeatable).
        #[arg(long = "set", value_name = "OPTION=VALUE")]
        set: Vec<String>,
    },
    /// Add a tournament director: standings after every game, command mails, TD of its games.
    AddDirector {
        #[arg(long)]
        id: String,
        #[arg(long)]
        address: String,
        #[arg(long, default_value = "UTC")]
        tz: String,
    },
    /// Sign a player up (WM B.2: a team of seven, a captain; B.5: the power the team gives in
    /// round one; reserves).
    AddEntrant {
        #[arg(long)]
        id: String,
        #[arg(long)]
        address: String,
        #[arg(long, default_value = "")]
        name: String,
        #[arg(long, default_value = "UTC")]
        tz: String,
        #[arg(long)]
        team: Option<String>,
        #[arg(long)]
        captain: bool,
        #[arg(long)]
        power: Option<String>,
        #[arg(long)]
        reserve: bool,
    },
    /// Seat the next round (WM B.6, from the seed) and start its games; everyone is mailed.
    Round {
        #[arg(long)]
        id: String,
    },
    /// Print the standings of the latest round (or --round N); --csv writes them as CSV too,
    /// --mail sends the latest to the directors, --release to every player (now and after each
    /// game).
    Standings {
        #[arg(long)]
        id: String,
        /// An earlier round's standings (default: the latest round).
        #[arg(long)]
        round: Option<i64>,
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        #[arg(long)]
        mail: bool,
        #[arg(long)]
        release: bool,
    },
    /// An entrant declines the next round (WM C.10, Maharajiad A.21).
    Decline {
        #[arg(long)]
        id: String,
        #[arg(long)]
        address: String,
    },
    /// The rounds, their boards and which games are still playing.
    Status {
        #[arg(long)]
        id: String,
    },
}

fn done(r: chancery::engine::Result<String>) -> anyhow::Result<()> {
    match r {
        Ok(said) => {
            outln!("{said}")?;
            Ok(())
        }
        Err(e) => anyhow::bail!("refused: {e}"),
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (cfg, base) = load_config(&super::ConfigArg {
        config: args.config.clone(),
    })?;
    runtime()?.block_on(async {
        let pool = store::open_database(&store::Database::at(&base, &cfg.database)).await?;
        let now = chrono::Utc::now().timestamp();
        let env = chancery::engine::env(&pool, &cfg, now).await?;
        match args.command {
            Command::Create {
                id,
                rulebook,
                preset,
                variant,
                gm,
                confirm,
                seed,
                set,
            } => {
                let mut options = Vec::new();
                for s in &set {
                    let (k, v) = s
                        .split_once('=')
                        .ok_or_else(|| anyhow::anyhow!("--set takes OPTION=VALUE, not '{s}'"))?;
                    options.push((k.trim().to_string(), v.trim().to_string()));
                }
                let t = tournament::create(
                    &pool,
                    &NewTournament {
                        id: &id,
                        rulebook: &rulebook,
                        preset: preset.as_deref(),
                        variant: variant.as_deref(),
                        gm_address: &gm,
                        confirm_address: &confirm,
                        seed: seed.as_deref(),
                        options: &options,
                    },
                    now,
                )
                .await?;
                outln!(
                    "tournament {} created ({}, preset {}, map {}); published seed: {}",
                    t.id,
                    t.rulebook,
                    t.preset,
                    t.variant,
                    t.seed
                )?;
                Ok(())
            }
            Command::AddDirector { id, address, tz } => {
                let d = tournament::add_director(&pool, &id, &address, &tz).await?;
                outln!(
                    "{} directs {id} (secret for command mails: {})",
                    d.address,
                    d.secret
                )?;
                Ok(())
            }
            Command::AddEntrant {
                id,
                address,
                name,
                tz,
                team,
                captain,
                power,
                reserve,
            } => {
                let mut c = pool.acquire().await?;
                let t = tournament::get(&mut c, &id).await?;
                let e = EntrantRow {
                    address: address.to_ascii_lowercase(),
                    name,
                    tz,
                    team,
                    captain,
                    power,
                    reserve,
                    declined: false,
                };
                tournament::add_entrant(&mut c, &t, &e).await?;
                outln!("{} signed up for {id}", e.address)?;
                Ok(())
            }
            Command::Round { id } => {
                done(tournament::console(&pool, &env, &id, &TdCommand::Round, now).await)
            }
            Command::Decline { id, address } => {
                done(tournament::console(&pool, &env, &id, &TdCommand::Decline(address), now).await)
            }
            Command::Status { id } => {
                done(tournament::console(&pool, &env, &id, &TdCommand::Status, now).await)
            }
            Command::Standings {
                id,
                round,
                csv,
                mail,
                release,
            } => {
                let mut c = pool.acquire().await?;
                let t = tournament::get(&mut c, &id).await?;
                let table = tournament::table_of(&mut c, &t, round).await?;
                drop(c);
                out!(
                    "{}",
                    chancery::outgoing::diplomacy::standings::standings_table(
                        &t.id,
                        &table.standings,
                        table.finished,
                        table.games,
                        &table.names,
                    )
                )?;
                if let Some(path) = csv {
                    std::fs::write(&path, chancery::standings::csv(&table.standings))?;
                    eprintln!("CSV written to {}", path.display());
                }
                if release {
                    done(tournament::console(&pool, &env, &id, &TdCommand::Release, now).await)?;
                } else if mail {
                    done(tournament::console(&pool, &env, &id, &TdCommand::Standings, now).await)?;
                }
                Ok(())
            }
        }
    })
}
