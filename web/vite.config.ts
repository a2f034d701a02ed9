import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import wasm from "vite-plugin-wasm";

// The domain rules arrive as a wasm-pack "bundler" package; vite-plugin-wasm loads it as an ES
// module. es2022 gives top-level await, which that package needs, without an extra plugin.
export default defineConfig({
  plugins: [react(), tailwindcss(), wasm()],
  build: { target: "es2022" },
  server: {
    proxy: { "/api": "http://127.0.0.1:8080" },
  },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    environment: "node",
    server: { deps: { inline: ["@sitelens/domain-wasm"] } },
  },
});
