//! Request interception: every request a page makes passes the same SSRF policy as the HTTP
//! fetcher before Chromium may send it.
//!
//! The page's tab enables the DevTools `Fetch` domain for every URL at the request stage, so
//! Chromium pauses each request (documents, subresources, redirects' next hops, fetch/XHR,
//! iframes) until [`RequestGuard::decide`] answers. Allowed requests continue; refused ones fail
//! with `BlockedByClient` and are recorded as [`RefusedRequest`]s.
//!
//! The decision uses the guard module's public API: [`crate::guard::check_url`] for the scheme
//! and IP-literal hosts, and [`crate::guard::GuardedResolver::resolve_checked`] for names, so a
//! name that resolves to any refused address is refused. Chromium then resolves the name again
//! itself; a DNS answer that changes between the two lookups (rebinding) is the remaining gap,
//! narrowed by checking the address Chromium really connected to on every response
//! (`remoteIPAddress`, see [`crate::browser::lab`]).
//!
//! Traffic the `Fetch` domain does not pause is closed off separately: WebSockets fail at once
//! (the instrumentation script replaces the constructor in every frame), service workers are
//! hidden from the page, and WebRTC may not use non-proxied UDP. Requests made by dedicated
//! or shared workers are not proven to be paused; the complete answer is to send Chromium
//! through a local proxy that applies the guard when it connects (`--proxy-server`), which
//! would also close the DNS rebinding gap.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::fetch::{
    ContinueRequestParams, EnableParams, EventRequestPaused, FailRequestParams, RequestPattern,
    RequestStage,
};
use chromiumoxide::cdp::browser_protocol::network::ErrorReason;
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use url::{Host, Url};

use crate::guard::{GuardError, GuardedResolver, HostResolver, Policy, SystemResolver};

/// A request the guard did not let Chromium send.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefusedRequest {
    /// The address the page asked for.
    pub url: String,
    /// Why it was refused.
    pub reason: String,
}

/// The SSRF decision for browser requests, with a per-measurement cache of host verdicts.
#[derive(Clone)]
pub struct RequestGuard {
    policy: Policy,
    resolver: GuardedResolver,
    verdicts: Arc<Mutex<HashMap<String, Result<(), String>>>>,
    refused: Arc<Mutex<Vec<RefusedRequest>>>,
}

impl std::fmt::Debug for RequestGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestGuard")
            .field("policy", &self.policy)
            .finish()
    }
}

