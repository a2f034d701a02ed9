//! `sitelens analyze <url>`: analyse a site on this machine, or with `--remote` on a Sitelens
//! server through its API (`cli::remote`), and print a summary or the full report as JSON, with
//! the same progress bar and output either way; `--fail-under` turns a score below its budget
//! into a failing exit status, so a deployment pipeline can stop on it.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use analyzer::browser::merge::analyze_with_browser;
use analyzer::browser::{BlobStore, BrowserPool, BrowserSettings, LocalBlobStore};
use analyzer::{AnalyzeOptions, Analyzer, ProgressUpdate};
use clap::Args;
use domain::budget::{ScoreBudget, budget_misses, parse_budgets};
use domain::report::{AnalysisReport, FindingType, ReportType};
use futures::future::BoxFuture;
use indicatif::{ProgressBar, ProgressStyle};

use super::remote::{self, ApiKey, Server};

/// The exit statuses of `sitelens analyze`, shown by `--help`.
pub mod exit {
    /// A report was made and every score meets its budget.
    pub const OK: u8 = 0;
    /// The site could not be analysed (here, or on the server).
    pub const NOT_ANALYSED: u8 = 1;
    /// The command line or a setting is wrong, or the report could not be written.
    pub const USAGE: u8 = 2;
    /// A score is below its `--fail-under` budget (the report is still printed).
    pub const UNDER_BUDGET: u8 = 3;
    /// The server refused the API key.
    pub const KEY_REFUSED: u8 = 4;
    /// The account's credits do not cover the report.
    pub const NO_CREDITS: u8 = 5;
    /// The server could not be reached, answered unexpectedly, or did not finish in time.
    pub const SERVER: u8 = 6;
}

/// What `--help` says after the options.
const AFTER_HELP: &str = "\
Exit status:
  0  a report was made and every score meets its --fail-under budget
  1  the site could not be analysed (here, or on the server with --remote)
  2  wrong command line or setting, or the report could not be written
  3  a score is below its --fail-under budget (the report is still printed)
  4  --remote: the server refused the API key
  5  --remote: the account's credits do not cover the report
  6  --remote: the server could not be reached, answered unexpectedly, or did not finish within --timeout

Examples:
  sitelens analyze example.com --fail-under 80
  SITELENS_API_KEY=slk_... sitelens analyze https://example.com --remote https://sitelens.example.com \\
      --report-type standard --fail-under performance=90,seo=85 --pdf report.pdf";

/// The budgets of `--fail-under`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budgets(pub Vec<ScoreBudget>);

fn budgets(text: &str) -> Result<Budgets, String> {
    parse_budgets(text).map(Budgets)
}

fn report_type(text: &str) -> Result<ReportType, String> {
    ReportType::parse(&text.trim().to_ascii_lowercase())
        .ok_or_else(|| "expected basic, standard or premium".to_owned())
}

