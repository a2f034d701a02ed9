//! The application: every resource's router merged, with the cross-cutting layers (request
//! ids and logs, body limit, timeouts, compression, security headers).

use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, Request, StatusCode, header};
use axum::routing::any;
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::error::AppError;
use crate::routes::{
    accounts, admin, admin_affiliates, admin_jobs, admin_messages, admin_overview, admin_purchases,
    admin_users, affiliates, analyses, api_keys, api_v1, billing, callback_secret, contact,
    custom_domains, dashboard, demo, files, health, oidc, pages, progress, reports, results, stats,
    teams, trial, webhooks, whitelabel, widget,
};
use crate::state::AppState;

/// Largest request body: the API only takes small JSON documents.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Time limit of an API request (progress streams have none).
const API_TIMEOUT: Duration = Duration::from_secs(30);

/// Content Security Policy the web app passes: its own scripts (and WebAssembly), inline
/// styles (React style attributes), images from itself, data and blob URLs.
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

/// The whole application.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .merge(analyses::router())
        .merge(results::router())
        .merge(reports::router())
        .merge(stats::router())
        .merge(trial::router())
        .merge(contact::router())
        .merge(accounts::router())
        .merge(dashboard::router())
        .merge(teams::router())
        .merge(api_keys::router())
        .merge(callback_secret::router())
        .merge(custom_domains::router())
        .merge(admin::router())
        .merge(admin_messages::router())
        .nest("/v1", api_v1::router(state.clone()))
        .merge(oidc::router())
        .merge(demo::api_router())
        .merge(billing::router())
        .merge(webhooks::router())
        .merge(admin_overview::router())
        .merge(admin_users::router())
        .merge(admin_jobs::router())
        .merge(admin_purchases::router())
        .merge(affiliates::router())
        .merge(admin_affiliates::router())
        .merge(whitelabel::router())
        .merge(widget::router())
        .layer(TimeoutLayer::with_status_code(
            StatusCode::GATEWAY_TIMEOUT,
            API_TIMEOUT,
        ))
        .merge(progress::router())
        .fallback(any(|| async {
            AppError::NotFound("no such API endpoint".to_owned())
        }))
        .method_not_allowed_fallback(|| async { AppError::MethodNotAllowed });

    let hsts = state.config.is_https();
    let mut app = Router::new()
        .nest("/api", api)
        .merge(health::router())
        .merge(pages::router())
        .merge(demo::router())
        .merge(widget::script_router())
        .merge(files::router(&state.config))
        .fallback(pages::spa)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            affiliates::track_referral,
        ))
        // Outermost of the app's own layers: a request for an agency's custom domain reaches
        // only its branded reports, and an unknown host nothing (421).
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            custom_domains::route_by_host,
        ))
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
    let request_id = HeaderName::from_static("x-request-id");
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
