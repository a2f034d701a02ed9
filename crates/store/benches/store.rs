//! Store benchmarks on SQLite and PostgreSQL: reading a stored result by id, and the job
//! cycle a worker runs (enqueue, claim, complete with a result).
//!
//! Criterion reports time per operation and throughput (`elem/s`, one element per
//! operation); a summary of operations per second per engine is printed at the end. Each
//! engine gets a fresh database from `test-support`, removed afterwards; without a reachable
//! PostgreSQL its half is skipped with a warning, or fails when `CI=true`.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use domain::report::ReportType;
use sea_orm::DatabaseConnection;
use serde_json::json;
use store::jobs::{NewAnalysis, claim_next_job, complete_job, enqueue_analysis};
use store::results::{NewResult, get_result, insert_result};
use store::websites::record_website_analysis;
use test_support::{Engine, TestDb};
use tokio::runtime::Runtime;

/// Operations and time measured per benchmark, for the closing summary.
struct Tally {
    rows: RefCell<Vec<(String, u64, Duration)>>,
}

impl Tally {
    fn add(&self, name: &str, iters: u64, elapsed: Duration) {
        let mut rows = self.rows.borrow_mut();
        match rows.iter_mut().find(|(n, _, _)| n == name) {
            Some(row) => {
                row.1 += iters;
                row.2 += elapsed;
            }
            None => rows.push((name.to_owned(), iters, elapsed)),
        }
    }
}

fn sample_result() -> NewResult {
    let findings = json!([{
        "title": "Meta tags",
        "status": "needs-improvement",
        "findings": [
            {"type": "warning", "title": "Title too long", "description": "72 characters; aim for 30-60."},
            {"type": "good", "title": "Meta description", "description": "140 characters."}
        ]
    }]);
    NewResult {
        seo_score: 81,
        design_score: 74,
        technical_score: 66,
        performance_score: 92,
        overall_score: 78,
        seo_findings: findings.clone(),
        design_findings: findings.clone(),
        technical_findings: findings.clone(),
        performance_findings: findings,
        action_items: json!([{"priority": "high", "title": "Shorten the title", "description": "...", "impact": "CTR"}]),
        website_colors: Some(json!(["#ffffff", "#111827", "#4f46e5"])),
        ..NewResult::default()
    }
}

fn bench_engine(
    c: &mut Criterion,
    rt: &Runtime,
    engine: &str,
    db: &DatabaseConnection,
    tally: &Tally,
) {
    let result_id = rt.block_on(async {
        let site = record_website_analysis(db, "https://bench.example/", store::now())
            .await
            .expect("website");
        insert_result(
            db,
            site.id,
            "https://bench.example/",
            ReportType::Basic,
            &sample_result(),
        )
        .await
        .expect("result")
    });
    let mut group = c.benchmark_group(engine);
    group
        .throughput(Throughput::Elements(1))
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));

    let name = format!("{engine}/read_result_by_id");
    group.bench_function("read_result_by_id", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            rt.block_on(async {
                for _ in 0..iters {
                    let row = get_result(db, result_id).await.expect("read");
                    std::hint::black_box(row);
                }
            });
            let elapsed = start.elapsed();
            tally.add(&name, iters, elapsed);
            elapsed
        })
    });

    let name = format!("{engine}/enqueue_claim_complete");
    let result = sample_result();
    group.bench_function("enqueue_claim_complete", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            rt.block_on(async {
                for i in 0..iters {
                    let analysis = NewAnalysis {
                        url: format!("site{}.example", i % 50),
                        canonical_url: format!("https://site{}.example/", i % 50),
                        report_type: ReportType::Basic,
                        requested_pages: 1,
                        requester_user_id: None,
                        requester_ip: None,
                    };
                    enqueue_analysis(db, &analysis).await.expect("enqueue");
                    let job = claim_next_job(db, "bench")
                        .await
                        .expect("claim")
                        .expect("a job");
                    complete_job(db, job.id, "bench", &result)
                        .await
                        .expect("complete");
                }
            });
            let elapsed = start.elapsed();
            tally.add(&name, iters, elapsed);
            elapsed
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let rt = Runtime::new().expect("runtime");
    let tally = Tally {
        rows: RefCell::new(Vec::new()),
    };

    // SQLite: a file in WAL mode, as a single-binary deployment runs it; then PostgreSQL.
    // Each engine gets a fresh database, removed afterwards.
    for engine in [Engine::Sqlite, Engine::Postgres] {
        let Some(test_db) = rt.block_on(TestDb::create(engine)) else {
            continue;
        };
        let db = rt
            .block_on(store::connect(&test_db.url))
            .expect("connect and migrate");
        let label = match engine {
            Engine::Sqlite => "sqlite",
            Engine::Postgres => "postgres",
        };
        bench_engine(c, &rt, label, &db, &tally);
        rt.block_on(db.close()).expect("close");
        rt.block_on(test_db.drop_db());
    }

    println!("\nstore throughput (sequential, one task; warm-up and measurement together):");
    for (name, iters, elapsed) in tally.rows.borrow().iter() {
        let per_second = *iters as f64 / elapsed.as_secs_f64();
        println!(
            "  {name:<34} {per_second:>10.0} ops/s  ({iters} ops in {:.2} s)",
            elapsed.as_secs_f64()
        );
    }
}

criterion_group!(store_benches, benches);
criterion_main!(store_benches);
