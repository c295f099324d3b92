//! The UCI options, each declared once, next to its effect: its name, type, default and range
//! (printed after `uci`), the field of [`Options`] it sets, and what the engine does with it
//! (run when no search is running: the controller defers it until the search ends). Names
//! match case-insensitively; a bad value changes nothing. Adding an option is a field of
//! [`Options`] and an entry of [`OPTIONS`] (its default is written there only).

use std::fmt;
use std::sync::Arc;

use crate::evaluation::{Evaluation, USE_NETWORK_BY_DEFAULT};
use crate::nnue::Network;
use crate::search::params::{find_tunable, Tunable};
use crate::search::{strength, Engine, TbSettings};

/// What a changed option does to the engine, run when no search is running, reading the option
/// values then current: lines to tell the user, or an error (one `info string error:` line).
pub type EngineEffect = fn(&mut Engine, &Options) -> Result<Vec<String>, String>;

/// The declared type of an option, its default and range, and the field of [`Options`] a valid
/// value sets.
#[derive(Copy, Clone, Debug)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
        set: fn(&mut Options, i64),
    },
    Check {
        default: bool,
        set: fn(&mut Options, bool),
    },
    /// Pressing it is its engine effect.
    Button,
    /// A free-text value (`type string`); an empty value means the default. `set` may refuse
    /// the value (a file that cannot be used), changing nothing; otherwise it returns lines to
    /// tell the user.
    Text {
        default: &'static str,
        set: fn(&mut Options, &str) -> Result<Vec<String>, String>,
    },
}

/// One declared option.
#[derive(Copy, Clone, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    /// What the engine does with the new value (`None`: the controller reads the value when
    /// it needs it, e.g. at the next `go`).
    pub engine: Option<EngineEffect>,
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
            OptionKind::Button => write!(f, "button"),
            OptionKind::Text { default, .. } => write!(f, "string default {default}"),
        }
    }
}

pub const MAX_HASH_MB: i64 = 65_536;
pub const MAX_THREADS: i64 = 1024;
pub const MAX_MULTIPV: i64 = 256;

/// No engine effect but telling nothing.
fn nothing() -> Result<Vec<String>, String> {
    Ok(Vec::new())
}

/// The evaluation `Use NNUE` and `EvalFile` choose, given to the engine.
fn choose_evaluation(engine: &mut Engine, o: &Options) -> Result<Vec<String>, String> {
    engine.set_evaluation(o.evaluation());
    nothing()
}

/// The Syzygy probe settings, given to the engine.
fn probe_settings(engine: &mut Engine, o: &Options) -> Result<Vec<String>, String> {
    engine.set_tb_settings(o.tb);
    nothing()
}

