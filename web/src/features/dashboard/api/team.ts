import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TeamRole, TeamView } from "../../../lib/domain";
import { accountRequest } from "../../../lib/session";

/** `GET /api/team`: the team the signed-in user owns or belongs to (docs/PRODUCT.md §6.7). */
async function getTeam(): Promise<TeamView> {
  const res = await fetch("/api/team", { credentials: "include" });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  return (await res.json()) as TeamView;
}

export const teamQueryOptions = () => queryOptions({ queryKey: ["team"], queryFn: getTeam });

export const useTeam = (enabled: boolean) => useQuery({ ...teamQueryOptions(), enabled });

/**
 * The team's changes: each answers with the server's message (the seat limit, a duplicate
 * invitation) and refreshes the team and everything that depends on membership.
 */
function useTeamChange<A>(send: (arg: A) => Promise<{ message: string }>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => void qc.invalidateQueries(),
  });
}

/** `POST /api/team/invitations`: invite an address with a role; the server mails the link. */
export const useInvite = () =>
  useTeamChange((body: { email: string; role: TeamRole }) => accountRequest<{ message: string }>("POST", "/api/team/invitations", body));

/** `DELETE /api/team/members/{id}`: remove a member, or withdraw an invitation (negative id). */
export const useRemoveMember = () =>
  useTeamChange((id: number) => accountRequest<{ message: string }>("DELETE", `/api/team/members/${id}`));

/** `POST /api/team/leave`: leave the team the user belongs to. */
export const useLeaveTeam = () => useTeamChange<void>(() => accountRequest<{ message: string }>("POST", "/api/team/leave", {}));
