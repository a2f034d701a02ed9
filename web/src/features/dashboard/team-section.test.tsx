// The team card as each role sees it, from the answers of GET /api/team.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Account, TeamView } from "../../lib/domain";
import { TeamSection } from "./team-section";

const account = (over: Partial<Account>): Account => ({
  id: 1,
  email: "owner@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  username: "ada",
  emailVerified: true,
  hasUsedTrial: false,
  paidCredits: 0,
  trialCredits: 0,
  trialExpiresAt: null,
  unlimitedReports: false,
  plan: "business",
  seats: 3,
  team: null,
  hasPassword: true,
  csrfToken: "t",
  ...over,
});

/** The rendered text, tags dropped, and the accessible names of the buttons. */
function render(me: Account, team: TeamView) {
  const client = new QueryClient();
  client.setQueryData(["team"], team);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <TeamSection account={me} />
    </QueryClientProvider>,
  );
  const buttons = [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map(
    ([, attributes = "", content = ""]) => /aria-label="([^"]*)"/.exec(attributes)?.[1] ?? content.replace(/<[^>]+>/g, ""),
  );
  return { text: html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " "), buttons };
}

const team: TeamView = {
  ownerEmail: "owner@example.com",
  role: "owner",
  seats: 3,
  members: [
    { id: 7, email: "member@example.com", role: "member", status: "active" },
    { id: -3, email: "invited@example.com", role: "admin", status: "pending" },
  ],
};

describe("TeamSection", () => {
  it("shows the owner the members, the pending invitation, the seats and the invitation form", () => {
    const { text, buttons } = render(account({}), team);
    expect(text).toContain("Seats in use: 3 of 3");
    expect(text).toContain("member@example.com Member");
    expect(text).toContain("invited@example.com Admin Invitation pending");
    expect(buttons).toContain("Remove member@example.com");
    expect(buttons).toContain("Withdraw invitation for invited@example.com");
    expect(buttons).toContain("Send Invitation");
    expect(buttons).not.toContain("Leave Team");
  });

  it("lets a member leave, and nothing more", () => {
    const me = account({ email: "member@example.com", team: { ownerId: 1, ownerEmail: "owner@example.com", role: "member" } });
    const { text, buttons } = render(me, { ...team, role: "member" });
    expect(text).toContain("You are a member of owner@example.com's team · Seats in use: 3 of 3");
    expect(buttons).toEqual(["Leave Team"]);
  });

  it("says when the plan's seats are unlimited", () => {
    const { text } = render(account({ plan: "enterprise", seats: null }), { ...team, seats: null, members: [] });
    expect(text).toContain("Seats in use: 1 (unlimited)");
  });
});
