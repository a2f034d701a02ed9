//! `GET /api/analysis-progress/{analysisId}` (docs/PRODUCT.md §7.3): server-sent events until the
//! analysis completes or fails. Streams have no time limit, so `app` mounts this router outside the
//! API's request timeout.

use std::convert::Infallible;
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use futures::{Stream, StreamExt};

use crate::error::{AppError, AppResult};
use crate::routes::parse_id;
use crate::services::progress::follow;
use crate::state::AppState;

/// The progress resource.
pub fn router() -> Router<AppState> {
    Router::new().route("/analysis-progress/{id}", get(progress_stream))
}

/// The analysis's events as server-sent events, with a keep-alive comment every 15 s.
async fn progress_stream(
    State(state): State<AppState>,
    Path(raw): Path<String>,
) -> AppResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let id = parse_id(&raw, "analysis")?;
    let events = follow(state.db.clone(), &state.hub, id)
        .await
        .map_err(|e| AppError::from_store(e, "analysis not found"))?;
    let events = events.map(|event| {
        Ok(Event::default()
            .json_data(&event)
            .unwrap_or_else(|_| Event::default().data("{}")))
    });
    Ok(Sse::new(events).keep_alive(
        KeepAlive::new()
            .interval(Duration::from_secs(15))
            .text("keep-alive"),
    ))
}
