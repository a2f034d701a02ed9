//! Benchmarks of the hot domain rules: URL normalisation and the pricing calculator.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

fn overall(c: &mut Criterion) {
    c.bench_function("overall_score", |b| {
        b.iter(|| domain::score::overall_score(black_box(81), black_box(70), black_box(65), black_box(92)))
    });
}

criterion_group!(benches, overall);
criterion_main!(benches);
