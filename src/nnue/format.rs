//! The network file: a versioned header, the quantised weights, a checksum.
//!
//! All integers little-endian:
//!
//! | bytes | field |
//! |-------|-------|
//! | 8     | magic `ESQNNUE\0` |
//! | 4     | format version (`u32`, [`VERSION`]) |
//! | 4     | hidden size H (`u32`) |
//! | 4     | QA (`u32`), the accumulator scale |
//! | 4     | QB (`u32`), the output-weight scale |
//! | 4     | SCALE (`u32`): centipawns per unit of the float network's output |
//! | 768·H·2 | feature weights, `i16`, feature-major (`[768][H]`), scaled by QA |
//! | H·2   | feature (accumulator) biases, `i16`, scaled by QA |
//! | 2H·2  | output weights, `i16`: H for the side to move's accumulator, then H for the other's, scaled by QB |
//! | 4     | output bias, `i32`, scaled by QA·QB |
//! | 8     | FNV-1a 64 checksum of every byte before it |
//!
//! Evaluation (centipawns, side to move): with `a` the side to move's accumulator and `b` the
//! other's, `((Σ clamp(a_i, 0, QA)² · w_i + Σ clamp(b_i, 0, QA)² · w_{H+i}) / QA + bias) · SCALE /
//! (QA · QB)`: the float network's `out = Σ screlu(a) · w + Σ screlu(b) · w' + bias` times SCALE,
//! where screlu(x) = clamp(x, 0, 1)².

use super::features::INPUTS;

pub const MAGIC: &[u8; 8] = b"ESQNNUE\0";
pub const VERSION: u32 = 1;
pub const QA: i32 = 255;
pub const QB: i32 = 64;
pub const SCALE: i32 = 400;

/// A quantised network as stored in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedNetwork {
    pub hidden: usize,
    /// `[INPUTS][hidden]`, feature-major.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// `[2 * hidden]`: side to move first.
    pub output_weights: Vec<i16>,
    pub output_bias: i32,
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

const HEADER_BYTES: usize = 8 + 4 * 5;

impl QuantisedNetwork {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.byte_len());
        out.extend_from_slice(MAGIC);
        for field in [
            VERSION,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        let checksum = fnv1a64(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    fn byte_len(&self) -> usize {
        HEADER_BYTES + 2 * (INPUTS * self.hidden + self.hidden + 2 * self.hidden) + 4 + 8
    }

    /// Parses a network file, checking magic, version, scales, length and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNetwork, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err("not an escaque network (bad magic)".to_string());
        }
        let field = |i: usize| {
            u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().expect("4 bytes"))
        };
        let (version, hidden, qa, qb, scale) = (field(0), field(1), field(2), field(3), field(4));
        if version != VERSION {
            return Err(format!(
                "network format version {version}, this build reads {VERSION}"
            ));
        }
        if (qa, qb, scale) != (QA as u32, QB as u32, SCALE as u32) {
            return Err(format!(
                "network scales QA {qa} QB {qb} SCALE {scale}, this build uses {QA} {QB} {SCALE}"
            ));
        }
        if hidden == 0 || hidden > 4096 {
            return Err(format!("bad hidden size {hidden}"));
        }
        let hidden = hidden as usize;
        let expected = HEADER_BYTES + 2 * (INPUTS * hidden + 3 * hidden) + 4 + 8;
        if bytes.len() != expected {
            return Err(format!(
                "network file is {} bytes, expected {expected} for hidden size {hidden} (truncated?)",
                bytes.len()
            ));
        }
        let (body, checksum) = bytes.split_at(expected - 8);
        if fnv1a64(body) != u64::from_le_bytes(checksum.try_into().expect("8 bytes")) {
            return Err("network checksum mismatch (corrupt file)".to_string());
        }
        let mut words = body[HEADER_BYTES..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let feature_weights = take(INPUTS * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(2 * hidden);
        let tail = &body[body.len() - 4..];
        let output_bias = i32::from_le_bytes(tail.try_into().expect("4 bytes"));
        Ok(QuantisedNetwork {
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// The reference evaluation of a position given its active features per perspective
    /// (`[side to move, other]`), in plain integer arithmetic: what every faster path must equal.
    pub fn evaluate_features(&self, features: [&[usize]; 2]) -> i32 {
        let h = self.hidden;
        let mut sum: i64 = 0;
        for (side, active) in features.iter().enumerate() {
            for i in 0..h {
                let mut acc = i32::from(self.feature_bias[i]);
                for &f in active.iter() {
                    acc += i32::from(self.feature_weights[f * h + i]);
                }
                let v = i64::from(acc.clamp(0, QA));
                sum += v * v * i64::from(self.output_weights[side * h + i]);
            }
        }
        let out = sum / i64::from(QA) + i64::from(self.output_bias);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> QuantisedNetwork {
        let hidden = 4;
        QuantisedNetwork {
            hidden,
            feature_weights: (0..INPUTS * hidden).map(|i| (i % 97) as i16 - 40).collect(),
            feature_bias: vec![10, -5, 100, 300],
            output_weights: vec![3, -7, 20, 64, -64, 1, 0, 9],
            output_bias: -12345,
        }
    }

    #[test]
    fn bytes_round_trip_and_damage_is_detected() {
        let net = tiny();
        let bytes = net.to_bytes();
        assert_eq!(QuantisedNetwork::from_bytes(&bytes).unwrap(), net);
        let err = QuantisedNetwork::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err();
        assert!(err.contains("truncated"), "{err}");
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        let err = QuantisedNetwork::from_bytes(&flipped).unwrap_err();
        assert!(err.contains("checksum"), "{err}");
        let err = QuantisedNetwork::from_bytes(b"garbage!garbage!garbage!garbage!").unwrap_err();
        assert!(err.contains("magic"), "{err}");
        let mut other_version = bytes;
        other_version[8] = 99;
        let err = QuantisedNetwork::from_bytes(&other_version).unwrap_err();
        assert!(err.contains("version"), "{err}");
    }
}
