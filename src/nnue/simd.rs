//! The hot loops of the network on slices whose length is a multiple of 64 (portable loops the
//! compiler vectorises; the explicit vector paths replace them).

use super::format::QA;

/// `out = input + Σ adds − Σ subs`, element-wise (wrapping, as the vector instructions do).
#[inline(always)]
pub fn add_sub<const A: usize, const S: usize>(
    out: &mut [i16],
    input: &[i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    let n = out.len();
    assert!(input.len() == n && adds.iter().chain(&subs).all(|r| r.len() == n));
    for i in 0..n {
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

/// `acc += Σ adds − Σ subs`, element-wise, wrapping.
#[inline(always)]
pub fn add_sub_in_place<const A: usize, const S: usize>(
    acc: &mut [i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    let n = acc.len();
    assert!(adds.iter().chain(&subs).all(|r| r.len() == n));
    for i in 0..n {
        let mut v = acc[i];
        for a in &adds {
            v = v.wrapping_add(a[i]);
        }
        for s in &subs {
            v = v.wrapping_sub(s[i]);
        }
        acc[i] = v;
    }
}

/// Σ clamp(acc, 0, QA)² · w as `(clamp · w)` in i16 (the trainer keeps |w| < 128, so it fits)
/// times clamp again, summed in i32: the order of operations of `pmaddwd`.
#[inline]
pub fn screlu_dot_portable(acc: &[i16], w: &[i16]) -> i32 {
    assert_eq!(acc.len(), w.len());
    let mut sum = 0i32;
    for i in 0..acc.len() {
        let v = acc[i].clamp(0, QA as i16);
        let vw = v.wrapping_mul(w[i]);
        sum = sum.wrapping_add(i32::from(vw) * i32::from(v));
    }
    sum
}

#[inline]
pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
    screlu_dot_portable(acc, w)
}

/// The vector path this build uses.
pub fn path_name() -> &'static str {
    "portable"
}
