import { test, expect, animationsDone, mailedLink, setPlan, shot } from "./fixtures";

test.describe("accounts", () => {
  test("a new user signs up, verifies the address, starts the trial, analyses a site, builds a team and signs out", async ({ page, browser, baseURL, siteUrl }, info) => {
    const email = `ada-${Date.now()}@example.com`;
    const memberEmail = `grace-${Date.now()}@example.com`;
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

    // The verification mail arrives at the local SMTP server; its link confirms the address.
    await expect(page.getByText("Please confirm your email address with the link we sent you.")).toBeVisible();
    const verify = await mailedLink(email, "Confirm your email address", "accounts/verify");
    await page.goto(verify);
    await expect(page.getByText("Your email address is verified.")).toBeVisible();
    await shot(page, info, "email-verified");
    await page.getByRole("link", { name: "Go to Dashboard" }).click();
    await expect(page.getByText("Your email address is confirmed.")).toBeVisible();

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
    // One analysis makes no trend yet: the score is said in words instead of an empty chart.
    await expect(page.getByText(/^One analysis so far, scored \d+\.$/)).toBeVisible();
    await expect(page.getByText("Analyse this site again to see its score trend.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Open Report" })).toBeVisible();
    await shot(page, info, "dashboard-with-analysis");

    // Teams: without a plan the owner's is the only seat, and the server says so.
    const members = page.getByRole("list", { name: "Team members" });
    await expect(page.getByText("Seats in use: 1 of 1")).toBeVisible();
    await page.getByLabel("Invite by email").fill(memberEmail);
    await page.getByRole("button", { name: "Send Invitation" }).click();
    await expect(page.getByText("Your plan has one seat. Upgrade to the Business or Agency plan to invite team members.")).toBeVisible();
    // The Business plan has 3 seats (given by the operator command, as billing is not in this journey).
    setPlan(email, "business");
    await page.reload();
    await expect(page.getByText("Seats in use: 1 of 3")).toBeVisible();
    await page.getByLabel("Invite by email").fill(memberEmail);
    await page.getByRole("button", { name: "Send Invitation" }).click();
    await expect(page.getByText(`Invitation sent to ${memberEmail}`)).toBeVisible();
    await expect(members.getByText(memberEmail)).toBeVisible();
    await expect(members.getByText("Invitation pending")).toBeVisible();
    await expect(page.getByText("Seats in use: 2 of 3")).toBeVisible();
    await shot(page, info, "team-invited");

    // The invitee opens the mailed link in a browser of their own, creates an account on the
    // way and joins; the team's reports are then theirs to see.
    const joinLink = await mailedLink(memberEmail, "You are invited to a Sitelens team", "accounts/join");
    const other = await browser.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": "10.255.0.2" } });
    const grace = await other.newPage();
    await grace.goto(joinLink);
    await grace.getByRole("main").getByRole("link", { name: "Sign In" }).click();
    await grace.getByRole("link", { name: "Create an account" }).click();
    await grace.getByLabel("First name").fill("Grace");
    await grace.getByLabel("Last name").fill("Hopper");
    await grace.getByLabel("Email").fill(memberEmail);
    await grace.getByLabel("Username").fill("grace");
    await grace.getByLabel("Password").fill("another good password");
    await grace.getByRole("button", { name: "Create Account" }).click();
    await expect(grace).toHaveURL(/\/accounts\/join\?token=/);
    await expect(grace.getByText("You have joined the team")).toBeVisible();
    await grace.getByRole("link", { name: "Go to Dashboard" }).click();
    await expect(grace.getByText(`Signed in as ${memberEmail} · member of ${email}'s team`)).toBeVisible();
    await expect(grace.getByRole("heading", { name: siteUrl })).toBeVisible();
    await expect(grace.getByText(`You are a member of ${email}'s team · Seats in use: 2 of 3`)).toBeVisible();
    await expect(grace.getByRole("button", { name: "Leave Team" })).toBeVisible();
    await shot(grace, info, "member-dashboard");

    // The owner sees the new member, then removes them; their access ends at once.
    await page.reload();
    await expect(members.getByText(memberEmail)).toBeVisible();
    await expect(members.getByText("Invitation pending")).toBeHidden();
    await shot(page, info, "team-joined");
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: `Remove ${memberEmail}` }).click();
    await expect(members.getByText(memberEmail)).toBeHidden();
    await expect(page.getByText("Seats in use: 1 of 3")).toBeVisible();
    await grace.reload();
    await expect(grace.getByText(`Signed in as ${memberEmail}`, { exact: true })).toBeVisible();
    await expect(grace.getByText("No analyses yet. Analyze a website to see it here.")).toBeVisible();
    await expect(grace.getByRole("heading", { name: siteUrl })).toBeHidden();
    await shot(grace, info, "member-removed");
    await other.close();

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
    const local = `mo-${Date.now()}`;
    await page.getByLabel("Email").fill(`${local}@example.com`);
    await page.getByLabel("Username").fill(local);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu.getByRole("button", { name: "Sign Out" })).toBeVisible();
    await animationsDone(page);
    await shot(page, info, "mobile-menu-signed-in", false);
    await menu.getByRole("button", { name: "Sign Out" }).click();
    await expect(menu).toBeHidden();
    await expect(page).toHaveURL(/\/$/);
  });
});
