import { test, expect, shot } from "./fixtures";

for (const path of ["/no-such-page", "/admin/users", "/blog/some-post"]) {
  test(`${path} answers 404 with the not-found page`, async ({ page, request }, info) => {
    const res = await request.get(path);
    expect(res.status()).toBe(404);
    await page.goto(path);
    await expect(page.getByRole("heading", { name: "Oops! Page Not Found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Contact Support" })).toHaveAttribute("href", "/contact");
    await expect(page.getByRole("link", { name: "Pricing", exact: true }).last()).toHaveAttribute("href", "/pricing");
    if (path === "/no-such-page") await shot(page, info, "not-found");
  });
}

test("Go Back and Return to Homepage", async ({ page }) => {
  await page.goto("/pricing");
  await page.goto("/no-such-page");
  await page.getByRole("button", { name: "Go Back" }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await page.goto("/no-such-page");
  await page.getByRole("link", { name: "Return to Homepage" }).click();
  await expect(page).toHaveURL(/\/$/);
});
