import { useEffect } from "react";
import { Spinner } from "../../components/ui/spinner";
import { PageMeta } from "../../components/seo/page-meta";
import { accountsBase } from "../../lib/session";
import { safeReturnPath } from "../../lib/domain";

/**
 * Where the visitor came from: a `redirect_url` parameter, else the page that linked here when it
 * is ours; only ever a path on our own origin (no open redirect).
 */
function returnPath(): string {
  const origin = window.location.origin;
  const asked = new URLSearchParams(window.location.search).get("redirect_url");
  const referrer = document.referrer.startsWith(`${origin}/`) ? document.referrer : "";
  return safeReturnPath(asked ?? referrer, origin);
}

function RedirectPage({ title, target }: { title: string; target: string }) {
  useEffect(() => {
    window.location.replace(`${accountsBase}${target}?redirect_url=${encodeURIComponent(returnPath())}`);
  }, [target]);
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center gap-4 px-4 text-center" role="status">
      <PageMeta title={title} description="Sign in to Sitelens to buy credits, manage reports and start your free trial." noindex />
      <Spinner className="size-8 text-primary" />
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-muted-foreground">Taking you to the secure accounts page…</p>
    </div>
  );
}

/** /sign-in: 'Redirecting to Sign In', then the accounts service's sign-in page. */
export function SignInRedirectPage() {
  return <RedirectPage title="Redirecting to Sign In" target="/sign-in" />;
}

/** /sign-up: 'Redirecting to Sign Up', then the accounts service's sign-up page. */
export function SignUpRedirectPage() {
  return <RedirectPage title="Redirecting to Sign Up" target="/sign-up" />;
}