/// Every option the engine declares, in the order printed.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Hash",
        kind: OptionKind::Spin {
            default: Engine::DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB,
            set: |o, mb| o.hash_mb = mb as usize,
        },
        engine: Some(|engine, o| match engine.set_hash_mb(o.hash_mb) {
            Ok(()) => nothing(),
            Err(e) => Err(format!(
                "option 'Hash': {e}; keeping {} MB",
                engine.hash_mb()
            )),
        }),
    },
    OptionSpec {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
            set: |o, n| o.threads = n as usize,
        },
        engine: Some(|engine, o| {
            engine.set_threads(o.threads);
            nothing()
        }),
    },
    OptionSpec {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
            set: |o, n| o.multipv = n as usize,
        },
        engine: None,
    },
    OptionSpec {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
            set: |o, ms| o.move_overhead_ms = ms as u64,
        },
        engine: None,
    },
    OptionSpec {
        name: "Clear Hash",
        kind: OptionKind::Button,
        engine: Some(|engine, _| {
            engine.clear_hash();
            nothing()
        }),
    },
    OptionSpec {
        name: "Ponder",
        kind: OptionKind::Check {
            default: false,
            set: |o, on| o.ponder = on,
        },
        engine: None,
    },
    OptionSpec {
        name: "UCI_Chess960",
        kind: OptionKind::Check {
            default: false,
            set: |o, on| o.chess960 = on,
        },
        engine: None,
    },
    OptionSpec {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check {
            default: false,
            set: |o, on| o.limit_strength = on,
        },
        engine: None,
    },
    OptionSpec {
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: strength::DEFAULT_ELO,
            min: strength::MIN_ELO,
            max: strength::MAX_ELO,
            set: |o, elo| o.elo = elo,
        },
        engine: None,
    },
    OptionSpec {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check {
            default: false,
            set: |o, on| o.show_wdl = on,
        },
        engine: None,
    },
    OptionSpec {
        name: "Use NNUE",
        kind: OptionKind::Check {
            default: USE_NETWORK_BY_DEFAULT,
            set: |o, on| o.use_nnue = on,
        },
        engine: Some(choose_evaluation),
    },
    OptionSpec {
        name: "EvalFile",
        kind: OptionKind::Text {
            default: DEFAULT_EVAL_FILE,
            set: load_eval_file,
        },
        engine: Some(choose_evaluation),
    },
    OptionSpec {
        name: "SyzygyPath",
        kind: OptionKind::Text {
            default: "<empty>",
            set: check_syzygy_path,
        },
        engine: Some(|engine, o| engine.set_syzygy_path(&o.syzygy_path)),
    },
    OptionSpec {
        name: "SyzygyProbeDepth",
        kind: OptionKind::Spin {
            default: TbSettings::DEFAULT.probe_depth as i64,
            min: 1,
            max: 100,
            set: |o, depth| o.tb.probe_depth = depth as i32,
        },
        engine: Some(probe_settings),
    },
    OptionSpec {
        name: "Syzygy50MoveRule",
        kind: OptionKind::Check {
            default: TbSettings::DEFAULT.rule50,
            set: |o, on| o.tb.rule50 = on,
        },
        engine: Some(probe_settings),
    },
    OptionSpec {
        name: "SyzygyProbeLimit",
        kind: OptionKind::Spin {
            default: TbSettings::DEFAULT.probe_limit as i64,
            min: 0,
            max: 7,
            set: |o, pieces| o.tb.probe_limit = pieces as u32,
        },
        engine: Some(probe_settings),
    },
];

/// The `EvalFile` value that names the network built into the binary.
pub const DEFAULT_EVAL_FILE: &str = "<built-in>";

/// `EvalFile`: the network is read and checked now, so a bad file is reported at once and
/// changes nothing; the switch itself (the engine effect) waits for a running search to end.
fn load_eval_file(o: &mut Options, path: &str) -> Result<Vec<String>, String> {
    use super::command::excerpt;
    let loaded = if path == DEFAULT_EVAL_FILE {
        Ok(Network::default_network())
    } else {
        Network::load(path).map(Arc::new)
    };
    let net =
        loaded.map_err(|e| format!("option 'EvalFile': {e}; keeping {}", excerpt(&o.eval_file)))?;
    let line = format!(
        "network {} loaded (checksum {:016x}, {})",
        excerpt(path),
        net.checksum,
        net.describe()
    );
    o.network = LoadedNetwork(net);
    o.eval_file = path.to_string();
    Ok(vec![line])
}

/// `SyzygyPath`: checked now, so that a path without usable tables is refused at once and
/// changes nothing; the tables are opened (the engine effect) when no search runs.
fn check_syzygy_path(o: &mut Options, path: &str) -> Result<Vec<String>, String> {
    if !crate::syzygy::is_empty_path(path) {
        crate::syzygy::check(path).map_err(|e| format!("option 'SyzygyPath': {e}; unchanged"))?;
    }
    o.syzygy_path = path.to_string();
    nothing()
}

/// A network `EvalFile` loaded; two are equal when they are the same loaded network.
#[derive(Clone)]
pub struct LoadedNetwork(pub Arc<Network>);

impl Default for LoadedNetwork {
    fn default() -> LoadedNetwork {
        LoadedNetwork(Network::default_network())
    }
}

impl PartialEq for LoadedNetwork {
    fn eq(&self, other: &LoadedNetwork) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for LoadedNetwork {}

impl fmt::Debug for LoadedNetwork {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LoadedNetwork({:016x})", self.0.checksum)
    }
}

/// A valid `setoption` value, of its option's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Spin(i64),
    Check(bool),
    Press,
    Text(String),
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

