//! One test for every value of every house-rule option in `src/rules.rs`.
//!
//! Each test is named after the clause it implements (World Masters 2004 section D, Maharajiad I
//! section B, Agora Birthday Tournament 2020 BT24, DATC v3.0 chapter 4) and runs a position on
//! which the option's values give *different* outcomes, asserting the outcome and reason of every
//! order and the units on the next board. So a test fails if its option were ignored.
//!
//! Unless a test says otherwise, the rules are the default `dpv2023` preset with the one option
//! under test changed; where a preset uses that value, the test also runs under the preset.

use chancery::adjudicator::{Adjudication, Board, Dislodged, Outcome, Reason, adjudicate};
use chancery::map::{Location, Map, Power, Unit, UnitType};
use chancery::order::{Order, parse_order};
use chancery::phase::Phase;
use chancery::rules::{
    CivilDisorder, ConvoyIntent, ConvoyLegality, ConvoyRoutes, Designation, DuplicateBuilds,
    ExcessAdjustments, MultipleOrders, Rules, UntypedBuild, WrongMoveCoast,
};

// ------------------------------------------------------------------------------------ helpers

fn map() -> &'static Map {
    Map::standard()
}

fn preset(name: &str) -> Rules {
    Rules::preset(name).unwrap_or_else(|e| panic!("{e}"))
}

/// The default rules (`dpv2023`) with one option changed.
fn datc_with(change: impl FnOnce(&mut Rules)) -> Rules {
    let mut r = Rules::default();
    change(&mut r);
    r
}

fn power(name: &str) -> Power {
    map()
        .power_by_name(name)
        .unwrap_or_else(|| panic!("unknown power {name}"))
}

/// `"RUSSIA F BUL/SC"`.
fn unit(text: &str) -> Unit {
    let w: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(w.len(), 3, "a unit is POWER TYPE LOCATION: {text}");
    let unit_type = match w[1] {
        "A" => UnitType::Army,
        "F" => UnitType::Fleet,
        t => panic!("bad unit type {t} in {text}"),
    };
    let (province, coast) = map()
        .parse_location(w[2])
        .unwrap_or_else(|| panic!("bad location in {text}"));
    let u = Unit {
        power: power(w[0]),
        unit_type,
        location: Location { province, coast },
    };
    assert!(
        map().can_occupy(u.unit_type, u.location),
        "{text} cannot stand there"
    );
    u
}

/// `"RUSSIA F BUL/SC"`, the inverse of [`unit`].
fn show(u: &Unit) -> String {
    format!(
        "{} {}",
        map().power_name(u.power),
        map().unit_name(u.unit_type, u.location)
    )
}

fn sorted(units: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = units.into_iter().collect();
    v.sort();
    v
}

fn strings(list: &[&str]) -> Vec<String> {
    sorted(list.iter().map(|s| s.to_string()))
}

/// A board in `phase` (`S1901M`, `W1901A`) with these units, and supply centres owned as listed:
/// each entry of `centres` is a power followed by province codes (`"FRANCE PAR MAR BRE"`).
fn board(phase: &str, units: &[&str], centres: &[&str]) -> Board {
    let phase: Phase = phase.parse().unwrap_or_else(|e| panic!("{e}"));
    let mut b = Board::empty(map(), phase);
    b.units = units.iter().map(|u| unit(u)).collect();
    for line in centres {
        let mut w = line.split_whitespace();
        let p = power(w.next().unwrap_or(""));
        for code in w {
            let c = map()
                .province_by_code(code)
                .unwrap_or_else(|| panic!("unknown province {code}"));
            assert!(map().info(c).supply_center, "{code} is not a supply centre");
            b.owners[c.0 as usize] = Some(p);
        }
    }
    b
}

fn order(text: &str) -> Order {
    parse_order(map(), text).unwrap_or_else(|e| panic!("{e}"))
}

/// Adjudicate `orders` (power, order in canonical notation), in the order written.
fn run(rules: &Rules, board: &Board, orders: &[(&str, &str)]) -> Adjudication {
    let orders: Vec<(Power, Order)> = orders.iter().map(|(p, o)| (power(p), order(o))).collect();
    adjudicate(map(), rules, board, &orders)
}

type Res = (Outcome, Option<Reason>);

const OK: Res = (Outcome::Succeeds, None);

fn fails(r: Reason) -> Res {
    (Outcome::Fails, Some(r))
}

fn invalid(r: Reason) -> Res {
    (Outcome::Invalid, Some(r))
}

