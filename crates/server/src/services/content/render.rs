//! Content pages as HTML bodies styled with the web app's own classes (its stylesheet scans
//! this folder for them), with their heads and structured data (docs/PRODUCT.md §2.11).

use serde_json::{Value, json};

use super::{Content, Doc, Kind};
use crate::services::pages::escape as esc;

/// A rendered content page: what the page template needs.
#[derive(Debug, Clone)]
pub struct ContentPage {
    /// `<title>` without the brand.
    pub title: String,
    /// Meta description.
    pub description: String,
    /// Whether search engines may index it (search results pages are not indexed).
    pub index: bool,
    /// `og:type`: `article` or `website`.
    pub og_type: &'static str,
    /// Published, for `article:published_time`.
    pub published: Option<chrono::NaiveDate>,
    /// The body (inside the layout's `<main>`).
    pub body: String,
    /// schema.org objects; `@id`/`url` values are site paths, made absolute by the renderer.
    pub structured_data: Vec<Value>,
    /// Whether the page links the blog's Atom feed in its head.
    pub feed: bool,
}

/// One step of a breadcrumb trail.
#[derive(Debug, Clone)]
pub struct Crumb {
    /// Name.
    pub name: String,
    /// Site path.
    pub path: String,
}

fn crumb(name: &str, path: &str) -> Crumb {
    Crumb {
        name: name.to_owned(),
        path: path.to_owned(),
    }
}

/// Body styles of an article: the same as the app's text pages (`components/layout/prose-page.tsx`).
const PROSE: &str = "mt-10 space-y-5 leading-relaxed [&_a]:text-link [&_a]:underline [&_a]:underline-offset-4 [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:tracking-tight [&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-semibold [&_li]:pl-1 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6 [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:text-[0.9em] [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-muted [&_pre]:p-4 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_table]:w-full [&_table]:text-sm [&_th]:border-b [&_th]:border-border [&_th]:py-2 [&_th]:pr-4 [&_th]:text-left [&_td]:border-b [&_td]:border-border [&_td]:py-2 [&_td]:pr-4 [&_blockquote]:border-l-4 [&_blockquote]:border-border [&_blockquote]:pl-4 [&_blockquote]:text-muted-foreground";
const ARTICLE: &str = "mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16";
const WIDE: &str = "mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16";
const H1: &str = "text-4xl font-extrabold tracking-tight sm:text-5xl";
const LEAD: &str = "mt-4 text-lg text-muted-foreground";
const CARD: &str = "rounded-xl border border-border bg-card p-6 shadow-sm";
const LINK: &str = "text-link underline underline-offset-4";
const PILL: &str =
    "inline-block rounded-full border border-border px-3 py-1 text-sm font-medium hover:bg-muted";
const PILL_ACTIVE: &str = "inline-block rounded-full border border-primary bg-primary px-3 py-1 text-sm font-medium text-primary-foreground";

fn breadcrumbs_html(trail: &[Crumb]) -> String {
    let mut html = String::from(
        "<nav aria-label=\"Breadcrumb\" class=\"text-sm text-muted-foreground\"><ol class=\"flex flex-wrap items-center gap-1\">",
    );
    for (i, c) in trail.iter().enumerate() {
        if i + 1 == trail.len() {
            html.push_str(&format!(
                "<li aria-current=\"page\" class=\"text-foreground\">{}</li>",
                esc(&c.name)
            ));
        } else {
            html.push_str(&format!(
                "<li><a class=\"hover:text-foreground hover:underline\" href=\"{}\">{}</a></li><li aria-hidden=\"true\">/</li>",
                esc(&c.path),
                esc(&c.name)
            ));
        }
    }
    html.push_str("</ol></nav>");
    html
}

fn breadcrumb_list(trail: &[Crumb]) -> Value {
    json!({
        "@type": "BreadcrumbList",
        "itemListElement": trail.iter().enumerate().map(|(i, c)| json!({
            "@type": "ListItem",
            "position": i + 1,
            "name": c.name,
            "item": c.path,
        })).collect::<Vec<_>>(),
    })
}

fn publisher() -> Value {
    json!({"@type": "Organization", "name": "Sitelens", "url": "/"})
}

