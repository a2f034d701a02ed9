//! The router: the API, health checks, blobs and the web app, with the cross-cutting layers
//! (request ids and logs, body limit, timeouts, compression, security headers).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderName, HeaderValue, Request, header};
use axum::routing::{any, get, post};
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::config::Config;
use crate::hub::Hub;
use crate::state::{AppState, ResultCache};
use crate::web::WebApp;
use crate::{api, web};

/// Largest request body: the API only takes small JSON documents.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Content Security Policy the web app passes: its own scripts (and WebAssembly), inline
/// styles (React style attributes), images from itself, data and blob URLs.
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

/// Builds the shared state.
pub fn state(db: store::DatabaseConnection, config: Config) -> AppState {
    let hub = Hub::new(db.clone());
    AppState {
        web: Arc::new(WebApp::load(&config.web_dir)),
        db,
        config: Arc::new(config),
        hub,
        results: Arc::new(ResultCache::default()),
        stats: Arc::new(Mutex::new(None)),
    }
}

async fn healthz() -> Json<serde_json::Value> {
    Json(serde_json::json!({"status": "ok"}))
}

async fn readyz(
    State(state): State<AppState>,
) -> (axum::http::StatusCode, Json<serde_json::Value>) {
    let database = store::ping(&state.db).await.is_ok();
    let migrations = matches!(store::pending_migrations(&state.db).await, Ok(0));
    let ready = database && migrations;
    let status = if ready {
        axum::http::StatusCode::OK
    } else {
        axum::http::StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(serde_json::json!({
            "ready": ready,
            "database": database,
            "migrations": if migrations { "applied" } else { "pending" },
            "browser": state.config.browser_status(),
        })),
    )
}

/// The whole application.
pub fn router(state: AppState) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    // Everything but the progress stream has a time limit; the stream lives until the job ends.
    let api = Router::new()
        .route("/analyze", post(api::create_analysis))
        .route("/results/{id}", get(api::get_result))
        .route("/stats", get(api::get_stats))
        .route(
            "/check-trial-eligibility",
            get(api::check_trial_eligibility),
        )
        .route("/download-basic-report", post(api::download_basic_report))
        .route("/download-report/{id}", get(api::download_report))
        .route("/contact", post(api::create_contact))
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::GATEWAY_TIMEOUT,
            Duration::from_secs(30),
        ))
        .route("/analysis-progress/{id}", get(api::progress_stream))
        .fallback(any(api::api_not_found))
        .method_not_allowed_fallback(|| async { crate::error::AppError::MethodNotAllowed });

    let assets = ServeDir::new(state.web.dir().join("assets"));
    let blobs = ServeDir::new(state.config.data_dir.join("blobs"));
    let immutable = HeaderValue::from_static("public, max-age=31536000, immutable");
    let hsts = state.config.is_https();

    let mut app = Router::new()
        .nest("/api", api)
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/robots.txt", get(web::robots))
        .route("/sitemap.xml", get(web::sitemap))
        .nest_service(
            "/assets",
            tower::ServiceBuilder::new()
                .layer(SetResponseHeaderLayer::overriding(
                    header::CACHE_CONTROL,
                    immutable.clone(),
                ))
                .service(assets),
        )
        .nest_service(
            "/files",
            tower::ServiceBuilder::new()
                .layer(SetResponseHeaderLayer::overriding(
                    header::CACHE_CONTROL,
                    immutable,
                ))
                .service(blobs),
        )
        .fallback(web::spa)
        .with_state(state)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(CompressionLayer::new())
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ));
    if hsts {
        app = app.layer(SetResponseHeaderLayer::overriding(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        ));
    }
    app.layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(TraceLayer::new_for_http().make_span_with(|req: &Request<_>| {
            let id = req
                .headers()
                .get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("-");
            tracing::info_span!("request", method = %req.method(), uri = %req.uri(), request_id = %id)
        }))
        .layer(SetRequestIdLayer::new(request_id, MakeRequestUuid))
}
