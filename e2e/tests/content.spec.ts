import { readFileSync } from "node:fs";
import { test, expect, shot } from "./fixtures";

/** A shared vector file of crates/domain: the answers the server's own rules give, run natively in Rust. */
function vectors<T>(name: string): { fn: string; args: unknown[]; expected: T }[] {
  const file = new URL(`../../crates/domain/tests/vectors/${name}.json`, import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { cases: { fn: string; args: unknown[]; expected: T }[] }).cases;
}

/** The JSON-LD types of the page's structured data. */
async function structuredTypes(page: import("@playwright/test").Page): Promise<string[]> {
  const text = (await page.locator("script#structured-data").textContent()) ?? "{}";
  const data = JSON.parse(text) as { "@graph"?: { "@type": string }[]; "@type"?: string };
  return (data["@graph"] ?? [data]).map((n) => n["@type"] ?? "");
}

test("the blog: index, a category and an article, each with its head and structured data", async ({ page, baseURL }, info) => {
  const res = await page.goto("/blog");
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const posts = await page.getByRole("main").getByRole("heading", { level: 2 }).getByRole("link").count();
  expect(posts).toBeGreaterThanOrEqual(8);
  await shot(page, info, "blog-index");

  await page.getByRole("navigation", { name: "Blog categories" }).getByRole("link", { name: "Performance" }).click();
  await expect(page).toHaveURL(/\/blog\/category\/performance$/);
  await expect(page.getByRole("heading", { level: 1, name: /Performance/ })).toBeVisible();
  const inCategory = page.getByRole("main").getByRole("heading", { level: 2 }).getByRole("link");
  expect(await inCategory.count()).toBeGreaterThanOrEqual(2);
  expect(await inCategory.count()).toBeLessThan(posts);

  await page.goto("/blog");
  await page.getByRole("link", { name: "Five robots.txt mistakes that hide your pages" }).click();
  await expect(page).toHaveURL(/\/blog\/robots-txt-mistakes$/);
  await expect(page.getByRole("heading", { level: 1, name: "Five robots.txt mistakes that hide your pages" })).toBeVisible();
  await expect(page).toHaveTitle("Five robots.txt mistakes that hide your pages | Sitelens");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/blog/robots-txt-mistakes`);
  // A fresh load: the server's own head, as a crawler reads it.
  await page.reload();
  expect(await structuredTypes(page)).toEqual(expect.arrayContaining(["BlogPosting", "BreadcrumbList"]));
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Blog" })).toBeVisible();
  await shot(page, info, "blog-article");
});

test("the knowledge base searches titles and bodies", async ({ page }, info) => {
  await page.goto("/knowledge-base");
  await expect(page.getByRole("heading", { level: 1, name: "Knowledge base" })).toBeVisible();
  const search = page.getByRole("searchbox", { name: "Search the knowledge base" });
  await search.fill("weights");
  await search.press("Enter");
  await expect(page).toHaveURL(/\/knowledge-base\?q=weights$/);
  await expect(page.getByRole("heading", { name: /articles? match(es)? “weights”/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "How the overall score is computed" })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await shot(page, info, "knowledge-base-search");

  await page.getByRole("link", { name: "How the overall score is computed" }).click();
  await expect(page).toHaveURL(/\/knowledge-base\/scores\/overall-score$/);
  await expect(page.getByRole("heading", { level: 1, name: "How the overall score is computed" })).toBeVisible();

  await page.goto("/knowledge-base?q=zzzqqqnothing");
  await expect(page.getByRole("heading", { name: "No article matches “zzzqqqnothing”" })).toBeVisible();
});

test("the snippet preview gives the analyzer's length verdicts", async ({ page }, info) => {
  await page.goto("/resources/tools");
  const words = { missing: "Missing", short: "Too short", good: "Good length", long: "Too long" } as const;
  type Check = { chars: number; min: number; max: number; verdict: keyof typeof words };
  const fields = { title: "Title", description: "Meta description" } as const;
  for (const c of vectors<Check>("snippet").filter((c) => c.fn === "snippetLength")) {
    const [field, text] = c.args as [keyof typeof fields, string];
    const box = page.getByRole("textbox", { name: fields[field], exact: true });
    await box.fill(text);
    const verdict = page.locator(`#${await box.getAttribute("aria-describedby")}`);
    await expect(verdict).toHaveText(`${words[c.expected.verdict]} ${c.expected.chars} characters (good: ${c.expected.min}-${c.expected.max})`);
  }
  await shot(page, info, "tools-snippet");
});

test("the robots.txt tester gives the crawler's verdicts", async ({ page }, info) => {
  await page.goto("/resources/tools");
  const region = page.getByRole("region", { name: "robots.txt tester" });
  type Verdict = { allowed: boolean; rule: string | null; errors: { line: number }[] };
  const cases = vectors<Verdict>("robots").filter((c) => c.fn === "checkRobots");
  expect(cases.length).toBeGreaterThan(5);
  for (const c of cases) {
    const [text, agent, path] = c.args as [string, string, string];
    await region.getByRole("textbox", { name: "robots.txt" }).fill(text);
    await region.getByRole("textbox", { name: "Crawler (user agent token)" }).fill(agent);
    await region.getByRole("textbox", { name: "Path or address" }).fill(path);
    await expect(region.getByText(c.expected.allowed ? "Allowed" : "Blocked", { exact: true })).toBeVisible();
    if (c.expected.rule) await expect(region.getByText(`Decided by ${c.expected.rule}`)).toBeVisible();
    else await expect(region.getByText("No rule matches this path, so it may be fetched.")).toBeVisible();
    if (c.expected.errors.length > 0) {
      await expect(region.getByText("Lines crawlers cannot use")).toBeVisible();
      await expect(region.getByRole("listitem")).toHaveCount(c.expected.errors.length);
    }
  }
  await shot(page, info, "tools-robots");
});