fn date_line(d: &Doc) -> String {
    let mut parts = Vec::new();
    if let Some(a) = &d.author {
        parts.push(format!("By {}", esc(a)));
    }
    if let Some(date) = d.date {
        parts.push(format!(
            "<time datetime=\"{date}\">{}</time>",
            date.format("%-d %B %Y")
        ));
    }
    if let Some(up) = d.updated {
        parts.push(format!(
            "updated <time datetime=\"{up}\">{}</time>",
            up.format("%-d %B %Y")
        ));
    }
    if d.kind == Kind::Blog
        && let Some((name, slug)) = &d.category
    {
        parts.push(format!(
            "<a class=\"{LINK}\" href=\"/blog/category/{slug}\">{}</a>",
            esc(name)
        ));
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(
        "<p class=\"mt-4 text-sm text-muted-foreground\">{}</p>",
        parts.join(" · ")
    )
}

fn trail_of(d: &Doc) -> Vec<Crumb> {
    let mut trail = vec![crumb("Home", "/")];
    match d.kind {
        Kind::Blog => {
            trail.push(crumb("Blog", "/blog"));
            if let Some((name, slug)) = &d.category {
                trail.push(crumb(name, &format!("/blog/category/{slug}")));
            }
        }
        Kind::KnowledgeBase => {
            trail.push(crumb("Knowledge base", "/knowledge-base"));
            if let Some((name, slug)) = &d.category {
                trail.push(crumb(name, &format!("/knowledge-base#{slug}")));
            }
        }
        Kind::Guide => trail.push(crumb("Guides", "/resources/guides")),
        Kind::Tutorial => trail.push(crumb("Tutorials", "/resources/tutorials")),
        Kind::Page => {}
    }
    trail.push(crumb(&d.title, &d.path()));
    trail
}

/// FAQPage structured data of questions and answers, `None` when there are none.
fn faq_page(faq: &[(String, String)]) -> Option<Value> {
    (!faq.is_empty()).then(|| {
        json!({
            "@type": "FAQPage",
            "mainEntity": faq.iter().map(|(q, a)| json!({
                "@type": "Question",
                "name": q,
                "acceptedAnswer": {"@type": "Answer", "text": a},
            })).collect::<Vec<_>>(),
        })
    })
}

fn article_data(d: &Doc) -> Value {
    let kind = if d.kind == Kind::Blog {
        "BlogPosting"
    } else {
        "Article"
    };
    let mut v = json!({
        "@type": kind,
        "headline": d.title,
        "description": d.description,
        "url": d.path(),
        "mainEntityOfPage": d.path(),
        "publisher": publisher(),
        "inLanguage": "en",
    });
    if let Some(date) = d.date {
        v["datePublished"] = json!(date.to_string());
        v["dateModified"] = json!(d.updated.unwrap_or(date).to_string());
    }
    if let Some(a) = &d.author {
        v["author"] = json!({"@type": "Organization", "name": a});
    }
    if !d.tags.is_empty() {
        v["keywords"] = json!(d.tags.join(", "));
    }
    if let Some((name, _)) = &d.category {
        v["articleSection"] = json!(name);
    }
    v
}

fn related_html(content: &Content, d: &Doc) -> String {
    let docs: Vec<&Doc> = d.related.iter().filter_map(|p| content.doc_at(p)).collect();
    if docs.is_empty() {
        return String::new();
    }
    let mut html = String::from(
        "<aside aria-labelledby=\"related\" class=\"mt-16 border-t border-border pt-8\"><h2 id=\"related\" class=\"text-xl font-bold\">Read next</h2><ul class=\"mt-4 space-y-3\">",
    );
    for r in docs {
        html.push_str(&format!(
            "<li><a class=\"{LINK} font-medium\" href=\"{}\">{}</a><p class=\"text-sm text-muted-foreground\">{}</p></li>",
            esc(&r.path()),
            esc(&r.title),
            esc(&r.description)
        ));
    }
    html.push_str("</ul></aside>");
    html
}

/// A document on a page of its own.
pub fn article(content: &Content, d: &Doc) -> ContentPage {
    let trail = trail_of(d);
    let mut body = format!("<article class=\"{ARTICLE}\">{}", breadcrumbs_html(&trail));
    body.push_str(&format!(
        "<h1 class=\"mt-6 {H1}\">{}</h1><p class=\"{LEAD}\">{}</p>{}",
        esc(&d.title),
        esc(&d.description),
        date_line(d)
    ));
    body.push_str(&format!("<div class=\"{PROSE}\">{}</div>", d.html));
    if !d.tags.is_empty() {
        body.push_str("<ul aria-label=\"Tags\" class=\"mt-10 flex flex-wrap gap-2\">");
        for t in &d.tags {
            body.push_str(&format!(
                "<li class=\"rounded-full bg-muted px-3 py-1 text-sm text-muted-foreground\">{}</li>",
                esc(t)
            ));
        }
        body.push_str("</ul>");
    }
    body.push_str(&related_html(content, d));
    if d.kind == Kind::KnowledgeBase {
        body.push_str(&format!(
            "<p class=\"mt-10 text-sm text-muted-foreground\">Something missing or unclear? <a class=\"{LINK}\" href=\"/contact\">Tell us</a> or <a class=\"{LINK}\" href=\"/knowledge-base\">search the knowledge base</a>.</p>"
        ));
    }
    body.push_str("</article>");
    let mut data = vec![breadcrumb_list(&trail)];
    if d.kind == Kind::Page {
        data.push(json!({
            "@type": "WebPage",
            "name": d.title,
            "description": d.description,
            "url": d.path(),
            "publisher": publisher(),
        }));
    } else {
        data.push(article_data(d));
    }
    data.extend(faq_page(&d.faq));
    ContentPage {
        title: d.title.clone(),
        description: d.description.clone(),
        index: true,
        og_type: if d.kind == Kind::Page {
            "website"
        } else {
            "article"
        },
        published: d.date,
        body,
        structured_data: data,
        feed: d.kind == Kind::Blog,
    }
}

fn post_card(d: &Doc) -> String {
    let cat = d.category.as_ref().map_or(String::new(), |(name, slug)| {
        format!(
            " · <a class=\"{LINK}\" href=\"/blog/category/{slug}\">{}</a>",
            esc(name)
        )
    });
    let date = d.date.map_or(String::new(), |date| {
        format!(
            "<time datetime=\"{date}\">{}</time>",
            date.format("%-d %B %Y")
        )
    });
    format!(
        "<li class=\"{CARD}\"><h2 class=\"text-xl font-bold tracking-tight\"><a class=\"hover:underline\" href=\"{}\">{}</a></h2><p class=\"mt-1 text-sm text-muted-foreground\">{date}{cat}</p><p class=\"mt-3 text-muted-foreground\">{}</p></li>",
        esc(&d.path()),
        esc(&d.title),
        esc(&d.description)
    )
}

/// `/blog` and `/blog/category/{category}`.
pub fn blog_index(content: &Content, category: Option<(String, String)>) -> ContentPage {
    let mut trail = vec![crumb("Home", "/"), crumb("Blog", "/blog")];
    let (title, description, path) = match &category {
        Some((name, slug)) => {
            trail.push(crumb(name, &format!("/blog/category/{slug}")));
            (
                format!("{name} articles from the Sitelens blog"),
                format!(
                    "Sitelens blog posts on {name}: practical, measured advice from the team that builds the audits, with the numbers our reports use.",
                ),
                format!("/blog/category/{slug}"),
            )
        }
        None => (
            "Blog: SEO, performance and site audits".to_owned(),
            "Practical articles on technical SEO, page speed and website audits from the team that builds Sitelens, with the thresholds our reports use.".to_owned(),
            "/blog".to_owned(),
        ),
    };
    let posts: Vec<&Doc> = content
        .of(Kind::Blog)
        .into_iter()
        .filter(|d| {
            category
                .as_ref()
                .is_none_or(|(_, s)| d.category.as_ref().is_some_and(|c| &c.1 == s))
        })
        .collect();
    let mut body = format!("<div class=\"{WIDE}\">{}", breadcrumbs_html(&trail));
    let h1 = category
        .as_ref()
        .map_or("Blog".to_owned(), |(n, _)| n.clone());
    body.push_str(&format!(
        "<h1 class=\"mt-6 {H1}\">{}</h1><p class=\"{LEAD}\">{}</p>",
        esc(&h1),
        esc(&description)
    ));
    body.push_str(
        "<nav aria-label=\"Blog categories\" class=\"mt-8\"><ul class=\"flex flex-wrap gap-2\">",
    );
    let all_class = if category.is_none() {
        PILL_ACTIVE
    } else {
        PILL
    };
    body.push_str(&format!(
        "<li><a class=\"{all_class}\" href=\"/blog\">All posts</a></li>"
    ));
    for (name, slug) in content.categories(Kind::Blog) {
        let class = if category.as_ref().is_some_and(|c| c.1 == slug) {
            PILL_ACTIVE
        } else {
            PILL
        };
        body.push_str(&format!(
            "<li><a class=\"{class}\" href=\"/blog/category/{slug}\">{}</a></li>",
            esc(&name)
        ));
    }
    body.push_str("</ul></nav><ul class=\"mt-10 grid gap-6 md:grid-cols-2\">");
    for d in &posts {
        body.push_str(&post_card(d));
    }
    body.push_str(&format!(
        "</ul><p class=\"mt-10 text-sm text-muted-foreground\">Follow new posts with the <a class=\"{LINK}\" href=\"/blog/feed.xml\">Atom feed</a>.</p></div>"
    ));
    let blog = json!({
        "@type": "Blog",
        "name": "Sitelens blog",
        "url": path,
        "description": description,
        "publisher": publisher(),
        "blogPost": posts.iter().map(|d| json!({
            "@type": "BlogPosting",
            "headline": d.title,
            "url": d.path(),
            "datePublished": d.date.map(|x| x.to_string()),
        })).collect::<Vec<_>>(),
    });
    ContentPage {
        title,
        description,
        index: true,
        og_type: "website",
        published: None,
        body,
        structured_data: vec![breadcrumb_list(&trail), blog],
        feed: true,
    }
}

/// `/knowledge-base`, with the search results for `?q=` when there is a query.
pub fn knowledge_base(content: &Content, query: Option<&str>) -> ContentPage {
    let trail = vec![
        crumb("Home", "/"),
        crumb("Knowledge base", "/knowledge-base"),
    ];
    let description = "How Sitelens works, in detail: how each score is computed, what every check means and how to fix it, reports, credits and plans, and the API.".to_owned();
    let mut body = format!("<div class=\"{WIDE}\">{}", breadcrumbs_html(&trail));
    body.push_str(&format!(
        "<h1 class=\"mt-6 {H1}\">Knowledge base</h1><p class=\"{LEAD}\">{}</p>",
        esc(&description)
    ));
    body.push_str(&format!(
        "<form role=\"search\" action=\"/knowledge-base\" method=\"get\" class=\"mt-8 flex max-w-xl gap-2\"><label for=\"kb-search\" class=\"sr-only\">Search the knowledge base</label><input id=\"kb-search\" name=\"q\" type=\"search\" value=\"{}\" placeholder=\"Search titles and articles\" class=\"flex h-11 w-full min-w-0 rounded-lg border border-border bg-input px-3 py-2 text-base text-input-foreground placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring\"><button type=\"submit\" class=\"h-11 rounded-lg bg-primary px-5 font-medium text-primary-foreground hover:bg-primary/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring\">Search</button></form>",
        esc(query.unwrap_or(""))
    ));
    if let Some(q) = query {
        let hits = search(content, q);
        body.push_str(&format!(
            "<section aria-labelledby=\"results\" class=\"mt-10\"><h2 id=\"results\" class=\"text-2xl font-bold tracking-tight\">{}</h2>",
            match hits.len() {
                0 => format!("No article matches “{}”", esc(q)),
                1 => format!("1 article matches “{}”", esc(q)),
                n => format!("{n} articles match “{}”", esc(q)),
            }
        ));
        body.push_str("<ul class=\"mt-6 space-y-4\">");
        for d in hits {
            body.push_str(&format!(
                "<li><a class=\"{LINK} font-medium\" href=\"{}\">{}</a><p class=\"text-sm text-muted-foreground\">{}</p></li>",
                esc(&d.path()),
                esc(&d.title),
                esc(&d.description)
            ));
        }
        body.push_str(&format!(
            "</ul><p class=\"mt-6\"><a class=\"{LINK}\" href=\"/knowledge-base\">All articles</a></p></section>"
        ));
    } else {
        body.push_str("<div class=\"mt-10 grid gap-6 md:grid-cols-2\">");
        for (name, slug) in content.categories(Kind::KnowledgeBase) {
            body.push_str(&format!(
                "<section id=\"{slug}\" aria-labelledby=\"{slug}-title\" class=\"{CARD}\"><h2 id=\"{slug}-title\" class=\"text-xl font-bold tracking-tight\">{}</h2><ul class=\"mt-4 space-y-3\">",
                esc(&name)
            ));
            for d in content
                .of(Kind::KnowledgeBase)
                .into_iter()
                .filter(|d| d.category.as_ref().is_some_and(|c| c.1 == slug))
            {
                body.push_str(&format!(
                    "<li><a class=\"{LINK} font-medium\" href=\"{}\">{}</a><p class=\"text-sm text-muted-foreground\">{}</p></li>",
                    esc(&d.path()),
                    esc(&d.title),
                    esc(&d.description)
                ));
            }
            body.push_str("</ul></section>");
        }
        body.push_str("</div>");
    }
    body.push_str("</div>");
    let list = json!({
        "@type": "CollectionPage",
        "name": "Sitelens knowledge base",
        "url": "/knowledge-base",
        "description": description,
        "publisher": publisher(),
        "hasPart": content.of(Kind::KnowledgeBase).iter().map(|d| json!({
            "@type": "Article", "headline": d.title, "url": d.path(),
        })).collect::<Vec<_>>(),
    });
    ContentPage {
        title: match query {
            Some(q) => format!("Search results for “{q}” — Knowledge base"),
            None => "Knowledge base: scores, checks, plans and API".to_owned(),
        },
        description,
        index: query.is_none(),
        og_type: "website",
        published: None,
        body,
        structured_data: vec![breadcrumb_list(&trail), list],
        feed: false,
    }
}

/// Knowledge-base articles matching every word of `query`, title matches first.
pub fn search<'a>(content: &'a Content, query: &str) -> Vec<&'a Doc> {
    let words: Vec<String> = query
        .split_whitespace()
        .map(str::to_lowercase)
        .take(12)
        .collect();
    let mut hits: Vec<(usize, &Doc)> = content
        .of(Kind::KnowledgeBase)
        .into_iter()
        .filter(|d| words.iter().all(|w| d.search_text.contains(w.as_str())))
        .map(|d| {
            let title = d.title.to_lowercase();
            let in_title = words.iter().filter(|w| title.contains(w.as_str())).count();
            (in_title, d)
        })
        .collect();
    hits.sort_by_key(|h| std::cmp::Reverse(h.0));
    hits.into_iter().map(|(_, d)| d).collect()
}

