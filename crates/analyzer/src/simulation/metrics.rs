//! The metrics of a simulated load, each from the part of the graph it depends on.
//!
//! Every metric is replayed twice, on an optimistic and a pessimistic subgraph, and weighted as
//! Lighthouse weighs them:
//!
//! | metric | optimistic graph | pessimistic graph | weights |
//! | --- | --- | --- | --- |
//! | FCP | render-blocking requests not started by scripts, and the tasks before the paint that ran them, plus the first parse, layout and paint | every render-blocking request before the paint | 0.5 / 0.5 |
//! | LCP | everything before the LCP but low-priority images | everything before the LCP, and every layout | 0.5 / 0.5, at least FCP |
//! | Speed Index | the observed Speed Index | the layout tasks' replayed end times, weighted by log2 of their length | 1.4 / 0.4 on Slow 4G, at least FCP |
//! | TTI | scripts, important requests and tasks over 20 ms | everything | 0.45 / 0.55, at least LCP |
//! | TBT | everything, between FCP and TTI | the same, with the other bounds | 0.5 / 0.5 |

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::graph::{Graph, View};
use super::simulator::{Simulation, Simulator};
use super::{ObservedLoad, SimulationError};

/// Blocking time counts from this task length (ms).
const BLOCKING_THRESHOLD_MS: f64 = 50.0;
/// Tasks longer than this (µs) stay in the optimistic TTI graph.
const CRITICAL_LONG_TASK_US: f64 = 20_000.0;
/// Render-blocking requests shorter than this (simulated ms) are not reported.
const MINIMUM_WASTED_MS: f64 = 50.0;

/// One render-blocking request and what deferring it would save.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RenderBlockingSaving {
    /// Address.
    pub url: String,
    /// Bytes on the wire.
    pub transfer_size: f64,
    /// Its simulated duration, ms.
    pub wasted_ms: f64,
}

/// Simulated metrics of one load on one preset, ms (TBT is a duration).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Estimates {
    /// First Contentful Paint.
    pub first_contentful_paint: f64,
    /// Largest Contentful Paint.
    pub largest_contentful_paint: f64,
    /// Speed Index.
    pub speed_index: f64,
    /// Time to Interactive.
    pub time_to_interactive: f64,
    /// Total Blocking Time.
    pub total_blocking_time: f64,
    /// Render-blocking requests that took at least 50 ms in the optimistic FCP replay.
    pub render_blocking: Vec<RenderBlockingSaving>,
    /// FCP saved by deferring them (inlining the stylesheets), ms.
    pub render_blocking_savings_ms: f64,
}

/// The optimistic and pessimistic replays of one metric.
struct Pair {
    optimistic_graph: View,
    optimistic: Simulation,
    pessimistic: Simulation,
}

/// What the graph and the replays need to be evaluated together.
pub struct Context<'g, 'a> {
    graph: &'g Graph<'a>,
    sim: &'g Simulator,
    full: View,
    fcp: Option<Pair>,
    lcp: Option<Pair>,
}

fn has_render_blocking_priority(graph: &Graph<'_>, n: usize) -> bool {
    graph.request(n).is_some_and(|r| {
        let p = r.priority.as_str();
        p == "VeryHigh"
            || (p == "High" && matches!(r.resource_type.as_str(), "Script" | "Document"))
    })
}

fn is_not_low_priority_image(graph: &Graph<'_>, n: usize) -> bool {
    graph.request(n).is_none_or(|r| {
        !(r.resource_type == "Image" && matches!(r.priority.as_str(), "Low" | "VeryLow"))
    })
}

impl<'g, 'a> Context<'g, 'a> {
    /// A context over `graph`, replayed by `sim`.
    pub fn new(graph: &'g Graph<'a>, sim: &'g Simulator) -> Self {
        Self {
            graph,
            sim,
            full: graph.full(),
            fcp: None,
            lcp: None,
        }
    }

    fn replay(&self, view: &View) -> Result<Simulation, SimulationError> {
        self.sim.simulate(self.graph, view, &HashMap::new())
    }

