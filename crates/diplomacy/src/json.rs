//! The `chancery adjudicate` contract: one phase in as JSON, the outcome out as JSON.
//! Documented in `docs/adjudicate.md`.

use crate::adjudicator::{Adjudication, Board, Dislodged, adjudicate};
use crate::map::{Location, Map, Power, Province, Unit, UnitType};
use crate::order::{Order, parse_order};
use crate::phase::Phase;
use crate::rules::Rules;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// What went wrong with the input; the message says exactly where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

fn err<T>(msg: impl Into<String>) -> Result<T, InputError> {
    Err(InputError(msg.into()))
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PhaseInput {
    #[serde(default = "default_variant")]
    pub variant: String,
    /// A preset name, or an object `{"preset": "wm2004", "<option>": "<value>", ...}`.
    #[serde(default)]
    pub rules: Option<serde_json::Value>,
    pub phase: String,
    #[serde(default)]
    pub units: BTreeMap<String, Vec<String>>,
    /// Absent: the variant's home centres. Present: the complete ownership.
    #[serde(default)]
    pub centers: Option<BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    pub dislodged: BTreeMap<String, Vec<DislodgedInput>>,
    #[serde(default)]
    pub contested: Vec<String>,
    /// Maharajiad B.I(3): each power's home centres now (absent: the map's).
    #[serde(default)]
    pub homes: Option<BTreeMap<String, Vec<String>>>,
    /// Maharajiad B.I(3): since which phase each unit has stood where it is (province code to
    /// phase). A unit not listed has no year behind it.
    #[serde(default)]
    pub held_since: BTreeMap<String, String>,
    #[serde(default)]
    pub orders: BTreeMap<String, Vec<String>>,
}

fn default_variant() -> String {
    "standard".into()
}

#[derive(Deserialize, Serialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct DislodgedInput {
    pub unit: String,
    pub attacker_from: String,
    #[serde(default)]
    pub by_convoy: bool,
    /// Ignored on input (the retreats are recomputed); present so that `next` can be fed back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreats: Option<Vec<String>>,
}

#[derive(Serialize, Debug, Clone)]
pub struct PhaseOutput {
    pub phase: String,
    pub rules: String,
    pub orders: Vec<OrderOutput>,
    /// Units removed without an order: no retreat, failed retreat, civil disorder.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub disbanded: BTreeMap<String, Vec<String>>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub built: BTreeMap<String, Vec<String>>,
    pub next: NextOutput,
}

