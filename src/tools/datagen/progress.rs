//! `escaque datagen`'s progress on the command line: a bar over the games on a terminal, the
//! plain line every 10 s otherwise (as scripts/datagen-loop's log expects).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::{run, DatagenConfig, RunSummary, Status};
use crate::tools::progress::{bar_wanted, Bar};

/// [`run`] with its progress on stderr.
pub fn run_with_progress(
    out: &Path,
    config: &DatagenConfig,
    stop: &AtomicBool,
) -> Result<RunSummary, String> {
    if !bar_wanted() {
        return run(
            out,
            config,
            stop,
            &mut |status| report_err!("{status}"),
            10.0,
        );
    }
    let mut bar: Option<Bar> = None;
    let result = run(
        out,
        config,
        stop,
        &mut |status: &Status| {
            let bar = bar.get_or_insert_with(|| {
                Bar::new(
                    "datagen",
                    status.total_games,
                    status.games - status.games_this_run,
                    "games",
                )
            });
            bar.update(
                status.games,
                format!(
                    "{} positions ({:.0}/s)",
                    status.positions,
                    status.positions_per_second()
                ),
            );
        },
        0.25,
    );
    if let Some(bar) = bar {
        bar.finish();
    }
    result
}
