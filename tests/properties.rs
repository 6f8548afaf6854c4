//! Property tests over the message reader, the order reader and the canonical notation: no panic
//! on any input, and what is written canonically is read back as the same order.

use chancery::adjudicator::Board;
use chancery::map::{Location, Map, Power, Province, UnitType};
use chancery::message::read_message;
use chancery::order::{Order, UnitRef, parse_order};
use chancery::orderset::read_mail;
use chancery::phase::PhaseKind;
use chancery::reader::{ReadContext, Status, read_line, read_order};
use chancery::rules::Rules;
use proptest::prelude::*;
use std::collections::HashMap;

fn ctx<'a>(
    rules: &'a Rules,
    board: Option<&'a Board>,
    abbreviations: &'a HashMap<String, Province>,
    phase: PhaseKind,
) -> ReadContext<'a> {
    let map = Map::standard();
    ReadContext {
        map,
        rules,
        power: Power(2),
        phase,
        board,
        abbreviations,
    }
}

fn without_nationality(mut o: Order) -> Order {
    match &mut o {
        Order::Hold { unit }
        | Order::Move { unit, .. }
        | Order::Retreat { unit, .. }
        | Order::Disband { unit }
        | Order::Remove { unit } => unit.nationality = None,
        Order::SupportHold { unit, target } | Order::SupportMove { unit, target, .. } => {
            unit.nationality = None;
            target.nationality = None;
        }
        Order::Convoy { unit, army, .. } => {
            unit.nationality = None;
            army.nationality = None;
        }
        Order::Build { .. } | Order::Waive => {}
    }
    o
}

/// The forgiving reader returns the written order, except that a fleet's missing coast is filled
/// in when only one is reachable, and refused as ambiguous when two are.
fn read_back_ok(written: &Order, read: &chancery::reader::Verdict) -> bool {
    let map = Map::standard();
    match (&read.order, written) {
        (Some(got), _) if got == written => true,
        (
            Some(Order::Move {
                unit: gu,
                dest: gd,
                dest_coast: Some(c),
                via_convoy: gv,
                route: gr,
            }),
            Order::Move {
                unit,
                dest,
                dest_coast: None,
                via_convoy,
                route,
            },
        ) => {
            gu == unit
                && gd == dest
                && gv == via_convoy
                && gr == route
                && map.fleet_adjacent(
                    Location {
                        province: unit.province,
                        coast: unit.coast,
                    },
                    Location::with_coast(*dest, *c),
                )
        }
        (
            None,
            Order::Move {
                dest_coast: None, ..
            },
        ) => read
            .message
            .as_deref()
            .is_some_and(|m| m.contains("is ambiguous for a fleet")),
        _ => false,
    }
}

