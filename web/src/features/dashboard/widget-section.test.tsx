// The dashboard's "Widget & leads" card: shown to white-label accounts (and to one that still
// holds keys), each key with its origins and copyable embed code, the leads and their export.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { WidgetLeadPage, WidgetOverview } from "../../lib/domain";
import { LeadsTable, WidgetSection } from "./widget-section";

function render(overview: WidgetOverview, leads?: WidgetLeadPage) {
  const client = new QueryClient();
  client.setQueryData(["widget"], overview);
  if (leads) client.setQueryData(["widget", "leads", 1], leads);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <WidgetSection />
    </QueryClientProvider>,
  );
}

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&").replace(/\s+/g, " ");

const key = {
  id: 7,
  key: "slw_0123456789abcdef0123456789abcdef",
  allowedOrigins: ["https://studio.example", "http://127.0.0.1:8081"],
  embedCode: '<script async src="https://sitelens.example/widget.js" data-key="slw_0123456789abcdef0123456789abcdef"></script>',
  createdAt: "2026-11-29T05:00:00Z",
  leads: 1,
};

const leads: WidgetLeadPage = {
  leads: [
    {
      id: 1,
      firstName: "Ada",
      email: "ada@visitor.example",
      websiteUrl: "https://ada.example/",
      analysisId: "a1",
      reportUrl: "https://sitelens.example/results?id=a1",
      key: key.key,
      createdAt: "2026-11-29T05:10:00Z",
    },
  ],
  total: 1,
  page: 1,
  perPage: 25,
};

describe("WidgetSection", () => {
  it("is not shown to an account without white-label and without keys", () => {
    expect(render({ enabled: false, keys: [] })).toBe("");
  });

  it("lists each key with its origins, lead count and embed code, and offers to create one", () => {
    const t = text(render({ enabled: true, keys: [key] }, leads));
    expect(t).toContain("Widget & leads");
    expect(t).toContain(`${key.key} https://studio.example, http://127.0.0.1:8081 · Created Nov 29, 2026, 5:00 AM UTC · 1 lead`);
    expect(t).toContain(key.embedCode);
    expect(t).toContain("Copy embed code");
    expect(t).toContain("Create Widget Key");
    expect(t).toContain("Download CSV");
  });

  it("after a downgrade keeps the keys and leads but offers no new key", () => {
    const t = text(render({ enabled: false, keys: [key] }));
    expect(t).toContain("Your plan no longer includes the widget");
    expect(t).not.toContain("Create Widget Key");
  });
});

describe("LeadsTable", () => {
  it("shows each lead with its report link, and pages when there are more", () => {
    const html = renderToStaticMarkup(<LeadsTable data={{ ...leads, total: 60 }} page={1} onPage={() => undefined} />);
    const t = text(html);
    expect(t).toContain("Nov 29, 2026, 5:10 AM Ada ada@visitor.example https://ada.example/ Open report");
    expect(html).toContain('href="https://sitelens.example/results?id=a1"');
    expect(t).toContain("Page 1 of 3");
  });

  it("says when there are no leads yet", () => {
    const t = text(renderToStaticMarkup(<LeadsTable data={{ ...leads, leads: [], total: 0 }} page={1} onPage={() => undefined} />));
    expect(t).toContain("No leads yet.");
  });
});
