//! `escaque find-magics`: finds magic multipliers for the slider tables (fixed shifts: 12/11/10
//! bits for rooks, 9/7/6/5 for bishops) and prints them as Rust constants. The numbers in
//! `src/attacks/magic.rs` came from this tool when it drew its candidates from xorshift64*;
//! it now uses the crate's generator, so it finds other multipliers, as valid.

use crate::attacks::slow::{relevant_mask, slider_attacks, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};

/// Find magic multipliers for the slider tables and print them as Rust constants
#[derive(clap::Args, Debug)]
pub struct FindMagicsArgs {}

impl FindMagicsArgs {
    pub fn run(self) {
        find_magics();
    }
}

fn find_magics() {
    let mut rng = crate::random::Rng::new(0x6d61_6769_6373); // "magics"
    let mut rand = move || rng.next_u64();
    for (name, dirs) in [
        ("ROOK_MAGICS", &ROOK_DIRECTIONS),
        ("BISHOP_MAGICS", &BISHOP_DIRECTIONS),
    ] {
        println!("const {name}: [u64; 64] = [");
        for sq in 0..64 {
            let mask = relevant_mask(sq, dirs);
            let bits = mask.count_ones();
            let mut subsets = Vec::new();
            let mut sub = 0u64;
            loop {
                subsets.push((sub, slider_attacks(sq, sub, dirs)));
                sub = sub.wrapping_sub(mask) & mask;
                if sub == 0 {
                    break;
                }
            }
            let magic = loop {
                let candidate = rand() & rand() & rand();
                if ((mask.wrapping_mul(candidate)) >> 56).count_ones() < 6 {
                    continue;
                }
                let mut table = vec![u64::MAX; 1 << bits];
                let ok = subsets.iter().all(|&(occ, att)| {
                    let idx = (occ.wrapping_mul(candidate) >> (64 - bits)) as usize;
                    if table[idx] == u64::MAX || table[idx] == att {
                        table[idx] = att;
                        true
                    } else {
                        false
                    }
                });
                if ok {
                    break candidate;
                }
            };
            println!("    {magic:#018x},");
        }
        println!("];");
    }
}