    /// The subgraph needed for the paint at `cutoff` (µs): the requests `treat` selects that ended
    /// before it (the main document always), and the tasks that ran render-blocking scripts, the
    /// first parse, layout and paint, and those `extra_cpu` selects.
    fn first_paint_graph(
        &self,
        cutoff: f64,
        treat: &dyn Fn(usize) -> bool,
        extra_cpu: Option<&dyn Fn(usize) -> bool>,
    ) -> View {
        let g = self.graph;
        let order = g.reachable(Some(&self.full));
        let mut script_task: HashMap<&str, usize> = HashMap::new();
        let mut cpu_before: Vec<usize> = Vec::new();
        for &n in &order {
            if g.task(n).is_none() {
                continue;
            }
            if g.nodes[n].start <= cutoff {
                cpu_before.push(n);
            }
            for e in g.children(n) {
                if e.name != "EvaluateScript" {
                    continue;
                }
                let Some(url) = e.url.as_deref() else {
                    continue;
                };
                let keep = match script_task.get(url) {
                    Some(&existing) => g.nodes[n].start < g.nodes[existing].start,
                    None => true,
                };
                if keep {
                    script_task.insert(url, n);
                }
            }
        }
        cpu_before.sort_by(|a, b| g.nodes[*a].start.total_cmp(&g.nodes[*b].start));
        let mut blocking_cpu: HashSet<usize> = HashSet::new();
        let mut not_blocking_urls: HashSet<&str> = HashSet::new();
        for &n in &order {
            let Some(r) = g.request(n) else { continue };
            if r.resource_type != "Script" || g.nodes[n].end > cutoff || !treat(n) {
                continue;
            }
            let Some(&task) = script_task.get(r.url.as_str()) else {
                continue;
            };
            if cpu_before.contains(&task) {
                blocking_cpu.insert(task);
            } else {
                not_blocking_urls.insert(r.url.as_str());
            }
        }
        for name in ["Layout", "Paint", "ParseHTML"] {
            if let Some(&n) = cpu_before.iter().find(|&&n| g.task_has(n, name)) {
                blocking_cpu.insert(n);
            }
        }
        if let Some(extra) = extra_cpu {
            blocking_cpu.extend(cpu_before.iter().copied().filter(|&n| extra(n)));
        }
        g.subgraph(&self.full, |n| match g.request(n) {
            Some(r) => {
                let node = &g.nodes[n];
                let after_paint = node.end > cutoff || node.start > cutoff;
                if after_paint && n != g.main_document {
                    return false;
                }
                !not_blocking_urls.contains(r.url.as_str()) && treat(n)
            }
            None => blocking_cpu.contains(&n),
        })
    }

    fn fcp(&mut self, fcp_ts: f64) -> Result<f64, SimulationError> {
        let g = self.graph;
        let optimistic_graph = self.first_paint_graph(
            fcp_ts,
            &|n| {
                has_render_blocking_priority(g, n)
                    && g.request(n).is_some_and(|r| r.initiator.kind != "script")
            },
            None,
        );
        let pessimistic_graph =
            self.first_paint_graph(fcp_ts, &|n| has_render_blocking_priority(g, n), None);
        let pair = Pair {
            optimistic: self.replay(&optimistic_graph)?,
            pessimistic: self.replay(&pessimistic_graph)?,
            optimistic_graph,
        };
        let value = 0.5 * pair.optimistic.time_ms + 0.5 * pair.pessimistic.time_ms;
        self.fcp = Some(pair);
        Ok(value)
    }

