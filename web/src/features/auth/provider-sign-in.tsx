import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";

type Provider = { enabled: boolean; name: string | null };

async function getProvider(): Promise<Provider> {
  const res = await fetch("/api/accounts/oidc", { credentials: "include" });
  if (!res.ok) return { enabled: false, name: null };
  return (await res.json()) as Provider;
}

/**
 * "Sign in with …": shown only when the server has an OpenID Connect provider configured
 * (`SITELENS_OIDC_ISSUER`, docs/PRODUCT.md §10.1). A plain link, since the browser itself must
 * travel to the provider and back; `returnTo` is where it lands once signed in.
 */
export function ProviderSignIn({ returnTo }: { returnTo: string }) {
  const q = useQuery({ queryKey: ["oidc-provider"], queryFn: getProvider, staleTime: Infinity });
  if (!q.data?.enabled) return null;
  return (
    <div className="mx-auto mt-4 flex w-full max-w-md flex-col gap-2">
      <p className="text-center text-sm text-muted-foreground">or</p>
      <Button asChild variant="outline">
        <a href={`/api/accounts/oidc/start?redirect_url=${encodeURIComponent(returnTo)}`}>Sign in with {q.data.name}</a>
      </Button>
    </div>
  );
}
