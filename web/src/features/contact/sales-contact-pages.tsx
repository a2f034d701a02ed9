import type { ReactNode } from "react";
import { Building2, Clock, Handshake, Layers, ShieldCheck, Users } from "lucide-react";
import { PageMeta } from "../../components/seo/page-meta";
import { ServerPage } from "../server-page/server-page";
import {
  contactChoices,
  validateAgencyContact,
  validateEnterpriseContact,
  validatePartnerEnquiry,
  type AgencyContactForm,
  type EnterpriseContactForm,
  type PartnerEnquiryForm,
} from "../../lib/domain";
import { routeMeta } from "../../lib/route-meta";
import { SalesForm, type FieldSpec } from "./sales-form";

const choices = contactChoices();

const enterpriseFields: FieldSpec<EnterpriseContactForm>[] = [
  { name: "name", label: "Name", autoComplete: "name" },
  { name: "email", label: "Work email", type: "email", autoComplete: "email" },
  { name: "company", label: "Company", autoComplete: "organization" },
  { name: "jobTitle", label: "Job title", optional: true, autoComplete: "organization-title" },
  { name: "companySize", label: "Company size", type: "select", options: choices.companySizes },
  { name: "monthlyReports", label: "Expected reports a month", type: "select", options: choices.monthlyReports },
  { name: "phone", label: "Phone", type: "tel", optional: true, autoComplete: "tel" },
  { name: "message", label: "What do you need?", type: "textarea" },
];

const agencyFields: FieldSpec<AgencyContactForm>[] = [
  { name: "name", label: "Name", autoComplete: "name" },
  { name: "email", label: "Email", type: "email", autoComplete: "email" },
  { name: "agency", label: "Agency name", autoComplete: "organization" },
  { name: "clients", label: "Number of clients", type: "select", options: choices.agencyClients },
  { name: "website", label: "Agency website", type: "url", optional: true, autoComplete: "url", wide: true },
  { name: "message", label: "How would you use Sitelens?", type: "textarea" },
];

const partnerFields: FieldSpec<PartnerEnquiryForm>[] = [
  { name: "name", label: "Name", autoComplete: "name" },
  { name: "email", label: "Email", type: "email", autoComplete: "email" },
  { name: "company", label: "Company", autoComplete: "organization" },
  { name: "partnership", label: "Kind of partnership", type: "select", options: choices.partnerships },
  { name: "website", label: "Company website", type: "url", optional: true, autoComplete: "url", wide: true },
  { name: "message", label: "What would you build with Sitelens?", type: "textarea" },
];

/** The two-column layout of the contact pages: the pitch on the left, the form in a card. */
function ContactLayout({ title, intro, points, children }: { title: string; intro: string; points: { icon: ReactNode; text: ReactNode }[]; children: ReactNode }) {
  return (
    <div className="mx-auto grid max-w-6xl gap-12 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[1fr_1.3fr]">
      <div>
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">{title}</h1>
        <p className="mt-4 text-lg text-muted-foreground">{intro}</p>
        <ul className="mt-8 space-y-4">
          {points.map((p, i) => (
            <li key={i} className="flex gap-3">
              {p.icon}
              <span>{p.text}</span>
            </li>
          ))}
        </ul>
      </div>
      <div className="rounded-2xl border border-border bg-card p-6 shadow-sm sm:p-8">{children}</div>
    </div>
  );
}

const icon = "size-5 shrink-0 text-link";

/** /enterprise-contact: the enterprise sales form. */
export function EnterpriseContactPage() {
  return (
    <>
      <PageMeta {...routeMeta("/enterprise-contact")} />
      <ContactLayout
        title="Talk to us about Enterprise"
        intro="Tell us how many sites you audit and how your team works. We reply within one working day with pricing and a set-up that fits."
        points={[
          { icon: <Building2 className={icon} aria-hidden="true" />, text: <><strong>Unlimited reports and seats</strong> for large teams.</> },
          { icon: <ShieldCheck className={icon} aria-hidden="true" />, text: <><strong>Self-hosted</strong> on your servers with PostgreSQL and S3, if you need it.</> },
          { icon: <Clock className={icon} aria-hidden="true" />, text: <><strong>Priority support</strong> from the people who build Sitelens.</> },
        ]}
      >
        <SalesForm
          kind="enterprise"
          initial={{ name: "", email: "", company: "", jobTitle: "", companySize: "", monthlyReports: "", phone: "", message: "" }}
          fields={enterpriseFields}
          validate={validateEnterpriseContact}
          submitLabel="Contact sales"
        />
      </ContactLayout>
    </>
  );
}

/** /agency-contact: the agency sales form. */
export function AgencyContactPage() {
  return (
    <>
      <PageMeta {...routeMeta("/agency-contact")} />
      <ContactLayout
        title="Sitelens for agencies"
        intro="White-label premium reports, team seats and credits for every client. Tell us about your agency and we reply within one working day."
        points={[
          { icon: <Layers className={icon} aria-hidden="true" />, text: <><strong>White-label reports</strong> without the Sitelens watermark.</> },
          { icon: <Users className={icon} aria-hidden="true" />, text: <><strong>Team seats</strong> so your whole team works from one account.</> },
          { icon: <Handshake className={icon} aria-hidden="true" />, text: <><strong>Volume pricing</strong> that grows with your client list.</> },
        ]}
      >
        <SalesForm
          kind="agency"
          initial={{ name: "", email: "", agency: "", clients: "", website: "", message: "" }}
          fields={agencyFields}
          validate={validateAgencyContact}
          submitLabel="Send to our agency team"
        />
      </ContactLayout>
    </>
  );
}

/** The partner enquiry form, placed under the "Talk to us" section of /partners. */
export function PartnerEnquiry() {
  return (
    <section aria-labelledby="partner-form-title" className="not-prose mx-auto my-8 max-w-3xl rounded-2xl border border-border bg-card p-6 shadow-sm sm:p-8">
      <h3 id="partner-form-title" className="mb-5 text-xl font-bold">Partner enquiry</h3>
      <SalesForm
        kind="partner"
        initial={{ name: "", email: "", company: "", partnership: "", website: "", message: "" }}
        fields={partnerFields}
        validate={validatePartnerEnquiry}
        submitLabel="Send enquiry"
      />
    </section>
  );
}

/** /partners: the partner programme, which the server renders from content/pages/partners.md, with its form. */
export function PartnersPage() {
  return <ServerPage slot={{ anchor: "talk-to-us", node: <PartnerEnquiry /> }} />;
}
