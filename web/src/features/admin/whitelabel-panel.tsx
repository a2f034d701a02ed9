import { useQuery } from "@tanstack/react-query";
import { Spinner } from "../../components/ui/spinner";
import type { AdminWhitelabelRow } from "../../lib/domain";
import { adminDateTime, adminGet } from "./api";
import { Account } from "./purchases-panel";
import { Table } from "./table";

/** White-label brandings as stored, with each agency's custom domain and whether it is verified (and so live). */
export function WhitelabelPanel() {
  const q = useQuery({ queryKey: ["admin", "whitelabel"], queryFn: () => adminGet<AdminWhitelabelRow[]>("/api/admin/whitelabel") });
  return (
    <section aria-labelledby="whitelabel-title" className="flex flex-col gap-4">
      <div>
        <h2 id="whitelabel-title" className="text-xl font-semibold">
          White-label domains
        </h2>
        <p className="text-sm text-muted-foreground">A custom domain serves its agency's branded reports only once its DNS TXT record has been verified.</p>
      </div>
      {q.isPending ? (
        <Spinner className="size-6" />
      ) : q.isError ? (
        <p role="alert">Unable to load the brandings: {q.error.message}</p>
      ) : q.data.length === 0 ? (
        <p className="text-muted-foreground">No agency has saved a white-label branding.</p>
      ) : (
        <Table
          caption="White-label brandings, by last change"
          head={["Company", "Account", "Custom domain", "Website", "Contact", "Colour", "Changed"]}
          rows={q.data.map((w) => [
            w.companyName,
            <Account key="a" id={w.userId} email={w.userEmail} />,
            w.customDomain ? (
              <span key="d">
                {w.customDomain} <span className="text-xs text-muted-foreground">{w.customDomainVerified ? "(verified)" : "(not verified)"}</span>
              </span>
            ) : (
              "—"
            ),
            w.websiteUrl ?? "—",
            w.contactEmail ?? "—",
            <span key="c" className="inline-flex items-center gap-2">
              <span aria-hidden="true" className="inline-block size-4 rounded border" style={{ backgroundColor: w.primaryColor }} />
              {w.primaryColor}
            </span>,
            adminDateTime.format(new Date(w.updatedAt)),
          ])}
        />
      )}
    </section>
  );
}
