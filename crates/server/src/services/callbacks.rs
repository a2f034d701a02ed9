//! Signed callbacks of the public API (issue 17, `domain::callbacks`): the `callbackUrl` check,
//! each account's signing secret, and the [`Deliverer`] that posts the events queued in
//! `store::callbacks`.
//!
//! The secret that signs an analysis's callback is that of the account that paid for it: the
//! team owner's for a team member (as the owner's credits pay, `services::analyses`), the
//! user's own otherwise. So a team has one secret, which its members can read and only the
//! owner can rotate. It is kept in clear in the database, since the server must sign with it.
//!
//! The deliverer runs in every worker process. Deliveries are claimed in the database, so any
//! number of processes share the queue without sending an attempt twice; each attempt is made
//! with a short timeout, never follows a redirect, and connects only to addresses the
//! analyzer's SSRF guard allows (the same `SITELENS_ALLOW_PRIVATE_TARGETS` policy as analysed
//! sites), through its guarded resolver, so a name that resolves to a private address later
//! is refused at delivery too.

use std::sync::Arc;
use std::time::{Duration, Instant};

use analyzer::guard::{GuardError, GuardedResolver, Policy, SystemResolver};
use chrono::{DateTime, Utc};
use domain::api::{ApiErrorCode, ApiErrorDetail};
use domain::callbacks::{
    ATTEMPT_HEADER, CallbackAnalysis, CallbackEvent, CallbackEventType, CallbackLinks,
    CallbackSecretView, EVENT_ID_HEADER, EVENT_TYPE_HEADER, RESPONSE_EXCERPT_MAX,
    RETRY_DELAYS_SECS, SECRET_BYTES, SIGNATURE_HEADER, TIMEOUT_SECS, format_secret, retry_delay,
    validate_callback_url,
};
use domain::report::ProgressEventType;
use futures::StreamExt;
use store::DatabaseConnection;
use store::callbacks::{AfterAttempt, AttemptRecord};
use store::entity::{callback_deliveries, callback_secrets, users};
use tokio::sync::{broadcast, watch};

use crate::chain::Chain;
use crate::services::accounts::AccountError;
use crate::services::analyses::{SubmitError, payer_of};
use crate::services::hub::Hub;
use crate::services::signature::sign;

/// How long a claimed attempt holds its delivery: longer than an attempt can take, so only a
/// process that died mid-attempt lets another make it again.
const LEASE: Duration = Duration::from_secs(TIMEOUT_SECS + 50);

/// The longest the deliverer sleeps without looking at the queue (a delivery queued by another
/// process on SQLite, where no notification crosses processes, waits at most this long).
const POLL: Duration = Duration::from_secs(15);

/// Deliveries attempted at once by one process.
const CONCURRENT_ATTEMPTS: usize = 8;

/// The `callbackUrl` as stored, or why it is refused: `domain`'s form rule, then the SSRF
/// guard's policy for an address written as an IP literal (and `localhost`), unless
/// `allow_private`. Host names are checked again, resolved, at every attempt.
pub fn check_callback_url(raw: &str, allow_private: bool) -> Result<String, SubmitError> {
    let url = validate_callback_url(raw).map_err(SubmitError::InvalidCallbackUrl)?;
    let parsed =
        url::Url::parse(&url).map_err(|e| SubmitError::InvalidCallbackUrl(e.to_string()))?;
    let policy = Policy {
        allow_private,
        exempt: Vec::new(),
    };
    analyzer::guard::check_url(&parsed, &policy).map_err(|e| {
        SubmitError::InvalidCallbackUrl(format!("callbackUrl cannot be called back: {}", Chain(&e)))
    })?;
    let host = parsed.host_str().unwrap_or_default().trim_end_matches('.');
    if !allow_private && (host == "localhost" || host.ends_with(".localhost")) {
        return Err(SubmitError::InvalidCallbackUrl(
            "callbackUrl cannot be called back: localhost is this server".to_owned(),
        ));
    }
    Ok(url)
}

fn fresh_secret() -> Result<String, AccountError> {
    let mut bytes = [0u8; SECRET_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| AccountError::Hashing(e.to_string()))?;
    Ok(format_secret(&bytes))
}

