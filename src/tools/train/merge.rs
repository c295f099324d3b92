//! `escaque net-merge`: networks fine-tuned from one base, merged by adding what each learnt.
//!
//! Each network's change from the base (its weights less the base's, the "task vector") is
//! scaled and added to the base: `base + scale · Σ (netᵢ − base)`. With `scale` 1/n that is the
//! mean of the networks (a "model soup"); with 1 each network's whole change is kept ("task
//! arithmetic"). Fine-tunes of one base on different games stay close to it in weight space, so
//! their changes add up without retraining: the way the candidates of issue 23, each trained on
//! games a lost machine later took, can still pool what they learnt. The sum is taken on the
//! quantised integers, rounded once, and saturated at the `i16` range (counted and reported).

use std::path::PathBuf;

use crate::nnue::format::QuantisedNetwork;

/// Merge networks fine-tuned from one base: base + scale · Σ (net − base)
#[derive(clap::Args, Debug)]
pub struct NetMergeArgs {
    /// The networks merged (each fine-tuned from --base)
    #[arg(required = true, value_name = "NET.nnue")]
    nets: Vec<PathBuf>,
    /// The network they were all fine-tuned from
    #[arg(long, value_name = "BASE.nnue")]
    base: PathBuf,
    /// The weight of each network's change (default 1/n: their mean)
    #[arg(long, value_parser = crate::tools::number_in(-4.0, 4.0))]
    scale: Option<f64>,
    /// The merged network's file
    #[arg(long, value_name = "OUT.nnue")]
    out: PathBuf,
}

fn read(path: &PathBuf) -> Result<QuantisedNetwork, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    QuantisedNetwork::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// What a merge wrote.
#[derive(Debug)]
pub struct Merged {
    pub network: QuantisedNetwork,
    /// Weights whose sum fell outside `i16` and were saturated.
    pub saturated: usize,
}

/// `base + scale · Σ (net − base)`, element by element, rounded to the nearest integer. Every
/// network must have the base's architecture and hidden size.
pub fn merge(
    base: &QuantisedNetwork,
    nets: &[QuantisedNetwork],
    scale: f64,
) -> Result<Merged, String> {
    for (i, net) in nets.iter().enumerate() {
        if net.arch != base.arch || net.hidden != base.hidden {
            return Err(format!(
                "network {} is {} with {} neurons, the base {} with {}",
                i + 1,
                net.arch.describe(net.hidden),
                net.hidden,
                base.arch.describe(base.hidden),
                base.hidden
            ));
        }
    }
    let mut saturated = 0;
    let mut to_i16 = |sums: Vec<f64>| -> Vec<i16> {
        let (low, high) = (f64::from(i16::MIN), f64::from(i16::MAX));
        saturated += sums.iter().filter(|&&x| x < low || x > high).count();
        sums.into_iter()
            .map(|x| x.clamp(low, high) as i16)
            .collect()
    };
    let feature_weights = to_i16(combine(base, nets, scale, |n| &n.feature_weights));
    let feature_bias = to_i16(combine(base, nets, scale, |n| &n.feature_bias));
    let output_weights = to_i16(combine(base, nets, scale, |n| &n.output_weights));
    let output_bias = combine(base, nets, scale, |n| &n.output_bias)
        .into_iter()
        .map(|x| x as i32)
        .collect();
    Ok(Merged {
        network: QuantisedNetwork {
            arch: base.arch,
            hidden: base.hidden,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        },
        saturated,
    })
}

/// One array of every network combined: `base + scale · Σ (net − base)`, rounded.
fn combine<T: Copy + Into<f64>>(
    base: &QuantisedNetwork,
    nets: &[QuantisedNetwork],
    scale: f64,
    array: impl Fn(&QuantisedNetwork) -> &[T],
) -> Vec<f64> {
    let base_values = array(base);
    (0..base_values.len())
        .map(|i| {
            let b: f64 = base_values[i].into();
            let change: f64 = nets.iter().map(|n| array(n)[i].into() - b).sum();
            (b + scale * change).round()
        })
        .collect()
}

impl NetMergeArgs {
    pub fn run(self) -> Result<(), String> {
        let base = read(&self.base)?;
        let nets = self.nets.iter().map(read).collect::<Result<Vec<_>, _>>()?;
        let scale = self.scale.unwrap_or(1.0 / nets.len() as f64);
        let merged = merge(&base, &nets, scale)?;
        let bytes = merged.network.to_bytes();
        std::fs::write(&self.out, &bytes)
            .map_err(|e| format!("cannot write {}: {e}", self.out.display()))?;
        let checksum = crate::nnue::Network::from_bytes(&bytes)?.checksum;
        report!(
            "{}: base + {scale} x the sum of {} networks' changes, checksum {checksum:016x}, {} \
             weights saturated",
            self.out.display(),
            nets.len(),
            merged.saturated
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::format::Architecture;

    fn net(offset: i16) -> QuantisedNetwork {
        let arch = Architecture::default();
        let hidden = 8;
        QuantisedNetwork {
            arch,
            hidden,
            feature_weights: (0..arch.inputs() * hidden)
                .map(|i| (i % 100) as i16 + offset)
                .collect(),
            feature_bias: vec![offset; hidden],
            output_weights: vec![10 * offset; 2 * hidden * arch.output_buckets],
            output_bias: vec![1000 * i32::from(offset); arch.output_buckets],
        }
    }

    #[test]
    fn the_mean_and_the_sum_of_changes() {
        let base = net(0);
        let (a, b) = (net(4), net(-2));
        // Their mean: base + (4 − 2)/2 = base + 1 everywhere.
        let mean = merge(&base, &[a.clone(), b.clone()], 0.5).unwrap();
        assert_eq!(mean.network, net(1));
        assert_eq!(mean.saturated, 0);
        // Task arithmetic: base + 4 − 2.
        assert_eq!(merge(&base, &[a.clone(), b], 1.0).unwrap().network, net(2));
        // One network with scale 1 is itself.
        assert_eq!(
            merge(&base, std::slice::from_ref(&a), 1.0).unwrap().network,
            a
        );
    }

    #[test]
    fn saturation_is_counted_and_other_shapes_are_refused() {
        let base = net(0);
        let mut big = net(0);
        big.feature_weights[0] = i16::MAX;
        let merged = merge(&base, &[big.clone(), big], 1.0).unwrap();
        assert_eq!(merged.network.feature_weights[0], i16::MAX);
        assert_eq!(merged.saturated, 1);
        let mut wide = net(0);
        wide.hidden = 16;
        assert!(merge(&base, &[wide], 1.0).is_err());
    }
}
