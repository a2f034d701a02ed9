//! Sign-in through an OpenID Connect provider (docs/PRODUCT.md §10.1), when
//! `SITELENS_OIDC_ISSUER` is set: the authorization code flow with PKCE (RFC 7636, S256), a
//! `state` against cross-site requests and a `nonce` binding the ID token to this browser
//! (OpenID Connect Core 1.0 §3.1). The provider's endpoints and keys come from its discovery
//! document (OpenID Connect Discovery 1.0 §4); the ID token is verified as Core §3.1.3.7 asks:
//! its signature against the provider's JWKS (an asymmetric algorithm only), `iss`, `aud`,
//! `exp` and the `nonce`.
//!
//! The pending sign-in (state, nonce, PKCE verifier, where to return) travels in a short-lived
//! HttpOnly cookie of this browser, so a callback can only be completed by the browser that
//! started it, and a web node needs no shared storage for it.

use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::sync::Mutex;

use crate::chain::Chain;
use crate::config::OidcSettings;

/// How long a started sign-in may take at the provider.
pub const PENDING_MINUTES: i64 = 10;
/// How long discovery and keys are reused before they are fetched again (a key the cache
/// lacks is fetched at once: providers rotate keys).
const CACHE_FOR: Duration = Duration::from_secs(3600);

/// Why a sign-in through the provider failed. The messages are for the visitor; the detail
/// stays in the log.
#[derive(Debug, thiserror::Error)]
pub enum OidcError {
    /// The provider could not be reached or answered something unusable.
    #[error("the sign-in provider did not answer as expected: {0}")]
    Provider(String),
    /// The callback does not belong to a sign-in this browser started, or came too late.
    #[error("this sign-in link is not valid any more")]
    Expired,
    /// The provider said no (the visitor cancelled, or the client is refused).
    #[error("the sign-in provider refused: {0}")]
    Refused(String),
    /// The ID token failed verification.
    #[error("the sign-in provider's answer could not be verified: {0}")]
    Token(String),
}

/// A sign-in started in this browser, kept in its cookie until the provider sends it back.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pending {
    /// Compared with the callback's `state`.
    pub state: String,
    /// Compared with the ID token's `nonce`.
    pub nonce: String,
    /// The PKCE code verifier, sent with the code.
    pub verifier: String,
    /// Where to go once signed in (already made safe).
    pub return_to: String,
    /// Unix time after which the callback is refused.
    pub expires: i64,
}

impl Pending {
    /// The cookie value: URL-safe base64 of the JSON.
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(serde_json::to_vec(self).unwrap_or_default())
    }

    /// Reads a cookie value; `None` when it is not one of ours.
    pub fn decode(value: &str) -> Option<Self> {
        let bytes = URL_SAFE_NO_PAD.decode(value.trim()).ok()?;
        serde_json::from_slice(&bytes).ok()
    }
}

/// Who the provider says signed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// `sub`: the provider's stable id of the person.
    pub subject: String,
    /// `email`, when the provider shares it.
    pub email: Option<String>,
    /// `email_verified`: whether the provider checked that the person holds the address.
    pub email_verified: bool,
    /// `given_name`.
    pub given_name: Option<String>,
    /// `family_name`.
    pub family_name: Option<String>,
    /// `preferred_username`.
    pub preferred_username: Option<String>,
}

/// The fields of the discovery document we use.
#[derive(Debug, Clone, Deserialize)]
struct Metadata {
    issuer: String,
    authorization_endpoint: String,
    token_endpoint: String,
    jwks_uri: String,
    #[serde(default)]
    token_endpoint_auth_methods_supported: Vec<String>,
    #[serde(default)]
    id_token_signing_alg_values_supported: Vec<String>,
}

/// The token endpoint's answer.
#[derive(Debug, Deserialize)]
struct TokenAnswer {
    id_token: Option<String>,
}

