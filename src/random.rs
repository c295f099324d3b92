//! The crate's one random generator: SplitMix64 (Steele, Lea and Flood, 2014), fast, with a
//! 64-bit state and no bad seeds. Everything random here is deterministic from a seed, so a
//! result can be replayed: the Zobrist keys (computed at compile time, [`splitmix64`] is a
//! `const fn`), the correction-history keys ([`mix64`]), the tools' shuffles and data, the
//! fuzzer's cases and the tests' random positions ([`Rng`]).

/// SplitMix64's golden-ratio increment.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a bijective 64-bit mix (keys from bitboards, without tables).
#[inline(always)]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step of SplitMix64: advances `state` and returns the next number.
#[inline(always)]
pub const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN_GAMMA);
    mix64(*state)
}

/// A seeded stream of SplitMix64 numbers.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// True once in `n` times on average.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published SplitMix64 outputs for seed 1234567 (the reference C code's test vector).
    #[test]
    fn matches_the_reference_stream() {
        let mut state = 1_234_567;
        let first: Vec<u64> = (0..3).map(|_| splitmix64(&mut state)).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
        let mut rng = Rng::new(1_234_567);
        assert_eq!(rng.next_u64(), first[0]);
        assert!((0..1000).all(|_| rng.below(7) < 7 && (3..=5).contains(&rng.range(3, 5))));
    }
}
