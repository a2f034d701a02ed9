import type { Page } from "@playwright/test";
import { test, expect, shot, analyze, signUp, PASSWORD } from "./fixtures";

/** A new account, signed out again, so the journey starts as a visitor who has one. */
async function accountThenSignOut(page: Page, email: string) {
  await signUp(page, email);
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** Signs in on the accounts page and waits to leave it (for the return path, or the dashboard). */
async function signIn(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).not.toHaveURL(/\/accounts\/sign-in/);
}

const testModeNote = (page: Page) => page.getByRole("note", { name: "Payment mode" });

test.describe("test-payment checkout", () => {
  test("pricing, a pack, sign in, the labelled test checkout, pay, and the credits on the dashboard", async ({ page }, info) => {
    const email = `buyer-${Date.now()}@example.com`;
    await accountThenSignOut(page, email);

    await page.goto("/pricing");
    await page.getByRole("link", { name: /Buy credits\s*: Starter Pack/ }).click();
    // Signed out: sign in first, then back to the same checkout.
    await expect(page).toHaveURL(/\/accounts\/sign-in\?redirect_url=%2Fstripe-checkout%3Fpackage%3Dcredit-5/);
    await signIn(page, email);
    await expect(page).toHaveURL(/\/stripe-checkout\?package=credit-5$/);
    await expect(testModeNote(page)).toContainText("Test payment mode");
    await expect(page.getByRole("heading", { name: "Starter Pack (5 credits)" })).toBeVisible();
    await expect(page.getByText("$20", { exact: true })).toBeVisible();
    await shot(page, info, "checkout-summary");

    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(/\/test-checkout\?session=chk_/);
    await expect(testModeNote(page)).toContainText("no real card is charged");
    await shot(page, info, "test-checkout");
    await page.getByRole("button", { name: "Pay $20 (test)" }).click();

    await expect(page).toHaveURL(/\/payment-success\?session=chk_/);
    await expect(page.getByText("5 credits were added to your account")).toBeVisible();
    await expect(page.getByText("Purchase Complete!").first()).toBeVisible();
    await shot(page, info, "payment-success");
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    await expect(page.getByLabel("Credits", { exact: true })).toHaveText("5");
    await expect(page.getByRole("heading", { name: "Purchases and invoices" })).toBeVisible();
    await expect(page.getByRole("cell", { name: "credit-5" })).toBeVisible();
    await shot(page, info, "dashboard-after-purchase");
  });

  test("a declined test card shows the spec's failure text and grants nothing", async ({ page }, info) => {
    const email = `declined-${Date.now()}@example.com`;
    await accountThenSignOut(page, email);
    await page.goto("/accounts/sign-in");
    await signIn(page, email);
    await page.goto("/stripe-checkout?type=credits&credits=7&price=28");
    await expect(page.getByRole("heading", { name: "7 credits" })).toBeVisible();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(/\/test-credit-checkout\?session=chk_/);
    await page.getByRole("button", { name: "Decline (test)" }).click();
    await expect(page.getByRole("alert")).toHaveText("Error starting purchase. Please try again.");
    await shot(page, info, "test-checkout-declined");
    await page.goto("/dashboard");
    await expect(page.getByLabel("Credits")).toHaveText("0");
  });

  test("a price in the address that disagrees is refused before anything is charged", async ({ page }) => {
    const email = `cheap-${Date.now()}@example.com`;
    await accountThenSignOut(page, email);
    await page.goto("/accounts/sign-in");
    await signIn(page, email);
    await page.goto("/stripe-checkout?type=credits&credits=20&price=1");
    await expect(page.getByRole("alert")).toContainText("is not the price of 20 credits ($70)");
    await expect(page.getByRole("button", { name: "Continue to payment" })).toHaveCount(0);
  });

  // The payment starts the professional report on the server (once per checkout); the pages
  // after it only follow that report.
  test("the upgrade from a free report: pay, the professional report starts, the paid results with the toast", async ({ page, siteUrl }, info) => {
    const email = `upgrade-${Date.now()}@example.com`;
    await accountThenSignOut(page, email);
    await page.goto("/accounts/sign-in");
    await signIn(page, email);
    await analyze(page, siteUrl);
    await page.getByRole("button", { name: "Get a Professional Report" }).click();
    await expect(page).toHaveURL(/\/checkout\?package=starter&amount=5&url=/);
    await expect(page.getByRole("heading", { name: /Professional report/ })).toBeVisible();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(/\/test-checkout\?session=chk_/);
    const session = new URL(page.url()).searchParams.get("session");
    await page.getByRole("button", { name: "Pay $5 (test)" }).click();
    const paidResults = /\/results\?id=([^&]+)&url=[^&]+&paid=true&type=standard/;
    await expect(page).toHaveURL(paidResults, { timeout: 120_000 });
    await expect(page.getByText("Purchase Complete!").first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "In-depth site analysis" })).toBeVisible();
    await shot(page, info, "upgrade-paid-results");
    // The payment's page opened again (a reload, the back button) follows the report the payment
    // started on the server: the same report, nothing paid or started twice.
    const reportId = paidResults.exec(page.url())?.[1];
    await page.goto(`/payment-success?session=${session}`);
    await expect(page).toHaveURL(paidResults, { timeout: 120_000 });
    expect(paidResults.exec(page.url())?.[1]).toBe(reportId);
  });
});
