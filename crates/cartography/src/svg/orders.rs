//! The Orders, each kind in its own style, and what became of each as the adjudicator said
//! (`Drawn::outcome`, never guessed from the position): a failed Order paler with a red ✕ at
//! its end, an invalid one faint. Every Order is one `<g>` whose class names its kind.

use super::arrows::{self, N, P, Segment, Xy};
use super::palette::{self, Colours};
use super::places::Places;
use super::units::RADIUS;
use crate::scene::{Drawn, Scene};
use chancery_diplomacy::adjudicator::Outcome;
use chancery_diplomacy::map::{Coast, Province};
use chancery_diplomacy::order::Order;
use std::collections::BTreeMap;
use std::f64::consts::FRAC_1_SQRT_2;
use std::fmt::Write;

/// How far each of two Units moving at each other is set to its right: the arrows (heads 10
/// wide) then run 14 apart and never touch.
pub const HEAD_TO_HEAD: f64 = 7.0;
/// The space along a move between the ends of several supports to it.
const SUPPORT_SPACING: f64 = 14.0;
/// The ring round a Unit supported to hold.
const HOLD_RING: f64 = 15.0;

/// The paths of the moves of a scene, and the supports each move has, to place what points at
/// a move (supports, convoys) on the arrow actually drawn.
pub struct Paths {
    moves: BTreeMap<(Province, Province), Segment>,
    supports: BTreeMap<(Province, Province), Vec<usize>>,
}

impl Paths {
    pub fn new(scene: &Scene<'_>, places: &Places<'_>) -> Paths {
        let mut paths = Paths {
            moves: BTreeMap::new(),
            supports: BTreeMap::new(),
        };
        let mut wanted = Vec::new();
        for (i, d) in scene.orders.iter().enumerate() {
            match &d.order {
                Order::Move {
                    unit,
                    dest,
                    dest_coast,
                    ..
                } => wanted.push((unit.province, unit.coast, *dest, *dest_coast)),
                Order::SupportMove { target, dest, .. } => paths
                    .supports
                    .entry((target.province, *dest))
                    .or_default()
                    .push(i),
                _ => {}
            }
        }
        for &(from, coast, dest, dest_coast) in &wanted {
            let head_to_head = wanted.iter().any(|w| w.0 == dest && w.2 == from);
            let (Some(a), Some(b)) = (
                places.origin(from, coast, false),
                places.point(dest, dest_coast),
            ) else {
                continue;
            };
            let mut s = Segment::new(a, b);
            if head_to_head {
                s = s.shifted(HEAD_TO_HEAD);
            }
            paths.moves.entry((from, dest)).or_insert(s);
        }
        paths
    }

    /// The path of the move from one Province to another: the drawn one if that move was
    /// ordered, else the straight way (a support or convoy for a move not made).
    pub fn of(
        &self,
        places: &Places<'_>,
        from: Province,
        dest: Province,
        coast: Option<Coast>,
    ) -> Option<Segment> {
        if let Some(s) = self.moves.get(&(from, dest)) {
            return Some(*s);
        }
        Some(Segment::new(
            places.origin(from, None, false)?,
            places.point(dest, coast)?,
        ))
    }

    /// Where the `order`-th order, a support to a move, meets that move: the middle, or for
    /// several supports to one move, points spread along it around the middle.
    fn support_end(&self, path: &Segment, key: (Province, Province), order: usize) -> P {
        let list = self.supports.get(&key).map_or(&[][..], Vec::as_slice);
        let k = list.iter().position(|&i| i == order).unwrap_or(0) as f64;
        let n = list.len().max(1) as f64;
        let along = (k - (n - 1.0) / 2.0) * SUPPORT_SPACING;
        let len = path.len().max(1.0);
        path.at((0.5 + along / len).clamp(0.15, 0.85))
    }
}

