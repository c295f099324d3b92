//! A fuzzer for the two parsers that read untrusted text: the FEN parser ([`fen`]) and the UCI
//! front end ([`uci`]). It runs on the stable toolchain with no extra crate: inputs come from
//! hand-written generators (mutated real inputs, grammar-aware random ones, plain garbage) driven
//! by a seeded PRNG, and every input is checked against invariants, not only for panics.
//!
//! Each case has its own seed derived from the campaign seed and the case number, so a failure
//! is replayed alone with `--seed S --first-case N --cases 1` (`escaque fuzz`). A panic, in
//! the fuzzing thread or in one the engine started, is reported with the seed and the input: a
//! panic hook prints them (the release profile aborts on panic, so the hook is the only chance)
//! and, where panics unwind, the driver catches it and records a [`Failure`].
//!
//! This module tests the rules and the UCI controller from outside; nothing else imports it.

pub mod cli;
pub mod fen;
pub mod uci;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use crate::random::splitmix64;

/// The fuzzer's generator: a case's inputs depend only on its seed.
pub use crate::random::Rng;

/// The seed of case `case` of a campaign with seed `seed`.
pub fn case_seed(seed: u64, case: u64) -> u64 {
    let mut state = seed ^ case.wrapping_mul(0xD1B5_4A32_D192_ED03);
    splitmix64(&mut state)
}

/// Which parser a campaign fuzzes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Fen,
    Uci,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Fen => "fen",
            Target::Uci => "uci",
        }
    }
}

/// What a campaign runs: cases `first_case..first_case + cases` of `seed`, stopping early at
/// `time_limit` if one is given.
#[derive(Clone, Debug)]
pub struct Config {
    pub seed: u64,
    pub first_case: u64,
    pub cases: u64,
    pub time_limit: Option<Duration>,
    /// Stop after this many failures (the first few say all there is to say).
    pub max_failures: usize,
}

impl Config {
    pub fn new(seed: u64, cases: u64) -> Config {
        Config {
            seed,
            first_case: 0,
            cases,
            time_limit: None,
            max_failures: 10,
        }
    }
}

/// One broken invariant or panic, with what it takes to replay it.
#[derive(Clone, Debug)]
pub struct Failure {
    pub seed: u64,
    pub case: u64,
    /// The input: a FEN, or the UCI lines of the case up to and including the failing one.
    pub input: String,
    pub problem: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seed {} case {}: {}\ninput:\n{}",
            self.seed,
            self.case,
            self.problem,
            self.input.escape_debug()
        )
    }
}

/// The result of a campaign.
#[derive(Clone, Debug)]
pub struct Summary {
    pub target: Target,
    pub seed: u64,
    /// Cases run (a FEN case is one input; a UCI case is one session of several lines).
    pub cases: u64,
    /// Inputs given to the parser: FENs, or UCI lines (the `isready` probes not counted).
    pub inputs: u64,
    /// FENs the parser accepted, or UCI lines answered without an error line.
    pub accepted: u64,
    pub panics: u64,
    pub failures: Vec<Failure>,
    pub elapsed: Duration,
}