/// `/resources/guides` and `/resources/tutorials`: every document of the kind in full.
pub fn collection(content: &Content, kind: Kind) -> ContentPage {
    let (name, path, title, description) = match kind {
        Kind::Guide => (
            "Guides",
            "/resources/guides",
            "Guides: audit, fix and monitor a website",
            "Step-by-step guides to auditing a website with Sitelens, reading the report, fixing what it finds and keeping a site healthy between audits.",
        ),
        _ => (
            "Tutorials",
            "/resources/tutorials",
            "Tutorials: hands-on fixes for common findings",
            "Hands-on tutorials that take one finding of a Sitelens report from diagnosis to fix: titles and descriptions, robots.txt, images and layout shifts.",
        ),
    };
    let trail = vec![crumb("Home", "/"), crumb(name, path)];
    let docs = content.of(kind);
    let mut body = format!("<div class=\"{ARTICLE}\">{}", breadcrumbs_html(&trail));
    body.push_str(&format!(
        "<h1 class=\"mt-6 {H1}\">{name}</h1><p class=\"{LEAD}\">{}</p>",
        esc(description)
    ));
    body.push_str(&format!(
        "<nav aria-label=\"On this page\" class=\"mt-8 {CARD}\"><h2 class=\"font-semibold\">On this page</h2><ol class=\"mt-3 list-decimal space-y-2 pl-6\">"
    ));
    for d in &docs {
        body.push_str(&format!(
            "<li><a class=\"{LINK}\" href=\"#{}\">{}</a></li>",
            esc(&d.slug),
            esc(&d.title)
        ));
    }
    body.push_str("</ol></nav>");
    for d in &docs {
        body.push_str(&format!(
            "<section id=\"{}\" aria-labelledby=\"{}-title\" class=\"mt-16\"><h2 id=\"{}-title\" class=\"text-3xl font-extrabold tracking-tight\">{}</h2><p class=\"{LEAD}\">{}</p><div class=\"{PROSE} [&_h2]:text-xl [&_h3]:text-base\">{}</div>{}</section>",
            esc(&d.slug),
            esc(&d.slug),
            esc(&d.slug),
            esc(&d.title),
            esc(&d.description),
            demote_headings(&d.html),
            related_html(content, d)
        ));
    }
    body.push_str("</div>");
    let data = json!({
        "@type": "CollectionPage",
        "name": title,
        "url": path,
        "description": description,
        "publisher": publisher(),
        "hasPart": docs.iter().map(|d| {
            let mut a = article_data(d);
            a["url"] = json!(d.path());
            a
        }).collect::<Vec<_>>(),
    });
    let mut structured = vec![breadcrumb_list(&trail), data];
    let faq: Vec<(String, String)> = docs.iter().flat_map(|d| d.faq.clone()).collect();
    structured.extend(faq_page(&faq));
    ContentPage {
        title: title.to_owned(),
        description: description.to_owned(),
        index: true,
        og_type: "website",
        published: None,
        body,
        structured_data: structured,
        feed: false,
    }
}

