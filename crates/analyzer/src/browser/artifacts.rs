//! Lighthouse's saved artifacts (its DevTools protocol log and trace, `lighthouse -G`) read into
//! an [`ObservedLoad`], through the same recording code as our own loads. Our simulation can then
//! be checked against Lighthouse's on the very same observed load, apart from measurement noise.

use serde_json::Value;

use super::record::NetState;
use super::trace;
use crate::simulation::ObservedLoad;

/// The main frame of a saved DevTools log: the frame of the first top-level navigation.
fn main_frame(log: &[Value]) -> Option<String> {
    log.iter().find_map(|e| {
        let frame = e.pointer("/params/frame")?;
        (e.get("method")?.as_str()? == "Page.frameNavigated" && frame.get("parentId").is_none())
            .then(|| frame.get("id")?.as_str().map(str::to_owned))
            .flatten()
    })
}

/// The load a saved DevTools log (`[{method, params, ...}]`) and trace (`{traceEvents}` or a
/// bare array) describe; `observed_speed_index` is the Speed Index observed on that load, ms.
pub fn observed_load(
    log: &[Value],
    trace_json: &Value,
    observed_speed_index: Option<f64>,
) -> Option<ObservedLoad> {
    let frame = main_frame(log)?;
    let state = NetState::from_devtools_log(log, &frame);
    let events = trace_json
        .get("traceEvents")
        .or(Some(trace_json))
        .and_then(Value::as_array)?;
    let mut main = trace::main_thread(events, &frame);
    // Lighthouse times a task by the wall clock; a replay of its load keeps its method.
    for e in &mut main.events {
        e.tdur = None;
    }
    Some(ObservedLoad {
        requests: state.simulation_requests(),
        main_thread: main.events,
        requested_url: state.documents.first()?.clone(),
        main_document_url: state.documents.last()?.clone(),
        fcp_ts: main.fcp,
        lcp_ts: main.lcp,
        first_paint_ts: main.first_paint,
        observed_speed_index,
    })
}
