//! The Sitelens audit engine: safe fetching, the crawl, the checks, scoring and advice.
//!
//! The engine only knows HTTP as a client. It turns what a site really serves into the report
//! contract of [`domain::report`]; every rule a visitor can see computed comes from `domain`.
//! A page that fails a check produces a finding, never an error: [`AnalyzeError`] means the
//! site could not be analysed at all.
//!
//! ```no_run
//! # async fn run() -> Result<(), analyzer::AnalyzeError> {
//! use analyzer::{AnalyzeOptions, Analyzer, AnalyzerConfig};
//! let analyzer = Analyzer::new(AnalyzerConfig::default())?;
//! let report = analyzer
//!     .analyze("example.com", &AnalyzeOptions::basic(), &|p| println!("{}% {}", p.progress, p.message))
//!     .await?;
//! println!("overall {}", report.scores.overall);
//! # Ok(()) }
//! ```

pub mod advisor;
pub mod authority;
pub mod browser;
pub mod checks;
pub mod config;
pub mod crawl;
pub mod fetch;
pub mod guard;
pub mod llm;
pub mod nesting;
pub mod page;
pub mod report;
pub mod robots;
pub mod simulation;
pub mod sitemap;
pub mod styles;
pub mod tech;

use std::sync::Arc;

use domain::report::{AnalysisReport, ReportType};
use url::Url;

pub use advisor::{Advisor, RuleBasedAdvisor};
pub use authority::{AuthorityProvider, GraphAuthority, LinkGraph, MemoryLinkGraph};
pub use config::AnalyzerConfig;
pub use crawl::{LoadEnded, LoadGate};
pub use fetch::{FetchError, Fetched, Fetcher};

/// Why a site could not be analysed at all.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// The address is not an analysable http(s) address.
    #[error("{0}")]
    InvalidUrl(String),
    /// The start page could not be fetched (refused, unresolvable, unreachable, timed out).
    #[error(transparent)]
    Fetch(#[from] FetchError),
    /// The start page is not HTML.
    #[error("{url} is not a web page: it serves {content_type}")]
    NotHtml {
        /// The address.
        url: String,
        /// What it serves instead.
        content_type: String,
    },
    /// The whole analysis took longer than its limit.
    #[error("the analysis did not finish within {seconds} s")]
    Timeout {
        /// The limit.
        seconds: u64,
    },
}

/// One progress report (the steps of docs/PRODUCT.md §2.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressUpdate {
    /// Step name, for example "SEO Analysis".
    pub step: String,
    /// 0-100.
    pub progress: u32,
    /// What is happening, for a person.
    pub message: String,
}

/// What to analyse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// Basic, standard (professional) or premium.
    pub report_type: ReportType,
    /// Pages to crawl; `None` takes the report type's allowance (1, 10, 20).
    pub max_pages: Option<usize>,
    /// Measure in a browser when one is available (the browser issue); HTTP-only otherwise.
    pub use_browser: bool,
}

impl AnalyzeOptions {
    /// A basic one-page report.
    pub fn basic() -> Self {
        Self {
            report_type: ReportType::Basic,
            max_pages: None,
            use_browser: false,
        }
    }

    /// Options for a page count as the CLI takes it: 1 page basic, up to 10 standard, more
    /// premium.
    pub fn for_pages(pages: usize) -> Self {
        Self {
            report_type: ReportType::for_pages(u32::try_from(pages).unwrap_or(u32::MAX)),
            max_pages: Some(pages.max(1)),
            use_browser: false,
        }
    }

    /// Pages to crawl: the requested number, else the report type's allowance
    /// ([`ReportType::pages`]).
    pub fn pages(&self) -> usize {
        self.max_pages.unwrap_or(self.report_type.pages() as usize)
    }
}

/// Every check of a report on a finished crawl: the page checks of each audited page merged into
/// one finding per id, then the site checks (the link checks for standard and premium reports).
/// Synchronous and offline, so the fuzz targets run it on parsed input.
pub fn run_checks(
    site: &crawl::SiteData,
    tech: &[tech::Technology],
    report_type: ReportType,
) -> Vec<checks::Tagged> {
    let mut per_page = Vec::new();
    for (i, p) in site.pages.iter().enumerate() {
        // Error pages are reported as broken links, not audited as content; the start page
        // is always audited (its status is a finding).
        let audited = i == 0 || p.status().is_some_and(|s| s < 400);
        if let (Some(doc), true) = (&p.doc, audited) {
            let ctx = checks::PageCtx { page: p, doc, site };
            per_page.push((p.final_url().to_string(), checks::page_checks(&ctx)));
        }
    }
    let mut findings = checks::merge_pages(per_page);
    checks::site::run(site, &mut findings);
    checks::content::run(site, &mut findings);
    if report_type.is_professional() {
        checks::links::run(site, &mut findings);
    }
    checks::technical::run_site(site, tech, &mut findings);
    findings
}

/// The step names and thresholds come from `domain::constants`.
fn step(index: usize) -> (String, u32) {
    domain::constants::steps()
        .get(index)
        .map(|s| (s.name.clone(), s.threshold))
        .unwrap_or_else(|| ("Generating Report".to_owned(), 95))
}

/// The engine. Cheap to clone; share one per process.
#[derive(Clone)]
pub struct Analyzer {
    fetcher: Fetcher,
    config: Arc<AnalyzerConfig>,
    advisor: Arc<dyn Advisor>,
    authority: Arc<dyn AuthorityProvider>,
}

impl Analyzer {
    /// An analyzer with the rule-based advisor and an in-memory link graph.
    pub fn new(config: AnalyzerConfig) -> Result<Self, AnalyzeError> {
        let config = Arc::new(config);
        Ok(Self {
            fetcher: Fetcher::new(config.clone())?,
            config,
            advisor: Arc::new(RuleBasedAdvisor),
            authority: Arc::new(GraphAuthority::new(Arc::new(MemoryLinkGraph::new()))),
        })
    }

