//! The Sitelens audit engine: safe fetching, the crawl, the checks, scoring and advice.
//!
//! The engine only knows HTTP as a client. It turns what a site really serves into the report
//! contract of [`domain::report`]; every rule a visitor can see computed comes from `domain`.
//! A page that fails a check produces a finding, never an error: [`AnalyzeError`] means the
//! site could not be analysed at all.

pub mod config;
pub mod fetch;
pub mod guard;

pub use config::AnalyzerConfig;
pub use fetch::{FetchError, Fetched, Fetcher};
