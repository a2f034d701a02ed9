//! A trace of the page's main thread during one load: the tasks the simulation replays, and the
//! paint events it cuts its metric graphs at.
//!
//! Chromium runs one trace at a time per browser, so the pool lets one load be traced at once
//! (the mobile load; Lighthouse also simulates both presets from one observed load). Only the
//! categories the simulation reads are recorded: main-thread tasks and what they did
//! (`devtools.timeline` and its detailed variant) and paint timing (`loading`).

use std::time::Duration;

use base64::Engine as _;
use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::io::{CloseParams, ReadParams, StreamHandle};
use chromiumoxide::cdp::browser_protocol::tracing::{
    EndParams, EventTracingComplete, RecordClockSyncMarkerParams, StartParams, StartTransferMode,
    StreamFormat, TraceConfig,
};
use futures::StreamExt;
use serde_json::Value;

use super::BrowserError;
use crate::simulation::TraceEvent;

/// Categories recorded.
const CATEGORIES: &[&str] = &[
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-lighthouse",
    "loading",
];

/// The clock sync marker that ends the load in the trace: what the main thread does after it
/// (our own inspection of the page) is not the page's load.
const LOAD_END_MARKER: &str = "sitelens-load-end";

/// How long to wait for the trace to arrive after it is stopped.
const COLLECT_LIMIT: Duration = Duration::from_secs(10);

/// How much of the trace one read of its stream asks for.
const READ_CHUNK: i64 = 4 << 20;

/// A trace being recorded.
pub struct Recording {
    complete: tokio::sync::oneshot::Receiver<Option<StreamHandle>>,
}

/// Start tracing `page`'s browser.
///
/// The trace is handed over as one stream once it ends, not as protocol events while it runs:
/// sent as events, every trace event is parsed and written again by the browser and parsed by
/// us as a message of its own, work that competes with the inspection running beside the
/// trace's collection (on a page of 881 images, axe-core's median over 13 runs: 1.86 s beside
/// a trace sent as events, 1.62 s beside a streamed one).
pub async fn start(page: &Page) -> Result<Recording, BrowserError> {
    let mut done = page.event_listener::<EventTracingComplete>().await?;
    let (tx, complete) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        if let Some(end) = done.next().await {
            let _ = tx.send(end.stream.clone());
        }
    });
    let config = TraceConfig::builder()
        .included_categories(
            CATEGORIES
                .iter()
                .map(|c| (*c).to_owned())
                .collect::<Vec<_>>(),
        )
        .excluded_categories(vec!["*".to_owned()])
        .build();
    page.execute(
        StartParams::builder()
            .transfer_mode(StartTransferMode::ReturnAsStream)
            .stream_format(StreamFormat::Json)
            .trace_config(config)
            .build(),
    )
    .await?;
    Ok(Recording { complete })
}

impl Recording {
    /// Mark the end of the load in the trace: what the page's main thread does from here on is
    /// left out of the load ([`main_thread`]), though the trace goes on until [`Self::stop`].
    pub async fn mark_load_end(&self, page: &Page) -> Result<(), BrowserError> {
        page.execute(RecordClockSyncMarkerParams::new(LOAD_END_MARKER))
            .await?;
        Ok(())
    }

    /// Stop tracing and return every event recorded.
    pub async fn stop(self, page: &Page) -> Result<Vec<Value>, BrowserError> {
        page.execute(EndParams::default()).await?;
        let collect = async {
            let stream = self
                .complete
                .await
                .map_err(|_| BrowserError::Protocol("the trace ended without its data".to_owned()))?
                .ok_or_else(|| {
                    BrowserError::Protocol("the trace came without its stream".to_owned())
                })?;
            let read = read_stream(page, &stream).await;
            let _ = page.execute(CloseParams::new(stream)).await;
            read
        };
        let text = tokio::time::timeout(COLLECT_LIMIT, collect)
            .await
            .map_err(|_| BrowserError::Timeout {
                what: "collecting the trace",
                seconds: COLLECT_LIMIT.as_secs(),
            })??;
        // Tens of megabytes on a large page: parsed off the runtime's threads.
        tokio::task::spawn_blocking(move || parse_trace(&text))
            .await
            .map_err(|e| BrowserError::Protocol(e.to_string()))?
    }
}

