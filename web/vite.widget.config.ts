import { defineConfig } from "vite";

/**
 * The embeddable audit widget (src/widget/widget.ts) as one self-contained, minified script,
 * dist/widget.js, which the server answers at /widget.js. Built after the app (whose build
 * empties dist), without the app's plugins: the widget imports nothing at run time.
 */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: "dist",
    emptyOutDir: false,
    target: "es2019",
    minify: true,
    sourcemap: false,
    lib: { entry: "src/widget/widget.ts", formats: ["iife"], name: "SitelensWidget", fileName: () => "widget.js" },
  },
});
