//! Custom domains (issue 15 item 3; rules in `domain::custom_domain`): an agency's domain, its
//! DNS TXT verification through a configurable resolver, which host a request is for, and the
//! public address of a branded report on its agency's verified domain.
//!
//! - Only a white-label account (`domain::whitelabel::account_white_label`) has a domain; a team
//!   member's team is the owner's to set up.
//! - Verification asks the resolver of `SITELENS_DNS_RESOLVER` (else `/etc/resolv.conf`) for the
//!   TXT records at `_sitelens-verify.{domain}`, with a time limit: a missing or wrong record
//!   un-verifies the domain, a resolver that does not answer changes nothing and says so.
//! - [`CustomDomains::host`] tells the host-routing layer (`routes::custom_domains::route_by_host`)
//!   whether a request's host is ours, a verified agency domain, or unknown. Verified domains,
//!   report brands and agency domains are cached for [`CACHE_FOR`] (cleared on this node at every
//!   change; other nodes see a change within that time).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bytes::Bytes;
use domain::custom_domain::{
    self as rules, CustomDomainSettings, CustomDomainStatus, DomainError, VerifyFailure,
};
use hickory_resolver::TokioResolver;
use hickory_resolver::config::{NameServerConfig, ResolveHosts, ResolverConfig};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::proto::rr::RData;
use store::custom_domains::Check;
use store::entity::{custom_domains, users};
use store::{DatabaseConnection, StoreError};
use uuid::Uuid;

use crate::config::Config;

/// How long a looked-up verified domain, report brand or agency domain is reused.
pub const CACHE_FOR: Duration = Duration::from_secs(30);
/// Entries per cache map; a full map is emptied (hosts come from requests, so unknown hosts
/// must not grow it without bound).
const CACHE_MAX: usize = 4096;
/// Time for one DNS query to one server.
const QUERY_TIMEOUT: Duration = Duration::from_secs(3);
/// Time for the whole check, all tries included: well within the API's 30 s.
const CHECK_TIMEOUT: Duration = Duration::from_secs(8);

/// Why a custom-domain request was refused.
#[derive(Debug, thiserror::Error)]
pub enum CustomDomainError {
    /// The account's plan has no white-label (or the caller is a team member).
    #[error("{0}")]
    Forbidden(String),
    /// What was typed is not a domain we can serve.
    #[error(transparent)]
    Invalid(#[from] DomainError),
    /// Another account has the domain.
    #[error("{}", rules::TAKEN)]
    Taken,
    /// A domain before a brand (`rules::NO_BRAND`).
    #[error("{}", rules::NO_BRAND)]
    NoBrand,
    /// Verify or read without a domain.
    #[error("You have no custom domain yet: enter one first")]
    NoDomain,
    /// The database failed.
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for CustomDomainError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict(_) => CustomDomainError::Taken,
            other => CustomDomainError::Store(other),
        }
    }
}

/// Whose a request's host is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostKind {
    /// Ours: the public address's host or a loopback name.
    Own,
    /// A verified custom domain of this agency.
    Agency(i64),
    /// Neither.
    Unknown,
}

struct Timed<V> {
    at: Instant,
    value: V,
}

/// Short-lived lookups: host → agency, agency → verified domain, report → brand owner.
#[derive(Default)]
struct Cache {
    hosts: HashMap<String, Timed<Option<i64>>>,
    agencies: HashMap<i64, Timed<Option<String>>>,
    reports: HashMap<Uuid, Timed<Option<i64>>>,
}

fn fresh<K: Eq + Hash, V: Clone>(map: &HashMap<K, Timed<V>>, key: &K) -> Option<V> {
    map.get(key)
        .filter(|t| t.at.elapsed() < CACHE_FOR)
        .map(|t| t.value.clone())
}

fn keep<K: Eq + Hash, V>(map: &mut HashMap<K, Timed<V>>, key: K, value: V) {
    if map.len() >= CACHE_MAX {
        map.clear();
    }
    map.insert(
        key,
        Timed {
            at: Instant::now(),
            value,
        },
    );
}

/// The custom-domain machinery of a web node: our own hosts, the resolver and the caches.
pub struct CustomDomains {
    own_hosts: Vec<String>,
    target_host: String,
    resolver: Option<TokioResolver>,
    cache: Mutex<Cache>,
}

