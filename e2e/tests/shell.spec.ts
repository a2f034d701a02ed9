import { test, expect, shot } from "./fixtures";

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the navigation moves into a right-side menu that closes after navigating", async ({ page }, info) => {
    await page.goto("/pricing");
    const main = page.getByRole("navigation", { name: "Main" });
    await expect(main).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu).toBeVisible();
    const box = await menu.boundingBox();
    expect(box && box.x + box.width).toBeGreaterThan(370);
    await shot(page, info, "mobile-menu", false);
    await menu.getByRole("link", { name: "Features" }).click();
    await expect(page).toHaveURL(/\/features$/);
    await expect(menu).toBeHidden();
    await shot(page, info, "features-mobile");
  });

  test("pages do not scroll sideways at 375 or 320 px", async ({ page }) => {
    for (const width of [375, 320]) {
      await page.setViewportSize({ width, height: 740 });
      for (const path of ["/", "/pricing", "/features", "/about", "/faq", "/contact", "/privacy", "/no-such-page"]) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
      }
    }
  });
});

test("the theme choice persists across reloads under ui-theme", async ({ page }, info) => {
  await page.goto("/about");
  await page.getByRole("combobox", { name: "Theme" }).selectOption("Dark");
  await expect(page.locator("html")).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem("ui-theme"))).toBe("dark");
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await shot(page, info, "about-dark");
  await page.getByRole("combobox", { name: "Theme" }).selectOption("Light");
  await page.reload();
  await expect(page.locator("html")).not.toHaveClass(/dark/);
});

test("the header highlights the current route and hides on home", async ({ page }) => {
  await page.goto("/faq");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FAQ" })).toHaveAttribute("aria-current", "page");
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
});

test("the pricing toggle switches plans to annual prices", async ({ page }, info) => {
  await page.goto("/pricing");
  const plans = page.getByRole("region", { name: "Subscription plans" });
  await expect(plans.getByText("$70", { exact: true })).toBeVisible();
  await page.getByRole("switch", { name: "Annual billing" }).click();
  await expect(plans.getByText("$700", { exact: true })).toBeVisible();
  await expect(plans.getByText("$70", { exact: true })).toHaveCount(0);
  await expect(plans.getByText("2 Months Free", { exact: true })).toBeVisible();
  // The plan buttons follow the toggle into checkout: the yearly plan is what gets bought.
  await expect(page.getByRole("link", { name: "Choose Agency" })).toHaveAttribute("href", "/stripe-checkout?package=agency-plan&interval=yearly");
  await page.getByRole("switch", { name: "Annual billing" }).click();
  await expect(page.getByRole("link", { name: "Choose Agency" })).toHaveAttribute("href", "/stripe-checkout?package=agency-plan");
  await page.getByRole("switch", { name: "Annual billing" }).click();
  await shot(page, info, "pricing");
});

test("the contact form validates and stores a message", async ({ page }, info) => {
  await page.goto("/contact");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await page.getByLabel("Name").fill("Grace Hopper");
  await page.getByLabel("Email").fill("grace@example.com");
  await page.getByLabel("Subject").fill("Agency plan");
  await page.getByLabel("Message").fill("Can we brand reports with our own logo?");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Message sent")).toBeVisible();
  await shot(page, info, "contact-sent");
});

test("sign-in shows the redirect message and leaves for the accounts service", async ({ page }) => {
  const nav = page.waitForURL(/\/accounts\/sign-in/);
  await page.goto("/sign-in");
  await nav;
});

test("the home form works from the keyboard alone", async ({ page, siteUrl }) => {
  await page.goto("/");
  await expect(page.getByText(/websites analyzed so far|Unable to load statistics/)).toBeVisible();
  const input = page.getByRole("textbox", { name: "Website address" });
  for (let i = 0; i < 12 && !(await input.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(input).toBeFocused();
  await page.keyboard.type(siteUrl);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/(analyzing|results)\?/, { timeout: 30_000 });
});
