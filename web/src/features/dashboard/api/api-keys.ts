import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyView, CreatedApiKey, NewApiKey } from "../../../lib/domain";
import { accountRequest } from "../../../lib/session";

/** `GET /api/account/api-keys`: the signed-in user's unrevoked API keys, newest first (never the keys themselves). */
export async function listApiKeys(): Promise<ApiKeyView[]> {
  const res = await fetch("/api/account/api-keys", { credentials: "include" });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  return (await res.json()) as ApiKeyView[];
}

/** `POST /api/account/api-keys`: a new named key; the answer holds the key itself, shown this once. */
export const createApiKey = (body: NewApiKey) => accountRequest<CreatedApiKey>("POST", "/api/account/api-keys", body);

/** `DELETE /api/account/api-keys/{id}`: revoke a key; it authenticates nothing from then on. */
export const revokeApiKey = (id: number) => accountRequest<{ message: string }>("DELETE", `/api/account/api-keys/${id}`);

export const apiKeysQueryOptions = () => queryOptions({ queryKey: ["api-keys"], queryFn: listApiKeys });

export const useApiKeys = () => useQuery(apiKeysQueryOptions());

/** Creating or revoking a key refreshes the list. */
function useApiKeyChange<A, R>(send: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => void qc.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey }),
  });
}

export const useCreateApiKey = () => useApiKeyChange(createApiKey);

export const useRevokeApiKey = () => useApiKeyChange(revokeApiKey);
