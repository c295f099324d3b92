//! The neural-network evaluation (NNUE): features, the network file format, and (in the engine)
//! incrementally updated accumulators.

pub mod features;
pub mod format;
