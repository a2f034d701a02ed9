import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFixtureSite } from "./fixture-site";

const repo = resolve(import.meta.dirname, "..");

function waitForAddress(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((ok, fail) => {
    let log = "";
    const timer = setTimeout(() => fail(new Error(`sitelens did not report its address within ${timeoutMs} ms:\n${log}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const m = log.match(/running on (http:\/\/[^\s]+)/);
      if (m?.[1]) {
        clearTimeout(timer);
        ok(m[1].replace(/\/$/, ""));
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (c: Buffer) => {
      log += c.toString();
      if (process.env.E2E_SERVER_LOG) process.stderr.write(c);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`sitelens exited with code ${code} before it was ready:\n${log}`));
    });
  });
}

/**
 * Starts the fixture website and the real `sitelens serve` (built binary, temporary SQLite
 * database, the built web app), and hands their addresses to the tests through the environment.
 * The server binds port 0 and prints its address, so nothing races for a port.
 */
export default async function globalSetup() {
  // Against an instance that is already running (E2E_BASE_URL set), start nothing but the fixture site.
  if (process.env.E2E_BASE_URL) {
    const site = await startFixtureSite();
    process.env.E2E_SITE_URL = site.url;
    return async () => void site.server.close();
  }
  const bin = process.env.SITELENS_BIN ?? join(repo, "target/debug/sitelens");
  const webDir = process.env.SITELENS_WEB_DIR ?? join(repo, "web/dist");
  if (!existsSync(bin)) throw new Error(`sitelens binary not found at ${bin}: run \`cargo build -p server\` first`);
  if (!existsSync(join(webDir, "index.html"))) throw new Error(`built web app not found in ${webDir}: run \`just web\` first`);

  const site = await startFixtureSite();
  const tmp = mkdtempSync(join(tmpdir(), "sitelens-e2e-"));
  const child = spawn(bin, ["serve"], {
    env: {
      ...process.env,
      SITELENS_BIND: "127.0.0.1:0",
      SITELENS_DATABASE_URL: `sqlite://${join(tmp, "e2e.sqlite")}?mode=rwc`,
      SITELENS_WEB_DIR: webDir,
      SITELENS_DATA_DIR: join(tmp, "data"),
      SITELENS_ALLOW_PRIVATE_TARGETS: "true",
      // Each test presents its own visitor address through X-Forwarded-For (see tests/fixtures.ts),
      // so the 3-a-day free allowance is counted per test, as it would be for real visitors.
      SITELENS_TRUSTED_PROXIES: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let base: string;
  try {
    base = await waitForAddress(child, 60_000);
  } catch (e) {
    child.kill("SIGKILL");
    site.server.close();
    throw e;
  }
  process.env.E2E_BASE_URL = base;
  process.env.E2E_SITE_URL = site.url;

  return async () => {
    child.kill("SIGTERM");
    await new Promise<void>((ok) => {
      const t = setTimeout(() => {
        child.kill("SIGKILL");
        ok();
      }, 5000);
      child.on("exit", () => {
        clearTimeout(t);
        ok();
      });
    });
    site.server.close();
    rmSync(tmp, { recursive: true, force: true });
  };
}