/// Validates `setoption name <name> [value <value>]`: the option and its value, unapplied.
pub fn parse_change(
    name: &str,
    value: Option<&str>,
) -> Result<(&'static OptionSpec, OptionValue), OptionError> {
    let spec = OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let value = value.map(str::trim);
    let name = spec.name;
    let value = match spec.kind {
        OptionKind::Button => OptionValue::Press,
        OptionKind::Text { default, .. } => OptionValue::Text(
            value
                .filter(|v| !v.is_empty())
                .unwrap_or(default)
                .to_string(),
        ),
        OptionKind::Check { .. } => {
            let text = value
                .filter(|v| !v.is_empty())
                .ok_or(OptionError::MissingValue(name))?;
            if text.eq_ignore_ascii_case("true") {
                OptionValue::Check(true)
            } else if text.eq_ignore_ascii_case("false") {
                OptionValue::Check(false)
            } else {
                return Err(OptionError::NotABool {
                    name,
                    value: text.to_string(),
                });
            }
        }
        OptionKind::Spin { min, max, .. } => OptionValue::Spin(parse_spin(name, value, min, max)?),
    };
    Ok((spec, value))
}

/// A spin option's value: an integer in `min..=max`.
fn parse_spin(
    name: &'static str,
    value: Option<&str>,
    min: i64,
    max: i64,
) -> Result<i64, OptionError> {
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
    Ok(n)
}

/// A tunable's `option name … type spin …` line, for `escaque --show-tunables`.
pub fn tunable_option_line(tunable: &Tunable) -> String {
    format!(
        "option name {} type spin default {} min {} max {}",
        tunable.name, tunable.default, tunable.min, tunable.max
    )
}

