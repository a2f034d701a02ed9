//! The queue under load (`just bench`): 200 basic analyses of local fixture pages, submitted
//! at once through the API by 200 different visitors, against 2 `sitelens worker` processes
//! (the real binary, 2 analyses at a time each) on PostgreSQL. Prints throughput, queue wait
//! p50/p99, run time, failures with their reasons, retries, the share of each worker and the
//! peak memory of each worker process (and of its Chromium, when the browser is on).
//!
//! Nothing may be lost or stuck: every submitted job must end complete or failed with a
//! reason within the deadline, or the benchmark fails and names the jobs.
//!
//! `SITELENS_BENCH_BROWSER=1` runs the workers with Chromium (lab metrics and screenshots, as
//! in production); by default they analyse over HTTP only, which measures the queue itself.
//! Every site is served on 127.0.0.1.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use futures::StreamExt;
use server::config::{BlobStorage, Chromium, IpBlock};
use server::{Config, Roles};
use store::jobs::{Job, JobStatus};
use test_support::{Engine, TestDb};

#[path = "../../analyzer/tests/support/server.rs"]
#[allow(missing_docs)]
mod fixture_server;

use fixture_server::{Reply, Site, TestServer, fixture};

const WORKER_PROCESSES: usize = 2;
/// Analyses each worker process runs at a time (`SITELENS_WORKERS`, the default).
const PER_WORKER: &str = "2";
/// How long the queue may take to drain before the remaining jobs count as stuck.
const DEADLINE: Duration = Duration::from_secs(900);

/// `n` different pages: the analyzer's fixtures (a well-made page, a poor one, an article
/// template with generated text), each made distinct by its address and title.
fn site(base: &str, n: usize) -> Site {
    let good = fixture("good.html", base);
    let bad = fixture("bad.html", base);
    let article = fixture("page.html", base);
    let mut site = Site::new();
    for i in 0..n {
        let html = match i % 3 {
            0 => good.replace("<title>", &format!("<title>Page {i}: ")),
            1 => bad.replace("<title>", &format!("<title>Page {i}: ")),
            _ => article
                .replace(
                    "{{title}}",
                    &format!("Oak furniture article {i} | Acme workshop"),
                )
                .replace("{{h1}}", &format!("Oak furniture article {i}"))
                .replace(
                    "{{text}}",
                    &format!("Article {i} is about oak tables, chairs and shelves. ").repeat(40),
                )
                .replace("{{links}}", "<li><a href=\"/page/0\">Home</a></li>"),
        };
        site.add(&format!("/page/{i}"), Reply::html(html));
    }
    site.add(
        "/robots.txt",
        Reply::text("text/plain", "User-agent: *\nAllow: /\n"),
    );
    site
}

/// A worker process, its output in its folder.
struct Worker {
    name: String,
    child: Child,
    out: PathBuf,
}

fn spawn_worker(name: &str, dir: &Path, db_url: &str, browser: bool) -> Worker {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).expect("worker folder");
    let out = folder.join("output.txt");
    let mut command = Command::new(env!("CARGO_BIN_EXE_sitelens"));
    for (variable, _) in server::config::VARIABLES {
        command.env_remove(variable);
    }
    let child = command
        .arg("worker")
        .current_dir(&folder)
        .env("SITELENS_DATABASE_URL", db_url)
        .env("SITELENS_DATA_DIR", folder.join("data"))
        .env("SITELENS_ALLOW_PRIVATE_TARGETS", "true")
        .env(
            "SITELENS_CHROMIUM",
            if browser { "/usr/bin/chromium" } else { "off" },
        )
        .env("SITELENS_WORKERS", PER_WORKER)
        .env("HOSTNAME", name)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).expect("output"))
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the worker starts");
    Worker {
        name: name.to_owned(),
        child,
        out,
    }
}

/// A memory figure of a process in KiB from a `/proc/{pid}` file: `VmHWM:` (peak resident
/// memory) in `status`, or `Pss:` in `smaps_rollup`.
fn memory_kib(pid: u32, file: &str, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/{file}"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| {
            l.strip_prefix(field)?
                .trim()
                .strip_suffix("kB")?
                .trim()
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

/// The memory of `pid` and every process below it (its Chromium), in KiB: the sum of their
/// proportional set sizes, so pages shared between Chromium's processes count once.
fn tree_rss_kib(pid: u32) -> u64 {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(child) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // The parent is the second field after the command, which ends with the last ')'.
        if let Some(parent) = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse().ok())
        {
            parents.push((child, parent));
        }
    }
    let mut tree = vec![pid];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        i += 1;
    }
    tree.iter()
        .map(|p| memory_kib(*p, "smaps_rollup", "Pss:"))
        .sum()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn secs(from: chrono::DateTime<chrono::Utc>, to: chrono::DateTime<chrono::Utc>) -> f64 {
    (to - from).num_milliseconds() as f64 / 1000.0
}

