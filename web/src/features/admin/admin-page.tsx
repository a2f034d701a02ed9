import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { PageMeta } from "../../components/seo/page-meta";
import { Badge } from "../../components/ui/badge";
import { Spinner } from "../../components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { ApiError } from "../../lib/api-client";
import type { AdminMe } from "../../lib/domain";
import { useRequireSignIn } from "../../lib/session";
import { NotFoundPage } from "../not-found/not-found-page";
import { adminGet } from "./api";
import { panels } from "./panels";

const levelText: Record<AdminMe["level"], string> = {
  support: "Support · read only",
  admin: "Admin · reads and changes",
  owner: "Owner · manages administrators",
};

function AdminArea({ me, defaultTab }: { me: AdminMe; defaultTab: string }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab = panels.some((p) => p.id === requested) ? (requested as string) : defaultTab;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <PageMeta title="Admin" description="The Sitelens admin area." noindex />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-semibold">Admin</h1>
          <p className="text-muted-foreground">Signed in as {me.name === me.email ? me.email : `${me.name} (${me.email})`}</p>
        </div>
        <Badge variant="outline">{levelText[me.level]}</Badge>
      </div>
      <Tabs value={tab} onValueChange={(next) => setParams({ tab: next })}>
        <TabsList aria-label="Admin sections">
          {panels.map((p) => (
            <TabsTrigger key={p.id} value={p.id}>
              {p.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {panels.map((p) => (
          <TabsContent key={p.id} value={p.id}>
            <p.Component me={me} />
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}

/**
 * `/admin` and `/admin-dashboard` (docs/PRODUCT.md §6.6): the admin area for administrators; a
 * signed-out visitor is sent to sign in, anyone else sees the not-found page (the server refuses
 * every admin call to them as well).
 */
function AdminGate({ path, defaultTab }: { path: string; defaultTab: string }) {
  const { signedIn } = useRequireSignIn(path);
  const q = useQuery({
    queryKey: ["admin", "me"],
    queryFn: () => adminGet<AdminMe>("/api/admin/me"),
    enabled: signedIn,
    retry: false,
  });
  if (q.error instanceof ApiError && q.error.status === 403) return <NotFoundPage />;
  if (!q.data) {
    return (
      <div className="flex min-h-[40vh] items-center justify-center" role="status">
        {q.isError ? <p>Unable to load the admin area. Please try again.</p> : <Spinner className="size-8" />}
      </div>
    );
  }
  const fallback = panels.some((p) => p.id === defaultTab) ? defaultTab : (panels[0]?.id ?? "");
  return <AdminArea me={q.data} defaultTab={fallback} />;
}

export function AdminPage() {
  return <AdminGate path="/admin" defaultTab={panels[0]?.id ?? ""} />;
}

/** `/admin-dashboard`: the admin area opened on the business at a glance. */
export function AdminDashboardPage() {
  return <AdminGate path="/admin-dashboard" defaultTab="overview" />;
}
