//! `chancery adjudicate` against its documented contract: every example in `docs/examples/`
//! gives exactly its recorded output, and bad input gives a specific error and a non-zero exit.

#[path = "common/cli.rs"]
mod cli;
use cli::run;
use std::path::Path;

#[test]
fn every_documented_example_gives_its_recorded_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("docs/examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !p.to_string_lossy().ends_with(".out.json")
        })
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 10, "expected the documented examples");
    for input in inputs {
        let expected_path = input.with_extension("out.json");
        let expected: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(&expected_path).expect("recorded output"),
        )
        .expect("recorded output is JSON");
        let (code, out, err) = run(&["adjudicate", input.to_str().expect("path")], None);
        assert_eq!(code, 0, "{}: {err}", input.display());
        let got: serde_json::Value = serde_json::from_str(&out).expect("output is JSON");
        assert_eq!(got, expected, "{}", input.display());
        // The same input on stdin gives the same answer.
        let text = std::fs::read_to_string(&input).expect("input");
        let (code, out2, _) = run(&["adjudicate"], Some(&text));
        assert_eq!(code, 0);
        assert_eq!(out, out2);
    }
}

#[test]
fn next_board_can_be_fed_back() {
    // The retreat phase produced by a movement phase is accepted as input as it stands.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/03-dislodgement-s1901m.json"),
    )
    .expect("example");
    let (_, out, _) = run(&["adjudicate"], Some(&text));
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let mut next = v["next"].clone();
    next["orders"] = serde_json::json!({"AUSTRIA": ["A SER R ALB"]});
    let (code, out, err) = run(&["adjudicate"], Some(&next.to_string()));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["orders"][0]["result"], "succeeds");
    assert_eq!(v["next"]["phase"], "F1901M");
    assert!(
        v["next"]["units"]["AUSTRIA"]
            .as_array()
            .expect("austria")
            .contains(&serde_json::json!("A ALB"))
    );
}

#[test]
fn bad_input_is_a_specific_error_never_a_panic() {
    let cases: &[(&str, &str)] = &[
        ("not json", "not a valid phase"),
        ("{}", "missing field `phase`"),
        (r#"{"phase": "S1901X"}"#, "bad phase 'S1901X'"),
        (
            r#"{"phase": "S1901M", "variant": "mars"}"#,
            "unknown variant 'mars'",
        ),
        (
            r#"{"phase": "S1901M", "rules": "nope"}"#,
            "unknown rules preset 'nope'",
        ),
        (
            r#"{"phase": "S1901M", "rules": {"preset": "wm2004", "civil_disorder": "dice"}}"#,
            "civil_disorder",
        ),
        (
            r#"{"phase": "S1901M", "units": {"GONDOR": ["A PAR"]}}"#,
            "unknown power 'GONDOR'",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}"#,
            "'XYZ' is not a province",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["F SPA"]}}"#,
            "name the coast",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A NTH"]}}"#,
            "an army cannot stand in NTH",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}}"#,
            "two units in PAR",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A PAR ~ BUR"]}}"#,
            "cannot read order",
        ),
        (
            r#"{"phase": "S1901M", "centers": {"FRANCE": ["BUR"]}}"#,
            "BUR is not a supply centre",
        ),
        (
            r#"{"phase": "S1901M", "surprise": 1}"#,
            "unknown field `surprise`",
        ),
        (
            "{\"phase\": \"S1901M\", \"units\": {\"FRANCE\": [\"A P\u{e9}r\"]}}",
            "is not a province",
        ),
    ];
    for (input, needle) in cases {
        let (code, out, err) = run(&["adjudicate"], Some(input));
        // Exit codes: 1 for a failure (bad input), 2 for a usage error.
        assert_eq!(code, 1, "{input}: {err}");
        assert!(out.is_empty(), "{input}: printed {out}");
        assert!(err.contains(needle), "{input}: stderr was {err}");
        assert!(!err.contains("panicked"), "{input}: {err}");
    }
    let (code, _, err) = run(&["adjudicate", "/nonexistent/phase.json"], None);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read /nonexistent/phase.json"));
    let (code, _, err) = run(&["frobnicate"], None);
    assert_eq!(code, 2);
    assert!(
        err.contains("unrecognized subcommand 'frobnicate'"),
        "{err}"
    );
}

