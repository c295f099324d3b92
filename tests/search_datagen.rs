//! Datagen smoke test: a couple of short self-play games produce labelled, parseable positions.

use escaque::datagen::{run, DatagenConfig};
use escaque::tune::parse_line;

#[test]
fn produces_labelled_positions() {
    let mut out = Vec::new();
    let config = DatagenConfig {
        games: 2,
        nodes: 300,
        random_plies: 6,
        seed: 7,
        hash_mb: 1,
    };
    let written = run(&mut out, &config);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), written);
    assert!(written > 0);
    for line in text.lines() {
        assert!(parse_line(line).is_some(), "{line}");
    }
}