    fn lcp_estimate(&self, s: &Simulation) -> f64 {
        s.timings
            .iter()
            .filter(|(n, _)| is_not_low_priority_image(self.graph, **n))
            .map(|(_, t)| t.end)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    fn lcp(&mut self, lcp_ts: f64, fcp: f64) -> Result<f64, SimulationError> {
        let g = self.graph;
        let optimistic_graph =
            self.first_paint_graph(lcp_ts, &|n| is_not_low_priority_image(g, n), None);
        let pessimistic_graph =
            self.first_paint_graph(lcp_ts, &|_| true, Some(&|n| g.did_layout(n)));
        let pair = Pair {
            optimistic: self.replay(&optimistic_graph)?,
            pessimistic: self.replay(&pessimistic_graph)?,
            optimistic_graph,
        };
        let value =
            0.5 * self.lcp_estimate(&pair.optimistic) + 0.5 * self.lcp_estimate(&pair.pessimistic);
        self.lcp = Some(pair);
        Ok(value.max(fcp))
    }

    fn layout_speed_index(&self, s: &Simulation, fcp_ms: f64) -> f64 {
        let mut total_weight = 0.0;
        let mut weighted = 0.0;
        for (&n, t) in &s.timings {
            if !self.graph.did_layout(n) {
                continue;
            }
            let weight = t.duration().log2().max(0.0);
            total_weight += weight;
            weighted += weight * t.end.max(fcp_ms);
        }
        if total_weight > 0.0 {
            weighted / total_weight
        } else {
            fcp_ms
        }
    }

    fn speed_index(&self, full: &Simulation, observed: f64, fcp: f64) -> f64 {
        let fcp_pessimistic = self.fcp.as_ref().map_or(fcp, |p| p.pessimistic.time_ms);
        // Lighthouse's coefficients are for Slow 4G's 150 ms; other round trips scale them
        // towards an even split.
        let multiplier = ((self.sim.rtt() - 30.0) / (150.0 - 30.0)).max(0.0);
        let optimistic = 0.5 + (1.4 - 0.5) * multiplier;
        let pessimistic = 0.5 + (0.4 - 0.5) * multiplier;
        let value =
            optimistic * observed + pessimistic * self.layout_speed_index(full, fcp_pessimistic);
        value.max(fcp)
    }

    fn last_long_task_end(&self, s: &Simulation) -> f64 {
        s.timings
            .iter()
            .filter(|(n, t)| self.graph.task(**n).is_some() && t.duration() > BLOCKING_THRESHOLD_MS)
            .map(|(_, t)| t.end)
            .fold(0.0, f64::max)
    }

    fn interactive(&self, full: &Simulation, lcp: f64) -> Result<(f64, f64, f64), SimulationError> {
        let g = self.graph;
        let optimistic_graph = g.subgraph(&self.full, |n| match g.request(n) {
            None => g.nodes[n].duration() > CRITICAL_LONG_TASK_US,
            Some(r) => {
                r.resource_type != "Image"
                    && (r.resource_type == "Script"
                        || matches!(r.priority.as_str(), "High" | "VeryHigh"))
            }
        });
        let optimistic = self.replay(&optimistic_graph)?;
        let (lcp_opt, lcp_pess) = self.lcp.as_ref().map_or((lcp, lcp), |p| {
            (
                self.lcp_estimate(&p.optimistic),
                self.lcp_estimate(&p.pessimistic),
            )
        });
        let opt = lcp_opt.max(self.last_long_task_end(&optimistic));
        let pess = lcp_pess.max(self.last_long_task_end(full));
        Ok(((0.45 * opt + 0.55 * pess).max(lcp), opt, pess))
    }

    fn blocking_time(&self, s: &Simulation, from: f64, to: f64) -> f64 {
        if to <= from {
            return 0.0;
        }
        s.timings
            .iter()
            .filter(|(n, t)| {
                self.graph.task(**n).is_some() && t.duration() >= BLOCKING_THRESHOLD_MS
            })
            .map(|(_, t)| {
                if t.end < from || t.start > to {
                    return 0.0;
                }
                let clipped = t.end.min(to) - t.start.max(from);
                if clipped < BLOCKING_THRESHOLD_MS {
                    0.0
                } else {
                    clipped - BLOCKING_THRESHOLD_MS
                }
            })
            .sum()
    }

    /// Render-blocking requests of the optimistic FCP replay and the FCP saved by deferring them.
    fn render_blocking(
        &self,
        first_paint: Option<f64>,
    ) -> Result<(Vec<RenderBlockingSaving>, f64), SimulationError> {
        let Some(fcp) = &self.fcp else {
            return Ok((Vec::new(), 0.0));
        };
        let g = self.graph;
        let Some(first_paint) = first_paint else {
            return Ok((Vec::new(), 0.0));
        };
        let mut deferred: HashSet<usize> = HashSet::new();
        let mut results = Vec::new();
        let timed: Vec<usize> = {
            let mut v: Vec<usize> = fcp.optimistic.timings.keys().copied().collect();
            v.sort_unstable();
            v
        };
        for n in timed {
            let Some(r) = g.request(n) else { continue };
            let blocking = match r.render_blocking.as_deref() {
                Some("blocking") => true,
                Some("in_body_parser_blocking") => {
                    r.priority == "VeryHigh"
                        || (r.resource_type == "Script" && r.priority == "High")
                }
                _ => false,
            };
            if !blocking || g.nodes[n].end > first_paint {
                continue;
            }
            let Some(t) = fcp.optimistic.timings.get(&n) else {
                continue;
            };
            // The request and everything waiting on it within the FCP graph move out of the way.
            let mut stack = vec![n];
            while let Some(x) = stack.pop() {
                if deferred.insert(x) {
                    stack.extend(
                        g.nodes[x]
                            .dependents
                            .iter()
                            .copied()
                            .filter(|d| fcp.optimistic_graph.has(*d)),
                    );
                }
            }
            let wasted = t.duration().round();
            if wasted < MINIMUM_WASTED_MS {
                continue;
            }
            results.push(RenderBlockingSaving {
                url: r.url.clone(),
                transfer_size: r.transfer_size,
                wasted_ms: wasted,
            });
        }
        if results.is_empty() {
            return Ok((results, 0.0));
        }
        let before = fcp
            .optimistic
            .timings
            .values()
            .map(|t| t.end)
            .fold(0.0, f64::max);
        let minimal = g.subgraph(&fcp.optimistic_graph, |n| {
            fcp.optimistic_graph.has(n) && !deferred.contains(&n)
        });
        // Deferred stylesheets are assumed inlined into the document.
        let inlined: f64 = deferred
            .iter()
            .filter_map(|&n| g.request(n))
            .filter(|r| r.resource_type == "Stylesheet")
            .map(|r| r.transfer_size)
            .sum();
        let root_bytes = g.request(g.root).map_or(0.0, |r| r.transfer_size);
        let after = self
            .sim
            .simulate(
                g,
                &minimal,
                &HashMap::from([(g.root, root_bytes + inlined)]),
            )?
            .time_ms;
        Ok((results, (before - after).max(0.0).round()))
    }

    /// Build the optimistic and pessimistic FCP and LCP graphs (what [`Self::byte_savings`]
    /// replays).
    pub fn prepare_paint_graphs(
        &mut self,
        fcp_ts: f64,
        lcp_ts: f64,
    ) -> Result<(), SimulationError> {
        let fcp = self.fcp(fcp_ts)?;
        self.lcp(lcp_ts, fcp)?;
        Ok(())
    }

    /// FCP and LCP saved (ms, rounded to 10) by sending `wasted_bytes` fewer bytes for the
    /// requests at these addresses (Lighthouse's byte-efficiency estimate).
    pub fn byte_savings(
        &self,
        wasted_bytes: &HashMap<String, f64>,
    ) -> Result<(f64, f64), SimulationError> {
        let g = self.graph;
        let saved = |view: &View| -> Result<f64, SimulationError> {
            let before = self.replay(view)?.time_ms;
            let overrides: HashMap<usize, f64> = g
                .reachable(Some(view))
                .into_iter()
                .filter_map(|n| {
                    let r = g.request(n)?;
                    let w = wasted_bytes.get(&r.url)?;
                    Some((n, (r.transfer_size - w).max(0.0)))
                })
                .collect();
            let after = self.sim.simulate(g, view, &overrides)?.time_ms;
            Ok(((before - after).max(0.0) / 10.0).round() * 10.0)
        };
        let fcp = match &self.fcp {
            Some(p) => saved(&p.optimistic_graph)?,
            None => 0.0,
        };
        let lcp = match &self.lcp {
            Some(p) => saved(&p.optimistic_graph)?,
            None => 0.0,
        };
        Ok((fcp, lcp))
    }
}

/// Simulate every metric of `load` (see the module documentation).
pub fn estimate(
    load: &ObservedLoad,
    graph: &Graph<'_>,
    sim: &Simulator,
) -> Result<Estimates, SimulationError> {
    let fcp_ts = load.fcp_ts.ok_or(SimulationError::NoPaint)?;
    let mut ctx = Context::new(graph, sim);
    let fcp = ctx.fcp(fcp_ts)?;
    let lcp = ctx.lcp(load.lcp_ts.unwrap_or(fcp_ts), fcp)?;
    let full = ctx.replay(&ctx.full)?;
    let observed_si = load.observed_speed_index.unwrap_or(0.0);
    let speed_index = ctx.speed_index(&full, observed_si, fcp);
    let (tti, tti_opt, tti_pess) = ctx.interactive(&full, lcp)?;
    let (fcp_opt, fcp_pess) = ctx.fcp.as_ref().map_or((fcp, fcp), |p| {
        (p.optimistic.time_ms, p.pessimistic.time_ms)
    });
    // Each bound of the blocking window comes from the other replay, as Lighthouse does.
    let tbt = 0.5 * ctx.blocking_time(&full, fcp_pess, tti_opt)
        + 0.5 * ctx.blocking_time(&full, fcp_opt, tti_pess);
    let (render_blocking, savings) = ctx.render_blocking(load.first_paint_ts.or(load.fcp_ts))?;
    Ok(Estimates {
        first_contentful_paint: fcp,
        largest_contentful_paint: lcp,
        speed_index,
        time_to_interactive: tti,
        total_blocking_time: tbt,
        render_blocking,
        render_blocking_savings_ms: savings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulation::{Initiator, Request, TraceEvent};
    use domain::throttling::{DESKTOP_DENSE_4G, MOBILE_SLOW_4G};

    fn request(
        id: &str,
        url: &str,
        start: f64,
        end: f64,
        kind: &str,
        priority: &str,
        bytes: f64,
    ) -> Request {
        Request {
            id: id.into(),
            url: url.into(),
            protocol: "http/1.1".into(),
            resource_type: kind.into(),
            priority: priority.into(),
            initiator: Initiator {
                kind: if kind == "Document" {
                    "other".into()
                } else {
                    "parser".into()
                },
                url: (kind != "Document").then(|| "http://site.test/".to_owned()),
                stack_urls: Vec::new(),
            },
            renderer_start_ms: start,
            network_request_ms: start,
            response_headers_end_ms: start + 1.0,
            network_end_ms: end,
            transfer_size: bytes,
            resource_size: bytes,
            status: 200,
            finished: true,
            document_url: "http://site.test/".into(),
            render_blocking: (kind == "Stylesheet").then(|| "blocking".to_owned()),
            ..Request::default()
        }
    }

    fn event(name: &str, ts_ms: f64, dur_ms: Option<f64>) -> TraceEvent {
        TraceEvent {
            name: name.into(),
            ts: ts_ms * 1000.0,
            dur: dur_ms.map(|d| d * 1000.0),
            frame: Some("F".into()),
            ..TraceEvent::default()
        }
    }

    /// A page with a 14 KB document, a 30 KB render-blocking stylesheet on another host and a late
    /// image; a parse task, a layout and paint task, and a 100 ms script task after the paint.
    fn page() -> ObservedLoad {
        ObservedLoad {
            requests: vec![
                request(
                    "1",
                    "http://site.test/",
                    0.0,
                    5.0,
                    "Document",
                    "VeryHigh",
                    14_000.0,
                ),
                request(
                    "2",
                    "http://cdn.test/a.css",
                    7.0,
                    12.0,
                    "Stylesheet",
                    "VeryHigh",
                    30_000.0,
                ),
                request(
                    "3",
                    "http://site.test/hero.jpg",
                    7.5,
                    40.0,
                    "Image",
                    "Low",
                    200_000.0,
                ),
            ],
            main_thread: vec![
                event("RunTask", 6.0, Some(2.0)),
                event("ParseHTML", 6.0, Some(1.5)),
                event("RunTask", 13.0, Some(20.0)),
                event("Layout", 13.0, Some(12.0)),
                event("Paint", 26.0, Some(2.0)),
                event("RunTask", 60.0, Some(100.0)),
                event("FunctionCall", 60.0, Some(99.0)),
            ],
            requested_url: "http://site.test/".into(),
            main_document_url: "http://site.test/".into(),
            fcp_ts: Some(34_000.0),
            first_paint_ts: Some(34_000.0),
            lcp_ts: Some(34_000.0),
            observed_speed_index: Some(40.0),
        }
    }

    #[test]
    fn slow_4g_makes_a_local_page_take_seconds() {
        let load = page();
        let e = crate::simulation::simulate(&load, &MOBILE_SLOW_4G).expect("simulated");
        // Document on a fresh connection: DNS 300 + handshake and request 225 + server 30 + 75 =
        // 630 ms, its 14 KB inside the first window. The stylesheet's host is new as well: 630 ms
        // more for its first 14.6 KB and one round trip for the rest: FCP at 1410 ms. The parse
        // (2 ms x 4) and layout (20 ms x 2) tasks need only the document and end at 678 ms.
        assert_eq!(e.first_contentful_paint, 1410.0);
        assert_eq!(e.largest_contentful_paint, 1410.0);
        // The observed Speed Index is tiny; the layout-based one is FCP: 1.4 x 40 + 0.4 x 1410.
        assert_eq!(e.speed_index, 1410.0);
        // The 100 ms task runs 678-1078 ms on the phone, before the paint: no blocking time.
        assert_eq!(e.total_blocking_time, 0.0);
        assert_eq!(e.time_to_interactive, 1410.0);
        // The stylesheet took 780 ms; inlined, the document grows to 44 KB (two more round
        // trips: 930 ms) and the tasks end at 978 ms: 432 ms saved.
        assert_eq!(e.render_blocking.len(), 1);
        assert_eq!(e.render_blocking[0].url, "http://cdn.test/a.css");
        assert_eq!(e.render_blocking[0].wasted_ms, 780.0);
        assert_eq!(e.render_blocking_savings_ms, 432.0);
    }

    #[test]
    fn desktop_is_faster_than_mobile_and_long_tasks_block_after_the_paint() {
        let mut load = page();
        let m = crate::simulation::simulate(&load, &MOBILE_SLOW_4G).expect("mobile");
        let d = crate::simulation::simulate(&load, &DESKTOP_DENSE_4G).expect("desktop");
        assert!(
            d.first_contentful_paint < m.first_contentful_paint / 2.0,
            "{d:?} {m:?}"
        );
        // A stylesheet on the same host paints before the long task ends: its 400 ms on the
        // phone then block from FCP (960 ms) to its end (1078 ms) in the pessimistic bounds.
        load.requests[1].url = "http://site.test/a.css".into();
        let m = crate::simulation::simulate(&load, &MOBILE_SLOW_4G).expect("mobile");
        assert_eq!(m.first_contentful_paint, 960.0);
        assert_eq!(m.time_to_interactive, 0.45 * 1030.0 + 0.55 * 1078.0);
        assert_eq!(
            m.total_blocking_time,
            0.5 * (70.0 - 50.0) + 0.5 * (118.0 - 50.0)
        );
    }

    #[test]
    fn a_page_that_never_painted_is_not_simulated() {
        let mut load = page();
        load.fcp_ts = None;
        assert_eq!(
            crate::simulation::simulate(&load, &MOBILE_SLOW_4G).err(),
            Some(SimulationError::NoPaint)
        );
    }

    #[test]
    fn fewer_image_bytes_save_lcp_time_only_when_the_image_counts() {
        let load = page();
        let graph = Graph::build(&load).expect("graph");
        let sim = Simulator::new(
            &MOBILE_SLOW_4G,
            &crate::simulation::network::analyze(&load.requests),
        );
        let mut ctx = Context::new(&graph, &sim);
        let fcp = ctx.fcp(34_000.0).expect("fcp");
        ctx.lcp(34_000.0, fcp).expect("lcp");
        // The hero image ended after the paint, so neither graph holds it: no savings.
        let none = ctx
            .byte_savings(&HashMap::from([(
                "http://site.test/hero.jpg".to_owned(),
                150_000.0,
            )]))
            .expect("savings");
        assert_eq!(none, (0.0, 0.0));
        // A stylesheet that fits the first window paints a round trip (150 ms) sooner.
        let css = ctx
            .byte_savings(&HashMap::from([(
                "http://cdn.test/a.css".to_owned(),
                25_000.0,
            )]))
            .expect("savings");
        assert_eq!(css, (150.0, 150.0));
    }
}
