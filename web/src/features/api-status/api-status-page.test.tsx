// /api-status: what the page says for each state the server reports, the 24-hour strip drawn
// from the samples' bars, the states of loading and of a status that cannot be read, and the
// one call it makes.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApiStatus, HistoryBar } from "../../lib/domain";
import { getStatus } from "./api/status";
import { ApiStatusPage, StatusView, duration, formatUptime } from "./api-status-page";
import { describeBar } from "./history-strip";

function text(html: string) {
  return html.replace(/<[^>]+>/g, " ").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/\s+/g, " ");
}

function bars(states: (HistoryBar["state"])[]): HistoryBar[] {
  const start = Date.UTC(2026, 10, 27, 20, 0, 0);
  return states.map((state, i) => ({
    start: new Date(start + i * 30 * 60_000).toISOString().replace(".000Z", "Z"),
    samples: state === null ? 0 : 30,
    state,
    meanDatabaseMs: state === null ? null : 1.25 + i,
    maxDatabaseMs: state === null ? null : 4 + i,
  }));
}

const healthy: ApiStatus = {
  state: "operational",
  checkedAt: "2026-11-28T20:15:42Z",
  api: { state: "operational", version: "v1" },
  database: { state: "operational", reachable: true, engine: "postgres", latencyMs: 0.84 },
  queue: { state: "operational", depth: 2, running: 1, oldestWaitSeconds: 75 },
  workers: { state: "operational", alive: 2, busy: 1, capacity: 4, inProgress: 1 },
  browser: { state: "operational", available: true, launched: 1, tabsInUse: 1, tabsMax: 8, spareTabs: 1, workers: ["running", "idle"] },
  history: {
    hours: 24,
    sampleEverySeconds: 60,
    uptimePercent: 99.5,
    samples: [{ at: "2026-11-28T20:15:00Z", state: "operational", databaseMs: 0.9, queueDepth: 2, workersAlive: 2 }],
    bars: bars([null, "operational", "degraded", "down"]),
  },
};

const down: ApiStatus = {
  ...healthy,
  state: "down",
  database: { state: "operational", reachable: true, engine: "sqlite", latencyMs: 0.2 },
  queue: { state: "degraded", depth: 7, running: 0, oldestWaitSeconds: 3725 },
  workers: { state: "down", alive: 0, busy: 0, capacity: 0, inProgress: 0 },
  browser: { state: "degraded", available: false, launched: 0, tabsInUse: 0, tabsMax: 0, spareTabs: 0, workers: [] },
  history: { ...healthy.history, uptimePercent: null, samples: [], bars: bars([null, null]) },
};

function view(status: ApiStatus, stale = false) {
  return text(renderToStaticMarkup(<StatusView status={status} stale={stale} />));
}

function page(client: QueryClient) {
  return text(
    renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ApiStatusPage />
        </MemoryRouter>
      </QueryClientProvider>,
    ),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("StatusView", () => {
  it("says all is well, with every part's figures", () => {
    const t = view(healthy);
    expect(t).toContain("All systems operational");
    expect(t).toContain("Checked at 20:15:42 UTC · refreshed every 30 seconds");
    expect(t).toContain("Response time 0.8 ms Engine PostgreSQL");
    expect(t).toContain("2 analyses are waiting for a worker.");
    expect(t).toContain("Waiting 2 Running 1 Oldest wait 1 min");
    expect(t).toContain("2 workers are alive, 1 busy.");
    expect(t).toContain("Analyses running 1 of 4");
    expect(t).toContain("Chromium is running and measures pages in a real browser.");
    expect(t).toContain("Running in 1 of 2 workers Tabs in use 1 of 8 Spare tabs 1");
    expect(t).toContain("99.50 % up · 1 of 1440 minutes sampled");
    expect(t).not.toContain("older");
  });

  it("names the part that is down and what it means", () => {
    const t = view(down, true);
    expect(t).toContain("Service disruption");
    expect(t).toContain("Analyses cannot be run or read right now.");
    expect(t).toContain("No worker has reported in: analyses are queued but not run.");
    expect(t).toContain("Oldest wait 1 h 2 min");
    expect(t).toContain("Chromium is turned off: analyses run over HTTP only");
    expect(t).toContain("No samples yet: one is taken every minute.");
    expect(t).toContain("the last refresh failed, these figures are older");
    // Every state is a word next to its colour.
    expect(t.match(/Down/g)?.length).toBeGreaterThanOrEqual(2);
    expect(t).toContain("Degraded");
  });

  it("draws one bar per stretch, each described in words", () => {
    const html = renderToStaticMarkup(<StatusView status={healthy} stale={false} />);
    expect(html.match(/<li title=/g)?.length).toBe(4);
    const t = text(html);
    expect(t).toContain("20:00–20:30 UTC: no samples");
    expect(t).toContain("20:30–21:00 UTC: operational, 30 samples, database 2.3 ms average, 5.0 ms slowest");
    expect(t).toContain("21:30–22:00 UTC: down, 30 samples");
    expect(t).toContain("Database response time per half hour");
  });
});

describe("ApiStatusPage", () => {
  it("shows the status it read", () => {
    const client = new QueryClient();
    client.setQueryData(["api-status"], healthy);
    const t = page(client);
    expect(t).toContain("API status");
    expect(t).toContain("/api/v1/status");
    expect(t).toContain("All systems operational");
  });

  it("says it is checking before the first answer", () => {
    expect(page(new QueryClient())).toContain("Checking the service…");
  });

  it("says the status could not be read when the API does not answer", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false } } });
    vi.stubGlobal("fetch", vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))));
    await client.prefetchQuery({ queryKey: ["api-status"], queryFn: getStatus });
    const t = page(client);
    expect(t).toContain("The status could not be read");
    expect(t).toContain("tries again every 30 seconds");
  });
});

describe("getStatus", () => {
  it("reads GET /api/v1/status without credentials", async () => {
    const f = vi.fn((..._args: unknown[]) => Promise.resolve(new Response(JSON.stringify(healthy), { status: 200 })));
    vi.stubGlobal("fetch", f);
    expect(await getStatus()).toEqual(healthy);
    expect(f.mock.calls[0]?.[0]).toBe("/api/v1/status");
  });
});

describe("helpers", () => {
  it("write durations, uptime and bars as people read them", () => {
    expect(duration(45)).toBe("45 s");
    expect(duration(600)).toBe("10 min");
    expect(duration(3 * 3600 + 300)).toBe("3 h 5 min");
    expect(formatUptime(100)).toBe("100 %");
    expect(formatUptime(99.934)).toBe("99.93 %");
    const [b] = bars(["degraded"]);
    expect(b && describeBar(b)).toBe("20:00–20:30 UTC: degraded, 30 samples, database 1.3 ms average, 4.0 ms slowest");
  });
});
