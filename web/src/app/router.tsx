import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { RootLayout, RouteError } from "./layouts";
import { HomePage } from "../features/home/home-page";

type Module = Record<string, ComponentType>;

/** A lazily loaded page: the router fetches its chunk before it switches, so nothing jumps. */
function page(path: string, load: () => Promise<Module>, name: string): RouteObject {
  return { path, lazy: async () => ({ Component: (await load())[name] }) };
}

/**
 * Routes of SPEC.md §2 built by later issues (checkout and payment, dashboard, blog, knowledge
 * base, API docs, affiliates and partners, resources, white-label, enterprise and agency
 * contact, admin, test pages). Until they exist they show the not-found page, never a placeholder.
 */
const notFound = (path: string) => page(path, () => import("../features/not-found/not-found-page"), "NotFoundPage");

export const laterRoutes = [
  "/demo",
  "/enterprise",
  "/checkout",
  "/payment",
  "/payment-success",
  "/stripe-checkout",
  "/dashboard",
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
      // The home route has no shared header or footer (SPEC.md §2).
      { path: "/", element: <HomePage /> },
      { path: "/home", element: <HomePage /> },
      {
        // The header, footer and every other page load after the home page's first paint.
        lazy: async () => ({ Component: (await import("./site-layout")).SiteLayout }),
        children: [
          page("/analyzing", () => import("../features/analyzing/analyzing-page"), "AnalyzingPage"),
          page("/results", () => import("../features/results/results-page"), "ResultsPage"),
          page("/results/:id", () => import("../features/results/results-page"), "ResultsPage"),
          page("/pricing", () => import("../features/pricing/pricing-page"), "PricingPage"),
          page("/features", () => import("../features/content/features-page"), "FeaturesPage"),
          page("/about", () => import("../features/content/about-page"), "AboutPage"),
          page("/faq", () => import("../features/content/faq-page"), "FaqPage"),
          page("/coming-soon", () => import("../features/content/coming-soon-page"), "ComingSoonPage"),
          page("/privacy", () => import("../features/content/legal-pages"), "PrivacyPage"),
          page("/terms", () => import("../features/content/legal-pages"), "TermsPage"),
          page("/cookies", () => import("../features/content/legal-pages"), "CookiesPage"),
          page("/contact", () => import("../features/content/contact-page"), "ContactPage"),
          page("/sign-in", () => import("../features/auth/redirect-page"), "SignInRedirectPage"),
          page("/sign-up", () => import("../features/auth/redirect-page"), "SignUpRedirectPage"),
          ...laterRoutes.map((path) => notFound(path)),
          notFound("*"),
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
