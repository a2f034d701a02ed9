import { Link } from "react-router";
import { LogIn } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { brandingRules } from "../../lib/domain";
import { signInFirst, useSession } from "../../lib/session";
import { ServerPage } from "../server-page/server-page";
import { useWhiteLabel } from "./api/white-label";
import { BrandingForm } from "./branding-form";

const rules = brandingRules();

/** Where a signed-out visitor or an account without white-label is told how to get it. */
function Invitation({ signedIn }: { signedIn: boolean }) {
  return (
    <section aria-labelledby="white-label-settings" className="not-prose mt-10">
      <Card>
        <CardHeader>
          <CardTitle as="h2" id="white-label-settings">
            Brand your reports
          </CardTitle>
          <CardDescription>
            {signedIn
              ? `${rules.notEntitledMessage} Choose a plan, or buy a Premium report, and your company name, logo, colours and contact details replace Sitelens on your reports.`
              : "Sign in (or create a free account) to set your company name, logo, colours and contact details; you will come back here."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {signedIn ? (
            <Button asChild>
              <Link to="/pricing">See the plans</Link>
            </Button>
          ) : (
            <Button asChild>
              <Link to={signInFirst("/white-label")}>
                <LogIn aria-hidden="true" /> Sign in to brand your reports
              </Link>
            </Button>
          )}
        </CardContent>
      </Card>
    </section>
  );
}

/**
 * /white-label: the landing text the server renders from content/pages/white-label.md, for
 * everyone; above it, for an account that may brand, its branding settings with a live preview;
 * within it, after the article's text, for anyone else, how to get there (sign in, or the plans
 * that include it).
 */
export function WhiteLabelPage() {
  const { signedIn, loading } = useSession();
  const settings = useWhiteLabel(signedIn);
  const data = settings.data;
  const settled = !loading && (!signedIn || !settings.isPending);
  // Under the landing text (before its "Read next"), for whoever cannot brand yet.
  let below = null;
  if (signedIn && settings.isPending) {
    below = (
      <div className="not-prose mt-10 flex justify-center" role="status" aria-label="Loading your branding settings">
        <Spinner className="size-6" />
      </div>
    );
  } else if (signedIn && settings.isError) {
    below = (
      <p role="alert" className="not-prose mt-10 text-muted-foreground">
        Your branding settings could not be loaded. Reload the page to try again.
      </p>
    );
  } else if (settled && !data?.mayBrand) {
    below = <Invitation signedIn={signedIn} />;
  }
  return (
    <>
      {data?.mayBrand && (
        <section aria-labelledby="white-label-settings" className="mx-auto max-w-6xl px-4 pt-10">
          <h2 id="white-label-settings" className="mb-4 text-2xl font-semibold tracking-tight">
            Your white-label brand
          </h2>
          <BrandingForm settings={data} />
        </section>
      )}
      <ServerPage slot={{ anchor: "what-white-label-means-here", node: below }} />
    </>
  );
}
