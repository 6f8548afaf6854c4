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
    assert!(inputs.len() >= 3, "the documented examples");
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
