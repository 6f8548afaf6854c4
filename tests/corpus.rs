//! The .eml corpus (`tests/corpus/*.eml`, written for this project) read as the server reads it:
//! each file's `.expect.json` says what must be understood. See tests/corpus/README.md.

use chancery::adjudicator::Board;
use chancery::map::Map;
use chancery::orderset::{MailRead, RequestOut, read_mail};
use chancery::phase::{Phase, PhaseKind, Season};
use chancery::reader::ReadContext;
use chancery::rules::Rules;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    files.sort();
    files
}

fn read(eml: &Path, expect: &Value) -> MailRead {
    let map = Map::standard();
    let power = map
        .power_by_name(expect["power"].as_str().expect("power"))
        .expect("known power");
    let phase: Phase = expect["phase"]
        .as_str()
        .unwrap_or("S1901M")
        .parse()
        .expect("phase");
    let rules = Rules::preset(expect["preset"].as_str().unwrap_or("dpv2023")).expect("preset");
    let opening = Phase::new(Season::Spring, 1901, PhaseKind::Movement);
    let board = (phase == opening).then(|| Board::initial(map));
    let abbreviations = HashMap::new();
    let ctx = ReadContext {
        map,
        rules: &rules,
        power,
        phase: phase.kind,
        board: board.as_ref(),
        abbreviations: &abbreviations,
    };
    let mut raw = std::fs::read(eml).expect("eml");
    // Large messages are stored as their first lines; the body is padded here.
    if let Some(n) = expect["pad_to_bytes"].as_u64() {
        let line = b"Lorem ipsum dolor sit amet, the Lepanto opening is older than you think.\r\n";
        while (raw.len() as u64) < n {
            raw.extend_from_slice(line);
        }
    }
    read_mail(&ctx, &raw)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn check(name: &str, got: &MailRead, expect: &Value) -> Vec<String> {
    let mut bad = Vec::new();
    let mut fail = |m: String| bad.push(format!("{name}: {m}"));
    if let Some(e) = expect["message_error"].as_str() {
        if !got.error.as_deref().is_some_and(|x| x.contains(e)) {
            fail(format!("expected message error '{e}', got {:?}", got.error));
        }
        return bad;
    }
    if let Some(e) = &got.error {
        fail(format!("unexpected message error: {e}"));
    }
    if let Some(a) = expect["auto"].as_str() {
        if got.auto.map(|k| k.as_str()) != Some(a) {
            fail(format!("expected auto '{a}', got {:?}", got.auto));
        }
        if !got.orders.is_empty() {
            fail("automatic mail must not be read for orders".into());
        }
        return bad;
    }
    if got.auto.is_some() {
        fail(format!("read as automatic mail ({:?})", got.auto));
    }
    if expect.get("orders").is_some() {
        let want = strings(&expect["orders"]);
        let have: Vec<String> = got
            .orders
            .iter()
            .filter(|l| l.status == "ok" || l.status == "warning")
            .filter_map(|l| l.order.clone())
            .collect();
        if want != have {
            fail(format!(
                "orders\n   expected {want:?}\n   got      {have:?}\n   lines    {:?}",
                got.orders
                    .iter()
                    .map(|l| format!(
                        "{}:{} [{}] {}",
                        l.line,
                        l.text,
                        l.status,
                        l.message.clone().unwrap_or_default()
                    ))
                    .collect::<Vec<_>>()
            ));
        }
    }
    let with_status = |st: &str| -> Vec<String> {
        got.orders
            .iter()
            .filter(|l| l.status == st)
            .map(|l| format!("{} {}", l.text, l.message.clone().unwrap_or_default()))
            .collect()
    };
    for w in strings(&expect["warnings"]) {
        if !with_status("warning").iter().any(|x| x.contains(&w)) {
            fail(format!(
                "no warning mentions '{w}': {:?}",
                with_status("warning")
            ));
        }
    }
    let mut errors = with_status("error");
    errors.extend(got.errors.iter().map(|n| format!("{} {}", n.text, n.why)));
    for e in strings(&expect["errors"]) {
        if !errors.iter().any(|x| x.contains(&e)) {
            fail(format!("no error mentions '{e}': {errors:?}"));
        }
    }
    for i in strings(&expect["ignored"]) {
        if !got.ignored.iter().any(|n| n.text.contains(&i)) {
            fail(format!(
                "no ignored line mentions '{i}': {:?}",
                got.ignored.iter().map(|n| &n.text).collect::<Vec<_>>()
            ));
        }
    }
    // Text the player wrote that must be read (as an order, a heading or a list marker): no
    // ignored line and no line in error holds it.
    for n in strings(&expect["not_ignored"]) {
        let ignored: Vec<&String> = got
            .ignored
            .iter()
            .map(|i| &i.text)
            .filter(|t| t.contains(&n))
            .collect();
        let broken: Vec<&String> = got
            .orders
            .iter()
            .filter(|l| l.status == "error")
            .map(|l| &l.text)
            .filter(|t| t.contains(&n))
            .collect();
        if !ignored.is_empty() || !broken.is_empty() {
            fail(format!(
                "'{n}' must be read: ignored {ignored:?}, in error {broken:?}"
            ));
        }
    }
    if let Some(f) = expect["final"].as_bool()
        && f != got.final_
    {
        fail(format!("final: expected {f}, got {}", got.final_));
    }
    if let Some(press) = expect["press"].as_array() {
        if press.len() != got.press.len() {
            fail(format!(
                "press: expected {} blocks, got {}",
                press.len(),
                got.press.len()
            ));
        }
        for (want, have) in press.iter().zip(&got.press) {
            let to = strings(&want["to"]);
            if !to.is_empty() && to != have.to {
                fail(format!("press to: expected {to:?}, got {:?}", have.to));
            }
            if let Some(g) = want["grey"].as_bool()
                && g != have.grey
            {
                fail(format!("press grey: expected {g}"));
            }
            if let Some(b) = want["body_contains"].as_str()
                && !have.body.contains(b)
            {
                fail(format!("press body lacks '{b}': {:?}", have.body));
            }
        }
    }
    if let Some(votes) = expect["votes"].as_array() {
        let have: Vec<(String, String)> = got
            .votes
            .iter()
            .map(|v| (v.proposal.to_uppercase(), v.vote.to_string()))
            .collect();
        let want: Vec<(String, String)> = votes
            .iter()
            .map(|v| {
                (
                    v["proposal"].as_str().unwrap_or("").to_uppercase(),
                    v["vote"].as_str().unwrap_or("").to_lowercase(),
                )
            })
            .collect();
        if want != have {
            fail(format!("votes: expected {want:?}, got {have:?}"));
        }
    }
    if let Some(reqs) = expect["requests"].as_array() {
        if reqs.len() != got.requests.len() {
            fail(format!(
                "requests: expected {}, got {:?}",
                reqs.len(),
                got.requests
            ));
        }
        for (want, have) in reqs.iter().zip(&got.requests) {
            let ok = match have {
                RequestOut::Extension { days, .. } => {
                    want["kind"] == "extension" && want["days"].as_u64() == Some(u64::from(*days))
                }
                RequestOut::Unavailable { from, to, .. } => {
                    want["kind"] == "unavailable"
                        && want["from"].as_str().is_some_and(|f| from.starts_with(f))
                        && want["to"].as_str().is_some_and(|t| to.starts_with(t))
                }
                RequestOut::HolidayExtension { .. } => want["kind"] == "holiday_extension",
                RequestOut::Weekly { .. } => want["kind"] == "weekly",
                RequestOut::Abbreviations { .. } => want["kind"] == "abbreviations",
                RequestOut::Conditional { .. } => want["kind"] == "conditional",
            };
            if !ok {
                fail(format!("request: expected {want}, got {have:?}"));
            }
        }
    }
    for a in strings(&expect["attachments"]) {
        if !got.attachments.iter().any(|x| x.contains(&a)) {
            fail(format!("attachment '{a}' not named: {:?}", got.attachments));
        }
    }
    bad
}

#[test]
fn corpus_is_read_as_expected() {
    let files = corpus();
    assert!(
        files.len() >= 60,
        "the corpus has {} files; at least 60 are wanted",
        files.len()
    );
    let mut failures = Vec::new();
    for eml in &files {
        let expect_path = eml.with_extension("expect.json");
        let expect: Value = serde_json::from_str(
            &std::fs::read_to_string(&expect_path)
                .unwrap_or_else(|e| panic!("{}: {e}", expect_path.display())),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", expect_path.display()));
        let name = eml
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let got = read(eml, &expect);
        failures.extend(check(&name, &got, &expect));
    }
    if !failures.is_empty() {
        panic!(
            "{} corpus failures:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

#[test]
fn crlf_and_lf_copies_read_the_same() {
    // Every LF file, rewritten with CRLF line endings, is understood identically.
    for eml in corpus() {
        let raw = std::fs::read(&eml).expect("eml");
        if raw.windows(2).any(|w| w == b"\r\n") || raw.len() > 1_000_000 {
            continue;
        }
        let expect: Value = serde_json::from_str(
            &std::fs::read_to_string(eml.with_extension("expect.json")).expect("expect"),
        )
        .expect("json");
        let crlf: Vec<u8> = raw
            .iter()
            .flat_map(|b| {
                if *b == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![*b]
                }
            })
            .collect();
        let dir = std::env::temp_dir().join(format!("chancery-crlf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp");
        let copy = dir.join(eml.file_name().expect("name"));
        std::fs::write(&copy, &crlf).expect("write");
        let a = read(&eml, &expect);
        let b = read(&copy, &expect);
        assert_eq!(a.orders, b.orders, "{}", eml.display());
        assert_eq!(a.press.len(), b.press.len(), "{}", eml.display());
        let _ = std::fs::remove_file(&copy);
    }
}
