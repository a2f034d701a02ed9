// Sitelens next to Lighthouse 12.8.2 on a corpus of real public pages (issue #11's check).
//
//   node corpus.mjs CORPUS_DIR [--pages N] [--only SITE] [--skip-lighthouse OUT] [--no-server] [--timeout S] [--artifacts]
//                    [--lighthouse-runs N]
//
// CORPUS_DIR holds corpus.json ({sites: [{name, root, source, pages}]}) and the sites' files,
// kept outside the repository. Each site is served from its folder on 127.0.0.1 the way a static
// host serves it. For every page, in an order that rotates page by page, the script runs the
// Lighthouse CLI (mobile, simulated throttling), the cold `sitelens analyze` CLI, and an analysis
// through one warm `sitelens serve`; then it prints the verdict agreement on the audits both
// report, the mobile performance score gaps (the cold CLI's, and the warm server's in brackets),
// the metric values and the times side by side.
// Everything raw goes to OUT (default /tmp/sitelens-corpus-<time>): both reports of every page,
// summary.json, and disagreements.txt grouped by audit id.
//
// Run it inside a network namespace with only loopback (`just bench-corpus DIR` does), so that
// third-party hosts fail to resolve for both tools alike and nothing leaves the machine.
// LIGHTHOUSE_BIN names Lighthouse's CLI (the recipe installs it before entering the namespace);
// SITELENS_BIN the sitelens binary (default target/release/sitelens). Every run of a tool is cut
// off after --timeout seconds (default 180) and then counts as a hang: a failure, not a stall.
// --artifacts keeps what Lighthouse gathered for each page (its devtools log and trace, in
// OUT/<page>.artifacts), so `cargo run -p analyzer --example lighthouse_replay -- DIR` can replay
// Lighthouse's own load through our simulation and tell simulation gaps from observation gaps.
// --lighthouse-runs N (default 1) runs Lighthouse N times on every page, as Lighthouse's
// documentation on variability advises for a reference figure: pages whose own load races (an
// unsized image arriving before or after the first paint, a parser that yields before or after
// a long inline script) move its score by 20 points from one run to the next. The performance
// score compared is then the median of its runs, its verdicts are those of the run with that
// score, its time is its runs' median, and its own spread per page is printed. Sitelens runs once
// per page: what a user sees is one run. --skip-lighthouse OUT reads Lighthouse's reports from an
// earlier run's OUT instead of running it (all the runs saved there, unless --lighthouse-runs
// says how many).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { lighthouseChromeFlags, startServer } from "./servers.mjs";

const repo = resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
// Options that take a value; the one argument that is neither an option nor a value is the corpus.
const VALUED = ["--pages", "--only", "--skip-lighthouse", "--timeout", "--lighthouse-runs"];
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const corpusDir = resolve(args.find((a, i) => !a.startsWith("--") && !VALUED.includes(args[i - 1])) ?? "");
if (!existsSync(join(corpusDir, "corpus.json"))) {
  console.error("usage: node corpus.mjs CORPUS_DIR [--pages N] [--only SITE] [--skip-lighthouse OUT] [--no-server] [--timeout S] [--artifacts] [--lighthouse-runs N]");
  process.exit(2);
}
const timeoutMs = Number(flag("--timeout") ?? 180) * 1000;
const maxPages = Number(flag("--pages") ?? Infinity);
const only = flag("--only");
const reuse = flag("--skip-lighthouse");
if (reuse !== undefined && !(existsSync(reuse) && statSync(reuse).isDirectory())) {
  console.error(`--skip-lighthouse takes an earlier run's output folder; ${reuse} is not a folder`);
  process.exit(2);
}
const useServer = !args.includes("--no-server");
const keepArtifacts = args.includes("--artifacts");
// Reusing a saved run, every Lighthouse run it saved is read unless --lighthouse-runs says how many.
const lighthouseRuns = Number(flag("--lighthouse-runs") ?? (reuse ? savedRuns(reuse) : 1));
if (!Number.isInteger(lighthouseRuns) || lighthouseRuns < 1) {
  console.error("--lighthouse-runs takes a whole number of runs, at least 1");
  process.exit(2);
}
const out = process.env.OUT ?? `/tmp/sitelens-corpus-${new Date().toISOString().replace(/[:.]/g, "-")}`;
mkdirSync(out, { recursive: true });
const sitelens = process.env.SITELENS_BIN ?? join(repo, "target/release/sitelens");
const lighthouseBin = process.env.LIGHTHOUSE_BIN ?? "lighthouse";
// Lighthouse's Chromium gets the measuring browser's flags (one list, shared with the e2e suite).
const chromeFlags = lighthouseChromeFlags();

