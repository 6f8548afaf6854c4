//! Where each thing of a scene stands on the drawing: the Provinces' points, the Units at the
//! start of the phase, and the dislodged Units set aside beside their Province so that the
//! attacker and the beaten Unit are both seen.

use super::arrows::P;
use crate::geometry::{Geometry, ProvinceShape};
use crate::scene::Scene;
use chancery_diplomacy::map::{Coast, Location, Map, Province, Unit};

/// How far a dislodged Unit is set from its Province's unit point: down and to the right,
/// overlapping the attacker's disc a little, as a beaten piece pushed aside.
pub const DISLODGED_OFFSET: P = P { x: 15.0, y: 13.0 };

/// A Unit and the point it is drawn at.
#[derive(Clone, Copy, Debug)]
pub struct Stand {
    pub unit: Unit,
    pub at: P,
    pub dislodged: bool,
}

/// The drawing's points of one scene.
pub struct Places<'a> {
    pub map: &'a Map,
    pub geometry: &'a Geometry,
    /// The Units standing at the start of the phase, by Province.
    standing: Vec<Option<Stand>>,
    /// The Units waiting to retreat (a retreat phase), by Province.
    retreating: Vec<Option<Stand>>,
}

impl<'a> Places<'a> {
    pub fn new(scene: &Scene<'a>, geometry: &'a Geometry) -> Places<'a> {
        let map = scene.map;
        let mut places = Places {
            map,
            geometry,
            standing: vec![None; map.province_count()],
            retreating: vec![None; map.province_count()],
        };
        for u in &scene.units {
            let dislodged = scene.dislodged.iter().any(|d| d.unit == *u);
            places.put(*u, dislodged, false);
        }
        for d in &scene.retreating {
            places.put(d.unit, true, true);
        }
        places
    }

    fn put(&mut self, unit: Unit, dislodged: bool, retreating: bool) {
        let Some(mut at) = self.location(unit.location) else {
            return;
        };
        if dislodged {
            at = at.add(DISLODGED_OFFSET);
        }
        let slot = if retreating {
            &mut self.retreating
        } else {
            &mut self.standing
        };
        if let Some(s) = slot.get_mut(unit.location.province.0 as usize) {
            *s = Some(Stand {
                unit,
                at,
                dislodged,
            });
        }
    }

    pub fn shape(&self, p: Province) -> Option<&'a ProvinceShape> {
        self.geometry.province(&self.map.info(p).code)
    }

    /// The point of a place: the coast's when a coast is named and drawn.
    pub fn location(&self, loc: Location) -> Option<P> {
        self.point(loc.province, loc.coast)
    }

    pub fn point(&self, p: Province, coast: Option<Coast>) -> Option<P> {
        let shape = self.shape(p)?;
        Some(P::of(shape.place(coast.map(Coast::code))))
    }

    /// The Unit standing in a Province at the start of the phase.
    pub fn standing(&self, p: Province) -> Option<&Stand> {
        self.standing.get(p.0 as usize)?.as_ref()
    }

    /// The dislodged Unit of a Province waiting to retreat.
    pub fn retreating(&self, p: Province) -> Option<&Stand> {
        self.retreating.get(p.0 as usize)?.as_ref()
    }

    /// Every Unit to draw, the retreating ones last so that they lie over the attackers.
    pub fn all(&self) -> impl Iterator<Item = &Stand> {
        self.standing.iter().chain(&self.retreating).flatten()
    }

    /// Where the ordered Unit of a Province is drawn: the retreating one in a retreat
    /// order, else the standing one; with no Unit there (an order for nothing), the Province's
    /// own point, at the coast the order names.
    pub fn origin(&self, p: Province, coast: Option<Coast>, retreat: bool) -> Option<P> {
        let stand = if retreat {
            self.retreating(p).or_else(|| self.standing(p))
        } else {
            self.standing(p).or_else(|| self.retreating(p))
        };
        stand.map(|s| s.at).or_else(|| self.point(p, coast))
    }

    /// Where a Unit of the scene is drawn (a disbanded one: the retreating first).
    pub fn of_unit(&self, u: &Unit) -> Option<P> {
        let p = u.location.province;
        [self.retreating(p), self.standing(p)]
            .into_iter()
            .flatten()
            .find(|s| s.unit.power == u.power && s.unit.unit_type == u.unit_type)
            .map(|s| s.at)
            .or_else(|| self.location(u.location))
    }
}