/// A host as requests and the store compare it: lower case, without a port or a final dot,
/// IPv6 without brackets.
pub fn bare_host(authority: &str) -> String {
    let authority = authority.trim();
    let host = if let Some(rest) = authority.strip_prefix('[') {
        rest.split(']').next().unwrap_or_default()
    } else {
        authority.split(':').next().unwrap_or_default()
    };
    host.trim_end_matches('.').to_ascii_lowercase()
}

fn resolver(address: Option<SocketAddr>) -> Option<TokioResolver> {
    let builder = match address {
        Some(address) => {
            let mut server = NameServerConfig::udp_and_tcp(address.ip());
            for connection in &mut server.connections {
                connection.port = address.port();
            }
            TokioResolver::builder_with_config(
                ResolverConfig::from_name_servers(vec![server]),
                TokioRuntimeProvider::default(),
            )
        }
        None => TokioResolver::builder_tokio()
            .inspect_err(|e| {
                tracing::warn!(error = %e, "no system DNS configuration: custom domains cannot be verified until SITELENS_DNS_RESOLVER is set");
            })
            .ok()?,
    };
    let mut builder = builder;
    let options = builder.options_mut();
    options.timeout = QUERY_TIMEOUT;
    options.attempts = 2;
    // Every check asks again: a record just added must be seen at once.
    options.cache_size = 0;
    options.use_hosts_file = ResolveHosts::Never;
    builder
        .build()
        .inspect_err(|e| tracing::warn!(error = %e, "the DNS resolver could not be built"))
        .ok()
}

impl CustomDomains {
    /// The machinery for `config`: its public host (plus `127.0.0.1`, `localhost` and `::1`,
    /// for local use and tests) is ours; the resolver is `SITELENS_DNS_RESOLVER`'s or the
    /// system's.
    pub fn new(config: &Config) -> Self {
        let target_host = url::Url::parse(&config.public_url)
            .ok()
            .and_then(|u| u.host_str().map(bare_host))
            .unwrap_or_default();
        let mut own_hosts = vec![
            "127.0.0.1".to_owned(),
            "localhost".to_owned(),
            "::1".to_owned(),
        ];
        if !target_host.is_empty() && !own_hosts.contains(&target_host) {
            own_hosts.push(target_host.clone());
        }
        CustomDomains {
            own_hosts,
            target_host,
            resolver: resolver(config.dns_resolver),
            cache: Mutex::new(Cache::default()),
        }
    }

    /// Forgets every cached lookup (after a domain changed on this node).
    pub fn forget(&self) {
        if let Ok(mut cache) = self.cache.lock() {
            *cache = Cache::default();
        }
    }

    /// Whether `authority` (a `Host` header: name and optional port) is ours, a verified
    /// domain, or neither. No host at all counts as ours (HTTP/1.0).
    pub async fn host(
        &self,
        db: &DatabaseConnection,
        authority: Option<&str>,
    ) -> Result<HostKind, StoreError> {
        let Some(authority) = authority else {
            return Ok(HostKind::Own);
        };
        let host = bare_host(authority);
        if self.own_hosts.contains(&host) {
            return Ok(HostKind::Own);
        }
        let cached = self.cache.lock().ok().and_then(|c| fresh(&c.hosts, &host));
        let owner = match cached {
            Some(owner) => owner,
            None => {
                let owner = store::custom_domains::verified_owner(db, &host).await?;
                if let Ok(mut c) = self.cache.lock() {
                    keep(&mut c.hosts, host, owner);
                }
                owner
            }
        };
        Ok(owner.map_or(HostKind::Unknown, HostKind::Agency))
    }

    /// Whose brand the report (or analysis) `id` wears, cached.
    pub async fn report_owner(
        &self,
        db: &DatabaseConnection,
        id: Uuid,
    ) -> Result<Option<i64>, StoreError> {
        if let Some(owner) = self.cache.lock().ok().and_then(|c| fresh(&c.reports, &id)) {
            return Ok(owner);
        }
        let owner = store::custom_domains::report_brand_owner(db, id).await?;
        if let Ok(mut c) = self.cache.lock() {
            keep(&mut c.reports, id, owner);
        }
        Ok(owner)
    }

    /// The public base of the report (or analysis) `id` when it is branded by an agency with a
    /// verified domain: `https://{domain}`. Cached; `None` on any failure, as the page's own
    /// address then stands.
    pub async fn report_public_base(&self, db: &DatabaseConnection, id: Uuid) -> Option<String> {
        let agency = self.report_owner(db, id).await.ok()??;
        let cached = self
            .cache
            .lock()
            .ok()
            .and_then(|c| fresh(&c.agencies, &agency));
        let domain = match cached {
            Some(domain) => domain,
            None => {
                let domain = store::custom_domains::verified_domain(db, agency)
                    .await
                    .ok()?;
                if let Ok(mut c) = self.cache.lock() {
                    keep(&mut c.agencies, agency, domain.clone());
                }
                domain
            }
        }?;
        Some(rules::public_base(&domain))
    }

