//! `chancery acwc` (issue 26): the Swiss's pairings, checkable by anyone (ACWC "Pairing
//! details"). `pair` gives the next round with its transcript; `check` recomputes every round
//! of a tournament from its results, agrees with the rules' own pairings and finds a swapped
//! pair in the round it was swapped.

#[path = "common/cli.rs"]
mod cli;
use cli::run;

use chancery::acwc::checker::{Tournament, next_round};
use chancery::acwc::swiss::{Match, Outcome, Round};

/// Nine entrants with their two ratings, and the previous winner and runner-up (the fixed
/// qualifiers, left out of the Swiss): seven in the Swiss, one bye a round.
fn entrants() -> serde_json::Value {
    let e: Vec<serde_json::Value> = [
        ("arimakat", 2450, 2500),
        ("Ogul1", 2300, 2380),
        ("alice", 2101, 2250),
        ("bob", 2050, 2100),
        ("carol", 1900, 2000),
        ("dave", 1890, 1990),
        ("erin", 1700, 1850),
        ("frank", 1650, 1700),
        ("grace", 1500, 1500),
    ]
    .iter()
    .map(|(p, c, k)| serde_json::json!({"player": p, "cutoff": c, "peak": k}))
    .collect();
    serde_json::json!({
        "entrants": e,
        "fixed": {"final": "arimakat", "candidates": ["Ogul1"]},
        "rounds": [],
    })
}

/// Three rounds as the rules pair them, the higher-ranked player winning each match.
fn played() -> Tournament {
    let mut t: Tournament = serde_json::from_value(entrants()).expect("tournament");
    for _ in 0..3 {
        let p = next_round(&t, &[]).expect("pairs");
        t.rounds.push(Round {
            withdrawn: Vec::new(),
            bye: p.bye.clone(),
            matches: p
                .pairs
                .iter()
                .map(|(a, b)| Match {
                    first: a.clone(),
                    second: b.clone(),
                    outcome: Some(Outcome::FirstWon),
                })
                .collect(),
        });
    }
    t
}

fn file(name: &str, t: &Tournament) -> String {
    let path =
        std::env::temp_dir().join(format!("chancery-acwc-{name}-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string(t).expect("json")).expect("write");
    path.display().to_string()
}

#[test]
fn acwc_pairing_details_pair_prints_the_transcript_and_check_agrees() {
    let t = played();
    let (code, out, err) = run(&["acwc", "check", &file("agrees", &t)], None);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("every pairing is as the rules give it"),
        "{out}"
    );
    assert!(out.contains("round 3: 3 pairs, bye"), "{out}");
    // The next round, from stdin: the ranking with its three keys, the bye and each step.
    let json = serde_json::to_string(&t).expect("json");
    let (code, out, err) = run(&["acwc", "pair"], Some(&json));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("alice"), "{out}");
    assert!(out.lines().count() > 10, "{out}");
    // A player withdrawn since the last round is not paired.
    let (code, out, _) = run(&["acwc", "pair", "--withdrawn", "grace"], Some(&json));
    assert_eq!(code, 0);
    let ranking_names_grace = out.lines().any(|l| l.contains("grace"));
    assert!(!ranking_names_grace, "{out}");
}

#[test]
fn acwc_pairing_details_check_finds_a_swapped_pair_in_its_round() {
    let mut t = played();
    // Swap the second players of round 2's first two matches.
    let r = &mut t.rounds[1];
    let second = r.matches[1].second.clone();
    r.matches[1].second = std::mem::replace(&mut r.matches[0].second, second);
    let (code, out, _) = run(&["acwc", "check", &file("swapped", &t)], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("round 2:"), "{out}");
    assert!(out.contains("expected"), "{out}");
}

/// The TD's commands of a stored championship at the console (ACWC "Player eligibility",
/// "Disqualification and withdrawals"): each answered as by mail; a refusal exits 1 with its
/// reason; `standings` prints where the championship stands.
#[test]
fn acwc_the_tds_commands_and_the_standings_at_the_console() {
    let (_, config) = cli::fresh_config("acwc-td");
    let (code, _, err) = run(
        &[
            "game",
            "create",
            "--config",
            &config,
            "--id",
            "acwc19",
            "--preset",
            "acwc2019",
            "--gm",
            "gm@example.test",
            "--confirm",
            "confirm@example.test",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(
        &[
            "acwc", "approve", "--config", &config, "--id", "acwc19", "nobody",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("APPROVE nobody: refused"), "{err}");
    let (code, _, err) = run(
        &[
            "acwc", "withdraw", "--config", &config, "--id", "acwc19", "nobody",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("WITHDRAW nobody: refused"), "{err}");
    let (code, _, err) = run(
        &[
            "acwc", "forfeit", "--config", &config, "--id", "acwc19", "nobody", "because",
        ],
        None,
    );
    assert_eq!(code, 2, "an unknown reason is no command: {err}");
    let (code, out, err) = run(
        &["acwc", "standings", "--config", &config, "--id", "acwc19"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Swiss round 0 of"), "{out}");
}