/// Arguments of `sitelens analyze`.
#[derive(Debug, Clone, Args)]
#[command(after_help = AFTER_HELP)]
pub struct AnalyzeArgs {
    /// The address to analyse; `https://` is added when no scheme is given.
    pub url: String,
    /// Pages to crawl: 1 gives a basic report, up to 10 a standard (professional) one, more a
    /// premium one.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100),
        conflicts_with_all = ["report_type", "remote"])]
    pub pages: u32,
    /// The report to make: basic (1 page), standard (10 pages) or premium (20 pages). With
    /// --remote, the report the server makes and charges for (basic unless given).
    #[arg(long, value_name = "TYPE", value_parser = report_type)]
    pub report_type: Option<ReportType>,
    /// Write the full report as JSON to this file, or to standard output with `-`.
    #[arg(long, value_name = "FILE or -")]
    pub json: Option<String>,
    /// Keep the desktop (1280x800) and mobile (375x667) screenshots as PNG files in this
    /// folder; the report then names them with `file://` addresses.
    #[arg(long, value_name = "DIR", conflicts_with = "remote")]
    pub screenshots: Option<std::path::PathBuf>,
    /// Analyse over HTTP only, without Chromium (browser metrics are then estimated).
    #[arg(long, conflicts_with = "remote")]
    pub no_browser: bool,
    /// Exit with status 3 when a score is below its budget: `80` for the overall score,
    /// `performance=90,seo=85` per score (overall, seo, design, technical, performance), or both.
    #[arg(long, value_name = "BUDGETS", value_parser = budgets)]
    pub fail_under: Option<Budgets>,
    /// Run the analysis on this Sitelens server through its API (/api/v1) instead of on this
    /// machine, e.g. https://sitelens.example.com.
    #[arg(long, value_name = "SERVER", value_parser = remote::parse_server)]
    pub remote: Option<Server>,
    /// The API key for --remote (create one on the server's dashboard). Never printed.
    #[arg(long, value_name = "KEY", env = "SITELENS_API_KEY", hide_env_values = true,
        value_parser = remote::parse_key)]
    pub api_key: Option<ApiKey>,
    /// With --remote: also save the report as PDF in this file.
    #[arg(long, value_name = "FILE", requires = "remote")]
    pub pdf: Option<std::path::PathBuf>,
    /// With --remote: how long to wait for the server's analysis, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 1800,
        value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: u64,
}

impl AnalyzeArgs {
    /// Pages to crawl on this machine.
    fn local_pages(&self) -> u32 {
        self.report_type.map_or(self.pages, ReportType::pages)
    }
}

/// Without `--screenshots`, the command line keeps no screenshot files, so storing one is
/// declined and the report carries no screenshot addresses.
struct NoScreenshots;

impl BlobStore for NoScreenshots {
    fn put<'a>(
        &'a self,
        _key: &'a str,
        _content_type: &'a str,
        _bytes: &'a [u8],
    ) -> BoxFuture<'a, std::io::Result<String>> {
        Box::pin(async {
            Err(std::io::Error::other(
                "the command line keeps no screenshots",
            ))
        })
    }
}