/// The account whose secret signs `user`'s callbacks, and whether it is a team's owner's
/// rather than the user's own.
async fn signer_of(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<(i64, bool), AccountError> {
    let payer = payer_of(db, user).await.map_err(|e| match e {
        SubmitError::Store(e) => AccountError::Store(e),
        other => AccountError::Conflict(other.to_string()),
    })?;
    Ok((payer.paid_by, payer.paid_by != user.id))
}

/// The secret of `account_id`, made now if it has none.
pub async fn secret_for(
    db: &DatabaseConnection,
    account_id: i64,
) -> Result<callback_secrets::Model, AccountError> {
    Ok(store::callbacks::ensure_secret(db, account_id, &fresh_secret()?, store::now()).await?)
}

fn secret_view(row: callback_secrets::Model, team_secret: bool) -> CallbackSecretView {
    CallbackSecretView {
        secret: row.secret,
        created_at: row.created_at.to_rfc3339(),
        team_secret,
        can_rotate: !team_secret,
    }
}

/// The secret that signs `user`'s callbacks (the team owner's for a member), made on first
/// use.
pub async fn secret_view_for(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<CallbackSecretView, AccountError> {
    let (account, team_secret) = signer_of(db, user).await?;
    Ok(secret_view(secret_for(db, account).await?, team_secret))
}

/// Replaces `user`'s secret with a new one. A team member's callbacks are signed with the
/// owner's secret, which only the owner may rotate.
pub async fn rotate_secret(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<CallbackSecretView, AccountError> {
    let (account, team_secret) = signer_of(db, user).await?;
    if team_secret {
        return Err(AccountError::Forbidden(
            "Your analyses are signed with your team owner's secret: only the owner can rotate it"
                .to_owned(),
        ));
    }
    let row = store::callbacks::rotate_secret(db, account, &fresh_secret()?, store::now()).await?;
    Ok(secret_view(row, false))
}

/// Why an event could not be built.
#[derive(Debug, thiserror::Error)]
enum EventError {
    #[error("stored callback event type {0:?} is unknown")]
    UnknownType(String),
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Account(#[from] AccountError),
    #[error("the event is not serialisable: {0}")]
    Json(#[from] serde_json::Error),
}

/// Posts queued callbacks; see the module documentation.
#[derive(Clone)]
pub struct Deliverer {
    db: DatabaseConnection,
    http: reqwest::Client,
    public_url: String,
    policy: Policy,
}

impl Deliverer {
    /// A deliverer over `db` whose events link to `public_url` and which connects under the
    /// guard's policy (`allow_private`: `SITELENS_ALLOW_PRIVATE_TARGETS`).
    pub fn new(
        db: DatabaseConnection,
        public_url: &str,
        allow_private: bool,
    ) -> anyhow::Result<Self> {
        let policy = Policy {
            allow_private,
            exempt: Vec::new(),
        };
        let resolver = GuardedResolver::new(Arc::new(SystemResolver), policy.clone());
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(TIMEOUT_SECS))
            .connect_timeout(Duration::from_secs(TIMEOUT_SECS))
            .dns_resolver(Arc::new(resolver))
            .user_agent(concat!("Sitelens-Callbacks/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Deliverer {
            db,
            http,
            public_url: public_url.trim_end_matches('/').to_owned(),
            policy,
        })
    }

    /// Delivers due callbacks until `stop` turns true: at once when an analysis ends in this
    /// process (or, on PostgreSQL, anywhere: `hub`'s events), when the next retry is due, and
    /// every [`POLL`].
    pub async fn run(self, hub: Hub, mut stop: watch::Receiver<bool>) {
        let mut events = hub.subscribe();
        loop {
            let wait = match self.deliver_due(store::now()).await {
                Ok(_) => match store::callbacks::next_due(&self.db).await {
                    Ok(Some(at)) => (at - store::now()).to_std().unwrap_or_default().min(POLL),
                    Ok(None) => POLL,
                    Err(e) => {
                        tracing::warn!(error = %Chain(&e), "callback queue unreadable");
                        POLL
                    }
                },
                Err(e) => {
                    tracing::warn!(error = %Chain(&e), "callback queue unreadable");
                    POLL
                }
            };
            tokio::select! {
                _ = tokio::time::sleep(wait.max(Duration::from_millis(10))) => {}
                _ = analysis_ended(&mut events) => {}
                _ = stop.wait_for(|s| *s) => return,
            }
        }
    }

    /// Makes the attempts due at `now`; returns how many were made. `now` is the queue's
    /// clock only (what is due, the claim); the retry waits count from the real time of the
    /// attempt. Tests pass a later `now` to make a retry without waiting for it.
    pub async fn deliver_due(&self, now: DateTime<Utc>) -> store::StoreResult<usize> {
        let due = store::callbacks::due_deliveries(&self.db, now, 100).await?;
        let lease_until = now + chrono::Duration::from_std(LEASE).unwrap_or_default();
        let outcomes: Vec<store::StoreResult<bool>> = futures::stream::iter(due)
            .map(|d| async move {
                if !store::callbacks::claim_delivery(&self.db, &d, now, lease_until).await? {
                    return Ok(false);
                }
                self.attempt(&d).await?;
                Ok(true)
            })
            .buffer_unordered(CONCURRENT_ATTEMPTS)
            .collect()
            .await;
        let mut made = 0;
        for outcome in outcomes {
            if outcome? {
                made += 1;
            }
        }
        Ok(made)
    }

    /// Makes the claimed attempt `delivery.attempts + 1` and records it.
    async fn attempt(&self, delivery: &callback_deliveries::Model) -> store::StoreResult<()> {
        let number = delivery.attempts + 1;
        let started = Instant::now();
        let at = store::now();
        let outcome = match self.event(delivery).await {
            Ok((body, secret)) => self.post(delivery, number, &body, &secret).await,
            Err(EventError::Store(store::StoreError::NotFound)) => {
                Err("the analysis no longer exists".to_owned())
            }
            Err(e) => {
                tracing::error!(delivery = delivery.id, error = %Chain(&e), "callback event not built");
                Err("the event could not be built".to_owned())
            }
        };
        let duration_ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
        let (status_code, error, excerpt) = match outcome {
            Ok((status, excerpt)) => (Some(status), None, excerpt),
            Err(error) => (None, Some(error), None),
        };
        let delivered = status_code.is_some_and(|s| (200..300).contains(&s));
        let finished = store::now();
        let after = if delivered {
            AfterAttempt::Delivered(finished)
        } else {
            match retry_delay(
                u32::try_from(number).unwrap_or(u32::MAX),
                &RETRY_DELAYS_SECS,
            ) {
                Some(wait) => AfterAttempt::RetryAt(
                    finished
                        + chrono::Duration::seconds(i64::try_from(wait).unwrap_or(i64::MAX / 2)),
                ),
                None => AfterAttempt::GiveUp(finished),
            }
        };
        let error = match (status_code, error) {
            (Some(s), None) if (300..400).contains(&s) => {
                Some("redirects are not followed: post to the final address".to_owned())
            }
            (_, error) => error,
        };
        if !delivered {
            tracing::info!(delivery = delivery.id, attempt = number, status = ?status_code, error = ?error, "callback not delivered");
        }
        store::callbacks::record_attempt(
            &self.db,
            delivery.id,
            number,
            &AttemptRecord {
                at,
                status_code,
                error,
                duration_ms,
                response_excerpt: excerpt,
            },
            after,
        )
        .await
    }

    /// The event's body (the same bytes on every attempt: it is built from rows that no longer
    /// change) and the secret to sign it with.
    async fn event(
        &self,
        delivery: &callback_deliveries::Model,
    ) -> Result<(Vec<u8>, String), EventError> {
        let event_type = CallbackEventType::parse(&delivery.event_type)
            .ok_or_else(|| EventError::UnknownType(delivery.event_type.clone()))?;
        let job = store::jobs::get_job(&self.db, delivery.job_id).await?;
        let scores = match (event_type, job.result_id) {
            (CallbackEventType::AnalysisCompleted, Some(result)) => {
                Some(store::results::get_summary(&self.db, result).await?.scores)
            }
            _ => None,
        };
        let error = (event_type == CallbackEventType::AnalysisFailed).then(|| ApiErrorDetail {
            code: ApiErrorCode::AnalysisFailed,
            message: job
                .error
                .clone()
                .unwrap_or_else(|| "the analysis failed".to_owned()),
        });
        let view = job.api_view();
        let analysis_link = format!("{}/api/v1/analyses/{}", self.public_url, job.id);
        let event = CallbackEvent {
            id: delivery.event_id.to_string(),
            event_type,
            created_at: job.finished_at.unwrap_or(delivery.created_at).to_rfc3339(),
            analysis: CallbackAnalysis {
                id: job.id.to_string(),
                status: view.status,
                url: job.canonical_url.clone(),
                report_type: job.report_type,
                finished_at: view.finished_at,
            },
            scores,
            error,
            links: CallbackLinks {
                report: format!("{analysis_link}/report"),
                analysis: analysis_link,
            },
        };
        let secret = secret_for(&self.db, delivery.account_id).await?;
        Ok((serde_json::to_vec(&event)?, secret.secret))
    }

    /// One POST: the receiver's status and the first characters of its answer, or why there
    /// was none (a short text for the owner, without our internals).
    async fn post(
        &self,
        delivery: &callback_deliveries::Model,
        number: i32,
        body: &[u8],
        secret: &str,
    ) -> Result<(u16, Option<String>), String> {
        let url =
            url::Url::parse(&delivery.url).map_err(|_| "the address is not valid".to_owned())?;
        // IP literals never reach the guarded resolver: check them here, as the fetcher does.
        analyzer::guard::check_url(&url, &self.policy).map_err(|e| Chain(&e).to_string())?;
        let timestamp = store::now().timestamp();
        let mut res = self
            .http
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(SIGNATURE_HEADER, sign(body, secret, timestamp))
            .header(EVENT_ID_HEADER, delivery.event_id.to_string())
            .header(EVENT_TYPE_HEADER, &delivery.event_type)
            .header(ATTEMPT_HEADER, number.to_string())
            .body(body.to_vec())
            .send()
            .await
            .map_err(|e| describe(&e))?;
        let status = res.status().as_u16();
        let mut excerpt = Vec::new();
        while excerpt.len() < RESPONSE_EXCERPT_MAX * 4 {
            match res.chunk().await {
                Ok(Some(chunk)) => excerpt.extend_from_slice(&chunk),
                // The status decides; an answer that breaks off or is slow keeps what came.
                Ok(None) | Err(_) => break,
            }
        }
        let text: String = String::from_utf8_lossy(&excerpt)
            .chars()
            .filter(|c| !c.is_control() || *c == ' ')
            .take(RESPONSE_EXCERPT_MAX)
            .collect();
        Ok((status, Some(text).filter(|t| !t.trim().is_empty())))
    }
}

/// A short reason for a request that got no answer.
fn describe(e: &reqwest::Error) -> String {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(guard) = s.downcast_ref::<GuardError>() {
            return guard.to_string();
        }
        source = s.source();
    }
    if e.is_timeout() {
        format!("no answer within {TIMEOUT_SECS} s")
    } else if e.is_connect() {
        "could not connect".to_owned()
    } else {
        "the request failed before an answer came".to_owned()
    }
}

/// Returns when an analysis completes or fails (or events were missed), so its callback goes
/// out at once; never returns once the hub is gone.
async fn analysis_ended(events: &mut broadcast::Receiver<domain::report::ProgressEvent>) {
    loop {
        match events.recv().await {
            Ok(e)
                if matches!(
                    e.kind,
                    ProgressEventType::Complete | ProgressEventType::Error
                ) =>
            {
                return;
            }
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(_)) => return,
            Err(broadcast::error::RecvError::Closed) => std::future::pending::<()>().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callback_urls_follow_the_analyzers_target_policy() {
        for private in [
            "http://127.0.0.1:9000/hook",
            "http://10.1.2.3/hook",
            "http://[::1]/hook",
            "http://169.254.169.254/latest",
            "http://localhost:8080/hook",
            "http://api.localhost/hook",
        ] {
            assert!(
                matches!(
                    check_callback_url(private, false),
                    Err(SubmitError::InvalidCallbackUrl(_))
                ),
                "{private}"
            );
            assert!(check_callback_url(private, true).is_ok(), "{private}");
        }
        assert_eq!(
            check_callback_url("https://hooks.example.com/sitelens", false).ok(),
            Some("https://hooks.example.com/sitelens".to_owned())
        );
        // Never, whatever the setting: no host to call back.
        assert!(check_callback_url("http://0.0.0.0/hook", true).is_err());
    }
}