function median(xs) {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

// --- a static host ------------------------------------------------------------------------------

const TYPES = {
  ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8", ".svg": "image/svg+xml",
  ".xml": "application/xml; charset=utf-8", ".txt": "text/plain; charset=utf-8", ".png": "image/png",
  ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp", ".avif": "image/avif",
  ".ico": "image/x-icon", ".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".eot": "application/vnd.ms-fontobject",
  ".otf": "font/otf", ".mp4": "video/mp4", ".webm": "video/webm", ".pdf": "application/pdf", ".map": "application/json",
};
const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript)|image\/svg)/;

// Serves `root` like a static host: content types by extension, index.html for folders (with a
// redirect to the trailing slash), the site's 404.html, gzip for text, validators and caching.
async function serveSite(root) {
  const server = createServer(async (req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) {
        if (!path.endsWith("/")) {
          res.writeHead(301, { Location: `${path}/` }).end();
          return;
        }
        file = join(file, "index.html");
      }
    } catch {
      /* not found below */
    }
    let status = 200;
    let body;
    try {
      body = await readFile(file);
    } catch {
      status = 404;
      file = join(root, "404.html");
      body = existsSync(file) ? await readFile(file) : Buffer.from("<!doctype html><title>Not found</title><h1>Not found</h1>");
    }
    const type = TYPES[extname(file).toLowerCase()] ?? "application/octet-stream";
    const etag = `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`;
    if (status === 200 && req.headers["if-none-match"] === etag) {
      res.writeHead(304, { ETag: etag }).end();
      return;
    }
    const headers = { "Content-Type": type, ETag: etag, "Cache-Control": "max-age=600", Vary: "Accept-Encoding" };
    if (COMPRESSIBLE.test(type) && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "") && body.length > 256) {
      body = gzipSync(body);
      headers["Content-Encoding"] = "gzip";
    }
    headers["Content-Length"] = body.length;
    res.writeHead(status, headers).end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { base: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

// --- running the tools ----------------------------------------------------------------------------

// Runs a tool to its end or until the time limit, when it and its children (its own process
// group) are killed and the run reports the hang.
function run(cmd, argv, env = {}) {
  return new Promise((ok) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, argv, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }, timeoutMs);
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => {
      clearTimeout(timer);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      ok(hung ? { code: -1, stdout, stderr: `error: hung, killed after ${timeoutMs / 1000} s`, seconds, hung } : { code, stdout, stderr, seconds });
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      ok({ code: -1, stdout, stderr: String(e), seconds: 0 });
    });
  });
}

// How many Lighthouse runs a page has in the saved run `dir`: `<page>.lighthouse.json`, then
// `<page>.lighthouse1.json` and so on.
function savedRuns(dir) {
  const names = readdirSync(dir);
  let n = 1;
  while (names.some((f) => f.endsWith(`.lighthouse${n}.json`))) n++;
  return n;
}

