//! The command line. `escaque` alone speaks UCI on stdin/stdout. `escaque <tool> ...` runs a
//! developer tool (`crate::tools`, with the `tools` feature). `escaque bench [depth]` runs the
//! bench; `escaque tunables` lists the search's tunables for SPSA. Anything else is UCI commands, run in order before the program exits (`escaque "go
//! perft 5"`, `escaque "position startpos moves e2e4" "go depth 12"`): each argument that
//! contains a space is a command of its own, otherwise all arguments are one command. They stop
//! at the first error, which goes to stderr with exit status 2 (as clap's own errors do).

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::uci::{spawn_stdin_reader, Output, Uci};

const AFTER_HELP: &str = "\
With no arguments, escaque speaks UCI on stdin/stdout (send `uci`; `help` lists the commands).
Other arguments are run as UCI commands, then escaque exits: escaque \"go perft 5\",
escaque \"position startpos moves e2e4\" \"go depth 12\" (an argument with a space is a command
of its own; otherwise all are one command). Errors go to stderr with exit status 2.";

/// A UCI chess engine: magic-bitboard move generation, NNUE evaluation, alpha-beta search with
/// Lazy SMP, Syzygy tablebases
#[derive(Parser, Debug)]
#[command(name = "escaque", version, after_help = AFTER_HELP)]
pub struct Cli {
    /// Speak UCI, listing the search's tunables (hidden otherwise) as spin options after `uci`:
    /// for match runners that set only declared options (fastchess, scripts/match)
    #[arg(long)]
    pub show_tunables: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Search the bench positions to a fixed depth with 16 MB and one thread; the node count
    /// (the last line) is the search's signature
    Bench {
        /// The depth searched
        #[arg(default_value_t = crate::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=crate::bench::MAX_DEPTH as i64))]
        depth: i32,
    },
    /// Print the search's tunable parameters (hidden UCI options, for tuning; not the on/off
    /// switches) in OpenBench's SPSA input format: `name, int, default, min, max, c_end, r_end`,
    /// one a line
    Tunables,
    #[cfg(feature = "tools")]
    #[command(flatten)]
    Tool(crate::tools::Tool),
    /// UCI commands, run in order
    #[command(external_subcommand)]
    Uci(Vec<OsString>),
}

/// Runs the program with these arguments (the first is the program's name).
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let args: Vec<OsString> = args.into_iter().collect();
    if args.len() <= 1 {
        uci_loop(false);
    }
    // `--help` and `--version` print to stdout and exit 0; a bad argument exits 2.
    let cli = Cli::try_parse_from(args).unwrap_or_else(|e| e.exit());
    if cli.show_tunables && cli.command.is_some() {
        eprintln!("error: --show-tunables starts the UCI loop and takes no command");
        return ExitCode::from(2);
    }
    match cli.command {
        None if cli.show_tunables => uci_loop(true),
        None => ExitCode::SUCCESS,
        Some(Command::Bench { depth }) => uci_commands(&[format!("bench {depth}")]),
        Some(Command::Tunables) => {
            // Written, not `println!`ed: a reader that stops early (`| head`) closes the pipe,
            // and the table then simply ends instead of a panic on the broken pipe.
            let mut out = std::io::stdout().lock();
            for tunable in crate::search::params::TUNABLES {
                if tunable.is_tuned() && writeln!(out, "{}", tunable.spsa_line()).is_err() {
                    break;
                }
            }
            ExitCode::SUCCESS
        }
        #[cfg(feature = "tools")]
        Some(Command::Tool(tool)) => tool.run(),
        Some(Command::Uci(words)) => {
            let words: Option<Vec<String>> =
                words.into_iter().map(|w| w.into_string().ok()).collect();
            match words {
                Some(words) => uci_commands(&words),
                None => {
                    eprintln!("error: the arguments are not valid UTF-8");
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// Speaks UCI on stdin/stdout until `quit` or EOF, then exits.
fn uci_loop(show_tunables: bool) -> ! {
    let (events, input) = spawn_stdin_reader();
    let mut uci = Uci::new(Output::stdout());
    if show_tunables {
        uci.show_tunables();
    }
    uci.run(events, &input);
    // Exit at once: a search thread that did not stop in time must not keep us alive.
    std::process::exit(0)
}

/// Runs UCI commands given as arguments and exits at once when they are done (a search thread
/// that did not stop in time must not keep the process alive).
fn uci_commands(args: &[String]) -> ExitCode {
    let ok = Uci::new(Output::command_line()).run_args(args);
    std::process::exit(if ok { 0 } else { 2 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn other_words_are_uci_commands() {
        let cli = Cli::try_parse_from(["escaque", "position startpos", "go depth 3"]).unwrap();
        match cli.command {
            Some(Command::Uci(words)) => {
                assert_eq!(words, ["position startpos", "go depth 3"])
            }
            other => panic!("{other:?}"),
        }
        let cli = Cli::try_parse_from(["escaque", "go", "perft", "3"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Uci(w)) if w == ["go", "perft", "3"]));
    }
}
