//! The dependency graph of a page load: network requests and main-thread tasks, each depending on
//! what had to finish before it could start.
//!
//! Edges follow Lighthouse's page dependency graph: a request depends on the document or script
//! that initiated it (or on the main document when that is unclear), a redirect hop on the hop
//! before it; a task depends on the script, stylesheet, XHR or frame document it processed and on
//! the task that installed its timer, and a request a task sent depends on that task (scripts,
//! XHR and fetches only). Tasks shorter than 10 ms that connect little are folded away, except
//! the first parse, layout and paint.
//!
//! The graph is a DAG rooted at the requested document. Subgraphs (what one metric depends on)
//! are [`View`]s: a mask over the nodes, closed over dependencies.

use std::collections::{HashMap, HashSet, VecDeque};

use super::{ObservedLoad, Request, SimulationError, TraceEvent};

/// Tasks shorter than this (µs) are pruned when loosely connected.
const SIGNIFICANT_TASK_US: f64 = 10_000.0;

/// Names of the trace events that are whole main-thread tasks.
const TASK_NAMES: &[&str] = &[
    "RunTask",
    "ThreadControllerImpl::RunTask",
    "ThreadControllerImpl::DoWork",
    "TaskQueueManager::ProcessTaskFromWorkQueue",
];

/// Whether `e` is a whole main-thread task.
pub fn is_task(e: &TraceEvent) -> bool {
    TASK_NAMES.contains(&e.name.as_str())
}

/// A node's payload.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A request (index into the load's requests).
    Network(usize),
    /// A main-thread task.
    Cpu(CpuTask),
}

/// A main-thread task and the events it contains.
#[derive(Debug, Clone, PartialEq)]
pub struct CpuTask {
    /// Index of the task event in the load's main-thread events.
    pub event: usize,
    /// Indices of the events that ran within it.
    pub children: std::ops::Range<usize>,
}

/// One node of the graph.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What it is.
    pub kind: Kind,
    /// Observed start, µs.
    pub start: f64,
    /// Observed end, µs; a task ends after its processor time (`TraceEvent::tdur`).
    pub end: f64,
    /// Nodes that had to finish first.
    pub deps: Vec<usize>,
    /// Nodes waiting for this one.
    pub dependents: Vec<usize>,
}

impl Node {
    /// Duration in µs.
    pub fn duration(&self) -> f64 {
        self.end - self.start
    }

    fn can_depend_on(&self, other: &Node) -> bool {
        other.start <= self.start
    }
}

/// The dependency graph of one load.
#[derive(Debug, Clone)]
pub struct Graph<'a> {
    /// The load the nodes point into.
    pub load: &'a ObservedLoad,
    /// Every node; edges are indices.
    pub nodes: Vec<Node>,
    /// The requested document.
    pub root: usize,
    /// The document finally shown (after redirects).
    pub main_document: usize,
}

/// A subgraph: the nodes a metric depends on, always closed over dependencies and containing
/// the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// `included[i]`: node `i` belongs to the subgraph.
    pub included: Vec<bool>,
}

impl View {
    /// Whether node `i` is in the subgraph.
    pub fn has(&self, i: usize) -> bool {
        self.included.get(i).copied().unwrap_or(false)
    }
}

/// Whether `url` and `other` are the same address apart from the fragment.
fn same_without_fragment(a: &str, b: &str) -> bool {
    match (url::Url::parse(a), url::Url::parse(b)) {
        (Ok(mut x), Ok(mut y)) => {
            x.set_fragment(None);
            y.set_fragment(None);
            x == y
        }
        _ => false,
    }
}

/// The addresses that initiated `r`: its initiator's address, or for script initiators every
/// script on the call stack.
fn network_initiators(r: &Request) -> Vec<String> {
    if let Some(u) = &r.initiator.url {
        return vec![u.clone()];
    }
    if r.initiator.kind == "script" {
        let mut seen = Vec::new();
        for u in &r.initiator.stack_urls {
            if !u.is_empty() && !seen.contains(u) {
                seen.push(u.clone());
            }
        }
        return seen;
    }
    Vec::new()
}

