//! `chancery acwc`: the Antichess World Championship's Swiss pairings, checkable by anyone
//! (ACWC "Pairing details": "so everyone can independently verify the pairings"). `check`
//! recomputes every round's pairing of a Swiss given as JSON from its results and reports each
//! difference; `pair` gives the next round's pairing with its transcript. The JSON is the
//! checker's (docs/acwc.md, `chancery_acwc::checker`).
//!
//! The Tournament Director's commands of a championship run here too, as by mail (`<id> GM`):
//! `standings`, `approve`, `ruling`, `assign`, `finding`, `forfeit`, `withdraw`,
//! `disqualify`; each prints what a command mail's answer says, and a refusal fails (exit 1).

use super::{ConfigArg, load_config, runtime};
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(clap::Subcommand)]
pub enum Command {
    /// Check every round's pairing of a Swiss given as JSON (FILE or stdin) against the rules;
    /// print each difference and exit 1 if there is one.
    Check {
        /// The tournament as JSON; `-` or nothing for stdin.
        file: Option<PathBuf>,
    },
    /// Pair the round after the ones given as JSON (FILE or stdin) and print it with its
    /// transcript: the ranking with its three keys, the bye and each pairing step.
    Pair {
        /// The tournament as JSON; `-` or nothing for stdin.
        file: Option<PathBuf>,
        /// A player withdrawn or disqualified since the last round (repeatable).
        #[arg(long = "withdrawn", value_name = "ACCOUNT")]
        withdrawn: Vec<String>,
    },
    /// A championship's standings and crosstable, and where it stands (ACWC Pairing details).
    Standings {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
    },
    /// Approve an entry (ACWC Player eligibility): the entrant is seated and mailed a secret.
    Approve {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        account: String,
    },
    /// Decide the account's match of the current round, its score first, as 6.5-3.5 (ACWC
    /// Organization: the TD makes the final call).
    Ruling {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        account: String,
        score: String,
    },
    /// Assign the start time of the account's match, UTC, as `2019-10-12 17:00` (ACWC Match
    /// negotiations: "a match arbiter will assign a time").
    Assign {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        account: String,
        at: String,
    },
    /// Find who is at fault after no agreement by the weekend: an account or NONE (ACWC Match
    /// negotiations).
    Finding {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        account: String,
        at_fault: String,
    },
    /// Forfeit the account's match of the current round (ACWC Match rules); two forfeits
    /// disqualify.
    Forfeit {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        account: String,
        #[arg(value_enum)]
        why: ForfeitArg,
    },
    /// Withdraw the account from the championship (ACWC Disqualification and withdrawals).
    Withdraw {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        account: String,
    },
    /// Disqualify the account (ACWC Reporting cheats, Disqualification and withdrawals).
    Disqualify {
        #[command(flatten)]
        config: ConfigArg,
        #[arg(long)]
        id: String,
        account: String,
        #[arg(value_enum)]
        why: DisqualifyArg,
    },
}

/// Why a match is forfeited (ACWC Match rules).
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum ForfeitArg {
    /// Did not show up (the appearing player claimed the win).
    Noshow,
    /// Rescheduling failed after a no-show.
    Rescheduling,
    /// Left the match and did not come back within 10 minutes.
    Left,
    /// Repeatedly failed to offer or accept the rematch.
    Rematch,
}

/// Why a player is disqualified (ACWC Reporting cheats).
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum DisqualifyArg {
    /// Marked as engine on Lichess.
    Engine,
    /// Marked as booster.
    Booster,
    /// An accusation of cheating made in public.
    Accusation,
    /// Anything else the TD decides.
    Other,
}

