import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, Copy, LogIn } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Input, Textarea } from "../../components/ui/input";
import { FieldError, Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { PageMeta } from "../../components/seo/page-meta";
import { accountRequest, signInFirst, useRequireSignIn, useSession } from "../../lib/session";
import { copyText } from "../../lib/clipboard";
import {
  affiliateTerms,
  formatDollars,
  validateAffiliateApplication,
  type AffiliateApplication,
  type AffiliateDashboard,
} from "../../lib/domain";

const terms = affiliateTerms();
const dollars = (cents: number) => formatDollars(Math.max(0, Math.round(cents)));
const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const when = (iso: string | null | undefined) => (iso ? day.format(new Date(iso)) : "—");

/** `GET /api/affiliates/me`: the dashboard, or `null` when the user has not applied (404). */
async function getAffiliate(): Promise<AffiliateDashboard | null> {
  const res = await fetch("/api/affiliates/me", { credentials: "include" });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  return (await res.json()) as AffiliateDashboard;
}

function useAffiliate(enabled: boolean) {
  return useQuery({ queryKey: ["affiliate"], queryFn: getAffiliate, enabled, retry: false });
}

function Loading({ error }: { error?: boolean }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center" role="status">
      {error ? <p>Unable to load your affiliate account. Please try again.</p> : <Spinner className="size-8" />}
    </div>
  );
}

/** A value with a copy button (the referral link, the code, a snippet). */
export function CopyField({ label, value, multiline = false }: { label: string; value: string; multiline?: boolean }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (await copyText(value)) {
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    }
  };
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        {multiline ? (
          <Textarea id={id} readOnly rows={3} value={value} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
        ) : (
          <Input id={id} readOnly value={value} className="font-mono text-sm" onFocus={(e) => e.currentTarget.select()} />
        )}
        <Button type="button" variant="outline" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
    </div>
  );
}

type Errors = Partial<Record<keyof AffiliateApplication, string>>;

function validate(form: AffiliateApplication): Errors {
  const e: Errors = {};
  for (const { field, message } of validateAffiliateApplication(form)) e[field as keyof AffiliateApplication] ??= message;
  return e;
}

const selectClass =
  "flex h-10 w-full rounded-lg border border-border bg-input px-3 py-2 text-base text-input-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-red-500";

/** The programme's terms in one list, from `domain` (the same numbers the server applies). */
function TermsList() {
  return (
    <ul className="mt-6 space-y-2 text-sm text-muted-foreground">
      <li><strong className="text-foreground">{terms.commissionPercent}% commission</strong> on every payment of a customer you refer, for {Math.round(terms.conversionDays / 30.4)} months after they sign up.</li>
      <li>Your link's cookie lasts <strong className="text-foreground">{terms.cookieDays} days</strong>.</li>
      <li>Commissions are approved after the <strong className="text-foreground">{terms.refundWindowDays}-day refund window</strong>; a refunded payment earns nothing.</li>
      <li>Payouts run monthly on day {terms.payoutDayOfMonth} once your approved commissions reach <strong className="text-foreground">{dollars(terms.payoutMinimumCents)}</strong>.</li>
    </ul>
  );
}

