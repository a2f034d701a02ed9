import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError } from "../../../lib/api-client";
import { takeEarly } from "../../../lib/early-fetch";
import { timings, type AnalysisReport, type ResultResponse } from "../../../lib/domain";

/**
 * GET /api/results/{id} (docs/PRODUCT.md §7.7, §8.8): same-origin, JSON, aborted after 30 s with 'Request timed
 * out. Please try again.'; a non-OK answer is 'Request failed with status {code}'.
 */
export async function getResult(id: string, outer?: AbortSignal): Promise<AnalysisReport> {
  return (await getResultResponse(id, outer)).data;
}

/** The whole answer of GET /api/results/{id}: the report, and its `publicUrl` when it has one. */
export async function getResultResponse(id: string, outer?: AbortSignal): Promise<ResultResponse> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  outer?.addEventListener("abort", abort);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timings().resultsTimeoutMs);
  try {
    const url = `/api/results/${encodeURIComponent(id)}`;
    const early = takeEarly(url);
    const res = early
      ? await Promise.race([
          early,
          new Promise<never>((_, fail) => controller.signal.addEventListener("abort", () => fail(new DOMException("aborted", "AbortError")))),
        ])
      : await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" }, signal: controller.signal });
    if (!res.ok) throw new ApiError(res.status, `Request failed with status ${res.status}`);
    const body = (await res.json()) as ResultResponse;
    if (!body.success || !body.data) throw new ApiError(404, "Analysis not found");
    return body;
  } catch (e) {
    if (timedOut) throw new Error("Request timed out. Please try again.", { cause: e });
    throw e;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", abort);
  }
}

export const resultQueryOptions = (id: string) =>
  queryOptions({ queryKey: ["result", id], queryFn: ({ signal }) => getResultResponse(id, signal), enabled: !!id });

export const useResult = (id: string) => useQuery({ ...resultQueryOptions(id), select: (r) => r.data });

/**
 * Custom domains (issue 15 item 3): the report's public address on its agency's verified domain,
 * from the same cached answer as `useResult`; undefined for every other report.
 */
export const useResultPublicUrl = (id: string) => useQuery({ ...resultQueryOptions(id), select: (r) => r.publicUrl }).data;

/** Whether the error means the analysis does not exist (rather than a failure to load it). */
export const isNotFound = (e: unknown) => e instanceof ApiError && e.status === 404;