    /// Looks up the TXT records at `name`, each joined from its character-strings; `Err` when
    /// nothing can be said (no resolver, a timeout, a server failure).
    async fn txt_records(&self, name: &str) -> Result<Vec<String>, ()> {
        let resolver = self.resolver.as_ref().ok_or(())?;
        let fqdn = format!("{name}.");
        let answer = tokio::time::timeout(CHECK_TIMEOUT, resolver.txt_lookup(fqdn)).await;
        match answer {
            Err(_elapsed) => {
                tracing::info!(%name, "TXT lookup timed out");
                Err(())
            }
            Ok(Err(e)) if e.is_no_records_found() => Ok(Vec::new()),
            Ok(Err(e)) => {
                tracing::info!(%name, error = %e, "TXT lookup failed");
                Err(())
            }
            Ok(Ok(lookup)) => Ok(lookup
                .answers()
                .iter()
                .filter_map(|record| match &record.data {
                    RData::TXT(txt) => {
                        let strings: Vec<&[u8]> = txt.txt_data.iter().map(AsRef::as_ref).collect();
                        Some(rules::txt_text(&strings))
                    }
                    _ => None,
                })
                .collect()),
        }
    }
}

/// Who may have a custom domain: a white-label account, not a member of someone's team.
async fn require_white_label(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<(), CustomDomainError> {
    if store::accounts::membership_of(db, user.id).await?.is_some() {
        return Err(CustomDomainError::Forbidden(
            "Your team's custom domain is set up by the team's owner".to_owned(),
        ));
    }
    if !domain::whitelabel::account_white_label(&user.subscription_plan, user.has_white_label) {
        return Err(CustomDomainError::Forbidden(rules::NOT_ENTITLED.to_owned()));
    }
    Ok(())
}

fn status_of(row: custom_domains::Model) -> CustomDomainStatus {
    CustomDomainStatus {
        record_name: rules::record_name(&row.domain),
        record_value: rules::record_value(&row.token),
        public_base: rules::public_base(&row.domain),
        verified: row.verified_at.is_some(),
        verified_at: row.verified_at.map(|t| t.to_rfc3339()),
        checked_at: row.checked_at.map(|t| t.to_rfc3339()),
        last_error: row.last_error,
        domain: row.domain,
    }
}

fn settings_of(
    domains: &CustomDomains,
    row: Option<custom_domains::Model>,
) -> CustomDomainSettings {
    rules::settings(row.map(status_of), &domains.target_host)
}

fn new_token() -> Result<String, CustomDomainError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| {
        CustomDomainError::Store(StoreError::Data {
            what: format!("no random bytes for a verification token ({e})"),
            source: None,
        })
    })?;
    Ok(rules::token_from_bytes(&bytes))
}

/// `GET`: the account's domain, the records to add and how.
pub async fn settings(
    db: &DatabaseConnection,
    domains: &CustomDomains,
    user: &users::Model,
) -> Result<CustomDomainSettings, CustomDomainError> {
    require_white_label(db, user).await?;
    let row = store::custom_domains::domain_for_user(db, user.id).await?;
    Ok(settings_of(domains, row))
}

/// `PUT`: sets the account's domain. The same domain again changes nothing; another one gets a
/// new token and is unverified until checked.
pub async fn set_domain(
    db: &DatabaseConnection,
    domains: &CustomDomains,
    user: &users::Model,
    typed: &str,
) -> Result<CustomDomainSettings, CustomDomainError> {
    require_white_label(db, user).await?;
    let domain = rules::normalize_domain(typed, &domains.target_host)?;
    // A custom domain serves the agency's branded reports: without a brand they would wear ours.
    if store::accounts::branding_for_user(db, user.id)
        .await?
        .is_none()
    {
        return Err(CustomDomainError::NoBrand);
    }
    let row = store::custom_domains::set_domain(db, user.id, &domain, &new_token()?).await?;
    domains.forget();
    Ok(settings_of(domains, Some(row)))
}

/// `DELETE`: removes the account's domain; it stops serving at once on this node.
pub async fn remove_domain(
    db: &DatabaseConnection,
    domains: &CustomDomains,
    user: &users::Model,
) -> Result<CustomDomainSettings, CustomDomainError> {
    require_white_label(db, user).await?;
    store::custom_domains::remove_domain(db, user.id).await?;
    domains.forget();
    Ok(settings_of(domains, None))
}

