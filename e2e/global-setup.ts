import { startFixtureSite, startServer } from "./servers.mjs";

/**
 * Starts the fixture website and the real `sitelens serve`, and hands their addresses to the
 * tests through the environment. With E2E_BASE_URL already set, only the fixture site starts
 * (for running the suite against an instance you started yourself).
 */
export default async function globalSetup() {
  const site = await startFixtureSite();
  process.env.E2E_SITE_URL = site.url;
  if (process.env.E2E_BASE_URL) return async () => site.close();
  let server: { url: string; stop: () => Promise<void> };
  try {
    // Each test presents its own visitor address through X-Forwarded-For (see tests/fixtures.ts),
    // so the 3-a-day free allowance is counted per test, as it would be for real visitors.
    server = await startServer({ SITELENS_TRUSTED_PROXIES: "127.0.0.1" });
  } catch (e) {
    site.close();
    throw e;
  }
  process.env.E2E_BASE_URL = server.url;
  return async () => {
    await server.stop();
    site.close();
  };
}
