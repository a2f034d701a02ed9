// `just bench` budget: Lighthouse 12.8.2 mobile scores of a sample of our own pages (home,
// pricing, a results page of the fixture site analysed by the real server, the sample report, the
// blog index, an article, a knowledge-base article and the tools page), in Debian's Chromium.
// Each page is measured RUNS times (default 3) and the median of each category is printed: other
// work on the machine skews single runs. LIGHTHOUSE_JSON_DIR keeps the reports; PAGES=home,demo
// measures only those pages. Goals:
// performance >= 95, accessibility, best practices and SEO 100. Prints figures; asserts nothing.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { lighthouseChromeFlags, startFixtureSite, startServer } from "./servers.mjs";

const chromeFlags = lighthouseChromeFlags();
const runs = Number(process.env.RUNS ?? 3);

async function resultIdFor(base, url) {
  const res = await fetch(`${base}/api/analyze`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ url }) });
  const body = await res.json();
  if (body.data?.id) return body.data.id;
  if (!body.analysisId) throw new Error(`analyze failed: ${JSON.stringify(body)}`);
  const stream = await fetch(`${base}/api/analysis-progress/${body.analysisId}`);
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of stream.body) {
    buf += decoder.decode(chunk, { stream: true });
    for (const m of buf.matchAll(/^data: (.*)$/gm)) {
      const ev = JSON.parse(m[1]);
      if (ev.type === "complete") return ev.resultId ?? body.analysisId;
      if (ev.type === "error") throw new Error(`analysis failed: ${ev.message}`);
    }
  }
  throw new Error("progress stream ended without completion");
}

function lighthouse(url, name) {
  const out = execFileSync(
    "npx",
    ["--yes", "lighthouse@12.8.2", url, "--quiet", "--output=json", "--only-categories=performance,accessibility,best-practices,seo", `--chrome-flags=${chromeFlags}`],
    { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" }, maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(out.toString());
  if (process.env.LIGHTHOUSE_JSON_DIR) writeFileSync(join(process.env.LIGHTHOUSE_JSON_DIR, `${name}.json`), out);
  const c = report.categories;
  const a = report.audits;
  return {
    performance: Math.round(c.performance.score * 100),
    accessibility: Math.round(c.accessibility.score * 100),
    bestPractices: Math.round(c["best-practices"].score * 100),
    seo: Math.round(c.seo.score * 100),
    fcp: a["first-contentful-paint"].numericValue,
    lcp: a["largest-contentful-paint"].numericValue,
    tbt: a["total-blocking-time"].numericValue,
    cls: a["cumulative-layout-shift"].numericValue,
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const site = await startFixtureSite();
const server = await startServer({ SITELENS_TRUSTED_PROXIES: "127.0.0.1" });
try {
  const id = await resultIdFor(server.url, site.url);
  const pages = [
    ["home", "/"],
    ["pricing", "/pricing"],
    ["results", `/results?id=${id}`],
    ["demo", "/demo"],
    ["blog", "/blog"],
    ["article", "/blog/robots-txt-mistakes"],
    ["knowledge-base article", "/knowledge-base/scores/overall-score"],
    ["tools", "/resources/tools"],
  ];
  console.log(`Lighthouse 12.8.2, mobile, median of ${runs} runs (FCP, LCP, TBT in ms)`);
  console.log("| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | performance per run |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  const only = process.env.PAGES?.split(",");
  for (const [name, path] of pages.filter(([n]) => !only || only.includes(n))) {
    const all = [];
    for (let i = 0; i < runs; i++) all.push(lighthouse(`${server.url}${path}`, `${name.replaceAll(" ", "-")}-${i + 1}`));
    const m = (k) => median(all.map((r) => r[k]));
    console.log(
      `| ${name} | ${m("performance")} | ${m("accessibility")} | ${m("bestPractices")} | ${m("seo")} | ${Math.round(m("fcp"))} | ${Math.round(m("lcp"))} | ${Math.round(m("tbt"))} | ${m("cls").toFixed(3)} | ${all.map((r) => r.performance).join(", ")} |`,
    );
  }
} finally {
  await server.stop();
  site.close();
}
