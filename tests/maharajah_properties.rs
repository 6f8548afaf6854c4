//! Property test on the Maharajah map (issue 13): for random legal positions and random orders,
//! the adjudicator terminates, never panics, and never leaves two units in one province.

use chancery::adjudicator::{Board, adjudicate};
use chancery::map::{Location, Map, Power, Province, ProvinceKind, Unit, UnitType};
use chancery::order::{Order, UnitRef};
use chancery::phase::{Phase, PhaseKind, Season};
use chancery::rules::Rules;
use proptest::prelude::*;

fn map() -> &'static Map {
    Map::variant("maharajah").expect("maharajah")
}

fn unit_ref(u: &Unit) -> UnitRef {
    UnitRef {
        unit_type: Some(u.unit_type),
        province: u.location.province,
        coast: None,
        nationality: None,
    }
}

/// A legal position: each pick places a unit in a province no other holds, of a type that may
/// stand there (an army on land, a fleet at sea or on a coast, rivers included).
fn position(picks: &[(u8, u8, bool)]) -> Board {
    let m = map();
    let mut board = Board::initial(m);
    board.units.clear();
    board.phase = Phase::new(Season::Spring, 1502, PhaseKind::Movement);
    let n = m.province_count();
    let powers: Vec<Power> = m.all_powers().collect();
    for &(p, pw, fleet) in picks {
        let province = Province((usize::from(p) % n) as u8);
        if board.unit_at(province).is_some() {
            continue;
        }
        let kind = m.info(province).kind;
        let unit_type = match (kind, fleet) {
            (ProvinceKind::Sea, _) => UnitType::Fleet,
            (ProvinceKind::Land, _) => UnitType::Army,
            (ProvinceKind::Coast, true) => UnitType::Fleet,
            (ProvinceKind::Coast, false) => UnitType::Army,
        };
        board.units.push(Unit {
            power: powers[usize::from(pw) % powers.len()],
            unit_type,
            location: Location::new(province),
        });
    }
    board
}

/// An order for each unit: hold, a move to a neighbour (or anywhere, for a convoy), a support of
/// another unit, or a convoy; chosen by the picks, legal or not (the judge must cope).
fn orders(board: &Board, picks: &[(u8, u8)]) -> Vec<(Power, Order)> {
    let m = map();
    let n = m.province_count();
    board
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let (kind, target) = picks.get(i).copied().unwrap_or((0, 0));
            let dest = Province((usize::from(target) % n) as u8);
            let other = &board.units[usize::from(target) % board.units.len()];
            let order = match kind % 5 {
                0 => Order::Hold { unit: unit_ref(u) },
                1 | 2 => Order::Move {
                    unit: unit_ref(u),
                    dest,
                    dest_coast: None,
                    via_convoy: kind % 5 == 2,
                    route: Vec::new(),
                },
                3 => Order::SupportMove {
                    unit: unit_ref(u),
                    target: unit_ref(other),
                    dest,
                    dest_coast: None,
                },
                _ => Order::Convoy {
                    unit: unit_ref(u),
                    army: unit_ref(other),
                    dest,
                },
            };
            (u.power, order)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn the_judge_never_panics_and_never_stacks_units(
        units in proptest::collection::vec((any::<u8>(), any::<u8>(), any::<bool>()), 1..40),
        picks in proptest::collection::vec((any::<u8>(), any::<u8>()), 0..40),
    ) {
        let board = position(&units);
        let rules = Rules::preset("maharajiad").expect("preset");
        let orders = orders(&board, &picks);
        let adj = adjudicate(map(), &rules, &board, &orders);
        let mut seen = std::collections::HashSet::new();
        for u in &adj.next.units {
            prop_assert!(seen.insert(u.location.province), "two units in {:?}", u.location);
        }
    }
}
