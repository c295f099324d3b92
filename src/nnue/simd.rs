//! The hot loops of the network on slices whose length is a multiple of 64 (the hidden size of
//! every network this build plays is).
//!
//! Each kernel comes three ways: [`portable`] (plain loops over blocks of 64 the compiler
//! vectorises for whatever the build targets), [`avx2`] (256-bit `std::arch` intrinsics) and
//! [`avx512`] (512-bit, AVX-512F and AVX-512BW). All three give the same result bit for bit.
//! The entry points of this module ([`add_sub`], [`add_sub_in_place`], [`screlu_dot`]) use the
//! best one the build targets, chosen at compile time from `target_feature` (`.cargo/config.toml`
//! builds for the native CPU; a portable build, `-C target-cpu=x86-64-v2`, takes the portable
//! loops). The vector paths are compiled into every x86_64 build as `#[target_feature]` functions,
//! so tests and benchmarks can run each of them where `is_x86_feature_detected!` finds the CPU
//! able to.
//!
//! Every implementation checks its lengths once per call with `assert!` (equal lengths, a
//! multiple of 64), so a mismatch panics instead of reading out of bounds.

use super::format::QA;

/// Elements per block: the kernels work on 64 `i16`s at a time (four AVX2 registers, two
/// AVX-512 registers).
pub const BLOCK: usize = 64;

/// Panics unless `n` is a multiple of [`BLOCK`] and `input` and every row have `n` elements.
#[inline(always)]
#[track_caller]
fn check_lengths<const A: usize, const S: usize>(
    n: usize,
    input: &[i16],
    adds: &[&[i16]; A],
    subs: &[&[i16]; S],
) {
    assert!(
        n.is_multiple_of(BLOCK),
        "NNUE kernel on {n} elements, not a multiple of {BLOCK}"
    );
    assert!(
        input.len() == n && adds.iter().chain(subs).all(|r| r.len() == n),
        "NNUE kernel rows of different lengths"
    );
}

/// `out = input + Σ adds − Σ subs`, element-wise, wrapping `i16` arithmetic.
///
/// Panics unless every slice has the same length, a multiple of 64.
#[inline]
pub fn add_sub<const A: usize, const S: usize>(
    out: &mut [i16],
    input: &[i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    best::add_sub(out, input, adds, subs);
}

/// In place: `acc += Σ adds − Σ subs`, element-wise, wrapping `i16` arithmetic.
///
/// Panics unless every slice has the same length, a multiple of 64.
#[inline]
pub fn add_sub_in_place<const A: usize, const S: usize>(
    acc: &mut [i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    best::add_sub_in_place(acc, adds, subs);
}

/// Σ clamp(acc_i, 0, QA)² · w_i, computed as `(clamp · w)` wrapped to `i16` (the trainer keeps
/// |w| < 128, so it fits) times the clamp again, summed in wrapping `i32`: the order of
/// operations of `pmaddwd`.
///
/// Panics unless both slices have the same length, a multiple of 64.
#[inline]
pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
    best::screlu_dot(acc, w)
}

/// [`screlu_dot`] on the portable path, whatever the build targets (tests of the vector paths,
/// `Network::output_portable`).
#[inline]
pub fn screlu_dot_portable(acc: &[i16], w: &[i16]) -> i32 {
    portable::screlu_dot(acc, w)
}

/// The path the entry points of this build use: `"avx512"`, `"avx2"` or `"portable"`.
pub fn path_name() -> &'static str {
    best::NAME
}

/// The entry points' choice when the build targets AVX-512F and AVX-512BW.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512bw"
))]
mod best {
    pub const NAME: &str = "avx512";

    #[inline(always)]
    pub fn add_sub<const A: usize, const S: usize>(
        out: &mut [i16],
        input: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        // SAFETY: this module is compiled only when the build targets AVX-512F and AVX-512BW
        // (its cfg), so every CPU the binary runs on has them; lengths are checked inside.
        unsafe { super::avx512::add_sub(out, input, adds, subs) }
    }

