//! The `chancery` command line: one file per command, clap for the parsing. Commands only parse
//! their arguments and call the library; domain checks live below (`engine::admin`, a kind's
//! `games::<kind>::admin`, the crates).

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// `println!` for a command's output, returning the error instead of panicking: when the
/// reader has gone (`chancery game status ... | head`), the write fails with a broken pipe,
/// and `main` ends quietly (see [`closed_pipe`]). Defined before the command modules so
/// that they see it.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `print!` for a command's output, as [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// A command's JSON input: the file named, or stdin for `-` or nothing.
pub(crate) fn read_input(file: Option<&std::path::Path>) -> anyhow::Result<String> {
    match file {
        Some(p) if p.as_os_str() != "-" => std::fs::read_to_string(p)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display())),
        _ => {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
                .map_err(|e| anyhow::anyhow!("cannot read stdin: {e}"))?;
            Ok(s)
        }
    }
}

/// Whether a command failed because its output's reader went away (a closed pipe): not an
/// error worth a message, as `head` closing after ten lines is not.
pub fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

mod acwc;
mod adjudicate;
mod game;
mod migrate;
mod parse;
mod players;
mod render;
mod score;
mod serve;
mod status;
mod tournament;

#[derive(Parser)]
#[command(
    name = "chancery",
    version,
    about = "A play-by-email Diplomacy game master",
    long_about = "A play-by-email Diplomacy game master: reads the GM and confirmation \
                  mailboxes, acknowledges orders, adjudicates at deadlines and mails results."
)]
pub struct Cli {
    /// Log format on stderr (filter with RUST_LOG, e.g. RUST_LOG=chancery=debug).
    #[arg(long, value_enum, global = true, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// `chancery serve`'s options.
#[derive(clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub config: ConfigArg,
    /// Run game time this many times faster than real time, starting now (1: real time). For
    /// trying a game out: deadlines, reminders and adjudications come that much sooner.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub clock_speed: u32,
}

/// The configuration file option shared by the server's commands.
#[derive(clap::Args)]
pub struct ConfigArg {
    /// The server's configuration file.
    #[arg(long, default_value = "config/chancery.toml")]
    pub config: PathBuf,
}

#[derive(Subcommand)]
pub enum Command {
    /// The Antichess World Championship's office: check a whole tournament's Swiss pairings
    /// from its results, or pair its next round with the transcript; a championship's
    /// standings and its TD's commands (docs/acwc.md).
    #[command(subcommand)]
    Acwc(acwc::Command),
    /// Adjudicate one phase given as JSON (FILE or stdin); print the outcome as JSON
    /// (docs/adjudicate.md).
    Adjudicate(adjudicate::Args),
    /// Draw one phase given as the `adjudicate` JSON (FILE or stdin), with its orders and what
    /// became of them, as SVG or PNG (docs/maps.md).
    Render(render::Args),
    /// Score one finished game given as JSON (FILE or stdin) as its tournament rulebook says;
    /// print each power's and player's score and rank as JSON; or a whole round: its standings
    /// (docs/score.md).
    Score(score::Args),
    /// Read an order mail (.eml, or plain text with --text) and print what was understood as
    /// JSON (docs/parse.md).
    Parse(parse::Args),
    /// Run the game master: read the mailboxes, acknowledge, adjudicate at deadlines, mail
    /// results. Stops cleanly on Ctrl-C or SIGTERM.
    Serve(ServeArgs),
    /// Each mailbox's last successful poll, last UID and last error; messages set aside;
    /// outgoing mail by state. Exits 1 when a mailbox is silent.
    Status(ConfigArg),
    /// Create, fill, start and inspect games.
    #[command(subcommand)]
    Game(game::Command),
    /// Run a tournament (WM 2004, the Maharajiad): create it, sign players up, make rounds,
    /// print and mail the standings (docs/tournaments.md).
    Tournament(tournament::Args),
    /// The players across games: `players report` prints each one's reliability record.
    #[command(subcommand)]
    Players(players::Command),
    /// List the house-rule presets, or with --show every option of one with its value and
    /// clause (any option can be changed per game: `game create --set OPTION=VALUE`).
    Presets {
        /// The preset to show in full.
        #[arg(long)]
        show: Option<String>,
    },
    /// Play 1901 by e-mail with seven scripted players on a private mail stack (run from the
    /// repository, as root).
    Demo {
        /// `standard` (1901 on the standard map) or `maharajah` (1501 on the Maharajah map,
        /// Maharajiad rules).
        #[arg(long, default_value = "standard")]
        variant: String,
    },
    /// Measure receipt latency, ingestion throughput and a deadline storm over a private mail
    /// stack (run from the repository, as root).
    Bench(BenchArgs),
    /// Move a server's data from its SQLite file into an empty PostgreSQL database (stop
    /// `chancery serve` first; docs/deploying.md).
    Migrate(migrate::Args),
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Confirmation receipts to time.
    #[arg(long, default_value_t = 200)]
    pub receipts: usize,
    /// Order mails waiting in the GM mailbox to ingest.
    #[arg(long, default_value_t = 500)]
    pub ingest: usize,
    /// Games whose deadline falls at the same instant.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Only adjudicate and enqueue the storm's results; do not send them (no mail stack is
    /// needed when no receipts or ingestion are asked for either).
    #[arg(long)]
    pub no_send: bool,
    /// Every reader of the storm's games has said MAP OFF: their results are text alone and
    /// no map is drawn (the storm without maps, to compare with the storm with them).
    #[arg(long)]
    pub no_maps: bool,
    /// Time the storm's results up to their acceptance by the MTA, then drop them from its
    /// queue: no mailbox delivery and no MTA baseline (the 10,000-game storm's delivery writes
    /// some 18 GB of mailboxes and takes longer than the storm).
    #[arg(long)]
    pub no_delivery: bool,
    /// SMTP connections the outbox sends on (and the mail server's own rate is measured on).
    #[arg(long, default_value_t = 4)]
    pub connections: usize,
    /// A PostgreSQL server (`postgres://user:password@host:port`, a role that may create
    /// databases, options after a `?` such as `?host=/run/postgresql` for a Unix socket): every
    /// bench runs on SQLite, then again on that server, side by side.
    #[arg(long)]
    pub database: Option<String>,
    /// `chancery serve` instances that ingest the filled mailbox together (on PostgreSQL; one
    /// SQLite file takes one writer at a time).
    #[arg(long, default_value_t = 1)]
    pub instances: usize,
}

pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

pub fn load_config(arg: &ConfigArg) -> anyhow::Result<(chancery::config::Config, PathBuf)> {
    chancery::config::Config::load(&arg.config).map_err(anyhow::Error::msg)
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Acwc(c) => acwc::run(c),
        Command::Adjudicate(a) => adjudicate::run(a),
        Command::Render(a) => render::run(a),
        Command::Parse(a) => parse::run(a),
        Command::Score(a) => score::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Status(a) => status::run(a),
        Command::Game(c) => game::run(c),
        Command::Migrate(a) => migrate::run(a),
        Command::Players(c) => players::run(c),
        Command::Tournament(a) => tournament::run(a),
        Command::Presets { show } => {
            use chancery::rules::Rules;
            match show {
                None => {
                    for name in Rules::preset_names() {
                        let r = Rules::preset(name)?;
                        outln!("{name:12} {}", r.description)?;
                    }
                    for name in chancery::acwc::house::PRESETS {
                        outln!(
                            "{name:12} The Antichess World Championship 2019's office: a \
                             championship (docs/acwc.md)"
                        )?;
                    }
                    for name in chancery::nomic::settings::PRESETS {
                        outln!(
                            "{name:12} Suber's Nomic, the 2019 initial rule set: a Nomic game \
                             (docs/nomic.md)"
                        )?;
                    }
                }
                Some(name) if chancery::nomic::settings::PRESETS.contains(&name.as_str()) => {
                    let s = chancery::nomic::settings::Settings::preset(&name)?;
                    outln!("{name}: Suber's Nomic, the 2019 initial rule set")?;
                    for p in chancery::nomic::grammar::Parameter::all() {
                        let clause = format!("Nomic {}", p.rule());
                        outln!("  {:30} {:24} {clause}", p.word(), s.shown(*p))?;
                    }
                }
                Some(name) => {
                    let r = Rules::preset(&name)?;
                    outln!("{}: {}", r.name, r.description)?;
                    for (option, value) in r.options() {
                        let clause = Rules::clause(option).unwrap_or("");
                        outln!("  {option:30} {value:24} {clause}")?;
                    }
                }
            }
            Ok(())
        }
        Command::Demo { variant } => {
            let root = std::env::current_dir()?;
            runtime()?
                .block_on(chancery::dev::demo::run(&root, &variant))
                .map_err(anyhow::Error::msg)
        }
        Command::Bench(b) => {
            let root = std::env::current_dir()?;
            runtime()?
                .block_on(chancery::dev::bench::run(
                    &root,
                    &chancery::dev::bench::Options {
                        receipts: b.receipts,
                        ingest: b.ingest,
                        games: b.games,
                        send: !b.no_send,
                        maps: !b.no_maps,
                        deliver: !b.no_delivery,
                        connections: b.connections,
                        postgres: b.database.clone(),
                        instances: b.instances,
                    },
                ))
                .map_err(anyhow::Error::msg)
        }
    }
}
