// The checkout pages' logic: the address read as the server reads it, the way back after
// signing in, what happens once a payment is known, and the prices domain gives the pages.
import { describe, expect, it } from "vitest";
import { checkoutFailureMessage, resolveCheckout, safeReturnPath, withUpgradeSite } from "../../lib/domain";
import type { CheckoutView } from "../../api/billing";
import { afterPayment, checkoutQueryFrom } from "./checkout-flow";
import { signInFirst } from "../../lib/session";
import { resultsPath } from "../../lib/results-path";

const view = (over: Partial<CheckoutView>): CheckoutView => ({
  id: "chk_1",
  status: "open",
  mode: "test",
  kind: "pack",
  packageId: "credit-5",
  credits: 5,
  amountCents: 2000,
  reportType: null,
  url: null,
  interval: null,
  failureMessage: "Error starting purchase. Please try again.",
  analysisId: null,
  ...over,
});

describe("checkout addresses", () => {
  it("reads every form of docs/PRODUCT.md §7.10 and leaves empty values out", () => {
    expect(checkoutQueryFrom(new URLSearchParams("package=credit-20"))).toEqual({ package: "credit-20" });
    expect(checkoutQueryFrom(new URLSearchParams("type=credits&credits=1&price=5&amount="))).toEqual({ type: "credits", credits: "1", price: "5" });
    expect(checkoutQueryFrom(new URLSearchParams("package=starter&amount=5&url=https%3A%2F%2Fexample.com%2F"))).toEqual({
      package: "starter",
      amount: "5",
      url: "https://example.com/",
    });
  });

  it("prices them with domain and refuses a price that disagrees", () => {
    expect(resolveCheckout(checkoutQueryFrom(new URLSearchParams("package=credit-100"))).amountCents).toBe(30000);
    // The home page's 'Buy Credits' link: a price under 100 is dollars.
    expect(resolveCheckout(checkoutQueryFrom(new URLSearchParams("type=credits&credits=1&price=5"))).amountCents).toBe(500);
    expect(() => resolveCheckout(checkoutQueryFrom(new URLSearchParams("type=credits&credits=20&price=1")))).toThrow("($70)");
    const upgrade = resolveCheckout(checkoutQueryFrom(new URLSearchParams("package=starter&amount=5&url=example.com")));
    expect([upgrade.kind, upgrade.reportType, upgrade.amountCents]).toEqual(["upgrade", "standard", 500]);
    expect(checkoutFailureMessage("plan")).toBe("Error starting subscription. Please try again.");
  });

  it("reads a mailed upgrade link's token and prices the site the server names for it", () => {
    const token = "0123456789abcdef0123456789abcdef";
    const link = checkoutQueryFrom(new URLSearchParams(`package=starter&upgradeToken=${token}`));
    expect(link).toEqual({ package: "starter", upgradeToken: token });
    const item = resolveCheckout(withUpgradeSite(link, "https://acme.example/"));
    expect([item.kind, item.url, item.amountCents]).toEqual(["upgrade", "https://acme.example/", 500]);
    // A token with another package is refused with domain's message.
    expect(() => withUpgradeSite({ package: "credit-5", upgradeToken: token }, "https://acme.example/")).toThrow("An upgrade link buys");
  });

  it("brings a signed-out visitor back to the upgrade link with its token", () => {
    const path = `/checkout?package=starter&upgradeToken=0123456789abcdef0123456789abcdef`;
    const signIn = new URL(signInFirst(path), "https://sitelens.test");
    expect(signIn.pathname).toBe("/accounts/sign-in");
    const back = safeReturnPath(signIn.searchParams.get("redirect_url") ?? "", "https://sitelens.test");
    expect(back).toBe(path);
  });

  it("sends a signed-out buyer to sign in and back to the same checkout", () => {
    // Our own sign-in page (VITE_ACCOUNTS_URL unset); an external accounts service is reached through /sign-in.
    expect(signInFirst("/stripe-checkout?package=credit-5")).toBe("/accounts/sign-in?redirect_url=%2Fstripe-checkout%3Fpackage%3Dcredit-5");
  });
});

describe("after the payment", () => {
  it("waits while open, shows the spec's alert when declined", () => {
    expect(afterPayment(view({}))).toEqual({ kind: "wait" });
    expect(afterPayment(view({ status: "declined" }))).toEqual({ kind: "failed", message: "Error starting purchase. Please try again." });
    expect(afterPayment(view({ status: "expired", kind: "plan", failureMessage: "Error starting subscription. Please try again." }))).toEqual({
      kind: "failed",
      message: "Error starting subscription. Please try again.",
    });
  });

  it("follows the paid report an upgrade's payment started, thanks a subscriber, shows credits otherwise", () => {
    const upgrade = { status: "paid", kind: "upgrade", url: "https://example.com/", reportType: "standard" } as const;
    expect(afterPayment(view({ ...upgrade, analysisId: "a-1" }))).toEqual({
      kind: "follow",
      url: "https://example.com/",
      reportType: "standard",
      analysisId: "a-1",
    });
    // No analysis was started (the credit could not be spent): the credit stays and is shown.
    expect(afterPayment(view(upgrade))).toEqual({ kind: "done" });
    expect(afterPayment(view({ status: "paid", kind: "plan" }))).toEqual({ kind: "thank-you" });
    expect(afterPayment(view({ status: "paid" }))).toEqual({ kind: "done" });
  });

  it("lands an upgrade on the paid results with its type", () => {
    expect(resultsPath("r 1", { paid: true, type: "standard" })).toBe("/results?id=r%201&paid=true&type=standard");
    expect(resultsPath("r1", { url: "https://a.example/" })).toBe("/results?id=r1&url=https%3A%2F%2Fa.example%2F");
  });
});