    #[inline(always)]
    pub fn add_sub_in_place<const A: usize, const S: usize>(
        acc: &mut [i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        // SAFETY: as in `add_sub`: the build targets AVX-512F and AVX-512BW.
        unsafe { super::avx512::add_sub_in_place(acc, adds, subs) }
    }

    #[inline(always)]
    pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        // SAFETY: as in `add_sub`: the build targets AVX-512F and AVX-512BW.
        unsafe { super::avx512::screlu_dot(acc, w) }
    }
}

/// The entry points' choice when the build targets AVX2 but not AVX-512.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    not(all(target_feature = "avx512f", target_feature = "avx512bw"))
))]
mod best {
    pub const NAME: &str = "avx2";

    #[inline(always)]
    pub fn add_sub<const A: usize, const S: usize>(
        out: &mut [i16],
        input: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        // SAFETY: this module is compiled only when the build targets AVX2 (its cfg), so every
        // CPU the binary runs on has it; lengths are checked inside.
        unsafe { super::avx2::add_sub(out, input, adds, subs) }
    }

    #[inline(always)]
    pub fn add_sub_in_place<const A: usize, const S: usize>(
        acc: &mut [i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        // SAFETY: as in `add_sub`: the build targets AVX2.
        unsafe { super::avx2::add_sub_in_place(acc, adds, subs) }
    }

    #[inline(always)]
    pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        // SAFETY: as in `add_sub`: the build targets AVX2.
        unsafe { super::avx2::screlu_dot(acc, w) }
    }
}

/// The entry points' choice when the build targets neither vector extension.
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
mod best {
    pub use super::portable::{add_sub, add_sub_in_place, screlu_dot};
    pub const NAME: &str = "portable";
}

/// Plain loops over blocks of [`BLOCK`] elements, which the compiler vectorises for whatever the
/// build targets (SSE2 to AVX-512). The reference the vector paths are tested against.
pub mod portable {
    use super::{check_lengths, BLOCK, QA};

    /// `v += Σ adds[b] − Σ subs[b]`, block `b` of each row.
    #[inline(always)]
    fn apply_block<const A: usize, const S: usize>(
        v: &mut [i16; BLOCK],
        b: usize,
        adds: &[&[[i16; BLOCK]]; A],
        subs: &[&[[i16; BLOCK]]; S],
    ) {
        for a in adds {
            let a = &a[b];
            for j in 0..BLOCK {
                v[j] = v[j].wrapping_add(a[j]);
            }
        }
        for s in subs {
            let s = &s[b];
            for j in 0..BLOCK {
                v[j] = v[j].wrapping_sub(s[j]);
            }
        }
    }

    /// See [`super::add_sub`].
    #[inline]
    pub fn add_sub<const A: usize, const S: usize>(
        out: &mut [i16],
        input: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        check_lengths(out.len(), input, &adds, &subs);
        let adds = adds.map(|r| r.as_chunks::<BLOCK>().0);
        let subs = subs.map(|r| r.as_chunks::<BLOCK>().0);
        let out = out.as_chunks_mut::<BLOCK>().0;
        let input = input.as_chunks::<BLOCK>().0;
        for (b, (o, x)) in out.iter_mut().zip(input).enumerate() {
            let mut v = *x;
            apply_block(&mut v, b, &adds, &subs);
            *o = v;
        }
    }

    /// See [`super::add_sub_in_place`].
    #[inline]
    pub fn add_sub_in_place<const A: usize, const S: usize>(
        acc: &mut [i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        let n = acc.len();
        check_lengths(n, &acc[..], &adds, &subs);
        let adds = adds.map(|r| r.as_chunks::<BLOCK>().0);
        let subs = subs.map(|r| r.as_chunks::<BLOCK>().0);
        for (b, v) in acc.as_chunks_mut::<BLOCK>().0.iter_mut().enumerate() {
            apply_block(v, b, &adds, &subs);
        }
    }

    /// See [`super::screlu_dot`].
    #[inline]
    pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        check_lengths(acc.len(), w, &[], &[]);
        // One flat loop (not one per block), so the vectorised sum stays in vector registers
        // to the end instead of being reduced to a scalar after every block.
        let mut sum = 0i32;
        for (&a, &w) in acc.iter().zip(w) {
            let v = a.clamp(0, QA as i16);
            let vw = v.wrapping_mul(w);
            sum = sum.wrapping_add(i32::from(vw) * i32::from(v));
        }
        sum
    }
}

