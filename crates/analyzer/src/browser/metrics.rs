//! Observed lab metrics of one load: the figures the page itself recorded (paint, LCP and
//! layout-shift entries, long tasks, navigation and resource timing) and what the network saw,
//! computed into [`LabMetrics`].
//!
//! How each figure is measured on this server's connection is described in [`super::lab`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::record::{NetRequest, NetState};

/// Bytes per pixel of a well-compressed WebP, the target of the image savings estimate.
pub const TARGET_BYTES_PER_PIXEL: f64 = 0.15;
/// Savings under this many bytes are not reported (Lighthouse's threshold).
pub const IGNORE_SAVINGS_BYTES: f64 = 4096.0;

/// Bytes and requests of one resource type.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TypeBreakdown {
    /// Resource type as DevTools names it (Document, Script, Stylesheet, Image, Font, ...).
    pub resource_type: String,
    /// Requests.
    pub requests: u32,
    /// Bytes on the wire.
    pub transferred_bytes: f64,
    /// Decoded bytes.
    pub decoded_bytes: f64,
}

/// One resource.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceInfo {
    /// Address.
    pub url: String,
    /// Resource type.
    pub resource_type: String,
    /// MIME type of the response.
    pub mime_type: String,
    /// Bytes on the wire.
    pub transferred_bytes: f64,
    /// Decoded bytes.
    pub decoded_bytes: f64,
    /// Whether it is on another site than the page.
    pub third_party: bool,
    /// When it finished, ms after navigation start (render-blocking resources).
    pub end_ms: f64,
}

/// An image worth changing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageFinding {
    /// Address.
    pub url: String,
    /// Natural size.
    pub natural: (u32, u32),
    /// Displayed size, CSS px.
    pub displayed: (u32, u32),
    /// Bytes on the wire.
    pub transferred_bytes: f64,
    /// Estimated bytes saved by resizing to the displayed size and a modern format.
    pub wasted_bytes: f64,
    /// Width and height are not reserved (attributes or CSS), so it shifts the layout.
    pub no_dimensions: bool,
    /// Served larger than displayed.
    pub oversized: bool,
    /// JPEG, PNG, BMP or TIFF rather than WebP/AVIF.
    pub legacy_format: bool,
    /// Displayed with a different aspect ratio than its natural one (distorted).
    pub distorted: bool,
    /// Displayed larger than its natural size (blurry).
    pub upscaled: bool,
}

/// Third-party weight.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThirdParty {
    /// Requests to other sites.
    pub requests: u32,
    /// Their bytes on the wire.
    pub transferred_bytes: f64,
    /// Share of all transferred bytes, 0-1.
    pub byte_share: f64,
    /// Other sites contacted.
    pub hosts: Vec<String>,
}

/// Lab metrics of one load. Times in ms from navigation start, sizes in bytes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabMetrics {
    /// First Contentful Paint.
    pub first_contentful_paint: Option<f64>,
    /// Largest Contentful Paint.
    pub largest_contentful_paint: Option<f64>,
    /// The LCP element's tag and address (images).
    pub lcp_element: Option<String>,
    /// Cumulative Layout Shift.
    pub cumulative_layout_shift: f64,
    /// Total Blocking Time.
    pub total_blocking_time: f64,
    /// Long tasks seen (start, duration).
    pub long_tasks: Vec<(f64, f64)>,
    /// Speed Index (paint progression, see the module documentation).
    pub speed_index: Option<f64>,
    /// Time to Interactive (see the module documentation).
    pub time_to_interactive: Option<f64>,
    /// Time to first byte of the document.
    pub time_to_first_byte: Option<f64>,
    /// DOMContentLoaded end.
    pub dom_content_loaded: Option<f64>,
    /// Load event end.
    pub load_time: Option<f64>,
    /// Bytes on the wire.
    pub transferred_bytes: f64,
    /// Decoded bytes.
    pub decoded_bytes: f64,
    /// Requests (`data:` excluded; refused ones excluded).
    pub request_count: u32,
    /// Per resource type, largest first.
    pub by_type: Vec<TypeBreakdown>,
    /// The ten largest resources.
    pub largest: Vec<ResourceInfo>,
    /// Render-blocking resources.
    pub render_blocking: Vec<ResourceInfo>,
    /// Images with something to fix.
    pub images: Vec<ImageFinding>,
    /// Third-party weight.
    pub third_party: ThirdParty,
    /// Requests whose host did not resolve or did not answer (within the load's time limit).
    pub unanswered: Vec<String>,
    /// Requests over plain HTTP or WS to a host other than localhost (Lighthouse's
    /// `is-on-https` counts every one, answered or not).
    #[serde(default)]
    pub insecure: Vec<String>,
    /// The network went quiet and the page looked done before the settling limit.
    pub settled: bool,
}

