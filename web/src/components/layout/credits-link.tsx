import { Link } from "react-router";
import { creditsLabel, type Account } from "../../lib/domain";

/** The signed-in user's spendable credits, written by the domain rule (`2.5 credits`), linking to the dashboard. */
export function CreditsLink({ account, onClick }: { account: Account; onClick?: () => void }) {
  return (
    <Link
      to="/dashboard"
      onClick={onClick}
      aria-label={`Your credits: ${creditsLabel(account.paidCredits + account.trialCredits)}`}
      className="rounded-full bg-muted px-3 py-1 text-center text-sm font-medium hover:bg-muted/70 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {creditsLabel(account.paidCredits + account.trialCredits)}
    </Link>
  );
}
