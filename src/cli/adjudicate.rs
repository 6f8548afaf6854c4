//! `chancery adjudicate`: the JSON contract of docs/adjudicate.md.

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
    let text = super::read_input(a.file.as_deref())?;
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
