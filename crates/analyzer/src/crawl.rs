//! The crawl: the start page, robots.txt, sitemaps, then same-site pages breadth-first, each
//! fetched once, concurrently up to the per-host limit, never where robots.txt forbids.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::time::Duration;

use futures::StreamExt;
use url::Url;

use crate::config::ROBOTS_TOKEN;
use crate::fetch::{FetchError, Fetched, Fetcher};
use crate::page::{self, PageDoc};
use crate::robots::Robots;
use crate::sitemap::{self, SitemapDoc, SitemapKind};

/// One crawled page.
#[derive(Debug, Clone)]
pub struct CrawledPage {
    /// The address requested (as linked or listed).
    pub url: Url,
    /// Links from the start page to reach it (0 for the start page; `None` when only the sitemap
    /// led to it).
    pub depth: Option<u32>,
    /// The response, or why there was none.
    pub fetched: Result<Fetched, String>,
    /// The parsed document, for HTML responses.
    pub doc: Option<PageDoc>,
}

impl CrawledPage {
    /// Final status, if a response came.
    pub fn status(&self) -> Option<u16> {
        self.fetched.as_ref().ok().map(|f| f.status)
    }

    /// The address that finally answered.
    pub fn final_url(&self) -> &Url {
        self.fetched
            .as_ref()
            .map(|f| &f.final_url)
            .unwrap_or(&self.url)
    }
}

/// robots.txt as fetched.
#[derive(Debug, Clone, Default)]
pub struct RobotsInfo {
    /// Its address.
    pub url: String,
    /// HTTP status, `None` when the request failed.
    pub status: Option<u16>,
    /// The parsed file (2xx with a text body).
    pub robots: Option<Robots>,
    /// Why it could not be fetched or read.
    pub error: Option<String>,
    /// The body looked like HTML (a soft 404).
    pub served_html: bool,
}

impl RobotsInfo {
    /// Whether robots.txt lets Sitelens fetch `url` (a 4xx or missing robots.txt allows
    /// everything, RFC 9309 §2.3.1.3; a 5xx stops the crawl at the start page, see [`crawl`]).
    pub fn allows(&self, token: &str, url: &Url) -> bool {
        if self.status.is_some_and(|s| s >= 500) {
            return false;
        }
        match &self.robots {
            Some(r) => r.is_allowed(token, &path_and_query(url)),
            None => true,
        }
    }
}

/// One sitemap document as fetched.
#[derive(Debug, Clone)]
pub struct SitemapFetch {
    /// Its address.
    pub url: String,
    /// How it was found: "robots.txt", "default path" or "sitemap index".
    pub found_via: &'static str,
    /// HTTP status, when a response came.
    pub status: Option<u16>,
    /// Parsed content, or the reason it could not be read.
    pub parsed: Result<SitemapDoc, String>,
}

/// Status of a link target that was not crawled as a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkStatus {
    /// Final status, `None` when the request failed.
    pub status: Option<u16>,
    /// Redirect hops before it.
    pub redirects: usize,
    /// Failure reason.
    pub error: Option<String>,
}

/// A referenced asset (script, stylesheet, image) of the start page, measured.
#[derive(Debug, Clone)]
pub struct Asset {
    /// Its address.
    pub url: String,
    /// What kind: "script", "stylesheet", "image" or "other".
    pub kind: &'static str,
    /// Status.
    pub status: Option<u16>,
    /// Bytes on the wire.
    pub transfer_bytes: u64,
    /// Decoded bytes.
    pub decoded_bytes: u64,
    /// Content-Encoding as sent.
    pub content_encoding: Option<String>,
    /// Cache-Control as sent.
    pub cache_control: Option<String>,
    /// Expires header present.
    pub has_expires: bool,
    /// Content-Type.
    pub content_type: String,
    /// The stylesheet's text (stylesheets only, capped at 512 KB).
    pub css: Option<String>,
}

