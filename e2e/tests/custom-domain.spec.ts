import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "@playwright/test";
import { test, expect, shot, signUp, analyze } from "./fixtures";
import { startServer } from "../servers.mjs";

/**
 * Custom domains (issue 15 item 3), as an agency sets one up: the dashboard's card, a real DNS
 * server on 127.0.0.1 (dnslib running scripts/dns-zone.py, installed by `just setup`) holding the
 * TXT record, and the branded report opened on the agency's domain by a browser that resolves
 * that name to our server. This spec runs its own server, pointed at that DNS server.
 */
const repo = resolve(import.meta.dirname, "../..");
const HOST = "reports.grace-agency.example";

/**
 * A Chromium with the suite's flags (crates/analyzer/assets/chromium-flags.txt) whose resolver
 * sends `names` to our server (`host:port`) and, as in the suite, resolves nothing else.
 */
async function browserResolving(names: string[], target: string) {
  const args = readFileSync(join(repo, "crates/analyzer/assets/chromium-flags.txt"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => (l.startsWith("--host-resolver-rules=") ? `--host-resolver-rules=${names.map((n) => `MAP ${n} ${target}, `).join("")}${l.slice("--host-resolver-rules=".length)}` : l))
    .concat(["--headless"]);
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args });
}

let dns: ChildProcess;
let dnsPort = 0;
let zoneDir = "";
let server: Awaited<ReturnType<typeof startServer>>;

test.beforeAll(async () => {
  zoneDir = mkdtempSync(join(tmpdir(), "sitelens-zone-"));
  writeFileSync(join(zoneDir, "zone.txt"), "");
  dns = spawn("python3", ["-S", join(repo, "scripts/dns-zone.py"), join(zoneDir, "zone.txt")], {
    env: { ...process.env, PYTHONPATH: process.env.SITELENS_TEST_DNSLIB ?? join(repo, ".tools/dnslib") },
    stdio: ["ignore", "pipe", "inherit"],
  });
  dnsPort = await new Promise<number>((ok, fail) => {
    let out = "";
    dns.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("\n")) ok(Number(out.trim()));
    });
    dns.on("exit", (code) => fail(new Error(`the DNS server exited with code ${code}: run \`just setup\``)));
  });
  server = await startServer({ SITELENS_DNS_RESOLVER: `127.0.0.1:${dnsPort}` });
});

test.afterAll(async () => {
  await server?.stop();
  dns?.kill("SIGTERM");
  rmSync(zoneDir, { recursive: true, force: true });
});

test("an agency verifies its domain and its branded report is served there", async ({ page, siteUrl }, info) => {
  test.setTimeout(180_000);
  const base = server.url;
  const email = `domain-${Date.now()}@example.com`;
  // The spec's own server, not the suite's: every address below is absolute.
  const goto = page.goto.bind(page);
  page.goto = (url, options) => goto(url.startsWith("/") ? base + url : url, options);
  await signUp(page, email);
  execFileSync(server.bin, ["set-plan", email, "agency"], { env: { ...process.env, SITELENS_DATABASE_URL: server.databaseUrl }, stdio: "pipe" });
  // The brand first: the reports a custom domain serves wear it.
  const account = await (await page.request.get(`${base}/api/account`)).json();
  const brand = await page.request.put(`${base}/api/white-label`, {
    headers: { "x-csrf-token": account.csrfToken as string },
    data: { companyName: "Grace Agency", primaryColor: "#7C3AED" },
  });
  expect(brand.status(), await brand.text()).toBe(200);
  await page.goto("/dashboard");

  const card = page.getByRole("heading", { name: "Custom domain" });
  await card.scrollIntoViewIfNeeded();
  const domain = page.getByRole("textbox", { name: "Domain" });
  await domain.fill("https://" + HOST);
  await page.getByRole("button", { name: "Save domain" }).click();
  await expect(page.getByText("Enter the domain alone, without http:// or https://")).toBeVisible();
  await domain.fill(HOST.toUpperCase());
  await page.getByRole("button", { name: "Save domain" }).click();
  await expect(page.getByText("Not verified")).toBeVisible();

  // No record yet: the check says so.
  await page.getByRole("button", { name: "Verify now" }).click();
  await expect(page.getByText(`No TXT record was found at _sitelens-verify.${HOST}`)).toBeVisible();

  // The record the card shows, added at "the DNS provider": verified.
  const value = await page.getByRole("row").filter({ hasText: "TXT" }).getByText(/^sitelens-verify=/).textContent();
  writeFileSync(join(zoneDir, "zone.txt"), `_sitelens-verify.${HOST}. 60 IN TXT "${value}"\n`);
  await page.getByRole("button", { name: "Verify now" }).click();
  await expect(page.getByText("Verified", { exact: true })).toBeVisible();
  await expect(page.getByText(`https://${HOST}/results/…`)).toBeVisible();
  await shot(page, info, "custom-domain-verified");

  // A report of the agency, branded, opened on its domain.
  await analyze(page, siteUrl);
  const id = new URL(page.url()).searchParams.get("id") ?? "";
  const browser = await browserResolving([HOST, "elsewhere.example"], new URL(base).host);
  try {
    const visitor = await browser.newPage();
    const res = await visitor.goto(`http://${HOST}/results/${id}`);
    expect(res?.status()).toBe(200);
    await expect(visitor.getByRole("heading", { name: "Website Analysis Results" })).toBeVisible({ timeout: 30_000 });
    // The agency's frame, not ours: no header, link or upsell of Sitelens there.
    await expect(visitor.getByText("Report prepared by Grace Agency")).toBeVisible();
    expect(await visitor.locator("body").innerText()).not.toContain("Sitelens");
    // The canonical address is the custom domain's, by the report's own id (the address above names its analysis).
    await expect(visitor.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`^https://${HOST.replace(/[.-]/g, "\\$&")}/results/[0-9a-f-]{36}$`));
    await shot(visitor, info, "custom-domain-report");
    // Only the agency's reports: our other pages are not served there.
    expect((await visitor.goto(`http://${HOST}/pricing`))?.status()).toBe(404);
    // A host that is neither ours nor a verified domain is refused.
    expect((await visitor.goto("http://elsewhere.example/"))?.status()).toBe(421);
  } finally {
    await browser.close();
  }
});
