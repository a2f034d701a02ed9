//! The language-model advisor against a local server that speaks the chat-completions API.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use analyzer::advisor::{Advisor, PageSummary, advise_by_rules};
use analyzer::llm::{LlmAdvisor, LlmConfig};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// How the fake endpoint answers.
#[derive(Clone)]
enum Behaviour {
    /// 200 with this assistant message content.
    Content(String),
    /// This status and body.
    Status(u16, String),
    /// Read the request and never answer.
    Silent,
}

struct ChatServer {
    base: String,
    requests: Arc<Mutex<Vec<(String, Value)>>>,
}

/// Bind 127.0.0.1:0 first, then serve: the address is ready before the test goes on.
async fn chat_server(behaviour: Behaviour) -> ChatServer {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}/v1", listener.local_addr().expect("addr"));
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = requests.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let behaviour = behaviour.clone();
            let seen = seen.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 8192];
                let (head_end, length) = loop {
                    let n = stream.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&buf[..pos]).to_ascii_lowercase();
                        let length = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .and_then(|v| v.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        break (pos + 4, length);
                    }
                };
                while buf.len() < head_end + length {
                    let n = stream.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                }
                let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
                let body: Value = serde_json::from_slice(&buf[head_end..head_end + length])
                    .unwrap_or(Value::Null);
                if let Ok(mut s) = seen.lock() {
                    s.push((head, body));
                }
                let (status, text) = match behaviour {
                    Behaviour::Content(c) => (
                        200,
                        json!({
                            "id": "chatcmpl-test",
                            "object": "chat.completion",
                            "choices": [{"index": 0, "message": {"role": "assistant", "content": c}, "finish_reason": "stop"}],
                        })
                        .to_string(),
                    ),
                    Behaviour::Status(s, b) => (s, b),
                    Behaviour::Silent => {
                        // Hold the connection open until the client gives up.
                        let _ = stream.read(&mut chunk).await;
                        return;
                    }
                };
                let response = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                    text.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
            });
        }
    });
    ChatServer { base, requests }
}

fn page() -> PageSummary {
    PageSummary {
        url: "https://bakery.example/".into(),
        site_name: "Bakery".into(),
        title: "Home".into(),
        description: String::new(),
        headings: vec![(1, "Welcome".into()), (2, "Our bread".into())],
        text: "Fresh sourdough bread baked every morning in Lyon. Order online and collect in the shop. Our bakers use organic flour and long fermentation.".into(),
        word_count: 24,
        open_graph: BTreeMap::new(),
        first_image: None,
        canonical: None,
    }
}

fn good_answer() -> String {
    json!({
        "metaTags": {
            "title": {"current": "ignored", "analysis": "\"Home\" says nothing about the bakery.", "suggested": "Fresh Sourdough Bread Baked Daily in Lyon | Bakery"},
            "description": {"current": "ignored", "analysis": "The page has no meta description.", "suggested": "Organic sourdough baked every morning in Lyon with long fermentation. Order online and collect your bread fresh from our shop."},
            "ogTags": {"analysis": "No Open Graph tags.", "suggestions": {"og:title": "Fresh Sourdough Bread in Lyon", "og:type": "website", "twitter:card": "dropped"}}
        },
        "content": {
            "content": {"analysis": "Thin page: 24 words.", "suggestions": ["Describe each bread with ingredients and price.", "Add opening hours and the shop address."]},
            "headings": {"analysis": "Generic H1.", "suggestions": {"Welcome": "Organic Sourdough Bakery in Lyon", "Not a heading": "dropped"}}
        }
    })
    .to_string()
}

fn advisor(server: &ChatServer, timeout: Duration) -> LlmAdvisor {
    let mut config = LlmConfig::new(&server.base, "test-model", Some("sk-test".into()));
    config.timeout = timeout;
    LlmAdvisor::new(config).expect("advisor")
}

#[tokio::test]
async fn valid_model_advice_is_used_and_checked_against_the_page() {
    let server = chat_server(Behaviour::Content(format!(
        "```json\n{}\n```",
        good_answer()
    )))
    .await;
    let a = advisor(&server, Duration::from_secs(10));
    let advice = a.try_advise(&page()).await.expect("advice");
    assert_eq!(
        advice.meta_tags.title.suggested,
        "Fresh Sourdough Bread Baked Daily in Lyon | Bakery"
    );
    // `current` is the page's own, never the model's.
    assert_eq!(advice.meta_tags.title.current, "Home");
    assert_eq!(advice.meta_tags.description.current, "");
    assert!(
        !advice
            .meta_tags
            .og_tags
            .suggestions
            .contains_key("twitter:card")
    );
    assert_eq!(advice.content.content.suggestions.len(), 2);
    assert_eq!(
        advice
            .content
            .headings
            .suggestions
            .keys()
            .collect::<Vec<_>>(),
        ["Welcome"],
        "headings the page does not have are dropped"
    );

    let requests = server
        .requests
        .lock()
        .map(|r| r.clone())
        .unwrap_or_default();
    let (head, body) = &requests[0];
    assert!(head.starts_with("POST /v1/chat/completions "), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("authorization: bearer sk-test")
    );
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["response_format"]["type"], "json_object");
    let facts: Value =
        serde_json::from_str(body["messages"][1]["content"].as_str().unwrap_or("")).expect("facts");
    assert_eq!(facts["title"], "Home");
    assert_eq!(facts["headings"][0]["text"], "Welcome");
}

#[tokio::test]
async fn every_failure_falls_back_to_the_rule_based_advice() {
    let rules = advise_by_rules(&page());
    let cases = [
        (
            "not json",
            Behaviour::Content("Here are my thoughts: make it better.".into()),
        ),
        (
            "wrong shape",
            Behaviour::Content(json!({"title": "x"}).to_string()),
        ),
        (
            "extra top-level field",
            Behaviour::Content({
                let mut v: Value = serde_json::from_str(&good_answer()).unwrap_or(Value::Null);
                v["actionItems"] = json!([]);
                v.to_string()
            }),
        ),
        (
            "implausible title",
            Behaviour::Content(
                good_answer().replace("Fresh Sourdough Bread Baked Daily in Lyon | Bakery", ""),
            ),
        ),
        (
            "server error",
            Behaviour::Status(500, "{\"error\":\"overloaded\"}".into()),
        ),
        ("timeout", Behaviour::Silent),
    ];
    for (name, behaviour) in cases {
        let server = chat_server(behaviour).await;
        let a = advisor(&server, Duration::from_millis(500));
        assert!(
            a.try_advise(&page()).await.is_err(),
            "{name}: should be refused"
        );
        let advice = a.advise(&page()).await;
        assert_eq!(advice, rules, "{name}: should fall back to rules");
    }
}