/// Run `analyze` with the binary's configuration; exit 0 when a report was produced.
pub fn run(args: AnalyzeArgs, config: &server::Config) -> ExitCode {
    let show_progress = std::io::stderr().is_terminal();
    if let Some(server) = args.remote.clone() {
        return ExitCode::from(remote::run(
            &args,
            server,
            &mut std::io::stdout(),
            &mut std::io::stderr(),
            show_progress,
        ));
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: could not start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The command's own output is its messages; logs only when asked for with RUST_LOG.
    if std::env::var_os("RUST_LOG").is_some() {
        server::init_tracing(&config.log_filter);
    }
    let analyzer_config = config.analyzer_config();
    // Chromium (SITELENS_CHROMIUM, default /usr/bin/chromium) unless --no-browser; every request
    // the browser makes goes through the same SSRF policy as the fetcher.
    // One run, one browser: the page is measured in the tab Chromium opens at launch, and no
    // spare tab is prepared after the measurement (it would only compete with the report's last
    // steps and then be killed). Screenshots are taken only when `--screenshots` keeps them.
    let settings = BrowserSettings {
        spare_tabs: 0,
        startup_tab: true,
        screenshots: args.screenshots.is_some(),
        ..config.browser_settings()
    };
    let browser = (!args.no_browser)
        .then(|| std::sync::Arc::new(BrowserPool::from_config(settings, &analyzer_config)));
    // Chromium starts now, for an address worth measuring (valid, and not refused by the SSRF
    // policy): its launch (a fifth of a second) overlaps the analyzer's set-up (reading the
    // system's root certificates, say). The measurement then finds the browser up, or waits
    // for the launch under way; a launch that fails here is tried again, and reported, by the
    // measurement.
    let measurable = Analyzer::validate(&args.url)
        .is_ok_and(|url| analyzer::guard::check_url(&url, &analyzer_config.policy()).is_ok());
    if let Some(pool) = browser.as_ref().filter(|b| measurable && available(b)) {
        let pool = pool.clone();
        runtime.spawn(async move {
            if let Err(e) = pool.warm().await {
                tracing::debug!(error = %e, "early launch failed");
            }
        });
    }
    let analyzer = match Analyzer::new(analyzer_config) {
        // The language-model advisor when SITELENS_LLM_URL is set, the rule-based one otherwise.
        Ok(a) => a.with_advisor(analyzer::llm::LlmAdvisor::or_rules(config.llm_config())),
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(b) = &browser {
                runtime.block_on(b.shutdown());
            }
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async {
        let code = execute(
            &args,
            &analyzer,
            browser.as_deref(),
            &mut std::io::stdout(),
            &mut std::io::stderr(),
            show_progress,
        )
        .await;
        if let Some(b) = &browser {
            b.shutdown().await;
        }
        code
    });
    ExitCode::from(code)
}

/// Whether `pool`'s Chromium is installed.
fn available(pool: &BrowserPool) -> bool {
    pool.settings()
        .chromium
        .as_ref()
        .is_some_and(|path| path.exists())
}

/// The command itself, with its analyzer and outputs passed in so tests can run it.
/// Returns the exit status ([`exit`]).
pub async fn execute(
    args: &AnalyzeArgs,
    analyzer: &Analyzer,
    browser: Option<&BrowserPool>,
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
    show_progress: bool,
) -> u8 {
    let mut options = AnalyzeOptions::for_pages(args.local_pages() as usize);
    let browser = browser.filter(|b| available(b));
    options.use_browser = browser.is_some();
    if browser.is_none() && !args.no_browser {
        let _ = writeln!(
            stderr,
            "note: no browser available (set SITELENS_CHROMIUM to Chromium's path); analysing over HTTP only, browser metrics are estimated"
        );
    }
    let bar = Progress::new(show_progress);
    let on_progress = |p: ProgressUpdate| bar.set(p.progress, &p.step, &p.message);
    // With a browser, the HTTP analysis and the Chromium measurement run side by side and
    // are merged; a browser failure leaves the HTTP report with its estimated figures marked.
    let kept = match &args.screenshots {
        Some(dir) => match screenshot_folder(dir) {
            Ok(store) => Some(store),
            Err(e) => {
                let _ = writeln!(stderr, "error: {e}");
                return exit::USAGE;
            }
        },
        None => None,
    };
    let blobs: &dyn BlobStore = match &kept {
        Some(store) => store,
        None => &NoScreenshots,
    };
    let result = match browser {
        Some(pool) => analyze_with_browser(
            analyzer,
            pool,
            blobs,
            &args.url,
            &options,
            &on_progress,
        )
        .await
        .map(|(report, browser_error)| {
            if let Some(e) = browser_error {
                let _ = writeln!(
                    stderr,
                    "note: the browser measurement failed ({e}); browser metrics are estimated"
                );
            }
            report
        }),
        None => analyzer.analyze(&args.url, &options, &on_progress).await,
    };
    bar.finish();
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(
                stderr,
                "error: could not analyse {}: {}",
                args.url,
                super::one_line(&e.to_string())
            );
            return exit::NOT_ANALYSED;
        }
    };
    deliver(args, &report, stdout, stderr)
}

