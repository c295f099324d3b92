//! The NNUE kernels (`escaque::nnue::simd`) on each path this CPU can run, at the hidden sizes the
//! networks use: `cargo bench --bench nnue_kernels`. With the default native build the portable
//! path is auto-vectorised for the native CPU too; build with
//! `RUSTFLAGS="-C target-cpu=x86-64-v2"` to see it as a portable binary runs it.

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use escaque::nnue::simd;

/// `n` elements starting on a 64-byte boundary, as the engine's rows and accumulators do (a
/// plain `Vec` may start anywhere, and then every 512-bit load splits a cache line).
struct Aligned {
    buffer: Vec<i16>,
    start: usize,
    n: usize,
}

impl Aligned {
    fn new(values: &[i16]) -> Aligned {
        let n = values.len();
        let mut buffer = vec![0i16; n + 32];
        let start = buffer.as_ptr().align_offset(64);
        buffer[start..start + n].copy_from_slice(values);
        Aligned { buffer, start, n }
    }

    fn get(&self) -> &[i16] {
        &self.buffer[self.start..self.start + self.n]
    }

    fn get_mut(&mut self) -> &mut [i16] {
        &mut self.buffer[self.start..self.start + self.n]
    }
}

/// Deterministic pseudo-random `i16`s in `lo..lo + span`, 64-byte aligned.
fn values(seed: u64, n: usize, lo: i32, span: u32) -> Aligned {
    let mut state = seed;
    let values: Vec<i16> = (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (lo + ((state >> 33) as u32 % span) as i32) as i16
        })
        .collect();
    Aligned::new(&values)
}

fn kernels(c: &mut Criterion) {
    println!("entry points use the {} path", simd::path_name());
    for hidden in [512, 1024] {
        let input = values(1, hidden, -300, 800);
        let input = input.get();
        let rows: Vec<Aligned> = (0..4).map(|k| values(10 + k, hidden, -64, 128)).collect();
        let rows: Vec<&[i16]> = rows.iter().map(Aligned::get).collect();
        let weights = values(20, hidden, -127, 255);
        let weights = weights.get();
        let mut out = values(0, hidden, 0, 1);
        let out = out.get_mut();
        let mut group = c.benchmark_group(format!("nnue hidden {hidden}"));
        // The same paths in the same order for both shapes of rows.
        let paths = simd::detected_paths::<1, 1>()
            .into_iter()
            .zip(simd::detected_paths::<2, 2>());
        for ((name, add_sub_11, in_place, dot), (_, add_sub_22, _, _)) in paths {
            group.bench_function(BenchmarkId::new("add_sub 1+1", name), |b| {
                b.iter(|| {
                    add_sub_11(out, black_box(input), [rows[0]], [rows[1]]);
                    black_box(out[0])
                })
            });
            group.bench_function(BenchmarkId::new("add_sub 2+2", name), |b| {
                b.iter(|| {
                    add_sub_22(
                        out,
                        black_box(input),
                        [rows[0], rows[1]],
                        [rows[2], rows[3]],
                    );
                    black_box(out[0])
                })
            });
            group.bench_function(BenchmarkId::new("add_sub_in_place 1+1", name), |b| {
                // Adds and subtracts the same row, so the accumulator stays as it was.
                out.copy_from_slice(input);
                b.iter(|| {
                    in_place(black_box(&mut *out), [rows[0]], [rows[0]]);
                    black_box(out[0])
                })
            });
            group.bench_function(BenchmarkId::new("screlu_dot", name), |b| {
                b.iter(|| dot(black_box(input), black_box(weights)))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(30);
    targets = kernels
}
criterion_main!(benches);
