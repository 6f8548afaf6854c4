//! `chancery parse`: what the reader understands of one mail (docs/parse.md).

use chancery::adjudicator::Board;
use chancery::map::Map;
use chancery::phase::{Phase, PhaseKind, Season};
use chancery::reader::{ReadContext, parse_abbreviations};
use chancery::rules::Rules;
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The mail (.eml), or a plain-text body with --text; `-` or nothing for stdin.
    pub file: Option<PathBuf>,
    /// The sender's power (default: from the subject).
    #[arg(long)]
    pub power: Option<String>,
    /// S1901M, F1901R, W1901A... (default: from the subject, else the variant's first phase).
    #[arg(long)]
    pub phase: Option<String>,
    /// House rules.
    #[arg(long, default_value = "dpv2023")]
    pub preset: String,
    /// Map.
    #[arg(long, default_value = "standard")]
    pub variant: String,
    /// The board, in the `adjudicate` input format, so that orders are checked against the
    /// units. Without it, the opening position is used in the first phase.
    #[arg(long)]
    pub board: Option<PathBuf>,
    /// The player's abbreviation list (`abbr = province`).
    #[arg(long)]
    pub abbrev: Option<PathBuf>,
    /// FILE is a plain-text body, not a whole message.
    #[arg(long)]
    pub text: bool,
}

fn read_file(p: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(p).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let raw: Vec<u8> = match a.file.as_deref() {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::read(p).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))?
        }
        _ => {
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .map_err(|e| anyhow::anyhow!("cannot read stdin: {e}"))?;
            b
        }
    };
    let raw = if a.text {
        let mut m = b"Content-Type: text/plain; charset=utf-8\r\n\r\n".to_vec();
        m.extend_from_slice(&raw);
        m
    } else {
        raw
    };
    let map = Map::variant(&a.variant)
        .ok_or_else(|| anyhow::anyhow!("unknown variant '{}'", a.variant))?;
    let rules = Rules::preset(&a.preset)?;
    // Power and phase from the options, else from the subject (`<game> <power> <phase>`). The
    // head is read on its own, so a mail too large to read still names its power.
    let subject = chancery::message::read_head(&raw).subject;
    let words: Vec<&str> = subject.split_whitespace().collect();
    let power = match a.power.as_deref() {
        Some(p) => map
            .power_by_name(p)
            .ok_or_else(|| anyhow::anyhow!("unknown power '{p}'"))?,
        None => words
            .iter()
            .find_map(|w| map.power_by_name(w))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "say whose orders these are: --power POWER (the subject names no power)"
                )
            })?,
    };
    let first = Phase::new(Season::Spring, map.start_year, PhaseKind::Movement);
    let phase: Phase = match a.phase.as_deref() {
        Some(p) => p.parse()?,
        None => words.iter().find_map(|w| w.parse().ok()).unwrap_or(first),
    };
    let board: Option<Board> = match a.board.as_deref() {
        Some(path) => {
            let input: chancery::json::PhaseInput = serde_json::from_str(&read_file(path)?)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let mut b = chancery::json::prepare(&input)?.board;
            b.phase = phase;
            Some(b)
        }
        None if phase == first => Some(Board::initial(map)),
        None => None,
    };
    let abbreviations = match a.abbrev.as_deref() {
        Some(path) => parse_abbreviations(map, &read_file(path)?).map_err(anyhow::Error::msg)?,
        None => Default::default(),
    };
    let ctx = ReadContext {
        map,
        rules: &rules,
        power,
        phase: phase.kind,
        board: board.as_ref(),
        abbreviations: &abbreviations,
    };
    let read = chancery::orderset::read_mail(&ctx, &raw);
    outln!("{}", serde_json::to_string_pretty(&read)?)?;
    Ok(())
}
