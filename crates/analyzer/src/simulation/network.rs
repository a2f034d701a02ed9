//! What the observed requests tell about each origin: its extra round-trip time over the fastest
//! origin, and how long its server took to answer (Lighthouse's network analysis).
//!
//! The simulation replays every connection with the preset's round trip plus the origin's
//! additional round trip, and every response with the origin's median server response time, so
//! a slow server stays slow on a simulated phone.

use std::collections::HashMap;

use super::{Request, Timing};

/// Per-origin estimates from the observed load.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NetworkAnalysis {
    /// Round trip of each origin minus the fastest origin's, ms.
    pub additional_rtt_by_origin: HashMap<String, f64>,
    /// Median server response time of each origin, ms.
    pub server_response_time_by_origin: HashMap<String, f64>,
    /// Observed throughput, bits per second (0 when nothing was transferred).
    pub throughput: f64,
}

/// Responses smaller than this fit in TCP's initial congestion window.
const INITIAL_CWD_BYTES: f64 = 14.0 * 1024.0;
/// Share of time to first byte taken by the server, by resource type.
fn server_share(resource_type: &str) -> f64 {
    match resource_type {
        "Document" | "XHR" | "Fetch" => 0.9,
        _ => 0.4,
    }
}

fn group_by_origin(requests: &[Request]) -> Vec<(String, Vec<usize>)> {
    let mut order: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, r) in requests.iter().enumerate() {
        let origin = r.origin();
        match order.iter_mut().find(|(o, _)| *o == origin) {
            Some((_, v)) => v.push(i),
            None => order.push((origin, vec![i])),
        }
    }
    order
}

/// Whether the connection ids and reuse flags look consistent (every connection was opened by
/// one of the requests), so they can be believed.
fn can_trust_connections(requests: &[Request]) -> bool {
    let mut started: Vec<(&str, bool)> = Vec::new();
    for r in requests {
        match started.iter_mut().find(|(id, _)| *id == r.connection_id) {
            Some((_, s)) => *s = *s || !r.connection_reused,
            None => started.push((&r.connection_id, !r.connection_reused)),
        }
    }
    started.len() > 1 && started.iter().all(|(_, s)| *s)
}

/// For each request, whether it reused a connection: from the records when they can be trusted
/// (and `force_coarse` is off), else estimated per origin (any request issued after the
/// origin's first response ended, or any h2 request, reused one; the first never did).
pub fn connection_reused(requests: &[Request], force_coarse: bool) -> Vec<bool> {
    if !force_coarse && can_trust_connections(requests) {
        return requests.iter().map(|r| r.connection_reused).collect();
    }
    let mut reused = vec![false; requests.len()];
    for (_, members) in group_by_origin(requests) {
        let earliest_end = members
            .iter()
            .map(|&i| requests[i].network_end_ms)
            .fold(f64::INFINITY, f64::min);
        for &i in &members {
            reused[i] =
                requests[i].network_request_ms >= earliest_end || requests[i].protocol == "h2";
        }
        let first = members.iter().copied().reduce(|a, b| {
            if requests[a].network_request_ms > requests[b].network_request_ms {
                b
            } else {
                a
            }
        });
        if let Some(first) = first {
            reused[first] = false;
        }
    }
    reused
}

fn rtt_via_connection(r: &Request, t: &Timing, reused: bool) -> Vec<f64> {
    if reused {
        return Vec::new();
    }
    if t.connect_end >= 0.0 && t.connect_start >= 0.0 && r.protocol.starts_with("h3") {
        return vec![t.connect_end - t.connect_start];
    }
    if t.ssl_start >= 0.0 && t.ssl_end >= 0.0 && t.ssl_start != t.connect_start {
        return vec![t.connect_end - t.ssl_start, t.ssl_start - t.connect_start];
    }
    if t.connect_start >= 0.0 && t.connect_end >= 0.0 {
        return vec![t.connect_end - t.connect_start];
    }
    Vec::new()
}

