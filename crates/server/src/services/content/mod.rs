//! The public site's content (docs/PRODUCT.md §2.1: blog, knowledge base, resources, the
//! enterprise, white-label, demo and test-analysis pages): markdown files with front matter
//! under `content/` at the repository root, embedded in the binary by `build.rs`, rendered here
//! into page bodies with their heads and structured data (docs/PRODUCT.md §2.11), listed in
//! the sitemap, and the blog as an Atom feed. No HTTP types: `services::pages` puts a body into
//! the app's page template and `routes::pages` serves it.

pub mod figures;
mod markdown;
mod render;

use std::collections::BTreeMap;

use chrono::NaiveDate;

pub use render::{ContentPage, Crumb, absolutize};

mod files {
    include!(concat!(env!("OUT_DIR"), "/content_files.rs"));
}

/// A content file that cannot be used: which file, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("content/{file}: {message}")]
pub struct ContentError {
    /// Path under `content/`.
    pub file: String,
    /// What is wrong.
    pub message: String,
}

impl ContentError {
    fn new(file: &str, message: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            message: message.into(),
        }
    }
}

/// Where a document lives on the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `/blog/{slug}`.
    Blog,
    /// `/knowledge-base/{category}/{slug}`.
    KnowledgeBase,
    /// A section of `/resources/guides`.
    Guide,
    /// A section of `/resources/tutorials`.
    Tutorial,
    /// A page of its own at `/{path}` (`content/pages/{path}.md`).
    Page,
}

/// One document.
#[derive(Debug, Clone)]
pub struct Doc {
    /// Where it lives.
    pub kind: Kind,
    /// The file name without `.md` (for pages: the path under `pages/`).
    pub slug: String,
    /// Category name as written, and its slug (blog and knowledge base).
    pub category: Option<(String, String)>,
    /// Title (the page's h1 and, with the brand, its `<title>`).
    pub title: String,
    /// Meta description.
    pub description: String,
    /// Published.
    pub date: Option<NaiveDate>,
    /// Last changed, when later than published.
    pub updated: Option<NaiveDate>,
    /// Author.
    pub author: Option<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// Site paths of related documents.
    pub related: Vec<String>,
    /// Listing order.
    pub order: u32,
    /// Rendered body.
    pub html: String,
    /// Questions and answers (FAQPage structured data).
    pub faq: Vec<(String, String)>,
    /// Title and body as lower-case plain text, for search.
    pub search_text: String,
}

impl Doc {
    /// The document's address on the site.
    pub fn path(&self) -> String {
        match self.kind {
            Kind::Blog => format!("/blog/{}", self.slug),
            Kind::KnowledgeBase => format!(
                "/knowledge-base/{}/{}",
                self.category.as_ref().map_or("", |c| c.1.as_str()),
                self.slug
            ),
            Kind::Guide => format!("/resources/guides#{}", self.slug),
            Kind::Tutorial => format!("/resources/tutorials#{}", self.slug),
            Kind::Page => format!("/{}", self.slug),
        }
    }
}

/// What the content has at a path.
#[derive(Debug)]
pub enum Lookup {
    /// A page.
    Page(Box<ContentPage>),
    /// A path under a content section that names nothing (HTTP 404).
    NotFound,
    /// Not a content path.
    NotOurs,
}

/// Every document, loaded once.
#[derive(Debug, Clone, Default)]
pub struct Content {
    docs: Vec<Doc>,
}

impl Content {
    /// Loads the embedded files. Fails on the first file that cannot be used (the content
    /// tests load it, so a broken file never ships).
    pub fn embedded() -> Result<Self, ContentError> {
        Self::from_files(files::FILES.iter().copied())
    }

    /// Loads `(path under content/, text)` pairs.
    pub fn from_files<'a>(
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, ContentError> {
        let mut docs = Vec::new();
        for (file, text) in files {
            docs.push(load(file, text)?);
        }
        let content = Content { docs };
        content.check()?;
        Ok(content)
    }

    /// Every document.
    pub fn docs(&self) -> &[Doc] {
        &self.docs
    }

    /// Documents of a kind, in listing order (blog: newest first).
    pub fn of(&self, kind: Kind) -> Vec<&Doc> {
        let mut docs: Vec<&Doc> = self.docs.iter().filter(|d| d.kind == kind).collect();
        match kind {
            Kind::Blog => docs.sort_by(|a, b| b.date.cmp(&a.date).then(a.slug.cmp(&b.slug))),
            _ => docs.sort_by(|a, b| a.order.cmp(&b.order).then(a.slug.cmp(&b.slug))),
        }
        docs
    }

