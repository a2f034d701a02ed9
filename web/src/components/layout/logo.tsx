import { Link } from "react-router";
import { cn } from "../../lib/cn";
import { LogoMark } from "./logo-mark";
import { logoLinkClass } from "./logo-class";


/** The Sitelens mark: a lens over a page, with the word mark. */
export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <Link to="/" className={cn(logoLinkClass, className)} aria-label="Sitelens home">
      <LogoMark inverted={inverted} />
    </Link>
  );
}