fn rtt_via_download(r: &Request, t: &Timing, reused: bool) -> Vec<f64> {
    if reused
        || r.transfer_size <= INITIAL_CWD_BYTES
        || !t.receive_headers_end.is_finite()
        || t.receive_headers_end < 0.0
    {
        return Vec::new();
    }
    let total = r.network_end_ms - r.network_request_ms;
    let after_first_byte = total - t.receive_headers_end;
    let round_trips = (r.transfer_size / INITIAL_CWD_BYTES).log2();
    if round_trips > 5.0 {
        return Vec::new();
    }
    vec![after_first_byte / round_trips]
}

fn rtt_via_send_start(r: &Request, t: &Timing, reused: bool) -> Vec<f64> {
    if reused || !t.send_start.is_finite() || t.send_start < 0.0 {
        return Vec::new();
    }
    let mut trips = 1.0;
    if !r.protocol.starts_with("h3") {
        trips += 1.0;
    }
    if r.scheme() == "https" {
        trips += 1.0;
    }
    vec![t.send_start / trips]
}

fn rtt_via_headers_end(r: &Request, t: &Timing, reused: bool) -> Vec<f64> {
    if !t.receive_headers_end.is_finite()
        || t.receive_headers_end < 0.0
        || r.resource_type.is_empty()
    {
        return Vec::new();
    }
    let server = t.receive_headers_end * server_share(&r.resource_type);
    let mut trips = 1.0;
    if !reused {
        trips += 1.0;
        if !r.protocol.starts_with("h3") {
            trips += 1.0;
        }
        if r.scheme() == "https" {
            trips += 1.0;
        }
    }
    vec![((t.receive_headers_end - server) / trips).max(3.0)]
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return f64::NAN;
    }
    if n.is_multiple_of(2) {
        (values[(n - 1) / 2] + values[(n - 1) / 2 + 1]) / 2.0
    } else {
        values[(n - 1) / 2]
    }
}

/// The smallest round-trip estimate of each origin, ms.
fn rtt_by_origin(requests: &[Request]) -> Vec<(String, f64)> {
    type Estimator = fn(&Request, &Timing, bool) -> Vec<f64>;
    let reused = connection_reused(requests, false);
    let mut out = Vec::new();
    for (origin, members) in group_by_origin(requests) {
        let collect = |estimator: Estimator, multiplier: f64, into: &mut Vec<f64>| {
            for &i in &members {
                let r = &requests[i];
                let Some(t) = &r.timing else { continue };
                if r.transfer_size <= 0.0 {
                    continue;
                }
                into.extend(
                    estimator(r, t, reused[i])
                        .into_iter()
                        .map(|e| e * multiplier),
                );
            }
        };
        let mut estimates = Vec::new();
        collect(rtt_via_connection, 1.0, &mut estimates);
        if estimates.is_empty() {
            collect(rtt_via_download, 0.3, &mut estimates);
            collect(rtt_via_send_start, 0.3, &mut estimates);
            collect(rtt_via_headers_end, 0.3, &mut estimates);
        }
        if let Some(min) = estimates.into_iter().reduce(f64::min) {
            out.push((origin, min));
        }
    }
    out
}

/// Observed throughput in bits per second over the time any response was downloading.
fn throughput(requests: &[Request]) -> f64 {
    let mut total_bytes = 0.0;
    let mut bounds: Vec<(f64, bool)> = Vec::new();
    for r in requests {
        if r.scheme() == "data"
            || r.failed
            || !r.finished
            || r.status > 300
            || r.transfer_size <= 0.0
        {
            continue;
        }
        total_bytes += r.transfer_size;
        bounds.push((r.response_headers_end_ms / 1000.0, true));
        bounds.push((r.network_end_ms / 1000.0, false));
    }
    if bounds.is_empty() {
        return 0.0;
    }
    bounds.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut inflight, mut start, mut duration) = (0, 0.0, 0.0);
    for (t, is_start) in bounds {
        if is_start {
            if inflight == 0 {
                start = t;
            }
            inflight += 1;
        } else {
            inflight -= 1;
            if inflight == 0 {
                duration += t - start;
            }
        }
    }
    if duration > 0.0 {
        total_bytes * 8.0 / duration
    } else {
        0.0
    }
}

