//! Another UCI engine run as a child process, for `perft --against`: the handshake and its
//! `go perft` divide, every reply awaited with a deadline so a silent or misbehaving engine is
//! reported, never waited on forever. The child is killed when the [`Engine`] is dropped.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Unrecognised lines quoted in an error message, at most: enough to show the engine's format.
const QUOTED_LINES: usize = 5;

/// When a wait ends, and how long it was allowed (for messages).
#[derive(Clone, Copy)]
struct Deadline {
    at: Instant,
    limit: Duration,
}

/// The longest wait: far beyond any perft, and small enough that adding it to now cannot overflow.
const LONGEST_WAIT: Duration = Duration::from_secs(100_000_000);

impl Deadline {
    fn after(limit: Duration) -> Deadline {
        let limit = limit.min(LONGEST_WAIT);
        Deadline {
            at: Instant::now() + limit,
            limit,
        }
    }
}

/// A divide as the other engine printed it: `(move text, nodes)` in its order, and its total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawDivide {
    pub moves: Vec<(String, u64)>,
    pub total: u64,
}

/// A running UCI engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// Lines of its stdout, read on a thread of their own so every wait can have a deadline.
    lines: Receiver<String>,
    /// The command line, for messages.
    command: String,
    /// `id name`, or the program when the engine gives none.
    pub name: String,
    /// The names of the options it advertised.
    pub options: Vec<String>,
}

/// Splits a command line into program and arguments as a shell would in simple cases:
/// whitespace separates words, single quotes keep everything literally, double quotes keep
/// spaces (a backslash escapes `"` and `\` inside them), and a backslash outside quotes escapes
/// the next character. No variables, globs or redirections.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err(format!("unterminated ' in '{line}'")),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err(format!("unterminated \" in '{line}'")),
                        },
                        Some(c) => w.push(c),
                        None => return Err(format!("unterminated \" in '{line}'")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(format!("trailing \\ in '{line}'")),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    if words.is_empty() {
        return Err("the engine command is empty".to_string());
    }
    Ok(words)
}

/// One line of a divide: `e2e4: 20` (Stockfish's format) gives `("e2e4", 20)`. The move must
/// look like a UCI move (promotion letters in either case, returned lower-case).
pub fn parse_divide_line(line: &str) -> Option<(String, u64)> {
    let (mv, count) = line.trim().split_once(':')?;
    let mv = mv.trim();
    let b = mv.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    let well_formed = matches!(b.len(), 4 | 5)
        && square(b[0], b[1])
        && square(b[2], b[3])
        && (b.len() == 4 || b"qrbnQRBN".contains(&b[4]));
    if !well_formed {
        return None;
    }
    Some((mv.to_ascii_lowercase(), count.trim().parse().ok()?))
}

/// The total of a divide: `Nodes searched: N`.
fn parse_total(line: &str) -> Option<u64> {
    let (label, count) = line.trim().split_once(':')?;
    if !label.trim().eq_ignore_ascii_case("nodes searched") {
        return None;
    }
    count.trim().parse().ok()
}

/// Whether a line says the engine did something other than a perft with `go perft`: refused it
/// (Stockfish's `Unknown command: ...`, escaque's `info string error: ...`) or searched instead
/// (a `bestmove`, or an `info` line with a principal variation).
fn refuses_perft(line: &str) -> bool {
    let lower = line.trim().to_ascii_lowercase();
    lower.contains("unknown command")
        || lower.starts_with("error")
        || lower.starts_with("info string error")
        || lower.starts_with("bestmove")
        || (lower.starts_with("info ") && lower.contains(" pv "))
}