/// The whole of a trace's stream, as text.
async fn read_stream(page: &Page, stream: &StreamHandle) -> Result<Vec<u8>, BrowserError> {
    let mut text = Vec::new();
    loop {
        let chunk = page
            .execute(
                ReadParams::builder()
                    .handle(stream.clone())
                    .size(READ_CHUNK)
                    .build()
                    .map_err(BrowserError::Protocol)?,
            )
            .await?;
        let chunk = chunk.result;
        if chunk.base64_encoded == Some(true) {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(chunk.data.as_bytes())
                .map_err(|e| BrowserError::Protocol(format!("the trace's stream: {e}")))?;
            text.extend_from_slice(&bytes);
        } else {
            text.extend_from_slice(chunk.data.as_bytes());
        }
        if chunk.eof {
            return Ok(text);
        }
    }
}

/// The events of a trace in Chromium's JSON format: an object whose `traceEvents` lists them
/// (or, in the older form, the bare list).
fn parse_trace(text: &[u8]) -> Result<Vec<Value>, BrowserError> {
    let unreadable =
        |why: String| BrowserError::Protocol(format!("the trace is not readable: {why}"));
    match serde_json::from_slice(text).map_err(|e| unreadable(e.to_string()))? {
        Value::Object(mut file) => match file.remove("traceEvents") {
            Some(Value::Array(events)) => Ok(events),
            _ => Err(unreadable("no list of events".to_owned())),
        },
        Value::Array(events) => Ok(events),
        _ => Err(unreadable("no list of events".to_owned())),
    }
}

/// What the trace says about the page's main frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MainThread {
    /// Every event of the main frame's renderer main thread, ordered by start.
    pub events: Vec<TraceEvent>,
    /// First Contentful Paint, µs.
    pub fcp: Option<f64>,
    /// First Paint, µs.
    pub first_paint: Option<f64>,
    /// The last Largest Contentful Paint candidate, µs.
    pub lcp: Option<f64>,
    /// Layout shifts of the page's frames: time (µs), weighted score, `had_recent_input`.
    pub layout_shifts: Vec<(f64, f64, bool)>,
    /// The first viewport event of the main frame, µs (Chromium's emulation change).
    pub viewport: Option<f64>,
}

impl MainThread {
    /// Cumulative Layout Shift as Lighthouse computes it from the trace: the largest session
    /// window (gaps under 1 s, at most 5 s) of weighted shift scores. Chromium marks shifts after
    /// an emulation change as following input; such marks are ignored within 500 ms of the
    /// first viewport event (or of `time_origin`) until the first unmarked shift. `late` are
    /// shifts the page observed after the trace ended (µs, value): Lighthouse, which traces
    /// longer after the load, would have seen them.
    pub fn cumulative_layout_shift(&self, time_origin: f64, late: &[(f64, f64)]) -> f64 {
        let viewport = self.viewport.unwrap_or(time_origin);
        let mut respect_input = false;
        let mut shifts = Vec::new();
        for &(ts, score, recent_input) in &self.layout_shifts {
            if recent_input {
                if (ts - viewport) / 1000.0 > 500.0 || respect_input {
                    continue;
                }
            } else {
                respect_input = true;
            }
            shifts.push((ts / 1000.0, score));
        }
        let end = self
            .events
            .last()
            .map_or(f64::NEG_INFINITY, |e| e.ts + e.dur.unwrap_or(0.0));
        shifts.extend(
            late.iter()
                .filter(|(ts, _)| *ts > end)
                .map(|&(ts, v)| (ts / 1000.0, v)),
        );
        shifts.sort_by(|a, b| a.0.total_cmp(&b.0));
        super::metrics::cumulative_layout_shift(&shifts)
    }
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter().try_fold(v, |v, k| v.get(k))?.as_str()
}

