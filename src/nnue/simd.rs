//! The two hot loops of the network, written so the compiler vectorises them, plus an explicit
//! AVX2 dot product where the build targets AVX2 (`.cargo/config.toml` builds for the native CPU).

use super::format::QA;
use super::network::HIDDEN;

/// `out = input + Σ adds − Σ subs`, element-wise (wrapping, as the vector instructions do).
#[inline(always)]
pub fn add_sub<const A: usize, const S: usize>(
    out: &mut [i16; HIDDEN],
    input: &[i16; HIDDEN],
    adds: [&[i16; HIDDEN]; A],
    subs: [&[i16; HIDDEN]; S],
) {
    for i in 0..HIDDEN {
        let mut v = input[i];
        for a in &adds {
            v = v.wrapping_add(a[i]);
        }
        for s in &subs {
            v = v.wrapping_sub(s[i]);
        }
        out[i] = v;
    }
}

/// Σ clamp(acc, 0, QA)² · w as `(clamp · w)` in i16 (the trainer keeps |w| < 128, so it fits)
/// times clamp again, summed in i32: the order of operations of `pmaddwd`, so both paths agree
/// bit for bit.
#[inline]
pub fn screlu_dot_portable(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for i in 0..HIDDEN {
        let v = acc[i].clamp(0, QA as i16);
        let vw = v.wrapping_mul(w[i]);
        sum = sum.wrapping_add(i32::from(vw) * i32::from(v));
    }
    sum
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
pub fn screlu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    use std::arch::x86_64::*;
    const LANES: usize = 16;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));
    // SAFETY: this function is compiled only when the build targets AVX2 (cfg above), so every
    // intrinsic is supported; each load reads 16 i16s at offset i < HIDDEN - 15 of arrays of
    // HIDDEN elements (unaligned loads, so alignment does not matter).
    unsafe {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(LANES) {
            let v = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
            let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa);
            let weights = _mm256_loadu_si256(w.as_ptr().add(i).cast());
            let vw = _mm256_mullo_epi16(v, weights);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        }
        let high = _mm256_extracti128_si256(sum, 1);
        let sum128 = _mm_add_epi32(_mm256_castsi256_si128(sum), high);
        let sum64 = _mm_add_epi32(sum128, _mm_unpackhi_epi64(sum128, sum128));
        let sum32 = _mm_add_epi32(sum64, _mm_shuffle_epi32(sum64, 1));
        _mm_cvtsi128_si32(sum32)
    }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
#[inline]
pub fn screlu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    screlu_dot_portable(acc, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_and_portable_dot_products_agree() {
        let mut state = 1u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as i32
        };
        for _ in 0..200 {
            let mut acc = [0i16; HIDDEN];
            let mut w = [0i16; HIDDEN];
            for i in 0..HIDDEN {
                acc[i] = (next() % 800 - 300) as i16;
                w[i] = (next() % 255 - 127) as i16;
            }
            let exact: i64 = (0..HIDDEN)
                .map(|i| {
                    let v = i64::from(acc[i].clamp(0, 255));
                    v * v * i64::from(w[i])
                })
                .sum();
            assert_eq!(i64::from(screlu_dot_portable(&acc, &w)), exact);
            assert_eq!(screlu_dot(&acc, &w), screlu_dot_portable(&acc, &w));
        }
    }
}
