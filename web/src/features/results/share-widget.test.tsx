// The share widget carries a signed-in approved affiliate's referral code (docs/PRODUCT.md
// §2.6.4, share inputs), so a shared report link earns for them; everyone else shares the plain
// report link.
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { Account } from "../../lib/domain";
import { ShareWidget } from "./share-widget";

function render(account: Account | null, code: string | null): string {
  const client = new QueryClient();
  client.setQueryData(["account"], account);
  client.setQueryData(["affiliate-link"], code);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ShareWidget reportUrl="https://sitelens.test/results?id=r1" websiteUrl="example.com" overallScore={82} reportId="r1" />
    </QueryClientProvider>,
  );
}

const account = { email: "ann@example.com", csrfToken: "t", plan: "basic" } as unknown as Account;

describe("ShareWidget", () => {
  it("adds the approved affiliate's code to the shared link", () => {
    const html = render(account, "ANN30XYZ");
    expect(html).toContain(encodeURIComponent("https://sitelens.test/results?id=r1&ref=ANN30XYZ"));
  });

  it("shares the plain link for a visitor who is not signed in", () => {
    const html = render(null, "ANN30XYZ");
    expect(html).toContain(encodeURIComponent("https://sitelens.test/results?id=r1"));
    expect(html).not.toContain("ANN30XYZ");
  });
});
