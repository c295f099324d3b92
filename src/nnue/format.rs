//! The network file: a versioned header that names the architecture, the quantised weights, a
//! checksum.
//!
//! All integers little-endian. Version 2 (written by `escaque train` since net4):
//!
//! | bytes | field |
//! |-------|-------|
//! | 8     | magic `ESQNNUE\0` |
//! | 4     | format version (`u32`, [`VERSION`]) |
//! | 4     | hidden size H (`u32`) |
//! | 4     | QA (`u32`), the accumulator scale |
//! | 4     | QB (`u32`), the output-weight scale |
//! | 4     | SCALE (`u32`): centipawns per unit of the float network's output |
//! | 4     | king buckets K (`u32`) |
//! | 4     | mirror (`u32`, 0 or 1): kings on files e–h see the board flipped to a–d |
//! | 4     | output buckets B (`u32`), chosen by the number of pieces |
//! | 64    | the king bucket of each own-king square (`u8`, a1 first; see [`Architecture`]) |
//! | 768·K·H·2 | feature weights, `i16`, feature-major (`[768·K][H]`), scaled by QA |
//! | H·2   | feature (accumulator) biases, `i16`, scaled by QA |
//! | B·2H·2 | output weights, `i16`, per bucket H for the side to move's accumulator then H for the other's, scaled by QB |
//! | B·4   | output biases, `i32`, scaled by QA·QB |
//! | 8     | FNV-1a 64 checksum of every byte before it |
//!
//! Version 1 (net1 to net3) has only the first six fields, one bucket of each kind and no
//! table; it is still read.
//!
//! Evaluation (centipawns, side to move): with `a` the side to move's accumulator, `b` the
//! other's and `w`, `bias` those of the position's output bucket,
//! `((Σ clamp(a_i, 0, QA)² · w_i + Σ clamp(b_i, 0, QA)² · w_{H+i}) / QA + bias) · SCALE /
//! (QA · QB)`: the float network's `out = Σ screlu(a) · w + Σ screlu(b) · w' + bias` times SCALE,
//! where screlu(x) = clamp(x, 0, 1)².

pub use super::architecture::Architecture;

pub const MAGIC: &[u8; 8] = b"ESQNNUE\0";
pub const VERSION: u32 = 2;
pub const QA: i32 = 255;
pub const QB: i32 = 64;
pub const SCALE: i32 = 400;
/// Largest hidden size a file may declare.
pub const MAX_HIDDEN: usize = 4096;

/// A quantised network as stored in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedNetwork {
    pub arch: Architecture,
    pub hidden: usize,
    /// `[arch.inputs()][hidden]`, feature-major.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// `[output buckets][2 * hidden]`: side to move first.
    pub output_weights: Vec<i16>,
    /// One per output bucket.
    pub output_bias: Vec<i32>,
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

const HEADER_V1_BYTES: usize = 8 + 4 * 5;
const HEADER_V2_BYTES: usize = HEADER_V1_BYTES + 4 * 3 + 64;