/// 256-bit kernels. Compiled into every x86_64 build; callable where the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::{check_lengths, BLOCK, QA};

    /// `i16` lanes per register.
    const LANES: usize = 16;
    /// Registers per block.
    const REGS: usize = BLOCK / LANES;

    /// See [`super::add_sub`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2. (Lengths are checked: a mismatch panics.)
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn add_sub<const A: usize, const S: usize>(
        out: &mut [i16],
        input: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        let n = out.len();
        check_lengths(n, input, &adds, &subs);
        for start in (0..n).step_by(BLOCK) {
            // SAFETY: `start + BLOCK <= n` (n is a multiple of BLOCK) and every slice has `n`
            // elements (checked above), so each unaligned load and store of LANES elements at
            // `start + k * LANES`, k < REGS, stays within its slice; `out` is a distinct `&mut`
            // slice, so the stores alias nothing read.
            unsafe {
                let mut v = [_mm256_setzero_si256(); REGS];
                for (k, r) in v.iter_mut().enumerate() {
                    *r = _mm256_loadu_si256(input.as_ptr().add(start + k * LANES).cast());
                }
                for a in &adds {
                    for (k, r) in v.iter_mut().enumerate() {
                        let x = _mm256_loadu_si256(a.as_ptr().add(start + k * LANES).cast());
                        *r = _mm256_add_epi16(*r, x);
                    }
                }
                for s in &subs {
                    for (k, r) in v.iter_mut().enumerate() {
                        let x = _mm256_loadu_si256(s.as_ptr().add(start + k * LANES).cast());
                        *r = _mm256_sub_epi16(*r, x);
                    }
                }
                for (k, r) in v.iter().enumerate() {
                    _mm256_storeu_si256(out.as_mut_ptr().add(start + k * LANES).cast(), *r);
                }
            }
        }
    }

    /// See [`super::add_sub_in_place`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2. (Lengths are checked: a mismatch panics.)
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn add_sub_in_place<const A: usize, const S: usize>(
        acc: &mut [i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        let n = acc.len();
        check_lengths(n, &acc[..], &adds, &subs);
        let acc = acc.as_mut_ptr();
        for start in (0..n).step_by(BLOCK) {
            // SAFETY: `start + BLOCK <= n` (n is a multiple of BLOCK) and every slice has `n`
            // elements (checked above), so each unaligned load and store of LANES elements at
            // `start + k * LANES`, k < REGS, stays within its slice; `acc` is a `&mut` slice, so
            // no row aliases it.
            unsafe {
                let mut v = [_mm256_setzero_si256(); REGS];
                for (k, r) in v.iter_mut().enumerate() {
                    *r = _mm256_loadu_si256(acc.add(start + k * LANES).cast());
                }
                for a in &adds {
                    for (k, r) in v.iter_mut().enumerate() {
                        let x = _mm256_loadu_si256(a.as_ptr().add(start + k * LANES).cast());
                        *r = _mm256_add_epi16(*r, x);
                    }
                }
                for s in &subs {
                    for (k, r) in v.iter_mut().enumerate() {
                        let x = _mm256_loadu_si256(s.as_ptr().add(start + k * LANES).cast());
                        *r = _mm256_sub_epi16(*r, x);
                    }
                }
                for (k, r) in v.iter().enumerate() {
                    _mm256_storeu_si256(acc.add(start + k * LANES).cast(), *r);
                }
            }
        }
    }

    /// See [`super::screlu_dot`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2. (Lengths are checked: a mismatch panics.)
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        let n = acc.len();
        check_lengths(n, w, &[], &[]);
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        // One sum per register of the block, so the additions do not wait on each other.
        let mut sums = [_mm256_setzero_si256(); REGS];
        for start in (0..n).step_by(BLOCK) {
            for (k, sum) in sums.iter_mut().enumerate() {
                // SAFETY: `start + BLOCK <= n` (n is a multiple of BLOCK) and both slices have
                // `n` elements (checked above), so the unaligned loads of LANES elements at
                // `start + k * LANES`, k < REGS, stay within them.
                let (v, weights) = unsafe {
                    (
                        _mm256_loadu_si256(acc.as_ptr().add(start + k * LANES).cast()),
                        _mm256_loadu_si256(w.as_ptr().add(start + k * LANES).cast()),
                    )
                };
                let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa);
                let vw = _mm256_mullo_epi16(v, weights);
                *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(vw, v));
            }
        }
        let sum = _mm256_add_epi32(
            _mm256_add_epi32(sums[0], sums[1]),
            _mm256_add_epi32(sums[2], sums[3]),
        );
        let sum128 = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let sum64 = _mm_add_epi32(sum128, _mm_unpackhi_epi64(sum128, sum128));
        let sum32 = _mm_add_epi32(sum64, _mm_shuffle_epi32::<1>(sum64));
        _mm_cvtsi128_si32(sum32)
    }
}