impl RequestGuard {
    /// A guard with `policy`, resolving names through `resolver` (the system's when `None`).
    pub fn new(policy: Policy, resolver: Option<Arc<dyn HostResolver>>) -> Self {
        let inner = resolver.unwrap_or_else(|| Arc::new(SystemResolver));
        Self {
            resolver: GuardedResolver::new(inner, policy.clone()),
            policy,
            verdicts: Arc::new(Mutex::new(HashMap::new())),
            refused: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// The guard an [`crate::AnalyzerConfig`] asks for.
    pub fn from_config(config: &crate::AnalyzerConfig) -> Self {
        Self::new(config.policy(), config.resolver.clone())
    }

    /// A guard with the same policy and resolver and fresh records (one per measurement).
    pub fn fresh(&self) -> Self {
        Self {
            policy: self.policy.clone(),
            resolver: self.resolver.clone(),
            verdicts: Arc::new(Mutex::new(HashMap::new())),
            refused: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Whether the browser may request `url`. `data:`, `blob:` and `about:` never reach the
    /// network and pass; every other scheme but http(s) is refused.
    pub async fn decide(&self, url: &str) -> Result<(), String> {
        let parsed = Url::parse(url).map_err(|e| format!("not a valid address: {e}"))?;
        match parsed.scheme() {
            "data" | "blob" | "about" => return Ok(()),
            "http" | "https" => {}
            other => return Err(format!("the {other}: scheme is not allowed")),
        }
        crate::guard::check_url(&parsed, &self.policy).map_err(|e| e.to_string())?;
        let Some(Host::Domain(host)) = parsed.host() else {
            return Ok(());
        };
        let host = host.to_ascii_lowercase();
        if let Some(v) = self
            .verdicts
            .lock()
            .ok()
            .and_then(|m| m.get(&host).cloned())
        {
            return v;
        }
        let verdict = match self.resolver.resolve_checked(&host).await {
            Ok(_) => Ok(()),
            Err(GuardError::Refused(r)) => Err(r.to_string()),
            Err(GuardError::Unresolvable(u)) => Err(u.to_string()),
        };
        if let Ok(mut m) = self.verdicts.lock() {
            m.insert(host, verdict.clone());
        }
        verdict
    }

    /// Whether Chromium may have connected to `ip` for `url` (the post-connection check).
    pub fn check_connected(&self, url: &str, ip: IpAddr) -> Result<(), String> {
        let host = Url::parse(url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned))
            .unwrap_or_default();
        self.policy.check(&host, ip).map_err(|e| e.to_string())
    }

    /// Record a refusal.
    pub fn record(&self, url: &str, reason: String) {
        if let Ok(mut r) = self.refused.lock()
            && !r.iter().any(|x| x.url == url)
        {
            r.push(RefusedRequest {
                url: url.to_owned(),
                reason,
            });
        }
    }

    /// Every refusal so far.
    pub fn refused(&self) -> Vec<RefusedRequest> {
        self.refused.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// Make Chromium pause every request of `page` (the `Fetch` domain, request stage). Until
    /// [`Self::attach`] answers them, paused requests wait: call both before navigating.
    pub async fn enable(page: &Page) -> Result<(), chromiumoxide::error::CdpError> {
        page.execute(
            EnableParams::builder()
                .pattern(
                    RequestPattern::builder()
                        .url_pattern("*")
                        .request_stage(RequestStage::Request)
                        .build(),
                )
                .build(),
        )
        .await
        .map(|_| ())
    }

    /// Answer every paused request of `page` through the guard, until the page closes. Call
    /// before the first navigation; `enabled` says whether [`Self::enable`] already ran.
    pub async fn attach(
        &self,
        page: &Page,
        enabled: bool,
    ) -> Result<(), chromiumoxide::error::CdpError> {
        let mut paused = page.event_listener::<EventRequestPaused>().await?;
        if !enabled {
            Self::enable(page).await?;
        }
        let guard = self.clone();
        let page = page.clone();
        tokio::spawn(async move {
            while let Some(event) = paused.next().await {
                let guard = guard.clone();
                let page = page.clone();
                // Each request is decided on its own task: one slow DNS answer must not hold
                // up the others.
                tokio::spawn(async move {
                    let url = event.request.url.clone();
                    let id = event.request_id.clone();
                    let result = match guard.decide(&url).await {
                        Ok(()) => page
                            .execute(ContinueRequestParams::new(id))
                            .await
                            .map(|_| ()),
                        Err(reason) => {
                            tracing::info!(%url, %reason, "browser request refused");
                            guard.record(&url, reason);
                            page.execute(FailRequestParams::new(id, ErrorReason::BlockedByClient))
                                .await
                                .map(|_| ())
                        }
                    };
                    if let Err(e) = result {
                        tracing::debug!(%url, error = %e, "could not answer a paused request");
                    }
                });
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::StaticResolver;

    fn guard(allow_private: bool) -> RequestGuard {
        let resolver = StaticResolver::new()
            .with(
                "public.test",
                &["93.184.216.34".parse().unwrap_or(IpAddr::from([0; 4]))],
            )
            .with(
                "internal.test",
                &["10.0.0.7".parse().unwrap_or(IpAddr::from([0; 4]))],
            );
        RequestGuard::new(
            Policy {
                allow_private,
                exempt: Vec::new(),
            },
            Some(Arc::new(resolver)),
        )
    }

    #[tokio::test]
    async fn decides_like_the_fetcher() {
        let g = guard(false);
        assert!(g.decide("http://public.test/a.js").await.is_ok());
        assert!(g.decide("data:image/png;base64,AAAA").await.is_ok());
        assert!(g.decide("http://internal.test/").await.is_err());
        assert!(
            g.decide("http://169.254.169.254/latest/meta-data")
                .await
                .is_err()
        );
        assert!(g.decide("http://[::1]:8080/").await.is_err());
        assert!(g.decide("file:///etc/passwd").await.is_err());
        assert!(g.decide("http://unknown.test/").await.is_err());
        let open = guard(true);
        assert!(open.decide("http://internal.test/").await.is_ok());
        assert!(open.decide("http://0.0.0.0/").await.is_err());
    }
}