/// A guide inside a collection page sits under an h2, so its own headings go one level down.
fn demote_headings(html: &str) -> String {
    html.replace("<h4", "<h5")
        .replace("</h4>", "</h5>")
        .replace("<h3", "<h4")
        .replace("</h3>", "</h4>")
        .replace("<h2", "<h3")
        .replace("</h2>", "</h3>")
}

/// The blog as an Atom feed.
pub fn atom(content: &Content, public_url: &str) -> String {
    let posts = content.of(Kind::Blog);
    let updated = posts
        .iter()
        .filter_map(|d| d.updated.or(d.date))
        .max()
        .map_or("1970-01-01".to_owned(), |d| d.to_string());
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>Sitelens blog</title>\n  <subtitle>Technical SEO, page speed and website audits</subtitle>\n  <id>{u}/blog</id>\n  <link rel=\"alternate\" type=\"text/html\" href=\"{u}/blog\"/>\n  <link rel=\"self\" type=\"application/atom+xml\" href=\"{u}/blog/feed.xml\"/>\n  <updated>{updated}T00:00:00Z</updated>\n",
        u = esc(public_url)
    );
    for d in posts {
        let date = d.date.map_or(String::new(), |x| x.to_string());
        let up = d
            .updated
            .or(d.date)
            .map_or(String::new(), |x| x.to_string());
        xml.push_str(&format!(
            "  <entry>\n    <title>{}</title>\n    <id>{u}{p}</id>\n    <link rel=\"alternate\" type=\"text/html\" href=\"{u}{p}\"/>\n    <published>{date}T00:00:00Z</published>\n    <updated>{up}T00:00:00Z</updated>\n    <author><name>{}</name></author>\n    <summary>{}</summary>\n    <content type=\"html\">{}</content>\n  </entry>\n",
            esc(&d.title),
            esc(d.author.as_deref().unwrap_or("Sitelens")),
            esc(&d.description),
            esc(&absolute_links(&d.html, public_url)),
            u = esc(public_url),
            p = esc(&d.path()),
        ));
    }
    xml.push_str("</feed>\n");
    xml
}

/// Site-relative links made absolute, for readers outside the site (feed readers).
fn absolute_links(html: &str, public_url: &str) -> String {
    html.replace("href=\"/", &format!("href=\"{public_url}/"))
}

/// Makes the site paths of structured data absolute (`url`, `item`, `@id`,
/// `mainEntityOfPage`), in place.
pub fn absolutize(value: &mut Value, public_url: &str) {
    match value {
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                match v {
                    Value::String(s)
                        if matches!(k.as_str(), "url" | "item" | "@id" | "mainEntityOfPage")
                            && s.starts_with('/') =>
                    {
                        *s = format!("{public_url}{s}");
                    }
                    _ => absolutize(v, public_url),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| absolutize(v, public_url)),
        _ => {}
    }
}
