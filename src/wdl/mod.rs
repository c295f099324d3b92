//! Scores on the scale users read: a win-rate model fitted to the engine's own self-play
//! (`model`; the fit is a tool, `escaque data wdl-fit`, in `tools::wdl_fit`), with the parameters
//! of the built-in network (`fitted`).
//! The search keeps its own units; only what the UCI front end reports is converted.

mod fitted;
pub mod model;

pub use fitted::{FITTED_ON, MODEL, NETWORK_CHECKSUM};
pub use model::{material, Wdl, WinRateModel};

#[cfg(test)]
mod tests {
    use super::*;

    /// A new network must come with its own fit: scores of one network read through another's
    /// model would be on the wrong scale.
    #[test]
    fn the_model_belongs_to_the_built_in_network() {
        assert_eq!(
            crate::nnue::Network::default_network().checksum,
            NETWORK_CHECKSUM,
            "the built-in network changed: refit with `escaque data wdl-fit <its self-play> \
             --rust src/wdl/fitted.rs`"
        );
        assert!(MODEL.is_valid());
    }
}
