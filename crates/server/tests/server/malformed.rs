//! A table of malformed requests across every route: each must get its 4xx and the shared
//! `{success: false, error}` body, never a 500.

use server::Roles;

use crate::assert_error_shape;
use crate::support::{Engine, TestDb, config, spawn};

struct Case {
    method: &'static str,
    path: &'static str,
    content_type: Option<&'static str>,
    body: Vec<u8>,
    status: u16,
}

fn case(
    method: &'static str,
    path: &'static str,
    content_type: Option<&'static str>,
    body: &str,
    status: u16,
) -> Case {
    Case {
        method,
        path,
        content_type,
        body: body.as_bytes().to_vec(),
        status,
    }
}

const JSON: Option<&str> = Some("application/json");

fn table() -> Vec<Case> {
    let unknown = "00000000-0000-4000-8000-000000000000";
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
        // GET /api/results/{id}
        case("GET", "/api/results/not-a-uuid", None, "", 404),
        case("GET", "/api/results/", None, "", 404),
        case("GET", "/api/results/1", None, "", 404),
        case("GET", "/api/results/%00", None, "", 404),
        case(
            "GET",
            "/api/results/00000000-0000-4000-8000-000000000000",
            None,
            "",
            404,
        ),
        case(
            "DELETE",
            "/api/results/00000000-0000-4000-8000-000000000000",
            None,
            "",
            405,
        ),
        // GET /api/analysis-progress/{id}
        case("GET", "/api/analysis-progress/nope", None, "", 404),
        case(
            "GET",
            "/api/analysis-progress/00000000-0000-4000-8000-000000000000",
            None,
            "",
            404,
        ),
        case(
            "POST",
            "/api/analysis-progress/00000000-0000-4000-8000-000000000000",
            None,
            "",
            405,
        ),
        // POST /api/download-basic-report
        case("POST", "/api/download-basic-report", JSON, "{}", 422),
        case("POST", "/api/download-basic-report", JSON, "{oops", 400),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "bad", "firstName": "A", "lastName": "B", "agreeToEmails": true}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "a@b.co", "firstName": "", "lastName": "B", "agreeToEmails": true}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": false}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": "yes"}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "not-a-uuid", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": true}"#,
            404,
        ),
        // GET /api/download-report/{id}
        case("GET", "/api/download-report/zzz", None, "", 404),
        case(
            "GET",
            "/api/download-report/00000000-0000-4000-8000-000000000000",
            None,
            "",
            404,
        ),
        // POST /api/contact
        case("POST", "/api/contact", JSON, "{}", 422),
        case(
            "POST",
            "/api/contact",
            JSON,
            r#"{"name": "", "email": "a@b.co", "message": "hi"}"#,
            422,
        ),
        case(
            "POST",
            "/api/contact",
            JSON,
            r#"{"name": "A", "email": "nope", "message": "hi"}"#,
            422,
        ),
        case(
            "POST",
            "/api/contact",
            JSON,
            r#"{"name": "A", "email": "a@b.co", "message": "  "}"#,
            422,
        ),
        // Others
        case("GET", "/api/check-trial-eligibility", None, "", 401),
        case("GET", "/api/no-such-endpoint", None, "", 404),
        case("POST", "/api/stats", JSON, "{}", 405),
    ];
    let unknown_download = format!(
        r#"{{"reportId": "{unknown}", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": true}}"#
    );
    t.push(Case {
        method: "POST",
        path: "/api/download-basic-report",
        content_type: JSON,
        body: unknown_download.into_bytes(),
        status: 404,
    });
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

async fn run(engine: Engine) {
    let Some(db) = TestDb::create(engine).await else {
        return;
    };
    let app = spawn(
        config(&db),
        Roles {
            web: true,
            worker: false,
        },
    )
    .await;
    let cases = table();
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let method = reqwest::Method::from_bytes(c.method.as_bytes()).expect("method");
        let mut req = app
            .http
            .request(method, format!("{}{}", app.base, c.path))
            .body(c.body.clone());
        if let Some(ct) = c.content_type {
            req = req.header("content-type", ct);
        }
        let res = req.send().await.expect("request");
        let status = res.status().as_u16();
        let body: serde_json::Value =
            serde_json::from_slice(&res.bytes().await.expect("body")).unwrap_or_default();
        let context = format!(
            "{engine:?} {} {} ({} bytes)",
            c.method,
            c.path,
            c.body.len()
        );
        if status != c.status {
            failures.push(format!(
                "{context}: expected {}, got {status} {body}",
                c.status
            ));
            continue;
        }
        assert_error_shape(&body, &context);
    }
    println!("{engine:?}: {} malformed requests answered", cases.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    app.running.shutdown().await;
    db.drop_db().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn malformed_requests_get_4xx_json_errors() {
    run(Engine::Sqlite).await;
    run(Engine::Postgres).await;
}
