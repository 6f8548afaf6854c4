//! `chancery score` against its documented contract (docs/score.md): every example in
//! `docs/examples/score/` gives its recorded output, and bad input is a clear error.

#[path = "common/cli.rs"]
mod cli;
use std::path::Path;

fn run(args: &[&str]) -> (i32, String, String) {
    cli::run(args, None)
}

#[test]
fn every_documented_score_example_gives_its_recorded_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/score");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("docs/examples/score")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !p.to_string_lossy().ends_with(".out.json")
        })
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 7, "the documented examples");
    for input in inputs {
        let path = input.to_string_lossy().to_string();
        let (code, out, err) = run(&["score", &path]);
        assert_eq!(code, 0, "{path}: {err}");
        let got: serde_json::Value = serde_json::from_str(&out).expect("JSON out");
        let want: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(input.with_extension("out.json")).expect("recorded"),
        )
        .expect("recorded JSON");
        assert_eq!(got, want, "{path}");
    }
}

#[test]
fn wm_c_14_the_worked_example_through_the_contract() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/examples/score/01-wm-replacement-solo.json")
        .to_string_lossy()
        .to_string();
    let (_, out, _) = run(&["score", &path]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let france = &v["powers"][0];
    assert_eq!(france["power"], "FRANCE");
    assert_eq!(france["score"], 66.0);
    assert_eq!(france["players"][0]["score"], 44.0, "Wendy");
    assert_eq!(france["players"][1]["score"], 22.0, "Fred");
}

#[test]
fn bad_input_is_a_specific_error() {
    let dir = std::env::temp_dir().join(format!("chancery-score-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let f = dir.join("bad.json");
    std::fs::write(
        &f,
        r#"{"rulebook": "wm2004", "start_year": 1901, "final_year": 1909, "ended_after": "F1909M",
            "end": "solo", "centres": {"FRANCE": 18}}"#,
    )
    .expect("write");
    let (code, _, err) = run(&["score", &f.to_string_lossy()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("a solo needs its winner"), "{err}");
}

/// The recorded output of a documented example, as `chancery score` prints it.
fn example(name: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/examples/score")
        .join(name)
        .to_string_lossy()
        .to_string();
    let (code, out, err) = run(&["score", &path]);
    assert_eq!(code, 0, "{path}: {err}");
    serde_json::from_str(&out).expect("json")
}

fn power<'v>(v: &'v serde_json::Value, name: &str) -> &'v serde_json::Value {
    v["powers"]
        .as_array()
        .and_then(|a| a.iter().find(|p| p["power"] == name))
        .unwrap_or_else(|| panic!("{name} in {v}"))
}