    /// Use another advisor.
    pub fn with_advisor(mut self, advisor: Arc<dyn Advisor>) -> Self {
        self.advisor = advisor;
        self
    }

    /// Use another authority provider (for example one backed by the store's link graph).
    pub fn with_authority(mut self, authority: Arc<dyn AuthorityProvider>) -> Self {
        self.authority = authority;
        self
    }

    /// The fetcher, for callers that fetch through the same guard.
    pub fn fetcher(&self) -> &Fetcher {
        &self.fetcher
    }

    /// Validate `input` as the address form does and return the canonical URL.
    pub fn validate(input: &str) -> Result<Url, AnalyzeError> {
        let site = domain::site_url::SiteUrl::parse(input)
            .map_err(|e| AnalyzeError::InvalidUrl(format!("{input:?}: {e}")))?;
        Ok(site.url().clone())
    }

    /// Fetch the start page and crawl, without checks (benchmarks and the report use this).
    pub async fn crawl(
        &self,
        start: &Url,
        max_pages: usize,
    ) -> Result<crawl::SiteData, AnalyzeError> {
        self.crawl_after(start, max_pages, &LoadGate::open()).await
    }

    /// Fetch the start page, then crawl the rest once `gate` is open.
    async fn crawl_after(
        &self,
        start: &Url,
        max_pages: usize,
        gate: &LoadGate,
    ) -> Result<crawl::SiteData, AnalyzeError> {
        let fetched = self.fetcher.get(start).await?;
        if !fetched.is_html() {
            return Err(AnalyzeError::NotHtml {
                url: fetched.final_url.to_string(),
                content_type: match fetched.mime() {
                    m if m.is_empty() => "no declared content type".to_owned(),
                    m => m,
                },
            });
        }
        let doc = page::parse(&fetched.text(), &fetched.final_url);
        let first = crawl::CrawledPage {
            url: start.clone(),
            depth: Some(0),
            fetched: Ok(fetched),
            doc: Some(doc),
        };
        Ok(crawl::crawl(&self.fetcher, first, max_pages.max(1), gate).await)
    }

    /// Analyse `input` and build the report, reporting progress at the spec's steps.
    pub async fn analyze(
        &self,
        input: &str,
        options: &AnalyzeOptions,
        progress: &(dyn Fn(ProgressUpdate) + Send + Sync),
    ) -> Result<AnalysisReport, AnalyzeError> {
        self.analyze_after_load(input, options, progress, &LoadGate::open())
            .await
    }

    /// [`Self::analyze`], holding every request after the start page back until `gate` opens
    /// (the browser measuring the same page opens it when its timed load has ended).
    pub async fn analyze_after_load(
        &self,
        input: &str,
        options: &AnalyzeOptions,
        progress: &(dyn Fn(ProgressUpdate) + Send + Sync),
        gate: &LoadGate,
    ) -> Result<AnalysisReport, AnalyzeError> {
        let limit = self.config.analysis_timeout;
        tokio::time::timeout(limit, self.analyze_inner(input, options, progress, gate))
            .await
            .map_err(|_| AnalyzeError::Timeout {
                seconds: limit.as_secs(),
            })?
    }

    async fn analyze_inner(
        &self,
        input: &str,
        options: &AnalyzeOptions,
        progress: &(dyn Fn(ProgressUpdate) + Send + Sync),
        gate: &LoadGate,
    ) -> Result<AnalysisReport, AnalyzeError> {
        let report = |i: usize, message: String| {
            let (step, p) = step(i);
            progress(ProgressUpdate {
                step,
                progress: p,
                message,
            });
        };
        let url = Self::validate(input)?;
        guard::check_url(&url, &self.config.policy())?;
        report(0, format!("Validated {url}"));

        let pages = options.pages();
        let site = self.crawl_after(&url, pages, gate).await?;
        report(
            1,
            format!(
                "Fetched {} page(s), robots.txt and {} sitemap(s)",
                site.pages.len(),
                site.sitemaps.len()
            ),
        );
        report(
            2,
            "No browser in this run: screenshots are skipped and browser metrics are estimated"
                .to_owned(),
        );

        let start = site.start_page();
        let tech = match (&start.fetched, &start.doc) {
            (Ok(f), Some(d)) => tech::detect(&f.text(), d, &f.headers),
            _ => Vec::new(),
        };
        report(
            3,
            format!(
                "Measured {} referenced assets and server response",
                site.assets.len()
            ),
        );

        let findings = run_checks(&site, &tech, options.report_type);
        report(4, format!("Ran the checks: {} findings", findings.len()));

        let start_doc = start.doc.clone().unwrap_or_default();
        let summary = advisor::PageSummary::from_doc(start.final_url(), &start_doc);
        let advice = self.advisor.advise(&summary).await;
        let mut page_advice = Vec::new();
        let mut authority = None;
        if options.report_type.is_professional() {
            for p in &site.pages {
                if let Some(doc) = &p.doc {
                    let s = advisor::PageSummary::from_doc(p.final_url(), doc);
                    page_advice.push((p.final_url().to_string(), self.advisor.advise(&s).await));
                }
            }
            authority = Some(
                self.authority
                    .assess(&site)
                    .await
                    .map_err(|e| e.to_string()),
            );
        }
        report(5, "Generating the report".to_owned());
        Ok(report::build(report::ReportInput {
            id: uuid::Uuid::new_v4().to_string(),
            url: url.to_string(),
            report_type: options.report_type,
            site: &site,
            findings,
            tech: &tech,
            advice,
            page_advice,
            authority,
            created_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        }))
    }
}
