//! Golden maps: each scene of `tests/scenes/` (a `chancery adjudicate` input; `datc-*` are DATC
//! v3.0 cases as `tests/datc/` transcribes them) is adjudicated,
//! drawn, and compared byte for byte with `tests/golden/<name>.svg`, and its PNG by SHA-256 with
//! `tests/golden/<name>.png.sha256`. `CHANCERY_BLESS=1` rewrites the golden files instead. The
//! PNGs are always written to `<target>/cartography-golden/` for a person to look at.

use chancery_cartography::{Geometry, Scene, decode_png, png, render};
use chancery_diplomacy::adjudicator::{Outcome, adjudicate};
use chancery_diplomacy::json::{PhaseInput, prepare};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Each scene, and what it must show: orders (canonical notation) with the class their
/// drawing carries, which names the outcome the adjudicator gave.
const SCENES: &[(&str, &[(&str, &str)])] = &[
    (
        "std-bounce",
        &[
            ("A VIE - TYR", "move failed"),
            ("A VEN - TYR", "move failed"),
        ],
    ),
    (
        "std-head-to-head",
        &[
            ("A BER - PRU", "move"),
            ("A PRU - BER", "move failed"),
            ("F KIE - BER", "move"),
            ("A SIL S A BER - PRU", "support-move"),
        ],
    ),
    (
        "std-supports-cut",
        &[
            ("A BUD S A SER", "support-hold failed"),
            ("A TRI S A SER", "support-hold"),
            ("A BUL - SER", "move failed"),
            ("A RUM S A BUL - SER", "support-move"),
            ("A SER H", "hold"),
        ],
    ),
    (
        "std-convoy",
        &[
            ("A NAP - TUN VIA CONVOY", "move"),
            ("F TYS C A NAP - TUN", "convoy"),
        ],
    ),
    (
        // Attacked and not dislodged, the convoying fleet still convoys: drawn succeeding.
        "std-convoy-attacked",
        &[
            ("F NTH C A LON - BEL", "convoy"),
            ("F HEL - NTH", "move failed"),
        ],
    ),
    (
        "std-dislodged",
        &[("A PAR - BUR", "move"), ("A VEN - TYR", "move")],
    ),
    (
        "std-retreat",
        &[("A BUR R MUN", "retreat"), ("A TYR D", "disband")],
    ),
    (
        "std-coasts",
        &[
            ("F MAO - SPA/NC", "move"),
            ("F GAS S F MAO - SPA/NC", "support-move"),
            ("F WES - SPA/SC", "move failed"),
            ("F BAR - STP/NC", "move"),
        ],
    ),
    (
        "std-adjustments",
        &[("BUILD F BRE", "build"), ("REMOVE A YOR", "disband")],
    ),
    (
        "std-opening",
        &[("A PAR - BUR", "move"), ("A MUN - BUR", "move failed")],
    ),
    (
        "mah-river-convoy",
        &[
            ("F MUL C A LAH - BIK", "convoy"),
            ("A LAH - BIK", "move"),
            ("A PES - MUL", "move failed"),
        ],
    ),
    (
        "mah-river-convoy-disrupted",
        &[
            ("F MUL C A LAH - BIK", "convoy failed"),
            ("A LAH - BIK", "move failed"),
        ],
    ),
    (
        "mah-sea-convoy",
        &[
            ("F ARS C A OMA - SIN", "convoy"),
            ("F HAD - ARS", "move failed"),
        ],
    ),
    // DATC v3.0 cases, their positions and orders as tests/datc/ transcribes them.
    (
        "datc-6a11",
        &[
            ("A VIE - TYR", "move failed"),
            ("A VEN - TYR", "move failed"),
        ],
    ),
    (
        // DATC 6.B.4: the support names the coast its supporter cannot reach.
        "datc-6b4",
        &[
            ("F GAS - SPA/NC", "move"),
            ("F MAR S F GAS - SPA/NC", "support-move"),
            ("F WES - SPA/SC", "move failed"),
        ],
    ),
    (
        "datc-6c3",
        &[
            ("F ANK - CON", "move failed"),
            ("A CON - SMY", "move failed"),
            ("A SMY - ANK", "move failed"),
            ("A BUL - CON", "move failed"),
        ],
    ),
    (
        "datc-6d1",
        &[
            ("F ADR S A TRI - VEN", "support-move"),
            ("A TRI - VEN", "move failed"),
            ("A TYR S A VEN", "support-hold"),
        ],
    ),
    (
        "datc-6d2",
        &[
            ("A TRI - VEN", "move"),
            ("A VIE - TYR", "move failed"),
            ("A TYR S A VEN", "support-hold failed"),
        ],
    ),
    (
        // DATC 6.E.1: the dislodged unit is set aside, its attacker's move drawn succeeding.
        "datc-6e1",
        &[
            ("A BER - PRU", "move"),
            ("F KIE - BER", "move"),
            ("A PRU - BER", "move failed"),
        ],
    ),
    (
        // DATC 6.F.6: a dislodged convoy, its army's move failing; Belgium's support cut.
        "datc-6f6",
        &[
            ("F NTH C A LON - HOL", "convoy failed"),
            ("A LON - HOL", "move failed"),
            ("A BEL S A HOL", "support-hold failed"),
            ("F SKA - NTH", "move"),
            ("A BUR S A PIC - BEL", "support-move"),
        ],
    ),
];

fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// Where the PNGs are left to look at: beside the test's scratch directory, in the target dir.
fn out_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).join("cartography-golden")
}

