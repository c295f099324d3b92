//! The checkpoint file: float weights, Adam state and the settings a resume must match.
//!
//! All little-endian: magic `ESQCKPT\0`, version `u32`, the architecture (the 64-byte king
//! bucket table, mirror `u32`, output buckets `u32`), the [`Settings`] (hidden `u32`, epochs
//! `u32`, batch `u32`, seed `u64`, lr `f32`, lambda `f32`, wd `f32`, training positions `u64`,
//! training-set fingerprint `u64`, from version 4 the starting network's checksum `u64`, 0 for
//! none, from version 5 the learning rate's decay `f32` and the loss power `f32`), epochs done
//! `u32`, Adam step count `u64`, then the
//! parameters, Adam's first and second moments (`f32` each, [`FloatNetwork::param_count`] of
//! each), and an FNV-1a 64 checksum of everything before it.

use std::path::Path;

use crate::nnue::format::fnv1a64;
use crate::nnue::Architecture;

use super::network::FloatNetwork;
use super::optimizer::AdamW;

const MAGIC: &[u8; 8] = b"ESQCKPT\0";
// Version 3: networks with king buckets carry the 768 factor rows (see `network.rs`).
// Version 4: the settings name the network the run started from (`--init`); version 3 files
// are still read, as runs from random weights.
// Version 5: the settings hold the learning rate's decay and the loss power; files of versions
// 3 and 4 are read with the values every run had then (20 and 2).
const VERSION: u32 = 5;
const V3_HEADER_BYTES: usize = 8 + 4 + 64 + 4 + 4 + 4 + 4 + 4 + 8 + 4 + 4 + 4 + 8 + 8 + 4 + 8;

/// Header bytes of a checkpoint of format `version` (3 to 5).
fn header_bytes(version: u32) -> usize {
    V3_HEADER_BYTES + if version >= 4 { 8 } else { 0 } + if version >= 5 { 8 } else { 0 }
}

/// What determines the sequence of weights a run produces. Resuming under different settings
/// would silently train a different network than either run asked for, so it is refused.
/// (Thread count is left out: it changes only the float rounding of the gradient sum.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub arch: Architecture,
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub seed: u64,
    pub lr: f32,
    pub lr_decay: f32,
    pub lambda: f32,
    pub loss_power: f32,
    pub wd: f32,
    /// Size and fingerprint of the training set after the hold-out: they cover the data files,
    /// their order, and the validation split.
    pub train_positions: u64,
    pub train_fingerprint: u64,
    /// The checksum of the network the run started from (`--init`); `None`: random weights.
    pub init: Option<u64>,
}

impl Settings {
    /// Every setting that differs, as `name: checkpoint value, now value` lines; empty when
    /// they all match (floats compared bit for bit, as the run would be).
    pub fn differences(&self, now: &Settings) -> Vec<String> {
        let mut out = Vec::new();
        let mut check = |name: &str, was: String, is: String, same: bool| {
            if !same {
                out.push(format!("{name}: {was} in the checkpoint, {is} now"));
            }
        };
        check(
            "--king-buckets/--mirror/--output-buckets",
            self.arch.describe(self.hidden),
            now.arch.describe(now.hidden),
            self.arch == now.arch,
        );
        check(
            "--hidden",
            self.hidden.to_string(),
            now.hidden.to_string(),
            self.hidden == now.hidden,
        );
        check(
            "--epochs",
            self.epochs.to_string(),
            now.epochs.to_string(),
            self.epochs == now.epochs,
        );
        check(
            "--batch",
            self.batch.to_string(),
            now.batch.to_string(),
            self.batch == now.batch,
        );
        check(
            "--seed",
            self.seed.to_string(),
            now.seed.to_string(),
            self.seed == now.seed,
        );
        check(
            "--lr",
            self.lr.to_string(),
            now.lr.to_string(),
            self.lr.to_bits() == now.lr.to_bits(),
        );
        check(
            "--lr-decay",
            self.lr_decay.to_string(),
            now.lr_decay.to_string(),
            self.lr_decay.to_bits() == now.lr_decay.to_bits(),
        );
        check(
            "--lambda",
            self.lambda.to_string(),
            now.lambda.to_string(),
            self.lambda.to_bits() == now.lambda.to_bits(),
        );
        check(
            "--loss-power",
            self.loss_power.to_string(),
            now.loss_power.to_string(),
            self.loss_power.to_bits() == now.loss_power.to_bits(),
        );
        check(
            "--wd",
            self.wd.to_string(),
            now.wd.to_string(),
            self.wd.to_bits() == now.wd.to_bits(),
        );
        check(
            "training data",
            format!(
                "{} positions ({:016x})",
                self.train_positions, self.train_fingerprint
            ),
            format!(
                "{} positions ({:016x})",
                now.train_positions, now.train_fingerprint
            ),
            (self.train_positions, self.train_fingerprint)
                == (now.train_positions, now.train_fingerprint),
        );
        let start = |init: Option<u64>| {
            init.map_or("random weights".to_string(), |c| {
                format!("network {c:016x}")
            })
        };
        check(
            "--init",
            start(self.init),
            start(now.init),
            self.init == now.init,
        );
        out
    }
}

