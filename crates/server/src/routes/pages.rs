//! The web app: public files of the build, every route of the app with its own head (see
//! `services::pages`; the content pages of `services::content` among them), HTTP 404 for unknown
//! paths, our `robots.txt` and `sitemap.xml`, and the blog's Atom feed.

use axum::Router;
use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, Request, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use tower_http::services::ServeFile;

use crate::services::pages::{ReportQuery, is_internal_file, robots_txt, sitemap_xml};
use crate::state::AppState;

/// `robots.txt`, `sitemap.xml` and the blog's feed; the app itself is [`spa`], the router's
/// fallback.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/robots.txt", get(robots))
        .route("/sitemap.xml", get(sitemap))
        .route("/blog/feed.xml", get(feed))
}

/// Query of the results route (`id`; its `paid` and `type` unlock nothing, so the server reads
/// neither) and of the knowledge base's search (`q`).
#[derive(Debug, Deserialize)]
pub struct ResultsQuery {
    id: Option<String>,
    q: Option<String>,
}

/// Serves a public file of the build, a route of the app, or the app with HTTP 404.
pub async fn spa(
    State(state): State<AppState>,
    uri: Uri,
    Query(q): Query<ResultsQuery>,
) -> Response {
    let path = uri.path();
    if path.len() > 1 && !is_internal_file(path) {
        let file = state.web.dir().join(path.trim_start_matches('/'));
        if tokio::fs::metadata(&file).await.is_ok_and(|m| m.is_file()) {
            let mut res = ServeFile::new(file)
                .try_call(Request::new(Body::empty()))
                .await
                .map(IntoResponse::into_response)
                .unwrap_or_else(|_| StatusCode::NOT_FOUND.into_response());
            res.headers_mut().insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            );
            return res;
        }
    }
    let page = state
        .web
        .page(
            &state.db,
            &state.config.public_url,
            path,
            ReportQuery {
                id: q.id.as_deref(),
            },
            q.q.as_deref(),
        )
        .await;
    let Some(page) = page else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Html("<!doctype html><title>Sitelens</title><p>The web app is not built yet: run <code>just web</code>, then reload.</p>"),
        )
            .into_response();
    };
    let status = if page.found {
        StatusCode::OK
    } else {
        StatusCode::NOT_FOUND
    };
    (
        status,
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))],
        Html(page.html),
    )
        .into_response()
}

async fn robots(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        robots_txt(&state.config.public_url),
    )
}

async fn sitemap(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/xml; charset=utf-8")],
        sitemap_xml(&state.config.public_url, state.web.content()),
    )
}

async fn feed(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/atom+xml; charset=utf-8")],
        state.web.content().atom(&state.config.public_url),
    )
}