/// Words players use, and the map's codes and names, to make token soups that get deep into the
/// grammar rather than failing on the first word.
fn vocabulary() -> Vec<String> {
    let map = Map::standard();
    let mut v: Vec<String> = [
        "A", "F", "army", "fleet", "-", "->", "to", "moves", "S", "supports", "C", "convoys", "H",
        "holds", "via", "convoy", "by", "R", "D", "disband", "build", "remove", "waive", "/", "(",
        ")", "nc", "sc", "north", "coast", "Russian", "French", "1.", ",", "FINAL",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for p in &map.provinces {
        v.push(p.code.clone());
        v.push(p.name.clone());
    }
    v
}

/// A random legal-looking order on the standard map: a unit of either type somewhere it can
/// stand, and a move, support, convoy or hold.
fn any_order() -> impl Strategy<Value = Order> {
    let map = Map::standard();
    let n = map.province_count() as u8;
    (0..n, 0..n, 0..n, 0u8..6, any::<bool>()).prop_map(move |(a, b, c, kind, fleet)| {
        let map = Map::standard();
        let pa = Province(a);
        let unit_type = if map.is_sea(pa) || (fleet && map.is_coastal(pa)) {
            UnitType::Fleet
        } else {
            UnitType::Army
        };
        let coast = if unit_type == UnitType::Fleet {
            map.info(pa).coasts.first().copied()
        } else {
            None
        };
        let unit = UnitRef {
            unit_type: Some(unit_type),
            province: pa,
            coast,
            nationality: None,
        };
        let other = UnitRef::new(Some(UnitType::Army), Province(b));
        match kind {
            0 => Order::Hold { unit },
            1 | 2 => Order::Move {
                unit,
                dest: Province(b),
                dest_coast: None,
                via_convoy: kind == 2,
                route: Vec::new(),
            },
            3 => Order::SupportHold {
                unit,
                target: other,
            },
            4 => Order::SupportMove {
                unit,
                target: other,
                dest: Province(c),
                dest_coast: None,
            },
            _ => Order::Convoy {
                unit,
                army: other,
                dest: Province(c),
            },
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn message_reader_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..3000)) {
        let _ = read_message(&bytes);
    }

    #[test]
    fn message_reader_keeps_no_quoted_line(
        lines in proptest::collection::vec(("[ >]?", "[A-Za-z -]{0,20}"), 0..30)
    ) {
        let mut raw = String::from("From: p@x.test\r\nSubject: s\r\n\r\n");
        for (q, t) in &lines {
            raw.push_str(q);
            raw.push_str(t);
            raw.push_str("\r\n");
        }
        let m = read_message(raw.as_bytes()).expect("a plain message is readable");
        let mut last = 0;
        for l in &m.lines {
            prop_assert!(!l.text.trim_start().starts_with('>'));
            prop_assert!(l.number > last);
            last = l.number;
        }
    }

    #[test]
    fn order_reader_never_panics_on_any_text(line in "\\PC{0,80}") {
        let rules = Rules::default();
        let abbr = HashMap::new();
        let map = Map::standard();
        let board = Board::initial(map);
        for phase in [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment] {
            let _ = read_order(&ctx(&rules, Some(&board), &abbr, phase), &line);
            let _ = read_order(&ctx(&rules, None, &abbr, phase), &line);
        }
        let _ = parse_order(map, &line);
    }

    #[test]
    fn order_reader_never_panics_on_token_soup(picks in proptest::collection::vec(0usize..200, 0..12)) {
        let vocab = vocabulary();
        let line: Vec<&str> = picks.iter().map(|i| vocab[i % vocab.len()].as_str()).collect();
        let line = line.join(" ");
        let rules = Rules::preset("maharajiad").expect("preset");
        let abbr = HashMap::new();
        let map = Map::standard();
        let board = Board::initial(map);
        for phase in [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment] {
            let v = read_order(&ctx(&rules, Some(&board), &abbr, phase), &line);
            // Whatever was understood is written canonically and reads back the same.
            // (The canonical form carries no nationality, by design.)
            if let Some(o) = v.order {
                let text = o.display(map).to_string();
                prop_assert_eq!(parse_order(map, &text).ok(), Some(without_nationality(o)), "{}", text);
            }
        }
    }

    #[test]
    fn several_orders_on_a_list_line_read_as_each_alone(
        orders in proptest::collection::vec(any_order(), 2..5),
        markers in proptest::collection::vec(
            prop::sample::select(vec!["", "1) ", "2. ", "(3) ", "a) ", "(b) ", "iv) ", "- ", "* ", "\u{2022} "]),
            5,
        ),
        separator in prop::sample::select(vec![", ", "; ", ",", " ; "]),
    ) {
        // Issue 10, point 5: orders in a list, several to a line, are read as each alone.
        let rules = Rules::default();
        let abbr = HashMap::new();
        let map = Map::standard();
        let context = ctx(&rules, None, &abbr, PhaseKind::Movement);
        let texts: Vec<String> = orders.iter().map(|o| o.display(map).to_string()).collect();
        let alone: Vec<_> = texts.iter().map(|t| read_order(&context, t)).collect();
        prop_assume!(alone.iter().all(|v| v.status != Status::Error));
        let line: Vec<String> = texts
            .iter()
            .zip(&markers)
            .map(|(t, m)| format!("{m}{t}"))
            .collect();
        let line = line.join(separator);
        let parts = read_line(&context, &line);
        let got: Vec<_> = parts.iter().map(|p| p.verdict.order.clone()).collect();
        let want: Vec<_> = alone.iter().map(|v| v.order.clone()).collect();
        prop_assert_eq!(got, want, "{}", line);
    }

    #[test]
    fn canonical_notation_round_trips(order in any_order()) {
        let map = Map::standard();
        let text = order.display(map).to_string();
        prop_assert_eq!(parse_order(map, &text), Ok(order.clone()), "{}", text);
        // The forgiving reader understands the canonical notation too (without a board it
        // cannot fill in coasts or check units, so it keeps exactly what was written).
        let rules = Rules::default();
        let abbr = HashMap::new();
        let v = read_order(&ctx(&rules, None, &abbr, PhaseKind::Movement), &text);
        prop_assert!(read_back_ok(&order, &v), "{} read as {:?}", text, v);
    }

    #[test]
    fn full_names_read_as_codes(order in any_order()) {
        let map = Map::standard();
        let text = order.display(map).to_string();
        // Replace every code by the province's full name, as a player might write it.
        let spelled: Vec<String> = text
            .split(' ')
            .map(|w| {
                let (p, c) = w.split_once('/').map_or((w, None), |(p, c)| (p, Some(c)));
                match map.province_by_code(p) {
                    Some(x) => match c {
                        Some(c) => format!("{} ({c})", map.info(x).name),
                        None => map.info(x).name.clone(),
                    },
                    None => w.to_string(),
                }
            })
            .collect();
        let spelled = spelled.join(" ");
        let rules = Rules::default();
        let abbr = HashMap::new();
        let v = read_order(&ctx(&rules, None, &abbr, PhaseKind::Movement), &spelled);
        prop_assert!(read_back_ok(&order, &v), "{} read as {:?}", spelled, v);
    }

    #[test]
    fn whole_mail_never_panics(body in proptest::collection::vec("\\PC{0,40}", 0..20)) {
        let raw = format!("From: p@x.test\nSubject: wm1 FRANCE S1901M\n\n{}", body.join("\n"));
        let rules = Rules::default();
        let abbr = HashMap::new();
        let map = Map::standard();
        let board = Board::initial(map);
        let _ = read_mail(&ctx(&rules, Some(&board), &abbr, PhaseKind::Movement), raw.as_bytes());
    }

    #[test]
    fn adjudicate_json_never_panics(text in "\\PC{0,200}") {
        let _ = chancery::json::adjudicate_json(&text);
    }
}

#[test]
fn locations_of_every_province_parse() {
    let map = Map::standard();
    for p in map.all_provinces() {
        let info = map.info(p);
        assert_eq!(map.parse_location(&info.code), Some((p, None)));
        for c in &info.coasts {
            let l = Location::with_coast(p, *c);
            assert_eq!(
                map.parse_location(&map.location_name(l)),
                Some((p, Some(*c)))
            );
        }
    }
}

/// A header line with a random name and a value of random UTF-8 or Latin-1 bytes.
fn header_line() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(vec![
            "Cc",
            "X-Note",
            "Received",
            "Subject-Extra",
            "Authentication-Results",
            "Precedence",
            "Reply-To",
        ]),
        prop::collection::vec(
            prop_oneof![
                any::<char>().prop_map(|c| c.to_string().into_bytes()),
                (0x80u8..=0xffu8).prop_map(|b| vec![b]),
                Just(b"\xc3".to_vec()),
                "[ -~]{0,8}".prop_map(String::into_bytes),
            ],
            0..12,
        ),
    )
        .prop_map(|(name, parts)| {
            let mut v = format!("{name}: ").into_bytes();
            for p in parts {
                v.extend(p.into_iter().filter(|b| *b != b'\r' && *b != b'\n'));
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whole raw mails with 8-bit headers before and after From, either line ending, long runs
    /// of blank lines and a press block that may lack its ENDPRESS (issue 9): reading never
    /// panics, the header block names the sender, and the secret appears nowhere in what is
    /// echoed or published.
    #[test]
    fn whole_raw_mails_never_panic_and_never_leak_the_secret(
        before in prop::collection::vec(header_line(), 0..4),
        after in prop::collection::vec(header_line(), 0..4),
        crlf in any::<bool>(),
        blanks in 0usize..40_000,
        secret in "[a-z]{8,12}",
        ending in 0usize..4,
        in_subject in any::<bool>(),
    ) {
        let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        let mut raw = Vec::new();
        for h in &before {
            raw.extend_from_slice(h);
            raw.extend_from_slice(eol);
        }
        raw.extend_from_slice(b"From: Player <player3@example.test>");
        raw.extend_from_slice(eol);
        for h in &after {
            raw.extend_from_slice(h);
            raw.extend_from_slice(eol);
        }
        let subject = if in_subject {
            format!("Subject: wm1 FRANCE S1901M SECRET {secret}")
        } else {
            "Subject: wm1 FRANCE S1901M".to_string()
        };
        raw.extend_from_slice(subject.as_bytes());
        raw.extend_from_slice(eol);
        raw.extend_from_slice(eol);
        let end = ["", "ENDPRESS\n", "ORDERS\n", "FINAL ORDERS:\n"][ending];
        let secret_line = if in_subject { String::new() } else { format!("SECRET {secret}\n") };
        let body = format!(
            "PRESS TO ALL\nGreetings, {secret} is not for you.\n{end}{secret_line}{}A Par - Bur\nmy secret is {secret}\n",
            "\n".repeat(blanks)
        );
        raw.extend_from_slice(&body.replace('\n', std::str::from_utf8(eol).unwrap_or("\n")).into_bytes());

        let head = chancery::message::read_head(&raw);
        prop_assert_eq!(chancery::message::sender_of_raw(&raw), head.from_address.clone());
        // A broken header may hide From; when the parser finds it, it is the address written.
        if let Some(a) = &head.from_address {
            prop_assert_eq!(a.as_str(), "player3@example.test");
        }
        let rules = Rules::default();
        let abbreviations = HashMap::new();
        let board = Board::initial(Map::standard());
        let c = ctx(&rules, Some(&board), &abbreviations, PhaseKind::Movement);
        let read = read_mail(&c, &raw);
        if read.error.is_none() && read.auto.is_none() {
            prop_assert_eq!(read.secret.as_deref(), Some(secret.as_str()));
            // Without ENDPRESS, a heading or a SECRET line, the press runs to the end.
            let swallowed = ending == 0 && in_subject;
            prop_assert_eq!(read.understood().len(), usize::from(!swallowed), "{:?}", read.orders);
        }
        let echoed = serde_json::to_string(&read).expect("json").to_lowercase();
        prop_assert!(!echoed.contains(&secret), "{}", echoed);
    }
}

proptest! {
    /// The Authentication-Results parser never panics, on any text or on header-like soup.
    #[test]
    fn authentication_results_parser_never_panics(
        text in any::<String>(),
        parts in prop::collection::vec(
            prop::sample::select(vec![
                "mx.example.test", ";", "=", " ", "(", ")", "\"", "\\", "dkim", "pass", "fail",
                "header.d", "smtp.mailfrom", "a.test", "none", "reason", "SRS0=x=y", "/1",
            ]),
            0..40,
        ),
    ) {
        let _ = chancery::authres::parse(&text);
        let soup: String = parts.concat();
        let parsed = chancery::authres::parse(&soup);
        let headers = vec![soup.clone()];
        let _ = chancery::authres::dkim_pass(&headers, "mx.example.test", "p@a.test");
        let _ = chancery::authres::sender_auth_failed(&headers, "mx.example.test", "p@a.test");
        if let Some(p) = parsed {
            prop_assert!(!p.authserv_id.is_empty());
        }
    }
}
