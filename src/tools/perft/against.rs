//! `escaque perft <depth> [FEN] --against <command>`: the same divide from another UCI engine's
//! `go perft`, and where the counts differ, a walk down the tree to the first position whose
//! move lists differ: one move missing or extra there is the bug (in one of the two engines)
//! that a differing total only hints at.
//!
//! At each level both divides are compared move by move; a move listed by one side only ends
//! the walk (it is the cause), otherwise the walk goes down the first move whose counts differ,
//! one ply shallower, until depth 1, where every difference is a missing or extra move.

use std::time::{Duration, Instant};

use super::engine::{Engine, RawDivide};
use crate::board::{Board, MoveParseError};
use crate::perft::divide_hashed;
use crate::types::Move;

/// A full divide of the other engine may take this many times as long as ours (plus the
/// timeout) before we give up on it: generous to slow engines (ours caches subtree counts),
/// yet a hung engine is reported rather than waited on forever.
const SLOWER_FACTOR: u32 = 1000;

/// What `--against` needs besides the position and the command.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub depth: u32,
    pub threads: usize,
    pub hash_mb: usize,
    /// Limit for `uciok`, `readyok` and the `go perft 1` probe.
    pub timeout: Duration,
}

/// A move of one divide compared with the other's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// Legal for escaque, not listed by the other engine.
    Missing { mv: String, ours: u64 },
    /// Listed by the other engine, not a legal move for escaque.
    Extra { mv: String, theirs: u64 },
    /// Listed by both, with different counts below it.
    Count { mv: String, ours: u64, theirs: u64 },
}

impl Difference {
    fn mv(&self) -> &str {
        match self {
            Difference::Missing { mv, .. }
            | Difference::Extra { mv, .. }
            | Difference::Count { mv, .. } => mv,
        }
    }
}

/// Both totals at one position of the walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves from the root to this position.
    pub path: Vec<String>,
    pub depth: u32,
    pub ours: u64,
    pub theirs: u64,
}

/// Where the walk ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The root first, then each position the walk went down to.
    pub levels: Vec<Level>,
    /// The last position, as FEN.
    pub fen: String,
    /// Its differences, escaque's moves in escaque's order, then the other engine's extra ones.
    pub differences: Vec<Difference>,
    /// The path from the root through the first differing move of the last position.
    pub path: Vec<String>,
    /// Set when the last move's subtree counts differed but its children's all agree.
    pub note: Option<String>,
}

/// How the comparison ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The totals agree: (escaque's, the other's).
    Agree(u64, u64),
    Differ(Mismatch),
}

/// Where the time went at the root, for the first line of the report.
#[derive(Clone, Copy, Debug, Default)]
pub struct RootTimes {
    pub ours: Duration,
    pub theirs: Duration,
}

/// The other engine's divide: `(path, depth, our_time)` gives its divide at `depth` of the
/// position after `path` (UCI moves from the root); `our_time` is how long ours took.
pub type Reference<'a> = dyn FnMut(&[String], u32, Duration) -> Result<RawDivide, String> + 'a;

