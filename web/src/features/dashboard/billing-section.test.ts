// The dashboard's billing section: each plan state's text and the actions it offers, which
// must be the ones domain's rule accepts for that state.
import { describe, expect, it } from "vitest";
import { checkPlanAction, type SubscriptionStatus, type SubscriptionView } from "../../lib/domain";
import { actionsFor, statusText } from "./billing-section";

const sub = (status: SubscriptionStatus): SubscriptionView => ({
  planId: "agency-plan",
  planName: "Agency",
  interval: "monthly",
  status,
  extraSeats: 0,
  seats: 5,
  monthlyCredits: 100,
  amountCents: 30000,
  currentPeriodEnd: "2026-12-25T00:00:00Z",
});

describe("billing section", () => {
  const states: SubscriptionStatus[] = ["active", "paused", "cancel_at_period_end", "canceled", "past_due"];

  it("offers only actions domain allows in each state", () => {
    for (const s of states) {
      for (const { action } of actionsFor(s)) {
        expect(() => checkPlanAction(s, action), `${s} ${action}`).not.toThrow();
      }
    }
    expect(actionsFor("active").map((a) => a.action)).toEqual(["pause", "cancel"]);
    expect(actionsFor("cancel_at_period_end").map((a) => a.label)).toEqual(["Keep my plan"]);
    expect(actionsFor("canceled")).toEqual([]);
  });

  it("says when the plan renews or ends", () => {
    expect(statusText(sub("active"))).toMatch(/^Renews on /);
    expect(statusText(sub("cancel_at_period_end"))).toMatch(/^Ends on /);
    expect(statusText(sub("paused"))).toContain("Paused");
  });
});
