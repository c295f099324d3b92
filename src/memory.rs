//! The crate's allocation helpers: large zeroed tables (the transposition table, perft's subtree
//! counts) on transparent huge pages where the system offers them, with every page mapped
//! before the table is used; fallible zeroed vectors (the search's histories); the size check
//! of a table the user asks for.
//!
//! A hash table is probed at random: with 4 KB pages nearly every probe of a 64 MB table also
//! misses the TLB. On 2 MB pages the page walks mostly disappear: measured with the system's
//! huge pages forced on, startpos `perft 7` with the 64 MB table took 1.20 s instead of 1.54 s
//! on one thread, and two threads scaled 1.90x instead of 1.68x. Linux gives huge pages to a
//! region only when asked (`madvise(MADV_HUGEPAGE)`, the default `madvise` mode of
//! transparent huge pages), before its pages are first touched; elsewhere, or when refused,
//! the table is the allocator's ordinary zeroed memory.
//!
//! Every page is written once when the table is made ([`LargeTable::try_new`]): left to the
//! first probes, each first touch of a page by one thread while others run costs a TLB
//! shootdown on every core.

use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

use crate::types::Move;

/// Transparent huge page size on x86-64 and most Linux systems.
const HUGE_PAGE: usize = 2 << 20;
/// Ordinary page size, the stride of the pre-faulting writes.
const PAGE: usize = 4096;

/// A fixed-size, zero-initialised array of `T` for large tables.
pub(crate) struct LargeTable<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    /// How the memory was obtained, for freeing it.
    origin: Origin,
}

enum Origin {
    /// An anonymous mapping of `bytes` bytes at `base` (the table starts at the first huge-page
    /// boundary inside it).
    #[cfg(target_os = "linux")]
    Mapping {
        base: *mut libc::c_void,
        bytes: usize,
    },
    /// The global allocator, with this layout.
    Allocator(std::alloc::Layout),
    /// Nothing allocated (an empty table).
    Empty,
}

// SAFETY: a LargeTable owns its memory exclusively, like a Vec<T>; sharing or sending it is safe
// exactly when sharing or sending the T's is.
unsafe impl<T: Zeroable + Send> Send for LargeTable<T> {}
// SAFETY: as above: `&LargeTable<T>` only gives out `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for LargeTable<T> {}

impl<T: Zeroable> LargeTable<T> {
    /// `len` zero values, or `None` if the memory cannot be had.
    pub fn try_new(len: usize) -> Option<LargeTable<T>> {
        let layout = std::alloc::Layout::array::<T>(len).ok()?;
        if layout.size() == 0 {
            return Some(LargeTable {
                ptr: NonNull::dangling(),
                len,
                origin: Origin::Empty,
            });
        }
        #[cfg(target_os = "linux")]
        if layout.size() >= HUGE_PAGE && layout.align() <= HUGE_PAGE {
            if let Some(table) = Self::map_huge(len, layout.size()) {
                return Some(table);
            }
        }
        // SAFETY: `layout` has a non-zero size.
        let ptr = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>())?;
        let table = LargeTable {
            ptr,
            len,
            origin: Origin::Allocator(layout),
        };
        table.touch_pages(layout.size());
        Some(table)
    }

    /// An anonymous mapping (zero pages, mapped lazily) with a huge-page-aligned start, marked for
    /// huge pages before anything touches it.
    #[cfg(target_os = "linux")]
    fn map_huge(len: usize, size: usize) -> Option<LargeTable<T>> {
        let bytes = size.checked_add(HUGE_PAGE)?;
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches no
        // existing memory; the result is checked for MAP_FAILED.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let offset = (base as usize).next_multiple_of(HUGE_PAGE) - base as usize;
        // SAFETY: `offset < HUGE_PAGE`, so `base + offset .. base + offset + size` lies inside the
        // `size + HUGE_PAGE` bytes just mapped. The madvise is a hint on that range: its
        // failure (no transparent huge pages) leaves ordinary pages, which is fine.
        let start = unsafe {
            let start = base.cast::<u8>().add(offset);
            libc::madvise(start.cast(), size, libc::MADV_HUGEPAGE);
            start
        };
        let Some(ptr) = NonNull::new(start.cast::<T>()) else {
            // SAFETY: unmaps exactly the mapping made above (a null start cannot happen: the
            // kernel never maps page zero for us).
            unsafe { libc::munmap(base, bytes) };
            return None;
        };
        let table = LargeTable {
            ptr,
            len,
            origin: Origin::Mapping { base, bytes },
        };
        table.touch_pages(size);
        Some(table)
    }

    /// Writes a zero byte into every page of the table's `size` bytes, so the kernel maps them
    /// all now (as huge pages where it can) instead of during the search.
    fn touch_pages(&self, size: usize) {
        let start = self.ptr.as_ptr().cast::<u8>();
        for offset in (0..size).step_by(PAGE) {
            // SAFETY: `offset < size`, the table's size in bytes, and the memory is ours and zero;
            // writing a zero byte keeps every T valid (the Zeroable contract). The volatile write
            // keeps the compiler from dropping a store of the value already there. No reference
            // to the table exists yet (it is being built), so nothing observes the write.
            unsafe { start.add(offset).write_volatile(0) };
        }
    }
}

