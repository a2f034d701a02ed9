import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Account } from "./domain";
import { csrfHeaders, setCsrfToken } from "./api-client";

/**
 * The signed-in state the header, trial button and account pages read: `GET /api/account`
 * (our own accounts service, docs/PRODUCT.md §10.1). A 401 means signed out; while the answer is
 * pending the visitor counts as signed out (docs/PRODUCT.md §4.1).
 */
export type Session = {
  signedIn: boolean;
  loading: boolean;
  plan: "basic" | "paid" | "pro" | "enterprise";
  account: Account | null;
};


async function getAccount(): Promise<Account | null> {
  const res = await fetch("/api/account", { credentials: "include" });
  if (res.status === 401) return null;
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  return (await res.json()) as Account;
}

export const accountQueryOptions = () =>
  queryOptions({ queryKey: ["account"], queryFn: getAccount, retry: false, staleTime: 30_000 });

export function useSession(): Session {
  const q = useQuery(accountQueryOptions());
  const account = q.data ?? null;
  if (account) setCsrfToken(account.csrfToken);
  const plan = account && account.plan !== "basic" ? "paid" : "basic";
  return { signedIn: account !== null, loading: q.isPending, plan, account };
}

/** Sends a JSON request with the session's CSRF token and our error shape read back. */
export async function accountRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  Object.assign(headers, csrfHeaders());
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "include",
  });
  const json = (await res.json().catch(() => ({}))) as { error?: string; account?: Account };
  if (!res.ok) throw new Error(json.error ?? `${res.status}: ${res.statusText}`);
  if (json.account) setCsrfToken(json.account.csrfToken);
  return json as T;
}

/** Signs out on the server, forgets the cached account and everything signed-in. */
export function useSignOut() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => accountRequest("POST", "/api/accounts/sign-out", {}),
    onSettled: () => {
      setCsrfToken(null);
      qc.setQueryData(["account"], null);
      void qc.invalidateQueries();
    },
  });
}

/** Base address of the accounts service; its pages are {host}/sign-in and {host}/sign-up (docs/PRODUCT.md §2.2). */
export const accountsBase: string = (import.meta.env.VITE_ACCOUNTS_URL as string | undefined) || "/accounts";
