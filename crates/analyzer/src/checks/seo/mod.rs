//! Page-level SEO checks (and the design/accessibility checks an HTTP fetch can decide), one
//! file per group: `meta` (title, description, viewport), `headings`, `indexing` (canonical,
//! robots, address), `intl` (hreflang, `lang`), `social` (Open Graph, structured data),
//! `media` (image alt, favicon) and `links` (link text, crawlable anchors, internal links).

use super::{PageCtx, Section, Tagged};

mod headings;
mod indexing;
mod intl;
mod links;
mod media;
mod meta;
mod social;

pub use intl::valid_language_tag;
pub use media::alt_max;
pub use meta::{description_range, mobile_optimized, title_range};

const META: &str = "Meta Tags";
const HEADINGS: &str = "Headings";
const INDEXING: &str = "Crawling & Indexing";
const SOCIAL: &str = "Social & Structured Data";
const IMAGES: &str = "Images";
const LINKS: &str = "Links";
const INTL: &str = "International";
const MOBILE: &str = "Mobile & Accessibility";

fn push(out: &mut Vec<Tagged>, section: Section, group: &'static str, f: domain::report::Finding) {
    out.push(Tagged {
        section,
        group,
        finding: f,
    });
}

/// Run the page's SEO checks.
pub fn run(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    meta::title(ctx, out);
    meta::description(ctx, out);
    headings::h1(ctx, out);
    headings::heading_hierarchy(ctx, out);
    indexing::canonical(ctx, out);
    indexing::indexable(ctx, out);
    intl::hreflang(ctx, out);
    intl::html_lang(ctx, out);
    meta::viewport(ctx, out);
    social::open_graph(ctx, out);
    social::structured_data(ctx, out);
    media::image_alt(ctx, out);
    links::link_text(ctx, out);
    links::crawlable_anchors(ctx, out);
    links::internal_links(ctx, out);
    indexing::url_hygiene(ctx, out);
    media::favicon(ctx, out);
}
