import { test, expect, shot } from "./fixtures";

test.describe("accounts", () => {
  test("a new user signs up, starts the trial, analyses a site, sees it on the dashboard and signs out", async ({ page, siteUrl }, info) => {
    const email = `ada-${Date.now()}@example.com`;
    // /sign-up keeps the spec's redirect screen, then the accounts page.
    await page.goto("/sign-up");
    await expect(page).toHaveURL(/\/accounts\/sign-up\?redirect_url=%2Fdashboard/);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("First name is required")).toBeVisible();
    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Lovelace");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Username").fill("ada");
    await page.getByLabel("Password").fill("short");
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    await shot(page, info, "sign-up-validation");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create Account" }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign Out" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Dashboard" })).toBeVisible();
    await shot(page, info, "dashboard-new");

    // The trial: the alert of docs/PRODUCT.md §7.6, then home; the button then offers credits.
    page.once("dialog", (d) => {
      expect(d.message()).toBe("Free trial activated! You now have 1 credit to use within 7 days.");
      void d.accept();
    });
    await page.getByRole("button", { name: "Start Free Trial" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Buy Credits" })).toBeVisible();

    // An analysis while signed in lands on the dashboard.
    await page.getByRole("textbox", { name: "Website address" }).fill(siteUrl);
    await page.getByRole("button", { name: "Analyze" }).click();
    await expect(page).toHaveURL(/\/results\?id=/, { timeout: 90_000 });
    await page.goto("/dashboard");
    await expect(page.getByText(/Includes 1 credit of the free trial, valid until/)).toBeVisible();
    await expect(page.getByRole("heading", { name: siteUrl })).toBeVisible();
    await expect(page.getByRole("img", { name: /Overall score from \d+ to \d+ over 1 analyses/ })).toBeVisible();
    await expect(page.getByRole("link", { name: "Open Report" })).toBeVisible();
    await shot(page, info, "dashboard-with-analysis");

    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/pricing");
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();

    // Signing in again returns to where the visitor was sent from.
    await page.goto("/accounts/sign-in?redirect_url=%2Fpricing");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByText("Incorrect email or password")).toBeVisible();
    await shot(page, info, "sign-in-failed");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole("button", { name: "Sign Out" })).toBeVisible();
  });

  test("the mobile menu holds Sign Out and closes after it", async ({ page }, info) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/accounts/sign-up");
    await page.getByLabel("First name").fill("Mo");
    await page.getByLabel("Last name").fill("Bile");
    await page.getByLabel("Email").fill(`mo-${Date.now()}@example.com`);
    await page.getByLabel("Username").fill("mobile");
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu.getByRole("button", { name: "Sign Out" })).toBeVisible();
    await shot(page, info, "mobile-menu-signed-in", false);
    await menu.getByRole("button", { name: "Sign Out" }).click();
    await expect(menu).toBeHidden();
    await expect(page).toHaveURL(/\/$/);
  });
});
