//! Maps: provinces, coasts, powers, adjacency and the starting position of a variant.
//!
//! A variant is a text file (see docs/variants.md) embedded in the binary. The file is
//! parsed once into a [`Map`], whose queries are what the adjudicator and the order reader use.
//! Provinces are small integers so that the resolver can index plain arrays.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// The standard board, embedded.
const STANDARD: &str = include_str!("../variants/standard.map");
const MAHARAJAH: &str = include_str!("../variants/maharajah.map");

/// A province, as an index into [`Map::provinces`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Province(pub u8);

/// A power, as an index into [`Map::powers`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Power(pub u8);

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Coast {
    North,
    South,
    East,
    West,
}

impl Coast {
    pub fn code(self) -> &'static str {
        match self {
            Coast::North => "NC",
            Coast::South => "SC",
            Coast::East => "EC",
            Coast::West => "WC",
        }
    }

    pub fn from_code(s: &str) -> Option<Coast> {
        match s.to_ascii_uppercase().as_str() {
            "NC" | "N" | "NORTH" => Some(Coast::North),
            "SC" | "S" | "SOUTH" => Some(Coast::South),
            "EC" | "E" | "EAST" => Some(Coast::East),
            "WC" | "W" | "WEST" => Some(Coast::West),
            _ => None,
        }
    }
}

/// Entries per province in location-indexed tables: no coast, and each of the four coasts.
const LOCATION_SLOTS: usize = 5;

/// A location's index in location-indexed tables.
fn location_slot(l: Location) -> usize {
    let coast = match l.coast {
        None => 0,
        Some(Coast::North) => 1,
        Some(Coast::South) => 2,
        Some(Coast::East) => 3,
        Some(Coast::West) => 4,
    };
    l.province.0 as usize * LOCATION_SLOTS + coast
}

/// A place a unit can stand: a province, and for fleets in a multi-coast province, a coast.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Location {
    pub province: Province,
    pub coast: Option<Coast>,
}

impl Location {
    pub fn new(province: Province) -> Location {
        Location {
            province,
            coast: None,
        }
    }