/// A TD's command of a stored championship.
fn td(cmd: Command) -> anyhow::Result<()> {
    use chancery::commands::{DisqualifyReason, ForfeitReason, GmCommand};
    let (config, id, gm) = match cmd {
        Command::Standings { config, id } => (config, id, GmCommand::Status),
        Command::Approve {
            config,
            id,
            account,
        } => (config, id, GmCommand::Approve(account)),
        Command::Ruling {
            config,
            id,
            account,
            score,
        } => (config, id, GmCommand::Ruling { account, score }),
        Command::Assign {
            config,
            id,
            account,
            at,
        } => {
            let time = chancery::time::parse_gmt(&at).ok_or_else(|| {
                anyhow::anyhow!("the time is UTC, as 2019-10-12 17:00, not '{at}'")
            })?;
            (config, id, GmCommand::Assign { account, time })
        }
        Command::Finding {
            config,
            id,
            account,
            at_fault,
        } => {
            let at_fault = (!at_fault.eq_ignore_ascii_case("NONE")).then_some(at_fault);
            (config, id, GmCommand::Finding { account, at_fault })
        }
        Command::Forfeit {
            config,
            id,
            account,
            why,
        } => {
            let why = match why {
                ForfeitArg::Noshow => ForfeitReason::NoShow,
                ForfeitArg::Rescheduling => ForfeitReason::Rescheduling,
                ForfeitArg::Left => ForfeitReason::Left,
                ForfeitArg::Rematch => ForfeitReason::Rematch,
            };
            (config, id, GmCommand::Forfeit { account, why })
        }
        Command::Withdraw {
            config,
            id,
            account,
        } => (config, id, GmCommand::Withdraw(account)),
        Command::Disqualify {
            config,
            id,
            account,
            why,
        } => {
            let why = match why {
                DisqualifyArg::Engine => DisqualifyReason::Engine,
                DisqualifyArg::Booster => DisqualifyReason::Booster,
                DisqualifyArg::Accusation => DisqualifyReason::Accusation,
                DisqualifyArg::Other => DisqualifyReason::Other,
            };
            (config, id, GmCommand::Disqualify { account, why })
        }
        Command::Check { .. } | Command::Pair { .. } => {
            anyhow::bail!("not a command of a stored championship")
        }
    };
    let (cfg, base) = load_config(&config)?;
    runtime()?.block_on(async {
        let pool =
            chancery::store::open_database(&chancery::store::Database::at(&base, &cfg.database))
                .await?;
        let now = chrono::Utc::now().timestamp();
        super::game::console(&pool, &cfg, &id, &gm, now).await
    })
}

pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Check { .. } | Command::Pair { .. } => pure(cmd),
        _ => td(cmd),
    }
}

/// `check` and `pair`: no store, no clock.
fn pure(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Check { file } => {
            let report = chancery::acwc::checker::check_json(&read(file.as_deref())?)?;
            for (k, p) in report.expected.iter().enumerate() {
                let n = k + 1;
                let found = report
                    .discrepancies
                    .iter()
                    .filter(|d| d.round as usize == n);
                let count = found.count();
                let verdict = if count == 0 {
                    "as the rules give it".to_string()
                } else {
                    format!("{count} difference(s)")
                };
                outln!(
                    "round {}: {} pairs{}: {verdict}",
                    p.round,
                    p.pairs.len(),
                    bye_of(p)
                )?;
            }
            for d in &report.discrepancies {
                outln!("  {d}")?;
            }
            if report.agrees() {
                outln!("every pairing is as the rules give it")?;
                Ok(())
            } else {
                anyhow::bail!(
                    "{} pairing(s) differ from the rules",
                    report.discrepancies.len()
                )
            }
        }
        Command::Pair { file, withdrawn } => {
            let t: chancery::acwc::checker::Tournament =
                serde_json::from_str(&read(file.as_deref())?)?;
            let withdrawn: Vec<chancery::acwc::Player> =
                withdrawn.into_iter().map(chancery::acwc::Player).collect();
            let p = chancery::acwc::checker::next_round(&t, &withdrawn)?;
            for line in p.transcript.lines() {
                outln!("{line}")?;
            }
            Ok(())
        }
        _ => anyhow::bail!("a command of a stored championship"),
    }
}

fn bye_of(p: &chancery::acwc::swiss::Pairings) -> String {
    p.bye
        .as_ref()
        .map(|b| format!(", bye {b}"))
        .unwrap_or_default()
}

fn read(file: Option<&Path>) -> anyhow::Result<String> {
    match file {
        Some(p) if p.as_os_str() != "-" => std::fs::read_to_string(p)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display())),
        _ => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| anyhow::anyhow!("cannot read stdin: {e}"))?;
            Ok(s)
        }
    }
}
