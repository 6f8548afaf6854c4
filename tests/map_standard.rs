//! Golden test on the standard map itself: counts, symmetry, and the borders other engines got
//! wrong. Independent of the adjudicator and the DATC.

use chancery::map::{Coast, Location, Map, Province, ProvinceKind, UnitType};

fn p(map: &Map, code: &str) -> Province {
    map.province_by_code(code)
        .unwrap_or_else(|| panic!("no province {code}"))
}

fn loc(map: &Map, s: &str) -> Location {
    let (prov, coast) = map
        .parse_location(s)
        .unwrap_or_else(|| panic!("bad location {s}"));
    Location {
        province: prov,
        coast,
    }
}

fn fleet(map: &Map, a: &str, b: &str) -> bool {
    map.fleet_adjacent(loc(map, a), loc(map, b))
}

fn army(map: &Map, a: &str, b: &str) -> bool {
    map.army_adjacent(p(map, a), p(map, b))
}

#[test]
fn counts() {
    let map = Map::standard();
    assert_eq!(map.province_count(), 75);
    let kinds = |k: ProvinceKind| map.provinces.iter().filter(|i| i.kind == k).count();
    assert_eq!(kinds(ProvinceKind::Sea), 19);
    assert_eq!(kinds(ProvinceKind::Land), 14);
    assert_eq!(kinds(ProvinceKind::Coast), 42);
    assert_eq!(map.supply_centers().count(), 34);
    assert_eq!(
        map.provinces.iter().filter(|i| i.home.is_some()).count(),
        22
    );
    assert_eq!(map.powers.len(), 7);
    assert_eq!(map.starting_units.len(), 22);
    let homes: Vec<(String, usize)> = map
        .all_powers()
        .map(|pw| (map.power_name(pw).to_string(), map.home_centers(pw).count()))
        .collect();
    for (name, n) in &homes {
        assert_eq!(*n, if name == "RUSSIA" { 4 } else { 3 }, "{name}");
    }
    let multi: Vec<&str> = map
        .provinces
        .iter()
        .filter(|i| !i.coasts.is_empty())
        .map(|i| i.code.as_str())
        .collect();
    assert_eq!(multi, vec!["BUL", "SPA", "STP"]);
    assert!(
        map.province_by_code("SWI").is_none(),
        "Switzerland is impassable, not a province"
    );
}

#[test]
fn starting_units_stand_on_home_centres() {
    let map = Map::standard();
    for u in &map.starting_units {
        assert!(map.can_occupy(u.unit_type, u.location));
        assert_eq!(map.info(u.location.province).home, Some(u.power));
    }
    let stp = map
        .starting_units
        .iter()
        .find(|u| u.location.province == p(map, "STP"))
        .expect("fleet in St Petersburg");
    assert_eq!(stp.unit_type, UnitType::Fleet);
    assert_eq!(stp.location.coast, Some(Coast::South));
}

#[test]
fn army_and_fleet_adjacency_are_symmetric() {
    let map = Map::standard();
    let mut army_borders = 0;
    for a in map.all_provinces() {
        for b in map.army_neighbours(a).iter() {
            army_borders += 1;
            assert!(
                map.army_adjacent(b, a),
                "army {} -> {}",
                map.info(a).code,
                map.info(b).code
            );
            assert!(map.is_land(a) && map.is_land(b));
        }
    }
    assert_eq!(army_borders % 2, 0);
    let mut fleet_borders = 0;
    for a in map.all_provinces() {
        let info = map.info(a);
        let locs: Vec<Location> = if info.coasts.is_empty() {
            vec![Location::new(a)]
        } else {
            info.coasts
                .iter()
                .map(|c| Location::with_coast(a, *c))
                .collect()
        };
        for l in locs {
            for n in map.fleet_neighbours(l) {
                fleet_borders += 1;
                assert!(
                    map.fleet_adjacent(*n, l),
                    "fleet {} -> {}",
                    map.location_name(l),
                    map.location_name(*n)
                );
                assert!(map.can_occupy(UnitType::Fleet, *n));
            }
        }
    }
    // Counted once from each side.
    assert_eq!(army_borders / 2, 111);
    assert_eq!(fleet_borders / 2, 141);
}

#[test]
fn borders_other_engines_got_wrong() {
    let map = Map::standard();
    // Gulf of Bothnia.
    for t in ["FIN", "LVN", "STP/SC", "SWE", "BAL"] {
        assert!(fleet(map, "BOT", t), "BOT-{t}");
    }
    assert!(!fleet(map, "BOT", "STP/NC"));
    assert_eq!(map.fleet_neighbours(loc(map, "BOT")).len(), 5);
    // Galicia-Ukraine, Livonia-Warsaw.
    assert!(army(map, "GAL", "UKR"));
    assert!(army(map, "LVN", "WAR"));
    // Mid-Atlantic to both coasts of Spain.
    assert!(fleet(map, "MAO", "SPA/SC"));
    assert!(fleet(map, "MAO", "SPA/NC"));
    // Norway-St Petersburg by army, and by fleet to the north coast only.
    assert!(army(map, "NWY", "STP"));
    assert!(fleet(map, "NWY", "STP/NC"));
    assert!(!fleet(map, "NWY", "STP/SC"));
    // Tuscany-Tyrrhenian Sea.
    assert!(fleet(map, "TUS", "TYS"));
    // Constantinople-Smyrna by fleet.
    assert!(fleet(map, "CON", "SMY"));
    assert!(army(map, "CON", "SMY"));
}

#[test]
fn borders_that_do_not_exist() {
    let map = Map::standard();
    assert!(
        !fleet(map, "ROM", "VEN"),
        "no coast between Rome and Venice"
    );
    assert!(!fleet(map, "ARM", "SYR"));
    assert!(army(map, "ARM", "SYR"));
    assert!(!fleet(map, "SPA/NC", "LYO"));
    assert!(!fleet(map, "BUL/EC", "AEG"));
    assert!(!fleet(map, "BUL/SC", "BLA"));
    assert!(!army(map, "BOH", "BUD"));
    assert!(!army(map, "TUS", "TYR"));
    assert!(!fleet(map, "KIE", "MUN"));
    assert!(!army(map, "LVP", "IRI"));
}

#[test]
fn names_and_aliases() {
    let map = Map::standard();
    for (name, code) in [
        ("Gulf of Lyon", "LYO"),
        ("gulf of lyons", "LYO"),
        ("NAT", "NAO"),
        ("Mid-Atlantic Ocean", "MAO"),
        ("St. Petersburg", "STP"),
        ("Saint Petersburg", "STP"),
        ("norwegian sea", "NWG"),
        ("Norway", "NWY"),
        ("English Channel", "ENG"),
        ("Heligoland Bight", "HEL"),
        ("Tyrolia", "TYR"),
        ("Tyrrhenian Sea", "TYS"),
    ] {
        assert_eq!(
            map.province_by_name(name).map(|x| map.info(x).code.clone()),
            Some(code.to_string()),
            "{name}"
        );
    }
    assert!(
        map.province_by_name("Liv").is_none(),
        "LIV is ambiguous: Liverpool or Livonia"
    );
    assert!(map.province_by_name("Atlantis").is_none());
}