/// The drawing of every Order of the scene: the lines that point at Units or moves (holds,
/// supports, convoys) first, the arrows over them, builds and disbands last.
pub fn all(out: &mut String, scene: &Scene<'_>, places: &Places<'_>) {
    let paths = Paths::new(scene, places);
    out.push_str(
        r#"<g class="orders" fill="none" stroke-linecap="round" stroke-linejoin="round">"#,
    );
    for layer in 0..3 {
        for (i, d) in scene.orders.iter().enumerate() {
            if layer_of(&d.order) == layer {
                one(out, scene, places, &paths, i, d);
            }
        }
    }
    for u in &scene.disbanded {
        if let Some(at) = places.of_unit(u) {
            let _ = write!(out, r#"<g class="disband">{}</g>"#, disband_cross(at));
        }
    }
    out.push_str("</g>");
}

fn layer_of(order: &Order) -> u8 {
    match order {
        Order::Hold { .. }
        | Order::SupportHold { .. }
        | Order::SupportMove { .. }
        | Order::Convoy { .. } => 0,
        Order::Move { .. } | Order::Retreat { .. } => 1,
        _ => 2,
    }
}

/// The class of an Order's kind.
pub fn kind(order: &Order) -> &'static str {
    match order {
        Order::Hold { .. } => "hold",
        Order::Move { .. } => "move",
        Order::SupportHold { .. } => "support-hold",
        Order::SupportMove { .. } => "support-move",
        Order::Convoy { .. } => "convoy",
        Order::Retreat { .. } => "retreat",
        Order::Disband { .. } | Order::Remove { .. } => "disband",
        Order::Build { .. } => "build",
        Order::Waive => "waive",
    }
}

