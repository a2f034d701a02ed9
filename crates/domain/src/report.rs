//! The report contract: the JSON shapes of docs/PRODUCT.md §3 as Rust types.
//!
//! These types are the single definition of what the server sends and the web app reads.
//! Field names follow the spec's camelCase spelling through serde; the TypeScript
//! declarations in `web/src/generated/contract.ts` are generated from them (see
//! [`crate::bindings`]) and a test fails when that file is stale.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::professional::{
    BacklinkAnalysis, ContentQualityAssessment, InternalLinkAnalysis, PageHeaderSuggestions,
    PageMetaSuggestions, RobotsAnalysis, SitemapAnalysis,
};

/// How serious a single finding is (docs/PRODUCT.md §3.15 "Finding").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum FindingType {
    /// The page does this well.
    Good,
    /// Worth improving; not blocking.
    Warning,
    /// A problem that costs rankings, users or trust.
    Issue,
}

/// One observation about the analysed site, always derived from what the site really served.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// Stable machine id, for example `seo.title.length`, so reports can be compared and filtered.
    pub id: String,
    /// Good, warning or issue.
    #[serde(rename = "type")]
    pub kind: FindingType,
    /// Short headline.
    pub title: String,
    /// What was measured and why it matters.
    pub description: String,
    /// How to fix it, when there is something to fix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub solution: Option<String>,
    /// The Lighthouse audit this finding corresponds to (for example `document-title`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub audit: Option<String>,
}

/// Status of a group of findings. Anything that is neither good nor needs-improvement is
/// critical (docs/PRODUCT.md §3.15 "Section item").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum SectionStatus {
    /// Every finding is good.
    Good,
    /// At least one warning, no issue.
    NeedsImprovement,
    /// At least one issue.
    #[serde(other)]
    Critical,
}

/// A titled group of findings within a report section (SEO, Design, Technical).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SectionGroup {
    /// Group title, for example "Meta Tags" or "Technology Stack".
    pub title: String,
    /// Worst status of its findings.
    pub status: SectionStatus,
    /// The findings, in display order.
    pub findings: Vec<Finding>,
}

/// Kind of a performance diagnostic (docs/PRODUCT.md §3.15 "Diagnostic").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum DiagnosticType {
    /// Fails the "poor" threshold.
    Error,
    /// Fails the "good" threshold.
    Warning,
    /// Informational.
    Info,
}

/// One resource a diagnostic points at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticDetail {
    /// The resource address.
    pub url: String,
    /// Bytes that could be saved.
    pub wasted_bytes: f64,
    /// Bytes transferred for the resource.
    pub total_bytes: f64,
}

/// A performance diagnostic with its potential saving.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    /// Stable machine id, for example `perf.fcp`.
    pub id: String,
    /// Error, warning or info.
    #[serde(rename = "type")]
    pub kind: DiagnosticType,
    /// Short headline.
    pub title: String,
    /// What was measured.
    pub description: String,
    /// The measured value, formatted for display (for example "3.4 s").
    pub value: String,
    /// The potential saving, formatted for display (for example "1.6 s").
    pub potential: String,
    /// How to fix it.
    pub solution: String,
    /// Resources involved, if any.
    #[serde(default)]
    pub details: Vec<DiagnosticDetail>,
    /// True when the diagnostic is shown only to paid viewers (docs/PRODUCT.md §9.8).
    #[serde(default)]
    pub pro_only: bool,
}

/// A current / analysis / suggested triple for the title or description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MetaSuggestion {
    /// What the page has now (empty when missing).
    pub current: String,
    /// Why it should change.
    pub analysis: String,
    /// The proposed text.
    pub suggested: String,
}

/// Open Graph advice: an analysis and suggested values by property.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OgTagSuggestions {
    /// What is wrong or missing.
    pub analysis: String,
    /// Suggested values keyed by property, for example `og:title`.
    pub suggestions: BTreeMap<String, String>,
}

