import { Link } from "react-router";
import { ProsePage } from "../../components/layout/prose-page";
import { organization } from "../../components/seo/page-meta";
import { routeMeta } from "../../lib/route-meta";

/** /about */
export function AboutPage() {
  return (
    <ProsePage
      meta={{
        ...routeMeta("/about"),
        structuredData: { "@context": "https://schema.org", ...organization, url: typeof window === "undefined" ? undefined : window.location.origin },
      }}
      title="About Sitelens"
      lead="We built Sitelens because website audits should be fast, honest and understandable by the people who have to act on them."
    >
      <h2>What we do</h2>
      <p>Sitelens analyses a website the way a visitor, a search engine and a performance engineer would, all at once. In about a minute you get scores for SEO, design and UX, technical structure and performance, and an action plan ordered by impact.</p>
      <h2>How we work</h2>
      <ul>
        <li><strong>Measured, not guessed.</strong> Performance figures come from loading your page in a real browser. When something cannot be measured, the report says so and marks the figure as an estimate.</li>
        <li><strong>Advice you can act on.</strong> Every finding says what we saw, why it matters and how to fix it.</li>
        <li><strong>Safe by design.</strong> The analyzer only fetches public addresses and respects robots.txt when it crawls.</li>
        <li><strong>Yours to run.</strong> Sitelens is self-hostable: one program and a database, on your own server if you prefer.</li>
      </ul>
      <h2>Who it is for</h2>
      <p>Site owners who want to know what to fix first, marketers who report to clients, and agencies who audit dozens of sites a month and want reports with their own brand.</p>
      <h2>Talk to us</h2>
      <p>Questions, partnerships or feedback: use our <Link to="/contact">contact form</Link>. Ready to try it? <Link to="/">Analyse your website for free</Link>.</p>
    </ProsePage>
  );
}