/// The outcome and reason of every order, in input order.
fn assert_results(adj: &Adjudication, want: &[Res]) {
    let got: Vec<Res> = adj.results.iter().map(|r| (r.outcome, r.reason)).collect();
    let listing: Vec<String> = adj
        .results
        .iter()
        .map(|r| {
            format!(
                "  {} {}: {} {:?} {}",
                map().power_name(r.power),
                r.order.display(map()),
                r.outcome.as_str(),
                r.reason,
                r.note.as_deref().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(got, want, "results:\n{}", listing.join("\n"));
}

/// The units on the next board.
fn assert_units(adj: &Adjudication, want: &[&str]) {
    assert_eq!(
        sorted(adj.next.units.iter().map(show)),
        strings(want),
        "units on the next board ({})",
        adj.next.phase
    );
}

/// The units dislodged in a movement phase.
fn assert_dislodged(adj: &Adjudication, want: &[&str]) {
    assert_eq!(
        sorted(adj.retreats.iter().map(|r| show(&r.dislodged.unit))),
        strings(want),
        "dislodged units"
    );
}

fn assert_built(adj: &Adjudication, want: &[&str]) {
    assert_eq!(sorted(adj.built.iter().map(show)), strings(want), "built");
}

/// Units disbanded without an order (civil disorder, failed retreats).
fn assert_disbanded(adj: &Adjudication, want: &[&str]) {
    assert_eq!(
        sorted(adj.disbanded.iter().map(show)),
        strings(want),
        "disbanded without an order"
    );
}

/// Where the dislodged unit in `province` may retreat, as sorted location names.
fn retreats_of(adj: &Adjudication, province: &str) -> Vec<String> {
    let p = map().province_by_code(province).unwrap();
    let r = adj
        .retreats
        .iter()
        .find(|r| r.dislodged.unit.location.province == p)
        .unwrap_or_else(|| panic!("no dislodged unit in {province}"));
    sorted(r.retreats.iter().map(|l| map().location_name(*l)))
}

// ------------------------------------------------------------------------- convoy_intent

/// Norway and Sweden swap: England's army goes by its own fleet in the Skagerrak, Russia's by land.
fn adjacent_convoy_swap(rules: &Rules, army_order: &str) -> Adjudication {
    let b = board(
        "S1901M",
        &["ENGLAND A NWY", "ENGLAND F SKA", "RUSSIA A SWE"],
        &[],
    );
    run(
        rules,
        &b,
        &[
            ("ENGLAND", army_order),
            ("ENGLAND", "F SKA C A NWY - SWE"),
            ("RUSSIA", "A SWE - NWY"),
        ],
    )
}

/// WM D.VI(2), Maharajiad B.VII(2), DATC 4.A.3 (2000/2023 rules): an army's move to an adjacent
/// province goes by convoy when a fleet of the army's own power is ordered to convoy it there, even
/// without "via convoy". So Norway and Sweden swap instead of meeting head to head.
#[test]
fn wm_d_vi_2_own_fleet_convoy_makes_adjacent_move_go_by_convoy() {
    for rules in [
        datc_with(|r| r.convoy_intent = ConvoyIntent::ExplicitOrOwnFleet),
        preset("wm2004"),
        preset("maharajiad"),
    ] {
        let adj = adjacent_convoy_swap(&rules, "A NWY - SWE");
        assert_results(&adj, &[OK, OK, OK]);
        assert_units(&adj, &["ENGLAND A SWE", "ENGLAND F SKA", "RUSSIA A NWY"]);
    }
}

/// DATC 4.A.3, last paragraph (DPTG): only an explicit "via convoy" makes an adjacent move go by
/// convoy. Without it the army goes by land, bounces head to head with Sweden, and the convoy
/// order matches nothing. With "via convoy" the swap works.
#[test]
fn datc_4_a_3_dptg_only_explicit_via_convoy_goes_by_convoy() {
    let rules = datc_with(|r| r.convoy_intent = ConvoyIntent::ExplicitOnly);
    let adj = adjacent_convoy_swap(&rules, "A NWY - SWE");
    assert_results(
        &adj,
        &[
            fails(Reason::Bounce),
            fails(Reason::Void),
            fails(Reason::Bounce),
        ],
    );
    assert_units(&adj, &["ENGLAND A NWY", "ENGLAND F SKA", "RUSSIA A SWE"]);

    let adj = adjacent_convoy_swap(&rules, "A NWY - SWE VIA CONVOY");
    assert_results(&adj, &[OK, OK, OK]);
    assert_units(&adj, &["ENGLAND A SWE", "ENGLAND F SKA", "RUSSIA A NWY"]);
}

// ------------------------------------------------------------------------- convoy_routes

/// London to Belgium by the North Sea or the Channel; Germany dislodges the fleet in the North
/// Sea, and with `channel_attacked` France dislodges the one in the Channel too.
fn two_route_convoy(rules: &Rules, army_order: &str, channel_attacked: bool) -> Adjudication {
    let mut units = vec![
        "ENGLAND A LON",
        "ENGLAND F NTH",
        "ENGLAND F ENG",
        "GERMANY F HEL",
        "GERMANY F DEN",
    ];
    let mut orders = vec![
        ("ENGLAND", army_order),
        ("ENGLAND", "F NTH C A LON - BEL"),
        ("ENGLAND", "F ENG C A LON - BEL"),
        ("GERMANY", "F HEL - NTH"),
        ("GERMANY", "F DEN S F HEL - NTH"),
    ];
    if channel_attacked {
        units.extend(["FRANCE F BRE", "FRANCE F MAO"]);
        orders.extend([("FRANCE", "F BRE - ENG"), ("FRANCE", "F MAO S F BRE - ENG")]);
    }
    run(rules, &board("S1901M", &units, &[]), &orders)
}

/// WM D.VI(3)–(4), Maharajiad B.VII(3)–(4): an order that specifies a route ("via North Sea")
/// limits the convoy to it, and the convoy is disrupted when a fleet on that route is dislodged,
/// although the route through the Channel stands.
#[test]
fn wm_d_vi_3_4_specified_route_is_disrupted_when_a_fleet_on_it_is_dislodged() {
    for rules in [
        datc_with(|r| r.convoy_routes = ConvoyRoutes::Honoured),
        preset("wm2004"),
        preset("maharajiad"),
    ] {
        let adj = two_route_convoy(&rules, "A LON - BEL VIA NTH", false);
        assert_results(
            &adj,
            &[
                fails(Reason::NoConvoy),
                fails(Reason::Dislodged),
                OK,
                OK,
                OK,
            ],
        );
        assert_units(
            &adj,
            &[
                "ENGLAND A LON",
                "ENGLAND F ENG",
                "GERMANY F NTH",
                "GERMANY F DEN",
            ],
        );
        assert_dislodged(&adj, &["ENGLAND F NTH"]);
    }
}

/// DATC 4.A.6 choice a: a written route is read only as "via convoy", so the army still goes
/// through the Channel when the North Sea fleet it named is dislodged.
#[test]
fn datc_4_a_6_written_route_is_ignored_and_any_route_may_be_used() {
    let rules = datc_with(|r| r.convoy_routes = ConvoyRoutes::Ignored);
    let adj = two_route_convoy(&rules, "A LON - BEL VIA NTH", false);
    assert_results(&adj, &[OK, fails(Reason::Dislodged), OK, OK, OK]);
    assert_units(
        &adj,
        &[
            "ENGLAND A BEL",
            "ENGLAND F ENG",
            "GERMANY F NTH",
            "GERMANY F DEN",
        ],
    );
    assert_dislodged(&adj, &["ENGLAND F NTH"]);
}

/// WM D.VI(4) second half, DATC 4.A.1 choice b: with no route written, the convoy is disrupted
/// only when the fleets of every possible route are dislodged. Under both route policies.
#[test]
fn wm_d_vi_4_unspecified_route_is_disrupted_only_when_every_route_is_broken() {
    for routes in [ConvoyRoutes::Honoured, ConvoyRoutes::Ignored] {
        let rules = datc_with(|r| r.convoy_routes = routes);
        // One route broken: the army goes through the Channel.
        let adj = two_route_convoy(&rules, "A LON - BEL", false);
        assert_results(&adj, &[OK, fails(Reason::Dislodged), OK, OK, OK]);
        assert_units(
            &adj,
            &[
                "ENGLAND A BEL",
                "ENGLAND F ENG",
                "GERMANY F NTH",
                "GERMANY F DEN",
            ],
        );
        // Both routes broken: no convoy.
        let adj = two_route_convoy(&rules, "A LON - BEL", true);
        assert_results(
            &adj,
            &[
                fails(Reason::NoConvoy),
                fails(Reason::Dislodged),
                fails(Reason::Dislodged),
                OK,
                OK,
                OK,
                OK,
            ],
        );
        assert_units(
            &adj,
            &[
                "ENGLAND A LON",
                "GERMANY F NTH",
                "GERMANY F DEN",
                "FRANCE F ENG",
                "FRANCE F MAO",
            ],
        );
        assert_dislodged(&adj, &["ENGLAND F NTH", "ENGLAND F ENG"]);
    }
}

// ------------------------------------------------------------------------ convoy_legality

/// Brest, ordered to London with no fleet anywhere on the board, is supported to hold by Paris
/// and attacked from Picardy with support from Gascony. `extra` adds units that do nothing.
fn move_needing_absent_fleets(rules: &Rules, extra: &[&str]) -> Adjudication {
    let mut units = vec![
        "FRANCE A BRE",
        "FRANCE A PAR",
        "GERMANY A PIC",
        "GERMANY A GAS",
    ];
    units.extend_from_slice(extra);
    run(
        rules,
        &board("S1901M", &units, &[]),
        &[
            ("FRANCE", "A BRE - LON"),
            ("FRANCE", "A PAR S A BRE"),
            ("GERMANY", "A PIC - BRE"),
            ("GERMANY", "A GAS S A PIC - BRE"),
        ],
    )
}

/// WM D.III(4), Maharajiad B.IV(5), DATC 4.E.1: a move that no fleets on the board could carry
/// is illegal; the unit is presumed to hold and may receive support to hold, which here stops the
/// dislodgement.
#[test]
fn wm_d_iii_4_move_no_fleet_on_board_could_carry_is_illegal_and_unit_may_be_supported_to_hold() {
    for rules in [
        datc_with(|r| r.convoy_legality = ConvoyLegality::UnitsOnBoard),
        preset("wm2004"),
        preset("maharajiad"),
    ] {
        let adj = move_needing_absent_fleets(&rules, &[]);
        assert_results(
            &adj,
            &[invalid(Reason::Illegal), OK, fails(Reason::Bounce), OK],
        );
        assert_units(
            &adj,
            &[
                "FRANCE A BRE",
                "FRANCE A PAR",
                "GERMANY A PIC",
                "GERMANY A GAS",
            ],
        );
        assert_dislodged(&adj, &[]);
    }
}

/// WM D.III(4): "irrespective of nationality of such other units". A foreign fleet in the
/// Channel, ordered to do nothing for France, makes the move legal: it fails for want of a convoy,
/// the hold support does not match, and Brest is dislodged.
#[test]
fn wm_d_iii_4_foreign_fleet_on_board_makes_the_move_legal() {
    let rules = datc_with(|r| r.convoy_legality = ConvoyLegality::UnitsOnBoard);
    let adj = move_needing_absent_fleets(&rules, &["ENGLAND F ENG"]);
    assert_results(
        &adj,
        &[fails(Reason::NoConvoy), fails(Reason::Void), OK, OK],
    );
    assert_units(
        &adj,
        &[
            "ENGLAND F ENG",
            "FRANCE A PAR",
            "GERMANY A BRE",
            "GERMANY A GAS",
        ],
    );
    assert_dislodged(&adj, &["FRANCE A BRE"]);
}

/// `convoy_legality = geography`, the alternative to WM D.III(4) and DATC 4.E.1: any chain of sea
/// provinces makes the move legal, so with no fleets it simply fails; Brest is not holding, the
/// hold support is void, and Brest is dislodged.
#[test]
fn geography_convoy_legality_move_without_fleets_is_legal_and_voids_hold_support() {
    let rules = datc_with(|r| r.convoy_legality = ConvoyLegality::Geography);
    let adj = move_needing_absent_fleets(&rules, &[]);
    assert_results(
        &adj,
        &[fails(Reason::NoConvoy), fails(Reason::Void), OK, OK],
    );
    assert_units(&adj, &["FRANCE A PAR", "GERMANY A BRE", "GERMANY A GAS"]);
    assert_dislodged(&adj, &["FRANCE A BRE"]);
}

// ------------------------------------------------------------------------ multiple_orders

/// Paris is ordered twice (`first`, then `second`), supported to hold from Brest, and attacked
/// from Burgundy with support from Picardy.
fn paris_ordered_twice(rules: &Rules, first: &str, second: &str) -> Adjudication {
    let b = board(
        "S1901M",
        &[
            "FRANCE A PAR",
            "FRANCE A BRE",
            "GERMANY A BUR",
            "GERMANY A PIC",
        ],
        &[],
    );
    run(
        rules,
        &b,
        &[
            ("FRANCE", first),
            ("FRANCE", second),
            ("FRANCE", "A BRE S A PAR"),
            ("GERMANY", "A BUR - PAR"),
            ("GERMANY", "A PIC S A BUR - PAR"),
        ],
    )
}

/// WM D.III(5): when a unit is ordered more than once, the last order reading top to bottom is
/// used. Paris leaves for Gascony, the hold support is void and Burgundy walks in.
#[test]
fn wm_d_iii_5_last_order_wins() {
    for rules in [
        datc_with(|r| r.multiple_orders = MultipleOrders::LastWins),
        preset("wm2004"),
    ] {
        let adj = paris_ordered_twice(&rules, "A PAR H", "A PAR - GAS");
        assert_results(
            &adj,
            &[invalid(Reason::Superseded), OK, fails(Reason::Void), OK, OK],
        );
        assert_units(
            &adj,
            &[
                "FRANCE A GAS",
                "FRANCE A BRE",
                "GERMANY A PAR",
                "GERMANY A PIC",
            ],
        );
        // Identical orders: the last is used, the first is superseded.
        let adj = paris_ordered_twice(&rules, "A PAR - GAS", "A PAR - GAS");
        assert_results(
            &adj,
            &[invalid(Reason::Superseded), OK, fails(Reason::Void), OK, OK],
        );
        assert_units(
            &adj,
            &[
                "FRANCE A GAS",
                "FRANCE A BRE",
                "GERMANY A PAR",
                "GERMANY A PIC",
            ],
        );
    }
}

/// WM D.III(5) with D.III(4): the last order is used even when it is illegal; the unit is then
/// presumed to hold (and keeps its hold support), so the earlier legal move is not made.
#[test]
fn wm_d_iii_5_last_order_wins_even_when_it_is_illegal() {
    let rules = datc_with(|r| r.multiple_orders = MultipleOrders::LastWins);
    let adj = paris_ordered_twice(&rules, "A PAR - GAS", "A PAR - LON");
    assert_results(
        &adj,
        &[
            invalid(Reason::Superseded),
            invalid(Reason::Illegal),
            OK,
            fails(Reason::Bounce),
            OK,
        ],
    );
    assert_units(
        &adj,
        &[
            "FRANCE A PAR",
            "FRANCE A BRE",
            "GERMANY A BUR",
            "GERMANY A PIC",
        ],
    );
}

/// Maharajiad B.IV(6), DATC 4.D.3 choice c: a unit ordered more than once is ordered ambiguously
/// and holds, and may receive support to hold; here the support holds Burgundy off.
#[test]
fn maharajiad_b_iv_6_several_orders_hold() {
    for rules in [
        datc_with(|r| r.multiple_orders = MultipleOrders::Hold),
        preset("maharajiad"),
        preset("dpv2023"),
    ] {
        let adj = paris_ordered_twice(&rules, "A PAR H", "A PAR - GAS");
        assert_results(
            &adj,
            &[
                invalid(Reason::Ambiguous),
                invalid(Reason::Ambiguous),
                OK,
                fails(Reason::Bounce),
                OK,
            ],
        );
        assert_units(
            &adj,
            &[
                "FRANCE A PAR",
                "FRANCE A BRE",
                "GERMANY A BUR",
                "GERMANY A PIC",
            ],
        );
    }
}

/// Maharajiad B.IV(6): "Duplicate orders will be treated as a single order"; and DATC 4.D.3: an
/// illegal order is ignored, so a legal and an illegal order are not several orders.
#[test]
fn maharajiad_b_iv_6_identical_duplicates_count_as_one_order() {
    let rules = datc_with(|r| r.multiple_orders = MultipleOrders::Hold);
    let adj = paris_ordered_twice(&rules, "A PAR - GAS", "A PAR - GAS");
    assert_results(&adj, &[OK, OK, fails(Reason::Void), OK, OK]);
    assert_units(
        &adj,
        &[
            "FRANCE A GAS",
            "FRANCE A BRE",
            "GERMANY A PAR",
            "GERMANY A PIC",
        ],
    );

    let adj = paris_ordered_twice(&rules, "A PAR - GAS", "A PAR - LON");
    assert_results(
        &adj,
        &[OK, invalid(Reason::Illegal), fails(Reason::Void), OK, OK],
    );
    assert_units(
        &adj,
        &[
            "FRANCE A GAS",
            "FRANCE A BRE",
            "GERMANY A PAR",
            "GERMANY A PIC",
        ],
    );
}

/// A German army dislodged in Burgundy by a French army from Paris, retreating.
fn retreat_ordered_twice(rules: &Rules, first: &str, second: &str) -> Adjudication {
    let mut b = board("S1901R", &["FRANCE A BUR"], &[]);
    b.dislodged.push(Dislodged {
        unit: unit("GERMANY A BUR"),
        attacker_from: map().province_by_code("PAR").unwrap(),
        by_convoy: false,
    });
    run(rules, &b, &[("GERMANY", first), ("GERMANY", second)])
}

/// WM D.III(5) in a retreat phase: the last retreat order is used.
#[test]
fn wm_d_iii_5_last_retreat_order_wins() {
    let rules = datc_with(|r| r.multiple_orders = MultipleOrders::LastWins);
    let adj = retreat_ordered_twice(&rules, "A BUR R MUN", "A BUR R RUH");
    assert_results(&adj, &[invalid(Reason::Superseded), OK]);
    assert_units(&adj, &["FRANCE A BUR", "GERMANY A RUH"]);
    assert_disbanded(&adj, &[]);
}

/// WM D.III(5) in a retreat phase, as in a movement phase: the last order is used even when it
/// is illegal (Paris is where the attacker came from), so the unit has no legal retreat order
/// and is disbanded; the earlier retreat to Munich is superseded.
#[test]
fn wm_d_iii_5_last_retreat_order_wins_even_when_it_is_illegal() {
    let rules = datc_with(|r| r.multiple_orders = MultipleOrders::LastWins);
    let adj = retreat_ordered_twice(&rules, "A BUR R MUN", "A BUR R PAR");
    assert_results(
        &adj,
        &[invalid(Reason::Superseded), invalid(Reason::Illegal)],
    );
    assert_units(&adj, &["FRANCE A BUR"]);
    assert_disbanded(&adj, &["GERMANY A BUR"]);
}

/// Maharajiad B.IV(6) in a retreat phase: two different retreat orders leave the unit without a
/// usable order, so it is disbanded; identical ones count as one.
#[test]
fn maharajiad_b_iv_6_several_retreat_orders_disband() {
    let rules = datc_with(|r| r.multiple_orders = MultipleOrders::Hold);
    let adj = retreat_ordered_twice(&rules, "A BUR R MUN", "A BUR R RUH");
    assert_results(
        &adj,
        &[invalid(Reason::Ambiguous), invalid(Reason::Ambiguous)],
    );
    assert_units(&adj, &["FRANCE A BUR"]);
    assert_disbanded(&adj, &["GERMANY A BUR"]);

    let adj = retreat_ordered_twice(&rules, "A BUR R MUN", "A BUR R MUN");
    assert_results(&adj, &[OK, OK]);
    assert_units(&adj, &["FRANCE A BUR", "GERMANY A MUN"]);
    assert_disbanded(&adj, &[]);
}

// ------------------------------------------------------------------ unit_type_designation

/// France attacks Burgundy from Paris with support from Marseilles.
fn paris_attacks_burgundy(rules: &Rules, mover: &str, support: &str) -> Adjudication {
    let b = board(
        "S1901M",
        &["FRANCE A PAR", "FRANCE A MAR", "GERMANY A BUR"],
        &[],
    );
    run(
        rules,
        &b,
        &[
            ("FRANCE", mover),
            ("FRANCE", support),
            ("GERMANY", "A BUR H"),
        ],
    )
}

/// WM D.IV(1), DATC 4.C.2 choice b: an inaccurate unit type (`F PAR` for the army in Paris) does
/// not invalidate the order, neither in the unit's own order nor in a support naming it.
#[test]
fn wm_d_iv_1_wrong_unit_type_does_not_invalidate_the_order() {
    for rules in [
        datc_with(|r| r.unit_type_designation = Designation::Accept),
        preset("wm2004"),
    ] {
        for (mover, support) in [
            ("F PAR - BUR", "A MAR S A PAR - BUR"),
            ("A PAR - BUR", "F MAR S F PAR - BUR"),
        ] {
            let adj = paris_attacks_burgundy(&rules, mover, support);
            assert_results(&adj, &[OK, OK, fails(Reason::Dislodged)]);
            assert_units(&adj, &["FRANCE A BUR", "FRANCE A MAR"]);
            assert_dislodged(&adj, &["GERMANY A BUR"]);
        }
    }
}

/// Maharajiad B.V(2): an inaccurate unit type invalidates the order (the unit holds); in a
/// support it invalidates the support. B.V(1): an omitted type does not.
#[test]
fn maharajiad_b_v_2_wrong_unit_type_invalidates_the_order() {
    for rules in [
        datc_with(|r| r.unit_type_designation = Designation::Invalidate),
        preset("maharajiad"),
    ] {
        let adj = paris_attacks_burgundy(&rules, "F PAR - BUR", "A MAR S A PAR - BUR");
        assert_results(&adj, &[invalid(Reason::Illegal), fails(Reason::Void), OK]);
        assert_units(&adj, &["FRANCE A PAR", "FRANCE A MAR", "GERMANY A BUR"]);

        let adj = paris_attacks_burgundy(&rules, "A PAR - BUR", "A MAR S F PAR - BUR");
        assert_results(&adj, &[fails(Reason::Bounce), invalid(Reason::Illegal), OK]);
        assert_units(&adj, &["FRANCE A PAR", "FRANCE A MAR", "GERMANY A BUR"]);

        // Maharajiad B.V(1): omitted types are fine.
        let adj = paris_attacks_burgundy(&rules, "PAR - BUR", "MAR S PAR - BUR");
        assert_results(&adj, &[OK, OK, fails(Reason::Dislodged)]);
        assert_units(&adj, &["FRANCE A BUR", "FRANCE A MAR"]);
    }
}

// ---------------------------------------------------------------- nationality_designation

/// Turkey supports the Russian army in Sevastopol into Rumania, held by Austria.
fn turkish_support_for_russia(rules: &Rules, support: &str) -> Adjudication {
    let b = board(
        "S1901M",
        &["RUSSIA A SEV", "TURKEY F BLA", "AUSTRIA A RUM"],
        &[],
    );
    run(
        rules,
        &b,
        &[
            ("RUSSIA", "A SEV - RUM"),
            ("TURKEY", support),
            ("AUSTRIA", "A RUM H"),
        ],
    )
}

/// WM D.IV(2), DATC 4.C.6 choice b: an inaccurate nationality of a supported foreign unit
/// (`ITALIAN A SEV` for the Russian army) does not invalidate the support.
#[test]
fn wm_d_iv_2_wrong_nationality_does_not_invalidate_the_support() {
    for rules in [
        datc_with(|r| r.nationality_designation = Designation::Accept),
        preset("wm2004"),
    ] {
        let adj = turkish_support_for_russia(&rules, "F BLA S ITALIAN A SEV - RUM");
        assert_results(&adj, &[OK, OK, fails(Reason::Dislodged)]);
        assert_units(&adj, &["RUSSIA A RUM", "TURKEY F BLA"]);
        assert_dislodged(&adj, &["AUSTRIA A RUM"]);
    }
}

/// Maharajiad B.V(4): an inaccurate nationality invalidates the support, so the attack bounces.
/// B.V(3): an omitted nationality does not, and the right one of course does not.
#[test]
fn maharajiad_b_v_4_wrong_nationality_invalidates_the_support() {
    for rules in [
        datc_with(|r| r.nationality_designation = Designation::Invalidate),
        preset("maharajiad"),
    ] {
        let adj = turkish_support_for_russia(&rules, "F BLA S ITALIAN A SEV - RUM");
        assert_results(&adj, &[fails(Reason::Bounce), invalid(Reason::Illegal), OK]);
        assert_units(&adj, &["RUSSIA A SEV", "TURKEY F BLA", "AUSTRIA A RUM"]);

        for support in ["F BLA S A SEV - RUM", "F BLA S RUSSIAN A SEV - RUM"] {
            let adj = turkish_support_for_russia(&rules, support);
            assert_results(&adj, &[OK, OK, fails(Reason::Dislodged)]);
            assert_units(&adj, &["RUSSIA A RUM", "TURKEY F BLA"]);
        }
    }
}

// ----------------------------------------------------------------------- wrong_move_coast

fn gascony_to_spain(rules: &Rules, order: &str) -> Adjudication {
    run(
        rules,
        &board("S1901M", &["FRANCE F GAS"], &[]),
        &[("FRANCE", order)],
    )
}

/// DATC 4.B.3 choice b: a move to a coast the fleet cannot reach (Gascony to Spain's south coast)
/// is illegal; the fleet holds. DATC 4.B.2: an omitted coast, with one reachable, is fine.
#[test]
fn datc_4_b_3_move_to_impossible_coast_is_illegal() {
    for rules in [
        datc_with(|r| r.wrong_move_coast = WrongMoveCoast::Illegal),
        preset("dpv2023"),
        preset("maharajiad"),
    ] {
        let adj = gascony_to_spain(&rules, "F GAS - SPA/SC");
        assert_results(&adj, &[invalid(Reason::Illegal)]);
        assert_units(&adj, &["FRANCE F GAS"]);

        let adj = gascony_to_spain(&rules, "F GAS - SPA");
        assert_results(&adj, &[OK]);
        assert_units(&adj, &["FRANCE F SPA/NC"]);
    }
}

/// WM D.IV(3)(b): an inaccurate coast never invalidates a move order; the fleet goes to the one
/// coast it can reach.
#[test]
fn wm_d_iv_3_b_inaccurate_coast_is_corrected() {
    for rules in [
        datc_with(|r| r.wrong_move_coast = WrongMoveCoast::Corrected),
        preset("wm2004"),
    ] {
        let adj = gascony_to_spain(&rules, "F GAS - SPA/SC");
        assert_results(&adj, &[OK]);
        assert_units(&adj, &["FRANCE F SPA/NC"]);

        let adj = gascony_to_spain(&rules, "F GAS - SPA");
        assert_results(&adj, &[OK]);
        assert_units(&adj, &["FRANCE F SPA/NC"]);
    }
}

/// WM D.IV(3)(b)'s exceptions, DATC 4.B.1: `F Mid-Atlantic Ocean - Spain`, `F Portugal - Spain`
/// and `F Constantinople - Bulgaria` with no coast are ambiguous and invalid under both values.
#[test]
fn wm_d_iv_3_b_ambiguous_coast_moves_stay_invalid() {
    for coast in [WrongMoveCoast::Illegal, WrongMoveCoast::Corrected] {
        let rules = datc_with(|r| r.wrong_move_coast = coast);
        for (unit_text, order_text) in [
            ("FRANCE F MAO", "F MAO - SPA"),
            ("FRANCE F POR", "F POR - SPA"),
            ("TURKEY F CON", "F CON - BUL"),
        ] {
            let u = unit(unit_text);
            let p = map().power_name(u.power).to_string();
            let adj = run(
                &rules,
                &board("S1901M", &[unit_text], &[]),
                &[(p.as_str(), order_text)],
            );
            assert_results(&adj, &[invalid(Reason::Illegal)]);
            let note = adj.results[0].note.as_deref().unwrap_or("");
            assert!(note.contains("ambiguous"), "{order_text}: {note}");
            assert_units(&adj, &[unit_text]);
        }
    }
}

// --------------------------------------------------------------------- excess_adjustments

/// France has four centres and two units: two builds due, three ordered.
fn three_builds_for_two(rules: &Rules) -> Adjudication {
    let b = board(
        "W1901A",
        &["FRANCE A SPA", "FRANCE A BUR"],
        &["FRANCE PAR MAR BRE SPA"],
    );
    run(
        rules,
        &b,
        &[
            ("FRANCE", "BUILD A PAR"),
            ("FRANCE", "BUILD A MAR"),
            ("FRANCE", "BUILD F BRE"),
        ],
    )
}

/// France has two centres and four units: two removals due, three ordered.
fn three_removals_for_two(rules: &Rules) -> Adjudication {
    let b = board(
        "W1901A",
        &[
            "FRANCE A PAR",
            "FRANCE A MAR",
            "FRANCE A BUR",
            "FRANCE A GAS",
        ],
        &["FRANCE PAR MAR"],
    );
    run(
        rules,
        &b,
        &[
            ("FRANCE", "REMOVE A PAR"),
            ("FRANCE", "REMOVE A MAR"),
            ("FRANCE", "REMOVE A BUR"),
        ],
    )
}

/// DATC 4.D.4 choice b: of too many builds, the first legal ones are used.
#[test]
fn datc_4_d_4_excess_builds_first_orders_are_used() {
    for rules in [
        datc_with(|r| r.excess_adjustments = ExcessAdjustments::FirstOrders),
        preset("dpv2023"),
    ] {
        let adj = three_builds_for_two(&rules);
        assert_results(&adj, &[OK, OK, fails(Reason::Excess)]);
        assert_built(&adj, &["FRANCE A PAR", "FRANCE A MAR"]);
        assert_units(
            &adj,
            &[
                "FRANCE A SPA",
                "FRANCE A BUR",
                "FRANCE A PAR",
                "FRANCE A MAR",
            ],
        );
    }
}

/// DATC 4.D.6 choice b: of too many removals, the first legal ones are used.
#[test]
fn datc_4_d_6_excess_removals_first_orders_are_used() {
    let rules = datc_with(|r| r.excess_adjustments = ExcessAdjustments::FirstOrders);
    let adj = three_removals_for_two(&rules);
    assert_results(&adj, &[OK, OK, fails(Reason::Excess)]);
    assert_units(&adj, &["FRANCE A BUR", "FRANCE A GAS"]);
    assert_disbanded(&adj, &[]);
}

/// WM D.V(2): too many builds are followed from the bottom of the order set upwards until the
/// count is reached.
#[test]
fn wm_d_v_2_excess_builds_are_followed_bottom_up() {
    for rules in [
        datc_with(|r| r.excess_adjustments = ExcessAdjustments::BottomUp),
        preset("wm2004"),
    ] {
        let adj = three_builds_for_two(&rules);
        assert_results(&adj, &[fails(Reason::Excess), OK, OK]);
        assert_built(&adj, &["FRANCE A MAR", "FRANCE F BRE"]);
        assert_units(
            &adj,
            &[
                "FRANCE A SPA",
                "FRANCE A BUR",
                "FRANCE A MAR",
                "FRANCE F BRE",
            ],
        );
    }
}

/// WM D.V(2): too many disbands are followed from the bottom of the order set upwards.
#[test]
fn wm_d_v_2_excess_removals_are_followed_bottom_up() {
    for rules in [
        datc_with(|r| r.excess_adjustments = ExcessAdjustments::BottomUp),
        preset("wm2004"),
    ] {
        let adj = three_removals_for_two(&rules);
        assert_results(&adj, &[fails(Reason::Excess), OK, OK]);
        assert_units(&adj, &["FRANCE A PAR", "FRANCE A GAS"]);
        assert_disbanded(&adj, &[]);
    }
}

/// Maharajiad B.VI(2): too many builds are not allowed: none is built.
#[test]
fn maharajiad_b_vi_2_excess_builds_are_all_refused() {
    for rules in [
        datc_with(|r| r.excess_adjustments = ExcessAdjustments::RefuseAll),
        preset("maharajiad"),
    ] {
        let adj = three_builds_for_two(&rules);
        assert_results(
            &adj,
            &[
                fails(Reason::Excess),
                fails(Reason::Excess),
                fails(Reason::Excess),
            ],
        );
        assert_built(&adj, &[]);
        assert_units(&adj, &["FRANCE A SPA", "FRANCE A BUR"]);
    }
}

/// Maharajiad B.VI(2): with too many disbands, "the disbands will occur according to the rules
/// for civil disorder removals": the orders are set aside and the two units farthest from home
/// (Burgundy and Gascony, one move from Paris) go, not any unit ordered first or last.
#[test]
fn maharajiad_b_vi_2_excess_removals_follow_civil_disorder() {
    for rules in [
        datc_with(|r| r.excess_adjustments = ExcessAdjustments::RefuseAll),
        preset("maharajiad"),
    ] {
        let adj = three_removals_for_two(&rules);
        assert_results(
            &adj,
            &[
                fails(Reason::Excess),
                fails(Reason::Excess),
                fails(Reason::Excess),
            ],
        );
        assert_units(&adj, &["FRANCE A PAR", "FRANCE A MAR"]);
        assert_disbanded(&adj, &["FRANCE A BUR", "FRANCE A GAS"]);
    }
}

// ----------------------------------------------------------------------- duplicate_builds

/// France has two builds due and orders an army and a fleet in Brest.
fn two_builds_in_brest(rules: &Rules, first: &str, second: &str) -> Adjudication {
    let b = board(
        "W1901A",
        &["FRANCE A SPA", "FRANCE A BUR"],
        &["FRANCE PAR MAR BRE SPA"],
    );
    run(rules, &b, &[("FRANCE", first), ("FRANCE", second)])
}

/// DATC 4.D.5 choice b: of several builds in one centre, the first is used.
#[test]
fn datc_4_d_5_duplicate_builds_first_is_used() {
    for rules in [
        datc_with(|r| r.duplicate_builds = DuplicateBuilds::First),
        preset("dpv2023"),
    ] {
        let adj = two_builds_in_brest(&rules, "BUILD A BRE", "BUILD F BRE");
        assert_results(&adj, &[OK, fails(Reason::Excess)]);
        assert_built(&adj, &["FRANCE A BRE"]);
        assert_units(&adj, &["FRANCE A SPA", "FRANCE A BUR", "FRANCE A BRE"]);
    }
}

/// WM D.V(3): of several builds in one centre, the first reading from bottom to top is
/// followed, that is the last one written.
#[test]
fn wm_d_v_3_duplicate_builds_first_from_the_bottom_is_used() {
    for rules in [
        datc_with(|r| r.duplicate_builds = DuplicateBuilds::BottomUp),
        preset("wm2004"),
    ] {
        let adj = two_builds_in_brest(&rules, "BUILD A BRE", "BUILD F BRE");
        assert_results(&adj, &[fails(Reason::Excess), OK]);
        assert_built(&adj, &["FRANCE F BRE"]);
        assert_units(&adj, &["FRANCE A SPA", "FRANCE A BUR", "FRANCE F BRE"]);
    }
}

/// Maharajiad B.VI(3): builds of different types in one centre build nothing.
#[test]
fn maharajiad_b_vi_3_duplicate_builds_of_different_types_build_nothing() {
    for rules in [
        datc_with(|r| r.duplicate_builds = DuplicateBuilds::NoneIfDifferent),
        preset("maharajiad"),
    ] {
        let adj = two_builds_in_brest(&rules, "BUILD A BRE", "BUILD F BRE");
        assert_results(&adj, &[fails(Reason::Excess), fails(Reason::Excess)]);
        assert_built(&adj, &[]);
        assert_units(&adj, &["FRANCE A SPA", "FRANCE A BUR"]);
    }
}

/// Maharajiad B.VI(3): "unless fleets cannot legally be built in the province, in which case an
/// army will be built" (Paris), and "duplicate orders will be treated as a single order": two
/// identical fleet builds in Brest build one fleet and count as one build, so with a third build
/// in Paris they are not too many even under B.VI(2).
#[test]
fn maharajiad_b_vi_3_army_in_inland_centre_and_identical_builds_count_as_one() {
    for rules in [
        datc_with(|r| r.duplicate_builds = DuplicateBuilds::NoneIfDifferent),
        preset("maharajiad"),
    ] {
        let adj = two_builds_in_brest(&rules, "BUILD A PAR", "BUILD F PAR");
        assert_results(&adj, &[OK, invalid(Reason::Illegal)]);
        assert_built(&adj, &["FRANCE A PAR"]);

        let b = board(
            "W1901A",
            &["FRANCE A SPA", "FRANCE A BUR"],
            &["FRANCE PAR MAR BRE SPA"],
        );
        let adj = run(
            &rules,
            &b,
            &[
                ("FRANCE", "BUILD F BRE"),
                ("FRANCE", "BUILD F BRE"),
                ("FRANCE", "BUILD A PAR"),
            ],
        );
        assert_results(&adj, &[OK, fails(Reason::Excess), OK]);
        assert_built(&adj, &["FRANCE F BRE", "FRANCE A PAR"]);
        assert_units(
            &adj,
            &[
                "FRANCE A SPA",
                "FRANCE A BUR",
                "FRANCE F BRE",
                "FRANCE A PAR",
            ],
        );
    }
}

// ------------------------------------------------------------------------- untyped_build

/// Russia has its four home centres and one unit: three builds due, none with a unit type.
fn untyped_russian_builds(rules: &Rules) -> Adjudication {
    let b = board("W1901A", &["RUSSIA A WAR"], &["RUSSIA MOS STP SEV WAR"]);
    run(
        rules,
        &b,
        &[
            ("RUSSIA", "BUILD MOS"),
            ("RUSSIA", "BUILD STP/NC"),
            ("RUSSIA", "BUILD SEV"),
        ],
    )
}

/// WM D.V(1), DATC 4.C.3 choice c: an untyped build is an army in an inland centre (Moscow),
/// nothing in a coastal one (Sevastopol), unless a legal coast is written, when it is a fleet on
/// that coast (St Petersburg north coast).
#[test]
fn wm_d_v_1_untyped_build_army_inland_fleet_on_a_written_coast() {
    for rules in [
        datc_with(|r| r.untyped_build = UntypedBuild::ArmyInlandFleetOnCoast),
        preset("wm2004"),
        preset("dpv2023"),
    ] {
        let adj = untyped_russian_builds(&rules);
        assert_results(&adj, &[OK, OK, invalid(Reason::Illegal)]);
        assert_built(&adj, &["RUSSIA A MOS", "RUSSIA F STP/NC"]);
        assert_units(&adj, &["RUSSIA A WAR", "RUSSIA A MOS", "RUSSIA F STP/NC"]);
    }
}

/// Maharajiad B.VI(1): an untyped build is an army in an inland centre and nothing in a centre
/// that can hold either, whether or not a coast is written.
#[test]
fn maharajiad_b_vi_1_untyped_build_army_inland_only() {
    for rules in [
        datc_with(|r| r.untyped_build = UntypedBuild::ArmyInlandOnly),
        preset("maharajiad"),
    ] {
        let adj = untyped_russian_builds(&rules);
        assert_results(
            &adj,
            &[OK, invalid(Reason::Illegal), invalid(Reason::Illegal)],
        );
        assert_built(&adj, &["RUSSIA A MOS"]);
        assert_units(&adj, &["RUSSIA A WAR", "RUSSIA A MOS"]);
    }
}

/// WM D.V(1) and D.V(5), Maharajiad B.VI(1) and B.VI(5), DATC 4.C.3 and 4.C.4 choice a, under
/// every preset: `BUILD KIE` (coastal, no type, no coast) and `BUILD F MUN` (a fleet inland) build
/// nothing.
#[test]
fn wm_d_v_5_fleet_build_inland_and_untyped_coastal_build_build_nothing() {
    for name in Rules::preset_names() {
        let rules = preset(name);
        let b = board("W1901A", &["GERMANY A BER"], &["GERMANY KIE BER MUN"]);
        let adj = run(
            &rules,
            &b,
            &[("GERMANY", "BUILD KIE"), ("GERMANY", "BUILD F MUN")],
        );
        assert_results(&adj, &[invalid(Reason::Illegal), invalid(Reason::Illegal)]);
        assert_built(&adj, &[]);
        assert_units(&adj, &["GERMANY A BER"]);
    }
}

// ------------------------------------------------------------------------ civil_disorder

/// Russia owns St Petersburg, Moscow, Bulgaria and Trieste (Sevastopol and Warsaw are lost), has
/// five units and orders no removal. Distances:
///
/// | unit      | to owned centres, land+sea | to home, land+sea | to home, fleet moves |
/// |-----------|----------------------------|-------------------|----------------------|
/// | F BUL/SC  | 0 (Bulgaria)               | 2 (Bla or Rum)    | 3 (Con, Bla, Sev)    |
/// | A TYR     | 1 (Trieste)                | 3                 | 3                    |
/// | A SIL     | 2 (War, Mos)               | 1 (Warsaw)        | 1                    |
/// | A MOS/STP | 0                          | 0                 | 0                    |
fn russia_in_disorder(rules: &Rules) -> Adjudication {
    let b = board(
        "W1901A",
        &[
            "RUSSIA F BUL/SC",
            "RUSSIA A TYR",
            "RUSSIA A SIL",
            "RUSSIA A MOS",
            "RUSSIA A STP",
        ],
        &["RUSSIA STP MOS BUL TRI"],
    );
    run(rules, &b, &[])
}

const RUSSIA_UNITS: [&str; 5] = [
    "RUSSIA F BUL/SC",
    "RUSSIA A TYR",
    "RUSSIA A SIL",
    "RUSSIA A MOS",
    "RUSSIA A STP",
];

fn russia_without(gone: &str) -> Vec<&'static str> {
    RUSSIA_UNITS
        .iter()
        .copied()
        .filter(|u| *u != gone)
        .collect()
}

/// 2023 rulebook, DATC 4.D.8: the unit farthest from the nearest supply centre the power owns,
/// both armies and fleets crossing land and sea, goes: Silesia (two from Warsaw's loss).
#[test]
fn rulebook_2023_civil_disorder_removes_the_unit_farthest_from_an_owned_centre() {
    for rules in [
        datc_with(|r| r.civil_disorder = CivilDisorder::NearestOwnedCenter),
        preset("dpv2023"),
    ] {
        let adj = russia_in_disorder(&rules);
        assert_results(&adj, &[]);
        assert_disbanded(&adj, &["RUSSIA A SIL"]);
        assert_units(&adj, &russia_without("RUSSIA A SIL"));
    }
}

/// WM D.V(4): distance to a home centre; a fleet counts legal fleet moves, so the Russian fleet
/// on Bulgaria's south coast stands three from home (the rule's own example), level with the army
/// in Tyrolia, and the fleet goes before the army.
#[test]
fn wm_d_v_4_civil_disorder_counts_fleet_moves_home_and_removes_fleets_first() {
    for rules in [
        datc_with(|r| r.civil_disorder = CivilDisorder::HomeCenterWm),
        preset("wm2004"),
    ] {
        let adj = russia_in_disorder(&rules);
        assert_results(&adj, &[]);
        assert_disbanded(&adj, &["RUSSIA F BUL/SC"]);
        assert_units(&adj, &russia_without("RUSSIA F BUL/SC"));
    }
}

/// WM D.V(4) tie-breaks with two removals: three units stand three from home; the fleet goes
/// first, then of the two armies the one whose space comes first in English alphabetical order
/// (Burgundy before Tyrolia).
#[test]
fn wm_d_v_4_civil_disorder_ties_fleet_first_then_english_name() {
    let rules = datc_with(|r| r.civil_disorder = CivilDisorder::HomeCenterWm);
    let b = board(
        "W1901A",
        &[
            "RUSSIA F BUL/SC",
            "RUSSIA A TYR",
            "RUSSIA A BUR",
            "RUSSIA A MOS",
            "RUSSIA A STP",
        ],
        &["RUSSIA STP MOS SEV"],
    );
    let adj = run(&rules, &b, &[]);
    assert_disbanded(&adj, &["RUSSIA F BUL/SC", "RUSSIA A BUR"]);
    assert_units(&adj, &["RUSSIA A TYR", "RUSSIA A MOS", "RUSSIA A STP"]);
}

/// WM D.V(4): "the names of the spaces ... listed within the Hasbro rules", not the
/// abbreviations: Italian fleets in Marseilles and the Mid-Atlantic Ocean both stand three fleet
/// moves from Rome or Naples; Marseilles comes first by name (though `MAO` < `MAR` by code).
/// Under BT24 (land and sea) Marseilles is only two from Venice, so the Mid-Atlantic goes.
#[test]
fn wm_d_v_4_civil_disorder_tie_goes_by_english_name_not_abbreviation() {
    let b = board(
        "W1901A",
        &["ITALY F MAR", "ITALY F MAO", "ITALY A ROM", "ITALY A VEN"],
        &["ITALY ROM NAP VEN"],
    );
    for rules in [
        datc_with(|r| r.civil_disorder = CivilDisorder::HomeCenterWm),
        preset("wm2004"),
        preset("maharajiad"),
    ] {
        let adj = run(&rules, &b, &[]);
        assert_disbanded(&adj, &["ITALY F MAR"]);
        assert_units(&adj, &["ITALY F MAO", "ITALY A ROM", "ITALY A VEN"]);
    }
    let adj = run(&preset("agora2020"), &b, &[]);
    assert_disbanded(&adj, &["ITALY F MAO"]);
    assert_units(&adj, &["ITALY F MAR", "ITALY A ROM", "ITALY A VEN"]);
}

/// Maharajiad B.VI(4): distance to the nearest home centre in legal moves, sea provinces counting
/// one move for any unit; fleets before armies. A fleet therefore counts legal fleet moves as
/// under WM D.V(4) (the two rules agree on the standard map): the fleet on Bulgaria's south coast
/// and the army in Tyrolia stand three from home, and the fleet goes.
#[test]
fn maharajiad_b_vi_4_civil_disorder_legal_moves_home_seas_count_one() {
    for rules in [
        datc_with(|r| r.civil_disorder = CivilDisorder::HomeCenterSeasCount),
        preset("maharajiad"),
    ] {
        let adj = russia_in_disorder(&rules);
        assert_results(&adj, &[]);
        assert_disbanded(&adj, &["RUSSIA F BUL/SC"]);
        assert_units(&adj, &russia_without("RUSSIA F BUL/SC"));
    }
}

/// Agora BT24: "the units farthest from the country are removed first", measured over land and
/// sea: the fleet on Bulgaria's south coast is two from Sevastopol, the army in Tyrolia three, so
/// the army goes.
#[test]
fn agora_bt24_civil_disorder_removes_the_unit_farthest_from_the_country() {
    for rules in [
        datc_with(|r| r.civil_disorder = CivilDisorder::FarthestFromCountry),
        preset("agora2020"),
    ] {
        let adj = russia_in_disorder(&rules);
        assert_results(&adj, &[]);
        assert_disbanded(&adj, &["RUSSIA A TYR"]);
        assert_units(&adj, &russia_without("RUSSIA A TYR"));
    }
}

// ------------------------------------------------------------ rules that are not options

/// France attacks the German army in Belgium from Picardy, by convoy through the Channel or by
/// land, with support from Burgundy.
fn belgium_dislodged_from_picardy(rules: &Rules, by_convoy: bool) -> Adjudication {
    let b = board(
        "S1901M",
        &[
            "FRANCE A PIC",
            "FRANCE F ENG",
            "FRANCE A BUR",
            "GERMANY A BEL",
        ],
        &[],
    );
    let (mover, fleet) = if by_convoy {
        ("A PIC - BEL VIA CONVOY", "F ENG C A PIC - BEL")
    } else {
        ("A PIC - BEL", "F ENG H")
    };
    run(
        rules,
        &b,
        &[
            ("FRANCE", mover),
            ("FRANCE", fleet),
            ("FRANCE", "A BUR S A PIC - BEL"),
            ("GERMANY", "A BEL H"),
        ],
    )
}

/// WM D.VI(1), Maharajiad B.VII(1), DATC 4.A.5 choice b: a unit dislodged by a convoyed army may
/// retreat to the province the army came from. Under every preset.
#[test]
fn wm_d_vi_1_unit_dislodged_by_convoy_may_retreat_to_the_attackers_origin() {
    for name in Rules::preset_names() {
        let rules = preset(name);
        let adj = belgium_dislodged_from_picardy(&rules, true);
        assert_results(&adj, &[OK, OK, OK, fails(Reason::Dislodged)]);
        assert_dislodged(&adj, &["GERMANY A BEL"]);
        assert_eq!(retreats_of(&adj, "BEL"), strings(&["HOL", "PIC", "RUH"]));

        let retreat = run(&rules, &adj.next, &[("GERMANY", "A BEL R PIC")]);
        assert_results(&retreat, &[OK]);
        assert_units(
            &retreat,
            &[
                "FRANCE A BEL",
                "FRANCE F ENG",
                "FRANCE A BUR",
                "GERMANY A PIC",
            ],
        );
        assert_disbanded(&retreat, &[]);
    }
}

/// The other half of WM D.VI(1): dislodged by land, the unit may not retreat to the attacker's
/// origin; a retreat there is invalid and the unit is disbanded.
#[test]
fn wm_d_vi_1_unit_dislodged_by_land_may_not_retreat_to_the_attackers_origin() {
    for name in Rules::preset_names() {
        let rules = preset(name);
        let adj = belgium_dislodged_from_picardy(&rules, false);
        assert_results(&adj, &[OK, OK, OK, fails(Reason::Dislodged)]);
        assert_eq!(retreats_of(&adj, "BEL"), strings(&["HOL", "RUH"]));

        let retreat = run(&rules, &adj.next, &[("GERMANY", "A BEL R PIC")]);
        assert_results(&retreat, &[invalid(Reason::Illegal)]);
        assert_units(&retreat, &["FRANCE A BEL", "FRANCE F ENG", "FRANCE A BUR"]);
        assert_disbanded(&retreat, &["GERMANY A BEL"]);
    }
}

/// WM D.VI(6), Maharajiad B.VII(6) (the Szykman rule), on DATC 6.F.14: the convoyed army in a
/// paradox fails and has no effect on London, so London's support is not cut and the convoying
/// fleet is dislodged.
#[test]
fn wm_d_vi_6_szykman_rule_convoyed_army_in_a_paradox_fails() {
    for name in ["wm2004", "maharajiad", "dpv2023"] {
        let rules = preset(name);
        let b = board(
            "S1901M",
            &[
                "ENGLAND F LON",
                "ENGLAND F WAL",
                "FRANCE A BRE",
                "FRANCE F ENG",
            ],
            &[],
        );
        let adj = run(
            &rules,
            &b,
            &[
                ("ENGLAND", "F LON S F WAL - ENG"),
                ("ENGLAND", "F WAL - ENG"),
                ("FRANCE", "A BRE - LON"),
                ("FRANCE", "F ENG C A BRE - LON"),
            ],
        );
        assert_results(
            &adj,
            &[OK, OK, fails(Reason::Paradox), fails(Reason::Dislodged)],
        );
        assert_units(&adj, &["ENGLAND F LON", "ENGLAND F ENG", "FRANCE A BRE"]);
        assert_dislodged(&adj, &["FRANCE F ENG"]);
    }
}

// ---------------------------------------------------------------------------------- presets

/// Every preset loads under its name and its aliases.
#[test]
fn every_preset_loads() {
    let names: Vec<&str> = Rules::preset_names().collect();
    assert_eq!(names, ["dpv2023", "wm2004", "maharajiad", "agora2020"]);
    for name in names {
        let r = preset(name);
        assert_eq!(r.name, name);
        assert!(!r.description.is_empty(), "{name} has no description");
    }
    for (alias, name) in [
        ("default", "dpv2023"),
        ("datc", "dpv2023"),
        ("2023", "dpv2023"),
        ("WM", "wm2004"),
        ("worldmasters", "wm2004"),
        ("maharajiad1", "maharajiad"),
        ("agora", "agora2020"),
    ] {
        assert_eq!(preset(alias), preset(name), "{alias}");
    }
    assert_eq!(Rules::default(), preset("dpv2023"));
}

/// The dpv2023 preset: the DATC v3.0 preferences.
#[test]
fn dpv2023_preset_is_the_datc_preferences() {
    let r = preset("dpv2023");
    assert_eq!(r.convoy_intent, ConvoyIntent::ExplicitOrOwnFleet);
    assert_eq!(r.convoy_routes, ConvoyRoutes::Honoured);
    assert_eq!(r.convoy_legality, ConvoyLegality::UnitsOnBoard);
    assert_eq!(r.multiple_orders, MultipleOrders::Hold);
    assert_eq!(r.unit_type_designation, Designation::Accept);
    assert_eq!(r.nationality_designation, Designation::Accept);
    assert_eq!(r.wrong_move_coast, WrongMoveCoast::Illegal);
    assert_eq!(r.excess_adjustments, ExcessAdjustments::FirstOrders);
    assert_eq!(r.duplicate_builds, DuplicateBuilds::First);
    assert_eq!(r.untyped_build, UntypedBuild::ArmyInlandFleetOnCoast);
    assert_eq!(r.civil_disorder, CivilDisorder::NearestOwnedCenter);
}

/// `wm2004`, `maharajiad` and `agora2020` differ from `dpv2023` in exactly the fields their
/// TOML files set to other values (and in name and description).
#[test]
fn presets_differ_from_dpv2023_exactly_where_their_rulebooks_do() {
    let base = preset("dpv2023");
    let expect = |name: &str, change: &dyn Fn(&mut Rules)| {
        let got = preset(name);
        let mut want = base.clone();
        want.name = name.to_string();
        want.description = got.description.clone();
        change(&mut want);
        assert_eq!(got, want, "{name}");
        assert_ne!(got.description, base.description, "{name}");
    };
    expect("wm2004", &|r| {
        r.multiple_orders = MultipleOrders::LastWins; // WM D.III(5)
        r.wrong_move_coast = WrongMoveCoast::Corrected; // WM D.IV(3)(b)
        r.excess_adjustments = ExcessAdjustments::BottomUp; // WM D.V(2)
        r.duplicate_builds = DuplicateBuilds::BottomUp; // WM D.V(3)
        r.civil_disorder = CivilDisorder::HomeCenterWm; // WM D.V(4)
        r.no_nmr_phases = vec!["S1901M".into(), "S1901R".into(), "F1901M".into()]; // WM D.VII(6)(b)
        r.final_year = Some(1909); // WM B(3)
        r.guaranteed_extensions = Some(1); // WM D.VII(5)
        r.nmr_contact_hours = Some(48); // WM D.VII(6)(a)
        r.white_press_with_orders = true; // WM D.X(1)
        r.dark_grey_press = true; // WM D.X(1)
        r.pace_days_per_season = Some(7); // WM D.VII(4)(a)
        r.authentication = chancery::rules::Authentication::Secret; // WM D.X(6), a tournament
    });
    expect("maharajiad", &|r| {
        r.unit_type_designation = Designation::Invalidate; // B.V(2)
        r.nationality_designation = Designation::Invalidate; // B.V(4)
        r.excess_adjustments = ExcessAdjustments::RefuseAll; // B.VI(2)
        r.duplicate_builds = DuplicateBuilds::NoneIfDifferent; // B.VI(3)
        r.untyped_build = UntypedBuild::ArmyInlandOnly; // B.VI(1)
        r.civil_disorder = CivilDisorder::HomeCenterSeasCount; // B.VI(4)
        r.gm_address = chancery::rules::GmAddress::To; // B.III(2)
        r.late_orders = chancery::rules::LateOrders::UntilAdjudication; // B.VIII(3)
        r.confirmation_time_counts = false; // B.VIII(1)
        r.movement_days = 4; // B.VIII(4)(a)
        r.retreat_days = 2;
        r.adjustment_days = 2;
        r.extension_days_total = 8; // B.VIII(5)
        r.no_nmr_phases = vec!["S1501M".into(), "F1501M".into(), "W1501A".into()]; // B.VIII(6)(b)
        r.authentication = chancery::rules::Authentication::Secret; // B.XI(7), a tournament
        r.votes = chancery::rules::VoteRule::Maharajiad; // X(1)
        r.stalemate_years = Some(3); // X(1)
        r.nmr_contact_hours = Some(48); // B.VIII(6)(a)
        r.black_press = true; // B.XI(1)
        r.final_year = Some(1510); // A.10
        r.monsoon = true; // B.I(5)
    });
    expect("agora2020", &|r| {
        r.civil_disorder = CivilDisorder::FarthestFromCountry; // BT24
        r.gm_draw_years = Some(3); // BT9
        r.utc_turns = true; // BT15
        r.one_order_set = true; // BT15, BT22, BT23
        r.winner_notice_hours = Some(48); // BT3
        r.regulations = Some(chancery::rules::Regulations::AgoraBt2020); // BT5, BT8
        r.open_entry = true; // BT1
    });
}

// ------------------------------------------------------------------- unavailable periods

#[test]
fn wm_d_vii_2_an_unavailable_period_takes_the_games_notice_and_length() {
    // WM D.VII(2) gives no notice for a period; Chancery asks the notice an extension needs
    // (`extension_notice_hours`, D.VII(5)), so a game that asks more of extensions asks it of
    // periods too. The length is `unavailable_hours_max` (D.VII(2): 64 hours).
    use chancery::policy::{DAY, HOUR, OwnPeriods, UnavailableRefused, unavailable_window};
    let now = 1_795_000_000;
    let none = OwnPeriods::default();
    for name in ["wm2004", "maharajiad"] {
        let r = preset(name);
        assert!(unavailable_window(&r, now + 12 * HOUR, now + 76 * HOUR, now, &none).is_ok());
        assert_eq!(
            unavailable_window(&r, now + 11 * HOUR, now + 20 * HOUR, now, &none),
            Err(UnavailableRefused::TooSoon { notice_hours: 12 }),
            "{name}"
        );
    }
    let slow = datc_with(|r| r.extension_notice_hours = 48);
    assert_eq!(
        unavailable_window(&slow, now + 12 * HOUR, now + 20 * HOUR, now, &none),
        Err(UnavailableRefused::TooSoon { notice_hours: 48 })
    );
    assert!(unavailable_window(&slow, now + 48 * HOUR, now + 56 * HOUR, now, &none).is_ok());
    let short = datc_with(|r| r.unavailable_hours_max = 24);
    assert_eq!(
        unavailable_window(&short, now + DAY, now + DAY + 25 * HOUR, now, &none),
        Err(UnavailableRefused::TooLong {
            max_hours: 24,
            hours: 25
        })
    );
}

// ------------------------------------------------- Agora BT11-BT21, BT25: the judge under agora2020

/// Agora BT11: "two types of units: Armies and Fleets": a fleet may not move inland, nor an
/// army to sea; each stays where it was.
#[test]
fn agora_bt11_armies_move_on_land_and_fleets_on_water_or_coast() {
    let rules = preset("agora2020");
    let b = board("S1901M", &["FRANCE F BRE", "FRANCE A PAR"], &[]);
    let adj = run(
        &rules,
        &b,
        &[("FRANCE", "F BRE - PAR"), ("FRANCE", "A PAR - ENG")],
    );
    assert!(
        adj.results.iter().all(|r| r.outcome != Outcome::Succeeds),
        "{:?}",
        adj.results
    );
    assert_units(&adj, &["FRANCE F BRE", "FRANCE A PAR"]);
}

/// Agora BT12, BT13, BT19: all units have the same strength, one unit a province: two equal
/// attacks on Burgundy both fail, and an unsupported attack on a holding unit fails too.
#[test]
fn agora_bt12_bt13_bt19_equal_strength_bounces_and_one_unit_a_province() {
    let rules = preset("agora2020");
    let b = board(
        "S1901M",
        &[
            "FRANCE A PAR",
            "GERMANY A MUN",
            "ITALY A PIE",
            "FRANCE A MAR",
        ],
        &[],
    );
    let adj = run(
        &rules,
        &b,
        &[
            ("FRANCE", "A PAR - BUR"),
            ("GERMANY", "A MUN - BUR"),
            ("ITALY", "A PIE - MAR"),
            ("FRANCE", "A MAR H"),
        ],
    );
    assert_eq!(adj.results[0].outcome, Outcome::Fails);
    assert_eq!(adj.results[1].outcome, Outcome::Fails);
    assert_eq!(adj.results[2].outcome, Outcome::Fails);
    assert_dislodged(&adj, &[]);
    assert_units(
        &adj,
        &[
            "FRANCE A PAR",
            "GERMANY A MUN",
            "ITALY A PIE",
            "FRANCE A MAR",
        ],
    );
}

/// Agora BT14: each Great Power starts with three supply centres, Russia with four.
#[test]
fn agora_bt14_three_centres_each_russia_four() {
    let b = Board::initial(map());
    for name in [
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "TURKEY", "RUSSIA",
    ] {
        let p = power(name);
        let owned = b.owners.iter().filter(|o| **o == Some(p)).count();
        assert_eq!(owned, if name == "RUSSIA" { 4 } else { 3 }, "{name}");
        let units = b.units.iter().filter(|u| u.power == p).count();
        assert_eq!(units, owned, "{name}");
    }
}

/// Agora BT17: "Not giving a unit an order is interpreted as ordering it to hold": the
/// unordered army in Burgundy holds, and is dislodged by a supported attack as a holding unit
/// would be.
#[test]
fn agora_bt17_a_unit_without_an_order_holds() {
    let rules = preset("agora2020");
    let b = board(
        "S1901M",
        &[
            "GERMANY A BUR",
            "FRANCE A PAR",
            "FRANCE A MAR",
            "GERMANY A RUH",
        ],
        &[],
    );
    let adj = run(
        &rules,
        &b,
        &[("FRANCE", "A PAR - BUR"), ("FRANCE", "A MAR S A PAR - BUR")],
    );
    assert_results(&adj, &[OK, OK]);
    assert_dislodged(&adj, &["GERMANY A BUR"]);
    assert!(adj.next.units.iter().any(|u| show(u) == "GERMANY A RUH"));
}

/// Agora BT18: an army convoyed through a chain of fleets in one turn lands beside the last.
#[test]
fn agora_bt18_an_army_is_convoyed_along_a_chain_of_fleets() {
    let rules = preset("agora2020");
    let b = board(
        "S1901M",
        &[
            "ENGLAND A LON",
            "ENGLAND F ENG",
            "ENGLAND F MAO",
            "ENGLAND F WES",
        ],
        &[],
    );
    let adj = run(
        &rules,
        &b,
        &[
            ("ENGLAND", "A LON - TUN VIA CONVOY"),
            ("ENGLAND", "F ENG C A LON - TUN"),
            ("ENGLAND", "F MAO C A LON - TUN"),
            ("ENGLAND", "F WES C A LON - TUN"),
        ],
    );
    assert_results(&adj, &[OK, OK, OK, OK]);
    assert!(adj.next.units.iter().any(|u| show(u) == "ENGLAND A TUN"));
}

/// Agora BT19: "If two units are each ordered to the province that the other occupies, neither
/// can move."
#[test]
fn agora_bt19_two_units_swapping_without_convoy_both_stay() {
    let rules = preset("agora2020");
    let b = board("S1901M", &["FRANCE A PAR", "GERMANY A BUR"], &[]);
    let adj = run(
        &rules,
        &b,
        &[("FRANCE", "A PAR - BUR"), ("GERMANY", "A BUR - PAR")],
    );
    assert_eq!(adj.results[0].outcome, Outcome::Fails);
    assert_eq!(adj.results[1].outcome, Outcome::Fails);
    assert_units(&adj, &["FRANCE A PAR", "GERMANY A BUR"]);
}

/// Agora BT20: "Support is cut if the unit giving support is attacked from any province except
/// the one where support is being given": Italy's attack on Marseilles cuts its support, and
/// the attack on Burgundy fails.
#[test]
fn agora_bt20_an_attack_on_the_supporter_cuts_its_support() {
    let rules = preset("agora2020");
    let b = board(
        "S1901M",
        &[
            "GERMANY A BUR",
            "FRANCE A PAR",
            "FRANCE A MAR",
            "ITALY A PIE",
        ],
        &[],
    );
    let adj = run(
        &rules,
        &b,
        &[
            ("FRANCE", "A PAR - BUR"),
            ("FRANCE", "A MAR S A PAR - BUR"),
            ("ITALY", "A PIE - MAR"),
        ],
    );
    assert_eq!(adj.results[0].outcome, Outcome::Fails);
    assert_eq!(adj.results[1].outcome, Outcome::Fails, "cut");
    assert_dislodged(&adj, &[]);
}

/// Agora BT21: "A country can't dislodge or support the dislodgment of one of its own units":
/// France's supported attack on its own army in Burgundy fails, and nothing is dislodged.
#[test]
fn agora_bt21_a_country_does_not_dislodge_its_own_unit() {
    let rules = preset("agora2020");
    let b = board(
        "S1901M",
        &["FRANCE A BUR", "FRANCE A PAR", "FRANCE A MAR"],
        &[],
    );
    let adj = run(
        &rules,
        &b,
        &[
            ("FRANCE", "A PAR - BUR"),
            ("FRANCE", "A MAR S A PAR - BUR"),
            ("FRANCE", "A BUR H"),
        ],
    );
    assert_eq!(adj.results[0].outcome, Outcome::Fails);
    assert_dislodged(&adj, &[]);
    assert_units(&adj, &["FRANCE A BUR", "FRANCE A PAR", "FRANCE A MAR"]);
}

/// Agora BT25: "Where these regulations are silent, the Gamemaster CAN make use of the official
/// rules": the agora2020 preset is the 2023 rules (dpv2023) but for what the regulations say.
#[test]
fn agora_bt25_where_the_regulations_are_silent_the_2023_rules_apply() {
    let agora = preset("agora2020");
    let mut want = preset("dpv2023");
    want.name = agora.name.clone();
    want.description = agora.description.clone();
    want.civil_disorder = CivilDisorder::FarthestFromCountry; // BT24
    want.gm_draw_years = Some(3); // BT9
    want.utc_turns = true; // BT15
    want.one_order_set = true; // BT15, BT22, BT23
    want.winner_notice_hours = Some(48); // BT3
    want.regulations = Some(chancery::rules::Regulations::AgoraBt2020); // BT5, BT8
    want.open_entry = true; // BT1
    assert_eq!(agora, want);
}

/// Agora BT4: "The judge shall adjudicate these regulations in an equitable manner": no power
/// gains by the order its orders reach the judge in; the same orders in reverse give the same
/// result for every order and the same next board.
#[test]
fn agora_bt4_the_judgement_does_not_depend_on_the_order_the_orders_came_in() {
    let rules = preset("agora2020");
    let b = board(
        "S1901M",
        &[
            "GERMANY A BUR",
            "FRANCE A PAR",
            "FRANCE A MAR",
            "ITALY A PIE",
            "GERMANY A MUN",
        ],
        &[],
    );
    let orders = [
        ("FRANCE", "A PAR - BUR"),
        ("FRANCE", "A MAR S A PAR - BUR"),
        ("ITALY", "A PIE - MAR"),
        ("GERMANY", "A MUN S A BUR"),
        ("GERMANY", "A BUR H"),
    ];
    let forward = run(&rules, &b, &orders);
    let mut reversed_orders = orders;
    reversed_orders.reverse();
    let backward = run(&rules, &b, &reversed_orders);
    let mut a: Vec<(String, Outcome)> = forward
        .results
        .iter()
        .map(|r| (r.order.display(map()).to_string(), r.outcome))
        .collect();
    let mut z: Vec<(String, Outcome)> = backward
        .results
        .iter()
        .map(|r| (r.order.display(map()).to_string(), r.outcome))
        .collect();
    a.sort_by(|x, y| x.0.cmp(&y.0));
    z.sort_by(|x, y| x.0.cmp(&y.0));
    assert_eq!(a, z);
    assert_eq!(
        sorted(forward.next.units.iter().map(show)),
        sorted(backward.next.units.iter().map(show))
    );
}
