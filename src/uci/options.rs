//! The UCI options: their declarations (printed after `uci`), their current values, and the
//! validation of `setoption`. Names match case-insensitively; a bad value changes nothing.

use std::fmt;

use crate::evaluation::USE_NETWORK_BY_DEFAULT;
use crate::search::{strength, Engine};

/// The declared type of an option, with the typed change a valid value makes: each option
/// builds its own [`OptionChange`], so a new option cannot silently act as an old one.
#[derive(Copy, Clone, Debug)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
        change: fn(i64) -> OptionChange,
    },
    Check {
        default: bool,
        change: fn(bool) -> OptionChange,
    },
    Button {
        press: fn() -> OptionChange,
    },
    /// A free-text value (`type string`); an empty value means the default.
    Text {
        default: &'static str,
        change: fn(String) -> OptionChange,
    },
}

/// One declared option.
#[derive(Copy, Clone, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

impl fmt::Display for OptionSpec {
    /// The canonical `option name … type …` line (UCI-CHECKLIST item 18).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match self.kind {
            OptionKind::Spin {
                default, min, max, ..
            } => write!(f, "spin default {default} min {min} max {max}"),
            OptionKind::Check { default, .. } => write!(f, "check default {default}"),
            OptionKind::Button { .. } => write!(f, "button"),
            OptionKind::Text { default, .. } => write!(f, "string default {default}"),
        }
    }
}

pub const MAX_HASH_MB: i64 = 65_536;
pub const MAX_THREADS: i64 = 1024;
pub const MAX_MULTIPV: i64 = 256;
pub const DEFAULT_MOVE_OVERHEAD: u64 = 10;

/// Every option the engine declares, in the order printed.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Hash",
        kind: OptionKind::Spin {
            default: Engine::DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB,
            change: |mb| OptionChange::Hash(mb as usize),
        },
    },
    OptionSpec {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
            change: |n| OptionChange::Threads(n as usize),
        },
    },
    OptionSpec {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
            change: |n| OptionChange::MultiPv(n as usize),
        },
    },
    OptionSpec {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: DEFAULT_MOVE_OVERHEAD as i64,
            min: 0,
            max: 5000,
            change: |ms| OptionChange::MoveOverhead(ms as u64),
        },
    },
    OptionSpec {
        name: "Clear Hash",
        kind: OptionKind::Button {
            press: || OptionChange::ClearHash,
        },
    },
    OptionSpec {
        name: "Ponder",
        kind: OptionKind::Check {
            default: false,
            change: OptionChange::Ponder,
        },
    },
    OptionSpec {
        name: "UCI_Chess960",
        kind: OptionKind::Check {
            default: false,
            change: OptionChange::Chess960,
        },
    },
    OptionSpec {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check {
            default: false,
            change: OptionChange::LimitStrength,
        },
    },
    OptionSpec {
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: strength::DEFAULT_ELO,
            min: strength::MIN_ELO,
            max: strength::MAX_ELO,
            change: OptionChange::Elo,
        },
    },
    OptionSpec {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check {
            default: false,
            change: OptionChange::ShowWdl,
        },
    },
    OptionSpec {
        name: "Use NNUE",
        kind: OptionKind::Check {
            default: USE_NETWORK_BY_DEFAULT,
            change: OptionChange::UseNnue,
        },
    },
    OptionSpec {
        name: "EvalFile",
        kind: OptionKind::Text {
            default: DEFAULT_EVAL_FILE,
            change: OptionChange::EvalFile,
        },
    },
    OptionSpec {
        name: "SyzygyPath",
        kind: OptionKind::Text {
            default: DEFAULT_SYZYGY_PATH,
            change: OptionChange::SyzygyPath,
        },
    },
    OptionSpec {
        name: "SyzygyProbeDepth",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 100,
            change: |depth| OptionChange::SyzygyProbeDepth(depth as i32),
        },
    },
    OptionSpec {
        name: "Syzygy50MoveRule",
        kind: OptionKind::Check {
            default: true,
            change: OptionChange::Syzygy50MoveRule,
        },
    },
    OptionSpec {
        name: "SyzygyProbeLimit",
        kind: OptionKind::Spin {
            default: 7,
            min: 0,
            max: 7,
            change: |pieces| OptionChange::SyzygyProbeLimit(pieces as u32),
        },
    },
];

/// The `SyzygyPath` value that means no tables (Stockfish's).
pub const DEFAULT_SYZYGY_PATH: &str = "<empty>";

/// The `EvalFile` value that names the network built into the binary.
pub const DEFAULT_EVAL_FILE: &str = "<built-in>";