impl Summary {
    fn new(target: Target, seed: u64) -> Summary {
        Summary {
            target,
            seed,
            cases: 0,
            inputs: 0,
            accepted: 0,
            panics: 0,
            failures: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }

    pub fn passed(&self) -> bool {
        self.panics == 0 && self.failures.is_empty()
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let broken = self.failures.len() as u64 - self.panics.min(self.failures.len() as u64);
        write!(
            f,
            "fuzz {}: {} inputs, {} panics, {} invariant failures, {} accepted ({} cases, seed {}, {:.1} s)",
            self.target.name(),
            self.inputs,
            self.panics,
            broken,
            self.accepted,
            self.cases,
            self.seed,
            self.elapsed.as_secs_f64()
        )
    }
}

/// Runs a campaign on `target`.
pub fn run(target: Target, config: &Config) -> Summary {
    match target {
        Target::Fen => fen::run(config),
        Target::Uci => uci::run(config),
    }
}

/// The loop shared by both targets: runs `case` for each case seed, turning a panic on this
/// thread into a [`Failure`]. `case` returns the inputs it used, how many were accepted, and the
/// failure it found, if any.
fn run_cases(
    target: Target,
    config: &Config,
    mut case: impl FnMut(u64, &mut Rng) -> CaseResult,
) -> Summary {
    install_panic_hook();
    let start = Instant::now();
    let mut summary = Summary::new(target, config.seed);
    for n in config.first_case..config.first_case.saturating_add(config.cases) {
        if config
            .time_limit
            .is_some_and(|limit| start.elapsed() >= limit)
            || summary.failures.len() >= config.max_failures
        {
            break;
        }
        let mut rng = Rng::new(case_seed(config.seed, n));
        let panics_before = panic_count();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| case(n, &mut rng)));
        // The hook counts panics on every thread, the engine's included: a search thread that
        // panicked may show only as a missing answer, or not at all.
        let panicked = panic_count() != panics_before;
        summary.cases += 1;
        let (input, problem) = match outcome {
            Ok(result) => {
                summary.inputs += result.inputs;
                summary.accepted += result.accepted;
                match result.problem {
                    Some(p) if panicked => (p.input, format!("a thread panicked; {}", p.message)),
                    Some(p) => (p.input, p.message),
                    None if panicked => (
                        context(target).unwrap_or_default(),
                        "a thread panicked during this case".to_string(),
                    ),
                    None => (String::new(), String::new()),
                }
            }
            Err(payload) => {
                summary.inputs += 1;
                (
                    context(target).unwrap_or_default(),
                    format!("panic: {}", panic_message(payload.as_ref())),
                )
            }
        };
        if !problem.is_empty() {
            summary.panics += u64::from(panicked);
            summary.failures.push(Failure {
                seed: config.seed,
                case: n,
                input,
                problem,
            });
        }
        set_context(target, None);
    }
    summary.elapsed = start.elapsed();
    summary
}

/// What one case did.
#[derive(Default)]
struct CaseResult {
    inputs: u64,
    accepted: u64,
    problem: Option<Problem>,
}

/// A broken invariant: the input that broke it and what broke.
struct Problem {
    input: String,
    message: String,
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-text payload)".to_string()
    }
}

/// Panics seen by the hook since the process started, on any thread.
static PANICS: AtomicU64 = AtomicU64::new(0);

/// The input each target is running, for the panic hook: `[fen, uci]`.
static CONTEXT: Mutex<[Option<String>; 2]> = Mutex::new([None, None]);

fn panic_count() -> u64 {
    PANICS.load(Ordering::SeqCst)
}

/// Records the input `target` is about to run (`None`: nothing running).
fn set_context(target: Target, input: Option<String>) {
    let mut context = CONTEXT.lock().unwrap_or_else(|e| e.into_inner());
    context[target as usize] = input;
}

fn context(target: Target) -> Option<String> {
    CONTEXT.lock().unwrap_or_else(|e| e.into_inner())[target as usize].clone()
}

/// Installs (once) a hook that counts panics and prints the running inputs before the usual
/// message: under `panic = "abort"` nothing after the hook runs.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            // try_lock: a panic while the context is being set must not deadlock here.
            if let Ok(context) = CONTEXT.try_lock() {
                for (target, input) in [Target::Fen, Target::Uci].iter().zip(context.iter()) {
                    if let Some(input) = input {
                        report_err!(
                            "fuzz {}: panic while running:\n{}",
                            target.name(),
                            input.escape_debug()
                        );
                    }
                }
            }
            previous(info);
        }));
    });
}

