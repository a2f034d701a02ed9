import { Link } from "react-router";
import { CheckCircle2 } from "lucide-react";
import { PageMeta } from "../../components/seo/page-meta";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";

/** What /thank-you?from=<form> says after each contact form. */
export const contactThanks = {
  enterprise: {
    title: "Thanks, we have your enterprise enquiry",
    text: "Our sales team will reply within one working day with pricing and a set-up that fits your volume.",
    next: { to: "/enterprise", label: "Read about Enterprise" },
  },
  agency: {
    title: "Thanks, we have your agency enquiry",
    text: "We will reply within one working day about white-label reports, seats and agency pricing.",
    next: { to: "/white-label", label: "See white-label reports" },
  },
  partner: {
    title: "Thanks for your interest in partnering",
    text: "We will reply within one working day to talk about how Sitelens fits what you build.",
    next: { to: "/api-docs", label: "Read the API documentation" },
  },
} as const;

export type ContactThanksKind = keyof typeof contactThanks;

export const isContactThanks = (from: string | null): from is ContactThanksKind => from !== null && Object.hasOwn(contactThanks, from);

/** The thank-you page after a contact form. */
export function ContactThankYou({ from }: { from: ContactThanksKind }) {
  const t = contactThanks[from];
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-16 sm:px-6">
      <PageMeta title="Thank you" description="Your message reached the Sitelens team." noindex />
      <h1 className="text-3xl font-bold tracking-tight">Thank you</h1>
      <Alert variant="success">
        <CheckCircle2 aria-hidden="true" />
        <div>
          <p className="font-semibold">{t.title}</p>
          <p>{t.text}</p>
        </div>
      </Alert>
      <div className="flex flex-wrap gap-3">
        <Button asChild>
          <Link to={t.next.to}>{t.next.label}</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/">Analyse a website</Link>
        </Button>
      </div>
    </div>
  );
}
