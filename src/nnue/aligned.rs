//! `i16` buffers on 64-byte boundaries: every row of the network (a multiple of 64 values, 128
//! bytes) then starts on a cache line, so no vector load of the hot loops straddles two lines.

/// One cache line of `i16`s.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([i16; LINE]);

const LINE: usize = 32;

/// A zero-initialised, 64-byte aligned `[i16]` of a fixed length.
#[derive(Clone)]
pub struct AlignedI16 {
    lines: Vec<Line>,
    len: usize,
}

impl AlignedI16 {
    /// `len` zeros, or `None` if the memory is not there (callers in search threads must not
    /// abort the process).
    pub fn try_zeroed(len: usize) -> Option<AlignedI16> {
        let mut lines = Vec::new();
        lines.try_reserve_exact(len.div_ceil(LINE)).ok()?;
        lines.resize(len.div_ceil(LINE), Line([0; LINE]));
        Some(AlignedI16 { lines, len })
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[i16]) -> AlignedI16 {
        let mut out = AlignedI16::try_zeroed(values.len()).expect("memory for the network");
        out.as_mut_slice().copy_from_slice(values);
        out
    }

    pub fn as_slice(&self) -> &[i16] {
        // SAFETY: `Line` is `repr(C)` around `[i16; 32]` with size 64 = 32 · 2, so the lines
        // are a contiguous, padding-free run of `lines.len() * 32 >= len` initialised `i16`s,
        // borrowed for as long as `self` is.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<i16>(), self.len) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [i16] {
        // SAFETY: as in `as_slice`; the unique borrow of `self` makes the slice unique.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<i16>(), self.len) }
    }
}

impl std::fmt::Debug for AlignedI16 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AlignedI16[{}]", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_start_on_cache_lines() {
        let values: Vec<i16> = (0..1000).map(|i| i as i16 - 500).collect();
        let buffer = AlignedI16::from_slice(&values);
        assert_eq!(buffer.as_slice(), &values[..]);
        assert_eq!(buffer.as_slice().as_ptr() as usize % 64, 0);
        assert_eq!(buffer.as_slice()[64..].as_ptr() as usize % 64, 0);
    }
}
