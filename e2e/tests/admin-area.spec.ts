import { test, expect, grantAdmin, seriousViolations, shot } from "./fixtures";
import type { Page } from "@playwright/test";

async function signUp(page: Page, email: string, username: string, first: string) {
  await page.goto("/accounts/sign-up");
  await page.getByLabel("First name").fill(first);
  await page.getByLabel("Last name").fill("Tester");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("an owner finds a customer, adjusts their credits with a reason and sees it audited; the customer gets no admin area", async ({ page, browser }, info) => {
  const stamp = Date.now();
  const customerEmail = `customer-${stamp}@example.com`;
  const customer = await browser.newPage();
  await signUp(customer, customerEmail, `customer${stamp}`, "Carla");
  // The customer buys a pack through the labelled test payment: a real recorded payment.
  await customer.goto("/stripe-checkout?package=credit-5");
  await customer.getByRole("button", { name: "Continue to payment" }).click();
  await customer.getByRole("button", { name: "Pay $20 (test)" }).click();
  await expect(customer.getByText("5 credits were added to your account")).toBeVisible();

  const ownerEmail = `owner-${stamp}@example.com`;
  await signUp(page, ownerEmail, `owner${stamp}`, "Olga");
  grantAdmin(ownerEmail, "owner");

  // The business at a glance, drawn from the stored rows.
  await page.goto("/admin-dashboard");
  await expect(page.getByRole("heading", { name: "Business at a glance" })).toBeVisible();
  await expect(page.getByRole("img", { name: /Analyses per day/ })).toBeVisible();
  await expect(page.getByText("How these figures are defined")).toBeVisible();
  await expect(page.getByText("Credits sold", { exact: true })).toBeVisible();
  await shot(page, info, "admin-overview");

  // The payment, with its account.
  await page.getByRole("tab", { name: "Purchases" }).click();
  const payment = page.getByRole("table", { name: "Payments, newest first" }).getByRole("row").filter({ hasText: customerEmail });
  await expect(payment).toContainText("$20.00");
  await expect(payment).toContainText("credit-5");
  await shot(page, info, "admin-purchases-paid");

  // Search the customer and open their account.
  await page.getByRole("tab", { name: "Users" }).click();
  await page.getByLabel("Search by e-mail, name or user name").fill(`customer-${stamp}`);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("button", { name: `View ${customerEmail}` }).click();
  await expect(page.getByRole("heading", { name: customerEmail })).toBeVisible();

  // Adjust credits: the reason is required; the server's message shows when it is too short.
  await page.getByRole("button", { name: "Adjust credits" }).click();
  const dialog = page.getByRole("dialog", { name: "Adjust paid credits" });
  await dialog.getByLabel("Credits").fill("2.5");
  await dialog.getByLabel("Reason (recorded in the audit log)").fill("ok");
  await dialog.getByRole("button", { name: "Adjust credits" }).click();
  await expect(dialog.getByRole("alert")).toContainText("at least 3 characters");
  await dialog.getByLabel("Reason (recorded in the audit log)").fill("Goodwill after the outage");
  await shot(page, info, "admin-adjust-dialog", false);
  await dialog.getByRole("button", { name: "Adjust credits" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("7.5 credits")).toBeVisible();
  const ledgerRow = page.getByRole("table", { name: "Credit movements, newest first" }).getByRole("row").filter({ hasText: "Goodwill after the outage" });
  await expect(ledgerRow).toContainText("+2.5");
  const auditRow = page.getByRole("table", { name: "Audit entries about this account, newest first" }).getByRole("row").filter({ hasText: "credits.adjust" });
  await expect(auditRow).toContainText(ownerEmail);
  await expect(auditRow).toContainText("Goodwill after the outage");
  await shot(page, info, "admin-user-detail");

  // The audit log has it too, with the balances.
  await page.getByRole("tab", { name: "Audit log" }).click();
  const logRow = page.getByRole("row").filter({ hasText: "credits.adjust" }).first();
  await expect(logRow).toContainText("Goodwill after the outage");
  await expect(logRow).toContainText("before: 5");
  await expect(logRow).toContainText("after: 7.5");
  await shot(page, info, "admin-audit-after-adjust");

  // The customer's own page shows the credits; the admin area is not there for them.
  await customer.goto("/admin");
  await expect(customer.getByRole("heading", { name: "Oops! Page Not Found" })).toBeVisible();
  await customer.goto("/admin-dashboard");
  await expect(customer.getByRole("heading", { name: "Oops! Page Not Found" })).toBeVisible();
  await customer.close();
});

test("the other admin panels show what is stored", async ({ page, request }, info) => {
  const stamp = Date.now();
  // An analysis of an address nothing answers at fails with its error.
  const queued = await request.post("/api/analyze", { data: { url: "http://127.0.0.1:9/" } });
  expect(queued.ok()).toBeTruthy();
  const email = `support-${stamp}@example.com`;
  await signUp(page, email, `support${stamp}`, "Sam");
  grantAdmin(email, "support");
  for (const [tab, heading] of [
    ["jobs", "Analyses and jobs"],
    ["purchases", "Purchases and refunds"],
    ["whitelabel", "White-label domains"],
    ["admins", "Administrators"],
  ] as const) {
    await page.goto(`/admin?tab=${tab}`);
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    if (tab === "jobs") {
      // The worker fails it within seconds; the list shows it with its error.
      await expect(async () => {
        await page.reload();
        await expect(page.getByRole("row").filter({ hasText: "127.0.0.1:9" })).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 60_000 });
      await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);
    }
    await shot(page, info, `admin-${tab}`);
  }
  // Support reads only: no change buttons on an account.
  await page.goto("/admin?tab=users");
  await page.getByRole("button", { name: `View ${email}` }).click();
  await expect(page.getByText("Your level (support) reads only")).toBeVisible();
  await expect(page.getByRole("button", { name: "Adjust credits" })).toHaveCount(0);
});

test("every admin panel has no serious or critical axe violations, light and dark", async ({ page }, info) => {
  const stamp = Date.now();
  const email = `a11y-${stamp}@example.com`;
  await signUp(page, email, `a11y${stamp}`, "Ada");
  grantAdmin(email, "owner");
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const tab of ["overview", "users", "jobs", "purchases", "whitelabel", "admins", "audit"]) {
      await page.goto(`/admin?tab=${tab}`);
      await expect(page.getByRole("tabpanel")).toBeVisible();
      await page.waitForLoadState("networkidle");
      expect(await seriousViolations(page), `${tab} (${theme})`).toEqual([]);
    }
    await page.goto("/admin?tab=users");
    await page.getByRole("button", { name: `View ${email}` }).click();
    await expect(page.getByRole("heading", { name: email })).toBeVisible();
    expect(await seriousViolations(page), `user detail (${theme})`).toEqual([]);
    await page.getByRole("button", { name: "Adjust credits" }).click();
    expect(await seriousViolations(page), `credits dialog (${theme})`).toEqual([]);
    await shot(page, info, `admin-dialog-${theme}`, false);
    await page.keyboard.press("Escape");
  }
});
