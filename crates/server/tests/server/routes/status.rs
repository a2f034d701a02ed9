//! `GET /api/v1/status`, the JSON twin of `/api-status`: public, with the queue, the workers
//! (from their heartbeats in the database), the browser, the database and the last day of
//! health samples; one sample per minute however many processes share the database.

use chrono::{Duration, TimeZone, Utc};
use domain::report::ReportType;
use domain::status::{ApiStatus, BrowserMode, HISTORY_BARS, ServiceState};
use server::services::status::{StatusSources, minute_of};
use store::jobs::{NewAnalysis, enqueue_analysis};

use crate::support::{BOTH, Engine, TestDb, WEB_ONLY, config, each_engine, run_on, spawn_app};

fn analysis(n: u32) -> NewAnalysis {
    NewAnalysis {
        url: format!("https://site-{n}.example"),
        canonical_url: format!("https://site-{n}.example/"),
        report_type: ReportType::Basic,
        requested_pages: 1,
        requester_user_id: None,
        requester_ip: Some("203.0.113.9".to_owned()),
    }
}

fn sources(db: &store::DatabaseConnection, test: &TestDb) -> StatusSources {
    StatusSources::new(db.clone(), &config(test))
}

async fn status_of(app: &crate::support::TestApp) -> ApiStatus {
    let res = app
        .web
        .http
        .get(format!("{}/api/v1/status", app.web.base))
        .send()
        .await
        .expect("request");
    assert_eq!(res.status(), 200, "public: no key needed");
    assert_eq!(
        res.headers()
            .get("cache-control")
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    serde_json::from_slice(&res.bytes().await.expect("body")).expect("an ApiStatus")
}

/// A fresh database with a web node and no worker: the API answers, the database is reachable
/// and the queue empty, but no worker is alive, so the service is down (analyses would never
/// run); nothing was counted against any key.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_fresh_web_node_without_workers_says_so() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let status = status_of(&app).await;
        assert_eq!(status.api.state, ServiceState::Operational);
        assert_eq!(status.api.version, "v1");
        assert!(status.database.reachable);
        assert_eq!(status.database.state, ServiceState::Operational);
        assert!(status.database.latency_ms.is_some_and(|ms| ms >= 0.0));
        let engine = match db.engine {
            Engine::Sqlite => "sqlite",
            Engine::Postgres => "postgres",
        };
        assert_eq!(status.database.engine, engine);
        assert_eq!(
            (
                status.queue.depth,
                status.queue.running,
                status.queue.oldest_wait_seconds
            ),
            (0, 0, None)
        );
        assert_eq!(status.queue.state, ServiceState::Operational);
        assert_eq!(status.workers.alive, 0);
        assert_eq!(status.workers.state, ServiceState::Down);
        // No worker reports a browser: this node's setting (off in tests) speaks.
        assert!(!status.browser.available);
        assert_eq!(status.browser.state, ServiceState::Degraded);
        assert!(status.browser.workers.is_empty());
        assert_eq!(status.state, ServiceState::Down);
        assert_eq!(status.history.hours, 24);
        assert_eq!(status.history.sample_every_seconds, 60);
        assert_eq!(status.history.bars.len(), HISTORY_BARS);
        app.running.shutdown().await;
    })
    .await;
}

/// A process with a worker reports it alive with its capacity before `start` returns; queued
/// analyses show as the queue's depth with the oldest one's wait; a worker that stops is no
/// longer counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn queued_jobs_and_live_workers_are_counted() {
    each_engine(|db: TestDb| async move {
        // A web-only node reads the database a worker process shares with it.
        let web = spawn_app(config(&db), WEB_ONLY).await;
        let conn = web.running.db.clone();
        for n in 0..3 {
            enqueue_analysis(&conn, &analysis(n)).await.expect("queued");
        }
        let status = status_of(&web).await;
        assert_eq!(status.queue.depth, 3);
        assert_eq!(status.queue.running, 0);
        assert!(status.queue.oldest_wait_seconds.is_some());
        assert_eq!(status.workers.alive, 0);

        // Its heartbeat says a worker is alive, busy or not, with its browser (off here).
        let mut worker_config = config(&db);
        worker_config.workers = 3;
        let worker = server::start(
            worker_config,
            server::Roles {
                web: false,
                worker: true,
            },
        )
        .await
        .expect("worker starts");
        let status = status_of(&web).await;
        assert_eq!(status.workers.alive, 1);
        assert_eq!(status.workers.capacity, 3);
        assert_eq!(status.workers.state, ServiceState::Operational);
        assert_eq!(status.browser.workers, vec![BrowserMode::Off]);
        assert_eq!(status.browser.launched, 0);
        worker.shutdown().await;

        let status = status_of(&web).await;
        assert_eq!(status.workers.alive, 0, "a stopped worker is forgotten");
        web.running.shutdown().await;
    })
    .await;
}