impl<T: Zeroable> Deref for LargeTable<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised (zeroed, then only changed through `&T`'s
        // interior mutability) values of T that this table owns, or is dangling with nothing
        // allocated and `len` zero-sized values.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for LargeTable<T> {
    fn drop(&mut self) {
        match self.origin {
            #[cfg(target_os = "linux")]
            Origin::Mapping { base, bytes } => {
                // SAFETY: `base`/`bytes` is exactly the mapping made in `map_huge`, unmapped once.
                unsafe { libc::munmap(base, bytes) };
            }
            Origin::Allocator(layout) => {
                // SAFETY: `ptr` came from `alloc_zeroed(layout)` and is freed once, here.
                unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), layout) };
            }
            Origin::Empty => {}
        }
    }
}

/// Hints the CPU to bring the cache line holding `value` into cache before it is read: a table
/// entry whose index is known some time before the entry is needed.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let ptr = value as *const T as *const i8;
        // SAFETY: prefetching is a hint that never faults, and `ptr` comes from a live reference.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// `MemAvailable` from /proc/meminfo, where there is one.
fn available_memory_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The bytes of a table of `mb` megabytes given by the user, or an error if that does not fit in
/// memory addresses or is above the memory the system reports available (on Linux an
/// over-large allocation can succeed and then get the process killed when the pages are first
/// written). Shared by the search's and perft's tables.
pub(crate) fn table_bytes(mb: usize) -> Result<usize, String> {
    table_bytes_within(mb, available_memory_bytes())
}

/// [`table_bytes`] against `available` bytes of memory (`None`: unknown, so not limited).
fn table_bytes_within(mb: usize, available: Option<u64>) -> Result<usize, String> {
    let bytes = mb
        .max(1)
        .checked_mul(1024 * 1024)
        .ok_or_else(|| format!("{mb} MB does not fit in memory addresses"))?;
    if let Some(available) = available {
        // Leave room for the rest of the process and the system.
        if bytes as u64 > available.saturating_sub(available / 8) {
            return Err(format!(
                "{mb} MB is more than the {} MB of memory available",
                available >> 20
            ));
        }
    }
    Ok(bytes)
}

/// Types whose value with every byte zero is valid (and is their "empty" value).
///
/// # Safety
/// Implement only for types for which all-zero bytes are a valid value.
pub(crate) unsafe trait Zeroable {}

// SAFETY: zero is a valid i16.
unsafe impl Zeroable for i16 {}
// SAFETY: AtomicU64 has the in-memory representation of a u64; zero is valid.
unsafe impl Zeroable for AtomicU64 {}
// SAFETY: a Move is a u16; zero is Move::NULL.
unsafe impl Zeroable for Move {}
// SAFETY: an array is its elements side by side, without padding.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// `len` zero values, or `None` if the allocator refuses. The memory comes zeroed from the
/// allocator (calloc: large blocks are fresh pages that cost nothing until written), as
/// `vec![0; len]` does, but a refusal is an answer instead of an abort.
pub(crate) fn try_zeroed_vec<T: Zeroable>(len: usize) -> Option<Vec<T>> {
    let layout = std::alloc::Layout::array::<T>(len).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: `layout` has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with the layout of an array of `len` T,
    // which is the layout a Vec<T> of capacity `len` uses, and all `len` elements are
    // initialised: all-zero bytes are a valid T (the Zeroable contract).
    Some(unsafe { Vec::from_raw_parts(ptr, len, len) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A table must leave an eighth of the available memory free, whatever machine runs the
    /// tests (the UCI test of `Hash 65536` can only refuse on a machine with less than 64 GB).
    #[test]
    fn tables_beyond_the_available_memory_are_refused() {
        const MB: u64 = 1 << 20;
        let available = Some(8192 * MB);
        assert_eq!(table_bytes_within(16, available), Ok(16 << 20));
        assert_eq!(table_bytes_within(7168, available), Ok(7168 << 20));
        let refused = table_bytes_within(7169, available).unwrap_err();
        assert_eq!(
            refused,
            "7169 MB is more than the 8192 MB of memory available"
        );
        assert!(table_bytes_within(65_536, Some(24 * 1024 * MB)).is_err());
        assert!(table_bytes_within(65_536, Some(128 * 1024 * MB)).is_ok());
        // Unknown memory limits nothing but the address space; 0 MB is taken as 1.
        assert_eq!(table_bytes_within(65_536, None), Ok(65_536 << 20));
        assert_eq!(table_bytes_within(0, available), Ok(1 << 20));
        assert!(table_bytes_within(usize::MAX, None).is_err());
    }

    #[test]
    fn tables_of_every_size_start_zeroed_and_keep_their_writes() {
        for len in [
            0,
            1,
            1000,
            HUGE_PAGE / 8 - 1,
            HUGE_PAGE / 8 + 3,
            3 * HUGE_PAGE / 8,
        ] {
            let table = LargeTable::<AtomicU64>::try_new(len).expect("memory");
            assert_eq!(table.len(), len);
            assert!(table.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            for (i, word) in table.iter().enumerate().step_by(97) {
                word.store(i as u64 + 1, Ordering::Relaxed);
            }
            for (i, word) in table.iter().enumerate() {
                let expected = if i % 97 == 0 { i as u64 + 1 } else { 0 };
                assert_eq!(word.load(Ordering::Relaxed), expected);
            }
        }
    }

    #[test]
    fn an_impossible_size_is_refused() {
        assert!(LargeTable::<AtomicU64>::try_new(usize::MAX / 4).is_none());
        assert!(LargeTable::<AtomicU64>::try_new(1 << 50).is_none());
    }
}
