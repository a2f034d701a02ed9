import { csrfHeaders, withLeadingSlash } from "../lib/api-client";
import type { AnalyzeResponse } from "../lib/domain";

/** What POST /api/analyze led to: a finished result to open, or a queued analysis to follow. */
export type AnalyzeOutcome = { kind: "result"; id: string } | { kind: "queued"; analysisId: string };

/** An analyze request that failed; `message` is the text the 'Analysis Failed' toast shows. */
export class AnalyzeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AnalyzeError";
  }
}

const networkFailure = "Failed to analyze website. Please try again.";

/**
 * POST /api/analyze {url} (with `reportType` for a paid report). Reads success, data.id, error and analysisId (docs/PRODUCT.md §7.2, §8.2): the
 * server's error text when it gives one, 'Unknown error occurred' when success is false without
 * one, and 'Failed to analyze website. Please try again.' when no answer could be read.
 */
export async function requestAnalysis(url: string, signal?: AbortSignal, reportType?: string): Promise<AnalyzeOutcome> {
  let res: Response;
  try {
    res = await fetch(withLeadingSlash("api/analyze"), {
      method: "POST",
      headers: { "Content-Type": "application/json", ...csrfHeaders() },
      // A paid report names its type (the upgrade after a payment); the server spends its credits.
      body: JSON.stringify(reportType ? { url, reportType } : { url }),
      credentials: "include",
      signal,
    });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new AnalyzeError(networkFailure);
  }
  let body: (AnalyzeResponse & { id?: string }) | undefined;
  try {
    body = (await res.json()) as AnalyzeResponse & { id?: string };
  } catch {
    throw new AnalyzeError(res.ok ? networkFailure : `${res.status}: ${res.statusText || networkFailure}`);
  }
  if (!res.ok || !body.success) throw new AnalyzeError(body.error || "Unknown error occurred");
  const id = body.data?.id ?? body.id;
  if (id) return { kind: "result", id };
  if (body.analysisId) return { kind: "queued", analysisId: body.analysisId };
  throw new AnalyzeError("Unknown error occurred");
}
