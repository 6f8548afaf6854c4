//! Maharajiad B.I(2), the rivers, case by case in the DATC's style: each test is one position,
//! its orders, and the outcome of every order, with the sentence of the rule it checks. On the
//! Indus: Lahore (LAH), Multan (MUL), Bikaner (BIK), Peshawar (PES), Jaisalmer (JSL) are river
//! provinces; an army in Lahore is not next to Bikaner, so A Lah - Bik needs a convoy, which the
//! fleet in Multan can give on the river. Jaipur (JAI) is next to Multan, but off the river.

use serde_json::Value;

/// Adjudicate a Maharajah S1502M position; each order's (result, reason).
fn judge(units: &str, orders: &str) -> Vec<(String, String, String)> {
    let input = format!(
        r#"{{"variant": "maharajah", "rules": "maharajiad", "phase": "S1502M",
            "units": {units}, "orders": {orders}}}"#
    );
    let out = chancery::json::adjudicate_json(&input).expect("adjudicated");
    let v: Value = serde_json::from_str(&out).expect("json");
    v["orders"]
        .as_array()
        .expect("orders")
        .iter()
        .map(|o| {
            (
                o["order"].as_str().unwrap_or("").to_string(),
                o["result"].as_str().unwrap_or("").to_string(),
                o["reason"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn outcome<'a>(r: &'a [(String, String, String)], order: &str) -> (&'a str, &'a str) {
    let o = r
        .iter()
        .find(|o| o.0 == order)
        .unwrap_or_else(|| panic!("{order} in {r:?}"));
    (o.1.as_str(), o.2.as_str())
}

#[test]
fn b_i_2_a_fleet_moves_along_the_river() {
    // "The rivers ... are available for fleets to travel up to the interior."
    let r = judge(
        r#"{"RAJPUTANA": ["F Jsl"]}"#,
        r#"{"RAJPUTANA": ["F Jsl - Bik"]}"#,
    );
    assert_eq!(outcome(&r, "F JSL - BIK"), ("succeeds", ""));
}

#[test]
fn b_i_2_a_river_fleet_convoys() {
    // "... and they can be used to convoy."
    let r = judge(
        r#"{"DELHI": ["A Lah"], "RAJPUTANA": ["F Mul"]}"#,
        r#"{"DELHI": ["A Lah - Bik"], "RAJPUTANA": ["F Mul C A Lah - Bik"]}"#,
    );
    assert_eq!(outcome(&r, "A LAH - BIK"), ("succeeds", ""));
    assert_eq!(outcome(&r, "F MUL C A LAH - BIK"), ("succeeds", ""));
}

#[test]
fn b_i_2_a_fleet_attack_disrupts_a_river_convoy_even_when_it_fails() {
    // "If a fleet attacks a convoying fleet in a river province, the river convoy is disrupted
    // whether or not the attack is successful." The fleet from Peshawar bounces off Multan, and
    // still the army goes nowhere.
    let r = judge(
        r#"{"DELHI": ["A Lah"], "RAJPUTANA": ["F Mul"], "PERSIA": ["F Pes"]}"#,
        r#"{"DELHI": ["A Lah - Bik"], "RAJPUTANA": ["F Mul C A Lah - Bik"],
            "PERSIA": ["F Pes - Mul"]}"#,
    );
    assert_eq!(outcome(&r, "F PES - MUL"), ("fails", "bounce"));
    assert_eq!(outcome(&r, "F MUL C A LAH - BIK"), ("fails", "disrupted"));
    assert_eq!(outcome(&r, "A LAH - BIK"), ("fails", "no convoy"));
}

#[test]
fn b_i_2_a_fleet_from_the_destination_must_dislodge() {
    // "... except that a fleet located in the destination province of a river convoy which
    // attacks one of the fleets convoying an army to the destination province must dislodge the
    // convoying fleet for a river convoy to be disrupted." The fleet in Bikaner fails to
    // dislodge the convoying fleet: the convoy stands, and the army, supported from Jaisalmer,
    // takes Bikaner and dislodges that fleet.
    let r = judge(
        r#"{"DELHI": ["A Lah", "A Jsl"], "RAJPUTANA": ["F Mul"], "PERSIA": ["F Bik"]}"#,
        r#"{"DELHI": ["A Lah - Bik", "A Jsl S A Lah - Bik"],
            "RAJPUTANA": ["F Mul C A Lah - Bik"], "PERSIA": ["F Bik - Mul"]}"#,
    );
    assert_eq!(outcome(&r, "F MUL C A LAH - BIK"), ("succeeds", ""));
    assert_eq!(outcome(&r, "A LAH - BIK"), ("succeeds", ""));
    assert_eq!(outcome(&r, "F BIK - MUL").0, "fails");
}

#[test]
fn b_i_2_an_attacking_army_must_dislodge() {
    // "An attacking army must dislodge the convoying fleet for a river convoy to be disrupted."
    // Alone, the army from Peshawar does not: the convoy stands.
    let alone = judge(
        r#"{"DELHI": ["A Lah"], "RAJPUTANA": ["F Mul"], "PERSIA": ["A Pes"]}"#,
        r#"{"DELHI": ["A Lah - Bik"], "RAJPUTANA": ["F Mul C A Lah - Bik"],
            "PERSIA": ["A Pes - Mul"]}"#,
    );
    assert_eq!(outcome(&alone, "A PES - MUL"), ("fails", "bounce"));
    assert_eq!(outcome(&alone, "A LAH - BIK"), ("succeeds", ""));
    // Supported from Jaipur, it dislodges the fleet, and the convoy fails.
    let supported = judge(
        r#"{"DELHI": ["A Lah"], "RAJPUTANA": ["F Mul"], "PERSIA": ["A Pes", "A Jai"]}"#,
        r#"{"DELHI": ["A Lah - Bik"], "RAJPUTANA": ["F Mul C A Lah - Bik"],
            "PERSIA": ["A Pes - Mul", "A Jai S A Pes - Mul"]}"#,
    );
    assert_eq!(outcome(&supported, "A PES - MUL"), ("succeeds", ""));
    assert_eq!(
        outcome(&supported, "F MUL C A LAH - BIK"),
        ("fails", "dislodged")
    );
    assert_eq!(outcome(&supported, "A LAH - BIK"), ("fails", "no convoy"));
}

#[test]
fn b_i_2_the_disruption_rule_is_the_rivers_only() {
    // At sea the DATC holds: a fleet that attacks a convoying fleet and fails does not disrupt
    // the convoy. Persia's army in Oman (not next to Sind) goes by the Arabian Sea to Sind past
    // an attack from Hadramaut that bounces.
    let r = judge(
        r#"{"PERSIA": ["A Oma", "F ArS"], "BAHMANA": ["F Had"]}"#,
        r#"{"PERSIA": ["A Oma - Sin", "F ArS C A Oma - Sin"], "BAHMANA": ["F Had - ArS"]}"#,
    );
    assert_eq!(outcome(&r, "F HAD - ARS"), ("fails", "bounce"));
    assert_eq!(outcome(&r, "A OMA - SIN"), ("succeeds", ""));
    assert_eq!(outcome(&r, "F ARS C A OMA - SIN"), ("succeeds", ""));
}
