import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Account } from "./domain";
import { csrfHeaders, setCsrfToken } from "./api-client";

/**
 * The signed-in state the header, trial button and account pages read: `GET /api/session`
 * (our own accounts service, docs/PRODUCT.md §10.1), the account or `null` when signed out (never
 * a 401, which every signed-out page would log as a console error); while the answer is pending
 * the visitor counts as signed out (docs/PRODUCT.md §4.1).
 */
export type Session = {
  signedIn: boolean;
  loading: boolean;
  plan: "basic" | "paid" | "pro" | "enterprise";
  account: Account | null;
};


async function getAccount(): Promise<Account | null> {
  const res = await fetch("/api/session", { credentials: "include" });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  return (await res.json()) as Account | null;
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

/**
 * Sign-outs started in this tab. A signed-in-only page that was on screen when one started leaves
 * it to the sign-out, which takes the visitor home; see `useRequireSignIn`.
 */
let signOuts = 0;

/** Signs out on the server, forgets the cached account and everything signed-in. */
export function useSignOut() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => {
      signOuts += 1;
      return accountRequest("POST", "/api/accounts/sign-out", {});
    },
    onSettled: () => {
      setCsrfToken(null);
      qc.setQueryData(["account"], null);
      void qc.invalidateQueries();
    },
  });
}

/** Base address of the accounts service; its pages are {host}/sign-in and {host}/sign-up (docs/PRODUCT.md §2.2). */
export const accountsBase: string = (import.meta.env.VITE_ACCOUNTS_URL as string | undefined) || "/accounts";

/**
 * Where a signed-out visitor goes to sign in, coming back to `returnPath` afterwards: our own
 * sign-in page, or /sign-in, which hands over to the accounts service at VITE_ACCOUNTS_URL.
 */
export function signInFirst(returnPath: string): string {
  const base = accountsBase.startsWith("/") ? accountsBase : "";
  return `${base}/sign-in?redirect_url=${encodeURIComponent(returnPath)}`;
}

/**
 * For pages only a signed-in visitor sees: a signed-out visitor is sent to sign-in
 * (`signInFirst`), to come back to `returnPath`. Not when the visitor signed out while the page
 * was on screen: the sign-out goes home, and the page may still be mounted while home's route loads (a transition keeps the old
 * screen until the new one is ready), so its redirect would win the race.
 */
export function useRequireSignIn(returnPath: string): Session {
  const session = useSession();
  const navigate = useNavigate();
  const signOutsAtMount = useRef(signOuts);
  const { loading, signedIn } = session;
  useEffect(() => {
    if (loading || signedIn || signOuts !== signOutsAtMount.current) return;
    void navigate(signInFirst(returnPath), { replace: true });
  }, [loading, signedIn, navigate, returnPath]);
  return session;
}

