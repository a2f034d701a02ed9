import { useEffect } from "react";
import { Spinner } from "../../components/ui/spinner";
import { PageMeta } from "../../components/seo/page-meta";
import { accountsBase } from "../../lib/session";

function RedirectPage({ title, target }: { title: string; target: string }) {
  useEffect(() => {
    window.location.replace(`${accountsBase}${target}`);
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
