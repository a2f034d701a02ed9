import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CallbackSecretView } from "../../../lib/domain";
import { accountRequest } from "../../../lib/session";

/**
 * `GET /api/account/callback-secret`: the secret that signs the callbacks of the user's API
 * analyses (the team owner's for a team member), made by the server on first read.
 */
export async function getCallbackSecret(): Promise<CallbackSecretView> {
  const res = await fetch("/api/account/callback-secret", { credentials: "include" });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  return (await res.json()) as CallbackSecretView;
}

/** `POST /api/account/callback-secret/rotate`: a new secret; callbacks are signed with it from now on. */
export const rotateCallbackSecret = () => accountRequest<CallbackSecretView>("POST", "/api/account/callback-secret/rotate");

export const callbackSecretQueryOptions = () => queryOptions({ queryKey: ["callback-secret"], queryFn: getCallbackSecret });

/** The secret, read only once `enabled` (reading it makes one, so the card asks only when shown). */
export const useCallbackSecret = (enabled: boolean) => useQuery({ ...callbackSecretQueryOptions(), enabled });

/** Rotating puts the new secret in the cache at once. */
export function useRotateCallbackSecret() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: rotateCallbackSecret,
    onSuccess: (view) => qc.setQueryData(callbackSecretQueryOptions().queryKey, view),
  });
}