/// 512-bit kernels. Compiled into every x86_64 build; callable where the CPU has AVX-512F and
/// AVX-512BW.
#[cfg(target_arch = "x86_64")]
pub mod avx512 {
    use std::arch::x86_64::*;

    use super::{check_lengths, BLOCK, QA};

    /// `i16` lanes per register.
    const LANES: usize = 32;
    /// Registers per block.
    const REGS: usize = BLOCK / LANES;

    /// See [`super::add_sub`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512F and AVX-512BW. (Lengths are checked: a mismatch panics.)
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub unsafe fn add_sub<const A: usize, const S: usize>(
        out: &mut [i16],
        input: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        let n = out.len();
        check_lengths(n, input, &adds, &subs);
        for start in (0..n).step_by(BLOCK) {
            // SAFETY: `start + BLOCK <= n` (n is a multiple of BLOCK) and every slice has `n`
            // elements (checked above), so each unaligned load and store of LANES elements at
            // `start + k * LANES`, k < REGS, stays within its slice; `out` is a distinct `&mut`
            // slice, so the stores alias nothing read.
            unsafe {
                let mut v = [_mm512_setzero_si512(); REGS];
                for (k, r) in v.iter_mut().enumerate() {
                    *r = _mm512_loadu_si512(input.as_ptr().add(start + k * LANES).cast());
                }
                for a in &adds {
                    for (k, r) in v.iter_mut().enumerate() {
                        let x = _mm512_loadu_si512(a.as_ptr().add(start + k * LANES).cast());
                        *r = _mm512_add_epi16(*r, x);
                    }
                }
                for s in &subs {
                    for (k, r) in v.iter_mut().enumerate() {
                        let x = _mm512_loadu_si512(s.as_ptr().add(start + k * LANES).cast());
                        *r = _mm512_sub_epi16(*r, x);
                    }
                }
                for (k, r) in v.iter().enumerate() {
                    _mm512_storeu_si512(out.as_mut_ptr().add(start + k * LANES).cast(), *r);
                }
            }
        }
    }