async fn bench(db: &TestDb, analyses: usize, browser: bool) {
    let dir = db.dir().to_owned();
    let fixtures = TestServer::start(move |base| site(base, analyses)).await;
    // The web node runs in this process, behind "a proxy" on loopback so each submission
    // comes from its own visitor (one free analysis each).
    let config = Config {
        database_url: db.url.clone(),
        bind: "127.0.0.1:0".parse().expect("addr"),
        web_dir: dir.join("web"),
        data_dir: dir.join("web-data"),
        blob_storage: BlobStorage::Local,
        workers: 2,
        trusted_proxies: vec![IpBlock::parse("127.0.0.1").expect("block")],
        allow_private_targets: true,
        chromium: Chromium::Off,
        public_url: "http://127.0.0.1".to_owned(),
        heartbeat_timeout: Duration::from_secs(60),
        llm: None,
        accounts_url: String::new(),
        smtp_url: None,
        mail_from: "Sitelens <no-reply@sitelens.test>".to_owned(),
        sales_email: None,
        mail_attachment_max_bytes: domain::report_mail::ATTACHMENT_MAX_BYTES,
        oidc: None,
        stripe: None,
        referral_salt: None,
        dns_resolver: None,
        log_filter: "warn".to_owned(),
        node_name: "bench-web".to_owned(),
    };
    let web = server::start(
        config,
        Roles {
            web: true,
            worker: false,
        },
    )
    .await
    .expect("web node");
    let addr = web.addr.expect("addr");
    let mut workers: Vec<Worker> = (0..WORKER_PROCESSES)
        .map(|i| spawn_worker(&format!("worker-{}", i + 1), &dir, &db.url, browser))
        .collect();
    for w in &mut workers {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !std::fs::read_to_string(&w.out)
            .unwrap_or_default()
            .contains("Sitelens worker is running")
        {
            assert!(
                w.child.try_wait().expect("wait").is_none(),
                "{} exited",
                w.name
            );
            assert!(Instant::now() < deadline, "{} did not start", w.name);
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    // Peak memory of each worker's process tree, sampled every 100 ms.
    let pids: Vec<u32> = workers.iter().map(|w| w.child.id()).collect();
    let sampling = Arc::new(AtomicBool::new(true));
    let sampler = {
        let (pids, sampling) = (pids.clone(), sampling.clone());
        std::thread::spawn(move || {
            let mut peaks = vec![0u64; pids.len()];
            while sampling.load(Ordering::Relaxed) {
                for (peak, pid) in peaks.iter_mut().zip(&pids) {
                    *peak = (*peak).max(tree_rss_kib(*pid));
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            peaks
        })
    };

    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::Client::new();
    let started = Instant::now();
    let submissions = futures::stream::iter(0..analyses)
        .map(|i| {
            let http = http.clone();
            let url = fixtures.url(&format!("/page/{i}"));
            async move {
                let visitor = format!("198.18.{}.{}", i / 250, i % 250 + 1);
                let res = http
                    .post(format!("http://{addr}/api/analyze"))
                    .header("content-type", "application/json")
                    .header("x-forwarded-for", visitor)
                    .body(serde_json::json!({ "url": url }).to_string())
                    .send()
                    .await
                    .expect("submit");
                let status = res.status();
                let body: serde_json::Value =
                    serde_json::from_slice(&res.bytes().await.expect("body")).expect("json");
                assert!(status.is_success(), "submission {i}: {status} {body}");
                body["analysisId"]
                    .as_str()
                    .expect("analysisId")
                    .parse::<uuid::Uuid>()
                    .expect("uuid")
            }
        })
        .buffer_unordered(32)
        .collect::<Vec<_>>()
        .await;
    let submitted = started.elapsed();

    // Wait until every job has ended, or the deadline.
    let deadline = Instant::now() + DEADLINE;
    let jobs: Vec<Job> = loop {
        let jobs = store::jobs::recent_jobs(&web.db, None, (analyses * 2) as u64)
            .await
            .expect("jobs");
        let open = jobs
            .iter()
            .filter(|j| matches!(j.status, JobStatus::Queued | JobStatus::Running))
            .count();
        if open == 0 || Instant::now() >= deadline {
            break jobs;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let drained = started.elapsed();
    let hwm: Vec<u64> = pids
        .iter()
        .map(|p| memory_kib(*p, "status", "VmHWM:"))
        .collect();
    sampling.store(false, Ordering::Relaxed);
    let tree_peaks = sampler.join().expect("sampler");

    // Nothing lost, nothing stuck.
    let lost: Vec<_> = submissions
        .iter()
        .filter(|id| !jobs.iter().any(|j| j.id == **id))
        .collect();
    let stuck: Vec<String> = jobs
        .iter()
        .filter(|j| matches!(j.status, JobStatus::Queued | JobStatus::Running))
        .map(|j| format!("{} {:?} on {:?}", j.id, j.status, j.claimed_by))
        .collect();
    let unexplained: Vec<_> = jobs
        .iter()
        .filter(|j| j.status == JobStatus::Failed && j.error.as_deref().unwrap_or("").is_empty())
        .map(|j| j.id)
        .collect();

    let mut waits: Vec<f64> = jobs
        .iter()
        .filter_map(|j| Some(secs(j.created_at, j.started_at?)))
        .collect();
    let mut runs: Vec<f64> = jobs
        .iter()
        .filter_map(|j| Some(secs(j.started_at?, j.finished_at?)))
        .collect();
    waits.sort_by(f64::total_cmp);
    runs.sort_by(f64::total_cmp);
    let first = jobs.iter().map(|j| j.created_at).min().expect("jobs");
    let last = jobs
        .iter()
        .filter_map(|j| j.finished_at)
        .max()
        .unwrap_or(first);
    let complete = jobs
        .iter()
        .filter(|j| j.status == JobStatus::Complete)
        .count();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for j in jobs.iter().filter(|j| j.status == JobStatus::Failed) {
        *reasons
            .entry(j.error.clone().unwrap_or_default())
            .or_default() += 1;
    }
    let retried = jobs.iter().filter(|j| j.attempts > 1).count();

    let mode = if browser {
        "with Chromium"
    } else {
        "HTTP only"
    };
    println!(
        "queue: {analyses} basic analyses ({mode}) against {WORKER_PROCESSES} worker processes × {PER_WORKER} on PostgreSQL"
    );
    println!(
        "  submitted in {:.2} s; queue drained {:.2} s after the first submission",
        submitted.as_secs_f64(),
        drained.as_secs_f64()
    );
    println!(
        "  throughput {:.1} analyses/s ({:.0}/min), first queued to last finished {:.2} s",
        jobs.len() as f64 / secs(first, last).max(0.001),
        jobs.len() as f64 * 60.0 / secs(first, last).max(0.001),
        secs(first, last)
    );
    println!(
        "  queue wait p50 {:.2} s, p99 {:.2} s, max {:.2} s; run time p50 {:.2} s, p99 {:.2} s",
        percentile(&waits, 0.50),
        percentile(&waits, 0.99),
        waits.last().copied().unwrap_or(0.0),
        percentile(&runs, 0.50),
        percentile(&runs, 0.99)
    );
    println!(
        "  complete {complete}, failed {}, retried {retried}, lost {}, stuck {}",
        jobs.len() - complete - stuck.len(),
        lost.len(),
        stuck.len()
    );
    for (reason, n) in &reasons {
        println!("    failed ×{n}: {reason}");
    }
    for (i, w) in workers.iter().enumerate() {
        let done = jobs
            .iter()
            .filter(|j| {
                j.claimed_by
                    .as_deref()
                    .is_some_and(|c| c.starts_with(&format!("{}-", w.name)))
            })
            .count();
        let tree = if browser {
            format!(
                ", with its Chromium {:.0} MiB (peak of the sampled PSS sum)",
                tree_peaks[i] as f64 / 1024.0
            )
        } else {
            String::new()
        };
        println!(
            "  {}: {done} analyses, peak memory {:.0} MiB{tree}",
            w.name,
            hwm[i] as f64 / 1024.0
        );
    }

    for w in &mut workers {
        let _ = Command::new("kill")
            .args(["-TERM", &w.child.id().to_string()])
            .status();
        let _ = w.child.wait();
    }
    web.shutdown().await;
    assert!(lost.is_empty(), "lost jobs: {lost:?}");
    assert!(stuck.is_empty(), "stuck jobs: {stuck:?}");
    assert!(
        unexplained.is_empty(),
        "failed without a reason: {unexplained:?}"
    );
    assert_eq!(jobs.len(), analyses, "one job per submission");
}

fn main() {
    // `cargo test --benches` runs this without --bench: keep that run small.
    let full = std::env::args().any(|a| a == "--bench");
    let analyses = if full { 200 } else { 20 };
    let browser = std::env::var("SITELENS_BENCH_BROWSER").is_ok_and(|v| v == "1");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let Some(db) = TestDb::create(Engine::Postgres).await else {
            println!("queue: PostgreSQL unreachable; skipped");
            return;
        };
        bench(&db, analyses, browser).await;
        db.drop_db().await;
    });
}
