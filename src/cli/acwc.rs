//! `chancery acwc`: the Antichess World Championship's Swiss pairings, checkable by anyone
//! (ACWC "Pairing details": "so everyone can independently verify the pairings"). `check`
//! recomputes every round's pairing of a Swiss given as JSON from its results and reports each
//! difference; `pair` gives the next round's pairing with its transcript. The JSON is the
//! checker's (docs/acwc.md, `chancery_acwc::checker`).

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
}

pub fn run(cmd: Command) -> anyhow::Result<()> {
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
