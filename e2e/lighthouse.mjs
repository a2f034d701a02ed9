// `just bench` budget: Lighthouse mobile scores of our own home and results pages, against the
// real server analysing the fixture site, in Debian's Chromium (LIGHTHOUSE_JSON_DIR keeps the reports). Goals: performance >= 95,
// accessibility, best practices and SEO 100. Prints figures; asserts nothing.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFixtureSite, startServer } from "./servers.mjs";

const chromeFlags = "--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic";

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
  return { performance: c.performance.score * 100, accessibility: c.accessibility.score * 100, bestPractices: c["best-practices"].score * 100, seo: c.seo.score * 100 };
}

const site = await startFixtureSite();
const server = await startServer({ SITELENS_TRUSTED_PROXIES: "127.0.0.1" });
try {
  const id = await resultIdFor(server.url, site.url);
  for (const [name, path] of [["home", "/"], ["results", `/results?id=${id}`]]) {
    const s = lighthouse(`${server.url}${path}`, name);
    console.log(`lighthouse mobile ${name}: performance ${s.performance}, accessibility ${s.accessibility}, best practices ${s.bestPractices}, SEO ${s.seo}`);
  }
} finally {
  await server.stop();
  site.close();
}
