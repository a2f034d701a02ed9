/**
 * The signed-in state the header and trial button read. Accounts (our own accounts service under
 * /accounts, docs/PRODUCT.md §10.1) are not built yet, so every visitor is signed out; this is the one
 * place that will read the session once it exists.
 */
export type Session = { signedIn: boolean; plan: "basic" | "paid" | "pro" | "enterprise" };

const signedOut: Session = { signedIn: false, plan: "basic" };

export function useSession(): Session {
  return signedOut;
}

/** Base address of the accounts service; its pages are {host}/sign-in and {host}/sign-up (docs/PRODUCT.md §2.2). */
export const accountsBase: string = (import.meta.env.VITE_ACCOUNTS_URL as string | undefined) || "/accounts";
