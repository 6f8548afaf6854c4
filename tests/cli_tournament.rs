//! `chancery tournament ...` at the console (issue 14, point 1): a tournament created, its
//! director and two teams of seven signed up, round one made, the standings printed and written
//! as CSV, a decline, and the refusals a director should get.

#[path = "common/cli.rs"]
mod cli;

use cli::run;

const POWERS: [&str; 7] = [
    "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
];

#[test]
fn a_director_runs_a_tournament_at_the_console() {
    let (dir, config) = cli::fresh_config("tournament");
    let ok = |args: &[&str]| {
        let mut all = vec!["tournament"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--config", &config]);
        let (code, out, err) = run(&all, None);
        assert_eq!(code, 0, "{all:?}: {err}");
        out
    };
    let out = ok(&[
        "create",
        "--id",
        "wm04",
        "--rulebook",
        "wm2004",
        "--gm",
        "gm@example.test",
        "--confirm",
        "confirm@example.test",
        "--seed",
        "published seed",
        "--set",
        "movement_days=5",
        "--set",
        "submissions=merge_per_unit",
    ]);
    assert!(out.contains("published seed: published seed"), "{out}");
    let out = ok(&[
        "add-director",
        "--id",
        "wm04",
        "--address",
        "td@example.test",
    ]);
    assert!(out.contains("secret for command mails"), "{out}");
    for (t, team) in ["Lions", "Tigers"].iter().enumerate() {
        for (k, power) in POWERS.iter().enumerate() {
            let address = format!("p{t}{k}@example.test");
            let mut args = vec![
                "add-entrant",
                "--id",
                "wm04",
                "--address",
                &address,
                "--team",
                team,
                "--power",
                power,
            ];
            if k == 0 {
                args.push("--captain");
            }
            ok(&args);
        }
    }
    // WM B.2: an eighth player of a team is refused, with the clause.
    let (code, _, err) = run(
        &[
            "tournament",
            "add-entrant",
            "--config",
            &config,
            "--id",
            "wm04",
            "--address",
            "x@example.test",
            "--team",
            "Lions",
        ],
        None,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("WM B.2"), "{err}");
    let out = ok(&["round", "--id", "wm04"]);
    assert!(
        out.contains("round 1 made: 2 board(s), wm04r1b1, wm04r1b2"),
        "{out}"
    );
    // WM B.6: two teams of seven on two boards cannot keep team-mates apart (b): the director is
    // told, by address.
    assert!(out.contains("could not meet"), "{out}");
    assert!(
        out.contains("p00@example.test and p04@example.test are team-mates (WM B.6 b)"),
        "{out}"
    );
    // Each board is a game of its own (tests/tournament.rs checks it carries the options).
    let (code, out, err) = run(
        &["game", "status", "--config", &config, "--id", "wm04r1b1"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("active"), "{out}");
    let out = ok(&["status", "--id", "wm04"]);
    assert!(out.contains("wm04r1b2 active"), "{out}");
    // The standings before any game is over: provisional, everyone listed.
    let csv = dir.join("standings.csv");
    let out = ok(&["standings", "--id", "wm04", "--csv", &csv.to_string_lossy()]);
    assert!(out.contains("0 of 2 games over"), "{out}");
    assert!(out.contains("provisional"), "{out}");
    let rows = std::fs::read_to_string(&csv).expect("csv");
    assert!(
        rows.starts_with("place,player,team,power,board,score"),
        "{rows}"
    );
    assert_eq!(rows.lines().count(), 15, "a header and 14 players: {rows}");
    // A decline is recorded; an unknown entrant's is refused.
    let out = ok(&["decline", "--id", "wm04", "--address", "p00@example.test"]);
    assert!(out.contains("declines the next round"), "{out}");
    let (code, _, err) = run(
        &[
            "tournament",
            "decline",
            "--config",
            &config,
            "--id",
            "wm04",
            "--address",
            "nobody@example.test",
        ],
        None,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not an entrant"), "{err}");
    // The next round waits for this one.
    let (code, _, err) = run(
        &["tournament", "round", "--config", &config, "--id", "wm04"],
        None,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("round 1 is not over"), "{err}");
}
