//! Fixed reading contexts shared by the targets, built once per process.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{LazyLock, Once};

use chancery_diplomacy::adjudicator::Board;
use chancery_diplomacy::map::{Map, Power, Province};
use chancery_diplomacy::phase::PhaseKind;
use chancery_diplomacy::reader::{ReadContext, parse_abbreviations};
use chancery_diplomacy::rules::Rules;

pub fn map() -> &'static Map {
    Map::standard()
}

pub static FRANCE: LazyLock<Power> = LazyLock::new(|| {
    map()
        .power_by_name("FRANCE")
        .expect("FRANCE on the standard map")
});

pub static DPV2023: LazyLock<Rules> =
    LazyLock::new(|| Rules::preset("dpv2023").expect("dpv2023 preset"));
pub static MAHARAJIAD: LazyLock<Rules> =
    LazyLock::new(|| Rules::preset("maharajiad").expect("maharajiad preset"));

pub static NO_ABBREVIATIONS: LazyLock<HashMap<String, Province>> = LazyLock::new(HashMap::new);
/// A few personal abbreviations (WM D.III(1)), so that path is exercised too.
pub static ABBREVIATIONS: LazyLock<HashMap<String, Province>> = LazyLock::new(|| {
    parse_abbreviations(
        map(),
        "bg = Burgundy\nparee = Paris\nmao = Mid-Atlantic Ocean\nsp = Spain\n",
    )
    .expect("fuzz abbreviations")
});

/// The opening position (S1901M), as `chancery parse` uses when no board is given.
pub static INITIAL: LazyLock<Board> = LazyLock::new(|| Board::initial(map()));

/// A retreat phase in which France has two dislodged units.
pub static RETREAT: LazyLock<Board> = LazyLock::new(|| {
    board(
        r#"{"phase": "F1901R",
 "units": {"FRANCE": ["F MAO", "A PIC"], "GERMANY": ["A PAR", "A RUH"], "ENGLAND": ["F BRE", "F ENG"]},
 "dislodged": {"FRANCE": [{"unit": "A PAR", "attacker_from": "BUR"},
                          {"unit": "F BRE", "attacker_from": "ENG"}]},
 "contested": ["GAS"]}"#,
    )
});

/// An adjustment phase in which France has builds to make (docs/examples/06).
pub static ADJUSTMENT: LazyLock<Board> = LazyLock::new(|| {
    board(
        r#"{"phase": "W1901A",
 "units": {"FRANCE": ["F POR", "A BEL", "A SPA"], "GERMANY": ["F DEN", "A HOL", "A RUH"],
           "ENGLAND": ["F NWY", "F ENG", "A YOR"], "ITALY": ["A TUN", "F ION", "A VEN", "A APU"]},
 "centers": {"FRANCE": ["BRE", "PAR", "MAR", "POR", "SPA"], "GERMANY": ["BER", "KIE", "MUN", "DEN", "HOL"],
             "ENGLAND": ["LON", "EDI", "LVP", "NWY"], "ITALY": ["ROM", "NAP", "VEN"]}}"#,
    )
});

fn board(json: &str) -> Board {
    let input: chancery_diplomacy::json::PhaseInput =
        serde_json::from_str(json).expect("fuzz board JSON");
    chancery_diplomacy::json::prepare(&input)
        .expect("fuzz board")
        .board
}

pub fn ctx(
    rules: &'static Rules,
    phase: PhaseKind,
    board: Option<&'static Board>,
    abbreviations: &'static HashMap<String, Province>,
) -> ReadContext<'static> {
    ReadContext {
        map: map(),
        rules,
        power: *FRANCE,
        phase,
        board,
        abbreviations,
    }
}

/// The mail contexts: the standard map, power FRANCE, movement phase, initial board, under the
/// dpv2023 and maharajiad presets (as `chancery parse` builds them for S1901M).
pub static MAIL_CONTEXTS: LazyLock<Vec<ReadContext<'static>>> = LazyLock::new(|| {
    vec![
        ctx(
            &DPV2023,
            PhaseKind::Movement,
            Some(&INITIAL),
            &NO_ABBREVIATIONS,
        ),
        ctx(
            &MAHARAJIAD,
            PhaseKind::Movement,
            Some(&INITIAL),
            &ABBREVIATIONS,
        ),
    ]
});

/// The order contexts: movement, retreat and adjustment phases, each with and without a board.
pub static ORDER_CONTEXTS: LazyLock<Vec<ReadContext<'static>>> = LazyLock::new(|| {
    let mut v = Vec::new();
    for (phase, board) in [
        (PhaseKind::Movement, &*INITIAL),
        (PhaseKind::Retreat, &*RETREAT),
        (PhaseKind::Adjustment, &*ADJUSTMENT),
    ] {
        v.push(ctx(&DPV2023, phase, Some(board), &NO_ABBREVIATIONS));
        v.push(ctx(&DPV2023, phase, None, &NO_ABBREVIATIONS));
    }
    // The Maharajiad's exact-spelling typo rule and personal abbreviations, on the opening board.
    v.push(ctx(
        &MAHARAJIAD,
        PhaseKind::Movement,
        Some(&INITIAL),
        &ABBREVIATIONS,
    ));
    v
});

/// mail-parser 0.11.9 (src/parsers/message.rs:485) has a `debug_assert!(false, "Invalid part ID,
/// could not find multipart.")` on a corrupted MIME tree, which it then recovers from; release
/// builds, Chancery's among them, compile it out. The fuzz build keeps debug assertions for
/// Chancery's own code, so this one assertion, and only it, is let through as an unwinding panic
/// the target catches (libFuzzer's hook, which aborts, still sees every other panic).
pub fn let_through_the_mail_parsers_debug_assertion() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let libfuzzer_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_mail_parser = info.location().is_some_and(|l| {
                l.file().contains("mail-parser-0.11") && l.file().ends_with("parsers/message.rs")
            });
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            if in_mail_parser && message.contains("Invalid part ID, could not find multipart.") {
                return;
            }
            libfuzzer_hook(info)
        }));
    });
}
