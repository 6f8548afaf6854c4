//! The 164 chapter-6 cases of DATC v3.0, transcribed in `tests/datc/*.txt` (format in
//! `tests/datc/FORMAT.md`), run against the adjudicator. Every order's outcome is asserted, and
//! the positions and dislodgements the DATC text states.

use chancery::adjudicator::{Adjudication, Board, Dislodged, Outcome, adjudicate};
use chancery::map::{Location, Map, Power, Unit, UnitType};
use chancery::order::{Order, parse_order};
use chancery::phase::Phase;
use chancery::rules::Rules;

const FILES: &[(&str, &str, usize)] = &[
    ("6a", include_str!("datc/6a.txt"), 12),
    ("6b", include_str!("datc/6b.txt"), 15),
    ("6c", include_str!("datc/6c.txt"), 9),
    ("6d", include_str!("datc/6d.txt"), 34),
    ("6e", include_str!("datc/6e.txt"), 15),
    ("6f", include_str!("datc/6f.txt"), 25),
    ("6g", include_str!("datc/6g.txt"), 20),
    ("6h", include_str!("datc/6h.txt"), 16),
    ("6i", include_str!("datc/6i.txt"), 7),
    ("6j", include_str!("datc/6j.txt"), 11),
];

#[derive(Debug)]
enum Expect {
    Dislodged(Unit),
    Unit(Unit),
    Empty(chancery::map::Province),
    Disbanded(Unit),
}

struct Block {
    phase: Phase,
    units: Vec<Unit>,
    centers: Vec<(Power, chancery::map::Province)>,
    dislodged: Vec<Dislodged>,
    contested: Vec<chancery::map::Province>,
    orders: Vec<(Power, Order, Option<String>, String)>,
    expects: Vec<Expect>,
}

struct Case {
    id: String,
    rules: String,
    blocks: Vec<Block>,
}

fn power(map: &Map, s: &str) -> Power {
    map.power_by_name(s)
        .unwrap_or_else(|| panic!("unknown power {s}"))
}

fn unit(map: &Map, p: &str, t: &str, loc: &str) -> Unit {
    let unit_type = match t {
        "A" => UnitType::Army,
        "F" => UnitType::Fleet,
        _ => panic!("bad unit type {t}"),
    };
    let (province, coast) = map
        .parse_location(loc)
        .unwrap_or_else(|| panic!("bad location {loc}"));
    Unit {
        power: power(map, p),
        unit_type,
        location: Location { province, coast },
    }
}

fn block(cur: &mut Option<Case>, n: usize) -> &mut Block {
    cur.as_mut()
        .and_then(|c| c.blocks.last_mut())
        .unwrap_or_else(|| panic!("line {}: outside a phase block", n + 1))
}

fn parse_cases(map: &Map, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut cur: Option<Case> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        let ctx = || format!("line {}: {line}", n + 1);
        match w[0] {
            "case" => {
                cur = Some(Case {
                    id: w[1].to_string(),
                    rules: "dpv2023".into(),
                    blocks: Vec::new(),
                })
            }
            "rules" => cur.as_mut().unwrap().rules = w[1].to_string(),
            "phase" => cur.as_mut().unwrap().blocks.push(Block {
                phase: w[1].parse().unwrap_or_else(|e| panic!("{}: {e}", ctx())),
                units: Vec::new(),
                centers: Vec::new(),
                dislodged: Vec::new(),
                contested: Vec::new(),
                orders: Vec::new(),
                expects: Vec::new(),
            }),
            "unit" => {
                let b = block(&mut cur, n);
                b.units.push(unit(map, w[1], w[2], w[3]));
            }
            "center" => {
                let b = block(&mut cur, n);
                let p = map.province_by_code(w[2]).unwrap();
                b.centers.push((power(map, w[1]), p));
            }
            "dislodged" => {
                let b = block(&mut cur, n);
                b.dislodged.push(Dislodged {
                    unit: unit(map, w[1], w[2], w[3]),
                    attacker_from: map.province_by_code(w[4]).unwrap(),
                    by_convoy: false,
                });
            }
            "contested" => {
                let b = block(&mut cur, n);
                b.contested.push(map.province_by_code(w[1]).unwrap());
            }
            "order" => {
                let b = block(&mut cur, n);
                let rest = line["order".len()..].trim();
                let (lhs, expect) = rest
                    .split_once("=>")
                    .unwrap_or_else(|| panic!("{}: no =>", ctx()));
                let lhs = lhs.trim();
                let (p, o) = lhs.split_once(' ').unwrap();
                let order = parse_order(map, o).unwrap_or_else(|e| panic!("{}: {e}", ctx()));
                let expect = expect.trim();
                let expect = if expect == "-" {
                    None
                } else {
                    Some(expect.to_string())
                };
                b.orders.push((power(map, p), order, expect, o.to_string()));
            }
            "expect-dislodged" | "expect-unit" | "expect-disbanded" => {
                let b = block(&mut cur, n);
                let u = unit(map, w[1], w[2], w[3]);
                b.expects.push(match w[0] {
                    "expect-dislodged" => Expect::Dislodged(u),
                    "expect-unit" => Expect::Unit(u),
                    _ => Expect::Disbanded(u),
                });
            }
            "expect-empty" => {
                let b = block(&mut cur, n);
                b.expects
                    .push(Expect::Empty(map.province_by_code(w[1]).unwrap()));
            }
            "deviation" => {}
            "end" => cases.push(cur.take().unwrap_or_else(|| panic!("{}: stray end", ctx()))),
            d => panic!("{}: unknown directive {d}", ctx()),
        }
    }
    assert!(cur.is_none(), "unterminated case");
    cases
}