/// Meta tag suggestions (docs/PRODUCT.md §3.15).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MetaTagSuggestions {
    /// The title element.
    pub title: MetaSuggestion,
    /// The meta description.
    pub description: MetaSuggestion,
    /// Open Graph tags.
    pub og_tags: OgTagSuggestions,
}

/// Advice on the page's body text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContentAdvice {
    /// What was found.
    pub analysis: String,
    /// Concrete suggestions.
    pub suggestions: Vec<String>,
}

/// Advice on headings: current heading text mapped to a suggested text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HeadingAdvice {
    /// What was found.
    pub analysis: String,
    /// Current heading → suggested heading.
    pub suggestions: BTreeMap<String, String>,
}

/// Content optimisations (docs/PRODUCT.md §3.15).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContentOptimizations {
    /// Body text advice.
    pub content: ContentAdvice,
    /// Heading advice.
    pub headings: HeadingAdvice,
}

/// An image optimisation with its measured saving.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImageOptimization {
    /// Headline.
    pub title: String,
    /// What to change.
    pub description: String,
    /// Saving, formatted for display (for example "184 KB").
    pub savings: String,
}

/// A content or technical optimisation with its expected impact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImpactOptimization {
    /// Headline.
    pub title: String,
    /// What to change.
    pub description: String,
    /// Expected impact (for example "High").
    pub impact: String,
}

/// Optimisations Sitelens can describe precisely from the analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AutoOptimizations {
    /// Image changes.
    pub images: Vec<ImageOptimization>,
    /// Content changes.
    pub content: Vec<ImpactOptimization>,
    /// Technical changes.
    pub technical: Vec<ImpactOptimization>,
}

/// A proposal for a rebuilt website, derived from the analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NewWebsiteProposal {
    /// One-paragraph summary.
    pub summary: String,
    /// Proposed features.
    pub features: Vec<String>,
    /// Expected benefits.
    pub benefits: Vec<String>,
    /// Pages the new site would include.
    pub included_pages: Vec<String>,
    /// Price in whole US dollars.
    pub price: u32,
    /// Delivery timeline, for example "4-6 weeks".
    pub timeline: String,
}

/// The Premium Optimization Suite data (paid reports only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PremiumOptimizations {
    /// Automatic optimisations.
    pub auto_optimizations: AutoOptimizations,
    /// New website proposal.
    pub new_website_proposal: NewWebsiteProposal,
}

/// A Lighthouse-style audit summary line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LighthouseResult {
    /// Audit title.
    pub title: String,
    /// Audit outcome.
    pub description: String,
}

/// The four lab score rings (0-100 each).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LabScores {
    /// Performance.
    pub performance: u32,
    /// Accessibility.
    pub accessibility: u32,
    /// Best practices.
    pub best_practices: u32,
    /// SEO.
    pub seo: u32,
}

/// The conditions a set of lab figures was obtained under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum LabConditions {
    /// Simulated on Lighthouse's mobile preset (Slow 4G, a processor 4 times slower), as
    /// Lighthouse's mobile test and PageSpeed Insights report them
    /// ([`crate::throttling::MOBILE_SLOW_4G`]).
    SimulatedMobile,
    /// Simulated on Lighthouse's desktop preset ([`crate::throttling::DESKTOP_DENSE_4G`]), from
    /// the same load as the phone figures (its CLS is that load's).
    SimulatedDesktop,
    /// As the page loaded on the analysing server's own connection, emulating a phone.
    ObservedMobile,
    /// As the page loaded on the analysing server's own connection, as a desktop. Reports written
    /// before the page was loaded once, as a phone, have these figures; new ones do not.
    ObservedDesktop,
}

impl LabConditions {
    /// How the report names these conditions.
    pub fn label(self) -> &'static str {
        match self {
            Self::SimulatedMobile => "Simulated mobile (Slow 4G, 4x slower processor)",
            Self::SimulatedDesktop => "Simulated desktop (dense 4G)",
            Self::ObservedMobile => "Observed as a phone on this server's connection",
            Self::ObservedDesktop => "Observed as a desktop on this server's connection",
        }
    }
}

