import type { AnalyzeOutcome } from "../../api/analyze";
import type { ProgressEvent, Step, Timings } from "../../lib/domain";

/** The little of EventSource the run uses, so tests can drive it by hand. */
export type StreamLike = {
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  close: () => void;
};

export type RunPhase = "starting" | "progress" | "retrying" | "failed" | "complete";

export type RunState = {
  phase: RunPhase;
  /** Retry number shown as 'Attempt n of 3' while retrying. */
  attempt: number;
  /** The failure text (server message, or 'Analysis failed'). */
  error?: string;
  progress: number;
  step: string | null;
  /** Live status text from the server. */
  message: string;
  /** Connection notices of docs/PRODUCT.md §4.6 (reconnecting, lost, parse errors). */
  connection?: string;
  /** When the current step last changed, ms since the epoch. */
  updatedAt: number | null;
  /** True while the progress shown is the simulated fallback, not the server's. */
  simulated: boolean;
  resultId?: string;
  /** Set when the server reported completion without a result id (docs/PRODUCT.md §8.6). */
  missingResult?: boolean;
};

export type RunDeps = {
  start: (url: string) => Promise<AnalyzeOutcome>;
  openStream: (path: string) => StreamLike;
  timings: Timings;
  reconnectDelayMs: (attempt: number) => number;
  stepForProgress: (progress: number) => Step | null;
  now?: () => number;
  random?: () => number;
  /** Called once the run is complete and the completion wait is over. */
  onComplete: (resultId: string) => void;
  onChange: (state: RunState) => void;
};

const initial: RunState = { phase: "starting", attempt: 0, progress: 0, step: null, message: "", updatedAt: null, simulated: false };

/**
 * One analysis run (docs/PRODUCT.md §4.5-§4.8): the analyze request with its 3 retries 3 s apart, then the
 * progress stream with 5 reconnects (1 s doubling, capped at 10 s), the simulated fallback when
 * nothing arrives within 5 s, the 120 s hard timeout, and the 1 s wait before opening the results.
 * Every number comes from the domain `timings()`.
 */
export class AnalysisRun {
  private state: RunState = initial;
  private retriesUsed = 0;
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private stream: StreamLike | null = null;
  private analysisId = "";
  private connected = false;
  private progressReceived = false;
  private reconnects = 0;
  private finished = false;
  private disposed = false;
  private generation = 0;

  constructor(
    private readonly url: string,
    private readonly deps: RunDeps,
    private pendingAnalysisId?: string,
  ) {}

  get snapshot() {
    return this.state;
  }

  /** Starts the run (or follows an analysis the home page already started). */
  begin() {
    this.clearTimers();
    this.closeStream();
    this.finished = false;
    const gen = ++this.generation;
    this.set({ ...initial, attempt: this.state.attempt, missingResult: undefined });
    const given = this.pendingAnalysisId;
    this.pendingAnalysisId = undefined;
    if (given) {
      this.follow(given);
      return;
    }
    this.deps
      .start(this.url)
      .then((outcome) => {
        if (gen !== this.generation || this.disposed) return;
        if (outcome.kind === "result") this.complete(outcome.id, "Analysis complete!");
        else this.follow(outcome.analysisId);
      })
      .catch((e: unknown) => {
        if (gen !== this.generation || this.disposed) return;
        this.fail(e instanceof Error && e.message ? e.message : "Analysis failed");
      });
  }

  /** Try Again: resets the retry count and starts over. */
  retry() {
    this.retriesUsed = 0;
    this.set({ attempt: 0 });
    this.begin();
  }

  dispose() {
    this.disposed = true;
    this.generation++;
    this.clearTimers();
    this.closeStream();
  }

  private set(patch: Partial<RunState>) {
    this.state = { ...this.state, ...patch };
    if (!this.disposed) this.deps.onChange(this.state);
  }

  private now() {
    return (this.deps.now ?? Date.now)();
  }

  private later(ms: number, fn: () => void) {
    const id = setTimeout(() => {
      this.timers.delete(id);
      if (!this.disposed) fn();
    }, ms);
    this.timers.add(id);
    return id;
  }

  private clearTimers() {
    this.timers.forEach(clearTimeout);
    this.timers.clear();
  }

  private closeStream() {
    if (this.stream) {
      this.stream.onopen = this.stream.onmessage = this.stream.onerror = null;
      this.stream.close();
      this.stream = null;
    }
  }

