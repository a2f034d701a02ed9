import { queryOptions, useQuery } from "@tanstack/react-query";
import { trialButton, trialState, type TrialButton, type TrialEligibilityResponse } from "../lib/domain";
import { useSession } from "../lib/session";

/** GET /api/check-trial-eligibility; a non-ok status counts as a new visitor (docs/PRODUCT.md §7.5). */
export async function getTrialEligibility(): Promise<TrialEligibilityResponse | null> {
  try {
    const res = await fetch("/api/check-trial-eligibility", { credentials: "include" });
    if (!res.ok) return null;
    return (await res.json()) as TrialEligibilityResponse;
  } catch {
    return null;
  }
}

export const trialQueryOptions = () =>
  queryOptions({ queryKey: ["trial-eligibility"], queryFn: getTrialEligibility, retry: false });

/** The trial button for this visitor: label, destination and whether eligibility is loading. */
export function useTrialButton(): TrialButton & { loading: boolean } {
  const { signedIn } = useSession();
  // Eligibility only means something for a signed-in visitor; everyone else is 'new'.
  const q = useQuery({ ...trialQueryOptions(), enabled: signedIn });
  const eligible = q.data?.eligible;
  const state = !signedIn || eligible === undefined ? trialState(false, false) : trialState(true, !eligible);
  return { ...trialButton(state), loading: signedIn && q.isPending };
}
