// Starts what the end-to-end tests and the Lighthouse bench need: the fixture website and the
// real `sitelens serve` (built binary, temporary SQLite database, the built web app). The server
// binds port 0 and prints its address, so nothing races for a port.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..");
const siteRoot = join(import.meta.dirname, "fixtures/site");
const types = { ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".txt": "text/plain; charset=utf-8", ".xml": "application/xml" };

/**
 * The measuring browser's flags (one list: crates/analyzer/assets/chromium-flags.txt) as one
 * `--chrome-flags` value for the Lighthouse CLI, headless, a value with spaces quoted: Lighthouse's
 * Chromium then starts as ours does, without the start-up work (omnibox pages, background
 * networking) that would otherwise run beside the measured load.
 */
export function lighthouseChromeFlags() {
  return readFileSync(join(repo, "crates/analyzer/assets/chromium-flags.txt"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .concat(["--headless"])
    .map((f) => (f.includes(" ") ? f.replace(/=(.*)$/, '="$1"') : f))
    .join(" ");
}

/** Serves e2e/fixtures/site on 127.0.0.1 with an ephemeral port: the website the tests analyse. */
export async function startFixtureSite() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = normalize(join(siteRoot, path));
    if (!file.startsWith(siteRoot)) {
      res.writeHead(403).end();
      return;
    }
    if (path.endsWith("/")) file = join(file, "index.html");
    try {
      const body = await readFile(file);
      res.writeHead(200, { "Content-Type": types[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404, { "Content-Type": "text/html; charset=utf-8" }).end("<!doctype html><title>Not found</title><h1>Not found</h1>");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

function waitForAddress(child, timeoutMs) {
  return new Promise((ok, fail) => {
    let log = "";
    const timer = setTimeout(() => fail(new Error(`sitelens did not report its address within ${timeoutMs} ms:\n${log}`)), timeoutMs);
    child.stdout.on("data", (chunk) => {
      log += chunk.toString();
      const m = log.match(/running on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        ok(m[1].replace(/\/$/, ""));
      }
    });
    child.stderr.on("data", (c) => {
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
 * Starts a real SMTP server on 127.0.0.1 (aiosmtpd, which `just setup` installs into
 * .tools/aiosmtpd; `SITELENS_TEST_AIOSMTPD` overrides the folder) running
 * scripts/mail-sink.py: every message it accepts is written as JSON into `dir`.
 */
export async function startMailSink() {
  const aiosmtpd = process.env.SITELENS_TEST_AIOSMTPD ?? join(repo, ".tools/aiosmtpd");
  if (!existsSync(join(aiosmtpd, "aiosmtpd"))) throw new Error(`aiosmtpd not found in ${aiosmtpd}: run \`just setup\``);
  const dir = mkdtempSync(join(tmpdir(), "sitelens-mail-"));
  const child = spawn("python3", ["-S", join(repo, "scripts/mail-sink.py"), dir], {
    env: { ...process.env, PYTHONPATH: aiosmtpd },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((ok, fail) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk.toString();
      if (out.includes("\n")) ok(Number(out.trim()));
    });
    child.on("exit", (code) => fail(new Error(`the mail sink exited with code ${code}`)));
  });
  const stop = () => {
    child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  return { url: `smtp://127.0.0.1:${port}`, dir, stop };
}

/** Starts `sitelens serve`; returns its base URL, its database URL and a stop function. */
export async function startServer(extraEnv = {}) {
  const bin = process.env.SITELENS_BIN ?? join(repo, "target/debug/sitelens");
  const webDir = process.env.SITELENS_WEB_DIR ?? join(repo, "web/dist");
  if (!existsSync(bin)) throw new Error(`sitelens binary not found at ${bin}: run \`cargo build -p server\` first`);
  if (!existsSync(join(webDir, "index.html"))) throw new Error(`built web app not found in ${webDir}: run \`just web\` first`);
  const tmp = mkdtempSync(join(tmpdir(), "sitelens-e2e-"));
  const databaseUrl = `sqlite://${join(tmp, "e2e.sqlite")}?mode=rwc`;
  const child = spawn(bin, ["serve"], {
    env: {
      ...process.env,
      SITELENS_BIND: "127.0.0.1:0",
      SITELENS_DATABASE_URL: databaseUrl,
      SITELENS_WEB_DIR: webDir,
      SITELENS_DATA_DIR: join(tmp, "data"),
      SITELENS_ALLOW_PRIVATE_TARGETS: "true",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((ok) => {
        const t = setTimeout(() => {
          child.kill("SIGKILL");
          ok();
        }, 5000);
        child.on("exit", () => {
          clearTimeout(t);
          ok();
        });
      });
    }
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    return { url: await waitForAddress(child, 60_000), databaseUrl, bin, stop };
  } catch (e) {
    child.kill("SIGKILL");
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
