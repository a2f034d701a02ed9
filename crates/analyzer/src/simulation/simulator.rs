//! Replaying a dependency graph on a throttled connection and processor.
//!
//! The model is Lighthouse's: each origin gets six TCP connections (one for HTTP/2), each new
//! connection pays DNS (two round trips, cached per host), the TCP handshake, TLS for https and
//! one request round trip before the server's response time, then downloads with slow start from
//! ten segments up to the bandwidth-delay product; the throughput is shared equally by the
//! requests in flight, at most ten at once. Tasks run one at a time on the main thread, slowed by
//! the preset's factor (layout tasks by half of it). Nodes start as soon as what they depend on
//! has finished, in the order they started in the observed load, high-priority requests first.

use std::collections::HashMap;

use domain::throttling::Throttling;

use super::graph::{Graph, View};
use super::network::{NetworkAnalysis, connection_reused};
use super::{Request, SimulationError};

const INITIAL_CONGESTION_WINDOW: f64 = 10.0;
const TCP_SEGMENT_SIZE: f64 = 1460.0;
const DEFAULT_SERVER_RESPONSE_TIME: f64 = 30.0;
const CONNECTIONS_PER_ORIGIN: usize = 6;
const MAXIMUM_CONCURRENT_REQUESTS: usize = 10;
const LAYOUT_TASK_MULTIPLIER: f64 = 0.5;
const MAXIMUM_CPU_TASK_MS: f64 = 10_000.0;
const DNS_RESOLUTION_RTT_MULTIPLIER: f64 = 2.0;

/// Start-order penalty by priority, in seconds of observed start time.
fn priority_penalty(priority: &str) -> f64 {
    match priority {
        "VeryHigh" => 0.0,
        "High" => 0.25,
        "Medium" => 0.5,
        "Low" => 1.0,
        "VeryLow" => 2.0,
        _ => 0.0,
    }
}

/// One simulated TCP connection.
#[derive(Debug, Clone)]
struct Connection {
    warmed: bool,
    ssl: bool,
    h2: bool,
    rtt: f64,
    throughput: f64,
    server_latency: f64,
    congestion_window: f64,
    h2_overflow_bytes: f64,
}

/// What [`Connection::download`] found.
#[derive(Debug, Clone, Copy)]
struct Download {
    time_elapsed: f64,
    bytes_downloaded: f64,
    extra_bytes: f64,
    congestion_window: f64,
}

impl Connection {
    fn new(rtt: f64, throughput: f64, server_latency: f64, ssl: bool, h2: bool) -> Self {
        Self {
            warmed: false,
            ssl,
            h2,
            rtt,
            throughput,
            server_latency,
            congestion_window: INITIAL_CONGESTION_WINDOW,
            h2_overflow_bytes: 0.0,
        }
    }

    fn max_congestion_window(&self) -> f64 {
        let bytes_per_round_trip = self.throughput / 8.0 * (self.rtt / 1000.0);
        (bytes_per_round_trip / TCP_SEGMENT_SIZE).floor()
    }

    /// Download `bytes` (after `already` ms of this request) for at most `max_time` ms.
    fn download(&self, mut bytes: f64, already: f64, dns: f64, max_time: f64) -> Download {
        if self.warmed && self.h2 {
            bytes -= self.h2_overflow_bytes;
        }
        let two_way = self.rtt;
        let one_way = two_way / 2.0;
        let max_window = self.max_congestion_window();
        let handshake_and_request = if self.warmed {
            one_way
        } else {
            dns + one_way + one_way + one_way + if self.ssl { two_way } else { 0.0 }
        };
        let mut ttfb = handshake_and_request + self.server_latency + one_way;
        if self.warmed && self.h2 {
            ttfb = 0.0;
        }
        let ttfb_left = (ttfb - already).max(0.0);
        let max_download = max_time - ttfb_left;
        let mut window = self.congestion_window.min(max_window);
        let mut total = if ttfb_left > 0.0 {
            window * TCP_SEGMENT_SIZE
        } else {
            0.0
        };
        let mut elapsed = 0.0;
        let mut remaining = bytes - total;
        while remaining > 0.0 && elapsed <= max_download {
            elapsed += two_way;
            window = (window * 2.0).min(max_window).max(1.0);
            let in_window = window * TCP_SEGMENT_SIZE;
            total += in_window;
            remaining -= in_window;
        }
        Download {
            time_elapsed: ttfb_left + elapsed,
            bytes_downloaded: total.min(bytes).max(0.0),
            extra_bytes: if self.h2 {
                (total - bytes).max(0.0)
            } else {
                0.0
            },
            congestion_window: window,
        }
    }
}

