import { test, expect, shot, analyze, mailTo, signUp, PASSWORD } from "./fixtures";

/** The attachment of a received mail, decoded. */
function pdfOf(mail: { attachments: { filename: string; content_type: string; base64: string }[] }) {
  expect(mail.attachments).toHaveLength(1);
  const [file] = mail.attachments;
  expect(file?.content_type).toBe("application/pdf");
  expect(file?.filename).toMatch(/\.pdf$/);
  return Buffer.from(file?.base64 ?? "", "base64");
}

test.describe("mailed reports", () => {
  test("the download form mails the PDF and an upgrade link that opens the site's checkout after signing in", async ({ page, siteUrl }, info) => {
    const stamp = Date.now();
    const buyer = `lead-${stamp}@example.com`;
    await signUp(page, buyer);
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/$/);

    await analyze(page, siteUrl);
    await page.getByRole("button", { name: "Download Report" }).click();
    const dialog = page.getByRole("dialog", { name: "Download Report" });
    await dialog.getByLabel("First name").fill("Ada");
    await dialog.getByLabel("Last name").fill("Lovelace");
    await dialog.getByRole("textbox", { name: "Email" }).fill(buyer);
    await dialog.getByRole("checkbox").check();
    const download = page.waitForEvent("download");
    await dialog.getByRole("button", { name: "Download PDF" }).click();
    await download;

    const mail = await mailTo(buyer, /^Your website report for /);
    expect(mail.content_type).toBe("multipart/mixed");
    expect(pdfOf(mail).subarray(0, 5).toString()).toBe("%PDF-");
    expect(mail.body).toContain("Read the report: ");
    const link = mail.body.match(/https?:\/\/\S+\/checkout\?package=starter&upgradeToken=[0-9a-f]{32}/)?.[0];
    if (!link) throw new Error(`no upgrade link in:\n${mail.body}`);

    // Signed out: sign in first, and come back to the link with its token.
    const target = new URL(link);
    await page.goto(target.pathname + target.search);
    await expect(page).toHaveURL(/\/accounts\/sign-in\?redirect_url=.*upgradeToken/);
    await page.getByLabel("Email").fill(buyer);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(new RegExp(`/checkout\\?package=starter&upgradeToken=${target.searchParams.get("upgradeToken")}`));
    await expect(page.getByText(/Professional report/)).toBeVisible();
    await expect(page.getByText(`for ${siteUrl}`, { exact: false })).toBeVisible();
    await expect(page.getByText("$5", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to your report" })).toBeVisible();
    await shot(page, info, "upgrade-link-checkout");

    // A damaged link says so.
    await page.goto("/checkout?package=starter&upgradeToken=not-a-token");
    await expect(page.getByText(/This upgrade link is incomplete or damaged/)).toBeVisible();
  });

  test("an account sends a report to a client from the dashboard", async ({ page, siteUrl }, info) => {
    const stamp = Date.now();
    await signUp(page, `agency-${stamp}@example.com`);
    await analyze(page, siteUrl);
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Send to client" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Send to client" });
    await dialog.getByRole("button", { name: "Send Report" }).click();
    await expect(dialog.getByText("Please enter a valid email address")).toBeVisible();
    await expect(dialog.getByText("Please enter your client's first name")).toBeVisible();
    await shot(page, info, "send-to-client-validation", false);

    const client = `client-${stamp}@example.com`;
    await dialog.getByLabel("Client's email").fill(client);
    await dialog.getByLabel("Client's first name").fill("Ada");
    await dialog.getByLabel("Message (optional)").fill("Here is the audit we talked about.");
    await dialog.getByRole("button", { name: "Send Report" }).click();
    await expect(dialog.getByText(`The report is on its way to ${client}.`)).toBeVisible();
    await shot(page, info, "send-to-client-sent", false);

    const mail = await mailTo(client, /sent you a website report for /);
    expect(mail.reply_to).toBe(`agency-${stamp}@example.com`);
    expect(mail.body).toContain("Here is the audit we talked about.");
    expect(pdfOf(mail).subarray(0, 5).toString()).toBe("%PDF-");
  });
});
