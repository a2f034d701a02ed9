//! A progress stream never moves backwards: an event published before the stream read the job
//! row, but delivered after the row's newer state, is not sent.

use domain::report::{ProgressEvent, ProgressEventType, ReportType};
use futures::StreamExt;
use server::services::hub::Hub;
use server::services::progress::follow;
use store::jobs::{NewAnalysis, claim_next_job, enqueue_analysis, update_progress};

use crate::support::{TestDb, each_engine};

fn progress(id: &str, percent: u32) -> ProgressEvent {
    ProgressEvent {
        kind: ProgressEventType::Progress,
        analysis_id: id.to_owned(),
        step: Some("SEO Analysis".to_owned()),
        progress: percent,
        message: format!("{percent}%"),
        timestamp: 0.0,
        result_id: None,
    }
}

async fn stale_events_are_dropped(db: TestDb) {
    let engine = db.engine;
    let conn = store::connect(&db.url).await.expect("connect");
    let hub = Hub::new(conn.clone());
    hub.listen();
    enqueue_analysis(
        &conn,
        &NewAnalysis {
            url: "https://shop.example/".to_owned(),
            canonical_url: "https://shop.example/".to_owned(),
            report_type: ReportType::Basic,
            requested_pages: 1,
            requester_user_id: None,
            requester_ip: None,
        },
    )
    .await
    .expect("enqueue");
    let job = claim_next_job(&conn, "w")
        .await
        .expect("claim")
        .expect("job");
    update_progress(&conn, job.id, "w", 50, "SEO Analysis", "half way")
        .await
        .expect("progress");
    let id = job.id.to_string();
    let mut events = Box::pin(follow(conn.clone(), &hub, job.id).await.expect("follow"));
    let first = events.next().await.expect("connected");
    assert_eq!(first.kind, ProgressEventType::Connected);
    let stored = events.next().await.expect("the stored state");
    assert_eq!(stored.progress, 50, "{engine:?}");
    // Published before the row said 50, delivered after: it must not move the bar back.
    hub.publish(progress(&id, 20)).await;
    hub.publish(progress(&id, 60)).await;
    let mut done = progress(&id, 100);
    done.kind = ProgressEventType::Complete;
    hub.publish(done).await;
    let rest: Vec<(ProgressEventType, u32)> = events.map(|e| (e.kind, e.progress)).collect().await;
    assert_eq!(
        rest,
        vec![
            (ProgressEventType::Progress, 60),
            (ProgressEventType::Complete, 100)
        ],
        "{engine:?}"
    );
    conn.close().await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_progress_stream_never_goes_back() {
    each_engine(stale_events_are_dropped).await;
}
