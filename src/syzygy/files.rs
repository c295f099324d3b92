//! Finding the table files named by a `SyzygyPath` and checking their headers before the prober
//! sees them. pyrrhic-rs maps a table the first time a probe needs it and trusts its header, so
//! a truncated or foreign file would be read out of bounds in the middle of a search; checking
//! every file up front turns that into an error message at `setoption` time.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// First four bytes of a WDL (`.rtbw`) and a DTZ (`.rtbz`) file, little-endian.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// The most pieces a table can have (the prober looks for nothing larger).
pub const MAX_TABLE_PIECES: u32 = 7;

/// One material signature found on the path (e.g. `KQvKR`), from the first directory that has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSet {
    pub name: String,
    pub pieces: u32,
    pub has_dtz: bool,
}

/// What a path holds: its directories, the usable tables, and everything wrong with it.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// The directories that exist, in path order (what the prober is given).
    pub directories: Vec<PathBuf>,
    /// Material signatures with a WDL file, sorted by name.
    pub tables: Vec<TableSet>,
    /// One line per problem: a directory that is missing or unreadable, a bad table file.
    pub problems: Vec<String>,
    /// Whether any problem is a table file the prober must not open (as opposed to a missing
    /// directory, which only means fewer tables).
    pub bad_files: bool,
}

impl Scan {
    pub fn largest(&self) -> u32 {
        self.tables.iter().map(|t| t.pieces).max().unwrap_or(0)
    }
    pub fn dtz_count(&self) -> usize {
        self.tables.iter().filter(|t| t.has_dtz).count()
    }
}

/// The entries of a `SyzygyPath` value: directories separated by `:` (`;` on Windows), with
/// empty entries dropped.
pub fn split_path(path: &str) -> Vec<&str> {
    let separator = if cfg!(windows) { ';' } else { ':' };
    path.split(separator)
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// The material signature in a table file name (`KQvKR.rtbw` gives `KQvKR` and 5 pieces), if it
/// is a name the prober looks for: a king each, pieces in `QRBNP` order on each side.
pub fn parse_table_name(stem: &str) -> Option<u32> {
    let (white, black) = stem.split_once('v')?;
    let mut pieces = 0;
    for side in [white, black] {
        let rest = side.strip_prefix('K')?;
        let order = |c: char| "QRBNP".find(c);
        let mut last = 0;
        for c in rest.chars() {
            let rank = order(c)?;
            if rank < last {
                return None;
            }
            last = rank;
        }
        pieces += 1 + rest.len() as u32;
    }
    (pieces <= MAX_TABLE_PIECES).then_some(pieces)
}

/// Checks a table file's header: the magic number of its kind and a size the format allows
/// (the prober's own test: 16 more than a multiple of 64).
fn check_header(path: &Path, magic: [u8; 4]) -> Result<(), String> {
    let meta = fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{}: not a file", path.display()));
    }
    if meta.len() % 64 != 16 {
        return Err(format!(
            "{}: size {} is not a Syzygy table's (truncated or not a table)",
            path.display(),
            meta.len()
        ));
    }
    let mut head = [0u8; 4];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if head != magic {
        return Err(format!(
            "{}: wrong magic number (corrupt, or not a table of this kind)",
            path.display()
        ));
    }
    Ok(())
}

/// Looks at every directory of `path` and every table file in it.
pub fn scan(path: &str) -> Scan {
    let mut scan = Scan::default();
    for entry in split_path(path) {
        let dir = PathBuf::from(entry);
        let listing = match fs::read_dir(&dir) {
            Ok(listing) => listing,
            Err(e) => {
                let why = if dir.is_file() {
                    "is a file, not a directory".to_string()
                } else if !dir.exists() {
                    "does not exist".to_string()
                } else {
                    format!("cannot be read ({e})")
                };
                scan.problems.push(format!("'{entry}' {why}"));
                continue;
            }
        };
        let mut names: Vec<String> = listing
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        scan.directories.push(dir.clone());
        for file in names {
            let Some(stem) = file.strip_suffix(".rtbw") else {
                continue;
            };
            let Some(pieces) = parse_table_name(stem) else {
                continue;
            };
            // The prober opens the first directory's copy; later ones are never read.
            if scan.tables.iter().any(|t| t.name == stem) {
                continue;
            }
            if let Err(e) = check_header(&dir.join(&file), WDL_MAGIC) {
                scan.problems.push(e);
                scan.bad_files = true;
                continue;
            }
            scan.tables.push(TableSet {
                name: stem.to_string(),
                pieces,
                has_dtz: false,
            });
        }
    }
    // DTZ files, looked up as the prober does: the first directory that has the name.
    for table in &mut scan.tables {
        let file = format!("{}.rtbz", table.name);
        if let Some(found) = scan
            .directories
            .iter()
            .map(|d| d.join(&file))
            .find(|p| p.exists())
        {
            match check_header(&found, DTZ_MAGIC) {
                Ok(()) => table.has_dtz = true,
                Err(e) => {
                    scan.problems.push(e);
                    scan.bad_files = true;
                }
            }
        }
    }
    scan.tables.sort_by(|a, b| a.name.cmp(&b.name));
    scan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names() {
        assert_eq!(parse_table_name("KQvK"), Some(3));
        assert_eq!(parse_table_name("KRPvKR"), Some(5));
        assert_eq!(parse_table_name("KQRBNPvK"), Some(7));
        assert_eq!(parse_table_name("KQRBNPPvK"), None);
        assert_eq!(parse_table_name("KRQvK"), None);
        assert_eq!(parse_table_name("QvK"), None);
        assert_eq!(parse_table_name("KXvK"), None);
        assert_eq!(parse_table_name("KQK"), None);
    }

    #[test]
    fn path_entries() {
        let sep = if cfg!(windows) { ";" } else { ":" };
        let path = format!("a{sep}{sep} b {sep}");
        assert_eq!(split_path(&path), vec!["a", "b"]);
        assert!(split_path("").is_empty());
    }

    #[test]
    fn missing_and_file_paths_are_problems() {
        let scan = scan("/no/such/directory/escaque");
        assert!(scan.tables.is_empty());
        assert_eq!(scan.problems.len(), 1, "{:?}", scan.problems);
        assert!(scan.problems[0].contains("does not exist"));
        let file = std::env::current_exe().unwrap();
        let scan = super::scan(file.to_str().unwrap());
        assert!(
            scan.problems[0].contains("is a file"),
            "{:?}",
            scan.problems
        );
    }
}
