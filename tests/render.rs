//! The mails Chancery sends: every template renders with realistic data (the 1901 standard
//! opening), local times are right, and what must stay secret does (grey press authors, votes,
//! partial press).

use chancery::adjudicator::{Board, adjudicate, retreat_options};
use chancery::map::{Map, Power};
use chancery::order::{Order, parse_order};
use chancery::orderset::read_mail;
use chancery::outgoing::diplomacy::render::*;
use chancery::outgoing::render::*;
use chancery::outgoing::time::*;
use chancery::reader::ReadContext;
use chancery::rules::Rules;
use std::collections::{BTreeMap, HashMap};

/// 2026-11-24T20:00:00Z, a Tuesday (CET is GMT+1, New York GMT-5, Sydney AEDT GMT+11).
const DEADLINE: i64 = 1_795_550_400;
/// 2026-11-22T09:14:07Z, a Sunday.
const RECEIVED: i64 = 1_795_338_847;

const SHA: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

/// The opening as the players wrote it: (power, as written, canonical).
const OPENING: &[(&str, &str, &str)] = &[
    ("AUSTRIA", "A Vienna -> Galicia", "A VIE - GAL"),
    ("AUSTRIA", "a bud-ser", "A BUD - SER"),
    ("AUSTRIA", "F Trieste - Albania", "F TRI - ALB"),
    ("ENGLAND", "F Lon - Eng", "F LON - ENG"),
    ("ENGLAND", "Fleet Edinburgh to North Sea", "F EDI - NTH"),
    ("ENGLAND", "A Lvp - Yor", "A LVP - YOR"),
    ("FRANCE", "F Brest - Mid-Atlantic Ocean", "F BRE - MAO"),
    ("FRANCE", "A Par - Bur", "A PAR - BUR"),
    ("FRANCE", "A Mar S A Par - Bur", "A MAR S A PAR - BUR"),
    ("GERMANY", "F Kiel - Denmark", "F KIE - DEN"),
    ("GERMANY", "A Ber-Kie", "A BER - KIE"),
    ("GERMANY", "A Munich -> Ruhr", "A MUN - RUH"),
    ("ITALY", "F Nap - Ion", "F NAP - ION"),
    ("ITALY", "A Rome to Apulia", "A ROM - APU"),
    ("RUSSIA", "F StP(sc) - Gulf of Bothnia", "F STP/SC - BOT"),
    ("RUSSIA", "A Mos - Ukr", "A MOS - UKR"),
    ("RUSSIA", "A War - Gal", "A WAR - GAL"),
    ("RUSSIA", "F Sev - Bla", "F SEV - BLA"),
    ("TURKEY", "F Ank - Bla", "F ANK - BLA"),
    ("TURKEY", "A Con - Bul", "A CON - BUL"),
    ("TURKEY", "A Smyrna - Armenia", "A SMY - ARM"),
];

/// The body with every run of whitespace made one space (wrapping aside).
fn flat(body: &str) -> String {
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn power(map: &Map, name: &str) -> Power {
    map.power_by_name(name).expect("power")
}

/// The S1901M results of the opening, built with the real adjudicator. Italy's A VEN has no
/// order.
fn opening_results() -> ResultsView {
    let map = Map::standard();
    let rules = Rules::preset("wm2004").expect("preset");
    let board = Board::initial(map);
    let orders: Vec<(Power, Order)> = OPENING
        .iter()
        .map(|(p, _, o)| (power(map, p), parse_order(map, o).expect("order")))
        .collect();
    let adj = adjudicate(map, &rules, &board, &orders);
    let mut powers: Vec<PowerResult> = map
        .all_powers()
        .map(|p| PowerResult {
            power: map.power_name(p).to_string(),
            ..PowerResult::default()
        })
        .collect();
    for (r, (_, written, _)) in adj.results.iter().zip(OPENING) {
        powers[r.power.0 as usize]
            .orders
            .push(ResultOrder::from_result(map, r, *written));
    }
    powers[power(map, "ITALY").0 as usize]
        .unordered
        .push("A VEN".into());
    let (centres, unowned) = centre_views(map, &adj.next);
    ResultsView {
        monsoon: false,
        judge: "CHANCERY".into(),
        game: "wm2026a".into(),
        variant: "Standard".into(),
        phase: "S1901M".into(),
        next_phase: Some(adj.next.phase.to_string()),
        deadline: Some(DEADLINE),
        powers,
        retreats: adj
            .retreats
            .iter()
            .map(|r| RetreatView::from_options(map, r))
            .collect(),
        centres,
        unowned_centres: unowned,
        white_press: Vec::new(),
        grey_press: Vec::new(),
        white_press_with_orders: true,
        vote_result: None,
        centre_history: None,
    }
}

fn all_readers() -> Vec<Reader<'static>> {
    let mut r: Vec<Reader<'static>> = [
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
    ]
    .iter()
    .map(|p| Reader::Power(p))
    .collect();
    r.push(Reader::Observer);
    r.push(Reader::Gm);
    r
}

fn render_results(v: &ResultsView, reader: Reader<'_>, tz: &str) -> Rendered {
    results(v, reader, tz).unwrap_or_else(|e| panic!("results: {e}"))
}

/// The `::` lines at the top of a body, as key/value pairs (njudge style: `Key: value` fields
/// separated by two spaces).
fn header(body: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in body.lines().take_while(|l| l.starts_with("::")) {
        let rest = line.strip_prefix(":: ").expect("':: ' prefix");
        for field in rest.split("  ") {
            let (k, v) = field.split_once(": ").expect("Key: value");
            assert!(
                out.insert(k.to_string(), v.to_string()).is_none(),
                "{k} twice"
            );
        }
    }
    out
}

// ------------------------------------------------------------------------------------------
// Receipt
// ------------------------------------------------------------------------------------------