    /// See [`super::add_sub_in_place`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512F and AVX-512BW. (Lengths are checked: a mismatch panics.)
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub unsafe fn add_sub_in_place<const A: usize, const S: usize>(
        acc: &mut [i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        let n = acc.len();
        check_lengths(n, &acc[..], &adds, &subs);
        let acc = acc.as_mut_ptr();
        for start in (0..n).step_by(BLOCK) {
            // SAFETY: `start + BLOCK <= n` (n is a multiple of BLOCK) and every slice has `n`
            // elements (checked above), so each unaligned load and store of LANES elements at
            // `start + k * LANES`, k < REGS, stays within its slice; `acc` is a `&mut` slice, so
            // no row aliases it.
            unsafe {
                let mut v = [_mm512_setzero_si512(); REGS];
                for (k, r) in v.iter_mut().enumerate() {
                    *r = _mm512_loadu_si512(acc.add(start + k * LANES).cast());
                }
                for a in &adds {
                    for (k, r) in v.iter_mut().enumerate() {
                        let x = _mm512_loadu_si512(a.as_ptr().add(start + k * LANES).cast());
                        *r = _mm512_add_epi16(*r, x);
                    }
                }
                for s in &subs {
                    for (k, r) in v.iter_mut().enumerate() {
                        let x = _mm512_loadu_si512(s.as_ptr().add(start + k * LANES).cast());
                        *r = _mm512_sub_epi16(*r, x);
                    }
                }
                for (k, r) in v.iter().enumerate() {
                    _mm512_storeu_si512(acc.add(start + k * LANES).cast(), *r);
                }
            }
        }
    }

    /// See [`super::screlu_dot`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512F and AVX-512BW. (Lengths are checked: a mismatch panics.)
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        let n = acc.len();
        check_lengths(n, w, &[], &[]);
        let zero = _mm512_setzero_si512();
        let qa = _mm512_set1_epi16(QA as i16);
        // One sum per register of the block, so the additions do not wait on each other.
        let mut sums = [_mm512_setzero_si512(); REGS];
        for start in (0..n).step_by(BLOCK) {
            for (k, sum) in sums.iter_mut().enumerate() {
                // SAFETY: `start + BLOCK <= n` (n is a multiple of BLOCK) and both slices have
                // `n` elements (checked above), so the unaligned loads of LANES elements at
                // `start + k * LANES`, k < REGS, stay within them.
                let (v, weights) = unsafe {
                    (
                        _mm512_loadu_si512(acc.as_ptr().add(start + k * LANES).cast()),
                        _mm512_loadu_si512(w.as_ptr().add(start + k * LANES).cast()),
                    )
                };
                let v = _mm512_min_epi16(_mm512_max_epi16(v, zero), qa);
                let vw = _mm512_mullo_epi16(v, weights);
                *sum = _mm512_add_epi32(*sum, _mm512_madd_epi16(vw, v));
            }
        }
        _mm512_reduce_add_epi32(_mm512_add_epi32(sums[0], sums[1]))
    }
}

/// One path's kernels for one shape of add and sub rows: (name, add_sub, add_sub_in_place,
/// screlu_dot).
pub type Kernels<const A: usize, const S: usize> = (
    &'static str,
    fn(&mut [i16], &[i16], [&[i16]; A], [&[i16]; S]),
    fn(&mut [i16], [&[i16]; A], [&[i16]; S]),
    fn(&[i16], &[i16]) -> i32,
);

