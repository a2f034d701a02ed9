import { test, expect, shot, analyze, seriousViolations } from "./fixtures";

const pages = ["/", "/pricing", "/features", "/about", "/faq", "/contact", "/enterprise-contact", "/agency-contact", "/partners", "/privacy", "/terms", "/cookies", "/coming-soon", "/api-status", "/no-such-page"];

for (const path of pages) {
  for (const theme of ["light", "dark"] as const) {
    test(`${path} has no serious or critical axe violations (${theme})`, async ({ page }, info) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await page.waitForLoadState("networkidle");
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, info, `${path.replace(/\W+/g, "-") || "home"}-${theme}`);
    });
  }
}

test("the results page has no serious or critical axe violations", async ({ page, siteUrl }, info) => {
  await analyze(page, siteUrl);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("tab", { name: "Performance", exact: true }).click();
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, info, "results-a11y");
  await page.emulateMedia({ colorScheme: "dark" });
  for (const tab of ["SEO", "Design", "Technical", "Performance", "Action Plan"]) {
    await page.getByRole("tab", { name: tab, exact: true }).click();
    expect(await seriousViolations(page), `${tab} (dark)`).toEqual([]);
  }
  await shot(page, info, "results-dark");
});
