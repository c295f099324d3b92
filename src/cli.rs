//! Developer subcommands of the binary that are not UCI: `tune`, `datagen` and `data`.
//! (`perft` lives in `perft::cli`; everything else on the command line runs as UCI commands.)

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::datagen::{self, DatagenConfig};
use crate::tune;

const TUNE_USAGE: &str = "usage: escaque tune <labelled.epd> [--epochs N] [--l2 X] [--lr X] \
     [--resolve 0|1] [--freeze SECTION,...] [--out FILE] | escaque tune diagnose <labelled.epd>";
const DATAGEN_USAGE: &str = "usage: escaque datagen <out.bin> [--games N] [--nodes N] \
     [--random-plies N] [--seed S] [--threads N] [--book FILE.epd] [--hash MB] \
     [--eval hce|nnue|FILE.nnue]";
const DATA_USAGE: &str = "usage: escaque data stats <file>... | text <file> | epd <file> | \
     from-text <in.txt> <out.bin> | shuffle <in> <out> [--seed S] | concat <in>... <out> | \
     dedup <in>... <out> | interleave <in>... <out> [--seed S] [--buffer N] | \
     filter <in>... <out> [--min-ply N] [--max-score CP] [--min-pieces N] [--max-pieces N] \
     [--drop-in-check] | wdl-fit <file>... [--rust FILE] [--csv FILE] [--network FILE.nnue] \
     [--max-score CP] (datagen already drops positions in check, with a noisy best move or a \
     mate score, and its random plies; records hold no best move, so it cannot be filtered on)";

/// A command line split into positional words and `--name value` pairs.
struct Args<'a> {
    positional: Vec<&'a str>,
    flags: Vec<(&'a str, &'a str)>,
}

/// `None` when a `--flag` has no value.
fn parse_flags(args: &[String]) -> Option<Args<'_>> {
    parse_flags_with_switches(args, &[])
}

/// [`parse_flags`] where the flags named in `switches` take no value (their value reads "").
fn parse_flags_with_switches<'a>(args: &'a [String], switches: &[&str]) -> Option<Args<'a>> {
    let mut parsed = Args {
        positional: Vec::new(),
        flags: Vec::new(),
    };
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if let Some(name) = word.strip_prefix("--") {
            let value = if switches.contains(&name) {
                ""
            } else {
                words.next()?.as_str()
            };
            parsed.flags.push((name, value));
        } else {
            parsed.positional.push(word.as_str());
        }
    }
    Some(parsed)
}

/// A `--flag` value parsed as a number, or the message saying it is not one.
pub(crate) fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("--{flag} needs a number, got '{value}'"))
}

/// A non-negative finite number for a tuner setting.
fn finite(flag: &str, value: &str) -> Result<f64, String> {
    let x: f64 = number(flag, value)?;
    if x.is_finite() && x >= 0.0 {
        Ok(x)
    } else {
        Err(format!(
            "--{flag} needs a non-negative number, got '{value}'"
        ))
    }
}

/// `escaque tune <epd> [--epochs N] [--l2 X] [--lr X] [--out FILE]`: Texel-tunes the evaluation
/// weights on a result-labelled EPD file and writes the new `PARAMS` table as Rust source.
pub fn run_tune(args: &[String]) -> ExitCode {
    let result = (|| -> Result<(), String> {
        let Args { positional, flags } = parse_flags(args).ok_or(TUNE_USAGE)?;
        let read = |path: &str| -> Result<String, String> {
            let epd =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            if !epd.lines().any(|line| tune::parse_line(line).is_some()) {
                return Err(format!("no labelled positions in {path}"));
            }
            Ok(epd)
        };
        let path = match positional[..] {
            ["diagnose", path] if flags.is_empty() => {
                print!("{}", tune::results_by_eval_bucket(&read(path)?));
                return Ok(());
            }
            [path] => path,
            _ => return Err(TUNE_USAGE.to_string()),
        };
        let mut config = tune::TuneConfig::default();
        let mut out_path = "tuned-params.rs".to_string();
        for (name, value) in flags {
            match name {
                "epochs" => config.epochs = number(name, value)?,
                "l2" => config.l2 = finite(name, value)?,
                "lr" => config.lr = finite(name, value)?,
                "resolve" => {
                    config.resolve = match value {
                        "1" => true,
                        "0" => false,
                        _ => return Err(format!("--resolve needs 0 or 1, got '{value}'")),
                    }
                }
                "freeze" => {
                    config.frozen = value
                        .split(',')
                        .filter(|s| !s.is_empty())
                        .map(String::from)
                        .collect()
                }
                "out" => out_path = value.to_string(),
                _ => return Err(format!("unknown option --{name} ({TUNE_USAGE})")),
            }
        }
        let epd = read(path)?;
        let (report, weights) = tune::tune_with(&epd, &config, &mut |line| eprintln!("{line}"));
        println!("{report}");
        std::fs::write(&out_path, tune::to_rust(&weights))
            .map_err(|e| format!("cannot write {out_path}: {e}"))?;
        println!("weights written to {out_path}");
        Ok(())
    })();
    finish(result)
}

