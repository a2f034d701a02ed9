//! The optional language-model advisor: any OpenAI-compatible chat-completions endpoint.
//!
//! Configured by an [`LlmConfig`]: the API base such as `https://api.openai.com/v1` (or the
//! full `…/chat/completions` address), the model, and an optional bearer token; the `sitelens`
//! binary fills it from `SITELENS_LLM_URL`, `SITELENS_LLM_MODEL` and `SITELENS_LLM_API_KEY`. The model is given the page's facts (address, title,
//! description, headings, word count, Open Graph tags, the start of the text) and must answer
//! one JSON object in the shape of the report contract: `metaTags`
//! ([`MetaTagSuggestions`]) and `content` ([`ContentOptimizations`]).
//!
//! The answer is parsed strictly (unknown top-level fields are refused) and validated: the
//! suggested title and description must be plausible lengths, heading suggestions may only name
//! headings the page has, lists are capped, and the `current` values are always the page's own,
//! never the model's. Any failure (timeout, HTTP error, malformed or invalid JSON) falls back
//! to [`RuleBasedAdvisor`], so advice never fails.

use std::time::Duration;

use domain::report::{ContentOptimizations, MetaTagSuggestions};
use futures::future::BoxFuture;
use serde::Deserialize;
use serde_json::json;

use crate::advisor::{Advice, Advisor, PageSummary, RuleBasedAdvisor, advise_by_rules};
use crate::checks::seo::{description_range, title_range};

/// Where and how to ask the model.
#[derive(Clone)]
pub struct LlmConfig {
    /// The chat-completions address.
    pub endpoint: String,
    /// Model name.
    pub model: String,
    /// Bearer token, if the endpoint needs one.
    pub api_key: Option<String>,
    /// Time limit of one answer; past it the rule-based advice is used.
    pub timeout: Duration,
}

impl std::fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmConfig")
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl LlmConfig {
    /// A configuration for `url` (API base or full chat-completions address) and `model`.
    pub fn new(url: &str, model: &str, api_key: Option<String>) -> Self {
        let url = url.trim().trim_end_matches('/');
        let endpoint = if url.ends_with("/chat/completions") {
            url.to_owned()
        } else {
            format!("{url}/chat/completions")
        };
        Self {
            endpoint,
            model: model.to_owned(),
            api_key: api_key.filter(|k| !k.trim().is_empty()),
            timeout: Duration::from_secs(20),
        }
    }
}

/// Why the model's advice was not used.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// The request failed or timed out.
    #[error("request failed: {0}")]
    Request(String),
    /// The endpoint answered with an error status.
    #[error("the endpoint answered {0}")]
    Status(u16),
    /// The answer is not the expected JSON.
    #[error("malformed answer: {0}")]
    Malformed(String),
    /// The JSON does not hold plausible advice.
    #[error("invalid advice: {0}")]
    Invalid(String),
}

/// The JSON object the model must answer.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct WireAdvice {
    meta_tags: MetaTagSuggestions,
    content: ContentOptimizations,
}

/// The one JSON object the model must answer with.
const ANSWER_SHAPE: &str = r#"{"metaTags":{"title":{"current":string,"analysis":string,"suggested":string},"description":{"current":string,"analysis":string,"suggested":string},"ogTags":{"analysis":string,"suggestions":{"og:title":string,"og:description":string,"og:type":string}}},"content":{"content":{"analysis":string,"suggestions":[string]},"headings":{"analysis":string,"suggestions":{"<existing heading text>":"<better heading text>"}}}}"#;

/// The instructions sent with every request; the length rules are `domain`'s good ranges
/// (docs/PRODUCT.md §9.7).
fn system_prompt() -> String {
    let (tlo, thi) = title_range();
    let (dlo, dhi) = description_range();
    format!(
        "You are an SEO and web content editor. You receive facts about one web page as JSON and answer with ONE JSON object and nothing else, exactly in this shape:\n{ANSWER_SHAPE}\nRules: the suggested title has {tlo}-{thi} characters; the suggested description has {dlo}-{dhi} characters; write in the page's language; base every statement on the facts given; heading suggestions may only use headings present in the facts as keys; at most 6 content suggestions."
    )
}

/// Advice from an OpenAI-compatible chat model, falling back to rules.
#[derive(Debug, Clone)]
pub struct LlmAdvisor {
    config: LlmConfig,
    client: reqwest::Client,
}

impl LlmAdvisor {
    /// An advisor for `config`.
    pub fn new(config: LlmConfig) -> Result<Self, LlmError> {
        // Same TLS provider as the fetcher (docs/TOOLCHAIN.md §1.2: one provider per process).
        let _already_installed = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .user_agent(crate::config::USER_AGENT)
            .build()
            .map_err(|e| LlmError::Request(e.to_string()))?;
        Ok(Self { config, client })
    }

    /// The language-model advisor for `config`, or the rule-based advisor without one (or when
    /// the model's client cannot be built).
    pub fn or_rules(config: Option<LlmConfig>) -> std::sync::Arc<dyn Advisor> {
        match config.map(Self::new) {
            Some(Ok(a)) => std::sync::Arc::new(a),
            Some(Err(e)) => {
                tracing::warn!(error = %e, "language-model advisor unavailable; using rules");
                std::sync::Arc::new(RuleBasedAdvisor)
            }
            None => std::sync::Arc::new(RuleBasedAdvisor),
        }
    }

