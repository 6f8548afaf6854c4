//! Conditional retreat and adjustment orders (WM D.II(5); Maharajiad B.III(5)): sent with the
//! movement orders, kept, and used when the retreat or adjustment phase comes if the player
//! sends no orders for it. "Rule D.III(5) will not be applied for conditional orders, where the
//! first possible option reading left to right or top to bottom will be used." Pure: the
//! candidates are already read against the phase's board.

use crate::adjudicator::{Board, retreat_options};
use crate::map::{Location, Map, Power, Province};
use crate::order::Order;
use crate::phase::PhaseKind;

/// The orders a power's conditional candidates give in this phase: for a retreat phase, the
/// first possible retreat or disband of each dislodged unit; for an adjustment phase, the first
/// possible builds (or waives) up to the builds allowed, or the first possible removals up to
/// the removals due. Empty when none is possible (the phase's defaults then apply).
pub fn choose(map: &Map, board: &Board, power: Power, candidates: &[Order]) -> Vec<Order> {
    match board.phase.kind {
        PhaseKind::Movement => Vec::new(),
        PhaseKind::Retreat => retreats(map, board, power, candidates),
        PhaseKind::Adjustment => adjustments(map, board, power, candidates),
    }
}

fn retreats(map: &Map, board: &Board, power: Power, candidates: &[Order]) -> Vec<Order> {
    let mut out = Vec::new();
    for opt in retreat_options(map, board)
        .into_iter()
        .filter(|o| o.dislodged.unit.power == power)
    {
        let at = opt.dislodged.unit.location.province;
        let possible = |o: &&Order| match o {
            Order::Disband { unit } => unit.province == at,
            Order::Retreat {
                unit,
                dest,
                dest_coast,
            } => {
                unit.province == at
                    && opt.retreats.iter().any(|l: &Location| {
                        l.province == *dest && (dest_coast.is_none() || l.coast == *dest_coast)
                    })
            }
            _ => false,
        };
        if let Some(first) = candidates.iter().find(possible) {
            out.push(first.clone());
        }
    }
    out
}

fn adjustments(map: &Map, board: &Board, power: Power, candidates: &[Order]) -> Vec<Order> {
    let centres = board.center_count(power);
    let units = board.unit_count(power);
    let mut out: Vec<Order> = Vec::new();
    if centres > units {
        let allowed = centres - units;
        let mut used: Vec<Province> = Vec::new();
        for c in candidates {
            if out.len() == allowed {
                break;
            }
            match c {
                Order::Waive => out.push(c.clone()),
                Order::Build {
                    unit_type,
                    province,
                    coast,
                } => {
                    let p = *province;
                    let home = board.home(p) == Some(power) && board.owner(p) == Some(power);
                    let free = board.unit_at(p).is_none() && !used.contains(&p);
                    let fits = unit_type.is_none_or(|t| {
                        map.can_occupy(
                            t,
                            Location {
                                province: p,
                                coast: *coast,
                            },
                        )
                    });
                    if home && free && fits {
                        used.push(p);
                        out.push(c.clone());
                    }
                }
                _ => {}
            }
        }
    } else if units > centres {
        let due = units - centres;
        let mut used: Vec<Province> = Vec::new();
        for c in candidates {
            if out.len() == due {
                break;
            }
            if let Order::Remove { unit } | Order::Disband { unit } = c {
                let own = board
                    .unit_at(unit.province)
                    .is_some_and(|u| u.power == power);
                if own && !used.contains(&unit.province) {
                    used.push(unit.province);
                    out.push(Order::Remove { unit: *unit });
                }
            }
        }
    }
    out
}

/// What a turn's one order set lacks (Agora BT15, BT22, BT23), for the acknowledgement: the
/// power's units that another power's unit next to them could dislodge and that have no
/// retreat or disband among the conditional orders, and, in a Fall turn, whether no build,
/// removal or waive is given at all (the centres may change hands at its end).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gaps {
    pub may_be_dislodged: Vec<crate::map::Unit>,
    pub no_adjustments: bool,
}

/// The gaps of a power's conditional orders (`candidates`, read as written: a retreat may read
/// as a move) against the movement phase's `board`.
pub fn gaps(map: &Map, board: &Board, power: Power, candidates: &[Order]) -> Gaps {
    let covered: Vec<Province> = candidates
        .iter()
        .filter_map(|o| match o {
            Order::Retreat { unit, .. } | Order::Disband { unit } | Order::Move { unit, .. } => {
                Some(unit.province)
            }
            _ => None,
        })
        .collect();
    let threatened = |at: Province| {
        board
            .units
            .iter()
            .any(|v| v.power != power && map.unit_reaches(v.unit_type, v.location, at))
    };
    let may_be_dislodged = board
        .units
        .iter()
        .filter(|u| u.power == power)
        .filter(|u| threatened(u.location.province) && !covered.contains(&u.location.province))
        .copied()
        .collect();
    let adjusts = candidates
        .iter()
        .any(|o| matches!(o, Order::Build { .. } | Order::Remove { .. } | Order::Waive));
    let fall =
        board.phase.season == crate::phase::Season::Fall && board.phase.kind == PhaseKind::Movement;
    Gaps {
        may_be_dislodged,
        no_adjustments: fall && !adjusts,
    }
}

