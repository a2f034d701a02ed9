import { useState } from "react";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { PageMeta } from "../../components/seo/page-meta";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/spinner";
import { ApiError } from "../../lib/api-client";
import { takeEarly } from "../../lib/early-fetch";
import { routeMeta } from "../../lib/route-meta";
import type { AnalysisReport, ResultResponse } from "../../lib/domain";
import { Report } from "../results/results-page";
import { ServerReport, useKeepServerReport, useServerReport } from "../results/server-report";

/** GET /api/demo: the sample report, measured once from our fixture site (crates/server/demo). */
async function getDemo(): Promise<AnalysisReport> {
  const url = "/api/demo";
  const res = (await takeEarly(url)) ?? (await fetch(url, { headers: { Accept: "application/json" } }));
  if (!res.ok) throw new ApiError(res.status, `Request failed with status ${res.status}`);
  return ((await res.json()) as ResultResponse).data;
}

const demoQueryOptions = () => queryOptions({ queryKey: ["demo"], queryFn: getDemo, staleTime: Infinity });

/**
 * /demo: a full sample report, browsable like a real result, with every paid section. On the
 * first visit the server sent its head and first screen; after an in-app navigation the page
 * sets its head itself.
 */
export function DemoPage() {
  const serverReport = useServerReport();
  const [fromServer] = useState(() => serverReport !== null);
  const q = useQuery(demoQueryOptions());
  const keepServerReport = useKeepServerReport(serverReport, !q.isPending);
  const meta = fromServer ? null : <PageMeta {...routeMeta("/demo")} />;
  if (serverReport !== null && keepServerReport) return <ServerReport html={serverReport} />;
  if (q.isPending) {
    return (
      <div role="status" className="flex min-h-[50vh] flex-col items-center justify-center gap-4 px-4">
        {meta}
        <Spinner className="size-10 text-primary" />
        <p className="text-lg font-medium">Loading the sample report...</p>
      </div>
    );
  }
  if (q.isError) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        {meta}
        <h1 className="text-2xl font-bold">We could not load the sample report</h1>
        <p className="mt-3 text-muted-foreground">{q.error.message}</p>
        <Button className="mt-6" onClick={() => q.refetch()}>Try Again</Button>
      </div>
    );
  }
  return (
    <>
      {meta}
      <Report report={q.data} sample />
    </>
  );
}