#[test]
fn wm_d_ix_4_and_c_14_a_draw_leaving_out_survivors_and_a_one_turn_stand_in() {
    let v = example("05-wm-draw-leaving-out-a-survivor.json");
    // D.IX(4): Italy (5) and Russia (3), left out of the draw, are presumed eliminated.
    for left_out in ["ITALY", "RUSSIA"] {
        assert_eq!(power(&v, left_out)["score"], 0.0, "{left_out}");
    }
    assert_eq!(power(&v, "GERMANY")["score"], 15.0, "third of three: 7 + 8");
    // C.14: ann, stood in for one counted turn (the Winter 1903 builds and Spring 1904), keeps
    // France's full 42; ben, stood in for two, is pro-rated (25 x 16 / 18).
    let ann: f64 = power(&v, "FRANCE")["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter(|p| p["name"] == "ann")
        .map(|p| p["score"].as_f64().expect("score"))
        .sum();
    assert!((ann - 42.0).abs() < 0.01, "{ann}");
    let ben: f64 = power(&v, "ENGLAND")["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter(|p| p["name"] == "ben")
        .map(|p| p["score"].as_f64().expect("score"))
        .sum();
    assert!((ben - 25.0 * 16.0 / 18.0).abs() < 0.01, "{ben}");
}

#[test]
fn maharajiad_a_10_b_x_1_a_final_without_a_final_year_ended_by_a_stalemate() {
    // A.10: the final has no final year; it stopped after Fall 1516 by B.X(1). A.23: its 32
    // movement turns played are the game's, 16 each to amy and rex.
    let v = example("06-maharajiad-final-without-final-year.json");
    assert_eq!(v["seasons"], 32);
    let delhi = &power(&v, "DELHI")["players"];
    for stint in [&delhi[0], &delhi[1]] {
        assert_eq!(stint["seasons"], 16, "{delhi}");
        assert_eq!(stint["score"], 6.0, "12 x 16 / 32: {delhi}");
    }
}

#[test]
fn wm_b_4_a_small_tournament_plays_its_semi_final_in_round_two() {
    // Two teams (fewer than 42): round two is the semi-final (C.9: the board's best goes on)
    // and the team competition is round one's (the Lions' big round two does not count).
    let v = example("07-wm-small-tournament-semi-final.json");
    assert_eq!(v["advancing"], serde_json::json!(["ben"]));
    assert_eq!(v["team_winner"], "Tigers");
    assert_eq!(v["teams"][0]["score"], 97.0);
}

#[test]
fn a_game_that_contradicts_itself_is_refused() {
    let dir = std::env::temp_dir().join(format!("chancery-score-c4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let f = dir.join("played-solo.json");
    // WM C.4: 18 centres is a solo, never a played game scoring 18 plus a bonus.
    std::fs::write(
        &f,
        r#"{"rulebook": "wm2004", "start_year": 1901, "final_year": 1909, "ended_after": "F1909M",
            "end": "played", "centres": {"FRANCE": 18, "ENGLAND": 6}}"#,
    )
    .expect("write");
    let (code, _, err) = run(&["score", &f.to_string_lossy()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("that is a solo (WM C.4)"), "{err}");
    // WM B.3: nothing is played after the final year.
    std::fs::write(
        &f,
        r#"{"rulebook": "wm2004", "seed": "s", "round": 1, "games": [{"round": 1, "board": 3,
            "start_year": 1901, "final_year": 1909, "ended_after": "F1910M", "end": "played",
            "centres": {"FRANCE": 8}, "players": {"FRANCE": [{"name": "a", "from": "S1901M"}]}}]}"#,
    )
    .expect("write");
    let (code, _, err) = run(&["score", &f.to_string_lossy()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("board 3: ended_after F1910M is after the final year 1909"),
        "{err}"
    );
}

#[test]
fn wm_b_4_a_round_without_teams_sends_on_half_its_players() {
    // Two boards and no entrants (so no teams): 14 players, 28 boards would be more than one
    // half, so one half advance: 7.
    let board = |b: u32, tag: &str| {
        let powers = [
            "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
        ];
        let centres = [10, 8, 6, 4, 3, 2, 1];
        serde_json::json!({
            "round": 1, "board": b, "start_year": 1901, "final_year": 1909,
            "ended_after": "F1909M", "end": "played",
            "centres": powers.iter().zip(centres).map(|(p, c)| (p.to_string(), c.into()))
                .collect::<serde_json::Map<String, serde_json::Value>>(),
            "players": powers.iter().map(|p| (p.to_string(),
                serde_json::json!([{"name": format!("{p}{tag}"), "from": "S1901M"}])))
                .collect::<serde_json::Map<_, _>>(),
        })
    };
    let round = serde_json::json!({
        "rulebook": "wm2004", "seed": "s", "round": 1,
        "games": [board(1, "1"), board(2, "2")],
    });
    let dir = std::env::temp_dir().join(format!("chancery-score-b4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let f = dir.join("round.json");
    std::fs::write(&f, round.to_string()).expect("write");
    let (code, out, err) = run(&["score", &f.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["advancing"].as_array().map(Vec::len), Some(7), "{v}");
}