/// The progress bar on standard error (only when it is a terminal), fed by the local analyzer or
/// by the server's answers alike.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar when `show`, otherwise nothing.
    pub fn new(show: bool) -> Self {
        Progress(show.then(|| {
            let bar = ProgressBar::new(100);
            if let Ok(style) = ProgressStyle::with_template("{bar:30.cyan/blue} {pos:>3}% {msg}") {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        }))
    }

    /// Shows `progress` percent at `step`, saying `message`.
    pub fn set(&self, progress: u32, step: &str, message: &str) {
        if let Some(b) = &self.0 {
            b.set_position(u64::from(progress.min(100)));
            b.set_message(format!("{step}: {message}"));
        }
    }

    /// Removes the bar, before the output is written.
    pub fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// Writes the report as `args` ask (the summary, or JSON to a file or standard output), then
/// checks it against `--fail-under`; returns the exit status ([`exit`]).
pub fn deliver(
    args: &AnalyzeArgs,
    report: &AnalysisReport,
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
) -> u8 {
    match args.json.as_deref() {
        Some(target) => {
            let json = match serde_json::to_string_pretty(report) {
                Ok(j) => j,
                Err(e) => {
                    let _ = writeln!(stderr, "error: could not serialise the report: {e}");
                    return exit::USAGE;
                }
            };
            if target == "-" {
                if writeln!(stdout, "{json}").is_err() {
                    return exit::USAGE;
                }
            } else {
                if let Err(e) = std::fs::write(target, json + "\n") {
                    let _ = writeln!(stderr, "error: could not write {target}: {e}");
                    return exit::USAGE;
                }
                let _ = writeln!(stderr, "Report written to {target}");
            }
        }
        None => {
            if stdout.write_all(summary(report).as_bytes()).is_err() {
                return exit::USAGE;
            }
        }
    }
    let budgets = args.fail_under.as_ref().map_or(&[][..], |b| &b.0[..]);
    let misses = budget_misses(&report.scores, budgets);
    if misses.is_empty() {
        return exit::OK;
    }
    let list: Vec<String> = misses.iter().map(ToString::to_string).collect();
    let _ = writeln!(
        stderr,
        "error: {} below budget (--fail-under): {}",
        if misses.len() == 1 {
            "a score is"
        } else {
            "scores are"
        },
        list.join(", ")
    );
    exit::UNDER_BUDGET
}

/// The folder `--screenshots` names, created when missing, as a blob store whose addresses are
/// `file://` URLs of the files.
fn screenshot_folder(dir: &std::path::Path) -> Result<LocalBlobStore, String> {
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::canonicalize(dir))
        .map_err(|e| format!("could not use {} for screenshots: {e}", dir.display()))
        .and_then(|abs| {
            let prefix = url::Url::from_directory_path(&abs)
                .map_err(|()| format!("{} is not a usable folder", abs.display()))?;
            Ok(LocalBlobStore::new(abs, prefix.to_string()))
        })
}

/// The readable summary: scores, estimated figures, and the top actions.
pub fn summary(r: &AnalysisReport) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "Sitelens report for {} ({}, {} page{})\n\n",
        r.url,
        r.report_type,
        r.pages_analyzed,
        if r.pages_analyzed == 1 { "" } else { "s" }
    ));
    let sc = r.scores;
    s.push_str(&format!(
        "  Overall      {:>3}/100\n  SEO          {:>3}\n  Design & UX  {:>3}\n  Technical    {:>3}\n  Performance  {:>3}\n\n",
        sc.overall, sc.seo, sc.design, sc.technical, sc.performance
    ));
    let count = |k: FindingType| {
        r.seo_analysis
            .iter()
            .chain(&r.design_analysis)
            .chain(&r.technical_analysis)
            .flat_map(|g| &g.findings)
            .filter(|f| f.kind == k)
            .count()
    };
    s.push_str(&format!(
        "  {} issues, {} warnings, {} passed checks\n",
        count(FindingType::Issue),
        count(FindingType::Warning),
        count(FindingType::Good)
    ));
    if !r.performance_analysis.estimated.is_empty() {
        s.push_str(&format!(
            "  Estimated, not measured (no browser): {}\n",
            r.performance_analysis.estimated.join(", ")
        ));
    }
    for (name, shot) in [
        ("desktop", &r.screenshots.desktop),
        ("mobile", &r.screenshots.mobile),
    ] {
        if let Some(address) = shot {
            s.push_str(&format!("  Screenshot ({name}): {address}\n"));
        }
    }
    if let Some(p) = &r.professional {
        match p.domain_authority {
            Some(a) => s.push_str(&format!("  Domain authority: {a}/100\n")),
            None => s.push_str("  Domain authority: not enough link evidence yet\n"),
        }
    }
    s.push_str("\nTop actions:\n");
    if r.action_items.is_empty() {
        s.push_str("  Nothing to fix: every check passed.\n");
    }
    for item in r.action_items.iter().take(10) {
        let p = format!("{:?}", item.priority).to_lowercase();
        s.push_str(&format!("  [{p:<6}] {}\n", item.title));
    }
    if r.action_items.len() > 10 {
        s.push_str(&format!("  … and {} more\n", r.action_items.len() - 10));
    }
    s.push_str("\nRun with --json - for the full report.\n");
    s
}