/** /affiliate-signup: the application (signed in; one per account and e-mail address). */
export function AffiliateSignupPage() {
  const id = useId();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { signedIn, loading, account } = useSession();
  const existing = useAffiliate(signedIn);
  const [form, setForm] = useState<AffiliateApplication>({
    name: "",
    email: "",
    website: "",
    company: "",
    experience: "",
    trafficSource: "",
    monthlyTraffic: "",
    motivation: "",
  });
  const [prefilled, setPrefilled] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  if (account && !prefilled) {
    setPrefilled(true);
    setForm((f) => ({ ...f, name: [account.firstName, account.lastName].filter(Boolean).join(" "), email: account.email }));
  }
  const update = (patch: Partial<AffiliateApplication>) => {
    const next = { ...form, ...patch };
    setForm(next);
    if (submitted) setErrors(validate(next));
  };
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found = validate(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSending(true);
    setFailure(null);
    try {
      const created = await accountRequest<AffiliateDashboard>("POST", "/api/affiliates/apply", form);
      qc.setQueryData(["affiliate"], created);
      void navigate("/affiliate-dashboard");
    } catch (err) {
      setFailure(err instanceof Error ? err.message : "Your application could not be sent. Please try again.");
    } finally {
      setSending(false);
    }
  };

  const field = (name: keyof AffiliateApplication, label: string, optional = false) => {
    const common = {
      id: `${id}-${name}`,
      value: form[name],
      "aria-invalid": errors[name] ? true : undefined,
      "aria-describedby": errors[name] ? `${id}-${name}-error` : undefined,
    } as const;
    const choices = name === "trafficSource" ? terms.trafficSources : name === "monthlyTraffic" ? terms.monthlyTraffic : null;
    return (
      <div className="grid gap-1.5">
        <Label htmlFor={common.id}>
          {label}
          {optional && <span className="font-normal text-muted-foreground"> (optional)</span>}
        </Label>
        {choices ? (
          <select {...common} className={selectClass} onChange={(e) => update({ [name]: e.target.value })}>
            <option value="">Choose…</option>
            {choices.map((c) => (
              <option key={c} value={c}>{c}</option>
            ))}
          </select>
        ) : name === "experience" || name === "motivation" ? (
          <Textarea {...common} rows={4} onChange={(e) => update({ [name]: e.target.value })} />
        ) : (
          <Input {...common} type={name === "email" ? "email" : "text"} onChange={(e) => update({ [name]: e.target.value })} />
        )}
        <FieldError id={`${id}-${name}-error`}>{errors[name]}</FieldError>
      </div>
    );
  };

  let body;
  if (loading || (signedIn && existing.isPending)) {
    body = <Loading />;
  } else if (!signedIn) {
    body = (
      <Card>
        <CardHeader>
          <CardTitle as="h2">Sign in to apply</CardTitle>
          <CardDescription>Your affiliate account belongs to your Sitelens account, so sign in (or create a free account) first; you will come back here.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild>
            <Link to={signInFirst("/affiliate-signup")}><LogIn aria-hidden="true" /> Sign in to apply</Link>
          </Button>
        </CardContent>
      </Card>
    );
  } else if (existing.data) {
    body = (
      <Alert>
        <div>
          <p className="font-semibold">You have already applied</p>
          <p>
            Your application is {existing.data.status}. <Link className="underline" to="/affiliate-dashboard">Open your affiliate dashboard</Link>.
          </p>
        </div>
      </Alert>
    );
  } else {
    body = (
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5 rounded-2xl border border-border bg-card p-6 shadow-sm sm:p-8">
        <div className="grid gap-5 sm:grid-cols-2">
          {field("name", "Name")}
          {field("email", "Email")}
          {field("website", "Website", true)}
          {field("company", "Company", true)}
          {field("trafficSource", "Main traffic source")}
          {field("monthlyTraffic", "Monthly visitors")}
        </div>
        {field("experience", "Marketing experience")}
        {field("motivation", "Why do you want to join?")}
        {failure && <Alert variant="destructive"><p>{failure}</p></Alert>}
        <Button type="submit" size="lg" disabled={sending}>
          {sending ? <><Spinner /> Sending...</> : "Apply"}
        </Button>
      </form>
    );
  }

  return (
    <div className="mx-auto grid max-w-6xl gap-12 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[1fr_1.5fr]">
      <PageMeta title="Become a Sitelens affiliate" description="Apply to the Sitelens affiliate programme." noindex />
      <div>
        <h1 className="text-4xl font-extrabold tracking-tight">Become an affiliate</h1>
        <p className="mt-4 text-lg text-muted-foreground">Recommend Sitelens to your audience and earn on what they buy. We review every application, usually within two working days.</p>
        <TermsList />
        <p className="mt-6 text-sm"><Link className="underline" to="/affiliates">How the programme works</Link></p>
      </div>
      <div>{body}</div>
    </div>
  );
}