impl LabMetrics {
    /// The values the performance score uses.
    pub fn lab_values(&self) -> domain::score::LabValues {
        domain::score::LabValues {
            first_contentful_paint: self.first_contentful_paint,
            speed_index: self.speed_index,
            largest_contentful_paint: self.largest_contentful_paint,
            total_blocking_time: Some(self.total_blocking_time),
            cumulative_layout_shift: Some(self.cumulative_layout_shift),
        }
    }

    /// Bytes the image changes would save.
    pub fn image_savings(&self) -> f64 {
        self.images
            .iter()
            .map(|i| i.wasted_bytes)
            .fold(0.0, |a, b| a + b)
    }
}

impl Collected {
    /// The layout shifts the page observed: time (ms after the time origin) and value.
    pub fn layout_shifts(&self) -> Vec<(f64, f64)> {
        self.shifts.iter().map(|s| (s.t, s.v)).collect()
    }
}

/// What the page script recorded (lab-collect.js).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Collected {
    paints: BTreeMap<String, f64>,
    lcp: Vec<LcpEntry>,
    shifts: Vec<Shift>,
    longtasks: Vec<LongTask>,
    speed_index: Option<f64>,
    nav: NavTiming,
    resources: Vec<ResourceTiming>,
    /// The page's images.
    pub images: Vec<ImageProbe>,
    /// The viewport the images were measured in.
    pub screen: ScreenProbe,
    /// `document.doctype.name`.
    pub doctype: Option<String>,
    /// `document.compatMode`.
    pub compat_mode: String,
    /// `document.characterSet`.
    pub character_set: String,
    /// Index of the charset meta among the head's children, -1 when absent.
    pub meta_charset_index: i64,
    /// The viewport meta content, when present.
    pub viewport: Option<String>,
    /// `window.isSecureContext` (https, or localhost as Lighthouse treats it).
    pub secure_context: bool,
    /// `location.protocol`.
    pub protocol: String,
    /// The page asked for the position while loading.
    pub geolocation_on_start: bool,
    /// The page asked to show notifications while loading.
    pub notification_on_start: bool,
    /// Inputs that cancel a paste.
    pub paste_prevented: u32,
    /// `location.href`.
    pub final_url: String,
    /// `document.title`.
    pub title: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct LcpEntry {
    t: f64,
    url: String,
    tag: String,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(default)]
struct Shift {
    t: f64,
    v: f64,
    /// Chromium's `hadRecentInput`. Sitelens never sends input, yet Chromium sets the flag after
    /// emulation and tab changes (crbug.com/1094974, crbug.com/1302667; Lighthouse works around
    /// it too), so every shift counts and the flag is only kept for the record.
    #[allow(dead_code)]
    input: bool,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(default)]
