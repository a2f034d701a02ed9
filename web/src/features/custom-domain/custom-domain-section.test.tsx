// The dashboard's custom-domain card: the records to add and the state as the server answers
// them, the refusal for a plan without white-label, and the calls the card makes.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setCsrfToken } from "../../lib/api-client";
import type { CustomDomainSettings } from "../../lib/domain";
import { getCustomDomain, removeCustomDomain, setCustomDomain, verifyCustomDomain } from "./api/custom-domain";
import { CustomDomainSection } from "./custom-domain-section";

function render(settings: CustomDomainSettings) {
  const client = new QueryClient();
  client.setQueryData(["custom-domain"], settings);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <CustomDomainSection />
    </QueryClientProvider>,
  );
  const buttons = [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map(
    ([, attributes = "", content = ""]) => /aria-label="([^"]*)"/.exec(attributes)?.[1] ?? content.replace(/<[^>]+>/g, ""),
  );
  return { text: html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " "), buttons };
}

const pending: CustomDomainSettings = {
  customDomain: {
    domain: "reports.agency.example",
    verified: false,
    verifiedAt: null,
    recordName: "_sitelens-verify.reports.agency.example",
    recordValue: "sitelens-verify=0123456789abcdef0123456789abcdef",
    checkedAt: "2026-11-29T05:00:00Z",
    lastError: "No TXT record was found at _sitelens-verify.reports.agency.example.",
    publicBase: "https://reports.agency.example",
  },
  targetHost: "sitelens.example",
  records: [
    { kind: "TXT", name: "_sitelens-verify.reports.agency.example", value: "sitelens-verify=0123456789abcdef0123456789abcdef", purpose: "Proves the domain is yours." },
    { kind: "CNAME", name: "reports.agency.example", value: "sitelens.example", purpose: "Sends your visitors here." },
  ],
  instructions: ["Press Verify now."],
};

function stubFetch(status: number, body: unknown) {
  const f = vi.fn((..._args: unknown[]) => Promise.resolve(new Response(JSON.stringify(body), { status })));
  vi.stubGlobal("fetch", f);
  return f;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setCsrfToken(null);
});

describe("CustomDomainSection", () => {
  it("shows the records to add, the state and the last error, with verify and remove", () => {
    const { text, buttons } = render(pending);
    expect(text).toContain("reports.agency.example Not verified");
    expect(text).toContain("Last checked Nov 29, 2026, 5:00 AM UTC.");
    expect(text).toContain("No TXT record was found at _sitelens-verify.reports.agency.example.");
    expect(text).toContain("TXT _sitelens-verify.reports.agency.example sitelens-verify=0123456789abcdef0123456789abcdef");
    expect(text).toContain("CNAME reports.agency.example sitelens.example");
    expect(buttons).toEqual(["Verify now", "Remove domain", "Change domain", "Copy the TXT value", "Copy the CNAME value"]);
  });

  it("says where a verified domain shares reports", () => {
    const verified = { ...pending, customDomain: { ...pending.customDomain!, verified: true, verifiedAt: "2026-11-29T05:01:00Z", lastError: null } };
    const { text } = render(verified);
    expect(text).toContain("Verified");
    expect(text).toContain("Branded reports are shared as https://reports.agency.example/results/…");
  });

  it("asks for a domain before there is one", () => {
    const { text, buttons } = render({ customDomain: null, targetHost: "sitelens.example", records: [], instructions: ["Enter a domain."] });
    expect(text).toContain("Enter a domain.");
    expect(buttons).toEqual(["Save domain"]);
  });
});

describe("the custom domain calls", () => {
  it("read, set, verify and remove /api/white-label/domain with the CSRF token on changes", async () => {
    setCsrfToken("csrf-1");
    const f = stubFetch(200, pending);
    await getCustomDomain();
    await setCustomDomain("reports.agency.example");
    await verifyCustomDomain();
    await removeCustomDomain();
    const calls = f.mock.calls.map(([url, init]) => [url, (init as RequestInit | undefined)?.method ?? "GET"]);
    expect(calls).toEqual([
      ["/api/white-label/domain", "GET"],
      ["/api/white-label/domain", "PUT"],
      ["/api/white-label/domain/verify", "POST"],
      ["/api/white-label/domain", "DELETE"],
    ]);
    expect((f.mock.calls[1]![1] as RequestInit).headers).toMatchObject({ "X-CSRF-Token": "csrf-1" });
    expect((f.mock.calls[1]![1] as RequestInit).body).toBe(JSON.stringify({ domain: "reports.agency.example" }));
  });

  it("turns a refusal into an error with the server's reason", async () => {
    stubFetch(403, { success: false, error: "Custom domains are part of the Agency and Enterprise plans." });
    await expect(getCustomDomain()).rejects.toMatchObject({ status: 403, message: "Custom domains are part of the Agency and Enterprise plans." });
  });
});
