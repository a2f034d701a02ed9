import { lazy, Suspense, useState } from "react";
import { Link, NavLink } from "react-router";
import { Menu } from "lucide-react";
import { Button } from "../ui/button";
import { Dialog, DialogDescription, DialogTitle, DialogTrigger, SheetContent } from "../ui/dialog";
import { Logo } from "./logo";
import { ThemeToggle } from "./theme-toggle";
import { cn } from "../../lib/cn";
import { useSession, useSignOut } from "../../lib/session";
import { useNavigate } from "react-router";

const nav = [
  { to: "/features", label: "Features" },
  { to: "/pricing", label: "Pricing" },
  { to: "/about", label: "About" },
  { to: "/faq", label: "FAQ" },
];

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-lg px-3 py-2 text-sm font-medium transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
    isActive ? "bg-muted text-foreground" : "text-muted-foreground",
  );

/**
 * The signed-in user's credits, loaded only once someone is signed in: it asks the domain rules
 * (WebAssembly) to write the number, which a signed-out page (and the build-time shell) does not
 * need to load.
 */
const CreditsLink = lazy(() => import("./credits-link").then((m) => ({ default: m.CreditsLink })));

/** Shared header: logo, the four links with the current route highlighted, sign-in actions; a right-side menu below md. */
export function Header() {
  const { signedIn, account } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  // Signing out closes the menu (docs/PRODUCT.md §2.2) and returns home.
  // A signed-in-only page still on screen while home's route loads leaves the way to the sign-out
  // (useRequireSignIn), so the two need no ordering.
  const onSignOut = () => {
    setOpen(false);
    signOut.mutate();
    void navigate("/");
  };
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {nav.map((n) => (
            <NavLink key={n.to} to={n.to} className={linkClass}>
              {n.label}
            </NavLink>
          ))}
        </nav>
        <div className="flex items-center gap-1 sm:gap-2">
          <ThemeToggle />
          <div className="hidden items-center gap-2 md:flex">
            {signedIn ? (
              <>
                {account && (
                  <Suspense fallback={null}>
                    <CreditsLink account={account} />
                  </Suspense>
                )}
                <Button variant="ghost" onClick={onSignOut}>
                  Sign Out
                </Button>
                <Button asChild>
                  <Link to="/dashboard">Dashboard</Link>
                </Button>
              </>
            ) : (
              <>
                <Button asChild variant="ghost">
                  <Link to="/sign-in">Sign In</Link>
                </Button>
                <Button asChild>
                  <Link to="/sign-up">Get Started</Link>
                </Button>
              </>
            )}
          </div>
          <Dialog open={open} onOpenChange={setOpen}>
            <DialogTrigger asChild>
              <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
                <Menu className="size-6" aria-hidden="true" />
              </Button>
            </DialogTrigger>
            <SheetContent aria-describedby={undefined}>
              <DialogTitle className="text-lg font-semibold">Menu</DialogTitle>
              <DialogDescription className="sr-only">Site navigation</DialogDescription>
              <nav aria-label="Mobile" className="flex flex-col gap-1">
                {nav.map((n) => (
                  <NavLink key={n.to} to={n.to} className={linkClass} onClick={() => setOpen(false)}>
                    {n.label}
                  </NavLink>
                ))}
              </nav>
              <div className="mt-auto flex flex-col gap-2">
                {signedIn ? (
                  <>
                    {account && (
                      <Suspense fallback={null}>
                        <CreditsLink account={account} onClick={() => setOpen(false)} />
                      </Suspense>
                    )}
                    <Button asChild>
                      <Link to="/dashboard" onClick={() => setOpen(false)}>
                        Dashboard
                      </Link>
                    </Button>
                    <Button variant="outline" onClick={onSignOut}>
                      Sign Out
                    </Button>
                  </>
                ) : (
                  <>
                    <Button asChild variant="outline">
                      <Link to="/sign-in" onClick={() => setOpen(false)}>
                        Sign In
                      </Link>
                    </Button>
                    <Button asChild>
                      <Link to="/sign-up" onClick={() => setOpen(false)}>
                        Get Started
                      </Link>
                    </Button>
                  </>
                )}
              </div>
            </SheetContent>
          </Dialog>
        </div>
      </div>
    </header>
  );
}