  private fail(message: string) {
    this.clearTimers();
    this.closeStream();
    this.finished = true;
    const t = this.deps.timings;
    if (this.retriesUsed < t.analysisRetries) {
      this.retriesUsed += 1;
      this.set({ phase: "retrying", attempt: this.retriesUsed, error: message });
      this.later(t.analysisRetryDelayMs, () => this.begin());
    } else {
      this.set({ phase: "failed", error: message });
    }
  }

  private follow(analysisId: string) {
    const t = this.deps.timings;
    this.analysisId = analysisId;
    this.connected = false;
    this.progressReceived = false;
    this.reconnects = 0;
    this.set({ phase: "progress", progress: 0, step: null, message: "Starting analysis...", updatedAt: this.now(), simulated: false, error: undefined, connection: undefined });
    this.connect();
    this.later(t.fallbackStartMs, () => {
      if (!this.connected && !this.progressReceived) this.simulate();
    });
    this.later(t.hardTimeoutMs, () => this.complete(this.analysisId, "Analysis complete!"));
  }

  private connect() {
    if (this.finished) return;
    let stream: StreamLike;
    try {
      stream = this.deps.openStream(`/api/analysis-progress/${encodeURIComponent(this.analysisId)}`);
    } catch {
      this.set({ connection: "Failed to connect to progress updates" });
      return;
    }
    this.stream = stream;
    stream.onopen = () => {
      this.connected = true;
      this.reconnects = 0;
      this.set({ connection: undefined });
    };
    stream.onmessage = (ev) => this.handle(ev.data);
    stream.onerror = () => this.lost();
  }

  private lost() {
    this.closeStream();
    if (this.finished) return;
    const t = this.deps.timings;
    this.connected = false;
    this.reconnects += 1;
    if (this.reconnects <= t.progressReconnects) {
      this.set({ connection: `Connection lost. Reconnecting... (${this.reconnects}/${t.progressReconnects})` });
      this.later(this.deps.reconnectDelayMs(this.reconnects), () => this.connect());
    } else {
      this.set({ connection: "Connection lost - please refresh the page" });
    }
  }

  private handle(data: unknown) {
    let ev: ProgressEvent;
    try {
      ev = JSON.parse(String(data)) as ProgressEvent;
      if (!ev || typeof ev !== "object" || typeof ev.type !== "string") throw new Error("shape");
    } catch {
      this.set({ connection: "Error parsing progress data" });
      return;
    }
    switch (ev.type) {
      case "connected":
        this.connected = true;
        this.set({ connection: undefined, message: ev.message || this.state.message });
        break;
      case "progress": {
        this.progressReceived = true;
            const progress = Math.max(0, Math.min(100, ev.progress));
        const step = ev.step ?? this.deps.stepForProgress(progress)?.name ?? null;
        const changed = step !== this.state.step;
        this.set({
          progress,
          step,
          message: ev.message || this.state.message,
          simulated: false,
          connection: undefined,
          updatedAt: changed || this.state.updatedAt === null ? ev.timestamp || this.now() : this.state.updatedAt,
        });
        break;
      }
      case "complete":
        if (ev.resultId) {
          this.complete(ev.resultId, ev.message || "Analysis complete!");
        } else {
          this.clearTimers();
          this.closeStream();
          this.finished = true;
          this.set({ phase: "failed", progress: 100, missingResult: true, error: "Analysis completed but no results ID found. Please try again." });
        }
        break;
      case "error":
        this.fail(ev.message || "Analysis failed");
        break;
    }
  }

  private simulate() {
    const t = this.deps.timings;
    const random = this.deps.random ?? Math.random;
    const stepAt = (i: number) => {
      if (this.progressReceived || this.finished) return;
      const progress = t.fallbackSteps[i] ?? 100;
      this.set({ progress, step: this.deps.stepForProgress(progress)?.name ?? null, simulated: true, updatedAt: this.now() });
      if (i >= t.fallbackSteps.length - 1) {
        this.later(t.fallbackCompleteMs, () => {
          if (!this.progressReceived) this.complete(this.analysisId, "Analysis complete!");
        });
      } else {
        const pause = t.fallbackStepMinMs + Math.floor(random() * (t.fallbackStepMaxMs - t.fallbackStepMinMs + 1));
        this.later(Math.min(pause, t.fallbackStepMaxMs), () => stepAt(i + 1));
      }
    };
    stepAt(0);
  }

  private complete(resultId: string, message: string) {
    if (this.finished) return;
    this.finished = true;
    this.clearTimers();
    this.closeStream();
    this.set({ phase: "complete", progress: 100, message, resultId, connection: undefined, updatedAt: this.now() });
    this.later(this.deps.timings.completionWaitMs, () => this.deps.onComplete(resultId));
  }
}
