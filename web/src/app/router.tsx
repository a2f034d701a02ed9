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
 * Routes of docs/PRODUCT.md §2.1 not built yet (checkout and payment, dashboard, blog, knowledge
 * base, API docs, affiliates and partners, resources, white-label, enterprise and agency
 * contact, admin, test pages). Until they exist they show the not-found page, never a placeholder.
 */
const notFound = (path: string) => page(path, pages.notFound, "NotFoundPage");

export const laterRoutes = [
  "/demo",
  "/enterprise",
  "/checkout",
  "/payment",
  "/payment-success",
  "/stripe-checkout",
  "/blog",
  "/blog/category/:category",
  "/blog/:slug",
  "/knowledge-base",
  "/knowledge-base/:category/:article",
  "/api-docs",
  "/affiliates",
  "/affiliate-dashboard",
  "/affiliate-signup",
  "/marketing-materials",
  "/partners",
  "/resources/guides",
  "/resources/tutorials",
  "/resources/tools",
  "/thank-you",
  "/white-label",
  "/enterprise-contact",
  "/agency-contact",
  "/admin",
  "/admin-dashboard",
  "/test-analysis",
  "/test-checkout",
  "/test-credit-checkout",
  "/test-checkout-flows",
  "/api-status",
];

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
          page("/sign-in", pages.auth, "SignInRedirectPage"),
          page("/sign-up", pages.auth, "SignUpRedirectPage"),
          page("/accounts/sign-in", pages.accounts, "SignInPage"),
          page("/accounts/sign-up", pages.accounts, "SignUpPage"),
          page("/accounts/forgot-password", pages.accounts, "ForgotPasswordPage"),
          page("/accounts/reset-password", pages.accounts, "ResetPasswordPage"),
          page("/accounts/verify", pages.accounts, "VerifyEmailPage"),
          page("/accounts/join", pages.accounts, "JoinTeamPage"),
          page("/accounts/settings", pages.accounts, "AccountSettingsPage"),
          page("/dashboard", pages.dashboard, "DashboardPage"),
          ...laterRoutes.map((path) => notFound(path)),
          notFound("*"),
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
