import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
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

/** Waits until every finite animation and transition on the page has ended (a menu's slide-in). */
export async function animationsDone(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
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

/** A message as `scripts/mail-sink.py` wrote it. */
export type Mail = {
  to: string[];
  from: string;
  reply_to: string | null;
  subject: string;
  content_type: string;
  body: string;
  attachments: { filename: string; content_type: string; base64: string }[];
};

/**
 * The newest message to `address` whose subject is `subject` (or matches it) that the test's
 * SMTP server received (global-setup.ts), waiting for it to arrive.
 */
export async function mailTo(address: string, subject: string | RegExp): Promise<Mail> {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set: the suite's global setup starts the mail server");
  const wanted = (s: string) => (typeof subject === "string" ? s === subject : subject.test(s));
  let found: Mail | undefined;
  await expect
    .poll(
      () => {
        const mails = readdirSync(dir)
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Mail);
        found = mails.reverse().find((m) => m.to.includes(address) && wanted(m.subject));
        return found !== undefined;
      },
      { message: `a mail "${String(subject)}" to ${address}` },
    )
    .toBe(true);
  if (!found) throw new Error(`no mail "${String(subject)}" to ${address}`);
  return found;
}

/** The link to the accounts page `page` in the newest mail to `address` with `subject`. */
export async function mailedLink(address: string, subject: string, page: string): Promise<string> {
  const found = await mailTo(address, subject);
  const link = found.body.match(new RegExp(`https?://\\S+/${page}\\?token=[A-Za-z0-9_-]+`))?.[0];
  if (!link) throw new Error(`no ${page} link in the mail "${subject}":\n${found.body}`);
  return link;
}

/** Runs the operator command `sitelens set-plan` against the suite's server database. */
export function setPlan(email: string, plan: string) {
  const bin = process.env.SITELENS_BIN;
  const database = process.env.E2E_DATABASE_URL;
  if (!bin || !database) throw new Error("SITELENS_BIN and E2E_DATABASE_URL are set by the suite's global setup");
  execFileSync(bin, ["set-plan", email, plan], { env: { ...process.env, SITELENS_DATABASE_URL: database }, stdio: "pipe" });
}

/** Runs the operator command `sitelens admin grant EMAIL --level LEVEL` against the suite's server database. */
export function grantAdmin(email: string, level: "support" | "admin" | "owner" = "owner") {
  const bin = process.env.SITELENS_BIN;
  const database = process.env.E2E_DATABASE_URL;
  if (!bin || !database) throw new Error("SITELENS_BIN and E2E_DATABASE_URL are set by the suite's global setup");
  execFileSync(bin, ["admin", "grant", email, "--level", level], { env: { ...process.env, SITELENS_DATABASE_URL: database }, stdio: "pipe" });
}

/** The password every test account signs up with. */
export const PASSWORD = "correct horse battery";

/** Signs a new account up on our accounts page (username: the address's local part); ends on the dashboard. */
export async function signUp(page: Page, email: string) {
  await page.goto("/accounts/sign-up");
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Username").fill(email.split("@")[0] ?? email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}
