import { queryOptions, useQuery } from "@tanstack/react-query";
import { getJson } from "../lib/api-client";
import { timings, type StatsResponse } from "../lib/domain";

export const getStats = () => getJson<StatsResponse>("/api/stats");

/** The analyses-completed counter, refetched every 30 seconds (docs/PRODUCT.md §7.4). */
export const statsQueryOptions = () =>
  queryOptions({ queryKey: ["stats"], queryFn: getStats, refetchInterval: timings().statsRefreshMs });

export const useStats = () => useQuery(statsQueryOptions());
