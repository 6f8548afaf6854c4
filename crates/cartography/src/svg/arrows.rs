//! The plane geometry of the drawing: points, arrows shortened to stop at a unit's edge,
//! head-to-head arrows set apart, arrowheads and crosses. Only `+ - * /` and `sqrt` (which IEEE
//! rounds exactly everywhere), never `sin`/`cos`, whose last bit may differ between machines:
//! the SVG must be the same to the byte on every one.

use crate::geometry::Point;
use std::fmt;

/// A point of the drawing in floating coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct P {
    pub x: f64,
    pub y: f64,
}

impl P {
    pub fn new(x: f64, y: f64) -> P {
        P { x, y }
    }

    pub fn of(p: Point) -> P {
        P::new(f64::from(p[0]), f64::from(p[1]))
    }

    pub fn add(self, o: P) -> P {
        P::new(self.x + o.x, self.y + o.y)
    }

    pub fn sub(self, o: P) -> P {
        P::new(self.x - o.x, self.y - o.y)
    }

    pub fn scale(self, k: f64) -> P {
        P::new(self.x * k, self.y * k)
    }

    pub fn len(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }

    /// The unit vector along this one (zero stays zero: a unit ordered to its own place).
    pub fn unit(self) -> P {
        let l = self.len();
        if l < 1e-9 {
            P::new(0.0, 0.0)
        } else {
            self.scale(1.0 / l)
        }
    }

    /// This vector turned a quarter to the right (y is down on the drawing).
    pub fn right(self) -> P {
        P::new(-self.y, self.x)
    }

    /// The point a fraction `t` of the way to `o`.
    pub fn lerp(self, o: P, t: f64) -> P {
        self.add(o.sub(self).scale(t))
    }
}

/// A number as the SVG writes it: one decimal at most, no "-0", so that equal drawings are
/// equal texts.
pub struct N(pub f64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = (self.0 * 10.0).round() as i64;
        let sign = if tenths < 0 { "-" } else { "" };
        let a = tenths.unsigned_abs();
        if a.is_multiple_of(10) {
            write!(f, "{sign}{}", a / 10)
        } else {
            write!(f, "{sign}{}.{}", a / 10, a % 10)
        }
    }
}

/// A point as `x y` (or `x,y` inside `points`).
pub struct Xy(pub P);

impl fmt::Display for Xy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", N(self.0.x), N(self.0.y))
    }
}

/// The straight path of an order from one unit's point to another's: its ends pulled in so
/// that the line starts at the edge of the ordered unit and the head stops at the edge of the
/// place it goes to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    pub from: P,
    pub to: P,
}

impl Segment {
    pub fn new(from: P, to: P) -> Segment {
        Segment { from, to }
    }

    pub fn dir(&self) -> P {
        self.to.sub(self.from).unit()
    }

    pub fn len(&self) -> f64 {
        self.to.sub(self.from).len()
    }

    /// Pulled in by `a` at the start and `b` at the end; a segment too short keeps its middle
    /// rather than turning round.
    pub fn trimmed(&self, a: f64, b: f64) -> Segment {
        let l = self.len();
        if l <= a + b + 2.0 {
            let m = self.from.lerp(self.to, 0.5);
            let d = self.dir();
            return Segment::new(m.sub(d), m.add(d));
        }
        let d = self.dir();
        Segment::new(self.from.add(d.scale(a)), self.to.sub(d.scale(b)))
    }

    /// Moved sideways by `by` to the right of its direction: two units moving at each other
    /// each move to their own right, so the two arrows run side by side.
    pub fn shifted(&self, by: f64) -> Segment {
        let s = self.dir().right().scale(by);
        Segment::new(self.from.add(s), self.to.add(s))
    }

    pub fn at(&self, t: f64) -> P {
        self.from.lerp(self.to, t)
    }

    /// The point of the segment nearest to `p`, kept within `[lo, hi]` of its length.
    pub fn nearest(&self, p: P, lo: f64, hi: f64) -> P {
        let v = self.to.sub(self.from);
        let l2 = v.x * v.x + v.y * v.y;
        if l2 < 1e-9 {
            return self.from;
        }
        let t = (p.sub(self.from).x * v.x + p.sub(self.from).y * v.y) / l2;
        self.at(t.clamp(lo, hi))
    }
}

/// The triangle of an arrowhead whose tip is at `tip`, pointing along `dir`.
pub fn head(tip: P, dir: P, length: f64, half_width: f64) -> [P; 3] {
    let back = tip.sub(dir.scale(length));
    let side = dir.right().scale(half_width);
    [tip, back.add(side), back.sub(side)]
}

/// A polygon's `points` attribute.
pub fn points(ps: &[P]) -> String {
    let mut s = String::new();
    for (i, p) in ps.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&format!("{},{}", N(p.x), N(p.y)));
    }
    s
}

/// The path of an ✕ of half-size `r` centred on `c`.
pub fn cross(c: P, r: f64) -> String {
    format!(
        "M{}L{}M{}L{}",
        Xy(c.add(P::new(-r, -r))),
        Xy(c.add(P::new(r, r))),
        Xy(c.add(P::new(-r, r))),
        Xy(c.add(P::new(r, -r)))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_with_one_decimal_at_most_and_never_minus_zero() {
        assert_eq!(N(3.0).to_string(), "3");
        assert_eq!(N(3.04).to_string(), "3");
        assert_eq!(N(3.06).to_string(), "3.1");
        assert_eq!(N(-0.01).to_string(), "0");
        assert_eq!(N(-2.5).to_string(), "-2.5");
        assert_eq!(N(-12.0).to_string(), "-12");
    }

    #[test]
    fn head_to_head_arrows_run_apart_on_each_ones_right() {
        let a = P::new(100.0, 100.0);
        let b = P::new(200.0, 100.0);
        let there = Segment::new(a, b).shifted(5.0);
        let back = Segment::new(b, a).shifted(5.0);
        // Going east, the right is south (y down); going west, north: 10 apart, parallel.
        assert_eq!(there.from, P::new(100.0, 105.0));
        assert_eq!(back.from, P::new(200.0, 95.0));
        assert!((there.from.y - back.to.y).abs() >= 10.0);
        assert!((there.to.y - back.from.y).abs() >= 10.0);
    }

    #[test]
    fn a_trimmed_arrow_stops_short_of_both_units() {
        let s = Segment::new(P::new(0.0, 0.0), P::new(0.0, 100.0)).trimmed(10.0, 12.0);
        assert_eq!(s.from, P::new(0.0, 10.0));
        assert_eq!(s.to, P::new(0.0, 88.0));
        // Too short to trim: it keeps its middle and its direction.
        let short = Segment::new(P::new(0.0, 0.0), P::new(0.0, 10.0)).trimmed(10.0, 12.0);
        assert_eq!(short.from, P::new(0.0, 4.0));
        assert_eq!(short.to, P::new(0.0, 6.0));
    }

    #[test]
    fn the_nearest_point_of_a_path_stays_within_its_bounds() {
        let s = Segment::new(P::new(0.0, 0.0), P::new(100.0, 0.0));
        assert_eq!(s.nearest(P::new(50.0, 30.0), 0.2, 0.8), P::new(50.0, 0.0));
        assert_eq!(s.nearest(P::new(-50.0, 30.0), 0.2, 0.8), P::new(20.0, 0.0));
    }
}
