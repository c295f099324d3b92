//! `escaque data stats`: what a set of records holds — count, result split, score histogram,
//! phase (piece-count) spread, game-ply spread — gathered one record at a time, so files of any
//! size are summarised in constant memory.

use std::path::Path;

use super::packed::{GameResult, PackedPosition};
use super::stream::open_all;

/// Score bucket edges (White's view, centipawns).
const SCORE_EDGES: [i32; 9] = [-1000, -400, -200, -100, -25, 25, 100, 200, 400];
/// Phase bands: pieces on the board, kings included, bounds inclusive.
const PIECE_BANDS: [(u32, u32); 5] = [(2, 7), (8, 13), (14, 19), (20, 25), (26, 32)];
/// Game-ply band starts; the last band is open.
const PLY_STARTS: [u32; 8] = [0, 10, 20, 40, 60, 80, 120, 160];

/// Running totals over records.
#[derive(Default)]
pub struct Statistics {
    count: u64,
    results: [u64; 3],
    score_buckets: [u64; SCORE_EDGES.len() + 1],
    piece_bands: [u64; PIECE_BANDS.len()],
    ply_bands: [u64; PLY_STARTS.len()],
    abs_score_sum: f64,
    ply_sum: f64,
    black_to_move: u64,
    in_check: u64,
}

impl Statistics {
    pub fn add(&mut self, record: &PackedPosition) {
        self.count += 1;
        self.results[record.result() as usize] += 1;
        let score = i32::from(record.white_score());
        self.abs_score_sum += f64::from(score.abs());
        self.score_buckets[SCORE_EDGES.iter().take_while(|&&e| score >= e).count()] += 1;
        let pieces = record.piece_count();
        if let Some(band) = PIECE_BANDS.iter().position(|&(_, hi)| pieces <= hi) {
            self.piece_bands[band] += 1;
        }
        let ply = record.game_ply();
        self.ply_sum += f64::from(ply);
        self.ply_bands[PLY_STARTS.iter().take_while(|&&start| ply >= start).count() - 1] += 1;
        self.black_to_move += u64::from(record.side_to_move() == crate::types::Color::Black);
        self.in_check += u64::from(record.in_check());
    }

    /// The report, one fact a line (the lines `escaque data stats` prints).
    pub fn report(&self) -> String {
        let n = self.count.max(1) as f64;
        let pct = |k: u64| 100.0 * k as f64 / n;
        let result = |r: GameResult| (self.results[r as usize], pct(self.results[r as usize]));
        let (win, draw, loss) = (
            result(GameResult::WhiteWin),
            result(GameResult::Draw),
            result(GameResult::BlackWin),
        );
        let mut out = format!("positions: {}\n", self.count);
        out += &format!(
            "results (White): win {} ({:.1}%), draw {} ({:.1}%), loss {} ({:.1}%)\n",
            win.0, win.1, draw.0, draw.1, loss.0, loss.1
        );
        out += &format!(
            "side to move: white {} ({:.1}%), black {} ({:.1}%); in check: {}\n",
            self.count - self.black_to_move,
            pct(self.count - self.black_to_move),
            self.black_to_move,
            pct(self.black_to_move),
            self.in_check
        );
        out += &format!(
            "mean |score|: {:.1} cp\nscore (White, cp):\n",
            self.abs_score_sum / n
        );
        for (i, &count) in self.score_buckets.iter().enumerate() {
            let label = match i {
                0 => format!("< {}", SCORE_EDGES[0]),
                i if i == SCORE_EDGES.len() => format!(">= {}", SCORE_EDGES[i - 1]),
                i => format!("{} .. {}", SCORE_EDGES[i - 1], SCORE_EDGES[i]),
            };
            out += &format!("  {label:>12}: {count:>10} ({:.1}%)\n", pct(count));
        }
        out += "pieces on the board (phase):\n";
        for ((lo, hi), &count) in PIECE_BANDS.iter().zip(&self.piece_bands) {
            out += &format!(
                "  {lo:>2}-{hi:<2} pieces: {count:>10} ({:.1}%)\n",
                pct(count)
            );
        }
        out += &format!("game ply (mean {:.1}):\n", self.ply_sum / n);
        for (i, &count) in self.ply_bands.iter().enumerate() {
            let label = match PLY_STARTS.get(i + 1) {
                Some(next) => format!("{}-{}", PLY_STARTS[i], next - 1),
                None => format!("{}+", PLY_STARTS[i]),
            };
            out += &format!("  {label:>7} plies: {count:>10} ({:.1}%)\n", pct(count));
        }
        out
    }
}

/// The report for a set of records in memory.
pub fn statistics(records: &[PackedPosition]) -> String {
    let mut stats = Statistics::default();
    records.iter().for_each(|r| stats.add(r));
    stats.report()
}

/// The report for the records of `paths`, read one at a time.
pub fn file_statistics(paths: &[&Path]) -> Result<String, String> {
    let mut stats = Statistics::default();
    for reader in open_all(paths)? {
        for record in reader {
            stats.add(&record?);
        }
    }
    Ok(stats.report())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::data::stream::tests::{record, temp_path};
    use crate::tools::data::write_records;

    #[test]
    fn report_counts_each_band() {
        let records = [
            record(crate::board::START_FEN, 0), // ply 0, 32 pieces
            record("4r1k1/8/8/8/8/8/8/4K3 w - - 0 21", -500), // ply 40, 3 pieces, in check
            record("6k1/8/8/8/8/8/8/R3K3 b - - 0 81", 1500), // ply 161, 3 pieces
        ];
        let path = temp_path("stats.bin");
        write_records(&path, &records).unwrap();
        let report = file_statistics(&[path.as_path()]).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(report, statistics(&records));
        for line in [
            "positions: 3\n",
            "draw 3 (100.0%)",
            "white 2 (66.7%), black 1 (33.3%); in check: 1\n",
            "mean |score|: 666.7 cp\n",
            "   -25 .. 25:          1 (33.3%)\n",
            "  -1000 .. -400:          1 (33.3%)\n",
            "       >= 400:          1 (33.3%)\n",
            "   2-7  pieces:          2 (66.7%)\n",
            "  26-32 pieces:          1 (33.3%)\n",
            "game ply (mean 67.0):\n",
            "      0-9 plies:          1 (33.3%)\n",
            "    40-59 plies:          1 (33.3%)\n",
            "     160+ plies:          1 (33.3%)\n",
            "  120-159 plies:          0 (0.0%)\n",
        ] {
            assert!(report.contains(line), "missing {line:?} in\n{report}");
        }
    }
}
