import { readFileSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

// Debian's Chromium, never a downloaded browser (docs/TOOLCHAIN.md §3.1, §3.2), with the measuring
// browser's own flags (one list: crates/analyzer/assets/chromium-flags.txt), so it makes no
// request the pages did not cause.
const chromiumArgs = readFileSync(new URL("../crates/analyzer/assets/chromium-flags.txt", import.meta.url), "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"))
  .concat(["--headless"]);

export default defineConfig({
  testDir: "./tests",
  globalSetup: "./global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["html", { open: "never" }]],
  outputDir: "test-results",
  use: {
    ...devices["Desktop Chrome"],
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
    screenshot: "on",
    trace: "retain-on-failure",
  },
});
