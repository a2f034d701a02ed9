// Prints what the home page (/) costs: the JavaScript and CSS index.html loads up front
// (entry script, modulepreloads, stylesheets), gzipped, and the wasm package. Goal: JS <= 170 KB.
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";

const dist = join(import.meta.dirname, "../dist");
const html = readFileSync(join(dist, "index.html"), "utf8");
const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
const size = (file) => {
  const buf = readFileSync(join(dist, file));
  return { raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
};
const sum = (ext) =>
  refs.filter((r) => r.endsWith(ext)).reduce((a, r) => {
    const s = size(r);
    return { raw: a.raw + s.raw, gz: a.gz + s.gz, n: a.n + 1 };
  }, { raw: 0, gz: 0, n: 0 });
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const js = sum(".js");
const css = sum(".css");
const wasm = readdirSync(join(dist, "assets")).filter((f) => f.endsWith(".wasm")).map((f) => size(`/assets/${f}`));
console.log(`/ JavaScript: ${js.n} files, ${kb(js.raw)} raw, ${kb(js.gz)} gzipped (goal <= 170 KB)`);
console.log(`/ CSS: ${css.n} files, ${kb(css.raw)} raw, ${kb(css.gz)} gzipped`);
for (const w of wasm) console.log(`domain wasm: ${kb(w.raw)} raw, ${kb(w.gz)} gzipped`);
if (js.gz > 170 * 1024) {
  console.error("JavaScript budget for / exceeded");
  process.exitCode = 1;
}