/// A scene file adjudicated and drawn: the SVG, the PNG, and each order with its outcome.
fn draw(name: &str) -> (String, Vec<u8>, Vec<(String, Outcome)>, bool) {
    let text = std::fs::read_to_string(here().join("scenes").join(format!("{name}.json")))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let input: PhaseInput = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let p = prepare(&input).unwrap_or_else(|e| panic!("{name}: {e}"));
    let adj = adjudicate(p.map, &p.rules, &p.board, &p.orders);
    let scene = Scene::adjudicated(p.map, &p.board, &adj);
    let (text, image) = render(&scene).unwrap_or_else(|e| panic!("{name}: {e}"));
    let orders = scene
        .orders
        .iter()
        .map(|d| (d.order.display(p.map).to_string(), d.outcome))
        .collect();
    let drawn = Geometry::for_variant(&input.variant).is_some_and(|g| !g.provinces.is_empty());
    (text, image, orders, drawn)
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a scene must show: each order's outcome as its class says, and that class drawn (on a
/// board whose geometry is there).
fn check_shows(name: &str, svg: &str, orders: &[(String, Outcome)], drawn: bool) -> Vec<String> {
    let mut wrong = Vec::new();
    let want = SCENES.iter().find(|s| s.0 == name).map_or(&[][..], |s| s.1);
    for (order, class) in want {
        let outcome = if class.ends_with(" failed") {
            Outcome::Fails
        } else {
            Outcome::Succeeds
        };
        match orders.iter().find(|o| o.0 == *order) {
            Some((_, got)) if *got == outcome => {}
            other => wrong.push(format!(
                "{name}: {order} should be {outcome:?}, is {other:?}"
            )),
        }
        if drawn && !svg.contains(&format!(r#"<g class="{class}""#)) {
            wrong.push(format!("{name}: no <g class=\"{class}\"> for {order}"));
        }
    }
    wrong
}

#[test]
fn every_scene_draws_as_its_golden_map() {
    let bless = std::env::var_os("CHANCERY_BLESS").is_some_and(|v| v == "1");
    let golden = here().join("golden");
    let out = out_dir();
    std::fs::create_dir_all(&out).expect("target dir");
    if bless {
        std::fs::create_dir_all(&golden).expect("golden dir");
    }
    let mut wrong = Vec::new();
    for (name, _) in SCENES {
        let (text, image, orders, drawn) = draw(name);
        std::fs::write(out.join(format!("{name}.png")), &image).expect("png written");
        std::fs::write(out.join(format!("{name}.svg")), &text).expect("svg written");
        wrong.extend(check_shows(name, &text, &orders, drawn));
        let (svg_file, sha_file) = (
            golden.join(format!("{name}.svg")),
            golden.join(format!("{name}.png.sha256")),
        );
        let sha = sha256(&image);
        if bless {
            std::fs::write(&svg_file, &text).expect("golden svg");
            std::fs::write(&sha_file, format!("{sha}\n")).expect("golden sha");
            continue;
        }
        match std::fs::read_to_string(&svg_file) {
            Ok(g) if g == text => {}
            Ok(_) => wrong.push(format!(
                "{name}: the SVG differs from {}",
                svg_file.display()
            )),
            Err(e) => wrong.push(format!("{name}: {}: {e}", svg_file.display())),
        }
        match std::fs::read_to_string(&sha_file) {
            Ok(g) if g.trim() == sha => {}
            Ok(g) => wrong.push(format!("{name}: PNG sha256 {sha}, golden {}", g.trim())),
            Err(e) => wrong.push(format!("{name}: {}: {e}", sha_file.display())),
        }
    }
    assert!(
        wrong.is_empty(),
        "{}\n(the PNGs are in {}; CHANCERY_BLESS=1 rewrites the golden files)",
        wrong.join("\n"),
        out.display()
    );
}

#[test]
fn a_full_standard_phase_stays_under_200_kb_as_png() {
    let (_, image, _, _) = draw("std-opening");
    assert!(image.len() <= 200 * 1024, "{} bytes", image.len());
}

#[test]
fn the_same_phase_draws_to_the_same_bytes_twice() {
    let (svg_a, png_a, _, _) = draw("std-opening");
    let (svg_b, png_b, _, _) = draw("std-opening");
    assert_eq!(svg_a, svg_b);
    assert_eq!(png_a, png_b);
}

/// The PNG a mail carries is drawn in layers (each board's own drawn once); it must show what
/// the whole SVG drawn at once shows: the same pixels but for the blends' rounding and the
/// palette's choice for a few edge pixels.
#[test]
fn the_layered_png_shows_the_pixels_of_the_whole_svg() {
    for (name, _) in SCENES {
        let (text, layered, _, _) = draw(name);
        let whole = png(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (w, h, a) = decode_png(&layered).expect("layered PNG");
        let (w2, h2, b) = decode_png(&whole).expect("whole PNG");
        assert_eq!((w, h), (w2, h2), "{name}: sizes");
        let mut differ = 0usize;
        let mut far = 0usize;
        for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
            let d = p
                .iter()
                .zip(q)
                .map(|(x, y)| x.abs_diff(*y))
                .max()
                .unwrap_or(0);
            differ += usize::from(d > 0);
            far += usize::from(d > 32);
        }
        let pixels = (w * h) as usize;
        // Measured on the standard opening: 3.2% of the pixels differ, 34 of them by more
        // than 32 (edge pixels the palette maps to another neighbour).
        assert!(
            differ * 100 <= pixels * 5,
            "{name}: {differ} of {pixels} pixels differ"
        );
        assert!(far <= 200, "{name}: {far} pixels differ by more than 32");
    }
}
