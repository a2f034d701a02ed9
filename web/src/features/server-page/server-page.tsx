import { useEffect, useLayoutEffect, useRef, useState, type MouseEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useLocation, useNavigate } from "react-router";
import { PageMeta } from "../../components/seo/page-meta";
import { Spinner } from "../../components/ui/spinner";
import { NotFoundPage } from "../not-found/not-found-page";
import { parseServerPage, takeServerBody, type FetchedPage } from "../../lib/server-body";

type State = { key: string; page: FetchedPage | null | "error" } | null;

/**
 * Content the app adds inside the server's body: `node` goes right after the block (a section of
 * the article) that holds the element with id `anchor`, so it reads where the text introduces it.
 * Without that element, it goes after the body.
 */
export type ServerPageSlot = { anchor: string; node: ReactNode };

/**
 * A page whose body the server renders from `content/`: on the first load the body already in
 * the HTML (with its head, written by the server); after an in-app navigation the same page
 * fetched from the server. Links inside the body navigate within the app.
 */
export function ServerPage({ children, slot }: { children?: ReactNode; slot?: ServerPageSlot }) {
  const location = useLocation();
  const navigate = useNavigate();
  const key = location.pathname + location.search;
  const [first] = useState(() => ({ key, html: takeServerBody(key) }));
  const [state, setState] = useState<State>(null);

  useEffect(() => {
    if (first.key === key && first.html !== null) return;
    const controller = new AbortController();
    fetch(key, { headers: { Accept: "text/html" }, signal: controller.signal })
      .then(async (res) => setState({ key, page: res.status === 404 ? null : parseServerPage(await res.text()) }))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setState({ key, page: e instanceof Error ? "error" : null });
      });
    return () => controller.abort();
  }, [key, first]);

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const a = (e.target as HTMLElement).closest("a");
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const url = new URL(a.href, window.location.href);
    if (url.origin !== window.location.origin || a.target || url.pathname.endsWith(".xml")) return;
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
    e.preventDefault();
    void navigate(url.pathname + url.search + url.hash);
  };

  const fresh = state?.key === key ? state.page : undefined;
  const html = typeof fresh === "object" && fresh !== null ? fresh.html : fresh === undefined && first.key === key ? first.html : null;

  // The slot's place in the body: a node of our own after the anchor's block, made once the body
  // is in the document (and again whenever the body changes).
  const body = useRef<HTMLDivElement>(null);
  const [host, setHost] = useState<{ html: string; node: HTMLElement | null } | null>(null);
  const anchor = slot?.anchor;
  useLayoutEffect(() => {
    if (anchor === undefined || html === null) return;
    const block = body.current?.querySelector(`#${CSS.escape(anchor)}`)?.parentElement;
    if (!block) {
      setHost({ html, node: null });
      return;
    }
    const node = document.createElement("div");
    block.after(node);
    setHost({ html, node });
    return () => node.remove();
  }, [anchor, html]);
  const placed = host?.html === html ? host : null;
  if (fresh === null) return <NotFoundPage />;
  if (fresh === "error") {
    return (
      <p role="alert" className="mx-auto max-w-3xl px-4 py-16 text-center text-muted-foreground">
        This page could not be loaded. Check your connection and reload.
      </p>
    );
  }
  if (html === null) {
    return (
      <div className="flex min-h-[60vh] items-center justify-center" aria-busy="true">
        <Spinner />
      </div>
    );
  }
  return (
    <>
      {fresh && (
        <PageMeta
          title={fresh.title}
          description={fresh.description}
          noindex={fresh.noindex}
          structuredData={fresh.structuredData ? (JSON.parse(fresh.structuredData) as object) : undefined}
        />
      )}
      {/* The body is our own server's rendering of our own content files. */}
      <div ref={body} data-server-body="" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
      {slot && placed?.node && createPortal(slot.node, placed.node)}
      {slot && placed && !placed.node && slot.node}
      {children}
    </>
  );
}
