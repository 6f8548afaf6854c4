//! SplitMix64 (Steele, Lea and Flood 2014): a small generator that gives the same numbers on
//! every machine, for draws that anyone must be able to repeat from a published seed (the
//! seating of a tournament round, WM B.6; the draw of powers, Agora BT6).

/// The generator's state.
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
