//! What a `go` asks for: the UCI limits, parsed; the time manager (`time.rs`) turns them into
//! stop rules.

/// The limits of one search, as given by `go`. Times are in milliseconds; negative clock values
/// from a GUI are clamped to zero by the parser.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// No new iteration once this many nodes are searched (datagen's soft node limit; not UCI).
    pub soft_nodes: Option<u64>,
    /// A node limit that applies only once the first iteration is complete (`UCI_Elo`'s cap:
    /// even the weakest level plays a move every root move was searched for; not UCI).
    pub level_nodes: Option<u64>,
    /// Search for a mate in this many moves (full moves, as UCI defines it).
    pub mate: Option<i32>,
    pub movetime: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
}