struct LongTask {
    t: f64,
    d: f64,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct NavTiming {
    response_start: f64,
    dom_content_loaded: f64,
    load: f64,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct ResourceTiming {
    url: String,
    render_blocking: bool,
    end: f64,
}

/// One `<img>` as rendered.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ImageProbe {
    /// `currentSrc`.
    pub url: String,
    /// Natural width.
    pub natural_width: f64,
    /// Natural height.
    pub natural_height: f64,
    /// Displayed width.
    pub width: f64,
    /// Displayed height.
    pub height: f64,
    /// Has a width attribute.
    pub has_width_attr: bool,
    /// Has a height attribute.
    pub has_height_attr: bool,
    /// Sized by CSS (inline width and height, or aspect-ratio).
    pub css_sized: bool,
    /// `object-fit`.
    pub object_fit: String,
    /// Rendered with a size.
    pub visible: bool,
    /// In the first viewport.
    pub in_viewport: bool,
    /// The file's own pixel size: the natural size, or for an image in a `<picture>` or with a
    /// `srcset` (whose natural size is scaled by the chosen density) the size a fresh `Image`
    /// of `currentSrc` reports; unknown when that did not load in time.
    pub file_size: Option<(f64, f64)>,
    /// `img.width`: the rendered content-box width, whole CSS px.
    pub displayed_width: f64,
    /// `img.height`.
    pub displayed_height: f64,
    /// Bounding box, CSS px from the viewport's top left.
    pub top: f64,
    /// Bottom edge.
    pub bottom: f64,
    /// Left edge.
    pub left: f64,
    /// Right edge.
    pub right: f64,
    /// The `srcset` attribute.
    pub srcset: String,
    /// `image-rendering`.
    pub image_rendering: String,
}

/// The page's viewport as the page saw it: `innerWidth`, `innerHeight`, `devicePixelRatio`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(default)]
pub struct ScreenProbe {
    /// `innerWidth`.
    pub width: f64,
    /// `innerHeight`.
    pub height: f64,
    /// `devicePixelRatio`.
    pub dpr: f64,
}

impl Default for ScreenProbe {
    fn default() -> Self {
        ScreenProbe {
            width: 0.0,
            height: 0.0,
            dpr: 1.0,
        }
    }
}

/// Lighthouse's `UrlUtils.guessMimeType` for SVG: a `data:image/svg+xml` URL or a path ending
/// in `.svg`.
fn svg_by_url(url: &str) -> bool {
    if let Some(rest) = url.strip_prefix("data:") {
        return rest.starts_with("image/svg+xml;") || rest.starts_with("image/svg+xml,");
    }
    url::Url::parse(url).is_ok_and(|u| u.path().to_ascii_lowercase().ends_with(".svg"))
}

/// Lighthouse 12.8.2's image-aspect-ratio: every `<img>` (visible or not) whose URL does not
/// name an SVG, whose file is over 5 px both ways, drawn at a size (`img.width` and
/// `img.height`: the content box, so padding and borders do not count) with object-fit fill,
/// and whose displayed size is off by 2 px or more from the size its natural ratio gives along
/// the shorter target.
fn distorted(img: &ImageProbe) -> bool {
    let Some((nw, nh)) = img.file_size else {
        return false;
    };
    let (w, h) = (img.displayed_width, img.displayed_height);
    if svg_by_url(&img.url) || img.object_fit != "fill" || nw <= 5.0 || nh <= 5.0 {
        return false;
    }
    if w <= 0.0 || h <= 0.0 {
        return false;
    }
    let ratio = nw / nh;
    let target_height = w / ratio;
    let target_width = h * ratio;
    if target_height < target_width {
        (target_height - h).abs() >= 2.0
    } else {
        (target_width - w).abs() >= 2.0
    }
}

/// Whether a `srcset` holds a density descriptor as Lighthouse finds one: a space, digits, an
/// optional fraction, then `x` (`/ \d+(\.\d+)?x/`).
fn has_density_descriptor(srcset: &str) -> bool {
    let b = srcset.as_bytes();
    (0..b.len()).any(|i| {
        if b[i] != b' ' {
            return false;
        }
        let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
        let mut j = i + 1;
        let whole = digits(j);
        if whole == 0 {
            return false;
        }
        j += whole;
        if b.get(j) == Some(&b'.') && digits(j + 1) > 0 {
            j += 1 + digits(j + 1);
        }
        b.get(j) == Some(&b'x')
    })
}

/// Lighthouse 12.8.2's image-size-responsive: an `<img>` on the first screen (its box touches
/// the viewport and fits in it), drawn over 1 px both ways with object-fit fill, not pixel art
/// (`image-rendering` pixelated or crisp-edges), without density descriptors in its `srcset`,
/// whose URL or response is not SVG, fails when its file has fewer pixels either way than the
/// displayed size times the pixel ratio (quantized to 1, 1.5 or 2) times 1, or 0.75 when a side
/// is over 64 px.
fn low_resolution(img: &ImageProbe, mime: &str, screen: &ScreenProbe) -> bool {
    let Some((nw, nh)) = img.file_size else {
        return false;
    };
    let (w, h) = (img.displayed_width, img.displayed_height);
    let density_descriptor = has_density_descriptor(&img.srcset);
    let candidate = w > 1.0
        && h > 1.0
        && nw > 0.0
        && nh > 0.0
        && mime != "image/svg+xml"
        && !svg_by_url(&img.url)
        && img.object_fit == "fill"
        && !matches!(img.image_rendering.as_str(), "pixelated" | "crisp-edges")
        && !density_descriptor;
    if !candidate {
        return false;
    }
    let dpr = if screen.dpr >= 2.0 {
        2.0
    } else if screen.dpr >= 1.5 {
        1.5
    } else {
        1.0
    };
    let factor = if w > 64.0 || h > 64.0 { 0.75 } else { 1.0 };
    let right_size = nw >= (factor * dpr * w).ceil() && nh >= (factor * dpr * h).ceil();
    let visible = (img.bottom - img.top) * (img.right - img.left) > 0.0
        && img.top <= screen.height
        && img.bottom >= 0.0
        && img.left <= screen.width
        && img.right >= 0.0;
    let fits = img.bottom - img.top <= screen.height && img.right - img.left <= screen.width;
    !right_size && visible && fits
}

/// The registrable part of a host, approximated as its last two labels (IP addresses whole).
pub(crate) fn site_of(host: &str) -> String {
    if host.parse::<std::net::IpAddr>().is_ok() || host.starts_with('[') {
        return host.to_owned();
    }
    let labels: Vec<&str> = host.trim_end_matches('.').split('.').collect();
    let n = labels.len();
    if n <= 2 {
        return host.to_owned();
    }
    // Two-letter second-level registries such as co.uk keep three labels.
    let keep = if labels[n - 2].len() <= 3 && labels[n - 1].len() == 2 {
        3
    } else {
        2
    };
    labels[n.saturating_sub(keep)..].join(".")
}

pub(crate) fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_default()
}

