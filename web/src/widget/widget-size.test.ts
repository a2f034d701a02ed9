// The widget's budget (issue 15: at most 15 KB gzipped, domain::widget::SCRIPT_MAX_GZIP_BYTES):
// the script is built here with its own Vite config and measured as a browser downloads it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { describe, expect, it } from "vitest";

const BUDGET = 15 * 1024;
const web = resolve(import.meta.dirname, "../..");

describe("widget.js", () => {
  it("is one self-contained script of at most 15 KB gzipped", { timeout: 60_000 }, async () => {
    const out = mkdtempSync(join(tmpdir(), "sitelens-widget-"));
    try {
      await build({ root: web, configFile: join(web, "vite.widget.config.ts"), logLevel: "silent", build: { outDir: out } });
      const script = readFileSync(join(out, "widget.js"));
      const gz = gzipSync(script, { level: 9 }).length;
      console.log(`widget.js: ${script.length} bytes raw, ${gz} bytes gzipped (budget ${BUDGET})`);
      expect(gz).toBeLessThanOrEqual(BUDGET);
      const text = script.toString("utf8");
      expect(text).not.toMatch(/^\s*import\s|\bexport\s/m);
      expect(text).toContain("attachShadow");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