/// Simulated timing of one node, ms from the start of the simulation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeTiming {
    /// When it started.
    pub start: f64,
    /// When it ended.
    pub end: f64,
}

impl NodeTiming {
    /// Its duration.
    pub fn duration(&self) -> f64 {
        self.end - self.start
    }
}

/// The result of one replay.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    /// When the last node ended, ms.
    pub time_ms: f64,
    /// Timing of every node replayed.
    pub timings: HashMap<usize, NodeTiming>,
}

/// The throttled connection and processor, with each origin's observed extra round trip and
/// server response time.
#[derive(Debug, Clone)]
pub struct Simulator {
    rtt: f64,
    throughput: f64,
    cpu_slowdown: f64,
    layout_multiplier: f64,
    max_concurrent: usize,
    analysis: NetworkAnalysis,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    NotReady,
    Ready,
    InProgress,
    Complete,
}

#[derive(Debug, Clone, Copy, Default)]
struct Progress {
    start: f64,
    time_elapsed: f64,
    overshoot: f64,
    bytes_downloaded: f64,
    estimated: f64,
    end: f64,
}

impl Simulator {
    /// A simulator for `throttling`, using the origins' figures from `analysis`.
    pub fn new(throttling: &Throttling, analysis: &NetworkAnalysis) -> Self {
        let rtt = throttling.rtt_ms;
        let throughput = throttling.download_bits_per_second();
        let saturated = {
            let bits_per_request = 1000.0 / rtt * TCP_SEGMENT_SIZE * 8.0;
            (throughput / bits_per_request).floor() as usize
        };
        Self {
            rtt,
            throughput,
            cpu_slowdown: throttling.cpu_slowdown,
            layout_multiplier: throttling.cpu_slowdown * LAYOUT_TASK_MULTIPLIER,
            max_concurrent: saturated.clamp(1, MAXIMUM_CONCURRENT_REQUESTS),
            analysis: analysis.clone(),
        }
    }

    /// The round trip of the preset, ms.
    pub fn rtt(&self) -> f64 {
        self.rtt
    }

    /// Milliseconds that `bytes` take at the preset's throughput, rounded to 10 ms.
    pub fn wasted_ms(&self, bytes: f64) -> f64 {
        if self.throughput <= 0.0 {
            return 0.0;
        }
        (bytes * 8.0 / self.throughput * 1000.0 / 10.0).round() * 10.0
    }

    fn start_position(graph: &Graph<'_>, n: usize) -> f64 {
        let node = &graph.nodes[n];
        match graph.request(n) {
            Some(r) => node.start + priority_penalty(&r.priority) * 1_000_000.0,
            None => node.start,
        }
    }

    fn cpu_time(&self, graph: &Graph<'_>, n: usize) -> f64 {
        let multiplier = if graph.did_layout(n) {
            self.layout_multiplier
        } else {
            self.cpu_slowdown
        };
        (graph.nodes[n].duration() / 1000.0 * multiplier)
            .round()
            .min(MAXIMUM_CPU_TASK_MS)
    }

