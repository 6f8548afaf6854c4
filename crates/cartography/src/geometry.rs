//! Where each province lies on the drawing: one JSON file a board (`geometry/<variant>.json`),
//! embedded in the binary. Integer coordinates in SVG user units, y down. The format:
//! `{"variant", "width", "height", "land": [ring…], "provinces": {CODE: {"rings": [ring…],
//! "label": [x, y], "unit": [x, y], "centre"?: [x, y], "coasts"?: {COAST: [x, y]}}}}`; a ring is
//! a closed polygon `[[x, y]…]` whose first point is not repeated. Two provinces share a
//! border exactly when a segment of one's rings is a segment of the other's: the geometry
//! test (`tests/geometry.rs`) checks that against the board's graph.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A point in SVG user units.
pub type Point = [i32; 2];
/// A closed polygon, the first point not repeated.
pub type Ring = Vec<Point>;

/// One board's drawing.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Geometry {
    pub variant: String,
    pub width: i32,
    pub height: i32,
    /// All land in the frame (coastlines), drawn beneath the provinces: what no province covers
    /// (Switzerland, islands of no province) shows as plain land.
    pub land: Vec<Ring>,
    /// Each province by its code.
    pub provinces: BTreeMap<String, ProvinceShape>,
}

/// Where one province lies.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvinceShape {
    pub rings: Vec<Ring>,
    /// Where the name is written.
    pub label: Point,
    /// Where a unit stands (an army, or a fleet of a province with one coast).
    pub unit: Point,
    /// The supply centre's mark.
    #[serde(default)]
    pub centre: Option<Point>,
    /// Where a fleet stands on each coast of a province with several (`NC`, `SC`, `EC`).
    #[serde(default)]
    pub coasts: BTreeMap<String, Point>,
}

const STANDARD: &str = include_str!("../geometry/standard.json");
const MAHARAJAH: &str = include_str!("../geometry/maharajah.json");

impl Geometry {
    /// The drawing of a variant's board, if it has one. Read once; the files are our own, and
    /// a broken one is a build defect the geometry test reports, never a panic here.
    pub fn for_variant(name: &str) -> Option<&'static Geometry> {
        static STANDARD_GEOMETRY: OnceLock<Option<Geometry>> = OnceLock::new();
        static MAHARAJAH_GEOMETRY: OnceLock<Option<Geometry>> = OnceLock::new();
        let (cell, text) = match name {
            "standard" => (&STANDARD_GEOMETRY, STANDARD),
            "maharajah" => (&MAHARAJAH_GEOMETRY, MAHARAJAH),
            _ => return None,
        };
        cell.get_or_init(|| Geometry::parse(text).ok()).as_ref()
    }

    /// Read a geometry file.
    pub fn parse(text: &str) -> Result<Geometry, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The shape of a province, by its code.
    pub fn province(&self, code: &str) -> Option<&ProvinceShape> {
        self.provinces.get(code)
    }
}

impl ProvinceShape {
    /// Where a unit at this location stands: the coast's point when it has one.
    pub fn place(&self, coast: Option<&str>) -> Point {
        coast
            .and_then(|c| self.coasts.get(c))
            .copied()
            .unwrap_or(self.unit)
    }
}
