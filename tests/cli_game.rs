//! `chancery game ...` at the console (issue 21): what a GM may choose for a player, and a
//! command whose output is cut short (`| head`).

#[path = "common/cli.rs"]
mod cli;
use cli::run;

/// A fresh configuration with game `wm1` created: the configuration's path.
fn with_game(name: &str) -> String {
    let (_, config) = cli::fresh_config(name);
    let (code, _, err) = run(
        &[
            "game",
            "create",
            "--config",
            &config,
            "--id",
            "wm1",
            "--preset",
            "wm2004",
            "--gm",
            "gm@example.test",
            "--confirm",
            "confirm@example.test",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    config
}

#[test]
fn a_secret_the_gm_chooses_has_at_least_eight_characters() {
    // Issue 21: the echo masks the secret wherever it appears in the lines it quotes; the
    // secret "bur" masked the province in `A Par - Bur`. A short one is refused at add-player.
    let config = with_game("short-secret");
    let add = |power: &str, secret: &str| {
        run(
            &[
                "game",
                "add-player",
                "--config",
                &config,
                "--id",
                "wm1",
                "--power",
                power,
                "--address",
                &format!("{}@example.test", power.to_lowercase()),
                "--secret",
                secret,
            ],
            None,
        )
    };
    let (code, _, err) = add("FRANCE", "bur");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("at least 8 characters"), "{err}");
    let (code, out, err) = add("FRANCE", "  bur    ");
    assert_eq!(code, 1, "spaces around it do not count: {out}");
    assert!(err.contains("at least 8 characters"), "{err}");
    let (code, out, err) = add("FRANCE", "burgundy");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(secret: burgundy)"), "{out}");
}

/// Run `chancery` with `args`, its output a pipe whose reader is already gone (what `| head`
/// leaves once it has its lines): (exit code, stderr).
fn run_into_closed_pipe(args: &[&str]) -> (i32, String) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chancery"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(writer)
        .output()
        .expect("run chancery");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn output_cut_short_by_its_reader_ends_quietly() {
    // Issue 21: `chancery game ... | head` panicked with "failed printing to stdout".
    let config = with_game("closed-pipe");
    for args in [
        vec!["game", "status", "--config", &config, "--id", "wm1"],
        vec!["presets"],
        vec!["presets", "--show", "wm2004"],
    ] {
        let (code, err) = run_into_closed_pipe(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("failed printing"), "{args:?}: {err}");
    }
}

#[test]
fn nomic_201_a_nomic_is_made_seated_and_started_at_the_console() {
    let (_, config) = cli::fresh_config("nomic");
    let (code, out, err) = run(
        &[
            "game",
            "create",
            "--config",
            &config,
            "--id",
            "n1",
            "--preset",
            "nomic2019",
            "--gm",
            "gm@example.test",
            "--confirm",
            "confirm@example.test",
            "--set",
            "winning-score=150",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("a Nomic"), "{out}");
    let seat = |name: &str, day: &str, address: &str| {
        run(
            &[
                "game",
                "add-player",
                "--config",
                &config,
                "--id",
                "n1",
                "--name",
                name,
                "--day",
                day,
                "--address",
                address,
            ],
            None,
        )
    };
    let (code, out, err) = seat("Ben P", "Wednesday", "ben@example.test");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("as Ben P on Wednesday"), "{out}");
    // Nomic 201: one player a day, and no weekend days.
    let (code, _, err) = seat("Dave M", "wednesday", "dave@example.test");
    assert_eq!(code, 1);
    assert!(err.contains("one player a day (Nomic 201, 214)"), "{err}");
    let (code, _, err) = seat("Dave M", "Saturday", "dave@example.test");
    assert_eq!(code, 1);
    assert!(
        err.contains("Saturday or Sunday are void (Nomic 201)"),
        "{err}"
    );
    let (code, _, err) = seat("Dave M", "Tuesday", "dave@example.test");
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&["game", "start", "--config", &config, "--id", "n1"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("game n1 started"), "{out}");
    let (code, out, _) = run(&["presets", "--show", "nomic2019"], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("winning-score") && out.contains("Nomic 210"),
        "{out}"
    );
}