/// Everything the crawl gathered; the checks read only this.
#[derive(Debug, Clone)]
pub struct SiteData {
    /// The start address after validation.
    pub start: Url,
    /// Pages in crawl order; the first is the start page.
    pub pages: Vec<CrawledPage>,
    /// robots.txt.
    pub robots: RobotsInfo,
    /// Sitemap documents read.
    pub sitemaps: Vec<SitemapFetch>,
    /// Page URLs listed in the sitemaps (deduplicated, capped).
    pub sitemap_urls: Vec<String>,
    /// Status of same-site link targets that were not crawled.
    pub internal_links: BTreeMap<String, LinkStatus>,
    /// Status of a sample of external link targets.
    pub external_links: BTreeMap<String, LinkStatus>,
    /// Same-site URLs robots.txt kept Sitelens from fetching.
    pub blocked_by_robots: Vec<String>,
    /// The start page's assets.
    pub assets: Vec<Asset>,
    /// What `http://` on the start host did: final URL and hops, or the error.
    pub http_version: Option<Result<(String, usize), String>>,
    /// `/llms.txt` status.
    pub llms_txt: Option<u16>,
    /// `/favicon.ico` status, fetched only when the start page declares no icon.
    pub favicon_ico: Option<u16>,
    /// Why the crawl or its checks stopped before finishing, if they did.
    pub stopped_early: Option<String>,
    /// Time the crawl took.
    pub elapsed: Duration,
}

impl SiteData {
    /// A crawl of one page and nothing else (no robots.txt, sitemap, links or assets), for
    /// checking a page offline as the tests and the fuzz targets do.
    pub fn of_page(page: CrawledPage) -> Self {
        Self {
            start: page.url.clone(),
            pages: vec![page],
            robots: RobotsInfo::default(),
            sitemaps: Vec::new(),
            sitemap_urls: Vec::new(),
            internal_links: BTreeMap::new(),
            external_links: BTreeMap::new(),
            blocked_by_robots: Vec::new(),
            assets: Vec::new(),
            http_version: None,
            llms_txt: None,
            favicon_ico: None,
            stopped_early: None,
            elapsed: Duration::ZERO,
        }
    }

    /// The start page (always present).
    pub fn start_page(&self) -> &CrawledPage {
        &self.pages[0]
    }
}

/// Path and query of a URL, as robots.txt rules see it.
pub fn path_and_query(url: &Url) -> String {
    match url.query() {
        Some(q) => format!("{}?{}", url.path(), q),
        None => url.path().to_owned(),
    }
}

/// Whether `url` belongs to the site of `origin`: same scheme-less host, with or without `www.`.
pub fn same_site(origin: &Url, url: &Url) -> bool {
    let strip = |h: &str| h.trim_start_matches("www.").to_ascii_lowercase();
    match (origin.host_str(), url.host_str()) {
        (Some(a), Some(b)) => {
            strip(a) == strip(b) && origin.port_or_known_default() == url.port_or_known_default()
        }
        _ => false,
    }
}

/// A URL without its fragment, for "fetched once" bookkeeping.
pub fn normalized(url: &Url) -> Url {
    let mut u = url.clone();
    u.set_fragment(None);
    u
}

const MAX_SITEMAP_URLS: usize = 50_000;
const MAX_CHILD_SITEMAPS: usize = 5;
const MAX_LINK_CHECKS: usize = 100;

/// Fetch and parse one page (parsing is synchronous: `scraper::Html` is not `Send`).
pub async fn fetch_page(fetcher: &Fetcher, url: &Url, depth: Option<u32>) -> CrawledPage {
    match fetcher.get_page(url).await {
        Ok(f) => {
            let doc = f.is_html().then(|| page::parse(&f.text(), &f.final_url));
            CrawledPage {
                url: url.clone(),
                depth,
                fetched: Ok(f),
                doc,
            }
        }
        Err(e) => CrawledPage {
            url: url.clone(),
            depth,
            fetched: Err(e.to_string()),
            doc: None,
        },
    }
}

/// Opens when the browser's timed load of the start page has ended, or when there is none.
/// Until then the crawl sends the site nothing beyond the start page it was given: its own
/// requests (robots.txt, sitemaps, other pages, links, assets) would compete with the load being
/// timed, for the site's bandwidth and server as much as for this machine's processor.
///
/// The browser opens it with the addresses it waited on in vain for the whole load time limit
/// ([`LoadEnded`]): the crawl does not wait on them a second time.
#[derive(Clone, Default)]
pub struct LoadGate(Option<futures::future::Shared<tokio::sync::oneshot::Receiver<Vec<String>>>>);

