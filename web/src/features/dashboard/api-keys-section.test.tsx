// The dashboard's API keys card: the list as the server answers it, the new key shown once,
// the name rule from domain, and the calls the card makes.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setCsrfToken } from "../../lib/api-client";
import { validateKeyName, type ApiKeyView, type CallbackSecretView, type CreatedApiKey } from "../../lib/domain";
import { createApiKey, listApiKeys, revokeApiKey } from "./api/api-keys";
import { getCallbackSecret, rotateCallbackSecret } from "./api/callback-secret";
import { ApiKeysSection, CallbackSecretDetails, NewKeyNotice, when } from "./api-keys-section";

/** The rendered text, tags dropped, and the accessible names of the buttons. */
function text(html: string) {
  const buttons = [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map(
    ([, attributes = "", content = ""]) => /aria-label="([^"]*)"/.exec(attributes)?.[1] ?? content.replace(/<[^>]+>/g, ""),
  );
  return { text: html.replace(/<[^>]+>/g, " ").replace(/&quot;/g, '"').replace(/\s+/g, " "), buttons };
}

function render(keys: ApiKeyView[] | undefined) {
  const client = new QueryClient();
  if (keys) client.setQueryData(["api-keys"], keys);
  return text(
    renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <ApiKeysSection />
      </QueryClientProvider>,
    ),
  );
}

const keys: ApiKeyView[] = [
  { id: 2, name: "Deploy pipeline", prefix: "slk_1a2b3c4d", createdAt: "2026-11-28T18:40:00Z", lastUsedAt: "2026-11-28T19:05:00Z" },
  { id: 1, name: "Nightly audit", prefix: "slk_99ffee00", createdAt: "2026-11-01T08:00:00Z", lastUsedAt: null },
];

function stubFetch(status: number, body: unknown) {
  const f = vi.fn((..._args: unknown[]) => Promise.resolve(new Response(JSON.stringify(body), { status })));
  vi.stubGlobal("fetch", f);
  return f;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setCsrfToken(null);
});

describe("ApiKeysSection", () => {
  it("lists each key by name and prefix with when it was created and last used, and offers to revoke it", () => {
    const { text: t, buttons } = render(keys);
    expect(t).toContain("Deploy pipeline slk_1a2b3c4d… · Created Nov 28, 2026, 6:40 PM UTC · Last used Nov 28, 2026, 7:05 PM UTC");
    expect(t).toContain("Nightly audit slk_99ffee00… · Created Nov 1, 2026, 8:00 AM UTC · Last used Never");
    expect(t).toContain("Each key may make 100 requests a minute");
    expect(buttons).toEqual(["Revoke Deploy pipeline", "Revoke Nightly audit", "Create Key", "Show signing secret"]);
  });

  it("says when there is no key yet, and still offers to create one", () => {
    const { text: t, buttons } = render([]);
    expect(t).toContain("No API keys yet.");
    expect(buttons).toEqual(["Create Key", "Show signing secret"]);
  });

  it("shows a new key in full once, with a copy button", () => {
    const created: CreatedApiKey = { secret: `slk_${"ab".repeat(32)}`, key: keys[0]! };
    const html = renderToStaticMarkup(<NewKeyNotice created={created} onDone={() => {}} />);
    const { text: t, buttons } = text(html);
    expect(t).toContain("Your new key Deploy pipeline . Copy it now: it will not be shown again.");
    expect(html).toMatch(new RegExp(`<input[^>]*readOnly=""[^>]*value="slk_${"ab".repeat(32)}"|<input[^>]*value="slk_${"ab".repeat(32)}"[^>]*readOnly`));
    expect(html).toContain('aria-label="New API key"');
    expect(buttons).toEqual(["Copy key", "I have copied it"]);
  });

  it("checks key names with domain's rule", () => {
    expect(validateKeyName("  CI  ")).toBeNull();
    expect(validateKeyName("   ")).toMatch(/Give the key a name/);
    expect(validateKeyName("x".repeat(65))).toMatch(/at most 64 characters/);
    expect(when(null)).toBe("Never");
  });
});

describe("CallbackSecretDetails", () => {
  const secret: CallbackSecretView = { secret: `slwh_${"0f".repeat(32)}`, createdAt: "2026-11-28T18:40:00Z", teamSecret: false, canRotate: true };

  function details(view: CallbackSecretView) {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <CallbackSecretDetails view={view} />
      </QueryClientProvider>,
    );
    return { html, ...text(html) };
  }

  it("shows the account's own secret to copy and rotate", () => {
    const { html, text: t, buttons } = details(secret);
    expect(html).toContain(`value="${secret.secret}"`);
    expect(html).toContain('aria-label="Callback signing secret"');
    expect(t).toContain("Made Nov 28, 2026, 6:40 PM UTC.");
    expect(buttons).toEqual(["Copy secret", "Rotate secret"]);
  });

  it("shows a team member the owner's secret, without rotating it", () => {
    const { text: t, buttons } = details({ ...secret, teamSecret: true, canRotate: false });
    expect(t).toContain("it signs the callbacks of your analyses, as the owner");
    expect(t).toContain("Only the owner can rotate it.");
    expect(buttons).toEqual(["Copy secret"]);
  });
});

describe("API key calls", () => {
  it("lists, creates with the CSRF token, and revokes by id", async () => {
    let f = stubFetch(200, keys);
    expect(await listApiKeys()).toEqual(keys);
    expect(f.mock.calls[0]![0]).toBe("/api/account/api-keys");

    setCsrfToken("csrf-1");
    f = stubFetch(201, { secret: "slk_x", key: keys[0] });
    expect((await createApiKey({ name: "CI" })).secret).toBe("slk_x");
    const init = f.mock.calls[0]![1] as RequestInit;
    expect([f.mock.calls[0]![0], init.method, init.body]).toEqual(["/api/account/api-keys", "POST", '{"name":"CI"}']);
    expect((init.headers as Record<string, string>)["X-CSRF-Token"]).toBe("csrf-1");

    f = stubFetch(200, { success: true, message: "The API key is revoked" });
    await revokeApiKey(2);
    expect([f.mock.calls[0]![0], (f.mock.calls[0]![1] as RequestInit).method]).toEqual(["/api/account/api-keys/2", "DELETE"]);
  });

  it("reads the callback secret and rotates it with the CSRF token", async () => {
    const view: CallbackSecretView = { secret: "slwh_x", createdAt: "2026-11-28T18:40:00Z", teamSecret: false, canRotate: true };
    let f = stubFetch(200, view);
    expect(await getCallbackSecret()).toEqual(view);
    expect(f.mock.calls[0]![0]).toBe("/api/account/callback-secret");

    setCsrfToken("csrf-2");
    f = stubFetch(200, { ...view, secret: "slwh_y" });
    expect((await rotateCallbackSecret()).secret).toBe("slwh_y");
    const init = f.mock.calls[0]![1] as RequestInit;
    expect([f.mock.calls[0]![0], init.method]).toEqual(["/api/account/callback-secret/rotate", "POST"]);
    expect((init.headers as Record<string, string>)["X-CSRF-Token"]).toBe("csrf-2");
  });

  it("throws the server's message", async () => {
    stubFetch(409, { success: false, error: "An account can hold 20 API keys. Revoke one you no longer use first." });
    await expect(createApiKey({ name: "one too many" })).rejects.toThrow("An account can hold 20 API keys");
  });
});