/// The ID token claims read beyond those `jsonwebtoken` checks.
#[derive(Debug, Deserialize)]
struct Claims {
    sub: String,
    #[serde(default)]
    nonce: Option<String>,
    #[serde(default)]
    email: Option<String>,
    #[serde(default, deserialize_with = "lenient_bool")]
    email_verified: bool,
    #[serde(default)]
    given_name: Option<String>,
    #[serde(default)]
    family_name: Option<String>,
    #[serde(default)]
    preferred_username: Option<String>,
}

/// `email_verified` as a boolean, or the string some providers send.
fn lenient_bool<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::Bool(b) => b,
        serde_json::Value::String(s) => s.eq_ignore_ascii_case("true"),
        _ => false,
    })
}

struct Cached {
    metadata: Metadata,
    keys: JwkSet,
    at: Instant,
}

/// The provider client: settings, our callback address, and the cached discovery and keys.
pub struct Oidc {
    settings: OidcSettings,
    redirect_uri: String,
    http: reqwest::Client,
    cache: Mutex<Option<Cached>>,
}

impl std::fmt::Debug for Oidc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Oidc")
            .field("issuer", &self.settings.issuer)
            .finish_non_exhaustive()
    }
}

/// 32 random bytes as URL-safe base64 (43 characters: also a valid PKCE verifier).
fn random_text() -> Result<String, OidcError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| OidcError::Provider(e.to_string()))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// The S256 code challenge of a verifier (RFC 7636 §4.2).
pub fn code_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Equal strings, compared in time independent of where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

fn unix_now() -> i64 {
    store::now().timestamp()
}

/// Signature algorithms accepted for ID tokens: asymmetric ones only, so a token cannot be
/// "signed" with the client secret or not at all.
const ALGORITHMS: [Algorithm; 8] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
];

