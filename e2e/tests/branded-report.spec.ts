// A white-label agency's report (docs/PRODUCT.md §1.5, issue 15): its results page — as the server
// sends it and as the app shows it — and its PDF wear the agency's name, logo and colours, with
// nothing of Sitelens and none of our upsells.
import { writeFileSync } from "node:fs";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { test, expect, shot, analyze, setPlan, signUp } from "./fixtures";


/** A small logo, drawn by the browser: a real PNG like an agency would upload. */
async function drawLogo(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 360, height: 96 } });
  await page.setContent(
    `<body style="margin:0"><div style="width:360px;height:96px;display:flex;align-items:center;gap:14px;font:700 34px Georgia,serif;color:#0F766E">
       <svg width="72" height="72" viewBox="0 0 72 72"><circle cx="36" cy="36" r="30" fill="#0F766E"/><path d="M18 44 L36 20 L54 44 Z" fill="#F59E0B"/></svg>Harbour</div></body>`,
  );
  const png = await page.screenshot({ omitBackground: true });
  await page.close();
  return png;
}

test("an agency's report wears its brand on the results page and in the PDF", async ({ page, browser, siteUrl }, info) => {
  const email = `agency-${Date.now()}@harbour.example`;
  await signUp(page, email);
  setPlan(email, "agency");

  // The settings through their API, as the settings page sends them (the session's CSRF token).
  const account = await (await page.request.get("/api/account")).json();
  const csrf = { "x-csrf-token": account.csrfToken as string };
  const saved = await page.request.put("/api/white-label", {
    headers: csrf,
    data: {
      companyName: "Harbour Digital",
      primaryColor: "#0F766E",
      secondaryColor: "#F59E0B",
      fontFamily: "Georgia, 'Times New Roman', serif",
      contactEmail: "hello@harbour.example",
      contactPhone: "+44 20 7946 0000",
      websiteUrl: "harbour.example",
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const logo = await page.request.put("/api/white-label/logo", {
    data: await drawLogo(browser),
    headers: { ...csrf, "content-type": "image/png" },
  });
  expect(logo.status(), await logo.text()).toBe(200);

  // A report the agency runs wears its brand: the app's page …
  await analyze(page, siteUrl);
  const reportId = new URL(page.url()).searchParams.get("id") ?? "";
  const checkBranded = async () => {
    await expect(page.getByText("Report prepared by Harbour Digital")).toBeVisible();
    await expect(page.getByRole("img", { name: "Harbour Digital" }).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "hello@harbour.example" })).toBeVisible();
    await expect(page.getByRole("link", { name: "New Analysis" })).toHaveCount(0);
    await expect(page.getByText("Advanced Analysis")).toHaveCount(0);
    await expect(page.getByText("Upgrade to In-Depth Analysis")).toHaveCount(0);
    const text = await page.locator("body").innerText();
    expect(text).not.toContain("Sitelens");
    expect(text).toContain("a website analysis by Harbour Digital");
    // The agency's colour is the page's primary colour.
    const primary = await page.locator("[data-brand-frame]").evaluate((el) => getComputedStyle(el).getPropertyValue("--primary").trim());
    expect(primary.toUpperCase()).toBe("#0F766E");
  };
  await checkBranded();
  await shot(page, info, "branded-results-app");

  // … the page as the server sends it (its shared link), before and after the app takes over …
  const html = await (await page.request.get(`/results/${reportId}`)).text();
  expect(html).toContain("Report prepared by Harbour Digital");
  expect(html).toContain('<meta property="og:site_name" content="Harbour Digital" />');
  expect(html).not.toContain("Sitelens");
  await page.goto(`/results/${reportId}`);
  await checkBranded();
  await shot(page, info, "branded-results-shared-link");

  // … and its PDF, kept as an artifact to look at.
  await keepPdf(page, info, reportId, "branded-basic-report.pdf");

  // The agency buys credits (test-payment mode) and runs a Premium report of the same site from
  // the report itself: the chooser is its own tool, while the report's readers never see an offer.
  await page.goto("/stripe-checkout?package=credit-5");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("button", { name: "Pay $20 (test)" }).click();
  await expect(page.getByText("5 credits were added to your account")).toBeVisible();
  await page.goto(`/results/${reportId}`);
  await page.getByRole("button", { name: "Advanced Analysis" }).click();
  const chooser = page.getByRole("dialog", { name: "Choose your report" });
  await chooser.getByRole("button", { name: /Start a Premium report/ }).click();
  await expect(page).toHaveURL(/\/results\?id=[^&]+&url=[^&]+&paid=true&type=premium/, { timeout: 120_000 });
  await expect(page.getByText("Report prepared by Harbour Digital")).toBeVisible();
  await expect(page.getByRole("heading", { name: "In-depth site analysis" })).toBeVisible();
  // The page stays mounted when the brand arrives: the purchase is announced once.
  await expect(page.getByText("Purchase Complete!", { exact: true })).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Download PDF Report" })).toBeVisible();
  expect(await page.locator("body").innerText()).not.toContain("Sitelens");
  await shot(page, info, "branded-premium-results");
  const premiumId = new URL(page.url()).searchParams.get("id") ?? "";
  await keepPdf(page, info, premiumId, "branded-premium-report.pdf");

  // Someone the agency shares the link with (not signed in) is offered nothing.
  const reader = await browser.newPage();
  await reader.goto(new URL(`/results/${reportId}`, page.url()).toString());
  await expect(reader.getByText("Report prepared by Harbour Digital")).toBeVisible();
  await expect(reader.getByText("Advanced Analysis")).toHaveCount(0);
  await reader.close();
});

/** Downloads report `id`'s PDF and keeps it as an artifact. */
async function keepPdf(page: Page, info: TestInfo, id: string, name: string) {
  const pdf = await page.request.get(`/api/download-report/${id}`);
  expect(pdf.status()).toBe(200);
  const bytes = await pdf.body();
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  const path = info.outputPath(name);
  writeFileSync(path, bytes);
  await info.attach(name, { path, contentType: "application/pdf" });
}
