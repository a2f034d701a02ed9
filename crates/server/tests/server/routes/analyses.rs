//! `POST /api/analyze`: the whole journey from submission to the PDF, the free allowance, and
//! a site that cannot be reached.

use serde_json::json;

use super::{Case, JSON, case};
use crate::support::{
    Answer, BOTH, Engine, TestDb, WEB_ONLY, config, each_engine, fixture_site, run_on, spawn_app,
};

/// Malformed submissions.
pub fn malformed() -> Vec<Case> {
    let mut t = vec![
        // POST /api/analyze
        case("POST", "/api/analyze", JSON, "", 400),
        case("POST", "/api/analyze", JSON, "{", 400),
        case("POST", "/api/analyze", JSON, "not json", 400),
        case("POST", "/api/analyze", JSON, "[]", 422),
        case("POST", "/api/analyze", JSON, "null", 422),
        case("POST", "/api/analyze", JSON, "{}", 422),
        case("POST", "/api/analyze", JSON, r#"{"url": 42}"#, 422),
        case("POST", "/api/analyze", JSON, r#"{"url": null}"#, 422),
        case("POST", "/api/analyze", JSON, r#"{"url": ["a"]}"#, 422),
        case(
            "POST",
            "/api/analyze",
            JSON,
            r#"{"link": "example.com"}"#,
            422,
        ),
        case("POST", "/api/analyze", JSON, r#"{"url": ""}"#, 400),
        case("POST", "/api/analyze", JSON, r#"{"url": "   "}"#, 400),
        case(
            "POST",
            "/api/analyze",
            JSON,
            r#"{"url": "ftp://example.com"}"#,
            400,
        ),
        case(
            "POST",
            "/api/analyze",
            JSON,
            r#"{"url": "javascript://alert(1)"}"#,
            400,
        ),
        case(
            "POST",
            "/api/analyze",
            JSON,
            r#"{"url": "https://user:pw@example.com"}"#,
            400,
        ),
        case("POST", "/api/analyze", JSON, r#"{"url": "not a url"}"#, 400),
        case("POST", "/api/analyze", JSON, r#"{"url": "http://"}"#, 400),
        case(
            "POST",
            "/api/analyze",
            JSON,
            r#"{"url": "https://example.com:99999/"}"#,
            400,
        ),
        case(
            "POST",
            "/api/analyze",
            None,
            r#"{"url": "example.com"}"#,
            415,
        ),
        case(
            "POST",
            "/api/analyze",
            Some("text/plain"),
            r#"{"url": "example.com"}"#,
            415,
        ),
        case(
            "POST",
            "/api/analyze",
            Some("application/x-www-form-urlencoded"),
            "url=example.com",
            415,
        ),
        case("GET", "/api/analyze", None, "", 405),
        case(
            "PUT",
            "/api/analyze",
            JSON,
            r#"{"url": "example.com"}"#,
            405,
        ),
    ];
    // Oversized bodies.
    let huge = format!(r#"{{"url": "{}"}}"#, "a".repeat(100_000));
    t.push(Case {
        method: "POST",
        path: "/api/analyze",
        content_type: JSON,
        body: huge.into_bytes(),
        status: 413,
    });
    let long_url = format!(r#"{{"url": "https://example.com/{}"}}"#, "a".repeat(3000));
    t.push(Case {
        method: "POST",
        path: "/api/analyze",
        content_type: JSON,
        body: long_url.into_bytes(),
        status: 400,
    });
    t.push(Case {
        method: "POST",
        path: "/api/analyze",
        content_type: JSON,
        body: vec![0xff, 0xfe, 0x00, 0x7b],
        status: 400,
    });
    t
}

/// Analyse, follow the stream to completion, read the result, download the PDF.
async fn journey(db: TestDb) {
    let engine = db.engine;
    let site = fixture_site().await;
    let app = spawn_app(config(&db), BOTH).await;

    let res = app
        .post_json("/api/analyze", &json!({"url": format!("http://{site}/")}))
        .await;
    assert_eq!(res.status, 200, "{engine:?}: {}", res.json);
    assert_eq!(res.json["success"], true);
    let id = res.json["analysisId"]
        .as_str()
        .expect("analysisId")
        .to_owned();

    let events = app.follow(&id).await;
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(kinds.first(), Some(&"connected"), "{engine:?}: {kinds:?}");
    assert_eq!(kinds.last(), Some(&"complete"), "{engine:?}: {events:?}");
    assert!(events.iter().all(|e| e["analysisId"] == id.as_str()));
    let percents: Vec<u64> = events
        .iter()
        .filter(|e| e["type"] == "progress")
        .filter_map(|e| e["progress"].as_u64())
        .collect();
    assert!(
        percents.windows(2).all(|w| w[0] <= w[1]),
        "progress goes forward: {percents:?}"
    );
    let done = events.last().expect("complete");
    assert_eq!(done["progress"], 100);
    let result_id = done["resultId"].as_str().expect("resultId").to_owned();

    // The analysis id opens the same report (for clients that lost their stream).
    let by_analysis = app.get(&format!("/api/results/{id}")).await;
    assert_eq!(by_analysis.status, 200, "{}", by_analysis.json);
    assert_eq!(by_analysis.json["data"]["id"], result_id.as_str());

    let res = app.get(&format!("/api/results/{result_id}")).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.json["success"], true);
    let data = &res.json["data"];
    assert_eq!(data["id"], result_id.as_str());
    assert_eq!(data["url"], format!("http://{site}/"));
    for key in ["overall", "seo", "design", "technical", "performance"] {
        let v = data["scores"][key].as_u64().expect("score");
        assert!(v <= 100, "{key} = {v}");
    }
    assert!(
        data["seoAnalysis"]
            .as_array()
            .is_some_and(|g| !g.is_empty())
    );
    assert!(data["actionItems"].is_array());
    // Without a browser the lab figures are fallbacks, and the report says so.
    assert!(
        data["performanceAnalysis"]["estimated"]
            .as_array()
            .is_some_and(|e| e.iter().any(|f| f == "largestContentfulPaint"))
    );

    // A late subscriber gets the final state at once.
    let again = app.follow(&id).await;
    assert_eq!(
        again.last().and_then(|e| e["type"].as_str()),
        Some("complete")
    );

    let res = app
        .http
        .post(format!("{}/api/download-basic-report", app.base))
        .header("content-type", "application/json")
        .body(
            json!({"reportId": result_id, "email": "ada@example.com", "firstName": "Ada", "lastName": "Lovelace", "agreeToEmails": true})
                .to_string(),
        )
        .send()
        .await
        .expect("download");
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    let disposition = res.headers()["content-disposition"]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"sitelens-report-127.0.0.1-"),
        "{disposition}"
    );
    let pdf = res.bytes().await.expect("pdf");
    let doc = lopdf::Document::load_mem(&pdf).expect("the PDF parses");
    assert!(!doc.get_pages().is_empty());
    let text = doc.extract_text(&[1]).unwrap_or_default();
    assert!(
        text.contains("Website Analysis Report"),
        "page 1 text: {text}"
    );

    let res = app.get(&format!("/api/download-report/{result_id}")).await;
    assert_eq!(res.status, 200);

    let stats = app.get("/api/stats").await;
    assert_eq!(stats.json["success"], true);
    assert_eq!(stats.json["data"]["totalWebsitesAnalyzed"], "1");

    app.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn whole_journey_on_both_engines() {
    each_engine(journey).await;
}

/// The fourth free analysis of a day is refused; concurrent requests cannot exceed three.
async fn allowance(db: TestDb) {
    let engine = db.engine;
    let site = fixture_site().await;
    // No worker: this test is about admission only.
    let app = spawn_app(config(&db), WEB_ONLY).await;
    let body = json!({"url": format!("http://{site}/")});
    let answers =
        futures::future::join_all((0..12).map(|_| app.post_json("/api/analyze", &body))).await;
    let ok = answers.iter().filter(|a| a.status == 200).count();
    let refused: Vec<&Answer> = answers.iter().filter(|a| a.status == 429).collect();
    assert_eq!(ok, 3, "{engine:?}");
    assert_eq!(refused.len(), 9);
    assert!(refused.iter().all(|a| {
        a.json["success"] == false
            && a.json["error"]
                .as_str()
                .is_some_and(|e| e.contains("3 free analyses"))
    }));
    let again = app.post_json("/api/analyze", &body).await;
    assert_eq!(again.status, 429);
    // Until the next UTC day, when the allowance is given again.
    assert!(again.retry_after.is_some_and(|s| s <= 86_400));
    app.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn free_allowance_is_three_a_day() {
    each_engine(allowance).await;
}

/// A web node behind a trusted proxy on loopback, without a worker.
async fn behind_proxy(db: &TestDb, roles: server::Roles) -> crate::support::TestApp {
    let mut cfg = config(db);
    cfg.trusted_proxies = vec![server::config::IpBlock::parse("127.0.0.1").expect("block")];
    spawn_app(cfg, roles).await
}

/// IPv6 visitors are counted by their /64: other addresses of the same network share its three
/// free analyses, the next network has its own; an IPv4 address written in IPv6 is the IPv4
/// visitor.
async fn ipv6_allowance(db: TestDb) {
    let engine = db.engine;
    let site = fixture_site().await;
    let app = behind_proxy(&db, WEB_ONLY).await;
    let body = json!({"url": format!("http://{site}/")});
    for visitor in [
        "2001:db8:1:2::1",
        "2001:db8:1:2::2",
        "2001:db8:1:2:aaaa:bbbb:cccc:3",
    ] {
        let res = app.post_json_from("/api/analyze", &body, visitor).await;
        assert_eq!(res.status, 200, "{engine:?} {visitor}");
    }
    let same_64 = app
        .post_json_from("/api/analyze", &body, "2001:db8:1:2:ffff:ffff:ffff:ffff")
        .await;
    assert_eq!(same_64.status, 429, "{engine:?}");
    let next_64 = app
        .post_json_from("/api/analyze", &body, "2001:db8:1:3::1")
        .await;
    assert_eq!(next_64.status, 200, "{engine:?}");
    for _ in 0..3 {
        let res = app
            .post_json_from("/api/analyze", &body, "::ffff:198.51.100.7")
            .await;
        assert_eq!(res.status, 200, "{engine:?}");
    }
    let v4 = app
        .post_json_from("/api/analyze", &body, "198.51.100.7")
        .await;
    assert_eq!(v4.status, 429, "{engine:?}: the same IPv4 visitor");
    // The job keeps the visitor's own address; only the allowance is counted by network.
    let id = next_64.json["analysisId"].as_str().expect("id");
    let job = store::jobs::get_job(&app.running.db, id.parse().expect("uuid"))
        .await
        .expect("job");
    assert_eq!(job.requester_ip.as_deref(), Some("2001:db8:1:3::1"));
    app.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ipv6_visitors_share_an_allowance_per_64() {
    each_engine(ipv6_allowance).await;
}

/// A failed analysis gives its free analysis back to the visitor's /64, the key it was counted
/// against.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failure_refunds_the_ipv6_network() {
    run_on(Engine::Sqlite, |db| async move {
        let app = behind_proxy(&db, BOTH).await;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .expect("bind")
            .local_addr()
            .expect("addr")
            .port();
        let body = json!({"url": format!("http://127.0.0.1:{port}/")});
        for n in 1..=3 {
            let visitor = format!("2001:db8:9:9::{n}");
            let res = app.post_json_from("/api/analyze", &body, &visitor).await;
            assert_eq!(res.status, 200);
            let events = app
                .follow(res.json["analysisId"].as_str().expect("id"))
                .await;
            assert_eq!(events.last().expect("event")["type"], "error");
        }
        for n in 4..=6 {
            let visitor = format!("2001:db8:9:9::{n}");
            let res = app.post_json_from("/api/analyze", &body, &visitor).await;
            assert_eq!(res.status, 200, "the failures were given back to the /64");
        }
        app.running.shutdown().await;
    })
    .await;
}

/// An unreachable site ends its stream with an error event that names the cause.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn unreachable_site_reports_an_error() {
    run_on(Engine::Sqlite, |db| async move {
        let app = spawn_app(config(&db), BOTH).await;
        // A port nothing listens on: bind, read the port, close.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .expect("bind")
            .local_addr()
            .expect("addr")
            .port();
        let res = app
            .post_json(
                "/api/analyze",
                &json!({"url": format!("http://127.0.0.1:{port}/")}),
            )
            .await;
        let id = res.json["analysisId"].as_str().expect("id").to_owned();
        let events = app.follow(&id).await;
        let last = events.last().expect("event");
        assert_eq!(last["type"], "error", "{events:?}");
        assert!(
            last["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("We could not analyse this website"))
        );
        // The visitor reads what happened to the site, not the HTTP library's error text.
        assert_eq!(
            last["message"],
            "We could not analyse this website: the site could not be reached"
        );
        // A failure costs the visitor nothing: three more free analyses are still allowed today.
        let body = json!({"url": format!("http://127.0.0.1:{port}/again")});
        for _ in 0..3 {
            assert_eq!(app.post_json("/api/analyze", &body).await.status, 200);
        }
        app.running.shutdown().await;
    })
    .await;
}