/// Compares escaque's divides with the `reference`'s and walks down as the module says.
/// Errors come from `reference` or name a move the other engine wrote that cannot be read.
pub fn compare(
    root: &Board,
    settings: &Settings,
    chess960: bool,
    times: &mut RootTimes,
    reference: &mut Reference,
) -> Result<Outcome, String> {
    let mut board = *root;
    let mut path: Vec<String> = Vec::new();
    let mut levels: Vec<Level> = Vec::new();
    let mut last_differences: Vec<Difference> = Vec::new();
    let mut depth = settings.depth;
    loop {
        let start = Instant::now();
        let ours = divide_hashed(&board, depth, settings.threads, settings.hash_mb)
            .map_err(|e| e.to_string())?;
        let our_time = start.elapsed();
        let start = Instant::now();
        let theirs = reference(&path, depth, our_time)?;
        if levels.is_empty() {
            *times = RootTimes {
                ours: our_time,
                theirs: start.elapsed(),
            };
        }
        let differences = differences(&board, chess960, &ours, &theirs)?;
        let ours_total: u64 = ours.iter().map(|(_, n)| n).sum();
        if differences.is_empty() {
            if levels.is_empty() {
                return Ok(Outcome::Agree(ours_total, theirs.total));
            }
            // The parent's counts for this move differed; repeated here they agree.
            let note = format!(
                "below {}, at depth {depth}, both engines count {ours_total}: one of the counts \
                 above is not reproducible (a hash collision, or a nondeterministic perft)",
                path.join(" ")
            );
            let mut path_to_parent = path.clone();
            path_to_parent.pop();
            let fen = parent_fen(root, &path_to_parent, chess960);
            return Ok(Outcome::Differ(Mismatch {
                levels,
                fen,
                differences: last_differences,
                path,
                note: Some(note),
            }));
        }
        levels.push(Level {
            path: path.clone(),
            depth,
            ours: ours_total,
            theirs: theirs.total,
        });
        let cause = differences
            .iter()
            .find(|d| !matches!(d, Difference::Count { .. }));
        if cause.is_some() || depth == 1 {
            let first = cause.unwrap_or(&differences[0]).mv().to_string();
            path.push(first);
            return Ok(Outcome::Differ(Mismatch {
                levels,
                fen: board.to_fen(),
                differences,
                path,
                note: None,
            }));
        }
        let next = differences[0].mv().to_string();
        let mv = ours
            .iter()
            .map(|&(mv, _)| mv)
            .find(|&mv| board.move_to_uci(mv, chess960) == next)
            .ok_or(format!(
                "{next} is in no divide of escaque's (cannot happen)"
            ))?;
        board = board.make_move(mv);
        path.push(next);
        depth -= 1;
        last_differences = differences;
    }
}

/// The position after `path` from `root` (moves the walk has already played, so legal).
fn parent_fen(root: &Board, path: &[String], chess960: bool) -> String {
    let mut board = *root;
    for text in path {
        if let Ok(mv) = board.parse_uci_move(text, chess960) {
            board = board.make_move(mv);
        }
    }
    board.to_fen()
}

/// The differences between our divide and theirs (whose moves are read as escaque reads UCI
/// moves, so either castling notation matches ours).
fn differences(
    board: &Board,
    chess960: bool,
    ours: &[(Move, u64)],
    theirs: &RawDivide,
) -> Result<Vec<Difference>, String> {
    let mut read: Vec<(Option<Move>, &str, u64)> = Vec::new();
    for (text, count) in &theirs.moves {
        let mv = match board.parse_uci_move(text, chess960) {
            Ok(mv) => Some(mv),
            Err(MoveParseError::Illegal(_)) => None,
            Err(e) => return Err(format!("the other engine's divide: {e}")),
        };
        if mv.is_some() && read.iter().any(|(m, _, _)| *m == mv) {
            return Err(format!(
                "the other engine's divide lists {text} twice (in two notations)"
            ));
        }
        read.push((mv, text, *count));
    }
    let mut found = Vec::new();
    for &(mv, count) in ours {
        let text = board.move_to_uci(mv, chess960);
        match read.iter().find(|(m, _, _)| *m == Some(mv)) {
            None => found.push(Difference::Missing {
                mv: text,
                ours: count,
            }),
            Some(&(_, _, theirs)) if theirs != count => found.push(Difference::Count {
                mv: text,
                ours: count,
                theirs,
            }),
            Some(_) => {}
        }
    }
    for (mv, text, count) in read {
        if mv.is_none() {
            found.push(Difference::Extra {
                mv: text.to_string(),
                theirs: count,
            });
        }
    }
    Ok(found)
}

/// The report of a mismatch: the totals at each level of the walk, then the last position and
/// its differing moves, then the path. `other` names the other engine.
pub fn render(mismatch: &Mismatch, depth: u32, times: RootTimes, other: &str) -> String {
    let root = &mismatch.levels[0];
    let mut out = format!(
        "perft {depth} differs: escaque {} ({:.3} s), {other} {} ({:.3} s)\n",
        root.ours,
        times.ours.as_secs_f64(),
        root.theirs,
        times.theirs.as_secs_f64()
    );
    let width = |f: fn(&Level) -> u64| {
        mismatch
            .levels
            .iter()
            .map(|l| f(l).to_string().len())
            .max()
            .unwrap_or(1)
    };
    let (w_ours, w_theirs) = (width(|l| l.ours), width(|l| l.theirs));
    for level in &mismatch.levels {
        let place = if level.path.is_empty() {
            "root".to_string()
        } else {
            format!("after {}", level.path.join(" "))
        };
        out.push_str(&format!(
            "  depth {:<2} escaque {:>w_ours$}  {other} {:>w_theirs$}  {place}\n",
            level.depth, level.ours, level.theirs
        ));
    }
    let last = mismatch.levels.last().expect("a mismatch has a level");
    if let Some(note) = &mismatch.note {
        out.push_str(&format!("note: {note}\n"));
    }
    let at = if last.path.is_empty() {
        "the root".to_string()
    } else {
        format!("after {}", last.path.join(" "))
    };
    out.push_str(&format!(
        "first difference {at}, depth {}: {}\n",
        last.depth, mismatch.fen
    ));
    for difference in &mismatch.differences {
        let line = match difference {
            Difference::Missing { mv, ours } => format!("{mv}: escaque {ours}, missing in {other}"),
            Difference::Extra { mv, theirs } => {
                format!("{mv}: {other} {theirs}, not a legal move for escaque")
            }
            Difference::Count { mv, ours, theirs } => {
                format!("{mv}: escaque {ours}, {other} {theirs}")
            }
        };
        out.push_str(&format!("  {line}\n"));
    }
    out.push_str(&format!("path: {}\n", mismatch.path.join(" ")));
    out
}