/// `sitelens serve` (web and worker in one process) counts its own worker.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn serve_counts_its_own_worker() {
    run_on(Engine::Sqlite, |db: TestDb| async move {
        let app = spawn_app(config(&db), BOTH).await;
        let status = status_of(&app).await;
        assert_eq!(status.workers.alive, 1);
        assert_eq!(status.workers.capacity, 2);
        app.running.shutdown().await;
    })
    .await;
}

/// Two processes (two states on one database) sampling the same minute store one sample; a
/// sample is taken for each minute; the samples older than a day are removed when a newer one
/// is stored, and the JSON shows the day's samples only, in its bars too.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_sample_a_minute_and_a_day_of_them() {
    each_engine(|db: TestDb| async move {
        let conn = store::connect(&db.url).await.expect("connect");
        let first = sources(&conn, &db);
        let second = sources(&store::connect(&db.url).await.expect("connect"), &db);
        // A fixed day in the future, so the samples of any real node cannot mix with these.
        let base = Utc
            .with_ymd_and_hms(2031, 3, 4, 12, 0, 0)
            .single()
            .expect("time");

        let (a, b) = tokio::join!(
            first.take_sample(base + Duration::seconds(1)),
            second.take_sample(base + Duration::seconds(30)),
        );
        assert_eq!(
            [a.expect("sampled"), b.expect("sampled")]
                .iter()
                .filter(|stored| **stored)
                .count(),
            1,
            "one of the two stores the minute's sample"
        );
        assert!(
            !first
                .take_sample(base + Duration::seconds(59))
                .await
                .expect("sampled"),
            "the minute has its sample"
        );
        assert!(
            second
                .take_sample(base + Duration::seconds(60))
                .await
                .expect("sampled"),
            "the next minute gets its own"
        );
        assert_eq!(
            store::health::sample_minutes(&conn).await.expect("minutes"),
            vec![minute_of(base), minute_of(base) + 60]
        );

        // A day later, the first is past the kept day (1440 minutes, this one included).
        let later = base + Duration::hours(24);
        assert!(first.take_sample(later).await.expect("sampled"));
        assert_eq!(
            store::health::sample_minutes(&conn).await.expect("minutes"),
            vec![minute_of(base) + 60, minute_of(later)],
            "samples older than a day are removed"
        );
        let status = first.current(later).await;
        let at: Vec<&str> = status
            .history
            .samples
            .iter()
            .map(|s| s.at.as_str())
            .collect();
        assert_eq!(at, ["2031-03-04T12:01:00Z", "2031-03-05T12:00:00Z"]);
        // No worker is alive in this test: every sample says down.
        assert!(
            status
                .history
                .samples
                .iter()
                .all(|s| s.state == ServiceState::Down && s.workers_alive == 0)
        );
        assert_eq!(status.history.uptime_percent, Some(0.0));
        let in_bars: u32 = status.history.bars.iter().map(|b| b.samples).sum();
        assert_eq!(in_bars, 2);
        assert_eq!(
            status.history.bars.last().and_then(|b| b.state),
            Some(ServiceState::Down)
        );
    })
    .await;
}

/// The served JSON holds the samples of the last day from the database, not older ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_json_shows_the_last_day_of_samples() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let conn = app.running.db.clone();
        let now = Utc::now();
        let old = store::health::Sample {
            minute: minute_of(now - Duration::hours(30)),
            taken_at: now - Duration::hours(30),
            state: ServiceState::Operational,
            database_ms: Some(1.0),
            queue_depth: 0,
            oldest_wait_seconds: None,
            workers_alive: 1,
            workers_busy: 0,
        };
        let recent = store::health::Sample {
            minute: minute_of(now - Duration::hours(2)),
            taken_at: now - Duration::hours(2),
            state: ServiceState::Degraded,
            database_ms: Some(2.5),
            ..old.clone()
        };
        for s in [&old, &recent] {
            // Kept from long before, so this insert removes nothing.
            assert!(
                store::health::record_sample(&conn, s, 0)
                    .await
                    .expect("stored")
            );
        }
        let status = status_of(&app).await;
        let minutes: Vec<i64> = status
            .history
            .samples
            .iter()
            .map(|s| {
                chrono::DateTime::parse_from_rfc3339(&s.at)
                    .expect("rfc3339")
                    .timestamp()
            })
            .collect();
        assert!(minutes.contains(&recent.minute));
        assert!(!minutes.contains(&old.minute), "older than a day");
        assert!(
            minutes.windows(2).all(|w| w[0] < w[1]),
            "oldest first, one a minute"
        );
        let recent_sample = status
            .history
            .samples
            .iter()
            .find(|s| s.database_ms == Some(2.5))
            .expect("the recent sample");
        assert_eq!(recent_sample.state, ServiceState::Degraded);
        assert_eq!(recent_sample.workers_alive, 1);
        assert!(
            status
                .history
                .bars
                .iter()
                .any(|b| b.state == Some(ServiceState::Degraded) && b.max_database_ms == Some(2.5))
        );
        app.running.shutdown().await;
    })
    .await;
}
