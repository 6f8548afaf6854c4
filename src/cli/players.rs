//! `chancery players report`: each player's reliability record over every game of this server
//! (NMRs, late orders, extensions used, replacements), for the TD who picks players and
//! replacements (WM D.VII(6), B.8).

use super::{ConfigArg, load_config, runtime};
use chancery::store;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Print every player's record: positions held, NMRs, late orders, extensions (and days),
    /// times replaced and times replacing another.
    Report(ConfigArg),
}

pub fn run(cmd: Command) -> anyhow::Result<()> {
    let Command::Report(a) = cmd;
    let (cfg, base) = load_config(&a)?;
    runtime()?.block_on(async {
        let pool = store::open_database(&store::Database::at(&base, &cfg.database)).await?;
        let mut c = pool.acquire().await?;
        outln!(
            "{:36} {:>9} {:>5} {:>5} {:>10} {:>14} {:>8} {:>9}",
            "player",
            "positions",
            "NMRs",
            "late",
            "extensions",
            "extension days",
            "replaced",
            "replacing"
        )?;
        for r in store::diplomacy::reliability(&mut c).await? {
            outln!(
                "{:36} {:>9} {:>5} {:>5} {:>10} {:>14} {:>8} {:>9}",
                r.address,
                r.positions,
                r.nmrs,
                r.late,
                r.extensions,
                r.extension_days,
                r.replaced,
                r.replacing
            )?;
        }
        Ok(())
    })
}
