//! Slider lookups. Default: "fancy" magic bitboards with fixed shifts (12/11/10 relevant bits for
//! rooks, 9/7/6/5 for bishops), multipliers found by a
//! random search (`escaque find-magics`, `src/tools/magics.rs`, finds equally valid ones: its
//! generator is now the crate's, so it no longer prints these exact numbers).
//! With the `pext` feature on a BMI2 target the same table is indexed by PEXT instead (identical
//! layout: the carry-rippler enumerates subsets in PEXT order, which is what the pext builder
//! relies on).

use super::slow::{relevant_mask, slider_attacks, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use crate::types::{Bitboard, Square};

#[derive(Copy, Clone)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

const ROOK_TABLE_SIZE: usize = 102_400;
const BISHOP_TABLE_SIZE: usize = 5_248;
const TABLE_SIZE: usize = ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE;

const fn magic_entries(
    dirs: &[(i8, i8); 4],
    magics: &[u64; 64],
    first_offset: usize,
) -> [Magic; 64] {
    let mut entries = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = first_offset;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        entries[sq] = Magic {
            mask,
            magic: magics[sq],
            shift: 64 - bits,
            offset: offset as u32,
        };
        offset += 1 << bits;
        sq += 1;
    }
    entries
}

static ROOK_MAGIC: [Magic; 64] = magic_entries(&ROOK_DIRECTIONS, &ROOK_MAGICS, 0);
static BISHOP_MAGIC: [Magic; 64] =
    magic_entries(&BISHOP_DIRECTIONS, &BISHOP_MAGICS, ROOK_TABLE_SIZE);

/// Index of `occupied` within the slice of `entry`: magic multiply-shift, or PEXT order when
/// `pext_order` is set (subset number `n` of the carry-rippler sits at `n`).
const fn fill(
    table: &mut [u64; TABLE_SIZE],
    entries: &[Magic; 64],
    dirs: &[(i8, i8); 4],
    pext_order: bool,
) {
    let mut sq = 0;
    while sq < 64 {
        let e = entries[sq];
        let mut subset = 0u64;
        let mut n = 0usize;
        loop {
            let index = if pext_order {
                n
            } else {
                (subset.wrapping_mul(e.magic) >> e.shift) as usize
            };
            table[e.offset as usize + index] = slider_attacks(sq, subset, dirs);
            n += 1;
            subset = subset.wrapping_sub(e.mask) & e.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
}

const fn build_table(pext_order: bool) -> [u64; TABLE_SIZE] {
    let mut table = [0u64; TABLE_SIZE];
    fill(&mut table, &ROOK_MAGIC, &ROOK_DIRECTIONS, pext_order);
    fill(&mut table, &BISHOP_MAGIC, &BISHOP_DIRECTIONS, pext_order);
    table
}

#[cfg(not(all(feature = "pext", target_feature = "bmi2")))]
static SLIDER_ATTACKS: [u64; TABLE_SIZE] = build_table(false);

#[cfg(all(feature = "pext", target_feature = "bmi2"))]
static SLIDER_ATTACKS: [u64; TABLE_SIZE] = build_table(true);

#[inline(always)]
fn lookup(entry: &Magic, occupied: Bitboard) -> Bitboard {
    #[cfg(all(feature = "pext", target_feature = "bmi2"))]
    // SAFETY: this branch is compiled only when the target has BMI2 (`target_feature = "bmi2"`).
    let index = unsafe { core::arch::x86_64::_pext_u64(occupied.0, entry.mask) } as usize;
    #[cfg(not(all(feature = "pext", target_feature = "bmi2")))]
    let index = ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    let slot = entry.offset as usize + index;
    debug_assert!(slot < TABLE_SIZE);
    // SAFETY: `offset` is where this square's slice starts and `index` < 2^bits, the slice's
    // length (the multiply-shift keeps `bits` bits; PEXT yields at most popcount(mask) = bits
    // bits). `magic_entries` lays the slices end to end and the last one ends at TABLE_SIZE;
    // `every_entry_matches_ray_walker` reads every slot of every slice.
    Bitboard(unsafe { *SLIDER_ATTACKS.get_unchecked(slot) })
}

/// Rook attacks from `sq` given the occupied squares (blockers included in the result).
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&ROOK_MAGIC[sq.index()], occupied)
}

/// Bishop attacks from `sq` given the occupied squares (blockers included in the result).
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&BISHOP_MAGIC[sq.index()], occupied)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table entry of every square against the ray walker: all subsets of each mask.
    #[test]
    fn every_entry_matches_ray_walker() {
        for (entries, dirs) in [
            (&ROOK_MAGIC, &ROOK_DIRECTIONS),
            (&BISHOP_MAGIC, &BISHOP_DIRECTIONS),
        ] {
            let mut total = 0usize;
            for (sq, entry) in entries.iter().enumerate() {
                let mask = entry.mask;
                let mut subset = 0u64;
                loop {
                    // Bits outside the mask must not change the answer.
                    let noise = subset.wrapping_mul(0x9E37_79B9_7F4A_7C15) & !mask;
                    let got = lookup(entry, Bitboard(subset | noise));
                    assert_eq!(
                        got.0,
                        slider_attacks(sq, subset | noise, dirs),
                        "square {sq} occ {subset:#x}"
                    );
                    total += 1;
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
            assert!(total == ROOK_TABLE_SIZE || total == BISHOP_TABLE_SIZE);
        }
    }
}