/// The request that initiated `r`, when it is unambiguous (Lighthouse's network recorder rule).
fn initiator_request(
    requests: &[Request],
    by_url: &HashMap<&str, Vec<usize>>,
    i: usize,
) -> Option<usize> {
    let r = &requests[i];
    if let Some(src) = r.redirect_source {
        return Some(src);
    }
    let initiator = network_initiators(r).into_iter().next()?;
    let mut candidates: Vec<usize> = by_url
        .get(initiator.as_str())
        .map(|v| {
            v.iter()
                .copied()
                .filter(|&c| {
                    let c = &requests[c];
                    c.response_headers_end_ms <= r.renderer_start_ms && c.finished && !c.failed
                })
                .collect()
        })
        .unwrap_or_default();
    let narrow = |candidates: &mut Vec<usize>, keep: &dyn Fn(&Request) -> bool| {
        if candidates.len() > 1 {
            let kept: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&c| keep(&requests[c]))
                .collect();
            if !kept.is_empty() {
                *candidates = kept;
            }
        }
    };
    narrow(&mut candidates, &|c| c.resource_type != "Other");
    narrow(&mut candidates, &|c| c.frame_id == r.frame_id);
    if r.initiator.kind == "parser" {
        narrow(&mut candidates, &|c| c.resource_type == "Document");
    }
    if candidates.len() > 1 {
        let preloads: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&c| requests[c].is_link_preload)
            .collect();
        let others: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&c| !requests[c].is_link_preload)
            .collect();
        if !preloads.is_empty()
            && !others.is_empty()
            && others
                .iter()
                .all(|&c| requests[c].from_disk_cache || requests[c].from_memory_cache)
        {
            candidates = preloads;
        }
    }
    (candidates.len() == 1).then(|| candidates[0])
}

