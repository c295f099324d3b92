//! The Texel tuner's entry point (until the binary gets a `tune` command):
//! `TUNE_EPD=path TUNE_EPOCHS=2000 cargo test --release --test search_tune -- --ignored --nocapture`
//! prints the new weight table. The plain test checks that parsing and feature extraction work.

use escaque::tune;

#[test]
fn parses_labelled_lines() {
    let (board, result) =
        tune::parse_line("8/1N4pk/8/5p2/2bb3P/6r1/R2K4/5R2 b - - 0 76 c9 \"0-1\";").unwrap();
    assert_eq!(result, 0.0);
    assert_eq!(board.fullmove_number(), 76);
}

#[test]
#[ignore]
fn run_tuner() {
    let path = std::env::var("TUNE_EPD")
        .unwrap_or_else(|_| "../shared/data/tuning/debian-engines-labelled.epd".into());
    let epochs = std::env::var("TUNE_EPOCHS")
        .ok()
        .and_then(|e| e.parse().ok())
        .unwrap_or(1000);
    let epd = std::fs::read_to_string(&path).expect("readable EPD file");
    let (report, weights) = tune::tune(&epd, epochs, &mut |line| eprintln!("{line}"));
    println!("{report}");
    let out = std::env::var("TUNE_OUT").unwrap_or_else(|_| "/tmp/escaque-tuned.rs".into());
    std::fs::write(&out, tune::to_rust(&weights)).expect("writable output");
    println!("weights written to {out}");
}
