import { afterEach, describe, expect, it, vi } from "vitest";
import { timings } from "../../../lib/domain";
import { getResult, isNotFound } from "./get-result";
import { fileNameFrom } from "./download-report";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("getResult", () => {
  it("asks for JSON on the same origin and returns data", async () => {
    const f = vi.fn((..._a: unknown[]) => Promise.resolve(new Response(JSON.stringify({ success: true, data: { id: "r1" } }))));
    vi.stubGlobal("fetch", f);
    await expect(getResult("r1")).resolves.toEqual({ id: "r1" });
    expect(f.mock.calls[0]![0]).toBe("/api/results/r1");
    expect(f.mock.calls[0]![1]).toMatchObject({ credentials: "same-origin", headers: { Accept: "application/json" } });
  });

  it("reports 'Request failed with status {code}' and marks a 404 as not found", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(new Response("{}", { status: 404 }))));
    const err = await getResult("nope").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe("Request failed with status 404");
    expect(isNotFound(err)).toBe(true);
  });

  it("aborts after 30 s with 'Request timed out. Please try again.'", async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      "fetch",
      vi.fn((_u: unknown, init: RequestInit) => new Promise((_ok, fail) => init.signal!.addEventListener("abort", () => fail(new DOMException("aborted", "AbortError"))))),
    );
    const p = getResult("slow").catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(timings().resultsTimeoutMs);
    expect(((await p) as Error).message).toBe("Request timed out. Please try again.");
  });
});

describe("fileNameFrom", () => {
  it("reads Content-Disposition, else defaults from the report id", () => {
    expect(fileNameFrom('attachment; filename="site-report.pdf"', "r1")).toBe("site-report.pdf");
    expect(fileNameFrom("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf", "r1")).toBe("résumé.pdf");
    expect(fileNameFrom(null, "r1")).toBe("website-analysis-report-r1.pdf");
  });
});