impl<'a> Graph<'a> {
    /// Build the graph of `load`.
    pub fn build(load: &'a ObservedLoad) -> Result<Self, SimulationError> {
        let requests = &load.requests;
        let mut nodes: Vec<Node> = Vec::new();
        let mut node_of_request: HashMap<usize, usize> = HashMap::new();
        let mut url_to_nodes: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut frame_to_node: HashMap<&str, Option<usize>> = HashMap::new();
        for (i, r) in requests.iter().enumerate() {
            // Video files are huge and never what a first render waits for.
            if r.mime_type.starts_with("video") {
                continue;
            }
            let n = nodes.len();
            nodes.push(Node {
                kind: Kind::Network(i),
                start: r.renderer_start_ms * 1000.0,
                end: r.network_end_ms * 1000.0,
                deps: Vec::new(),
                dependents: Vec::new(),
            });
            node_of_request.insert(i, n);
            url_to_nodes.entry(r.url.as_str()).or_default().push(n);
            if let Some(frame) = r.frame_id.as_deref()
                && r.resource_type == "Document"
                && r.document_url == r.url
            {
                // An ambiguous frame document links to nothing, so no loop can form.
                let value = if frame_to_node.contains_key(frame) {
                    None
                } else {
                    Some(n)
                };
                frame_to_node.insert(frame, value);
            }
        }

        let root_request = requests
            .iter()
            .position(|r| {
                load.requested_url.starts_with(&r.url)
                    && same_without_fragment(&r.url, &load.requested_url)
            })
            .ok_or(SimulationError::NoDocument)?;
        let root = *node_of_request
            .get(&root_request)
            .ok_or(SimulationError::NoDocument)?;
        let main_request = requests
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.resource_type == "Document"
                    && !r.failed
                    && load.main_document_url.starts_with(&r.url)
                    && same_without_fragment(&r.url, &load.main_document_url)
            })
            .map(|(i, _)| i)
            .next_back()
            .ok_or(SimulationError::NoDocument)?;
        let main_document = *node_of_request
            .get(&main_request)
            .ok_or(SimulationError::NoDocument)?;

        let cpu_start = nodes.len();
        let events = &load.main_thread;
        if !events.iter().any(is_task) {
            return Err(SimulationError::NoTasks);
        }
        let mut i = 0;
        while i < events.len() {
            let e = &events[i];
            i += 1;
            let Some(dur) = e.dur.filter(|d| *d > 0.0) else {
                continue;
            };
            if !is_task(e) {
                continue;
            }
            let end = e.ts + dur;
            // The task takes its processor time (see `TraceEvent::tdur`): a task whose thread
            // waited for a processor the machine gave to other work would otherwise be
            // replayed four times over as the page's own blocking time.
            let cpu = e.tdur.filter(|t| *t > 0.0).map_or(dur, |t| t.min(dur));
            let first_child = i;
            let mut corrected = None;
            while i < events.len() && events[i].ts < end {
                // Overlapping tasks (a Chromium bug): the earlier one ends just before the next.
                if is_task(&events[i]) && events[i].dur.is_some_and(|d| d > 0.0) {
                    corrected = Some(events[i].ts - 1.0);
                    break;
                }
                i += 1;
            }
            nodes.push(Node {
                kind: Kind::Cpu(CpuTask {
                    event: first_child - 1,
                    children: first_child..i,
                }),
                start: e.ts,
                end: e.ts + cpu.min(corrected.unwrap_or(end) - e.ts),
                deps: Vec::new(),
                dependents: Vec::new(),
            });
        }

        let mut g = Graph {
            load,
            nodes,
            root,
            main_document,
        };
        let by_url: HashMap<&str, Vec<usize>> = {
            let mut m: HashMap<&str, Vec<usize>> = HashMap::new();
            for (i, r) in requests.iter().enumerate() {
                m.entry(r.url.as_str()).or_default().push(i);
            }
            m
        };
        g.link_network(&node_of_request, &url_to_nodes, &by_url);
        g.link_cpu(cpu_start, &node_of_request, &url_to_nodes, &frame_to_node);
        if g.has_cycle() {
            return Err(SimulationError::Graph("a cycle was found".to_owned()));
        }
        Ok(g)
    }

    /// The request of a network node.
    pub fn request(&self, n: usize) -> Option<&'a Request> {
        match self.nodes[n].kind {
            Kind::Network(i) => self.load.requests.get(i),
            Kind::Cpu(_) => None,
        }
    }

    /// The task of a CPU node.
    pub fn task(&self, n: usize) -> Option<&CpuTask> {
        match &self.nodes[n].kind {
            Kind::Cpu(t) => Some(t),
            Kind::Network(_) => None,
        }
    }

    /// Events within a CPU node's task.
    pub fn children(&self, n: usize) -> &'a [TraceEvent] {
        match &self.nodes[n].kind {
            Kind::Cpu(t) => &self.load.main_thread[t.children.clone()],
            Kind::Network(_) => &[],
        }
    }

    /// Whether a CPU node's task laid out the page.
    pub fn did_layout(&self, n: usize) -> bool {
        self.children(n).iter().any(|e| e.name == "Layout")
    }

    /// Whether a CPU node's task contains an event named `name`.
    pub fn task_has(&self, n: usize, name: &str) -> bool {
        self.children(n).iter().any(|e| e.name == name)
    }

    fn add_dependency(&mut self, node: usize, on: usize) {
        if node == on || self.nodes[node].deps.contains(&on) {
            return;
        }
        self.nodes[node].deps.push(on);
        self.nodes[on].dependents.push(node);
    }

    fn remove_dependency(&mut self, node: usize, on: usize) {
        self.nodes[node].deps.retain(|&d| d != on);
        self.nodes[on].dependents.retain(|&d| d != node);
    }

    /// Whether `node` (transitively) depends on `on`; a node depends on itself.
    fn is_dependent_on(&self, node: usize, on: usize) -> bool {
        let mut seen = HashSet::from([node]);
        let mut queue = VecDeque::from([node]);
        while let Some(n) = queue.pop_front() {
            if n == on {
                return true;
            }
            for &d in &self.nodes[n].deps {
                if seen.insert(d) {
                    queue.push_back(d);
                }
            }
        }
        false
    }

    fn link_network(
        &mut self,
        node_of_request: &HashMap<usize, usize>,
        url_to_nodes: &HashMap<&str, Vec<usize>>,
        by_url: &HashMap<&str, Vec<usize>>,
    ) {
        let requests = &self.load.requests;
        let network: Vec<(usize, usize)> = {
            let mut v: Vec<(usize, usize)> =
                node_of_request.iter().map(|(&r, &n)| (r, n)).collect();
            v.sort_by_key(|&(_, n)| n);
            v
        };
        for &(ri, node) in &network {
            let direct = initiator_request(requests, by_url, ri)
                .and_then(|r| node_of_request.get(&r).copied())
                .unwrap_or(self.root);
            let can_depend_on_initiator = !self.is_dependent_on(direct, node)
                && self.nodes[node].can_depend_on(&self.nodes[direct]);
            let initiators = network_initiators(&requests[ri]);
            if initiators.is_empty() {
                if can_depend_on_initiator {
                    self.add_dependency(node, direct);
                }
            } else {
                for initiator in &initiators {
                    let parents = url_to_nodes
                        .get(initiator.as_str())
                        .map(Vec::as_slice)
                        .unwrap_or(&[]);
                    if parents.len() == 1
                        && self.nodes[parents[0]].start <= self.nodes[node].start
                        && !self.is_dependent_on(parents[0], node)
                    {
                        self.add_dependency(node, parents[0]);
                    } else if can_depend_on_initiator {
                        self.add_dependency(node, direct);
                    }
                }
            }
            if node != self.root
                && self.nodes[node].deps.is_empty()
                && self.nodes[node].can_depend_on(&self.nodes[self.root])
            {
                self.add_dependency(node, self.root);
            }
            // A redirect chain: each hop after the one before.
            let mut chain = vec![ri];
            let mut cur = ri;
            while let Some(src) = requests[cur].redirect_source {
                if chain.contains(&src) {
                    break;
                }
                chain.push(src);
                cur = src;
            }
            chain.reverse();
            for w in chain.windows(2) {
                if let (Some(&from), Some(&to)) =
                    (node_of_request.get(&w[0]), node_of_request.get(&w[1]))
                {
                    self.add_dependency(to, from);
                }
            }
        }
    }

    fn link_cpu(
        &mut self,
        cpu_start: usize,
        node_of_request: &HashMap<usize, usize>,
        url_to_nodes: &HashMap<&str, Vec<usize>>,
        frame_to_node: &HashMap<&str, Option<usize>>,
    ) {
        let requests = &self.load.requests;
        let id_to_node: HashMap<&str, usize> = node_of_request
            .iter()
            .map(|(&r, &n)| (requests[r].id.as_str(), n))
            .collect();
        let mut timers: HashMap<i64, usize> = HashMap::new();
        let cpu_nodes: Vec<usize> = (cpu_start..self.nodes.len()).collect();
        for &node in &cpu_nodes {
            let children: &[TraceEvent] = self.children(node);
            for e in children {
                if !e.has_data() {
                    continue;
                }
                let stack = &e.stack_urls;
                match e.name.as_str() {
                    "TimerInstall" => {
                        if let Some(id) = e.timer_id {
                            timers.insert(id, node);
                        }
                        for u in stack {
                            self.depend_on_url(node, u, url_to_nodes);
                        }
                    }
                    "TimerFire" => {
                        if let Some(&installer) = e.timer_id.and_then(|id| timers.get(&id))
                            && self.nodes[installer].end <= self.nodes[node].start
                        {
                            self.add_dependency(node, installer);
                        }
                    }
                    "InvalidateLayout" | "ScheduleStyleRecalculation" => {
                        self.depend_on_frame(node, e.frame.as_deref(), frame_to_node);
                        for u in stack {
                            self.depend_on_url(node, u, url_to_nodes);
                        }
                    }
                    "EvaluateScript" => {
                        self.depend_on_frame(node, e.frame.as_deref(), frame_to_node);
                        if let Some(u) = &e.url {
                            self.depend_on_url(node, u, url_to_nodes);
                        }
                        for u in stack {
                            self.depend_on_url(node, u, url_to_nodes);
                        }
                    }
                    "XHRReadyStateChange" => {
                        if e.ready_state != Some(4) {
                            continue;
                        }
                        if let Some(u) = &e.url {
                            self.depend_on_url(node, u, url_to_nodes);
                        }
                        for u in stack {
                            self.depend_on_url(node, u, url_to_nodes);
                        }
                    }
                    "FunctionCall" | "v8.compile" => {
                        self.depend_on_frame(node, e.frame.as_deref(), frame_to_node);
                        if let Some(u) = &e.url {
                            self.depend_on_url(node, u, url_to_nodes);
                        }
                    }
                    "ParseAuthorStyleSheet" => {
                        self.depend_on_frame(node, e.frame.as_deref(), frame_to_node);
                        if let Some(u) = &e.style_sheet_url {
                            self.depend_on_url(node, u, url_to_nodes);
                        }
                    }
                    "ResourceSendRequest" => {
                        self.depend_on_frame(node, e.frame.as_deref(), frame_to_node);
                        if let Some(&net) =
                            e.request_id.as_deref().and_then(|id| id_to_node.get(id))
                        {
                            let r = self.request(net);
                            let linkable = r.is_some_and(|r| {
                                matches!(r.resource_type.as_str(), "XHR" | "Fetch" | "Script")
                            });
                            // A request that started before the task cannot have been sent by it.
                            if linkable && self.nodes[net].start > self.nodes[node].start {
                                self.add_dependency(net, node);
                            }
                        }
                        for u in stack {
                            self.depend_on_url(node, u, url_to_nodes);
                        }
                    }
                    _ => {}
                }
            }
            // Tasks that started before the root cannot depend on it and stay unattached.
            if self.nodes[node].deps.is_empty()
                && self.nodes[node].can_depend_on(&self.nodes[self.root])
            {
                self.add_dependency(node, self.root);
            }
        }

        // Fold short, loosely connected tasks away, keeping the paths through them.
        let (mut first_layout, mut first_paint, mut first_parse) = (false, false, false);
        for &node in &cpu_nodes {
            let mut is_first = false;
            if !first_layout && self.task_has(node, "Layout") {
                is_first = true;
                first_layout = true;
            }
            if !first_paint && self.task_has(node, "Paint") {
                is_first = true;
                first_paint = true;
            }
            if !first_parse && self.task_has(node, "ParseHTML") {
                is_first = true;
                first_parse = true;
            }
            if is_first || self.nodes[node].duration() >= SIGNIFICANT_TASK_US {
                continue;
            }
            if self.nodes[node].deps.len() == 1 || self.nodes[node].dependents.len() <= 1 {
                self.prune(node);
            }
        }
    }

    fn depend_on_frame(
        &mut self,
        node: usize,
        frame: Option<&str>,
        frame_to_node: &HashMap<&str, Option<usize>>,
    ) {
        let Some(Some(net)) = frame.and_then(|f| frame_to_node.get(f)).copied() else {
            return;
        };
        // A document that started after the task cannot be what it needed.
        if self.nodes[net].start >= self.nodes[node].start {
            return;
        }
        self.add_dependency(node, net);
    }

    fn depend_on_url(&mut self, node: usize, url: &str, url_to_nodes: &HashMap<&str, Vec<usize>>) {
        // A script may start running up to 100 ms before its download officially ends.
        const EARLIEST_US: f64 = -100_000.0;
        let Some(candidates) = url_to_nodes.get(url) else {
            return;
        };
        let start = self.nodes[node].start;
        let mut best: Option<(usize, f64)> = None;
        for &c in candidates {
            if start <= self.nodes[c].start {
                return;
            }
            let distance = start - self.nodes[c].end;
            if distance >= EARLIEST_US && best.is_none_or(|(_, d)| distance < d) {
                best = Some((c, distance));
            }
        }
        if let Some((c, _)) = best {
            self.add_dependency(node, c);
        }
    }

    fn prune(&mut self, node: usize) {
        let deps = self.nodes[node].deps.clone();
        let dependents = self.nodes[node].dependents.clone();
        for &d in &deps {
            self.remove_dependency(node, d);
            for &t in &dependents {
                self.add_dependency(t, d);
            }
        }
        for &t in &dependents {
            self.remove_dependency(t, node);
        }
    }

    fn has_cycle(&self) -> bool {
        // Kahn's algorithm over the nodes reachable from the root.
        let reachable = self.reachable(None);
        let mut indegree: HashMap<usize, usize> = HashMap::new();
        for &n in &reachable {
            indegree.insert(
                n,
                self.nodes[n]
                    .deps
                    .iter()
                    .filter(|d| reachable.contains(d))
                    .count(),
            );
        }
        let mut queue: VecDeque<usize> = indegree
            .iter()
            .filter(|(_, d)| **d == 0)
            .map(|(&n, _)| n)
            .collect();
        let mut seen = 0;
        while let Some(n) = queue.pop_front() {
            seen += 1;
            for &t in &self.nodes[n].dependents {
                if let Some(d) = indegree.get_mut(&t) {
                    *d -= 1;
                    if *d == 0 {
                        queue.push_back(t);
                    }
                }
            }
        }
        seen != reachable.len()
    }

    /// Nodes reachable from the root through dependents, in breadth-first order, within `view`
    /// when given.
    pub fn reachable(&self, view: Option<&View>) -> Vec<usize> {
        let mut out = vec![self.root];
        let mut seen = HashSet::from([self.root]);
        let mut i = 0;
        while i < out.len() {
            let n = out[i];
            i += 1;
            for &t in &self.nodes[n].dependents {
                if view.is_some_and(|v| !v.has(t)) {
                    continue;
                }
                if seen.insert(t) {
                    out.push(t);
                }
            }
        }
        out
    }

    /// The whole graph as a view.
    pub fn full(&self) -> View {
        let mut included = vec![false; self.nodes.len()];
        for n in self.reachable(None) {
            included[n] = true;
        }
        View { included }
    }

    /// The subgraph of `base` that holds every node `keep` selects and everything those nodes
    /// depend on (the root always).
    pub fn subgraph(&self, base: &View, keep: impl Fn(usize) -> bool) -> View {
        let mut included = vec![false; self.nodes.len()];
        included[self.root] = true;
        for n in self.reachable(Some(base)) {
            if included[n] && n != self.root {
                continue;
            }
            if !keep(n) {
                continue;
            }
            let mut stack = vec![n];
            while let Some(x) = stack.pop() {
                if included[x] && x != n {
                    continue;
                }
                included[x] = true;
                for &d in &self.nodes[x].deps {
                    if !included[d] {
                        stack.push(d);
                    }
                }
            }
        }
        View { included }
    }
}