/// Characters inserted by the mutators: the FEN and UCI alphabets, digits, separators, and
/// non-ASCII text of several widths (the parsers slice strings by bytes in places).
const CHARS: &[char] = &[
    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', 'a', 'c', 'd', 'e', 'f', 'g', 'h',
    'A', 'C', 'D', 'E', 'F', 'G', 'H', 'w', 'x', 'o', 'O', '0', '1', '2', '3', '4', '5', '6', '7',
    '8', '9', '/', ' ', ' ', '-', '+', '.', '#', '\t', '\r', '\n', '\0', '\u{7f}', 'é', 'ß', 'Ω',
    '♔', 'ｋ', '٣', '３', '\u{200b}', '\u{feff}', '\u{fffd}', '😀',
];

/// Numbers the mutators and generators put where numbers go: boundaries of every integer type
/// the parsers use, the values of issue 13, signs, and things that only look like numbers.
pub const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "8",
    "9",
    "10",
    "20",
    "21",
    "63",
    "64",
    "65",
    "100",
    "255",
    "256",
    "1000",
    "5000",
    "5001",
    "32767",
    "32768",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "7378697629483820658",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "-1",
    "-0",
    "+3",
    "-78",
    "-2147483648",
    "-9223372036854775808",
    "-18446744073709551616",
    "00",
    "007",
    "1e3",
    "0x10",
    "3.5",
    "٣",
    "３",
    "",
];

/// Applies one random edit to `text`: a character or span deleted, inserted, replaced, swapped
/// or duplicated, a space-separated token deleted, duplicated, swapped or replaced (by one of
/// `tokens` or a number), or a digit run replaced by an extreme number.
pub fn mutate(rng: &mut Rng, text: &str, tokens: &[&str]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    match rng.below(12) {
        0 if n > 0 => {
            chars.remove(rng.below(n));
        }
        1 => chars.insert(rng.below(n + 1), *rng.pick(CHARS)),
        2 if n > 0 => chars[rng.below(n)] = *rng.pick(CHARS),
        3 if n > 1 => {
            let i = rng.below(n - 1);
            chars.swap(i, i + 1 + rng.below(n - i - 1));
        }
        4 if n > 0 => {
            let start = rng.below(n);
            let end = (start + 1 + rng.below(8)).min(n);
            let span: Vec<char> = chars[start..end].to_vec();
            let at = rng.below(n + 1);
            chars.splice(at..at, span);
        }
        5 if n > 0 => {
            let start = rng.below(n);
            let end = (start + 1 + rng.below(8)).min(n);
            chars.drain(start..end);
        }
        6 if n > 0 => {
            let i = rng.below(n);
            chars[i] = if chars[i].is_ascii_uppercase() {
                chars[i].to_ascii_lowercase()
            } else {
                chars[i].to_ascii_uppercase()
            };
        }
        7 => {
            // A run of digits becomes an extreme number.
            let runs: Vec<usize> = (0..n)
                .filter(|&i| {
                    chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_digit())
                })
                .collect();
            if runs.is_empty() {
                chars.insert(rng.below(n + 1), '9');
            } else {
                let start = *rng.pick(&runs);
                let end = (start..n)
                    .find(|&i| !chars[i].is_ascii_digit())
                    .unwrap_or(n);
                chars.splice(start..end, rng.pick(NUMBERS).chars());
            }
        }
        op => return mutate_tokens(rng, text, tokens, op),
    }
    chars.into_iter().collect()
}