/// Bytes of a file of `version` for this architecture and hidden size.
fn file_len(version: u32, arch: &Architecture, hidden: usize) -> usize {
    let header = if version == 1 {
        HEADER_V1_BYTES
    } else {
        HEADER_V2_BYTES
    };
    let buckets = arch.output_buckets;
    header + 2 * (arch.inputs() * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + 8
}

impl QuantisedNetwork {
    /// The file's bytes (always the current version).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(VERSION, &self.arch, self.hidden));
        out.extend_from_slice(MAGIC);
        for field in [
            VERSION,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            self.arch.king_buckets as u32,
            u32::from(self.arch.mirror),
            self.arch.output_buckets as u32,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&self.arch.king_bucket);
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let checksum = fnv1a64(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Parses a network file, checking magic, version, scales, architecture, length and
    /// checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNetwork, String> {
        if bytes.len() < HEADER_V1_BYTES || &bytes[..8] != MAGIC {
            return Err("not an escaque network (bad magic)".to_string());
        }
        let field = |i: usize| {
            u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().expect("4 bytes"))
        };
        let (version, hidden, qa, qb, scale) = (field(0), field(1), field(2), field(3), field(4));
        if version != 1 && version != VERSION {
            return Err(format!(
                "network format version {version}, this build reads 1 to {VERSION}"
            ));
        }
        if (qa, qb, scale) != (QA as u32, QB as u32, SCALE as u32) {
            return Err(format!(
                "network scales QA {qa} QB {qb} SCALE {scale}, this build uses {QA} {QB} {SCALE}"
            ));
        }
        if hidden == 0 || hidden as usize > MAX_HIDDEN {
            return Err(format!("bad hidden size {hidden}"));
        }
        let hidden = hidden as usize;
        let (arch, header) = if version == 1 {
            (Architecture::default(), HEADER_V1_BYTES)
        } else {
            if bytes.len() < HEADER_V2_BYTES {
                return Err("network file is truncated (in its header)".to_string());
            }
            let (king_buckets, mirror, output_buckets) = (field(5), field(6), field(7));
            let table: [u8; 64] = bytes[HEADER_V2_BYTES - 64..HEADER_V2_BYTES]
                .try_into()
                .expect("64 bytes");
            if mirror > 1 {
                return Err(format!("bad mirror flag {mirror}"));
            }
            let arch = Architecture::new(table, mirror == 1, output_buckets as usize)
                .map_err(|e| format!("unsupported network architecture: {e}"))?;
            if arch.king_buckets != king_buckets as usize {
                return Err(format!(
                    "the header says {king_buckets} king buckets, its table has {}",
                    arch.king_buckets
                ));
            }
            (arch, HEADER_V2_BYTES)
        };
        let expected = file_len(version, &arch, hidden);
        if bytes.len() != expected {
            return Err(format!(
                "network file is {} bytes, expected {expected} for {} (truncated?)",
                bytes.len(),
                arch.describe(hidden)
            ));
        }
        let (body, checksum) = bytes.split_at(expected - 8);
        if fnv1a64(body) != u64::from_le_bytes(checksum.try_into().expect("8 bytes")) {
            return Err("network checksum mismatch (corrupt file)".to_string());
        }
        let buckets = arch.output_buckets;
        let words_end = body.len() - 4 * buckets;
        let mut words = body[header..words_end]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let feature_weights = take(arch.inputs() * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(buckets * 2 * hidden);
        let output_bias = body[words_end..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        Ok(QuantisedNetwork {
            arch,
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// The reference evaluation of a position given its active features per perspective
    /// (`[side to move, other]`) and its output bucket, in plain integer arithmetic: what every
    /// faster path must equal.
    pub fn evaluate_features(&self, features: [&[usize]; 2], bucket: usize) -> i32 {
        let h = self.hidden;
        let weights = &self.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let mut sum: i64 = 0;
        for (side, active) in features.iter().enumerate() {
            for i in 0..h {
                let mut acc = i32::from(self.feature_bias[i]);
                for &f in active.iter() {
                    acc += i32::from(self.feature_weights[f * h + i]);
                }
                let v = i64::from(acc.clamp(0, QA));
                sum += v * v * i64::from(weights[side * h + i]);
            }
        }
        let out = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> QuantisedNetwork {
        let hidden = 64;
        let arch = Architecture::preset(4, true, 2).unwrap();
        QuantisedNetwork {
            arch,
            hidden,
            feature_weights: (0..arch.inputs() * hidden)
                .map(|i| (i % 97) as i16 - 40)
                .collect(),
            feature_bias: (0..hidden).map(|i| i as i16 * 7 - 100).collect(),
            output_weights: (0..2 * 2 * hidden).map(|i| (i % 127) as i16 - 63).collect(),
            output_bias: vec![-12345, 678],
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
        flipped[200] ^= 1;
        let err = QuantisedNetwork::from_bytes(&flipped).unwrap_err();
        assert!(err.contains("checksum"), "{err}");
        let err = QuantisedNetwork::from_bytes(b"garbage!garbage!garbage!garbage!").unwrap_err();
        assert!(err.contains("magic"), "{err}");
        let mut other_version = bytes.clone();
        other_version[8] = 99;
        let err = QuantisedNetwork::from_bytes(&other_version).unwrap_err();
        assert!(err.contains("version"), "{err}");
        // A header that declares another architecture than its body holds is refused by length.
        let mut more_buckets = bytes;
        more_buckets[HEADER_V1_BYTES + 8] = 8;
        let err = QuantisedNetwork::from_bytes(&more_buckets).unwrap_err();
        assert!(err.contains("expected"), "{err}");
    }

    #[test]
    fn version_1_files_read_as_one_bucket_of_each_kind() {
        let net = QuantisedNetwork::from_bytes(crate::nnue::Network::default_bytes()).unwrap();
        let version = u32::from_le_bytes(
            crate::nnue::Network::default_bytes()[8..12]
                .try_into()
                .unwrap(),
        );
        if version == 1 {
            assert_eq!(net.arch, Architecture::default());
        }
        assert_eq!(net.output_bias.len(), net.arch.output_buckets);
        // Written again it is a version-2 file of the same network.
        assert_eq!(QuantisedNetwork::from_bytes(&net.to_bytes()).unwrap(), net);
    }
}
