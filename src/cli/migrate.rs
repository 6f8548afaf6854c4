//! `chancery migrate --from sqlite:FILE --to postgres://...`: a server's data moved into
//! PostgreSQL (issue 28). The copy is `store::copy_store`; this only opens the two stores.

use super::runtime;
use chancery::store::{self, Database};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The SQLite file the server used: `sqlite:FILE`, or the path alone.
    #[arg(long)]
    pub from: String,
    /// The PostgreSQL database to fill (it must exist and be empty): `postgres://user:password@host:port/name`.
    #[arg(long)]
    pub to: String,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let file = PathBuf::from(a.from.strip_prefix("sqlite:").unwrap_or(&a.from));
    if !file.is_file() {
        anyhow::bail!("no SQLite file at {}", file.display());
    }
    let to = match Database::at(std::path::Path::new("."), std::path::Path::new(&a.to)) {
        Database::Postgres(url) => Database::Postgres(url),
        Database::File(_) => anyhow::bail!("--to is a PostgreSQL URL (postgres://...)"),
    };
    runtime()?.block_on(async {
        let from = store::open(&file).await?;
        let pool = store::open_database(&to).await?;
        let copied = store::copy_store(&from, &pool).await?;
        let rows: u64 = copied.tables.iter().map(|(_, n)| n).sum();
        for (table, n) in &copied.tables {
            if *n > 0 {
                outln!("{table:<28} {n:>10}")?;
            }
        }
        outln!(
            "copied {rows} rows in {} tables from {} to {to}",
            copied.tables.len(),
            file.display()
        )?;
        Ok(())
    })
}
