//! `chancery score`: the scoring contract of docs/score.md (one finished game as JSON in, each
//! power's and player's score out; or a whole round in, its standings out).

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The finished game (or a round: its games under `games`) as JSON; `-` or nothing for
    /// stdin.
    pub file: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let text = super::read_input(a.file.as_deref())?;
    // A whole round has its games in a list; one game has its centres at the top.
    let round = serde_json::from_str::<serde_json::Value>(&text)
        .map(|v| v.get("games").is_some())
        .unwrap_or(false);
    let out = if round {
        chancery::standings::contract::standings_json(&text)
    } else {
        chancery::scoring::contract::score_json(&text)
    }
    .map_err(anyhow::Error::msg)?;
    outln!("{out}")?;
    Ok(())
}
