// The white-label settings: the calls (a 422's fields kept, the logo sent as the file itself with
// the CSRF token) and what the form and its preview show for a saved brand and for none.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setCsrfToken } from "../../lib/api-client";
import type { WhiteLabelSettings } from "../../lib/domain";
import { saveBranding, uploadLogo, WhiteLabelError } from "./api/white-label";
import { BrandingForm } from "./branding-form";

function stubFetch(status: number, body: unknown) {
  const f = vi.fn((..._args: unknown[]) => Promise.resolve(new Response(JSON.stringify(body), { status })));
  vi.stubGlobal("fetch", f);
  return f;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setCsrfToken(null);
});

const studio: WhiteLabelSettings = {
  accountWhiteLabel: true,
  mayBrand: true,
  branding: {
    companyName: "Studio Grace",
    logoUrl: "/api/white-label/logos/7-0123456789abcdef.png",
    primaryColor: "#0F766E",
    secondaryColor: "#F59E0B",
    fontFamily: "Georgia, 'Times New Roman', serif",
    contactEmail: "hello@studio.example",
    websiteUrl: "https://studio.example/",
  },
};

function render(settings: WhiteLabelSettings) {
  const html = renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <BrandingForm settings={settings} />
    </QueryClientProvider>,
  );
  return { html, text: html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ") };
}

describe("white-label calls", () => {
  it("keeps every failing field of a 422", async () => {
    stubFetch(422, {
      success: false,
      error: "Company name is required",
      fields: [
        { field: "companyName", message: "Company name is required" },
        { field: "contactEmail", message: "Please enter a valid email address" },
      ],
    });
    const failed = await saveBranding({
      companyName: "",
      primaryColor: "",
      secondaryColor: "",
      fontFamily: "",
      contactEmail: "x@",
      contactPhone: "",
      websiteUrl: "",
    }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WhiteLabelError);
    expect((failed as WhiteLabelError).status).toBe(422);
    expect((failed as WhiteLabelError).message).toBe("Company name is required");
    expect((failed as WhiteLabelError).fields.map((f) => f.field)).toEqual(["companyName", "contactEmail"]);
  });

  it("sends the logo file itself, typed, with the session's CSRF token", async () => {
    const f = stubFetch(200, studio);
    setCsrfToken("token-1");
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "logo.png", { type: "image/png" });
    expect(await uploadLogo(file)).toEqual(studio);
    const [path, init] = f.mock.calls[0] as [string, RequestInit];
    expect(path).toBe("/api/white-label/logo");
    expect(init.method).toBe("PUT");
    expect(init.body).toBe(file);
    expect(init.headers).toEqual({ "X-CSRF-Token": "token-1", "Content-Type": "image/png" });
  });
});

describe("BrandingForm", () => {
  it("shows a saved brand in its fields and in the preview, with its logo", () => {
    const { html, text } = render(studio);
    expect(html).toContain('value="Studio Grace"');
    expect(html).toContain('value="#0F766E"');
    expect(html).toContain('src="/api/white-label/logos/7-0123456789abcdef.png"');
    expect(html).toContain('alt="Studio Grace logo"');
    expect(text).toContain("Prepared by Studio Grace");
    expect(text).toContain("hello@studio.example · https://studio.example/");
    expect(text).toContain("Replace logo");
    expect(text).toContain("Remove logo");
    expect(text).toContain("Every report of your account carries this brand");
  });

  it("starts from Sitelens' defaults without a brand, and says whose reports a Premium-only brand covers", () => {
    const { html, text } = render({ accountWhiteLabel: false, mayBrand: true, branding: null });
    expect(html).toContain('value="#4F46E5"');
    expect(html).toContain('value="#10B981"');
    expect(text).toContain("Your company");
    expect(text).toContain("Choose logo");
    expect(text).not.toContain("Remove logo");
    expect(text).toContain("Your Premium reports carry this brand");
    expect(text).toContain("Your contact details appear here.");
  });
});
