import { afterEach, describe, expect, it, vi } from "vitest";
import { resultUrlFor, startEarly, takeEarly } from "./early-fetch";

afterEach(() => vi.unstubAllGlobals());

describe("early fetch", () => {
  it("finds the report a results URL needs", () => {
    expect(resultUrlFor({ pathname: "/results", search: "?id=abc&url=x" })).toBe("/api/results/abc");
    expect(resultUrlFor({ pathname: "/results/abc", search: "" })).toBe("/api/results/abc");
    expect(resultUrlFor({ pathname: "/results", search: "" })).toBeNull();
    expect(resultUrlFor({ pathname: "/pricing", search: "?id=abc" })).toBeNull();
    expect(resultUrlFor({ pathname: "/demo", search: "" })).toBe("/api/demo");
  });

  it("hands a started request over once", async () => {
    const f = vi.fn(() => Promise.resolve(new Response("{}")));
    vi.stubGlobal("fetch", f);
    startEarly("/api/results/abc", {});
    expect(takeEarly("/api/results/abc")).toBeInstanceOf(Promise);
    expect(takeEarly("/api/results/abc")).toBeUndefined();
    expect(f).toHaveBeenCalledTimes(1);
  });
});
