import type { Page } from "@playwright/test";
import { test, expect, shot, seriousViolations, setPlan, signUp, analyze } from "./fixtures";

/** A logo drawn by the browser itself (a canvas): a wide PNG with a mark and the agency's name. */
async function drawnLogo(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 900;
    canvas.height = 240;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2d context");
    ctx.fillStyle = "#0f766e";
    ctx.beginPath();
    ctx.arc(120, 120, 100, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#f59e0b";
    ctx.fillRect(80, 80, 80, 80);
    ctx.fillStyle = "#0f172a";
    ctx.font = "bold 96px sans-serif";
    ctx.fillText("Grace", 260, 155);
    return canvas.toDataURL("image/png");
  });
  return Buffer.from(dataUrl.split(",")[1] ?? "", "base64");
}

const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

test.describe("white-label branding", () => {
  test("an agency sets its brand with a logo and sees the preview; others are told how to get it", async ({ page, siteUrl }, info) => {
    const email = `agency-${Date.now()}@example.com`;
    await signUp(page, email);

    // From the dashboard; on the Basic plan the page says which plans include it.
    await page.getByRole("link", { name: "White-label" }).click();
    await expect(page).toHaveURL(/\/white-label$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Brand your reports" })).toBeVisible();
    await expect(page.getByText("part of the Agency and Enterprise plans")).toBeVisible();
    await expect(page.getByRole("link", { name: "See the plans" })).toHaveAttribute("href", "/pricing");
    await shot(page, info, "white-label-not-entitled");

    // The Agency plan includes it.
    setPlan(email, "agency");
    await page.reload();
    await expect(page.getByRole("heading", { name: "Your white-label brand" })).toBeVisible();
    const preview = page.getByTestId("branding-preview");
    await expect(preview).toContainText("Your company");

    // Checked in the browser by the domain rules before anything is sent.
    await page.getByLabel("Primary colour", { exact: true }).fill("indigo");
    await page.getByRole("button", { name: "Save branding" }).click();
    await expect(page.getByText("Company name is required")).toBeVisible();
    await expect(page.getByText("Enter a colour as # and six hex digits, like #4F46E5")).toBeVisible();
    await expect(page.getByLabel("Company name")).toBeFocused();

    await page.getByLabel("Company name").fill("Studio Grace");
    await page.getByLabel("Primary colour", { exact: true }).fill("#0F766E");
    await page.getByLabel("Secondary colour", { exact: true }).fill("#F59E0B");
    await page.getByLabel("Font").selectOption({ label: "Georgia" });
    await page.getByLabel("Contact e-mail").fill("hello@studio-grace.example");
    await page.getByLabel("Contact phone").fill("+44 20 7946 0000");
    await page.getByLabel("Website").fill("studio-grace.example");
    await expect(page.getByText("Company name is required")).toHaveCount(0);

    // A GIF is refused in the browser, by the same rule the server applies.
    const logoInput = page.getByLabel("Choose logo");
    await logoInput.setInputFiles({ name: "logo.gif", mimeType: "image/gif", buffer: GIF });
    await expect(page.getByText("The logo must be a PNG, JPEG or WebP image.")).toBeVisible();
    await logoInput.setInputFiles({ name: "studio-grace.png", mimeType: "image/png", buffer: await drawnLogo(page) });
    await expect(page.getByText("The logo must be a PNG, JPEG or WebP image.")).toHaveCount(0);

    // The preview follows the form before anything is saved.
    await expect(preview).toContainText("Studio Grace");
    await expect(preview).toContainText("hello@studio-grace.example · +44 20 7946 0000 · studio-grace.example");
    await expect(preview.getByRole("img", { name: "Studio Grace logo" })).toHaveAttribute("src", /^blob:/);
    await expect(preview).toHaveCSS("font-family", /Georgia/);

    await page.getByRole("button", { name: "Save branding" }).click();
    await expect(page.getByText("Your branding is saved.")).toBeVisible();
    // Saved as the server normalised it, with the logo the server re-encoded.
    await expect(page.getByLabel("Website")).toHaveValue("https://studio-grace.example/");
    const logo = preview.getByRole("img", { name: "Studio Grace logo" });
    await expect(logo).toHaveAttribute("src", /^\/api\/white-label\/logos\/\d+-[0-9a-f]{16}\.png$/);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(600);
    const served = await page.request.get((await logo.getAttribute("src")) ?? "");
    expect(served.headers()["content-type"]).toBe("image/png");
    expect(served.headers()["content-security-policy"]).toBe("default-src 'none'");
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, info, "white-label-settings-dark", false);
    await page.emulateMedia({ colorScheme: "light" });
    await preview.scrollIntoViewIfNeeded();
    await shot(page, info, "white-label-settings", false);
    await shot(page, info, "white-label-page");

    // Still there after a reload.
    await page.reload();
    await expect(page.getByLabel("Company name")).toHaveValue("Studio Grace");
    await expect(page.getByLabel("Primary colour", { exact: true })).toHaveValue("#0F766E");
    await expect(page.getByTestId("branding-preview").getByRole("img", { name: "Studio Grace logo" })).toBeVisible();

    // The agency's reports wear what was set here, the re-encoded logo included.
    await analyze(page, siteUrl);
    await expect(page.getByRole("img", { name: "Studio Grace" }).first()).toHaveAttribute("src", /^\/api\/white-label\/logos\//);
    await expect(page.getByText("Report prepared by Studio Grace")).toBeVisible();
    await shot(page, info, "white-label-branded-report", false);

    // Signed out: the landing text, and a way to sign in and come back.
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/white-label");
    await expect(page.getByRole("heading", { name: "Your white-label brand" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Sign in to brand your reports" })).toHaveAttribute(
      "href",
      "/accounts/sign-in?redirect_url=%2Fwhite-label",
    );
    await shot(page, info, "white-label-signed-out");
  });
});
