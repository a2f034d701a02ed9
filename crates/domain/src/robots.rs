//! robots.txt: parsing and matching as RFC 9309 says, plus the validation Lighthouse's
//! `robots-txt` audit does (unknown directives, rules before any user-agent, bad patterns,
//! relative sitemap URLs).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One allow or disallow rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// True for `Allow`.
    pub allow: bool,
    /// The path pattern (`*` wildcards, `$` end anchor).
    pub pattern: String,
}

/// A group of rules for one or more user agents.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Group {
    /// Product tokens, lower-case.
    pub agents: Vec<String>,
    /// Rules in file order.
    pub rules: Vec<Rule>,
}

/// A problem found while parsing, with its line number (1-based).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RobotsError {
    /// Line number.
    pub line: usize,
    /// The line as written.
    pub content: String,
    /// What is wrong.
    pub message: String,
}

/// A parsed robots.txt.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Robots {
    /// Groups in file order.
    pub groups: Vec<Group>,
    /// Absolute `Sitemap:` URLs.
    pub sitemaps: Vec<String>,
    /// Problems found.
    pub errors: Vec<RobotsError>,
}

const KNOWN: &[&str] = &[
    "user-agent",
    "disallow",
    "allow",
    "sitemap",
    "crawl-delay",
    "clean-param",
    "host",
    "request-rate",
    "visit-time",
    "noindex",
];

impl Robots {
    /// Parse robots.txt text.
    pub fn parse(text: &str) -> Self {
        let mut robots = Robots::default();
        let mut current: Option<Group> = None;
        // Consecutive user-agent lines share one group; a rule ends that run.
        let mut in_agents = false;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                robots.errors.push(RobotsError {
                    line: line_no,
                    content: raw.to_owned(),
                    message: "syntax not understood (no colon)".to_owned(),
                });
                continue;
            };
            let key = key.trim().to_ascii_lowercase();
            let value = value.trim().to_owned();
            if !KNOWN.contains(&key.as_str()) {
                robots.errors.push(RobotsError {
                    line: line_no,
                    content: raw.to_owned(),
                    message: format!("unknown directive {key:?}"),
                });
                continue;
            }
            match key.as_str() {
                "user-agent" => {
                    if !in_agents {
                        if let Some(g) = current.take() {
                            robots.groups.push(g);
                        }
                        current = Some(Group::default());
                    }
                    in_agents = true;
                    if let Some(g) = current.as_mut() {
                        g.agents.push(value.to_ascii_lowercase());
                    }
                }
                "allow" | "disallow" => {
                    in_agents = false;
                    let Some(g) = current.as_mut() else {
                        robots.errors.push(RobotsError {
                            line: line_no,
                            content: raw.to_owned(),
                            message: "no user-agent specified before this rule".to_owned(),
                        });
                        continue;
                    };
                    if !(value.is_empty() || value.starts_with('/') || value.starts_with('*')) {
                        robots.errors.push(RobotsError {
                            line: line_no,
                            content: raw.to_owned(),
                            message: "pattern should either be empty, start with \"/\" or \"*\""
                                .to_owned(),
                        });
                        continue;
                    }
                    if value.find('$').is_some_and(|p| p != value.len() - 1) {
                        robots.errors.push(RobotsError {
                            line: line_no,
                            content: raw.to_owned(),
                            message: "\"$\" should only be used at the end of the pattern"
                                .to_owned(),
                        });
                        continue;
                    }
                    g.rules.push(Rule {
                        allow: key == "allow",
                        pattern: percent_encoded(&value),
                    });
                }
                "sitemap" => match url::Url::parse(&value) {
                    Ok(u) if u.scheme() == "http" || u.scheme() == "https" => {
                        robots.sitemaps.push(u.to_string())
                    }
                    _ => robots.errors.push(RobotsError {
                        line: line_no,
                        content: raw.to_owned(),
                        message: "invalid sitemap URL (it must be absolute)".to_owned(),
                    }),
                },
                _ => {
                    in_agents = false;
                }
            }
        }
        if let Some(g) = current.take() {
            robots.groups.push(g);
        }
        robots
    }

    /// The group that applies to `token` (RFC 9309 §2.2.1: the most specific matching product
    /// token, else `*`). Several groups naming the same agent are merged.
    fn rules_for(&self, token: &str) -> Vec<&Rule> {
        let token = token.to_ascii_lowercase();
        let named: Vec<&Rule> = self
            .groups
            .iter()
            .filter(|g| g.agents.contains(&token))
            .flat_map(|g| g.rules.iter())
            .collect();
        if !named.is_empty() || self.groups.iter().any(|g| g.agents.contains(&token)) {
            return named;
        }
        self.groups
            .iter()
            .filter(|g| g.agents.iter().any(|a| a == "*"))
            .flat_map(|g| g.rules.iter())
            .collect()
    }

    /// Whether `token` may fetch `path_and_query` (RFC 9309 §2.2.2: the longest matching rule
    /// wins; on a tie, allow wins).
    pub fn is_allowed(&self, token: &str, path_and_query: &str) -> bool {
        if path_and_query == "/robots.txt" {
            return true;
        }
        let mut best: Option<(usize, bool)> = None;
        for rule in self.rules_for(token) {
            if rule.pattern.is_empty() {
                continue;
            }
            if pattern_matches(&rule.pattern, path_and_query) {
                let len = rule.pattern.len();
                best = match best {
                    Some((l, a)) if l > len || (l == len && a) => Some((l, a)),
                    _ => Some((len, rule.allow)),
                };
            }
        }
        best.is_none_or(|(_, allow)| allow)
    }

    /// The rule blocking `path_and_query` for `token`, if any (for the report).
    pub fn blocking_rule(&self, token: &str, path: &str) -> Option<String> {
        if self.is_allowed(token, path) {
            return None;
        }
        self.rules_for(token)
            .into_iter()
            .filter(|r| !r.allow && !r.pattern.is_empty() && pattern_matches(&r.pattern, path))
            .max_by_key(|r| r.pattern.len())
            .map(|r| format!("Disallow: {}", r.pattern))
    }
}

