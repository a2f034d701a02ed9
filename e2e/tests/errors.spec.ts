import { test, expect, shot } from "./fixtures";

test("an unknown site fails, retries 3 times, then offers Try Again", async ({ page }, info) => {
  await page.goto(`/analyzing?url=${encodeURIComponent("http://no-such-host.invalid/")}`);
  await expect(page.getByRole("heading", { name: "Analysis Error" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/Retrying\.\.\. Attempt 1 of 3/)).toBeVisible();
  await shot(page, info, "analysis-error-retrying");
  await expect(page.getByText(/Retrying\.\.\. Attempt 3 of 3/)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Try Again" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("Could not complete the analysis. Please try again later.", { exact: true })).toBeVisible();
  await shot(page, info, "analysis-error-try-again");
  await page.getByRole("button", { name: "Try Again" }).click();
  await expect(page.getByText(/Starting Analysis|Retrying\.\.\. Attempt 1 of 3/)).toBeVisible();
});

test("the analyzing page without a url returns home after a second", async ({ page }) => {
  await page.goto("/analyzing");
  await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
});

test("an unknown report id shows 'Analysis Not Found' with a new-analysis form", async ({ page }, info) => {
  await page.goto("/results?id=00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Analysis Not Found" })).toBeVisible();
  await expect(page.getByText("Sorry, we couldn't find the analysis you're looking for. Try analyzing a new website.")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Website address" })).toBeVisible();
  await shot(page, info, "analysis-not-found");
});

test("results without an id go home", async ({ page }) => {
  await page.goto("/results");
  await expect(page).toHaveURL(/\/$/);
});
