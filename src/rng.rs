//! The engine's one random generator: SplitMix64, small and fast, seedable so
//! that data generation, `genfens` and `UCI_LimitStrength` repeat exactly
//! from a seed. Not for anything that needs cryptographic quality.

use std::hash::BuildHasher;

/// A SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator seeded with `seed`, or, when `seed` is 0 (an option's "no
    /// seed"), from the clock hashed with the standard library's per-process
    /// random keys (the system's random source on every platform, WebAssembly's
    /// WASI included, where there is no process id).
    pub fn from_seed_or_clock(seed: u64) -> Rng {
        if seed != 0 {
            return Rng(seed);
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9E37_79B9, |d| d.as_nanos() as u64);
        Rng(std::hash::RandomState::new().hash_one(nanos))
    }

    /// A new generator seeded by this one's next draw.
    pub fn fork(&mut self) -> Rng {
        Rng(self.next_u64())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A number uniform in `0.0..1.0`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // The first outputs of SplitMix64 seeded with 0 (Vigna's reference code).
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_and_unit_stay_in_range() {
        let mut rng = Rng::new(5);
        for n in [1, 2, 7, 1000] {
            assert!((0..200).all(|_| rng.below(n) < n));
        }
        assert!((0..1000).map(|_| rng.unit()).all(|u| (0.0..1.0).contains(&u)));
    }

    #[test]
    fn a_zero_seed_takes_the_clock_and_others_repeat() {
        assert_eq!(Rng::from_seed_or_clock(9).next_u64(), Rng::new(9).next_u64());
        let a = Rng::from_seed_or_clock(0).next_u64();
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert_ne!(a, Rng::from_seed_or_clock(0).next_u64());
    }
}