/// Opens a [`LoadGate`], telling it which requests of the load got no answer in its time limit.
pub type LoadEnded = tokio::sync::oneshot::Sender<Vec<String>>;

impl LoadGate {
    /// A gate that is open already (no browser load to wait for).
    pub fn open() -> Self {
        Self(None)
    }

    /// A closed gate and the sender that opens it; dropping the sender opens it too (a
    /// measurement that fails or never starts holds nothing back).
    pub fn closed() -> (LoadEnded, Self) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        (tx, Self(Some(futures::FutureExt::shared(rx))))
    }

    /// Wait until the gate is open; the addresses the browser's load got no answer from.
    pub async fn opened(&self) -> Vec<String> {
        match &self.0 {
            Some(rx) => rx.clone().await.unwrap_or_default(),
            None => Vec::new(),
        }
    }
}

/// Crawl from an already fetched start page, once `gate` is open.
pub async fn crawl(
    fetcher: &Fetcher,
    start: CrawledPage,
    max_pages: usize,
    gate: &LoadGate,
) -> SiteData {
    let unanswered = gate.opened().await;
    let begun = std::time::Instant::now();
    let origin = start.final_url().clone();
    let (robots, http_version, llms_txt) = tokio::join!(
        fetch_robots(fetcher, &origin),
        check_http_version(fetcher, &origin),
        fetch_status(fetcher, &origin, "/llms.txt"),
    );
    let (sitemaps, sitemap_urls) = fetch_sitemaps(fetcher, &origin, &robots).await;
    let favicon_ico = match &start.doc {
        Some(d) if d.icons.is_empty() => fetch_status(fetcher, &origin, "/favicon.ico").await,
        _ => None,
    };

    let mut seen: HashSet<Url> = HashSet::new();
    seen.insert(normalized(&start.url));
    seen.insert(normalized(start.final_url()));
    let mut pages = vec![start];
    let mut blocked = Vec::new();
    let mut queue: VecDeque<(Url, Option<u32>)> = VecDeque::new();
    let enqueue = |url: Url,
                   depth: Option<u32>,
                   queue: &mut VecDeque<(Url, Option<u32>)>,
                   seen: &mut HashSet<Url>,
                   blocked: &mut Vec<String>| {
        let url = normalized(&url);
        if !same_site(&origin, &url) || !seen.insert(url.clone()) {
            return;
        }
        if !robots.allows(ROBOTS_TOKEN, &url) {
            blocked.push(url.to_string());
            return;
        }
        queue.push_back((url, depth));
    };
    for link in page_links(&pages[0]) {
        enqueue(link, Some(1), &mut queue, &mut seen, &mut blocked);
    }
    // Sitemap URLs come after the start page's links: breadth-first, seeded from the sitemap.
    let mut sitemap_seed: VecDeque<Url> = sitemap_urls
        .iter()
        .filter_map(|u| Url::parse(u).ok())
        .collect();

    let concurrency = fetcher.config().per_host_concurrency.max(1);
    // Crawling may use 60% of the analysis time limit and the link and asset checks up to 85%,
    // so a slow site still gets a report of what was read instead of a timeout.
    let limit = fetcher.config().analysis_timeout;
    let crawl_budget = limit.mul_f64(0.6);
    let checks_budget = limit.mul_f64(0.85);
    let mut stopped_early: Option<String> = None;
    // RFC 9309 §2.3.1.4: a robots.txt that fails with a server error means "disallow all"; the
    // start page the user asked for is still analysed, nothing more is crawled.
    let max_pages = if robots.status.is_some_and(|s| s >= 500) {
        1
    } else {
        max_pages
    };
    while pages.len() < max_pages {
        let room = max_pages - pages.len();
        // Take the next level (or what fits), then the sitemap seeds when links run out.
        // The queue is first-in first-out, so pages come level by level (breadth-first). Small
        // batches keep the time limit effective.
        if begun.elapsed() > crawl_budget {
            stopped_early = Some(format!(
                "the crawl stopped after {} pages because the site answered too slowly to finish within the analysis time limit",
                pages.len()
            ));
            break;
        }
        let mut batch: Vec<(Url, Option<u32>)> = Vec::new();
        let room = room.min(concurrency * 2);
        while batch.len() < room {
            match queue.pop_front() {
                Some(item) => batch.push(item),
                None => break,
            }
        }
        if batch.is_empty() {
            while batch.len() < room {
                let Some(u) = sitemap_seed.pop_front() else {
                    break;
                };
                let before = queue.len();
                // Blocked sitemap entries are reported by the sitemap check, not as blocked links.
                enqueue(u, None, &mut queue, &mut seen, &mut Vec::new());
                if queue.len() > before
                    && let Some(item) = queue.pop_back()
                {
                    batch.push(item);
                }
            }
        }
        if batch.is_empty() {
            break;
        }
        let fetched: Vec<CrawledPage> = futures::stream::iter(batch)
            .map(|(url, depth)| async move { fetch_page(fetcher, &url, depth).await })
            .buffered(concurrency)
            .collect()
            .await;
        for p in fetched {
            // A redirect onto a page already crawled is not a new page.
            let final_norm = normalized(p.final_url());
            if final_norm != normalized(&p.url) && !seen.insert(final_norm) {
                continue;
            }
            let next_depth = p.depth.map(|d| d + 1);
            for link in page_links(&p) {
                enqueue(link, next_depth, &mut queue, &mut seen, &mut blocked);
            }
            pages.push(p);
        }
    }

    let remaining = checks_budget.saturating_sub(begun.elapsed());
    let (internal_links, external_links, assets) = match tokio::time::timeout(remaining, async {
        tokio::join!(
            check_uncrawled_links(fetcher, &origin, &pages, &robots),
            check_external_links(fetcher, &origin, &pages),
            measure_assets(fetcher, &pages[0], &unanswered),
        )
    })
    .await
    {
        Ok(all) => all,
        Err(_) => {
            stopped_early.get_or_insert_with(|| {
                "link and asset checks were cut short by the analysis time limit".to_owned()
            });
            (BTreeMap::new(), BTreeMap::new(), Vec::new())
        }
    };

    SiteData {
        start: pages[0].url.clone(),
        pages,
        robots,
        sitemaps,
        sitemap_urls,
        internal_links,
        external_links,
        blocked_by_robots: blocked,
        assets,
        http_version,
        llms_txt,
        favicon_ico,
        stopped_early,
        elapsed: begun.elapsed(),
    }
}

