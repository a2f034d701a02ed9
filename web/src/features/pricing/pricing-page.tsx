import { useState } from "react";
import { Link } from "react-router";
import { Building2, Check, Clock, Code2, FileText, Minus } from "lucide-react";
import { creditPacks, formatDollars, limits, packageCheckoutPath, planCheckoutPath, plans, reportPages, reportTypes } from "../../lib/domain";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Switch } from "../../components/ui/switch";
import { PageMeta, organization } from "../../components/seo/page-meta";
import { cn } from "../../lib/cn";
import { PricingCalculator } from "../../components/pricing-calculator";
import { routeMeta } from "../../lib/route-meta";

const faqs = [
  {
    q: "What is a credit?",
    a: `A credit pays for reports: a basic report costs half a credit, a standard report (about ${reportPages("standard")} pages) one credit, and a premium report (${reportPages("premium")} pages, white-label, no watermark) two credits.`,
  },
  { q: "Do credits expire?", a: "No. Credits you buy never expire, so you can buy a larger pack at a lower price and use it at your own pace." },
  {
    q: "Is there a free option?",
    a: "Yes. Everyone gets 3 free basic analyses a day, and a first-time signed-in user gets 1 free credit to try a professional report, valid for 7 days.",
  },
  {
    q: "What does annual billing save?",
    a: "Paying yearly costs ten monthly payments: you get 2 months free on the Business, Agency and Enterprise plans.",
  },
  { q: "Can I add team members?", a: "Business includes 3 seats and Agency 5; extra seats cost $20 and $30 a month respectively. Enterprise has unlimited seats." },
  { q: "Can I cancel a subscription?", a: "Yes, at any time. Your plan stays active until the end of the period you paid for." },
];

const pricingData = {
  "@context": "https://schema.org",
  "@type": "Product",
  name: "Sitelens website analysis",
  brand: organization,
  offers: creditPacks().map((p) => ({ "@type": "Offer", name: p.name, price: (p.price / 100).toFixed(2), priceCurrency: "USD" })),
};

