//! The `datagen`, `data` and `tune` subcommands, run as a user would run them.

use std::process::Command;

use escaque::tools::tune;

fn escaque_command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_escaque"));
    command.args(args);
    command
}

fn escaque(args: &[&str]) -> std::process::Output {
    escaque_command(args).output().expect("binary runs")
}

#[test]
fn datagen_then_tune_round_trip() {
    let dir = std::env::temp_dir().join(format!("escaque-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let packed = dir.join("selfplay.bin");
    let data = dir.join("selfplay.epd");
    let weights = dir.join("params.rs");

    let out = escaque(&[
        "datagen",
        packed.to_str().unwrap(),
        "--games",
        "2",
        "--nodes",
        "300",
        "--threads",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stats = escaque(&["data", "stats", packed.to_str().unwrap()]);
    let stats = String::from_utf8_lossy(&stats.stdout).to_string();
    assert!(stats.contains("positions: "), "{stats}");
    // The text form converts back to the same bytes.
    let text = escaque(&["data", "text", packed.to_str().unwrap()]);
    let text_path = dir.join("selfplay.txt");
    std::fs::write(&text_path, &text.stdout).unwrap();
    let back = dir.join("back.bin");
    let out = escaque(&[
        "data",
        "from-text",
        text_path.to_str().unwrap(),
        back.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(&back).unwrap(),
        std::fs::read(&packed).unwrap()
    );
    // The streaming tools: two copies deduplicate to one, interleave to both, and datagen left
    // no position in check for the filter to drop.
    let size = |path: &std::path::Path| std::fs::metadata(path).unwrap().len();
    let copy = dir.join("copy.bin");
    std::fs::copy(&packed, &copy).unwrap();
    let (packed_str, copy_str) = (packed.to_str().unwrap(), copy.to_str().unwrap());
    let tool_output = dir.join("tool-out.bin");
    let tool_output_str = tool_output.to_str().unwrap();
    for (args, expected_size) in [
        (
            vec!["dedup", packed_str, copy_str, tool_output_str],
            None, // at most the original: a game can repeat a position
        ),
        (
            vec![
                "interleave",
                packed_str,
                copy_str,
                tool_output_str,
                "--seed",
                "3",
            ],
            Some(2 * size(&packed)),
        ),
        (
            vec!["filter", packed_str, tool_output_str, "--drop-in-check"],
            Some(size(&packed)),
        ),
    ] {
        let out = escaque(&[&["data"][..], &args].concat());
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let written = size(&tool_output);
        match expected_size {
            Some(expected) => assert_eq!(written, expected, "{args:?}"),
            None => assert!(written > 0 && written <= size(&packed), "{args:?}"),
        }
    }
    // A truncated file is refused with a message, not a panic.
    let bytes = std::fs::read(&packed).unwrap();
    std::fs::write(&back, &bytes[..bytes.len() - 5]).unwrap();
    let out = escaque(&["data", "stats", back.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("truncated"));

    let epd = escaque(&["data", "epd", packed.to_str().unwrap()]);
    std::fs::write(&data, &epd.stdout).unwrap();
    let text = std::fs::read_to_string(&data).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 10, "only {} positions", lines.len());
    // Every line is in the tuner's format, with one result per game (both games' labels valid).
    assert!(
        lines.iter().all(|l| tune::parse_line(l).is_some()),
        "{text}"
    );

    // Runs `escaque tune` on the data with `settings` and returns the table it wrote.
    let tune_table = |settings: &[&str]| {
        let mut args = vec!["tune", data.to_str().unwrap()];
        args.extend_from_slice(settings);
        args.extend(["--out", weights.to_str().unwrap()]);
        let out = escaque(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(&weights).unwrap()
    };
    let table = tune_table(&["--epochs", "2"]);
    assert!(table.contains("PARAMS"), "{table}");
    // Two epochs at the default step size move some weight: a tuner that does nothing fails.
    assert_ne!(table, tune::to_rust(&escaque::hce::PARAMS));

    // A zero step size reaches the tuner: the weights come back exactly as the engine has them.
    let table = tune_table(&["--epochs", "3", "--lr", "0", "--l2", "0.5"]);
    assert_eq!(table, tune::to_rust(&escaque::hce::PARAMS));

    // Bad tuner settings and a file without labelled positions are refused with their reason.
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "no positions here\n").unwrap();
    let data = data.to_str().unwrap();
    // Bad settings are refused by the argument parser (status 2), a file without labelled
    // positions by the tuner (status 1), each with its reason.
    for (args, status, reason) in [
        (
            vec!["tune", data, "--l2", "-1"],
            2,
            "invalid value '-1' for '--l2 <L2>'",
        ),
        (
            vec!["tune", data, "--lr", "inf"],
            2,
            "invalid value 'inf' for '--lr <LR>'",
        ),
        (
            vec!["tune", data, "--lr", "fast"],
            2,
            "invalid value 'fast' for '--lr <LR>'",
        ),
        (
            vec!["tune", empty.to_str().unwrap()],
            1,
            "no labelled positions",
        ),
    ] {
        let out = escaque(&args);
        assert_eq!(out.status.code(), Some(status), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Arguments the parser refuses: a message on stderr and status 2, as clap gives them.
#[test]
fn bad_arguments_fail_with_status_2() {
    for args in [
        &["tune"][..],
        &["datagen"],
        &["datagen", "/tmp/x.epd", "--games", "many"],
        &["datagen", "/tmp/x.epd", "--colour", "red"],
        &[
            "datagen",
            "/tmp/escaque-x.bin",
            "--nodes",
            "18446744073709551615",
        ],
        &["datagen", "/tmp/escaque-x.bin", "--threads", "0"],
        &["datagen", "/tmp/escaque-x.bin", "--threads", "1025"],
        &["datagen", "/tmp/escaque-x.bin", "--hash", "65537"],
        &["data"],
        &["data", "dedup", "/tmp/escaque-y.bin"],
        &["data", "interleave", "a.bin", "b.bin", "--shuffle", "1"],
        &["data", "filter", "a.bin", "b.bin", "--seed", "1"],
        &["data", "filter", "a.bin", "b.bin", "--max-score", "big"],
        &["train"],
        &["fuzz", "--target", "fen"],
        &["fuzz", "--target", "xml", "--cases", "1"],
        &["bench", "abc"],
        &["--frobnicate"],
    ] {
        let out = escaque(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        // An error line, or (a tool named without its command) the tool's usage.
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with("error: ") || stderr.contains("\nUsage: escaque "),
            "{args:?}: {stderr}"
        );
    }
}

/// A tool that cannot do its work (a missing file): a message on stderr and status 1.
#[test]
fn failures_fail_with_status_1() {
    for args in [
        &["tune", "/nonexistent/file.epd"][..],
        &["data", "stats", "/nonexistent.bin"],
        &["data", "shuffle", "/nonexistent.bin", "/tmp/escaque-y.bin"],
        &["data", "dedup", "/nonexistent.bin", "/tmp/escaque-y.bin"],
        &[
            "data",
            "interleave",
            "/nonexistent.bin",
            "/tmp/escaque-y.bin",
        ],
    ] {
        let out = escaque(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("error: "),
            "{args:?}"
        );
    }
}

/// Runs escaque with its stdout reader gone before it writes (`| head` that has stopped, a
/// closed terminal): every write to stdout meets a broken pipe.
fn escaque_unread(args: &[&str]) -> std::process::Output {
    let mut child = escaque_command(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    drop(child.stdout.take());
    child.wait_with_output().expect("it exits")
}

/// A tool's report is not its work: with nobody reading stdout, perft still exits 0, and
/// datagen and the data tools still write their files, instead of a panic on the broken pipe
/// (perft and `data stats` aborted this way before).
#[test]
fn tools_finish_their_work_when_nobody_reads_stdout() {
    let dir = std::env::temp_dir().join(format!("escaque-unread-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let packed = dir.join("games.bin");
    let copy = dir.join("copy.bin");
    let (packed_path, copy_path) = (packed.to_str().unwrap(), copy.to_str().unwrap());
    for args in [
        &["perft", "3"][..],
        &["datagen", packed_path, "--games", "1", "--nodes", "200"],
        &["data", "stats", packed_path],
        &["data", "concat", packed_path, copy_path],
    ] {
        let out = escaque_unread(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let written = std::fs::read(&packed).unwrap();
    assert!(!written.is_empty(), "datagen wrote no position");
    assert_eq!(std::fs::read(&copy).unwrap(), written);
    std::fs::remove_dir_all(&dir).ok();
}

/// `--help` (of the program and of each tool) and `--version`: on stdout, status 0.
#[test]
fn help_and_version() {
    let out = escaque(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    for tool in [
        "bench",
        "perft",
        "datagen",
        "data",
        "train",
        "tune",
        "fuzz",
        "find-magics",
    ] {
        assert!(help.contains(&format!("\n  {tool} ")), "{tool}: {help}");
        let out = escaque(&[tool, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{tool}");
        let usage = String::from_utf8_lossy(&out.stdout);
        assert!(
            usage.contains(&format!("Usage: escaque {tool}")),
            "{tool}: {usage}"
        );
        assert!(out.stderr.is_empty(), "{tool}");
    }
    let out = escaque(&["data", "filter", "--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("--drop-in-check"));
    let out = escaque(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("escaque {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// UCI commands given as arguments stop at the first error: the message on stderr, status 2,
/// and nothing after it runs.
#[test]
fn uci_commands_as_arguments_stop_at_the_first_error() {
    let out = escaque(&["position fen bad", "go depth 3"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: invalid FEN 'bad'"), "{stderr}");
    assert!(out.stdout.is_empty(), "the search must not run");
    let out = escaque(&["position startpos moves e2e4", "go depth 3"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\nbestmove "));
    let out = escaque(&["go", "perft", "2"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 400"));
}