/// Runs the whole comparison against the engine `command` and prints the result: `Ok(true)` when
/// the counts agree, `Ok(false)` when they differ (the report is on stdout), `Err` when the
/// comparison could not be made.
pub fn run(root: &Board, settings: &Settings, command: &str) -> Result<bool, String> {
    let chess960 = root.has_chess960_castling();
    let mut engine = Engine::start(command, settings.timeout)?;
    if chess960 {
        if engine.has_option("UCI_Chess960") {
            engine.send("setoption name UCI_Chess960 value true")?;
        } else {
            report_err!(
                "warning: {} has no UCI_Chess960 option; this Chess960 position may be misread",
                engine.name
            );
        }
    }
    engine.sync(settings.timeout)?;
    let root_fen = root.to_fen();
    let position = |path: &[String]| {
        if path.is_empty() {
            format!("fen {root_fen}")
        } else {
            format!("fen {root_fen} moves {}", path.join(" "))
        }
    };
    // A depth-1 divide answers at once from any engine that has `go perft`: without it, we
    // learn so within the timeout, not after the longer wait a full divide is allowed.
    engine.divide(&position(&[]), 1, settings.timeout)?;
    let mut times = RootTimes::default();
    let outcome = compare(
        root,
        settings,
        chess960,
        &mut times,
        &mut |path, depth, our_time| {
            let limit = settings.timeout + our_time.saturating_mul(SLOWER_FACTOR);
            engine.divide(&position(path), depth, limit)
        },
    )?;
    match outcome {
        Outcome::Agree(ours, theirs) => {
            report!(
                "perft {} agrees: escaque {ours} ({:.3} s), {} {theirs} ({:.3} s)",
                settings.depth,
                times.ours.as_secs_f64(),
                engine.name,
                times.theirs.as_secs_f64()
            );
            Ok(true)
        }
        Outcome::Differ(mismatch) => {
            report_text!("{}", render(&mismatch, settings.depth, times, &engine.name));
            Ok(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::divide;

    const SETTINGS: Settings = Settings {
        depth: 3,
        threads: 1,
        hash_mb: 0,
        timeout: Duration::from_secs(1),
    };

    /// A reference that is escaque's own divide, with moves matching `drop` left out everywhere.
    fn reference(
        root: Board,
        drop: impl Fn(&Board, Move) -> bool,
    ) -> impl FnMut(&[String], u32, Duration) -> Result<RawDivide, String> {
        fn count(board: &Board, depth: u32, drop: &dyn Fn(&Board, Move) -> bool) -> u64 {
            let moves = board.legal_moves();
            let kept = moves.iter().filter(|&&mv| !drop(board, mv));
            match depth {
                1 => kept.count() as u64,
                _ => kept
                    .map(|&mv| count(&board.make_move(mv), depth - 1, drop))
                    .sum(),
            }
        }
        move |path, depth, _| {
            let mut board = root;
            for text in path {
                board = board.make_move(board.parse_uci_move(text, false).unwrap());
            }
            let moves: Vec<(String, u64)> = board
                .legal_moves()
                .iter()
                .filter(|&&mv| !drop(&board, mv))
                .map(|&mv| {
                    let n = if depth == 1 {
                        1
                    } else {
                        count(&board.make_move(mv), depth - 1, &drop)
                    };
                    (board.move_to_uci(mv, false), n)
                })
                .collect();
            let total = moves.iter().map(|(_, n)| n).sum();
            Ok(RawDivide { moves, total })
        }
    }

    fn run_compare(fen: &str, settings: &Settings, drop: impl Fn(&Board, Move) -> bool) -> Outcome {
        let root = Board::from_fen(fen).unwrap();
        let mut reference = reference(root, drop);
        compare(
            &root,
            settings,
            false,
            &mut RootTimes::default(),
            &mut reference,
        )
        .unwrap()
    }

    #[test]
    fn agreeing_divides_agree() {
        let outcome = run_compare(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &SETTINGS,
            |_, _| false,
        );
        assert_eq!(outcome, Outcome::Agree(8902, 8902));
    }

    #[test]
    fn walks_down_to_a_missing_underpromotion() {
        // Only b6-b7 can promote within three plies, on white's second move.
        let fen = "7k/8/1P6/8/8/8/8/K7 w - - 0 1";
        let Outcome::Differ(m) = run_compare(fen, &SETTINGS, |_, mv| {
            mv.promotion()
                .is_some_and(|p| p != crate::types::PieceType::Queen)
        }) else {
            panic!("the counts should differ");
        };
        assert_eq!(m.levels.len(), 3);
        assert_eq!(m.levels[1].path, ["b6b7"]);
        assert_eq!(m.path.len(), 3);
        assert!(m.path[2].starts_with("b7b8"), "{:?}", m.path);
        let root = Board::from_fen(fen).unwrap();
        assert_eq!(
            m.levels[0].ours,
            divide(&root, 3, 1).iter().map(|x| x.1).sum::<u64>()
        );
        assert_eq!(m.levels[2].ours - m.levels[2].theirs, 3);
        let missing: Vec<&str> = m.differences.iter().map(|d| d.mv()).collect();
        assert_eq!(missing.len(), 3);
        for piece in ['n', 'b', 'r'] {
            assert!(
                missing.contains(&format!("b7b8{piece}").as_str()),
                "{missing:?}"
            );
        }
        let report = render(&m, 3, RootTimes::default(), "fake");
        assert!(
            report.contains("b7b8n: escaque 1, missing in fake"),
            "{report}"
        );
        assert!(
            report.contains(&format!("path: {}", m.path.join(" "))),
            "{report}"
        );
        assert!(report.contains(&m.fen), "{report}");
    }

    #[test]
    fn an_extra_move_ends_the_walk_where_it_is() {
        // The reference lists a move escaque finds illegal: an extra move, found at the root.
        let root = Board::startpos();
        let mut honest = reference(root, |_, _| false);
        let mut reference = |path: &[String], depth, t| {
            let mut divide = honest(path, depth, t)?;
            if path.is_empty() {
                divide.moves.push(("e1e2".to_string(), 5));
                divide.total += 5;
            }
            Ok(divide)
        };
        let outcome = compare(
            &root,
            &SETTINGS,
            false,
            &mut RootTimes::default(),
            &mut reference,
        )
        .unwrap();
        let Outcome::Differ(m) = outcome else {
            panic!("the counts should differ");
        };
        assert_eq!(m.levels.len(), 1);
        assert_eq!(
            m.differences,
            [Difference::Extra {
                mv: "e1e2".to_string(),
                theirs: 5
            }]
        );
        assert_eq!(m.path, ["e1e2"]);
    }

    #[test]
    fn a_count_that_does_not_repeat_is_reported_as_such() {
        // The first answer is off by one below e2e4; asked again, the reference is right.
        let root = Board::startpos();
        let mut honest = reference(root, |_, _| false);
        let mut calls = 0;
        let mut reference = |path: &[String], depth, t| {
            calls += 1;
            let mut divide = honest(path, depth, t)?;
            if calls == 1 {
                let e2e4 = divide.moves.iter_mut().find(|(m, _)| m == "e2e4").unwrap();
                e2e4.1 += 1;
                divide.total += 1;
            }
            Ok(divide)
        };
        let outcome = compare(
            &root,
            &SETTINGS,
            false,
            &mut RootTimes::default(),
            &mut reference,
        )
        .unwrap();
        let Outcome::Differ(m) = outcome else {
            panic!("the counts should differ");
        };
        assert_eq!(m.path, ["e2e4"]);
        assert!(m.note.as_deref().unwrap().contains("not reproducible"));
        assert_eq!(m.fen, root.to_fen());
    }
}