impl Oidc {
    /// A client for `settings`, called back at `{public_url}/api/accounts/oidc/callback`.
    pub fn new(settings: OidcSettings, public_url: &str) -> Result<Self, OidcError> {
        let _already_installed = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(15))
            .build()
            .map_err(|e| OidcError::Provider(Chain(&e).to_string()))?;
        Ok(Oidc {
            settings,
            redirect_uri: format!("{public_url}/api/accounts/oidc/callback"),
            http,
            cache: Mutex::new(None),
        })
    }

    /// The configured issuer.
    pub fn issuer(&self) -> &str {
        &self.settings.issuer
    }

    /// The provider's name for the "Sign in with …" button.
    pub fn name(&self) -> &str {
        &self.settings.name
    }

    async fn get_json<T: serde::de::DeserializeOwned>(&self, url: &str) -> Result<T, OidcError> {
        let res = self
            .http
            .get(url)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|e| OidcError::Provider(format!("{url}: {}", Chain(&e))))?;
        if !res.status().is_success() {
            return Err(OidcError::Provider(format!("{url}: {}", res.status())));
        }
        let body = res
            .bytes()
            .await
            .map_err(|e| OidcError::Provider(format!("{url}: {}", Chain(&e))))?;
        serde_json::from_slice(&body).map_err(|e| OidcError::Provider(format!("{url}: {e}")))
    }

    /// Discovery and keys, from the cache when fresh (and, with `need_kid`, holding that key).
    async fn provider(&self, need_kid: Option<&str>) -> Result<(Metadata, JwkSet), OidcError> {
        let mut cache = self.cache.lock().await;
        if let Some(c) = cache.as_ref()
            && c.at.elapsed() < CACHE_FOR
            && need_kid.is_none_or(|kid| c.keys.find(kid).is_some())
        {
            return Ok((c.metadata.clone(), c.keys.clone()));
        }
        let issuer = self.settings.issuer.trim_end_matches('/');
        let metadata: Metadata = self
            .get_json(&format!("{issuer}/.well-known/openid-configuration"))
            .await?;
        // Discovery §4.3: the document's issuer is exactly the configured one.
        if metadata.issuer.trim_end_matches('/') != issuer {
            return Err(OidcError::Provider(format!(
                "the discovery document names the issuer {:?}, not {issuer:?}",
                metadata.issuer
            )));
        }
        let keys: JwkSet = self.get_json(&metadata.jwks_uri).await?;
        *cache = Some(Cached {
            metadata: metadata.clone(),
            keys: keys.clone(),
            at: Instant::now(),
        });
        Ok((metadata, keys))
    }

    /// Starts a sign-in: the provider's authorization address to send the browser to, and the
    /// pending sign-in to keep in its cookie.
    pub async fn begin(&self, return_to: String) -> Result<(String, Pending), OidcError> {
        let (metadata, _) = self.provider(None).await?;
        let pending = Pending {
            state: random_text()?,
            nonce: random_text()?,
            verifier: random_text()?,
            return_to,
            expires: unix_now() + PENDING_MINUTES * 60,
        };
        let mut url = url::Url::parse(&metadata.authorization_endpoint)
            .map_err(|e| OidcError::Provider(format!("authorization endpoint: {e}")))?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &self.settings.client_id)
            .append_pair("redirect_uri", &self.redirect_uri)
            .append_pair("scope", "openid email profile")
            .append_pair("state", &pending.state)
            .append_pair("nonce", &pending.nonce)
            .append_pair("code_challenge", &code_challenge(&pending.verifier))
            .append_pair("code_challenge_method", "S256");
        Ok((url.into(), pending))
    }

    /// Completes a sign-in from the provider's callback: checks `state` against the pending
    /// sign-in, trades the code (with the PKCE verifier) for an ID token, verifies it and
    /// returns who signed in.
    pub async fn finish(
        &self,
        pending: Option<&Pending>,
        state: &str,
        code: &str,
    ) -> Result<Identity, OidcError> {
        let pending = pending.ok_or(OidcError::Expired)?;
        if !same(&pending.state, state) || pending.expires < unix_now() || code.is_empty() {
            return Err(OidcError::Expired);
        }
        let (metadata, _) = self.provider(None).await?;
        let id_token = self.exchange(&metadata, code, &pending.verifier).await?;
        self.verify(&id_token, &pending.nonce).await
    }

    /// The token request (RFC 6749 §4.1.3) with the PKCE verifier; the client authenticates
    /// with HTTP Basic unless the provider only takes the secret in the form.
    async fn exchange(
        &self,
        metadata: &Metadata,
        code: &str,
        verifier: &str,
    ) -> Result<String, OidcError> {
        let secret = self.settings.client_secret.as_ref().map(|s| s.0.as_str());
        let in_form = secret.is_some()
            && !metadata.token_endpoint_auth_methods_supported.is_empty()
            && !metadata
                .token_endpoint_auth_methods_supported
                .iter()
                .any(|m| m == "client_secret_basic")
            && metadata
                .token_endpoint_auth_methods_supported
                .iter()
                .any(|m| m == "client_secret_post");
        // Built in a block: the serializer is not `Send`, so it must not live across an await.
        let body = {
            let mut form = url::form_urlencoded::Serializer::new(String::new());
            form.append_pair("grant_type", "authorization_code")
                .append_pair("code", code)
                .append_pair("redirect_uri", &self.redirect_uri)
                .append_pair("code_verifier", verifier)
                .append_pair("client_id", &self.settings.client_id);
            if in_form && let Some(secret) = secret {
                form.append_pair("client_secret", secret);
            }
            form.finish()
        };
        let mut req = self
            .http
            .post(&metadata.token_endpoint)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .body(body);
        if !in_form && let Some(secret) = secret {
            // RFC 6749 §2.3.1: both parts form-encoded before Basic.
            let enc =
                |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
            let basic = base64::engine::general_purpose::STANDARD.encode(format!(
                "{}:{}",
                enc(&self.settings.client_id),
                enc(secret)
            ));
            req = req.header("authorization", format!("Basic {basic}"));
        }
        let res = req
            .send()
            .await
            .map_err(|e| OidcError::Provider(format!("token endpoint: {}", Chain(&e))))?;
        let status = res.status();
        let body = res
            .bytes()
            .await
            .map_err(|e| OidcError::Provider(format!("token endpoint: {}", Chain(&e))))?;
        if !status.is_success() {
            return Err(OidcError::Refused(format!(
                "token endpoint answered {status}: {}",
                String::from_utf8_lossy(&body)
                    .chars()
                    .take(200)
                    .collect::<String>()
            )));
        }
        let answer: TokenAnswer = serde_json::from_slice(&body)
            .map_err(|e| OidcError::Provider(format!("token endpoint: {e}")))?;
        answer
            .id_token
            .ok_or_else(|| OidcError::Provider("the token answer has no id_token".into()))
    }

    /// Verifies an ID token (Core §3.1.3.7): a key of the provider's JWKS, an accepted
    /// algorithm, `iss`, `aud`, `exp` (a minute's leeway for clocks) and our `nonce`.
    pub async fn verify(&self, token: &str, nonce: &str) -> Result<Identity, OidcError> {
        let header =
            jsonwebtoken::decode_header(token).map_err(|e| OidcError::Token(e.to_string()))?;
        if !ALGORITHMS.contains(&header.alg) {
            return Err(OidcError::Token(format!(
                "the algorithm {:?} is not accepted",
                header.alg
            )));
        }
        let (metadata, keys) = self.provider(header.kid.as_deref()).await?;
        if !metadata.id_token_signing_alg_values_supported.is_empty()
            && !metadata
                .id_token_signing_alg_values_supported
                .iter()
                .any(|a| serde_json::to_value(header.alg).is_ok_and(|v| v == a.as_str()))
        {
            return Err(OidcError::Token(format!(
                "the provider does not sign with {:?}",
                header.alg
            )));
        }
        let jwk = match header.kid.as_deref() {
            Some(kid) => keys.find(kid),
            // Without a key id, the provider must have exactly one key.
            None if keys.keys.len() == 1 => keys.keys.first(),
            None => None,
        }
        .ok_or_else(|| OidcError::Token("signed with a key the provider does not list".into()))?;
        let key = DecodingKey::from_jwk(jwk).map_err(|e| OidcError::Token(e.to_string()))?;
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[metadata.issuer.as_str()]);
        validation.set_audience(&[self.settings.client_id.as_str()]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let data = jsonwebtoken::decode::<Claims>(token, &key, &validation)
            .map_err(|e| OidcError::Token(e.to_string()))?;
        let claims = data.claims;
        if !claims.nonce.as_deref().is_some_and(|n| same(n, nonce)) {
            return Err(OidcError::Token(
                "the nonce is not the one this sign-in sent".into(),
            ));
        }
        if claims.sub.trim().is_empty() {
            return Err(OidcError::Token("no subject".into()));
        }
        let text = |s: Option<String>| s.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
        Ok(Identity {
            subject: claims.sub,
            email: text(claims.email),
            email_verified: claims.email_verified,
            given_name: text(claims.given_name),
            family_name: text(claims.family_name),
            preferred_username: text(claims.preferred_username),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_challenge_is_rfc_7636s_example() {
        // RFC 7636 Appendix B.
        assert_eq!(
            code_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn a_pending_sign_in_round_trips_through_its_cookie() {
        let p = Pending {
            state: "s".into(),
            nonce: "n".into(),
            verifier: "v".into(),
            return_to: "/pricing".into(),
            expires: 42,
        };
        let back = Pending::decode(&p.encode()).expect("decodes");
        assert_eq!(
            (back.state, back.return_to, back.expires),
            ("s".into(), "/pricing".into(), 42)
        );
        assert!(Pending::decode("not base64 json").is_none());
    }

    #[test]
    fn strings_compare_exactly() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "ab"));
    }
}
