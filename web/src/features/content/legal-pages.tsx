import { Link } from "react-router";
import { ProsePage } from "../../components/layout/prose-page";
import { limits } from "../../lib/domain";
import { routeMeta } from "../../lib/route-meta";

const updated = "Last updated: 22 November 2026";

/** /privacy */
export function PrivacyPage() {
  return (
    <ProsePage
      meta={routeMeta("/privacy")}
      title="Privacy Policy"
      lead={updated}
    >
      <p>Sitelens analyses public websites. We collect as little about you as we can, and we never sell personal data.</p>
      <h2>What we collect</h2>
      <ul>
        <li><strong>Addresses you analyse</strong> and the resulting reports, so you can open and share them later.</li>
        <li><strong>Your IP address</strong>, to apply the daily allowance of free analyses and to stop abuse.</li>
        <li><strong>Account details</strong> when you sign up: name, e-mail address and a securely hashed password.</li>
        <li><strong>Details you give us</strong> in the download form or the contact form: name, e-mail address and your message.</li>
        <li><strong>Payment records</strong> when you buy credits or a plan. Card details are handled by our payment processor and never reach our servers.</li>
      </ul>
      <h2>Why we use it</h2>
      <p>To run analyses and show reports, to deliver reports you ask for by e-mail, to apply allowances and credits, to answer your messages, and to keep the service secure. If you agreed to receive e-mails when downloading a report, we may send you website tips; every message has an unsubscribe link.</p>
      <h2>How long we keep it</h2>
      <p>Reports are kept so that share links keep working. Allowance records are kept for a few days. Account data is kept while your account exists and deleted on request.</p>
      <h2>Your rights</h2>
      <p>You can ask to see, correct, export or delete your personal data at any time through our <Link to="/contact">contact page</Link>. You may also complain to your data protection authority.</p>
      <h2>Cookies</h2>
      <p>See our <Link to="/cookies">Cookie Policy</Link>.</p>
    </ProsePage>
  );
}

/** /terms */
export function TermsPage() {
  return (
    <ProsePage
      meta={routeMeta("/terms")}
      title="Terms of Service"
      lead={updated}
    >
      <p>By using Sitelens you agree to these terms. If you use it for an organisation, you accept them on its behalf.</p>
      <h2>Using the service</h2>
      <ul>
        <li>Analyse only websites you own or have permission to audit, and do not use Sitelens to overload or attack any site.</li>
        <li>Free use is limited to 3 basic analyses a day per visitor. Automated use goes through the API and its rate limits.</li>
        <li>Reports are advice produced automatically. Check recommendations before you apply them to a live site.</li>
      </ul>
      <h2>Credits, plans and payments</h2>
      <ul>
        <li>Credits you buy never expire and are not refundable for cash, except as stated below.</li>
        <li>Subscriptions renew each month or year until cancelled; cancelling stops the next renewal.</li>
        <li>Professional reports come with a 30-day guarantee: if a report failed to deliver what was promised, contact us for a refund.</li>
      </ul>
      <h2>Your content</h2>
      <p>You keep the rights to your reports and branding. You let us store and process them to provide the service.</p>
      <h2>Liability</h2>
      <p>Sitelens is provided as is. We are not liable for indirect losses, or for changes you make to your website based on a report.</p>
      <h2>Contact</h2>
      <p>Questions about these terms? <Link to="/contact">Get in touch</Link>.</p>
    </ProsePage>
  );
}

/** /cookies */
export function CookiesPage() {
  return (
    <ProsePage
      meta={routeMeta("/cookies")}
      title="Cookie Policy"
      lead={updated}
    >
      <p>Sitelens uses only what it needs to work. We do not use advertising cookies or cross-site trackers.</p>
      <h2>Strictly necessary</h2>
      <ul>
        <li><strong>Session cookie</strong>: keeps you signed in. It is HttpOnly and expires when you sign out.</li>
        <li><strong>Security cookie</strong>: protects forms against cross-site request forgery.</li>
      </ul>
      <h2>Preferences stored in your browser</h2>
      <ul>
        <li><strong>{limits().themeStorageKey}</strong> (local storage): remembers whether you chose the light, dark or system theme.</li>
        <li><strong>upgradeUrl</strong> and <strong>selectedPackage</strong> (session storage): carry the site address and package to checkout when you upgrade a report; cleared when you close the tab.</li>
      </ul>
      <h2>Managing cookies</h2>
      <p>You can delete cookies and site data in your browser settings at any time. Blocking the necessary cookies stops sign-in from working.</p>
    </ProsePage>
  );
}
