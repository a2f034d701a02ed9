import { Link, useNavigate } from "react-router";
import { ArrowLeft, Home } from "lucide-react";
import { Button } from "../../components/ui/button";
import { PageMeta } from "../../components/seo/page-meta";

const links = [
  { to: "/", label: "Home" },
  { to: "/pricing", label: "Pricing" },
  // docs/PRODUCT.md §2.9 names /analyze; the address form lives on the home page, so the link goes there.
  { to: "/#analyze", label: "Free Analysis" },
  { to: "/contact", label: "Contact Support" },
];

/** The not-found page; the server answers these paths with HTTP 404. */
export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-2xl flex-col items-center justify-center px-4 py-16 text-center">
      <PageMeta title="Page not found" description="The page you were looking for does not exist." noindex />
      <p className="bg-gradient-to-r from-indigo-600 to-violet-600 bg-clip-text text-7xl font-extrabold text-transparent sm:text-8xl dark:from-blue-400 dark:to-violet-400" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">Oops! Page Not Found</h1>
      <p className="mt-3 text-muted-foreground">
        <span className="sr-only">Error 404. </span>The page you are looking for may have moved, or never existed. Here are some helpful places instead.
      </p>
      <nav aria-label="Helpful links" className="mt-6">
        <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm font-medium">
          {links.map((l) => (
            <li key={l.label}>
              <Link to={l.to} className="text-link underline-offset-4 hover:underline">
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to="/">
            <Home aria-hidden="true" /> Return to Homepage
          </Link>
        </Button>
        <Button variant="outline" onClick={() => navigate(-1)}>
          <ArrowLeft aria-hidden="true" /> Go Back
        </Button>
      </div>
    </div>
  );
}
