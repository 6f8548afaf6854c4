//! Maharajiad B.I(3), additional home centres, sentence by sentence, through the `adjudicate`
//! contract: each phase's `next` board (with its `homes` and `held_since`) is fed back as the
//! next phase's input, as the engine does. Delhi's homes are Agra (AGR), Awadh (AWA) and
//! Muzaffarpur (MUZ); Kashmir (KMR) is a neutral centre next to Agra.

use serde_json::{Value, json};

/// Adjudicate `board` (a `next` object, or a first board) with `orders`: the whole output.
fn step(board: &Value, orders: Value) -> Value {
    let mut input = board.clone();
    let o = input.as_object_mut().expect("board");
    o.insert("variant".into(), json!("maharajah"));
    o.insert("rules".into(), json!("maharajiad"));
    o.insert("orders".into(), orders);
    let out = chancery::json::adjudicate_json(&input.to_string()).expect("adjudicated");
    serde_json::from_str(&out).expect("json")
}

/// Play phases from `board`, each with its orders, until the board reaches `until`.
fn play(mut board: Value, turns: &[Value], until: &str) -> Value {
    for orders in turns {
        if board["phase"] == until {
            break;
        }
        let out = step(&board, orders.clone());
        board = out["next"].clone();
    }
    assert_eq!(board["phase"], until, "{board}");
    board
}

fn homes_of(board: &Value, power: &str) -> Vec<String> {
    let mut h: Vec<String> = board["homes"][power]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    h.sort();
    h
}

fn start(units: Value, held_since: Value) -> Value {
    json!({"phase": "S1501M", "units": units, "held_since": held_since})
}

#[test]
fn b_i_3_a_unit_left_on_a_centre_a_whole_year_makes_it_a_home_centre() {
    // "If a power leaves a specific unit on a Supply Center (whether owned by that power or not)
    // for an entire game calendar year (consecutive Spring, Fall and Winter turns), then that
    // Supply Center becomes a new Home Supply Center for that power."
    let board = start(
        json!({"DELHI": ["A Agr", "A Awa", "A Muz"]}),
        json!({"AGR": "S1501M", "AWA": "S1501M", "MUZ": "S1501M"}),
    );
    let hold = json!({});
    // 1501: Kashmir is taken in the Spring; the army has not stood there a whole year.
    let b1502 = play(
        board,
        &[
            json!({"DELHI": ["A Agr - Kmr"]}),
            hold.clone(),
            json!({"DELHI": ["Build A Agr"]}),
            hold.clone(),
        ],
        "S1502M",
    );
    assert_eq!(homes_of(&b1502, "DELHI"), vec!["AGR", "AWA", "MUZ"]);
    // 1502: the same army stays in Kashmir through Spring, Fall and the Winter: converted.
    let b1503 = play(b1502, &[hold.clone(), hold.clone(), hold.clone()], "S1503M");
    assert_eq!(homes_of(&b1503, "DELHI"), vec!["AGR", "AWA", "KMR", "MUZ"]);
}

#[test]
fn b_i_3_a_different_unit_moved_in_in_the_fall_does_not_count() {
    // "Moving a different unit onto the Supply Center in the fall is not effective for this
    // purpose." The army in Kashmir leaves in the Spring and another arrives in the Fall: at the
    // year's end Kashmir has been held all along by Delhi, but not by one unit.
    let board = json!({
        "phase": "S1502M",
        "units": {"DELHI": ["A Kmr", "A Agr"]},
        "centers": {"DELHI": ["AGR", "AWA", "MUZ", "KMR"]},
        "held_since": {"KMR": "S1501R", "AGR": "S1501M"}
    });
    let b1503 = play(
        board,
        &[
            json!({"DELHI": ["A Kmr - Lah", "A Agr H"]}),
            json!({"DELHI": ["A Agr - Kmr"]}),
            json!({"DELHI": ["Build A Agr", "Build A Awa"]}),
            json!({}),
        ],
        "S1503M",
    );
    assert_eq!(homes_of(&b1503, "DELHI"), vec!["AGR", "AWA", "MUZ"]);
}

#[test]
fn b_i_3_a_home_centre_of_one_power_at_a_time_and_builds_use_the_homes_of_now() {
    // "A Supply Center can only be a Home Supply Center for one power at a time, so if power A
    // converts power B's Home Supply Center to a Home Supply Center for power A, then power B
    // must recapture and reconvert the Supply Center in order for it to once more be a Home
    // Supply Center for power B." Persia has held Agra, Delhi's home, since before the Spring.
    let board = json!({
        "phase": "S1502M",
        "units": {"PERSIA": ["A Agr"], "DELHI": ["A Awa"]},
        "centers": {"PERSIA": ["AGR", "HOR", "ISF", "MES"], "DELHI": ["AWA", "MUZ"]},
        "held_since": {"AGR": "S1501R", "AWA": "S1501M"}
    });
    let b1503 = play(
        board,
        &[json!({}), json!({}), json!({}), json!({})],
        "S1503M",
    );
    assert_eq!(homes_of(&b1503, "PERSIA"), vec!["AGR", "HOR", "ISF", "MES"]);
    assert_eq!(
        homes_of(&b1503, "DELHI"),
        vec!["AWA", "MUZ"],
        "no longer Delhi's"
    );
    // Persia moves out and Delhi takes Agra back in the Fall: Delhi owns it, but may not build
    // there (it is Persia's home now); Persia may not either (Delhi owns it).
    let w1503 = play(
        b1503,
        &[
            json!({"PERSIA": ["A Agr - Kmr"]}),
            json!({"DELHI": ["A Awa - Agr"]}),
        ],
        "W1503A",
    );
    let out = step(&w1503, json!({"DELHI": ["Build A Awa", "Build A Agr"]}));
    let results: Vec<(String, String)> = out["orders"]
        .as_array()
        .expect("orders")
        .iter()
        .map(|o| {
            (
                o["order"].as_str().unwrap_or("").to_string(),
                o["result"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert!(
        results.contains(&("BUILD A AGR".into(), "invalid".into())),
        "{results:?}"
    );
    assert!(
        results.contains(&("BUILD A AWA".into(), "succeeds".into())),
        "{results:?}"
    );
}