    pub fn with_coast(province: Province, coast: Coast) -> Location {
        Location {
            province,
            coast: Some(coast),
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum UnitType {
    Army,
    Fleet,
}

impl UnitType {
    pub fn letter(self) -> &'static str {
        match self {
            UnitType::Army => "A",
            UnitType::Fleet => "F",
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ProvinceKind {
    /// Inland: armies only.
    Land,
    /// Coastal land: armies and fleets.
    Coast,
    /// Water: fleets only.
    Sea,
}

#[derive(Clone, Debug)]
pub struct ProvinceInfo {
    pub code: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub kind: ProvinceKind,
    pub supply_center: bool,
    pub home: Option<Power>,
    /// Non-empty only for provinces whose fleets must name a coast.
    pub coasts: Vec<Coast>,
    /// A river province (Maharajiad B.I(2)): fleets move along the river through it, and a
    /// fleet in it may convoy.
    pub river: bool,
}

#[derive(Clone, Debug)]
pub struct PowerInfo {
    pub name: String,
    pub adjective: String,
}

/// A unit on the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Unit {
    pub power: Power,
    pub unit_type: UnitType,
    pub location: Location,
}

/// A fixed-size set of provinces (up to 256), cheap to copy and test.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct ProvinceSet([u64; 4]);

impl ProvinceSet {
    pub fn insert(&mut self, p: Province) {
        self.0[(p.0 >> 6) as usize] |= 1 << (p.0 & 63);
    }
    pub fn contains(&self, p: Province) -> bool {
        self.0[(p.0 >> 6) as usize] & (1 << (p.0 & 63)) != 0
    }
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
    /// The provinces in either set.
    pub fn union(self, other: ProvinceSet) -> ProvinceSet {
        ProvinceSet(std::array::from_fn(|w| self.0[w] | other.0[w]))
    }
    /// The provinces in both sets.
    pub fn intersection(self, other: ProvinceSet) -> ProvinceSet {
        ProvinceSet(std::array::from_fn(|w| self.0[w] & other.0[w]))
    }
    /// The provinces of this set that are not in `other`.
    pub fn difference(self, other: ProvinceSet) -> ProvinceSet {
        ProvinceSet(std::array::from_fn(|w| self.0[w] & !other.0[w]))
    }
    pub fn iter(&self) -> impl Iterator<Item = Province> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut b = bits;
            std::iter::from_fn(move || {
                if b == 0 {
                    return None;
                }
                let i = b.trailing_zeros();
                b &= b - 1;
                Some(Province((w as u32 * 64 + i) as u8))
            })
        })
    }
}

#[derive(Debug)]
pub struct Map {
    pub name: String,
    pub start_year: u16,
    pub powers: Vec<PowerInfo>,
    pub provinces: Vec<ProvinceInfo>,
    /// Army moves, per province.
    army_adj: Vec<ProvinceSet>,
    /// Fleet moves, per location, at `location_slot`: a province's plain entry and one per coast
    /// (the adjudicator asks this for every fleet order, so it is an index, not a hash).
    fleet_adj: Vec<Vec<Location>>,
    /// Provinces a fleet in some coast of the province can reach (any coast), per province.
    fleet_prov_adj: Vec<ProvinceSet>,
    pub starting_units: Vec<Unit>,
    /// Maharajiad B.I(3) (`rule additional_home_centres`): a centre held by one unit for a whole
    /// year becomes a home centre of its power.
    pub additional_home_centres: bool,
    lookup: HashMap<String, Province>,
}

/// Error in a variant file; these are our own embedded files, so this is a build defect, but
/// the loader still reports it rather than panicking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "map line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for MapError {}

/// Normalise a name for lookup: lower case, letters and digits only.
pub fn normalize_name(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}

impl Map {
    /// The standard board, parsed once.
    pub fn standard() -> &'static Map {
        static MAP: OnceLock<Map> = OnceLock::new();
        MAP.get_or_init(|| match Map::parse(STANDARD) {
            Ok(m) => m,
            // The file is embedded and covered by tests/map_standard.rs.
            Err(e) => panic!("embedded standard map is broken: {e}"),
        })
    }

