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
    chancery bench [--receipts N] [--ingest N] [--games N]
                                  Measure receipt latency, ingestion throughput and a
                                  deadline storm over a private mail stack (as root).
    chancery demo                 Play 1901 by e-mail with seven scripted players on a
                                  private mail stack (run from the repository, as root).
    chancery serve --config FILE  Run the game master: read the GM and confirmation
                                  mailboxes, acknowledge, adjudicate at deadlines, mail
                                  results. Stops cleanly on Ctrl-C / SIGTERM.
    chancery game create --config FILE --id ID --preset NAME --gm ADDR --confirm ADDR
    chancery game add-player --config FILE --id ID --power POWER --address ADDR
                             [--name NAME] [--tz ZONE] [--secret SECRET]
    chancery game start --config FILE --id ID
    chancery game status --config FILE --id ID
    chancery status --config FILE Each mailbox's last successful poll, last UID and last
                                  error; messages set aside; outgoing mail by state.
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
        #[cfg(feature = "service")]
        Some("bench") => {
            let f = flags(&args[1..])?;
            let num = |k: &str, d: usize| -> Result<usize, String> {
                f.get(k).map_or(Ok(d), |v| {
                    v.parse().map_err(|_| format!("--{k} wants a number"))
                })
            };
            let root = std::env::current_dir().map_err(|e| e.to_string())?;
            runtime()?.block_on(chancery::bench::run(
                &root,
                num("receipts", 200)?,
                num("ingest", 500)?,
                num("games", 1000)?,
            ))
        }
        #[cfg(feature = "service")]
        Some("demo") => {
            let root = std::env::current_dir().map_err(|e| e.to_string())?;
            runtime()?.block_on(chancery::demo::run(&root))
        }
        #[cfg(feature = "service")]
        Some("serve") => serve_command(&args[1..]),
        #[cfg(feature = "service")]
        Some("game") => game_command(&args[1..]),
        #[cfg(feature = "service")]
        Some("status") => status_command(&args[1..]),
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

#[cfg(feature = "service")]
/// `--name value` pairs.
fn flags(args: &[String]) -> Result<std::collections::HashMap<String, String>, String> {
    let mut out = std::collections::HashMap::new();
    let mut i = 0;
    while i < args.len() {
        let k = args[i]
            .strip_prefix("--")
            .ok_or_else(|| format!("unexpected '{}'\n\n{USAGE}", args[i]))?;
        let v = args
            .get(i + 1)
            .ok_or_else(|| format!("--{k} needs a value"))?;
        out.insert(k.to_string(), v.clone());
        i += 2;
    }
    Ok(out)
}

#[cfg(feature = "service")]
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))
}

#[cfg(feature = "service")]
fn load_config(
    f: &std::collections::HashMap<String, String>,
) -> Result<(chancery::config::Config, std::path::PathBuf), String> {
    let path = f
        .get("config")
        .map(String::as_str)
        .unwrap_or("config/chancery.toml");
    chancery::config::Config::load(std::path::Path::new(path))
}

#[cfg(feature = "service")]
fn serve_command(args: &[String]) -> Result<(), String> {
    let f = flags(args)?;
    let (cfg, base) = load_config(&f)?;
    let rt = runtime()?;
    rt.block_on(async move {
        let (tx, rx) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            let mut term =
                match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                    Ok(t) => t,
                    Err(_) => return,
                };
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            let _ = tx.send(true);
        });
        chancery::service::serve(
            cfg,
            &base,
            std::sync::Arc::new(chancery::service::SystemClock),
            rx,
        )
        .await
    })
}

#[cfg(feature = "service")]
fn status_command(args: &[String]) -> Result<(), String> {
    use chancery::store;
    let f = flags(args)?;
    let (cfg, base) = load_config(&f)?;
    runtime()?.block_on(async {
        let pool = store::open(&base.join(&cfg.database))
            .await
            .map_err(|e| e.to_string())?;
        let mut c = pool.acquire().await.map_err(|e| e.to_string())?;
        let now = chrono::Utc::now().timestamp();
        let when = |t: Option<i64>| match t {
            Some(t) => format!("{} ({}s ago)", chancery::mails::gmt(t), now - t),
            None => "never".to_string(),
        };
        let states = store::mailbox_states(&mut c)
            .await
            .map_err(|e| e.to_string())?;
        let silent_after = i64::try_from(cfg.poll_seconds.max(10)).unwrap_or(60) * 3;
        let mut ok = true;
        for name in chancery::service::MAILBOXES {
            let s = states.iter().find(|s| s.mailbox == name);
            println!("mailbox {name}:");
            let last_ok = s.and_then(|s| s.last_poll_ok);
            println!("  last successful poll: {}", when(last_ok));
            println!(
                "  last UID handled:     {}",
                s.and_then(|s| s.last_uid)
                    .map_or("none".to_string(), |u| u.to_string())
            );
            println!("  polls:                {}", s.map_or(0, |s| s.polls));
            if let Some(s) = s
                && let (Some(e), Some(at)) = (&s.last_error, s.last_error_at)
            {
                println!("  last error:           {e} ({})", when(Some(at)));
            }
            if last_ok.is_none_or(|t| now - t > silent_after) {
                println!("  ALERT: silent for more than {silent_after}s");
                ok = false;
            }
        }
        let poisoned = store::poisoned(&mut c).await.map_err(|e| e.to_string())?;
        println!("messages set aside: {}", poisoned.len());
        for p in &poisoned {
            println!(
                "  {} uid {} {}: {} ({})",
                p.mailbox,
                p.uid,
                p.message_id.as_deref().unwrap_or("(no Message-ID)"),
                p.error,
                chancery::mails::gmt(p.at)
            );
        }
        let (pending, sent, failed) = store::outbox_counts(&mut c)
            .await
            .map_err(|e| e.to_string())?;
        println!("outgoing mail: {pending} pending, {sent} sent, {failed} failed");
        if ok {
            Ok(())
        } else {
            Err("a mailbox is silent".to_string())
        }
    })
}

