import { afterEach, describe, expect, it, vi } from "vitest";
import { requestAnalysis } from "./analyze";

const reply = (body: unknown, status = 200) => vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status }))));

afterEach(() => vi.unstubAllGlobals());

describe("requestAnalysis", () => {
  it("reads analysisId, data.id and a top-level id", async () => {
    reply({ success: true, analysisId: "a1" });
    await expect(requestAnalysis("https://example.com/")).resolves.toEqual({ kind: "queued", analysisId: "a1" });
    reply({ success: true, data: { id: "r1" } });
    await expect(requestAnalysis("https://example.com/")).resolves.toEqual({ kind: "result", id: "r1" });
    reply({ success: true, id: "r2" });
    await expect(requestAnalysis("https://example.com/")).resolves.toEqual({ kind: "result", id: "r2" });
  });

  it("uses the server's error, 'Unknown error occurred', or the generic failure text", async () => {
    reply({ success: false, error: "Daily limit reached" }, 429);
    await expect(requestAnalysis("x")).rejects.toThrow("Daily limit reached");
    reply({ success: false });
    await expect(requestAnalysis("x")).rejects.toThrow("Unknown error occurred");
    vi.stubGlobal("fetch", vi.fn(() => Promise.reject(new TypeError("offline"))));
    await expect(requestAnalysis("x")).rejects.toThrow("Failed to analyze website. Please try again.");
  });
});
