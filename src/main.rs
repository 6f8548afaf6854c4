//! The `chancery` command.

use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "\
chancery: a play-by-email Diplomacy game master

USAGE:
    chancery adjudicate [FILE]    Adjudicate one phase given as JSON (FILE or stdin);
                                  prints the outcome as JSON. See docs/adjudicate.md.
    chancery presets              List the house-rule presets.
    chancery help                 Show this text.
";

fn read_input(path: Option<&str>) -> Result<String, String> {
    match path {
        None | Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            Ok(s)
        }
        Some(p) => std::fs::read_to_string(p).map_err(|e| format!("cannot read {p}: {e}")),
    }
}

fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("adjudicate") => {
            if args.len() > 2 {
                return Err(format!("adjudicate takes one FILE at most\n\n{USAGE}"));
            }
            let text = read_input(args.get(1).map(String::as_str))?;
            let out = chancery::json::adjudicate_json(&text).map_err(|e| e.to_string())?;
            println!("{out}");
            Ok(())
        }
        Some("presets") => {
            for name in chancery::rules::Rules::preset_names() {
                let r = chancery::rules::Rules::preset(name).map_err(|e| e.to_string())?;
                println!("{name:12} {}", r.description);
            }
            Ok(())
        }
        Some("help" | "--help" | "-h") => {
            print!("{USAGE}");
            Ok(())
        }
        Some("--version" | "version") => {
            println!("chancery {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n\n{USAGE}")),
        None => Err(USAGE.to_string()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chancery: {e}");
            ExitCode::from(2)
        }
    }
}
