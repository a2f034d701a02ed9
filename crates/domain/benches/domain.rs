//! Benchmarks of the hot domain rules: URL normalisation and the pricing calculator.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use domain::commerce::calculate;
use domain::forms::CalculatorInput;
use domain::site_url::{canonicalize, normalize_input};

fn urls(c: &mut Criterion) {
    let inputs = [
        "example.com",
        "  HTTPS://Www.Example.COM:443/Some/Path?q=1#frag ",
        "münchen.de/straße",
        "http://127.0.0.1:8080/",
        "not a url",
    ];
    c.bench_function("normalize_input (5 addresses)", |b| {
        b.iter(|| {
            for i in &inputs {
                let _ = black_box(normalize_input(black_box(i)));
            }
        })
    });
    c.bench_function("canonicalize (5 addresses)", |b| {
        b.iter(|| {
            for i in &inputs {
                let _ = black_box(canonicalize(black_box(i)));
            }
        })
    });
}

fn calculator(c: &mut Criterion) {
    let input = CalculatorInput {
        basic: 12,
        standard: 37,
        premium: 9,
        team: 4,
    };
    c.bench_function("calculate", |b| b.iter(|| calculate(black_box(&input))));
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = urls, calculator
}
criterion_main!(benches);
