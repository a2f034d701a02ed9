//! Tests grouped by route: each module exercises one resource of `server::routes`, and lists
//! its malformed requests for the table test below.

mod accounts;
pub(crate) mod admin;
mod admin_affiliates;
mod admin_messages;
mod admin_users;
mod affiliates;
mod analyses;
pub(crate) mod api_keys;
pub(crate) mod api_v1;
mod billing;
mod callback_secret;
mod contact;
mod custom_domains;
mod files;
mod health;
mod oidc;
mod openapi;
mod pages;
mod paid;
mod progress;
mod reports;
mod results;
mod stats;
mod status;
mod trial;
mod whitelabel;
mod widget;

use crate::support::{TestDb, WEB_ONLY, assert_error_shape, config, each_engine, spawn_app};

/// A malformed request and the status it must get.
pub struct Case {
    method: &'static str,
    path: &'static str,
    content_type: Option<&'static str>,
    body: Vec<u8>,
    status: u16,
}

/// A case with a text body.
pub fn case(
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

/// The JSON content type.
pub const JSON: Option<&str> = Some("application/json");

/// Every resource's malformed requests, and a path outside every resource.
fn table() -> Vec<Case> {
    let mut t = vec![case("GET", "/api/no-such-endpoint", None, "", 404)];
    t.extend(analyses::malformed());
    t.extend(results::malformed());
    t.extend(progress::malformed());
    t.extend(reports::malformed());
    t.extend(contact::malformed());
    t.extend(stats::malformed());
    t.extend(trial::malformed());
    t.extend(accounts::malformed());
    t.extend(billing::malformed());
    t.extend(api_keys::malformed());
    t.extend(callback_secret::malformed());
    t.extend(custom_domains::malformed());
    t.extend(admin_users::malformed());
    t.extend(whitelabel::malformed());
    t.extend(widget::malformed());
    t
}

/// Each malformed request gets its 4xx and the shared `{success: false, error}` body, never
/// a 500.
async fn run(db: TestDb) {
    let engine = db.engine;
    let app = spawn_app(config(&db), WEB_ONLY).await;
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
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn malformed_requests_get_4xx_json_errors() {
    each_engine(run).await;
}
