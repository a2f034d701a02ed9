import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { reconnectDelayMs, stepForProgress, timings } from "../../lib/domain";
import type { AnalyzeOutcome } from "../../api/analyze";
import { AnalysisRun, type RunState, type StreamLike } from "./analysis-run";

class FakeStream implements StreamLike {
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closed = false;
  constructor(readonly path: string) {}
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.(new Event("open"));
  }
  send(data: unknown) {
    this.onmessage?.({ data: typeof data === "string" ? data : JSON.stringify(data) } as MessageEvent);
  }
  fail() {
    this.onerror?.(new Event("error"));
  }
}

const t = timings();

function setup(opts: { start?: () => Promise<AnalyzeOutcome>; analysisId?: string; throwOnOpen?: boolean } = {}) {
  const streams: FakeStream[] = [];
  const states: RunState[] = [];
  const completed: string[] = [];
  const start = vi.fn(opts.start ?? (() => Promise.resolve<AnalyzeOutcome>({ kind: "queued", analysisId: "a1" })));
  const run = new AnalysisRun(
    "https://example.com/",
    {
      start,
      openStream: (path) => {
        if (opts.throwOnOpen) throw new Error("no EventSource");
        const s = new FakeStream(path);
        streams.push(s);
        return s;
      },
      timings: t,
      reconnectDelayMs,
      stepForProgress,
      random: () => 0,
      onChange: (s) => states.push(s),
      onComplete: (id) => completed.push(id),
    },
    opts.analysisId,
  );
  const last = () => states[states.length - 1]!;
  return { run, streams, states, completed, start, last };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("AnalysisRun", () => {
  it("starts, follows progress events and opens the results 1 s after completion", async () => {
    const { run, streams, completed, last } = setup();
    run.begin();
    expect(last().phase).toBe("starting");
    await vi.advanceTimersByTimeAsync(0);
    expect(streams[0]!.path).toBe("/api/analysis-progress/a1");
    streams[0]!.open();
    streams[0]!.send({ type: "connected", analysisId: "a1", progress: 0, message: "Connected", timestamp: 1 });
    streams[0]!.send({ type: "progress", analysisId: "a1", progress: 55, message: "Measuring performance", timestamp: 2 });
    expect(last()).toMatchObject({ phase: "progress", progress: 55, step: "Performance Analysis", message: "Measuring performance", updatedAt: 2 });
    streams[0]!.send({ type: "complete", analysisId: "a1", progress: 100, message: "Done", timestamp: 3, resultId: "r9" });
    expect(last()).toMatchObject({ phase: "complete", progress: 100, resultId: "r9" });
    expect(streams[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(t.completionWaitMs - 1);
    expect(completed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(completed).toEqual(["r9"]);
  });

  it("follows an analysis the home page already started without a second request", async () => {
    const { run, streams, start } = setup({ analysisId: "given" });
    run.begin();
    expect(start).not.toHaveBeenCalled();
    expect(streams[0]!.path).toBe("/api/analysis-progress/given");
  });

  it("opens a finished result at once when the server answers with an id", async () => {
    const { run, completed } = setup({ start: () => Promise.resolve({ kind: "result", id: "done" }) });
    run.begin();
    await vi.advanceTimersByTimeAsync(t.completionWaitMs);
    expect(completed).toEqual(["done"]);
  });

  it("reconnects 5 times with 1 s doubling capped at 10 s, then gives up", async () => {
    const { run, streams, last } = setup();
    run.begin();
    await vi.advanceTimersByTimeAsync(0);
    streams[0]!.open();
    const delays = [1000, 2000, 4000, 8000, 10000];
    for (let n = 1; n <= 5; n++) {
      streams[n - 1]!.fail();
      expect(last().connection).toBe(`Connection lost. Reconnecting... (${n}/5)`);
      await vi.advanceTimersByTimeAsync(delays[n - 1]! - 1);
      expect(streams).toHaveLength(n);
      await vi.advanceTimersByTimeAsync(1);
      expect(streams).toHaveLength(n + 1);
    }
    streams[5]!.fail();
    expect(last().connection).toBe("Connection lost - please refresh the page");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(streams).toHaveLength(6);
  });

  it("a successful reconnect resets the attempt count", async () => {
    const { run, streams, last } = setup();
    run.begin();
    await vi.advanceTimersByTimeAsync(0);
    streams[0]!.open();
    streams[0]!.fail();
    await vi.advanceTimersByTimeAsync(1000);
    streams[1]!.open();
    expect(last().connection).toBeUndefined();
    streams[1]!.fail();
    expect(last().connection).toBe("Connection lost. Reconnecting... (1/5)");
  });

  it("reports unparseable data and a stream that cannot be created", async () => {
    const a = setup();
    a.run.begin();
    await vi.advanceTimersByTimeAsync(0);
    a.streams[0]!.send("{not json");
    expect(a.last().connection).toBe("Error parsing progress data");

    const b = setup({ throwOnOpen: true });
    b.run.begin();
    await vi.advanceTimersByTimeAsync(0);
    expect(b.last().connection).toBe("Failed to connect to progress updates");
  });

  it("simulates progress when nothing arrives within 5 s and completes 2 s after the last step", async () => {
    const { run, last, completed } = setup();
    run.begin();
    await vi.advanceTimersByTimeAsync(t.fallbackStartMs - 1);
    expect(last().simulated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(last()).toMatchObject({ simulated: true, progress: 15 });
    const seen = [15];
    for (let i = 1; i < t.fallbackSteps.length; i++) {
      await vi.advanceTimersByTimeAsync(t.fallbackStepMinMs); // random() = 0 gives the shortest pause
      seen.push(last().progress);
    }
    expect(seen).toEqual(t.fallbackSteps);
    expect(last().phase).toBe("progress");
    await vi.advanceTimersByTimeAsync(t.fallbackCompleteMs);
    expect(last()).toMatchObject({ phase: "complete", message: "Analysis complete!" });
    await vi.advanceTimersByTimeAsync(t.completionWaitMs);
    expect(completed).toEqual(["a1"]);
  });

  it("does not simulate once connected", async () => {
    const { run, streams, last } = setup();
    run.begin();
    await vi.advanceTimersByTimeAsync(0);
    streams[0]!.open();
    await vi.advanceTimersByTimeAsync(t.fallbackStartMs * 2);
    expect(last().simulated).toBe(false);
  });

  it("forces completion after the 120 s hard timeout", async () => {
    const { run, streams, last, completed } = setup();
    run.begin();
    await vi.advanceTimersByTimeAsync(0);
    streams[0]!.open();
    await vi.advanceTimersByTimeAsync(t.hardTimeoutMs);
    expect(last()).toMatchObject({ phase: "complete", progress: 100, message: "Analysis complete!" });
    await vi.advanceTimersByTimeAsync(t.completionWaitMs);
    expect(completed).toEqual(["a1"]);
  });

  it("retries a failed request 3 times 3 s apart, then fails; Try Again starts over", async () => {
    const start = vi.fn(() => Promise.reject(new Error("Server unavailable")));
    const { run, last } = setup({ start });
    run.begin();
    await vi.advanceTimersByTimeAsync(0);
    for (let n = 1; n <= 3; n++) {
      expect(last()).toMatchObject({ phase: "retrying", attempt: n, error: "Server unavailable" });
      await vi.advanceTimersByTimeAsync(t.analysisRetryDelayMs);
    }
    expect(start).toHaveBeenCalledTimes(4);
    expect(last()).toMatchObject({ phase: "failed", error: "Server unavailable" });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(start).toHaveBeenCalledTimes(4);
    run.retry();
    await vi.advanceTimersByTimeAsync(0);
    expect(start).toHaveBeenCalledTimes(5);
    expect(last()).toMatchObject({ phase: "retrying", attempt: 1 });
  });

  it("treats an error event as a failed run, with the default message", async () => {
    const { run, streams, last } = setup();
    run.begin();
    await vi.advanceTimersByTimeAsync(0);
    streams[0]!.send({ type: "error", analysisId: "a1", progress: 20, message: "", timestamp: 5 });
    expect(streams[0]!.closed).toBe(true);
    expect(last()).toMatchObject({ phase: "retrying", attempt: 1, error: "Analysis failed" });
  });

  it("stops everything when disposed", async () => {
    const { run, streams, completed } = setup();
    run.begin();
    await vi.advanceTimersByTimeAsync(0);
    run.dispose();
    expect(streams[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(t.hardTimeoutMs * 2);
    expect(completed).toEqual([]);
  });

  it("a completion without a result id is reported, not followed", async () => {
    const { run, streams, last, completed } = setup();
    run.begin();
    await vi.advanceTimersByTimeAsync(0);
    streams[0]!.send({ type: "complete", analysisId: "a1", progress: 100, message: "Done", timestamp: 3 });
    expect(last()).toMatchObject({ phase: "failed", missingResult: true, error: "Analysis completed but no results ID found. Please try again." });
    await vi.advanceTimersByTimeAsync(t.hardTimeoutMs);
    expect(completed).toEqual([]);
  });
});