/// A validated `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChange {
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    MoveOverhead(u64),
    ClearHash,
    Ponder(bool),
    Chess960(bool),
    ShowWdl(bool),
    /// `UCI_LimitStrength`: play at the level `UCI_Elo` names.
    LimitStrength(bool),
    Elo(i64),
    UseNnue(bool),
    /// A network file to load, or [`DEFAULT_EVAL_FILE`].
    EvalFile(String),
    /// Directories of Syzygy tables, or [`DEFAULT_SYZYGY_PATH`].
    SyzygyPath(String),
    SyzygyProbeDepth(i32),
    Syzygy50MoveRule(bool),
    SyzygyProbeLimit(u32),
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue(&'static str),
    NotANumber {
        name: &'static str,
        value: String,
    },
    OutOfRange {
        name: &'static str,
        value: String,
        min: i64,
        max: i64,
    },
    NotABool {
        name: &'static str,
        value: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::command::excerpt;
        match self {
            OptionError::Unknown(name) => write!(f, "no such option '{}' (ignored)", excerpt(name)),
            OptionError::MissingValue(name) => write!(f, "option '{name}' needs a value"),
            OptionError::NotANumber { name, value } => {
                write!(
                    f,
                    "option '{name}' needs an integer, got '{}'",
                    excerpt(value)
                )
            }
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "option '{name}' value '{}' is out of range ({min} to {max}); unchanged",
                excerpt(value)
            ),
            OptionError::NotABool { name, value } => {
                write!(
                    f,
                    "option '{name}' needs true or false, got '{}'",
                    excerpt(value)
                )
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// Validates `setoption name <name> [value <value>]`.
pub fn parse_change(name: &str, value: Option<&str>) -> Result<OptionChange, OptionError> {
    let spec = OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let value = value.map(str::trim);
    let name = spec.name;
    match spec.kind {
        OptionKind::Button { press } => Ok(press()),
        OptionKind::Text { default, change } => Ok(change(
            value
                .filter(|v| !v.is_empty())
                .unwrap_or(default)
                .to_string(),
        )),
        OptionKind::Check { change, .. } => {
            let text = value
                .filter(|v| !v.is_empty())
                .ok_or(OptionError::MissingValue(name))?;
            let on = if text.eq_ignore_ascii_case("true") {
                true
            } else if text.eq_ignore_ascii_case("false") {
                false
            } else {
                return Err(OptionError::NotABool {
                    name,
                    value: text.to_string(),
                });
            };
            Ok(change(on))
        }
        OptionKind::Spin {
            min, max, change, ..
        } => {
            let text = value
                .filter(|v| !v.is_empty())
                .ok_or(OptionError::MissingValue(name))?;
            let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
            if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                return Err(OptionError::NotANumber {
                    name,
                    value: text.to_string(),
                });
            }
            let out_of_range = || OptionError::OutOfRange {
                name,
                value: text.to_string(),
                min,
                max,
            };
            let n = text.parse::<i64>().map_err(|_| out_of_range())?;
            if !(min..=max).contains(&n) {
                return Err(out_of_range());
            }
            Ok(change(n))
        }
    }
}

/// The option values the controller owns. Hash and Threads are the engine's (one copy each,
/// read back from it); buttons hold no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub ponder: bool,
    pub chess960: bool,
    pub show_wdl: bool,
    pub limit_strength: bool,
    pub elo: i64,
    /// `Use NNUE`: the network evaluates, or the hand-crafted evaluation.
    pub use_nnue: bool,
    pub eval_file: String,
    pub syzygy_path: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            multipv: 1,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD,
            ponder: false,
            chess960: false,
            show_wdl: false,
            limit_strength: false,
            elo: strength::DEFAULT_ELO,
            use_nnue: USE_NETWORK_BY_DEFAULT,
            eval_file: DEFAULT_EVAL_FILE.to_string(),
            syzygy_path: DEFAULT_SYZYGY_PATH.to_string(),
        }
    }
}