    /// The request body sent for `page`.
    pub fn request_body(&self, page: &PageSummary) -> serde_json::Value {
        let facts = json!({
            "url": page.url,
            "siteName": page.site_name,
            "title": page.title,
            "description": page.description,
            "headings": page.headings.iter().map(|(l, t)| json!({"level": l, "text": t})).collect::<Vec<_>>(),
            "wordCount": page.word_count,
            "openGraph": page.open_graph,
            "canonical": page.canonical,
            "text": page.text.chars().take(4000).collect::<String>(),
        });
        json!({
            "model": self.config.model,
            "temperature": 0.2,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": system_prompt()},
                {"role": "user", "content": facts.to_string()},
            ],
        })
    }

    /// Ask the model; any failure is an error (see [`Advisor::advise`] for the fallback).
    pub async fn try_advise(&self, page: &PageSummary) -> Result<Advice, LlmError> {
        let body = serde_json::to_vec(&self.request_body(page))
            .map_err(|e| LlmError::Malformed(e.to_string()))?;
        let mut req = self
            .client
            .post(&self.config.endpoint)
            .header("content-type", "application/json")
            .body(body);
        if let Some(key) = &self.config.api_key {
            req = req.bearer_auth(key);
        }
        let call = async {
            let resp = req
                .send()
                .await
                .map_err(|e| LlmError::Request(e.to_string()))?;
            let status = resp.status().as_u16();
            if !(200..300).contains(&status) {
                return Err(LlmError::Status(status));
            }
            resp.bytes()
                .await
                .map_err(|e| LlmError::Request(e.to_string()))
        };
        let bytes = tokio::time::timeout(self.config.timeout, call)
            .await
            .map_err(|_| {
                LlmError::Request(format!("no answer within {:?}", self.config.timeout))
            })??;
        let envelope: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| LlmError::Malformed(e.to_string()))?;
        let content = envelope
            .pointer("/choices/0/message/content")
            .and_then(|c| c.as_str())
            .ok_or_else(|| LlmError::Malformed("no choices[0].message.content".to_owned()))?;
        parse_advice(content, page)
    }
}

/// Parse and validate the model's JSON for `page`.
pub fn parse_advice(content: &str, page: &PageSummary) -> Result<Advice, LlmError> {
    // Some models wrap JSON in a Markdown fence despite the instructions.
    let trimmed = content.trim();
    let json_text = trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .map(|s| s.trim_end().trim_end_matches("```"))
        .unwrap_or(trimmed);
    let wire: WireAdvice =
        serde_json::from_str(json_text).map_err(|e| LlmError::Malformed(e.to_string()))?;
    validate(wire, page)
}

fn check_len(what: &str, text: &str, min: usize, max: usize) -> Result<(), LlmError> {
    let n = text.trim().chars().count();
    if n < min || n > max {
        return Err(LlmError::Invalid(format!(
            "{what} has {n} characters, outside {min}-{max}"
        )));
    }
    Ok(())
}

fn validate(mut w: WireAdvice, page: &PageSummary) -> Result<Advice, LlmError> {
    let m = &mut w.meta_tags;
    // Loose bounds: the prompt asks for the good ranges; a little outside is still useful,
    // an empty or essay-length answer is not.
    check_len("the suggested title", &m.title.suggested, 10, 80)?;
    check_len(
        "the suggested description",
        &m.description.suggested,
        50,
        200,
    )?;
    check_len("the title analysis", &m.title.analysis, 1, 600)?;
    check_len("the description analysis", &m.description.analysis, 1, 600)?;
    m.title.current = page.title.clone();
    m.description.current = page.description.clone();
    m.og_tags
        .suggestions
        .retain(|k, v| k.starts_with("og:") && !v.trim().is_empty() && v.chars().count() <= 300);
    let c = &mut w.content;
    c.content.suggestions.retain(|s| !s.trim().is_empty());
    c.content.suggestions.truncate(6);
    if c.content
        .suggestions
        .iter()
        .any(|s| s.chars().count() > 600)
    {
        return Err(LlmError::Invalid(
            "a content suggestion is too long".to_owned(),
        ));
    }
    // Heading suggestions may only rename headings the page has.
    c.headings.suggestions.retain(|current, suggested| {
        !suggested.trim().is_empty()
            && page
                .headings
                .iter()
                .any(|(_, t)| t.trim() == current.trim())
    });
    Ok(Advice {
        meta_tags: w.meta_tags,
        content: w.content,
    })
}

impl Advisor for LlmAdvisor {
    fn advise<'a>(&'a self, page: &'a PageSummary) -> BoxFuture<'a, Advice> {
        Box::pin(async move {
            match self.try_advise(page).await {
                Ok(advice) => advice,
                Err(e) => {
                    tracing::warn!(error = %e, url = %page.url, "language-model advice failed; using rules");
                    advise_by_rules(page)
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_accepts_a_base_or_the_full_address() {
        assert_eq!(
            LlmConfig::new("http://127.0.0.1:9/v1/", "m", None).endpoint,
            "http://127.0.0.1:9/v1/chat/completions"
        );
        assert_eq!(
            LlmConfig::new("http://h/x/chat/completions", "m", Some(" ".into())).endpoint,
            "http://h/x/chat/completions"
        );
        assert!(
            LlmConfig::new("http://h", "m", Some(" ".into()))
                .api_key
                .is_none()
        );
    }
}
