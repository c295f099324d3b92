//! `escaque find-magics`: finds magic multipliers for the slider tables (fixed shifts: 12/11/10
//! bits for rooks, 9/7/6/5 for bishops) and prints them as Rust constants. The numbers in
//! `src/attacks/magic.rs` came from this tool when it drew its candidates from xorshift64*;
//! it now uses the crate's generator, so it finds other multipliers, as valid.

use crate::attacks::slow::{relevant_mask, slider_attacks, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};

/// Find magic multipliers for the slider tables and print them as Rust constants
#[derive(clap::Args, Debug)]
pub struct FindMagicsArgs {}

impl FindMagicsArgs {
    /// Prints the tables; a reader that stops early (`| head`) just ends them.
    pub fn run(self) -> Result<(), String> {
        match find_magics(&mut std::io::stdout().lock()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(format!("cannot write the magics: {e}"))
            }
            _ => Ok(()),
        }
    }
}

fn find_magics(out: &mut impl std::io::Write) -> std::io::Result<()> {
    let mut rng = crate::random::Rng::new(0x6d61_6769_6373); // "magics"
    let mut rand = move || rng.next_u64();
    for (name, dirs) in [
        ("ROOK_MAGICS", &ROOK_DIRECTIONS),
        ("BISHOP_MAGICS", &BISHOP_DIRECTIONS),
    ] {
        writeln!(out, "const {name}: [u64; 64] = [")?;
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
            writeln!(out, "    {magic:#018x},")?;
        }
        writeln!(out, "];")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The printed multipliers index every blocker subset of their square without a harmful
    /// collision, as the tables need.
    #[test]
    fn printed_magics_are_valid() {
        let mut text = Vec::new();
        find_magics(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let magics: Vec<u64> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("0x")?.strip_suffix(','))
            .map(|hex| u64::from_str_radix(hex, 16).unwrap())
            .collect();
        assert_eq!(magics.len(), 128, "{text}");
        for (i, &magic) in magics.iter().enumerate() {
            let (sq, dirs) = (
                i % 64,
                if i < 64 {
                    &ROOK_DIRECTIONS
                } else {
                    &BISHOP_DIRECTIONS
                },
            );
            let mask = relevant_mask(sq, dirs);
            let bits = mask.count_ones();
            let mut table = vec![None; 1 << bits];
            let mut sub = 0u64;
            loop {
                let attacks = slider_attacks(sq, sub, dirs);
                let slot = &mut table[(sub.wrapping_mul(magic) >> (64 - bits)) as usize];
                assert!(slot.is_none_or(|a| a == attacks), "square {sq}: {magic:#x}");
                *slot = Some(attacks);
                sub = sub.wrapping_sub(mask) & mask;
                if sub == 0 {
                    break;
                }
            }
        }
    }

    /// A writer that fails (a closed pipe) ends the tables with its error, not a panic.
    #[test]
    fn a_failed_write_is_returned() {
        struct Closed;
        impl std::io::Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let err = find_magics(&mut Closed).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::BrokenPipe);
    }
}