/// One set of lab figures and the conditions they were obtained under. Times in ms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LabRun {
    /// Simulated or observed, phone or desktop.
    pub conditions: LabConditions,
    /// Lighthouse-style performance score on the form factor's curves, 0-100.
    pub score: Option<u32>,
    /// First Contentful Paint.
    pub first_contentful_paint: Option<f64>,
    /// Largest Contentful Paint.
    pub largest_contentful_paint: Option<f64>,
    /// Speed Index.
    pub speed_index: Option<f64>,
    /// Total Blocking Time.
    pub total_blocking_time: Option<f64>,
    /// Time to Interactive.
    pub time_to_interactive: Option<f64>,
    /// Cumulative Layout Shift (always from a real load).
    pub cumulative_layout_shift: Option<f64>,
}

/// Performance metrics and everything the Performance tab reads (docs/PRODUCT.md §3.15).
///
/// Times are milliseconds, sizes bytes. Every figure that was not measured but filled from the
/// spec's fallback values is named in `estimated`, so the report never presents it as measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PerformanceMetrics {
    /// First Contentful Paint, ms.
    pub first_contentful_paint: f64,
    /// Largest Contentful Paint, ms.
    pub largest_contentful_paint: f64,
    /// Cumulative Layout Shift (unitless).
    pub cumulative_layout_shift: f64,
    /// Total Blocking Time, ms.
    pub total_blocking_time: f64,
    /// Speed Index, ms.
    pub speed_index: f64,
    /// Time to Interactive, ms.
    pub time_to_interactive: f64,
    /// Load time, ms.
    pub estimated_load_time: f64,
    /// Page weight, bytes.
    pub page_size: f64,
    /// Number of requests.
    pub request_count: u32,
    /// Mobile performance score, 0-100.
    pub mobile_score: u32,
    /// Accessibility score, 0-100.
    pub accessibility_score: u32,
    /// Best-practices score, 0-100.
    pub best_practices_score: u32,
    /// SEO score, 0-100.
    pub seo_score: u32,
    /// The four rings.
    pub scores: LabScores,
    /// Diagnostics generated from the metrics.
    pub diagnostics: Vec<Diagnostic>,
    /// Audit summary lines.
    pub lighthouse_results: Vec<LighthouseResult>,
    /// Meta tag suggestions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub meta_tag_suggestions: Option<MetaTagSuggestions>,
    /// Content optimisations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub content_optimizations: Option<ContentOptimizations>,
    /// Premium Optimization Suite data (paid reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub premium_optimizations: Option<PremiumOptimizations>,
    /// Names (camelCase field names) of the figures filled from fallback values, not measured.
    #[serde(default)]
    pub estimated: Vec<String>,
    /// Every set of lab figures the browser produced; the first is the one the fields above and
    /// the performance ring show. Empty when no browser measured the page.
    #[serde(default)]
    pub lab_runs: Vec<LabRun>,
}

/// Priority of an action-plan item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// Do first.
    High,
    /// Do next.
    Medium,
    /// Nice to have.
    Low,
}

/// One item of the prioritised action plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ActionItem {
    /// High, medium or low.
    pub priority: Priority,
    /// What to do.
    pub title: String,
    /// Why and how.
    pub description: String,
    /// Expected effect.
    pub impact: String,
}

/// The five report scores, 0-100.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Scores {
    /// Weighted overall score (see [`crate::score::overall_score`]).
    pub overall: u32,
    /// SEO.
    pub seo: u32,
    /// Design and UX.
    pub design: u32,
    /// Technical structure.
    pub technical: u32,
    /// Performance.
    pub performance: u32,
}

/// Screenshot addresses, when taken.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Screenshots {
    /// 1280x800 desktop screenshot URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub desktop: Option<String>,
    /// 375x667 mobile screenshot URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mobile: Option<String>,
}