impl Engine {
    /// Starts `command` (see [`split_command`]) and completes the UCI handshake: `uci` answered by
    /// `uciok` within `timeout`, its name and options noted.
    pub fn start(command: &str, timeout: Duration) -> Result<Engine, String> {
        let argv = split_command(command)?;
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // Its own complaints (a missing network file, say) are worth seeing as they are.
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start '{command}': {e}"))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, stdout),
            _ => {
                // Cannot happen with piped handles; the child must not outlive us regardless.
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("cannot talk to '{command}': no pipes"));
            }
        };
        let (sender, lines) = mpsc::channel();
        // Ends at the engine's end of output or when nobody listens any more.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let program = std::path::Path::new(&argv[0])
            .file_name()
            .map_or(argv[0].clone(), |n| n.to_string_lossy().into_owned());
        let mut engine = Engine {
            child,
            stdin,
            lines,
            command: command.to_string(),
            name: program,
            options: Vec::new(),
        };
        engine.handshake(timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), String> {
        self.send("uci")?;
        let deadline = Deadline::after(timeout);
        loop {
            let line = self.next_line(deadline, "uciok after uci (is it a UCI engine?)")?;
            if line.trim() == "uciok" {
                return Ok(());
            }
            if let Some(name) = line.trim().strip_prefix("id name ") {
                self.name = name.trim().to_string();
            } else if let Some(rest) = line.trim().strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest);
                self.options.push(name.trim().to_string());
            }
        }
    }

    /// Whether the engine advertised option `name` (case-insensitive, as UCI option names are).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Sends one command line.
    pub fn send(&mut self, command: &str) -> Result<(), String> {
        let sent = writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush());
        sent.map_err(|e| {
            let exit = self.exit();
            format!(
                "{} ('{}') stopped reading commands at '{command}' ({e}){exit}",
                self.name, self.command
            )
        })
    }

    /// `isready`, answered by `readyok` within `timeout`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), String> {
        self.send("isready")?;
        let deadline = Deadline::after(timeout);
        while self.next_line(deadline, "readyok after isready")?.trim() != "readyok" {}
        Ok(())
    }

    /// `position <position>` then `go perft <depth>`, and the divide it prints, which must end
    /// with `Nodes searched:` within `limit`.
    pub fn divide(
        &mut self,
        position: &str,
        depth: u32,
        limit: Duration,
    ) -> Result<RawDivide, String> {
        let deadline = Deadline::after(limit);
        self.send(&format!("position {position}"))?;
        let go = format!("go perft {depth}");
        self.send(&go)?;
        let mut moves: Vec<(String, u64)> = Vec::new();
        let mut other = Vec::new();
        let waited_for = format!(
            "the answer to '{go}' (a divide ending in 'Nodes searched: N', as Stockfish's)"
        );
        let total = loop {
            let line = self
                .next_line(deadline, &waited_for)
                .map_err(|e| format!("{e}{}", quoted(&other)))?;
            if let Some((mv, count)) = parse_divide_line(&line) {
                if moves.iter().any(|(m, _)| *m == mv) {
                    return Err(format!("{}: '{go}' lists {mv} twice", self.name));
                }
                moves.push((mv, count));
            } else if let Some(total) = parse_total(&line) {
                break total;
            } else if refuses_perft(&line) {
                // A search started by a `go` it misread must not run on while we report.
                let _ = self.send("stop");
                return Err(format!(
                    "{} does not support '{go}': it answered '{}'",
                    self.name,
                    line.trim()
                ));
            } else if !line.trim().is_empty() && !line.starts_with("info") {
                other.push(line);
            }
        };
        let sum: u64 = moves.iter().map(|(_, n)| n).sum();
        if moves.is_empty() && total > 0 || !moves.is_empty() && sum != total {
            return Err(format!(
                "{}: cannot read the answer to '{go}': its move lines sum to {sum} but it says \
                 'Nodes searched: {total}'{}",
                self.name,
                quoted(&other)
            ));
        }
        Ok(RawDivide { moves, total })
    }

    /// The next line of output, or why there is none before `deadline`.
    fn next_line(&mut self, deadline: Deadline, waited_for: &str) -> Result<String, String> {
        let left = deadline.at.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "{} ('{}') did not send {waited_for} within {:.1} s",
                self.name,
                self.command,
                deadline.limit.as_secs_f64()
            )),
            Err(RecvTimeoutError::Disconnected) => {
                let exit = self.exit();
                Err(format!(
                    "{} ('{}') closed its output before {waited_for}{exit}",
                    self.name, self.command
                ))
            }
        }
    }

    /// `: it exited with ...` once the child has ended, for messages.
    fn exit(&mut self) -> String {
        // A child that just closed its output may need a moment to be reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!(" (it exited: {status})");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        String::new()
    }
}

/// `; it printed: a | b` for unrecognised output, if any.
fn quoted(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let shown: Vec<&str> = lines.iter().take(QUOTED_LINES).map(|l| l.trim()).collect();
    let more = if lines.len() > QUOTED_LINES {
        " | ..."
    } else {
        ""
    };
    format!("; it printed: {}{more}", shown.join(" | "))
}

impl Drop for Engine {
    /// Asks the engine to quit, then kills it: a perft it is still running (after an error or a
    /// timeout) must not go on using the CPU after we exit.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        let split = |s: &str| split_command(s).unwrap();
        assert_eq!(split("stockfish"), ["stockfish"]);
        assert_eq!(split("  /usr/games/stockfish  "), ["/usr/games/stockfish"]);
        assert_eq!(
            split("python3 fake.py --mode x"),
            ["python3", "fake.py", "--mode", "x"]
        );
        assert_eq!(split("'/a b/engine' arg"), ["/a b/engine", "arg"]);
        assert_eq!(split(r#""/a b/e\"x" y"#), ["/a b/e\"x", "y"]);
        assert_eq!(split(r"/a\ b/engine"), ["/a b/engine"]);
        assert_eq!(split("x ''"), ["x", ""]);
        for bad in ["", "   ", "'open", "\"open", "trailing\\"] {
            assert!(split_command(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn reads_stockfish_divide_lines() {
        assert_eq!(parse_divide_line("e2e4: 20"), Some(("e2e4".into(), 20)));
        assert_eq!(parse_divide_line("a7a8Q:1"), Some(("a7a8q".into(), 1)));
        assert_eq!(parse_divide_line(" e1h1 : 7 \r"), Some(("e1h1".into(), 7)));
        for not_a_move in [
            "Nodes searched: 20",
            "e2e9: 1",
            "e2e4: x",
            "e7e8k: 1",
            "info: 3",
        ] {
            assert_eq!(parse_divide_line(not_a_move), None, "{not_a_move}");
        }
        assert_eq!(parse_total("Nodes searched: 197281"), Some(197281));
        assert_eq!(parse_total("nodes searched:0"), Some(0));
        assert_eq!(parse_total("Nodes: 5"), None);
    }

    #[test]
    fn recognises_a_refused_go_perft() {
        for refusal in [
            "Unknown command: 'go perft 1'. Type help for more information.",
            "info string error: unknown command 'perft'",
            "bestmove e2e4 ponder e7e5",
            "info depth 1 score cp 20 nodes 20 pv e2e4",
            "error: perft",
        ] {
            assert!(refuses_perft(refusal), "{refusal}");
        }
        for fine in ["info string NNUE evaluation enabled", "e2e4: 20", ""] {
            assert!(!refuses_perft(fine), "{fine}");
        }
    }
}