/// Followable links of a page (not `rel=nofollow`), fragments removed.
fn page_links(p: &CrawledPage) -> Vec<Url> {
    let Some(doc) = &p.doc else {
        return Vec::new();
    };
    doc.anchors
        .iter()
        .filter(|a| !a.rel.iter().any(|r| r == "nofollow"))
        .filter_map(|a| a.url.clone())
        .filter(|u| u.scheme() == "http" || u.scheme() == "https")
        .map(|u| normalized(&u))
        .collect()
}

async fn fetch_robots(fetcher: &Fetcher, origin: &Url) -> RobotsInfo {
    let Ok(url) = origin.join("/robots.txt") else {
        return RobotsInfo::default();
    };
    let mut info = RobotsInfo {
        url: url.to_string(),
        ..RobotsInfo::default()
    };
    match fetcher.get(&url).await {
        Ok(f) => {
            info.status = Some(f.status);
            if (200..300).contains(&f.status) {
                let text = f.text();
                let head = text.trim_start().to_ascii_lowercase();
                if head.starts_with("<!doctype") || head.starts_with("<html") {
                    info.served_html = true;
                    info.error = Some("robots.txt answers with an HTML page".to_owned());
                } else {
                    info.robots = Some(Robots::parse(&text));
                }
            }
        }
        Err(e) => info.error = Some(e.to_string()),
    }
    info
}