fn same_unit(a: &Unit, b: &Unit) -> bool {
    a.power == b.power
        && a.unit_type == b.unit_type
        && a.location.province == b.location.province
        && (a.location.coast.is_none()
            || b.location.coast.is_none()
            || a.location.coast == b.location.coast)
}

fn run_case(map: &Map, case: &Case) -> Vec<String> {
    let rules = Rules::preset(&case.rules).unwrap();
    let mut failures = Vec::new();
    let mut board: Option<Board> = None;
    // Units disbanded so far in the case: a unit with no retreat is disbanded as the movement
    // phase ends, and the retreat phase is skipped.
    let mut disbanded: Vec<Unit> = Vec::new();
    for block in &case.blocks {
        let mut b = match board.take() {
            Some(mut prev) => {
                prev.phase = block.phase;
                prev
            }
            None => Board::initial(map),
        };
        if case.blocks.first().map(|f| std::ptr::eq(f, block)) == Some(true) {
            b.units.clear();
            b.phase = block.phase;
        }
        b.units.extend(block.units.iter().copied());
        for (p, c) in &block.centers {
            b.owners[c.0 as usize] = Some(*p);
        }
        b.dislodged.extend(block.dislodged.iter().cloned());
        b.contested.extend(block.contested.iter().copied());
        let orders: Vec<(Power, Order)> = block
            .orders
            .iter()
            .map(|(p, o, _, _)| (*p, o.clone()))
            .collect();
        let adj: Adjudication = adjudicate(map, &rules, &b, &orders);
        disbanded.extend(adj.disbanded.iter().copied());
        for ((_, _, expect, text), r) in block.orders.iter().zip(&adj.results) {
            let Some(expect) = expect else { continue };
            let ok = matches!(
                (expect.as_str(), r.outcome),
                ("succeeds", Outcome::Succeeds)
                    | ("fails", Outcome::Fails | Outcome::Invalid)
                    | ("invalid", Outcome::Invalid)
            );
            if !ok {
                failures.push(format!(
                    "{} {}: '{}' expected {}, got {} ({:?}{})",
                    case.id,
                    block.phase,
                    text,
                    expect,
                    r.outcome.as_str(),
                    r.reason.map(|x| x.as_str()),
                    r.note
                        .as_deref()
                        .map(|n| format!(": {n}"))
                        .unwrap_or_default()
                ));
            }
        }
        for e in &block.expects {
            let ok = match e {
                Expect::Dislodged(u) => {
                    adj.retreats.iter().any(|r| same_unit(&r.dislodged.unit, u))
                }
                Expect::Unit(u) => adj.next.units.iter().any(|x| same_unit(x, u)),
                Expect::Empty(p) => adj.next.units.iter().all(|x| x.location.province != *p),
                Expect::Disbanded(u) => disbanded.iter().any(|x| same_unit(x, u)),
            };
            if !ok {
                failures.push(format!(
                    "{} {}: expectation {:?} does not hold",
                    case.id, block.phase, e
                ));
            }
        }
        board = Some(adj.next);
    }
    failures
}

fn run_section(name: &str) {
    let map = Map::standard();
    let (_, text, count) = FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .unwrap_or_else(|| panic!("no section {name}"));
    let cases = parse_cases(map, text);
    assert_eq!(cases.len(), *count, "{name}: case count");
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let want = format!("6.{}.{}", name[1..].to_uppercase(), i + 1);
        assert_eq!(c.id, want, "{name}: cases out of order");
        failures.extend(run_case(map, c));
    }
    if !failures.is_empty() {
        panic!("{} DATC failures:\n{}", failures.len(), failures.join("\n"));
    }
}

#[test]
fn all_164_cases_are_transcribed() {
    let map = Map::standard();
    let total: usize = FILES
        .iter()
        .map(|(_, t, _)| parse_cases(map, t).len())
        .sum();
    assert_eq!(total, 164);
}

macro_rules! section {
    ($($f:ident),*) => { $( #[test] fn $f() { run_section(stringify!($f).trim_start_matches("section_")); } )* };
}

section!(
    section_6a, section_6b, section_6c, section_6d, section_6e, section_6f, section_6g, section_6h,
    section_6i, section_6j
);