#[derive(Serialize, Debug, Clone)]
pub struct OrderOutput {
    pub power: String,
    pub order: String,
    pub result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct NextOutput {
    pub phase: String,
    pub units: BTreeMap<String, Vec<String>>,
    pub centers: BTreeMap<String, Vec<String>>,
    pub dislodged: BTreeMap<String, Vec<DislodgedInput>>,
    pub contested: Vec<String>,
    /// On maps with additional home centres (Maharajiad B.I(3)) only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homes: Option<BTreeMap<String, Vec<String>>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub held_since: BTreeMap<String, String>,
}

fn power(map: &Map, name: &str) -> Result<Power, InputError> {
    map.power_by_name(name).map_or_else(
        || {
            let known: Vec<&str> = map.powers.iter().map(|p| p.name.as_str()).collect();
            err(format!(
                "unknown power '{name}' (this variant has {})",
                known.join(", ")
            ))
        },
        Ok,
    )
}

fn province(map: &Map, code: &str, what: &str) -> Result<Province, InputError> {
    match map.parse_location(code) {
        Some((p, None)) => Ok(p),
        _ => err(format!("{what}: '{code}' is not a province of this map")),
    }
}

/// `F STP/SC`, `a par`, `F stp(sc)`.
pub fn parse_unit(map: &Map, power: Power, text: &str) -> Result<Unit, InputError> {
    let t = text.trim();
    let (ty, loc) = t.split_once(char::is_whitespace).unwrap_or(("", t));
    let unit_type = match ty.to_ascii_uppercase().as_str() {
        "A" | "ARMY" => UnitType::Army,
        "F" | "FLEET" => UnitType::Fleet,
        _ => {
            return err(format!(
                "unit '{text}': start with A or F, as in 'F STP/SC'"
            ));
        }
    };
    let Some((province, coast)) = map.parse_location(loc.trim()) else {
        return err(format!(
            "unit '{text}': '{}' is not a province of this map",
            loc.trim()
        ));
    };
    let location = Location { province, coast };
    if !map.can_occupy(unit_type, location) {
        return err(format!(
            "unit '{text}': {} cannot stand in {}{}",
            if unit_type == UnitType::Army {
                "an army"
            } else {
                "a fleet"
            },
            map.location_name(location),
            if unit_type == UnitType::Fleet && !map.info(province).coasts.is_empty() {
                " (name the coast)"
            } else {
                ""
            }
        ));
    }
    Ok(Unit {
        power,
        unit_type,
        location,
    })
}

/// The house rules named by the input: a preset, or a preset with overrides.
pub fn rules_from(value: Option<&serde_json::Value>) -> Result<Rules, InputError> {
    match value {
        None => Ok(Rules::default()),
        Some(serde_json::Value::String(name)) => {
            Rules::preset(name).map_err(|e| InputError(e.to_string()))
        }
        Some(serde_json::Value::Object(obj)) => {
            let base = obj
                .get("preset")
                .and_then(|v| v.as_str())
                .unwrap_or("dpv2023");
            let rules = Rules::preset(base).map_err(|e| InputError(e.to_string()))?;
            let mut merged =
                serde_json::to_value(&rules).map_err(|e| InputError(format!("rules: {e}")))?;
            // One option at a time, so that an error names the option.
            for (k, v) in obj.iter().filter(|(k, _)| k.as_str() != "preset") {
                if let serde_json::Value::Object(m) = &mut merged {
                    if !m.contains_key(k) {
                        return err(format!("rules: unknown option '{k}'"));
                    }
                    m.insert(k.clone(), v.clone());
                }
                serde_json::from_value::<Rules>(merged.clone())
                    .map_err(|e| InputError(format!("rules: option '{k}': {e}")))?;
            }
            serde_json::from_value(merged).map_err(|e| InputError(format!("rules: {e}")))
        }
        Some(_) => err("rules: give a preset name or an object with \"preset\" and options"),
    }
}

/// Everything needed to adjudicate, read and checked.
pub struct Prepared {
    pub map: &'static Map,
    pub rules: Rules,
    pub board: Board,
    pub orders: Vec<(Power, Order)>,
}

pub fn prepare(input: &PhaseInput) -> Result<Prepared, InputError> {
    let Some(map) = Map::variant(&input.variant) else {
        return err(format!(
            "unknown variant '{}' (known: {})",
            input.variant,
            Map::VARIANTS.join(", ")
        ));
    };
    let rules = rules_from(input.rules.as_ref())?;
    let phase: Phase = input
        .phase
        .parse()
        .map_err(|e: crate::phase::PhaseError| InputError(e.to_string()))?;
    let mut board = Board::initial(map);
    board.phase = phase;
    board.units.clear();
    board.held_since = vec![None; map.province_count()];
    if let Some(homes) = &input.homes {
        board.homes = vec![None; map.province_count()];
        for (p, list) in homes {
            let pw = power(map, p)?;
            for c in list {
                let prov = province(map, c, "homes")?;
                if !map.info(prov).supply_center {
                    return err(format!("homes: {c} is not a supply centre"));
                }
                board.homes[prov.0 as usize] = Some(pw);
            }
        }
    }
    for (c, since) in &input.held_since {
        let prov = province(map, c, "held_since")?;
        let since: Phase = since
            .parse()
            .map_err(|e: crate::phase::PhaseError| InputError(e.to_string()))?;
        board.held_since[prov.0 as usize] = Some(since);
    }
    for (p, list) in &input.units {
        let pw = power(map, p)?;
        for u in list {
            let unit = parse_unit(map, pw, u)?;
            if let Some(other) = board.unit_at(unit.location.province) {
                return err(format!(
                    "two units in {}: {} and {}",
                    map.info(unit.location.province).code,
                    map.unit_name(other.unit_type, other.location),
                    u
                ));
            }
            board.units.push(unit);
        }
    }
    if let Some(centers) = &input.centers {
        board.owners = vec![None; map.province_count()];
        for (p, list) in centers {
            let pw = power(map, p)?;
            for c in list {
                let prov = province(map, c, "centers")?;
                if !map.info(prov).supply_center {
                    return err(format!("centers: {c} is not a supply centre"));
                }
                if let Some(o) = board.owners[prov.0 as usize]
                    && o != pw
                {
                    return err(format!("centers: {c} is listed for two powers"));
                }
                board.owners[prov.0 as usize] = Some(pw);
            }
        }
    }
    for (p, list) in &input.dislodged {
        let pw = power(map, p)?;
        for d in list {
            let unit = parse_unit(map, pw, &d.unit)?;
            let attacker_from = province(map, &d.attacker_from, "dislodged attacker_from")?;
            board.dislodged.push(Dislodged {
                unit,
                attacker_from,
                by_convoy: d.by_convoy,
            });
        }
    }
    for c in &input.contested {
        board.contested.push(province(map, c, "contested")?);
    }
    let mut orders = Vec::new();
    for (p, list) in &input.orders {
        let pw = power(map, p)?;
        for o in list {
            let order = parse_order(map, o).map_err(|e| InputError(format!("{p}: {e}")))?;
            orders.push((pw, order));
        }
    }
    Ok(Prepared {
        map,
        rules,
        board,
        orders,
    })
}

fn by_power<I: IntoIterator<Item = (Power, String)>>(
    map: &Map,
    items: I,
) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (p, s) in items {
        out.entry(map.power_name(p).to_string())
            .or_default()
            .push(s);
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

/// A board in the shape of `next` (and of the input, less the orders).
pub fn board_output(map: &Map, board: &Board) -> NextOutput {
    let unit_name = |u: &Unit| map.unit_name(u.unit_type, u.location);
    let retreats = crate::adjudicator::retreat_options(map, board);
    let mut dislodged: BTreeMap<String, Vec<DislodgedInput>> = BTreeMap::new();
    for r in retreats {
        let d = &r.dislodged;
        dislodged
            .entry(map.power_name(d.unit.power).to_string())
            .or_default()
            .push(DislodgedInput {
                unit: unit_name(&d.unit),
                attacker_from: map.info(d.attacker_from).code.clone(),
                by_convoy: d.by_convoy,
                retreats: Some(r.retreats.iter().map(|l| map.location_name(*l)).collect()),
            });
    }
    let mut contested: Vec<String> = board
        .contested
        .iter()
        .map(|p| map.info(*p).code.clone())
        .collect();
    contested.sort();
    NextOutput {
        phase: board.phase.to_string(),
        units: by_power(map, board.units.iter().map(|u| (u.power, unit_name(u)))),
        centers: by_power(
            map,
            map.all_provinces()
                .filter_map(|p| board.owner(p).map(|o| (o, map.info(p).code.clone()))),
        ),
        dislodged,
        contested,
        homes: map.additional_home_centres.then(|| {
            by_power(
                map,
                map.all_provinces()
                    .filter_map(|p| board.home(p).map(|o| (o, map.info(p).code.clone()))),
            )
        }),
        held_since: if map.additional_home_centres {
            board
                .units
                .iter()
                .filter_map(|u| {
                    let p = u.location.province;
                    let since = board.held_since.get(p.0 as usize).copied().flatten()?;
                    Some((map.info(p).code.clone(), since.to_string()))
                })
                .collect()
        } else {
            BTreeMap::new()
        },
    }
}

pub fn render(map: &Map, rules: &Rules, adj: &Adjudication) -> PhaseOutput {
    let unit_name = |u: &Unit| map.unit_name(u.unit_type, u.location);
    let orders = adj
        .results
        .iter()
        .map(|r| OrderOutput {
            power: map.power_name(r.power).to_string(),
            order: r.order.display(map).to_string(),
            result: r.outcome.as_str(),
            reason: r.reason.map(|x| x.as_str()),
            note: r.note.clone(),
        })
        .collect();
    PhaseOutput {
        phase: adj.phase.to_string(),
        rules: rules.name.clone(),
        orders,
        disbanded: by_power(map, adj.disbanded.iter().map(|u| (u.power, unit_name(u)))),
        built: by_power(map, adj.built.iter().map(|u| (u.power, unit_name(u)))),
        next: board_output(map, &adj.next),
    }
}

/// Read a phase as JSON text, adjudicate it, and return the outcome as pretty JSON.
pub fn adjudicate_json(text: &str) -> Result<String, InputError> {
    let input: PhaseInput = serde_json::from_str(text)
        .map_err(|e| InputError(format!("input is not a valid phase: {e}")))?;
    let p = prepare(&input)?;
    let adj = adjudicate(p.map, &p.rules, &p.board, &p.orders);
    let out = render(p.map, &p.rules, &adj);
    serde_json::to_string_pretty(&out).map_err(|e| InputError(format!("cannot write output: {e}")))
}