const statusBadge = { pending: "yellow", approved: "green", rejected: "red" } as const;
const commissionBadge = { pending: "yellow", approved: "green", paid: "default", reversed: "red" } as const;

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardDescription>{label}</CardDescription>
        <p className="text-2xl font-semibold">{value}</p>
        {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      </CardHeader>
    </Card>
  );
}

/** /affiliate-dashboard: standing, referral link and code, figures, conversions and payouts. */
export function AffiliateDashboardPage() {
  const { signedIn } = useRequireSignIn("/affiliate-dashboard");
  const q = useAffiliate(signedIn);
  if (q.data === null) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <PageMeta title="Affiliate dashboard" description="Your Sitelens affiliate account." noindex />
        <h1 className="text-3xl font-semibold">Affiliate dashboard</h1>
        <p className="mt-4 text-muted-foreground">You have not applied to the affiliate programme yet.</p>
        <Button asChild className="mt-6"><Link to="/affiliate-signup">Apply now</Link></Button>
      </div>
    );
  }
  if (!q.data) return <Loading error={q.isError} />;
  const a = q.data;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-10">
      <PageMeta title="Affiliate dashboard" description="Your Sitelens affiliate account." noindex />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold">Affiliate dashboard</h1>
          <p className="text-muted-foreground">
            Status <Badge variant={statusBadge[a.status]}>{a.status}</Badge> · {a.commissionPercent}% commission
          </p>
        </div>
        {a.status === "approved" && (
          <Button asChild variant="outline"><Link to="/marketing-materials">Marketing materials</Link></Button>
        )}
      </div>
      {a.status === "pending" && (
        <Alert><p>We are reviewing your application. Your link starts earning once it is approved.</p></Alert>
      )}
      {a.status === "rejected" && (
        <Alert variant="destructive">
          <div>
            <p className="font-semibold">Your application was not approved</p>
            {a.rejectionReason && <p>Reason: {a.rejectionReason}</p>}
          </div>
        </Alert>
      )}
      <Card>
        <CardHeader>
          <CardTitle as="h2">Your referral link</CardTitle>
          <CardDescription>Visitors who sign up within {terms.cookieDays} days of clicking it are yours for {Math.round(terms.conversionDays / 30.4)} months.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <CopyField label="Referral link" value={a.referralLink} />
          <CopyField label="Referral code" value={a.code} />
        </CardContent>
      </Card>
      <div className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
        <Stat label="Clicks" value={String(a.clicks)} />
        <Stat label="Conversions" value={String(a.conversions)} />
        <Stat label="Earnings" value={dollars(a.earningsCents)} />
        <Stat label="Pending" value={dollars(a.pendingCents)} hint={`In the ${terms.refundWindowDays}-day refund window`} />
        <Stat label="Approved" value={dollars(a.approvedCents)} hint={`Paid from ${dollars(a.payoutMinimumCents)}`} />
        <Stat label="Paid out" value={dollars(a.paidCents)} />
      </div>
      <p className="text-sm text-muted-foreground">
        Next payout: <strong className="text-foreground">{when(a.nextPayoutDate)}</strong> · Last payout: {when(a.lastPayoutDate)}
      </p>
      <Card>
        <CardHeader><CardTitle as="h2">Conversions</CardTitle></CardHeader>
        <CardContent>
          {a.recentConversions.length === 0 ? (
            <p className="text-sm text-muted-foreground">No conversions yet. Share your link to get started.</p>
          ) : (
            <table className="w-full text-sm">
              <thead className="text-left text-muted-foreground">
                <tr><th className="py-2">Date</th><th>Purchase</th><th className="text-right">Amount</th><th className="text-right">Commission</th><th className="text-right">Status</th></tr>
              </thead>
              <tbody>
                {a.recentConversions.map((c) => (
                  <tr key={c.id} className="border-t border-border">
                    <td className="py-2">{when(c.at)}</td>
                    <td>{c.transactionType}</td>
                    <td className="text-right">{dollars(c.amountCents)}</td>
                    <td className="text-right">{dollars(c.commissionCents)}</td>
                    <td className="text-right">
                      <Badge variant={commissionBadge[c.status]}>{c.status}</Badge>
                      {c.approvesAt && <span className="block text-xs text-muted-foreground">approved {when(c.approvesAt)}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader><CardTitle as="h2">Payout history</CardTitle></CardHeader>
        <CardContent>
          {a.payouts.length === 0 ? (
            <p className="text-sm text-muted-foreground">No payouts yet.</p>
          ) : (
            <table className="w-full text-sm">
              <thead className="text-left text-muted-foreground">
                <tr><th className="py-2">Proposed</th><th>Paid</th><th>Method</th><th className="text-right">Amount</th><th className="text-right">Status</th></tr>
              </thead>
              <tbody>
                {a.payouts.map((p) => (
                  <tr key={p.id} className="border-t border-border">
                    <td className="py-2">{when(p.createdAt)}</td>
                    <td>{when(p.paidAt)}</td>
                    <td>{p.method}</td>
                    <td className="text-right">{dollars(p.amountCents)}</td>
                    <td className="text-right"><Badge variant={p.status === "paid" ? "green" : "yellow"}>{p.status}</Badge></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** /marketing-materials: banners in standard sizes and text links, each carrying the affiliate's code. */
export function MarketingMaterialsPage() {
  const { signedIn } = useRequireSignIn("/marketing-materials");
  const q = useAffiliate(signedIn);
  if (q.data === null || (q.data && q.data.status !== "approved")) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <PageMeta title="Marketing materials" description="Banners and links for Sitelens affiliates." noindex />
        <h1 className="text-3xl font-semibold">Marketing materials</h1>
        <p className="mt-4 text-muted-foreground">Banners and links carry your referral code, so they are here once your affiliate application is approved.</p>
        <Button asChild className="mt-6">
          <Link to={q.data ? "/affiliate-dashboard" : "/affiliate-signup"}>{q.data ? "Affiliate dashboard" : "Apply now"}</Link>
        </Button>
      </div>
    );
  }
  if (!q.data) return <Loading error={q.isError} />;
  const { referralLink } = q.data;
  const origin = new URL(referralLink).origin;
  const textLinks = [
    `<a href="${referralLink}">Free website analysis with Sitelens</a>`,
    `<a href="${referralLink}">Check your site's SEO, speed and design in 60 seconds</a>`,
  ];
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-10">
      <PageMeta title="Marketing materials" description="Banners and links for Sitelens affiliates." noindex />
      <div>
        <h1 className="text-3xl font-semibold">Marketing materials</h1>
        <p className="text-muted-foreground">Every snippet links with your code, so clicks and sign-ups count for you. You earn {terms.commissionPercent}% of their payments.</p>
      </div>
      <Card>
        <CardHeader><CardTitle as="h2">Text links</CardTitle></CardHeader>
        <CardContent className="grid gap-4">
          <CopyField label="Plain link" value={referralLink} />
          {textLinks.map((html, i) => (
            <CopyField key={html} label={`Text link ${i + 1} (HTML)`} value={html} />
          ))}
        </CardContent>
      </Card>
      {terms.banners.map((b) => {
        const src = `${origin}/api/affiliates/banners/${b.width}x${b.height}.svg`;
        const html = `<a href="${referralLink}"><img src="${src}" width="${b.width}" height="${b.height}" alt="Sitelens: website analysis in 60 seconds"></a>`;
        return (
          <Card key={`${b.width}x${b.height}`}>
            <CardHeader>
              <CardTitle as="h2">{b.name} · {b.width}×{b.height}</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              <div className="overflow-x-auto">
                <img src={`/api/affiliates/banners/${b.width}x${b.height}.svg`} width={b.width} height={b.height} alt={`${b.name} banner, ${b.width} by ${b.height}`} className="max-w-none" />
              </div>
              <CopyField label={`${b.name} HTML`} value={html} multiline />
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}
