//! `chancery adjudicate`: the JSON contract of docs/adjudicate.md.

use std::io::Read;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The phase as JSON; `-` or nothing for stdin.
    pub file: Option<PathBuf>,
    /// The variant (`standard`, `maharajah`), instead of the JSON's `variant` field.
    #[arg(long)]
    pub variant: Option<String>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let text = match a.file.as_deref() {
        None => read_stdin()?,
        Some(p) if p.as_os_str() == "-" => read_stdin()?,
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))?,
    };
    let text = match (&a.variant, serde_json::from_str::<serde_json::Value>(&text)) {
        (Some(v), Ok(serde_json::Value::Object(mut o))) => {
            o.insert("variant".into(), serde_json::Value::String(v.clone()));
            serde_json::Value::Object(o).to_string()
        }
        // Without --variant, or on input that is no JSON object, the contract's own errors.
        _ => text,
    };
    outln!("{}", chancery::json::adjudicate_json(&text)?)?;
    Ok(())
}

fn read_stdin() -> anyhow::Result<String> {
    let mut s = String::new();
    std::io::stdin()
        .read_to_string(&mut s)
        .map_err(|e| anyhow::anyhow!("cannot read stdin: {e}"))?;
    Ok(s)
}
