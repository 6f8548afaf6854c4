//! The `chancery` command.

use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "\
chancery: a play-by-email Diplomacy game master

USAGE:
    chancery adjudicate [FILE]    Adjudicate one phase given as JSON (FILE or stdin);
                                  prints the outcome as JSON. See docs/adjudicate.md.
    chancery parse FILE [OPTIONS] Read an order mail (.eml, or plain text with --text) and
                                  print what was understood as JSON. See docs/parse.md.
        --power POWER             The sender's power (default: from the subject).
        --phase PHASE             S1901M, F1901R, W1901A... (default: from the subject,
                                  else the variant's first phase).
        --preset NAME             House rules (default dpv2023).
        --variant NAME            Map (default standard).
        --board FILE              The board, in the `adjudicate` input format, so that
                                  orders are checked against the units. Without it, the
                                  opening position is used in the first phase.
        --abbrev FILE             The player's abbreviation list (`abbr = province`).
        --text                    FILE is a plain-text body, not a whole message.
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
        Some("parse") => parse_command(&args[1..]),
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

/// `chancery parse`: see docs/parse.md.
fn parse_command(args: &[String]) -> Result<(), String> {
    use chancery::adjudicator::Board;
    use chancery::map::Map;
    use chancery::phase::{Phase, PhaseKind, Season};
    use chancery::reader::{ReadContext, parse_abbreviations};
    use chancery::rules::Rules;

    let mut file: Option<&str> = None;
    let mut opts: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    let mut text_mode = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--text" => text_mode = true,
            "--power" | "--phase" | "--preset" | "--variant" | "--board" | "--abbrev" => {
                let v = args
                    .get(i + 1)
                    .ok_or_else(|| format!("{a} needs a value"))?;
                opts.insert(a, v.as_str());
                i += 1;
            }
            f if !f.starts_with("--") || f == "-" => {
                if file.replace(f).is_some() {
                    return Err("parse takes one FILE".into());
                }
            }
            other => return Err(format!("unknown option '{other}'\n\n{USAGE}")),
        }
        i += 1;
    }
    let raw: Vec<u8> = match file {
        None | Some("-") => {
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            b
        }
        Some(p) => std::fs::read(p).map_err(|e| format!("cannot read {p}: {e}"))?,
    };
    let raw = if text_mode {
        let mut m = b"Content-Type: text/plain; charset=utf-8\r\n\r\n".to_vec();
        m.extend_from_slice(&raw);
        m
    } else {
        raw
    };
    let variant = opts.get("--variant").copied().unwrap_or("standard");
    let map = Map::variant(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
    let rules = Rules::preset(opts.get("--preset").copied().unwrap_or("dpv2023"))
        .map_err(|e| e.to_string())?;
    // Power and phase from the options, else from the subject (`<game> <power> <phase>`).
    let subject = chancery::message::read_message(&raw)
        .map(|m| m.subject)
        .unwrap_or_default();
    let words: Vec<&str> = subject.split_whitespace().collect();
    let power = match opts.get("--power") {
        Some(p) => map
            .power_by_name(p)
            .ok_or_else(|| format!("unknown power '{p}'"))?,
        None => words
            .iter()
            .find_map(|w| map.power_by_name(w))
            .ok_or("say whose orders these are: --power POWER (the subject names no power)")?,
    };
    let phase: Phase = match opts.get("--phase") {
        Some(p) => p
            .parse()
            .map_err(|e: chancery::phase::PhaseError| e.to_string())?,
        None => words
            .iter()
            .find_map(|w| w.parse().ok())
            .unwrap_or(Phase::new(
                Season::Spring,
                map.start_year,
                PhaseKind::Movement,
            )),
    };
    let board: Option<Board> = match opts.get("--board") {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let input: chancery::json::PhaseInput =
                serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
            let mut b = chancery::json::prepare(&input)
                .map_err(|e| e.to_string())?
                .board;
            b.phase = phase;
            Some(b)
        }
        None if phase == Phase::new(Season::Spring, map.start_year, PhaseKind::Movement) => {
            Some(Board::initial(map))
        }
        None => None,
    };
    let abbreviations = match opts.get("--abbrev") {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            parse_abbreviations(map, &text)?
        }
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
    let out = serde_json::to_string_pretty(&read).map_err(|e| e.to_string())?;
    println!("{out}");
    Ok(())
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
