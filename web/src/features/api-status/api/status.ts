import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ApiStatus } from "../../../lib/domain";

/** How often the page asks again, ms: the server samples once a minute, parts change faster. */
export const STATUS_POLL_MS = 30_000;

/** `GET /api/v1/status`: the service now and its last 24 hours (public, no key). */
export async function getStatus(): Promise<ApiStatus> {
  const res = await fetch("/api/v1/status", { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  return (await res.json()) as ApiStatus;
}

export const statusQueryOptions = () =>
  queryOptions({
    queryKey: ["api-status"],
    queryFn: getStatus,
    refetchInterval: STATUS_POLL_MS,
    // A status page is read to see what is happening now, including after a tab switch.
    refetchOnWindowFocus: true,
    staleTime: 0,
  });

export const useApiStatus = () => useQuery(statusQueryOptions());