fn receipt_view() -> ReceiptView {
    ReceiptView {
        mailbox: "wmconfirm@chancery.example".into(),
        game: Some("wm2026a".into()),
        received_at: RECEIVED,
        message_id: Some("<c0ffee.42@mail.example.fr>".into()),
        from: "marianne@example.fr".into(),
        subject: "wm2026a FRANCE S1901M".into(),
        to: vec!["wmconfirm@chancery.example".into()],
        cc: vec!["gm@chancery.example".into()],
        gm_address: "gm@chancery.example".into(),
        gm_addressed: true,
        gm_in_to_only: false,
        orders: vec![
            "F BRE - MAO".into(),
            "A PAR - BUR".into(),
            "A MAR S A PAR - BUR".into(),
        ],
        sha256: SHA.into(),
        size: 1834,
    }
}

#[test]
fn receipt_digests_the_message() {
    let r = receipt(&receipt_view()).expect("receipt");
    assert_eq!(r.subject, "Receipt: wm2026a FRANCE S1901M");
    for s in [
        "Received at: Sunday 22 November 2026, 09:14:07 GMT",
        "2026-11-22T09:14:07Z",
        "Message-ID:  <c0ffee.42@mail.example.fr>",
        "From:        marianne@example.fr",
        "CC:          gm@chancery.example",
        SHA,
        "1834 bytes",
        "(3 orders)",
        "  F BRE - MAO\n  A PAR - BUR\n  A MAR S A PAR - BUR\n",
        "WM D.VII(7)",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }
    assert!(
        flat(&r.body).contains(
            "The GM's address gm@chancery.example is in \"To\" or \"CC\", as the game requires."
        ),
        "{}",
        r.body
    );
    assert!(!r.body.contains("NOT BE ACCEPTED"), "{}", r.body);
}

