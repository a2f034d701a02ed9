import { Link } from "react-router";
import { PageMeta } from "../../components/seo/page-meta";
import { routeMeta } from "../../lib/route-meta";
import { reportPages } from "../../lib/domain";

const faqs = [
  { q: "Is Sitelens free?", a: "Yes: you can run 3 basic analyses a day for free, no account needed. Professional reports cost one credit ($5), and credit packs and plans lower the price per report." },
  { q: "How long does an analysis take?", a: "Usually under a minute for a basic report. You can watch each step as it runs: URL validation, content extraction, screenshots, performance, SEO and the final report." },
  { q: "What does the basic report include?", a: "An overall score, scores for SEO, design and UX, technical structure and performance, the findings behind each score, screenshots and a prioritised action plan." },
  { q: "What does a professional report add?", a: `It analyses about ${reportPages("standard")} pages and adds backlink analysis, domain authority, internal link analysis, meta tag optimisation, header structure, robots.txt and sitemap.xml checks, and a PDF download.` },
  { q: "How is performance measured?", a: "We load your page in a real Chromium browser and record First Contentful Paint, Largest Contentful Paint, layout shift, blocking time and more. If a figure cannot be measured, the report marks it as an estimate." },
  { q: "Can I share a report?", a: "Yes. Every report has a private link you can copy or share to social networks and e-mail. Links use random identifiers, so reports cannot be guessed." },
  { q: "Do you store my website's data?", a: "We store the report and the address analysed so your link keeps working. See the Privacy Policy for details." },
  { q: "Can my agency brand the reports?", a: "Yes. Agency and Enterprise plans include white-label reports with your logo, colours and contact details." },
  { q: "Do credits expire?", a: "No. Credits never expire." },
];

/** /faq, with FAQPage structured data. */
export function FaqPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <PageMeta
        {...routeMeta("/faq")}
        structuredData={{
          "@context": "https://schema.org",
          "@type": "FAQPage",
          mainEntity: faqs.map((f) => ({ "@type": "Question", name: f.q, acceptedAnswer: { "@type": "Answer", text: f.a } })),
        }}
      />
      <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">Frequently asked questions</h1>
      <p className="mt-4 text-lg text-muted-foreground">Everything you need to know about Sitelens. Can't find your answer? <Link to="/contact" className="text-link underline underline-offset-4">Contact us</Link>.</p>
      <div className="mt-10 divide-y divide-border rounded-2xl border border-border bg-card">
        {faqs.map((f) => (
          <details key={f.q} className="group p-5">
            <summary className="cursor-pointer list-none text-lg font-semibold marker:hidden after:float-right after:content-['+'] group-open:after:content-['−']">{f.q}</summary>
            <p className="mt-3 text-muted-foreground">{f.a}</p>
          </details>
        ))}
      </div>
    </div>
  );
}
