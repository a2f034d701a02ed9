import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { RootLayout, RouteError } from "./layouts";
import { HomePage } from "../features/home/home-page";
import { pages } from "./pages";

type Module = Record<string, ComponentType>;

/** A lazily loaded page: the router fetches its chunk before it switches, so nothing jumps. */
function page(path: string, load: () => Promise<object>, name: string): RouteObject {
  return { path, lazy: async () => ({ Component: ((await load()) as Module)[name] }) };
}

/**
 * Pages the server renders from `content/` (docs/ARCHITECTURE.md §7): the app shows the body the
 * server sent, and fetches it from the server on in-app navigation.
 */
export const contentRoutes = [
  "/blog",
  "/blog/category/:category",
  "/blog/:slug",
  "/knowledge-base",
  "/knowledge-base/:category/:article",
  "/resources/guides",
  "/resources/tutorials",
  "/affiliates",
  "/enterprise",
  "/test-analysis",
];

/** The not-found page at `path`; the server answers these paths with HTTP 404. */
const notFound = (path: string) => page(path, pages.notFound, "NotFoundPage");

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      // The home route has no shared header or footer (docs/PRODUCT.md §2.1).
      { path: "/", element: <HomePage /> },
      { path: "/home", element: <HomePage /> },
      {
        // The header, footer and every other page load after the home page's first paint.
        lazy: async () => ({ Component: (await pages.siteLayout()).SiteLayout }),
        children: [
          page("/analyzing", pages.analyzing, "AnalyzingPage"),
          page("/results", pages.results, "ResultsPage"),
          page("/results/:id", pages.results, "ResultsPage"),
          page("/pricing", pages.pricing, "PricingPage"),
          page("/features", pages.features, "FeaturesPage"),
          page("/about", pages.about, "AboutPage"),
          page("/faq", pages.faq, "FaqPage"),
          page("/coming-soon", pages.comingSoon, "ComingSoonPage"),
          page("/privacy", pages.legal, "PrivacyPage"),
          page("/terms", pages.legal, "TermsPage"),
          page("/cookies", pages.legal, "CookiesPage"),
          page("/contact", pages.contact, "ContactPage"),
          page("/enterprise-contact", pages.salesContact, "EnterpriseContactPage"),
          page("/agency-contact", pages.salesContact, "AgencyContactPage"),
          page("/partners", pages.salesContact, "PartnersPage"),
          page("/sign-in", pages.auth, "SignInRedirectPage"),
          page("/sign-up", pages.auth, "SignUpRedirectPage"),
          ...contentRoutes.map((path) => page(path, pages.serverPage, "ServerPage")),
          // A content page with the branding settings of the signed-in account.
          page("/white-label", pages.whiteLabel, "WhiteLabelPage"),
          page("/api-docs", pages.apiDocs, "ApiDocsPage"),
          page("/api-status", pages.apiStatus, "ApiStatusPage"),
          page("/resources/tools", pages.tools, "ToolsPage"),
          page("/accounts/sign-in", pages.accounts, "SignInPage"),
          page("/accounts/sign-up", pages.accounts, "SignUpPage"),
          page("/accounts/forgot-password", pages.accounts, "ForgotPasswordPage"),
          page("/accounts/reset-password", pages.accounts, "ResetPasswordPage"),
          page("/accounts/verify", pages.accounts, "VerifyEmailPage"),
          page("/accounts/join", pages.accounts, "JoinTeamPage"),
          page("/accounts/settings", pages.accounts, "AccountSettingsPage"),
          page("/dashboard", pages.dashboard, "DashboardPage"),
          page("/demo", pages.demo, "DemoPage"),
          page("/stripe-checkout", pages.checkout, "StripeCheckoutPage"),
          page("/checkout", pages.checkout, "StripeCheckoutPage"),
          page("/test-checkout", pages.checkout, "TestCheckoutPage"),
          page("/test-credit-checkout", pages.checkout, "TestCheckoutPage"),
          page("/test-checkout-flows", pages.checkout, "TestCheckoutFlowsPage"),
          page("/payment", pages.checkout, "PaymentPage"),
          page("/payment-success", pages.checkout, "PaymentSuccessPage"),
          page("/thank-you", pages.checkout, "ThankYouPage"),
          page("/affiliate-signup", pages.affiliates, "AffiliateSignupPage"),
          page("/affiliate-dashboard", pages.affiliates, "AffiliateDashboardPage"),
          page("/marketing-materials", pages.affiliates, "MarketingMaterialsPage"),
          page("/admin", pages.admin, "AdminPage"),
          page("/admin-dashboard", pages.admin, "AdminDashboardPage"),
          notFound("*"),
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
