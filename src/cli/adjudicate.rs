//! `chancery adjudicate`: the JSON contract of docs/adjudicate.md.

use std::io::Read;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The phase as JSON; `-` or nothing for stdin.
    pub file: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let text = match a.file.as_deref() {
        None => read_stdin()?,
        Some(p) if p.as_os_str() == "-" => read_stdin()?,
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))?,
    };
    println!("{}", chancery::json::adjudicate_json(&text)?);
    Ok(())
}

fn read_stdin() -> anyhow::Result<String> {
    let mut s = String::new();
    std::io::stdin()
        .read_to_string(&mut s)
        .map_err(|e| anyhow::anyhow!("cannot read stdin: {e}"))?;
    Ok(s)
}