/// The kind of report: what was bought and how much was crawled (docs/PRODUCT.md §9.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ReportType {
    /// Free or 0.5 credit: 1 page, watermarked.
    Basic,
    /// 1 credit: 10 pages, watermarked (the professional report).
    Standard,
    /// 2 credits: 20 pages, white-label, no watermark.
    Premium,
}

/// The analysis result as read by the results screen (docs/PRODUCT.md §3.14).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AnalysisReport {
    /// Random report id.
    pub id: String,
    /// The analysed address (canonical form).
    pub url: String,
    /// Which report this is.
    pub report_type: ReportType,
    /// Whether the report was paid for (with credits). An unpaid report reaches its readers
    /// without the Pro-only content (see [`crate::entitlement`]); the server decides, never the
    /// address a reader opened.
    #[serde(default)]
    pub paid: bool,
    /// Number of pages the report rests on.
    pub pages_analyzed: u32,
    /// When the analysis finished, RFC 3339.
    pub created_at: String,
    /// The five scores.
    pub scores: Scores,
    /// SEO groups.
    pub seo_analysis: Vec<SectionGroup>,
    /// Design and UX groups.
    pub design_analysis: Vec<SectionGroup>,
    /// Technical groups (includes "Technology Stack").
    pub technical_analysis: Vec<SectionGroup>,
    /// Performance metrics and everything the Performance tab reads.
    pub performance_analysis: PerformanceMetrics,
    /// The prioritised action plan, high first.
    pub action_items: Vec<ActionItem>,
    /// Dominant colours, CSS colour strings.
    pub website_colors: Vec<String>,
    /// Font families in use.
    pub website_fonts: Vec<String>,
    /// Screenshot addresses.
    pub screenshots: Screenshots,
    /// Professional extras (backlinks, authority, links, robots, sitemap); absent on basic reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub professional: Option<ProfessionalAnalysis>,
    /// The agency whose brand the report wears instead of Sitelens' (see
    /// [`crate::whitelabel::report_branded`]); absent on an unbranded report. Filled by the server
    /// from the agency's current settings when the report is read, never stored with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub branding: Option<crate::whitelabel::Branding>,
}

/// The professional report's extra analyses (docs/PRODUCT.md §1.4), typed in
/// [`crate::professional`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ProfessionalAnalysis {
    /// Authority score 0-100, absent when there is not enough evidence to compute one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub domain_authority: Option<u32>,
    /// Content quality 0-100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub content_quality: Option<u32>,
    /// Backlink analysis; `null` when the report was built without a link graph.
    #[serde(default)]
    pub backlink_analysis: Option<BacklinkAnalysis>,
    /// Internal link analysis.
    pub internal_link_analysis: InternalLinkAnalysis,
    /// Content quality assessment.
    pub content_quality_assessment: ContentQualityAssessment,
    /// Meta tag suggestions per page.
    pub meta_tag_suggestions: Vec<PageMetaSuggestions>,
    /// Header structure suggestions per page.
    pub header_suggestions: Vec<PageHeaderSuggestions>,
    /// robots.txt analysis.
    pub robots_analysis: RobotsAnalysis,
    /// sitemap.xml analysis.
    pub sitemap_analysis: SitemapAnalysis,
}

/// `{success, data}` as returned by `GET /api/results/{id}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResultResponse {
    /// Custom domains (issue 15 item 3): the report's public address when it is branded by an
    /// agency whose custom domain is verified, `https://{domain}/results/{id}`; the share link
    /// and copy button use it. Absent otherwise (the page's own address is the report's). First,
    /// so the server can add it to a cached body (`services::custom_domains::with_public_url`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub public_url: Option<String>,
    /// Always true on success.
    pub success: bool,
    /// The report.
    pub data: AnalysisReport,
}

/// Kind of a progress event (docs/PRODUCT.md §3.16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ProgressEventType {
    /// The stream is open.
    Connected,
    /// A step advanced.
    Progress,
    /// The report is ready.
    Complete,
    /// The analysis failed.
    Error,
}