/// Whether one crawler may fetch one path under a robots.txt, and why: what the free robots.txt
/// tester shows, decided by the same [`Robots::is_allowed`] the crawler obeys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RobotsVerdict {
    /// Whether the path may be fetched.
    pub allowed: bool,
    /// The rule that decides (`Allow: …` or `Disallow: …`), `None` when no rule matches.
    pub rule: Option<String>,
    /// Problems found in the file.
    pub errors: Vec<RobotsError>,
}

impl Robots {
    /// The rule that decides for `token` and `path_and_query`: the longest matching pattern,
    /// `Allow` on a tie (what [`Robots::is_allowed`] applies).
    pub fn deciding_rule(&self, token: &str, path_and_query: &str) -> Option<String> {
        let allowed = self.is_allowed(token, path_and_query);
        if path_and_query == "/robots.txt" {
            return None;
        }
        self.rules_for(token)
            .into_iter()
            .filter(|r| {
                r.allow == allowed
                    && !r.pattern.is_empty()
                    && pattern_matches(&r.pattern, path_and_query)
            })
            .max_by_key(|r| r.pattern.len())
            .map(|r| {
                format!(
                    "{}: {}",
                    if r.allow { "Allow" } else { "Disallow" },
                    r.pattern
                )
            })
    }
}

/// The robots.txt tester: parses `text` and judges `path` (a path with its query, or a full
/// address whose path is used) for the crawler `token`.
pub fn check(text: &str, token: &str, path: &str) -> RobotsVerdict {
    let robots = Robots::parse(text);
    let path = match url::Url::parse(path) {
        Ok(u) if u.has_host() => match u.query() {
            Some(q) => format!("{}?{q}", u.path()),
            None => u.path().to_owned(),
        },
        _ => url::Url::parse("http://robots.invalid")
            .and_then(|base| base.join(path.trim()))
            .map(|u| match u.query() {
                Some(q) => format!("{}?{q}", u.path()),
                None => u.path().to_owned(),
            })
            .unwrap_or_else(|_| path.to_owned()),
    };
    let token = token.trim().to_ascii_lowercase();
    let token = if token.is_empty() {
        "*".to_owned()
    } else {
        token
    };
    RobotsVerdict {
        allowed: robots.is_allowed(&token, &path),
        rule: robots.deciding_rule(&token, &path),
        errors: robots.errors,
    }
}

