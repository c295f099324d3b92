//! The escaque binary: `escaque` alone speaks UCI on stdin/stdout; `escaque perft <depth> [fen]`
//! runs a perft from the command line; `tune` and `datagen` are the tuner's tools (see `cli`);
//! any other arguments run as UCI commands and the program exits (`escaque bench`,
//! `escaque "go perft 3"`, `escaque "position startpos" "go depth 5"`).

use std::process::ExitCode;

use escaque::uci::{spawn_stdin_reader, Output, Uci};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("perft") => escaque::perft::cli::run(&args[1..]),
        Some("tune") => escaque::cli::run_tune(&args[1..]),
        Some("datagen") => escaque::cli::run_datagen(&args[1..]),
        Some("train") => escaque::train::cli::run_train(&args[1..]),
        Some("data") => escaque::cli::run_data(&args[1..]),
        None => {
            let (events, input) = spawn_stdin_reader();
            Uci::new(Output::stdout()).run(events, &input);
            // Exit at once: a search thread that did not stop in time must not keep us alive.
            std::process::exit(0)
        }
        Some(_) => {
            Uci::new(Output::stdout()).run_args(&args);
            std::process::exit(0)
        }
    }
}
