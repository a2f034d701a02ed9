import { readFileSync } from "node:fs";
import { test, expect, shot, analyze } from "./fixtures";

test.describe("the free-report journey", () => {
  test("home validates the address, analyses the fixture site and shows every part of the report", async ({ page, context, siteUrl }, info) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    // Share targets are external: answer them locally so no request leaves the machine.
    await context.route(/^https:\/\/(twitter\.com|www\.linkedin\.com|www\.facebook\.com)\//, (r) => r.fulfill({ body: "share", contentType: "text/plain" }));

    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText(/websites analyzed so far|Unable to load statistics/)).toBeVisible();
    await expect(page.getByRole("link", { name: "View Pricing" })).toHaveAttribute("href", "/pricing");
    await expect(page.getByRole("link", { name: "Try For Free" })).toHaveAttribute("href", "/sign-up");
    for (const card of ["SEO Analysis", "Design & UX", "Technical Structure", "Performance Insights", "Action Items", "Shareable Reports"]) {
      await expect(page.getByRole("heading", { name: card, exact: true })).toBeVisible();
    }
    await shot(page, info, "home");

    const input = page.getByRole("textbox", { name: "Website address" });
    await page.getByRole("button", { name: "Analyze" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Please enter a URL" })).toBeVisible();
    await expect(page.getByText("Please enter a valid website URL.", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Dismiss notification" }).click();
    await expect(page.getByText("Please enter a valid website URL.", { exact: true })).toHaveCount(0);
    await input.fill("not a url");
    await expect(page.getByText("Please enter a valid URL")).toBeVisible();
    await shot(page, info, "home-validation");

    await input.fill(siteUrl);
    await page.getByRole("button", { name: "Analyze" }).click();
    await expect(page).toHaveURL(/\/(analyzing|results)\?/, { timeout: 30_000 });
    if (page.url().includes("/analyzing")) {
      await expect(page.getByRole("heading", { name: /Analyzing Your Website|Starting Analysis/ })).toBeVisible();
      await shot(page, info, "analyzing");
    }
    await expect(page).toHaveURL(/\/results\?id=[^&]+&url=/, { timeout: 90_000 });
    await expect(page.getByRole("heading", { name: "Website Analysis Results" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("Analysis Complete")).toBeVisible();
    await expect(page.getByRole("link", { name: new RegExp(siteUrl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")) })).toBeVisible();
    await expect(page.getByRole("link", { name: "Advanced Analysis" })).toHaveAttribute("href", "/stripe-checkout?package=credit-1");
    await shot(page, info, "results-seo");
    // Marked noindex, with the scores in the title and social tags.
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    await expect(page).toHaveTitle(/SEO \d+\/100, Performance \d+\/100/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /SEO \d+\/100/);

    // Every tab of the report.
    const tabs = page.getByRole("tablist", { name: "Report sections" });
    for (const [name, heading] of [
      ["Design", "Design & UX"],
      ["Technical", "Technical Structure"],
      ["Performance", "Performance"],
      ["Action Plan", "Action Plan"],
      ["SEO", "SEO Analysis"],
    ] as const) {
      await tabs.getByRole("tab", { name, exact: true }).click();
      await expect(page.getByRole("tabpanel").getByRole("heading", { name: heading, exact: true }).first()).toBeVisible();
      if (name === "Performance") {
        for (const ring of ["Performance", "Accessibility", "Best Practices", "SEO"]) {
          await expect(page.getByRole("figure").filter({ hasText: ring }).first()).toBeVisible();
        }
        const inner = page.getByRole("tablist", { name: "Performance details" });
        for (const t of ["Diagnostics", "Resources", "Screenshots", "Metrics"]) {
          await inner.getByRole("tab", { name: t }).click();
          await expect(inner.getByRole("tab", { name: t })).toHaveAttribute("aria-selected", "true");
        }
        await expect(page.getByRole("heading", { name: "Page Metadata" })).toBeVisible();
      }
      await shot(page, info, `results-${name.toLowerCase().replace(" ", "-")}`);
    }
    // Meta tag insights are blurred for a free report.
    await expect(page.getByRole("heading", { name: "Meta tag insights" })).toBeVisible();
    const insights = page.getByRole("tablist", { name: "Meta tag insights" });
    await insights.getByRole("tab", { name: "OG Tags" }).click();
    await expect(page.getByText("Upgrade to Pro to view Open Graph tag suggestions")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Upgrade to In-Depth Analysis" })).toBeVisible();
    await expect(page.getByText("One-time payment • Instant access • 30-day guarantee")).toBeVisible();

    // Copy Report Link: toast, clipboard, label reverts after 3 s.
    await page.getByRole("button", { name: "Copy Report Link" }).click();
    await expect(page.getByText("Report link has been copied to your clipboard.", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Link Copied" })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/\/results\/[^/]+$/);
    await expect(page.getByRole("button", { name: "Copy Report Link" })).toBeVisible({ timeout: 5_000 });

    // Share links carry the score out of 100 and the report link.
    const popup = context.waitForEvent("page");
    await page.getByRole("button", { name: "Twitter" }).click();
    const tweet = new URL((await popup).url());
    expect(tweet.host).toBe("twitter.com");
    expect(tweet.searchParams.get("text")).toMatch(/scored \d+\/100/);
    expect(tweet.searchParams.get("url")).toBe(copied);
    await expect(page.getByRole("link", { name: "Email" })).toHaveAttribute("href", /^mailto:\?subject=/);

    // Download Report dialog: validation, then a real PDF.
    await page.getByRole("button", { name: "Download Report" }).click();
    const dialog = page.getByRole("dialog", { name: "Download Report" });
    await dialog.getByRole("button", { name: "Download PDF" }).click();
    for (const msg of ["Please enter a valid email address", "First name is required", "Last name is required", "You must agree to receive emails to download your report"]) {
      await expect(dialog.getByText(msg)).toBeVisible();
    }
    await shot(page, info, "download-dialog-validation", false);
    await dialog.getByRole("textbox", { name: "First name" }).fill("Ada");
    await dialog.getByRole("textbox", { name: "Last name" }).fill("Lovelace");
    await dialog.getByRole("textbox", { name: "Email" }).fill("ada@example.com");
    await dialog.getByRole("checkbox").check();
    const download = page.waitForEvent("download");
    await dialog.getByRole("button", { name: "Download PDF" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.pdf$/);
    const path = await file.path();
    expect(readFileSync(path).subarray(0, 5).toString()).toBe("%PDF-");
    await expect(page.getByText("Download Started!", { exact: true })).toBeVisible();

    // The share form of the link opens the same report.
    await page.goto(new URL(copied).pathname);
    await expect(page.getByRole("heading", { name: "Website Analysis Results" })).toBeVisible();
    await shot(page, info, "results-share-link");
  });

  test("editing paid=true into a free report's address shows nothing more", async ({ page, siteUrl }, info) => {
    await analyze(page, siteUrl);
    const url = new URL(page.url());
    url.searchParams.set("paid", "true");
    url.searchParams.set("type", "standard");
    await page.goto(url.pathname + url.search);
    await expect(page.getByRole("heading", { name: "Website Analysis Results" })).toBeVisible();
    // The server sent a free report: the upsell stays, the Pro-only parts stay locked, and
    // there is no purchase to announce.
    await expect(page.getByRole("heading", { name: "Upgrade to In-Depth Analysis" })).toBeVisible();
    await expect(page.getByText("Upgrade to Pro to view").first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Advanced Analysis" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Download PDF Report" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "In-depth site analysis" })).toHaveCount(0);
    await expect(page.getByText("Purchase Complete!", { exact: true })).toHaveCount(0);
    await shot(page, info, "results-free-with-paid-address");
  });

  test("a signed-in user spends the trial credit on a standard report and gets it whole", async ({ page, siteUrl }, info) => {
    await page.goto("/accounts/sign-up");
    await page.getByLabel("First name").fill("Pat");
    await page.getByLabel("Last name").fill("Buyer");
    await page.getByLabel("Email").fill(`pat-${Date.now()}@example.com`);
    await page.getByLabel("Username").fill("pat");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Start Free Trial" }).click();
    await expect(page).toHaveURL(/\/$/);

    // The home page's hero has its own links; the site header of the results page shows the credits.
    await analyze(page, siteUrl);
    await expect(page.getByRole("link", { name: "Your credits: 1 credit" })).toBeVisible();
    await page.getByRole("button", { name: "Advanced Analysis" }).click();
    const chooser = page.getByRole("dialog", { name: "Choose your report" });
    await expect(chooser.getByText("Basic · 0.5 credits")).toBeVisible();
    await expect(chooser.getByText("Standard · 1 credit")).toBeVisible();
    // Premium costs more than the trial credit: it leads to buying credits instead.
    await expect(chooser.getByRole("link", { name: "Buy credits" })).toHaveAttribute("href", "/pricing");
    await shot(page, info, "report-chooser", false);
    await chooser.getByRole("button", { name: /Start a Standard report/ }).click();
    await expect(page).toHaveURL(/\/results\?id=[^&]+&url=[^&]+&paid=true&type=standard/, { timeout: 120_000 });
    await expect(page.getByText("Purchase Complete!", { exact: true })).toBeVisible();
    await expect(page.getByText("Professional report").first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "In-depth site analysis" })).toBeVisible();
    await expect(page.getByText("Upgrade to Pro to view")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Upgrade to In-Depth Analysis" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Download PDF Report" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Your credits: 0 credits" })).toBeVisible();
    await shot(page, info, "results-paid");
  });
});