/// Analyse the observed requests.
pub fn analyze(requests: &[Request]) -> NetworkAnalysis {
    let rtts = rtt_by_origin(requests);
    let minimum = rtts.iter().map(|(_, r)| *r).fold(f64::INFINITY, f64::min);
    let summary_rtt = if minimum.is_finite() { minimum } else { 0.0 };
    let mut analysis = NetworkAnalysis {
        throughput: throughput(requests),
        ..NetworkAnalysis::default()
    };
    for (origin, members) in group_by_origin(requests) {
        let rtt = rtts.iter().find(|(o, _)| *o == origin).map(|(_, r)| *r);
        let mut responses: Vec<f64> = members
            .iter()
            .filter_map(|&i| {
                let t = requests[i].timing.as_ref()?;
                if !t.receive_headers_end.is_finite()
                    || t.receive_headers_end < 0.0
                    || !t.send_end.is_finite()
                    || t.send_end < 0.0
                {
                    return None;
                }
                Some((t.receive_headers_end - t.send_end - rtt.unwrap_or(summary_rtt)).max(0.0))
            })
            .collect();
        if responses.is_empty() {
            continue;
        }
        analysis
            .additional_rtt_by_origin
            .insert(origin.clone(), rtt.unwrap_or(summary_rtt) - summary_rtt);
        analysis
            .server_response_time_by_origin
            .insert(origin, median(&mut responses));
    }
    analysis
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(url: &str, connect: (f64, f64), send_end: f64, headers_end: f64) -> Request {
        Request {
            url: url.into(),
            protocol: "http/1.1".into(),
            resource_type: "Script".into(),
            transfer_size: 2000.0,
            finished: true,
            status: 200,
            connection_id: url.into(),
            timing: Some(Timing {
                request_time: 1.0,
                connect_start: connect.0,
                connect_end: connect.1,
                send_end,
                receive_headers_end: headers_end,
                ..Timing::default()
            }),
            ..Request::default()
        }
    }

    #[test]
    fn origins_get_their_extra_round_trip_and_median_response_time() {
        let requests = vec![
            timed("http://fast.test/a", (0.0, 10.0), 11.0, 41.0),
            timed("http://slow.test/b", (0.0, 60.0), 61.0, 181.0),
            timed("http://slow.test/c", (0.0, 70.0), 71.0, 231.0),
        ];
        let a = analyze(&requests);
        assert_eq!(a.additional_rtt_by_origin["http://fast.test"], 0.0);
        assert_eq!(a.additional_rtt_by_origin["http://slow.test"], 50.0);
        assert_eq!(a.server_response_time_by_origin["http://fast.test"], 20.0);
        // slow.test's rtt is its smallest estimate, 60: responses 181-61-60 and 231-71-60.
        assert_eq!(
            a.server_response_time_by_origin["http://slow.test"],
            (60.0 + 100.0) / 2.0
        );
    }

    #[test]
    fn coarse_reuse_estimate_counts_the_first_request_of_an_origin_as_new() {
        let mut a = timed("http://a.test/1", (0.0, 1.0), 2.0, 3.0);
        a.network_request_ms = 0.0;
        a.network_end_ms = 100.0;
        let mut b = a.clone();
        b.network_request_ms = 50.0;
        let mut c = a.clone();
        c.network_request_ms = 150.0;
        assert_eq!(
            connection_reused(&[a, b, c], true),
            vec![false, false, true]
        );
    }
}
