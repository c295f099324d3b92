//! Where a datagen run stands: what its progress line says, and what a progress bar draws.

use std::fmt;

/// A run's progress, reported about every `log_every` seconds.
#[derive(Clone, Copy, Debug)]
pub struct Status {
    /// Games in the file, those of earlier runs included.
    pub games: u64,
    /// Games this run wrote.
    pub games_this_run: u64,
    /// The games the file is to hold (`--games`).
    pub total_games: u64,
    /// Positions in the file.
    pub positions: u64,
    /// Positions this run wrote.
    pub positions_this_run: u64,
    /// Seconds since this run started.
    pub seconds: f64,
}

impl Status {
    pub fn positions_per_second(&self) -> f64 {
        self.positions_this_run as f64 / self.seconds.max(1e-9)
    }
}

/// The progress line datagen has always printed (scripts/datagen-loop's log is made of them).
impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let secs = self.seconds.max(1e-9);
        let per_game = secs / self.games_this_run.max(1) as f64;
        let eta = (self.total_games - self.games) as f64 * per_game;
        write!(
            f,
            "games {} (+{} this run), positions {} (+{}), {:.0} positions/s, {:.1} games/s, ETA {}",
            self.games,
            self.games_this_run,
            self.positions,
            self.positions_this_run,
            self.positions_per_second(),
            self.games_this_run as f64 / secs,
            format_duration(eta)
        )
    }
}

pub(super) fn format_duration(seconds: f64) -> String {
    let s = seconds.max(0.0) as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_keeps_its_format() {
        let status = Status {
            games: 120,
            games_this_run: 20,
            total_games: 220,
            positions: 10_500,
            positions_this_run: 1_800,
            seconds: 10.0,
        };
        assert_eq!(
            status.to_string(),
            "games 120 (+20 this run), positions 10500 (+1800), 180 positions/s, 2.0 games/s, \
             ETA 0h00m50s"
        );
    }
}