/// Token-level edits of [`mutate`] (also its fallback when a character edit does not apply).
fn mutate_tokens(rng: &mut Rng, text: &str, tokens: &[&str], op: usize) -> String {
    let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
    let n = words.len();
    let fresh = |rng: &mut Rng| -> String {
        if rng.one_in(3) {
            rng.pick(NUMBERS).to_string()
        } else {
            rng.pick(tokens).to_string()
        }
    };
    match op % 5 {
        0 => {
            words.remove(rng.below(n));
        }
        1 => {
            let i = rng.below(n);
            let copy = words[i].clone();
            words.insert(i, copy);
        }
        2 if n > 1 => {
            let (i, j) = (rng.below(n), rng.below(n));
            words.swap(i, j);
        }
        3 => {
            let i = rng.below(n);
            words[i] = fresh(rng);
        }
        _ => {
            let word = fresh(rng);
            words.insert(rng.below(n + 1), word);
        }
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The panic counter is process-wide: tests that make panics run one at a time.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn serial() -> std::sync::MutexGuard<'static, ()> {
        SERIAL.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The harness itself: a panic is caught, counted, and reported with the seed, the case
    /// and the input being run; the cases after it still run.
    #[test]
    fn a_panic_is_reported_with_its_seed_case_and_input() {
        let _serial = serial();
        let config = Config::new(77, 6);
        let summary = run_cases(Target::Fen, &config, |case, rng| {
            let input = format!("input {case} {}", rng.next_u64());
            set_context(Target::Fen, Some(input.clone()));
            if case == 3 {
                panic!("boom at {input}");
            }
            CaseResult {
                inputs: 1,
                accepted: 1,
                problem: None,
            }
        });
        assert_eq!((summary.cases, summary.inputs, summary.panics), (6, 6, 1));
        let [failure] = &summary.failures[..] else {
            panic!("{:?}", summary.failures);
        };
        let expected = format!("input 3 {}", Rng::new(case_seed(77, 3)).next_u64());
        assert_eq!((failure.seed, failure.case), (77, 3));
        assert_eq!(failure.input, expected);
        assert_eq!(failure.problem, format!("panic: boom at {expected}"));
        assert!(!summary.passed());
        assert!(summary
            .to_string()
            .starts_with("fuzz fen: 6 inputs, 1 panics, 0 invariant"));
    }

    /// A panic on a thread the case started (as the engine's search threads are) is counted
    /// against that case even though the case itself returned normally.
    #[test]
    fn a_panic_on_another_thread_is_counted() {
        let _serial = serial();
        let summary = run_cases(Target::Uci, &Config::new(5, 3), |case, _| {
            set_context(Target::Uci, Some(format!("lines of case {case}")));
            if case == 1 {
                let _ = std::thread::spawn(|| panic!("search thread")).join();
            }
            CaseResult::default()
        });
        assert_eq!(summary.panics, 1);
        assert_eq!(summary.failures.len(), 1);
        assert_eq!(summary.failures[0].case, 1);
        assert_eq!(summary.failures[0].input, "lines of case 1");
    }

    /// Invariant failures are reported, and the campaign stops after `max_failures`.
    #[test]
    fn failures_are_reported_and_cap_the_campaign() {
        let _serial = serial();
        let config = Config {
            max_failures: 2,
            ..Config::new(1, 100)
        };
        let summary = run_cases(Target::Fen, &config, |case, _| CaseResult {
            inputs: 1,
            accepted: 0,
            problem: (case % 2 == 1).then(|| Problem {
                input: format!("fen {case}"),
                message: "broken".to_string(),
            }),
        });
        assert_eq!(summary.cases, 4);
        assert_eq!(summary.panics, 0);
        let cases: Vec<u64> = summary.failures.iter().map(|f| f.case).collect();
        assert_eq!(cases, [1, 3]);
        assert!(summary
            .to_string()
            .contains("0 panics, 2 invariant failures"));
    }

    /// A case is replayed alone from its seed and number.
    #[test]
    fn cases_replay_from_seed_and_number() {
        let all: Vec<String> = (0..20)
            .map(|n| fen::generate(&mut Rng::new(case_seed(9, n))))
            .collect();
        assert_eq!(fen::generate(&mut Rng::new(case_seed(9, 13))), all[13]);
        assert_ne!(all[12], all[13]);
    }

    #[test]
    fn mutations_change_the_text() {
        let mut rng = Rng::new(3);
        let mut changed = 0;
        for _ in 0..2000 {
            let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
            let edited = mutate(&mut rng, text, &["x"]);
            changed += usize::from(edited != text);
        }
        assert!(changed > 1800, "{changed}");
    }
}
