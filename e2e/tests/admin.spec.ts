import { test, expect, grantAdmin, shot } from "./fixtures";
import type { Page } from "@playwright/test";

async function signUp(page: Page, email: string, username: string) {
  await page.goto("/accounts/sign-up");
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test.describe("the admin area", () => {
  test("a signed-out visitor is asked to sign in first", async ({ page }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/accounts\/sign-in\?redirect_url=%2Fadmin$/);
  });

  test("a user who is not an administrator sees the not-found page; once granted, the admin area with the audit log", async ({ page }, info) => {
    const stamp = Date.now();
    const email = `ops-${stamp}@example.com`;
    await signUp(page, email, `ops${stamp}`);

    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Oops! Page Not Found" })).toBeVisible();
    await page.goto("/admin-dashboard");
    await expect(page.getByRole("heading", { name: "Oops! Page Not Found" })).toBeVisible();

    grantAdmin(email, "support");
    await page.goto("/admin?tab=audit");
    await expect(page.getByRole("heading", { name: "Admin", exact: true })).toBeVisible();
    await expect(page.getByText("Support · read only")).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: "admin.grant" }).filter({ hasText: "operator (command line)" }).first();
    await expect(row).toBeVisible();
    await expect(row).toContainText("from: user · to: support");
    await shot(page, info, "admin-audit");
  });
});
