import { QueryClient } from "@tanstack/react-query";
import { timings } from "./domain";
import { isClientError } from "./api-client";

const t = timings();

/** Retry rule of docs/PRODUCT.md §7.13: at most 2 retries, none on a 4xx. */
export function shouldRetry(failureCount: number, error: unknown) {
  return !isClientError(error) && failureCount < t.queryRetries;
}

/** React Query with the defaults of docs/PRODUCT.md §7.13: no refetch on focus, fresh 5 minutes, mutations not retried. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, staleTime: t.queryStaleMs, retry: shouldRetry },
      mutations: {
        retry: false,
        onError: (error) => console.error("Mutation failed:", error),
      },
    },
  });
}
