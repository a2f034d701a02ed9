//! Analyzer configuration: one typed struct. The library never reads the environment; the
//! `sitelens` binary builds this from its own configuration.

use std::sync::Arc;
use std::time::Duration;

use crate::guard::HostResolver;

/// The honest User-Agent Sitelens sends; its product token is what robots.txt groups match.
pub const USER_AGENT: &str = concat!(
    "Sitelens/",
    env!("CARGO_PKG_VERSION"),
    " (self-hosted website audit; robots.txt token: sitelens)"
);

/// The robots.txt product token Sitelens obeys (RFC 9309 §2.2.1).
pub const ROBOTS_TOKEN: &str = "sitelens";

/// How the analyzer fetches and how far it goes.
#[derive(Clone)]
pub struct AnalyzerConfig {
    /// Allow loopback, private, link-local and CGNAT targets. Off by default (SSRF guard).
    pub allow_private_targets: bool,
    /// Exact addresses allowed whatever their range. Tests put 127.0.0.1 here so that every
    /// other private address stays refused while the fixture server is reachable.
    pub exempt_addresses: Vec<std::net::IpAddr>,
    /// User-Agent header of every request.
    pub user_agent: String,
    /// Time limit of one request, connect to last body byte.
    pub request_timeout: Duration,
    /// Time limit of a whole analysis.
    pub analysis_timeout: Duration,
    /// Largest body read, after decompression; longer bodies are cut and flagged.
    pub max_body_bytes: usize,
    /// Most redirects followed for one request.
    pub max_redirects: usize,
    /// Concurrent requests to one host during a crawl.
    pub per_host_concurrency: usize,
    /// Most external links whose status is checked (sampled).
    pub external_link_sample: usize,
    /// Most referenced assets (scripts, styles, images) measured for page weight.
    pub max_assets: usize,
    /// Name resolution; `None` uses the system resolver. Tests inject a fixed table here.
    pub resolver: Option<Arc<dyn HostResolver>>,
}

impl std::fmt::Debug for AnalyzerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalyzerConfig")
            .field("allow_private_targets", &self.allow_private_targets)
            .field("user_agent", &self.user_agent)
            .field("request_timeout", &self.request_timeout)
            .field("analysis_timeout", &self.analysis_timeout)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_redirects", &self.max_redirects)
            .field("per_host_concurrency", &self.per_host_concurrency)
            .field("custom_resolver", &self.resolver.is_some())
            .finish()
    }
}

impl Default for AnalyzerConfig {
    fn default() -> Self {
        Self {
            allow_private_targets: false,
            exempt_addresses: Vec::new(),
            user_agent: USER_AGENT.to_owned(),
            request_timeout: Duration::from_secs(15),
            analysis_timeout: Duration::from_secs(120),
            max_body_bytes: 10 * 1024 * 1024,
            max_redirects: 10,
            per_host_concurrency: 4,
            external_link_sample: 10,
            max_assets: 60,
            resolver: None,
        }
    }
}

impl AnalyzerConfig {
    /// Defaults, allowing private and loopback targets or not.
    pub fn new(allow_private_targets: bool) -> Self {
        Self {
            allow_private_targets,
            ..Self::default()
        }
    }

    /// Defaults that allow loopback targets: what tests and local use need.
    pub fn allowing_private_targets() -> Self {
        Self {
            allow_private_targets: true,
            ..Self::default()
        }
    }

    /// The SSRF guard policy this configuration asks for.
    pub fn policy(&self) -> crate::guard::Policy {
        crate::guard::Policy {
            allow_private: self.allow_private_targets,
            exempt: self.exempt_addresses.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_targets_are_refused_unless_allowed() {
        assert!(!AnalyzerConfig::default().allow_private_targets);
        assert!(!AnalyzerConfig::new(false).policy().allow_private);
        assert!(AnalyzerConfig::new(true).policy().allow_private);
        assert!(
            AnalyzerConfig::allowing_private_targets()
                .policy()
                .allow_private
        );
    }
}
