//! A tiny GUI for integration tests: spawns the built `escaque` binary and talks UCI to it over
//! pipes. Every read has a timeout (a reader thread feeds a channel), so a broken engine fails a
//! test instead of hanging it; the child is killed when the handle is dropped.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Generous limit for anything that should be quick (CI machines can be slow and busy).
pub const QUICK: Duration = Duration::from_secs(10);

pub struct EngineProc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far (for failure messages).
    pub log: Vec<String>,
}

pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_escaque")
}

impl EngineProc {
    pub fn start() -> EngineProc {
        EngineProc::start_with_args(&[])
    }

    pub fn start_with_args(args: &[&str]) -> EngineProc {
        let mut command = Command::new(binary());
        command.args(args);
        EngineProc::spawn(command)
    }

    /// The engine under `ulimit -v kib` (an address-space limit: allocations and thread stacks
    /// beyond it fail).
    pub fn start_with_memory_limit(kib: u64) -> EngineProc {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -v {kib} && exec '{}'", binary()));
        EngineProc::spawn(command)
    }

    fn spawn(mut command: Command) -> EngineProc {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn escaque");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.strip_suffix('\n').unwrap_or(&line).to_string();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        EngineProc {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush to engine");
    }

    /// Closes the engine's stdin (EOF).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.log.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns all lines read, that one last. Panics
    /// (with the log) after `timeout`.
    pub fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(line) => {
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                None => panic!(
                    "timed out after {timeout:?}; lines so far:\n{}",
                    self.log.join("\n")
                ),
            }
        }
    }

    /// Reads lines up to and including the first starting with `prefix`.
    pub fn until_prefix(&mut self, timeout: Duration, prefix: &str) -> Vec<String> {
        self.until(timeout, |l| l.starts_with(prefix))
    }

    /// Reads up to the `bestmove` line and returns (lines, the bestmove line).
    pub fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let lines = self.until_prefix(timeout, "bestmove");
        let last = lines.last().cloned().unwrap_or_default();
        (lines, last)
    }

    /// Lines that arrive within `dur` (no more waiting than that).
    /// Reads for `dur` and fails if a `bestmove` arrives (searches that must not end alone).
    pub fn expect_no_bestmove_for(&mut self, dur: Duration) {
        let lines = self.collect_for(dur);
        assert!(
            lines.iter().all(|l| !l.starts_with("bestmove")),
            "premature bestmove: {lines:?}"
        );
    }

    pub fn collect_for(&mut self, dur: Duration) -> Vec<String> {
        let deadline = Instant::now() + dur;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return got;
            }
            match self.recv(left) {
                Some(line) => got.push(line),
                None => return got,
            }
        }
    }

    /// `isready` → `readyok`; returns the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(QUICK, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// The handshake; returns the lines before `uciok`.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        let mut lines = self.until(QUICK, |l| l == "uciok");
        lines.pop();
        lines
    }

    /// The FEN the engine reports with `d`.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until_prefix(QUICK, "Checkers:");
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("a Fen: line")
            .to_string()
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line.
pub fn best_of(line: &str) -> &str {
    line.split(' ').nth(1).expect("bestmove <move>")
}

/// The last `info` line with a `score` before `bestmove`.
pub fn last_score(lines: &[String]) -> Option<&String> {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info") && l.contains(" score "))
}
