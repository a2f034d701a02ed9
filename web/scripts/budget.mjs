// Prints what the home page (/) costs: every JavaScript and CSS file it loads before it is
// interactive (the entry and its imports, plus the app chunks main.tsx imports at start-up, each
// with their own imports), gzipped, and the wasm package. Lazy routes are not counted.
// Goal: JavaScript <= 170 KB gzipped. Also the embeddable widget, dist/widget.js (goal <= 15 KB).
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";

const dist = join(import.meta.dirname, "../dist");
const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));
const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const asset of chunk.assets ?? []) files.add(asset);
  for (const imp of chunk.imports ?? []) visit(imp);
};
visit("index.html");
for (const dyn of manifest["index.html"].dynamicImports ?? []) visit(dyn);

const size = (file) => {
  const buf = readFileSync(join(dist, file));
  return { raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
};
const sum = (ext) =>
  [...files].filter((f) => f.endsWith(ext)).reduce((a, f) => {
    const s = size(f);
    return { raw: a.raw + s.raw, gz: a.gz + s.gz, n: a.n + 1 };
  }, { raw: 0, gz: 0, n: 0 });
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const first = visitFirstPaint();
const js = sum(".js");
const css = sum(".css");
const wasm = sum(".wasm");
console.log(`/ JavaScript before the first paint: ${kb(first.gz)} gzipped (the entry: React and the hero shell)`);
console.log(`/ JavaScript in all: ${js.n} files, ${kb(js.raw)} raw, ${kb(js.gz)} gzipped (goal <= 170 KB)`);
console.log(`/ CSS: ${css.n} files, ${kb(css.raw)} raw, ${kb(css.gz)} gzipped`);
console.log(`domain wasm: ${kb(wasm.raw)} raw, ${kb(wasm.gz)} gzipped`);
const widget = size("widget.js");
console.log(`widget.js (the embeddable audit widget): ${kb(widget.raw)} raw, ${kb(widget.gz)} gzipped (goal <= 15 KB)`);
if (widget.gz > 15 * 1024) {
  console.error("widget.js budget exceeded");
  process.exitCode = 1;
}
if (js.gz > 170 * 1024) {
  console.error("JavaScript budget for / exceeded");
  process.exitCode = 1;
}

function visitFirstPaint() {
  const seen = new Set();
  const walk = (key) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const imp of chunk.imports ?? []) walk(imp);
  };
  walk("index.html");
  return [...seen].reduce((a, f) => ({ gz: a.gz + size(f).gz }), { gz: 0 });
}