async fn fetch_sitemaps(
    fetcher: &Fetcher,
    origin: &Url,
    robots: &RobotsInfo,
) -> (Vec<SitemapFetch>, Vec<String>) {
    let mut todo: VecDeque<(String, &'static str)> = robots
        .robots
        .as_ref()
        .map(|r| {
            r.sitemaps
                .iter()
                .map(|s| (s.clone(), "robots.txt"))
                .collect()
        })
        .unwrap_or_default();
    if todo.is_empty()
        && let Ok(u) = origin.join("/sitemap.xml")
    {
        todo.push_back((u.to_string(), "default path"));
    }
    let mut out = Vec::new();
    let mut urls: Vec<String> = Vec::new();
    let mut seen_urls: HashSet<String> = HashSet::new();
    let mut children = 0;
    while let Some((addr, via)) = todo.pop_front() {
        let Ok(url) = Url::parse(&addr) else {
            continue;
        };
        let (status, parsed) = match fetcher.get(&url).await {
            Ok(f) if (200..300).contains(&f.status) => (
                Some(f.status),
                sitemap::parse(&f.text()).map_err(|e| e.to_string()),
            ),
            Ok(f) => (Some(f.status), Err(format!("answered HTTP {}", f.status))),
            Err(e) => (None, Err(e.to_string())),
        };
        if let Ok(doc) = &parsed {
            match doc.kind {
                SitemapKind::Index => {
                    for child in &doc.locs {
                        if children < MAX_CHILD_SITEMAPS {
                            children += 1;
                            todo.push_back((child.clone(), "sitemap index"));
                        }
                    }
                }
                SitemapKind::UrlSet => {
                    for loc in &doc.locs {
                        if urls.len() < MAX_SITEMAP_URLS && seen_urls.insert(loc.clone()) {
                            urls.push(loc.clone());
                        }
                    }
                }
            }
        }
        out.push(SitemapFetch {
            url: addr,
            found_via: via,
            status,
            parsed,
        });
    }
    (out, urls)
}

async fn check_http_version(
    fetcher: &Fetcher,
    origin: &Url,
) -> Option<Result<(String, usize), String>> {
    if origin.scheme() != "https" {
        return None;
    }
    let mut http = origin.clone();
    http.set_scheme("http").ok()?;
    http.set_port(None).ok()?;
    http.set_path("/");
    http.set_query(None);
    Some(match fetcher.head(&http).await {
        Ok(f) => Ok((f.final_url.to_string(), f.hops.len())),
        Err(e) => Err(e.to_string()),
    })
}

async fn fetch_status(fetcher: &Fetcher, origin: &Url, path: &str) -> Option<u16> {
    let url = origin.join(path).ok()?;
    fetcher
        .get_limited(&url, 64 * 1024)
        .await
        .ok()
        .map(|f| f.status)
}

async fn link_status(fetcher: &Fetcher, url: Url) -> (String, LinkStatus) {
    // HEAD first; some servers refuse it, so fall back to a small GET.
    let mut result = fetcher.head(&url).await;
    if matches!(&result, Ok(f) if f.status == 405 || f.status == 501) {
        result = fetcher.get_limited(&url, 1024).await;
    }
    let status = match result {
        Ok(f) => LinkStatus {
            status: Some(f.status),
            redirects: f.hops.len(),
            error: None,
        },
        Err(e) => LinkStatus {
            status: None,
            redirects: 0,
            error: Some(match e {
                FetchError::Refused(_) => "refused by the SSRF guard".to_owned(),
                other => other.to_string(),
            }),
        },
    };
    (url.to_string(), status)
}

async fn check_uncrawled_links(
    fetcher: &Fetcher,
    origin: &Url,
    pages: &[CrawledPage],
    robots: &RobotsInfo,
) -> BTreeMap<String, LinkStatus> {
    let crawled: HashSet<Url> = pages.iter().map(|p| normalized(&p.url)).collect();
    let mut targets: Vec<Url> = Vec::new();
    let mut seen: HashSet<Url> = HashSet::new();
    for p in pages {
        let Some(doc) = &p.doc else { continue };
        for a in &doc.anchors {
            if let Some(u) = &a.url {
                let u = normalized(u);
                // Robots-blocked targets are never requested, not even with HEAD.
                if same_site(origin, &u)
                    && !crawled.contains(&u)
                    && robots.allows(ROBOTS_TOKEN, &u)
                    && seen.insert(u.clone())
                {
                    targets.push(u);
                }
            }
        }
    }
    targets.truncate(MAX_LINK_CHECKS);
    let concurrency = fetcher.config().per_host_concurrency.max(1);
    futures::stream::iter(targets)
        .map(|u| link_status(fetcher, u))
        .buffer_unordered(concurrency)
        .collect()
        .await
}

async fn check_external_links(
    fetcher: &Fetcher,
    origin: &Url,
    pages: &[CrawledPage],
) -> BTreeMap<String, LinkStatus> {
    let cap = fetcher.config().external_link_sample;
    let mut targets: Vec<Url> = Vec::new();
    let mut seen: HashSet<Url> = HashSet::new();
    'outer: for p in pages {
        let Some(doc) = &p.doc else { continue };
        for a in &doc.anchors {
            if let Some(u) = &a.url {
                let u = normalized(u);
                if (u.scheme() == "http" || u.scheme() == "https")
                    && !same_site(origin, &u)
                    && seen.insert(u.clone())
                {
                    if targets.len() >= cap {
                        break 'outer;
                    }
                    targets.push(u);
                }
            }
        }
    }
    futures::stream::iter(targets)
        .map(|u| link_status(fetcher, u))
        .buffer_unordered(4)
        .collect()
        .await
}