impl Options {
    /// Records a change to a value the controller owns; the engine's own options (Hash,
    /// Threads, Clear Hash, the Syzygy probe settings; and the evaluation Use NNUE and EvalFile
    /// choose, and the tables SyzygyPath names) are applied to the engine.
    pub fn apply(&mut self, change: &OptionChange) {
        match *change {
            OptionChange::MultiPv(n) => self.multipv = n,
            OptionChange::MoveOverhead(ms) => self.move_overhead_ms = ms,
            OptionChange::Ponder(on) => self.ponder = on,
            OptionChange::Chess960(on) => self.chess960 = on,
            OptionChange::ShowWdl(on) => self.show_wdl = on,
            OptionChange::LimitStrength(on) => self.limit_strength = on,
            OptionChange::Elo(elo) => self.elo = elo,
            OptionChange::UseNnue(on) => self.use_nnue = on,
            OptionChange::EvalFile(ref path) => self.eval_file = path.clone(),
            OptionChange::SyzygyPath(ref path) => self.syzygy_path = path.clone(),
            OptionChange::Hash(_)
            | OptionChange::Threads(_)
            | OptionChange::ClearHash
            | OptionChange::SyzygyProbeDepth(_)
            | OptionChange::Syzygy50MoveRule(_)
            | OptionChange::SyzygyProbeLimit(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_are_canonical() {
        let lines: Vec<String> = OPTIONS.iter().map(|o| o.to_string()).collect();
        assert!(
            lines.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string())
        );
        assert!(lines.contains(
            &"option name Move Overhead type spin default 10 min 0 max 5000".to_string()
        ));
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_string()));
        assert!(lines.contains(&"option name UCI_ShowWDL type check default false".to_string()));
        for o in OPTIONS {
            if let OptionKind::Spin {
                default, min, max, ..
            } = o.kind
            {
                assert!(min <= default && default <= max, "{o}");
            }
        }
    }

    #[test]
    fn names_and_bools_are_case_insensitive() {
        assert_eq!(parse_change("hash", Some("64")), Ok(OptionChange::Hash(64)));
        assert_eq!(
            parse_change("MOVE OVERHEAD", Some("0")),
            Ok(OptionChange::MoveOverhead(0))
        );
        assert_eq!(
            parse_change("uci_chess960", Some("TRUE")),
            Ok(OptionChange::Chess960(true))
        );
        assert_eq!(
            parse_change("Ponder", Some("False")),
            Ok(OptionChange::Ponder(false))
        );
        assert_eq!(
            parse_change("clear hash", None),
            Ok(OptionChange::ClearHash)
        );
        assert_eq!(
            parse_change("UCI_ShowWDL", Some("true")),
            Ok(OptionChange::ShowWdl(true))
        );
        assert_eq!(
            parse_change("Threads", Some("256")),
            Ok(OptionChange::Threads(256))
        );
        assert_eq!(
            parse_change("MultiPV", Some("+3")),
            Ok(OptionChange::MultiPv(3))
        );
        assert_eq!(
            parse_change("syzygypath", Some("/a:/b")),
            Ok(OptionChange::SyzygyPath("/a:/b".into()))
        );
        assert_eq!(
            parse_change("SyzygyPath", None),
            Ok(OptionChange::SyzygyPath("<empty>".into()))
        );
        assert_eq!(
            parse_change("SyzygyProbeDepth", Some("5")),
            Ok(OptionChange::SyzygyProbeDepth(5))
        );
        assert_eq!(
            parse_change("Syzygy50MoveRule", Some("false")),
            Ok(OptionChange::Syzygy50MoveRule(false))
        );
        assert_eq!(
            parse_change("SyzygyProbeLimit", Some("0")),
            Ok(OptionChange::SyzygyProbeLimit(0))
        );
        assert!(matches!(
            parse_change("SyzygyProbeLimit", Some("8")),
            Err(OptionError::OutOfRange { .. })
        ));
    }

    #[test]
    fn bad_values_are_refused() {
        assert!(matches!(
            parse_change("Hash", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_change("Hash", Some("-5")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_change("Hash", Some("65537")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_change("Hash", Some("999999999999999999999999")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_change("Hash", Some("lots")),
            Err(OptionError::NotANumber { .. })
        ));
        assert!(matches!(
            parse_change("Hash", Some("1.5")),
            Err(OptionError::NotANumber { .. })
        ));
        assert_eq!(
            parse_change("Hash", None),
            Err(OptionError::MissingValue("Hash"))
        );
        assert_eq!(
            parse_change("Ponder", Some("")),
            Err(OptionError::MissingValue("Ponder"))
        );
        assert!(matches!(
            parse_change("Ponder", Some("yes")),
            Err(OptionError::NotABool { .. })
        ));
        assert!(matches!(
            parse_change("NoSuchThing", Some("1")),
            Err(OptionError::Unknown(_))
        ));
    }

    #[test]
    fn apply_records_values() {
        let mut o = Options::default();
        o.apply(&OptionChange::MultiPv(4));
        o.apply(&OptionChange::Chess960(true));
        o.apply(&OptionChange::MoveOverhead(50));
        assert_eq!((o.multipv, o.chess960, o.move_overhead_ms), (4, true, 50));
    }
}
