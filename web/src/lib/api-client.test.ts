import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiRequest, isClientError, withLeadingSlash } from "./api-client";
import { shouldRetry } from "./query-client";

function stubFetch(res: Response) {
  const f = vi.fn((..._args: unknown[]) => Promise.resolve(res));
  vi.stubGlobal("fetch", f);
  return f;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("apiRequest", () => {
  it("adds the leading slash, includes credentials, and sends JSON only with a body", async () => {
    const f = stubFetch(new Response("{}", { status: 200 }));
    await apiRequest("GET", "api/stats");
    expect(f.mock.calls[0]![0]).toBe("/api/stats");
    const init = f.mock.calls[0]![1] as RequestInit;
    expect(init.credentials).toBe("include");
    expect(init.headers).toBeUndefined();
    expect(init.body).toBeUndefined();

    await apiRequest("POST", "/api/contact", { a: 1 });
    const post = f.mock.calls[1]![1] as RequestInit;
    expect(post.headers).toEqual({ "Content-Type": "application/json" });
    expect(post.body).toBe('{"a":1}');
    expect(withLeadingSlash("/x")).toBe("/x");
  });

  it("throws 'status: body text', or the status text when the body is empty", async () => {
    stubFetch(new Response("rate limited", { status: 429 }));
    await expect(apiRequest("GET", "/x")).rejects.toThrow("429: rate limited");
    stubFetch(new Response("", { status: 404, statusText: "Not Found" }));
    await expect(apiRequest("GET", "/x")).rejects.toThrow("404: Not Found");
  });

  it("reads a 500 as JSON or text, logs it and rethrows '500: details'", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    stubFetch(new Response(JSON.stringify({ success: false, error: "database down" }), { status: 500 }));
    await expect(apiRequest("GET", "/x")).rejects.toThrow("500: database down");
    stubFetch(new Response("plain failure", { status: 500 }));
    await expect(apiRequest("GET", "/x")).rejects.toThrow("500: plain failure");
    stubFetch(new Response("", { status: 500 }));
    await expect(apiRequest("GET", "/x")).rejects.toThrow("500: Internal Server Error");
    expect(log).toHaveBeenCalledTimes(3);
  });
});

describe("query retry rule", () => {
  it("retries at most twice and never on a 4xx", () => {
    expect(shouldRetry(0, new ApiError(503, "x"))).toBe(true);
    expect(shouldRetry(1, new Error("network"))).toBe(true);
    expect(shouldRetry(2, new Error("network"))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, "x"))).toBe(false);
    expect(isClientError(new ApiError(499, "x"))).toBe(true);
    expect(isClientError(new ApiError(500, "x"))).toBe(false);
  });
});