/// A server-sent progress event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ProgressEvent {
    /// Event kind.
    #[serde(rename = "type")]
    pub kind: ProgressEventType,
    /// The analysis.
    pub analysis_id: String,
    /// Current step name, for example "SEO Analysis".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub step: Option<String>,
    /// 0-100.
    pub progress: u32,
    /// Human message.
    pub message: String,
    /// Milliseconds since the Unix epoch.
    pub timestamp: f64,
    /// On `complete`, the result id to open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub result_id: Option<String>,
}

/// `POST /api/analyze` request body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AnalyzeRequest {
    /// The address as typed.
    pub url: String,
    /// A paid report of this type, paid with the signed-in user's credits (docs/PRODUCT.md
    /// §9.2); absent for the free basic report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub report_type: Option<ReportType>,
}

/// The `data` part of an analyze response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AnalyzeData {
    /// Result id, when the result already exists.
    pub id: String,
}

/// `POST /api/analyze` response (docs/PRODUCT.md §3.16: screens read analysisId, data.id, error and
/// id).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AnalyzeResponse {
    /// Whether the analysis was accepted.
    pub success: bool,
    /// The queued analysis, to follow with the progress stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub analysis_id: Option<String>,
    /// Set when a finished result can be opened at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub data: Option<AnalyzeData>,
    /// Error text on failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

/// `GET /api/stats` data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatsData {
    /// A numeric string.
    pub total_websites_analyzed: String,
}

/// `GET /api/stats` response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatsResponse {
    /// True on success.
    pub success: bool,
    /// Human message.
    pub message: String,
    /// The counter.
    pub data: StatsData,
}

/// `GET /api/check-trial-eligibility` response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TrialEligibilityResponse {
    /// Whether the signed-in user may start the free trial.
    pub eligible: bool,
}

/// Every error body: `{success: false, error}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ErrorResponse {
    /// Always false.
    pub success: bool,
    /// A message a person can act on.
    pub error: String,
}

/// `POST /api/download-basic-report` request body (docs/PRODUCT.md §3.16 "Download request").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DownloadRequest {
    /// The report.
    pub report_id: String,
    /// Where to send it.
    pub email: String,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// Consent to receive e-mails (required).
    pub agree_to_emails: bool,
}

/// A point of an annotation stroke, in image pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Point {
    /// Horizontal position.
    pub x: f64,
    /// Vertical position.
    pub y: f64,
}

/// A freehand stroke drawn on a screenshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Stroke {
    /// Client id.
    pub id: String,
    /// Path points.
    pub points: Vec<Point>,
    /// One of [`crate::constants::ANNOTATION_COLORS`].
    pub color: String,
    /// Line thickness in pixels.
    pub thickness: f64,
}

/// A comment pinned to a screenshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Pin {
    /// Client id.
    pub id: String,
    /// Horizontal position.
    pub x: f64,
    /// Vertical position.
    pub y: f64,
    /// Pin colour.
    pub color: String,
    /// The comment (non-blank).
    pub comment: String,
    /// Milliseconds since the Unix epoch.
    pub timestamp: f64,
}

/// What the share widget needs (docs/PRODUCT.md §3.16 "Share inputs").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ShareInputs {
    /// Affiliate code to append, if the sharer has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub affiliate_code: Option<String>,
    /// Referral link, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub referral_link: Option<String>,
    /// The report's address.
    pub report_url: String,
    /// The analysed site.
    pub website_url: String,
    /// Overall score 0-100.
    pub overall_score: u32,
    /// The report id.
    pub report_id: String,
    /// The agency a branded report is shared under: the share text names it, not Sitelens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub brand_name: Option<String>,
}

/// Share targets built from [`ShareInputs`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ShareLinks {
    /// The share text ("… scored 87/100 …").
    pub text: String,
    /// The link shared (report URL, with the affiliate code when given).
    pub url: String,
    /// Twitter intent URL.
    pub twitter: String,
    /// LinkedIn share URL.
    pub linkedin: String,
    /// Facebook sharer URL.
    pub facebook: String,
    /// mailto: link.
    pub email: String,
}
