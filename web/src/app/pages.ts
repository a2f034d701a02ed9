/**
 * The lazily loaded chunks, in one place: the router loads them on navigation, and main.tsx
 * starts the one a first visit needs alongside the app, instead of after it.
 */
export const pages = {
  siteLayout: () => import("./site-layout"),
  analyzing: () => import("../features/analyzing/analyzing-page"),
  results: () => import("../features/results/results-page"),
  pricing: () => import("../features/pricing/pricing-page"),
  features: () => import("../features/content/features-page"),
  about: () => import("../features/content/about-page"),
  faq: () => import("../features/content/faq-page"),
  comingSoon: () => import("../features/content/coming-soon-page"),
  legal: () => import("../features/content/legal-pages"),
  contact: () => import("../features/content/contact-page"),
  salesContact: () => import("../features/contact/sales-contact-pages"),
  auth: () => import("../features/auth/redirect-page"),
  accounts: () => import("../features/auth/account-pages"),
  dashboard: () => import("../features/dashboard/dashboard-page"),
  checkout: () => import("../features/checkout/checkout-pages"),
  notFound: () => import("../features/not-found/not-found-page"),
  serverPage: () => import("../features/server-page/server-page"),
  tools: () => import("../features/tools/tools-page"),
  demo: () => import("../features/demo/demo-page"),
  apiDocs: () => import("../features/api-docs/api-docs-page"),
  apiStatus: () => import("../features/api-status/api-status-page"),
  admin: () => import("../features/admin/admin-page"),
  affiliates: () => import("../features/affiliates/affiliate-pages"),
  whiteLabel: () => import("../features/white-label/white-label-page"),
};

const byFirstSegment: Record<string, () => Promise<unknown>> = {
  analyzing: pages.analyzing,
  results: pages.results,
  pricing: pages.pricing,
  features: pages.features,
  about: pages.about,
  faq: pages.faq,
  "coming-soon": pages.comingSoon,
  privacy: pages.legal,
  terms: pages.legal,
  cookies: pages.legal,
  contact: pages.contact,
  "sign-in": pages.auth,
  "sign-up": pages.auth,
  blog: pages.serverPage,
  "knowledge-base": pages.serverPage,
  "api-docs": pages.apiDocs,
  "api-status": pages.apiStatus,
  affiliates: pages.serverPage,
  "affiliate-signup": pages.affiliates,
  "affiliate-dashboard": pages.affiliates,
  "marketing-materials": pages.affiliates,
  partners: pages.salesContact,
  "enterprise-contact": pages.salesContact,
  "agency-contact": pages.salesContact,
  enterprise: pages.serverPage,
  "white-label": pages.whiteLabel,
  "test-analysis": pages.serverPage,
  resources: pages.serverPage,
  accounts: pages.accounts,
  dashboard: pages.dashboard,
  demo: pages.demo,
  "stripe-checkout": pages.checkout,
  checkout: pages.checkout,
  "test-checkout": pages.checkout,
  "test-credit-checkout": pages.checkout,
  "test-checkout-flows": pages.checkout,
  payment: pages.checkout,
  "payment-success": pages.checkout,
  "thank-you": pages.checkout,
  admin: pages.admin,
  "admin-dashboard": pages.admin,
};

/** The chunk of the page at `pathname` (the home page's is part of the app). */
export function pageChunk(pathname: string): Promise<unknown> {
  if (pathname.startsWith("/resources/tools")) return pages.tools();
  const first = pathname.split("/")[1] ?? "";
  return (byFirstSegment[first] ?? pages.notFound)();
}

/**
 * Starts loading what the page at `pathname` needs besides the app itself; resolves when the
 * layout and the page's chunk are there (rejects when one failed to load).
 */
export function preloadFor(pathname: string): Promise<unknown> {
  if (pathname === "/" || pathname === "/home") return Promise.resolve();
  const loading = Promise.all([pages.siteLayout(), pageChunk(pathname)]);
  loading.catch(() => undefined);
  return loading;
}
