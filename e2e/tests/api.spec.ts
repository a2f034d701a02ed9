import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test, expect, seriousViolations, shot } from "./fixtures";

/** A callback receiver on 127.0.0.1: every request's signature header and raw body, answered 204. */
async function callbackReceiver() {
  const got: { signature: string; eventId: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      got.push({ signature: String(req.headers["sitelens-signature"]), eventId: String(req.headers["sitelens-event-id"]), body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/sitelens`, got, close: () => server.close() };
}

test.describe("the public API", () => {
  test("a developer creates a key on the dashboard, runs an analysis with it, reads its report and PDF, then revokes it", async ({ page, request, baseURL, siteUrl }, info) => {
    const email = `dev-${Date.now()}@example.com`;
    await page.goto("/sign-up");
    await expect(page).toHaveURL(/\/accounts\/sign-up\?redirect_url=%2Fdashboard/);
    await page.getByLabel("First name").fill("Linus");
    await page.getByLabel("Last name").fill("Dev");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Username").fill(`dev${Date.now()}`);
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The trial's credit pays for the API's basic report (half a credit), as it would on the web.
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Start Free Trial" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/dashboard");

    await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
    await expect(page.getByText("No API keys yet.")).toBeVisible();
    await page.getByRole("button", { name: "Create Key" }).click();
    await expect(page.getByText("Give the key a name, for example the tool that will use it")).toBeVisible();
    await page.getByLabel("Key name").fill("Deploy pipeline");
    await page.getByRole("button", { name: "Create Key" }).click();
    const shown = page.getByLabel("New API key");
    await expect(shown).toHaveValue(/^slk_[0-9a-f]{64}$/);
    const key = await shown.inputValue();
    await page.getByRole("button", { name: "Copy key" }).click();
    await expect(page.getByText(/Copied to the clipboard\.|Copying failed/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, info, "api-key-created");
    await page.getByRole("button", { name: "I have copied it" }).click();
    await expect(shown).toBeHidden();
    const list = page.getByRole("list", { name: "API keys" });
    await expect(list).toContainText(`Deploy pipeline${key.slice(0, 12)}…`);
    await expect(list).toContainText("Last used Never");

    // The callback signing secret, shown on request.
    await page.getByRole("button", { name: "Show signing secret" }).click();
    const signing = page.getByRole("textbox", { name: "Callback signing secret" });
    await expect(signing).toHaveValue(/^slwh_[0-9a-f]{64}$/);
    const secret = await signing.inputValue();

    // The README's quick start, as a program makes it, with a callback to a receiver of ours.
    const receiver = await callbackReceiver();
    const auth = { Authorization: `Bearer ${key}` };
    const submitted = await request.post(`${baseURL}/api/v1/analyses`, {
      headers: { ...auth, "Idempotency-Key": `e2e-${Date.now()}` },
      data: { url: siteUrl, reportType: "basic", callbackUrl: receiver.url },
    });
    expect(submitted.status()).toBe(201);
    expect(submitted.headers()["ratelimit-limit"]).toBe("100");
    const { id } = (await submitted.json()) as { id: string };
    await expect
      .poll(async () => ((await (await request.get(`${baseURL}/api/v1/analyses/${id}`, { headers: auth })).json()) as { status: string }).status, { timeout: 90_000 })
      .toBe("complete");
    // The signed callback arrives, and verifies as /api-docs says.
    await expect.poll(() => receiver.got.length, { timeout: 30_000 }).toBe(1);
    const [callback] = receiver.got;
    receiver.close();
    const { t, v1 } = Object.fromEntries(callback!.signature.split(",").map((part) => part.split("=", 2))) as { t: string; v1: string };
    expect(createHmac("sha256", secret).update(`${t}.${callback!.body}`).digest("hex")).toBe(v1);
    const event = JSON.parse(callback!.body) as { id: string; type: string; analysis: { id: string } };
    expect([event.type, event.analysis.id, event.id]).toEqual(["analysis.completed", id, callback!.eventId]);
    const report = await request.get(`${baseURL}/api/v1/analyses/${id}/report`, { headers: auth });
    expect(report.status()).toBe(200);
    expect(((await report.json()) as { scores: { overall: number } }).scores.overall).toBeGreaterThan(0);
    const pdf = await request.get(`${baseURL}/api/v1/analyses/${id}/report.pdf`, { headers: auth });
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 4).toString()).toBe("%PDF");
    const usage = (await (await request.get(`${baseURL}/api/v1/usage`, { headers: auth })).json()) as { trialCredits: number; callsThisPeriod: number };
    expect(usage.trialCredits).toBe(0.5);
    expect(usage.callsThisPeriod).toBeGreaterThanOrEqual(4);
    const delivered = (await (await request.get(`${baseURL}/api/v1/analyses/${id}`, { headers: auth })).json()) as { callback: { state: string } };
    expect(delivered.callback.state).toBe("delivered");

    // The dashboard shows the key used; revoking it stops it at once.
    await page.reload();
    await expect(list).not.toContainText("Last used Never");
    await expect(page.getByRole("heading", { name: siteUrl })).toBeVisible();
    await shot(page, info, "api-key-used");
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Revoke Deploy pipeline" }).click();
    await expect(page.getByText("No API keys yet.")).toBeVisible();
    const refused = await request.get(`${baseURL}/api/v1/usage`, { headers: auth });
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
  });
});

test.describe("the API's pages", () => {
  test("/api-docs shows the interactive reference under its section, fetched from no other host", async ({ page, baseURL }, info) => {
    const offsite: string[] = [];
    page.on("request", (r) => {
      const url = r.url();
      if (!url.startsWith(baseURL ?? "") && !url.startsWith("data:") && !url.startsWith("blob:")) offsite.push(url);
    });
    await page.goto("/api-docs");
    await expect(page.getByRole("heading", { name: "Interactive reference" })).toBeVisible();
    const reference = page.getByRole("region", { name: "Interactive API reference" });
    await expect(reference.getByRole("button", { name: /POST\s*\/analyses/ })).toBeVisible({ timeout: 30_000 });
    // Placed under its section, before the related articles.
    const below = await page.evaluate(() => {
      const heading = document.getElementById("interactive-reference");
      const region = document.querySelector('[aria-label="Interactive API reference"]');
      const related = document.getElementById("related");
      const follows = (a: Node | null, b: Node | null) => !!a && !!b && !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
      return follows(heading, region) && follows(region, related);
    });
    expect(below).toBe(true);
    await reference.getByRole("button", { name: /GET\s*\/status/ }).click();
    await expect(reference.getByText("the service's status now and its last 24 hours")).toBeVisible();
    expect(offsite).toEqual([]);
    await shot(page, info, "api-docs");
  });

  test("the reference's code and stylesheet load on /api-docs only, also after an in-app navigation", async ({ page }) => {
    const reference: string[] = [];
    page.on("request", (r) => {
      if (/\/assets\/api-reference-/.test(r.url())) reference.push(r.url());
    });
    await page.goto("/api-status");
    await page.goto("/pricing");
    expect(reference).toEqual([]);
    await page.getByRole("link", { name: "Read the API documentation" }).click();
    await expect(page).toHaveURL(/\/api-docs$/);
    await expect(page.getByRole("region", { name: "Interactive API reference" }).getByRole("button", { name: /POST\s*\/analyses/ })).toBeVisible({ timeout: 30_000 });
    expect(reference.map((u) => u.split(".").pop()).sort()).toEqual(["css", "js"]);
  });

  test("/api-status shows each part of the service and the last 24 hours, from its JSON twin", async ({ page, request, baseURL }, info) => {
    const status = (await (await request.get(`${baseURL}/api/v1/status`)).json()) as { state: string; workers: { alive: number } };
    expect(status.workers.alive).toBeGreaterThanOrEqual(1);
    await page.goto("/api-status");
    await expect(page.getByRole("heading", { level: 1, name: "API status" })).toBeVisible();
    for (const part of ["API", "Database", "Analysis queue", "Workers", "Browser"]) {
      await expect(page.getByRole("heading", { level: 3, name: part, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "Last 24 hours" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Health by half hour, oldest first" }).getByRole("listitem")).toHaveCount(48);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, info, "api-status");
  });
});
