import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test as base, expect, type Page, type TestInfo } from "@playwright/test";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

type Fixtures = { siteUrl: string };

/**
 * After a navigation, waits until the app has taken over the page the server sent (`data-app` on
 * <html>, set by app/layouts.tsx): server-rendered and prerendered pages show their controls
 * before the app answers them.
 */
async function appReady(page: Page) {
  await page.locator('html[data-app="ready"]').waitFor({ state: "attached" });
}

function hash(s: string) {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h;
}

/** Tests against the server started by global-setup; `siteUrl` is the local fixture website. */
export const test = base.extend<Fixtures>({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => {
      const res = await goto(url, options);
      if (res?.headers()["content-type"]?.startsWith("text/html")) await appReady(page);
      return res;
    };
    page.reload = async (options) => {
      const res = await reload(options);
      await appReady(page);
      return res;
    };
    await use(page);
  },
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
  // A distinct visitor address per test: the server trusts X-Forwarded-For from 127.0.0.1 here.
  extraHTTPHeaders: async ({}, use, info) => {
    const n = info.workerIndex * 4096 + (hash(info.testId) % 4096);
    await use({ "X-Forwarded-For": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` });
  },
  siteUrl: async ({}, use) => {
    await use(process.env.E2E_SITE_URL ?? "");
  },
});

export { expect };

/** Saves a full-page screenshot of the current screen as a test artifact. */
export async function shot(page: Page, info: TestInfo, name: string, fullPage = true) {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage });
  await info.attach(name, { path, contentType: "image/png" });
}

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/** Runs axe-core in the page and returns its serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, so the server's Content-Security-Policy stays in force for the app.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } });
    return r.violations;
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Runs one analysis of `url` from the home page and waits for its results. */
export async function analyze(page: Page, url: string) {
  await page.goto("/");
  await page.getByRole("textbox", { name: "Website address" }).fill(url);
  await page.getByRole("button", { name: "Analyze" }).click();
  await expect(page).toHaveURL(/\/results\?id=/, { timeout: 90_000 });
  await expect(page.getByRole("heading", { name: "Website Analysis Results" })).toBeVisible({ timeout: 30_000 });
}
