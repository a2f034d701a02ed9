import { test, expect, shot } from "./fixtures";

test("the enterprise form shows its errors, then sends and lands on /thank-you", async ({ page }, info) => {
  await page.goto("/pricing");
  await expect(page.getByRole("link", { name: "Talk to us about Enterprise" })).toHaveAttribute("href", "/enterprise-contact");
  await page.goto("/enterprise-contact");
  await expect(page.getByRole("heading", { name: "Talk to us about Enterprise" })).toBeVisible();
  await shot(page, info, "enterprise-contact");

  await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await page.getByLabel("Work email").fill("ada@localhost");
  await page.getByLabel("Phone").fill("call me");
  await page.getByRole("button", { name: "Contact sales" }).click();
  await expect(page.getByText("Please enter a valid work email address")).toBeVisible();
  await expect(page.getByText("Please choose your company's size")).toBeVisible();
  await expect(page.getByText("Please enter a phone number such as +44 20 7946 0000, or leave it empty")).toBeVisible();
  await expect(page.getByLabel("Work email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Work email")).toBeFocused();
  await expect(page).toHaveURL(/\/enterprise-contact$/);
  await shot(page, info, "enterprise-contact-errors");

  await page.getByLabel("Work email").fill("ada@analytical.example");
  await page.getByLabel("Company", { exact: true }).fill("Analytical Engines");
  await page.getByLabel("Company size").selectOption("250-999");
  await page.getByLabel("Expected reports a month").selectOption("500-2000");
  await page.getByLabel("Phone").fill("+44 20 7946 0000");
  await page.getByLabel("What do you need?").fill("We audit 300 client sites a month and want it self-hosted.");
  await expect(page.getByText("Please enter a valid work email address")).toHaveCount(0);
  await page.getByRole("button", { name: "Contact sales" }).click();
  await expect(page).toHaveURL(/\/thank-you\?from=enterprise$/);
  await expect(page.getByText("Thanks, we have your enterprise enquiry")).toBeVisible();
  await shot(page, info, "thank-you-enterprise");
});

test("the agency form sends and thanks the agency", async ({ page }, info) => {
  await page.goto("/agency-contact");
  await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
  await page.getByLabel("Email", { exact: true }).fill("grace@studio.example");
  await page.getByLabel("Agency name").fill("Studio Grace");
  await page.getByLabel("Number of clients").selectOption("11-50");
  await page.getByLabel("Agency website").fill("not a site");
  await page.getByLabel("How would you use Sitelens?").fill("White-label premium reports for our clients.");
  await page.getByRole("button", { name: "Send to our agency team" }).click();
  await expect(page.getByText("Please enter a valid website address, or leave it empty")).toBeVisible();
  await shot(page, info, "agency-contact");
  await page.getByLabel("Agency website").fill("studio.example");
  await page.getByRole("button", { name: "Send to our agency team" }).click();
  await expect(page).toHaveURL(/\/thank-you\?from=agency$/);
  await expect(page.getByText("Thanks, we have your agency enquiry")).toBeVisible();
});

test("/partners keeps its content and has the partner enquiry under Talk to us", async ({ page }, info) => {
  await page.goto("/partners");
  await expect(page.getByRole("heading", { name: "Hosting companies and platforms" })).toBeVisible();
  const form = page.getByRole("region", { name: "Partner enquiry" });
  await expect(form).toBeVisible();
  await form.getByLabel("Name", { exact: true }).fill("Linus");
  await form.getByLabel("Email", { exact: true }).fill("linus@host.example");
  await form.getByLabel("Company", { exact: true }).fill("Host Co");
  await form.getByLabel("Kind of partnership").selectOption("hosting");
  await form.getByLabel("What would you build with Sitelens?").fill("Audits in our control panel.");
  await form.scrollIntoViewIfNeeded();
  await shot(page, info, "partners-form");
  await form.getByRole("button", { name: "Send enquiry" }).click();
  await expect(page).toHaveURL(/\/thank-you\?from=partner$/);
  await expect(page.getByText("Thanks for your interest in partnering")).toBeVisible();
});