#[test]
fn receipt_without_the_gm_says_the_orders_will_not_be_accepted() {
    let mut v = receipt_view();
    v.cc.clear();
    v.gm_addressed = false;
    let r = receipt(&v).expect("receipt");
    assert!(
        r.body.contains("THESE ORDERS WILL NOT BE ACCEPTED"),
        "{}",
        r.body
    );
    assert!(
        flat(&r.body).contains("is in neither the \"To\" nor the \"CC\" line"),
        "{}",
        r.body
    );
    assert!(
        flat(&r.body).contains("will not be accepted (WM D.VII(7)"),
        "{}",
        r.body
    );
    assert!(
        !flat(&r.body).contains("as the game requires"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("CC") && !r.body.contains("CC:  "),
        "{}",
        r.body
    );

    // Maharajiad: the GM in CC is not enough.
    v.cc = vec!["gm@chancery.example".into()];
    v.gm_in_to_only = true;
    let r = receipt(&v).expect("receipt");
    assert!(
        r.body.contains("THESE ORDERS WILL NOT BE ACCEPTED"),
        "{}",
        r.body
    );
    assert!(
        flat(&r.body).contains("is not in the \"To\" line"),
        "{}",
        r.body
    );
    assert!(
        flat(&r.body).contains("(Maharajiad B.VIII(7)"),
        "{}",
        r.body
    );
}

#[test]
fn receipt_of_a_message_without_orders_or_message_id() {
    let mut v = receipt_view();
    v.orders.clear();
    v.message_id = None;
    let r = receipt(&v).expect("receipt");
    assert!(r.body.contains("No orders were read"), "{}", r.body);
    assert!(r.body.contains("Message-ID:  (none)"), "{}", r.body);
}

// ------------------------------------------------------------------------------------------
// Acknowledgement
// ------------------------------------------------------------------------------------------

const FRANCE_MAIL: &str = "From: Marianne <marianne@example.fr>\r
To: gm@chancery.example\r
Subject: wm2026a FRANCE S1901M\r
Message-ID: <orders.1@example.fr>\r
Date: Sun, 22 Nov 2026 09:14:07 +0000\r
\r
Hi GM,\r
\r
F Brest - Mid-Atlantic Ocean\r
A Par - Burgandy\r
A Mar - Bur\r
A Mar S A Par - Bur\r
A Xyz - Bur\r
\r
PRESS TO ALL\r
Vive la France.\r
ENDPRESS\r
\r
PRESS TO ENGLAND\r
The Channel stays empty.\r
ENDPRESS\r
\r
VOTE CONCEDE RUSSIA NO\r
EXTEND 1 DAY\r
\r
Marianne\r
";

fn france_ack() -> AckView {
    let map = Map::standard();
    let rules = Rules::preset("wm2004").expect("preset");
    let board = Board::initial(map);
    let abbreviations = HashMap::new();
    let ctx = ReadContext {
        map,
        rules: &rules,
        power: power(map, "FRANCE"),
        phase: board.phase.kind,
        board: Some(&board),
        abbreviations: &abbreviations,
    };
    let read = read_mail(&ctx, FRANCE_MAIL.as_bytes());
    let mut v = AckView {
        game: "wm2026a".into(),
        power: "FRANCE".into(),
        phase: "S1901M".into(),
        received_at: RECEIVED,
        deadline: DEADLINE,
        tz: "Europe/Paris".into(),
        ..AckView::default()
    };
    v.set_read(&read);
    v.standing = vec![
        StandingOrder {
            unit: "F BRE".into(),
            order: Some("F BRE - MAO".into()),
        },
        StandingOrder {
            unit: "A PAR".into(),
            order: Some("A PAR - BUR".into()),
        },
        StandingOrder {
            unit: "A MAR".into(),
            order: Some("A MAR S A PAR - BUR".into()),
        },
    ];
    v.requests = read
        .requests
        .iter()
        .map(|r| {
            RequestAck::new(
                r,
                "granted: the deadline is now Wednesday 25 November 2026, 20:00 GMT",
            )
        })
        .collect();
    v
}

#[test]
fn acknowledgement_reports_every_line_and_the_standing_set() {
    let v = france_ack();
    assert!(v.lines.len() >= 5, "{:?}", v.lines);
    let r = acknowledgement(&v).expect("ack");
    assert_eq!(
        r.subject,
        "wm2026a S1901M FRANCE: orders received, preliminary"
    );
    // Every line: its number, its text, its verdict and what it was read as.
    for l in &v.lines {
        assert!(
            r.body.contains(&format!(
                "line {:<4} {:<9}{}",
                l.line,
                l.status.to_uppercase(),
                l.text
            )),
            "line {} missing in\n{}",
            l.line,
            r.body
        );
        if let Some(u) = &l.understood {
            assert!(r.body.contains(&format!("= {u}")), "{u}");
        }
    }
    for s in [
        "A Par - Burgandy",
        "= A PAR - BUR",
        "WARNING",
        "REPLACED",
        "ERROR",
        "A Xyz - Bur",
        // The standing set, exactly.
        "THE ORDERS THAT STAND (this is exactly what will be adjudicated)\n\n  F BRE - MAO\n  A PAR - BUR\n  A MAR S A PAR - BUR\n",
        "PRELIMINARY (WM D.II(1)",
        "Deadline: Tuesday 24 November 2026, 20:00 GMT (21:00 CET, Europe/Paris)",
        "Received at: Sunday 22 November 2026, 09:14:07 GMT\n             (10:14:07 CET, Europe/Paris)\n",
        "white press to ALL: accepted",
        "  | Vive la France.",
        "white press to ENGLAND: accepted",
        "YOUR VOTES (secret",
        "CONCEDE RUSSIA: NO",
        "an extension of 1 day: granted",
        "LINES NOT READ",
        "Hi GM,",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }
    assert!(!r.body.contains("AFTER the deadline"));
}

#[test]
fn acknowledgement_of_a_final_late_set_with_units_without_orders() {
    let mut v = france_ack();
    v.is_final = true;
    v.late = true;
    v.standing[2].order = None;
    v.attachments = vec!["orders.docx".into()];
    v.press[1].accepted = false;
    v.press[1].message = Some("this game accepts press to all powers only".into());
    v.press[1].grey = true;
    let r = acknowledgement(&v).expect("ack");
    assert_eq!(r.subject, "wm2026a S1901M FRANCE: orders received, FINAL");
    for s in [
        "  A MAR: holds (no order)\n",
        "marked FINAL",
        "AFTER the deadline",
        "ATTACHMENTS (never read)\n\n  orders.docx",
        "grey press to ENGLAND: REFUSED",
        "this game accepts press to all powers only",
        "It will not be published.",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }

    // A retreat phase: a unit without an order is disbanded.
    v.phase = "F1901R".into();
    let r = acknowledgement(&v).expect("ack");
    assert!(
        r.body.contains("  A MAR: disbanded (no order)\n"),
        "{}",
        r.body
    );
    assert!(r.body.contains("Fall 1901 retreats (F1901R)"), "{}", r.body);
}

#[test]
fn lines_stay_short() {
    let v = france_ack();
    let r = acknowledgement(&v).expect("ack");
    for l in r.body.lines() {
        assert!(l.chars().count() <= 80, "long line {l:?}");
    }
    let r = render_results(&opening_results(), Reader::Power("FRANCE"), "Europe/Paris");
    for l in r.body.lines() {
        assert!(l.chars().count() <= 78, "long line {l:?}");
    }
}

// ------------------------------------------------------------------------------------------
// Rejection and impersonation
// ------------------------------------------------------------------------------------------

fn rejection_view(reasons: Vec<RejectReason>) -> RejectionView {
    RejectionView {
        game: Some("wm2026a".into()),
        power: Some("FRANCE".into()),
        from: "marianne@example.fr".into(),
        subject: "orders".into(),
        message_id: Some("<late.7@example.fr>".into()),
        received_at: DEADLINE + 600,
        reasons,
        deadline: None,
        tz: "America/New_York".into(),
    }
}

#[test]
fn rejection_gives_each_specific_reason() {
    let r = rejection(&rejection_view(vec![
        RejectReason::Address {
            detail: "the GM's address gm@chancery.example must be in \"To\" or \"CC\" (WM D.II(2)); this mail is not accepted".into(),
        },
        RejectReason::Subject {
            expected: "wm2026a FRANCE S1901M".into(),
            detail: "the subject must be \"wm2026a FRANCE S1901M\" (the game, your power and the phase); it was \"orders\"".into(),
        },
        RejectReason::Late { deadline: DEADLINE },
    ]))
    .expect("rejection");
    assert_eq!(r.subject, "Not accepted: orders");
    for s in [
        "was NOT accepted",
        "The reasons:",
        "- Wrong address: the GM's address gm@chancery.example must be in \"To\"",
        "- Wrong subject. The subject must be:\n\n      wm2026a FRANCE S1901M\n",
        "- Late:",
        "  The deadline was: Tuesday 24 November 2026, 20:00 GMT\n                    (15:00 EST, America/New_York)\n",
        "  Your mail came:   Tuesday 24 November 2026, 20:10 GMT\n                    (15:10 EST, America/New_York)\n",
        "<late.7@example.fr>",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }

    let r = rejection(&RejectionView {
        game: None,
        power: None,
        tz: String::new(),
        deadline: Some(DEADLINE),
        ..rejection_view(vec![
            RejectReason::UnknownSender {
                detail: String::new(),
            },
            RejectReason::Unauthenticated {
                detail: "the secret is wrong".into(),
            },
            RejectReason::Unreadable {
                detail: "no text part".into(),
            },
            RejectReason::Oversized {
                size: 4_000_000,
                limit: 1_000_000,
            },
        ])
    })
    .expect("rejection");
    for s in [
        "Your mail was NOT accepted.",
        "- Unknown sender: this address is not registered for a power in this game.",
        "- Not authenticated: the secret is wrong",
        "- Unreadable message: no text part",
        "the message is 4000000 bytes, and the limit is 1000000 bytes",
        "The deadline is Tuesday 24 November 2026, 20:00 GMT\n",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }
}

fn impersonation_view() -> ImpersonationView {
    ImpersonationView {
        game: "wm2026a".into(),
        phase: "S1901M".into(),
        phase_title: "Spring 1901 movement".into(),
        claimed_power: "FRANCE".into(),
        registered_address: "marianne@example.fr".into(),
        player_name: "Marianne".into(),
        sender_power: Some("ENGLAND".into()),
        why: "your mail could not be verified (no DKIM or DMARC pass for your domain)".into(),
        from: "marianne@example.fr".into(),
        return_path: Some("<john.bull@example.co.uk>".into()),
        reply_to: None,
        subject: "wm2026a FRANCE S1901M".into(),
        message_id: Some("<forged.1@example.co.uk>".into()),
        received_at: RECEIVED,
        received: vec![
            "from smtp.example.co.uk (smtp.example.co.uk [192.0.2.7]) by mx.chancery.example".into(),
        ],
        authentication_results: vec![
            "mx.chancery.example; spf=fail smtp.mailfrom=example.co.uk; dkim=none; dmarc=fail header.from=example.fr".into(),
        ],
    }
}

#[test]
fn impersonation_report_names_the_claim_and_the_headers() {
    let v = impersonation_view();
    let r = impersonation_report(&v).expect("report");
    assert_eq!(r.subject, "wm2026a: suspected impersonation of FRANCE");
    for s in [
        "Claimed power:       FRANCE",
        "Registered address:  marianne@example.fr",
        "Registered player:   Marianne",
        "Sender is a player:  ENGLAND",
        "Return-Path:  <john.bull@example.co.uk>",
        "Message-ID:   <forged.1@example.co.uk>",
        "1. from smtp.example.co.uk",
        "dmarc=fail header.from=example.fr",
        "no DKIM or DMARC pass",
        "WM D.X(6)",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }
}

// ------------------------------------------------------------------------------------------
// Results
// ------------------------------------------------------------------------------------------

#[test]
fn results_show_every_order_as_written_with_its_outcome() {
    let v = opening_results();
    let r = render_results(&v, Reader::Power("ENGLAND"), "Europe/London");
    assert_eq!(r.subject, "wm2026a S1901M results");
    for (_, written, canonical) in OPENING {
        assert!(
            r.body
                .contains(&format!("  {written}\n    = {canonical}: ")),
            "missing {written:?} in\n{}",
            r.body
        );
    }
    for s in [
        "Spring 1901 movement results, game wm2026a (S1901M).",
        "  A Vienna -> Galicia\n    = A VIE - GAL: fails (bounce)\n",
        "  A War - Gal\n    = A WAR - GAL: fails (bounce)\n",
        "  F Ank - Bla\n    = F ANK - BLA: fails (bounce)\n",
        "  A Par - Bur\n    = A PAR - BUR: succeeds\n",
        "  A VEN: holds (no order)\n",
        "Next phase: Fall 1901 movement (F1901M).",
        "Deadline:   Tuesday 24 November 2026, 20:00 GMT (20:00 GMT, Europe/London)",
        "SUPPLY CENTRES",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }
    // Every power has its section, in order.
    let mut at = 0;
    for p in [
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
    ] {
        let i = r.body[at..]
            .find(&format!("\n{p}\n"))
            .unwrap_or_else(|| panic!("no section {p}"));
        at += i + 1;
    }
    assert!(!r.body.contains("NMR"), "{}", r.body);
}

#[test]
fn results_header_lines_are_present_and_parse() {
    let v = opening_results();
    let r = render_results(&v, Reader::Power("FRANCE"), "Europe/Paris");
    assert!(r.body.starts_with(":: Judge: "), "{}", r.body);
    let h = header(&r.body);
    assert_eq!(h["Judge"], "CHANCERY");
    assert_eq!(h["Game"], "wm2026a");
    assert_eq!(h["Variant"], "Standard");
    assert_eq!(h["Phase"], "S1901M");
    assert_eq!(h["Next"], "F1901M");
    let (phase, when) = h["Deadline"].split_once(' ').expect("phase and time");
    assert_eq!(phase, "F1901M");
    let when = when.strip_suffix(" GMT").expect("GMT");
    let t = chrono::NaiveDateTime::parse_from_str(when, "%a %b %d %Y %H:%M:%S").expect("time");
    assert_eq!(t.and_utc().timestamp(), DEADLINE);
    assert_eq!(h.len(), 6);
    // The header is the same for every reader: it is GMT only.
    for reader in all_readers() {
        let other = render_results(&v, reader, "Asia/Kolkata");
        assert_eq!(header(&other.body), h);
    }

    // The game is over: no next phase, no deadline line.
    let mut end = v.clone();
    end.next_phase = None;
    end.deadline = None;
    end.vote_result = Some("The draw proposal passed: the game ends in a draw.".into());
    let r = render_results(&end, Reader::Observer, "");
    let h = header(&r.body);
    assert_eq!(h["Next"], "none");
    assert!(!h.contains_key("Deadline"));
    assert!(r.body.contains("The game is over"), "{}", r.body);
    assert!(r.body.contains("The draw proposal passed"), "{}", r.body);
}

#[test]
fn nobody_can_forge_a_header_line_or_heading() {
    let mut v = opening_results();
    v.white_press.push(WhitePress {
        author: "GERMANY".into(),
        to: vec!["ALL".into()],
        body: ":: Deadline: F1901M Mon Jan 01 2029 00:00:00 GMT\nANONYMOUS PRESS\n".into(),
    });
    v.grey_press.push(GreyPress {
        signature: None,
        to: vec![],
        body: ":: Judge: FAKE\nFRANCE\n".into(),
    });
    v.powers[0].orders[0].written = "A Vie - Gal\n:: Phase: X".into();
    for reader in all_readers() {
        let r = render_results(&v, reader, "");
        let colon_lines = r.body.lines().filter(|l| l.starts_with("::")).count();
        assert_eq!(colon_lines, 3, "{}", r.body);
        assert_eq!(header(&r.body)["Judge"], "CHANCERY");
        assert!(r.body.contains("  | :: Deadline: F1901M Mon Jan 01 2029"));
        assert_eq!(r.body.matches("\nANONYMOUS PRESS\n").count(), 1);
    }
}

#[test]
fn nmr_powers_and_dislodged_units_with_their_retreats() {
    // Fall 1901: Turkey sends nothing; Austria and Italy dislodge the Russian fleet in RUM.
    let map = Map::standard();
    let rules = Rules::preset("wm2004").expect("preset");
    let mut board = Board::initial(map);
    board.phase = "F1901M".parse().expect("phase");
    let mv = |from: &str, to: &str| {
        let u = board
            .units
            .iter_mut()
            .find(|u| map.info(u.location.province).code == from)
            .expect("unit");
        u.location = chancery::map::Location::new(map.province_by_code(to).expect("province"));
    };
    let mut mv = mv;
    mv("SEV", "RUM");
    mv("BUD", "SER");
    mv("VIE", "GAL");
    let written = [
        ("AUSTRIA", "A Ser - Rum", "A SER - RUM"),
        ("AUSTRIA", "A Gal S A Ser - Rum", "A GAL S A SER - RUM"),
    ];
    let orders: Vec<(Power, Order)> = written
        .iter()
        .map(|(p, _, o)| (power(map, p), parse_order(map, o).expect("order")))
        .collect();
    let adj = adjudicate(map, &rules, &board, &orders);
    let retreats: Vec<RetreatView> = retreat_options(map, &adj.next)
        .iter()
        .map(|r| RetreatView::from_options(map, r))
        .collect();
    assert_eq!(retreats.len(), 1, "{retreats:?}");
    let (centres, unowned) = centre_views(map, &adj.next);
    let v = ResultsView {
        judge: "CHANCERY".into(),
        game: "wm2026a".into(),
        variant: "Standard".into(),
        phase: "F1901M".into(),
        next_phase: Some(adj.next.phase.to_string()),
        deadline: Some(DEADLINE),
        powers: vec![
            PowerResult {
                power: "AUSTRIA".into(),
                orders: adj
                    .results
                    .iter()
                    .zip(written)
                    .map(|(r, (_, w, _))| ResultOrder::from_result(map, r, w))
                    .collect(),
                unordered: vec!["F TRI".into()],
                ..PowerResult::default()
            },
            PowerResult {
                power: "TURKEY".into(),
                nmr: true,
                unordered: vec!["F ANK".into(), "A CON".into(), "A SMY".into()],
                ..PowerResult::default()
            },
        ],
        retreats,
        centres,
        unowned_centres: unowned,
        ..ResultsView::default()
    };
    let r = render_results(&v, Reader::Power("RUSSIA"), "Europe/Moscow");
    for s in [
        "  A Ser - Rum\n    = A SER - RUM: succeeds\n",
        "TURKEY: no orders received (NMR)\n  F ANK: holds (no order)\n  A CON: holds (no order)\n  A SMY: holds (no order)\n",
        "No orders received (NMR): TURKEY.",
        "DISLODGED UNITS",
        "  RUSSIA F RUM (attacked from SER): may retreat to BLA",
        ":: Next: F1901R",
        "Next phase: Fall 1901 retreats (F1901R).",
        "(23:00 MSK, Europe/Moscow)",
    ] {
        assert!(
            r.body.contains(s) || header(&r.body).get("Next").is_some_and(|n| s.ends_with(n)),
            "missing {s:?} in\n{}",
            r.body
        );
    }
    // Ownership does not change before the Fall turn is over (retreats pending).
    assert!(r.body.contains("  AUSTRIA    3 centres"), "{}", r.body);
}

#[test]
fn winter_ownership_with_builds_and_removals() {
    let map = Map::standard();
    let mut board = Board::initial(map);
    board.phase = "W1901A".parse().expect("phase");
    let own = |b: &mut Board, c: &str, p: &str| {
        let i = map.province_by_code(c).expect("province").0 as usize;
        b.owners[i] = Some(power(map, p));
    };
    own(&mut board, "SER", "AUSTRIA");
    own(&mut board, "GRE", "AUSTRIA");
    own(&mut board, "TRI", "ITALY");
    // Austria: 4 centres (lost TRI), 3 units, home centres BUD and VIE vacant: builds 1.
    board
        .units
        .retain(|u| !["BUD", "VIE"].contains(&map.info(u.location.province).code.as_str()));
    let (centres, unowned) = centre_views(map, &board);
    let austria = &centres[power(map, "AUSTRIA").0 as usize];
    assert_eq!(austria.centres, ["BUD", "GRE", "SER", "VIE"]);
    assert_eq!((austria.units, austria.adjustment), (1, 2));
    // Italy gained TRI but has no vacant home centre to build in.
    assert_eq!(centres[power(map, "ITALY").0 as usize].adjustment, 0);
    assert!(unowned.contains(&"BEL".to_string()));
    let v = ResultsView {
        judge: "CHANCERY".into(),
        game: "wm2026a".into(),
        variant: "Standard".into(),
        phase: "F1901R".into(),
        next_phase: Some("W1901A".into()),
        deadline: Some(DEADLINE),
        centres,
        unowned_centres: unowned,
        ..ResultsView::default()
    };
    let r = render_results(&v, Reader::Observer, "");
    for s in [
        "  AUSTRIA    4 centres   1 unit    builds 2\n      BUD GRE SER VIE\n",
        "  ITALY      4 centres   3 units\n      NAP ROM TRI VEN\n",
        "  TURKEY     3 centres   3 units\n",
        "  Unowned    10 centres\n      BEL BUL DEN HOL NWY POR RUM SPA SWE TUN\n",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }
    let mut v = v;
    v.centres[0].adjustment = -2;
    let r = render_results(&v, Reader::Observer, "");
    assert!(r.body.contains("removes 2"), "{}", r.body);
}

// ------------------------------------------------------------------------------------------
// Times
// ------------------------------------------------------------------------------------------

#[test]
fn local_times_in_several_zones() {
    let cases = [
        (
            "Europe/Paris",
            "Tuesday 24 November 2026, 20:00 GMT (21:00 CET, Europe/Paris)",
        ),
        (
            "America/New_York",
            "Tuesday 24 November 2026, 20:00 GMT (15:00 EST, America/New_York)",
        ),
        (
            "Asia/Kolkata",
            "Tuesday 24 November 2026, 20:00 GMT (Wednesday 25 November 2026, 01:30 IST, Asia/Kolkata)",
        ),
        (
            "Australia/Sydney",
            "Tuesday 24 November 2026, 20:00 GMT (Wednesday 25 November 2026, 07:00 AEDT, Australia/Sydney)",
        ),
        ("GMT", "Tuesday 24 November 2026, 20:00 GMT"),
        ("", "Tuesday 24 November 2026, 20:00 GMT"),
    ];
    for (tz, want) in cases {
        assert_eq!(deadline_text(DEADLINE, tz).expect("time"), want, "{tz}");
    }
    // Summer: Paris and New York on daylight time.
    let july = 1_784_923_200; // 2026-07-24T20:00:00Z
    assert_eq!(
        deadline_text(july, "Europe/Paris").expect("time"),
        "Friday 24 July 2026, 20:00 GMT (22:00 CEST, Europe/Paris)"
    );
    assert_eq!(
        deadline_text(july, "America/New_York").expect("time"),
        "Friday 24 July 2026, 20:00 GMT (16:00 EDT, America/New_York)"
    );
    // Sydney across the start of daylight time (02:00 AEST, Sunday 4 October 2026).
    let sat = 1_791_028_800; // 2026-10-03T12:00:00Z
    assert_eq!(
        deadline_text(sat, "Australia/Sydney").expect("time"),
        "Saturday 3 October 2026, 12:00 GMT (22:00 AEST, Australia/Sydney)"
    );
    assert_eq!(
        deadline_text(sat + 86_400, "Australia/Sydney").expect("time"),
        "Sunday 4 October 2026, 12:00 GMT (23:00 AEDT, Australia/Sydney)"
    );
    // A deadline with seconds shows them.
    assert_eq!(
        deadline_text(DEADLINE + 7, "Europe/Paris").expect("time"),
        "Tuesday 24 November 2026, 20:00:07 GMT (21:00:07 CET, Europe/Paris)"
    );
}

#[test]
fn results_use_the_readers_own_zone() {
    let v = opening_results();
    for (tz, local) in [
        (
            "America/New_York",
            "            (15:00 EST, America/New_York)\n",
        ),
        (
            "Asia/Kolkata",
            "            (Wednesday 25 November 2026, 01:30 IST, Asia/Kolkata)\n",
        ),
        (
            "Australia/Sydney",
            "            (Wednesday 25 November 2026, 07:00 AEDT, Australia/Sydney)\n",
        ),
        (
            "Europe/Paris",
            "Tuesday 24 November 2026, 20:00 GMT (21:00 CET, Europe/Paris)\n",
        ),
    ] {
        let r = render_results(&v, Reader::Power("ITALY"), tz);
        assert!(r.body.contains(local), "{tz}: {}", r.body);
        assert!(
            r.body
                .contains("\nDeadline:   Tuesday 24 November 2026, 20:00 GMT"),
            "{}",
            r.body
        );
    }
}

#[test]
fn an_unknown_zone_falls_back_to_gmt_with_a_note() {
    assert_eq!(
        deadline_text(DEADLINE, "Mars/Olympus_Mons").expect("time"),
        "Tuesday 24 November 2026, 20:00 GMT"
    );
    let r = render_results(
        &opening_results(),
        Reader::Power("ITALY"),
        "Mars/Olympus_Mons",
    );
    assert!(
        r.body
            .contains("Deadline:   Tuesday 24 November 2026, 20:00 GMT\n"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("\"Mars/Olympus_Mons\" is not known"),
        "{}",
        r.body
    );
    let mut v = france_ack();
    v.tz = "CET+1".into();
    let r = acknowledgement(&v).expect("ack");
    assert!(r.body.contains("\"CET+1\" is not known"), "{}", r.body);
}

#[test]
fn out_of_range_times_are_errors_not_panics() {
    let mut v = opening_results();
    v.deadline = Some(i64::MAX);
    assert!(matches!(
        results(&v, Reader::Gm, "Europe/Paris"),
        Err(RenderError::Time(_))
    ));
    let mut r = receipt_view();
    r.received_at = i64::MIN;
    assert!(receipt(&r).is_err());
}

// ------------------------------------------------------------------------------------------
// Secrecy
// ------------------------------------------------------------------------------------------

/// The author of the grey press is the Sultan, whose address and words are found nowhere else.
const GREY_AUTHOR_ADDRESS: &str = "sultan.of.secrets@example.tr";
const GREY_BODY: &str = "Someone in the east is lying to you all.";

#[test]
fn grey_press_never_reveals_its_author() {
    let mut v = opening_results();
    // The press of TURKEY, grey: the view cannot even carry the author.
    v.grey_press.push(GreyPress {
        signature: None,
        to: vec!["ALL".into()],
        body: GREY_BODY.into(),
    });
    v.grey_press.push(GreyPress {
        signature: None,
        to: vec!["AUSTRIA".into(), "RUSSIA".into()],
        body: "A private warning.".into(),
    });
    let mut without = v.clone();
    without.grey_press.clear();
    for reader in all_readers() {
        let r = render_results(&v, reader, "Europe/Istanbul");
        let plain = render_results(&without, reader, "Europe/Istanbul");
        assert!(r.body.contains(GREY_BODY), "{reader:?}");
        assert!(!r.body.contains(GREY_AUTHOR_ADDRESS));
        assert!(!r.subject.contains("TURKEY"));
        // The grey press adds no mention of its author: TURKEY appears exactly as often as in
        // the results without it.
        assert_eq!(
            r.body.matches("TURKEY").count(),
            plain.body.matches("TURKEY").count(),
            "{reader:?}: {}",
            r.body
        );
        let section = r.body.split("ANONYMOUS PRESS").nth(1).expect("section");
        assert!(
            !section.contains("TURKEY") && !section.contains("From"),
            "{section}"
        );
    }
}

#[test]
fn white_press_is_published_with_its_authors_orders() {
    let mut v = opening_results();
    v.white_press.push(WhitePress {
        author: "ITALY".into(),
        to: vec![],
        body: "Lepanto? Never heard of it.".into(),
    });
    let r = render_results(&v, Reader::Power("TURKEY"), "");
    let italy = r
        .body
        .split("\nITALY\n")
        .nth(1)
        .and_then(|s| s.split("\nRUSSIA\n").next())
        .expect("Italy's section");
    assert!(
        italy.contains("  Press from ITALY to ALL:\n  | Lepanto? Never heard of it.\n"),
        "{italy}"
    );
    // Maharajiad B.XI(1): all press in its own section.
    v.white_press_with_orders = false;
    let r = render_results(&v, Reader::Power("TURKEY"), "");
    assert!(
        r.body
            .contains("PRESS\n\n  From ITALY to ALL:\n  | Lepanto? Never heard of it.\n"),
        "{}",
        r.body
    );
}

#[test]
fn partial_press_goes_only_to_its_recipients() {
    let mut v = opening_results();
    v.white_press.push(WhitePress {
        author: "ENGLAND".into(),
        to: vec!["FRANCE".into(), "GERMANY".into()],
        body: "WHITE-PARTIAL: the North Sea is mine.".into(),
    });
    v.grey_press.push(GreyPress {
        signature: None,
        to: vec!["RUSSIA".into()],
        body: "GREY-PARTIAL: watch Sevastopol.".into(),
    });
    v.white_press.push(WhitePress {
        author: "AUSTRIA".into(),
        to: vec!["ALL".into()],
        body: "WHITE-ALL: peace in our time.".into(),
    });
    let sees = |reader: Reader<'_>| {
        let b = render_results(&v, reader, "").body;
        (
            b.contains("WHITE-PARTIAL"),
            b.contains("GREY-PARTIAL"),
            b.contains("WHITE-ALL"),
        )
    };
    assert_eq!(sees(Reader::Power("FRANCE")), (true, false, true));
    assert_eq!(sees(Reader::Power("germany")), (true, false, true));
    assert_eq!(
        sees(Reader::Power("ENGLAND")),
        (true, false, true),
        "author"
    );
    assert_eq!(sees(Reader::Power("RUSSIA")), (false, true, true));
    assert_eq!(sees(Reader::Power("ITALY")), (false, false, true));
    assert_eq!(sees(Reader::Power("TURKEY")), (false, false, true));
    assert_eq!(sees(Reader::Observer), (false, false, true));
    assert_eq!(sees(Reader::Gm), (true, true, true));
    let r = render_results(&v, Reader::Power("FRANCE"), "");
    assert!(
        r.body.contains("Press from ENGLAND to FRANCE, GERMANY:"),
        "{}",
        r.body
    );
    let r = render_results(&v, Reader::Power("RUSSIA"), "");
    assert!(
        r.body.contains("  To RUSSIA:\n  | GREY-PARTIAL"),
        "{}",
        r.body
    );
}

#[test]
fn votes_never_appear_in_results() {
    // France votes in its mail; the acknowledgement tells France, the results tell nobody.
    let ack = acknowledgement(&france_ack()).expect("ack");
    assert!(ack.body.contains("CONCEDE RUSSIA: NO"), "{}", ack.body);
    let mut v = opening_results();
    v.vote_result = Some("The proposal to concede to Russia failed.".into());
    for reader in all_readers() {
        let r = render_results(&v, reader, "");
        assert!(r.body.contains("The proposal to concede to Russia failed."));
        for secret in ["CONCEDE", "VOTE", "vote", ": NO", "ABSTAIN", "YES"] {
            assert!(!r.body.contains(secret), "{secret} in\n{}", r.body);
        }
    }
    v.vote_result = None;
    let r = render_results(&v, Reader::Gm, "");
    assert!(!r.body.contains("concede"), "{}", r.body);
}

// ------------------------------------------------------------------------------------------
// GM digest and reminder
// ------------------------------------------------------------------------------------------

fn digest_view() -> DigestView {
    let row = |p: &str, addr: &str, n: usize, fin: bool, last: Option<i64>, ext: u32| DigestPower {
        power: p.into(),
        player: addr.into(),
        orders_in: n > 0,
        is_final: fin,
        order_count: n,
        last_submission: last,
        extension_days_used: ext,
        wrong_secrets: 0,
    };
    DigestView {
        monsoon: false,
        game: "wm2026a".into(),
        phase: "S1901M".into(),
        deadline: DEADLINE,
        generated_at: DEADLINE - 3 * 3600,
        tz: "Europe/London".into(),
        extension_days_allowed: 7,
        powers: vec![
            row("AUSTRIA", "franz@example.at", 3, true, Some(RECEIVED), 0),
            row(
                "ENGLAND",
                "john@example.co.uk",
                3,
                false,
                Some(RECEIVED + 3600),
                1,
            ),
            row("FRANCE", "marianne@example.fr", 0, false, None, 2),
        ],
        drops: Vec::new(),
        open_items: Vec::new(),
    }
}

/// Agora BT8: an enacted free text waits for the Gamemaster, who is reminded of it in the
/// digest until it is confirmed; without one, the digest says nothing of it.
#[test]
fn agora_bt8_the_digest_lists_what_waits_for_the_gamemaster() {
    let quiet = digest(&digest_view()).expect("digest");
    assert!(!quiet.body.contains("Waiting for you"), "{}", quiet.body);
    let mut v = digest_view();
    v.open_items = vec![
        "Proposal 4 (TEXT \"badges for all\") is enacted as text: carry it out and confirm it \
         with CONFIRM PROPOSAL 4 <what was done> (Agora BT8)"
            .into(),
    ];
    let r = digest(&v).expect("digest");
    assert!(r.body.contains("Waiting for you:"), "{}", r.body);
    assert!(r.body.contains("CONFIRM PROPOSAL 4"), "{}", r.body);
}

#[test]
fn digest_lists_every_power() {
    let v = digest_view();
    let r = digest(&v).expect("digest");
    assert_eq!(
        r.subject,
        "wm2026a S1901M deadline digest: 2 in, 1 final, 1 missing"
    );
    for s in [
        "Deadline:  Tuesday 24 November 2026, 20:00 GMT (20:00 GMT, Europe/London)",
        "(in 3 hours)",
        "AUSTRIA    in (3)    yes    2026-11-22 09:14 GMT  0 of 7 days",
        "ENGLAND    in (3)    no     2026-11-22 10:14 GMT  1 of 7 days",
        "FRANCE     MISSING   -      -                     2 of 7 days",
        "  FRANCE     marianne@example.fr",
        "Missing: FRANCE",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }
    assert!(!r.body.contains("Wrong secrets") && !r.body.contains("not answered"));
}

#[test]
fn digest_counts_wrong_secrets_and_silent_drops() {
    // Issue 9, points 5 and 6: the masters see forgery attempts and what was not answered.
    let mut v = digest_view();
    v.powers[1].wrong_secrets = 4;
    v.drops = vec![
        DropCount {
            reason: "stranger: already answered today".into(),
            count: 12,
        },
        DropCount {
            reason: "automatic mail (auto-replied): never answered".into(),
            count: 2,
        },
    ];
    let r = digest(&v).expect("digest");
    for s in [
        "Wrong secrets (possible impersonation; nobody is locked out):",
        "  ENGLAND    4",
        "Mail read and not answered in the last 24 hours:",
        "  12     stranger: already answered today",
        "  2      automatic mail (auto-replied): never answered",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }
    assert!(!r.body.contains("AUSTRIA    0"), "{}", r.body);
}

fn reminder_view() -> ReminderView {
    ReminderView {
        monsoon: false,
        game: "wm2026a".into(),
        power: "RUSSIA".into(),
        phase: "S1901M".into(),
        deadline: DEADLINE,
        sent_at: DEADLINE - 86_400 - 2 * 3600,
        tz: "Asia/Kolkata".into(),
        expected_subject: "wm2026a RUSSIA S1901M".into(),
        gm_address: "gm@chancery.example".into(),
        gm_in_to_only: true,
    }
}

#[test]
fn reminder_gives_the_deadline_and_the_subject() {
    let v = reminder_view();
    let r = reminder(&v).expect("reminder");
    assert_eq!(r.subject, "wm2026a S1901M: no orders yet for RUSSIA");
    for s in [
        "No orders for RUSSIA have been received yet for Spring 1901 movement",
        "Deadline: Tuesday 24 November 2026, 20:00 GMT\n          (Wednesday 25 November 2026, 01:30 IST, Asia/Kolkata)\n",
        "(in 1 day 2 hours)",
        "Send your orders to gm@chancery.example",
        "\"To\" line (not \"CC\")",
        "\n    wm2026a RUSSIA S1901M\n",
    ] {
        assert!(r.body.contains(s), "missing {s:?} in\n{}", r.body);
    }
}

#[test]
fn a_subject_from_a_hostile_mail_stays_one_line() {
    let mut v = receipt_view();
    v.subject = "wm2026a FRANCE S1901M\r\nBcc: everyone@example.org".into();
    let r = receipt(&v).expect("receipt");
    assert!(!r.subject.contains('\n') && !r.subject.contains('\r'));
    assert_eq!(
        r.subject,
        "Receipt: wm2026a FRANCE S1901M Bcc: everyone@example.org"
    );
    assert!(!r.body.lines().any(|l| l.starts_with("Bcc:")), "{}", r.body);
}

/// Print every mail (run with `--nocapture` to read them).
#[test]
fn print_examples() {
    let mut v = opening_results();
    v.white_press.push(WhitePress {
        author: "FRANCE".into(),
        to: vec!["ALL".into()],
        body: "Vive la France.".into(),
    });
    v.grey_press.push(GreyPress {
        signature: None,
        to: vec![],
        body: GREY_BODY.into(),
    });
    let r = render_results(&v, Reader::Power("FRANCE"), "Europe/Paris");
    let a = acknowledgement(&france_ack()).expect("ack");
    let c = receipt(&receipt_view()).expect("receipt");
    let j = rejection(&rejection_view(vec![RejectReason::Late {
        deadline: DEADLINE,
    }]))
    .expect("rejection");
    let i = impersonation_report(&impersonation_view()).expect("report");
    let d = digest(&digest_view()).expect("digest");
    let m = reminder(&reminder_view()).expect("reminder");
    for m in [&c, &a, &j, &i, &r, &d, &m] {
        println!("Subject: {}\n\n{}\n--------", m.subject, m.body);
        assert!(m.body.ends_with('\n') && !m.body.ends_with("\n\n"));
        assert!(!m.body.starts_with('\n'));
        for l in m.body.lines() {
            assert!(
                l.chars().count() <= 78 || l.contains("SHA-256"),
                "long line {l:?}"
            );
        }
    }
}

#[test]
fn maharajiad_b_i_5_the_adjustment_phase_is_called_monsoon() {
    let mut v = opening_results();
    v.phase = "W1501A".into();
    v.next_phase = Some("S1502M".into());
    v.monsoon = true;
    let r = render_results(&v, Reader::Power("TURKEY"), "");
    assert!(r.body.contains("Monsoon 1501 adjustments"), "{}", r.body);
    assert!(!r.body.contains("Winter 1501"), "{}", r.body);
    v.monsoon = false;
    let r = render_results(&v, Reader::Power("TURKEY"), "");
    assert!(r.body.contains("Winter 1501 adjustments"), "{}", r.body);
}
