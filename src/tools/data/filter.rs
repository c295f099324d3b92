//! `escaque data filter`: drops the records a training run should not see.
//!
//! Only what a record holds can be filtered: it has no best move, so "the best move was a
//! capture" cannot be decided afterwards. `escaque datagen` already leaves out positions in
//! check, with a noisy best move, with a mate score and from the random opening plies; these
//! rules are for data from elsewhere and for a stricter cut of our own.

use std::path::Path;

use super::packed::PackedPosition;
use super::stream::{open_all, refuse_input_as_output, RecordWriter};

/// Which records to drop. The default drops nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterRules {
    /// Drop records before this game ply ([`PackedPosition::game_ply`]).
    pub min_ply: u32,
    /// Drop records whose |score| is above this (centipawns): decided positions, and the
    /// mate-like and tablebase-like scores of other generators.
    pub max_abs_score: Option<u16>,
    /// Drop records whose side to move is in check.
    pub drop_in_check: bool,
    /// Keep records with this many pieces (kings included), bounds inclusive.
    pub min_pieces: u32,
    pub max_pieces: u32,
}

impl Default for FilterRules {
    fn default() -> FilterRules {
        FilterRules {
            min_ply: 0,
            max_abs_score: None,
            drop_in_check: false,
            min_pieces: 2,
            max_pieces: 32,
        }
    }
}

/// Why a record was dropped: the first rule it fails, in this order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DropReason {
    EarlyPly,
    Score,
    Pieces,
    InCheck,
}

impl FilterRules {
    /// The rule `record` fails, if any. Cheap tests first; the check test builds attacks.
    pub fn reject(&self, record: &PackedPosition) -> Option<DropReason> {
        if record.game_ply() < self.min_ply {
            return Some(DropReason::EarlyPly);
        }
        if self
            .max_abs_score
            .is_some_and(|max| record.white_score().unsigned_abs() > max)
        {
            return Some(DropReason::Score);
        }
        if !(self.min_pieces..=self.max_pieces).contains(&record.piece_count()) {
            return Some(DropReason::Pieces);
        }
        if self.drop_in_check && record.in_check() {
            return Some(DropReason::InCheck);
        }
        None
    }
}

/// What [`filter`] did: records kept, and records dropped by each rule.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct FilterSummary {
    pub kept: u64,
    pub early_ply: u64,
    pub score: u64,
    pub pieces: u64,
    pub in_check: u64,
}

impl FilterSummary {
    pub fn dropped(&self) -> u64 {
        self.early_ply + self.score + self.pieces + self.in_check
    }
}

/// Copies the records of `inputs` (in order) that pass `rules` to `output`.
pub fn filter(
    inputs: &[&Path],
    output: &Path,
    rules: &FilterRules,
) -> Result<FilterSummary, String> {
    refuse_input_as_output(inputs, output)?;
    let readers = open_all(inputs)?;
    let mut writer = RecordWriter::create(output)?;
    let mut summary = FilterSummary::default();
    for reader in readers {
        for record in reader {
            let record = record?;
            match rules.reject(&record) {
                None => writer.write(&record)?,
                Some(DropReason::EarlyPly) => summary.early_ply += 1,
                Some(DropReason::Score) => summary.score += 1,
                Some(DropReason::Pieces) => summary.pieces += 1,
                Some(DropReason::InCheck) => summary.in_check += 1,
            }
        }
    }
    summary.kept = writer.finish()?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::data::stream::tests::{record, temp_path};
    use crate::tools::data::{read_records, write_records};

    /// Ply 0, 32 pieces, not in check.
    const START: &str = crate::board::START_FEN;
    /// Ply 40 (move 21, White to move), 3 pieces, White in check from the rook.
    const CHECKED: &str = "4r1k1/8/8/8/8/8/8/4K3 w - - 0 21";
    /// Ply 41 (move 21, Black to move), 3 pieces, not in check.
    const ENDGAME: &str = "6k1/8/8/8/8/8/8/R3K3 b - - 0 21";
    /// Ply 9 (move 5, Black to move), 32 pieces.
    const OPENING: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 5";

    fn run(records: &[PackedPosition], rules: &FilterRules) -> (FilterSummary, Vec<i16>) {
        let input = temp_path("filter-in.bin");
        let output = temp_path("filter-out.bin");
        write_records(&input, records).unwrap();
        let summary = filter(&[input.as_path()], &output, rules).unwrap();
        let kept = read_records(&output).unwrap();
        std::fs::remove_file(input).unwrap();
        std::fs::remove_file(output).unwrap();
        (summary, kept.iter().map(|r| r.white_score()).collect())
    }

    fn sample() -> Vec<PackedPosition> {
        vec![
            record(START, 0),
            record(CHECKED, -500),
            record(ENDGAME, 900),
            record(OPENING, 30),
            record(ENDGAME, 3000),
        ]
    }

    #[test]
    fn default_rules_keep_everything() {
        let (summary, kept) = run(&sample(), &FilterRules::default());
        assert_eq!(summary.kept, 5);
        assert_eq!(summary.dropped(), 0);
        assert_eq!(kept, [0, -500, 900, 30, 3000]);
    }

    #[test]
    fn each_rule_drops_exactly_its_records() {
        let rules = FilterRules {
            min_ply: 10,
            ..FilterRules::default()
        };
        let (summary, kept) = run(&sample(), &rules);
        assert_eq!((summary.early_ply, summary.dropped()), (2, 2));
        assert_eq!(kept, [-500, 900, 3000]);

        let rules = FilterRules {
            max_abs_score: Some(900),
            ..FilterRules::default()
        };
        let (summary, kept) = run(&sample(), &rules);
        assert_eq!((summary.score, summary.dropped()), (1, 1));
        assert_eq!(kept, [0, -500, 900, 30]);

        let rules = FilterRules {
            drop_in_check: true,
            ..FilterRules::default()
        };
        let (summary, kept) = run(&sample(), &rules);
        assert_eq!((summary.in_check, summary.dropped()), (1, 1));
        assert_eq!(kept, [0, 900, 30, 3000]);

        let rules = FilterRules {
            min_pieces: 3,
            max_pieces: 3,
            ..FilterRules::default()
        };
        let (summary, kept) = run(&sample(), &rules);
        assert_eq!((summary.pieces, summary.dropped()), (2, 2));
        assert_eq!(kept, [-500, 900, 3000]);
    }

    #[test]
    fn a_record_is_counted_under_the_first_rule_it_fails() {
        let rules = FilterRules {
            min_ply: 1,
            max_abs_score: Some(400),
            drop_in_check: true,
            min_pieces: 3,
            max_pieces: 32,
        };
        let (summary, kept) = run(&sample(), &rules);
        // START: early; CHECKED: |-500| > 400 before in check; ENDGAME 900 and 3000: score.
        assert_eq!(
            summary,
            FilterSummary {
                kept: 1,
                early_ply: 1,
                score: 3,
                pieces: 0,
                in_check: 0
            }
        );
        assert_eq!(kept, [30]);
    }
}