#[test]
fn every_command_answers_help_and_unknown_flags_are_usage_errors() {
    // Issue 10: `--help` on every subcommand, `--version`, a misspelt flag is an error (exit 2),
    // never silently ignored.
    for cmd in [
        &["adjudicate"][..],
        &["parse"],
        &["serve"],
        &["status"],
        &["game"],
        &["game", "create"],
        &["game", "add-player"],
        &["game", "start"],
        &["game", "status"],
        &["game", "add-master"],
        &["game", "add-observer"],
        &["game", "deadline"],
        &["game", "extend"],
        &["game", "pause"],
        &["game", "resume"],
        &["game", "process"],
        &["game", "preview"],
        &["game", "replace"],
        &["game", "rollback"],
        &["game", "set"],
        &["game", "correct"],
        &["game", "agree"],
        &["game", "declare-draw"],
        &["game", "refuse"],
        &["game", "broadcast"],
        &["game", "remove-observer"],
        &["game", "grant-extension"],
        &["game", "refuse-extension"],
        &["game", "holiday"],
        &["game", "holiday-extension"],
        &["game", "veto-abbreviations"],
        &["game", "log"],
        &["players", "report"],
        &["tournament"],
        &["tournament", "create"],
        &["tournament", "add-director"],
        &["tournament", "add-entrant"],
        &["tournament", "round"],
        &["tournament", "standings"],
        &["tournament", "decline"],
        &["tournament", "status"],
        &["score"],
        &["presets"],
        &["demo"],
        &["bench"],
    ] {
        let mut args = cmd.to_vec();
        args.push("--help");
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains("Usage: chancery"), "{args:?}: {out}");
    }
    let (code, out, _) = run(&["--version"], None);
    assert_eq!(code, 0);
    assert!(out.starts_with("chancery "), "{out}");
    let (code, out, _) = run(&["help"], None);
    assert_eq!(code, 0);
    assert!(out.contains("adjudicate"), "{out}");
    let (code, _, err) = run(
        &[
            "game",
            "add-player",
            "--id",
            "g",
            "--power",
            "FRANCE",
            "--address",
            "a@b",
            "--tz",
            "x",
            "--zone",
            "y",
        ],
        None,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unexpected argument '--zone'"), "{err}");
    let (code, _, err) = run(&["serve", "--tz", "Europe/Paris"], None);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["serve", "--clock-speed", "0"], None);
    assert_eq!(code, 2, "--clock-speed is at least 1: {err}");
    let (code, out, _) = run(&["serve", "--help"], None);
    assert_eq!(code, 0);
    assert!(out.contains("--clock-speed"), "{out}");
}

#[test]
fn a_game_takes_single_options_and_a_power_takes_one_player() {
    // Issue 11, point 7: any alternative rule chosen per game, not only whole presets; a second
    // player for a power is refused, not silently written over the first.
    let (_, config) = cli::fresh_config("game");
    let create = |id: &str, extra: &[&str]| {
        let mut args = vec![
            "game",
            "create",
            "--config",
            &config,
            "--id",
            id,
            "--preset",
            "wm2004",
            "--gm",
            "gm@example.test",
            "--confirm",
            "confirm@example.test",
        ];
        args.extend_from_slice(extra);
        run(&args, None)
    };
    let (code, out, err) = create(
        "wm1",
        &[
            "--set",
            "submissions=merge_per_unit",
            "--set",
            "movement_days=2",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("submissions = \"merge_per_unit\""), "{out}");
    assert!(out.contains("movement_days = 2"), "{out}");
    let (code, _, err) = create("wm2", &["--set", "convoy_intent=whenever"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("convoy_intent"), "{err}");
    let (code, _, err) = create("wm3", &["--set", "no_such_option=1"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("unknown option 'no_such_option'"), "{err}");
    let add = |address: &str| {
        run(
            &[
                "game",
                "add-player",
                "--config",
                &config,
                "--id",
                "wm1",
                "--power",
                "FRANCE",
                "--address",
                address,
            ],
            None,
        )
    };
    let (code, _, err) = add("first@example.test");
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = add("second@example.test");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("FRANCE already has a player"), "{err}");
    // A master, a console command that is refused (the game has not started), and the log.
    let (code, out, err) = run(
        &[
            "game",
            "add-master",
            "--config",
            &config,
            "--id",
            "wm1",
            "--role",
            "td",
            "--address",
            "td@example.org",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("td@example.org is TD of wm1"), "{out}");
    let (code, _, err) = run(
        &[
            "game", "extend", "--config", &config, "--id", "wm1", "--by", "2d",
        ],
        None,
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("EXTEND 2d: refused: game wm1 is forming"),
        "{err}"
    );
    let (code, _, err) = run(
        &[
            "game", "extend", "--config", &config, "--id", "wm1", "--by", "soon",
        ],
        None,
    );
    assert_eq!(code, 1, "{err}");
    let (code, _, err) = run(
        &[
            "game", "correct", "--config", &config, "--id", "wm1", "move", "a", "par", "bur",
        ],
        None,
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("CORRECT MOVE A PAR BUR: refused: game wm1 is forming"),
        "{err}"
    );
    let (code, out, err) = run(&["game", "log", "--config", &config, "--id", "wm1"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("console (console)  EXTEND 2d  ->  refused: game wm1 is forming"),
        "{out}"
    );
    let (code, out, err) = run(&["presets", "--show", "wm2004"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().any(|l| l.contains("submissions")
            && l.contains("\"replace\"")
            && l.contains("WM D.III(3)")),
        "{out}"
    );
}

#[test]
fn adjudicate_and_parse_take_the_maharajah_variant() {
    // Issue 13, point 6.
    let input = r#"{"phase": "S1501M", "units": {"DELHI": ["A Agr"]},
                    "orders": {"DELHI": ["A Agra - Jaipur"]}}"#;
    let (code, out, err) = run(&["adjudicate", "--variant", "maharajah"], Some(input));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\"A AGR - JAI\"") && out.contains("succeeds"),
        "{out}"
    );
    // On the standard map the same input names provinces it does not have.
    let (code, _, err) = run(&["adjudicate"], Some(input));
    assert_eq!(code, 1, "{err}");
    let dir = std::env::temp_dir().join(format!("chancery-parse-mj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let orders = dir.join("orders.txt");
    std::fs::write(&orders, "A Agra - Jaipur\nF Jsl - Sin\n").expect("write");
    let path = orders.to_string_lossy().to_string();
    let (code, out, err) = run(
        &[
            "parse",
            "--text",
            "--variant",
            "maharajah",
            "--power",
            "DELHI",
            "--phase",
            "S1501M",
            &path,
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"A AGR - JAI\""), "{out}");
}