/// Every path this CPU can run, detected at run time (the portable one first), as safe function
/// pointers: the tests compare them and `benches/nnue_kernels.rs` times them, whatever the build
/// targets.
pub fn detected_paths<const A: usize, const S: usize>() -> Vec<Kernels<A, S>> {
    let mut paths: Vec<Kernels<A, S>> = vec![(
        "portable",
        portable::add_sub::<A, S>,
        portable::add_sub_in_place::<A, S>,
        portable::screlu_dot,
    )];
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx2") {
            paths.push((
                "avx2",
                |o, i, a, s| {
                    // SAFETY: the CPU has AVX2 (detected above).
                    unsafe { avx2::add_sub(o, i, a, s) }
                },
                |o, a, s| {
                    // SAFETY: the CPU has AVX2 (detected above).
                    unsafe { avx2::add_sub_in_place(o, a, s) }
                },
                |a, w| {
                    // SAFETY: the CPU has AVX2 (detected above).
                    unsafe { avx2::screlu_dot(a, w) }
                },
            ));
        } else {
            eprintln!("this CPU has no AVX2: its path is not tested");
        }
        if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
            paths.push((
                "avx512",
                |o, i, a, s| {
                    // SAFETY: the CPU has AVX-512F and AVX-512BW (detected above).
                    unsafe { avx512::add_sub(o, i, a, s) }
                },
                |o, a, s| {
                    // SAFETY: the CPU has AVX-512F and AVX-512BW (detected above).
                    unsafe { avx512::add_sub_in_place(o, a, s) }
                },
                |a, w| {
                    // SAFETY: the CPU has AVX-512F and AVX-512BW (detected above).
                    unsafe { avx512::screlu_dot(a, w) }
                },
            ));
        } else {
            eprintln!("this CPU has no AVX-512F/BW: its path is not tested");
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Test vectors from the crate's generator.
    struct Rng(crate::random::Rng);

    impl Rng {
        fn new(seed: u64) -> Rng {
            Rng(crate::random::Rng::new(seed))
        }

        fn next(&mut self) -> u32 {
            (self.0.next_u64() >> 32) as u32
        }

        /// A length in 64..=2048, a multiple of 64.
        fn len(&mut self) -> usize {
            BLOCK * (1 + self.next() as usize % 32)
        }

        /// Any i16.
        fn full(&mut self, n: usize) -> Vec<i16> {
            (0..n).map(|_| self.next() as i16).collect()
        }

        /// Accumulator-like values: mostly around 0..QA, with negatives and values above QA,
        /// and now and then anything.
        fn acc(&mut self, n: usize) -> Vec<i16> {
            (0..n)
                .map(|_| match self.next() % 8 {
                    0 => self.next() as i16,
                    _ => (self.next() % 800) as i16 - 300,
                })
                .collect()
        }

        /// Weights as the trainer keeps them: |w| < 128.
        fn weights(&mut self, n: usize) -> Vec<i16> {
            (0..n).map(|_| (self.next() % 255) as i16 - 127).collect()
        }
    }

    fn reference_add_sub(input: &[i16], adds: &[&[i16]], subs: &[&[i16]]) -> Vec<i16> {
        (0..input.len())
            .map(|i| {
                let sum = i64::from(input[i]) + adds.iter().map(|a| i64::from(a[i])).sum::<i64>()
                    - subs.iter().map(|s| i64::from(s[i])).sum::<i64>();
                sum as i16
            })
            .collect()
    }

    /// Every path against the reference on random rows with full-range values (so the sums
    /// wrap), out of place and in place, and the entry points against the portable path.
    fn add_sub_agree<const A: usize, const S: usize>(seed: u64, rounds: usize) {
        let mut rng = Rng::new(seed);
        let paths = detected_paths::<A, S>();
        for _ in 0..rounds {
            let n = rng.len();
            let input = rng.full(n);
            let adds: [Vec<i16>; A] = std::array::from_fn(|_| rng.full(n));
            let subs: [Vec<i16>; S] = std::array::from_fn(|_| rng.full(n));
            let add_rows: [&[i16]; A] = std::array::from_fn(|k| &adds[k][..]);
            let sub_rows: [&[i16]; S] = std::array::from_fn(|k| &subs[k][..]);
            let expected = reference_add_sub(&input, &add_rows, &sub_rows);
            for &(name, out_of_place, in_place, _) in &paths {
                let mut out = vec![0x5555; n];
                out_of_place(&mut out, &input, add_rows, sub_rows);
                assert_eq!(out, expected, "{name} add_sub<{A}, {S}> on {n}");
                let mut acc = input.clone();
                in_place(&mut acc, add_rows, sub_rows);
                assert_eq!(acc, expected, "{name} add_sub_in_place<{A}, {S}> on {n}");
            }
            let mut out = vec![0; n];
            add_sub(&mut out, &input, add_rows, sub_rows);
            assert_eq!(out, expected, "{} add_sub", path_name());
            let mut acc = input.clone();
            add_sub_in_place(&mut acc, add_rows, sub_rows);
            assert_eq!(acc, expected, "{} add_sub_in_place", path_name());
        }
    }

    #[test]
    fn add_sub_paths_agree_bit_for_bit() {
        add_sub_agree::<1, 0>(1, 500);
        add_sub_agree::<0, 1>(2, 500);
        add_sub_agree::<1, 1>(3, 1000);
        add_sub_agree::<1, 2>(4, 1000);
        add_sub_agree::<2, 2>(5, 1000);
        add_sub_agree::<0, 0>(6, 100);
        add_sub_agree::<4, 3>(7, 300);
    }

    #[test]
    fn screlu_dot_paths_agree_bit_for_bit() {
        let mut rng = Rng::new(42);
        let paths = detected_paths::<0, 0>();
        for round in 0..4000 {
            let n = rng.len();
            let acc = rng.acc(n);
            // Mostly trainer-range weights; every fourth round full-range ones, so that
            // `clamp · w` wraps in i16 (all paths must still agree).
            let trainer_range = round % 4 != 0;
            let w = if trainer_range {
                rng.weights(n)
            } else {
                rng.full(n)
            };
            let portable = screlu_dot_portable(&acc, &w);
            if trainer_range {
                // Nothing wraps but the i32 sum: the exact sum modulo 2^32.
                let exact: i64 = (0..n)
                    .map(|i| {
                        let v = i64::from(acc[i].clamp(0, QA as i16));
                        v * v * i64::from(w[i])
                    })
                    .sum();
                assert_eq!(portable, exact as i32, "portable screlu_dot on {n}");
            }
            for &(name, _, _, dot) in &paths {
                assert_eq!(dot(&acc, &w), portable, "{name} screlu_dot on {n}");
            }
            assert_eq!(screlu_dot(&acc, &w), portable, "{} screlu_dot", path_name());
        }
    }

    #[test]
    fn the_path_is_the_best_the_build_targets() {
        let expected = if cfg!(all(
            target_arch = "x86_64",
            target_feature = "avx512f",
            target_feature = "avx512bw"
        )) {
            "avx512"
        } else if cfg!(all(target_arch = "x86_64", target_feature = "avx2")) {
            "avx2"
        } else {
            "portable"
        };
        assert_eq!(path_name(), expected);
    }

    #[test]
    #[should_panic(expected = "different lengths")]
    fn add_sub_refuses_rows_of_other_lengths() {
        let (input, short) = (vec![0i16; 128], vec![0i16; 64]);
        let mut out = vec![0i16; 128];
        add_sub(&mut out, &input, [&input[..]], [&short[..]]);
    }

    #[test]
    #[should_panic(expected = "different lengths")]
    fn add_sub_in_place_refuses_rows_of_other_lengths() {
        let (mut acc, short) = (vec![0i16; 128], vec![0i16; 64]);
        add_sub_in_place(&mut acc, [&short[..]], []);
    }

    #[test]
    #[should_panic(expected = "different lengths")]
    fn screlu_dot_refuses_rows_of_other_lengths() {
        screlu_dot(&[0; 128], &[0; 192]);
    }

    #[test]
    #[should_panic(expected = "not a multiple of 64")]
    fn kernels_refuse_lengths_not_a_multiple_of_64() {
        screlu_dot(&[0; 100], &[0; 100]);
    }

    /// The vector paths check lengths themselves too (their only safety condition is the CPU).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_paths_refuse_rows_of_other_lengths() {
        for (detected, name) in [
            (is_x86_feature_detected!("avx2"), "avx2"),
            (
                is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw"),
                "avx512",
            ),
        ] {
            if !detected {
                continue;
            }
            let result = std::panic::catch_unwind(|| {
                let (acc, w) = (vec![0i16; 128], vec![0i16; 64]);
                if name == "avx2" {
                    // SAFETY: the CPU has AVX2 (detected above).
                    unsafe { avx2::screlu_dot(&acc, &w) }
                } else {
                    // SAFETY: the CPU has AVX-512F and AVX-512BW (detected above).
                    unsafe { avx512::screlu_dot(&acc, &w) }
                }
            });
            assert!(result.is_err(), "{name} read past a short row");
        }
    }
}
