import { useEffect } from "react";

export type PageMetaProps = {
  title: string;
  description: string;
  /** Path of the canonical address, e.g. "/pricing"; defaults to the current path. */
  path?: string;
  /** A whole canonical address on another origin (a branded report on its agency's custom domain); wins over `path`. */
  canonical?: string;
  noindex?: boolean;
  /** schema.org objects, written as one JSON-LD script. */
  structuredData?: object | object[];
  type?: "website" | "article";
};

function upsertMeta(attr: "name" | "property", key: string, content: string) {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = document.createElement("meta");
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.content = content;
}

function upsertLink(rel: string, href: string) {
  let el = document.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`);
  if (!el) {
    el = document.createElement("link");
    el.rel = rel;
    document.head.appendChild(el);
  }
  el.href = href;
}

/**
 * Title, description, canonical, social tags and structured data of a page. It updates the tags
 * the server already put in <head> (docs/ARCHITECTURE.md §7) rather than adding duplicates.
 */
export function PageMeta({ title, description, path, canonical, noindex, structuredData, type = "website" }: PageMetaProps) {
  const json = structuredData ? JSON.stringify(structuredData) : "";
  useEffect(() => {
    const fullTitle = title.includes("Sitelens") ? title : `${title} | Sitelens`;
    const url = canonical ?? `${window.location.origin}${path ?? window.location.pathname}`;
    document.title = fullTitle;
    upsertMeta("name", "description", description);
    upsertMeta("name", "robots", noindex ? "noindex, nofollow" : "index, follow");
    upsertLink("canonical", url);
    upsertMeta("property", "og:title", fullTitle);
    upsertMeta("property", "og:description", description);
    upsertMeta("property", "og:type", type);
    upsertMeta("property", "og:url", url);
    upsertMeta("property", "og:site_name", "Sitelens");
    upsertMeta("name", "twitter:card", "summary_large_image");
    upsertMeta("name", "twitter:title", fullTitle);
    upsertMeta("name", "twitter:description", description);
    let script = document.getElementById("structured-data");
    if (json) {
      if (!script) {
        script = document.createElement("script");
        script.id = "structured-data";
        script.setAttribute("type", "application/ld+json");
        document.head.appendChild(script);
      }
      script.textContent = json;
    } else {
      script?.remove();
    }
  }, [title, description, path, canonical, noindex, json, type]);
  return null;
}

/** The organisation, reused by several pages' structured data. */
export const organization = {
  "@type": "Organization",
  name: "Sitelens",
  description: "AI-powered website analysis to optimise your online presence and improve user experience.",
};