async function lighthouse(url, file) {
  if (reuse) {
    const saved = join(reuse, file);
    if (existsSync(saved)) return { report: JSON.parse(readFileSync(saved, "utf8")), seconds: NaN, reused: true };
  }
  const r = await run(
    lighthouseBin,
    [
      url,
      "--quiet",
      "--output=json",
      `--output-path=${join(out, file)}`,
      "--only-categories=performance,accessibility,best-practices,seo",
      `--chrome-flags=${chromeFlags}`,
      ...(keepArtifacts ? [`-GA=${join(out, file.replace(/\.lighthouse\.json$/, ".artifacts"))}`] : []),
    ],
    { CHROME_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
  );
  if (r.code !== 0 || !existsSync(join(out, file))) return { error: r.stderr.trim().split("\n").slice(-1)[0] || `exit ${r.code}`, seconds: r.seconds };
  const report = JSON.parse(readFileSync(join(out, file), "utf8"));
  // A page Lighthouse could not load still gives a report, with a runtime error and no scores.
  if (report.runtimeError) return { error: `${report.runtimeError.code}: ${report.runtimeError.message}`, seconds: r.seconds };
  return { report, seconds: r.seconds };
}

// Lighthouse's figure from its runs of one page: the run with the median performance score (of
// those that scored; with an even count, the lower middle one), its time the runs' median time,
// and the spread of the scores.
function medianRun(runs) {
  const seconds = median(runs.map((x) => x.seconds));
  const scored = runs
    .filter((x) => x.report && x.report.categories.performance.score !== null)
    .sort((a, b) => a.report.categories.performance.score - b.report.categories.performance.score);
  const scores = scored.map((x) => Math.round(x.report.categories.performance.score * 100));
  const chosen = scored.length ? scored[Math.floor((scored.length - 1) / 2)] : runs.find((x) => x.error) ?? runs[0];
  return { ...chosen, seconds, scores };
}

async function cli(url, file) {
  const r = await run(sitelens, ["analyze", url, "--json", join(out, file)], { SITELENS_ALLOW_PRIVATE_TARGETS: "true" });
  if (r.code !== 0) return { error: (r.stderr.trim().split("\n").find((l) => l.startsWith("error")) ?? r.stderr.trim().split("\n")[0] ?? `exit ${r.code}`), code: r.code, seconds: r.seconds };
  return { report: JSON.parse(readFileSync(join(out, file), "utf8")), seconds: r.seconds };
}

let visitor = 0;
// A warm-server analysis; a server that stops answering is this page's failure, not the run's end.
async function throughServer(base, url, file) {
  const started = process.hrtime.bigint();
  try {
    return await analyzeThroughServer(base, url, file, AbortSignal.timeout(timeoutMs));
  } catch (e) {
    return { error: e.name === "TimeoutError" ? `hung, no result after ${timeoutMs / 1000} s` : String(e), seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  }
}

async function analyzeThroughServer(base, url, file, signal) {
  const started = process.hrtime.bigint();
  // Each analysis from its own visitor address, so the free allowance never interferes.
  visitor += 1;
  const headers = { "Content-Type": "application/json", "X-Forwarded-For": `10.77.${visitor >> 8}.${visitor & 255}` };
  const res = await fetch(`${base}/api/analyze`, { method: "POST", headers, body: JSON.stringify({ url }), signal });
  const body = await res.json();
  const id = body.analysisId ?? body.data?.id;
  if (!id) return { error: `analyze answered ${res.status}: ${JSON.stringify(body)}` };
  if (!body.data?.id) {
    const stream = await fetch(`${base}/api/analysis-progress/${id}`, { signal });
    const decoder = new TextDecoder();
    let buf = "";
    let done = false;
    for await (const chunk of stream.body) {
      buf += decoder.decode(chunk, { stream: true });
      for (const m of buf.matchAll(/^data: (.*)$/gm)) {
        const ev = JSON.parse(m[1]);
        if (ev.type === "error") return { error: ev.message, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
        if (ev.type === "complete") done = true;
      }
      if (done) break;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const result = await (await fetch(`${base}/api/results/${id}`, { signal })).json();
  writeFileSync(join(out, file), JSON.stringify(result.data, null, 1));
  return { report: result.data, seconds };
}

// --- verdicts -------------------------------------------------------------------------------------

// Lighthouse: binary, numeric and metric-savings audits pass at a score of 0.9; the rest say
// nothing pass/fail ("n/a").
function lighthouseVerdicts(lhr) {
  const v = new Map();
  for (const [id, a] of Object.entries(lhr.audits)) {
    const scored = ["binary", "numeric", "metricSavings"].includes(a.scoreDisplayMode) && a.score !== null;
    v.set(id, { verdict: scored ? (a.score >= 0.9 ? "pass" : "fail") : "n/a", score: a.score, mode: a.scoreDisplayMode, display: a.displayValue ?? a.explanation ?? "", title: a.title });
  }
  return v;
}

// Weights of the audits in Lighthouse's categories (weight 0 audits are informative there).
function lighthouseWeights(lhr) {
  const w = new Map();
  for (const c of Object.values(lhr.categories)) for (const r of c.auditRefs) w.set(r.id, Math.max(w.get(r.id) ?? 0, r.weight));
  return w;
}

// Sitelens: every finding with a Lighthouse audit id; good passes, warning or issue fails.
function sitelensVerdicts(report) {
  const v = new Map();
  const groups = [...(report.seoAnalysis ?? []), ...(report.designAnalysis ?? []), ...(report.technicalAnalysis ?? [])];
  for (const g of groups) {
    for (const f of g.findings) {
      if (!f.audit) continue;
      const verdict = f.type === "good" ? "pass" : "fail";
      const seen = v.get(f.audit);
      if (!seen || (seen.verdict === "pass" && verdict === "fail")) v.set(f.audit, { verdict, finding: f });
    }
  }
  return v;
}

function compare(lhr, report) {
  const theirs = lighthouseVerdicts(lhr);
  const weights = lighthouseWeights(lhr);
  const ours = sitelensVerdicts(report);
  const rows = [];
  for (const [id, mine] of ours) {
    const t = theirs.get(id);
    if (!t) continue;
    if (t.verdict === "n/a" && mine.verdict === "pass") continue;
    rows.push({ id, agree: t.verdict === mine.verdict, lighthouse: t, sitelens: mine });
  }
  const missing = [...theirs].filter(([id, t]) => t.verdict !== "n/a" && (weights.get(id) ?? 0) > 0 && !ours.has(id)).map(([id, t]) => ({ id, verdict: t.verdict }));
  return { rows, missing };
}

// --- the run --------------------------------------------------------------------------------------

const corpus = JSON.parse(readFileSync(join(corpusDir, "corpus.json"), "utf8"));
const pages = [];
for (const site of corpus.sites) {
  if (only && site.name !== only) continue;
  for (const p of site.pages) pages.push({ site, path: p });
}
pages.splice(maxPages);

const hosts = new Map();
for (const site of new Set(pages.map((p) => p.site))) hosts.set(site.name, await serveSite(resolve(corpusDir, site.root)));
process.env.SITELENS_BIN = sitelens;
const server = useServer ? await startServer({ SITELENS_TRUSTED_PROXIES: "127.0.0.1" }) : null;
if (server) {
  // One analysis first so the server's browser is warm, as it is in production.
  await throughServer(server.url, `${hosts.get(pages[0].site.name).base}${pages[0].path}`, "warmup.server.json");
}

const results = [];
for (const [i, { site, path }] of pages.entries()) {
  const url = `${hosts.get(site.name).base}${path}`;
  const key = `${site.name}${path.replace(/[^a-zA-Z0-9]+/g, "_")}`;
  // Lighthouse's runs are spread among Sitelens' (interleaved), the order rotating page by page.
  const steps = [
    ["lighthouse", () => lighthouse(url, `${key}.lighthouse.json`)],
    ["cli", () => cli(url, `${key}.sitelens.json`)],
    ...(server ? [["server", () => throughServer(server.url, url, `${key}.server.json`)]] : []),
    ...Array.from({ length: lighthouseRuns - 1 }, (_, k) => ["lighthouse", () => lighthouse(url, `${key}.lighthouse${k + 1}.json`)]),
  ];
  const order = steps.map((_, k) => steps[(k + i) % steps.length]);
  const r = { site: site.name, path, url };
  const runs = [];
  for (const [name, step] of order) {
    const result = await step();
    if (name === "lighthouse") runs.push(result);
    else r[name] = result;
  }
  r.lighthouse = medianRun(runs);
  results.push(r);
  process.stderr.write(`${i + 1}/${pages.length} ${site.name}${path}\n`);
}
await server?.stop();
for (const h of hosts.values()) h.close();

// --- report ---------------------------------------------------------------------------------------

const pct = (x) => (x === null || x === undefined ? "–" : Math.round(x * 100));
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : "–");
const signed = (x) => (Number.isFinite(x) ? (x > 0 ? `+${x}` : `${x}`) : "–");

let agreeing = 0;
let shared = 0;
const byAudit = new Map();
const gaps = [];
// The warm server's report of the same page scored against the same Lighthouse figure: its load
// runs in a browser that has been up for a while, the cold CLI's right after Chromium started.
const serverGaps = [];
const lines = [];
const metricPairs = { FCP: [], LCP: [], TBT: [], SI: [], CLS: [] };
lines.push(`page | LH perf${lighthouseRuns > 1 ? " (its runs)" : ""} | ours (server) | gap (server) | LH a11y/bp/seo | ours a11y/bp/seo | verdicts | LH s | CLI s | server s | notes`);
const spreads = [];
for (const r of results) {
  const lhr = r.lighthouse.report;
  const mine = r.cli.report;
  const notes = [];
  if (r.lighthouse.error) notes.push(`lighthouse failed: ${r.lighthouse.error}`);
  if (r.cli.error) notes.push(`sitelens failed (${r.cli.code}): ${r.cli.error}`);
  if (r.server?.error) notes.push(`server failed: ${r.server.error}`);
  let verdicts = "–";
  let gap = NaN;
  let serverGap = NaN;
  if (lhr && mine) {
    const { rows, missing } = compare(lhr, mine);
    const ok = rows.filter((x) => x.agree).length;
    agreeing += ok;
    shared += rows.length;
    verdicts = `${ok}/${rows.length}`;
    for (const row of rows) {
      const list = byAudit.get(row.id) ?? { agree: 0, disagree: [] };
      if (row.agree) list.agree += 1;
      else list.disagree.push({ page: `${r.site}${r.path}`, ...row });
      byAudit.set(row.id, list);
    }
    r.missing = missing;
    // Lighthouse's score rounds like its report does; a page it could not score has no gap.
    if (lhr.categories.performance.score !== null) {
      const theirs = Math.round(lhr.categories.performance.score * 100);
      gap = mine.performanceAnalysis.mobileScore - theirs;
      gaps.push(gap);
      const served = r.server?.report?.performanceAnalysis?.mobileScore;
      if (Number.isFinite(served)) {
        serverGap = served - theirs;
        serverGaps.push(serverGap);
      }
    }
    const a = lhr.audits;
    const run0 = mine.performanceAnalysis.labRuns?.[0] ?? {};
    metricPairs.FCP.push([a["first-contentful-paint"].numericValue, run0.firstContentfulPaint]);
    metricPairs.LCP.push([a["largest-contentful-paint"].numericValue, run0.largestContentfulPaint]);
    metricPairs.TBT.push([a["total-blocking-time"].numericValue, run0.totalBlockingTime]);
    metricPairs.SI.push([a["speed-index"].numericValue, run0.speedIndex]);
    metricPairs.CLS.push([a["cumulative-layout-shift"].numericValue, run0.cumulativeLayoutShift]);
    if (run0.conditions !== "simulatedMobile") notes.push(`not simulated (${run0.conditions ?? "no lab run"})`);
  }
  if (r.lighthouse.scores.length > 1) spreads.push(r.lighthouse.scores.at(-1) - r.lighthouse.scores[0]);
  const c = lhr?.categories;
  const p = mine?.performanceAnalysis;
  lines.push(
    [
      `${r.site}${r.path}`,
      c ? `${pct(c.performance.score)}${lighthouseRuns > 1 ? ` (${r.lighthouse.scores.join(", ")})` : ""}` : "–",
      `${p ? p.mobileScore : "–"} (${r.server?.report?.performanceAnalysis?.mobileScore ?? "–"})`,
      `${signed(gap)} (${signed(serverGap)})`,
      c ? `${pct(c.accessibility.score)}/${pct(c["best-practices"].score)}/${pct(c.seo.score)}` : "–",
      p ? `${p.accessibilityScore}/${p.bestPracticesScore}/${p.seoScore}` : "–",
      verdicts,
      f1(r.lighthouse.seconds),
      f1(r.cli.seconds),
      f1(r.server?.seconds),
      notes.join("; "),
    ].join(" | "),
  );
}

const absGaps = gaps.map(Math.abs);
const lhTimes = results.map((r) => r.lighthouse.seconds);
const cliTimes = results.map((r) => r.cli.seconds);
const serverTimes = results.map((r) => r.server?.seconds);
const summary = {
  pages: results.length,
  verdictAgreement: shared ? agreeing / shared : null,
  sharedVerdicts: shared,
  lighthouseRuns,
  // Per page, the difference between Lighthouse's highest and lowest score over its runs.
  lighthouseSpread: spreads.length ? { median: median(spreads), max: Math.max(...spreads), over15: spreads.filter((x) => x > 15).length } : null,
  medianAbsGap: median(absGaps),
  maxAbsGap: absGaps.length ? Math.max(...absGaps) : null,
  serverMedianAbsGap: median(serverGaps.map(Math.abs)),
  serverMaxAbsGap: serverGaps.length ? Math.max(...serverGaps.map(Math.abs)) : null,
  medianLighthouseSeconds: median(lhTimes),
  medianCliSeconds: median(cliTimes),
  timeRatio: median(lhTimes) / median(cliTimes),
  maxCliSeconds: cliTimes.some(Number.isFinite) ? Math.max(...cliTimes.filter(Number.isFinite)) : null,
  maxServerSeconds: serverTimes.some(Number.isFinite) ? Math.max(...serverTimes.filter(Number.isFinite)) : null,
  medianServerSeconds: median(serverTimes),
  failures: results.filter((r) => r.cli.error || r.server?.error).map((r) => ({ page: `${r.site}${r.path}`, cli: r.cli.error, server: r.server?.error })),
  metricMedians: Object.fromEntries(Object.entries(metricPairs).map(([k, v]) => [k, { lighthouse: median(v.map((x) => x[0])), sitelens: median(v.map((x) => x[1])) }])),
};

console.log(lines.join("\n"));
console.log("");
console.log(`verdict agreement: ${shared ? ((agreeing / shared) * 100).toFixed(1) : "–"}% (${agreeing}/${shared} shared verdicts)`);
console.log(`mobile performance gap: median ${f1(summary.medianAbsGap)}, max ${summary.maxAbsGap ?? "–"} points (cold CLI)`);
if (server) console.log(`  warm server: median ${f1(summary.serverMedianAbsGap)}, max ${summary.serverMaxAbsGap ?? "–"} points`);
if (summary.lighthouseSpread) {
  const sp = summary.lighthouseSpread;
  console.log(`  (Lighthouse's median of ${lighthouseRuns} runs; its own spread per page: median ${f1(sp.median)}, max ${sp.max}, over 15 on ${sp.over15} pages)`);
}
for (const [k, v] of Object.entries(summary.metricMedians)) console.log(`  ${k} median: Lighthouse ${f1(v.lighthouse)}, Sitelens ${f1(v.sitelens)}`);
console.log(`time: Lighthouse median ${f1(summary.medianLighthouseSeconds)} s, cold CLI median ${f1(summary.medianCliSeconds)} s (max ${f1(summary.maxCliSeconds)} s), ratio ${f1(summary.timeRatio)}x`);
if (server) console.log(`warm server: median ${f1(summary.medianServerSeconds)} s, max ${f1(summary.maxServerSeconds)} s`);
console.log(`failures: ${summary.failures.length ? JSON.stringify(summary.failures) : "none"}`);

const dis = [];
const sorted = [...byAudit].sort((a, b) => b[1].disagree.length - a[1].disagree.length);
for (const [id, { agree, disagree }] of sorted) {
  if (!disagree.length) continue;
  dis.push(`## ${id}: ${disagree.length} disagree, ${agree} agree`);
  for (const d of disagree) {
    dis.push(`- ${d.page}: Lighthouse ${d.lighthouse.verdict} (score ${d.lighthouse.score}, ${d.lighthouse.mode}) ${String(d.lighthouse.display).slice(0, 160)}`);
    dis.push(`  Sitelens ${d.sitelens.verdict}: ${d.sitelens.finding.type} "${d.sitelens.finding.title}" ${String(d.sitelens.finding.description).slice(0, 200)}`);
  }
}
const missingCounts = new Map();
for (const r of results) for (const m of r.missing ?? []) missingCounts.set(m.id, (missingCounts.get(m.id) ?? 0) + 1);
dis.push("", "## Lighthouse audits with weight we do not report (pages)");
for (const [id, n] of [...missingCounts].sort((a, b) => b[1] - a[1])) dis.push(`- ${id}: ${n}`);
writeFileSync(join(out, "disagreements.txt"), dis.join("\n") + "\n");
writeFileSync(join(out, "summary.json"), JSON.stringify({ summary, pages: results.map(({ lighthouse, cli, server, ...r }) => ({ ...r, lighthouseScores: lighthouse.scores, lighthouseSeconds: lighthouse.seconds, cliSeconds: cli.seconds, serverSeconds: server?.seconds })) }, null, 1));
console.log(`\ndisagreements by audit: ${sorted.filter(([, v]) => v.disagree.length).map(([id, v]) => `${id} ${v.disagree.length}`).join(", ") || "none"}`);
console.log(`raw output: ${out}`);