/// CLS: the largest session window (gaps under 1 s, windows at most 5 s) of shift values.
pub fn cumulative_layout_shift(shifts: &[(f64, f64)]) -> f64 {
    let mut best: f64 = 0.0;
    let mut current = 0.0;
    let mut window_start = f64::NEG_INFINITY;
    let mut last = f64::NEG_INFINITY;
    for &(t, v) in shifts {
        if t - last >= 1000.0 || t - window_start >= 5000.0 {
            current = 0.0;
            window_start = t;
        }
        current += v;
        last = t;
        best = best.max(current);
    }
    best
}

/// TBT: the time beyond 50 ms of every long task after FCP, each clipped at FCP.
pub fn total_blocking_time(fcp: f64, tasks: &[(f64, f64)]) -> f64 {
    tasks
        .iter()
        .map(|&(start, d)| {
            let end = start + d;
            let clipped = (end - start.max(fcp)).max(0.0);
            (clipped - 50.0).max(0.0)
        })
        .fold(0.0, |a, b| a + b)
}

pub(crate) fn compute(c: &Collected, requests: &[NetRequest], page_url: &str) -> LabMetrics {
    let fcp = c.paints.get("first-contentful-paint").copied();
    let lcp_entry = c.lcp.last();
    let shifts: Vec<(f64, f64)> = c.shifts.iter().map(|s| (s.t, s.v)).collect();
    let tasks: Vec<(f64, f64)> = c.longtasks.iter().map(|t| (t.t, t.d)).collect();
    let tbt = fcp.map_or(0.0, |f| total_blocking_time(f, &tasks));
    let last_task_end = tasks.iter().map(|(s, d)| s + d).fold(0.0_f64, f64::max);
    let dcl = (c.nav.dom_content_loaded > 0.0).then_some(c.nav.dom_content_loaded);
    let tti = fcp.map(|f| f.max(dcl.unwrap_or(0.0)).max(last_task_end));
    let speed_index = c.speed_index.map(|si| fcp.map_or(si, |f| si.max(f)));

    let page_site = site_of(&host_of(page_url));
    let counted: Vec<&NetRequest> = requests
        .iter()
        .filter(|r| {
            NetState::is_page_request(r)
                && !r.proxy_answer
                && !r.data_url
                && (!r.failed || r.transferred > 0.0)
        })
        .collect();
    let transferred: f64 = counted
        .iter()
        .map(|r| r.transferred)
        .fold(0.0, |a, b| a + b);
    let decoded: f64 = counted.iter().map(|r| r.decoded).fold(0.0, |a, b| a + b);

    let mut types: BTreeMap<String, TypeBreakdown> = BTreeMap::new();
    let mut third = ThirdParty::default();
    let mut resources: Vec<ResourceInfo> = Vec::new();
    for r in &counted {
        let t = types
            .entry(r.resource_type.clone())
            .or_insert_with(|| TypeBreakdown {
                resource_type: r.resource_type.clone(),
                ..TypeBreakdown::default()
            });
        t.requests += 1;
        t.transferred_bytes += r.transferred;
        t.decoded_bytes += r.decoded;
        let host = host_of(&r.url);
        let is_third = !host.is_empty() && site_of(&host) != page_site;
        if is_third {
            third.requests += 1;
            third.transferred_bytes += r.transferred;
            if !third.hosts.contains(&host) {
                third.hosts.push(host);
            }
        }
        resources.push(ResourceInfo {
            url: r.url.clone(),
            resource_type: r.resource_type.clone(),
            mime_type: r.mime_type.clone(),
            transferred_bytes: r.transferred,
            decoded_bytes: r.decoded,
            third_party: is_third,
            end_ms: 0.0,
        });
    }
    third.byte_share = if transferred > 0.0 {
        third.transferred_bytes / transferred
    } else {
        0.0
    };
    let mut by_type: Vec<TypeBreakdown> = types.into_values().collect();
    by_type.sort_by(|a, b| b.transferred_bytes.total_cmp(&a.transferred_bytes));

    let find = |url: &str| resources.iter().find(|r| r.url == url).cloned();
    let render_blocking: Vec<ResourceInfo> = c
        .resources
        .iter()
        .filter(|r| r.render_blocking)
        .map(|r| {
            let mut info = find(&r.url).unwrap_or_else(|| ResourceInfo {
                url: r.url.clone(),
                ..ResourceInfo::default()
            });
            info.end_ms = r.end;
            info
        })
        .collect();

    let mut images = Vec::new();
    for img in &c.images {
        if img.url.is_empty() {
            continue;
        }
        // Lighthouse judges proportions and resolution on images it does not see as rendered
        // (visibility: hidden) too; savings and reserved space only count for shown ones.
        let shown = img.visible && img.natural_width > 0.0;
        let res = find(&img.url);
        let bytes = res.as_ref().map_or(0.0, |r| r.transferred_bytes);
        let mime = res
            .as_ref()
            .map(|r| r.mime_type.clone())
            .unwrap_or_default();
        let natural_px = img.natural_width * img.natural_height;
        let shown_px = (img.width * img.height).max(1.0);
        let legacy = matches!(
            mime.as_str(),
            "image/jpeg" | "image/png" | "image/bmp" | "image/x-ms-bmp" | "image/tiff"
        );
        let oversized = natural_px > shown_px * 1.5 && natural_px - shown_px > 10_000.0;
        let target_px = natural_px.min(shown_px);
        let wasted = if legacy {
            (bytes - target_px * TARGET_BYTES_PER_PIXEL).max(0.0)
        } else if oversized {
            bytes * (1.0 - shown_px / natural_px)
        } else {
            0.0
        };
        let wasted = if shown && wasted >= IGNORE_SAVINGS_BYTES {
            wasted
        } else {
            0.0
        };
        let no_dimensions =
            shown && !(img.css_sized || (img.has_width_attr && img.has_height_attr));
        let distorted = distorted(img);
        let upscaled = low_resolution(img, &mime, &c.screen);
        if wasted > 0.0 || no_dimensions || distorted || upscaled {
            images.push(ImageFinding {
                url: img.url.clone(),
                natural: (img.natural_width as u32, img.natural_height as u32),
                displayed: (img.width.round() as u32, img.height.round() as u32),
                transferred_bytes: bytes,
                wasted_bytes: wasted.round(),
                no_dimensions,
                oversized,
                legacy_format: legacy,
                distorted,
                upscaled,
            });
        }
    }

    let mut largest = resources.clone();
    largest.sort_by(|a, b| b.transferred_bytes.total_cmp(&a.transferred_bytes));
    largest.truncate(10);

    LabMetrics {
        first_contentful_paint: fcp,
        largest_contentful_paint: lcp_entry.map(|e| e.t),
        lcp_element: lcp_entry.map(|e| {
            if e.url.is_empty() {
                e.tag.clone()
            } else {
                format!("{} {}", e.tag, e.url)
            }
        }),
        cumulative_layout_shift: cumulative_layout_shift(&shifts),
        total_blocking_time: tbt,
        long_tasks: tasks,
        speed_index,
        time_to_interactive: tti,
        time_to_first_byte: (c.nav.response_start > 0.0).then_some(c.nav.response_start),
        dom_content_loaded: dcl,
        load_time: (c.nav.load > 0.0).then_some(c.nav.load),
        transferred_bytes: transferred,
        decoded_bytes: decoded,
        request_count: counted.len() as u32,
        by_type,
        largest,
        render_blocking,
        images,
        third_party: third,
        settled: false,
        unanswered: requests
            .iter()
            .filter(|r| r.started && (r.unanswered || r.given_up))
            .map(|r| r.url.clone())
            .collect(),
        insecure: requests
            .iter()
            .filter(|r| r.started && insecure(&r.url))
            .map(|r| r.url.clone())
            .collect(),
    }
}

