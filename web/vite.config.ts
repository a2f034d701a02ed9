import { defineConfig } from "vitest/config";
import { createServer, type Plugin } from "vite";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import wasm from "vite-plugin-wasm";

/**
 * Preloads the domain wasm from index.html. Otherwise the browser only learns of it once the
 * JavaScript has downloaded and run, and the first render waits for both in a row. The server
 * drops it again from every page with a first screen of its own (crates/server/src/services/
 * pages.rs, `without_wasm_preload`), whose first paint needs no rule.
 */
function preloadWasm(): Plugin {
  return {
    name: "sitelens-preload-wasm",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const wasm = Object.keys(ctx.bundle ?? {}).filter((f) => f.endsWith(".wasm"));
        return wasm.map((f) => ({
          tag: "link",
          attrs: { rel: "preload", href: `/${f}`, as: "fetch", type: "application/wasm", crossorigin: "anonymous" },
          injectTo: "head" as const,
        }));
      },
    },
  };
}

/**
 * Preloads the app's entry (src/main.tsx, imported by src/boot.ts once the page is on screen) and
 * its static imports, so they download with the page although they run only after its first
 * paint.
 */
function preloadMain(): Plugin {
  return {
    name: "sitelens-preload-main",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const bundle = ctx.bundle ?? {};
        const main = Object.values(bundle).find((c) => c.type === "chunk" && c.facadeModuleId?.endsWith("/src/main.tsx"));
        if (!main || main.type !== "chunk") return [];
        const files = new Set<string>();
        const visit = (file: string) => {
          const chunk = bundle[file];
          if (files.has(file) || !chunk || chunk.type !== "chunk") return;
          files.add(file);
          chunk.imports.forEach(visit);
        };
        visit(main.fileName);
        return [...files].map((f) => ({ tag: "link", attrs: { rel: "modulepreload", href: `/${f}`, crossorigin: "" }, injectTo: "head" as const }));
      },
    },
  };
}

/**
 * Writes dist/home.html: index.html with the home hero pre-rendered into #root. Served for / and
 * /home, the largest text of the page paints with the HTML instead of after the JavaScript. Also
 * dist/page.html: the header and footer around an empty <main>, the template the server puts the
 * pages of content/ into; and dist/pre/<page>.html, the app's pages that need no request
 * (pricing, features, about, FAQ) rendered whole (see src/prerender.tsx).
 */
function prerenderHome(): Plugin {
  let outDir = "dist";
  return {
    name: "sitelens-prerender-home",
    apply: "build",
    configResolved(c) {
      outDir = c.build.outDir;
    },
    async closeBundle() {
      const server = await createServer({ configFile: false, plugins: [react(), wasm()], server: { middlewareMode: true }, appType: "custom", logLevel: "silent" });
      try {
        const mod = (await server.ssrLoadModule("/src/prerender.tsx")) as {
          render: () => string;
          renderShell: () => string;
          renderPage: (path: string) => string;
          prerendered: Record<string, unknown>;
        };
        const index = readFileSync(join(outDir, "index.html"), "utf8");
        const withRoot = (html: string) => index.replace('<div id="root"></div>', `<div id="root">${html}</div>`);
        writeFileSync(join(outDir, "home.html"), withRoot(mod.render()));
        writeFileSync(join(outDir, "page.html"), withRoot(mod.renderShell()));
        mkdirSync(join(outDir, "pre"), { recursive: true });
        for (const path of Object.keys(mod.prerendered)) {
          writeFileSync(join(outDir, "pre", `${path.slice(1)}.html`), withRoot(mod.renderPage(path)));
        }
      } finally {
        await server.close();
      }
    },
  };
}

/** Copies src/route-meta.json (public pages' titles and descriptions) to dist for the server. */
function emitRouteMeta(): Plugin {
  return {
    name: "sitelens-route-meta",
    apply: "build",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "route-meta.json", source: readFileSync("src/route-meta.json", "utf8") });
    },
  };
}

// The domain rules arrive as a wasm-pack "bundler" package; vite-plugin-wasm loads it as an ES
// module. es2022 gives top-level await, which that package needs, without an extra plugin.
export default defineConfig({
  plugins: [react(), tailwindcss(), wasm(), preloadWasm(), preloadMain(), prerenderHome(), emitRouteMeta()],
  build: { target: "es2022", manifest: true },
  server: {
    proxy: { "/api": "http://127.0.0.1:8080" },
  },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    environment: "node",
    server: { deps: { inline: ["@sitelens/domain-wasm"] } },
  },
});