impl TraceEvent {
    /// Whether the event carried `args.data` (Lighthouse links only such events).
    pub fn has_data(&self) -> bool {
        self.frame.is_some()
            || self.url.is_some()
            || self.request_id.is_some()
            || self.timer_id.is_some()
            || self.ready_state.is_some()
            || self.style_sheet_url.is_some()
            || !self.stack_urls.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulation::{Initiator, Request};

    pub(crate) fn req(
        id: &str,
        url: &str,
        start: f64,
        end: f64,
        kind: &str,
        initiator: Option<&str>,
    ) -> Request {
        Request {
            id: id.into(),
            url: url.into(),
            protocol: "http/1.1".into(),
            resource_type: kind.into(),
            priority: "VeryHigh".into(),
            initiator: Initiator {
                kind: if initiator.is_some() {
                    "parser".into()
                } else {
                    "other".into()
                },
                url: initiator.map(str::to_owned),
                stack_urls: Vec::new(),
            },
            renderer_start_ms: start,
            network_request_ms: start,
            response_headers_end_ms: start + 1.0,
            network_end_ms: end,
            transfer_size: 1000.0,
            finished: true,
            status: 200,
            document_url: "http://a.test/".into(),
            ..Request::default()
        }
    }

    fn task(ts_ms: f64, dur_ms: f64) -> TraceEvent {
        TraceEvent {
            name: "RunTask".into(),
            ts: ts_ms * 1000.0,
            dur: Some(dur_ms * 1000.0),
            ..TraceEvent::default()
        }
    }

    fn load() -> ObservedLoad {
        let doc = "http://a.test/";
        let mut eval = TraceEvent {
            name: "EvaluateScript".into(),
            ts: 31_000.0,
            dur: Some(15_000.0),
            url: Some("http://a.test/app.js".into()),
            ..TraceEvent::default()
        };
        eval.frame = Some("F".into());
        let send = TraceEvent {
            name: "ResourceSendRequest".into(),
            ts: 40_000.0,
            request_id: Some("4".into()),
            ..TraceEvent::default()
        };
        let parse = TraceEvent {
            name: "ParseHTML".into(),
            ts: 11_000.0,
            dur: Some(1000.0),
            ..TraceEvent::default()
        };
        let mut xhr = req("4", "http://a.test/data.json", 41.0, 60.0, "XHR", None);
        xhr.initiator.kind = "script".into();
        xhr.initiator.stack_urls = vec!["http://a.test/app.js".into()];
        ObservedLoad {
            requests: vec![
                req("1", doc, 0.0, 10.0, "Document", None),
                req(
                    "2",
                    "http://a.test/style.css",
                    12.0,
                    20.0,
                    "Stylesheet",
                    Some(doc),
                ),
                req("3", "http://a.test/app.js", 12.5, 29.0, "Script", Some(doc)),
                xhr,
            ],
            main_thread: vec![
                task(11.0, 2.0),
                parse,
                task(30.0, 20.0),
                eval,
                send,
                task(70.0, 1.0),
            ],
            requested_url: doc.into(),
            main_document_url: doc.into(),
            ..ObservedLoad::default()
        }
    }

    #[test]
    fn requests_depend_on_their_initiators_and_tasks_on_what_they_processed() {
        let l = load();
        let g = Graph::build(&l).expect("graph");
        assert_eq!(g.root, 0);
        // Both subresources hang off the document that the parser read them from.
        assert_eq!(g.nodes[1].deps, vec![0]);
        assert_eq!(g.nodes[2].deps, vec![0]);
        // The script's task depends on the script; the XHR it sent depends on the task (and on the
        // script on its initiating stack).
        let task = g
            .nodes
            .iter()
            .position(|n| n.start == 30_000.0)
            .expect("task node");
        assert_eq!(g.nodes[task].deps, vec![2]);
        assert!(g.nodes[3].deps.contains(&task));
        // The 1 ms task after the load is short and loosely connected: folded away.
        assert!(
            g.nodes
                .iter()
                .all(|n| n.deps.is_empty() && n.dependents.is_empty() || n.start != 70_000.0)
        );
        // The first parse is kept however short it is.
        let parse = g
            .nodes
            .iter()
            .position(|n| n.start == 11_000.0)
            .expect("parse");
        assert_eq!(g.nodes[parse].deps, vec![0]);
        assert!(!g.has_cycle());
    }

    #[test]
    fn a_task_takes_its_processor_time_and_keeps_its_events() {
        let mut l = load();
        // The script's task waited 8 ms of its 20 for a processor the machine gave to others.
        l.main_thread[2].tdur = Some(12_000.0);
        let g = Graph::build(&l).expect("graph");
        let task = g
            .nodes
            .iter()
            .position(|n| n.start == 30_000.0)
            .expect("task node");
        assert_eq!(g.nodes[task].duration(), 12_000.0);
        // The events it ran are still its own: the XHR still depends on it.
        assert!(g.nodes[3].deps.contains(&task));
        // A processor time longer than the wall-clock time (a clock quirk) never lengthens it.
        let mut l = load();
        l.main_thread[2].tdur = Some(30_000.0);
        let g = Graph::build(&l).expect("graph");
        let task = g
            .nodes
            .iter()
            .position(|n| n.start == 30_000.0)
            .expect("task node");
        assert_eq!(g.nodes[task].duration(), 20_000.0);
    }

    #[test]
    fn a_subgraph_keeps_what_its_nodes_depend_on() {
        let l = load();
        let g = Graph::build(&l).expect("graph");
        let full = g.full();
        let only_xhr = g.subgraph(&full, |n| n == 3);
        let task = g
            .nodes
            .iter()
            .position(|n| n.start == 30_000.0)
            .expect("task");
        for n in [0, 2, 3, task] {
            assert!(only_xhr.has(n), "node {n}");
        }
        assert!(!only_xhr.has(1));
    }

    #[test]
    fn a_missing_document_or_trace_is_an_error() {
        let mut l = load();
        l.requested_url = "http://other.test/".into();
        assert_eq!(Graph::build(&l).err(), Some(SimulationError::NoDocument));
        let mut l = load();
        l.main_thread.clear();
        assert_eq!(Graph::build(&l).err(), Some(SimulationError::NoTasks));
    }
}