/// The movement phase whose conditional orders serve this retreat or adjustment phase: the
/// same season's for a retreat, the Fall's of the year for an adjustment.
pub fn source_phase(phase: crate::phase::Phase) -> Option<crate::phase::Phase> {
    use crate::phase::{Phase, Season};
    match phase.kind {
        PhaseKind::Movement => None,
        PhaseKind::Retreat => Some(Phase::new(phase.season, phase.year, PhaseKind::Movement)),
        PhaseKind::Adjustment => Some(Phase::new(Season::Fall, phase.year, PhaseKind::Movement)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{PhaseInput, prepare};
    use crate::order::parse_order;

    /// Agora BT15, BT22, BT23: in the opening position only Austria's and Italy's units next to
    /// each other's could be dislodged in Spring 1901 (Venice, Trieste... as the map says);
    /// units given a retreat line are covered; a Fall turn without adjustments is noted.
    #[test]
    fn agora_bt15_bt22_bt23_the_gaps_of_a_one_order_set() {
        let m = map();
        let start = crate::adjudicator::Board::initial(m);
        let austria = m.power_by_name("AUSTRIA").expect("austria");
        let italy = m.power_by_name("ITALY").expect("italy");
        let g = gaps(m, &start, austria, &[]);
        let names: Vec<String> = g
            .may_be_dislodged
            .iter()
            .map(|u| m.location_name(u.location))
            .collect();
        // Trieste is next to Venice's army.
        assert!(
            names.iter().any(|n| n.to_ascii_uppercase().contains("TRI")),
            "{names:?}"
        );
        assert!(!g.no_adjustments, "Spring: no adjustments due");
        let tri = m.province_by_code("tri").expect("tri");
        let covered = gaps(m, &start, austria, &orders(&["F TRI - ALB"]));
        assert!(
            covered
                .may_be_dislodged
                .iter()
                .all(|u| u.location.province != tri)
        );
        let mut fall = start.clone();
        fall.phase.season = crate::phase::Season::Fall;
        assert!(gaps(m, &fall, italy, &[]).no_adjustments);
        assert!(!gaps(m, &fall, italy, &orders(&["BUILD A ROM"])).no_adjustments);
    }

    fn map() -> &'static Map {
        Map::variant("standard").expect("standard")
    }

    fn board(json: &str) -> Board {
        let input: PhaseInput = serde_json::from_str(json).expect("json");
        prepare(&input).expect("board").board
    }

    fn orders(lines: &[&str]) -> Vec<Order> {
        lines
            .iter()
            .map(|l| parse_order(map(), l).expect(l))
            .collect()
    }

    fn shown(o: &[Order]) -> Vec<String> {
        o.iter().map(|x| x.display(map()).to_string()).collect()
    }

    #[test]
    fn wm_d_ii_5_the_first_possible_retreat_is_used() {
        // England's fleet dislodged from the North Sea by a fleet from Holland; Edinburgh is
        // taken, so its first choice is not possible and its second is used.
        let b = board(
            r#"{"phase": "F1901R",
                "units": {"ENGLAND": ["F EDI"], "GERMANY": ["F NTH"]},
                "dislodged": {"ENGLAND": [{"unit": "F NTH", "attacker_from": "HOL"}]}}"#,
        );
        let england = map().power_by_name("ENGLAND").expect("e");
        let c = orders(&["F NTH R EDI", "F NTH R NWY", "F NTH R LON"]);
        assert_eq!(shown(&choose(map(), &b, england, &c)), vec!["F NTH R NWY"]);
        // Nothing possible: nothing chosen (the unit disbands by default).
        assert!(choose(map(), &b, england, &orders(&["F NTH R HOL"])).is_empty());
        // A disband is an option too, in its turn.
        let d = orders(&["F NTH D", "F NTH R NWY"]);
        assert_eq!(shown(&choose(map(), &b, england, &d)), vec!["F NTH D"]);
    }

    #[test]
    fn wm_d_ii_5_builds_in_order_of_preference_up_to_the_number_allowed() {
        // France has four centres and two units: two builds; Paris is occupied.
        let b = board(
            r#"{"phase": "W1901A",
                "units": {"FRANCE": ["A PAR", "F POR"]},
                "centers": {"FRANCE": ["PAR", "BRE", "MAR", "POR"]}}"#,
        );
        let france = map().power_by_name("FRANCE").expect("f");
        let c = orders(&[
            "BUILD A PAR",
            "BUILD F MAR",
            "BUILD A MAR",
            "BUILD F BRE",
            "BUILD A BRE",
        ]);
        assert_eq!(
            shown(&choose(map(), &b, france, &c)),
            vec!["BUILD F MAR", "BUILD F BRE"]
        );
        // Removals when there are more units than centres.
        let r = board(
            r#"{"phase": "W1901A",
                "units": {"FRANCE": ["A PAR", "F BRE", "A MAR"]},
                "centers": {"FRANCE": ["PAR", "BRE"]}}"#,
        );
        let c = orders(&["REMOVE A BUR", "REMOVE A MAR", "REMOVE F BRE"]);
        assert_eq!(shown(&choose(map(), &r, france, &c)), vec!["REMOVE A MAR"]);
    }

    #[test]
    fn the_source_of_a_phases_conditional_orders() {
        let p = |s: &str| s.parse::<crate::phase::Phase>().expect(s);
        assert_eq!(source_phase(p("S1902R")), Some(p("S1902M")));
        assert_eq!(source_phase(p("W1902A")), Some(p("F1902M")));
        assert_eq!(source_phase(p("F1902M")), None);
    }
}