/// The state after a whole number of epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub settings: Settings,
    pub epochs_done: usize,
    pub network: FloatNetwork,
    pub optimizer: AdamW,
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let s = &self.settings;
        let n = self.network.params.len();
        let mut out = Vec::with_capacity(header_bytes(VERSION) + 12 * n + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&s.arch.king_bucket);
        out.extend_from_slice(&u32::from(s.arch.mirror).to_le_bytes());
        out.extend_from_slice(&(s.arch.output_buckets as u32).to_le_bytes());
        for field in [s.hidden as u32, s.epochs as u32, s.batch as u32] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&s.seed.to_le_bytes());
        for field in [s.lr, s.lambda, s.wd] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&s.train_positions.to_le_bytes());
        out.extend_from_slice(&s.train_fingerprint.to_le_bytes());
        out.extend_from_slice(&s.init.unwrap_or(0).to_le_bytes());
        for field in [s.lr_decay, s.loss_power] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&(self.epochs_done as u32).to_le_bytes());
        out.extend_from_slice(&self.optimizer.t.to_le_bytes());
        for x in self
            .network
            .params
            .iter()
            .chain(&self.optimizer.m)
            .chain(&self.optimizer.v)
        {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let checksum = fnv1a64(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Parses a checkpoint, checking magic, version, length and checksum: a damaged or
    /// truncated file is an error, never a panic or a silently wrong resume.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < V3_HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err("not an escaque training checkpoint (bad magic or too short)".to_string());
        }
        let mut reader = Reader { bytes, pos: 8 };
        let version = reader.u32();
        if !(3..=VERSION).contains(&version) {
            return Err(format!(
                "checkpoint format version {version}, this build reads 3 to {VERSION}"
            ));
        }
        let header = header_bytes(version);
        if bytes.len() < header {
            return Err("checkpoint is too short for its header (truncated?)".to_string());
        }
        let king_bucket: [u8; 64] = reader.take();
        let (mirror, output_buckets) = (reader.u32(), reader.u32());
        let arch = Architecture::new(king_bucket, mirror == 1, output_buckets as usize)
            .map_err(|e| format!("checkpoint has a bad architecture: {e}"))?;
        let (hidden, epochs, batch) = (reader.u32(), reader.u32(), reader.u32());
        let seed = reader.u64();
        let (lr, lambda, wd) = (reader.f32(), reader.f32(), reader.f32());
        let (train_positions, train_fingerprint) = (reader.u64(), reader.u64());
        let init = if version >= 4 {
            Some(reader.u64()).filter(|&c| c != 0)
        } else {
            None
        };
        let (lr_decay, loss_power) = if version >= 5 {
            (reader.f32(), reader.f32())
        } else {
            (20.0, 2.0)
        };
        let epochs_done = reader.u32() as usize;
        let t = reader.u64();
        if hidden == 0 || hidden > 4096 {
            return Err(format!("checkpoint has a bad hidden size {hidden}"));
        }
        let hidden = hidden as usize;
        let n = FloatNetwork::param_count(&arch, hidden);
        let expected = header + 12 * n + 8;
        if bytes.len() != expected {
            return Err(format!(
                "checkpoint is {} bytes, expected {expected} for hidden size {hidden} (truncated?)",
                bytes.len()
            ));
        }
        let (body, checksum) = bytes.split_at(expected - 8);
        if fnv1a64(body) != u64::from_le_bytes(checksum.try_into().expect("8 bytes")) {
            return Err("checkpoint checksum mismatch (corrupt file)".to_string());
        }
        let floats: Vec<f32> = body[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        if epochs_done > epochs as usize {
            return Err(format!(
                "checkpoint claims {epochs_done} of {epochs} epochs done"
            ));
        }
        Ok(Checkpoint {
            settings: Settings {
                arch,
                hidden,
                epochs: epochs as usize,
                batch: batch as usize,
                seed,
                lr,
                lr_decay,
                lambda,
                loss_power,
                wd,
                train_positions,
                train_fingerprint,
                init,
            },
            epochs_done,
            network: FloatNetwork {
                arch,
                hidden,
                factorised: FloatNetwork::trains_factorised(&arch),
                params: floats[..n].to_vec(),
            },
            optimizer: AdamW {
                m: floats[n..2 * n].to_vec(),
                v: floats[2 * n..].to_vec(),
                t,
            },
        })
    }

    /// Writes the checkpoint through a temporary file and a rename, so an interrupted write
    /// leaves the previous checkpoint intact.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        write_atomically(path, &self.to_bytes())
    }

    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Little-endian fields in sequence from a buffer already known to be long enough.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let field = self.bytes[self.pos..self.pos + N]
            .try_into()
            .expect("N bytes");
        self.pos += N;
        field
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
    fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.take())
    }
}

/// Writes `bytes` to `path.tmp` and renames it over `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
