//! The UCI command parser: one input line in, one typed [`Command`] (or a [`ParseError`]) out.
//! Pure: it knows nothing of boards or options, so moves and FENs stay text here and are checked
//! by the controller against the current position.
//!
//! Tokens are split on any whitespace (`\r`, tabs, repeated spaces are fine). Unknown tokens
//! before the first command word are skipped, as the UCI text asks ("joho debug on" turns debug
//! on); a line with no command word at all is an unknown command.

use std::fmt;

use crate::search::Limits;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    Startpos,
    /// The FEN fields joined by single spaces (validated later).
    Fen(String),
}

/// A parsed `go` (other than `go perft`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub limits: Limits,
    /// The `searchmoves` list as text (`0000` entries mean "no move" and are dropped later).
    pub searchmoves: Vec<String>,
}

/// One UCI (or Stockfish-style convenience) command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    /// `setoption name <name> [value <value>]`; the name keeps its spelling (matched later,
    /// case-insensitively).
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    Position {
        start: StartPosition,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// `d`: print the board, FEN, key and checkers.
    Display,
    /// `go perft N`.
    Perft(u32),
    /// `eval`: the static evaluation with its terms.
    Eval,
    /// `bench [depth]`.
    Bench(Option<i32>),
    /// `help`.
    Help,
    /// Lines to ignore: empty, `#` comments, and the `xboard`/`protover` probe some GUIs send.
    Nothing,
}

/// Why a line was refused; the message names the problem for an `info string error:` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    UnknownCommand(String),
    /// A `go` keyword without its number, or with one that is not a number.
    BadGoValue {
        key: String,
        value: Option<String>,
    },
    UnknownGoToken(String),
    /// `position` must continue with `startpos` or `fen`.
    BadPositionStart(Option<String>),
    /// `position fen` with no fields.
    MissingFen,
    /// Something other than `moves` after the start position.
    ExpectedMoves(String),
    /// `setoption` without `name <id>`.
    SetOptionNoName,
    BadDebug(Option<String>),
    BadPerftDepth(Option<String>),
    BadBenchDepth(String),
}

/// Shortens user text for an error message (a 100 KB line must not come back whole).
pub fn excerpt(text: &str) -> String {
    const MAX: usize = 40;
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(MAX + 1)
        .collect();
    if clean.chars().count() > MAX {
        format!("{}...", clean.chars().take(MAX).collect::<String>())
    } else {
        clean
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand(c) => {
                write!(
                    f,
                    "unknown command '{}' (type help for the list)",
                    excerpt(c)
                )
            }
            ParseError::BadGoValue { key, value: None } => {
                write!(f, "go: '{key}' needs a number")
            }
            ParseError::BadGoValue {
                key,
                value: Some(v),
            } => {
                write!(f, "go: '{key}' needs a number, got '{}'", excerpt(v))
            }
            ParseError::UnknownGoToken(t) => write!(f, "go: unknown parameter '{}'", excerpt(t)),
            ParseError::BadPositionStart(None) => {
                write!(f, "position: expected 'startpos' or 'fen'")
            }
            ParseError::BadPositionStart(Some(t)) => {
                write!(
                    f,
                    "position: expected 'startpos' or 'fen', got '{}'",
                    excerpt(t)
                )
            }
            ParseError::MissingFen => write!(f, "position fen: the FEN is missing"),
            ParseError::ExpectedMoves(t) => {
                write!(f, "position: expected 'moves', got '{}'", excerpt(t))
            }
            ParseError::SetOptionNoName => write!(f, "setoption: expected 'name <option>'"),
            ParseError::BadDebug(None) => write!(f, "debug: expected 'on' or 'off'"),
            ParseError::BadDebug(Some(t)) => {
                write!(f, "debug: expected 'on' or 'off', got '{}'", excerpt(t))
            }
            ParseError::BadPerftDepth(None) => write!(f, "go perft: the depth is missing"),
            ParseError::BadPerftDepth(Some(t)) => {
                write!(
                    f,
                    "go perft: invalid depth '{}' (expected 0 to {})",
                    excerpt(t),
                    crate::perft::MAX_DEPTH
                )
            }
            ParseError::BadBenchDepth(t) => {
                write!(
                    f,
                    "bench: invalid depth '{}' (expected 1 to {})",
                    excerpt(t),
                    crate::bench::MAX_DEPTH
                )
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// The words that start a command. Anything else before one of these is skipped.
const COMMAND_WORDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "help",
    "xboard",
    "protover",
];

impl std::str::FromStr for Command {
    type Err = ParseError;
    fn from_str(line: &str) -> Result<Command, ParseError> {
        parse(line)
    }
}

/// Parses one input line.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = tokens.first() else {
        return Ok(Command::Nothing);
    };
    if first.starts_with('#') {
        return Ok(Command::Nothing);
    }
    let Some(start) = tokens.iter().position(|t| COMMAND_WORDS.contains(t)) else {
        return Err(ParseError::UnknownCommand(first.to_string()));
    };
    let args = &tokens[start + 1..];
    Ok(match tokens[start] {
        "uci" => Command::Uci,
        "debug" => match args.first().copied() {
            Some("on") => Command::Debug(true),
            Some("off") => Command::Debug(false),
            other => return Err(ParseError::BadDebug(other.map(str::to_string))),
        },
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(args)?,
        "register" => Command::Register,
        "ucinewgame" => Command::UciNewGame,
        "position" => parse_position(args)?,
        "go" => parse_go(args)?,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => match args.first() {
            None => Command::Bench(None),
            Some(t) => match parse_unsigned::<i32>(t) {
                Some(d) if (1..=crate::bench::MAX_DEPTH).contains(&d) => Command::Bench(Some(d)),
                _ => return Err(ParseError::BadBenchDepth(t.to_string())),
            },
        },
        "help" => Command::Help,
        _ => Command::Nothing, // xboard, protover
    })
}

fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    let name_at = args
        .iter()
        .position(|t| t.eq_ignore_ascii_case("name"))
        .ok_or(ParseError::SetOptionNoName)?;
    let rest = &args[name_at + 1..];
    let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(v) => (&rest[..v], Some(rest[v + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(ParseError::SetOptionNoName);
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    let (start, rest) = match args.first().copied() {
        Some("startpos") => (StartPosition::Startpos, &args[1..]),
        Some("fen") => {
            let end = args
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(args.len());
            if end == 1 {
                return Err(ParseError::MissingFen);
            }
            (StartPosition::Fen(args[1..end].join(" ")), &args[end..])
        }
        other => return Err(ParseError::BadPositionStart(other.map(str::to_string))),
    };
    let moves = match rest.first() {
        None => Vec::new(),
        Some(&"moves") => rest[1..].iter().map(|m| m.to_string()).collect(),
        Some(other) => return Err(ParseError::ExpectedMoves(other.to_string())),
    };
    Ok(Command::Position { start, moves })
}

/// Whether `token` looks like a UCI move (`e2e4`, `e7e8q`, `0000`), for `searchmoves`.
fn looks_like_move(token: &str) -> bool {
    let b = token.as_bytes();
    let square = |f: u8, r: u8| {
        (b'a'..=b'h').contains(&f.to_ascii_lowercase()) && (b'1'..=b'8').contains(&r)
    };
    token == "0000"
        || ((b.len() == 4 || b.len() == 5)
            && square(b[0], b[1])
            && square(b[2], b[3])
            && (b.len() == 4 || b"nbrqNBRQ".contains(&b[4])))
}

/// An unsigned number written as ASCII digits only: `+3`, `-0`, ` 3` and the empty string are
/// refused (Rust's `parse` accepts a leading `+`).
pub fn parse_unsigned<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A signed integer clamped into `0..=u64::MAX` (GUIs send `btime -78`); huge values saturate.
fn parse_clamped(key: &str, value: Option<&&str>) -> Result<u64, ParseError> {
    let bad = || ParseError::BadGoValue {
        key: key.to_string(),
        value: value.map(|v| v.to_string()),
    };
    let text = value.ok_or_else(bad)?;
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    if text.starts_with('-') {
        return Ok(0);
    }
    Ok(digits.parse::<u64>().unwrap_or(u64::MAX))
}

fn parse_go(args: &[&str]) -> Result<Command, ParseError> {
    if args.first() == Some(&"perft") {
        return match args.get(1) {
            None => Err(ParseError::BadPerftDepth(None)),
            Some(t) => match parse_unsigned::<u32>(t) {
                Some(d) if d <= crate::perft::MAX_DEPTH => Ok(Command::Perft(d)),
                _ => Err(ParseError::BadPerftDepth(Some(t.to_string()))),
            },
        };
    }
    let mut go = Go::default();
    let limits = &mut go.limits;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let value = args.get(i + 1);
        let to_i32 = |v: u64| i32::try_from(v).unwrap_or(i32::MAX);
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                let count = args[i + 1..]
                    .iter()
                    .take_while(|t| looks_like_move(t))
                    .count();
                go.searchmoves
                    .extend(args[i + 1..i + 1 + count].iter().map(|m| m.to_string()));
                i += count;
            }
            "wtime" => limits.wtime = Some(parse_clamped(key, value)?),
            "btime" => limits.btime = Some(parse_clamped(key, value)?),
            "winc" => limits.winc = Some(parse_clamped(key, value)?),
            "binc" => limits.binc = Some(parse_clamped(key, value)?),
            "movetime" => limits.movetime = Some(parse_clamped(key, value)?),
            "nodes" => limits.nodes = Some(parse_clamped(key, value)?),
            "movestogo" => {
                let mtg = parse_clamped(key, value)?;
                limits.movestogo = (mtg > 0).then(|| u32::try_from(mtg).unwrap_or(u32::MAX));
            }
            "depth" => limits.depth = Some(to_i32(parse_clamped(key, value)?).max(1)),
            "mate" => limits.mate = Some(to_i32(parse_clamped(key, value)?).max(1)),
            other => return Err(ParseError::UnknownGoToken(other.to_string())),
        }
        if !matches!(key, "infinite" | "ponder" | "searchmoves") {
            i += 1;
        }
        i += 1;
    }
    Ok(Command::Go(go))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Go {
        match parse(line) {
            Ok(Command::Go(go)) => go,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(parse("isready\r"), Ok(Command::IsReady));
        assert_eq!(parse("  \t isready  "), Ok(Command::IsReady));
        assert_eq!(parse("ucinewgame"), Ok(Command::UciNewGame));
        assert_eq!(parse("stop"), Ok(Command::Stop));
        assert_eq!(parse("ponderhit"), Ok(Command::PonderHit));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(parse("d"), Ok(Command::Display));
        assert_eq!(parse("eval"), Ok(Command::Eval));
        assert_eq!(parse("help"), Ok(Command::Help));
        assert_eq!(parse("register later"), Ok(Command::Register));
        assert_eq!(parse("register name x code y"), Ok(Command::Register));
        assert_eq!(parse("debug on"), Ok(Command::Debug(true)));
        assert_eq!(parse("debug off"), Ok(Command::Debug(false)));
        assert!(parse("debug maybe").is_err());
    }

    #[test]
    fn ignorable_lines() {
        assert_eq!(parse(""), Ok(Command::Nothing));
        assert_eq!(parse("   \r"), Ok(Command::Nothing));
        assert_eq!(parse("# a comment"), Ok(Command::Nothing));
        assert_eq!(parse("xboard"), Ok(Command::Nothing));
        assert_eq!(parse("protover 2"), Ok(Command::Nothing));
    }

    #[test]
    fn skips_unknown_leading_tokens() {
        assert_eq!(parse("joho debug on"), Ok(Command::Debug(true)));
        assert_eq!(parse("foo bar isready"), Ok(Command::IsReady));
    }

    #[test]
    fn unknown_commands() {
        assert_eq!(
            parse("hello world"),
            Err(ParseError::UnknownCommand("hello".into()))
        );
        assert!(matches!(
            parse("\u{fffd}\u{fffd}"),
            Err(ParseError::UnknownCommand(_))
        ));
        let long = "x".repeat(100_000);
        let err = parse(&long).unwrap_err().to_string();
        assert!(err.len() < 120, "{err}");
    }

    #[test]
    fn setoption() {
        assert_eq!(
            parse("setoption name Hash value 128"),
            Ok(Command::SetOption {
                name: "Hash".into(),
                value: Some("128".into())
            })
        );
        assert_eq!(
            parse("setoption   name Move  Overhead\tvalue 30\r"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption NAME SyzygyPath VALUE C:\\tb;D:\\more tb"),
            Ok(Command::SetOption {
                name: "SyzygyPath".into(),
                value: Some("C:\\tb;D:\\more tb".into())
            })
        );
        assert_eq!(
            parse("setoption name Foo value"),
            Ok(Command::SetOption {
                name: "Foo".into(),
                value: Some(String::new())
            })
        );
        assert_eq!(parse("setoption"), Err(ParseError::SetOptionNoName));
        assert_eq!(parse("setoption name"), Err(ParseError::SetOptionNoName));
        assert_eq!(
            parse("setoption name value 3"),
            Err(ParseError::SetOptionNoName)
        );
    }

    #[test]
    fn position() {
        assert_eq!(
            parse("position startpos"),
            Ok(Command::Position {
                start: StartPosition::Startpos,
                moves: vec![]
            })
        );
        assert_eq!(
            parse("position startpos moves"),
            Ok(Command::Position {
                start: StartPosition::Startpos,
                moves: vec![]
            })
        );
        assert_eq!(
            parse("position startpos moves e2e4  e7e5\r"),
            Ok(Command::Position {
                start: StartPosition::Startpos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - -  moves a1a2"),
            Ok(Command::Position {
                start: StartPosition::Fen("8/8/8/8/8/8/8/K6k w - -".into()),
                moves: vec!["a1a2".into()]
            })
        );
        assert_eq!(parse("position"), Err(ParseError::BadPositionStart(None)));
        assert_eq!(parse("position fen"), Err(ParseError::MissingFen));
        assert_eq!(
            parse("position fen moves e2e4"),
            Err(ParseError::MissingFen)
        );
        assert!(matches!(
            parse("position start"),
            Err(ParseError::BadPositionStart(Some(_)))
        ));
        assert!(matches!(
            parse("position startpos e2e4"),
            Err(ParseError::ExpectedMoves(_))
        ));
    }

    #[test]
    fn go_parameters_in_any_order() {
        let g = go("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
        let l = &g.limits;
        assert_eq!(
            (l.wtime, l.btime, l.winc, l.binc, l.movestogo),
            (Some(1000), Some(2000), Some(10), Some(20), Some(5))
        );
        let g = go("go movestogo 5 binc 20 winc 10 btime 2000 wtime 1000");
        assert_eq!(g.limits, l.clone());
        let g = go("go depth 7 nodes 5000 mate 3 movetime 100");
        let l = &g.limits;
        assert_eq!(
            (l.depth, l.nodes, l.mate, l.movetime),
            (Some(7), Some(5000), Some(3), Some(100))
        );
        assert_eq!(go("go").limits, Limits::default());
        assert!(go("go infinite").limits.infinite);
        let g = go("go ponder wtime 5 btime 5");
        assert!(g.limits.ponder && !g.limits.infinite);
    }

    #[test]
    fn go_clamps_negative_and_huge_values() {
        let g = go("go wtime -78 btime -1 movestogo -3 depth -2 winc +5");
        let l = &g.limits;
        assert_eq!(
            (l.wtime, l.btime, l.movestogo, l.depth, l.winc),
            (Some(0), Some(0), None, Some(1), Some(5))
        );
        let g = go("go nodes 99999999999999999999999 depth 99999999999");
        assert_eq!(
            (g.limits.nodes, g.limits.depth),
            (Some(u64::MAX), Some(i32::MAX))
        );
    }

    #[test]
    fn go_rejects_missing_and_non_numeric_values() {
        assert_eq!(
            parse("go wtime"),
            Err(ParseError::BadGoValue {
                key: "wtime".into(),
                value: None
            })
        );
        assert_eq!(
            parse("go depth abc"),
            Err(ParseError::BadGoValue {
                key: "depth".into(),
                value: Some("abc".into())
            })
        );
        assert!(parse("go movetime 1.5").is_err());
        assert!(parse("go movetime -").is_err());
        assert!(parse("go wtime btime 100").is_err());
        assert_eq!(
            parse("go sideways"),
            Err(ParseError::UnknownGoToken("sideways".into()))
        );
    }

    #[test]
    fn searchmoves_are_greedy() {
        let g = go("go searchmoves e2e4 d2d4 g1f3 depth 3");
        assert_eq!(g.searchmoves, ["e2e4", "d2d4", "g1f3"]);
        assert_eq!(g.limits.depth, Some(3));
        let g = go("go depth 2 searchmoves a7a8Q 0000");
        assert_eq!(g.searchmoves, ["a7a8Q", "0000"]);
        let g = go("go searchmoves infinite");
        assert!(g.searchmoves.is_empty() && g.limits.infinite);
    }

    #[test]
    fn perft() {
        assert_eq!(parse("go perft 3"), Ok(Command::Perft(3)));
        assert_eq!(parse("go perft 0"), Ok(Command::Perft(0)));
        assert_eq!(parse("go perft"), Err(ParseError::BadPerftDepth(None)));
        assert!(parse("go perft x").is_err());
        assert!(parse("go perft 21").is_err());
        // Digits only: a sign is not a number here.
        for bad in ["+3", "-0", "3x", "0x3"] {
            assert!(parse(&format!("go perft {bad}")).is_err(), "{bad}");
            assert!(parse(&format!("bench {bad}")).is_err(), "{bad}");
        }
        assert_eq!(parse_unsigned::<u32>("007"), Some(7));
        assert_eq!(parse_unsigned::<u32>("+7"), None);
        assert_eq!(parse_unsigned::<u8>("256"), None);
    }

    #[test]
    fn bench() {
        assert_eq!(parse("bench"), Ok(Command::Bench(None)));
        assert_eq!(parse("bench 5"), Ok(Command::Bench(Some(5))));
        assert!(parse("bench x").is_err());
    }
}