/// `escaque datagen <out.bin> [--games N] [--nodes N] [--random-plies N] [--seed S] [--threads N]
/// [--book FILE.epd] [--hash MB] [--eval hce|nnue|FILE.nnue]`: self-play games, positions in the
/// packed training format, evaluated by the hand-crafted evaluation (the default) or a network.
pub fn run_datagen(args: &[String]) -> ExitCode {
    let result = (|| -> Result<(), String> {
        let Args { positional, flags } = parse_flags(args).ok_or(DATAGEN_USAGE)?;
        let [path] = positional[..] else {
            return Err(DATAGEN_USAGE.to_string());
        };
        let mut config = DatagenConfig::default();
        for (name, value) in flags {
            match name {
                "games" => config.games = number(name, value)?,
                "nodes" => config.soft_nodes = number(name, value)?,
                "random-plies" => config.random_plies = number(name, value)?,
                "seed" => config.seed = number(name, value)?,
                "threads" => config.threads = number(name, value)?,
                "hash" => config.hash_mb = number(name, value)?,
                "book" => config.book = read_book(value)?,
                "eval" => {
                    config.network = match value {
                        "hce" => None,
                        "nnue" => Some(crate::nnue::Network::default_network()),
                        path => Some(std::sync::Arc::new(crate::nnue::Network::load(path)?)),
                    }
                }
                _ => return Err(format!("unknown option --{name} ({DATAGEN_USAGE})")),
            }
        }
        if config.threads == 0 || config.threads > 1024 {
            return Err(format!("--threads must be 1..1024, got {}", config.threads));
        }
        if config.hash_mb == 0 || config.hash_mb > 65536 {
            return Err(format!("--hash must be 1..65536, got {}", config.hash_mb));
        }
        let stop = std::sync::atomic::AtomicBool::new(false);
        let summary = datagen::run_with_progress(std::path::Path::new(path), &config, &stop)?;
        println!(
            "{} games, {} positions appended to {path} (resumed at game {})",
            summary.games, summary.positions, summary.resumed_from_game
        );
        Ok(())
    })();
    finish(result)
}

/// The positions of an EPD opening book (first four FEN fields of each line).
fn read_book(path: &str) -> Result<Vec<crate::board::Board>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut book = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.is_empty() {
            continue;
        }
        let board = crate::board::Board::from_fen(&fields.join(" "))
            .map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        book.push(board);
    }
    if book.is_empty() {
        return Err(format!("no positions in {path}"));
    }
    Ok(book)
}