/// The analyzer's fixture server, shared with its tests (binds 127.0.0.1 only).
#[cfg(test)]
#[path = "../../../analyzer/tests/support/server.rs"]
mod fixture_server;

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use analyzer::AnalyzerConfig;
    use analyzer::guard::StaticResolver;
    use clap::Parser;

    use super::*;

    use super::fixture_server::{Reply, Site, TestServer, fixture};

    /// What `SITELENS_ALLOW_PRIVATE_TARGETS=true` gives, with no name resolving, so the test
    /// can only reach the fixture server on 127.0.0.1.
    fn allowed() -> AnalyzerConfig {
        AnalyzerConfig {
            resolver: Some(Arc::new(StaticResolver::new())),
            ..AnalyzerConfig::allowing_private_targets()
        }
    }

    async fn site() -> TestServer {
        TestServer::start(|base| {
            Site::new()
                .route("/", Reply::html(fixture("good.html", base)))
                .route("/about", Reply::html(fixture("bad.html", base)))
                .route(
                    "/robots.txt",
                    Reply::text(
                        "text/plain",
                        format!("User-agent: *\nSitemap: {base}/sitemap.xml\n"),
                    ),
                )
        })
        .await
    }

    fn args(argv: &[&str]) -> AnalyzeArgs {
        let mut full = vec!["sitelens", "analyze"];
        full.extend_from_slice(argv);
        match crate::cli::Cli::try_parse_from(full) {
            Ok(crate::cli::Cli {
                command: crate::cli::Command::Analyze(a),
            }) => a,
            other => panic!("not an analyze command: {other:?}"),
        }
    }

    async fn run(a: &AnalyzeArgs, config: AnalyzerConfig) -> (u8, String, String) {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let analyzer = Analyzer::new(config).expect("analyzer");
        let code = execute(a, &analyzer, None, &mut out, &mut err, false).await;
        (
            code,
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        )
    }

    #[tokio::test]
    async fn json_to_stdout_is_the_full_report() {
        let server = site().await;
        let a = args(&[&server.url("/"), "--json", "-", "--no-browser"]);
        let (code, out, err) = run(&a, allowed()).await;
        assert_eq!(code, 0, "{err}");
        let report: AnalysisReport = serde_json::from_str(&out).expect("contract JSON");
        assert_eq!(report.url, server.url("/"));
        assert_eq!(report.pages_analyzed, 1);
        assert!(!report.seo_analysis.is_empty());
        assert!(err.is_empty(), "--no-browser prints no note: {err}");
    }

    #[tokio::test]
    async fn the_summary_shows_scores_and_top_actions() {
        let server = site().await;
        let a = args(&[&server.url("/"), "--pages", "5"]);
        let (code, out, err) = run(&a, allowed()).await;
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("(standard, 5 pages)"), "{out}");
        for want in [
            "Overall",
            "SEO",
            "Design & UX",
            "Technical",
            "Performance",
            "Top actions:",
            "Estimated, not measured",
            "Domain authority",
        ] {
            assert!(out.contains(want), "{want} in {out}");
        }
        assert!(
            out.contains("[high  ]"),
            "issues of /about lead the actions: {out}"
        );
        assert!(err.contains("no browser available"), "{err}");
    }

    #[tokio::test]
    async fn json_to_a_file() {
        let server = site().await;
        let path = std::env::temp_dir().join(format!("sitelens-cli-{}.json", std::process::id()));
        let target = path.to_string_lossy().into_owned();
        let a = args(&[&server.url("/"), "--json", &target, "--no-browser"]);
        let (code, out, err) = run(&a, allowed()).await;
        assert_eq!(code, 0, "{err}");
        assert!(out.is_empty());
        assert!(err.contains("Report written to"), "{err}");
        let text = std::fs::read_to_string(&path).expect("file");
        let _ = std::fs::remove_file(&path);
        let v: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert!(v["scores"]["overall"].is_u64());
    }

    #[tokio::test]
    async fn private_targets_are_refused_without_the_setting() {
        let server = site().await;
        let a = args(&[&server.url("/"), "--no-browser"]);
        let (code, out, err) = run(&a, AnalyzerConfig::default()).await;
        assert_eq!(code, 1);
        assert!(out.is_empty());
        assert!(err.starts_with("error: could not analyse"), "{err}");
        assert!(
            err.contains("loopback") && err.contains("SITELENS_ALLOW_PRIVATE_TARGETS=true"),
            "{err}"
        );
        assert!(server.hits().is_empty());
    }

    #[tokio::test]
    async fn chromium_measures_the_page_when_installed() {
        use analyzer::browser::BrowserSettings;
        use analyzer::browser::proxy::RequestGuard;
        let server = site().await;
        let config = allowed();
        let pool = BrowserPool::new(
            BrowserSettings::default(),
            RequestGuard::from_config(&config),
        );
        let installed = pool
            .settings()
            .chromium
            .as_ref()
            .is_some_and(|p| p.exists());
        let shots =
            std::env::temp_dir().join(format!("sitelens-cli-shots-{}", uuid::Uuid::new_v4()));
        let shots_arg = shots.display().to_string();
        let a = args(&[&server.url("/"), "--json", "-", "--screenshots", &shots_arg]);
        let analyzer = Analyzer::new(config).expect("analyzer");
        let mut out = Vec::new();
        let mut err = Vec::new();
        let code = execute(&a, &analyzer, Some(&pool), &mut out, &mut err, false).await;
        pool.shutdown().await;
        let err = String::from_utf8_lossy(&err).into_owned();
        assert_eq!(code, 0, "{err}");
        let report: AnalysisReport = serde_json::from_slice(&out).expect("json");
        let estimated = &report.performance_analysis.estimated;
        if installed {
            // Measured in Chromium: the lab metrics are no longer estimates.
            assert!(
                !estimated.iter().any(|e| e == "firstContentfulPaint"),
                "{estimated:?} {err}"
            );
            assert!(!report.website_colors.is_empty());
            // Both screenshots are kept as PNG files at the viewport sizes, named in the report.
            for (shot, size) in [
                (&report.screenshots.desktop, (1280, 800)),
                (&report.screenshots.mobile, (375, 667)),
            ] {
                let address = shot.as_deref().expect("screenshot address");
                let path = url::Url::parse(address)
                    .ok()
                    .and_then(|u| u.to_file_path().ok())
                    .expect("a file:// address");
                assert!(path.starts_with(std::fs::canonicalize(&shots).expect("folder")));
                let png = std::fs::read(&path).expect("screenshot file");
                assert_eq!(analyzer::browser::png_dimensions(&png), Some(size));
            }
        } else {
            assert!(err.contains("no browser available"), "{err}");
            assert!(estimated.iter().any(|e| e == "firstContentfulPaint"));
            assert!(report.screenshots.desktop.is_none());
        }
        let _ = std::fs::remove_dir_all(&shots);
    }

    #[test]
    fn page_counts_are_validated() {
        assert!(
            crate::cli::Cli::try_parse_from(["sitelens", "analyze", "x", "--pages", "0"]).is_err()
        );
        assert!(
            crate::cli::Cli::try_parse_from(["sitelens", "analyze", "x", "--pages", "101"])
                .is_err()
        );
        assert_eq!(args(&["x"]).pages, 1);
    }
}