    /// Replay the nodes of `view`. `transfer_override` replaces the bytes of some nodes (the
    /// render-blocking estimate inlines stylesheets into the document this way).
    pub fn simulate(
        &self,
        graph: &Graph<'_>,
        view: &View,
        transfer_override: &HashMap<usize, f64>,
    ) -> Result<Simulation, SimulationError> {
        let order = graph.reachable(Some(view));
        let requests: Vec<(usize, &Request)> = order
            .iter()
            .filter_map(|&n| graph.request(n).map(|r| (n, r)))
            .collect();
        // Each request's origin and host, parsed once: the replay asks for them at every step,
        // and a page of a thousand images takes thousands of steps.
        let addresses: HashMap<usize, (String, String)> = requests
            .iter()
            .map(|&(n, r)| (n, (r.origin(), r.host())))
            .collect();
        let origin_of = |n: usize| addresses.get(&n).map_or("null", |(o, _)| o.as_str());
        let host_of = |n: usize| addresses.get(&n).map_or("", |(_, h)| h.as_str());
        let mut pool = Pool::new(self, &requests, origin_of);
        let transfer = |n: usize, r: &Request| {
            transfer_override
                .get(&n)
                .copied()
                .unwrap_or(r.transfer_size)
        };
        let connectionless = |r: &Request| r.from_disk_cache || r.is_non_network();

        let mut state: HashMap<usize, State> =
            order.iter().map(|&n| (n, State::NotReady)).collect();
        let mut progress: HashMap<usize, Progress> = HashMap::new();
        let mut ready_list: Vec<usize> = Vec::new();
        let mut in_progress: Vec<usize> = Vec::new();
        let mut dns: HashMap<String, f64> = HashMap::new();
        let mut total = 0.0;
        let mut net_in_flight = 0usize;
        let mut cpu_in_flight = 0usize;

        let mark_ready = |n: usize,
                          ready_list: &mut Vec<usize>,
                          state: &mut HashMap<usize, State>,
                          progress: &mut HashMap<usize, Progress>| {
            let pos = Self::start_position(graph, n);
            let idx = ready_list
                .iter()
                .position(|&c| Self::start_position(graph, c) > pos)
                .unwrap_or(ready_list.len());
            ready_list.insert(idx, n);
            state.insert(n, State::Ready);
            progress.insert(n, Progress::default());
        };
        mark_ready(graph.root, &mut ready_list, &mut state, &mut progress);

        let mut iterations = 0;
        while !ready_list.is_empty() || !in_progress.is_empty() {
            for n in ready_list.clone() {
                let start = match graph.request(n) {
                    None => cpu_in_flight == 0,
                    Some(r) if connectionless(r) => true,
                    Some(_) => net_in_flight < self.max_concurrent && pool.acquire(n, origin_of(n)),
                };
                if !start {
                    continue;
                }
                ready_list.retain(|&c| c != n);
                state.insert(n, State::InProgress);
                in_progress.push(n);
                if let Some(p) = progress.get_mut(&n) {
                    p.start = total;
                }
                if graph.request(n).is_some() {
                    net_in_flight += 1;
                } else {
                    cpu_in_flight += 1;
                }
            }
            if in_progress.is_empty() {
                return Err(SimulationError::Graph("no node could start".to_owned()));
            }
            // Share the bandwidth among the requests in flight.
            if net_in_flight > 0 {
                let share = self.throughput / net_in_flight as f64;
                for c in pool.in_use_mut() {
                    c.throughput = share;
                }
            }
            // The next node to finish.
            let mut minimum = f64::INFINITY;
            for &n in &in_progress {
                let p = progress.get(&n).copied().unwrap_or_default();
                let estimate = match graph.request(n) {
                    None => self.cpu_time(graph, n) - p.time_elapsed,
                    Some(r) if r.from_disk_cache => {
                        8.0 + 20.0 * r.resource_size / 1024.0 / 1024.0 - p.time_elapsed
                    }
                    Some(r) if r.is_non_network() => {
                        2.0 + 10.0 * r.resource_size / 1024.0 / 1024.0 - p.time_elapsed
                    }
                    Some(r) => {
                        let d = dns_time(&mut dns, host_of(n), p.start, self.rtt);
                        let c = pool.connection(n).ok_or_else(|| {
                            SimulationError::Graph("request without a connection".to_owned())
                        })?;
                        c.download(
                            transfer(n, r) - p.bytes_downloaded,
                            p.time_elapsed,
                            d,
                            f64::INFINITY,
                        )
                        .time_elapsed
                    }
                };
                let estimated = estimate
                    + if graph.request(n).is_some() {
                        p.overshoot
                    } else {
                        0.0
                    };
                if let Some(p) = progress.get_mut(&n) {
                    p.estimated = estimated;
                }
                minimum = minimum.min(estimated);
            }
            iterations += 1;
            if !minimum.is_finite() || iterations > 100_000 {
                return Err(SimulationError::Graph(
                    "the replay did not converge".to_owned(),
                ));
            }
            total += minimum;

            let mut finished = Vec::new();
            for &n in &in_progress {
                let Some(mut p) = progress.get(&n).copied() else {
                    continue;
                };
                let is_finished = p.estimated == minimum;
                match graph.request(n) {
                    Some(r) if !connectionless(r) => {
                        let d = dns_time(&mut dns, host_of(n), p.start, self.rtt);
                        let c = pool.connection_mut(n).ok_or_else(|| {
                            SimulationError::Graph("request without a connection".to_owned())
                        })?;
                        let got = c.download(
                            transfer(n, r) - p.bytes_downloaded,
                            p.time_elapsed,
                            d,
                            minimum - p.overshoot,
                        );
                        c.congestion_window = got.congestion_window;
                        if c.h2 {
                            c.h2_overflow_bytes = got.extra_bytes;
                        }
                        if is_finished {
                            c.warmed = true;
                            pool.release(n);
                            finished.push(n);
                        } else {
                            p.time_elapsed += got.time_elapsed;
                            p.overshoot += got.time_elapsed - minimum;
                            p.bytes_downloaded += got.bytes_downloaded;
                        }
                    }
                    _ => {
                        if is_finished {
                            finished.push(n);
                        } else {
                            p.time_elapsed += minimum;
                        }
                    }
                }
                if is_finished {
                    p.end = total;
                }
                progress.insert(n, p);
            }
            for n in finished {
                in_progress.retain(|&c| c != n);
                state.insert(n, State::Complete);
                if graph.request(n).is_some() {
                    net_in_flight -= 1;
                } else {
                    cpu_in_flight -= 1;
                }
                for &d in &graph.nodes[n].dependents {
                    if !view.has(d) || state.get(&d) != Some(&State::NotReady) {
                        continue;
                    }
                    let all_done = graph.nodes[d]
                        .deps
                        .iter()
                        .all(|dep| state.get(dep) == Some(&State::Complete));
                    if all_done {
                        mark_ready(d, &mut ready_list, &mut state, &mut progress);
                    }
                }
            }
        }
        let timings = progress
            .into_iter()
            .map(|(n, p)| {
                (
                    n,
                    NodeTiming {
                        start: p.start,
                        end: p.end,
                    },
                )
            })
            .collect();
        Ok(Simulation {
            time_ms: total,
            timings,
        })
    }
}

