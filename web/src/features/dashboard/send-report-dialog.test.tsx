// The dashboard's "Send to client" dialog: domain's rule for the fields, what the form shows
// (field errors, the server's refusal, the confirmation), and the call it makes.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setCsrfToken } from "../../lib/api-client";
import { sendReport } from "./api/send-report";
import { SendReportDialog, SendReportForm, emptySendForm, sendErrors, sendRequest, type SendForm } from "./send-report-dialog";

/** The rendered text, tags dropped. */
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ");

function form(over: Partial<SendForm>, extra: Partial<Parameters<typeof SendReportForm>[0]> = {}) {
  const values = { ...emptySendForm, ...over };
  return renderToStaticMarkup(
    <SendReportForm
      id="s"
      form={values}
      errors={sendErrors(values)}
      pending={false}
      failure={null}
      sent={null}
      onChange={() => {}}
      onSubmit={() => {}}
      {...extra}
    />,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  setCsrfToken(null);
});

describe("SendReportDialog", () => {
  it("is a 'Send to client' button until opened", () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <SendReportDialog reportId="r-1" site="https://acme.example/" />
      </QueryClientProvider>,
    );
    expect(text(html).trim()).toBe("Send to client");
    expect(html).toContain('aria-haspopup="dialog"');
  });

  it("checks the fields with domain's rule and leaves a blank message out", () => {
    expect(sendErrors(emptySendForm).map((e) => [e.field, e.message])).toEqual([
      ["email", "Please enter a valid email address"],
      ["firstName", "Please enter your client's first name"],
    ]);
    const ok = { email: "ada@client.example", firstName: "Ada", message: "  " };
    expect(sendErrors(ok)).toEqual([]);
    expect(sendRequest(ok)).toEqual({ email: "ada@client.example", firstName: "Ada" });
    expect(sendRequest({ ...ok, message: "Hello" })).toEqual({ ...ok, message: "Hello" });
    expect(sendErrors({ ...ok, message: "x".repeat(2001) })).toEqual([{ field: "message", message: "Please keep the message to 2,000 characters" }]);
  });

  it("shows each field's error beside it, marked invalid", () => {
    const html = form({ email: "nope" });
    expect(text(html)).toContain("Client's email");
    expect(text(html)).toContain("Please enter a valid email address");
    expect(text(html)).toContain("Please enter your client's first name");
    expect(html).toMatch(/id="s-email"[^>]*aria-invalid="true"/);
    expect(html).toMatch(/aria-describedby="s-email-error"/);
    expect(text(html)).toContain("Send Report");
  });

  it("shows the server's refusal as an alert and its confirmation instead of the form", () => {
    const refused = form(
      { email: "ada@client.example", firstName: "Ada" },
      { failure: "Sending reports by email is not available on this server because no mail server is configured. Download the PDF and send it yourself." },
    );
    expect(refused).toContain('role="alert"');
    expect(text(refused)).toContain("no mail server is configured");
    const sent = form({}, { sent: "The report is on its way to ada@client.example." });
    expect(text(sent)).toContain("The report is on its way to ada@client.example.");
    expect(sent).toContain('role="status"');
    expect(sent).not.toContain("<form");
  });

  it("posts the form with the CSRF token and throws the server's message", async () => {
    setCsrfToken("csrf-1");
    const ok = vi.fn((..._args: unknown[]) => Promise.resolve(new Response(JSON.stringify({ message: "The report is on its way to a@b.co." }), { status: 200 })));
    vi.stubGlobal("fetch", ok);
    await expect(sendReport("r 1", { email: "a@b.co", firstName: "Ada" })).resolves.toEqual({ message: "The report is on its way to a@b.co." });
    const [path, init] = ok.mock.calls[0] as [string, RequestInit];
    expect(path).toBe("/api/reports/r%201/send");
    expect(init.method).toBe("POST");
    expect((init.headers as Record<string, string>)["X-CSRF-Token"]).toBe("csrf-1");
    expect(JSON.parse(init.body as string)).toEqual({ email: "a@b.co", firstName: "Ada" });

    vi.stubGlobal("fetch", () => Promise.resolve(new Response(JSON.stringify({ success: false, error: "You have sent 30 reports in the last hour. Please try again in 5 minutes." }), { status: 429 })));
    await expect(sendReport("r1", { email: "a@b.co", firstName: "Ada" })).rejects.toThrow("You have sent 30 reports in the last hour.");
  });
});
