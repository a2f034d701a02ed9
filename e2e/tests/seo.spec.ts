import { test, expect } from "./fixtures";

const pages: [string, RegExp][] = [
  ["/", /Sitelens/],
  ["/pricing", /Pricing/],
  ["/features", /Features/],
  ["/about", /About Sitelens/],
  ["/faq", /Frequently asked questions/],
  ["/contact", /Contact us/],
  ["/privacy", /Privacy Policy/],
  ["/terms", /Terms of Service/],
  ["/cookies", /Cookie Policy/],
  ["/coming-soon", /Coming soon/],
];

for (const [path, title] of pages) {
  test(`${path} sets its title, description, canonical and social tags`, async ({ page, baseURL }) => {
    await page.goto(path);
    // The server sends its own head tags for the route; the page's own arrive once it has mounted.
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page).toHaveTitle(title);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}${path}`);
    const head = await page.evaluate(() => ({
      description: document.querySelector('meta[name="description"]')?.getAttribute("content") ?? "",
      descriptions: document.querySelectorAll('meta[name="description"]').length,
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? "",
      ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute("content") ?? "",
      ogUrl: document.querySelector('meta[property="og:url"]')?.getAttribute("content") ?? "",
      twitter: document.querySelector('meta[name="twitter:card"]')?.getAttribute("content") ?? "",
      robots: document.querySelector('meta[name="robots"]')?.getAttribute("content") ?? "",
    }));
    expect(head.description.length).toBeGreaterThan(50);
    expect(head.descriptions).toBe(1);
    expect(head.canonical).toBe(`${baseURL}${path}`);
    expect(head.ogTitle).toMatch(title);
    expect(head.ogUrl).toBe(head.canonical);
    expect(head.twitter).toBe("summary_large_image");
    expect(head.robots).toContain("index");
    expect(head.robots).not.toContain("noindex");
  });
}

test("the FAQ page carries FAQPage structured data matching its questions", async ({ page }) => {
  await page.goto("/faq");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}") as {
    "@type": string;
    mainEntity: { name: string }[];
  };
  expect(data["@type"]).toBe("FAQPage");
  expect(data.mainEntity.length).toBeGreaterThan(5);
  await expect(page.getByText(data.mainEntity[0]!.name, { exact: true })).toBeVisible();
});

test("the not-found page is noindex", async ({ page }) => {
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "Oops! Page Not Found" })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
});