fn num_at(v: &Value, path: &[&str]) -> Option<f64> {
    path.iter().try_fold(v, |v, k| v.get(k))?.as_f64()
}

/// The events of `frame`'s renderer main thread, and its paint times.
pub fn main_thread(events: &[Value], frame: &str) -> MainThread {
    // The frame's process: the last one a navigation committed it to (a navigation may move it
    // to a new process), else the one tracing started with.
    let mut pid = None;
    for e in events {
        match e.get("name").and_then(Value::as_str) {
            Some("TracingStartedInBrowser") if pid.is_none() => {
                if let Some(frames) = e.pointer("/args/data/frames").and_then(Value::as_array) {
                    pid = frames
                        .iter()
                        .find(|f| f.get("frame").and_then(Value::as_str) == Some(frame))
                        .and_then(|f| num_at(f, &["processId"]));
                }
            }
            Some("FrameCommittedInBrowser")
                if str_at(e, &["args", "data", "frame"]) == Some(frame)
                    && str_at(e, &["args", "data", "url"]).is_some_and(|u| u != "about:blank") =>
            {
                pid = num_at(e, &["args", "data", "processId"]).or(pid);
            }
            _ => {}
        }
    }
    let Some(pid) = pid else {
        return MainThread::default();
    };
    let cut = events
        .iter()
        .find(|e| {
            e.get("name").and_then(Value::as_str) == Some("clock_sync")
                && str_at(e, &["args", "sync_id"]) == Some(LOAD_END_MARKER)
        })
        .and_then(|e| num_at(e, &["ts"]))
        .unwrap_or(f64::INFINITY);
    let tid = events.iter().find_map(|e| {
        (e.get("ph").and_then(Value::as_str) == Some("M")
            && e.get("name").and_then(Value::as_str) == Some("thread_name")
            && num_at(e, &["pid"]) == Some(pid)
            && str_at(e, &["args", "name"]) == Some("CrRendererMain"))
        .then(|| num_at(e, &["tid"]))
        .flatten()
    });
    let mut out = MainThread::default();
    for e in events {
        if num_at(e, &["pid"]) != Some(pid) || e.get("ph").and_then(Value::as_str) == Some("M") {
            continue;
        }
        let name = e.get("name").and_then(Value::as_str).unwrap_or("");
        let ts = num_at(e, &["ts"]).unwrap_or(0.0);
        if ts >= cut {
            continue;
        }
        let event_frame =
            str_at(e, &["args", "frame"]).or_else(|| str_at(e, &["args", "data", "frame"]));
        match name {
            "firstContentfulPaint" if event_frame == Some(frame) => {
                out.fcp.get_or_insert(ts);
            }
            "firstPaint" if event_frame == Some(frame) => {
                out.first_paint.get_or_insert(ts);
            }
            "largestContentfulPaint::Candidate" if event_frame == Some(frame) => out.lcp = Some(ts),
            "largestContentfulPaint::Invalidate" if event_frame == Some(frame) => out.lcp = None,
            "viewport"
                if out.viewport.is_none()
                    && str_at(e, &["args", "data", "frameID"]) == Some(frame) =>
            {
                out.viewport = Some(ts);
            }
            "LayoutShift" => {
                if let Some(score) = num_at(e, &["args", "data", "weighted_score_delta"]) {
                    let recent = e
                        .pointer("/args/data/had_recent_input")
                        .and_then(Value::as_bool)
                        .unwrap_or(false);
                    out.layout_shifts.push((ts, score, recent));
                }
            }
            _ => {}
        }
        if tid.is_some() && num_at(e, &["tid"]) != tid {
            continue;
        }
        let data = e.pointer("/args/data");
        let field = |k: &str| {
            data.and_then(|d| d.get(k))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let stack_urls = data
            .and_then(|d| d.get("stackTrace"))
            .and_then(Value::as_array)
            .map(|frames| {
                frames
                    .iter()
                    .filter_map(|f| f.get("url").and_then(Value::as_str))
                    .filter(|u| !u.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        out.events.push(TraceEvent {
            name: name.to_owned(),
            ts,
            dur: num_at(e, &["dur"]),
            url: field("url"),
            frame: field("frame"),
            request_id: field("requestId"),
            timer_id: data.and_then(|d| d.get("timerId")).and_then(Value::as_i64),
            ready_state: data
                .and_then(|d| d.get("readyState"))
                .and_then(Value::as_i64),
            style_sheet_url: field("styleSheetUrl"),
            stack_urls,
        });
    }
    out.events.sort_by(|a, b| a.ts.total_cmp(&b.ts));
    out.layout_shifts.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_streamed_trace_is_read_in_either_json_form() {
        let object = r#"{"traceEvents":[{"name":"RunTask","ph":"X","ts":1,"args":{"src":"\u00e9t\u00e9 — 日本"}},{"name":"clock_sync","ph":"c"}],"metadata":{"trace-config":""}}"#;
        let events = parse_trace(object.as_bytes()).expect("the object form");
        assert_eq!(events.len(), 2);
        assert_eq!(str_at(&events[0], &["args", "src"]), Some("été — 日本"));
        assert_eq!(
            parse_trace(br#"[{"name":"a"}]"#)
                .expect("the list form")
                .len(),
            1
        );
        for bad in [
            &b"{\"traceEvents\":[{\"name\""[..],
            b"{\"metadata\":{}}",
            b"7",
            b"",
        ] {
            let err = parse_trace(bad).expect_err("not a trace");
            assert!(
                err.to_string().contains("the trace is not readable"),
                "{err}"
            );
        }
    }

    #[test]
    fn the_main_frames_thread_and_paints_are_picked_out() {
        let events = vec![
            json!({"name":"thread_name","ph":"M","pid":7,"tid":70,"args":{"name":"CrRendererMain"}}),
            json!({"name":"thread_name","ph":"M","pid":7,"tid":71,"args":{"name":"Compositor"}}),
            json!({"name":"thread_name","ph":"M","pid":9,"tid":90,"args":{"name":"CrRendererMain"}}),
            json!({"name":"TracingStartedInBrowser","ph":"I","pid":1,"tid":1,"ts":1,"args":{"data":{"frames":[{"frame":"F","processId":7}]}}}),
            json!({"name":"RunTask","ph":"X","pid":7,"tid":70,"ts":300,"dur":50,"args":{}}),
            json!({"name":"EvaluateScript","ph":"X","pid":7,"tid":70,"ts":310,"dur":20,"args":{"data":{"url":"http://a.test/x.js","frame":"F","stackTrace":[{"url":"http://a.test/y.js"}]}}}),
            json!({"name":"RunTask","ph":"X","pid":7,"tid":71,"ts":100,"dur":5,"args":{}}),
            json!({"name":"RunTask","ph":"X","pid":9,"tid":90,"ts":100,"dur":5,"args":{}}),
            json!({"name":"RunTask","ph":"X","pid":7,"tid":70,"ts":200,"dur":10,"args":{}}),
            json!({"name":"firstPaint","ph":"R","pid":7,"tid":70,"ts":400,"args":{"frame":"F"}}),
            json!({"name":"firstContentfulPaint","ph":"R","pid":7,"tid":70,"ts":400,"args":{"frame":"F"}}),
            json!({"name":"largestContentfulPaint::Candidate","ph":"R","pid":7,"tid":70,"ts":400,"args":{"frame":"F"}}),
            json!({"name":"largestContentfulPaint::Candidate","ph":"R","pid":7,"tid":70,"ts":900,"args":{"frame":"F"}}),
            json!({"name":"firstContentfulPaint","ph":"R","pid":7,"tid":70,"ts":450,"args":{"frame":"OTHER"}}),
        ];
        let m = main_thread(&events, "F");
        assert_eq!(
            (m.fcp, m.first_paint, m.lcp),
            (Some(400.0), Some(400.0), Some(900.0))
        );
        let tasks: Vec<f64> = m
            .events
            .iter()
            .filter(|e| e.name == "RunTask")
            .map(|e| e.ts)
            .collect();
        assert_eq!(tasks, vec![200.0, 300.0], "only the main thread, in order");
        let eval = m
            .events
            .iter()
            .find(|e| e.name == "EvaluateScript")
            .expect("script");
        assert_eq!(eval.url.as_deref(), Some("http://a.test/x.js"));
        assert_eq!(eval.stack_urls, vec!["http://a.test/y.js".to_owned()]);
    }

    #[test]
    fn layout_shifts_follow_lighthouses_rule_for_input_marks() {
        let m = MainThread {
            viewport: Some(1_000_000.0),
            layout_shifts: vec![
                // Marked as after input by the emulation change, within 500 ms: counted.
                (1_200_000.0, 0.3, true),
                // Unmarked: from now on the marks are believed.
                (1_300_000.0, 0.1, false),
                (1_350_000.0, 0.5, true),
                // A new session window, more than a second later.
                (3_000_000.0, 0.2, false),
            ],
            ..MainThread::default()
        };
        assert!((m.cumulative_layout_shift(0.0, &[]) - 0.4).abs() < 1e-9);
        // Marked shifts later than 500 ms after the viewport change are left out.
        let late = MainThread {
            viewport: Some(0.0),
            layout_shifts: vec![(600_000.0, 0.8, true)],
            ..MainThread::default()
        };
        assert_eq!(late.cumulative_layout_shift(0.0, &[]), 0.0);
        // A shift the page saw after the trace ended counts.
        assert_eq!(
            late.cumulative_layout_shift(0.0, &[(900_000.0, 0.25)]),
            0.25
        );
    }

    #[test]
    fn what_follows_the_load_end_marker_is_left_out() {
        let events = vec![
            json!({"name":"thread_name","ph":"M","pid":7,"tid":70,"args":{"name":"CrRendererMain"}}),
            json!({"name":"TracingStartedInBrowser","ph":"I","pid":1,"tid":1,"ts":1,"args":{"data":{"frames":[{"frame":"F","processId":7}]}}}),
            json!({"name":"RunTask","ph":"X","pid":7,"tid":70,"ts":100,"dur":10,"args":{}}),
            json!({"name":"clock_sync","ph":"c","pid":1,"tid":1,"ts":500,"args":{"sync_id":"sitelens-load-end"}}),
            json!({"name":"RunTask","ph":"X","pid":7,"tid":70,"ts":600,"dur":90,"args":{}}),
            json!({"name":"largestContentfulPaint::Candidate","ph":"R","pid":7,"tid":70,"ts":700,"args":{"frame":"F"}}),
        ];
        let m = main_thread(&events, "F");
        assert_eq!(m.events.len(), 1);
        assert_eq!(m.lcp, None);
    }

    #[test]
    fn a_navigation_to_a_new_process_is_followed() {
        let events = vec![
            json!({"name":"TracingStartedInBrowser","ph":"I","pid":1,"tid":1,"ts":1,"args":{"data":{"frames":[{"frame":"F","processId":7}]}}}),
            json!({"name":"FrameCommittedInBrowser","ph":"I","pid":1,"tid":1,"ts":5,"args":{"data":{"frame":"F","processId":9,"url":"http://a.test/"}}}),
            json!({"name":"thread_name","ph":"M","pid":9,"tid":90,"args":{"name":"CrRendererMain"}}),
            json!({"name":"RunTask","ph":"X","pid":9,"tid":90,"ts":10,"dur":5,"args":{}}),
            json!({"name":"RunTask","ph":"X","pid":7,"tid":70,"ts":10,"dur":5,"args":{}}),
        ];
        let m = main_thread(&events, "F");
        assert_eq!(m.events.len(), 1);
        assert_eq!(main_thread(&events, "NOPE"), MainThread::default());
    }
}
