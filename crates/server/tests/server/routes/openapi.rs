//! `/api/v1/openapi.json`: the generated OpenAPI document is the committed `docs/openapi.json`
//! (`UPDATE_OPENAPI=1` rewrites it after a deliberate change), it is served without a key, and
//! the router and the document agree: every documented operation reaches its handler, every
//! other method of a documented path is a 405, and the operations are the API's.

use serde_json::Value;
use server::routes::api_v1;

use crate::support::{Engine, TestDb, WEB_ONLY, config, run_on, spawn_app};

/// The operations any client may call without a key.
const PUBLIC: [&str; 2] = ["/openapi.json", "/status"];

fn snapshot_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/openapi.json")
}

fn generated() -> String {
    api_v1::openapi().to_pretty_json().expect("json") + "\n"
}

/// The documented operations, `METHOD path`, sorted.
fn operations(doc: &Value) -> Vec<String> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            ops.push(format!("{} {path}", method.to_uppercase()));
        }
    }
    ops.sort();
    ops
}

#[test]
fn the_document_is_the_committed_snapshot() {
    let now = generated();
    let path = snapshot_path();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &now).expect("write docs/openapi.json");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != now {
        let first = committed
            .lines()
            .zip(now.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(now.lines().count()));
        let line = |text: &str| {
            text.lines()
                .nth(first)
                .unwrap_or("<end of file>")
                .to_owned()
        };
        panic!(
            "docs/openapi.json is not the document the handlers generate; first difference at \
             line {}:\n  committed: {}\n  generated: {}\nif the change is meant, run \
             `UPDATE_OPENAPI=1 cargo test -p server --test server routes::openapi` and commit the file",
            first + 1,
            line(&committed),
            line(&now),
        );
    }
}

#[test]
fn the_document_is_openapi_3_1_with_the_contract_types() {
    let doc: Value = serde_json::from_str(&generated()).expect("json");
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["servers"][0]["url"], "/api/v1");
    assert_eq!(
        operations(&doc),
        [
            "GET /analyses",
            "GET /analyses/{id}",
            "GET /analyses/{id}/report",
            "GET /analyses/{id}/report.pdf",
            "GET /openapi.json",
            "GET /status",
            "GET /usage",
            "POST /analyses",
        ]
    );
    let schemas = doc["components"]["schemas"].as_object().expect("schemas");
    for name in [
        "AnalysisReport",
        "ApiAnalysis",
        "ApiErrorBody",
        "ApiUsage",
        "CreateAnalysisRequest",
        "ApiStatus",
    ] {
        assert!(schemas.contains_key(name), "{name} is not in the document");
    }
    assert_eq!(
        doc["paths"]["/analyses/{id}/report"]["get"]["responses"]["200"]["content"]["application/json"]
            ["schema"]["$ref"],
        "#/components/schemas/AnalysisReport",
        "the report is the web app's contract type"
    );
    assert_eq!(
        doc["components"]["securitySchemes"]["apiKey"]["scheme"],
        "bearer"
    );
    // Every operation but the public ones (the document itself and the service's status)
    // needs the key and says what the gate answers.
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("item") {
            if PUBLIC.contains(&path.as_str()) {
                assert!(op.get("security").is_none());
                continue;
            }
            assert_eq!(
                op["security"][0]["apiKey"],
                serde_json::json!([]),
                "{method} {path}"
            );
            let responses = op["responses"].as_object().expect("responses");
            for status in ["401", "429", "500", "503"] {
                assert!(
                    responses.contains_key(status),
                    "{method} {path} lacks {status}"
                );
            }
            assert!(responses["429"]["headers"].get("Retry-After").is_some());
            for (status, response) in responses {
                assert!(
                    response["description"]
                        .as_str()
                        .is_some_and(|d| !d.is_empty())
                );
                if status != "401" {
                    assert!(
                        response["headers"].get("RateLimit-Remaining").is_some(),
                        "{method} {path} {status} lacks the RateLimit headers"
                    );
                }
                if status.starts_with('4') || status.starts_with('5') {
                    assert_eq!(
                        response["content"]["application/json"]["schema"]["$ref"],
                        "#/components/schemas/ApiErrorBody",
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_served_document_is_public_and_the_router_matches_it() {
    run_on(Engine::Sqlite, |db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let url = |path: &str| format!("{}/api/v1{path}", app.web.base);
        let res = app
            .web
            .http
            .get(url("/openapi.json"))
            .send()
            .await
            .expect("get");
        assert_eq!(res.status(), 200);
        assert_eq!(
            res.headers()["content-type"].to_str().expect("type"),
            "application/json"
        );
        let served: Value =
            serde_json::from_slice(&res.bytes().await.expect("body")).expect("json");
        let doc: Value = serde_json::from_str(&generated()).expect("json");
        assert_eq!(served, doc);

        let id = "00000000-0000-4000-8000-000000000000";
        for (path, item) in doc["paths"].as_object().expect("paths") {
            let concrete = path.replace("{id}", id);
            let documented: Vec<&String> = item.as_object().expect("item").keys().collect();
            for method in ["get", "post", "put", "patch", "delete"] {
                let res = app
                    .web
                    .http
                    .request(
                        method.to_uppercase().parse().expect("method"),
                        url(&concrete),
                    )
                    .header("content-type", "application/json")
                    .body("{}")
                    .send()
                    .await
                    .expect("request");
                let status = res.status().as_u16();
                let bytes = res.bytes().await.expect("body");
                let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                if documented.iter().any(|m| *m == method) {
                    // Reached the route: the gate refuses the missing key (the public ones answer).
                    let expected = if PUBLIC.contains(&path.as_str()) {
                        200
                    } else {
                        401
                    };
                    assert_eq!(status, expected, "{method} {path}: {body}");
                } else {
                    assert_eq!(
                        status, 405,
                        "{method} {path} is routed but not documented: {body}"
                    );
                    assert_eq!(body["error"]["code"], "method_not_allowed");
                }
            }
        }
    })
    .await;
}