    /// Categories of a kind, `(name, slug)`, in the order their first document is listed
    /// (knowledge base: by each category's lowest `order`).
    pub fn categories(&self, kind: Kind) -> Vec<(String, String)> {
        let mut seen: Vec<(String, String)> = Vec::new();
        for d in self.of(kind) {
            if let Some(c) = &d.category
                && !seen.iter().any(|s| s.1 == c.1)
            {
                seen.push(c.clone());
            }
        }
        seen
    }

    /// The document at a site path, if any.
    pub fn doc_at(&self, path: &str) -> Option<&Doc> {
        self.docs.iter().find(|d| d.path() == path)
    }

    /// The page at `path` (`search`: the knowledge base's `?q=`).
    pub fn page(&self, path: &str, search: Option<&str>) -> Lookup {
        let path = path.trim_end_matches('/');
        let parts: Vec<&str> = path.split('/').skip(1).collect();
        let page = match parts.as_slice() {
            ["blog"] => Some(render::blog_index(self, None)),
            ["blog", "category", c] => self
                .categories(Kind::Blog)
                .into_iter()
                .find(|(_, s)| s == c)
                .map(|cat| render::blog_index(self, Some(cat))),
            ["blog", "feed.xml"] => None,
            ["blog", _] => self.doc_at(path).map(|d| render::article(self, d)),
            ["knowledge-base"] => Some(render::knowledge_base(
                self,
                search.map(str::trim).filter(|q| !q.is_empty()),
            )),
            ["knowledge-base", _, _] => self.doc_at(path).map(|d| render::article(self, d)),
            ["resources", "guides"] => Some(render::collection(self, Kind::Guide)),
            ["resources", "tutorials"] => Some(render::collection(self, Kind::Tutorial)),
            _ => match self.doc_at(path) {
                Some(d) if d.kind == Kind::Page => Some(render::article(self, d)),
                _ => {
                    let ours = matches!(
                        parts.first(),
                        Some(&"blog") | Some(&"knowledge-base") | Some(&"resources")
                    );
                    return if ours {
                        Lookup::NotFound
                    } else {
                        Lookup::NotOurs
                    };
                }
            },
        };
        page.map_or(Lookup::NotFound, |p| Lookup::Page(Box::new(p)))
    }

    /// Every indexable content address with its last change, for the sitemap.
    pub fn sitemap(&self) -> Vec<(String, Option<NaiveDate>)> {
        let newest = |kind| {
            self.of(kind)
                .iter()
                .filter_map(|d| d.updated.or(d.date))
                .max()
        };
        let mut out = vec![
            ("/blog".to_owned(), newest(Kind::Blog)),
            ("/knowledge-base".to_owned(), newest(Kind::KnowledgeBase)),
            ("/resources/guides".to_owned(), newest(Kind::Guide)),
            ("/resources/tutorials".to_owned(), newest(Kind::Tutorial)),
        ];
        for (_, c) in self.categories(Kind::Blog) {
            out.push((format!("/blog/category/{c}"), None));
        }
        for d in &self.docs {
            if matches!(d.kind, Kind::Blog | Kind::KnowledgeBase | Kind::Page) {
                out.push((d.path(), d.updated.or(d.date)));
            }
        }
        out
    }

    /// The blog's Atom feed (RFC 4287).
    pub fn atom(&self, public_url: &str) -> String {
        render::atom(self, public_url)
    }

    /// Cross-document rules: unique paths, related links that exist, one category name per
    /// knowledge-base folder.
    fn check(&self) -> Result<(), ContentError> {
        let mut paths: BTreeMap<String, &str> = BTreeMap::new();
        for d in &self.docs {
            if paths.insert(d.path(), &d.slug).is_some() {
                return Err(ContentError::new(
                    &d.slug,
                    "two documents share this address",
                ));
            }
        }
        let mut names: BTreeMap<&str, &str> = BTreeMap::new();
        for d in self.docs.iter().filter(|d| d.kind == Kind::KnowledgeBase) {
            if let Some((name, slug)) = &d.category
                && names.insert(slug, name).is_some_and(|n| n != name)
            {
                return Err(ContentError::new(
                    &d.slug,
                    format!("category name {name:?} differs from its folder's other articles"),
                ));
            }
        }
        for d in &self.docs {
            for r in &d.related {
                if self.doc_at(r).is_none() {
                    return Err(ContentError::new(
                        &d.slug,
                        format!("related {r:?} is not a document"),
                    ));
                }
            }
        }
        Ok(())
    }
}

