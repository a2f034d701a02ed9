import { test, expect, grantAdmin, shot } from "./fixtures";

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
  await page.getByRole("textbox", { name: "Company", exact: true }).fill("Analytical Engines");
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
  await form.getByRole("textbox", { name: "Company", exact: true }).fill("Host Co");
  await form.getByLabel("Kind of partnership").selectOption("hosting");
  await form.getByLabel("What would you build with Sitelens?").fill("Audits in our control panel.");
  await form.scrollIntoViewIfNeeded();
  await shot(page, info, "partners-form");
  await form.getByRole("button", { name: "Send enquiry" }).click();
  await expect(page).toHaveURL(/\/thank-you\?from=partner$/);
  await expect(page.getByText("Thanks for your interest in partnering")).toBeVisible();
});

test("an admin finds the enterprise message, marks it answered and reads the outbox", async ({ page }, info) => {
  const stamp = Date.now();
  await page.goto("/enterprise-contact");
  await page.getByLabel("Name", { exact: true }).fill("Charles Babbage");
  await page.getByLabel("Work email").fill("charles@difference.example");
  await page.getByRole("textbox", { name: "Company", exact: true }).fill(`Difference Engines ${stamp}`);
  await page.getByLabel("Company size").selectOption("1000+");
  await page.getByLabel("Expected reports a month").selectOption("over-2000");
  await page.getByLabel("What do you need?").fill("A self-hosted installation for 40 teams.");
  await page.getByRole("button", { name: "Contact sales" }).click();
  await expect(page).toHaveURL(/\/thank-you\?from=enterprise$/);

  const email = `sales-ops-${stamp}@example.com`;
  await page.goto("/accounts/sign-up");
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Username").fill(`salesops${stamp}`);
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  grantAdmin(email, "admin");

  await page.goto("/admin?tab=messages");
  await page.getByRole("button", { name: "Enterprise", exact: true }).click();
  await page.getByLabel("Search").fill(`Difference Engines ${stamp}`);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByRole("row")).toHaveCount(2);
  await page.getByRole("button", { name: "View the message from Charles Babbage" }).click();
  const message = page.getByRole("article");
  await expect(message.getByText("1,000 employees or more")).toBeVisible();
  await expect(message.getByText("A self-hosted installation for 40 teams.")).toBeVisible();
  await shot(page, info, "admin-messages");
  await message.getByRole("button", { name: "Mark answered" }).click();
  await expect(message.getByText(`by ${email}`)).toBeVisible();
  await expect(message.getByRole("button", { name: "Mark answered" })).toHaveCount(0);

  await page.goto("/admin?tab=outbox");
  await expect(page.getByRole("heading", { name: "Mail outbox" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: email }).first()).toBeVisible();
  await shot(page, info, "admin-outbox");
});
