//! Progress of long command-line work (datagen, train, wdl-fit): a bar with rate and ETA when
//! stderr is a terminal, the plain lines each tool has always printed when it is not (logs, CI,
//! `scripts/datagen-loop`), so nothing that reads those lines changes.

use std::io::IsTerminal;
use std::time::Duration;

/// Whether progress should be drawn as a bar: stderr is a terminal, and `ESCAQUE_PLAIN_PROGRESS`
/// (which asks for the plain lines on a terminal too) is not set.
pub fn bar_wanted() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("ESCAQUE_PLAIN_PROGRESS").is_none()
}

/// A progress bar on stderr over `total` units of work.
pub struct Bar(indicatif::ProgressBar);

impl Bar {
    /// A bar named `prefix`, counting `unit`s, starting at `done` (a resumed run).
    pub fn new(prefix: &str, total: u64, done: u64, unit: &str) -> Bar {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total),
            indicatif::ProgressDrawTarget::stderr_with_hz(4),
        );
        let template = format!(
            "{{prefix}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} ({{percent}}%), {{msg}}, \
             ETA {{eta}}"
        );
        bar.set_style(
            indicatif::ProgressStyle::with_template(&template)
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar.set_prefix(prefix.to_string());
        bar.set_position(done);
        // The rate and ETA count this run only: a resumed run starts its clock now.
        bar.reset_eta();
        bar.enable_steady_tick(Duration::from_millis(500));
        Bar(bar)
    }

    /// Sets the work done and the text before the ETA (the rate, in the tool's own words).
    pub fn update(&self, done: u64, message: String) {
        self.0.set_position(done);
        self.0.set_message(message);
    }

    /// Prints a line above the bar (the bar is redrawn below it).
    pub fn println(&self, line: &str) {
        self.0.println(line);
    }

    /// Removes the bar, leaving the terminal as it was before it.
    pub fn finish(self) {
        self.0.finish_and_clear();
    }
}
