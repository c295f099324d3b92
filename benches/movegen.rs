//! Move generation and perft micro-benchmarks. Speed targets are judged against other programs
//! in one run by scripts/perft-speed (Stockfish) and scripts/perft-vs-cozy (cozy-chess); these
//! track our own changes.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use escaque::board::{Board, MoveList};
use escaque::perft::perft;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn movegen(c: &mut Criterion) {
    let kiwipete = Board::from_fen(KIWIPETE).unwrap();
    c.bench_function("generate_all kiwipete", |b| {
        b.iter(|| {
            let mut list = MoveList::new();
            black_box(&kiwipete).generate_all(&mut list);
            list.len()
        })
    });
    c.bench_function("count_legal_moves kiwipete", |b| {
        b.iter(|| black_box(&kiwipete).count_legal_moves())
    });
    let moves = kiwipete.legal_moves();
    c.bench_function("make_move x48 kiwipete", |b| {
        b.iter(|| {
            moves
                .iter()
                .map(|&m| black_box(&kiwipete).make_move(m).hash())
                .fold(0, |a, h| a ^ h)
        })
    });
}

fn perfts(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let start = Board::startpos();
    let kiwipete = Board::from_fen(KIWIPETE).unwrap();
    group.bench_function("startpos 5", |b| b.iter(|| perft(black_box(&start), 5)));
    group.bench_function("kiwipete 4", |b| b.iter(|| perft(black_box(&kiwipete), 4)));
    group.finish();
}

criterion_group!(benches, movegen, perfts);
criterion_main!(benches);