#[cfg(feature = "service")]
fn game_command(args: &[String]) -> Result<(), String> {
    use chancery::store;
    let sub = args.first().map(String::as_str).unwrap_or("");
    let f = flags(&args[1.min(args.len())..])?;
    let (cfg, base) = load_config(&f)?;
    let need = |k: &str| {
        f.get(k)
            .cloned()
            .ok_or_else(|| format!("game {sub} needs --{k}"))
    };
    let rt = runtime()?;
    rt.block_on(async {
        let pool = store::open(&base.join(&cfg.database))
            .await
            .map_err(|e| e.to_string())?;
        let mut c = pool.acquire().await.map_err(|e| e.to_string())?;
        let now = chrono::Utc::now().timestamp();
        match sub {
            "create" => {
                let id = need("id")?;
                let preset = f.get("preset").cloned().unwrap_or_else(|| "dpv2023".into());
                let rules = chancery::rules::Rules::preset(&preset).map_err(|e| e.to_string())?;
                let json = serde_json::to_string(&rules).map_err(|e| e.to_string())?;
                let variant = f
                    .get("variant")
                    .cloned()
                    .unwrap_or_else(|| "standard".into());
                if chancery::map::Map::variant(&variant).is_none() {
                    return Err(format!("unknown variant '{variant}'"));
                }
                store::create_game(
                    &mut c,
                    &id,
                    &variant,
                    &json,
                    &need("gm")?,
                    &need("confirm")?,
                    now,
                )
                .await
                .map_err(|e| e.to_string())?;
                println!("game {id} created ({preset}); add the players, then start it");
            }
            "add-player" => {
                let id = need("id")?;
                let g = store::game(&mut c, &id)
                    .await
                    .map_err(|e| e.to_string())?
                    .ok_or(format!("no game '{id}'"))?;
                let map = chancery::map::Map::variant(&g.variant).ok_or("unknown variant")?;
                let power = need("power")?;
                let pw = map
                    .power_by_name(&power)
                    .ok_or(format!("unknown power '{power}'"))?;
                let tz = f.get("tz").cloned().unwrap_or_else(|| "UTC".into());
                if tz.parse::<chrono_tz::Tz>().is_err() && tz != "UTC" {
                    return Err(format!(
                        "unknown time zone '{tz}' (use an IANA name such as Europe/Paris)"
                    ));
                }
                // From the OS random generator: at least 64 bits, in words a player can type.
                let secret = match f.get("secret") {
                    Some(s) => s.clone(),
                    None => chancery::secret::generate()?,
                };
                let player = store::PlayerRow {
                    power: map.power_name(pw).to_string(),
                    address: need("address")?,
                    name: f.get("name").cloned().unwrap_or_default(),
                    tz,
                    secret: secret.clone(),
                    extension_days_used: 0,
                };
                store::add_player(&mut c, &g.id, &player)
                    .await
                    .map_err(|e| e.to_string())?;
                println!(
                    "{} plays {} in {} (secret: {secret})",
                    player.address, player.power, g.id
                );
            }
            "start" => {
                let id = need("id")?;
                drop(c);
                let deadline = chancery::engine::start_game(&pool, &id, now)
                    .await
                    .map_err(|e| e.to_string())?;
                println!(
                    "game {id} started; first deadline {}",
                    chancery::mails::gmt(deadline)
                );
            }
            "status" => {
                let id = need("id")?;
                let g = store::game(&mut c, &id)
                    .await
                    .map_err(|e| e.to_string())?
                    .ok_or(format!("no game '{id}'"))?;
                println!("game {} ({}), {}", g.id, g.variant, g.status);
                if let Some(p) = store::current_phase(&mut c, &g.id)
                    .await
                    .map_err(|e| e.to_string())?
                {
                    println!(
                        "phase {}, deadline {}",
                        p.phase,
                        chancery::mails::gmt(p.deadline)
                    );
                    let standing = store::standing_orders(&mut c, &g.id, &p.phase)
                        .await
                        .map_err(|e| e.to_string())?;
                    for pl in store::players(&mut c, &g.id)
                        .await
                        .map_err(|e| e.to_string())?
                    {
                        let s = standing.iter().find(|s| s.power == pl.power);
                        println!(
                            "  {:8} {:28} {}",
                            pl.power,
                            pl.address,
                            match s {
                                Some(s) if s.final_ => "orders in, Final",
                                Some(_) => "orders in",
                                None => "no orders",
                            }
                        );
                    }
                }
                let (pending, sent, failed) = store::outbox_counts(&mut c)
                    .await
                    .map_err(|e| e.to_string())?;
                println!("outbox: {pending} pending, {sent} sent, {failed} failed");
            }
            other => return Err(format!("unknown game command '{other}'\n\n{USAGE}")),
        }
        Ok(())
    })
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
