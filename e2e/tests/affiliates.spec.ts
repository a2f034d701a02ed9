import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { test, expect, grantAdmin, shot } from "./fixtures";

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

async function buy(page: Page, pack: string, price: string) {
  await page.goto(`/stripe-checkout?package=${pack}`);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/test-checkout\?session=chk_/);
  await page.getByRole("button", { name: `Pay ${price} (test)` }).click();
  await expect(page).toHaveURL(/\/payment-success\?session=chk_/);
}

/**
 * The e2e server runs on the real clock, so the 30-day refund window cannot pass inside it. The
 * step is simulated in the suite's own SQLite database by moving this affiliate's conversions 40
 * days back (the server test `a_referred_purchase_becomes_a_commission_then_a_payout` steps the
 * same window with an injected clock instead).
 */
function refundWindowPasses(affiliateEmail: string) {
  const url = process.env.E2E_DATABASE_URL ?? "";
  const file = url.replace(/^sqlite:\/\//, "").replace(/\?.*$/, "");
  if (!file) throw new Error("E2E_DATABASE_URL is set by the suite's global setup");
  const sql = `UPDATE affiliate_conversions SET timestamp = date(timestamp, '-40 days') || substr(timestamp, 11) WHERE affiliate_id = (SELECT id FROM affiliates WHERE email = '${affiliateEmail}');`;
  execFileSync("sqlite3", [file, sql], { stdio: "pipe" });
}

test.describe("the affiliate programme", () => {
  test("a signed-out visitor is asked to sign in before applying", async ({ page }, info) => {
    await page.goto("/affiliate-signup");
    await expect(page.getByRole("heading", { name: "Become an affiliate" })).toBeVisible();
    await page.getByRole("link", { name: "Sign in to apply" }).click();
    await expect(page).toHaveURL(/\/accounts\/sign-in\?redirect_url=%2Faffiliate-signup$/);
    await page.goto("/affiliates");
    await expect(page.getByText("30% commission").first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Apply here" })).toHaveAttribute("href", "/affiliate-signup");
    await shot(page, info, "affiliates-content");
  });

  test("apply, get approved, a referred purchase becomes a commission and then a payout", async ({ page, browser }, info) => {
    const stamp = Date.now();
    const affiliateEmail = `aff-${stamp}@example.com`;
    const adminEmail = `boss-${stamp}@example.com`;

    // The affiliate applies; the form's rules run in the browser first.
    await signUp(page, affiliateEmail, `aff${stamp}`);
    await page.goto("/affiliate-signup");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("Please tell us about your marketing experience")).toBeVisible();
    await expect(page.getByText("Please choose where your traffic comes from")).toBeVisible();
    await shot(page, info, "affiliate-signup-errors");
    await page.getByLabel("Main traffic source").selectOption("Website or blog");
    await page.getByLabel("Monthly visitors").selectOption("1,000 to 10,000");
    await page.getByLabel("Marketing experience").fill("Five years of SEO consulting for small shops.");
    await page.getByLabel("Why do you want to join?").fill("My readers ask which audit tool to use.");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/\/affiliate-dashboard$/);
    await expect(page.getByText("We are reviewing your application.")).toBeVisible();
    await shot(page, info, "affiliate-dashboard-pending");
    const code = await page.getByLabel("Referral code", { exact: true }).inputValue();
    expect(code).toMatch(/^[A-Z2-9]{8}$/);

    // An admin approves it in the admin area.
    const admin = await browser.newPage();
    await signUp(admin, adminEmail, `boss${stamp}`);
    grantAdmin(adminEmail, "admin");
    await admin.goto("/admin?tab=affiliates");
    const application = admin.getByRole("row").filter({ hasText: affiliateEmail });
    await expect(application).toContainText("My readers ask which audit tool to use.");
    await shot(admin, info, "admin-affiliates-pending");
    await application.getByRole("button", { name: "Approve" }).click();
    await expect(admin.getByText("decision saved")).toBeVisible();

    await page.reload();
    await expect(page.getByText("approved", { exact: true }).first()).toBeVisible();
    await page.goto("/marketing-materials");
    await expect(page.getByRole("heading", { name: "Leaderboard · 728×90" })).toBeVisible();
    await expect(page.getByLabel("Leaderboard HTML", { exact: true })).toHaveValue(new RegExp(`\\?ref=${code}`));
    await shot(page, info, "marketing-materials");

    // A visitor arrives through the link, signs up and buys in test-payment mode.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/?ref=${code}`);
    const cookies = await visitorContext.cookies();
    const referral = cookies.find((c) => c.name === "sitelens_ref");
    expect(referral?.httpOnly).toBe(true);
    expect(referral?.sameSite).toBe("Lax");
    await signUp(visitor, `buyer-${stamp}@example.com`, `buyer${stamp}`);
    await buy(visitor, "credit-100", "$300");

    await page.goto("/affiliate-dashboard");
    const conversion = page.getByRole("row").filter({ hasText: "credits:credit-100" });
    await expect(conversion).toContainText("$90");
    await expect(conversion).toContainText("pending");
    await expect(page.getByText("Clicks")).toBeVisible();
    await shot(page, info, "affiliate-dashboard-pending-commission");

    // The refund window passes; the admin runs the payouts and confirms one paid by hand.
    refundWindowPasses(affiliateEmail);
    await admin.goto("/admin?tab=affiliates");
    await admin.getByRole("button", { name: "Run payouts now" }).click();
    await expect(admin.getByText("1 payout(s) proposed.")).toBeVisible();
    const payout = admin.getByRole("row").filter({ hasText: "$90" }).filter({ hasText: "pending" });
    await payout.getByRole("button", { name: "Confirm payout" }).click();
    await expect(admin.getByText("Say how the payout was made")).toBeVisible();
    await payout.getByPlaceholder("How it was paid (required for manual)").fill("Bank transfer, ref 2026-12");
    await payout.getByRole("button", { name: "Confirm payout" }).click();
    await expect(admin.getByText(/Payout #\d+ confirmed/)).toBeVisible();
    await shot(admin, info, "admin-affiliates-paid");

    await page.goto("/affiliate-dashboard");
    await expect(page.getByRole("row").filter({ hasText: "credits:credit-100" })).toContainText("paid");
    await expect(page.getByRole("row").filter({ hasText: "manual" })).toContainText("$90");
    await shot(page, info, "affiliate-dashboard-paid");
    await visitorContext.close();
  });
});