/// `POST …/verify`: looks the TXT record up now and records what was found. A failed check is
/// an answer (`verified: false` with `lastError`), not an error.
pub async fn verify(
    db: &DatabaseConnection,
    domains: &CustomDomains,
    user: &users::Model,
) -> Result<CustomDomainSettings, CustomDomainError> {
    require_white_label(db, user).await?;
    let row = store::custom_domains::domain_for_user(db, user.id)
        .await?
        .ok_or(CustomDomainError::NoDomain)?;
    let found = domains.txt_records(&rules::record_name(&row.domain)).await;
    let check = match found {
        Err(()) => Check::Inconclusive(VerifyFailure::CouldNotCheck.to_string()),
        Ok(records) => match rules::judge_txt(&row.domain, &row.token, &records) {
            Ok(()) => Check::Verified,
            Err(failure) => Check::Failed(failure.to_string()),
        },
    };
    let after = store::custom_domains::record_check(
        db,
        user.id,
        &row.domain,
        &row.token,
        &check,
        store::now(),
    )
    .await?;
    domains.forget();
    // The domain changed while it was being checked: show it as it is now.
    let after = match after {
        Some(row) => Some(row),
        None => store::custom_domains::domain_for_user(db, user.id).await?,
    };
    Ok(settings_of(domains, after))
}

/// The public base of `agency_user_id`'s branded reports, `https://{domain}`, when its custom
/// domain is verified (uncached: one indexed read).
pub async fn public_base_for(db: &DatabaseConnection, agency_user_id: i64) -> Option<String> {
    store::custom_domains::verified_domain(db, agency_user_id)
        .await
        .ok()
        .flatten()
        .map(|d| rules::public_base(&d))
}

/// The public address of report `report_id` when it is branded by an agency whose custom domain
/// is verified: `https://{domain}/results/{id}` (uncached; for the server-rendered page).
pub async fn report_public_url(db: &DatabaseConnection, report_id: Uuid) -> Option<String> {
    let base = report_public_base(db, report_id).await?;
    Some(format!("{base}/results/{report_id}"))
}

/// Where report `report_id` is read when it is branded by an agency whose custom domain is
/// verified: `https://{domain}` (uncached).
pub async fn report_public_base(db: &DatabaseConnection, report_id: Uuid) -> Option<String> {
    let agency = store::custom_domains::report_brand_owner(db, report_id)
        .await
        .ok()??;
    public_base_for(db, agency).await
}

/// A cached `GET /api/results/{id}` body with `publicUrl` added. The body is serde's
/// serialisation of `ResultResponse` without it, which begins with `{`; `publicUrl` is the
/// struct's first field, so the result equals serialising the struct with it set.
pub fn with_public_url(body: &Bytes, public_url: &str) -> Bytes {
    let value = serde_json::Value::String(public_url.to_owned()).to_string();
    let mut out = Vec::with_capacity(body.len() + value.len() + 16);
    out.extend_from_slice(b"{\"publicUrl\":");
    out.extend_from_slice(value.as_bytes());
    out.push(b',');
    out.extend_from_slice(body.get(1..).unwrap_or_default());
    Bytes::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_lose_their_port_case_and_final_dot() {
        assert_eq!(
            bare_host("Reports.Agency.example:8443"),
            "reports.agency.example"
        );
        assert_eq!(
            bare_host("reports.agency.example."),
            "reports.agency.example"
        );
        assert_eq!(bare_host("127.0.0.1:3000"), "127.0.0.1");
        assert_eq!(bare_host("[::1]:8080"), "::1");
        assert_eq!(bare_host("[::1]"), "::1");
    }

    #[test]
    fn the_public_url_joins_a_cached_body_as_serde_would_write_it() {
        let report: domain::report::AnalysisReport = serde_json::from_str(include_str!(
            "../../../domain/tests/stored/premium-report-before-typed-sections.json"
        ))
        .expect("a report");
        let mut response = domain::report::ResultResponse {
            public_url: None,
            success: true,
            data: report,
        };
        let body = Bytes::from(serde_json::to_vec(&response).expect("json"));
        let url = "https://reports.agency.example/results/\"x\"";
        response.public_url = Some(url.to_owned());
        let expected = serde_json::to_vec(&response).expect("json");
        assert_eq!(with_public_url(&body, url).as_ref(), expected.as_slice());
    }
}
