//! sitemap.xml: a `<urlset>` or a `<sitemapindex>` (sitemaps.org protocol).

use serde::Serialize;

/// What a sitemap document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SitemapKind {
    /// A list of page URLs.
    UrlSet,
    /// A list of further sitemaps.
    Index,
}

/// A parsed sitemap document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SitemapDoc {
    /// Url set or index.
    pub kind: SitemapKind,
    /// `<loc>` values: pages for a url set, sitemaps for an index.
    pub locs: Vec<String>,
    /// Entries whose `<loc>` is missing or not an absolute http(s) URL.
    pub invalid_entries: usize,
}

/// Why a sitemap could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SitemapError {
    /// Not well-formed XML.
    #[error("not valid XML: {0}")]
    Xml(String),
    /// Well-formed but not a sitemap.
    #[error("the root element is <{0}>, not <urlset> or <sitemapindex>")]
    WrongRoot(String),
}

/// Parse a sitemap document.
pub fn parse(text: &str) -> Result<SitemapDoc, SitemapError> {
    let doc = roxmltree::Document::parse(text.trim_start_matches('\u{feff}'))
        .map_err(|e| SitemapError::Xml(e.to_string()))?;
    let root = doc.root_element();
    let (kind, entry) = match root.tag_name().name() {
        "urlset" => (SitemapKind::UrlSet, "url"),
        "sitemapindex" => (SitemapKind::Index, "sitemap"),
        other => return Err(SitemapError::WrongRoot(other.to_owned())),
    };
    let mut locs = Vec::new();
    let mut invalid_entries = 0;
    for e in root
        .children()
        .filter(|n| n.is_element() && n.tag_name().name() == entry)
    {
        let loc = e
            .children()
            .find(|n| n.is_element() && n.tag_name().name() == "loc")
            .and_then(|n| n.text())
            .map(str::trim)
            .unwrap_or("");
        match url::Url::parse(loc) {
            Ok(u) if u.scheme() == "http" || u.scheme() == "https" => locs.push(u.to_string()),
            _ => invalid_entries += 1,
        }
    }
    Ok(SitemapDoc {
        kind,
        locs,
        invalid_entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_sets_and_indexes() {
        let s = parse(r#"<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.test/</loc></url><url><loc>/rel</loc></url></urlset>"#)
            .expect("parses");
        assert_eq!(s.kind, SitemapKind::UrlSet);
        assert_eq!(s.locs, vec!["https://a.test/"]);
        assert_eq!(s.invalid_entries, 1);
        let i = parse(r#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.test/s1.xml</loc></sitemap></sitemapindex>"#)
            .expect("parses");
        assert_eq!(i.kind, SitemapKind::Index);
        assert!(matches!(
            parse("<html></html>"),
            Err(SitemapError::WrongRoot(_))
        ));
        assert!(matches!(parse("<urlset>"), Err(SitemapError::Xml(_))));
    }
}