/// One Order in its group, then the red ✕ of a failure at its end, over everything.
fn one(
    out: &mut String,
    scene: &Scene<'_>,
    places: &Places<'_>,
    paths: &Paths,
    index: usize,
    d: &Drawn,
) {
    let c = palette::of(scene.map, d.power);
    let mut body = String::new();
    let Some(end) = shape(&mut body, places, paths, index, &d.order, c) else {
        return;
    };
    let (status, opacity) = match d.outcome {
        Outcome::Succeeds => ("", ""),
        Outcome::Fails => (" failed", r#" opacity="0.55""#),
        Outcome::Invalid => (" invalid", r#" opacity="0.25""#),
    };
    let _ = write!(
        out,
        r#"<g class="{}{status}"{opacity}>{body}</g>"#,
        kind(&d.order)
    );
    if d.outcome == Outcome::Fails {
        let _ = write!(
            out,
            r#"<path class="failed" d="{}" stroke="{}" stroke-width="2.6"/>"#,
            arrows::cross(end, 5.0),
            palette::FAILED
        );
    }
}

/// The shapes of one Order; the point where a failure's ✕ goes, or nothing when the Order
/// cannot be placed on this drawing (a Province the geometry lacks, a waived build).
fn shape(
    out: &mut String,
    places: &Places<'_>,
    paths: &Paths,
    index: usize,
    order: &Order,
    c: Colours,
) -> Option<P> {
    match order {
        Order::Hold { unit } => hold(out, places.origin(unit.province, unit.coast, false)?, c),
        Order::Move { unit, dest, .. } => {
            let s = paths.of(places, unit.province, *dest, None)?;
            Some(arrow(out, s.trimmed(RADIUS, RADIUS - 2.0), c, false))
        }
        Order::Retreat {
            unit,
            dest,
            dest_coast,
        } => {
            let from = places.origin(unit.province, unit.coast, true)?;
            let s = Segment::new(from, places.point(*dest, *dest_coast)?);
            Some(arrow(out, s.trimmed(RADIUS, RADIUS - 2.0), c, true))
        }
        Order::SupportHold { unit, target } => {
            let from = places.origin(unit.province, unit.coast, false)?;
            let at = places.origin(target.province, target.coast, false)?;
            let s = Segment::new(from, at).trimmed(RADIUS, HOLD_RING);
            Some(support_hold(out, s, at, HOLD_RING, c))
        }
        Order::SupportMove {
            unit,
            target,
            dest,
            dest_coast,
        } => {
            let from = places.origin(unit.province, unit.coast, false)?;
            let path = paths.of(places, target.province, *dest, *dest_coast)?;
            let to = paths.support_end(&path, (target.province, *dest), index);
            Some(support_move(
                out,
                Segment::new(from, to).trimmed(RADIUS, 0.0),
                c,
            ))
        }
        Order::Convoy { unit, army, dest } => {
            let from = places.origin(unit.province, unit.coast, false)?;
            let path = paths.of(places, army.province, *dest, None)?;
            let to = path.nearest(from, 0.25, 0.75);
            Some(convoy(
                out,
                Segment::new(from, to).trimmed(RADIUS, 4.0),
                to,
                c,
            ))
        }
        Order::Build {
            province, coast, ..
        } => Some(build(out, places.point(*province, *coast)?, 16.0, c)),
        Order::Disband { unit } | Order::Remove { unit } => {
            let retreat = matches!(order, Order::Disband { .. });
            let at = places.origin(unit.province, unit.coast, retreat)?;
            out.push_str(&disband_cross(at));
            Some(at)
        }
        Order::Waive => None,
    }
}

/// A move (a solid line and a filled head) or a retreat (an outlined line and an outlined
/// head); its tip.
fn arrow(out: &mut String, s: Segment, c: Colours, retreat: bool) -> P {
    let dir = s.dir();
    let head = arrows::head(s.to, dir, 12.0, 5.5);
    // The line stops inside the head, so that its end does not blunt the tip.
    let neck = s.to.sub(dir.scale(8.0));
    if retreat {
        let _ = write!(
            out,
            r##"<path d="M{}L{}" stroke="{}" stroke-width="5.5"/><path d="M{}L{}" stroke="#ffffff" stroke-width="2"/><polygon points="{}" fill="#ffffff" stroke="{}" stroke-width="1.8"/>"##,
            Xy(s.from),
            Xy(neck),
            c.line,
            Xy(s.from),
            Xy(neck),
            arrows::points(&head),
            c.line
        );
    } else {
        let _ = write!(
            out,
            r#"<path d="M{}L{}" stroke="{}" stroke-width="2.8"/><polygon points="{}" fill="{}" stroke="none"/>"#,
            Xy(s.from),
            Xy(neck),
            c.line,
            arrows::points(&head),
            c.line
        );
    }
    s.to
}

/// A hold: a thick bar under the Unit, as a piece standing on its ground.
fn hold(out: &mut String, at: P, c: Colours) -> Option<P> {
    let a = at.add(P::new(-8.0, 13.0));
    let b = at.add(P::new(8.0, 13.0));
    let _ = write!(
        out,
        r#"<path d="M{}L{}" stroke="{}" stroke-width="3.2"/>"#,
        Xy(a),
        Xy(b),
        c.line
    );
    Some(a.lerp(b, 0.5))
}

/// A support to hold: a dashed line to a ring round the supported Unit, dashed too so that it
/// is never taken for a dislodged Unit's solid red ring; where the line meets the ring.
fn support_hold(out: &mut String, s: Segment, at: P, ring: f64, c: Colours) -> P {
    let _ = write!(
        out,
        r#"<path d="M{}L{}" stroke="{}" stroke-width="2" stroke-dasharray="6 4"/><circle cx="{}" cy="{}" r="{}" stroke="{}" stroke-width="1.8" stroke-dasharray="4 2.5"/>"#,
        Xy(s.from),
        Xy(s.to),
        c.line,
        N(at.x),
        N(at.y),
        N(ring),
        c.line
    );
    s.to
}

/// A support to a move: a dashed line to the move's path, ending in a dot on it.
fn support_move(out: &mut String, s: Segment, c: Colours) -> P {
    let to = s.to;
    let _ = write!(
        out,
        r#"<path d="M{}L{}" stroke="{}" stroke-width="2" stroke-dasharray="6 4"/><circle cx="{}" cy="{}" r="3.2" fill="{}" stroke="none"/>"#,
        Xy(s.from),
        Xy(to),
        c.line,
        N(to.x),
        N(to.y),
        c.line
    );
    to
}

/// A convoy: a dotted line of round beads from the Fleet to the convoyed Army's path, ending in
/// an open ring on it: unlike a support's dashes and dot.
fn convoy(out: &mut String, s: Segment, to: P, c: Colours) -> P {
    let _ = write!(
        out,
        r##"<path d="M{}L{}" stroke="{}" stroke-width="3.2" stroke-dasharray="0.1 5.5"/><circle cx="{}" cy="{}" r="4" fill="#ffffff" stroke="{}" stroke-width="2"/>"##,
        Xy(s.from),
        Xy(s.to),
        c.line,
        N(to.x),
        N(to.y),
        c.line
    );
    to
}

/// A build: a ring round the new Unit and a plus at its shoulder; the plus.
fn build(out: &mut String, at: P, ring: f64, c: Colours) -> P {
    // The plus sits on the ring, up and to the right (at 45°: r/√2 each way).
    let plus = at.add(P::new(ring * FRAC_1_SQRT_2, -ring * FRAC_1_SQRT_2));
    let _ = write!(
        out,
        r##"<circle cx="{}" cy="{}" r="{}" stroke="{}" stroke-width="2"/><circle cx="{}" cy="{}" r="5.5" fill="#ffffff" stroke="{}" stroke-width="1.4"/><path d="M{}L{}M{}L{}" stroke="{}" stroke-width="1.8"/>"##,
        N(at.x),
        N(at.y),
        N(ring),
        c.line,
        N(plus.x),
        N(plus.y),
        c.line,
        Xy(plus.add(P::new(-3.2, 0.0))),
        Xy(plus.add(P::new(3.2, 0.0))),
        Xy(plus.add(P::new(0.0, -3.2))),
        Xy(plus.add(P::new(0.0, 3.2))),
        c.line
    );
    plus
}

/// A disband or removal: a black cross over the Unit, haloed in white to read on any colour.
fn disband_cross(at: P) -> String {
    let d = arrows::cross(at, 9.0);
    format!(
        r##"<path d="{d}" stroke="#ffffff" stroke-width="5.5"/><path d="{d}" stroke="{}" stroke-width="3"/>"##,
        palette::OUTLINE
    )
}

/// The legend's sample of a kind of Order (or of a failed or invalid one, or of a dislodged
/// Unit), along a short line.
pub fn sample(out: &mut String, kind: &str, line: Segment, c: Colours) {
    let mid = line.at(0.5);
    match kind {
        "move" => {
            arrow(out, line, c, false);
        }
        "retreat" => {
            arrow(out, line, c, true);
        }
        "support-hold" => {
            let at = line.to.sub(P::new(7.0, 0.0));
            support_hold(
                out,
                Segment::new(line.from, at).trimmed(0.0, 7.0),
                at,
                7.0,
                c,
            );
        }
        "support-move" => {
            support_move(out, line, c);
        }
        "convoy" => {
            convoy(out, line.trimmed(0.0, 4.0), line.to, c);
        }
        "hold" => {
            hold(out, mid.sub(P::new(0.0, 13.0)), c);
        }
        "build" => {
            build(out, mid, 9.0, c);
        }
        "disband" => out.push_str(&disband_cross(mid)),
        "failed" | "invalid" => {
            let opacity = if kind == "failed" { "0.55" } else { "0.25" };
            let _ = write!(out, r#"<g opacity="{opacity}">"#);
            let tip = arrow(out, line, c, false);
            out.push_str("</g>");
            if kind == "failed" {
                let _ = write!(
                    out,
                    r#"<path d="{}" stroke="{}" stroke-width="2.6"/>"#,
                    arrows::cross(tip, 5.0),
                    palette::FAILED
                );
            }
        }
        _ => {
            let _ = write!(
                out,
                r##"<circle cx="{}" cy="{}" r="9" fill="#bbbbbb" stroke="{}" stroke-width="1.2"/><circle cx="{}" cy="{}" r="{}" stroke="{}" stroke-width="2.2"/>"##,
                N(mid.x),
                N(mid.y),
                palette::OUTLINE,
                N(mid.x),
                N(mid.y),
                N(super::units::DISLODGED_RING),
                palette::FAILED
            );
        }
    }
}