fn load(file: &str, text: &str) -> Result<Doc, ContentError> {
    let (fm, body) = markdown::split(file, text)?;
    let body = markdown::resolve_figures(file, &body)?;
    let description = markdown::resolve_figures(file, &fm.description)?;
    let title = markdown::resolve_figures(file, &fm.title)?;
    let rendered = markdown::render(file, &body)?;
    let stem = file.trim_end_matches(".md");
    let parts: Vec<&str> = stem.split('/').collect();
    let (kind, slug, category) = match parts.as_slice() {
        ["blog", slug] => {
            let name = fm
                .category
                .clone()
                .ok_or_else(|| ContentError::new(file, "a blog post needs a category"))?;
            let cslug = markdown::slug(&name);
            (Kind::Blog, *slug, Some((name, cslug)))
        }
        ["knowledge-base", folder, slug] => {
            let name = fm
                .category
                .clone()
                .ok_or_else(|| ContentError::new(file, "an article needs a category"))?;
            (
                Kind::KnowledgeBase,
                *slug,
                Some((name, (*folder).to_owned())),
            )
        }
        ["resources", "guides", slug] => (Kind::Guide, *slug, None),
        ["resources", "tutorials", slug] => (Kind::Tutorial, *slug, None),
        ["pages", ..] => (Kind::Page, stem.trim_start_matches("pages/"), None),
        _ => return Err(ContentError::new(file, "not in a known content folder")),
    };
    if matches!(kind, Kind::Blog | Kind::KnowledgeBase)
        && (fm.date.is_none() || fm.author.is_none())
    {
        return Err(ContentError::new(file, "date and author are required"));
    }
    let search_text = format!("{} {} {}", title, description, rendered.text).to_lowercase();
    Ok(Doc {
        kind,
        slug: slug.to_owned(),
        category,
        title,
        description,
        date: fm.date,
        updated: fm.updated,
        author: fm.author,
        tags: fm.tags,
        related: fm.related,
        order: fm.order.unwrap_or(u32::MAX),
        html: rendered.html,
        faq: rendered.faq,
        search_text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content() -> Content {
        Content::embedded().unwrap_or_else(|e| panic!("content loads: {e}"))
    }

    fn page(c: &Content, path: &str) -> ContentPage {
        match c.page(path, None) {
            Lookup::Page(p) => *p,
            other => panic!("{path}: {other:?}"),
        }
    }

    #[test]
    fn the_site_has_its_articles() {
        let c = content();
        let count = |k| c.of(k).len();
        assert!(count(Kind::Blog) >= 8, "blog posts");
        assert!(c.categories(Kind::Blog).len() >= 3, "blog categories");
        assert!(count(Kind::KnowledgeBase) >= 12, "knowledge-base articles");
        assert_eq!(c.categories(Kind::KnowledgeBase).len(), 4);
        assert!(count(Kind::Guide) >= 4 && count(Kind::Tutorial) >= 4);
        for path in [
            "/enterprise",
            "/white-label",
            "/test-analysis",
            "/resources/tools",
        ] {
            assert!(c.doc_at(path).is_some(), "{path}");
        }
    }

    /// Our own pages keep the title and description lengths our analyzer asks of others.
    #[test]
    fn every_head_passes_our_length_rules() {
        let c = content();
        let range = |id: &str| {
            let r = domain::performance::good_ranges()
                .into_iter()
                .find(|r| r.id == id)
                .expect("range");
            (
                r.min.unwrap_or(0.0) as usize,
                r.max.unwrap_or(f64::MAX) as usize,
            )
        };
        let (tmin, tmax) = range("title");
        let (dmin, dmax) = range("description");
        let paths: Vec<String> = c.sitemap().into_iter().map(|(p, _)| p).collect();
        let mut wrong = Vec::new();
        for path in paths {
            let p = page(&c, &path);
            let title = crate::services::pages::full_title(&p.title);
            let (t, d) = (title.chars().count(), p.description.chars().count());
            if !(tmin..=tmax).contains(&t) {
                wrong.push(format!("{path}: title {title:?} has {t}"));
            }
            if !(dmin..=dmax).contains(&d) {
                wrong.push(format!("{path}: description has {d}: {:?}", p.description));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// Every figure is a marker `domain` resolved: none is left unresolved in a page.
    #[test]
    fn figures_are_resolved_from_domain() {
        let c = content();
        for d in c.docs() {
            assert!(!d.html.contains("{{"), "{}", d.path());
            assert!(!d.description.contains("{{"), "{}", d.path());
        }
        let overall = page(&c, "/knowledge-base/scores/overall-score");
        let w = domain::score::OVERALL_WEIGHTS;
        assert!(overall.body.contains(&format!("<td>{}%</td>", w.seo)));
        assert!(overall.body.contains(&format!("<td>{}%</td>", w.design)));
        let files = files::FILES;
        let marked = files.iter().filter(|(_, text)| text.contains("{{")).count();
        assert!(marked >= 20, "articles quote domain's figures by marker");
    }

    #[test]
    fn unknown_slugs_and_categories_are_not_found() {
        let c = content();
        for path in [
            "/blog/no-such-post",
            "/blog/category/no-such-category",
            "/knowledge-base/scores/no-such-article",
            "/knowledge-base/no-such-category/overall-score",
            "/knowledge-base/scores",
            "/resources/nothing",
        ] {
            assert!(matches!(c.page(path, None), Lookup::NotFound), "{path}");
        }
        assert!(matches!(c.page("/pricing", None), Lookup::NotOurs));
    }

    #[test]
    fn articles_carry_their_structured_data() {
        let c = content();
        let types = |p: &ContentPage| -> Vec<String> {
            p.structured_data
                .iter()
                .map(|v| v["@type"].as_str().unwrap_or("").to_owned())
                .collect()
        };
        let post = page(&c, "/blog/robots-txt-mistakes");
        assert_eq!(types(&post), ["BreadcrumbList", "BlogPosting", "FAQPage"]);
        assert_eq!(post.og_type, "article");
        let kb = page(&c, "/knowledge-base/scores/overall-score");
        assert!(types(&kb).contains(&"Article".to_owned()));
        let faq = kb
            .structured_data
            .iter()
            .find(|v| v["@type"] == "FAQPage")
            .expect("questions");
        assert!(
            faq["mainEntity"][0]["name"]
                .as_str()
                .is_some_and(|q| q.ends_with('?'))
        );
        let blog = page(&c, "/blog");
        assert!(types(&blog).contains(&"Blog".to_owned()));
    }

    #[test]
    fn search_finds_titles_and_bodies() {
        let c = content();
        let titles = |q: &str| -> Vec<String> {
            render::search(&c, q)
                .into_iter()
                .map(|d| d.slug.clone())
                .collect()
        };
        // In a title: ranked first.
        assert_eq!(
            titles("overall score").first().map(String::as_str),
            Some("overall-score")
        );
        // Only in a body.
        assert!(titles("LISTEN/NOTIFY").contains(&"follow-progress".to_owned()));
        assert!(titles("zzzz-nothing").is_empty());
        let Lookup::Page(p) = c.page("/knowledge-base", Some("canonical")) else {
            panic!("search page");
        };
        assert!(!p.index, "search results are not indexed");
        assert!(
            p.body
                .contains("/knowledge-base/checks/robots-and-indexing")
        );
    }

    #[test]
    fn the_feed_lists_every_post() {
        let c = content();
        let feed = c.atom("https://sitelens.test");
        assert_eq!(feed.matches("<entry>").count(), c.of(Kind::Blog).len());
        assert!(feed.contains("<id>https://sitelens.test/blog/robots-txt-mistakes</id>"));
        assert!(!feed.contains("href=\"/"), "links are absolute in the feed");
    }

    #[test]
    fn bad_files_are_refused_with_their_name() {
        let bad = Content::from_files([(
            "blog/x",
            "---\ntitle: T\ndescription: D\ndate: 2026-01-01\nauthor: A\ncategory: C\n---\nWeighs {{weight.nothing}}.\n",
        )]);
        assert!(bad.is_err_and(|e| e.file == "blog/x" && e.message.contains("weight.nothing")));
        let related = Content::from_files([(
            "resources/guides/g",
            "---\ntitle: T\ndescription: D\nrelated: [/blog/missing]\n---\nText.\n",
        )]);
        assert!(related.is_err());
    }
}
