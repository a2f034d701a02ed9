/**
 * The signed-in state the header and trial button read. Accounts arrive with a later issue
 * (ARCHITECTURE.md §5: our own accounts service under /accounts); until then every visitor is
 * signed out, so this is the one place that will read the session once it exists.
 */
export type Session = { signedIn: boolean; plan: "basic" | "paid" | "pro" | "enterprise" };

const signedOut: Session = { signedIn: false, plan: "basic" };

export function useSession(): Session {
  return signedOut;
}

/** Base address of the accounts service; SPEC.md's hosted provider pages are {host}/sign-in and {host}/sign-up. */
export const accountsBase: string = (import.meta.env.VITE_ACCOUNTS_URL as string | undefined) || "/accounts";
