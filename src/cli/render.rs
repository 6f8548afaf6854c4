//! `chancery render`: a phase given as the `adjudicate` JSON (docs/adjudicate.md), adjudicated
//! and drawn as the results mails and the game's page draw it (docs/maps.md), as SVG or PNG.

use chancery_cartography::Scene;
use chancery_diplomacy::json::PhaseInput;
use std::io::Write;
use std::path::PathBuf;

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Svg,
    Png,
}

#[derive(clap::Args)]
pub struct Args {
    /// The phase as JSON (the `adjudicate` input: a position, and orders if any); `-` or nothing
    /// for stdin.
    pub file: Option<PathBuf>,
    /// Where to write the drawing; nothing for stdout.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// SVG or PNG; by default the extension of --out says, else SVG.
    #[arg(long)]
    pub format: Option<Format>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let text = super::read_input(a.file.as_deref())?;
    let input: PhaseInput = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("input is not a valid phase: {e}"))?;
    if chancery_cartography::Geometry::for_variant(&input.variant).is_none() {
        anyhow::bail!("the variant '{}' has no drawing", input.variant);
    }
    let scene = Scene::played(&input)?;
    let format = a.format.unwrap_or(match &a.out {
        Some(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) => Format::Png,
        _ => Format::Svg,
    });
    let bytes = match format {
        Format::Svg => chancery_cartography::svg(&scene).into_bytes(),
        Format::Png => chancery_cartography::png_of(&scene)?,
    };
    match &a.out {
        Some(p) => std::fs::write(p, &bytes)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?,
        None => std::io::stdout().lock().write_all(&bytes)?,
    }
    Ok(())
}