/// The schemes Lighthouse 12.8 counts as secure (`UrlUtils.isSecureScheme`).
const SECURE_SCHEMES: &[&str] = &[
    "data",
    "https",
    "wss",
    "blob",
    "chrome",
    "chrome-extension",
    "about",
    "filesystem",
];

/// Lighthouse's insecure request: any scheme but the secure ones (plain `http:` and `ws:`, but
/// also `file:` or the `c:` of a Windows path pasted into a `src`, which Chromium requests and
/// fails) to a host other than `localhost`, `127.0.0.1` or a `.localhost` name.
pub(crate) fn insecure(url: &str) -> bool {
    let Ok(u) = url::Url::parse(url) else {
        return false;
    };
    let host = u.host_str().unwrap_or("");
    let local = host == "localhost" || host == "127.0.0.1" || host.ends_with(".localhost");
    !(SECURE_SCHEMES.contains(&u.scheme()) || local)
}

/// Format bytes as the report shows sizes (KB, docs/PRODUCT.md §9.11).
pub fn kb(bytes: f64) -> String {
    format!("{:.0} KB", (bytes / 1024.0).round())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insecure_requests_are_plain_http_beyond_localhost() {
        assert!(insecure("http://example.com/a.js"));
        assert!(insecure("ws://example.com/socket"));
        assert!(!insecure("https://example.com/a.js"));
        assert!(!insecure("http://127.0.0.1:8080/a.js"));
        assert!(!insecure("http://localhost/a.js"));
        assert!(!insecure("http://app.localhost/a.js"));
        assert!(!insecure("data:image/png;base64,AAAA"));
        assert!(!insecure("blob:https://example.com/0f3c"));
        assert!(!insecure("wss://example.com/socket"));
        // A Windows path in an image's src (a real page's mistake): Chromium requests it as a
        // URL of scheme `c`, and Lighthouse lists it as insecure.
        assert!(insecure("c:\\Users\\me\\Downloads\\India flag.png"));
        assert!(insecure("file:///home/me/a.png"));
    }

    fn img(url: &str, file: (f64, f64), shown: (f64, f64), fit: &str) -> ImageProbe {
        ImageProbe {
            url: url.to_owned(),
            natural_width: file.0,
            natural_height: file.1,
            file_size: Some(file),
            width: shown.0,
            height: shown.1,
            displayed_width: shown.0,
            displayed_height: shown.1,
            top: 10.0,
            bottom: 10.0 + shown.1,
            left: 0.0,
            right: shown.0,
            object_fit: fit.to_owned(),
            visible: true,
            ..ImageProbe::default()
        }
    }

    #[test]
    fn image_aspect_ratio_follows_lighthouse() {
        // 400x200 shown at 200x150: stretched.
        // (url, file, shown, object-fit, stretched)
        let cases = [
            // 400x200 shown at 200x150: stretched.
            (
                "http://h/a.png",
                (400.0, 200.0),
                (200.0, 150.0),
                "fill",
                true,
            ),
            // Off by a pixel: within Lighthouse's 2 px.
            (
                "http://h/a.png",
                (400.0, 200.0),
                (200.0, 101.0),
                "fill",
                false,
            ),
            // SVG by its URL, object-fit other than fill, tiny files: not judged.
            (
                "http://h/Logo.SVG?v=2",
                (400.0, 200.0),
                (200.0, 150.0),
                "fill",
                false,
            ),
            (
                "data:image/svg+xml,%3Csvg%3E",
                (400.0, 200.0),
                (200.0, 150.0),
                "fill",
                false,
            ),
            (
                "http://h/a.png",
                (400.0, 200.0),
                (200.0, 150.0),
                "none",
                false,
            ),
            ("http://h/a.png", (5.0, 4.0), (50.0, 10.0), "fill", false),
        ];
        for (url, file, shown, fit, stretched) in cases {
            assert_eq!(
                distorted(&img(url, file, shown, fit)),
                stretched,
                "{url} {shown:?} {fit}"
            );
        }
        // Bootstrap's .img-thumbnail: 4 px padding and a 1 px border around a 300x200 photo
        // drawn at 300x200. Its box is 310x210, out of proportion; its content box, which
        // Lighthouse reads (img.width, img.height), is not.
        let mut thumb = img("http://h/фото.jpg", (300.0, 200.0), (300.0, 200.0), "fill");
        thumb.width = 310.0;
        thumb.height = 210.0;
        assert!(!distorted(&thumb));
        // A picture whose file did not load in time has no known size: not judged.
        let mut unknown = img("http://h/a.jpg", (400.0, 200.0), (200.0, 150.0), "fill");
        unknown.file_size = None;
        assert!(!distorted(&unknown));
    }

    #[test]
    fn image_resolution_follows_lighthouse_on_the_emulated_phone() {
        let phone = ScreenProbe {
            width: 412.0,
            height: 823.0,
            dpr: 1.75,
        };
        // A 400x300 photo drawn 380x285 on the phone: the pixel ratio quantizes to 1.5 and a
        // large image needs 0.75 of that, ceil(380 * 1.125) = 428 px wide. Too few.
        let hero = img("http://h/héro.jpg", (400.0, 300.0), (380.0, 285.0), "fill");
        assert!(low_resolution(&hero, "image/jpeg", &phone));
        // The same at device pixel ratio 1 (a desktop screen) is sharp enough.
        let desk = ScreenProbe { dpr: 1.0, ..phone };
        assert!(!low_resolution(&hero, "image/jpeg", &desk));
        // 450x340 is enough on the phone.
        let sharp = img("http://h/a.jpg", (450.0, 340.0), (380.0, 285.0), "fill");
        assert!(!low_resolution(&sharp, "image/jpeg", &phone));
        // A small icon (64 px or less) needs the full 1.5: 48x48 drawn at 40x40 is too few.
        let icon = img("http://h/i.png", (48.0, 48.0), (40.0, 40.0), "fill");
        assert!(low_resolution(&icon, "image/png", &phone));
        // Below the first screen, or taller than the screen: not judged.
        let mut below = hero.clone();
        below.top = 900.0;
        below.bottom = 1185.0;
        assert!(!low_resolution(&below, "image/jpeg", &phone));
        let mut tall = img("http://h/a.jpg", (100.0, 500.0), (380.0, 900.0), "fill");
        tall.top = 0.0;
        tall.bottom = 900.0;
        assert!(!low_resolution(&tall, "image/jpeg", &phone));
        // Density descriptors, pixel art, SVG responses and object-fit: not judged.
        let mut dense = hero.clone();
        dense.srcset = "a.jpg 1x, a@2x.jpg 2x".to_owned();
        assert!(!low_resolution(&dense, "image/jpeg", &phone));
        let mut widths = hero.clone();
        widths.srcset = "a-400.jpg 400w, a-800.jpg 800w".to_owned();
        assert!(low_resolution(&widths, "image/jpeg", &phone));
        let mut pixel_art = hero.clone();
        pixel_art.image_rendering = "pixelated".to_owned();
        assert!(!low_resolution(&pixel_art, "image/jpeg", &phone));
        assert!(!low_resolution(&hero, "image/svg+xml", &phone));
        let mut cover = hero.clone();
        cover.object_fit = "cover".to_owned();
        assert!(!low_resolution(&cover, "image/jpeg", &phone));
    }

    #[test]
    fn density_descriptors_are_found_as_lighthouse_finds_them() {
        assert!(has_density_descriptor("a.jpg 1x, b.jpg 2x"));
        assert!(has_density_descriptor("a.jpg 1.5x"));
        assert!(!has_density_descriptor("a.jpg 400w, b.jpg 800w"));
        assert!(!has_density_descriptor("a.jpg 1.x"));
        assert!(!has_density_descriptor(""));
        assert!(!has_density_descriptor("страница.jpg 2 x"));
    }

    #[test]
    fn cls_takes_the_worst_session_window() {
        // Two windows: 0.05 + 0.05 close together, then 0.08 alone two seconds later.
        let shifts = [(100.0, 0.05), (400.0, 0.05), (2500.0, 0.08)];
        assert!((cumulative_layout_shift(&shifts) - 0.10).abs() < 1e-9);
        assert_eq!(cumulative_layout_shift(&[]), 0.0);
    }

    #[test]
    fn tbt_clips_at_fcp() {
        // A 120 ms task straddling FCP at 500 counts only its 100 ms after FCP: 50 ms blocking.
        assert_eq!(total_blocking_time(500.0, &[(480.0, 120.0)]), 50.0);
        assert_eq!(
            total_blocking_time(500.0, &[(600.0, 300.0), (1000.0, 40.0)]),
            250.0
        );
    }

    #[test]
    fn sites_group_subdomains() {
        assert_eq!(site_of("cdn.example.com"), "example.com");
        assert_eq!(site_of("www.shop.co.uk"), "shop.co.uk");
        assert_eq!(site_of("127.0.0.1"), "127.0.0.1");
    }
}