/// An asset to measure: its address and kind. A named type (not a tuple with a borrowed
/// `&str`) keeps the stream's future `Send` for any caller, including spawned tasks.
struct AssetJob(String, &'static str);

/// The start page's assets, each fetched once; those in `unanswered` (the browser's load waited
/// for them in vain) are recorded as failed without another wait.
async fn measure_assets(
    fetcher: &Fetcher,
    page: &CrawledPage,
    unanswered: &[String],
) -> Vec<Asset> {
    let Some(doc) = &page.doc else {
        return Vec::new();
    };
    let mut list: Vec<AssetJob> = Vec::new();
    let mut seen = HashSet::new();
    for s in doc.scripts.iter().filter_map(|s| s.src.clone()) {
        if seen.insert(s.clone()) {
            list.push(AssetJob(s, "script"));
        }
    }
    for s in &doc.stylesheets {
        if seen.insert(s.href.clone()) {
            list.push(AssetJob(s.href.clone(), "stylesheet"));
        }
    }
    for i in &doc.images {
        if i.src.starts_with("http") && seen.insert(i.src.clone()) {
            list.push(AssetJob(i.src.clone(), "image"));
        }
    }
    for s in &doc.subresources {
        if s.starts_with("http") && seen.insert(s.clone()) {
            list.push(AssetJob(s.clone(), "other"));
        }
    }
    list.truncate(fetcher.config().max_assets);
    // As the browser asked for them: parsed the same way, without a fragment.
    let without_fragment = |u: &Url| {
        let mut u = u.clone();
        u.set_fragment(None);
        u.to_string()
    };
    let unanswered: HashSet<String> = unanswered
        .iter()
        .filter_map(|u| Url::parse(u).ok())
        .map(|u| without_fragment(&u))
        .collect();
    let (unanswered, without_fragment) = (&unanswered, &without_fragment);
    let concurrency = fetcher.config().per_host_concurrency.max(1);
    futures::stream::iter(list)
        .map(|AssetJob(u, kind)| async move {
            let Ok(url) = Url::parse(&u) else {
                return None;
            };
            let r = if unanswered.contains(&without_fragment(&url)) {
                Err(())
            } else {
                fetcher.get(&url).await.map_err(|_| ())
            };
            Some(match r {
                Ok(f) => Asset {
                    url: u,
                    kind,
                    status: Some(f.status),
                    transfer_bytes: f.transfer_bytes,
                    decoded_bytes: f.body.len() as u64,
                    content_encoding: f.header("content-encoding").map(str::to_owned),
                    cache_control: f.header("cache-control").map(str::to_owned),
                    has_expires: f.header("expires").is_some(),
                    content_type: f.mime(),
                    css: (kind == "stylesheet").then(|| {
                        String::from_utf8_lossy(&f.body[..f.body.len().min(512 * 1024)])
                            .into_owned()
                    }),
                },
                Err(_) => Asset {
                    url: u,
                    kind,
                    status: None,
                    transfer_bytes: 0,
                    decoded_bytes: 0,
                    content_encoding: None,
                    cache_control: None,
                    has_expires: false,
                    content_type: String::new(),
                    css: None,
                },
            })
        })
        .buffered(concurrency)
        .filter_map(|a| async move { a })
        .collect()
        .await
}
