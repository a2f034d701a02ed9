import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { test, expect, seriousViolations, setPlan, shot } from "./fixtures";

/**
 * An agency's own website on a second loopback origin: a plain page with its own CSS (serif
 * text, red buttons, huge labels) that embeds the widget with the snippet from the dashboard
 * (`/`), and the same page without it (`/plain`), to compare the page's own styles.
 */
async function agencySite() {
  let snippet = "";
  const page = (embed: boolean) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Studio Grace — web design</title>
<style>
  body { font-family: Georgia, serif; color: rgb(120, 0, 0); margin: 2rem; }
  button { background: rgb(255, 0, 0); color: rgb(255, 255, 0); font-size: 22px; }
  label, input { font-size: 40px; }
  * { letter-spacing: 3px; }
</style></head>
<body>
  <h1>Studio Grace</h1>
  <p class="intro">We build fast websites. Ask for a free audit below.</p>
  <button class="cta" type="button">Call us</button>
  <div data-sitelens-widget></div>
  <p class="outro">Thanks for visiting.</p>
  ${embed ? snippet : ""}
</body></html>`;
  const server = createServer((req, res) => {
    const embed = !req.url?.startsWith("/plain");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page(embed));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    setSnippet: (s: string) => (snippet = s),
    close: () => server.close(),
  };
}

/** The computed styles of the page's own elements that its CSS sets. */
async function hostStyles(page: Page) {
  return page.evaluate(() => {
    const pick = (selector: string) => {
      const el = document.querySelector(selector);
      if (!el) throw new Error(`no ${selector}`);
      const s = getComputedStyle(el);
      return { font: s.fontFamily, color: s.color, background: s.backgroundColor, size: s.fontSize, spacing: s.letterSpacing, margin: s.margin };
    };
    return {
      body: pick("body"),
      intro: pick("p.intro"),
      cta: pick("button.cta"),
      outro: pick("p.outro"),
      documentSheets: document.styleSheets.length,
      adopted: document.adoptedStyleSheets.length,
    };
  });
}

/**
 * Runs `sql` on the suite's server database (SQLite): the agency's brand is written here, as the
 * white-label settings page (another engineer's) would save it.
 */
function sqlite(sql: string): string {
  const file = (process.env.E2E_DATABASE_URL ?? "").replace(/^sqlite:\/\//, "").replace(/\?.*$/, "");
  if (!file) throw new Error("E2E_DATABASE_URL is set by the suite's global setup");
  return execFileSync("sqlite3", [file, sql], { encoding: "utf8" }).trim();
}

/** The newest mail the suite's SMTP server received for `to` with a subject starting `subject`. */
async function mailTo(to: string, subject: string) {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set: the suite's global setup starts the mail server");
  type Mail = { to: string[]; subject: string; body: string };
  let found: Mail | undefined;
  await expect
    .poll(() => {
      found = readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Mail)
        .find((m) => m.to.includes(to) && m.subject.startsWith(subject));
      return found !== undefined;
    })
    .toBe(true);
  return found as Mail;
}

test.describe("the embeddable audit widget", () => {
  test("an agency embeds the widget on its own site, a visitor asks for an audit, and the lead reaches the dashboard", async ({ page, browser, siteUrl, baseURL }, info) => {
    const site = await agencySite();
    try {
      // The agency: an account on the Agency plan, with the trial's credit to pay for reports.
      const stamp = Date.now();
      const email = `agency-${stamp}@example.com`;
      await page.goto("/sign-up");
      await page.getByLabel("First name").fill("Grace");
      await page.getByLabel("Last name").fill("Studio");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Username").fill(`agency${stamp}`);
      await page.getByLabel("Password").fill("correct horse battery");
      await page.getByRole("button", { name: "Create Account" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      page.once("dialog", (d) => void d.accept());
      await page.getByRole("button", { name: "Start Free Trial" }).click();
      await expect(page).toHaveURL(/\/$/);
      setPlan(email, "agency");
      await page.goto("/dashboard");

      // A key for the agency's site, its embed code copied from the dashboard.
      const card = page.locator("#widget");
      await expect(card.getByRole("heading", { name: "Widget & leads" })).toBeVisible();
      await expect(card.getByText("No widget keys yet.")).toBeVisible();
      await card.getByLabel("Allowed origins (one a line)").fill(`${site.origin}/shop`);
      await card.getByRole("button", { name: "Create Widget Key" }).click();
      await expect(card.getByText(/is not an origin: leave out the path/)).toBeVisible();
      await card.getByLabel("Allowed origins (one a line)").fill(site.origin);
      await card.getByRole("button", { name: "Create Widget Key" }).click();
      const keys = card.getByRole("list", { name: "Widget keys" });
      await expect(keys).toContainText(site.origin);
      const embed = card.getByLabel("Embed code");
      await expect(embed).toHaveValue(new RegExp(`^<script async src="${baseURL}/widget.js" data-key="slw_[0-9a-f]{32}"></script>$`));
      const snippet = await embed.inputValue();
      site.setSnippet(snippet);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, info, "widget-dashboard-key");

      // The agency's brand; the dashboard then keeps the snippet on it (embedCode).
      const at = new Date().toISOString();
      sqlite(
        `INSERT INTO whitelabel_branding (user_id, company_name, primary_color, secondary_color, font_family, created_at, updated_at)
         SELECT id, 'Studio Grace', '#0F766E', '#B45309', 'Inter, sans-serif', '${at}', '${at}' FROM users WHERE email = '${email}';`,
      );
      await page.reload();
      await expect(card.getByLabel("Embed code")).toHaveValue(snippet);
      expect(sqlite(`SELECT embed_code FROM whitelabel_branding WHERE user_id = (SELECT id FROM users WHERE email = '${email}');`)).toBe(snippet);

      // A visitor on the agency's site: its own context, as a stranger's browser (without the
      // suite's X-Forwarded-For, which a page's own cross-origin fetch could not send either).
      const visitor = await browser.newContext({ viewport: { width: 1000, height: 900 }, extraHTTPHeaders: {} });
      const host = await visitor.newPage();
      await host.goto(`${site.origin}/plain`);
      const plain = await hostStyles(host);
      await host.goto(site.origin);
      const form = host.getByRole("form", { name: "Free website audit" });
      await expect(form).toBeVisible();
      await expect(form).toContainText("by Studio Grace");
      // The page's own styles are untouched, and it holds no stylesheet of the widget's.
      expect(await hostStyles(host)).toEqual(plain);
      // The page's CSS does not reach the widget: its button wears the agency's colour, its labels
      // their own size, its text its own font.
      const look = await host.getByRole("button", { name: "Get my free website audit" }).evaluate((b) => {
        const s = getComputedStyle(b);
        const label = getComputedStyle(b.getRootNode() instanceof ShadowRoot ? (b.getRootNode() as ShadowRoot).querySelector("label")! : b);
        return { background: s.backgroundColor, labelSize: label.fontSize, font: s.fontFamily, spacing: s.letterSpacing };
      });
      expect(look.background).toBe("rgb(15, 118, 110)");
      expect(look.labelSize).toBe("14px");
      expect(look.font).not.toContain("Georgia");
      expect(look.spacing).toBe("normal");
      // The widget sits in the page's placeholder, between the page's own paragraphs.
      const order = await host.evaluate(() => [...document.body.querySelectorAll("p.intro, sitelens-audit, p.outro")].map((e) => e.localName));
      expect(order).toEqual(["p", "sitelens-audit", "p"]);

      // The spec's messages, on each field, with the keyboard only.
      const first = host.getByLabel("First name");
      await first.focus();
      await host.keyboard.press("Tab");
      await host.keyboard.press("Tab");
      await host.keyboard.press("Tab");
      await expect(host.getByRole("button", { name: "Get my free website audit" })).toBeFocused();
      await host.keyboard.press("Enter");
      await expect(form.getByText("Please enter your first name")).toBeVisible();
      await expect(form.getByText("Please enter a valid email address")).toBeVisible();
      await expect(form.getByText("Please enter a valid website URL")).toBeVisible();
      await expect(first).toHaveAttribute("aria-invalid", "true");
      await expect(first).toBeFocused();
      await shot(host, info, "widget-errors");
      // No serious accessibility problem inside the widget (the agency's own page is its own).
      expect((await seriousViolations(host)).filter((v) => v.includes("sitelens-audit"))).toEqual([]);

      await host.keyboard.type("Ada");
      await host.keyboard.press("Tab");
      await host.keyboard.type(`ada-${stamp}@visitor.example`);
      await host.keyboard.press("Tab");
      await host.keyboard.type(siteUrl);
      await expect(first).not.toHaveAttribute("aria-invalid", "true");
      await host.keyboard.press("Enter");
      await expect(host.getByRole("status")).toContainText("Your audit has started");
      await expect(host.getByRole("progressbar", { name: "Audit progress" })).toBeVisible();
      const report = host.getByRole("link", { name: "View your report" });
      await expect(report).toBeVisible({ timeout: 90_000 });
      await expect(host.getByRole("status")).toHaveText("Your report is ready.");
      await expect(report).toHaveAttribute("href", new RegExp(`^https?://[^/]+/results\\?id=[0-9a-f-]{36}$`));
      await shot(host, info, "widget-report-ready");

      // The report opens.
      const href = (await report.getAttribute("href")) ?? "";
      await page.goto(new URL(href).pathname + new URL(href).search);
      await expect(page.getByRole("heading", { name: "Website Analysis Results" })).toBeVisible({ timeout: 30_000 });
      // The report wears the agency's brand (analysis_results.whitelabel_user_id).
      await expect(page.getByText("Report prepared by Studio Grace")).toBeVisible();
      await shot(page, info, "widget-report");

      // The lead, on the dashboard, in the export and by mail.
      await page.goto("/dashboard");
      const leads = page.getByRole("table");
      await expect(leads).toContainText(`ada-${stamp}@visitor.example`);
      await expect(leads).toContainText("Ada");
      await expect(keys).toContainText("1 lead");
      await page.locator("#widget").scrollIntoViewIfNeeded();
      await shot(page, info, "widget-dashboard-lead");
      const csv = await page.request.get("/api/account/widget/leads.csv");
      expect(csv.status()).toBe(200);
      expect(await csv.text()).toContain(`,Ada,ada-${stamp}@visitor.example,`);
      const mail = await mailTo(email, "New lead from your audit widget");
      expect(mail.body).toContain(`ada-${stamp}@visitor.example`);
      await visitor.close();
    } finally {
      site.close();
    }
  });
});