    /// The names of the embedded variants.
    pub const VARIANTS: &'static [&'static str] = &["standard", "maharajah"];

    /// The embedded variant of that name.
    pub fn variant(name: &str) -> Option<&'static Map> {
        static MAHARAJAH_MAP: OnceLock<Map> = OnceLock::new();
        match name.to_ascii_lowercase().as_str() {
            "standard" | "classic" | "classical" => Some(Map::standard()),
            "maharajah" | "maharajah's diplomacy" => Some(MAHARAJAH_MAP.get_or_init(|| {
                match Map::parse(MAHARAJAH) {
                    Ok(m) => m,
                    // The file is embedded and covered by tests/map_maharajah.rs.
                    Err(e) => panic!("embedded maharajah map is broken: {e}"),
                }
            })),
            _ => None,
        }
    }

    pub fn parse(text: &str) -> Result<Map, MapError> {
        let mut map = Map {
            name: String::new(),
            start_year: 1901,
            powers: Vec::new(),
            provinces: Vec::new(),
            army_adj: Vec::new(),
            fleet_adj: Vec::new(),
            fleet_prov_adj: Vec::new(),
            starting_units: Vec::new(),
            additional_home_centres: false,
            lookup: HashMap::new(),
        };
        // Adjacency lines may refer to provinces declared later, so they are kept for a second pass.
        let mut deferred: Vec<(usize, &str, Vec<&str>)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |m: String| MapError {
                line: n,
                message: m,
            };
            let mut words = line.split_whitespace();
            let directive = words.next().unwrap_or("");
            let rest: Vec<&str> = words.collect();
            match directive {
                "variant" => map.name = rest.join(" "),
                "start" => {
                    map.start_year = rest
                        .first()
                        .and_then(|y| y.parse().ok())
                        .ok_or_else(|| err("bad start year".into()))?
                }
                "power" => {
                    if rest.len() != 2 {
                        return Err(err("power wants NAME ADJECTIVE".into()));
                    }
                    map.powers.push(PowerInfo {
                        name: rest[0].to_ascii_uppercase(),
                        adjective: rest[1].to_string(),
                    });
                }
                "prov" => {
                    if rest.len() < 4 {
                        return Err(err("prov wants CODE KIND CENTRE NAME".into()));
                    }
                    let kind = match rest[1] {
                        "land" => ProvinceKind::Land,
                        "coast" => ProvinceKind::Coast,
                        "sea" => ProvinceKind::Sea,
                        k => return Err(err(format!("unknown kind {k}"))),
                    };
                    let (supply_center, home) = match rest[2] {
                        "-" => (false, None),
                        "sc" => (true, None),
                        p => (
                            true,
                            Some(
                                map.power_by_name(p)
                                    .ok_or_else(|| err(format!("unknown power {p}")))?,
                            ),
                        ),
                    };
                    let names = rest[3..].join(" ");
                    let mut parts = names.split('|').map(|s| s.trim().to_string());
                    let name = parts.next().unwrap_or_default();
                    let aliases: Vec<String> = parts.filter(|s| !s.is_empty()).collect();
                    if map.provinces.len() >= 256 {
                        return Err(err("too many provinces".into()));
                    }
                    map.provinces.push(ProvinceInfo {
                        code: rest[0].to_ascii_uppercase(),
                        name,
                        aliases,
                        kind,
                        supply_center,
                        home,
                        coasts: Vec::new(),
                        river: false,
                    });
                }
                "rule" => match rest.as_slice() {
                    ["additional_home_centres"] => map.additional_home_centres = true,
                    _ => return Err(err(format!("unknown rule {}", rest.join(" ")))),
                },
                "coasts" | "army" | "fleet" | "unit" | "river" => {
                    deferred.push((n, directive, rest))
                }
                d => return Err(err(format!("unknown directive {d}"))),
            }
        }
        for (idx, p) in map.provinces.iter().enumerate() {
            let id = Province(idx as u8);
            for key in std::iter::once(&p.code)
                .chain(std::iter::once(&p.name))
                .chain(p.aliases.iter())
            {
                let k = normalize_name(key);
                if let Some(other) = map.lookup.insert(k.clone(), id)
                    && other != id
                {
                    return Err(MapError {
                        line: 0,
                        message: format!("name '{key}' is used by two provinces"),
                    });
                }
            }
        }
        map.army_adj = vec![ProvinceSet::default(); map.provinces.len()];
        map.fleet_adj = vec![Vec::new(); map.provinces.len() * LOCATION_SLOTS];
        map.fleet_prov_adj = vec![ProvinceSet::default(); map.provinces.len()];
        // Coasts first, so that fleet locations can be checked.
        for (n, d, rest) in deferred.iter().filter(|(_, d, _)| *d == "coasts") {
            let _ = d;
            let p = map.province_code(rest.first().copied().unwrap_or(""), *n)?;
            let mut coasts = Vec::new();
            for c in &rest[1..] {
                coasts.push(Coast::from_code(c).ok_or_else(|| MapError {
                    line: *n,
                    message: format!("unknown coast {c}"),
                })?);
            }
            map.provinces[p.0 as usize].coasts = coasts;
        }
        for (n, d, rest) in deferred.iter().filter(|(_, d, _)| *d != "coasts") {
            let n = *n;
            match *d {
                "river" => {
                    for t in rest {
                        let p = map.province_code(t, n)?;
                        if map.info(p).kind != ProvinceKind::Coast {
                            return Err(MapError {
                                line: n,
                                message: format!("river province {t} must be coastal"),
                            });
                        }
                        map.provinces[p.0 as usize].river = true;
                    }
                }
                "army" => {
                    let from = map.province_code(rest.first().copied().unwrap_or(""), n)?;
                    for t in &rest[1..] {
                        let to = map.province_code(t, n)?;
                        map.army_adj[from.0 as usize].insert(to);
                    }
                }
                "fleet" => {
                    let from = map.location_code(rest.first().copied().unwrap_or(""), n)?;
                    let mut targets = Vec::new();
                    for t in &rest[1..] {
                        let to = map.location_code(t, n)?;
                        map.fleet_prov_adj[from.province.0 as usize].insert(to.province);
                        targets.push(to);
                    }
                    map.fleet_adj[location_slot(from)] = targets;
                }
                "unit" => {
                    if rest.len() != 3 {
                        return Err(MapError {
                            line: n,
                            message: "unit wants POWER TYPE LOCATION".into(),
                        });
                    }
                    let power = map.power_by_name(rest[0]).ok_or_else(|| MapError {
                        line: n,
                        message: format!("unknown power {}", rest[0]),
                    })?;
                    let unit_type = match rest[1] {
                        "A" => UnitType::Army,
                        "F" => UnitType::Fleet,
                        t => {
                            return Err(MapError {
                                line: n,
                                message: format!("unknown unit type {t}"),
                            });
                        }
                    };
                    let location = map.location_code(rest[2], n)?;
                    map.starting_units.push(Unit {
                        power,
                        unit_type,
                        location,
                    });
                }
                _ => {}
            }
        }
        Ok(map)
    }

    fn province_code(&self, code: &str, line: usize) -> Result<Province, MapError> {
        self.province_by_code(code).ok_or_else(|| MapError {
            line,
            message: format!("unknown province {code}"),
        })
    }

    /// `SPA/NC` or `LON`: a location whose coast, if given, must exist.
    fn location_code(&self, code: &str, line: usize) -> Result<Location, MapError> {
        let (p, c) = match code.split_once('/') {
            Some((p, c)) => (p, Some(c)),
            None => (code, None),
        };
        let province = self.province_code(p, line)?;
        let coast = match c {
            None => None,
            Some(c) => {
                let coast = Coast::from_code(c).ok_or_else(|| MapError {
                    line,
                    message: format!("unknown coast {c}"),
                })?;
                if !self.info(province).coasts.contains(&coast) {
                    return Err(MapError {
                        line,
                        message: format!("{p} has no coast {c}"),
                    });
                }
                Some(coast)
            }
        };
        Ok(Location { province, coast })
    }

    pub fn info(&self, p: Province) -> &ProvinceInfo {
        &self.provinces[p.0 as usize]
    }

    pub fn province_count(&self) -> usize {
        self.provinces.len()
    }

    pub fn all_provinces(&self) -> impl Iterator<Item = Province> + '_ {
        (0..self.provinces.len()).map(|i| Province(i as u8))
    }

    /// Exact code match, ignoring case.
    pub fn province_by_code(&self, code: &str) -> Option<Province> {
        self.provinces
            .iter()
            .position(|p| p.code.eq_ignore_ascii_case(code))
            .map(|i| Province(i as u8))
    }

    /// Code, full name or alias, ignoring case and punctuation.
    pub fn province_by_name(&self, name: &str) -> Option<Province> {
        self.lookup.get(&normalize_name(name)).copied()
    }

    /// Every name a province answers to (normalised), for the order reader's fuzzy matching.
    pub fn province_names(&self) -> impl Iterator<Item = (&str, Province)> {
        self.lookup.iter().map(|(k, v)| (k.as_str(), *v))
    }

    pub fn power_by_name(&self, name: &str) -> Option<Power> {
        self.powers
            .iter()
            .position(|p| {
                p.name.eq_ignore_ascii_case(name) || p.adjective.eq_ignore_ascii_case(name)
            })
            .map(|i| Power(i as u8))
    }

    pub fn power_name(&self, p: Power) -> &str {
        &self.powers[p.0 as usize].name
    }

    pub fn all_powers(&self) -> impl Iterator<Item = Power> + '_ {
        (0..self.powers.len()).map(|i| Power(i as u8))
    }

    pub fn is_sea(&self, p: Province) -> bool {
        self.info(p).kind == ProvinceKind::Sea
    }

    /// Where a fleet may convoy: a sea, or a river province (Maharajiad B.I(2)).
    pub fn is_convoy_space(&self, p: Province) -> bool {
        self.is_sea(p) || self.info(p).river
    }

    pub fn is_coastal(&self, p: Province) -> bool {
        self.info(p).kind == ProvinceKind::Coast
    }

    pub fn is_land(&self, p: Province) -> bool {
        self.info(p).kind != ProvinceKind::Sea
    }

    /// Can a unit of this type stand in this location at all?
    pub fn can_occupy(&self, unit_type: UnitType, loc: Location) -> bool {
        let info = self.info(loc.province);
        match unit_type {
            UnitType::Army => info.kind != ProvinceKind::Sea && loc.coast.is_none(),
            UnitType::Fleet => {
                info.kind != ProvinceKind::Land
                    && (if info.coasts.is_empty() {
                        loc.coast.is_none()
                    } else {
                        loc.coast.is_some_and(|c| info.coasts.contains(&c))
                    })
            }
        }
    }

    pub fn army_adjacent(&self, from: Province, to: Province) -> bool {
        self.army_adj[from.0 as usize].contains(to)
    }

    pub fn army_neighbours(&self, from: Province) -> ProvinceSet {
        self.army_adj[from.0 as usize]
    }

    /// Fleet move between exact locations.
    pub fn fleet_adjacent(&self, from: Location, to: Location) -> bool {
        self.fleet_neighbours(from).contains(&to)
    }

    pub fn fleet_neighbours(&self, from: Location) -> &[Location] {
        self.fleet_adj
            .get(location_slot(from))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Can a fleet at `from` reach some coast of `to`? (What support orders need.)
    pub fn fleet_reaches_province(&self, from: Location, to: Province) -> bool {
        self.fleet_neighbours(from).iter().any(|l| l.province == to)
    }

    /// Provinces that border `p` for fleets, from any of its coasts.
    pub fn fleet_province_neighbours(&self, p: Province) -> ProvinceSet {
        self.fleet_prov_adj[p.0 as usize]
    }

    /// Can a unit of this type at `from` move to the province `to` directly (any coast)?
    pub fn unit_reaches(&self, unit_type: UnitType, from: Location, to: Province) -> bool {
        match unit_type {
            UnitType::Army => self.army_adjacent(from.province, to),
            UnitType::Fleet => self.fleet_reaches_province(from, to),
        }
    }

    /// Home centres of a power.
    pub fn home_centers(&self, power: Power) -> impl Iterator<Item = Province> + '_ {
        self.all_provinces()
            .filter(move |p| self.info(*p).home == Some(power))
    }

    pub fn supply_centers(&self) -> impl Iterator<Item = Province> + '_ {
        self.all_provinces().filter(|p| self.info(*p).supply_center)
    }

    /// `SPA/NC`, `LON`.
    pub fn location_name(&self, loc: Location) -> String {
        match loc.coast {
            Some(c) => format!("{}/{}", self.info(loc.province).code, c.code()),
            None => self.info(loc.province).code.clone(),
        }
    }

    pub fn unit_name(&self, unit_type: UnitType, loc: Location) -> String {
        format!("{} {}", unit_type.letter(), self.location_name(loc))
    }

    /// Parse `SPA/NC`, `spa(nc)`, `Spa`, a full name or alias, with an optional coast.
    /// The coast, if given, is returned as written (it may not exist in that province).
    pub fn parse_location(&self, text: &str) -> Option<(Province, Option<Coast>)> {
        let t = text.trim();
        let (p, c) = if let Some((p, c)) = t.split_once('/') {
            (p, Some(c))
        } else if let Some(open) = t.find('(') {
            let close = t.rfind(')')?;
            if close < open {
                return None;
            }
            (&t[..open], Some(&t[open + 1..close]))
        } else {
            (t, None)
        };
        let province = self
            .province_by_code(p.trim())
            .or_else(|| self.province_by_name(p))?;
        let coast = match c {
            None => None,
            Some(c) => Some(Coast::from_code(c.trim())?),
        };
        Some((province, coast))
    }
}