test("the credit calculator gives the pricing rules' answers", async ({ page }, info) => {
  await page.goto("/resources/tools");
  const region = page.getByRole("region", { name: "Credit calculator" });
  const plans = { "pay-as-you-go": "Pay as you go", business: "Business", agency: "Agency" } as const;
  type Result = { credits: number; hoursSaved: number; plan: keyof typeof plans };
  const cases = vectors<Result>("commerce").filter((c) => c.fn === "calculate");
  expect(cases.length).toBeGreaterThan(5);
  const labels = { basic: "Basic reports a month", standard: "Standard reports a month", premium: "Premium reports a month", team: "Team members" } as const;
  for (const c of cases) {
    const input = c.args[0] as Record<keyof typeof labels, number>;
    // Team first: the other fields' validation reads it.
    for (const key of ["team", "basic", "standard", "premium"] as const) {
      await region.getByRole("spinbutton", { name: labels[key] }).fill(String(input[key]));
    }
    // The three figures, in the order of their terms.
    await expect(region.getByRole("term")).toHaveText(["Credits a month", "Time saved", "Recommended"]);
    await expect(region.getByRole("definition")).toHaveText([String(c.expected.credits), `${c.expected.hoursSaved} hours`, plans[c.expected.plan]]);
  }
  await shot(page, info, "tools-calculator");
});

test("/demo is a full sample report, browsable like a real result", async ({ page, baseURL }, info) => {
  const res = await page.goto("/demo");
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("note")).toContainText("Sample report.");
  await expect(page.getByRole("heading", { level: 1, name: "Website Analysis Results" })).toBeVisible();
  await expect(page).toHaveTitle("Sample report — a real Sitelens website audit");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/demo`);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "index, follow");
  expect(await structuredTypes(page)).toEqual(["WebPage", "BreadcrumbList"]);
  await expect(page.getByRole("button", { name: /^Download (PDF )?Report$/ })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "SEO Analysis" })).toBeVisible();
  await shot(page, info, "demo-seo");

  await page.getByRole("tab", { name: "Design" }).click();
  await expect(page).toHaveURL(/\/demo\?tab=design$/);
  const desktop = page.getByRole("img", { name: /^Desktop screenshot of / }).first();
  await expect(desktop).toBeVisible();
  await expect.poll(() => desktop.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
  await page.getByRole("tab", { name: "Technical" }).click();
  await expect(page.getByRole("heading", { name: "Technical Structure" })).toBeVisible();
  await page.getByRole("tab", { name: "Performance" }).click();
  await expect(page.getByRole("tabpanel", { name: "Performance" })).toContainText(/Largest Contentful Paint/);
  await shot(page, info, "demo-performance");
  await page.getByRole("tab", { name: "Action Plan" }).click();
  await expect(page.getByRole("heading", { name: "Action Plan" })).toBeVisible();
  await shot(page, info, "demo-action-plan");

  // The sample is in the sitemap and linked from the test-analysis page.
  const sitemap = await (await page.request.get("/sitemap.xml")).text();
  expect(sitemap).toContain(`<loc>${baseURL}/demo</loc>`);
  await page.goto("/test-analysis");
  await page.getByRole("main").getByRole("link", { name: "sample report" }).click();
  await expect(page).toHaveURL(/\/demo$/);
  await expect(page.getByRole("heading", { level: 1, name: "Website Analysis Results" })).toBeVisible();
  await expect(page).toHaveTitle("Sample report — a real Sitelens website audit");
});

for (const path of ["/blog/no-such-post", "/blog/category/nothing", "/knowledge-base/scores/nothing", "/resources/nothing"]) {
  test(`${path} is a real 404`, async ({ page }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page Not Found" })).toBeVisible();
  });
}

test("no internal link of the public site is dead", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  // The home page has no shared header or footer: start from a page that has them too.
  const queue: [string, string][] = [
    ["/", "start"],
    ["/blog", "start"],
  ];
  const seen = new Set<string>();
  const dead: string[] = [];
  // Signed-in pages are not reachable by a signed-out visitor; the API is not a page.
  const skip = (p: string) => p.startsWith("/api/") || p === "/dashboard" || p.endsWith(".xml") || p.startsWith("/assets/");
  while (queue.length > 0) {
    const [path, from] = queue.shift()!;
    if (seen.has(path) || skip(path)) continue;
    seen.add(path);
    const res = await page.request.get(path);
    if (res.status() === 404) {
      dead.push(`${path} (linked from ${from})`);
      continue;
    }
    if (!(res.headers()["content-type"] ?? "").startsWith("text/html")) continue;
    const html = await res.text();
    for (const m of html.matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)) {
      const url = new URL(m[1]!.replaceAll("&amp;", "&"), `${origin}${path}`);
      if (url.origin !== origin) continue;
      queue.push([url.pathname + url.search, path]);
    }
  }
  expect(dead).toEqual([]);
  expect(seen.size).toBeGreaterThan(40);
});
