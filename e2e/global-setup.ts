import { startFixtureSite, startMailSink, startServer } from "./servers.mjs";

/**
 * Starts the fixture website, a real SMTP server (aiosmtpd) and the real `sitelens serve`
 * sending its mail there, and hands their addresses to the tests through the environment
 * (`E2E_MAIL_DIR`: the folder of received messages; `E2E_DATABASE_URL` and `SITELENS_BIN` for
 * the operator commands a test runs). With E2E_BASE_URL already set, only the fixture site
 * starts (for running the suite against an instance you started yourself).
 */
export default async function globalSetup() {
  const site = await startFixtureSite();
  process.env.E2E_SITE_URL = site.url;
  if (process.env.E2E_BASE_URL) return async () => site.close();
  const mail = await startMailSink().catch((e: unknown) => {
    site.close();
    throw e;
  });
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    // Each test presents its own visitor address through X-Forwarded-For (see tests/fixtures.ts),
    // so the 3-a-day free allowance is counted per test, as it would be for real visitors.
    server = await startServer({ SITELENS_TRUSTED_PROXIES: "127.0.0.1", SITELENS_SMTP_URL: mail.url });
  } catch (e) {
    mail.stop();
    site.close();
    throw e;
  }
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_MAIL_DIR = mail.dir;
  process.env.E2E_DATABASE_URL = server.databaseUrl;
  process.env.SITELENS_BIN = server.bin;
  return async () => {
    await server.stop();
    mail.stop();
    site.close();
  };
}