/// Validates `setoption name <name> value <n>` for one of the search's tunables
/// (`crate::search::params::TUNABLES`), consulted when no option of [`OPTIONS`] has the name:
/// the tunable and its value, unapplied. Tunables are hidden (not printed after `uci`, unless
/// the engine was started with `--show-tunables`: they are for tuning, not for users),
/// spin-like, and process-wide.
pub fn parse_tunable_change(
    name: &str,
    value: Option<&str>,
) -> Result<(&'static Tunable, i32), OptionError> {
    let tunable = find_tunable(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let n = parse_spin(
        tunable.name,
        value.map(str::trim),
        tunable.min.into(),
        tunable.max.into(),
    )?;
    Ok((tunable, n as i32))
}

impl OptionSpec {
    /// Sets `value` (of this option's type, from [`parse_change`]) in `options`: lines to tell
    /// the user, or why the value was refused (then nothing changed).
    pub fn set(&self, options: &mut Options, value: OptionValue) -> Result<Vec<String>, String> {
        match (self.kind, value) {
            (OptionKind::Spin { set, .. }, OptionValue::Spin(n)) => set(options, n),
            (OptionKind::Check { set, .. }, OptionValue::Check(on)) => set(options, on),
            (OptionKind::Text { set, .. }, OptionValue::Text(text)) => return set(options, &text),
            (OptionKind::Button, OptionValue::Press) => {}
            (_, value) => unreachable!("{value:?} is not a value of option {}", self.name),
        }
        nothing()
    }

    /// Sets this option's default in `options`.
    fn set_default(&self, options: &mut Options) {
        let value = match self.kind {
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Check { default, .. } => OptionValue::Check(default),
            OptionKind::Text { default, .. } => OptionValue::Text(default.to_string()),
            OptionKind::Button => return,
        };
        self.set(options, value)
            .unwrap_or_else(|e| panic!("the default of option {} is refused: {e}", self.name));
    }
}

/// Every option's value (buttons hold none). [`Options::new`] gives the declared defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub ponder: bool,
    pub chess960: bool,
    pub show_wdl: bool,
    /// `UCI_LimitStrength`: play at the level `UCI_Elo` names.
    pub limit_strength: bool,
    pub elo: i64,
    /// `Use NNUE`: the network evaluates, or the hand-crafted evaluation.
    pub use_nnue: bool,
    /// The `EvalFile` value, and the network it names.
    pub eval_file: String,
    pub network: LoadedNetwork,
    /// Directories of Syzygy tables, or `<empty>`.
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`, `Syzygy50MoveRule`, `SyzygyProbeLimit`.
    pub tb: TbSettings,
}

impl Options {
    /// Every option at its declared default.
    pub fn new() -> Options {
        let mut options = Options::default();
        for spec in OPTIONS {
            spec.set_default(&mut options);
        }
        options
    }

    /// What `Use NNUE` and `EvalFile` choose.
    pub fn evaluation(&self) -> Evaluation {
        Evaluation::choose(self.use_nnue, &self.network.0)
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
        assert!(lines.contains(&"option name SyzygyPath type string default <empty>".to_string()));
        for o in OPTIONS {
            if let OptionKind::Spin {
                default, min, max, ..
            } = o.kind
            {
                assert!(min <= default && default <= max, "{o}");
            }
        }
    }

    /// Options as `setoption` lines would leave them, from the defaults.
    fn set(lines: &[(&str, Option<&str>)]) -> Options {
        let mut options = Options::new();
        for &(name, value) in lines {
            let (spec, value) = parse_change(name, value).unwrap();
            spec.set(&mut options, value).unwrap();
        }
        options
    }

    #[test]
    fn the_defaults_are_the_declared_ones() {
        let o = Options::new();
        assert_eq!((o.hash_mb, o.threads, o.multipv), (16, 1, 1));
        assert_eq!((o.move_overhead_ms, o.elo), (10, strength::DEFAULT_ELO));
        assert!(o.use_nnue && !o.chess960 && !o.ponder && !o.show_wdl && !o.limit_strength);
        assert_eq!(
            (o.eval_file.as_str(), o.syzygy_path.as_str()),
            ("<built-in>", "<empty>")
        );
        assert_eq!(o.tb, TbSettings::default());
        assert_eq!(o.network, LoadedNetwork::default());
    }

    #[test]
    fn names_and_bools_are_case_insensitive() {
        let o = set(&[
            ("hash", Some("64")),
            ("MOVE OVERHEAD", Some("0")),
            ("uci_chess960", Some("TRUE")),
            ("Ponder", Some("False")),
            ("clear hash", None),
            ("UCI_ShowWDL", Some("true")),
            ("Threads", Some("256")),
            ("MultiPV", Some("+3")),
            ("syzygypath", Some("<empty>")),
            ("SyzygyProbeDepth", Some("5")),
            ("Syzygy50MoveRule", Some("false")),
            ("SyzygyProbeLimit", Some("0")),
            ("use nnue", Some("false")),
        ]);
        assert_eq!(
            (o.hash_mb, o.move_overhead_ms, o.threads, o.multipv),
            (64, 0, 256, 3)
        );
        assert!(o.chess960 && !o.ponder && o.show_wdl && !o.use_nnue);
        assert_eq!(
            o.tb,
            TbSettings {
                probe_depth: 5,
                rule50: false,
                probe_limit: 0
            }
        );
        assert!(matches!(o.evaluation(), Evaluation::HandCrafted));
        assert_eq!(
            parse_change("SyzygyPath", None).unwrap().1,
            OptionValue::Text("<empty>".into())
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
            parse_change("Hash", None).unwrap_err(),
            OptionError::MissingValue("Hash")
        );
        assert_eq!(
            parse_change("Ponder", Some("")).unwrap_err(),
            OptionError::MissingValue("Ponder")
        );
        assert!(matches!(
            parse_change("Ponder", Some("yes")),
            Err(OptionError::NotABool { .. })
        ));
        assert!(matches!(
            parse_change("NoSuchThing", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        // The search's tunables are a second table: not options, checked the same way.
        assert!(matches!(
            parse_change("RfpMargin", Some("80")),
            Err(OptionError::Unknown(_))
        ));
        let (tunable, n) = parse_tunable_change("rfpmargin", Some(" 80 ")).unwrap();
        assert_eq!((tunable.name, n), ("RfpMargin", 80));
        assert!(matches!(
            parse_tunable_change("RfpMargin", Some("100000")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_tunable_change("RfpMargin", Some("wide")),
            Err(OptionError::NotANumber { .. })
        ));
        assert_eq!(
            parse_tunable_change("RfpMargin", None).unwrap_err(),
            OptionError::MissingValue("RfpMargin")
        );
        assert!(matches!(
            parse_tunable_change("Hash", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        // A file that cannot be used is refused by the setter, and nothing changes.
        let mut o = Options::new();
        for (name, value) in [
            ("EvalFile", "/no/such/escaque.nnue"),
            ("SyzygyPath", "/no/such/escaque/dir"),
        ] {
            let (spec, value) = parse_change(name, Some(value)).unwrap();
            let err = spec.set(&mut o, value).unwrap_err();
            assert!(err.starts_with(&format!("option '{name}': ")), "{err}");
            assert_eq!(o, Options::new());
        }
    }
}
