//! The Maharajah map itself (issue 13; Maharajiad I, B.I and B.IV(2)): counts, symmetry, the
//! official abbreviations, the rivers, the starting position, and a sample of borders and
//! non-borders checked by hand against the map (../shared/maps/maharajah/) and the rules text.
//! Independent of the adjudicator.

use chancery::map::{Location, Map, Province, ProvinceKind, UnitType};

fn map() -> &'static Map {
    Map::variant("maharajah").expect("the maharajah map is embedded")
}

fn p(code: &str) -> Province {
    map()
        .province_by_code(code)
        .unwrap_or_else(|| panic!("no province {code}"))
}

fn army(a: &str, b: &str) -> bool {
    map().army_adjacent(p(a), p(b))
}

fn fleet(a: &str, b: &str) -> bool {
    map().fleet_adjacent(Location::new(p(a)), Location::new(p(b)))
}

#[test]
fn counts() {
    let m = map();
    assert_eq!(m.name, "maharajah");
    assert_eq!(m.start_year, 1501, "B.I(4)");
    assert_eq!(m.province_count(), 77);
    assert_eq!(m.supply_centers().count(), 37);
    assert_eq!(m.provinces.iter().filter(|i| i.home.is_some()).count(), 21);
    let kinds = |k: ProvinceKind| m.provinces.iter().filter(|i| i.kind == k).count();
    assert_eq!(kinds(ProvinceKind::Sea), 9);
    assert_eq!(kinds(ProvinceKind::Land) + kinds(ProvinceKind::Coast), 68);
    assert_eq!(m.all_powers().count(), 7);
    // No province has split coasts.
    assert!(m.provinces.iter().all(|i| i.coasts.is_empty()));
}

#[test]
fn two_hundred_and_seven_borders_each_both_ways() {
    let m = map();
    let all: Vec<Province> = m.all_provinces().collect();
    let mut borders = 0;
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            let by_army = m.army_adjacent(*a, *b);
            let by_fleet = m.fleet_adjacent(Location::new(*a), Location::new(*b));
            assert_eq!(by_army, m.army_adjacent(*b, *a), "army {a:?} {b:?}");
            assert_eq!(
                by_fleet,
                m.fleet_adjacent(Location::new(*b), Location::new(*a)),
                "fleet {a:?} {b:?}"
            );
            if by_army || by_fleet {
                borders += 1;
            }
        }
    }
    assert_eq!(borders, 207);
}

#[test]
fn maharajiad_b_iv_2_the_official_abbreviations_and_spellings() {
    let m = map();
    for (abbr, name) in [
        ("Ace", "Aceh"),
        ("Ang", "Ahmadnagar"),
        ("DIK", "Dasht-I-Kavir"),
        ("Sbl", "Sambalpur"),
        ("BoB", "Bay of Bengal"),
        ("KaK", "Kara Kum"),
        ("Mal", "Malwa"),
        ("Mew", "Mewar"),
    ] {
        let by_abbr = m.province_by_name(abbr).unwrap_or_else(|| panic!("{abbr}"));
        assert_eq!(m.info(by_abbr).name, name, "{abbr}");
        assert_eq!(m.province_by_name(name), Some(by_abbr), "{name}");
    }
}

#[test]
fn maharajiad_b_i_2_the_rivers() {
    let m = map();
    let rivers: Vec<&str> = m
        .provinces
        .iter()
        .filter(|i| i.river)
        .map(|i| i.code.as_str())
        .collect();
    assert_eq!(rivers.len(), 17, "{rivers:?}");
    for r in ["KAB", "PES", "LAH", "MUL", "BIK", "JSL", "SIN"] {
        assert!(rivers.contains(&r), "the Indus: {r}");
    }
    for r in [
        "AGR", "AWA", "MUZ", "BEN", "SBL", "ORI", "BGL", "ASS", "AVA", "PEG",
    ] {
        assert!(rivers.contains(&r), "the Ganges and the Irrawaddy: {r}");
    }
    // Fleets go up the rivers: Agra to Awadh, Kabul to Peshawar, Ava to Pegu.
    assert!(fleet("AGR", "AWA") && fleet("KAB", "PES") && fleet("AVA", "PEG"));
    // But not overland from a river to a province off it.
    assert!(!fleet("AGR", "JAI") && army("AGR", "JAI"));
    // Ava is on the river, not on the Bay of Bengal; Pegu is on both.
    assert!(!fleet("AVA", "BOB") && fleet("PEG", "BOB"));
}