/// A pattern as the paths it is compared with are written (RFC 9309 §2.2.2): characters
/// outside ASCII percent-encoded as UTF-8, escapes in upper case, as `url` writes paths. A rule
/// such as `Disallow: /книги` otherwise never matched `/%D0%BA%D0%BD%D0%B8%D0%B3%D0%B8`.
fn percent_encoded(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            out.push('%');
            // The two hex digits of an escape, upper-cased (`%d0` and `%D0` are one octet).
            for _ in 0..2 {
                match chars.peek() {
                    Some(h) if h.is_ascii_hexdigit() => {
                        out.push(h.to_ascii_uppercase());
                        chars.next();
                    }
                    _ => break,
                }
            }
        } else if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// Match a robots.txt pattern: `*` is any sequence, a final `$` anchors the end; otherwise the
/// pattern is a prefix.
pub fn pattern_matches(pattern: &str, path: &str) -> bool {
    let (pat, anchored) = match pattern.strip_suffix('$') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let parts: Vec<&str> = pat.split('*').collect();
    let mut pos = 0usize;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            if !path.starts_with(part) {
                return false;
            }
            pos = part.len();
            continue;
        }
        if i == parts.len() - 1 && anchored {
            return path.len() >= pos + part.len() && path.ends_with(part);
        }
        match path[pos..].find(part) {
            Some(found) => pos += found + part.len(),
            None => return false,
        }
    }
    !anchored || pos == path.len() || (parts.len() > 1 && parts.last() == Some(&""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_match_wins_and_allow_breaks_ties() {
        let r = Robots::parse(
            "User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\n\n\
             User-agent: sitelens\nUser-agent: other\nDisallow: /no-sitelens\n",
        );
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert!(!r.is_allowed("googlebot", "/private/x"));
        assert!(r.is_allowed("googlebot", "/private/open/x"));
        assert!(!r.is_allowed("googlebot", "/a/b.pdf"));
        assert!(r.is_allowed("googlebot", "/a/b.pdf?x=1"));
        // Sitelens has its own group, so the * group does not apply to it.
        assert!(r.is_allowed("sitelens", "/private/x"));
        assert!(!r.is_allowed("sitelens", "/no-sitelens"));
    }

    #[test]
    fn errors_are_reported_with_lines() {
        let r = Robots::parse(
            "Disallow: /x\nUser-agent: *\nDisalow: /y\nAllow: foo\nSitemap: /s.xml\nnonsense\n",
        );
        let lines: Vec<usize> = r.errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![1, 3, 4, 5, 6]);
    }

    #[test]
    fn non_ascii_rules_match_percent_encoded_paths() {
        let r = Robots::parse(
            "User-agent: *\nDisallow: /книги\nDisallow: /caf%c3%a9$\nAllow: /книги/открыто\n",
        );
        let path = |p: &str| {
            url::Url::parse("https://example.com")
                .and_then(|u| u.join(p))
                .map(|u| u.path().to_owned())
                .expect("url")
        };
        assert!(!r.is_allowed("sitelens", &path("/книги?автор=Пушкин")));
        assert!(!r.is_allowed("sitelens", &path("/книги")));
        assert!(r.is_allowed("sitelens", &path("/книги/открыто")));
        assert!(!r.is_allowed("sitelens", &path("/café")));
        assert!(r.is_allowed("sitelens", &path("/кни")));
        assert_eq!(
            r.blocking_rule("sitelens", &path("/книги")).as_deref(),
            Some("Disallow: /%D0%BA%D0%BD%D0%B8%D0%B3%D0%B8")
        );
    }

    #[test]
    fn patterns() {
        assert!(pattern_matches("/", "/anything"));
        assert!(pattern_matches("/*/b", "/a/b/c"));
        assert!(pattern_matches("/a$", "/a"));
        assert!(!pattern_matches("/a$", "/ab"));
        assert!(pattern_matches("*", "/x"));
    }
}