function Packs() {
  return (
    <section aria-labelledby="packs-title" className="space-y-6">
      <div>
        <h2 id="packs-title" className="text-2xl font-bold tracking-tight sm:text-3xl">Credit packs</h2>
        <p className="mt-2 text-muted-foreground">Pay once, use whenever you like. Credits never expire.</p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {creditPacks().map((p) => (
          <li key={p.packageId}>
            <Card className={cn("flex h-full flex-col", p.packageId === "credit-20" && "border-primary ring-1 ring-primary")}>
              <CardHeader>
                <div className="flex items-center justify-between gap-2">
                  <CardTitle>{p.name}</CardTitle>
                  {p.discountPercent > 0 && <Badge variant="green">Save {p.discountPercent}%</Badge>}
                </div>
                <p className="mt-2">
                  <span className="text-3xl font-bold">{formatDollars(p.price)}</span>
                  <span className="text-muted-foreground"> · {p.credits} {p.credits === 1 ? "credit" : "credits"}</span>
                </p>
                <CardDescription>
                  {formatDollars(Math.round(p.pricePerCredit * 100))} per credit{p.savings ? ` · ${p.savings}` : ""}
                </CardDescription>
              </CardHeader>
              <CardContent className="flex flex-1 flex-col">
                <ul className="flex-1 space-y-2 text-sm">
                  {p.features.map((f) => (
                    <li key={f} className="flex gap-2"><Check className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />{f}</li>
                  ))}
                </ul>
                <Button asChild className="mt-6 w-full" variant={p.packageId === "credit-20" ? "default" : "outline"}>
                  <Link to={packageCheckoutPath(p.packageId)}>Buy credits<span className="sr-only">: {p.name}</span></Link>
                </Button>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Plans() {
  const [annual, setAnnual] = useState(false);
  return (
    <section aria-labelledby="plans-title" className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="plans-title" className="text-2xl font-bold tracking-tight sm:text-3xl">Subscription plans</h2>
          <p className="mt-2 text-muted-foreground">Monthly credits for teams and agencies that audit every week.</p>
        </div>
        <div className="flex items-center gap-3">
          <label htmlFor="annual" className="text-sm font-medium">Annual billing</label>
          <Switch id="annual" checked={annual} onCheckedChange={setAnnual} />
          <Badge variant="green">2 Months Free</Badge>
        </div>
      </div>
      <ul className="grid gap-4 lg:grid-cols-3">
        {plans().map((p) => (
          <li key={p.id}>
            <Card className={cn("flex h-full flex-col", p.id === "agency-plan" && "border-primary ring-1 ring-primary")}>
              <CardHeader>
                <div className="flex items-center justify-between">
                  <CardTitle>{p.name}</CardTitle>
                  {p.id === "agency-plan" && <Badge>Most popular</Badge>}
                </div>
                <p className="mt-2" aria-live="polite">
                  <span className="text-4xl font-bold">{formatDollars(annual ? p.yearlyPrice : p.monthlyPrice)}</span>
                  <span className="text-muted-foreground">{annual ? " / year" : " / month"}</span>
                </p>
                <CardDescription>
                  {p.credits ? `${p.credits} credits a month` : "Unlimited credits"}
                  {p.credits && (annual ? p.perCreditYearly : p.perCreditMonthly) !== undefined
                    ? ` · ${formatDollars(Math.round((annual ? p.perCreditYearly! : p.perCreditMonthly!) * 100))} per credit`
                    : ""}
                </CardDescription>
              </CardHeader>
              <CardContent className="flex flex-1 flex-col">
                <ul className="flex-1 space-y-2 text-sm">
                  <li className="flex gap-2"><Check className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />{p.teamMembers ? `${p.teamMembers} team seats` : "Unlimited team seats"}</li>
                  {p.additionalSeatPrice !== undefined && (
                    <li className="flex gap-2"><Check className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />Extra seats {formatDollars(p.additionalSeatPrice)} a month</li>
                  )}
                  <li className="flex gap-2"><Check className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />PDF reports and share links</li>
                  {p.id !== "business-plan" && <li className="flex gap-2"><Check className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />White-label reports</li>}
                </ul>
                <Button asChild className="mt-6 w-full" variant={p.id === "agency-plan" ? "default" : "outline"}>
                  <Link to={planCheckoutPath(p.id, annual ? "yearly" : "monthly", 0)}>Choose {p.name}</Link>
                </Button>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Comparison() {
  const types = reportTypes();
  const rows: { label: string; cell: (t: (typeof types)[number]) => React.ReactNode }[] = [
    { label: "Credits per report", cell: (t) => String(t.credits) },
    { label: "Pages analysed", cell: (t) => String(t.pages) },
    { label: "White-label branding", cell: (t) => (t.whiteLabel ? <Check className="mx-auto size-5 text-emerald-600" aria-label="Yes" /> : <Minus className="mx-auto size-5 text-muted-foreground" aria-label="No" />) },
    { label: "No watermark", cell: (t) => (!t.watermarked ? <Check className="mx-auto size-5 text-emerald-600" aria-label="Yes" /> : <Minus className="mx-auto size-5 text-muted-foreground" aria-label="No" />) },
  ];
  return (
    <section aria-labelledby="compare-title" className="space-y-6">
      <h2 id="compare-title" className="text-2xl font-bold tracking-tight sm:text-3xl">Compare report types</h2>
      <div className="overflow-x-auto rounded-2xl border border-border">
        <table className="w-full min-w-[32rem] text-sm">
          <thead className="bg-muted">
            <tr>
              <th scope="col" className="px-4 py-3 text-left font-semibold">Feature</th>
              {types.map((t) => <th key={t.reportType} scope="col" className="px-4 py-3 text-center font-semibold">{t.name}</th>)}
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {rows.map((r) => (
              <tr key={r.label}>
                <th scope="row" className="px-4 py-3 text-left font-medium">{r.label}</th>
                {types.map((t) => <td key={t.reportType} className="px-4 py-3 text-center">{r.cell(t)}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** /pricing: calculator, packs, plans, enterprise, comparison, FAQ, API pricing and social proof. */
export function PricingPage() {
  const lim = limits();
  return (
    <div className="mx-auto max-w-7xl space-y-20 px-4 py-12 sm:px-6 sm:py-16">
      <PageMeta
        {...routeMeta("/pricing")}
        structuredData={pricingData}
      />
      <header className="mx-auto max-w-3xl text-center">
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">Pricing that scales with your audits</h1>
        <p className="mt-4 text-lg text-muted-foreground">Start free with 3 basic reports a day. Buy credits when you need a professional report, or subscribe when audits are part of your week.</p>
        <ul className="mt-8 flex flex-wrap justify-center gap-4">
          <li className="flex items-center gap-3 rounded-2xl border border-border bg-card px-5 py-3 text-left">
            <FileText className="size-6 text-link" aria-hidden="true" />
            <p><span className="block text-xl font-bold">{lim.socialProofReports}</span><span className="text-sm text-muted-foreground">reports delivered</span></p>
          </li>
          <li className="flex items-center gap-3 rounded-2xl border border-border bg-card px-5 py-3 text-left">
            <Clock className="size-6 text-link" aria-hidden="true" />
            <p><span className="block text-xl font-bold">{lim.socialProofHours}</span><span className="text-sm text-muted-foreground">hours saved</span></p>
          </li>
        </ul>
      </header>
      <PricingCalculator />
      <Packs />
      <Plans />
      <section aria-labelledby="enterprise-title" className="flex flex-col items-start gap-6 rounded-3xl bg-slate-900 p-8 text-white sm:p-10 lg:flex-row lg:items-center lg:justify-between dark:bg-slate-800">
        <div className="flex gap-4">
          <Building2 className="size-10 shrink-0 text-indigo-300" aria-hidden="true" />
          <div>
            <h2 id="enterprise-title" className="text-2xl font-bold">Auditing hundreds of sites?</h2>
            <p className="mt-2 max-w-2xl text-slate-300">Enterprise gives unlimited credits and seats, white-label reports on your own domain, and a self-hosted option with priority support.</p>
          </div>
        </div>
        <Button asChild variant="hero" size="lg" className="h-auto min-h-12 py-3 whitespace-normal text-center"><Link to="/enterprise-contact">Talk to us about Enterprise</Link></Button>
      </section>
      <Comparison />
      <section aria-labelledby="api-title" className="grid gap-6 rounded-3xl border border-border bg-card p-8 sm:p-10 lg:grid-cols-[1fr_auto] lg:items-center">
        <div className="flex gap-4">
          <Code2 className="size-10 shrink-0 text-link" aria-hidden="true" />
          <div>
            <h2 id="api-title" className="text-2xl font-bold">API pricing</h2>
            <p className="mt-2 max-w-2xl text-muted-foreground">
              Run audits from your own tools. API reports use the same credits as the web app, at the same price, and every account starts with a rate limit of {lim.apiRateLimit} requests.
            </p>
          </div>
        </div>
        <Button asChild variant="outline" className="h-auto min-h-10 py-2 whitespace-normal text-center"><Link to="/api-docs">Read the API documentation</Link></Button>
      </section>
      <section aria-labelledby="faq-title" className="mx-auto max-w-3xl space-y-6">
        <h2 id="faq-title" className="text-center text-2xl font-bold tracking-tight sm:text-3xl">Pricing questions</h2>
        <div className="divide-y divide-border rounded-2xl border border-border bg-card">
          {faqs.map((f) => (
            <details key={f.q} className="group p-5">
              <summary className="cursor-pointer list-none font-semibold marker:hidden after:float-right after:content-['+'] group-open:after:content-['−']">{f.q}</summary>
              <p className="mt-3 text-muted-foreground">{f.a}</p>
            </details>
          ))}
        </div>
        <p className="text-center text-sm text-muted-foreground">
          More questions? Read our <Link to="/features" className="text-link underline underline-offset-4">features</Link> or <Link to="/enterprise-contact" className="text-link underline underline-offset-4">contact sales</Link>.
        </p>
      </section>
    </div>
  );
}