/// `escaque data <stats|text|from-text|epd|shuffle|concat|dedup|interleave|filter> ...`:
/// inspect and transform datagen files.
pub fn run_data(args: &[String]) -> ExitCode {
    use crate::data;
    if args.first().map(String::as_str) == Some("wdl-fit") {
        return finish(crate::wdl::cli::run(&args[1..]));
    }
    let result = (|| -> Result<(), String> {
        let Args { positional, flags } =
            parse_flags_with_switches(args, &["drop-in-check"]).ok_or(DATA_USAGE)?;
        let command = positional.first().copied().unwrap_or("");
        // Each command's flags; any other is refused rather than silently ignored.
        let allowed: &[&str] = match command {
            "shuffle" => &["seed"],
            "interleave" => &["seed", "buffer"],
            "filter" => &[
                "min-ply",
                "max-score",
                "min-pieces",
                "max-pieces",
                "drop-in-check",
            ],
            _ => &[],
        };
        let mut seed = 1u64;
        let mut buffer = data::DEFAULT_BUFFER;
        let mut rules = data::FilterRules::default();
        for (name, value) in flags {
            if !allowed.contains(&name) {
                return Err(format!(
                    "unknown option --{name} for '{command}' ({DATA_USAGE})"
                ));
            }
            match name {
                "seed" => seed = number(name, value)?,
                "buffer" => buffer = number(name, value)?,
                "min-ply" => rules.min_ply = number(name, value)?,
                "max-score" => rules.max_abs_score = Some(number(name, value)?),
                "min-pieces" => rules.min_pieces = number(name, value)?,
                "max-pieces" => rules.max_pieces = number(name, value)?,
                "drop-in-check" => rules.drop_in_check = true,
                _ => unreachable!("every allowed flag is handled"),
            }
        }
        let started = std::time::Instant::now();
        match positional[..] {
            ["stats", ref inputs @ ..] if !inputs.is_empty() => {
                print!("{}", data::file_statistics(&paths(inputs))?);
            }
            ["text", input] | ["epd", input] => {
                let records = data::read_records(Path::new(input))?;
                let stdout = std::io::stdout();
                let mut out = std::io::BufWriter::new(stdout.lock());
                let epd = positional[0] == "epd";
                for r in &records {
                    let line = if epd {
                        format!("{} c9 \"{}\";", r.to_fen(), r.result().pgn())
                    } else {
                        r.to_text()
                    };
                    if writeln!(out, "{line}").is_err() {
                        break;
                    }
                }
            }
            ["from-text", input, output] => {
                let records = data::read_text(Path::new(input))?;
                data::write_records(Path::new(output), &records)?;
                println!("{} positions written to {output}", records.len());
            }
            ["shuffle", input, output] => {
                let mut records = data::read_records(Path::new(input))?;
                data::shuffle(&mut records, seed);
                data::write_records(Path::new(output), &records)?;
                println!("{} positions shuffled into {output}", records.len());
            }
            ["concat", ref files @ ..] => {
                let (inputs, output) = inputs_and_output(command, files)?;
                let records = data::read_all(&inputs)?;
                data::write_records(output, &records)?;
                println!(
                    "{} positions written to {}",
                    records.len(),
                    output.display()
                );
            }
            ["dedup", ref files @ ..] => {
                let (inputs, output) = inputs_and_output(command, files)?;
                let summary = data::dedup(&inputs, output)?;
                println!(
                    "{} positions kept, {} duplicates dropped ({:.2}%), written to {} in {:.1} s",
                    summary.kept,
                    summary.dropped,
                    100.0 * summary.dropped as f64 / (summary.kept + summary.dropped).max(1) as f64,
                    output.display(),
                    started.elapsed().as_secs_f64()
                );
            }
            ["interleave", ref files @ ..] => {
                let (inputs, output) = inputs_and_output(command, files)?;
                let written = data::interleave(&inputs, output, seed, buffer)?;
                println!(
                    "{written} positions from {} files interleaved into {} in {:.1} s",
                    inputs.len(),
                    output.display(),
                    started.elapsed().as_secs_f64()
                );
            }
            ["filter", ref files @ ..] => {
                let (inputs, output) = inputs_and_output(command, files)?;
                if rules.min_pieces > rules.max_pieces {
                    return Err("--min-pieces is above --max-pieces".to_string());
                }
                let s = data::filter(&inputs, output, &rules)?;
                println!(
                    "{} positions kept, {} dropped (early ply {}, |score| {}, pieces {}, \
                     in check {}), written to {} in {:.1} s",
                    s.kept,
                    s.dropped(),
                    s.early_ply,
                    s.score,
                    s.pieces,
                    s.in_check,
                    output.display(),
                    started.elapsed().as_secs_f64()
                );
            }
            _ => return Err(DATA_USAGE.to_string()),
        }
        Ok(())
    })();
    finish(result)
}

fn paths<'a>(names: &[&'a str]) -> Vec<&'a Path> {
    names.iter().map(|name| Path::new(*name)).collect()
}

/// `<in>... <out>`: the inputs and the output of the `data` commands that take them.
fn inputs_and_output<'a>(
    command: &str,
    files: &[&'a str],
) -> Result<(Vec<&'a Path>, &'a Path), String> {
    match files.split_last() {
        Some((output, inputs)) if !inputs.is_empty() => Ok((paths(inputs), Path::new(*output))),
        _ => Err(format!(
            "'{command}' needs input files and an output ({DATA_USAGE})"
        )),
    }
}

/// Exit status of a subcommand: `error: <message>` on stderr and 1 on failure.
pub(crate) fn finish(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