#[test]
fn a_sample_of_borders_checked_by_hand() {
    // Along the west coast: Goa - Honavar - Calicut; Goa and Calicut do not touch.
    assert!(army("GOA", "HON") && fleet("GOA", "HON"));
    assert!(!army("GOA", "CAL") && !fleet("GOA", "CAL"));
    // Ceylon: Jaffna and Kandy share a coast; Jaffna does not touch the mainland's Tinnevelly.
    assert!(fleet("JAF", "KDY") && !army("JAF", "TIN"));
    // Persia: Hormuz and Isfahan by land and by the gulf coast; Yezd is inland.
    assert!(fleet("HOR", "ISF") && army("ISF", "YEZ") && !fleet("ISF", "YEZ"));
    // Herat - Kandahar by land only; Kabul and Meshed far apart.
    assert!(army("HER", "KAN") && !fleet("HER", "KAN"));
    assert!(!army("KAB", "MES"));
    // The sea: fleets only (Sind on the Arabian Sea, Kandy on the Sea of Ceylon).
    assert!(fleet("SIN", "ARS") && !army("SIN", "ARS"));
    assert!(fleet("KDY", "SOC"));
    assert!(!army("AGR", "GOA"));
}

#[test]
fn the_starting_position() {
    let m = map();
    assert_eq!(m.starting_units.len(), 21);
    let has = |power: &str, t: UnitType, at: &str| {
        let pw = m.power_by_name(power).expect(power);
        m.starting_units
            .iter()
            .any(|u| u.power == pw && u.unit_type == t && u.location.province == p(at))
    };
    assert!(has("BAHMANA", UnitType::Fleet, "GOA"));
    assert!(has("DELHI", UnitType::Army, "AGR"));
    assert!(has("GONDWANA", UnitType::Fleet, "SBL"));
    assert!(has("MUGHALISTAN", UnitType::Army, "KAB"));
    assert!(has("PERSIA", UnitType::Fleet, "HOR"));
    assert!(has("RAJPUTANA", UnitType::Fleet, "JSL"));
    assert!(has("VIJAYANAGAR", UnitType::Fleet, "PUL"));
    // Every starting unit stands on a home centre of its own power.
    for u in &m.starting_units {
        assert_eq!(m.info(u.location.province).home, Some(u.power));
    }
    // A fleet may stand in a river province (Sambalpur, Jaisalmer).
    assert!(m.can_occupy(UnitType::Fleet, Location::new(p("SBL"))));
}

#[test]
fn every_embedded_variant_loads_and_adjudicates() {
    for name in Map::VARIANTS {
        assert!(Map::variant(name).is_some(), "{name}");
    }
    // The adjudicator on the new map: Delhi moves inland, Persia into the gulf, Rajputana's
    // river fleet down the Indus to Sind.
    let out = chancery::json::adjudicate_json(
        r#"{"variant": "maharajah", "phase": "S1501M",
            "units": {"DELHI": ["A Agr"], "PERSIA": ["F Hor"], "RAJPUTANA": ["F Jsl"]},
            "orders": {"DELHI": ["A Agra - Jaipur"], "PERSIA": ["F Hor - PrG"],
                       "RAJPUTANA": ["F Jsl - Sin"]}}"#,
    )
    .expect("adjudicated");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    for o in v["orders"].as_array().expect("orders") {
        assert_eq!(o["result"], "succeeds", "{o}");
    }
}

#[test]
fn maharajiad_b_iv_2_orders_are_read_with_the_official_abbreviations_and_names() {
    // "A typographical error that results in an order containing either an abbreviation or the
    // fully spelled out name of another province shall be adjudicated as an order pertaining to
    // the province correctly abbreviated or spelled out": a name or abbreviation is read as
    // exactly that province, never "corrected" into another.
    use chancery::reader::{ReadContext, Status, read_order};
    let m = map();
    let board = chancery::adjudicator::Board::initial(m);
    let rules = chancery::rules::Rules::preset("maharajiad").expect("preset");
    let none = std::collections::HashMap::new();
    let ctx = ReadContext {
        map: m,
        rules: &rules,
        power: m.power_by_name("DELHI").expect("delhi"),
        phase: chancery::phase::PhaseKind::Movement,
        board: Some(&board),
        abbreviations: &none,
    };
    let read = |line: &str| {
        let v = read_order(&ctx, line);
        assert_ne!(v.status, Status::Error, "{line}: {:?}", v.message);
        v.order.expect(line).display(m).to_string()
    };
    assert_eq!(read("A Agr - Kmr"), "A AGR - KMR");
    assert_eq!(read("a agra - kashmir"), "A AGR - KMR");
    // Jodhpur written where Jaipur was meant is Jodhpur.
    assert_eq!(read("A Agra - Jodhpur"), "A AGR - JOD");
}