/// Time until `host` is resolved for a request made at `at` (DNS costs two round trips; a host
/// already being resolved is ready when that lookup ends).
fn dns_time(cache: &mut HashMap<String, f64>, host: &str, at: f64, rtt: f64) -> f64 {
    let mut until = rtt * DNS_RESOLUTION_RTT_MULTIPLIER;
    if let Some(&resolved_at) = cache.get(host) {
        until = until.min((resolved_at - at).max(0.0));
    }
    let resolved = at + until;
    let entry = cache.entry(host.to_owned()).or_insert(resolved);
    *entry = entry.min(resolved);
    until
}

/// The connections of every origin, and which request holds which.
struct Pool {
    by_origin: HashMap<String, Vec<Connection>>,
    in_use: HashMap<usize, (String, usize)>,
}

impl Pool {
    fn new<'a>(
        sim: &Simulator,
        requests: &[(usize, &Request)],
        origin_of: impl Fn(usize) -> &'a str,
    ) -> Self {
        let records: Vec<Request> = requests.iter().map(|(_, r)| (*r).clone()).collect();
        let reused = connection_reused(&records, true);
        let mut by_origin: HashMap<String, Vec<Connection>> = HashMap::new();
        for (i, r) in records.iter().enumerate() {
            let origin = origin_of(requests[i].0).to_owned();
            let list = by_origin.entry(origin.clone()).or_default();
            if reused[i] {
                continue;
            }
            let extra = sim
                .analysis
                .additional_rtt_by_origin
                .get(&origin)
                .copied()
                .unwrap_or(0.0);
            let response = sim
                .analysis
                .server_response_time_by_origin
                .get(&origin)
                .copied()
                .unwrap_or(DEFAULT_SERVER_RESPONSE_TIME);
            let ssl = matches!(r.scheme(), "https" | "wss");
            list.push(Connection::new(
                sim.rtt + extra,
                sim.throughput,
                response,
                ssl,
                r.protocol == "h2",
            ));
        }
        for list in by_origin.values_mut() {
            if let Some(first) = list.first().cloned() {
                let minimum = if first.h2 { 1 } else { CONNECTIONS_PER_ORIGIN };
                while list.len() < minimum {
                    list.push(first.clone());
                }
            }
        }
        Self {
            by_origin,
            in_use: HashMap::new(),
        }
    }

    /// Take the free connection of the request's origin with the largest congestion window.
    fn acquire(&mut self, node: usize, origin: &str) -> bool {
        let busy: Vec<usize> = self
            .in_use
            .values()
            .filter(|(o, _)| o == origin)
            .map(|(_, i)| *i)
            .collect();
        let Some(list) = self.by_origin.get(origin) else {
            return false;
        };
        let mut best: Option<usize> = None;
        for (i, c) in list.iter().enumerate() {
            if busy.contains(&i) {
                continue;
            }
            if best.is_none_or(|b| c.congestion_window > list[b].congestion_window) {
                best = Some(i);
            }
        }
        match best {
            Some(i) => {
                self.in_use.insert(node, (origin.to_owned(), i));
                true
            }
            None => false,
        }
    }

    fn connection(&self, node: usize) -> Option<&Connection> {
        let (o, i) = self.in_use.get(&node)?;
        self.by_origin.get(o)?.get(*i)
    }

    fn connection_mut(&mut self, node: usize) -> Option<&mut Connection> {
        let (o, i) = self.in_use.get(&node)?.clone();
        self.by_origin.get_mut(&o)?.get_mut(i)
    }

    fn in_use_mut(&mut self) -> Vec<&mut Connection> {
        let taken: Vec<(String, usize)> = self.in_use.values().cloned().collect();
        let mut out = Vec::new();
        for (origin, list) in self.by_origin.iter_mut() {
            for (i, c) in list.iter_mut().enumerate() {
                if taken.iter().any(|(o, j)| o == origin && *j == i) {
                    out.push(c);
                }
            }
        }
        out
    }

    fn release(&mut self, node: usize) {
        self.in_use.remove(&node);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_connection_pays_dns_handshake_and_request_then_slow_start() {
        // 150 ms round trips, 1.6 Mbps: the Slow 4G connection.
        let c = Connection::new(150.0, 1.6 * 1024.0 * 1024.0, 30.0, false, false);
        // 10 KB fit in the initial window: DNS 300 + 3 one-ways 225 + server 30 + one-way 75.
        let d = c.download(10_000.0, 0.0, 300.0, f64::INFINITY);
        assert_eq!(d.time_elapsed, 630.0);
        // 50 KB need two more windows (20 and 40 segments would be allowed, but the bandwidth-delay
        // product caps the window at 21 segments): two more round trips.
        assert_eq!(c.max_congestion_window(), 21.0);
        let d = c.download(50_000.0, 0.0, 300.0, f64::INFINITY);
        assert_eq!(d.time_elapsed, 630.0 + 300.0);
        // TLS adds a round trip; a warm connection only pays the request's round trip.
        let tls = Connection::new(150.0, 1.6 * 1024.0 * 1024.0, 30.0, true, false);
        assert_eq!(
            tls.download(10_000.0, 0.0, 0.0, f64::INFINITY).time_elapsed,
            480.0
        );
        let mut warm = c.clone();
        warm.warmed = true;
        assert_eq!(
            warm.download(10_000.0, 0.0, 0.0, f64::INFINITY)
                .time_elapsed,
            180.0
        );
    }

    #[test]
    fn dns_is_paid_once_per_host() {
        let mut cache = HashMap::new();
        assert_eq!(dns_time(&mut cache, "a.test", 0.0, 150.0), 300.0);
        // A second request 100 ms later waits for the same lookup.
        assert_eq!(dns_time(&mut cache, "a.test", 100.0, 150.0), 200.0);
        assert_eq!(dns_time(&mut cache, "a.test", 400.0, 150.0), 0.0);
        assert_eq!(dns_time(&mut cache, "b.test", 400.0, 150.0), 300.0);
    }

    #[test]
    fn slow_4g_allows_ten_requests_at_once() {
        let s = Simulator::new(
            &domain::throttling::MOBILE_SLOW_4G,
            &NetworkAnalysis::default(),
        );
        assert_eq!(s.max_concurrent, 10);
        // 100 KB at 1.6 Mbps: 476.8 ms, rounded to 480.
        assert_eq!(s.wasted_ms(100_000.0), 480.0);
    }
}
